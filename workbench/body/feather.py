"""The nose's modifier targets feathered past their regions' borders.

MakeHuman's nose targets move the nose's wings and move nothing a vertex further out: ``nose-scale-horiz-decr`` takes
the wing's base (the vertices at the alar crease) 4.3 mm in and ``nose-scale-vert-decr`` 6.7 mm up while the cheek's
vertex beside it, 3 to 4 mm away, stays. At the weights a face's controls and variety give (a short, narrow nose: 0.8
and 0.95) the skin between them bent by up to 110 degrees more than on the build's plain face, a crease our renderer
drew as a hard dark wedge beside the nose, on one side more than the other (blind reviews I and J: "a hard dark patch
beside the nose that makes the face look crooked"). Inside the region too the nostril's rim moves less than the wing
above it (0.6 mm against 3.8 for ``nose-scale-horiz-decr``), and at a short narrow nose's weights the wing's base
crossed over it. :func:`feathered` carries each of these targets' motion :data:`RINGS` rings of vertices out past its
region with a falloff to nothing (each ring the mean of its inner neighbours' deltas, scaled so the motion fades
linearly), then raises every vertex that moves less than its neighbours towards their mean (:data:`PASSES` times, by
:data:`PULL`), never lowering one: the cheek beside the wing and the nostril's rim follow the wing, and the target's
furthest-moved vertices (the nose's width and length the face controls set) keep their motion exactly.
tests/body/test_nose_border.py measures it.

>>> idx, delta = feathered("nose/nose-scale-horiz-decr")
>>> from . import compile as cc
>>> len(idx) > len(cc.target(cc.compiled(), "nose/nose-scale-horiz-decr")[0])
True
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
from scipy.sparse import coo_matrix

from . import compile as cc

__all__ = ["FEATHERED", "RINGS", "feathered"]

# The targets feathered: MakeHuman's nose scales and the wings' flare, whose regions end at the alar crease (the bends
# of tests/body/test_nose_border.py came from them; the tip's and the hump's targets bend the skin little alone).
FEATHERED = ("nose/nose-flaring-decr", "nose/nose-flaring-incr", "nose/nose-scale-horiz-decr",
             "nose/nose-scale-horiz-incr", "nose/nose-scale-vert-decr", "nose/nose-scale-vert-incr")
# How many rings of vertices past a region's border its motion fades over (about 3 mm each beside the wing), and the
# raising passes and how far each moves a vertex towards its neighbours' mean.
RINGS = 3
PASSES = 10
PULL = 0.5


@lru_cache(maxsize=1)
def _neighbours():
    """The body's skin's vertex adjacency (MakeHuman's quads' edges, both ways) as a sparse 0/1 matrix."""
    d = cc.compiled()
    q = d["quads"][d["quad_group"] == list(d["face_group_names"]).index("body")]
    e = np.concatenate([q[:, [0, 1]], q[:, [1, 2]], q[:, [2, 3]], q[:, [3, 0]]])
    e = np.concatenate([e, e[:, ::-1]])
    n = len(d["base"])
    m = coo_matrix((np.ones(len(e)), (e[:, 0], e[:, 1])), shape=(n, n)).tocsr()
    m.data[:] = 1.0
    return m


@lru_cache(maxsize=64)
def feathered(name: str) -> tuple[np.ndarray, np.ndarray]:
    """Target ``name``'s (vertex indices, deltas in decimetres): :func:`~workbench.body.compile.target`'s, and for a
    :data:`FEATHERED` target its motion carried :data:`RINGS` rings past the region with a linear falloff (ring k at
    (RINGS + 1 - k) / (RINGS + 2 - k) of the mean of its neighbours in ring k - 1), then its vertices that move less
    than their neighbours raised towards them. Read-only arrays."""
    d = cc.compiled()
    idx, delta = cc.target(d, name)
    if name not in FEATHERED:
        return idx, delta
    m = _neighbours()
    n = len(d["base"])
    full = np.zeros((n, 3))
    full[idx] = delta
    done = np.zeros(n, bool)
    done[idx] = True
    ring = done.copy()
    for k in range(1, RINGS + 1):
        count = m @ ring.astype(np.float64)
        new = (count > 0) & ~done
        share = (RINGS + 1 - k) / (RINGS + 2 - k)
        full[new] = share * (m @ np.where(ring[:, None], full, 0.0))[new] / count[new, None]
        done |= new
        ring = new
    count = np.maximum(np.asarray(m.sum(1)).ravel(), 1)[:, None]
    for _ in range(PASSES):     # the vertices that move less than their neighbours raised towards them, never lowered
        smooth = (1 - PULL) * full + PULL * (m @ full) / count
        raise_ = done & (np.linalg.norm(smooth, axis=1) > np.linalg.norm(full, axis=1))
        full = np.where(raise_[:, None], smooth, full)
    out = np.nonzero(done)[0]
    out_delta = full[out].astype(delta.dtype)
    out.setflags(write=False)
    out_delta.setflags(write=False)
    return out.astype(idx.dtype), out_delta
