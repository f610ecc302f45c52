"""The avatar's meshes cut from the MakeHuman body (:mod:`workbench.body`), at a level of detail.

``parts(settings, lod)`` returns, in :data:`MESH_ORDER`, each mesh as a
:class:`~workbench.body.lod.Piece` (split vertices, glTF UVs on MakeHuman's layout, skin weights on
the avatar's skeleton, ``source`` into the body mesh for the morph targets):

- ``Body``: the base mesh's body group; ``Eyes``, ``Eyelashes``, ``Teeth`` (teeth and tongue): its
  helper geometry, skinned to ``Head`` (:data:`workbench.body.face.FACE_MESHES`);
- ``Hair``, ``Outfit_Top``, ``Outfit_Bottom``, ``Outfit_Footwear``: stand-ins, a cap lifted off the
  scalp and the ``tights`` helper cut into a top to mid-forearm (over the trousers' waistband), trousers
  to the ankle and the feet as shoes, so they follow every body shape and deform with it; ``Glasses``: two lenses and a frame placed from the eyes.

LOD 1 and 2 decimate every mesh to 50 % and 25 % of its triangles (:func:`workbench.body.lod.decimate`).

>>> from workbench.options import normalize_avatar_settings
>>> meshes = parts(normalize_avatar_settings({"gender": "feminine", "glasses": "clear"}), 2)
>>> list(meshes)
['Body', 'Eyes', 'Eyelashes', 'Teeth', 'Hair', 'Outfit_Top', 'Outfit_Bottom', 'Outfit_Footwear', 'Glasses']
"""

from __future__ import annotations

from dataclasses import replace
from functools import lru_cache

import numpy as np

from ..body.eyes import with_eye_uvs
from ..body.face import FACE_MESHES
from ..body.glasses import glasses_piece
from ..body.hair import hair_piece
from ..body.outfit import LIFT, SHIRT_HEM, WAISTBAND, outfit_pieces  # noqa: F401 (the tests read them here)
from ..body.lod import Piece, decimate, piece
from ..body.mesh import BodyMesh, body_mesh, vertex_normals
from .skeleton import Skeleton

MESH_ORDER = ("Body", "Eyes", "Eyelashes", "Teeth", "Hair", "Outfit_Top", "Outfit_Bottom", "Outfit_Footwear",
              "Glasses")
LOD_RATIOS = {0: 1.0, 1: 0.5, 2: 0.25}

# The glasses' texture: the frame's colour on the left half, the lens on the right (textures.py).
FRAME_UV = (0.25, 0.5)
LENS_UV = (0.75, 0.5)
# How far shoes stand off the foot (the tights helper's feet pushed out along their normals).
SHOE_THICKNESS = 0.006
# How far the stand-in hair and clothes stand off the skin (clothes: on top of the tights helper's own
# offset, so the skin does not show through where a pose folds it; the shirt over the trousers).
HAIR_LIFT = 0.007

# The previous generator's face painter (textures.skin_texture) still imports these angles; they
# go when its skin texture is replaced by one on MakeHuman's UVs.
EYE_THETA = 0.42
EYE_PHI = 0.5 * np.pi
EYE_UV_X = 0.20
EYE_UV_Y = 0.09


def avatar_skeleton(settings: dict) -> Skeleton:
    """The avatar's rest skeleton: the body mesh's (65 joints, T-pose, identity rest rotations)."""
    return body_mesh(settings).skeleton


def _group_triangles(mesh: BodyMesh, *names: str) -> np.ndarray:
    return np.concatenate([mesh.face_groups[n] for n in names])


def _outfit(mesh: BodyMesh) -> dict[str, np.ndarray]:
    """The tights helper's triangles split into top, bottom and footwear; the top's hem hangs below the
    trousers' waistband, so the shirt covers it (and stands further off the skin)."""
    rig = mesh.skeleton
    height = rig.height
    tights = mesh.face_groups["helper-tights"]
    centre = mesh.positions[mesh.triangles[tights]].mean(axis=1)
    ankle = rig.pos("LeftFoot")[1] + 0.02
    fore, hand = rig.pos("LeftForeArm")[0], rig.pos("LeftHand")[0]
    sleeve = fore + 0.55 * (hand - fore)
    top = (centre[:, 1] > SHIRT_HEM * height) & (np.abs(centre[:, 0]) < sleeve)
    bottom = (centre[:, 1] <= WAISTBAND * height) & (centre[:, 1] > ankle)
    feet = centre[:, 1] <= ankle
    return {"Outfit_Top": tights[top], "Outfit_Bottom": tights[bottom], "Outfit_Footwear": tights[feet]}


def _ellipse_ring(n: int) -> np.ndarray:
    a = np.linspace(0.0, 2.0 * np.pi, n, endpoint=False)
    return np.column_stack([np.cos(a), np.sin(a)])


