"""The upper lip's middle lifted in ``mouthSmile``'s mouth (``smileOpen``, :mod:`.expressions`), the lower lip's
border and the chin held where they are (:func:`lower_hold`), and the lower lip's inner edge drawn on a U
(:func:`lower_arc`), the upper lip's border evened (:func:`border_even`), the upper lip's border bent up into the
corners (:func:`mouth_bend`), both lips with the opening between them curved up towards the corners
(:func:`mouth_arc`), and the lower lip stretched thin under the teeth (:func:`lower_thin`).

mouthUpperUp lifts the upper lip's sides, not its middle: at full weight the smile was a sneer (the gums over the
canines, the middle teeth half covered, blind review F: "only 2-4 upper teeth show"); at
:data:`~workbench.body.expressions.UPPER_UP` the sides show the canines to their gum line, and the middle, lifted
here to the middle incisors' gum, a row of teeth across the mouth's width.

>>> round(UPPER_MIDDLE[1] * 1000, 1), round(TUBERCLE_UP[1] * 1000, 1), LOWER_HOLD
(2.0, 3.5, 0.85)
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from . import sets
from .eyes import _smoothstep

__all__ = ["border_even", "lower_arc", "lower_hold", "lower_thin", "mouth_arc", "mouth_bend", "upper_middle",
           "upper_thin"]

# The upper lip's middle lifted in ``smileOpen`` (metres up, for the reference face) over a Gaussian RADIUS across
# the face's middle, fading out REACH above the lips' meeting line (:func:`upper_middle`). (2.5 mm took the lip's inner
# edge 0.7 to 2 mm above the upper teeth's top at the middle: a dark notch of the lining over the middle incisors,
# blind review K's #9; 0.5 mm keeps it at or under their gum. Since review U, "a thin band of teeth", 6.1 to 6.5 mm of
# the upper incisors showing where a social smile shows 7 to 10: the upper row reaches higher, its top a band of gum
# (workbench.body.mouth.UPPER_ROOTS, UPPER_GUM), so 2 mm over a Gaussian 16 mm wide lifts the lip to that gum.)
UPPER_MIDDLE = (0.0, 0.002, 0.0)
UPPER_MIDDLE_RADIUS = 0.016
UPPER_MIDDLE_REACH = 0.02
# The tubercle, the upper lip's middle hanging below the lips' meeting line, lifted further (metres up) over a
# Gaussian TUBERCLE_RADIUS across: lifted only with the rest of the lip's middle it hung into the teeth as a pink V.
# (2 mm over 5 mm, narrower than the two middle incisors, left the lip's line a level shelf over them with a step down
# either side, the V's edges: "pinched and wavy, like a grimace", blind review AJ's #3, and review AH's "beak" on #6;
# 3.5 mm over 7 mm, tests/render/test_smile_line_review_aj.py. More of the lip's sides lifted with it, RISE_SIDES 3.3
# mm or the corners 4.5, showed the lining beside the teeth, tests/render/test_mouth_renders.py.)
TUBERCLE_UP = (0.0, 0.0035, 0.0)
TUBERCLE_RADIUS = 0.007
# The share of ``smileOpen``'s drop (its jawOpen and mouthLowerDown) the skin below the lower lip keeps back
# (:func:`lower_hold`): none at the lips' inner edge, all of LOWER_HOLD from HOLD_FROM below it down (the lower lip's
# border and the chin; metres for the reference face), across the mouth's width and fading out to HOLD_WIDE times its
# half-width from the middle. The lips part on the teeth as before, the lower lip drawn thin over them: with the whole
# drop its middle's border sank 3.6 to 4.1 mm and the chin 9 mm, a lower lip sagging into a grimace under a face
# stretched down (blind review K: "reads as 'ee'").
LOWER_HOLD = 0.85
HOLD_FROM = (0.0005, 0.006)
HOLD_WIDE = (1.0, 1.7)
# Below the lower lip's border (all of it from CHIN_FROM[1] under the lips' meeting line, none above CHIN_FROM[0];
# metres for the reference face) the chin, the jaw and the skin under them keep back LOWER_HOLD of the drop across
# the whole jaw, not only within HOLD_WIDE: held in the middle only, the chin's middle stayed while the jaw beside it
# dropped 3.4 mm with jawOpen, and the smile bent the skin 25 to 40 mm under the lips (the chin's underside, the
# jaw's line) up to 14 degrees more than at rest: "a faceted double chin, a stepped jawline, a hard chin crease" on
# heavy jaws with short chins (blind review R's #11, #4, #2; tests/body/test_smile_jaw_review_r.py). (Holding the
# jaw's swing back too, 4.6 mm at the chin, turned a triangle over beside a heavy face's corner through the smile's
# evening: tests/body/test_smile_surface.py.)
CHIN_FROM = (0.008, 0.025)
# The lower lip's inner edge in the smile drawn on a soft U (:func:`lower_arc`): from its middle, level, up to where
# the corners' seal takes over (the first of its vertices that moves more as the corner than as itself, a share of
# SEAL_FROM; workbench.body.expressions.CORNER_SEAL) on a parabola. As the smile's sum drew it, the edge ran level
# over the middle 23 mm and climbed 10 mm in the next 8 to the sealed corners: a flat trough with hard kinks, 40 to
# 50 degrees at each (blind review L: "the lower lip a sharp V trough with hard corners"). The lift at each width
# carries down the lip and its inner face to ARC_REACH below the edge (metres for the reference face), all of it to
# ARC_FULL below, so the lip's border follows its edge; the inner face to ARC_DEPTH behind the edge.
SEAL_FROM = 0.5
ARC_REACH = 0.022
ARC_FULL = 0.010
ARC_DEPTH = 0.006
# Both lips bent up towards the corners in ``mouthSmile`` (:func:`mouth_arc`, part of ``smileLids``): ARC_UP (metres up,
# for the reference face) times the square of the way out from the middle, tapered off from ARC_TAPER[0] to ARC_TAPER[1] of
# the mouth's half-width (the sealed corners keep their own lift), all of it within ARC_UP_REACH[0] under the corners' line and
# ARC_UP_ABOVE[0] over it, none from ARC_UP_REACH[1] under and ARC_UP_ABOVE[1] over; in front of the corners and to
# ARC_BACK behind them. The lips' opening, the teeth it shows and the lips round it curve up from the middle as one
# band: the lower lip's edge was a U (lower_arc) and the upper lip's border bent up (mouth_bend), but the upper lip's
# inner edge ran level over the middle two thirds of the mouth and hooked up only at the sealed corners, a flat band
# of teeth under a straight lip, "only the lips widen ... a polite grimace" (blind review W, #1, #2, #6;
# tests/body/test_smile_arc_review_w.py). (4 mm, or faded out 8 to 22 mm from the line, bent 25 to 31 edges of a
# cheek 30 degrees or more, tests/body/test_smile_creases_review_j.py; faded out 16 mm over the line, 21; cut at the
# corners, not held on past them, it turned two triangles at a corner over, tests/body/test_smile_surface.py; held on
# at the corners, the lifted corner met the lower lip's U in a 51 to 54 degree kink, tests/body/test_smile_review_l.py.)
ARC_UP = 0.003
ARC_UP_REACH = (0.006, 0.030)
ARC_UP_ABOVE = (0.006, 0.045)
ARC_TAPER = (0.7, 1.0)
ARC_BACK = 0.015
# The upper lip bent up into the corners in ``mouthSmile`` (:func:`mouth_bend`, part of ``smileLids``): the skin
# facing forward above the lips' inner edges lifted by BEND (metres up, for the reference face) times the square of
# its share of the mouth's half-width out from the middle (smoothly less again beyond the corners, none from
# 1 + BEND_OUT of it); none up to BEND_FROM above the corners' line (the lips' inner edges: at rest the lower lip's lies
# above the corners), all of it from BEND_FULL to BEND_TO[0], none from BEND_TO[1] (under the nose). The upper lip's
# border curves up into the corners and the lip thins towards them; the lips' opening, corners and teeth as they
# were. As the sum drew it the upper lip was a band of even height, straight over the mouth and hooked up at the
# corners (blind review M: "the lips stretch sideways, the corners barely rise ... a smirk or grimace"); added
# after the sum's evening (workbench.body.soften), which spread 2.5 mm of 3 flat, and evened alone. (Faded out beyond
# the corners over 0.5 or 0.8 of the half-width, or under the nose from 20 mm, it bent 13 to 18 edges of a heavy
# face's cheeks 30 degrees or more: tests/body/test_smile_creases_review_j.py allows 12.)
BEND = 0.005
BEND_OUT = 0.3
BEND_FROM = 0.002
BEND_FULL = 0.009
BEND_TO = (0.011, 0.016)
# The upper lip's border evened in the smile (:func:`border_even`). The smile lifted the border 3.4 to 3.6 mm and the
# skin 2 mm over it half that, and drew the lip below it 2 mm back: a crease along the border, the strip over it
# squeezed from 2.3 mm tall to 0.7 and facing up (0.75). The border's sides sit on the crease's ridge and face forward
# (their normals' up 0.49 at rest, 0.08 smiling, on blind review N's #12); its middle, between the tubercle in front
# and the philtrum's foot 1.6 mm behind, faced up (0.57): a thin strip that three.js and model-viewer lit as a V-notch
# highlight. So the skin from RAISE_BAND[0] to RAISE_BAND[2] over the border (the lip's own, lip_heights.lip_borders;
# metres for the reference face), within RAISE_WIDE of the middle (none from 1.5 times it) and in front of the corners
# (2 mm), lifted by RAISE, all of it from RAISE_BAND[1] up, fading out by RAISE_BAND[2]; and the face's middle
# (within EVEN_MID of it), from EVEN_BAND[0] over the lips' meeting line to EVEN_BAND[2] over the border (all of it
# to EVEN_BAND[1]), brought to the depth its neighbours either side (EVEN_SIDE of the middle, within 1 mm of its
# height) have smiling: the tubercle and the philtrum's foot flattened as the stretched lip flattens them.
RAISE = 0.002
RAISE_BAND = (0.0005, 0.0025, 0.011)
RAISE_WIDE = 0.008
EVEN_MID = 0.0005
EVEN_SIDE = (0.0012, 0.0028)
EVEN_BAND = (0.003, 0.003, 0.008)
# The upper lip drawn thin and back over the teeth in the smile (:func:`upper_thin`): the skin in front of the corners
# that the smile lifts, from the upper lip's inner edge up to its border (lip_heights.lip_borders), pressed down
# towards that edge by THIN of the border's height over the corners, in proportion, and drawn back by THIN_BACK (metres, for the reference face), the
# skin over the border moved as the border is, fading out by THIN_REACH above it; all of it at the middle (to THIN_WIDE[0]), none
# from THIN_WIDE[1] of the mouth's half-width out (the corners' own seal and bend: faded from 0.5 to 1.0 of it, a triangle
# beside a heavy face's corner turned over, tests/body/test_smile_surface.py; from 0.2 or more, two edges of its
# cheek bent past 30 degrees, tests/body/test_smile_creases_review_j.py). The lip's inner edge and the teeth it shows
# stay. As the sum drew it the border rose 3.2 to 4.1 mm over an inner edge lifted 0.5 to 2: the
# red upper lip taller smiling than at rest (3.8 mm to 5.0 on blind review O's #1) and 1.3 to 2.1 mm back, "the upper
# lip stays pursed and pushed forward ... a smirk" (review O).
# How far: down to THIN_KEEP of the red lip's height at the middle on the face the expressions start from (the
# resting lips' roll taken off, lipsUnrolled), never more than THIN of the border's height over the corners. THIN
# alone took every face's by the same share of that height, which left 0.44 to 0.76 of the rest's red (a third of
# it as the mouth's close-up sees it, 3.3 px of 9.9 on blind review Q's #2): "the upper lip flattens into a thin
# wavy moustache line" (review Q, #2, #7, #12).
THIN = 0.35
THIN_KEEP = 0.55
THIN_BACK = 0.001
THIN_REACH = 0.008
THIN_WIDE = (0.0, 0.85)


# The lower lip stretched thin over the teeth in ``mouthSmile`` (:func:`lower_thin`, part of ``smileLids``, evened alone
# and added after the sum's evening as mouth_arc is): its border (lip_heights.lip_borders) lifted LOWER_UP (metres, for
# the reference face), the lip over it less, none from LOWER_FROM of the way up from the border to the lip's inner edge
# (its top, which the teeth show over, stays), the skin under the border lifted as the border is and less lower down,
# none from LOWER_REACH under it; all of it at the middle, none from THIN_WIDE[1] of the mouth's half-width out (the
# corners' seal). As the sum drew it the lip's inner edge dropped 4 to 5 mm with the jaw and mouthLowerDown while
# lower_hold held its border, so the red lower lip showed 8.3 to 9.5 mm at the middle, 0.81 to 0.85 of its whole depth
# under the corners' line at rest: "the lower lip stays heavy" under the teeth, where a smile stretches it thin along
# the upper lip's curve (blind review X, defect 1; tests/body/test_smile_lower_lip_review_x.py). (Rolled in,
# mouthRollLower 0.5 in smileOpen, its inner edge rose 1 to 2 mm over the teeth and its border stayed: as tall. Lifted
# up to its inner edge, none only at the edge, or from 0.35 of the way, in smileOpen before the evening, the folded lip
# unfolded lifted its edge 4 mm over the teeth, the lips parted 5.2 mm on review K's face2, test_smile_review_k's bound
# 7; from 0.6 of the way its edge turned 23.6 degrees at the middle on review L's face3, test_smile_review_l's 20.)
LOWER_UP = 0.003
LOWER_REACH = 0.010
LOWER_FROM = 0.85


def upper_middle(positions: np.ndarray, corners: np.ndarray, body: np.ndarray, smile: tuple[np.ndarray, np.ndarray],
                 mid_x: float, unit: float) -> tuple[np.ndarray, np.ndarray]:
    """The upper lip's middle lifted (see :data:`UPPER_MIDDLE`): the skin ``smile`` (the lips' sum, sorted ``idx``,
    ``delta``) lifts, from the lips' meeting line (the mouth's corners' height) up to UPPER_MIDDLE_REACH above it,
    most at the face's middle (``corners``: the mouth's corners, the ends of the lips' inner edge). The lower lip,
    which the smile draws down, does not move."""
    line = float(corners[:, 1].mean())
    lifts = np.zeros(len(positions), bool)
    lifts[smile[0][smile[1][:, 1] > 0]] = True
    p = positions[body].astype(np.float64)
    w = np.exp(-((p[:, 0] - mid_x) / (UPPER_MIDDLE_RADIUS * unit)) ** 2) * lifts[body] \
        * _smoothstep(line + UPPER_MIDDLE_REACH * unit, line + 0.4 * UPPER_MIDDLE_REACH * unit, p[:, 1]) \
        * (p[:, 2] > corners[:, 2].mean() - 0.002 * unit)
    # The lip's tubercle (its middle's lowest part, below the meeting line) lifted further, to the rest's line.
    tubercle = np.exp(-((p[:, 0] - mid_x) / (TUBERCLE_RADIUS * unit)) ** 2) * lifts[body] \
        * _smoothstep(line + 0.001 * unit, line - 0.003 * unit, p[:, 1]) * (p[:, 2] > corners[:, 2].mean() - 0.002 * unit)
    delta = w[:, None] * np.asarray(UPPER_MIDDLE) + tubercle[:, None] * np.asarray(TUBERCLE_UP)
    keep = np.flatnonzero(np.abs(delta).max(1) > 0.02 * UPPER_MIDDLE[1])
    return body[keep].astype(np.int32), (delta[keep] * unit).astype(np.float32)


def lower_hold(positions: np.ndarray, corners: np.ndarray, body: np.ndarray, smile: tuple[np.ndarray, np.ndarray],
               mid_x: float, unit: float) -> tuple[np.ndarray, np.ndarray]:
    """What holds the lower lip's border and the chin up in ``smile`` (the lips' sum, sorted ``idx``, ``delta``; see
    :data:`LOWER_HOLD`): each of the skin's vertices (``body``'s, the mouth's lining left to follow the jaw and teeth) below the lips' meeting line (``corners``' height: the
    mouth's corners, the ends of the lips' inner edge) that the sum draws down, lifted by that share of its drop."""
    from .lining import island

    skin = sets.difference(body, island()[1])
    line = float(corners[:, 1].mean())
    half = float(np.ptp(corners[:, 0])) / 2
    drop = np.zeros(len(positions))
    drop[smile[0]] = np.minimum(smile[1][:, 1], 0.0)
    p = positions[skin].astype(np.float64)
    w = LOWER_HOLD * _smoothstep(line - HOLD_FROM[0] * unit, line - HOLD_FROM[1] * unit, p[:, 1]) \
        * _smoothstep(HOLD_WIDE[1] * half, HOLD_WIDE[0] * half, np.abs(p[:, 0] - mid_x))
    chin = LOWER_HOLD * _smoothstep(line - CHIN_FROM[0] * unit, line - CHIN_FROM[1] * unit, p[:, 1])
    lift = -np.maximum(w, chin) * drop[skin]
    keep = np.flatnonzero(lift > 1e-6)
    delta = np.zeros((len(keep), 3), np.float32)
    delta[:, 1] = lift[keep]
    return skin[keep].astype(np.int32), delta


def _lower_edge(positions: np.ndarray, triangles: np.ndarray, q: np.ndarray, mid_x: float, seal: float) -> list:
    """The lower lip's open inner edge on each side: the vertices (in order from the middle) of the lips' inner edge
    from its lowest at the face's middle (in the shape's places ``q``) towards each corner, up to and with the first
    the corners' ``seal`` (metres) moves more as the corner than as itself (see :data:`SEAL_FROM`)."""
    from scipy.sparse import coo_matrix
    from scipy.sparse.csgraph import dijkstra

    from .soften import lip_edge

    edge = lip_edge(triangles)
    p = positions.astype(np.float64)
    corners = edge[[np.argmin(p[edge, 0]), np.argmax(p[edge, 0])]]
    on = np.zeros(len(positions), bool)
    on[edge] = True
    e = np.sort(np.concatenate([triangles[:, [0, 1]], triangles[:, [1, 2]], triangles[:, [2, 0]]]), axis=1)
    e = np.unique(e[on[e].all(1)], axis=0)
    a, b = np.searchsorted(edge, e[:, 0]), np.searchsorted(edge, e[:, 1])
    graph = coo_matrix((np.linalg.norm(p[e[:, 0]] - p[e[:, 1]], axis=1), (a, b)), shape=(len(edge),) * 2)
    near = np.flatnonzero(np.abs(p[edge, 0] - mid_x) < 0.25 * np.ptp(p[edge, 0]) / 2)
    start = near[np.argmin(q[edge[near], 1])]
    _, before = dijkstra(graph, directed=False, indices=start, return_predecessors=True)
    sides = []
    for c in corners:
        walk = [int(np.searchsorted(edge, c))]
        while walk[-1] != start and walk[-1] >= 0:
            walk.append(int(before[walk[-1]]))
        path = edge[walk[::-1]]
        share = np.exp(-(np.linalg.norm(p[path] - p[c], axis=1) / seal) ** 4)
        sides.append(path[:int(np.argmax(share >= SEAL_FROM)) + 1])
    return sides


