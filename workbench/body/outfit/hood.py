"""A hoodie's hood, lying down: a band of cloth rising from the back of the neckline, folding over and
lying on the shoulders and upper back, deepest (a V) at the back's middle.

Made once on the reference drape (:mod:`.pattern`): its points lie off the hoodie, each bound to the hoodie's nearest triangle as a
blend of its corners plus an offset along its normal (the ``.mhclo`` binding, with the hoodie as the
body). On any body :func:`worn` rebuilds those points on the fitted hoodie, so the hood follows it.

1. The neckline from 70 degrees either side of the front round the back, as a smooth ring (its radius
   and height by bearing), resampled at even bearings (the neckline's own points are uneven, and a
   profile from each crinkled the hood).
2. A profile out from each: up 2 cm and out, over the fold 4 cm up, then down the back: 5 cm at the
   sides, 16 cm at the back's middle (the hood's depth by bearing); smaller towards the two ends,
   where the hood gathers into the neckline.
3. Each point at least 1.2 cm outside the hoodie (its thickness), bound to the hoodie's nearest
   triangle.

>>> PROFILE.shape
(8, 3)
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp
from scipy.spatial import cKDTree

__all__ = ["PROFILE", "hood", "worn"]

# Rows of the profile: (up, out, share of the hood's depth down the back), metres.
PROFILE = np.array([[0.0, 0.0, 0.0], [0.022, 0.006, 0.0], [0.038, 0.02, 0.0], [0.032, 0.042, 0.0],
                    [0.012, 0.055, 0.2], [0.0, 0.06, 0.45], [0.0, 0.06, 0.72], [0.0, 0.058, 1.0]])
THICK = 0.012
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
    at = np.linspace(np.radians(70), np.radians(290), STEPS)
    wrap = np.concatenate([bearing - 2 * np.pi, bearing, bearing + 2 * np.pi])
    r = np.interp(at, wrap, np.tile(radius, 3))
    y = np.interp(at, wrap, np.tile(height, 3))
    back = at - np.pi
    # The hood gathers into the neckline at its two ends.
    size = 0.3 + 0.7 * np.sin(np.clip((np.pi - np.abs(back)) / np.radians(110), 0, 1) * np.pi / 2) ** 0.7
    out = np.column_stack([np.sin(at), np.zeros(STEPS), np.cos(at)])
    base = np.column_stack([neck[0] + r * np.sin(at), y - 0.004, neck[1] + r * np.cos(at)])
    # 2. The profile from each.
    depth = SIDE + (BACK - SIDE) * np.cos(np.clip(back, -np.pi / 2, np.pi / 2)) ** 2
    up = np.array([0.0, 1.0, 0.0])
    rows = [base + (size * row[0])[:, None] * up + (size * (row[1] + THICK))[:, None] * out
            - (size * row[2] * depth)[:, None] * up for row in PROFILE]
    new = np.concatenate(rows)
    # 3. Outside the hoodie by its thickness, then bound to it.
    tri, bary, offset = _nearest_on(points, faces, new)
    offset = np.maximum(offset, THICK * np.repeat(PROFILE[:, 2] > 0, STEPS) + 0.003)
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