def _glasses(mesh: BodyMesh) -> Piece:
    """Two lenses (fans) in rims (rings), a bridge and two temples, in front of the eyes, on ``Head``."""
    head = mesh.skeleton.index["Head"]
    pos: list[np.ndarray] = []
    tris: list[np.ndarray] = []
    uv: list[tuple[float, float]] = []

    def add(points, faces, where):
        base = sum(len(p) for p in pos)
        pos.append(np.asarray(points, np.float64))
        tris.append(np.asarray(faces, np.int64) + base)
        uv.extend([where] * len(points))

    eyes = {side: mesh.positions[mesh.groups[f"helper-{side}-eye"]].astype(np.float64) for side in "lr"}
    body = mesh.positions[mesh.groups["body"]].astype(np.float64)
    n = 24
    ring = _ellipse_ring(n)
    rx, ry = 0.027, 0.020
    outer_x = {}
    for side, eye in eyes.items():
        c = eye.mean(axis=0)
        near = body[(np.abs(body[:, 0] - c[0]) < rx) & (np.abs(body[:, 1] - c[1]) < ry)]
        z = (near[:, 2].max() if len(near) else eye[:, 2].max()) + 0.008
        centre = np.array([c[0], c[1] + 0.002, z])
        inner = centre + np.column_stack([ring[:, 0] * rx, ring[:, 1] * ry, np.zeros(n)])
        outer = centre + np.column_stack([ring[:, 0] * rx * 1.16, ring[:, 1] * ry * 1.22, np.zeros(n)])
        k = np.arange(n)
        add(np.vstack([centre, inner]), np.column_stack([np.zeros(n), 1 + k, 1 + (k + 1) % n]), LENS_UV)
        add(np.vstack([inner, outer]), np.vstack([np.column_stack([k, n + (k + 1) % n, (k + 1) % n]),
                                                  np.column_stack([k, n + k, n + (k + 1) % n])]), FRAME_UV)
        outer_x[side] = centre + np.array([np.sign(c[0]) * rx * 1.16, 0.004, 0.0])
    # Bridge between the rims, temples back to the ears: thin vertical strips.
    t = 0.0035
    left, right = outer_x["l"], outer_x["r"]
    mid_y = left[1] + 0.004
    bl = np.array([eyes["l"].mean(0)[0] - rx * 1.05, mid_y, left[2]])
    br = np.array([eyes["r"].mean(0)[0] + rx * 1.05, mid_y, right[2]])
    strip = [[0, 1, 2], [0, 2, 3]]
    add([bl + (0, -t, 0), br + (0, -t, 0), br + (0, t, 0), bl + (0, t, 0)], strip, FRAME_UV)
    for end in (left, right):
        back = end + np.array([0.004 * np.sign(end[0]), 0.004, -0.105])
        add([end + (0, -t, 0), back + (0, -t, 0), back + (0, t, 0), end + (0, t, 0)], strip, FRAME_UV)
    positions = np.vstack(pos).astype(np.float32)
    indices = np.vstack(tris)
    count = len(positions)
    joints = np.zeros((count, 4), np.uint8)
    joints[:, 0] = head
    weights = np.zeros((count, 4), np.float32)
    weights[:, 0] = 1.0
    return Piece(positions, vertex_normals(positions, indices), np.array(uv, np.float32), indices, joints, weights,
                 np.full(count, -1, np.int64))


def _shoes(p: Piece) -> Piece:
    """The feet of the tights thickened into shoes whose soles rest on the floor (y = 0)."""
    moved = p.positions + SHOE_THICKNESS * p.normals
    moved[:, 1] = np.maximum(moved[:, 1], 0.0)
    return p.moved(moved)


def _hair_cap(mesh: BodyMesh) -> Piece:
    """A stand-in for hair: the scalp (the head's skin above the brows and behind the ears) lifted off
    the skin. It takes no face morphs (``source`` -1): a brow raise moves the forehead, not the hair."""
    eyes = mesh.positions[np.concatenate([mesh.groups["helper-l-eye"], mesh.groups["helper-r-eye"]])]
    eye_y, eye_z = float(eyes[:, 1].mean()), float(eyes[:, 2].mean())
    body = mesh.face_groups["body"]
    centre = mesh.positions[mesh.triangles[body]].mean(axis=1)
    head = mesh.joints[mesh.triangles[body][:, 0], 0] == mesh.skeleton.index["Head"]
    crown = centre[:, 1] > eye_y + 0.035
    back = (centre[:, 1] > eye_y - 0.07) & (centre[:, 2] < eye_z - 0.10)
    cap = piece(mesh, body[head & (crown | back)])
    cap = cap.moved(cap.positions + HAIR_LIFT * cap.normals)
    return replace(cap, source=np.full(len(cap.positions), -1, np.int64))


def _key(settings: dict) -> tuple:
    return (settings["gender"], settings["bodyShape"], float(settings["height"]),
            settings["hair"]["style"], settings["glasses"] != "none")


@lru_cache(maxsize=64)
def _parts(key: tuple, lod: int) -> dict[str, Piece]:
    gender, shape, height, hair, glasses = key
    settings = {"gender": gender, "bodyShape": shape, "height": height}
    if lod:
        return {name: (p if name == "Glasses" else decimate(p, LOD_RATIOS[lod]))
                for name, p in _parts(key, 0).items()}
    mesh = body_mesh(settings)
    out = {"Body": piece(mesh, mesh.face_groups["body"])}
    for name, groups in FACE_MESHES.items():
        out[name] = piece(mesh, _group_triangles(mesh, *groups))
    out["Eyes"] = with_eye_uvs(mesh, out["Eyes"])
    if hair != "none":
        out["Hair"] = hair_piece(mesh, hair)
    out.update(outfit_pieces(mesh))
    if glasses:
        out["Glasses"] = glasses_piece(mesh)
    return {n: out[n] for n in MESH_ORDER if n in out}


def parts(settings: dict, lod: int = 0) -> dict[str, Piece]:
    """The avatar's meshes at ``lod`` (0, 1 or 2), by name in MESH_ORDER (cached; treat as read-only)."""
    return _parts(_key(settings), lod)


def triangle_count(settings: dict, lod: int = 0) -> int:
    """All meshes' triangles at ``lod``."""
    return sum(p.triangles for p in parts(settings, lod).values())
