"""Blind review Q's defect 3, in part (issue 46): seed 4627's #10, white curls (#C6C6C6) on a deep skin, showed
dark grey and black blotches through the white in our portraits. The cause: the curls' far sides and the coils under
the outer ones, which the key does not reach, lit by the ambient alone. Long hair's and the bob's take the light their
strands pass on (``Lights.hair_wrap``, ``hair_ambient``: :func:`workbench.render.raster.hair_scatter`, review L), but
curls (a hair material without anisotropy) were left out of it, so a light curl's shaded side drew near black.

Measured on #10 as the review sheets draw it (its body, stance and curls, LOD 0, the idle clip's first frame, the
portrait from the front) at :data:`SIZE` px: the hair's pixels (where an emissive green given to the hair shows) and
the share of them more than :data:`DARKER` CIE L* below their median: main 0.033, now 0.007 (at most
:data:`MOST_DARK`; 25 L* below: 0.063, now 0.029; the median 53.9 L*, now 56.7). Curls take ``Lights.curl_scatter``
(0.6) of straight hair's scatter times that scatter again (white curls 0.6, brown ones little), so the coils keep
depth between them. Guard: black
curls stay dark (their mean L* 5.7 on main and now, at most :data:`BLACK_MOST`: a black hair's albedo gets none).
Since curly38 the hair's pixels leave out those where the skin shows (:func:`skin_shows`): light curls on a deeper skin
show it between their first roots at the forehead (blind review AB's defect 4), and the scalp layer there, drawn in the
skin's colour, counted as hair, was 0.076 of them "dark"; without them 0.0127 on main and 0.0127 now (the bound kept).
"""

from __future__ import annotations

from functools import cache

import numpy as np
from helpers import random_settings
from test_hair_underlayer_review_l import BACKDROP, SIZE, hair_pixels, lightness, posed_portrait

from workbench.render.raster import draw

WHITE, BLACK = "#C6C6C6", "#1A1A1A"
DARKER = 30.0
MOST_DARK = 0.015
SHOWS = 60.0
BLACK_MOST = 8.0


@cache
def view(color: str, yaw: float = 0.0):
    """#10 in curls of ``color``, posed as the review sheets stand it, framed for the portrait."""
    ten = random_settings(12, 4627)[9]
    assert ten["hair"]["style"] == "curly"
    return posed_portrait(dict(ten, hair={"style": "curly", "color": color}), yaw)


@cache
def picture(color: str) -> np.ndarray:
    posed, cam = view(color)
    return draw(posed, cam, SIZE, background=BACKDROP)[..., :3]


@cache
def hair_mask() -> np.ndarray:
    """The pixels the hair covers (test_hair_underlayer_review_l.hair_pixels)."""
    return hair_pixels(*view(WHITE), picture(WHITE))


@cache
def skin_shows() -> np.ndarray:
    """The pixels where the white-haired picture is the skin's, within :data:`SHOWS` of #10 drawn bald (the same
    camera): where curls lighter than a deep skin leave the skin showing between their first roots at the forehead
    (:func:`workbench.body.hair.ground.grounded`, blind review AB's defect 4), the scalp layer covers it in the skin's
    own colour; those are no blotches in the hair."""
    posed, cam = view(WHITE)
    bald, _ = posed_portrait(dict(random_settings(12, 4627)[9], hair={"style": "none", "color": WHITE}), 0.0)
    return np.abs(draw(bald, cam, SIZE, background=BACKDROP)[..., :3].astype(float)
                  - picture(WHITE).astype(float)).sum(-1) <= SHOWS


def dark_share(color: str) -> float:
    """The share of the hair's pixels (not where the skin shows, :func:`skin_shows`) more than :data:`DARKER` L* below
    their median."""
    ls = lightness(picture(color)[hair_mask() & ~skin_shows()])
    return float(np.mean(ls < np.median(ls) - DARKER))


def test_the_mask_is_the_hair():
    assert hair_mask().sum() > 0.05 * SIZE * SIZE, int(hair_mask().sum())


def test_white_curls_have_no_dark_blotches():
    assert dark_share(WHITE) <= MOST_DARK, round(dark_share(WHITE), 3)


def test_black_curls_stay_dark():
    mean = float(lightness(picture(BLACK)[hair_mask()]).mean())
    assert mean <= BLACK_MOST, round(mean, 1)
