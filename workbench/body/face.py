"""The face: the Eyes, Eyelashes, Eyebrows and Teeth meshes and their morph targets (the 52 ARKit shapes, the 15
Oculus visemes and the five shapes lip-sync libraries look for).

The face meshes are MakeHuman's helper geometry (``helper-l-eye``, ``helper-upper-teeth``, ...),
skinned to ``Head`` (:mod:`.rig`). The ARKit shapes are ``faceunits01``'s targets for the same base
mesh (:func:`workbench.body.mesh.morph_deltas`); a piece of any mesh gets them through its vertices'
``source`` (the body-mesh vertex each stands for), so they survive vertex splitting, decimation,
merging and atlas packing unchanged. The visemes and extra shapes are made of the ARKit shapes' deltas,
each a fixed weighted sum (:data:`COMBINED`, as lip-sync rigs build them; docs/face_rig.md says why each
is made so), so the lower teeth and the tongue move with the jaw wherever ``jawOpen`` is in the sum.
Every mesh that carries morphs carries all of :data:`SHAPES` in that order (contract section 5),
whether or not a shape moves it.

>>> len(ARKIT), ARKIT[0], ARKIT[-1], len(SHAPES), SHAPES[52], SHAPES[-1]
(52, 'browDownLeft', 'tongueOut', 72, 'viseme_sil', 'eyesLookDown')
"""

from __future__ import annotations

from functools import cache, lru_cache

import numpy as np

from .apple_shade import round_apples
from .corner_shade import SOFT_BALL, rest_normals_of, seam_share, soft_corners
from .crows_feet import crows_feet
from .expressions import EYES_APART, SMILE_EYES, SYNTHETIC, inner_corners
from .fold_shade import groove
from .lid_crease import lid_crease
from .lod import Piece
from .mesh import body_key, body_of, dense_morph_deltas, dense_morph_deltas_of
from .mesh import vertex_normals as _vertex_normals
from .mouth import lining_depth, lining_triangles
from .smile_smooth import broad_normals, smooth_share
from .soften import lip_edge
from .teeth_walls import lining_wall

ARKIT = (
    "browDownLeft", "browDownRight", "browInnerUp", "browOuterUpLeft", "browOuterUpRight", "cheekPuff",
    "cheekSquintLeft", "cheekSquintRight", "eyeBlinkLeft", "eyeBlinkRight", "eyeLookDownLeft",
    "eyeLookDownRight", "eyeLookInLeft", "eyeLookInRight", "eyeLookOutLeft", "eyeLookOutRight",
    "eyeLookUpLeft", "eyeLookUpRight", "eyeSquintLeft", "eyeSquintRight", "eyeWideLeft", "eyeWideRight",
    "jawForward", "jawLeft", "jawOpen", "jawRight", "mouthClose", "mouthDimpleLeft", "mouthDimpleRight",
    "mouthFrownLeft", "mouthFrownRight", "mouthFunnel", "mouthLeft", "mouthLowerDownLeft",
    "mouthLowerDownRight", "mouthPressLeft", "mouthPressRight", "mouthPucker", "mouthRight",
    "mouthRollLower", "mouthRollUpper", "mouthShrugLower", "mouthShrugUpper", "mouthSmileLeft",
    "mouthSmileRight", "mouthStretchLeft", "mouthStretchRight", "mouthUpperUpLeft", "mouthUpperUpRight",
    "noseSneerLeft", "noseSneerRight", "tongueOut",
)

