"""Tiny hand-built GLBs for trying the renderer without the avatar generator: a skinned column and a clip.

The rig is a square column 1 m tall on two joints, ``Root`` (at the floor) and
``Bend`` (at half height); the clip ``bend`` turns ``Bend`` 90 degrees about Z
over one second (LINEAR rotation) and steps ``Root``'s translation at 0.5 s (STEP).

>>> from workbench.render.scene import Model, load_clip
>>> model = Model(tiny_rig_glb())
>>> top = lambda p: p.points()[:, 1].max()
>>> round(float(top(model.posed())), 3), round(float(top(model.posed(load_clip(tiny_clip_glb()), 1.0))), 3)
(1.0, 0.55)
"""

from __future__ import annotations

import numpy as np

from workbench.gltf.glb import GlbWriter

__all__ = ["tiny_rig_glb", "tiny_clip_glb"]


def _column(rows: int = 11, half: float = 0.05):
    """A square tube from y=0 to y=1 with caps; returns positions, normals, tris, joints, weights."""
    pos: list[tuple[float, float, float]] = []
    nrm: list[tuple[int, int, int]] = []
    tris: list[tuple[int, int, int]] = []
    sides = [((1, 0), (0, 1)), ((0, 1), (-1, 0)), ((-1, 0), (0, -1)), ((0, -1), (1, 0))]
    for (nx, nz), (tx, tz) in sides:
        base = len(pos)
        for r in range(rows):
            up = r / (rows - 1)
            for s in (-1, 1):
                pos.append((nx * half + tx * half * s, up, nz * half + tz * half * s))
                nrm.append((nx, 0, nz))
        for r in range(rows - 1):
            a = base + 2 * r
            tris += [(a, a + 1, a + 3), (a, a + 3, a + 2)]
    positions, normals = np.array(pos, np.float32), np.array(nrm, np.float32)
    y = positions[:, 1]
    w1 = np.clip((y - 0.4) / 0.2, 0, 1)
    weights = np.stack([1 - w1, w1, 0 * y, 0 * y], 1).astype(np.float32)
    joints = np.tile(np.array([0, 1, 0, 0], np.uint8), (len(positions), 1))
    return positions, normals, np.array(tris, np.int32), joints, weights


def tiny_rig_glb() -> bytes:
    """A skinned column (red lower half texture-free, joints ``Root`` and ``Bend``) as GLB bytes."""
    b = GlbWriter("workbench.render.testing", sort_keys=True)
    pos, nrm, tris, joints, weights = _column()
    # Winding: make every triangle counter-clockwise seen from outside.
    p = pos[tris]
    fn = np.cross(p[:, 1] - p[:, 0], p[:, 2] - p[:, 0])
    flip = (fn * nrm[tris[:, 0]]).sum(1) < 0
    tris[flip] = tris[flip][:, ::-1]
    mat = b.material("column", (0.8, 0.2, 0.15, 1.0))
    mesh = b.mesh("Column", [b.primitive(positions=pos, normals=nrm, indices=tris, material=mat,
                                         joints=joints, weights=weights)])
    bend = b.node("Bend", translation=(0, 0.5, 0))
    root = b.node("Root", children=[bend])
    ibm = np.stack([np.eye(4), np.linalg.inv(np.array([[1, 0, 0, 0], [0, 1, 0, 0.5], [0, 0, 1, 0], [0, 0, 0, 1.0]]))])
    body = b.node("Column", mesh=mesh, skin=b.skin([root, bend], ibm))
    arm = b.node("Armature", children=[root, body])
    b.scene([arm])
    return b.to_bytes()


def tiny_clip_glb() -> bytes:
    """The clip ``bend`` for :func:`tiny_rig_glb`'s joints, as a skeleton-only GLB."""
    b = GlbWriter("workbench.render.testing", sort_keys=True)
    bend = b.node("Bend", translation=(0, 0.5, 0))
    root = b.node("Root", children=[bend])
    b.scene([root])
    t = b.accessor(np.array([0.0, 1.0], np.float32), minmax=True)
    s = np.sin(np.pi / 4)
    rot = b.accessor(np.array([[0, 0, 0, 1], [0, 0, s, s]], np.float32))
    t2 = b.accessor(np.array([0.0, 0.5], np.float32), minmax=True)
    tr = b.accessor(np.array([[0, 0, 0], [0.2, 0, 0]], np.float32))
    b.animation("bend", [(bend, "rotation", t, rot, "LINEAR"), (root, "translation", t2, tr, "STEP")])
    return b.to_bytes()
