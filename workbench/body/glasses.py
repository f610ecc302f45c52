"""Glasses fitted to the head: rounded rectangular lenses in a frame with depth, a bridge, and temples
that rest on the sides of the head.

Everything is measured on the body: the lenses centre on the eyeballs (2 mm outwards, as frames
sit) and scale with the distance between the eyes; the lens plane stands 12 mm in front of the
corneas (an optician's vertex distance), further only where the skin behind a lens (brow, cheek)
or the nose bridge would touch it; the front wraps round the face (each lens turned :data:`WRAP`
degrees, its outer side back), so no lens stands out past the face seen from the side or at three
quarters; the bridge dips back to rest 2.5 mm off the nose. The frame is as wide as the head: the
hinges stand just outside the skin of the head's horizontal section at their height (an end piece
from each rim out to its hinge, as frames have), and each temple runs from its hinge back to above
the ear, lying on the skin of that section wherever the head is wider than the straight line
(:func:`_temple`): it rests on the side of the head, not 1 to 2 cm off it at the ears' outer edge as
before. The whole piece is skinned to ``Head`` and takes no face morphs.

The look (:data:`LOOKS`): the texture (:func:`glasses_texture`) holds the frame's colour on its left
half and the lens tint (with alpha) on its right, the lens and frame vertices pointing into those, and
a roughness map (:func:`glasses_roughness`) on the same layout. A clear lens is a nearly black, nearly
transparent film, smooth: the eyes show through undimmed (a light tint at 16 % had laid a milky film
over them) and it keeps a faint reflection. A sunglass lens is dark and nearly opaque, and rough enough
(0.35) that a studio's lights spread into a soft sheen instead of flashing white in it; the frames are
not mirror-smooth either.

>>> from workbench.options import normalize_avatar_settings           # doctest: +SKIP
>>> from workbench.body.mesh import body_mesh                         # doctest: +SKIP
>>> glasses_piece(body_mesh(normalize_avatar_settings({"gender": "feminine"}))).triangles > 100   # doctest: +SKIP
True
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from .lod import Piece
from .mesh import BodyMesh, cut, vertex_normals

__all__ = ["glasses_piece", "glasses_texture", "glasses_roughness", "LOOKS", "FRAME_UV", "LENS_UV"]

FRAME_UV = (0.25, 0.5)
LENS_UV = (0.75, 0.5)
TEXTURE_SIZE = 128
# Per kind: frame colour, lens colour (sRGB), lens alpha, frame roughness, lens roughness.
LOOKS = {
    "clear": ((0.24, 0.15, 0.10), (0.04, 0.045, 0.05), 0.10, 0.4, 0.05),
    # Nearly opaque: blending is in linear light, where even a few percent of the eye's white shows
    # through the dark tint as a visible grey, so the lens stops almost all of it.
    "sunglasses": ((0.06, 0.06, 0.07), (0.03, 0.035, 0.045), 0.996, 0.45, 0.35),
}
# How far out from each eye's centre its lens is centred (frames sit a little wider than the eyes).
CENTRE_OUT = 0.001
# ... and how far below it (the pupil sits above a lens's middle, the rim's top below the brow).
CENTRE_DOWN = 0.001
# Lens half-width and half-height (metres, for eyes 58.5 mm apart), the rim's width and the frame's depth.
LENS = (0.0245, 0.0170)
# The front's wrap (degrees): each lens turned about the vertical, its outer side back, as frames curve
# round the face.
WRAP = 15.0
# The eyes' surface to the lenses' back (an optician's vertex distance), and the least gap to the skin.
VERTEX_DISTANCE = 0.012
CLEARANCE = 0.0025
RIM = 0.0032
DEPTH = 0.004
SEGMENTS = 40
# The temples: how far they stand off the skin where they rest on it (half their thickness, a strip has
# none), the least end piece between a rim and its hinge, and how far back behind the eyes they reach.
# Each lens is curved (an optician's base curve: a sphere of this radius, flatter vertically), so its
# outer side sweeps back round the face with the wrap.
BASE_CURVE = 0.08
REST = 0.0004
END_PIECE = 0.002
TEMPLE_BACK = 0.09


def _superellipse(n: int, a: float, b: float, power: float = 4.0, lower: float = 2.6) -> np.ndarray:
    """A lens outline (n, 2): a rounded rectangle above (superellipse of ``power``), rounder below (``lower``:
    its corners clear the cheeks and the nose's sides, as most frames' do)."""
    t = np.linspace(0.0, 2 * np.pi, n, endpoint=False)
    c, s = np.cos(t), np.sin(t)
    p = np.where(s < 0, lower, power)
    x = a * np.sign(c) * np.abs(c) ** (2 / p)
    y = b * np.sign(s) * np.abs(s) ** (2 / p)
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
    bridge_y = mid[1] + 0.004 * unit
    # The nose under the bridge's middle (the top of its arch, 3 mm over its ends).
    nose = head[(dx < 0.004 * unit) & (np.abs(head[:, 1] - bridge_y - 0.003 * unit) < 0.004 * unit)]
    nose_z = float(nose[:, 2].max())
    # The lens plane: VERTEX_DISTANCE in front of the corneas, or further where any point of a rim (curved
    # and wrapped as drawn) would come within CLEARANCE of the skin behind it (brow, cheek, nose).
    z = cornea + VERTEX_DISTANCE * unit
    rim = _curved(_superellipse(SEGMENTS, a + RIM * unit, b + RIM * unit), unit)
    for s, eye in eyes.items():
        side = np.sign(eye[0] - mid[0])
        spots = rim @ _wrap(side).T + np.array([eye[0] + side * CENTRE_OUT * unit, eye[1] - CENTRE_DOWN * unit, 0.0])
        for q in spots:
            near = head[(np.abs(head[:, 0] - q[0]) < 0.0025 * unit) & (np.abs(head[:, 1] - q[1]) < 0.0025 * unit)]
            if len(near):
                z = max(z, float(near[:, 2].max()) + CLEARANCE * unit - q[2])
    # The head's horizontal section at the hinges' height (the rim's outer top corner), above the neck.
    hinge_y = mid[1] + b * 0.55
    tris = mesh.triangles[mesh.face_groups["body"]]
    section = cut(pos_all, tris, 1, hinge_y)
    section = section[section[:, 2] < cornea + 0.02 * unit]
    return {"eyes": eyes, "mid": mid, "unit": unit, "a": a, "b": b, "z": z, "cornea": cornea,
            "nose_z": nose_z, "bridge_y": bridge_y, "head": head, "hinge_y": hinge_y, "section": section}


def _half_width(section: np.ndarray, mid_x: float, side: float, z) -> np.ndarray:
    """The head's half-width on ``side`` (+1 or -1 in x) at each depth ``z``: its section's farthest skin from
    the middle within 3 mm of that depth (0 where the section has none)."""
    mine = section[np.sign(section[:, 0] - mid_x) == side]
    out = np.zeros(len(np.atleast_1d(z)))
    for k, zz in enumerate(np.atleast_1d(z)):
        near = np.abs(mine[:, 2] - zz) < 0.003
        out[k] = np.abs(mine[near, 0] - mid_x).max() if near.any() else 0.0
    return out


def _temple(f: dict, side: float, hinge: np.ndarray, steps: int = 12) -> np.ndarray:
    """A temple's path from ``hinge`` back to :data:`TEMPLE_BACK` behind the eyes at the hinge's height: the
    straight line to where it rests on the skin at its end, pushed out onto the skin (:data:`REST` off it)
    wherever the head is wider than the line, so it lies on the side of the head."""
    mid_x = f["mid"][0]
    end_z = f["mid"][2] - TEMPLE_BACK * f["unit"]
    z = np.linspace(hinge[2], end_z, steps)
    skin = _half_width(f["section"], mid_x, side, z) + REST * f["unit"]
    line = abs(hinge[0] - mid_x) + (skin[-1] - abs(hinge[0] - mid_x)) * np.linspace(0, 1, steps)
    x = mid_x + side * np.maximum(line, skin)
    return np.column_stack([x, np.full(steps, hinge[1]), z])


def _curved(shape: np.ndarray, unit: float) -> np.ndarray:
    """Lens outline points (n, 2) in the lens's plane as 3-D offsets on its curve (:data:`BASE_CURVE`): the
    sag of a sphere across, a third of it up and down.

    >>> _curved(np.array([[0.0, 0.0], [0.03, 0.0]]), 1.0).round(4).tolist()   # 5.6 mm back at 3 cm out
    [[0.0, 0.0, -0.0], [0.03, 0.0, -0.0056]]
    """
    r = BASE_CURVE * unit
    sag = (shape[:, 0] ** 2 + shape[:, 1] ** 2 / 3) / (2 * r)
    return np.column_stack([shape, -sag])


def _wrap(side: float) -> np.ndarray:
    """The rotation turning a lens on ``side`` (+1 or -1 in x) by :data:`WRAP` degrees about the vertical,
    its outer side back.

    >>> np.round(_wrap(1.0) @ np.array([1.0, 0.0, 0.0]), 3).tolist()
    [0.966, 0.0, -0.259]
    """
    t = np.radians(WRAP)
    return np.array([[np.cos(t), 0.0, side * np.sin(t)], [0.0, 1.0, 0.0], [-side * np.sin(t), 0.0, np.cos(t)]])


def _look(kind: str):
    if kind not in LOOKS:
        raise ValueError(f"glasses: unknown kind {kind!r}")
    return LOOKS[kind]


@lru_cache(maxsize=4)
def glasses_texture(kind: str) -> np.ndarray:
    """RGBA uint8: the left half the opaque frame, the right half the lens (tinted, see-through).

    >>> img = glasses_texture("clear")
    >>> img.shape, int(img[64, 10, 3]), int(img[64, 100, 3]) < 40
    ((128, 128, 4), 255, True)
    """
    frame, lens, alpha, _, _ = _look(kind)
    n = TEXTURE_SIZE
    img = np.zeros((n, n, 4), np.float32)
    y = (np.arange(n) / n)[:, None, None]
    img[:, : n // 2, :3] = np.array(frame) * (0.85 + 0.3 * y)
    img[:, : n // 2, 3] = 1.0
    # The lens is darker at the top, like a gradient tint.
    img[:, n // 2:, :3] = np.array(lens) * (0.9 + 0.1 * y)
    img[:, n // 2:, 3] = alpha if alpha > 0.9 else alpha * (1.05 - 0.1 * y[..., 0])
    out = np.clip(img * 255 + 0.5, 0, 255).astype(np.uint8)
    out.setflags(write=False)
    return out


@lru_cache(maxsize=4)
def glasses_roughness(kind: str) -> np.ndarray:
    """(128, 128) uint8 roughness on :func:`glasses_texture`'s layout: the frame's left, the lens's right.

    >>> r = glasses_roughness("sunglasses")
    >>> int(r[0, 0]), int(r[0, -1])
    (115, 89)
    """
    _, _, _, frame, lens = _look(kind)
    n = TEXTURE_SIZE
    out = np.empty((n, n), np.uint8)
    out[:, : n // 2] = round(frame * 255)
    out[:, n // 2:] = round(lens * 255)
    out.setflags(write=False)
    return out


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
        c = np.array([eye[0] + side * CENTRE_OUT * unit, eye[1] - CENTRE_DOWN * unit, z])
        # Lens (a fan), the rim's front face, its outer wall going back, all counter-clockwise from the front.
        # The front wraps round the face: each lens turned WRAP about its own centre's vertical axis, its
        # outer side back (a flat front left the far lens standing out past the face in three-quarter view).
        turn = lambda p: c + (p - c) @ _wrap(side).T                                          # noqa: E731
        inner = turn(c + _curved(inner_shape, unit))
        outer = turn(c + _curved(outer_shape, unit))
        back = outer - np.array([0, 0, DEPTH * unit])
        add(np.vstack([c, inner]), np.column_stack([np.zeros(n), 1 + k, 1 + (k + 1) % n]), LENS_UV)
        quad = lambda p, q: np.vstack([np.column_stack([p + k, q + k, p + (k + 1) % n]),           # noqa: E731
                                       np.column_stack([p + (k + 1) % n, q + k, q + (k + 1) % n])])
        add(np.vstack([inner, outer]), quad(0, n), FRAME_UV)
        add(np.vstack([outer, back]), quad(0, n), FRAME_UV)
        # The hinge: level with the rim's outer top corner, as wide as the head there (at least an end piece
        # out from the rim); a bar joins them.
        corner = turn(c + np.array([side * (a + RIM * unit), b * 0.55, -DEPTH * unit * 0.5]))
        wide = _half_width(f["section"], mid[0], side, corner[2])[0] + REST * unit
        hinge = corner.copy()
        hinge[0] = mid[0] + side * max(abs(corner[0] - mid[0]) + END_PIECE * unit, wide)
        ends[s] = hinge
        h = 0.0022 * unit
        bar = np.array([corner, hinge])
        add(np.vstack([bar + (0, -h, 0), bar + (0, h, 0)]), [[0, 1, 3], [0, 3, 2]], FRAME_UV)
    # Bridge: a slightly arched band between the rims' inner edges, dipping back at its middle to rest on the nose.
    t = RIM * unit * 0.8
    inner_x = abs(eyes["l"][0] - mid[0]) + CENTRE_OUT * unit - a
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
    # Temples: from the hinges back along the sides of the head, resting on them (:func:`_temple`).
    h = 0.0022 * unit
    for s, hinge in ends.items():
        path = _temple(f, np.sign(hinge[0] - mid[0]), hinge)
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