# The visemes and extra shapes as weighted sums of ARKit shapes (``L``/``R`` in a name: both sides at that
# weight) and of :data:`~workbench.body.expressions.SYNTHETIC`'s (``tongueUp``: the tongue's front lifted to
# the upper teeth; ``smileOpen``: the smile with parted lips, unfolded). Tuned by eye on both genders in close-ups (docs/face_rig.md gives the reasoning per sound):
# each its own shape, aa wider and deeper than mouthOpen's relaxed drop, O and U rounded and pushed forward,
# E and I spread over the teeth, PP pressed shut, FF the lower lip under the upper teeth, TH the tongue's tip
# between the teeth. A lip-sync library blends towards these, often at less than full weight. (O less funnelled and
# a little less open than it was: on blind review G's shorter resting mouth its funnel turned the lower lip's
# underside over on the narrow face, tests/body/test_mouth.py; funnel 0.5, not 0.6, on review H's shorter lips.)
# aa rolls the lower lip in over the teeth (mouthRoll) and lifts the upper lip off the incisors (mouthUpperUp): with the
# jaw alone the lips stayed thick round a void, the upper teeth hidden ("rubber rings", blind review H); jawOpen past 0.85
# with them drove the upper lip's sides into the canines (tests/body/test_mouth.py); aa drops the whole jaw with the upper
# lip not rolled in (0.85 against mouthOpen's 0.65 was "nearly the same shape as open", blind review M:
# tests/body/test_mouth_shape_review_m.py), and lifts the upper lip 1.0 (at 0.45 the incisors' faces filled a fifth of
# the opening, "upper teeth mostly hidden", tests/render/test_open_mouth_lips.py). Since blind review X (defect 5,
# "aa is a scream": jaw 1.0 with the lip lifted 1.0 opened 2.2 to 2.3 times mouthOpen's opening, as tall as 0.71 to
# 0.75 of its width) aa drops the jaw 0.7 with the upper lip lifted 0.5, the lower lowered 0.6 and rolled in 0.25 (its
# gums showing, tests/render/test_mouth_interior_review_m.py) and the corners drawn out 0.75: a relaxed, unrounded
# drop, 1.6 to 1.66 times mouthOpen's opening and 0.45 to 0.48 as tall as wide (tests/render/test_aa_review_x.py),
# wider than mouthOpen and a little deeper (its lower teeth 12.4 mm down against 11.4). That jaw read as mouthOpen's
# ("mouthOpen and aa nearly the same with no jaw drop", blind review Z: the chin 15.7 to 17.2 mm down against 13.8 to
# 14.7): aa's jaw is 0.85 (past it the upper lip's sides met the canines), the lower lip carried down by the jaw and
# lowered 0.3 on it (at 0.2 it covered the lower gums), the upper lip lifted 0.7 (at 0.5 the incisors filled 0.17 of the
# taller opening, review H's "upper teeth hidden"), the corners drawn out 0.95: the chin 1.36 to 1.39 times mouthOpen's
# drop, the opening 1.7 to 1.8 times as tall and 0.54 as tall as wide (tests/render/test_jaw_drop_review_z.py).
# That aa still read as "oh" ("the lips funnel into a rounded oval", blind review AB): its lips as thick round the
# opening as mouthOpen's (the upper's red 0.9 of mouthOpen's) and its corners hardly further out. So the upper lip is
# rolled in 0.2 over the teeth and lifted 0.8 (at 0.7 with the wider opening the incisors filled 0.18 of it, review H's
# 0.2), the lower rolled in 0.45 and lowered 0.45 (0.25, 0.3): thin lips over the teeth (tests/render/test_aa_review_ab.py).
# The corners were pulled back into the cheeks too (mouthDimple 0.6, 1.28 to 1.33 times mouthOpen's width), which blind
# review AX saw as "cheeks caving in": two blind A/Bs of eight random faces preferred them where the units leave them
# (8 of 8 against dimple 0.3 and 0.6; 6 of 8 beside mouthOpen), neither reviewer seeing an "oh" (pass 67).
# mouthOpen is a relaxed jaw drop
# (ARKit's jawOpen): the upper lip barely moves (mouthUpperUp 0.1, rolled in 0.2), its edge a soft arc, its incisors'
# lower 3 to 4 mm showing, the lower lip following the jaw down (mouthLowerDown 0.25, rolled in 0.5; past 0.3 it met
# the narrow face's lower teeth) over the tongue; lifted 0.9 with both lips rolled in (0.45, 0.7) it was "a snarl with
# denture teeth", the upper lip a rectangle 2.3 to 3.7 mm up over the whole crowns (blind review U, defect 3:
# tests/render/test_mouth_open_relaxed_review_u.py). Its jaw 0.64 (chosen when aa's was 1.0, 1.5 times its drop).
COMBINED: dict[str, dict[str, float]] = {
    "viseme_sil": {},
    "viseme_PP": {"mouthPressL": 0.8, "mouthRollLower": 0.45, "mouthRollUpper": 0.35, "mouthClose": 0.1},
    "viseme_FF": {"mouthRollLower": 0.7, "mouthUpperUpL": 0.8, "mouthShrugLower": 0.2, "jawOpen": 0.08,
                  "mouthStretchL": 0.15},
    "viseme_TH": {"jawOpen": 0.35, "tongueOut": 0.35, "tongueUp": 1.0, "mouthUpperUpL": 0.25,
                  "mouthLowerDownL": 0.2},
    "viseme_DD": {"jawOpen": 0.2, "tongueUp": 0.8, "mouthStretchL": 0.3, "mouthUpperUpL": 0.35,
                  "mouthLowerDownL": 0.35},
    "viseme_kk": {"jawOpen": 0.32, "mouthStretchL": 0.3, "mouthLowerDownL": 0.2, "mouthUpperUpL": 0.1},
    "viseme_CH": {"jawOpen": 0.1, "mouthFunnel": 0.6, "mouthPucker": 0.15, "mouthUpperUpL": 0.4,
                  "mouthLowerDownL": 0.4},
    "viseme_SS": {"jawOpen": 0.05, "mouthStretchL": 0.45, "mouthSmileL": 0.2, "mouthUpperUpL": 0.4,
                  "mouthLowerDownL": 0.4},
    "viseme_nn": {"jawOpen": 0.12, "tongueUp": 0.9, "mouthStretchL": 0.05, "mouthUpperUpL": 0.1,
                  "mouthLowerDownL": 0.05},
    "viseme_RR": {"jawOpen": 0.15, "mouthFunnel": 0.45, "mouthPucker": 0.35, "mouthUpperUpL": 0.2},
    "viseme_aa": {"jawOpen": 0.85, "mouthStretchL": 0.95, "mouthUpperUpL": 0.8, "mouthLowerDownL": 0.45,
                  "mouthRollLower": 0.45, "mouthRollUpper": 0.2, "aaRound": 0.85},
    "viseme_E": {"jawOpen": 0.3, "mouthStretchL": 0.55, "mouthSmileL": 0.25, "mouthLowerDownL": 0.35,
                 "mouthUpperUpL": 0.3},
    "viseme_I": {"jawOpen": 0.1, "mouthSmileL": 0.45, "mouthStretchL": 0.5, "mouthUpperUpL": 0.6,
                 "mouthLowerDownL": 0.45},
    "viseme_O": {"jawOpen": 0.35, "mouthFunnel": 0.5, "mouthPucker": 0.6},
    "viseme_U": {"jawOpen": 0.1, "mouthPucker": 1.0, "mouthFunnel": 0.45},
    "mouthOpen": {"jawOpen": 0.64, "mouthRollUpper": 0.2, "mouthRollLower": 0.5, "mouthUpperUpL": 0.1,
                  "mouthLowerDownL": 0.25},
    "mouthSmile": {"smileOpen": 1.0, "smileLids": 1.0, **SMILE_EYES},
    "eyesClosed": {"eyeBlinkL": 1.0},
    "eyesLookUp": {"eyeLookUpL": 1.0},
    "eyesLookDown": {"eyeLookDownL": 1.0},
}
# A vertex a shape moves by less than this (metres) is stored as still: a sixth of a millimetre shows in no
# picture, and dropping them saved 0.3 MB of a 3 MB model (the LOD 0 budget with every clip is 6 MB).
MIN_DELTA = 1.5e-4
VISEMES = tuple(n for n in COMBINED if n.startswith("viseme_"))
EXTRA = tuple(n for n in COMBINED if not n.startswith("viseme_"))
# Every morph target of a face mesh, in the order of ``extras.targetNames``.
SHAPES = ARKIT + VISEMES + EXTRA


