"""The cavity's walls: on the Teeth mesh the back teeth's side walls and the teeth's inner faces, on the body the
mouth's lining, shaded as one smooth surface (:func:`workbench.body.mouth.fitted_teeth`; :func:`lined` for the
lining, :func:`workbench.gltf.meshes.parts`).

MakeHuman's back teeth are a few coarse boxes; in an open mouth their walls and the rows' inner faces fill the
cavity's sides and its top behind the upper incisors. Each facet took the key light by its own normal, so the
cavity showed "faceted lit walls" (blind review M, tests/render/test_mouth_interior_review_m.py) where a mouth shows
a dark, occluded hollow. Those vertices' normals are turned, as far as each lies in the mouth's shadow (``wall``: 0
on the front teeth's outer faces, 1 on the back teeth and the inner faces), to one direction, :data:`WALL_NORMAL`:
out of the mouth, as the lining's are, so the cavity's walls and lining read as one surface.

>>> import numpy as np
>>> n = walled(np.array([[1.0, 0.0, 0.0], [1.0, 0.0, 0.0]]), np.array([0.0, 1.0]))
>>> np.round(n.astype(float), 2).tolist()
[[1.0, 0.0, 0.0], [0.0, 0.0, 1.0]]
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from .lod import Piece

__all__ = ["LINING_NORMAL", "LINING_WALL", "THROAT_GRADE", "THROAT_RED", "WALL_NORMAL", "lined", "lining_wall", "throat", "walled"]

#: The walls' one normal (x right, y up, z forward out of the face): straight out of the mouth, as the lining's
#: (:data:`LINING_NORMAL`). Turned 30 degrees down, they showed as dark panels hard-edged against the lining once it
#: was turned (blind review N, tests/render/test_mouth_walls_review_n.py); with their own normals, facing the key
#: light, they lit up as brown-red walls.
WALL_NORMAL = (0.0, 0.0, 1.0)


#: The mouth's lining (the body's pouch behind the lips) turned to one normal, :data:`LINING_NORMAL`, as the teeth's
#: walls are: not at all at the lips' inner edge, wholly from this far behind it (metres,
#: :func:`workbench.body.mouth.lining_depth`). With its own normals, MakeHuman's coarse pouch took the key light panel
#: by panel beside the teeth's turned walls: "a boxy, faceted dark-red shell with hard trapezoid panels" in viseme_aa
#: (blind review N, tests/render/test_mouth_cavity_review_n.py). Straight out of the mouth: turned down as the teeth's
#: walls are (WALL_NORMAL), it went near black, a saturated maroon (tests/render/test_mouth_cavity_ours.py, 0.86 to
#: 0.89) with near-black wedges (tests/render/test_cavity_wedges_review_l.py, 0.057 of the opening).
LINING_WALL = (0.001, 0.006)
LINING_NORMAL = (0.0, 0.0, 1.0)


def walled(normals: np.ndarray, wall: np.ndarray, to: tuple[float, float, float] = WALL_NORMAL) -> np.ndarray:
    """``normals`` (N, 3) turned towards ``to`` (:data:`WALL_NORMAL`) by ``wall`` (N, 0 to 1) and renormalised, a new
    array."""
    w = np.clip(np.asarray(wall, np.float64), 0.0, 1.0)[:, None]
    out = (1 - w) * np.asarray(normals, np.float64) + w * np.asarray(to)
    return (out / np.maximum(np.linalg.norm(out, axis=1, keepdims=True), 1e-9)).astype(np.float32)


def lined(p: Piece, depth: np.ndarray) -> Piece:
    """The body's piece ``p`` with its mouth lining's normals turned to :data:`LINING_NORMAL` by ``depth`` (per vertex of
    ``p``, metres behind the lips' inner edge, 0 off the lining): see :data:`LINING_WALL`.

    >>> from workbench.body.lod import Piece
    >>> z = np.zeros((3, 3), np.float32)
    >>> p = Piece(z, np.tile(np.float32([1, 0, 0]), (3, 1)), z[:, :2], np.zeros((1, 3), np.int64), z.astype(np.uint8),
    ...           z, np.arange(3))
    >>> np.round(lined(p, np.array([0.0, 0.0035, 0.01])).normals.astype(float), 2).tolist()
    [[1.0, 0.0, 0.0], [0.71, 0.0, 0.71], [0.0, 0.0, 1.0]]
    """
    return replace(p, normals=walled(p.normals, lining_wall(depth), LINING_NORMAL))


def lining_wall(depth: np.ndarray) -> np.ndarray:
    """How far each vertex's normal is turned to :data:`LINING_NORMAL` (0 to 1) at ``depth`` (metres behind the lips'
    inner edge): see :data:`LINING_WALL`. (A face shape turns the rest by the rest: :mod:`workbench.body.face`.)"""
    t = np.clip((np.asarray(depth, np.float64) - LINING_WALL[0]) / (LINING_WALL[1] - LINING_WALL[0]), 0.0, 1.0)
    return t * t * (3 - 2 * t)


#: The throat's grade on the teeth's texture (:func:`workbench.body.mouth.mouth_texture`): along the rows (u, the arch
#: from the front teeth to the last molar) the mouth's shadow (:data:`workbench.body.mouth.DEEP`) darkens from
#: THROAT_GRADE[0] to THROAT_GRADE[1] by THROAT_GRADE[2] of itself, in its own hue. One DEEP over the whole back, the lower
#: molars, tilted up beside the tongue by an open jaw and facing the key light, stood as "flat lighter wall panels" of
#: "a boxy dark-red cavity" beside the tongue's darker back (blind review Q, defect 5,
#: tests/render/test_open_mouth_review_q.py). Painted one lighter grey-red instead (branch aa25), they drew a grey-brown
#: slab in three.js.
THROAT_GRADE = (0.4, 0.9, 0.6)
#: The share of THROAT_GRADE's darkening the red channel takes: the back a deeper red, not black (its red under 24 of 255
#: lit, the walls drew near-black wedges, tests/render/test_cavity_wedges_review_l.py).
THROAT_RED = 0.5


def throat(u: np.ndarray) -> np.ndarray:
    """Per texel at arch place ``u`` (n,), the share (n, 3) of the mouth's shadow's RGB it keeps (see :data:`THROAT_GRADE`).

    >>> throat(np.array([0.0, 0.65, 1.0])).astype(float).round(2).tolist()
    [[1.0, 1.0, 1.0], [0.85, 0.7, 0.7], [0.7, 0.4, 0.4]]
    """
    t = np.clip((np.asarray(u, np.float64) - THROAT_GRADE[0]) / (THROAT_GRADE[1] - THROAT_GRADE[0]), 0.0, 1.0)
    dark = THROAT_GRADE[2] * t * t * (3 - 2 * t)
    return (1 - dark[:, None] * np.array([THROAT_RED, 1.0, 1.0])).astype(np.float32)
