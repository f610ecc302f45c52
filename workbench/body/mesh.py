"""BodyMesh: one avatar's MakeHuman body (with its helper geometry), shaped, rigged and in the T-pose.

:func:`body_mesh` is the whole body pipeline for a settings dict (as
``workbench.options.normalize_avatar_settings`` gives): macro targets (:mod:`.shape`), joints and
weights and the A-to-T re-pose (:mod:`.rig`), then metres with the soles at y = 0, the hips over the
origin and one uniform scale that makes the stature (soles to the top of the skull, hair helper
excluded) exactly ``height`` centimetres. :func:`morph_deltas` gives the 52 ARKit face shapes (and
:mod:`.expressions`' ``tongueUp`` and ``smileOpen``, ``lipsUnrolled`` and :mod:`.aa_round`'s ``aaRound``, used inside
the sums) on the same vertices and in the same space.

Only ``gender``, ``bodyShape``, ``height`` and the face (its controls and the features the person's settings
give it: :func:`workbench.body.shape.face_weights`) shape the body; results are cached per those
(:func:`body_key`).

>>> from workbench.options import normalize_avatar_settings
>>> settings = normalize_avatar_settings({"gender": "feminine", "height": 171.5})
>>> m = body_mesh(settings)
>>> round(float(m.positions[m.groups["body"], 1].max()), 4), len(m.skeleton.names), len(morph_deltas(settings))
(1.715, 65, 57)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
from numba import njit

from ..skeleton import Skeleton
from . import compile as cc
from . import rig as rg
from . import sets
from . import shape as sh
from .aa_round import aa_round
from .details import REST_FACE, rest_face
from .expressions import EYES_APART, THIN_LIPS, extra_shapes
from .lip_shape import REST
from .topology import topology


@dataclass(frozen=True)
class BodyMesh:
    """A shaped, rigged body in the T-pose (metres, Y up, facing +Z, the avatar's left on +X, soles at y=0).

    - ``skeleton``: the 65 joints (names, parents, world and local rest positions; identity rest rotations);
    - ``positions`` / ``normals``: (V, 3) float32, every vertex of ``base.obj`` (body, helpers, joint cubes);
    - ``triangles``: (F, 3) int32, the body's and the helpers' quads split in two, counter-clockwise
      seen from outside (joint cubes left out); ``triangle_uvs``: (F, 3, 2) float32, MakeHuman's UVs
      per corner (v up, as in the OBJ: flip it for glTF);
    - ``groups``: vertex indices per vertex group (``body``, ``helper-hair``, ``helper-tights``, ...);
    - ``face_groups``: triangle indices per OBJ face group (``body``, ``helper-l-eye``, ...);
    - ``joints`` / ``weights``: (V, 4) uint8 skin joints into ``skeleton.names`` and float32 weights
      (rows sum to 1; face helpers bound to ``Head``);
    - ``height_macro``: MakeHuman's height value used before the exact scale; ``scale``: metres per
      base.obj decimetre after that scale (what :func:`morph_deltas` multiplies by);
    - ``triangle_uv_ids``: (F, 3) int32, each corner's index in the OBJ's UV list (equal ids, equal UVs:
      what splitting vertices at UV seams keys on);
    - ``face``: the face's modifier targets and weights (:func:`workbench.body.shape.face_weights`), part of
      what tells two bodies apart (caches of things made from a body key on it).
    """

    skeleton: Skeleton
    positions: np.ndarray
    normals: np.ndarray
    triangles: np.ndarray
    triangle_uvs: np.ndarray
    groups: Mapping[str, np.ndarray]
    face_groups: Mapping[str, np.ndarray]
    joints: np.ndarray
    weights: np.ndarray
    height_macro: float
    scale: float
    triangle_uv_ids: np.ndarray
    face: tuple = ()


def body_key(settings: dict) -> tuple[str, str, float, tuple]:
    """What a body is made from: gender, body shape, height and the face's weights (hashable).

    >>> body_key({"gender": "feminine", "bodyShape": "average", "height": 166})
    ('feminine', 'average', 166.0, ())
    """
    return settings["gender"], settings["bodyShape"], float(settings["height"]), sh.face_weights(settings)


def body_of(key: tuple[str, str, float, tuple]) -> BodyMesh:
    """The body for a :func:`body_key` (cached)."""
    return _body(*key)


_key = body_key


def vertex_normals(positions: np.ndarray, triangles: np.ndarray) -> np.ndarray:
    """Area-weighted vertex normals (unit length; vertices on no triangle get +Y).

    >>> vertex_normals(np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0], [5, 5, 5]], np.float32),
    ...                np.array([[0, 1, 2]], np.int32)).tolist()
    [[0.0, 0.0, 1.0], [0.0, 0.0, 1.0], [0.0, 0.0, 1.0], [0.0, 1.0, 0.0]]
    """
    return _normals(np.ascontiguousarray(positions, np.float64), np.ascontiguousarray(triangles, np.int64))


@njit(cache=True, nogil=True)
def _normals(p: np.ndarray, triangles: np.ndarray) -> np.ndarray:
    # Compiled (a body's garments, hair and helpers take 16 of them per avatar: 19 ms in numpy, 3 here), in
    # numpy's arithmetic and order: each face's cross product as np.cross forms it, summed into its corners'
    # vertices triangle by triangle, corner by corner (np.bincount's order), then divided by the length.
    n = np.zeros((p.shape[0], 3))
    for t in range(triangles.shape[0]):
        a, b, c = triangles[t, 0], triangles[t, 1], triangles[t, 2]
        u0, u1, u2 = p[b, 0] - p[a, 0], p[b, 1] - p[a, 1], p[b, 2] - p[a, 2]
        v0, v1, v2 = p[c, 0] - p[a, 0], p[c, 1] - p[a, 1], p[c, 2] - p[a, 2]
        f0 = u1 * v2 - u2 * v1
        f1 = u2 * v0 - u0 * v2
        f2 = u0 * v1 - u1 * v0
        for k in range(3):
            v = triangles[t, k]
            n[v, 0] += f0
            n[v, 1] += f1
            n[v, 2] += f2
    out = np.empty((p.shape[0], 3), np.float32)
    for v in range(p.shape[0]):
        length = np.sqrt(n[v, 0] * n[v, 0] + n[v, 1] * n[v, 1] + n[v, 2] * n[v, 2])
        if length > 0:
            out[v, 0], out[v, 1], out[v, 2] = n[v, 0] / length, n[v, 1] / length, n[v, 2] / length
        else:
            out[v, 0], out[v, 1], out[v, 2] = 0.0, 1.0, 0.0
    return out


@lru_cache(maxsize=4)
def _a_pose(gender: str, body_shape: str, height_cm: float,
            face: tuple = ()) -> tuple[np.ndarray, float, np.ndarray, np.ndarray]:
    """The shaped A-pose vertices, the height macro, the joints on them and the rotations to the T-pose."""
    verts, height_macro = sh.shaped(gender, body_shape, height_cm, face)
    joints = rg.joint_positions(verts)
    return verts, height_macro, joints, rg.t_pose_rotations(joints)


@lru_cache(maxsize=32)
def _body(gender: str, body_shape: str, height_cm: float, face: tuple = ()) -> BodyMesh:
    data = cc.compiled()
    tris, tri_uvs, tri_uv_ids, groups, face_groups = topology()
    verts, height_macro, joints, rotations = _a_pose(gender, body_shape, height_cm, face)
    skin_j, skin_w = rg.skin_weights()
    posed = rg.posed_joints(joints, rotations)
    verts = rg.skin(verts, joints, posed, rotations, skin_j, skin_w)

    body = groups["body"]
    origin = np.array([posed[0, 0], verts[body, 1].min(), posed[0, 2]])
    stature = verts[body, 1].max() - origin[1]
    k = (height_cm / 100.0) / stature        # metres per decimetre of base.obj, with the exact-height scale
    positions = ((verts - origin) * k).astype(np.float32)
    world = (posed - origin) * k
    # Mixamo's HeadTop_End marks the crown: on the skull's top (the rig's tail sits a little above it).
    world[rg.INDEX["HeadTop_End"], 1] = height_cm / 100.0
    del data

    skeleton = Skeleton.placed(gender, height_cm / 100.0, body_shape, world)
    normals = vertex_normals(positions, tris)
    for arr in (positions, normals, skin_j, skin_w):
        arr.setflags(write=False)
    return BodyMesh(skeleton, positions, normals, tris, tri_uvs, groups, face_groups, skin_j, skin_w,
                    height_macro, float(k), tri_uv_ids, face)


def cut(positions: np.ndarray, triangles: np.ndarray, axis: int, value: float) -> np.ndarray:
    """Where the triangles' edges cross the plane ``positions[:, axis] == value`` (points, (N, 3)).

    >>> cut(np.array([[0, 0, 0], [0, 2, 0], [2, 0, 0]], float), np.array([[0, 1, 2]]), 1, 1.0).tolist()
    [[0.0, 1.0, 0.0], [1.0, 1.0, 0.0]]
    """
    f = positions[:, axis] - value
    edges = np.concatenate([triangles[:, [0, 1]], triangles[:, [1, 2]], triangles[:, [2, 0]]])
    a, b = edges[:, 0], edges[:, 1]
    crossing = (f[a] < 0) != (f[b] < 0)
    a, b = a[crossing], b[crossing]
    return positions[a] + (f[a] / (f[a] - f[b]))[:, None] * (positions[b] - positions[a])


def _tape(points: np.ndarray) -> float:
    """A tape measure's length round a section: its convex hull's perimeter."""
    from scipy.spatial import ConvexHull

    return float(ConvexHull(points).area) if len(points) >= 3 else 0.0


def girths(m: BodyMesh) -> dict[str, float]:
    """The body's circumferences (metres) where a tailor measures them, from the skeleton's landmarks:
    ``chest`` (at Spine2), ``waist`` (the narrowest between Hips and Spine2), ``hips`` (the widest between
    just under the crotch and the Hips joint), ``thigh`` and ``upper_arm`` (halfway down each bone, left side).

    >>> from workbench.options import normalize_avatar_settings
    >>> g = girths(body_mesh(normalize_avatar_settings({"gender": "masculine", "bodyShape": "heavy"})))
    >>> g["waist"] > 0.9, sorted(g)
    (True, ['chest', 'hips', 'thigh', 'upper_arm', 'waist'])
    """
    pos = m.positions.astype(np.float64)
    tris = m.triangles[m.face_groups["body"]]
    rig = m.skeleton
    # In the T-pose only the chest's section could meet the arms (at the armpits): it keeps inside the shoulders.
    shoulders = 0.8 * abs(rig.pos("LeftArm")[0] - rig.pos("Hips")[0])

    def round_torso(y: float, half_width: float = np.inf) -> float:
        q = cut(pos, tris, 1, y)
        return _tape(q[np.abs(q[:, 0] - rig.pos("Hips")[0]) < half_width][:, [0, 2]])

    hips_y, chest_y = rig.pos("Hips")[1], rig.pos("Spine2")[1]
    # The hips are measured round the buttocks, whose widest part is about level with the crotch (the
    # lowest skin on the midline under the Hips joint): from 4 cm under it (the tape round both thighs
    # there, as a tailor's) up to the Hips joint.
    middle = pos[m.groups["body"]]
    middle = middle[(np.abs(middle[:, 0] - rig.pos("Hips")[0]) < 0.004) & (middle[:, 1] < hips_y)
                    & (middle[:, 1] > rig.pos("LeftLeg")[1])]
    crotch = float(middle[:, 1].min()) - 0.04
    up, knee = rig.pos("LeftUpLeg"), rig.pos("LeftLeg")
    thigh = cut(pos, tris, 1, (up[1] + knee[1]) / 2)
    thigh = thigh[thigh[:, 0] > rig.pos("Hips")[0] + 0.01]
    shoulder, elbow = rig.pos("LeftArm"), rig.pos("LeftForeArm")
    arm = cut(pos, tris, 0, (shoulder[0] + elbow[0]) / 2)
    arm = arm[np.abs(arm[:, 1] - shoulder[1]) < 0.12]
    return {"chest": round_torso(chest_y, shoulders),
            "waist": min(round_torso(y) for y in np.linspace(hips_y + 0.03, chest_y, 12)),
            "hips": max(round_torso(y) for y in np.linspace(crotch, hips_y, 11)),
            "thigh": _tape(thigh[:, [0, 2]]), "upper_arm": _tape(arm[:, [1, 2]])}


def body_mesh(settings: dict) -> BodyMesh:
    """The body for normalized avatar settings (cached per :func:`body_key`)."""
    return _body(*_key(settings))


@lru_cache(maxsize=32)
def _morphs(gender: str, body_shape: str, height_cm: float, face: tuple = ()) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    data = cc.compiled()
    m = _body(gender, body_shape, height_cm, face)
    rotations = _a_pose(gender, body_shape, height_cm, face)[3]
    out, lips = {}, {}
    # The lips set back at rest and the face's own lips' heights (workbench.body.shape.rest_lips), to be taken off again
    # in every expression.
    at_rest: dict[str, float] = {}
    unrolled: list = []
    for k, w in sh.rest_lips(dict(face), (gender, body_shape)).items():   # (REST's targets are their targets)
        at_rest[k.removeprefix(REST)] = at_rest.get(k.removeprefix(REST), 0.0) + w
    for name in data["target_names"]:
        if not name.startswith("face/") and name not in THIN_LIPS and name not in at_rest:
            continue
        idx, delta = cc.target(data, str(name))
        order = np.argsort(idx, kind="stable")   # sorted indices: callers look vertices up by bisection
        idx, delta = idx[order], delta[order]
        turn = rg.blend_rotations(rotations, m.joints[idx], m.weights[idx])
        moved = (np.einsum("nij,nj->ni", turn, delta.astype(np.float64)) * m.scale).astype(np.float32)
        idx = idx.astype(np.int32)
        idx.setflags(write=False)
        moved.setflags(write=False)
        if name in at_rest:
            unrolled.append((idx, np.float32(-at_rest[name]) * moved))
        if name in THIN_LIPS:
            lips[str(name)] = (idx, moved)
        elif name.startswith("face/"):
            out[str(name)[5:]] = (idx, moved)
    # A blink closes the lids from the rest face's (details.rest_face opens them by a share of eyeWide; a large eye's
    # face takes some of it off again, details.LID_FOLLOW).
    rest, faces = rest_face(gender), dict(face)
    for side in ("Left", "Right"):
        share = rest.get(f"face/eyeWide{side}", 0.0) + faces.get(f"face/eyeWide{side}", 0.0)
        if share:
            out[f"eyeBlink{side}"] = _less(out[f"eyeBlink{side}"], out[f"eyeWide{side}"], share)
        # ... and a squint from the lids the smile was made on (REST_FACE's): lids opened further at rest (a
        # masculine face's) folded the lower lid's skin under the smile's squint (tests/body/test_smile_surface.py)
        more = share - REST_FACE.get(f"face/eyeWide{side}", 0.0)
        if more > 0:
            out[f"eyeSquint{side}"] = _less(out[f"eyeSquint{side}"], out[f"eyeWide{side}"], more)
    # ``lipsUnrolled``: the rest's lips set back, taken off (every expression of the mouth holds it at weight 1,
    # workbench.body.face.combination): the expressions are made, and end, as on lips not set back; rolled at rest
    # the lips' roll added to the smile's (review E's lining beside the mouth, tests/body/test_smile_surface.py).
    out["lipsUnrolled"] = _sum(unrolled)
    positions, normals, own = m.positions, m.normals, None
    if len(out["lipsUnrolled"][0]):
        positions, own = m.positions.copy(), m.positions
        positions[out["lipsUnrolled"][0]] += out["lipsUnrolled"][1]
        normals = vertex_normals(positions, m.triangles)
    # The smile's cheek raise and the tongue's lift (workbench.body.expressions).
    out.update(extra_shapes(positions, normals, m.groups, out, m.triangles[m.face_groups["body"]], lips, own))
    # viseme_aa's lower lip rounded under the jaw's drop (workbench.body.aa_round).
    unit = float(np.linalg.norm(positions[m.groups["helper-l-eye"]].mean(0)
                                - positions[m.groups["helper-r-eye"]].mean(0))) / EYES_APART
    out["aaRound"] = aa_round(positions, m.triangles[m.face_groups["body"]], m.groups["body"], out["jawOpen"], unit)
    for arr in out["aaRound"]:
        arr.setflags(write=False)    # (the cached shapes are shared by every later avatar, as the others are)
    return out


def _sum(shapes: list) -> tuple[np.ndarray, np.ndarray]:
    """Shapes (each (ascending vertex indices, deltas)) added, on all their vertices.

    >>> idx, d = _sum([(np.array([1], np.int32), np.ones((1, 3), np.float32))] * 2)
    >>> idx.tolist(), d[:, 0].tolist()
    ([1], [2.0])
    """
    idx, delta = np.zeros(0, np.int32), np.zeros((0, 3), np.float32)
    for shape in shapes:
        idx, delta = _less((idx, delta), shape, -1.0)
    idx.setflags(write=False)
    delta.setflags(write=False)
    return idx, delta


def _less(shape, other, share: float):
    """``shape`` minus ``share`` of ``other`` (each (ascending vertex indices, deltas)), on both's vertices.

    >>> a = (np.array([1, 3], np.int32), np.ones((2, 3), np.float32))
    >>> b = (np.array([3, 5], np.int32), np.ones((2, 3), np.float32))
    >>> idx, d = _less(a, b, 0.5)
    >>> idx.tolist(), d[:, 0].tolist()
    ([1, 3, 5], [1.0, 0.5, -0.5])
    """
    idx = sets.union(shape[0], other[0]).astype(np.int32)
    delta = np.zeros((len(idx), 3), np.float32)
    delta[np.searchsorted(idx, shape[0])] += shape[1]
    delta[np.searchsorted(idx, other[0])] -= np.float32(share) * other[1]
    idx.setflags(write=False)
    delta.setflags(write=False)
    return idx, delta


@lru_cache(maxsize=4)
def _dense_morphs(gender: str, body_shape: str, height_cm: float, face: tuple,
                  names: tuple[str, ...]) -> tuple[np.ndarray, np.ndarray]:
    shapes = _morphs(gender, body_shape, height_cm, face)
    touched = sets.unique(np.concatenate([shapes[n][0] for n in names]))
    where = np.full(len(_body(gender, body_shape, height_cm, face).positions), -1, np.int64)
    where[touched] = np.arange(len(touched))
    table = np.zeros((len(names), len(touched), 3), np.float32)
    for k, name in enumerate(names):
        idx, delta = shapes[name]
        table[k, where[idx]] = delta
    where.setflags(write=False)
    table.setflags(write=False)
    return where, table


def dense_morph_deltas(settings: dict, names: tuple[str, ...]) -> tuple[np.ndarray, np.ndarray]:
    """The named shapes as one table for gathering: ``(row, table)`` where ``row`` (V,) gives each body-mesh
    vertex's row in ``table`` (-1 for a vertex no shape moves) and ``table`` (len(names), rows, 3) float32
    holds every shape's delta on those vertices (zero where a shape leaves one still)."""
    return _dense_morphs(*_key(settings), tuple(names))


def dense_morph_deltas_of(key: tuple[str, str, float, tuple], names: tuple[str, ...]) -> tuple[np.ndarray, np.ndarray]:
    """:func:`dense_morph_deltas` for a :func:`body_key` (a cache keyed by the body's key can call it)."""
    return _dense_morphs(*key, tuple(names))


def morph_deltas(settings: dict) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """The 52 ARKit face shapes (``eyeBlinkLeft`` ... ``tongueOut``, sorted by name; the smile's with its cheek
    raise) and :data:`~workbench.body.expressions.SYNTHETIC`'s for this body:
    name -> (vertex indices int32 into ``BodyMesh.positions``, ascending; deltas float32 in metres,
    T-pose space).

    A subset of vertices (one mesh's) is ``np.isin(indices, subset)`` away.
    """
    return _morphs(*_key(settings))
