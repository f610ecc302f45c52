"""Short and curly hair as our renderer draws them from the front (blind review E, defect 4: "curly and short
hair are shells ... helmet-like hair; curly hair should have volume over the top and a soft, broken hairline").

- **Helmet**: the top of the hair's outline in a front portrait, its roughness: how far (per mille of the
  picture) the topmost hair pixel of each column strays from a running median of its neighbours, over the
  middle of the head. A crop whose strands all lay back down at one height drew a smooth arc, and curls lying
  back cut short over the forehead a smooth painted cap; tufts that lift and coils that stand break it up.
- **Grey band**: curly hair's blended fringe (its scalp layer's band at the hairline, clear past its last
  hairs down the forehead) was taken for glass (a material with no anisotropy), its reflections not thinned
  by its coverage: over deep skin a pale grey strip at the hairline ending in a white line. Where the hair is
  clear, the forehead is drawn as the bald head's.
"""

import numpy as np
import pytest
from built import built_rest as build_avatar  # one build per run, no face shapes (tests/built.py)
from helpers import random_settings
from scipy import ndimage

from workbench.options import ModelOptions, normalize_avatar_settings
from workbench.render import render
from workbench.render.framing import frame
from workbench.render.pictures import _posed
from workbench.render.raster import draw
from workbench.render.scene import Model

SIZE = 384
# Columns either side over which the outline's running median is taken (about 2.5 cm at the head).
WINDOW = 15
# Per mille of the picture, at least (main before review E's pass: short 0.14 to 0.35, curly 5.0 to 6.5; now 0.73 to
# 0.97 and 7.9 to 8.8; with the faces of the same round (faces7: these bodies' heads shaped by more controls) short
# 0.50 to 1.18, so short's bound sits between the helmet's worst and the tufts' least). Curly 7.04 to 8.23 with
# face8's heads (7.81 to 9.53 before: the third body's head lost a few tall wisps at the crown, its coils standing
# as broken in the portrait), hence 6.8, over the smooth cap's 6.5 still.
ROUGH = {"short": 0.45, "curly": 6.8}


def roughness(alpha: np.ndarray) -> float:
    """The top outline's roughness (see the module's text) of an RGBA picture's opaque pixels ``alpha`` > 128:
    over the middle 70 % of the columns the top 12 % of the figure spans.

    >>> a = np.zeros((100, 100)); a[30:, 20:80] = 255
    >>> roughness(a)
    0.0
    """
    on = alpha > 128
    rows = np.flatnonzero(on.any(1))
    band = on[rows[0]: rows[0] + int(0.12 * len(alpha))]
    cols = np.flatnonzero(band.any(0))
    lo, hi = cols[0], cols[-1]
    keep = np.arange(lo + int(0.15 * (hi - lo)), hi - int(0.15 * (hi - lo)) + 1)
    top = np.argmax(on[:, keep], axis=0).astype(float)
    smooth = ndimage.median_filter(top, size=WINDOW, mode="nearest")
    return float(1000.0 * np.mean(np.abs(top - smooth)) / len(alpha))


def _front(settings: dict) -> np.ndarray:
    glb = build_avatar(normalize_avatar_settings(settings), ModelOptions(lod=0, animations=("idle",)))
    return np.asarray(render(glb, size=SIZE, camera="portrait", pose=(glb, 0.0), shadow=False))[..., 3]


@pytest.mark.parametrize("style", ["short", "curly"])
def test_the_hairs_top_outline_breaks_up(style):
    # Random bodies (no hat, glasses off: their frames are not hair), the style set.
    found = []
    for s in random_settings(3, seed=4631):
        s = dict(s, hair=dict(s["hair"], style=style), glasses="none")
        found.append(roughness(_front(s)))
    assert min(found) >= ROUGH[style], (style, np.round(found, 2).tolist())


# Review E's S3#1: deep skin, light brown curls. Grey levels (0 to 255) by which the top of the forehead (the bald
# head's top 48 rows in each column, seen from the front), where the hair is not plainly there (it changes the
# picture by under 40 levels), is lighter than the bald head's, on average (main: 13.5 and 17.1, its glass sheen; now
# 2.4 and 4.5).
# Moved from 8.0 to 12.5 by blind review K's pass (curls17): main stood at 4.4 and 6.4 there, the window filled by the
# scalp layer's smooth band (review K's "skull cap"), in its shade darker than the curls. With curls over the front
# hairline the window is curls, whose shaded turns fall within 40 levels of the bald head and lighter: 9.5 and 11.9,
# no sheen (the glass sheen this caught stood at 13.5 and 17.1).
DEEP = {"skinTone": "#452A21", "hair": {"style": "curly", "color": "#AB6A3C"}, "glasses": "none"}
SHEEN = 12.5


@pytest.mark.parametrize("gender", ["masculine", "feminine"])
def test_curly_hairs_band_at_the_hairline_is_not_a_grey_sheen(gender):
    def picture(settings, cam=None):
        posed = _posed(Model(build_avatar(normalize_avatar_settings(settings), ModelOptions())), "preview")
        cam = cam or frame(posed, "portrait")
        return draw(posed, cam, 512, background=(255, 255, 255))[..., :3].astype(float).mean(-1), cam

    bald, cam = picture(dict(DEEP, gender=gender, hair={"style": "none"}))
    haired, _ = picture(dict(DEEP, gender=gender), cam)
    lighter = []
    for x in range(int(512 * 0.42), int(512 * 0.58)):                 # the middle of the forehead
        top = int(np.argmax(bald[:, x] < 200))
        diff = haired[top: top + 48, x] - bald[top: top + 48, x]
        lighter.extend(diff[np.abs(diff) < 40].tolist())
    assert len(lighter) > 200
    assert np.mean(lighter) <= SHEEN, (gender, round(float(np.mean(lighter)), 2))
