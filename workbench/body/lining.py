"""The mouth's lining on MakeHuman's base mesh: its triangles and vertices, one answer for every body.

Read by :mod:`.mouth` (the lining's material and depth) and by :mod:`.expressions` (the smile's corners, where the
lining meets the lips, and :func:`behind_cheeks`, the lining kept behind the smile's cheeks), so it sits below both
and reads only the topology (:mod:`.topology`).
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from . import sets
from .eyes import _smoothstep
from .topology import topology

__all__ = ["LINING_FREE", "behind_cheeks", "island", "skin_pieces"]

# The lining within LINING_FREE of the lips' edges moves as the smile does; further in, as the nearest skin
# (:func:`behind_cheeks`).
LINING_FREE = 0.012


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


def behind_cheeks(positions: np.ndarray, triangles: np.ndarray,
                  smile: tuple[np.ndarray, np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """What keeps the mouth's lining behind the cheeks in ``smile`` (a shape, sorted ``idx``, ``delta``): each lining
    vertex more than LINING_FREE from the lips' inner edges moved as the skin nearest it moves (by the share
    ``w``, all of it from LINING_FREE * 2 on). The squint's and smile's cheek raise draw the cheek's skin up 9 mm
    and the lining behind it 4 mm: on a gaunt face, where the lining lies 3 to 4 mm behind the cheek, it came
    through as a dark slit beside the mouth (blind review E)."""
    from scipy.spatial import cKDTree

    lining = np.zeros(len(triangles), bool)
    lining[island()[0]] = True
    inner = sets.unique(triangles[lining])
    edge = sets.intersection(inner, triangles[~lining])
    skin = sets.difference(triangles[~lining], inner)
    p = positions.astype(np.float64)
    reach = np.linalg.norm(p[inner] - p[edge].mean(0), axis=1).max() + LINING_FREE
    skin = skin[np.linalg.norm(p[skin] - p[edge].mean(0), axis=1) < reach]
    full = np.zeros((len(positions), 3), np.float64)
    full[smile[0]] = smile[1]
    w = _smoothstep(LINING_FREE, 2 * LINING_FREE, cKDTree(p[edge]).query(p[inner])[0])
    nearest = skin[cKDTree(p[skin]).query(p[inner])[1]]
    # (Up and down only: drawn in and back with the cheek as well, the lining met the back teeth.)
    move = w[:, None] * (full[nearest] - full[inner]) * (0.0, 1.0, 0.0)
    keep = np.flatnonzero(np.abs(move).max(1) > 1e-6)
    return inner[keep].astype(np.int32), move[keep].astype(np.float32)


def skin_pieces(positions: np.ndarray, triangles: np.ndarray, body: np.ndarray, mid_x: float, width: float,
                front: float) -> tuple[np.ndarray, np.ndarray]:
    """The face's skin round the mouth, in pieces: (per vertex of ``positions``, whether it is one of ``body``'s within
    ``width`` (metres) of the face's middle ``mid_x`` and in front of ``front`` (its z); per vertex, the connected piece
    of those vertices' triangles (``triangles``, the lining's, :func:`island`, left out) it is in). The lips' inner edge
    parts the upper lip's skin from the lower's at the middle: a lip's shape takes the piece its edge is in."""
    from scipy.sparse import coo_matrix
    from scipy.sparse.csgraph import connected_components

    skin = np.ones(len(triangles), bool)
    skin[island()[0]] = False
    inside = np.zeros(len(positions), bool)
    inside[body] = (np.abs(positions[body, 0] - mid_x) < width) & (positions[body, 2] > front)
    tris = triangles[skin & inside[triangles].all(1)]
    pairs = np.concatenate([tris[:, [0, 1]], tris[:, [1, 2]], tris[:, [2, 0]]])
    _, label = connected_components(coo_matrix((np.ones(len(pairs)), (pairs[:, 0], pairs[:, 1])),
                                               shape=(len(positions),) * 2), directed=False)
    return inside, label
