"""The upper lip's middle lifted in ``mouthSmile``'s mouth (``smileOpen``, :mod:`.expressions`).

mouthUpperUp lifts the upper lip's sides, not its middle: at full weight the smile was a sneer (the gums over the
canines, the middle teeth half covered, blind review F: "only 2-4 upper teeth show"); at
:data:`~workbench.body.expressions.UPPER_UP` the sides show the canines to their gum line, and the middle, lifted as
far here, a row of teeth as tall across the mouth's width.

>>> round(UPPER_MIDDLE[1] * 1000, 1), round(TUBERCLE_UP[1] * 1000, 1)
(2.5, 2.0)
"""

from __future__ import annotations

import numpy as np

from .eyes import _smoothstep

__all__ = ["upper_middle"]

# The upper lip's middle lifted in ``smileOpen`` (metres up, for the reference face) over a Gaussian RADIUS across
# the face's middle, fading out REACH above the lips' meeting line (:func:`upper_middle`).
UPPER_MIDDLE = (0.0, 0.0025, 0.0)
UPPER_MIDDLE_RADIUS = 0.009
UPPER_MIDDLE_REACH = 0.02
# The tubercle, the upper lip's middle hanging below the lips' meeting line, lifted as much again (metres up) over a
# Gaussian TUBERCLE_RADIUS across: lifted only with the rest of the lip's middle it hung into the teeth as a pink V.
TUBERCLE_UP = (0.0, 0.002, 0.0)
TUBERCLE_RADIUS = 0.005


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
