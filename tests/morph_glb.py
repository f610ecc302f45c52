"""A small GLB with morph targets named as ARKit's face shapes (contract section 5), written with the
project's GlbWriter, for the viewer's morph sliders and presets until avatars carry the 52 shapes.

A head (a sphere) on a body (a box); each target moves its own part of the head far enough to
see at a glance: the jaw drops the lower half, a blink flattens one eye's patch, a smile pulls a
mouth corner up and out.

>>> from workbench.gltf.glb import read_glb
>>> read_glb(arkit_glb())[0]["meshes"][0]["extras"]["targetNames"][:3]
['eyeBlinkLeft', 'eyeBlinkRight', 'jawOpen']
"""

from __future__ import annotations

import numpy as np

from workbench.gltf.glb import ARRAY_BUFFER, GlbWriter

TARGETS = ("eyeBlinkLeft", "eyeBlinkRight", "jawOpen", "mouthSmileLeft", "mouthSmileRight", "mouthFunnel",
           "mouthPucker", "mouthClose", "mouthStretchLeft", "mouthStretchRight", "mouthRollLower", "tongueOut",
           "cheekSquintLeft", "cheekSquintRight")
HEAD_Y, R = 1.55, 0.12


def _sphere(rings: int = 24, segments: int = 32):
    pos, nrm = [], []
    for i in range(rings + 1):
        v = np.pi * i / rings
        for j in range(segments + 1):
            u = 2 * np.pi * j / segments
            n = [np.sin(v) * np.sin(u), np.cos(v), np.sin(v) * np.cos(u)]
            nrm.append(n)
            pos.append([R * n[0], HEAD_Y + R * n[1], R * n[2]])
    tris = []
    for i in range(rings):
        for j in range(segments):
            a, b = i * (segments + 1) + j, (i + 1) * (segments + 1) + j
            tris += [[a, b, a + 1], [a + 1, b, b + 1]]
    return np.array(pos, np.float32), np.array(nrm, np.float32), np.array(tris, np.uint32)


def _box(lo, hi):
    (x0, y0, z0), (x1, y1, z1) = lo, hi
    faces = [((0, 0, 1), [(x0, y0, z1), (x1, y0, z1), (x1, y1, z1), (x0, y1, z1)]),
             ((0, 0, -1), [(x1, y0, z0), (x0, y0, z0), (x0, y1, z0), (x1, y1, z0)]),
             ((1, 0, 0), [(x1, y0, z1), (x1, y0, z0), (x1, y1, z0), (x1, y1, z1)]),
             ((-1, 0, 0), [(x0, y0, z0), (x0, y0, z1), (x0, y1, z1), (x0, y1, z0)]),
             ((0, 1, 0), [(x0, y1, z1), (x1, y1, z1), (x1, y1, z0), (x0, y1, z0)]),
             ((0, -1, 0), [(x0, y0, z0), (x1, y0, z0), (x1, y0, z1), (x0, y0, z1)])]
    pos, nrm, tris = [], [], []
    for n, quad in faces:
        k = len(pos)
        pos += quad
        nrm += [n] * 4
        tris += [[k, k + 1, k + 2], [k, k + 2, k + 3]]
    return np.array(pos, np.float32), np.array(nrm, np.float32), np.array(tris, np.uint32)


def _deltas(pos: np.ndarray) -> dict[str, np.ndarray]:
    rel = (pos - [0, HEAD_Y, 0]) / R  # unit sphere coordinates; +z is the face
    x, y, z = rel[:, 0], rel[:, 1], rel[:, 2]
    front = z > 0.3
    out = {}

    def eye(side):
        near = front & (np.hypot(x - side * 0.38, y - 0.3) < 0.25)
        d = np.zeros_like(pos)
        d[near, 1] = -(y[near] - 0.3) * R * 0.9  # flattened onto the eye's line
        d[near, 2] = -0.25 * R
        return d

    out["eyeBlinkLeft"], out["eyeBlinkRight"] = eye(1), eye(-1)
    d = np.zeros_like(pos)
    d[y < -0.1, 1] = -0.6 * R
    out["jawOpen"] = d
    for name, side in (("mouthSmileLeft", 1), ("mouthSmileRight", -1), ("mouthStretchLeft", 1), ("mouthStretchRight", -1)):
        corner = front & (np.hypot(x - side * 0.35, y + 0.35) < 0.3)
        d = np.zeros_like(pos)
        d[corner, 0] = side * 0.3 * R
        d[corner, 1] = (0.35 if "Smile" in name else -0.1) * R
        out[name] = d
    mouth = front & (np.abs(x) < 0.4) & (np.abs(y + 0.35) < 0.2)
    for name, dz in (("mouthFunnel", 0.35), ("mouthPucker", 0.5), ("mouthClose", -0.2), ("mouthRollLower", -0.3),
                     ("tongueOut", 0.6)):
        d = np.zeros_like(pos)
        d[mouth, 2] = dz * R
        out[name] = d
    for name, side in (("cheekSquintLeft", 1), ("cheekSquintRight", -1)):
        cheek = front & (np.hypot(x - side * 0.5, y) < 0.25)
        d = np.zeros_like(pos)
        d[cheek, 1] = 0.15 * R
        out[name] = d
    return out


def arkit_glb() -> bytes:
    """The GLB: mesh ``Head`` with the morph targets of ``TARGETS`` (``extras.targetNames``), mesh ``Body``."""
    w = GlbWriter("tests.morph_glb", sort_keys=True)
    skin = w.material("skin", (0.85, 0.66, 0.55, 1.0))
    cloth = w.material("cloth", (0.2, 0.35, 0.6, 1.0))
    pos, nrm, tris = _sphere()
    head = w.primitive(positions=pos, normals=nrm, indices=tris, material=skin)
    deltas = _deltas(pos)
    head["targets"] = [{"POSITION": w.accessor(deltas[n], "VEC3", ARRAY_BUFFER, minmax=True)} for n in TARGETS]
    head_mesh = w.mesh("Head", [head])
    w.doc["meshes"][head_mesh].update(weights=[0.0] * len(TARGETS), extras={"targetNames": list(TARGETS)})
    bpos, bnrm, btris = _box((-0.2, 0.0, -0.1), (0.2, HEAD_Y - R - 0.03, 0.1))
    body_mesh = w.mesh("Body", [w.primitive(positions=bpos, normals=bnrm, indices=btris, material=cloth)])
    w.scene([w.node("Body", mesh=body_mesh), w.node("Head", mesh=head_mesh)])
    return w.to_bytes()
