"""The mouth's lining on MakeHuman's base mesh: its triangles and vertices, one answer for every body.

Read by :mod:`.mouth` (the lining's material and depth) and by :mod:`.expressions` (the smile's corners, where the
lining meets the lips), so it sits below both and reads only the topology (:mod:`.topology`).
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from .topology import topology

__all__ = ["island"]


@lru_cache(maxsize=1)
def island() -> tuple[np.ndarray, np.ndarray]:
    """The lining's triangles (into the body's face group) and vertices: MakeHuman's topology, so one answer
    for every body, found once per machine on the base mesh and kept (a body's own search took 0.1 s of each
    first preview)."""
    from . import keep

    kept = keep.kept("mouth-lining", lambda: dict(zip(("triangles", "vertices"), _find_island(), strict=True)),
                     {"triangles": (None,), "vertices": (None,)})
    return kept["triangles"], kept["vertices"]


def _find_island() -> tuple[np.ndarray, np.ndarray]:
    from scipy.sparse import coo_matrix
    from scipy.sparse.csgraph import connected_components

    from . import compile as cc

    tris_all, _, uv_ids_all, groups, face_groups = topology()
    faces = face_groups["body"]
    uv_ids = uv_ids_all[faces]
    n = int(uv_ids.max()) + 1
    rows = uv_ids[:, [0, 1, 2]].reshape(-1)
    cols = uv_ids[:, [1, 2, 0]].reshape(-1)
    _, label = connected_components(coo_matrix((np.ones(len(rows)), (rows, cols)), shape=(n, n)), directed=False)
    component = label[uv_ids[:, 0]]
    # The lining's island: the one holding the point 3 cm behind the mouth's centre (base.obj is in decimetres,
    # its middle at x = 0).
    base = cc.compiled()["base"].astype(np.float64)
    tris = tris_all[faces]
    centres = base[tris].mean(1)
    teeth = base[groups["helper-upper-teeth"]]
    inside = np.array([0.0, teeth[:, 1].min(), teeth[:, 2].max() - 0.3])
    lining = np.flatnonzero(component == component[np.argmin(np.linalg.norm(centres - inside, axis=1))]).astype(np.int64)
    return lining, np.unique(tris[lining]).astype(np.int64)
