"""Hair wound round itself: curly hair's coils, and the bun's wraps.

- **Curly**: clumps rooted over the scalp; each clump's axis is grown like any strand but stands
  far off the head (the hair's volume), and round it two coils wind half a turn apart (a clump of
  two spirals). A coil's card lies along the axis (a ribbon wound like a spring), narrower than the
  coil's pitch, so the coils behind and the dark roots show between its turns; its normals lean out
  with the coil, so each turn shades round. In front the clumps rise and go back over the head (no
  curl falls over the forehead); at the sides and back they fall a little.
- **The bun**: at the back of the crown, where the sleek strands of the ``bun`` style end
  (:func:`bun_axis`, :func:`bun_base_angle`), wraps of hair wind round a slightly flattened ball:
  arcs of three quarters of a turn on spheres one inside the other, each tilted its own way about
  the bun's axis, their undersides kept out of the hair on the head.

>>> from workbench.options import normalize_avatar_settings
>>> from workbench.body.mesh import body_mesh
>>> from .head import head_of
>>> m = body_mesh(normalize_avatar_settings({"gender": "masculine"}))
>>> g = curly(m, head_of(m), 1)
>>> g.cards.pts.shape[1], g.cards.across is not None
(14, True)
"""

from __future__ import annotations

import numpy as np

from ..mesh import BodyMesh
from .groom import UP, Groom, Strands, clump_columns, edge_wisps, grow, scalp_roots, tangent
from .head import Head, directions, smoothstep

# The bun: its axis (degrees: azimuth from the face, polar from the crown) and radius (of the head's).
BUN_AT = (180.0, 60.0)
BUN_RADIUS = 0.36
# Curly: roots over the sphere per level of detail, coils per clump and points per coil per level,
# pitch and radius (metres).
CURLY_ROOTS = (720, 330)
CURLY_COILS = (1, 1)
COIL_POINTS = (18, 14)
PITCH = (0.013, 0.019)
COIL = (0.0045, 0.0075)


def bun_axis(head: Head) -> np.ndarray:
    """The unit direction from the skull's centre to the bun."""
    return directions(np.array([BUN_AT[0]]), np.array([BUN_AT[1]]))[0]


def bun_base_angle(head: Head) -> float:
    """The angle (radians, about the skull's centre) of the bun's base, where the sleek strands end."""
    b = bun_axis(head)
    return float(np.arcsin(min(0.95, 0.7 * BUN_RADIUS * head.radius / head.envelope(b[None])[0])))


def bun_wraps(head: Head, rng, count: int, points: int = 16) -> Strands:
    """The bun's wraps as strands (see the module's text), inner wraps first."""
    axis = bun_axis(head)
    rb = BUN_RADIUS * head.radius
    centre = head.centre + axis * (head.envelope(axis[None])[0] + 0.55 * rb)
    k = np.arange(count)
    radius = rb * (0.72 + 0.28 * (k + rng.random(count)) / count)
    # Each wrap's plane: tilted up to 55 degrees off the bun's axis, turned any way round it.
    tilt = np.radians(rng.uniform(0, 55, count))
    turn = rng.uniform(0, 2 * np.pi, count)
    e1 = np.cross(axis, [1.0, 0.0, 0.0])
    e1 /= np.linalg.norm(e1)
    e2 = np.cross(axis, e1)
    normal = (axis[None] * np.cos(tilt)[:, None] + np.sin(tilt)[:, None]
              * (np.cos(turn)[:, None] * e1 + np.sin(turn)[:, None] * e2))
    a = np.cross(normal, e1 if abs(e1 @ axis) < 0.9 else e2)
    a /= np.linalg.norm(a, axis=1, keepdims=True)
    b = np.cross(normal, a)
    theta = rng.uniform(0, 2 * np.pi, count)[:, None] + np.linspace(0, 1.5 * np.pi, points)[None, :]
    r = radius[:, None] * (1 - 0.1 * np.linspace(0, 1, points))[None, :]
    off = r[..., None] * (np.cos(theta)[..., None] * a[:, None] + np.sin(theta)[..., None] * b[:, None])
    off -= 0.2 * (off @ axis)[..., None] * axis                    # a little flattened along its axis
    pts = centre + off
    # Kept out of the hair on the head under it.
    rel = pts.reshape(-1, 3) - head.centre
    dist = np.linalg.norm(rel, axis=1)
    d = rel / dist[:, None]
    floor = head.envelope(d) + 0.006
    pts = (head.centre + d * np.maximum(dist, floor)[:, None]).reshape(pts.shape)
    nrm = off / np.linalg.norm(off, axis=2, keepdims=True)
    return Strands(pts, nrm, np.zeros(pts.shape[:2], bool), rng.uniform(0.014, 0.02, count),
                   clump_columns(rng, count), 0.3)