def lower_arc(positions: np.ndarray, triangles: np.ndarray, body: np.ndarray, smile: tuple[np.ndarray, np.ndarray],
              mid_x: float, unit: float, seal: float) -> tuple[np.ndarray, np.ndarray]:
    """What draws the lower lip's inner edge in ``smile`` (sorted ``idx``, ``delta``; the body's skin ``triangles``)
    on a soft U (see :data:`SEAL_FROM`): each of its open vertices lifted to a parabola, level at the middle, through
    its lowest point there and the seal's first vertex at each side, and the lip below and behind lifted with it."""
    full = np.zeros((len(positions), 3))
    full[smile[0]] = smile[1]
    q = positions.astype(np.float64) + full
    xs, ys, lifts, zs = [], [], [], []
    for side in _lower_edge(positions, triangles, q, mid_x, seal):
        m, end = q[side[0]], q[side[-1]]
        t = (q[side, 0] - m[0]) / (end[0] - m[0])
        xs.append(q[side, 0])
        ys.append(q[side, 1])
        zs.append(q[side, 2])
        lifts.append(np.where(t < 1.0, m[1] + (end[1] - m[1]) * np.clip(t, 0, 1) ** 2 - q[side, 1], 0.0))
    x, y, z, lift = (np.concatenate(v) for v in (xs, ys, zs, lifts))
    order = np.argsort(x)
    x, y, z, lift = x[order], y[order], z[order], lift[order]
    v = body[(q[body, 0] > x[0]) & (q[body, 0] < x[-1])]
    below = np.interp(q[v, 0], x, y) - q[v, 1]
    w = _smoothstep(ARC_REACH * unit, ARC_FULL * unit, below) * (below > -0.0005 * unit) \
        * (q[v, 2] > np.interp(q[v, 0], x, z) - ARC_DEPTH * unit)
    up = w * np.interp(q[v, 0], x, lift)
    keep = np.flatnonzero(np.abs(up) > 1e-6)
    delta = np.zeros((len(keep), 3), np.float32)
    delta[:, 1] = up[keep]
    return v[keep].astype(np.int32), delta


