"""Blind review X's bald band at the hairline (issue 46, seed 4634, defect 2): "a coloured tint or skin band sits
between the hair cards and the forehead ... the hair looks like a cap" (#1's short crop, teal #46B6C6 on #C38C62).

Measured as review R's band (:mod:`test_hairline_band_review_r`: the front portrait, 512 px, glasses off, against the
same avatar drawn bald and drawn with its cards alone): in each column of the forehead's middle, the **band** is the
rows from the cards' lowest pixel down to the last row where the haired picture still differs from the bald one by
more than :data:`TINT` (the sum of the three channels' differences, 0 to 765): what the hairline's fade paints on the
skin below the cards (the short crop's fine hairs, :func:`workbench.body.hair.bald.front_hairs`), under the cards'
lower outline (the lowest card pixel within a few columns, as review R's test takes it). On main its median was 13
rows (8.1 mm at the forehead's depth, 0.62 mm a pixel; 19 rows, 11.9 mm, under each column's own lowest card pixel):
the fine hairs ran along the scalp layer's drawn-out line, 0.3 hairlines below the cards' roots, a tinted band of sparse
teal strokes the reviewer read as a bald strip. Now they end 0.1 hairlines past the hairline, not drawn out
(:data:`workbench.body.hair.bald.HAIRS_FADE`): 2 rows (9, 5.6 mm, under each column's own).
"""

from functools import cache

import numpy as np
from helpers import random_settings
from test_hairline_band_review_r import COLUMNS, SIZE, drawn, under_the_cards

TINT = 12.0
# The band's median height at most, rows of the 512 px portrait (main 13, now 2).
MOST_ROWS = 6


def review_x(index: int) -> dict:
    """Review X's #``index`` (its sheets' draw: ``make_review_sheets.py --seed 4634``)."""
    return random_settings(12, 4634, with_added=True, heads=True, features=True, palettes=True)[index - 1]


@cache
def band_rows(index: int) -> float:
    """The median height (rows) of the tinted band under the cards across the forehead's middle."""
    bald, haired, cards = drawn(review_x(index))
    tinted = np.abs(haired - bald).sum(-1) > TINT
    rows = []
    for x, edge in under_the_cards(cards).items():
        below = np.nonzero(tinted[edge + 1: SIZE // 2, x])[0]
        rows.append(int(below.max()) + 1 if len(below) else 0)
    assert len(rows) == int(SIZE * COLUMNS[1]) - int(SIZE * COLUMNS[0])
    return float(np.median(rows))


def test_review_x_settings():
    """The avatar measured is the one review X saw (its key: a short teal crop on a masculine slim body)."""
    s = review_x(1)
    assert (s["hair"], s["skinTone"], s["gender"]) == ({"style": "short", "color": "#46B6C6"}, "#C38C62", "masculine")


def test_no_bald_band_under_the_crop():
    rows = band_rows(1)
    assert rows <= MOST_ROWS, rows