def curly(mesh: BodyMesh, head: Head, lod: int) -> Groom:
    """Curly hair's clumps of coils (see the module's text)."""
    rng = np.random.default_rng(64)
    roots = scalp_roots(head, "curly", CURLY_ROOTS[lod], 64, inside=0.95)
    S = len(roots)
    crown = directions(np.array([180.0]), np.array([15.0]))[0]
    az = np.degrees(np.arctan2(roots[:, 0], roots[:, 2]))
    pol = np.degrees(np.arccos(np.clip(roots[:, 1], -1, 1)))
    front = smoothstep(75.0, 40.0, np.abs(az)) * smoothstep(70.0, 40.0, pol)
    low = smoothstep(55.0, 100.0, pol)

    def field(s, d, p, i):
        # Mostly out from the head (the height below does that); along the head, back from the face
        # in front, a little down at the sides and back.
        back = (tangent(d, crown - d) + UP * 0.2) * front[i][:, None]
        out = (tangent(d, d - crown) * 0.5 - UP * (0.6 * low[i])[:, None]) * (1 - front[i])[:, None]
        return back + out

    volume = rng.uniform(0.85, 1.15, S) * (1 - 0.3 * low)

    def height(s, d, i):
        return 0.004 + 0.75 * s * volume[i]

    # Shorter at the hairline in front (no curl over the forehead), a rounded outline elsewhere.
    length = rng.uniform(0.045, 0.06, S) * (1 - 0.2 * low) * (1 - 0.35 * front * smoothstep(30.0, 45.0, pol))
    K = COIL_POINTS[lod]
    axis, nrm, hang = grow(head, roots, field, length, height=height, points=K)
    t = np.gradient(axis, axis=1)
    t /= np.maximum(np.linalg.norm(t, axis=2, keepdims=True), 1e-12)
    n1 = nrm - t * np.sum(nrm * t, axis=2, keepdims=True)
    n1 /= np.maximum(np.linalg.norm(n1, axis=2, keepdims=True), 1e-12)
    n2 = np.cross(t, n1)
    pitch = rng.uniform(*PITCH, S)
    turns = length / pitch
    s = np.linspace(0, 1, K)
    # The coil opens out of the root over its first turn (so it does not dip into the scalp).
    radius = rng.uniform(*COIL, S)[:, None] * (1 - 0.3 * s)[None, :] * np.clip(s[None, :] * turns[:, None], 0, 1)
    parts = []
    for phase in (0.0, np.pi)[:CURLY_COILS[lod]]:
        theta = rng.uniform(0, 2 * np.pi, S)[:, None] + phase + 2 * np.pi * turns[:, None] * s[None, :]
        ring = np.cos(theta)[..., None] * n1 + np.sin(theta)[..., None] * n2
        pts = axis + radius[..., None] * ring
        shade = nrm + 0.6 * ring
        shade /= np.linalg.norm(shade, axis=2, keepdims=True)
        parts.append(Strands(pts, shade, hang, rng.uniform(0.009, 0.012, S), clump_columns(rng, S), 0.25, t))
    cards = Strands(*(np.concatenate([getattr(p, f) for p in parts]) for f in ("pts", "nrm", "hanging", "width",
                                                                               "column")), 0.25,
                    np.concatenate([p.across for p in parts]))
    wisps = edge_wisps(head, "curly", rng, 60 if lod == 0 else 30, 0.015,
                       lambda s, d, p, i: tangent(d, crown - d) + UP * 0.5)
    return Groom(cards, wisps, [])
