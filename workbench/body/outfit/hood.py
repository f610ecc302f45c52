"""A hoodie's hood, lying down: a band of cloth rising from the back of the neckline, folding over and
lying on the shoulders and upper back, deepest (a V) at the back's middle.

Made once on the reference drape (:mod:`.pattern`): its points lie off the hoodie, each bound to the hoodie's nearest triangle as a
blend of its corners plus an offset along its normal (the ``.mhclo`` binding, with the hoodie as the
body). On any body :func:`worn` rebuilds those points on the fitted hoodie, so the hood follows it.

1. The neckline from 95 degrees either side of the front round the back, as a smooth ring (its radius
   and height by bearing), resampled at even bearings (the neckline's own points are uneven, and a
   profile from each crinkled the hood).
2. A profile down the back from each: 5 cm at the sides, 16 cm at the back's middle (the hood's depth
   by bearing), less towards the two ends, where the hood gathers into the neckline; a pad standing
   off the hoodie by up to 2.5 cm, thickest a third of the way down, thinning to its edge. (A roll
   standing up round the neck, the first way, was bound to triangles under it that moved apart as the
   shoulders did, and crumpled into flaps.)
3. Each point onto the hoodie (the foot of its nearest triangle) and its thickness out along that
   triangle's normal.

>>> PROFILE.shape
(8, 2)
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp
from scipy.spatial import cKDTree

__all__ = ["PROFILE", "hood", "worn"]

# Rows of the profile: (share of the hood's depth down the back, how far it stands off the hoodie in metres):
# a pad thickest a little below the neckline (the hood's folded cloth), thinning to its edge.
PROFILE = np.array([[0.0, 0.004], [0.08, 0.014], [0.2, 0.022], [0.36, 0.025], [0.54, 0.023], [0.72, 0.018],
                    [0.88, 0.012], [1.0, 0.006]])
SIDE, BACK = 0.05, 0.16
STEPS = 33


def _nearest_on(points: np.ndarray, faces: np.ndarray, targets: np.ndarray):
    """For each target: the triangle of ``faces`` nearest it (among those round its 8 nearest points),
    the barycentrics of its foot there (clamped into the triangle) and its offset along the triangle's normal."""
    centres = points[faces].mean(1)
    _, cand = cKDTree(centres).query(targets, k=8)
    a, b, c = (points[faces[cand][..., k]] for k in range(3))
    n = np.cross(b - a, c - a)
    n /= np.maximum(np.linalg.norm(n, axis=-1, keepdims=True), 1e-12)
    d = ((targets[:, None] - a) * n).sum(-1)
    foot = targets[:, None] - d[..., None] * n
    v0, v1, v2 = b - a, c - a, foot - a
    d00, d01, d11 = (v0 * v0).sum(-1), (v0 * v1).sum(-1), (v1 * v1).sum(-1)
    d20, d21 = (v2 * v0).sum(-1), (v2 * v1).sum(-1)
    den = np.maximum(d00 * d11 - d01 * d01, 1e-18)
    w1 = (d11 * d20 - d01 * d21) / den
    w2 = (d00 * d21 - d01 * d20) / den
    bary = np.clip(np.stack([1 - w1 - w2, w1, w2], -1), 0, None)
    bary /= bary.sum(-1, keepdims=True)
    closest = (bary[..., :, None] * np.stack([a, b, c], -2)).sum(-2)
    pick = np.linalg.norm(targets[:, None] - closest, axis=-1).argmin(1)
    rows = np.arange(len(targets))
    return faces[cand[rows, pick]], bary[rows, pick], d[rows, pick]


def hood(points: np.ndarray, faces: np.ndarray, neckline: np.ndarray, neck: tuple[float, float]):
    """The hood on a draped hoodie (``points``, ``faces``): (binding (hood points x points, sparse), offsets,
    hood faces, indices into the points then the hood's). ``neckline``: indices of the neckline's points;
    ``neck``: the neck axis' (x, z)."""
    # 1. The neckline round the back as a smooth ring: its radius and height by bearing, resampled evenly.
    rel = points[neckline][:, [0, 2]] - np.asarray(neck)
    bearing = np.mod(np.arctan2(rel[:, 0], rel[:, 1]), 2 * np.pi)     # 0 at the front, pi at the back
    order = np.argsort(bearing)
    bearing, radius, height = bearing[order], np.hypot(*rel[order].T), points[neckline][order, 1]
    at = np.linspace(np.radians(95), np.radians(265), STEPS)
    wrap = np.concatenate([bearing - 2 * np.pi, bearing, bearing + 2 * np.pi])
    r = np.interp(at, wrap, np.tile(radius, 3))
    y = np.interp(at, wrap, np.tile(height, 3))
    back = at - np.pi
    # The hood gathers into the neckline at its two ends.
    size = 0.15 + 0.85 * np.sin(np.clip((np.pi - np.abs(back)) / np.radians(85), 0, 1) * np.pi / 2) ** 0.7
    out = np.column_stack([np.sin(at), np.zeros(STEPS), np.cos(at)])
    base = np.column_stack([neck[0] + r * np.sin(at), y - 0.004, neck[1] + r * np.cos(at)])
    # 2. The profile from each: down the back by a share of the depth (the hood lies on the hoodie), out by
    # the pad's thickness.
    depth = size * (SIDE + (BACK - SIDE) * np.cos(np.clip(back, -np.pi / 2, np.pi / 2)) ** 2)
    new = np.concatenate([base + 0.01 * out - (row[0] * depth)[:, None] * np.array([0.0, 1.0, 0.0]) for row in PROFILE])
    # 3. Onto the hoodie, its thickness out, bound to it.
    tri, bary, _ = _nearest_on(points, faces, new)
    offset = 0.003 + np.repeat(PROFILE[:, 1], STEPS) * np.tile(size ** 2, len(PROFILE))
    binding = sp.csr_matrix((bary.reshape(-1), (np.repeat(np.arange(len(new)), 3), tri.reshape(-1))),
                            shape=(len(new), len(points)))
    index = (len(points) + np.arange(len(new))).reshape(len(PROFILE), STEPS)
    a, b = index[:-1, :-1], index[:-1, 1:]
    c, d = index[1:, :-1], index[1:, 1:]
    quads = np.concatenate([np.stack([a, c, b], -1).reshape(-1, 3), np.stack([b, c, d], -1).reshape(-1, 3)])
    # Wound to face away from the neck (the hood's outside).
    every = np.concatenate([points, new])
    n = np.cross(every[quads[:, 1]] - every[quads[:, 0]], every[quads[:, 2]] - every[quads[:, 0]])
    if (n[:, [0, 2]] * (every[quads].mean(1)[:, [0, 2]] - np.asarray(neck))).sum() < 0:
        quads = quads[:, [0, 2, 1]]
    return binding, offset, quads


def worn(points: np.ndarray, normals: np.ndarray, binding: sp.csr_matrix, offset: np.ndarray) -> np.ndarray:
    """The hood's new points on a fitted hoodie (its points and their normals)."""
    n = binding @ normals
    n /= np.maximum(np.linalg.norm(n, axis=1, keepdims=True), 1e-12)
    return binding @ points + offset[:, None] * n