def mouth_bend(positions: np.ndarray, normals: np.ndarray, triangles: np.ndarray, still: np.ndarray,
               corners: np.ndarray, body: np.ndarray, mid_x: float, unit: float) -> tuple[np.ndarray, np.ndarray]:
    """The upper lip bent up into the mouth's corners (see :data:`BEND`): the skin above the lips' inner edges
    (``body``'s vertices in front of the mouth's ``corners``, the ends of the lips' inner edge, at rest, facing
    forward by their ``normals``: the lip's top, facing up, turned over under the lift) lifted most out at the
    corners, none at the middle; evened where it creases the skin ``triangles`` (workbench.body.soften, the
    ``still`` vertices as drawn). Returns the vertices moved (of ``body``) and their deltas.

    Four skin vertices 10 mm over the line of corners 40 mm apart (``unit`` 1 m), at the middle, halfway out, at a corner,
    and 30 mm up (past :data:`BEND_TO`): the lift grows as the square of the way out, :data:`BEND` (5 mm) at the corner.

    >>> p = np.array([[0, .01, 0], [.01, .01, 0], [.02, .01, 0], [.02, .03, 0]], np.float32)
    >>> facing = np.tile(np.float32([0, 0, 1]), (4, 1))
    >>> corners = np.array([[-.02, 0, 0], [.02, 0, 0]])
    >>> idx, delta = mouth_bend(p, facing, np.array([[0, 1, 3], [1, 2, 3]]), np.zeros(4, bool), corners, np.arange(4),
    ...                         0.0, 1.0)
    >>> idx.tolist(), np.round(delta[:, 1] * 1000, 2).tolist()
    ([1, 2], [1.25, 5.0])
    """
    from .soften import soften

    line = float(corners[:, 1].mean())
    half = float(np.ptp(corners[:, 0])) / 2
    p = positions[body].astype(np.float64)
    t = np.abs(p[:, 0] - mid_x) / half
    above = p[:, 1] - line
    back = corners[:, 2].mean() - p[:, 2]     # (behind the corners: the lips' inner faces, the lining)
    w = t ** 2 * _smoothstep(1.0 + BEND_OUT, 1.0, t) * _smoothstep(0.006 * unit, 0.0, back) \
        * _smoothstep(0.3, 0.6, normals[body, 2]) \
        * _smoothstep(BEND_FROM * unit, BEND_FULL * unit, above) \
        * _smoothstep(BEND_TO[1] * unit, BEND_TO[0] * unit, above)
    keep = np.flatnonzero(w > 0.02)
    delta = np.zeros((len(keep), 3), np.float32)
    delta[:, 1] = w[keep] * BEND * unit
    return soften(positions, triangles, body[keep].astype(np.int32), delta, still)


