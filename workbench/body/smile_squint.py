"""The smile's lower lids raised further towards the eyes' outer corners, the narrowed eye of a real smile (issue 46,
blind review AG: "the smile still mouth-only ... an earlier lid crease was not seen as a squint", the smile 4/10).

``mouthSmile``'s squint (``eyeSquint`` at :data:`~workbench.body.expressions.SMILE_EYES`' weight, ``cheekSquint``)
lifts the lower lid as one piece, as far at the eye's outer corner as under the pupil: the lid's margin keeps its
resting downward curve, only higher, and at the sheets' 288 px the eye reads as smaller, not smiling. In a smile the
ring muscle round the eye and the raised cheek under it push the lower lid's outer half up most: the margin runs
straight, or rises, from under the pupil to the outer corner, the eye a crescent. The lid's middle cannot go much
higher (review R's eyes nearly closed at the centre, tests/body/test_smile_eyes_review_r.py keeps half the rest
opening there). :func:`outer_lift` adds :data:`OUTER_MORE` of the squint's own lift again on the lower lid's outer
half, none within :data:`ACROSS`\\[0] of the eye's middle across, all of it from :data:`ACROSS`\\[1] out, fading
towards the corner itself (:data:`CORNER`) and down the cheek (:data:`DOWN`): the same skin, lashes and cheek the
squint moves, moved the same way, further (tests/render/test_smile44_review_ag.py).

>>> OUTER_MORE, ACROSS
(0.8, (0.006, 0.011))
"""

from __future__ import annotations

import numpy as np

from .eyes import _smoothstep

__all__ = ["ACROSS", "BELOW", "CORNER", "DOWN", "OUTER_MORE", "outer_lift"]

# More of each side's eyeSquint (its weight added) where the lift is all of it.
OUTER_MORE = 0.8
# Across the eye (metres out from its middle, towards the ear, for the reference face): none within ACROSS[0] (the lid
# under the pupil, which review R's test holds open), all from ACROSS[1]; none from CORNER[1] out (the outer corner, where
# the lids meet), all within CORNER[0].
ACROSS = (0.006, 0.011)
CORNER = (0.011, 0.016)
# Up and down (metres under the eye's middle): none from BELOW[0] up (the upper lid, workbench.body.smile_lids), all from
# BELOW[1] down to DOWN[0], none from DOWN[1] down: the lid and its roll rise, the cheek under them is the smile's raise's
# own (lifted down to 16 mm under the eye, the cheek's skin under the lid bent over 30 degrees at 4 to 5 more edges of a
# heavy masculine face, tests/body/test_smile_creases_review_j.py).
BELOW = (0.0, 0.002)
DOWN = (0.007, 0.012)


def outer_lift(positions: np.ndarray, eyes: dict[str, np.ndarray], mid_x: float, units: dict,
               unit: float) -> tuple[np.ndarray, np.ndarray]:
    """The shape (sorted vertex indices, deltas) that raises each lower lid's outer half further (see
    :data:`OUTER_MORE`): ``units``' ``eyeSquintLeft`` / ``Right`` (name -> sorted indices, deltas) again on that part
    of the lid; ``positions`` at rest (metres, facing +z), ``eyes`` the eyes' centres (``"l"``, ``"r"``), ``mid_x``
    the face's middle line, ``unit`` the face's size against the reference face's (as
    :func:`~workbench.body.expressions.extra_shapes` finds them).

    A vertex under the eye's middle moves none of it, one 11 mm out all, one at the outer corner none:

    >>> p = np.array([[0.030, -0.004, 0.0], [0.041, -0.004, 0.0], [0.050, -0.004, 0.0], [0.041, 0.003, 0.0]])
    >>> eyes = {"l": np.array([0.030, 0.0, 0.0]), "r": np.array([-0.030, 0.0, 0.0])}
    >>> squint = (np.arange(4, dtype=np.int32), np.tile(np.float32([0.0, 0.004, 0.0]), (4, 1)))
    >>> idx, delta = outer_lift(p, eyes, 0.0, {"eyeSquintLeft": squint, "eyeSquintRight": (np.zeros(0, np.int32),
    ...                         np.zeros((0, 3), np.float32))}, 1.0)
    >>> idx.tolist(), [round(float(d) * 1000, 2) for d in delta[:, 1]]
    ([1], [3.2])
    """
    full = np.zeros((len(positions), 3))
    for side, name in (("l", "eyeSquintLeft"), ("r", "eyeSquintRight")):
        centre = eyes[side]
        idx, delta = units[name]
        if not len(idx):
            continue
        p = positions[idx].astype(np.float64)
        out = (p[:, 0] - centre[0]) * np.sign(centre[0] - mid_x)
        w = _smoothstep(ACROSS[0] * unit, ACROSS[1] * unit, out) * _smoothstep(CORNER[1] * unit, CORNER[0] * unit, out) \
            * _smoothstep(BELOW[0] * unit, BELOW[1] * unit, centre[1] - p[:, 1]) \
            * _smoothstep(DOWN[1] * unit, DOWN[0] * unit, centre[1] - p[:, 1])
        full[idx] += OUTER_MORE * w[:, None] * delta.astype(np.float64)
    keep = np.flatnonzero(np.abs(full).max(1) > 1e-7)
    return keep.astype(np.int32), full[keep].astype(np.float32)
