"""The upper lip raised whole, and the mouth's corners with it, in ``mouthSmile``'s mouth (:mod:`.expressions`).

The smile lifted the upper lip's inner edge at the middle only (:func:`~workbench.body.lip_lift.upper_middle`, a
Gaussian 16 mm wide) while the lower lip's edge rose on a U to the sealed corners: the teeth showed 7 to 9 mm at the
middle but 3.5 mm 14 mm out and 1 mm at 18 (blind review AA's #4, #8, #10), a lens of teeth under a level upper lip,
"the upper lip pulls *down* over the teeth into a flat line ... only a thin strip of upper teeth shows" (review AA,
defect 3; tests/render/test_smile_band_review_aa.py). In a smile the levator and zygomatic muscles raise the whole
upper lip, most towards the canines, so the row of upper teeth shows as a band to the premolars. :func:`upper_rise`
lifts the upper lip's sides (its inner edge to its border and the skin over it, fading out under the nose) by
RISE_SIDES over the canines, none at the middle nor at the corners (their seal and lift are the units' own).
:func:`corner_raise` lifts the corners themselves, with the lips' ends and the cheek round them, so the mouth is a U
(blind review AE).

>>> round(RISE_SIDES * 1000, 1), SIDES_FROM
(3.0, (0.25, 0.6))
"""

from __future__ import annotations

import numpy as np

from .eyes import _smoothstep

__all__ = ["corner_raise", "upper_rise"]

# The lift (metres up, for the reference face) from SIDES_FROM[1] of the mouth's half-width out (none within
# SIDES_FROM[0]: the middle's lip is at the incisors' gum already, upper_middle; 1 mm more there, or the sides' lift
# from 0.1 of the way out, lifted review O's #4's or #3's border 0.7 to 0.8 mm more on one side than the other,
# tests/body/test_smile_lips_review_o.py allows 0.35) to CORNER_FADE[0], none from CORNER_FADE[1] (to 0.85 or 0.95
# the lining showed as dark wedges beside the outer teeth, 2,330 pixels in tests/render/test_mouth_renders.py's
# feminine close-up against main's 1,480; to 0.75, with the corners sealed a little wider, workbench.body.expressions.
# CORNER_SEAL, 1,510); all of it from the lip's inner edge up to REACH[0] above it, none from REACH[1] (the nose's base).
RISE_SIDES = 0.003
SIDES_FROM = (0.25, 0.6)
CORNER_FADE = (0.45, 0.75)
REACH = (0.010, 0.020)
# How far in front of the corners (metres, for the reference face) the lip's skin is taken to be: the mouth's
# lining and the lips' inner faces behind stay with the teeth.
FRONT = 0.002


def upper_rise(positions: np.ndarray, triangles: np.ndarray, body: np.ndarray, smile: tuple[np.ndarray, np.ndarray],
               corners: np.ndarray, mid_x: float, unit: float) -> tuple[np.ndarray, np.ndarray]:
    """The shape (sorted vertex indices, deltas) that raises the upper lip (see :data:`RISE_SIDES`): the skin
    (``body``'s vertices in front of the mouth's ``corners``, the ends of the lips' inner edge) joined to the upper
    lip's inner edge (the edge's vertices ``smile``, the lips' sum, lifts most near the face's middle) without going
    round the corners, lifted from that edge up; ``positions`` at rest (metres), ``triangles`` the body's skin,
    ``unit`` the face's size against the reference face's.

    >>> CORNER_FADE, REACH
    ((0.45, 0.75), (0.01, 0.02))
    """
    from .lining import skin_pieces
    from .soften import lip_edge

    half = float(np.ptp(corners[:, 0])) / 2
    front = float(corners[:, 2].mean()) - FRONT * unit
    full = np.zeros(len(positions))
    full[smile[0]] = smile[1][:, 1]
    inside, label = skin_pieces(positions, triangles, body, mid_x, CORNER_FADE[1] * half, front)
    edge = lip_edge(triangles)
    edge = edge[inside[edge]]
    # (the upper lip's edge: the one the smile lifts most within a quarter of the half-width of the middle; the lower
    # lip's there drops with the jaw)
    near = edge[np.abs(positions[edge, 0] - mid_x) < 0.25 * half]
    top = near[np.argmax(full[near])]
    upper = edge[label[edge] == label[top]]
    upper = upper[np.argsort(positions[upper, 0])]
    verts = body[inside[body] & (label[body] == label[top])]
    p = positions[verts].astype(np.float64)
    inner = np.interp(p[:, 0], positions[upper, 0], positions[upper, 1])
    h = p[:, 1] - inner
    t = np.abs(p[:, 0] - mid_x) / half
    lift = RISE_SIDES * unit * _smoothstep(SIDES_FROM[0], SIDES_FROM[1], t) \
        * _smoothstep(CORNER_FADE[1], CORNER_FADE[0], t) * _smoothstep(REACH[1] * unit, REACH[0] * unit, h)
    keep = np.flatnonzero(lift > 1e-6)
    delta = np.zeros((len(keep), 3), np.float32)
    delta[:, 1] = lift[keep]
    order = np.argsort(verts[keep])
    return verts[keep][order].astype(np.int32), delta[order]


