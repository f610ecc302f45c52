"""Blind review AD's ponytail tail (issue 46, seed 4640, defect 5, ponytail 3.5): "ponytail is a single flat slab
hanging behind the ear", #1 (grey, s1/r1/c5) and #9 (brown, s3/r1/c5). A gathered tail's locks part and taper to
points at its end; the tail's clumps kept the tail's radius at that point to their ends, so each clump's cards ended
as wide as the tail was there, side by side: one blunt, square-cut end of parallel strands.

Measured on the tail's own cards as the avatar fits them (:func:`workbench.body.hair.canon.fitted`'s first extra
piece, LOD 0 as the previews draw it): each card's width at its last row over its widest, the median over the tail's
cards. On main 0.150 on both; now each clump is drawn to a point over its own last 40 % and moved out by the radius
it loses (:data:`workbench.body.hair.tail.LOCK_FROM`, ``LOCK_THIN``, ``SPREAD``): 0.032. docs/avatars.md, tail40.
"""

from functools import cache

import numpy as np
import pytest
from helpers import random_settings

from workbench.body.hair.bake import hair_head
from workbench.body.hair.canon import fitted
from workbench.body.mesh import body_mesh
from workbench.options import normalize_avatar_settings

PONYTAILS = (1, 9)
# A card's width at its tip over its widest, the median over the tail's cards, at most (main 0.150, now 0.032).
MOST_TIP = 0.08


def review_ad(index: int) -> dict:
    """Review AD's #``index`` (``make_review_sheets.py --seed 4640``)."""
    return random_settings(12, 4640, with_added=True, heads=True, features=True, palettes=True, spread=True)[index - 1]


@cache
def tips(index: int) -> float:
    s = normalize_avatar_settings(review_ad(index))
    mesh = body_mesh(s)
    head = hair_head(mesh, s["outfit"]["topStyle"], s["outfit"]["bottomStyle"])
    width = np.asarray(fitted(mesh, "ponytail", 0, head).extra[0].width, float)       # (cards, rows)
    return float(np.median(width[:, -1] / width.max(1)))


def test_review_ad_settings():
    assert [review_ad(i)["hair"]["style"] for i in PONYTAILS] == ["ponytail"] * 2


@pytest.mark.parametrize("index", PONYTAILS)
def test_the_tails_locks_end_in_points(index):
    assert tips(index) <= MOST_TIP, (index, tips(index))