# The shapes of the mouth, which start from the lips as MakeHuman made them: each holds all of ``lipsUnrolled`` (the
# rest face's full lips' roll and heights taken off, workbench.body.shape.lips_at_rest; none on lips not set back).
MOUTH = tuple(n for n in COMBINED if n.startswith("viseme_") and n != "viseme_sil") + ("mouthOpen", "mouthSmile")


def combination(name: str) -> dict[str, float]:
    """The ARKit shapes (by their own names) and weights a viseme or extra shape is the sum of.

    >>> combination("eyesClosed")
    {'eyeBlinkLeft': 1.0, 'eyeBlinkRight': 1.0}
    >>> combination("viseme_O")
    {'jawOpen': 0.35, 'mouthFunnel': 0.5, 'mouthPucker': 0.6, 'lipsUnrolled': 1.0}
    """
    out: dict[str, float] = {}
    for key, w in COMBINED[name].items():
        for arkit in ((key[:-1] + "Left", key[:-1] + "Right") if key.endswith("L") and key not in ARKIT + SYNTHETIC
                      else (key,)):
            out[arkit] = out.get(arkit, 0.0) + w
    if name in MOUTH:
        out["lipsUnrolled"] = 1.0
    return out


# The shapes the sums are made of: the ARKit shapes, then the synthetic ones.
PARTS = ARKIT + SYNTHETIC


