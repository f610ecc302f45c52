"""Blind review N, defect 9: our sunglasses were "flat opaque grey lenses with a painted rectangular highlight"
(s2 #8, s3 #9, #12), where three.js and model-viewer showed glossy lenses with a real reflection of the studio. The
room's reflection graded from floor to ceiling over a narrow band of the reflected ray's heights and the soft boxes
were cut at a narrow cone: a grey lens (its darkest tenth at 70 levels) with bright patches of hard edges. Now a
sunglass lens is tinted glass (workbench.render.loops._lens_mirror): dark where it mirrors the floor, a smooth
gradient up to a lit top, the lights' broad soft reflections, the room's reflection in the lens's tint.

Measured in the front portrait of review N's #12 and #9 (seed 4624), inside the lenses (their rim's 3 px left out).
"""

from __future__ import annotations

import json

import numpy as np
import pytest
from scipy import ndimage
from test_glasses_look import LUM, glasses_portrait

from workbench.body.glasses import LOOKS

# Review N's #12 and #9 (/work/wt/briefs/key4624.json), in the settings that draw their heads.
AVATARS = {
    "#12": {"gender": "feminine", "bodyShape": "athletic", "height": 154.9, "skinTone": "#946C4A",
            "face": {"jawWidth": -0.8, "cheekbones": 0.7, "noseWidth": -0.3, "eyeSize": -0.3, "lipFullness": 0.4,
                     "noseLength": 0.1, "chinLength": -0.1, "browRidge": -0.4},
            "hair": {"style": "bun", "color": "#635146"}, "glasses": "sunglasses", "pose": "hands_on_hips"},
    "#9": {"gender": "masculine", "bodyShape": "heavy", "height": 197.1, "skinTone": "#E6BAA2",
           "face": {"jawWidth": 1.0, "cheekbones": 0.2, "noseWidth": -0.5, "eyeSize": 0.3, "lipFullness": 0.4,
                    "noseLength": -0.2, "chinLength": 0.7, "browRidge": 1.0},
           "hair": {"style": "curly", "color": "#43352C"}, "glasses": "sunglasses", "pose": "hands_on_hips"},
}


def lens_pixels(name: str) -> tuple[np.ndarray, np.ndarray]:
    """The portrait (sRGB levels, float) and the mask of its lenses' inside."""
    lit, masks = glasses_portrait(json.dumps(AVATARS[name]))
    lens = ndimage.binary_erosion(masks["lens"], iterations=3)
    assert lens.sum() > 1000, lens.sum()
    return lit, lens


@pytest.mark.parametrize("name", AVATARS)
def test_the_lens_reflection_has_no_hard_edge(name):
    """No painted patch: between neighbouring pixels inside a lens the brightness steps by 8 levels at most (main:
    #12 15.0, #9 21.9, the soft boxes' and the horizon's edges; now 4.0 and 6.0)."""
    lit, lens = lens_pixels(name)
    lum = lit @ LUM
    steps = np.concatenate([np.abs(np.diff(lum, axis=1))[lens[:, 1:] & lens[:, :-1]],
                            np.abs(np.diff(lum, axis=0))[lens[1:] & lens[:-1]]])
    assert steps.max() <= 8, steps.max()


@pytest.mark.parametrize("name", AVATARS)
def test_the_lens_is_dark_glass_mirroring_a_lit_ceiling(name):
    """Dark tinted glass, not grey plastic: its darkest tenth under 50 levels (main: 70.1 on both; now 37.9, 38.9), and
    the studio's reflection grading it from a lit top to a dark bottom, the top third brighter than the bottom third by
    12.5 levels or more (main: #12 11.4, #9 8.3; then 22.3, 14.7; 13 until pass 35's level heads, level35: #9's head no
    longer tipped 6 degrees up mirrors a little less of the lit ceiling, 12.6)."""
    lit, lens = lens_pixels(name)
    lum = lit @ LUM
    assert np.percentile(lum[lens], 10) < 50, np.percentile(lum[lens], 10)
    ys = np.nonzero(lens)[0]
    top, bottom = np.percentile(ys, [33, 67])
    rows = np.arange(lum.shape[0])[:, None]
    gap = lum[lens & (rows < top)].mean() - lum[lens & (rows > bottom)].mean()
    assert gap >= 12.5, gap


@pytest.mark.parametrize("name", AVATARS)
def test_the_lens_shows_its_tint(name):
    """The lens's mean colour leans the way its tint does (LOOKS' lens colour, a cool grey: its blue over its red),
    by 4 % of its brightness or more (main: a neutral grey, blue over red by 0.8 levels of 95, 0.8 %; now 6.0-6.1 of 85,
    7 %), and its hue is the tint's (the mean's deviation from its grey points within 25 degrees of the tint's)."""
    lit, lens = lens_pixels(name)
    mean = lit[lens].mean(0)
    tint = np.array(LOOKS["sunglasses"][1])
    lean, want = mean - mean.mean(), tint - tint.mean()
    assert (mean[2] - mean[0]) * np.sign(want[2] - want[0]) >= 0.04 * mean.mean(), mean
    cos = lean @ want / (np.linalg.norm(lean) * np.linalg.norm(want))
    assert cos >= np.cos(np.radians(25)), (mean, cos)