def border_even(positions: np.ndarray, triangles: np.ndarray, body: np.ndarray, smile: tuple[np.ndarray, np.ndarray],
                corners: np.ndarray, mid_x: float, unit: float) -> tuple[np.ndarray, np.ndarray]:
    """What evens the upper lip's border in ``smile`` (the lips' sum, sorted ``idx``, ``delta``; see :data:`RAISE`):
    the skin over the border (the skin ``triangles``' lip, lip_heights.lip_borders; ``corners``: the mouth's corners,
    the ends of the lips' inner edge) lifted, and the face's middle brought to its sides' depth, as smiling.
    Returns the vertices moved (of ``body``) and their deltas."""
    from .lip_heights import lip_borders

    full = np.zeros((len(positions), 3))
    full[smile[0]] = smile[1]
    p = positions.astype(np.float64)
    line, front = float(corners[:, 1].mean()), float(corners[:, 2].mean()) + 0.002 * unit
    top = line + lip_borders(positions, triangles, (corners[0], corners[1]))[0]
    v = body[p[body, 2] > front]
    h, off = p[v, 1] - top, np.abs(p[v, 0] - mid_x)
    b = np.asarray(RAISE_BAND) * unit
    full[v, 1] += RAISE * unit * _smoothstep(b[0], b[1], h) * _smoothstep(b[2], b[1], h) \
        * _smoothstep(1.5 * RAISE_WIDE * unit, RAISE_WIDE * unit, off)
    z = p[:, 2] + full[:, 2]
    sides = v[(off > EVEN_SIDE[0] * unit) & (off < EVEN_SIDE[1] * unit)]
    step = np.zeros(len(positions))
    for a in v[(off < EVEN_MID * unit) & (p[v, 1] > line + EVEN_BAND[0] * unit) & (h < EVEN_BAND[2] * unit)]:
        near = sides[(np.abs(p[sides, 1] - p[a, 1]) < 0.001 * unit) & (np.abs(p[sides, 2] - p[a, 2]) < 0.003 * unit)]
        if len(near):
            step[a] = (z[near].mean() - z[a]) * _smoothstep(EVEN_BAND[2] * unit, EVEN_BAND[1] * unit, p[a, 1] - top)
    full[:, 2] += step
    full[smile[0]] -= smile[1]
    keep = np.flatnonzero(np.abs(full).max(1) > 1e-6)
    return keep.astype(np.int32), full[keep].astype(np.float32)


