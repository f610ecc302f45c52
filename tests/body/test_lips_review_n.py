"""Deep skin's lips (blind review N, defect 10: "lips on dark skin are a uniform dark plum/purple that looks bruised.
Lip colour should come from the skin tone"), measured in the colours a person sees (the skin texture's lips and face,
each as contract section 5's reference studio shows it: :func:`test_deep_skin_review_j.shown_lips_and_face`).

Review J had the deep lips made apart from the skin by taking yellow out of them: b* near 0, a hue (CIELAB's angle,
a* towards b*) a third to a half of a right angle from the skin's, a plum. Now a redder brown of the skin: the hue
turned less far towards red, about as far apart as before (review J's distance, tests/body/test_deep_skin_review_j.py).
"""

from __future__ import annotations

import numpy as np
import pytest
from test_deep_skin_review_j import shown_lips_and_face

# Review N's #2 and #5 (sheets 1 and 2), and review J's deep tones.
DEEP = ("#442F26", "#4E3526", "#2A1A14", "#3B2219", "#4A2C20")


def hue(lab: np.ndarray) -> float:
    """CIELAB hue angle in degrees (0 red-magenta, 90 yellow)."""
    return float(np.degrees(np.arctan2(lab[2], lab[1])))


@pytest.mark.parametrize("gender", ["feminine", "masculine"])
def test_deep_lips_are_a_redder_brown_of_the_skin_not_plum(gender):
    """On each deep tone the lips' hue is within 25 degrees of the face's, turned towards red, and 24 degrees or more
    (a brown; plum is under 20), darker than the face (1 to 4.4 L* now) and more chromatic. Main (feminine, #442F26 #4E3526 #2A1A14
    #3B2219 #4A2C20): hue 4.7 20.4 3.3 11.7 16.5 against the face's 47.4 58.3 49.0 45.9 49.4, 33 to 46 degrees apart;
    now 28.2 36.4 30.0 32.3 33.0, 13.6 to 21.9 apart."""
    for tone in DEEP:
        lips, face = shown_lips_and_face(tone, gender)
        turn = hue(face) - hue(lips)
        chroma = np.hypot(*lips[1:]) - np.hypot(*face[1:])
        assert 0 < turn < 25 and hue(lips) > 24, (tone, round(hue(lips), 1), round(hue(face), 1))
        assert lips[0] < face[0] - 0.5 and chroma > 2, (tone, lips.round(1), face.round(1))
