"""Blind review P, defect 3: "noisy, low-resolution knit textures" ("higher-resolution and less noisy fabric").
A sweater's 512 px texture spans about 1.2 m of cloth, and a portrait magnifies a texel to 2 to 3 px: its
stitches drawn 6 texels wide with hard-edged two-texel loops and a one-texel channel put their contrast at 1 to
2 px, which reads as noise. Measured in our renderer's 512 px portrait of review P's #10 (seed 4626: an athletic
man in a grey-blue knitted sweater; his hair and glasses left off, they are not what is measured), over the
sweater's pixels (those of its colour's chromaticity, 4 px in from any other):

- the noise: the variance of the brightness less its blur over 1 px, over the variance of the brightness less its
  blur over 6 px (the knit's whole texture), at most :data:`NOISE` (main's 0.066; now 0.032);
- the knit still reads: the brightness less its 6 px blur, its spread over the mean, at least :data:`KNIT`
  (main's 7.3 %; now 7.3 %).

The fabrics stay apart (a jersey tee, a knit sweater, a fleece hoodie): test_fabric_review_o.
"""

from __future__ import annotations

import functools

import numpy as np
from built import built_rest as build_avatar  # one build per run, no face shapes (tests/built.py)
from scipy.ndimage import binary_erosion, gaussian_filter

from workbench.options import ModelOptions, normalize_avatar_settings
from workbench.render.pictures import render

NOISE, KNIT = 0.05, 0.06
TOP = "#7A93B4"
# Review P's #10 (seed 4626), but for his hair and glasses.
SETTINGS = {"gender": "masculine", "bodyShape": "athletic", "height": 175.4, "skinTone": "#886446",
            "eyeColor": "#677D56", "hair": {"style": "none"}, "glasses": "none", "pose": "hands_on_hips",
            "outfit": {"top": TOP, "bottom": "#10D9EA", "shoes": "#1D6678", "topStyle": "longsleeve",
                       "bottomStyle": "trousers", "shoeStyle": "boots"}}


@functools.cache
def sweater() -> tuple[np.ndarray, np.ndarray]:
    """(brightness, mask): the portrait's brightness (0 to 1) and the sweater's pixels."""
    glb = build_avatar(normalize_avatar_settings(SETTINGS), ModelOptions())
    image = np.asarray(render(glb, size=512, camera="portrait").convert("RGB"), np.float64) / 255
    colour = np.array([int(TOP[i:i + 2], 16) for i in (1, 3, 5)], np.float64) / 255
    chroma = image / np.maximum(image.sum(-1, keepdims=True), 1e-3)
    mask = (np.abs(chroma - colour / colour.sum()).sum(-1) < 0.06) & (image.sum(-1) > 0.15)
    return image @ [0.2126, 0.7152, 0.0722], binary_erosion(mask, iterations=4)


def test_the_knit_is_not_noise():
    lum, mask = sweater()
    assert mask.sum() > 10000, int(mask.sum())
    fine, knit = lum - gaussian_filter(lum, 1.0), lum - gaussian_filter(lum, 6.0)
    noise = fine[mask].var() / knit[mask].var()
    assert noise <= NOISE, round(float(noise), 4)


def test_the_knit_still_reads():
    lum, mask = sweater()
    knit = lum - gaussian_filter(lum, 6.0)
    spread = knit[mask].std() / lum[mask].mean()
    assert spread >= KNIT, round(float(spread), 4)
