"""Blind review N's slicked hair (issue 46, defect 7): seed 4624's #2, a light brown ponytail (#947660) on deep skin
(#442F26), "white, semi-transparent wisps floating beside both temples (portrait)".

The sleek cards rooted down the sideburn run back over the ear to the tie; their lower edges stood out of the head's
outline above the ear in ragged points, the backdrop (ours) or their lit tips (three.js) between them and the ear.

Measured: in the front portrait (the review's pose and camera), row by row, how far (pixels) the outline with the hair
stands out of the outline without it (the hair's draws left out), the most over the :data:`ABOVE_EAR` rows above the
ear (the first row past the top of the head where the hair stands out a pixel at most), each side; the mean of the
two sides (after helper long22's measure). Review N's #2: on main 16 and 11 (13.5), now 10 and 6 (8); its #12, a
bun (#635146) on tan skin (#946C4A), with the same flared point over its left ear: on main 13 and 9 (11), now 12 and 8
(10). Now the sleek cards' edges are drawn in towards their middles where the head envelope under them rises over
the ear's rim (:func:`workbench.body.hair.cards.tucked`). (The hair's own depth beside the head is 6 to 8 pixels.)
"""

from dataclasses import replace
from functools import cache

import numpy as np
import pytest
from built import built_rest as build_avatar  # one build per run, no face shapes (tests/built.py)
from helpers import random_settings

from workbench.options import ModelOptions
from workbench.render.framing import frame
from workbench.render.pictures import _posed
from workbench.render.raster import draw
from workbench.render.scene import Model

BACKGROUND = (236, 238, 242)
SIZE = 512
ABOVE_EAR = 40          # rows over the ear
# The most pixels, the two temples' mean (main: #2 13.5, #12 11).
MOST_STANDOFF = {2: 10.5, 12: 10.5}


@cache
def standoff(number: int) -> tuple[int, int]:
    """Per side (left, right) of review N's #``number``'s front portrait, the most pixels the outline with the hair
    stands out of the outline without it over the :data:`ABOVE_EAR` rows above the ear."""
    s = random_settings(12, 4624)[number - 1]
    assert s["hair"]["style"] in ("ponytail", "bun"), s["hair"]
    g = build_avatar(s, ModelOptions(lod=0, animations=("idle",)))
    posed = _posed(Model(g), (g, 0.0))
    cam = frame(posed, "portrait")
    bald = replace(posed, draws=[d for d in posed.draws if not d.material.name.startswith("Hair")])
    figure, head = ((np.abs(draw(p, cam, SIZE, background=BACKGROUND)[..., :3].astype(float) - BACKGROUND).sum(-1) > 12)
                    for p in (posed, bald))
    rows = [y for y in range(SIZE) if head[y].any()]
    out = []
    for side in (lambda xs: -xs.min(), lambda xs: xs.max()):
        by_row = np.array([side(np.flatnonzero(figure[y])) - side(np.flatnonzero(head[y])) for y in rows])
        ear = len(rows) // 4 + int(np.flatnonzero(by_row[len(rows) // 4:] <= 1)[0])
        out.append(int(by_row[ear - ABOVE_EAR: ear].max()))
    return out[0], out[1]


@pytest.mark.parametrize("number", sorted(MOST_STANDOFF))
def test_sleek_hair_stands_out_of_no_temple(number):
    sides = standoff(number)
    assert np.mean(sides) <= MOST_STANDOFF[number], sides
