"""``aaRound``: viseme_aa's lower lip rounded (blind review R, defect 8: "the lower lip pinches into a V or chevron at
the centre ... Should be: a rounded lower lip").

``jawOpen`` (MakeHuman's ``faceunits01``) drops the lower lip's inner edge most at the face's middle and less and less
towards the corners, nearly in proportion to the distance from the middle: at full weight the lip's edge and its painted
border ran as two straight arms from the corners to a point under the middle, a V, while the lower teeth's row under
them stays level. :func:`aa_round` is what the lip's sides drop besides: the edge's drop taken to a superellipse
(exponent :data:`ROUND`) through the drop at the middle and at the corners, the extra faded out towards the corners
(:data:`TAPER`), so the lower lip is an arc over the lower teeth, its middle and its corners where they were. The skin and the mouth's lining under the lip's sides go down with
it, all of it to :data:`HOLD` below the edge (the lip and its border) and none by :data:`FADE` (the chin keeps its
place), and only what the jaw drops (the upper lip, which met the lower at rest, stays). Used in ``viseme_aa``'s sum
only (workbench.body.face.COMBINED), at the weight its ``jawOpen`` has (1.0): mouthOpen's drop is 0.6 of it, its V
shallow.

>>> import numpy as np
>>> [round(float(v), 3) for v in _superellipse(np.array([0.0, 0.5, 1.0]), 2.0)]
[1.0, 0.866, 0.0]
"""

from __future__ import annotations

import numpy as np

from .soften import lip_edge

__all__ = ["FADE", "HOLD", "ROUND", "TAPER", "aa_round"]

# The superellipse the lower lip's edge's drop is taken to: 2 an ellipse (1 the straight arms of a V). 1.6 untapered
# rounded the middle too little (the painted border's turn there 26 to 20 degrees on review R's #1) and took the lip's
# sides under the corners 4 mm further down.
ROUND = 2.0
# The share of the mouth's half width out from the middle where the extra drop starts to fade, and where it is gone
# (the ellipse is upright at the corners: in full it took the lip beside them 4 to 5 mm down, a box; the corners keep
# their place and their slope).
TAPER = (0.55, 1.0)
# Metres under the lower lip's edge (in the jaw's drop; the reference face's, scaled with the face) the edge's extra
# drop is carried in full (the lip down to its painted border and a little past), and where it has faded out.
HOLD, FADE = 0.011, 0.024
# How far behind the lips' edge (metres) the mouth's lining goes down with them, fading out by twice this.
LINING_DEPTH = 0.008


def _superellipse(t: np.ndarray, n: float) -> np.ndarray:
    """The height of the superellipse ``|t|^n + |h|^n = 1`` over ``t`` in 0..1."""
    return np.clip(1.0 - np.clip(np.abs(t), 0.0, 1.0) ** n, 0.0, 1.0) ** (1.0 / n)


def _smooth(a: float, b: float, x: np.ndarray) -> np.ndarray:
    t = np.clip((x - a) / (b - a), 0.0, 1.0)
    return t * t * (3.0 - 2.0 * t)


def aa_round(positions: np.ndarray, triangles: np.ndarray, body: np.ndarray, jaw: tuple[np.ndarray, np.ndarray],
             unit: float) -> tuple[np.ndarray, np.ndarray]:
    """(sorted vertex indices int32, deltas float32): the lower lip's sides dropped so that ``jaw`` (``jawOpen``'s
    sorted indices and deltas) with them drops the lips' inner edge in an arc, for a body at ``positions`` (T-pose,
    metres; its skin's ``triangles``, its ``body`` group's vertex indices) whose eyes are ``unit`` times the reference
    face's apart."""
    p = positions.astype(np.float64)
    drop = np.zeros(len(p))
    drop[jaw[0]] = -jaw[1][:, 1].astype(np.float64)
    edge = lip_edge(triangles)
    corners = edge[[np.argmin(p[edge, 0]), np.argmax(p[edge, 0])]]
    centre, half = p[corners, 0].mean(), (p[corners[1], 0] - p[corners[0], 0]) / 2
    # The lower lip's edge: the edge's vertices the jaw takes down with it (the upper lip's stay).
    lower = edge[drop[edge] > 0.5 * drop[edge].max()]
    t = np.abs(p[lower, 0] - centre) / half
    order = np.argsort(t, kind="stable")
    t, lower = t[order], lower[order]
    at_corner = float(drop[corners].mean())
    middle = float(drop[lower[0]])
    target = at_corner + (middle - at_corner) * _superellipse(t, ROUND)
    extra = np.maximum(target - drop[lower], 0.0) * (1.0 - _smooth(TAPER[0], TAPER[1], t))
    extra[0] = 0.0
    # Each vertex the jaw drops: the extra at its place along the mouth, by how far under the edge it lies.
    v = np.asarray(body)[drop[body] > 1e-4]
    tv = np.abs(p[v, 0] - centre) / half
    e = np.interp(tv, np.concatenate([[0.0], t, [1.0]]), np.concatenate([[0.0], extra, [0.0]]))
    edge_y = np.interp(tv, t, p[lower, 1])
    below = edge_y - p[v, 1]
    share = np.clip(drop[v] / np.maximum(np.interp(tv, t, drop[lower]), 1e-6), 0.0, 1.0)
    behind = p[lower, 2].max() - p[v, 2]
    w = (1.0 - _smooth(HOLD * unit, FADE * unit, below)) * share \
        * (1.0 - _smooth(LINING_DEPTH * unit, 2 * LINING_DEPTH * unit, behind))
    d = np.zeros((len(v), 3))
    d[:, 1] = -e * w
    keep = np.abs(d[:, 1]) > 1e-6
    order = np.argsort(v[keep], kind="stable")
    return v[keep][order].astype(np.int32), d[keep][order].astype(np.float32)
