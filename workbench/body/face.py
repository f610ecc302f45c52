"""The face: the Eyes, Eyelashes and Teeth meshes and the 52 ARKit shapes as morph targets.

The face meshes are MakeHuman's helper geometry (``helper-l-eye``, ``helper-upper-teeth``, ...),
skinned to ``Head`` (:mod:`.rig`). The ARKit shapes are ``faceunits01``'s targets for the same base
mesh (:func:`workbench.body.mesh.morph_deltas`); a piece of any mesh gets them through its vertices'
``source`` (the body-mesh vertex each stands for), so they survive vertex splitting, decimation,
merging and atlas packing unchanged. Every mesh that carries morphs carries all 52, in
:data:`ARKIT` order (contract section 5), whether or not a shape moves it.

>>> len(ARKIT), ARKIT[0], ARKIT[-1]
(52, 'browDownLeft', 'tongueOut')
"""

from __future__ import annotations

from dataclasses import replace

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

# Mesh name -> the helper groups it is made of (the triangles of those OBJ face groups).
FACE_MESHES = {
    "Eyes": ("helper-l-eye", "helper-r-eye"),
    "Eyelashes": ("helper-l-eyelashes-1", "helper-l-eyelashes-2", "helper-r-eyelashes-1", "helper-r-eyelashes-2"),
    "Teeth": ("helper-upper-teeth", "helper-lower-teeth", "helper-tongue"),
}


# The teeth's arch narrowed towards its back (at TEETH_DEPTH behind the front teeth, by TEETH_NARROW of
# its width; the front teeth stay): the lips' corners leave a gap MakeHuman's wide arch showed through,
# white specks in the mouth's corners at rest on dark skin.
TEETH_NARROW = 0.35
TEETH_DEPTH = 0.02


def tucked_teeth(p: Piece) -> Piece:
    """The Teeth piece with its arch narrowed towards the back (see :data:`TEETH_NARROW`); the morph
    targets' deltas move it from there as before (jawOpen still shows the front teeth).

    >>> import numpy as np
    >>> p = Piece(np.array([[-0.02, 0, 0.1], [0.02, 0, 0.07], [0, 0.01, 0.1]], np.float32), np.zeros((3, 3), np.float32),
    ...           np.zeros((3, 2), np.float32), np.array([[0, 1, 2]]), np.zeros((3, 4), np.uint8),
    ...           np.zeros((3, 4), np.float32), np.arange(3))
    >>> [round(float(x), 4) for x in tucked_teeth(p).positions[:, 0]]   # the front corner stays, the back one comes in
    [-0.02, 0.013, 0.0]
    """
    pos = p.positions.astype(np.float64)
    mid = (pos[:, 0].min() + pos[:, 0].max()) / 2
    back = np.clip((pos[:, 2].max() - pos[:, 2]) / TEETH_DEPTH, 0, 1)
    pos[:, 0] = mid + (1 - TEETH_NARROW * back) * (pos[:, 0] - mid)
    return replace(p, positions=pos.astype(np.float32))


def piece_morphs(settings: dict, p: Piece) -> list[tuple[np.ndarray, np.ndarray]] | None:
    """Per ARKit shape in :data:`ARKIT` order, (vertex indices into ``p``, deltas) of the vertices it
    moves (possibly none); None when no shape moves any vertex of ``p`` (the piece carries no morphs).
    Vertices with ``source < 0`` (made here, not from the base mesh) never move.
    """
    where, table = dense_morph_deltas(settings, ARKIT)
    rows = np.where(p.source >= 0, where[np.maximum(p.source, 0)], -1)
    known = np.flatnonzero(rows >= 0)
    if not len(known):
        return None
    deltas = table[:, rows[known]]                                   # (52, N, 3)
    moving = np.any(deltas != 0, axis=2)
    if not moving.any():
        return None
    return [(known[moving[k]], deltas[k, moving[k]]) for k in range(len(ARKIT))]
