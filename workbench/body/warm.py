"""warm_up: what every body shares, made ready in this process before a first avatar needs it.

A service calls it at its start, in the background (through ``workbench.render.warm_up``), so that a
new avatar's first model or preview pays only for what is its own: the compiled body cache read and
checked, the digest kept arrays are named by, the base mesh's topology, the textures every avatar wears
the same (eyes, lashes, brows' hairs, mouth), the occlusion's neighbour matrix, and the compiled loops of the occlusion,
the normals, the skinning and the face shapes' evening and unfolding loaded from numba's cache. Nothing that depends on an avatar's settings is
made here.
"""

from __future__ import annotations

import threading

_lock = threading.Lock()
_warmed = False


def warm_up() -> None:
    """Prepare what every body shares; later calls return at once. Where the MakeHuman data is not on
    this machine yet nothing is done (fetching it is the first avatar's work: :func:`workbench.body.compile.here`).

    >>> warm_up()
    """
    global _warmed
    with _lock:
        if _warmed:
            return
        from . import compile as cc

        if not cc.here():
            return
        import numpy as np

        from . import ao, brows, expressions, eyes, mesh, mouth, rig, soften
        from .assets import compiled_dir
        from .hair.lashes import lash_texture
        from .keep import code_digest

        compiled_dir()           # (platformdirs, imported on first use)
        code_digest()            # (what kept arrays are named by: the body's code, read and hashed once)
        data = cc.compiled()
        triangles, _, _, _, face_groups = mesh.topology()
        ao.prepare(triangles[face_groups["body"]], len(data["base"]))
        # (compiled loops, from numba's cache: the normals, the skinning)
        mesh.vertex_normals(data["base"][:3], np.array([[0, 1, 2]]))
        rig.skin(np.zeros((1, 3)), np.zeros((1, 3)), np.zeros((1, 3)), np.zeros((1, 3, 3)), np.zeros((1, 1), np.int64),
                 np.ones((1, 1)))
        # (and the face shapes' evening and unfolding, on a tetrahedron whose one vertex a shape lifts)
        tetra = np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]], np.float64)
        sides = np.array([[0, 1, 2], [0, 3, 1], [0, 2, 3], [1, 3, 2]], np.int64)
        soften.soften(tetra.astype(np.float32), sides, np.array([3]), np.array([[0, 0, 0.5]], np.float32),
                      np.zeros(4, bool))
        ring, count = soften.rings(sides, 4)
        expressions.unfolding(tetra, np.zeros((4, 3)), sides, tetra[:4], ring.indptr, ring.indices, count,
                              expressions.UNFOLD_ROUNDS)
        eyes.eye_texture()
        lash_texture()
        brows.prepare()
        mouth.prepare()
        _warmed = True
