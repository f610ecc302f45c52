"""Blind review AG's long hair (issue 46, seed 4643; long rated 3/10, the lowest hair): "two flat curtains standing off
the neck" (#7, #12). The hair behind the ears turned down the back from 0.4 skull radii under the skull's centre
(:data:`workbench.body.hair.long.BACK_TURN`): by the ear lobe it hung behind the head, hidden behind the neck from the
front, so between the neck and the front locks hanging from the temples the backdrop showed: two panels in the air,
nothing behind them. Now it hangs on beside the nape to under the jaw (0.7 radii) before it turns, and from the front
the hair behind the neck fills the space between the neck and the locks, as a mass of hair does.

Measured on #7 and #12's front portraits (the service's portrait camera, 512 px, LOD 0, the idle clip's first frame):
per row, the backdrop pixels between the run of the figure through the picture's centre column (the face, the neck)
and the next thing out on each side (the hair), counted only where something is out there; summed over the rows. On
main 229 and 462 pixels; now 55 and 92.
"""

from functools import cache

import numpy as np
import pytest
from built import built_rest as build_avatar  # one build per run, no face shapes (tests/built.py)
from helpers import random_settings

from workbench.options import ModelOptions, normalize_avatar_settings
from workbench.render import render

BACKDROP = (236, 238, 242)
# Pixels of backdrop between the neck and the hair, each of review AG's long-haired avatars (main 229 and 462; now 55
# and 92).
MOST_GAP = 150


def neck_gap(rgb: np.ndarray) -> int:
    """The backdrop's pixels in ``rgb`` (a front portrait on :data:`BACKDROP`) between the figure's run through the centre
    column and whatever lies further out in the same row (see the module's text)."""
    bg = np.abs(rgb - BACKDROP).sum(-1) <= 12
    h, w = bg.shape
    c = w // 2
    total = 0
    for row in bg:
        if row[c]:
            continue
        solid = np.flatnonzero(~row)
        # the run through the centre: from the last backdrop pixel left of it to the first right of it
        holes_left, holes_right = np.flatnonzero(row[:c]), np.flatnonzero(row[c:]) + c
        if not len(holes_left) or not len(holes_right):
            continue
        left, right = int(holes_left[-1]), int(holes_right[0])
        outer_left, outer_right = solid[solid < left], solid[solid > right]
        if len(outer_left):
            total += left - int(outer_left[-1])
        if len(outer_right):
            total += int(outer_right[0]) - right
    return total


@cache
def front(which: int) -> np.ndarray:
    """Review AG's #``which`` (its sheets' draw: ``make_review_sheets.py --seed 4643``) from the front, as an array."""
    draw = random_settings(12, 4643, with_added=True, heads=True, features=True, palettes=True, spread=True)
    s = normalize_avatar_settings(draw[which - 1])
    assert s["hair"]["style"] == "long"
    glb = build_avatar(s, ModelOptions(lod=0, animations=("idle",)))
    return np.asarray(render(glb, size=512, camera="portrait", background=BACKDROP, pose=(glb, 0.0)).convert("RGB"),
                      float)


@pytest.mark.parametrize("which", (7, 12))
def test_long_hair_hangs_behind_the_neck_not_as_two_curtains_off_it(which):
    assert neck_gap(front(which)) <= MOST_GAP, neck_gap(front(which))


def test_the_measure_finds_backdrop_between_neck_and_hair():
    rgb = np.zeros((60, 100, 3)) + BACKDROP
    rgb[:, 40:60] = (150, 110, 90)          # a neck down the middle
    assert neck_gap(rgb) == 0               # nothing beside it: nothing measured
    rgb[:, 20:30] = rgb[:, 70:80] = (90, 60, 40)
    assert neck_gap(rgb) == 60 * 20         # two curtains, 10 pixels off it either side
    rgb[:, 30:40] = rgb[:, 60:70] = (60, 40, 30)
    assert neck_gap(rgb) == 0               # hair behind the neck fills it