class _Frame(NamedTuple):
    line: float          # the mouth's corners' height
    front: float         # 2 mm (on the reference face) behind the corners: the skin in front of it is the lips'
    top: float           # the upper lip's border's height
    bottom: float        # the lower lip's border's height
    half: float          # the mouth's half-width
    moves: np.ndarray    # (V,) bool: the vertices the smile's sum moves up (``up``) or down
    every: np.ndarray    # the lips' inner edge's vertices
    edge: np.ndarray     # those of them in ``moves``, from the viewer's left to right


def _lip_frame(positions: np.ndarray, triangles: np.ndarray, corners: np.ndarray, smile: tuple[np.ndarray, np.ndarray],
               unit: float, up: bool) -> _Frame:
    """What :func:`upper_thin` (``up``) and :func:`lower_thin` measure the lips by (:class:`_Frame`)."""
    from .lip_heights import lip_borders
    from .soften import lip_edge

    line, front = float(corners[:, 1].mean()), float(corners[:, 2].mean()) - 0.002 * unit
    over, under = lip_borders(positions, triangles, (corners[0], corners[1]))
    moves = np.zeros(len(positions), bool)
    moves[smile[0][(smile[1][:, 1] > 0) if up else (smile[1][:, 1] < 0)]] = True
    every = lip_edge(triangles)
    edge = every[moves[every]]
    return _Frame(line, front, line + over, line - under, float(np.ptp(corners[:, 0])) / 2, moves, every,
                  edge[np.argsort(positions[edge, 0])])


