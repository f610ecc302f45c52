"""Blind review AA's helmet hairline on the bob (issue 46, seed 4637, defect 1, its costliest): "hair starts far back on
the skull with a hard edge ... a V/widow's-peak notch at the front, bare temples between the hair and the ear, and no
sideburns. The result is a huge bald forehead", worst on the bobs #4 (platinum #CCB18C, s1/r4/c4-5) and #6 (blue
#7499D5, s2/r2/c4-5), both masculine heads.

Measured as review Y's curly hairline (:mod:`test_curly_hairline_review_y`: the front portrait, 512 px, glasses off,
against the same avatar drawn bald): per column, the hairline is the lowest row over the brows where the haired
picture differs from the bald one by more than :data:`SHOWS` (the hair's colour over the skin, not a faint tint), its
height the columns' median in millimetres over the brows' mean height at their depth; at the **middle** (the
forehead's middle columns, review R's) and at the **temples** (13 columns round each brow's outer end). On main
#4 / #6 stood 54.5 / 71.9 mm over the brows at the middle and 24.9 / 22.1 at the temples: the bob's hairline was the
short crop's (the crop on the same heads stands as high at the middle), receding at the temples, and its cards rooted
inside 0.92 of it. Now the bob's hairline comes down over the forehead and fills the temples
(:data:`workbench.body.hair.head.HAIRLINE`'s ``bob``), its cards rooted to 0.96 of it
(:data:`workbench.body.hair.styles.BOB_ROOTS`): 45.5 / 56.9 mm and 19.2 / 11.0.
"""

from functools import cache

import numpy as np
import pytest
from test_crop_fuzz_review_aa import review_aa
from test_hairline_band_review_r import COLUMNS, SIZE, brows_at, drawn, hair_edge

SHOWS = 60.0
BOBS = (4, 6)
# The hairline's height over the brows' mean at most, mm, by avatar: at the middle (main 54.5 / 71.9, now 45.5 / 56.9;
# #6's forehead is its head's tallest, foreheadHeight 1, on a 202 cm body whose head grows with it) and at the
# temples (main 24.9 / 22.1, now 19.2 / 11.0).
HIGHEST = {4: (50.0, 22.0), 6: (64.0, 16.0)}


@cache
def over_the_brows(index: int) -> tuple[float, float]:
    """Millimetres (at the brows' depth) from the brows' mean height up to the hair's lower edge: (at the forehead's
    middle, at the temples)."""
    s = review_aa(index)
    brow_row, cm_up, ends = brows_at(s)
    bald, haired, _ = drawn(s)
    shows = np.abs(haired - bald).sum(-1) > SHOWS
    top = int(brow_row) - 8                                # (over the brows themselves)

    def edge(x: int) -> int:
        run = hair_edge(shows, top, x)
        assert run > 20, (index, x)                        # (the hair's edge in the picture, not its top)
        return run

    mm = 10.0 / (brow_row - cm_up)
    middle = [edge(x) for x in range(int(SIZE * COLUMNS[0]), int(SIZE * COLUMNS[1]))]
    temples = [edge(int(end) + k) for end in (ends.min(), ends.max()) for k in range(-6, 7)]
    return float((brow_row - np.median(middle)) * mm), float((brow_row - np.median(temples)) * mm)


def test_review_aa_settings():
    """The avatars measured are the ones review AA saw: its two bobs, on masculine heads."""
    assert [(review_aa(i)["hair"]["style"], review_aa(i)["gender"]) for i in BOBS] == [("bob", "masculine")] * 2


@pytest.mark.parametrize("index", BOBS)
def test_the_bobs_hairline_is_not_a_helmets(index):
    middle, temples = over_the_brows(index)
    assert middle <= HIGHEST[index][0], (index, middle, temples)


@pytest.mark.parametrize("index", BOBS)
def test_the_bobs_temples_are_covered(index):
    middle, temples = over_the_brows(index)
    assert temples <= HIGHEST[index][1], (index, middle, temples)
