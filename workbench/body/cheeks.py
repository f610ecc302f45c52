"""The cheeks' rest shape evened (:func:`even_cheeks`): no flat patch bounded by a crease.

MakeHuman's targets, summed for a slim build and a narrow face (its least weight, a narrower jaw and cheekbones),
move the cheek's vertices by different amounts a vertex apart: the front of the cheek from the nose's wing past
the mouth's corner to the jaw turned sharply sideways and then ran on flat to the jaw, a flat, lit patch bounded
by a crease, drawn as a hard, lighter band down the cheek (issue 46, blind review P's #7: "the face is gaunt and
faceted, with a hard, lighter vertical band down the viewer-left cheek from glasses to jaw"). :func:`even_cheeks`
evens the targets' offsets from the base mesh (not the base mesh's own form) over the cheek, :data:`ROUNDS` rounds
of moving each offset half way to its neighbours' mean, so the cheek turns evenly from the nose to the ear. The lips
(within :data:`LIPS_CLEAR` of their inner edge) and the nose (within :data:`FROM_MIDDLE` of the face's middle) keep
their offsets. tests/body/test_cheek_band_review_p.py.

>>> ROUNDS, CHEEK
(20, (0.02, 0.075, 0.02, 0.085, 0.06))
"""

from __future__ import annotations

import numpy as np

__all__ = ["CHEEK", "ROUNDS", "cheek_skin", "even_cheeks"]

# Rounds of evening the offsets.
ROUNDS = 20
# The cheek evened (metres on the reference face, whose eyes' middles are the origin): out from the face's middle
# line by FROM_MIDDLE to OUT, down from the eyes' middles by BELOW to DOWN, no more than BEHIND behind them.
CHEEK = (0.020, 0.075, 0.020, 0.085, 0.060)
FROM_MIDDLE, OUT, BELOW, DOWN, BEHIND = CHEEK
# The lips keep their offsets within this distance of their inner edge (metres; at 4 mm the corners turned over
# in the smile and visemes, tests/body/test_mouth_corners.py).
LIPS_CLEAR = 0.010
# The rest shape's units: decimetres (MakeHuman's base mesh).
UNIT = 10.0


def cheek_skin(verts: np.ndarray, body: np.ndarray, face_tris: np.ndarray, eyes: list[np.ndarray]) -> np.ndarray:
    """Per vertex of ``verts`` (decimetres), whether it is the cheek's skin :func:`even_cheeks` evens: of ``body``
    (vertex indices), inside :data:`CHEEK` round the middle of ``eyes`` and clear of the lips (``face_tris``, the
    body's face group)."""
    from scipy.spatial import cKDTree

    from .soften import lip_edge

    mid = (eyes[0] + eyes[1]) / 2
    dx = np.abs(verts[:, 0] - mid[0]) / UNIT
    dy = (mid[1] - verts[:, 1]) / UNIT
    dz = (mid[2] - verts[:, 2]) / UNIT
    inside = np.zeros(len(verts), bool)
    inside[body] = True
    inside &= (dx > FROM_MIDDLE) & (dx < OUT) & (dy > BELOW) & (dy < DOWN) & (dz < BEHIND)
    lips = cKDTree(verts[lip_edge(face_tris)]).query(verts)[0] / UNIT < LIPS_CLEAR
    return inside & ~lips


def even_cheeks(verts: np.ndarray, base: np.ndarray, tris: np.ndarray, cheek: np.ndarray) -> np.ndarray:
    """``verts`` with the offsets from ``base`` of the ``cheek`` vertices (:func:`cheek_skin`) evened along
    ``tris``' edges over :data:`ROUNDS` rounds; the other vertices' offsets stay, and hold the evened ones' edge."""
    from .soften import rings

    ring, count = rings(tris, len(verts))
    off = verts - base
    at = np.flatnonzero(cheek)
    for _ in range(ROUNDS):
        off[at] = 0.5 * off[at] + 0.5 * (ring @ off)[at] / np.maximum(count[at], 1)[:, None]
    return base + off
