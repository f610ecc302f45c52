"""Blind review O: "The speckle-noise fabric textures ... look like a randomiser, not styling" ("less speckle noise").
A cloth's weave reads as a fine regular texture; its random part (a heather's paler fibres, a fleece's fuzz) stays
faint. Measured on each garment's texture (``cloth_texture``: what every renderer draws) over its plain cloth (no
band, seam or cord), as brightness less its blur over 1.5 texels (the fine texture), split into its regular part
(its mean per texel of a 30 x 24 tile, which every weave's repeat divides: it was 30 x 6 until review P's
sweater stitches 8 texels wide, not 6) and the rest, the random speckle:

- the random speckle's spread, over the cloth's mean brightness, at most :data:`SPECKLE` on a saturated red and a
  dark saturated blue (main's: red 4.2 to 6.0 %, blue 10 to 14.5 %: every eighth texel a sixth of the way to
  undyed cotton; now 2.7 to 3.6 % and 6.0 to 7.9 %);
- the weaves stay apart: the regular part's spread (of the brightness less its blur over :data:`STITCH` texels, the
  scale of a sweater's stitch; 1.5 texels, as for the speckle, until review P drew the sweater's stitches 8 texels
  wide and smooth, not 6 with hard one-texel edges that read as noise; main's figures at 3 texels:
  sweater 0.061, twill 0.026, jersey 0.0052, fleece 0.0018; now sweater 0.056) orders them as before (a sweater's knit over a twill's diagonal
  over a jersey's wales over a fleece's none), each at least :data:`APART` times the next.
"""

from __future__ import annotations

import numpy as np
import pytest
from scipy.ndimage import gaussian_filter

from workbench.body.outfit.cloth import shading, trim
from workbench.gltf.textures import cloth_texture

SPECKLE = {"#F03716": 0.04, "#1C2D79": 0.085}
APART = 2.0
STITCH = 3.0
STYLES = ("longsleeve", "trousers", "tee", "hoodie")


def fine_texture(style: str, colour: str, blur: float = 1.5) -> tuple[float, float]:
    """(random, regular): the spreads of the fine texture's two parts (the brightness less its blur over ``blur``
    texels) over the plain cloth, over its mean brightness (see the module's notes)."""
    plain = (trim(style) < 0.4) & (shading(style) > 0.8)
    lum = (cloth_texture(colour, style).astype(np.float64) / 255) @ [0.2126, 0.7152, 0.0722]
    fine = lum - gaussian_filter(lum, blur)
    n = len(lum)
    tile = (np.arange(n)[:, None] % 30) * 24 + np.arange(n)[None, :] % 24
    regular = (np.bincount(tile[plain], fine[plain], 720) / np.maximum(np.bincount(tile[plain], None, 720), 1))[tile]
    mean = lum[plain].mean()
    return float((fine - regular)[plain].std() / mean), float(regular[plain].std() / mean)


@pytest.mark.parametrize("colour", sorted(SPECKLE))
@pytest.mark.parametrize("style", STYLES)
def test_a_cloths_random_speckle_is_faint(style, colour):
    random, _ = fine_texture(style, colour)
    assert random <= SPECKLE[colour], round(random, 4)


def test_the_weaves_stay_apart():
    regular = [fine_texture(style, "#35AE78", STITCH)[1] for style in STYLES]
    assert all(a >= APART * b for a, b in zip(regular[:-1], regular[1:], strict=True)), [round(r, 4) for r in regular]
