"""Glasses placed from the eyes: rounded rectangular lenses in a frame with depth, a bridge and temples to the ears.

Everything is measured on the body: the lenses centre on the eyeballs (a little outwards and up,
as frames sit), stand 1 cm in front of the most forward skin around the eye (brow, cheek, nose
bridge), and scale with the distance between the eyes; the temples run back along the sides of
the head at the width measured there, to just above the ears. The whole piece is skinned to
``Head`` and takes no face morphs.

The texture (``workbench.gltf.textures.glasses_texture``) holds the frame's colour on its left
half and the lens tint (with alpha) on its right; the lens and frame vertices point into those.

>>> from workbench.options import normalize_avatar_settings           # doctest: +SKIP
>>> from workbench.body.mesh import body_mesh                         # doctest: +SKIP
>>> glasses_piece(body_mesh(normalize_avatar_settings({"gender": "feminine"}))).triangles > 100   # doctest: +SKIP
True
"""

from __future__ import annotations

import numpy as np

from .lod import Piece
from .mesh import BodyMesh, vertex_normals

__all__ = ["glasses_piece", "FRAME_UV", "LENS_UV"]

FRAME_UV = (0.25, 0.5)
LENS_UV = (0.75, 0.5)
# Lens half-width and half-height (metres, for eyes 58.5 mm apart), the rim's width and the frame's depth.
LENS = (0.0255, 0.0185)
RIM = 0.0032
DEPTH = 0.004
SEGMENTS = 40


def _superellipse(n: int, a: float, b: float, power: float = 4.0) -> np.ndarray:
    t = np.linspace(0.0, 2 * np.pi, n, endpoint=False)
    c, s = np.cos(t), np.sin(t)
    x = a * np.sign(c) * np.abs(c) ** (2 / power)
    y = b * np.sign(s) * np.abs(s) ** (2 / power)
    # A flatter top edge and a rounder bottom, as most frames are.
    y = np.where(y < 0, y * (0.92 + 0.08 * np.abs(c)), y)
    return np.column_stack([x, y])


def glasses_piece(mesh: BodyMesh) -> Piece:
    """The ``Glasses`` mesh for this body."""
    pos_all = mesh.positions.astype(np.float64)
    eyes = {s: pos_all[mesh.groups[f"helper-{s}-eye"]].mean(0) for s in "lr"}
    mid = (eyes["l"] + eyes["r"]) / 2
    unit = float(np.linalg.norm(eyes["l"] - eyes["r"])) / 0.0585
    body = pos_all[mesh.groups["body"]]
    a, b = LENS[0] * unit, LENS[1] * unit
    around = body[(np.abs(body[:, 1] - mid[1]) < b * 1.3) & (np.abs(body[:, 0] - mid[0]) < 2.4 * a)]
    z = float(around[:, 2].max()) + 0.010 * unit
    behind = body[(np.abs(body[:, 1] - mid[1]) < 0.012) & (body[:, 2] < mid[2] - 0.03)]
    half_width = float(np.abs(behind[:, 0] - mid[0]).max()) if len(behind) else 0.075

    pos: list[np.ndarray] = []
    tris: list[np.ndarray] = []
    uvs: list[np.ndarray] = []

    def add(points, faces, where):
        base = sum(len(p) for p in pos)
        pos.append(np.asarray(points, np.float64))
        tris.append(np.asarray(faces, np.int64) + base)
        uvs.append(np.tile(where, (len(points), 1)))

    n = SEGMENTS
    k = np.arange(n)
    inner_shape = _superellipse(n, a, b)
    outer_shape = _superellipse(n, a + RIM * unit, b + RIM * unit)
    ends = {}
    for s, eye in eyes.items():
        side = np.sign(eye[0] - mid[0])
        c = np.array([eye[0] + side * 0.002 * unit, eye[1] + 0.002 * unit, z])
        # Lens (a fan), the rim's front face, its outer wall going back, all counter-clockwise from the front.
        inner = c + np.column_stack([inner_shape, np.zeros(n)])
        outer = c + np.column_stack([outer_shape, np.zeros(n)])
        back = outer - np.array([0, 0, DEPTH * unit])
        add(np.vstack([c, inner]), np.column_stack([np.zeros(n), 1 + k, 1 + (k + 1) % n]), LENS_UV)
        quad = lambda p, q: np.vstack([np.column_stack([p + k, q + k, p + (k + 1) % n]),           # noqa: E731
                                       np.column_stack([p + (k + 1) % n, q + k, q + (k + 1) % n])])
        add(np.vstack([inner, outer]), quad(0, n), FRAME_UV)
        add(np.vstack([outer, back]), quad(0, n), FRAME_UV)
        # The hinge: the outer top corner of the rim.
        ends[s] = c + np.array([side * (a + RIM * unit), b * 0.55, -DEPTH * unit * 0.5])
    # Bridge: a slightly arched band between the rims' inner edges.
    t = RIM * unit * 0.8
    xs = np.linspace(mid[0] - 0.5 * (eyes["l"][0] - eyes["r"][0]) + a * 0.95 * np.sign(eyes["l"][0] - eyes["r"][0]),
                     mid[0] + 0.5 * (eyes["l"][0] - eyes["r"][0]) - a * 0.95 * np.sign(eyes["l"][0] - eyes["r"][0]), 7)
    arch = mid[1] + 0.004 * unit + 0.003 * unit * (1 - ((xs - mid[0]) / max(abs(xs[0] - mid[0]), 1e-9)) ** 2)
    lower = np.column_stack([xs, arch - t / 2, np.full(7, z + 0.001)])
    upper = np.column_stack([xs, arch + t / 2, np.full(7, z + 0.001)])
    j = np.arange(6)
    add(np.vstack([lower, upper]), np.vstack([np.column_stack([j, j + 1, 7 + j]), np.column_stack([j + 1, 8 + j, 7 + j])]),
        FRAME_UV)
    # Temples: from the hinges straight back along the head's sides to above the ears.
    for s, hinge in ends.items():
        side = np.sign(hinge[0] - mid[0])
        tail = np.array([mid[0] + side * (half_width + 0.004 * unit), hinge[1] + 0.002 * unit, mid[2] - 0.10 * unit])
        h = 0.0022 * unit
        add([hinge + (0, -h, 0), tail + (0, -h, 0), tail + (0, h, 0), hinge + (0, h, 0)],
            [[0, 1, 2], [0, 2, 3]], FRAME_UV)
    positions = np.vstack(pos).astype(np.float32)
    indices = np.vstack(tris)
    count = len(positions)
    joints = np.zeros((count, 4), np.uint8)
    joints[:, 0] = mesh.skeleton.index["Head"]
    weights = np.zeros((count, 4), np.float32)
    weights[:, 0] = 1.0
    return Piece(positions, vertex_normals(positions, indices), np.vstack(uvs).astype(np.float32), indices,
                 joints, weights, np.full(count, -1, np.int64))
