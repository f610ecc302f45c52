"""A palm lighter than the skin as a person's is, not another person's (pass 72; blind reviews AU and BC: "a near-white
peach palm on very dark skin", "someone else's hands").

Measured on the skin's texture (:func:`workbench.body.skin.skin_texture`): the CIELAB L* of the palms' median colour (the
``palms`` mask over 0.9) against that of the whole texture's (the body's skin, mostly the trunk and the limbs).
"""

from __future__ import annotations

import numpy as np
import pytest

from workbench.body.skin import SKIN_SIZE, features, skin_texture
from workbench.body.tone import lab

# From the deepest tone of the range to the palest.
TONES = ("#3B2416", "#5C3F2F", "#8D5524", "#C68642", "#E0AC8A", "#FFE0C4")


def steps(tone: str, gender: str) -> tuple[float, float]:
    """(the palms' median L* minus the skin's, the skin's median L*)."""
    img = skin_texture(tone, gender).reshape(-1, 3).astype(np.float64) / 255
    at, w = features(gender)["palms"]
    palm = lab(np.median(img[at[w > 0.9]], axis=0))[0]
    skin = lab(np.median(img[:: max(1, SKIN_SIZE // 64)], axis=0))[0]
    return float(palm - skin), float(skin)


@pytest.mark.parametrize("gender", ("feminine", "masculine"))
def test_palms_are_lighter_by_a_persons_step(gender):
    """The palm 12 to 24 L* over the skin on the deep and mid-deep tones (melanin sparse there: plainly lighter), 0 to
    12 on the light ones (a little pinker, never darker). On main the deepest tone's palm was 35.3 L* over the skin
    (L* 52 on skin of 16.5); now 17.7, the mid-deep 15.0, #8D5524 12.7, #C68642 8.4, the palest 0.8."""
    for tone in TONES:
        step, skin = steps(tone, gender)
        print(f"\n{gender} {tone}: skin L* {skin:.1f}, palm {step:+.1f}")
        if skin < 45:
            assert 12 <= step <= 24, (tone, round(step, 1))
        else:
            assert 0 <= step <= 12, (tone, round(step, 1))
