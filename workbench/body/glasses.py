"""Glasses placed from the eyes: rounded rectangular lenses in a frame with depth, a bridge and temples to the ears.

Everything is measured on the body: the lenses centre on the eyeballs (2 mm outwards, as frames
sit) and scale with the distance between the eyes; the lens plane stands 12 mm in front of the
corneas (an optician's vertex distance), further only where the skin behind a lens (brow, cheek)
or the nose bridge would touch it; the bridge dips back to rest 2.5 mm off the nose; the temples
run from the hinges back to the top of the ears, bowed out wherever the side of the head would
meet them. (The lens plane used to stand off the most forward skin near the eyes, the nose's tip:
the glasses floated 2 to 3 cm in front of the face.) The whole piece is skinned to ``Head`` and
takes no face morphs.

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
LENS = (0.0255, 0.0170)
# The front's wrap (degrees): each lens turned about the vertical, its outer side back, as frames curve
# round the face.
WRAP = 8.0
# The eyes' surface to the lenses' back (an optician's vertex distance), and the least gap to the skin.
VERTEX_DISTANCE = 0.012
CLEARANCE = 0.003
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


def _fit(mesh: BodyMesh) -> dict:
    """Where the glasses go on this body: eye centres, lens size and plane, nose, ears (metres)."""
    pos_all = mesh.positions.astype(np.float64)
    eye_pts = {s: pos_all[mesh.groups[f"helper-{s}-eye"]] for s in "lr"}
    eyes = {s: p.mean(0) for s, p in eye_pts.items()}
    mid = (eyes["l"] + eyes["r"]) / 2
    unit = float(np.linalg.norm(eyes["l"] - eyes["r"])) / 0.0585
    a, b = LENS[0] * unit, LENS[1] * unit
    cornea = max(float(p[:, 2].max()) for p in eye_pts.values())
    body = pos_all[mesh.groups["body"]]
    head = body[body[:, 1] > mesh.skeleton.pos("Neck")[1]]
    dx = np.abs(head[:, 0] - mid[0])
    # The skin behind the lenses (the nose between them left out: the bridge rests on it).
    behind = head[(np.abs(dx - abs(eyes["l"][0] - mid[0])) < a) & (np.abs(head[:, 1] - mid[1]) < b) & (dx > 0.012 * unit)]
    bridge_y = mid[1] + 0.004 * unit
    # The nose under the bridge's middle (the top of its arch, 3 mm over its ends).
    nose = head[(dx < 0.004 * unit) & (np.abs(head[:, 1] - bridge_y - 0.003 * unit) < 0.004 * unit)]
    nose_z = float(nose[:, 2].max())
    z = max(cornea + VERTEX_DISTANCE * unit, float(behind[:, 2].max()) + CLEARANCE * unit, nose_z + CLEARANCE * unit)
    # The ears: the most lateral skin between the eyes' height and 4 cm below, on each side.
    band = head[(head[:, 1] < mid[1] + 0.01 * unit) & (head[:, 1] > mid[1] - 0.04 * unit) & (head[:, 2] < mid[2] - 0.03)]
    ears = {}
    for s, eye in eyes.items():
        side = np.sign(eye[0] - mid[0])
        mine = band[np.sign(band[:, 0] - mid[0]) == side]
        ear = mine[np.argmax(np.abs(mine[:, 0] - mid[0]))]
        ears[s] = ear
    return {"eyes": eyes, "mid": mid, "unit": unit, "a": a, "b": b, "z": z, "cornea": cornea,
            "nose_z": nose_z, "bridge_y": bridge_y, "ears": ears, "head": head}


def _wrap(side: float) -> np.ndarray:
    """The rotation turning a lens on ``side`` (+1 or -1 in x) by :data:`WRAP` degrees about the vertical,
    its outer side back.

    >>> np.round(_wrap(1.0) @ np.array([1.0, 0.0, 0.0]), 3).tolist()
    [0.99, 0.0, -0.139]
    """
    t = np.radians(WRAP)
    return np.array([[np.cos(t), 0.0, side * np.sin(t)], [0.0, 1.0, 0.0], [-side * np.sin(t), 0.0, np.cos(t)]])


def _clear_of_head(head: np.ndarray, point: np.ndarray, mid_x: float, side: float, gap: float) -> float:
    """The x for ``point`` pushed out (on its side) until it clears the head's skin near its y and z by ``gap``."""
    near = head[(np.abs(head[:, 1] - point[1]) < 0.008) & (np.abs(head[:, 2] - point[2]) < 0.008)
                & (np.sign(head[:, 0] - mid_x) == side)]
    if not len(near):
        return float(point[0])
    skin = float(np.abs(near[:, 0] - mid_x).max()) + gap
    return float(mid_x + side * max(abs(point[0] - mid_x), skin))


