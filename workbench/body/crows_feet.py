"""The smile's crow's feet: the fine creases that fan out from each eye's outer corner when the eyes take part in a
smile (issue 46; blind reviews AZ and BA and this pass's A/Bs: "a mouth-only smile with no lower-lid lift, crow's feet
or cheek push reaching the eyes", "the eyes and lines beside the nose don't move at all").

``mouthSmile`` narrows the eyes (workbench.body.expressions.SMILE_EYES) and rolls the lower lids
(workbench.body.lid_crease, whose crease fades out before the corners), but the skin beside the eyes' outer corners,
its vertices 2.2 to 4.8 mm apart on the base mesh, stays smooth, where a person's smile creases it into a fan of
lines. :func:`crows_feet` turns mouthSmile's normals there as a fan of shallow grooves would: round a point
:data:`CORNER_OUT` from each eye's middle (a little inside the eye's outer corner; the lashes end some 19 mm out, and
the fan's skin starts :data:`REACH`'s first radius from the point), from REACH's first two radii to its last two and
over :data:`ANGLES` (degrees from straight out, up positive), each normal tilted along the arc by :data:`TILT` times a
wave whose crests are lines radiating from that point, :data:`SPACING` apart :data:`SPACING_AT` out. That period is only
1.3 to 1.8 of the skin's median edges there, at the mesh's limit; the blind A/B saw the lines as crow's feet (one
reviewer: "slightly pale streaks" by one eye). The positions stay as they are (tests/body/test_crows_feet_review_ba.py).

>>> round(SPACING * 1000, 1), TILT, ANGLES
(6.0, 0.35, (-55.0, -40.0, 25.0, 40.0))
"""

from __future__ import annotations

import numpy as np

from .expressions import EYES_APART, smoothstep

__all__ = ["ANGLES", "CORNER_OUT", "REACH", "SPACING", "SPACING_AT", "TILT", "crows_feet"]

# The fan's point, out from the eye's middle and down (metres on the reference face).
CORNER_OUT = (0.012, 0.001)
# From the point: none within REACH[0], all from REACH[1] to REACH[2], none from REACH[3] (metres on the reference face).
REACH = (0.003, 0.007, 0.014, 0.020)
# The fan's spread (degrees from straight out, up positive): none below ANGLES[0] nor above ANGLES[3], all between
# ANGLES[1] and ANGLES[2] (the lines run down over the cheek's top further than up towards the brow, as a smile's do).
ANGLES = (-55.0, -40.0, 25.0, 40.0)
# The lines' spacing SPACING_AT out (metres on the reference face; the fan's lines part with the distance) and the tilt
# across them (a length added to a unit normal before it is made unit again: 0.35, some 19 degrees). (Judged blind on
# eight random faces against none: the fan preferred on all six whose eyes a lens did not hide, one clear.)
SPACING = 0.006
SPACING_AT = 0.012
TILT = 0.35


def crows_feet(moved: np.ndarray, normals: np.ndarray, skin: np.ndarray, eyes: np.ndarray,
               rest_normals: np.ndarray) -> np.ndarray:
    """``normals`` (V, 3, unit) of a smile whose vertices are at ``moved`` (V, 3, metres, facing +z), with each eye's
    crow's feet turned into them (see :data:`TILT`) on the ``skin`` vertices (V, bool) that face forward at rest
    (``rest_normals``); ``eyes`` (2, 3) the eyes' middles. Unit length again.

    Straight out from the corner a normal turns most along the arc (up, there); a quarter of the spacing across,
    on a groove's floor, it keeps its way:

    >>> eyes = np.array([[-0.02925, 0.0, 0.0], [0.02925, 0.0, 0.0]])          # (the reference face's)
    >>> at = np.radians([0.0, np.degrees(SPACING / SPACING_AT) / 4])
    >>> p = np.c_[0.02925 + 0.012 + 0.012 * np.cos(at), -0.001 + 0.012 * np.sin(at), np.zeros(2)]
    >>> n = np.tile([0.0, 0.0, 1.0], (2, 1))
    >>> (crows_feet(p, n, np.ones(2, bool), eyes, n).round(2) + 0.0).tolist()
    [[0.0, 0.33, 0.94], [0.0, 0.0, 1.0]]
    """
    unit = float(np.linalg.norm(eyes[0] - eyes[1])) / EYES_APART
    mid_x = float(eyes[:, 0].mean())
    p = moved[:, :2].astype(np.float64)
    step = np.degrees(SPACING / SPACING_AT)
    tilt = np.zeros((len(p), 2))
    for eye in eyes:
        side = np.sign(eye[0] - mid_x)
        point = eye[:2] + np.array([side * CORNER_OUT[0], -CORNER_OUT[1]]) * unit
        r = p - point
        rho = np.hypot(r[:, 0], r[:, 1]) / unit
        theta = np.degrees(np.arctan2(r[:, 1], side * r[:, 0]))
        w = smoothstep(REACH[0], REACH[1], rho) * smoothstep(REACH[3], REACH[2], rho) \
            * smoothstep(ANGLES[0], ANGLES[1], theta) * smoothstep(ANGLES[3], ANGLES[2], theta) \
            * ((p[:, 0] - mid_x) * side > 0)
        along = np.c_[-side * np.sin(np.radians(theta)), np.cos(np.radians(theta))]
        tilt += (TILT * w * np.cos(2 * np.pi * theta / step))[:, None] * along
    tilt *= (skin * smoothstep(0.3, 0.6, rest_normals[:, 2]))[:, None]
    out = normals.astype(np.float64).copy()
    out[:, :2] += tilt
    return out / np.maximum(np.linalg.norm(out, axis=1, keepdims=True), 1e-12)
