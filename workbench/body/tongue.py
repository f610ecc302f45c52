"""The tongue's shape for :func:`workbench.body.mouth.fitted_teeth`: a groove down its middle and a rounded tip.

MakeHuman's tongue, made flatter and set low behind the lower teeth (:mod:`.mouth`), had a straight, blunt front as
wide as the lower arch and a top with no groove: "a flat pink tongue disc" (blind review M,
tests/body/test_tongue_review_m.py). Its top is pressed down along its middle line (:data:`GROOVE`), the groove
fading out towards the back, and its front narrowed into a round (:data:`TIP_ROUND`).

>>> import numpy as np
>>> q = np.array([[0.0, 0.01, 0.0], [0.01, 0.01, 0.0], [0.0, 0.01, -0.04], [0.0, 0.0, -0.04]])
>>> np.round(shaped(q, mid=0.0) * 1000, 2).tolist()
[[0.0, 8.8, 0.0], [7.0, 10.0, 0.0], [0.0, 10.0, -40.0], [0.0, 0.0, -40.0]]
"""

from __future__ import annotations

import numpy as np

__all__ = ["BACK_ROUND", "GROOVE", "TIP_ROUND", "shaped"]

#: The groove (metres): its depth at the middle line of the tongue's top, its half width (a Gaussian's), and how far
#: back from the tip it fades out.
GROOVE = (0.0012, 0.003, 0.035)
#: The tip's round: the share of its width kept at the very tip, widening as a quarter circle to the whole over this
#: length (metres) back from it.
TIP_ROUND = (0.7, 0.008)
#: Its back rounded across (metres): its sides lowered by up to this much, by the square of the distance out, ramped in
#: from the first distance back from the tip to the second. MakeHuman's back is cut straight across at one height: seen
#: in viseme_aa's opening it stood as a box, a flat top edge over upright sides ("a rectangular slab tongue with square
#: corners", blind review P).
BACK_ROUND = (0.005, 0.02, 0.05)


def shaped(q: np.ndarray, mid: float) -> np.ndarray:
    """The tongue's vertices ``q`` (metres, its tip towards +z, its middle line at x ``mid``) grooved and rounded, a new
    array (see the module)."""
    out = np.array(q, np.float64)
    back = float(out[:, 2].max()) - out[:, 2]
    dx = out[:, 0] - mid
    bottom, top = float(out[:, 1].min()), float(out[:, 1].max())
    upper = np.clip((out[:, 1] - bottom) / max(top - bottom, 1e-9), 0.0, 1.0)      # 1 on its top, 0 underneath
    out[:, 1] -= GROOVE[0] * np.exp(-(dx / GROOVE[1]) ** 2) * np.clip(1 - back / GROOVE[2], 0.0, 1.0) * upper
    half = max(float(np.abs(dx).max()), 1e-9)
    ramp = np.clip((back - BACK_ROUND[1]) / (BACK_ROUND[2] - BACK_ROUND[1]), 0.0, 1.0)
    out[:, 1] -= BACK_ROUND[0] * ramp * (dx / half) ** 2
    round_ = np.sqrt(1 - (1 - np.clip(back / TIP_ROUND[1], 0.0, 1.0)) ** 2)
    out[:, 0] = mid + dx * (TIP_ROUND[0] + (1 - TIP_ROUND[0]) * round_)
    return out
