"""Blind review AC's defect 3 (issue 46, seed 4639): "#4's white hair also leaves a white gradient band over the dark
forehead (sheet 1, #4, col 4/5), which looks like the scalp or hairline texture bleeding onto the skin" (#4: long
#BEBEBD on a deep skin #40281D). Light hair on deep skin ends at its hairline in single light hairs over the skin, not
in a wash of the hair's colour fading down the forehead.

Measured as review R's band (:mod:`test_hairline_band_review_r`: the front portrait, 512 px, glasses off, against the
same avatar drawn bald): in each column of the forehead's middle, down to 8 rows over the brows, the haired picture's
CIE L* less the bald one's (the hair's **excess**); the hair's own is the column's largest; the **bleed** is the
excess summed over the rows under the last row where it is still 0.8 of the hair's, in rows of the hair's own
(a hard edge: 0; the hair's colour fading linearly to the skin over n rows: about n / 2.5). On main #4's median was
7.3 rows: the scalp layer's fill, drawn out over the forehead in long hair (:data:`workbench.body.hair.scalp.FRONT_FADE`),
in the hair's colour, white on the dark skin from the hairline down 13 rows. Now the fill's fade there is the skin's own
colour where the hair is lighter than the skin (:func:`workbench.body.hair.ground.grounded`, as light curls' since
review AB), its single hairs still the hair's: 3.5 rows. Review AC's #12 (#896E52, darker than its skin #9D7350) keeps
its fill: nothing grounded, its hairline as dark as before (its excess there negative).

Grounded so, the blended fringe's fine light wisps lay on the dark skin, not on the wash, a stipple of white dots along
the hairline in three.js: they are fainter where the fill is grounded (:data:`workbench.body.hair.ground.WISPS`), and
the light specks under the hairline are counted (:data:`SPECK`).
"""

from functools import cache

import numpy as np
from helpers import review
from scipy.ndimage import median_filter
from test_curly_band_review_ab import lightness
from test_hairline_band_review_r import COLUMNS, SIZE, brows_at, drawn

from workbench.options.colour import LUMA

# The bleed's median at most, rows (main 7.3, now 3.5).
MOST_BLEED = 5.0
FULL = 0.8
# Light specks under the hairline: pixels lighter than their 5 x 5 neighbourhood's median by SPECK levels of luma (0 to
# 255), over the forehead's middle (WIDE, shares of the picture's width) from ABOVE rows over the hairline (the median
# of the rows where the hair is still 0.8 of its own) to BELOW under it, at most MOST_SPECKS (main 1, under the white
# wash; the fill grounded with the fringe's wisps left as they were, white single hairs on the dark skin, 86; now 39).
SPECK = 20
WIDE = (0.33, 0.67)
ABOVE, BELOW = 0, 40
MOST_SPECKS = 55


@cache
def bleed(seed: int, index: int) -> tuple[float, float, int]:
    """(the median bleed in rows, the median of the hair's excess L*, the light specks) at the hairline of the
    review's #``index`` (see the module's text and :data:`SPECK`)."""
    s = review(seed, index)
    brow_row, _, _ = brows_at(s)
    bald, haired, _ = drawn(s)
    excess = lightness(haired) - lightness(bald)
    rows, hair, lines = [], [], []
    for x in range(int(SIZE * COLUMNS[0]), int(SIZE * COLUMNS[1])):
        col = excess[: int(brow_row) - 8, x]
        full = float(col.max())
        last = int(np.nonzero(col > FULL * full)[0].max())
        lines.append(last)
        rows.append(float(np.clip(col[last + 1:], 0, None).sum()) / full)
        hair.append(full)
    luma = haired @ LUMA
    specks = (luma - median_filter(luma, 5)) > SPECK
    line = int(np.median(lines))
    count = int(specks[line - ABOVE: line + BELOW, int(SIZE * WIDE[0]): int(SIZE * WIDE[1])].sum())
    return float(np.median(rows)), float(np.median(hair)), count


def test_review_ac_settings():
    """The avatars measured are the ones review AC saw: #4's white long hair on a deep skin, #12's brown on a tan."""
    a, b = review(4639, 4), review(4639, 12)
    assert (a["hair"], a["skinTone"]) == ({"style": "long", "color": "#BEBEBD"}, "#40281D")
    assert (b["hair"], b["skinTone"]) == ({"style": "long", "color": "#896E52"}, "#9D7350")


def test_light_long_hair_leaves_no_band_on_a_dark_forehead():
    rows, hair, _ = bleed(4639, 4)
    # (the hair itself still over the forehead's top, far lighter than the skin: a hairline measured, not none)
    assert hair > 40, hair
    assert rows <= MOST_BLEED, round(rows, 2)


def test_the_hairline_of_light_long_hair_on_a_dark_forehead_is_no_stipple():
    _, _, specks = bleed(4639, 4)
    assert specks <= MOST_SPECKS, specks
