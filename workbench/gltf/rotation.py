"""Rotation matrices from the clips' quaternions and Euler angles, as the stances' solvers turn the arm's joints.

The one place the quaternion-to-matrix rule is written (:func:`matrix`) and its compiled form for rows of Euler angles
(:func:`turns`, the same operations in the same order), used by :mod:`workbench.gltf.reach`'s hand solver and
:mod:`workbench.gltf.stances`' grid.

>>> import numpy as np
>>> matrix(np.array([0.0, 0.0, 0.0, 1.0])).tolist()
[[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]]
"""

from __future__ import annotations

import numpy as np
from numba import njit

__all__ = ["matrix", "turns"]


def matrix(q: np.ndarray) -> np.ndarray:
    """(..., 4) quaternions x, y, z, w -> (..., 3, 3) rotation matrices."""
    x, y, z, w = np.moveaxis(q, -1, 0)
    return np.stack([np.stack([1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)], -1),
                     np.stack([2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)], -1),
                     np.stack([2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)], -1)], -2)


@njit(cache=True, nogil=True)
def turns(deg: np.ndarray) -> np.ndarray:
    """(n, 3) degrees -> (n, 3, 3) rotation matrices: ``matrix(euler_to_quat(deg))`` to the last bit (the same
    operations in the same order: z applied first, then x, then y; a quaternion's sign, which euler_to_quat turns
    between consecutive rows, does not reach the matrix), without numpy's calls on arrays of three.

    >>> from workbench.gltf.clips import euler_to_quat
    >>> a = np.array([[10.0, -40.0, 75.0], [0.0, 0.0, 0.0], [-170.5, 33.3, 181.0]])
    >>> bool((turns(a) == matrix(euler_to_quat(a))).all())
    True
    """
    out = np.empty((deg.shape[0], 3, 3))
    for r in range(deg.shape[0]):
        h = np.radians(deg[r]) / 2
        s, c = np.sin(h), np.cos(h)
        q = np.array([0.0, 0.0, s[2], c[2]])                         # z, then x (x * z), then y (y * that)
        for a in (np.array([s[0], 0.0, 0.0, c[0]]), np.array([0.0, s[1], 0.0, c[1]])):
            ax, ay, az, aw = a
            bx, by, bz, bw = q
            q = np.array([aw * bx + ax * bw + ay * bz - az * by, aw * by - ax * bz + ay * bw + az * bx,
                          aw * bz + ax * by - ay * bx + az * bw, aw * bw - ax * bx - ay * by - az * bz])
        x, y, z, w = q
        n = np.sqrt(x * x + y * y + z * z + w * w)
        x, y, z, w = x / n, y / n, z / n, w / n
        out[r, 0, 0], out[r, 0, 1], out[r, 0, 2] = 1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)
        out[r, 1, 0], out[r, 1, 1], out[r, 1, 2] = 2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)
        out[r, 2, 0], out[r, 2, 1], out[r, 2, 2] = 2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)
    return out
