"""Vertex tangents for normal maps: glTF's TANGENT attribute from positions, normals and UVs.

A normal map is read in the frame of each vertex's tangent (the direction ``u`` grows along the surface),
its normal, and the bitangent ``cross(normal, tangent.xyz) * tangent.w`` (glTF 2.0, 3.7.2.1). The normal
map's green channel points up its image, which is where glTF's ``v`` falls, so the bitangent follows
``-v``. Without the attribute a viewer makes its own (the validator warns that those differ between
viewers); with it, three.js, model-viewer and Blender shade the same bumps the same way.

1. Per triangle, the surface's rate of change along ``u`` and along ``-v`` (solved from its edges
   and their UV differences); triangles with no UV area add nothing.
2. Summed per vertex (weighted by the triangle's area through the unnormalised solve), made
   perpendicular to the vertex normal (Gram-Schmidt) and unit length; ``w`` is the handedness, -1
   where the UVs are mirrored. A vertex on no usable triangle gets any unit vector perpendicular to
   its normal.

>>> import numpy as np
>>> pos = np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0]], np.float32)
>>> t = tangents(pos, np.tile([0, 0, 1], (3, 1)).astype(np.float32), np.array([[0, 1], [1, 1], [0, 0]], np.float32),
...              np.array([[0, 1, 2]]))
>>> t[0].round(3).tolist()
[1.0, 0.0, 0.0, 1.0]
"""

from __future__ import annotations

import numpy as np

__all__ = ["tangents"]


def tangents(positions: np.ndarray, normals: np.ndarray, uv: np.ndarray, indices: np.ndarray) -> np.ndarray:
    """(N, 4) float32 unit tangents with their handedness in ``w`` (glTF's TANGENT)."""
    p = positions.astype(np.float64)
    t = np.asarray(indices)
    e1, e2 = p[t[:, 1]] - p[t[:, 0]], p[t[:, 2]] - p[t[:, 0]]
    q = uv.astype(np.float64)
    d1, d2 = q[t[:, 1]] - q[t[:, 0]], q[t[:, 2]] - q[t[:, 0]]
    det = d1[:, 0] * d2[:, 1] - d2[:, 0] * d1[:, 1]
    # 1. Unnormalised (times the UV area's determinant): larger triangles weigh more, sign kept.
    sign = np.where(det < 0, -1.0, 1.0)[:, None]
    du = (e1 * d2[:, 1:2] - e2 * d1[:, 1:2]) * sign
    dv = (e2 * d1[:, 0:1] - e1 * d2[:, 0:1]) * sign
    usable = (np.abs(det) > 1e-20)[:, None]
    tan = np.zeros_like(p)
    bit = np.zeros_like(p)
    for k in range(3):
        np.add.at(tan, t[:, k], du * usable)
        np.add.at(bit, t[:, k], -dv * usable)
    # 2. Perpendicular to the normal, unit length, with the handedness.
    n = normals.astype(np.float64)
    tan -= n * (tan * n).sum(1, keepdims=True)
    length = np.linalg.norm(tan, axis=1, keepdims=True)
    spare = np.cross(n, np.where(np.abs(n[:, :1]) < 0.9, [[1.0, 0, 0]], [[0, 1.0, 0]]))
    tan = np.where(length > 1e-12, tan / np.maximum(length, 1e-12), spare / np.maximum(np.linalg.norm(spare, axis=1, keepdims=True), 1e-12))
    w = np.where((np.cross(n, tan) * bit).sum(1) < 0, -1.0, 1.0)
    return np.column_stack([tan, w]).astype(np.float32)