def upper_thin(positions: np.ndarray, triangles: np.ndarray, body: np.ndarray, smile: tuple[np.ndarray, np.ndarray],
               corners: np.ndarray, mid_x: float, unit: float) -> tuple[np.ndarray, np.ndarray]:
    """The upper lip thinned and drawn back over the teeth (see :data:`THIN`): the skin (``body``'s vertices in front
    of the mouth's ``corners``, the ends of the lips' inner edge; the skin ``triangles`` give the lip's inner edge and
    border) from the upper lip's inner edge (the edge's vertices ``smile``, the lips' sum, lifts) up to the border
    pressed down towards that edge and back, the skin over the border moved with the border and less higher up; the
    edge itself and the lower lip stay. Returns the vertices moved and their deltas."""
    f = _lip_frame(positions, triangles, corners, smile, unit, up=True)
    line, front, top, half, lifts, every, edge = f.line, f.front, f.top, f.half, f.moves, f.every, f.edge
    p = positions[body].astype(np.float64)
    inner = np.interp(p[:, 0], positions[edge, 0], positions[edge, 1])     # (the upper lip's inner edge at each x)
    tall = np.maximum(top - inner, 0.001 * unit)
    h = p[:, 1] - inner
    w = _smoothstep(THIN_WIDE[1] * half, THIN_WIDE[0] * half, np.abs(p[:, 0] - mid_x)) * (p[:, 2] > front) \
        * _smoothstep(tall + THIN_REACH * unit, tall, h) * (h > 0) * lifts[body]
    share = np.clip(h / tall, 0.0, 1.0)
    delta = np.zeros((len(body), 3))
    delta[:, 1] = -_thinned(positions, body, smile, every, (mid_x, line, top, front), unit) * share * w
    # (Drawn back over the lip only: the skin over the border drawn back too, the evening of the sum spread it onto
    # the cheeks and took 0.1 mm of a gaunt face's cheek's forward bulge, tests/body/test_smile_review_m.py.)
    delta[:, 2] = -THIN_BACK * unit * share * w * _smoothstep(tall + 0.002 * unit, tall, h)
    keep = np.flatnonzero(np.abs(delta).max(1) > 1e-6)
    return body[keep].astype(np.int32), delta[keep].astype(np.float32)


