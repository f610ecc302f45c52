"""The cheeks' rest shape evened (:func:`even_cheeks`): no flat patch bounded by a crease.

MakeHuman's targets, summed for a slim build and a narrow face (its least weight, a narrower jaw and cheekbones),
move the cheek's vertices by different amounts a vertex apart: the front of the cheek from the nose's wing past
the mouth's corner to the jaw turned sharply sideways and then ran on flat to the jaw, a flat, lit patch bounded
by a crease, drawn as a hard, lighter band down the cheek (issue 46, blind review P's #7: "the face is gaunt and
faceted, with a hard, lighter vertical band down the viewer-left cheek from glasses to jaw"). :func:`even_cheeks`
evens the shaped vertices' offsets from the default face of their gender (what the settings change; the default
faces keep their cheeks, and their previews their look) over the cheek: :data:`ROUNDS` rounds of moving each offset
part way to its neighbours' mean (half way times the vertex's :func:`cheek_weights`), so the cheek turns evenly from
the nose to the ear. The weights are the default face's, so the evening is one linear operator per gender: the
mouth's ``lipsUnrolled`` shape (workbench.body.mesh) is evened by it too and takes off exactly what the rest's lips
added. They fade in from the region's edges and keep off the lips and the cheekbone the smile lifts.
tests/body/test_cheek_band_review_p.py.

>>> ROUNDS, CHEEK, CLEAR
(20, (0.02, 0.075, 0.03, 0.085, 0.06), (0.008, 0.012))
"""

from __future__ import annotations

import numpy as np

from .expressions import EYES_APART
from .soften import lip_edge, rings
from .topology import topology

__all__ = ["CHEEK", "CLEAR", "ROUNDS", "cheek_weights", "even_cheeks", "even_offsets"]

# Rounds of evening the offsets.
ROUNDS = 20
# The cheek evened (metres on the reference face, scaled with the face's eyes apart; the eyes' middles are the
# origin): out from the face's middle line by FROM_MIDDLE to OUT, down from the eyes' middles by BELOW to DOWN
# (below the cheekbone the smile lifts, tests/body/test_smile_review_m.py), no more than BEHIND behind them.
CHEEK = (0.020, 0.075, 0.030, 0.085, 0.060)
FROM_MIDDLE, OUT, BELOW, DOWN, BEHIND = CHEEK
# The weights rise from 0 at the region's edges to 1 this far in (metres).
FADE = 0.006
# The lips keep their offsets: the weights are 0 within CLEAR[0] of the lips' inner edge and 1 beyond CLEAR[1]
# (metres; with the lips evened to 4 mm of their edge the corners turned over in the smile and the visemes,
# tests/body/test_mouth_corners.py).
CLEAR = (0.008, 0.012)
# The rest shape's units: decimetres (MakeHuman's base mesh).
UNIT = 10.0


def _rise(x: np.ndarray, start: float, end: float) -> np.ndarray:
    """0 at ``start``, 1 at ``end``, smoothly between.

    >>> _rise(np.array([0.0, 0.5, 2.0]), 0.0, 1.0).tolist()
    [0.0, 0.5, 1.0]
    """
    t = np.clip((x - start) / (end - start), 0.0, 1.0)
    return t * t * (3 - 2 * t)


def cheek_weights(verts: np.ndarray) -> np.ndarray:
    """Per vertex of the shaped mesh ``verts`` (decimetres, A-pose), how much :func:`even_offsets` evens its offset
    (0 to 1): the region and clearances in metres on the reference face, scaled with the face (its eyes apart)."""
    from scipy.spatial import cKDTree

    tris, _, _, groups, face_groups = topology()
    eyes = [verts[groups[f"helper-{s}-eye"]].mean(0) for s in "lr"]
    scale = float(np.linalg.norm(eyes[0] - eyes[1])) / UNIT / EYES_APART
    at = verts / UNIT / scale
    mid = (eyes[0] + eyes[1]) / 2 / UNIT / scale
    dx, dy, dz = np.abs(at[:, 0] - mid[0]), mid[1] - at[:, 1], mid[2] - at[:, 2]
    w = (_rise(dx, FROM_MIDDLE, FROM_MIDDLE + FADE) * _rise(-dx, -OUT, -OUT + FADE)
         * _rise(dy, BELOW, BELOW + FADE) * _rise(-dy, -DOWN, -DOWN + FADE) * _rise(-dz, -BEHIND, -BEHIND + FADE))
    w *= _rise(cKDTree(at[lip_edge(tris[face_groups["body"]])]).query(at)[0], *CLEAR)
    out = np.zeros(len(verts))
    out[groups["body"]] = w[groups["body"]]
    return out


def even_offsets(off: np.ndarray, tris: np.ndarray, w: np.ndarray) -> np.ndarray:
    """Offsets (one row per vertex) evened over the cheek along ``tris``' edges: :data:`ROUNDS`
    rounds of moving each part way to its neighbours' mean, by ``w`` (:func:`cheek_weights`); linear in ``off``."""
    ring, count = rings(tris, len(off))
    at = np.flatnonzero(w)
    step = (0.5 * w[at] / np.maximum(count[at], 1))[:, None]
    off = np.array(off, np.float64)
    for _ in range(ROUNDS):
        off[at] += step * (ring @ off)[at] - 0.5 * w[at, None] * off[at]
    return off


def even_cheeks(verts: np.ndarray, default: np.ndarray, tris: np.ndarray, w: np.ndarray) -> np.ndarray:
    """``verts`` with their offsets from ``default`` (the default face's shaped vertices) evened over the cheek by
    ``w`` (:func:`even_offsets`): the default face keeps its cheeks."""
    return default + even_offsets(verts - default, tris, w)