def glasses_piece(mesh: BodyMesh) -> Piece:
    """The ``Glasses`` mesh for this body."""
    f = _fit(mesh)
    eyes, mid, unit, a, b, z = f["eyes"], f["mid"], f["unit"], f["a"], f["b"], f["z"]

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
        c = np.array([eye[0] + side * 0.002 * unit, eye[1], z])
        # Lens (a fan), the rim's front face, its outer wall going back, all counter-clockwise from the front.
        # The front wraps round the face: each lens turned WRAP about its own centre's vertical axis, its
        # outer side back (a flat front left the far lens standing out past the face in three-quarter view).
        turn = lambda p: c + (p - c) @ _wrap(side).T                                          # noqa: E731
        inner = turn(c + np.column_stack([inner_shape, np.zeros(n)]))
        outer = turn(c + np.column_stack([outer_shape, np.zeros(n)]))
        back = outer - np.array([0, 0, DEPTH * unit])
        add(np.vstack([c, inner]), np.column_stack([np.zeros(n), 1 + k, 1 + (k + 1) % n]), LENS_UV)
        quad = lambda p, q: np.vstack([np.column_stack([p + k, q + k, p + (k + 1) % n]),           # noqa: E731
                                       np.column_stack([p + (k + 1) % n, q + k, q + (k + 1) % n])])
        add(np.vstack([inner, outer]), quad(0, n), FRAME_UV)
        add(np.vstack([outer, back]), quad(0, n), FRAME_UV)
        # The hinge: the outer top corner of the rim.
        ends[s] = turn(c + np.array([side * (a + RIM * unit), b * 0.55, -DEPTH * unit * 0.5]))
    # Bridge: a slightly arched band between the rims' inner edges, dipping back at its middle to rest on the nose.
    t = RIM * unit * 0.8
    inner_x = abs(eyes["l"][0] - mid[0]) + 0.002 * unit - a
    xs = mid[0] + np.linspace(-inner_x, inner_x, 7)
    u = (xs - mid[0]) / max(inner_x, 1e-9)
    arch = f["bridge_y"] + 0.003 * unit * (1 - u ** 2)
    # (Its ends meet the lenses' inner edges, which the wrap brought forward.)
    front = z + 0.001 + a * np.sin(np.radians(WRAP))
    zs = front - (front - (f["nose_z"] + 0.0025 * unit)) * (1 - u ** 2)
    lower = np.column_stack([xs, arch - t / 2, zs])
    upper = np.column_stack([xs, arch + t / 2, zs])
    j = np.arange(6)
    add(np.vstack([lower, upper]), np.vstack([np.column_stack([j, j + 1, 7 + j]), np.column_stack([j + 1, 8 + j, 7 + j])]),
        FRAME_UV)
    # Temples: from the hinges back to the top of the ears, bowed out wherever the head's side would meet them.
    h = 0.0022 * unit
    for s, hinge in ends.items():
        side = np.sign(hinge[0] - mid[0])
        ear = f["ears"][s]
        tail = np.array([ear[0] + side * 0.003 * unit, hinge[1], ear[2] - 0.01 * unit])
        steps = np.linspace(0.0, 1.0, 8)[:, None]
        path = hinge + steps * (tail - hinge)
        for i in range(1, len(path)):
            path[i, 0] = _clear_of_head(f["head"], path[i], mid[0], side, 0.003 * unit)
        n_pts = len(path)
        strip = np.vstack([path + (0, -h, 0), path + (0, h, 0)])
        i = np.arange(n_pts - 1)
        add(strip, np.vstack([np.column_stack([i, i + 1, n_pts + i + 1]), np.column_stack([i, n_pts + i + 1, n_pts + i])]),
            FRAME_UV)
    positions = np.vstack(pos).astype(np.float32)
    indices = np.vstack(tris)
    count = len(positions)
    joints = np.zeros((count, 4), np.uint8)
    joints[:, 0] = mesh.skeleton.index["Head"]
    weights = np.zeros((count, 4), np.float32)
    weights[:, 0] = 1.0
    return Piece(positions, vertex_normals(positions, indices), np.vstack(uvs).astype(np.float32), indices,
                 joints, weights, np.full(count, -1, np.int64))
