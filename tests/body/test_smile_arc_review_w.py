"""The smile's opening curves up towards its corners (issue 46, blind review W, defect 3: "The smile doesn't read as
happy ... Only the lips widen", "the corners widen but barely lift ... a polite grimace", worst on #1, #2 and #6 of
``make_review_sheets.py --seed 4633``). Measured on the body mesh (metres, facing +z) with mouthSmile's sum of shapes
at full weight (tests/helpers.smile_mouth).

The lower lip's inner edge was drawn on a U (review L, workbench.body.lip_lift.lower_arc) and the upper lip's border
bent up into the corners (review M, mouth_bend), but the upper lip's inner edge, the top of the teeth the smile shows,
ran level over the middle two thirds of the mouth and hooked up only at the sealed corners: a flat band of teeth
under a straight lip (workbench.body.lip_lift.mouth_arc now bends it up from the middle)."""

from __future__ import annotations

import numpy as np
import pytest
from helpers import random_settings, smile_mouth

#: Review W's #1, #2 and #6 (its draw's faces; the outfits' colours, drawn since by another stream, do not matter here).
FACES = {f"#{k}": random_settings(12, 4633, with_added=True, heads=True, features=True)[k - 1] for k in (1, 2, 6)}
#: Where the rise is read: from OUT[0] to OUT[1] of the mouth's half-width (its corners at rest) out from its middle,
#: short of the corners' seal (workbench.body.expressions.CORNER_SEAL), against the middle (within MIDDLE of it).
OUT = (0.5, 0.7)
MIDDLE = 0.1


def rise(settings: dict) -> float:
    """Millimetres the upper lip's inner edge (the highest of the lips' inner edge at each width) lies higher OUT
    towards the corners than at the middle, smiling, both sides' mean."""
    m, p, q, tris, edge, ends = smile_mouth(settings)
    mid, half = p[ends, 0].mean(), np.ptp(p[ends, 0]) / 2
    t = (q[edge, 0] - mid) / half
    top = q[edge[np.abs(t) < MIDDLE], 1].max()
    sides = [q[edge[(s * t > OUT[0]) & (s * t < OUT[1])], 1].max() for s in (-1, 1)]
    return 1000 * float(np.mean(sides) - top)


@pytest.mark.parametrize("name", list(FACES))
def test_the_smiles_opening_curves_up_towards_the_corners(name):
    """The upper lip's inner edge lies 1.2 mm or more higher 0.5 to 0.7 of the way out to the corners than at the
    middle. On main 0.94 / 0.63 / 0.41 mm (#1 / #2 / #6: a level lip over the teeth); now 1.61 / 1.36 / 1.26."""
    assert rise(FACES[name]) >= 1.2, round(rise(FACES[name]), 2)
