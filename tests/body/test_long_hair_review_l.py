"""Blind review L's long hair (issue 46, defect 7; long hair rated 3.5/10, the lowest style): seed 4622's #4, long red
hair, "visible flat strips, striping, a light gap at the crown".

- The light gap: long hair's centre parting. Its cards rise up to a centimetre off the head either side of it, and the
  scalp layer under it lay 4 mm off the skin: seen from the front (and at three quarters) the parting was a notch in
  the head's outline, the backdrop showing in it, the cards beside it standing over it as dark flakes. Now the layer
  stands higher along the parting (:data:`workbench.body.hair.scalp.PART_LIFT`). Measured: in the service's portrait
  (:func:`workbench.render.render`) from the front and turned 35 degrees, the backdrop's pixels inside the head's
  outline (closed over 9 pixels) in the top fifth of the picture under the hair's top. On main 14 and 13; now 0 and 0.
- The striping: long hair hangs in layers 6 to 22 mm out from the body, and each card under the outermost was shaded
  darker the deeper it lay (:mod:`workbench.body.hair.occlusion`): seen from behind, the inner cards between the outer
  ones drew dark bands a card wide down the back, each card's edge a hard line between two shades. Now the outermost
  centimetre of hanging long hair is all in the full light (:data:`workbench.body.hair.pieces.FLAT`), the deeper still
  in shade. Measured: in the portrait from behind and at 145 degrees, the hair's brightness down each column over the
  upper back (55 to 85 % of the picture's height) averaged, and that profile across the back band-passed (smoothed
  over 2 pixels less smoothed over 25: the cards' scale, 1 to 4 cm, not the strands' nor the hair's round): its spread
  over its mean. On main 0.058 and 0.046 (0.052 together); now 0.045 and 0.039 (0.042).
"""

from functools import cache

import numpy as np
import pytest
from built import built_rest as build_avatar  # one build per run, no face shapes (tests/built.py)
from helpers import random_settings
from scipy import ndimage

from workbench.options import ModelOptions
from workbench.render import render

BACKGROUND = (236, 238, 242)
SIZE = 512
MOST_GAP = 3            # pixels of backdrop inside the crown's outline (main: 14 and 13)
MOST_BANDS = 0.047      # the two views' band-passed spread together (main: 0.052)


@cache
def glb() -> bytes:
    """Review L's #4: long red hair (#AD653F), feminine, heavy."""
    s = random_settings(12, 4622)[3]
    assert s["hair"] == {"style": "long", "color": "#AD653F"}
    return build_avatar(s, ModelOptions(lod=0, animations=("idle",)))


@cache
def picture(yaw: float) -> np.ndarray:
    g = glb()
    im = render(g, size=SIZE, camera="portrait", background=BACKGROUND, pose=(g, 0.0), yaw_deg=yaw)
    return np.asarray(im.convert("RGB")).astype(float)


def drawn(rgb: np.ndarray, level: float) -> np.ndarray:
    return np.abs(rgb - np.array(BACKGROUND)).sum(2) > level


def crown_gap(yaw: float) -> int:
    """Pixels of backdrop inside the head's outline (closed over 9 pixels) in the top fifth under the hair's top."""
    on = drawn(picture(yaw), 12)
    top = np.flatnonzero(on.any(1))[0]
    band = np.zeros_like(on)
    band[top:top + SIZE // 5] = True
    closed = ndimage.binary_closing(on, structure=np.ones((9, 9)), border_value=0)
    return int((closed & ~on & band).sum())


def bands(yaw: float) -> float:
    """The spread (over its mean) of the hair's brightness across the upper back, column by column, band-passed to the
    cards' scale (see the module's text)."""
    rgb = picture(yaw)
    luma = rgb @ np.array([0.2126, 0.7152, 0.0722])
    hair = ndimage.binary_erosion(drawn(rgb, 30), np.ones((15, 15)))
    rows = slice(int(0.55 * SIZE), int(0.85 * SIZE))
    cols = hair[rows].all(0)
    profile = luma[rows][:, cols].mean(0)
    band = ndimage.gaussian_filter1d(profile, 2) - ndimage.gaussian_filter1d(profile, 25)
    return float(band.std() / profile.mean())


@pytest.mark.parametrize("yaw", [0.0, -35.0])
def test_no_backdrop_in_the_long_hairs_parting(yaw):
    assert crown_gap(yaw) <= MOST_GAP, crown_gap(yaw)


def test_long_hair_hangs_without_card_wide_bands():
    both = [bands(180.0), bands(145.0)]
    assert np.mean(both) <= MOST_BANDS, [round(b, 4) for b in both]
