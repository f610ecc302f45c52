"""MakeHuman's topology, the same for every body: its triangles, UVs, vertex groups and face groups.

Apart from :mod:`.mesh` (which shapes and rigs a body over it) so that the parts a body's shapes are made from
(:mod:`.lining`, the mouth's lining found on it) can read it without importing the body they help make.
"""

from __future__ import annotations

from functools import lru_cache
from types import MappingProxyType

import numpy as np

from . import compile as cc

__all__ = ["topology"]


@lru_cache(maxsize=1)
def topology() -> tuple[np.ndarray, np.ndarray, np.ndarray, MappingProxyType, MappingProxyType]:
    """MakeHuman's topology, the same for every body: triangles (int32, each quad's two side by side),
    their corners' UVs and UV indices, the vertex groups and the face groups by name (read-only).

    >>> tris, uvs, uv_ids, groups, face_groups = topology()
    >>> tris.shape[1], "body" in face_groups
    (3, True)
    """
    data = cc.compiled()
    names = list(data["face_group_names"])
    keep = np.array([not n.startswith("joint-") for n in names])
    quads = keep[data["quad_group"]]
    q, qu, qg = data["quads"][quads], data["quad_uvs"][quads], data["quad_group"][quads]
    tris = np.concatenate([q[:, [0, 1, 2]], q[:, [0, 2, 3]]]).astype(np.int32)
    tri_uv_index = np.concatenate([qu[:, [0, 1, 2]], qu[:, [0, 2, 3]]])
    tri_group = np.concatenate([qg, qg])
    # Interleave the halves so each quad's two triangles stay neighbours (better vertex-cache locality).
    order = np.arange(len(tris)).reshape(2, -1).T.ravel()
    tris, tri_uv_index, tri_group = tris[order], tri_uv_index[order], tri_group[order]
    tri_uvs = data["uv"][tri_uv_index].astype(np.float32)
    tri_uv_index = tri_uv_index.astype(np.int32)
    # The OBJ may open the same `g` group more than once: gather by name.
    canonical = {n: i for i, n in reversed(list(enumerate(map(str, names))))}
    code = np.array([canonical[str(n)] for n in names])[tri_group]
    order = np.argsort(code, kind="stable")
    bounds = np.flatnonzero(np.diff(code[order])) + 1
    face_groups = {str(names[code[run[0]]]): np.sort(run).astype(np.int32)
                   for run in np.split(order, bounds)}
    face_groups = dict(sorted(face_groups.items()))
    groups = {str(n): cc.group(data, str(n)) for n in data["group_names"]}
    for arr in (tris, tri_uvs, tri_uv_index, *face_groups.values()):
        arr.setflags(write=False)
    return tris, tri_uvs, tri_uv_index, MappingProxyType(groups), MappingProxyType(face_groups)