def _thinned(positions: np.ndarray, body: np.ndarray, smile: tuple[np.ndarray, np.ndarray], edge: np.ndarray,
             at: tuple[float, float, float, float], unit: float) -> float:
    """Metres :func:`upper_thin` presses the border down by at the middle: what takes the red upper lip (from the
    top of the lips' inner ``edge`` within 3 mm of the middle to the border, the skin in front of the corners within
    4 mm of the middle and 1.5 mm of the border's height ``at`` = (middle's x, corners' height, border's height,
    front)) from its height with the ``smile``'s sum to :data:`THIN_KEEP` of its height at rest, at most :data:`THIN`
    of the border's height over the corners, never less than nothing."""
    mid_x, line, top, front = at
    moved = positions.astype(np.float64)
    moved[smile[0]] += smile[1]
    p = positions[body]
    border = body[(np.abs(p[:, 0] - mid_x) < 0.004 * unit) & (p[:, 2] > front) & (np.abs(p[:, 1] - top) < 0.0015 * unit)]
    inner = edge[np.abs(positions[edge, 0] - mid_x) < 0.003 * unit]
    if not len(border) or not len(inner):
        return THIN * (top - line)
    rest = positions[border, 1].mean() - positions[inner, 1].max()
    smiling = moved[border, 1].mean() - moved[inner, 1].max()
    return float(np.clip(smiling - THIN_KEEP * rest, 0.0, THIN * (top - line)))


