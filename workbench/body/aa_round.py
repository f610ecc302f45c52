"""``aaRound``: viseme_aa's lower lip rounded (blind review R, defect 8: "the lower lip pinches into a V or chevron at
the centre ... Should be: a rounded lower lip").

``jawOpen`` (MakeHuman's ``faceunits01``) drops the lower lip's inner edge most at the face's middle and less and less
towards the corners, nearly in proportion to the distance from the middle: at full weight the lip's edge and its painted
border ran as two straight arms from the corners to a point under the middle, a V, while the lower teeth's row under
them stays level. :func:`aa_round` rounds the point: over :data:`ROUND` of the half width out from the middle the lip
is lifted by a parabola (a fillet: nothing and level at its ends, most at the middle), so the lower lip's middle is
level, not a point. The lift grows from nothing at the lip's inner edge (kept over the lower gum line) to full
:data:`EDGE_KEEP` under it and holds to :data:`HOLD` (the lip's outer part and its painted border), gone by :data:`FADE`
(the chin keeps its place); only what the jaw drops moves (the upper lip, which met the lower at rest, stays). Used
in ``viseme_aa``'s sum only (workbench.body.face.COMBINED), at the weight its ``jawOpen`` has (0.85 since review Z):
mouthOpen's V is shallow.
"""

from __future__ import annotations

import numpy as np

from .expressions import smoothstep
from .soften import lip_edge

__all__ = ["EDGE_KEEP", "FADE", "HOLD", "ROUND", "aa_round"]

# The share of the mouth's half width out from the middle over which the V's point is rounded: a parabola lifts the lip
# there, (the edge's drop at the middle less its drop here) / 2 at the middle, meeting the lip's own drop here with its
# slope. Lowering the lip's sides to an ellipse instead (an arc through the middle's drop and the corners') rounded it
# as well, but opened the mouth by a fifth: the lower lip's inner face, lit, showed in the opening (the cavity's tests,
# tests/render/test_mouth_cavity_review_n.py: its spread 27 against 7) and the upper teeth filled less of it.
ROUND = 0.35
# Metres under the lower lip's edge (in the jaw's drop; the reference face's, scaled with the face) the edge's extra
# drop is carried in full (the lip down to its painted border and a little past), and where it has faded out.
HOLD, FADE = 0.011, 0.024
# Metres under the lip's inner edge over which the lift grows from nothing to full: the edge itself stays, so the lower
# teeth's gum line shows under it as before (lifted with the rest, the edge covered the gum: review M's gum test,
# tests/render/test_mouth_interior_review_m.py, 504 pixels of gum on main, 15 with the edge lifted 1.9 mm); the lip's
# outer part and its painted border, the V the review saw, are lifted.
EDGE_KEEP = 0.004
# How far behind the lips' edge (metres) the mouth's lining goes down with them, fading out by twice this.
LINING_DEPTH = 0.008


def aa_round(positions: np.ndarray, triangles: np.ndarray, body: np.ndarray, jaw: tuple[np.ndarray, np.ndarray],
             unit: float) -> tuple[np.ndarray, np.ndarray]:
    """(sorted vertex indices int32, deltas float32): the lower lip's middle lifted so that ``jaw`` (``jawOpen``'s
    sorted indices and deltas) with it drops the lip's outer part level at the middle, not to a point, for a body at ``positions`` (T-pose,
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
    lift = max(float(drop[lower[0]] - np.interp(ROUND, t, drop[lower])), 0.0) / 2
    # Each vertex the jaw drops: the lift at its place along the mouth, by how far under the edge it lies.
    v = np.asarray(body)[drop[body] > 1e-4]
    tv = np.abs(p[v, 0] - centre) / half
    e = lift * np.clip(1.0 - tv / ROUND, 0.0, 1.0) ** 2
    edge_y = np.interp(tv, t, p[lower, 1])
    below = edge_y - p[v, 1]
    share = np.clip(drop[v] / np.maximum(np.interp(tv, t, drop[lower]), 1e-6), 0.0, 1.0)
    behind = p[lower, 2].max() - p[v, 2]
    w = (1.0 - smoothstep(HOLD * unit, FADE * unit, below)) * smoothstep(0.0, EDGE_KEEP * unit, below) * share \
        * (1.0 - smoothstep(LINING_DEPTH * unit, 2 * LINING_DEPTH * unit, behind))
    d = np.zeros((len(v), 3))
    d[:, 1] = e * w
    keep = np.abs(d[:, 1]) > 1e-6
    order = np.argsort(v[keep], kind="stable")
    return v[keep][order].astype(np.int32), d[keep][order].astype(np.float32)