def _weights() -> np.ndarray:
    """(20, 57): the visemes and extra shapes as weights of :data:`PARTS`."""
    w = np.zeros((len(SHAPES) - len(ARKIT), len(PARTS)), np.float32)
    for k, name in enumerate(SHAPES[len(ARKIT):]):
        for part, weight in combination(name).items():
            w[k, PARTS.index(part)] = weight
    return w


# Mesh name -> the helper groups it is made of (the triangles of those OBJ face groups).
FACE_MESHES = {
    "Eyes": ("helper-l-eye", "helper-r-eye"),
    "Eyelashes": ("helper-l-eyelashes-1", "helper-l-eyelashes-2", "helper-r-eyelashes-1", "helper-r-eyelashes-2"),
    "Teeth": ("helper-upper-teeth", "helper-lower-teeth", "helper-tongue"),
}


# The shapes whose targets turn the skin's normals too (glTF's NORMAL deltas beside POSITION): the smile's. With
# positions alone every viewer shades a morphed face with its rest normals, so the smile's cheek raise, bulge and
# nasolabial fold (workbench.body.expressions) moved the skin but lit it as the rest face: "the cheeks don't lift
# and the fold doesn't deepen", blind review G. These cost 0.11 MB of a model; every shape's normals 0.9 MB, past the
# 6 MB LOD 0 budget with every clip (the curly hair's model is 5.4 MB), and the others move the lips, lids and jaw,
# whose light changes less.
SHADED = ("cheekSquintLeft", "cheekSquintRight", "eyeSquintLeft", "eyeSquintRight", "mouthSmileLeft",
          "mouthSmileRight", "mouthSmile")
# A normal turned by less than this (the delta's length, about a degree) is stored as unturned.
MIN_TURN = 0.02


@cache
def _parts_of(name: str) -> dict[str, float]:
    return {name: 1.0} if name in ARKIT else {p: w for p, w in zip(PARTS, _weights()[SHAPES.index(name) - len(ARKIT)],
                                                                   strict=True) if w}


@lru_cache(maxsize=4)
def _turned(key: tuple) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """:data:`SHADED`'s normal deltas on the body mesh for a :func:`~workbench.body.mesh.body_key`: name ->
    (V,) whether each body-mesh vertex's normal turns, (V, 3) float32 the delta (the shape's normals at full weight,
    recomputed as the body's own are, less the rest's), on the skin's vertices only (the eyes and teeth turn with
    their own shapes)."""
    m = body_of(key)
    where, table = dense_morph_deltas_of(key, PARTS)
    skin = np.zeros(len(m.positions), bool)
    skin[m.groups["body"]] = True
    touched = np.flatnonzero(where >= 0)
    deltas = {}
    for name in SHADED:
        d = np.zeros((len(touched), 3))
        for part, w in _parts_of(name).items():
            d += w * table[PARTS.index(part)].astype(np.float64)
        deltas[name] = d
    # Only the triangles round what the shapes move (a normal turns where a triangle on its vertex moves), and every
    # triangle on those triangles' vertices, so theirs sum in full.
    moving = np.zeros(len(m.positions), bool)
    moving[touched[np.any([np.any(d != 0, axis=1) for d in deltas.values()], axis=0)]] = True
    near = np.zeros(len(m.positions), bool)
    near[m.triangles[moving[m.triangles].any(1)].ravel()] = True
    tris = m.triangles[near[m.triangles].any(1)]
    rest = _vertex_normals(m.positions, tris)
    # (each shape's normals turn from the rest's as the GLB carries them, its mouth's corners soft: what the shape's own
    # normals are stays, workbench.body.corner_shade.rest_normals)
    soft, evened = rest.copy(), rest_normals_of(key)
    changed = np.any(evened != m.normals, axis=1)
    soft[changed] = evened[changed]
    # (not the mouth's lining, whose normals are one direction out of the mouth: workbench.body.teeth_walls.lined)
    free = (1 - lining_wall(lining_depth(m)))[:, None]
    # (The smile's normals evened along the lips' meeting line at the corners, over the skin alone:
    # workbench.body.corner_shade.)
    body_tris = m.triangles[m.face_groups["body"]]
    lining = np.zeros(len(body_tris), bool)
    lining[lining_triangles(m)] = True
    share = seam_share(m)
    right, left = (m.positions[m.groups[f"helper-{s}-eye"]].mean(0) for s in "rl")
    eyes = np.array([right, left], np.float64)
    corners = inner_corners(m.positions, body_tris)
    lips = lip_edge(body_tris)
    ball = SOFT_BALL * float(np.linalg.norm(left - right)) / EYES_APART
    out = {}
    for name, d in deltas.items():
        moved = m.positions.astype(np.float64)
        moved[touched] += d
        normals = _vertex_normals(moved, tris)
        if name.startswith("mouthSmile"):
            normals = soft_corners(m.positions, body_tris[~lining], normals, share, ball)
        if name == "mouthSmile":
            # (the nasolabial fold's crease, finer than the mesh: workbench.body.fold_shade; lit by the smile's broad
            # shape, not the base mesh's facets: workbench.body.smile_smooth)
            share = smooth_share(m.positions, moved - m.positions, skin, eyes, lips)
            normals = groove(moved, broad_normals(normals, tris, share), skin, eyes, moved[corners], rest)
            # (the raised apples' roundness, which the coarse mesh and the evening flatten: workbench.body.apple_shade)
            normals = round_apples(moved, normals, moved - m.positions, skin, eyes, moved[corners], rest)
            # (the squinting lower lids' roll and crease, finer than the mesh: workbench.body.lid_crease)
            normals = lid_crease(moved, normals, moved - m.positions, skin, eyes, rest)
            # (and the crow's feet fanning out from the eyes' outer corners: workbench.body.crows_feet)
            normals = crows_feet(moved, normals, skin, eyes, rest)
        turn = normals - soft
        turn *= free
        keep = skin & near & (np.einsum("nc,nc->n", turn, turn) >= MIN_TURN ** 2)
        turn[~keep] = 0.0
        out[name] = (keep, turn)
    return out