def mouth_arc(positions: np.ndarray, triangles: np.ndarray, still: np.ndarray, corners: np.ndarray, body: np.ndarray,
              unit: float) -> tuple[np.ndarray, np.ndarray]:
    """Both lips bent up towards the corners (see :data:`ARC_UP`): ``body``'s vertices near the line of the mouth's
    ``corners`` (the ends of the lips' inner edge, at rest) lifted by ARC_UP times the square of the way out from the
    middle, none at the corners (:data:`ARC_TAPER`), evened where that creases the skin ``triangles``
    (workbench.body.soften, the ``still`` vertices as drawn).
    Returns the vertices moved (of ``body``) and their deltas.

    Four skin vertices on the line of corners 40 mm apart (``unit`` 1 m): at the middle, halfway out, at a corner, and
    50 mm above the line (past :data:`ARC_UP_ABOVE`): the lift grows as the square of the way out, none at the corner.

    >>> p = np.array([[0, 0, 0], [.01, 0, 0], [.02, 0, 0], [.01, .05, 0]], np.float32)
    >>> idx, delta = mouth_arc(p, np.array([[0, 1, 3], [1, 2, 3]]), np.zeros(4, bool), np.array([[-.02, 0, 0],
    ...                        [.02, 0, 0]]), np.arange(4), 1.0)
    >>> idx.tolist(), np.round(delta[:, 1] * 1000, 2).tolist()
    ([1], [0.75])
    """
    from .soften import soften

    line, mid = float(corners[:, 1].mean()), float(corners[:, 0].mean())
    half = float(np.ptp(corners[:, 0])) / 2
    p = positions[body].astype(np.float64)
    t = np.abs(p[:, 0] - mid) / half
    back = corners[:, 2].mean() - p[:, 2]
    w = t ** 2 * _smoothstep(ARC_TAPER[1], ARC_TAPER[0], t) * _smoothstep(ARC_BACK * unit, 0.0, back) \
        * _smoothstep(ARC_UP_REACH[1] * unit, ARC_UP_REACH[0] * unit, line - p[:, 1]) \
        * _smoothstep(ARC_UP_ABOVE[1] * unit, ARC_UP_ABOVE[0] * unit, p[:, 1] - line)
    keep = np.flatnonzero(w > 0.02)
    delta = np.zeros((len(keep), 3), np.float32)
    delta[:, 1] = w[keep] * ARC_UP * unit
    return soften(positions, triangles, body[keep].astype(np.int32), delta, still)


def lower_thin(positions: np.ndarray, triangles: np.ndarray, body: np.ndarray, smile: tuple[np.ndarray, np.ndarray],
               corners: np.ndarray, mid_x: float, unit: float) -> tuple[np.ndarray, np.ndarray]:
    """The lower lip stretched thin over the teeth (see :data:`LOWER_UP`): the skin (``body``'s vertices in front of the
    mouth's ``corners``, the ends of the lips' inner edge, joined to the lower lip's inner edge; the skin ``triangles``
    give the lip's inner edge and border) from LOWER_FROM of the way up the lower lip (the edge's vertices ``smile``,
    the lips' sum, draws down) to its border lifted towards that edge, the skin under the border with the border and
    less lower down; the lip's top and its edge stay. Returns the vertices moved and their deltas.

    >>> round(LOWER_UP * 1000, 1), round(LOWER_REACH * 1000, 1)
    (3.0, 10.0)
    """
    f = _lip_frame(positions, triangles, corners, smile, unit, up=False)
    front, bottom, half, edge = f.front, f.bottom, f.half, f.edge
    # The lower lip and the chin: the skin in front of the corners within THIN_WIDE[1] of the half-width joined to the
    # lower lip's inner edge (at rest the upper lip's middle hangs behind the lower lip's top, lower than its edge: it
    # joins the lower lip at the corners only, left out here).
    from .lining import skin_pieces

    inside, label = skin_pieces(positions, triangles, body, mid_x, THIN_WIDE[1] * half, front)
    lower = np.isin(label, label[edge[inside[edge]]]) & inside
    body = body[lower[body]]
    p = positions[body].astype(np.float64)
    inner = np.interp(p[:, 0], positions[edge, 0], positions[edge, 1])     # (the lower lip's inner edge at each x)
    tall = np.maximum(inner - bottom, 0.001 * unit)
    h = inner - p[:, 1]
    share = _smoothstep(LOWER_FROM * tall, tall, h) * _smoothstep(tall + LOWER_REACH * unit, tall, h)
    w = _smoothstep(THIN_WIDE[1] * half, THIN_WIDE[0] * half, np.abs(p[:, 0] - mid_x))
    delta = np.zeros((len(body), 3))
    delta[:, 1] = LOWER_UP * unit * share * w
    keep = np.flatnonzero(np.abs(delta).max(1) > 1e-6)
    return body[keep].astype(np.int32), delta[keep].astype(np.float32)