# The corners' raise (metres up, for the reference face): the units' smile and the cheek's raise lifted the corners 10
# to 12 mm, but the seal, the lower lip's U and the upper lip's rise lifted the lips' inner edges beside them as much,
# so the corners stood only 4 to 5.5 mm over the upper lip's edge at the middle and the opening read as a level slot
# hooked up at its ends, "a clenched grimace ... no upward lift" (blind review AE, tests/body/
# test_smile_corners_review_ae.py). All of it from RAISE_FROM[1] of the mouth's half-width out to RAISE_OUT[0] beyond
# the corners, none within RAISE_FROM[0] of the middle (from 0.25 or 0.4 the lower lip's sides rose over the canines,
# 35.6 mm of teeth showing against review U's 36.5, and the lining beside them showed taller, tests/render/
# test_mouth_renders.py) nor from RAISE_OUT[1]; from RAISE_BELOW[1] under the corners' line (none from its first) up to
# RAISE_UP[0] over it, none from RAISE_UP[1]: the skin over the corners rises with them (faded out over the upper lip
# beside the nose's wings, the skin there, which the units' smile already bunches, folded over; so the wings rise a
# little with the cheek, as a smile's do); none behind RAISE_DEPTH from the corners (the mouth's lining beside them
# rises with the lips). A corner alone lifted further up and back (expressions.CORNER_LIFT) turned the lips' corners
# over and pushed the lower lip over the incisors (smile40).
CORNER_RAISE = 0.004
RAISE_FROM = (0.5, 1.0)
RAISE_OUT = (0.010, 0.025)
RAISE_BELOW = (-0.012, -0.002)
RAISE_UP = (0.015, 0.035)
RAISE_DEPTH = (0.035, 0.025)


def corner_raise(positions: np.ndarray, body: np.ndarray, corners: np.ndarray, mid_x: float, unit: float
                 ) -> tuple[np.ndarray, np.ndarray]:
    """The shape (sorted vertex indices of ``body``, deltas) that lifts the mouth's ``corners`` (the ends of the lips'
    inner edge, at rest) with the cheek round them (see :data:`CORNER_RAISE`); ``mid_x`` the face's middle line, ``unit``
    the face's size against the reference face's.

    A vertex at a corner rises all of it, one at the middle none:

    >>> p = np.array([[-0.025, 0.0, 0.0], [0.0, 0.0, 0.01], [0.025, 0.0, 0.0]])
    >>> idx, delta = corner_raise(p, np.arange(3), p[[0, 2]], 0.0, 1.0)
    >>> idx.tolist(), np.round(delta[:, 1] * 1000, 1).tolist()
    ([0, 2], [4.0, 4.0])
    """
    half = float(np.ptp(corners[:, 0])) / 2
    line, front = float(corners[:, 1].mean()), float(corners[:, 2].mean())
    p = positions[body].astype(np.float64)
    out = np.abs(p[:, 0] - mid_x)
    up = p[:, 1] - line
    w = _smoothstep(RAISE_FROM[0] * half, RAISE_FROM[1] * half, out) \
        * _smoothstep(half + RAISE_OUT[1] * unit, half + RAISE_OUT[0] * unit, out) \
        * _smoothstep(RAISE_BELOW[0] * unit, RAISE_BELOW[1] * unit, up) \
        * _smoothstep(RAISE_UP[1] * unit, RAISE_UP[0] * unit, up) \
        * _smoothstep(front - RAISE_DEPTH[0] * unit, front - RAISE_DEPTH[1] * unit, p[:, 2])
    keep = np.flatnonzero(w > 0.01)
    delta = np.zeros((len(keep), 3), np.float32)
    delta[:, 1] = CORNER_RAISE * unit * w[keep]
    return body[keep].astype(np.int32), delta
