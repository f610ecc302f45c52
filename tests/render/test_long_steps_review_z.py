"""Blind review Z's long hair (issue 46, long straight 3.5/10; seed 4636's #6, masculine, #4E3B32): "long hair's
stair-stepped card texture ... from behind", drawn by our renderer as the review's sheets draw it (LOD 0, the idle
clip's first frame, the portrait from behind, 512 px).

**The back of the head without blocks.** Long hair's cards cross one another all over the head, and where one passes
over or through another their textures met along straight lines: each card's dark core between its strands, its locks'
shades and its staggered roots made every crossing a dark block with straight edges, rows of them down the back of
the head. Measured over the hair from 3 % to 45 % of the picture under its top (the head and nape; the picture's hair,
the figure's pixels 9 pixels in from its outline): the share of its pixels under 0.78 of the luminance's median over
21 pixels round them, in dark patches at least 3 pixels across both ways (blocks, not a strand's gap). With review O's
black long hair (seed 4625's #10, #262424, whose cards' darker shades are deepened three times: texture.contrast). On
main d509ab51 0.0222 / 0.0599 (Z#6 / O#10); with each card's light across at its locks' and core's scale evened over
the part of it that lies on the head (:data:`workbench.body.hair.texture.CROWN_EVEN`), its strands kept, 0.0148 /
0.0257.
"""

import sys
from functools import cache
from pathlib import Path

import numpy as np
import pytest
from built import built_rest as build_avatar  # one build per run, no face shapes (tests/built.py)
from built import sheet_glb_rest as sheet_glb  # one build per run, no face shapes (tests/built.py)
from helpers import random_settings
from scipy import ndimage

from workbench.options import ModelOptions
from workbench.render import render

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "data"))
from make_review_sheets import review_settings  # noqa: E402

BACKGROUND = (236, 238, 242)
SIZE = 512
DARK, MEDIAN, BLOCK = 0.78, 21, 3
# The most share of the back of the head in dark blocks, per avatar (main: Z#6 0.0222, O#10 0.0599).
MOST = {"Z#6": 0.018, "O#10": 0.04}


def settings(name: str) -> dict:
    """Review Z's #6 (its sheets' avatar, drawn as data/make_review_sheets.py draws it) or review O's #10 (without
    glasses, as tests/body/test_long_hair_review_o.py draws it)."""
    if name == "Z#6":
        s = review_settings(12, 4636)[5]
        assert s["hair"] == {"style": "long", "color": "#4E3B32"}, s["hair"]
        return s
    s = dict(random_settings(12, 4625)[9], glasses="none")
    assert s["hair"] == {"style": "long", "color": "#262424"}, s["hair"]
    return s


@cache
def back(name: str) -> np.ndarray:
    """The avatar ``name`` from behind (the sheets' portrait at 180 degrees), RGB floats."""
    # Z#6 by built.sheet_glb (the sheets' build, settings normalized) as test_hands_review_z builds it, O#10 as
    # test_long_hair_review_o builds it: each one build per run shared with that file (suite42).
    glb = (sheet_glb(settings(name)) if name == "Z#6"
           else build_avatar(settings(name), ModelOptions(lod=0, animations=("idle",))))
    im = render(glb, size=SIZE, camera="portrait", background=BACKGROUND, pose=(glb, 0.0), yaw_deg=180.0)
    return np.asarray(im.convert("RGB")).astype(float)


def dark_blocks(rgb: np.ndarray) -> float:
    """The share of the hair over the back of the head in dark blocks (see the module's text)."""
    luma = rgb @ np.array([0.2126, 0.7152, 0.0722])
    on = np.abs(rgb - np.array(BACKGROUND)).sum(2) > 30
    top = np.flatnonzero(on.any(1))[0]
    hair = ndimage.binary_erosion(on, np.ones((9, 9)))
    hair[:top + int(0.03 * SIZE)] = False
    hair[top + int(0.45 * SIZE):] = False
    dark = (luma < DARK * ndimage.median_filter(luma, size=MEDIAN)) & hair
    blocks = ndimage.binary_opening(dark, np.ones((1, BLOCK))) & ndimage.binary_opening(dark, np.ones((BLOCK, 1)))
    return float(blocks[hair].mean())


def test_dark_blocks_finds_a_block():
    # A flat field of hair with one dark 6 x 6 patch and one dark strand a pixel wide: only the patch counts.
    rgb = np.full((SIZE, SIZE, 3), 120.0)
    rgb[:8] = BACKGROUND
    rgb[100:106, 200:206] = 60.0
    rgb[100:160, 300] = 60.0
    assert 0 < dark_blocks(rgb) * (0.42 * SIZE - 18) * (SIZE - 18) < 40


@pytest.mark.parametrize("name", sorted(MOST))
def test_long_hair_from_behind_has_few_dark_blocks(name):
    assert dark_blocks(back(name)) <= MOST[name], round(dark_blocks(back(name)), 4)
