"""The styles' grooms: where each style's strands root, which way they are combed, how long they grow
and how high they stand, as guide strands (:mod:`.groom`) ready to be swept into cards.

- ``short``: a crop combed from a crown whorl, the top swept forward and over to the figure's left,
  the sides and back down; longer and fuller on top, ending at the hairline in front.
- ``long``: a centre parting; from it the hair goes to either side over the head and ears, falls
  below them, and parts at the shoulders: what grew in front of the ears falls in front of the
  shoulders onto the chest, the rest down the back in a U; in layers (roots nearer the crown lie
  outside and fall longer).
- ``bun``: every strand combed sleek towards the bun at the back of the crown (:mod:`.coils` winds
  the bun itself).
- ``curly``: :mod:`.coils`.

Every style also sends wisps past its edge (the blended fringe): short fine strands at the
hairline and a few loose ones over the outer layer.

>>> from workbench.options import normalize_avatar_settings
>>> from workbench.body.mesh import body_mesh
>>> g = groom(body_mesh(normalize_avatar_settings({"gender": "feminine"})), "short", 0)
>>> g.cards.pts.shape[1:], bool(g.cards.pts.shape[0] > 200)
((8, 3), True)
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..mesh import BodyMesh
from .groom import Fall, fibonacci, grow, tangent
from .head import Head, directions, hairline, head_of, smoothstep
from .texture import CLUMPS, COLUMNS

UP = np.array([0.0, 1.0, 0.0])
LEFT = np.array([1.0, 0.0, 0.0])


@dataclass
class Strands:
    """Guide strands ready to sweep: points and volume normals (S, K, 3), fallen points (S, K),
    widths (S,) in metres at the root, atlas columns (S,), and the tip taper."""

    pts: np.ndarray
    nrm: np.ndarray
    hanging: np.ndarray
    width: np.ndarray
    column: np.ndarray
    taper: float = 0.45

    def take(self, keep: np.ndarray) -> "Strands":
        return Strands(self.pts[keep], self.nrm[keep], self.hanging[keep], self.width[keep], self.column[keep],
                       self.taper)

    @staticmethod
    def join(parts: list["Strands"]) -> "Strands":
        k = max(p.pts.shape[1] for p in parts)
        same = [p for p in parts if p.pts.shape[1] == k]
        return Strands(*(np.concatenate([getattr(p, f) for p in same]) for f in
                         ("pts", "nrm", "hanging", "width", "column")), same[0].taper)


@dataclass
class Groom:
    """A style's strands for one body: ``cards`` (alpha-tested) and ``fringe`` (blended); ``extra``
    more alpha-tested cards with other rows (a bun's wraps, long hair's falls)."""

    cards: Strands
    fringe: Strands | None
    extra: list[Strands]


# Roots over the whole sphere (those inside a style's hairline are kept), per level of detail.
ROOTS = {"short": (1100, 520), "long": (760, 380), "bun": (1000, 480)}


def _clumps(rng, n: int) -> np.ndarray:
    return rng.integers(0, CLUMPS, n)


def _wisps(rng, n: int) -> np.ndarray:
    return rng.integers(CLUMPS, COLUMNS, n)


def _scalp_roots(head: Head, style: str, count: int, seed: int, inside: float = 0.97) -> np.ndarray:
    d = fibonacci(count, seed)
    az, pol = np.degrees(np.arctan2(d[:, 0], d[:, 2])), np.degrees(np.arccos(np.clip(d[:, 1], -1, 1)))
    return d[pol < hairline(style, az) * inside]


def _hairline_limit(style: str, front: float, back: float):
    """A stop where the strand passes the hairline times ``front`` (by the face) to ``back`` factor."""
    def limit(d, i):
        az = np.degrees(np.arctan2(d[:, 0], d[:, 2]))
        pol = np.degrees(np.arccos(np.clip(d[:, 1], -1, 1)))
        k = front + (back - front) * smoothstep(40.0, 100.0, np.abs(az))
        return pol > hairline(style, az) * k
    return limit


def _edge_wisps(head: Head, style: str, rng, count: int, length: float, field, points: int = 6) -> Strands:
    """Fine strands rooted just inside the hairline, combed as the style's field says: the blended
    fringe that softens the hairline's edge."""
    az = rng.uniform(-180, 180, count * 3)
    line = hairline(style, az)
    pol = line * rng.uniform(0.9, 1.0, len(az))
    d = directions(az, pol)[:count]
    lengths = length * rng.uniform(0.5, 1.1, len(d))
    pts, nrm, hang = grow(head, d, field, lengths, height=lambda s, d, i: 0.0015 + 0.05 * s, points=points)
    return Strands(pts, nrm, hang, rng.uniform(0.004, 0.008, len(d)), _wisps(rng, len(d)), 0.3)


def _short(mesh: BodyMesh, head: Head, lod: int) -> Groom:
    rng = np.random.default_rng(61)
    roots = _scalp_roots(head, "short", ROOTS["short"][lod], 61)
    S = len(roots)
    whorl = directions(np.array([180.0]), np.array([24.0]))[0]
    root_az = np.degrees(np.arctan2(roots[:, 0], roots[:, 2]))
    root_pol = np.degrees(np.arccos(np.clip(roots[:, 1], -1, 1)))
    top = smoothstep(60.0, 30.0, root_pol)
    front = smoothstep(70.0, 30.0, np.abs(root_az)) * top

    def field(s, d, p, i):
        away = d - whorl
        sweep = LEFT * (0.9 * front[i])[:, None] - UP * (0.6 * (1 - top[i]))[:, None]
        return tangent(d, away) + sweep

    length = (0.035 + 0.035 * top) * rng.uniform(0.8, 1.2, S)
    lift = rng.uniform(0.0, 0.003, S)
    full = 0.004 + 0.010 * top

    def height(s, d, i):
        return 0.0025 + lift[i] + np.minimum(0.3 * s, full[i])

    pts, nrm, hang = grow(head, roots, field, length, height=height, points=8,
                          limit=_hairline_limit("short", 1.0, 1.07))
    cards = Strands(pts, nrm, hang, rng.uniform(0.011, 0.016, S) * (1.25 if lod else 1.0), _clumps(rng, S), 0.35)
    wisps = _edge_wisps(head, "short", rng, 90 if lod == 0 else 40, 0.02,
                        lambda s, d, p, i: tangent(d, d - whorl) - UP * 0.3)
    return Groom(cards, wisps, [])


STYLES = ("short",)


def groom(mesh: BodyMesh, style: str, lod: int) -> Groom:
    """The guide strands of ``style`` for this body at ``lod`` (0: full, 1: about half the cards)."""
    head = head_of(mesh)
    if style == "short":
        return _short(mesh, head, lod)
    raise ValueError(f"hair: unknown style {style!r}")