def prepare(settings: dict) -> None:
    """Make the body's face shapes for normalized ``settings`` (what every piece's :func:`piece_morphs` reads, kept per
    body): the shapes' table and :data:`SHADED`'s normal deltas. A model's build runs this on its helper thread beside
    its meshes (:func:`workbench.gltf.avatar.build_avatar`), so its pieces' shapes after are lookups.

    >>> from workbench.options import normalize_avatar_settings
    >>> prepare(normalize_avatar_settings({"gender": "feminine"}))
    """
    dense_morph_deltas(settings, PARTS)
    _turned(body_key(settings))


def piece_morphs(settings: dict, p: Piece) -> list[tuple[np.ndarray, ...]] | None:
    """Per shape in :data:`SHAPES` order, (vertex indices into ``p``, deltas) of the vertices it
    moves (possibly none); None when no shape moves any vertex of ``p`` (the piece carries no morphs).
    Vertices with ``source < 0`` (made here, not from the base mesh) never move; nor do those a shape moves
    by less than :data:`MIN_DELTA` (a seventh of each shape's stored vertices, at the edges of what it moves).
    A shape of :data:`SHADED` adds (vertex indices, normal deltas) of the skin's vertices whose normals it turns
    by :data:`MIN_TURN` or more.
    """
    where, table = dense_morph_deltas(settings, PARTS)
    rows = np.where(p.source >= 0, where[np.maximum(p.source, 0)], -1)
    known = np.flatnonzero(rows >= 0)
    if not len(known):
        return None
    parts = table[:, rows[known]]                                    # (57, N, 3)
    if not np.any(parts):
        return None
    arkit = parts[:len(ARKIT)]
    # The ARKit shapes as they are, then the sums of COMBINED: (72, N, 3). Summed term by term (a handful
    # each): a matrix product went to BLAS, whose threads cost 0.1 s on a busy 2-core machine.
    weights = _weights()
    extra = np.zeros((len(weights),) + arkit.shape[1:], np.float32)
    for k, row in enumerate(weights):
        for a in np.flatnonzero(row):
            extra[k] += row[a] * parts[a]
    deltas = np.concatenate([arkit, extra])
    moving = np.einsum("snc,snc->sn", deltas, deltas) >= MIN_DELTA ** 2
    out: list[tuple[np.ndarray, ...]] = [(known[moving[k]], deltas[k, moving[k]]) for k in range(len(SHAPES))]
    turned = _turned(body_key(settings))
    ours = np.flatnonzero(p.source >= 0)
    for name, (keep, turn) in turned.items():
        at = ours[keep[p.source[ours]]]
        if len(at):
            out[SHAPES.index(name)] += (at, turn[p.source[at]])
    return out
