"""The face: the Eyes, Eyelashes and Teeth meshes and their morph targets (the 52 ARKit shapes, the 15
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

import numpy as np

from .lod import Piece
from .mesh import dense_morph_deltas

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
# weight). Tuned by eye on both genders at 512 px (docs/looks_expressions.png); docs/face_rig.md gives the
# reasoning per sound. A viseme opens the jaw little: speech moves it a few millimetres, and the shape is
# a target a lip-sync library blends towards, often at less than full weight.
COMBINED: dict[str, dict[str, float]] = {
    "viseme_sil": {},
    "viseme_PP": {"mouthPressL": 0.6, "mouthRollLower": 0.3, "mouthRollUpper": 0.25, "mouthClose": 0.1},
    "viseme_FF": {"mouthRollLower": 0.8, "mouthUpperUpL": 0.35, "jawOpen": 0.05, "mouthStretchL": 0.15},
    "viseme_TH": {"jawOpen": 0.2, "tongueOut": 0.45, "mouthUpperUpL": 0.2, "mouthStretchL": 0.1},
    "viseme_DD": {"jawOpen": 0.25, "mouthStretchL": 0.25, "mouthUpperUpL": 0.25, "mouthLowerDownL": 0.2},
    "viseme_kk": {"jawOpen": 0.3, "mouthStretchL": 0.3, "mouthLowerDownL": 0.2, "mouthUpperUpL": 0.1},
    "viseme_CH": {"jawOpen": 0.12, "mouthFunnel": 0.6, "mouthPucker": 0.2, "mouthUpperUpL": 0.3,
                  "mouthLowerDownL": 0.3},
    "viseme_SS": {"jawOpen": 0.08, "mouthStretchL": 0.4, "mouthSmileL": 0.2, "mouthUpperUpL": 0.35,
                  "mouthLowerDownL": 0.35},
    "viseme_nn": {"jawOpen": 0.18, "mouthStretchL": 0.15, "mouthUpperUpL": 0.2, "mouthLowerDownL": 0.1},
    "viseme_RR": {"jawOpen": 0.15, "mouthFunnel": 0.4, "mouthPucker": 0.3, "mouthUpperUpL": 0.15},
    "viseme_aa": {"jawOpen": 0.55, "mouthLowerDownL": 0.3, "mouthUpperUpL": 0.15, "mouthStretchL": 0.1},
    "viseme_E": {"jawOpen": 0.3, "mouthStretchL": 0.45, "mouthSmileL": 0.2, "mouthLowerDownL": 0.3,
                 "mouthUpperUpL": 0.25},
    "viseme_I": {"jawOpen": 0.15, "mouthSmileL": 0.35, "mouthStretchL": 0.4, "mouthUpperUpL": 0.3,
                 "mouthLowerDownL": 0.25},
    "viseme_O": {"jawOpen": 0.35, "mouthFunnel": 0.65, "mouthPucker": 0.2},
    "viseme_U": {"jawOpen": 0.12, "mouthPucker": 0.8, "mouthFunnel": 0.3},
    "mouthOpen": {"jawOpen": 0.7, "mouthLowerDownL": 0.15},
    "mouthSmile": {"mouthSmileL": 0.9, "cheekSquintL": 0.3},
    "eyesClosed": {"eyeBlinkL": 1.0},
    "eyesLookUp": {"eyeLookUpL": 1.0},
    "eyesLookDown": {"eyeLookDownL": 1.0},
}
# A vertex a shape moves by less than this (metres) is stored as still: a tenth of a millimetre shows in no
# picture, and dropping them saved 0.2 MB of a 3 MB model.
MIN_DELTA = 1e-4
VISEMES = tuple(n for n in COMBINED if n.startswith("viseme_"))
EXTRA = tuple(n for n in COMBINED if not n.startswith("viseme_"))
# Every morph target of a face mesh, in the order of ``extras.targetNames``.
SHAPES = ARKIT + VISEMES + EXTRA


def combination(name: str) -> dict[str, float]:
    """The ARKit shapes (by their own names) and weights a viseme or extra shape is the sum of.

    >>> combination("eyesClosed")
    {'eyeBlinkLeft': 1.0, 'eyeBlinkRight': 1.0}
    """
    out: dict[str, float] = {}
    for key, w in COMBINED[name].items():
        for arkit in ((key[:-1] + "Left", key[:-1] + "Right") if key.endswith("L") and key not in ARKIT else (key,)):
            out[arkit] = out.get(arkit, 0.0) + w
    return out


def _weights() -> np.ndarray:
    """(20, 52): the visemes and extra shapes as weights of the ARKit shapes."""
    w = np.zeros((len(SHAPES) - len(ARKIT), len(ARKIT)), np.float32)
    for k, name in enumerate(SHAPES[len(ARKIT):]):
        for arkit, weight in combination(name).items():
            w[k, ARKIT.index(arkit)] = weight
    return w


# Mesh name -> the helper groups it is made of (the triangles of those OBJ face groups).
FACE_MESHES = {
    "Eyes": ("helper-l-eye", "helper-r-eye"),
    "Eyelashes": ("helper-l-eyelashes-1", "helper-l-eyelashes-2", "helper-r-eyelashes-1", "helper-r-eyelashes-2"),
    "Teeth": ("helper-upper-teeth", "helper-lower-teeth", "helper-tongue"),
}


def piece_morphs(settings: dict, p: Piece) -> list[tuple[np.ndarray, np.ndarray]] | None:
    """Per shape in :data:`SHAPES` order, (vertex indices into ``p``, deltas) of the vertices it
    moves (possibly none); None when no shape moves any vertex of ``p`` (the piece carries no morphs).
    Vertices with ``source < 0`` (made here, not from the base mesh) never move; nor do those a shape moves
    by less than :data:`MIN_DELTA` (a seventh of each shape's stored vertices, at the edges of what it moves).
    """
    where, table = dense_morph_deltas(settings, ARKIT)
    rows = np.where(p.source >= 0, where[np.maximum(p.source, 0)], -1)
    known = np.flatnonzero(rows >= 0)
    if not len(known):
        return None
    arkit = table[:, rows[known]]                                    # (52, N, 3)
    if not np.any(arkit):
        return None
    # The ARKit shapes as they are, then the sums of COMBINED: (72, N, 3). Summed term by term (a handful
    # each): a matrix product went to BLAS, whose threads cost 0.1 s on a busy 2-core machine.
    weights = _weights()
    extra = np.zeros((len(weights),) + arkit.shape[1:], np.float32)
    for k, row in enumerate(weights):
        for a in np.flatnonzero(row):
            extra[k] += row[a] * arkit[a]
    deltas = np.concatenate([arkit, extra])
    moving = np.einsum("snc,snc->sn", deltas, deltas) >= MIN_DELTA ** 2
    return [(known[moving[k]], deltas[k, moving[k]]) for k in range(len(SHAPES))]
