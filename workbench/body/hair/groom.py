"""Guide strands: roots on the scalp, grown step by step along a style's direction field over the head,
then (long hair) falling past the shoulders, and resampled into the points a card is swept along.

A strand lives in two spaces, one after the other:

1. **On the head**: a unit direction ``d`` from the skull's centre and a height ``h`` over the head
   envelope (:class:`~.head.Head`); each step turns ``d`` by the step's length along the field's
   tangent, so the strand follows the head's shape at its height, never inside it.
2. **Falling** (where the style lets it, once below the skull's centre): an azimuth, a height ``y``
   and a distance ``rho`` from the vertical through the centre; each step goes down, turns the
   azimuth towards where the strand ends up (in front of the shoulder or behind it: long hair parts
   at the shoulders) and keeps ``rho`` at least the body envelope's reach plus the strand's clearance.

Everything is vectorised over strands: a step is a few numpy operations on (S, 3) arrays.

>>> from workbench.options import normalize_avatar_settings
>>> from workbench.body.mesh import body_mesh
>>> from .head import head_of
>>> h = head_of(body_mesh(normalize_avatar_settings({"gender": "feminine"})))
>>> d = fibonacci(200)
>>> path, _, _ = grow(h, d[d[:, 1] > 0.5], lambda s, d, p, i: np.tile([0.0, -1.0, 0.0], (len(d), 1)),
...                np.full((d[:, 1] > 0.5).sum(), 0.05), height=lambda s, d, i: 0.004 + 0 * s)
>>> path.shape[1:], bool((np.linalg.norm(path[:, 0] - h.centre, axis=1) > 0.05).all())
((12, 3), True)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from .head import Head, directions, hairline, rootline, smoothstep
from .texture import CLUMPS, COLUMNS

UP = np.array([0.0, 1.0, 0.0])
LEFT = np.array([1.0, 0.0, 0.0])
GOLDEN = np.pi * (3 - np.sqrt(5))
STEP = 0.008              # metres per growth step
POINTS = 12               # points per strand after resampling (the card's rows)
SETTLE = 0.6              # metres a falling strand draws in per metre down, past what it passed over


def fibonacci(n: int, seed: int | None = None, jitter: float = 0.35) -> np.ndarray:
    """``n`` unit vectors spread evenly over the sphere (a Fibonacci lattice), each moved by up to
    ``jitter`` of the spacing in a seeded random direction (so no spiral shows).

    >>> v = fibonacci(100, seed=1)
    >>> v.shape, bool(np.allclose(np.linalg.norm(v, axis=1), 1))
    ((100, 3), True)
    """
    i = np.arange(n) + 0.5
    y = 1 - 2 * i / n
    r = np.sqrt(1 - y * y)
    phi = i * GOLDEN
    v = np.stack([r * np.sin(phi), y, r * np.cos(phi)], 1)
    if seed is not None and jitter:
        rng = np.random.default_rng(seed)
        v = v + rng.normal(size=v.shape) * jitter * np.sqrt(4 * np.pi / n) / 2
        v /= np.linalg.norm(v, axis=1, keepdims=True)
    return v


def tangent(d: np.ndarray, v: np.ndarray) -> np.ndarray:
    """``v`` (N, 3) projected onto the tangent planes at unit ``d`` and made unit (zero stays zero)."""
    t = v - d * np.sum(v * d, axis=1, keepdims=True)
    n = np.linalg.norm(t, axis=1, keepdims=True)
    return np.where(n > 1e-9, t / np.maximum(n, 1e-12), 0.0)


@dataclass
class Fall:
    """How strands fall once below the skull's centre. ``end(az, i)`` and ``target(az, i)``: for strands
    ``i`` starting to fall at azimuth ``az`` (degrees), the height each ends at and the azimuth it turns
    to, from ``turn_y`` down to ``part_y`` (or, given ``part_at(az, i)``, between each strand's own two heights);
    ``clearance(az, y, i)`` metres over the body envelope; ``sway`` (S,) metres of sideways wave."""

    end: Callable[[np.ndarray, np.ndarray], np.ndarray]
    target: Callable[[np.ndarray, np.ndarray], np.ndarray]
    turn_y: float
    part_y: float
    clearance: Callable[[np.ndarray, np.ndarray, np.ndarray], np.ndarray]
    sway: np.ndarray
    part_at: Callable[[np.ndarray, np.ndarray], tuple[np.ndarray, np.ndarray]] | None = None


@dataclass
class Strands:
    """Guide strands ready to sweep: points and volume normals (S, K, 3), fallen points (S, K),
    widths (S,) in metres at the root, atlas columns (S,), the tip taper, and optionally the direction
    each card's width lies along (S, K, 3; else across the strand in the hair's surface) and how far along
    its strand each point is (S, K, from 0 at the root to 1 at the tip; else evenly: :func:`arc`)."""

    pts: np.ndarray
    nrm: np.ndarray
    hanging: np.ndarray
    width: np.ndarray
    column: np.ndarray
    taper: float = 0.45
    across: np.ndarray | None = None
    along: np.ndarray | None = None

    def take(self, keep: np.ndarray) -> Strands:
        return Strands(self.pts[keep], self.nrm[keep], self.hanging[keep], self.width[keep], self.column[keep],
                       self.taper, None if self.across is None else self.across[keep],
                       None if self.along is None else self.along[keep])


@dataclass
class Groom:
    """A style's strands for one body: ``cards`` (alpha-tested) and ``fringe`` (blended); ``extra``
    more alpha-tested cards with other rows (a bun's wraps, long hair's falls)."""

    cards: Strands
    fringe: Strands | None
    extra: list[Strands]


def clump_columns(rng, n: int) -> np.ndarray:
    return rng.integers(0, CLUMPS, n)


def wisp_columns(rng, n: int) -> np.ndarray:
    return rng.integers(CLUMPS, COLUMNS, n)


def scalp_roots(head: Head, style: str, count: int, seed: int, inside: float = 0.92) -> np.ndarray:
    """Directions of ``count`` roots spread over the sphere, those inside ``inside`` times the style's
    hairline (its :func:`~.head.rootline`; so the cards' root ends lie over the scalp layer where it is
    opaque: at the hairline the layer's own strands fade into the skin)."""
    d = fibonacci(count, seed)
    az, pol = np.degrees(np.arctan2(d[:, 0], d[:, 2])), np.degrees(np.arccos(np.clip(d[:, 1], -1, 1)))
    return d[pol < rootline(style, az) * inside]


def hairline_limit(style: str, front: float, back: float):
    """A stop where the strand passes the hairline times ``front`` (by the face) to ``back`` factor."""
    def limit(d, i):
        az = np.degrees(np.arctan2(d[:, 0], d[:, 2]))
        pol = np.degrees(np.arccos(np.clip(d[:, 1], -1, 1)))
        k = front + (back - front) * smoothstep(40.0, 100.0, np.abs(az))
        return pol > hairline(style, az) * k
    return limit


def edge_wisps(head: Head, style: str, rng, count: int, length: float, field=None, points: int = 5,
               skip: tuple[float, float] | None = None) -> Strands:
    """Fine strands rooted in a band just inside the hairline and lying out over it (away from the
    crown, unless a style's ``field`` says otherwise): the blended fringe that softens the hairline;
    none rooted between the azimuths ``skip`` (degrees from the face, either side)."""
    az = rng.uniform(-180, 180, count)
    pol = hairline(style, az) * rng.uniform(0.93, 1.0, count)
    d = directions(az, pol)
    lengths = length * rng.uniform(0.6, 1.2, count)
    keep = np.ones(count, bool) if skip is None else (np.abs(az) < skip[0]) | (np.abs(az) > skip[1])
    field = field or (lambda s, d, p, i: tangent(d, d - UP))
    pts, nrm, hang = grow(head, d[keep], field, lengths[keep], height=lambda s, d, i: 0.001 + 0.02 * s, points=points)
    return Strands(pts, nrm, hang, rng.uniform(0.004, 0.008, count)[keep], wisp_columns(rng, count)[keep], 0.3)


def flyaways(cards: Strands, rng, count: int, span: tuple[float, float], out: float, width: tuple[float, float],
             points: int = 8) -> Strands:
    """Narrow locks lifted off ``count`` of ``cards`` (alpha-tested, in the clump columns): each follows its card over
    part of ``span`` (shares of the card's length: from its first half on, over 0.6 to all of the rest) and drifts off it
    along the card's volume normal, up to ``out`` metres (0.5 to 1 times it) by its end, ``width`` (metres, a range)
    wide at its root. Where its card lies along the hair's outline from a view, it breaks the outline's curve.

    >>> pts = np.stack([np.linspace([0.0, 0.0, 0.0], [0.0, -1.0, 0.0], 12)] * 3)
    >>> nrm = np.broadcast_to([0.0, 0.0, 1.0], pts.shape).copy()
    >>> c = Strands(pts, nrm, np.zeros((3, 12), bool), np.full(3, 0.01), np.zeros(3, np.int64))
    >>> f = flyaways(c, np.random.default_rng(0), 2, (0.2, 0.6), 0.01, (0.003, 0.005), 5)
    >>> f.pts.shape, bool(f.pts[:, 0, 2].max() < 1e-9), bool(0.005 <= f.pts[:, -1, 2].min())
    ((2, 5, 3), True, True)
    """
    pick = rng.choice(len(cards.pts), size=min(count, len(cards.pts)), replace=False)
    K = cards.pts.shape[1]
    a = rng.uniform(span[0], span[0] + 0.5 * (span[1] - span[0]), len(pick))
    b = a + (span[1] - a) * rng.uniform(0.6, 1.0, len(pick))
    t = np.linspace(0.0, 1.0, points)
    at = (a[:, None] + (b - a)[:, None] * t[None, :]) * (K - 1)
    lo = np.minimum(np.floor(at).astype(np.int64), K - 2)
    f = (at - lo)[..., None]
    rows = pick[:, None]
    pts = cards.pts[rows, lo] * (1 - f) + cards.pts[rows, lo + 1] * f
    nrm = cards.nrm[rows, lo] * (1 - f) + cards.nrm[rows, lo + 1] * f
    nrm /= np.linalg.norm(nrm, axis=-1, keepdims=True)
    drift = out * rng.uniform(0.5, 1.0, len(pick))[:, None] * t[None, :] ** 1.5
    return Strands(pts + drift[..., None] * nrm, nrm, cards.hanging[rows, lo], rng.uniform(*width, len(pick)),
                   clump_columns(rng, len(pick)))


def grow(head: Head, roots: np.ndarray, field, length: np.ndarray, *, height, fall: Fall | None = None,
         points: int = POINTS, limit=None, step: float = STEP, dense: float = 1.0) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Strands from root directions ``roots`` (S, 3), resampled to ``points`` points each: (S, points, 3)
    positions, (S, points, 3) unit "volume" normals (outward from the head, or from the body's axis
    once falling: the normal hair is lit by, smooth across strands) and (S, points) whether each
    point has fallen past the head.

    - ``field(s, d, p, i)``: the tangent direction to follow at arc length ``s``, direction ``d`` and
      position ``p`` of the strands ``i`` (indices into ``roots``) still on the head; projected onto
      the head's tangent plane here.
    - ``length`` (S,): each strand's length in metres (a falling strand also stops at its end height).
    - ``height(s, d, i)``: metres over the head envelope at arc length ``s`` for strands ``i``.
    - ``limit(d, i)``: optional, True where a strand on the head must stop (a hairline).
    - ``dense``: how many times closer the points are on the head than where it falls (:func:`_resample`).
    """
    S = len(roots)
    d = roots.astype(float).copy()
    steps = int(np.ceil(length.max() / step)) + 1 if S else 1
    path = np.empty((steps, S, 3))
    normal = np.empty((steps, S, 3))
    fell = np.zeros((steps, S))
    alive = np.ones(S, bool)
    stop = np.full(S, np.inf)
    falling = np.zeros(S, bool)
    az = np.zeros(S)
    y = np.zeros(S)
    rho = np.zeros(S)
    az0 = np.zeros(S)
    y0 = np.zeros(S)
    end = np.full(S, -np.inf)
    target = np.zeros(S)
    turn_y = np.full(S, fall.turn_y if fall is not None else 0.0)
    part_y = np.full(S, fall.part_y if fall is not None else 0.0)
    for k in range(steps):
        s = np.full(S, k * step)
        on = ~falling
        i_on = np.flatnonzero(on)
        p = np.empty((S, 3))
        p[on] = head.on_head(d[on], height(s[on], d[on], i_on))
        n = d.copy()
        if falling.any():
            f = falling
            p[f] = np.column_stack([head.centre[0] + rho[f] * np.sin(np.radians(az[f])), y[f],
                                    head.centre[2] + rho[f] * np.cos(np.radians(az[f]))])
            n[f] = np.column_stack([np.sin(np.radians(az[f])), np.zeros(f.sum()), np.cos(np.radians(az[f]))])
        path[k], normal[k], fell[k] = p, n, falling
        # Where each strand stops: its length, a hairline, or (falling) its end height.
        done = alive & (s >= length)
        if limit is not None:
            hit = np.zeros(S, bool)
            hit[on] = limit(d[on], i_on)
            done |= alive & hit & (s > 0)
        if fall is not None:
            done |= alive & falling & (y <= end)
        stop[done] = s[done]
        alive &= ~done
        if not alive.any():
            path, normal, fell = path[: k + 1], normal[: k + 1], fell[: k + 1]
            break
        # Step on the head.
        r = head.envelope(d[on]) + height(s[on], d[on], i_on)
        t = tangent(d[on], field(s[on], d[on], p[on], i_on))
        d_on = d[on] + t * (step / r)[:, None]
        d[on] = d_on / np.linalg.norm(d_on, axis=1, keepdims=True)
        # Step falling.
        if fall is not None:
            start = on & (d[:, 1] < 0)
            if start.any():
                q = p[start] - head.centre
                az[start] = np.degrees(np.arctan2(q[:, 0], q[:, 2]))
                az0[start] = az[start]
                y[start] = y0[start] = p[start, 1]
                rho[start] = np.hypot(q[:, 0], q[:, 2])
                i_start = np.flatnonzero(start)
                end[start] = fall.end(az0[start], i_start)
                target[start] = fall.target(az0[start], i_start)
                if fall.part_at is not None:
                    turn_y[start], part_y[start] = fall.part_at(az0[start], i_start)
                falling |= start
            f = falling
            if f.any():
                y[f] -= step
                turn = _turn(turn_y[f], part_y[f], y[f])
                a = az0[f] + _wrap(target[f] - az0[f]) * turn
                wave = fall.sway[f] * np.sin((y0[f] - y[f]) * 19.0 + az0[f]) * np.clip((y0[f] - y[f]) / 0.1, 0, 1)
                az[f] = a + np.degrees(wave / np.maximum(rho[f], 0.05))
                # Out over what it passes, and in again past it as it falls (held out where it had passed a
                # shoulder, a strand turned to the back or the chest hung a shoulder's width out: a wing).
                need = head.reach(az[f], y[f]) + fall.clearance(az[f], y[f], np.flatnonzero(f))
                rho[f] = np.maximum(rho[f] - SETTLE * step, need)
    stop = np.where(np.isfinite(stop), stop, (len(path) - 1) * step)
    pts, nrm, hanging = _resample(path, normal, fell, np.minimum(stop, (len(path) - 1) * step), step, points, dense)
    return pts, nrm, hanging > 0.5


def arc(pts: np.ndarray) -> np.ndarray:
    """How far along its strand (S, K, 3) each point is (S, K): its share of the strand's length from the root.

    >>> arc(np.array([[[0.0, 0, 0], [0, 1, 0], [0, 4, 0]]])).tolist()
    [[0.0, 0.25, 1.0]]
    """
    seg = np.linalg.norm(np.diff(pts, axis=1), axis=2)
    run = np.concatenate([np.zeros((len(pts), 1)), np.cumsum(seg, axis=1)], axis=1)
    return run / np.maximum(run[:, -1:], 1e-12)


def _turn(turn_y: np.ndarray, part_y: np.ndarray, y: np.ndarray) -> np.ndarray:
    t = np.clip((turn_y - y) / np.maximum(turn_y - part_y, 1e-6), 0, 1)
    return t * t * (3 - 2 * t)


def _wrap(a: np.ndarray) -> np.ndarray:
    """Degrees into -180..180."""
    return (a + 180) % 360 - 180


def _resample(path: np.ndarray, normal: np.ndarray, fell: np.ndarray, stop: np.ndarray, step: float, points: int,
              dense: float = 1.0):
    """Each strand's first ``stop`` metres as ``points`` points along it (linear between steps): evenly, or ``dense``
    times closer where it lies on the head (a row is a chord: 6.4 cm long over the skull it dips 6 mm under the curve,
    more than the layers' gaps, and neighbouring cards cut through each other across the strands: blind review J's
    checker on long hair's crown)."""
    S = path.shape[1]
    f = stop[:, None] * np.linspace(0, 1, points)[None, :] / step        # (S, points) fractional steps
    if dense != 1.0 and len(path) > 1:
        # (each step weighs ``dense`` on the head, 1 fallen; the points evenly spaced in the weights' sum)
        cost = np.concatenate([np.zeros((1, S)), np.cumsum(np.where(fell[:-1] > 0.5, 1.0, dense), axis=0)])
        k = np.arange(len(path), dtype=np.float64)
        for j in range(S):
            end = np.interp(stop[j] / step, k, cost[:, j])
            f[j] = np.interp(np.linspace(0, end, points), cost[:, j], k)
    i = np.minimum(f.astype(np.int64), len(path) - 2) if len(path) > 1 else np.zeros_like(f, np.int64)
    w = (f - i)[..., None] if len(path) > 1 else np.zeros(f.shape + (1,))
    cols = np.arange(S)[:, None]
    nxt = np.minimum(i + 1, len(path) - 1)
    pts = path[i, cols] * (1 - w) + path[nxt, cols] * w
    nrm = normal[i, cols] * (1 - w) + normal[nxt, cols] * w
    nrm /= np.maximum(np.linalg.norm(nrm, axis=2, keepdims=True), 1e-12)
    return pts, nrm, fell[i, cols] * (1 - w[..., 0]) + fell[nxt, cols] * w[..., 0]


def clumped(s: Strands, head: Head, every: int, strength: float, seed: int) -> Strands:
    """``s`` with its hanging points drawn round the head towards those of a clump's guide (one strand in
    ``every``, each strand's nearest by its hanging points), by up to ``strength`` of their azimuths' gap at
    the tip (from none where it starts to hang): wide flat cards side by side read as a slab, with its
    cards' edges and its ends' gaps in a row; drawn into locks they part into clumps with shade between.
    Only the azimuth moves: each card keeps its height and its distance out (its layer), so no two cards
    of a lock lie in one surface.

    >>> from workbench.options import normalize_avatar_settings
    >>> from workbench.body.mesh import body_mesh
    >>> from .styles import groom
    >>> from .head import head_of
    >>> m = body_mesh(normalize_avatar_settings({"gender": "feminine"}))
    >>> g = groom(m, "bob", 1)
    >>> c = clumped(g.cards, head_of(m), 6, 0.5, 0)
    >>> bool(np.allclose(c.pts[~c.hanging], g.cards.pts[~g.cards.hanging]))
    True
    """
    S, K, _ = s.pts.shape
    hang = s.hanging
    rel = s.pts - head.centre
    az = np.unwrap(np.arctan2(rel[..., 0], rel[..., 2]), axis=1)
    rho = np.hypot(rel[..., 0], rel[..., 2])
    low = np.asarray(hang.any(1), bool)
    if low.sum() < every:
        return s
    # Each hanging strand's place: where its hanging points are on average (azimuth on a circle and height).
    w = hang.astype(float)
    count = np.maximum(w.sum(1), 1)
    mean_az = np.arctan2((np.sin(az) * w).sum(1), (np.cos(az) * w).sum(1))
    mean_y = (s.pts[..., 1] * w).sum(1) / count
    where = np.column_stack([np.sin(mean_az) * 0.12, np.cos(mean_az) * 0.12, mean_y])
    rng = np.random.default_rng(seed)
    cand = np.flatnonzero(low)
    guides = np.sort(rng.choice(cand, max(1, len(cand) // every), replace=False))
    near = guides[np.argmin(np.linalg.norm(where[:, None] - where[guides][None], axis=2), axis=1)]
    # How far along its hanging part each point is (0 where it starts to hang, 1 at its tip).
    along = np.cumsum(w, axis=1) / count[:, None]
    pull = strength * (along * (2 - along)) * hang
    gap = np.angle(np.exp(1j * (mean_az[near][:, None] - mean_az[:, None])))       # the locks' azimuths
    gap = np.where(low[:, None], gap, 0.0)
    a = az + pull * gap
    pts = s.pts.copy()
    pts[..., 0] = np.where(hang, head.centre[0] + rho * np.sin(a), pts[..., 0])
    pts[..., 2] = np.where(hang, head.centre[2] + rho * np.cos(a), pts[..., 2])
    nrm = s.nrm.copy()
    nrm[..., 0] = np.where(hang, np.sin(a), nrm[..., 0])
    nrm[..., 2] = np.where(hang, np.cos(a), nrm[..., 2])
    return Strands(pts, nrm, hang, s.width, s.column, s.taper, s.across, s.along)


# Metres behind the skull's centre the vertical stands that a bob's ends turn in towards (:func:`tucked`).
BACK = 0.05


def tucked(s: Strands, head: Head, length: float, turn: float, front: tuple[float, float, float] = (0.0, 0.0, 1.0)
           ) -> Strands:
    """``s`` with the last ``length`` metres of each hanging strand curled in under the hair along a circular arc
    that turns ``turn`` degrees by the tip, towards the vertical through the skull's centre (a bob's ends turned
    under): seen from the side, behind or in front its lower edge is a rounded bend, each card's full width, not a
    flat cut (a comb's teeth, a bowl's rim). ``front``: a strand whose tip is within the first figure's degrees of
    the face turns only the third figure's share of ``turn``, all of it from the second figure's on.

    >>> from workbench.options import normalize_avatar_settings
    >>> from workbench.body.mesh import body_mesh
    >>> from .styles import groom
    >>> from .head import head_of
    >>> m = body_mesh(normalize_avatar_settings({"gender": "feminine"}))
    >>> h = head_of(m)
    >>> g = groom(m, "bob", 1).cards
    >>> t = tucked(g, h, 0.03, 60.0)
    >>> rho = lambda p: np.hypot(*(p - h.centre)[..., [0, 2]].T)
    >>> bool(np.all(rho(t.pts[:, -1]) <= rho(g.pts[:, -1]) + 1e-9))
    True
    """
    seg = np.linalg.norm(np.diff(s.pts, axis=1), axis=2)
    from_tip = np.concatenate([np.cumsum(seg[:, ::-1], axis=1)[:, ::-1], np.zeros((len(seg), 1))], axis=1)
    # (A strand falling straight down bent round a circle of radius length / turn from ``length`` over its tip:
    # at arc length a past the bend's start it is r (1 - cos(a / r)) in and a - r sin(a / r) up from where it hung.)
    tip = s.pts[:, -1] - head.centre
    near = smoothstep(front[0], front[1], np.abs(np.degrees(np.arctan2(tip[:, 0], tip[:, 2]))))
    phi = np.radians(turn) * (front[2] + (1 - front[2]) * near)[:, None]
    r = length / phi
    a = np.clip(length - from_tip, 0.0, length) * s.hanging
    inward, up = r * (1 - np.cos(a / r)), a - r * np.sin(a / r)
    # (...towards a vertical BACK metres behind the skull's centre, the neck's: towards the skull's own, the ends by
    # the jaw turned in towards the chin)
    axis = head.centre - np.array([0.0, 0.0, BACK])
    rel = s.pts - axis
    rho = np.hypot(rel[..., 0], rel[..., 2])
    scale = np.maximum(rho - inward, 0.0) / np.maximum(rho, 1e-9)
    pts = s.pts.copy()
    pts[..., 0] = axis[0] + rel[..., 0] * scale
    pts[..., 2] = axis[2] + rel[..., 2] * scale
    pts[..., 1] += up
    return Strands(pts, s.nrm, s.hanging, s.width, s.column, s.taper, s.across, s.along)


# Where a card's root starts (metres over the head: under the scalp layer, which stands a few
# millimetres off the skin inside the hairline) and over what length of strand it rises to its height.
ROOT_HEIGHT, EMERGE = 0.003, 0.015


def emerge(s: np.ndarray, height) -> np.ndarray:
    """``height`` reached from :data:`ROOT_HEIGHT` over the first :data:`EMERGE` metres of a strand: a
    card's root end starts under the scalp layer and comes out of it (a root end standing at the card's
    height showed as a blunt step, a row of bricks along the hairline)."""
    return ROOT_HEIGHT + (height - ROOT_HEIGHT) * smoothstep(0.0, EMERGE, s)


def whorl_field(whorl: np.ndarray, d: np.ndarray, swirl: float = 1.0) -> np.ndarray:
    """Away from a whorl at unit ``whorl``, turning round it close to it (so no strand stands up there)."""
    near = smoothstep(0.97, 0.995, d @ whorl)[:, None]
    return tangent(d, d - whorl) * (1 - 0.7 * near) + swirl * near * np.cross(whorl, d)
