"""Blind review AB's defect 4 (issue 46, seed 4638): "The curly hair on #5 ... A flat tan or blond 'scalp cap' band runs
across the forehead between the curls and the skin; on dark skin it reads as a headband." (#5: blond curls #C8B288 on a
deep skin #472C1F, masculine heavy.) On a head, light curls on deep skin leave the skin showing between the first
coils' roots at the hairline: no band of the hair's colour painted on the skin.

Measured as review R's band (:mod:`test_hairline_band_review_r`: the front portrait, 512 px, glasses off, against the
same avatar drawn bald, and the hair's cards drawn alone): in each column of the forehead's middle, the rows from just
under the cards' lower outline down to the brows where the hair shows over the skin (the three channels' difference
over :data:`SHOWS`), and over them the **band's lightness**: the haired picture's mean CIE L* less the bald one's. On
main #5's was 12.3 L* over the skin (the scalp layer's fill in the hair's colour: a tan band, 9 rows deep); now the
layer's fill there is the skin's own colour (:func:`workbench.body.hair.ground.grounded`), a little shaded by the coils,
and no row under the cards differs from the bald forehead by :data:`SHOWS` (0 L*, 0 rows). (In the skin's albedo under
the layer's vertex shade it was a dark rim, -11.9 L*, 6 rows.)
Review AA's #12 (its tight curls rated 6: #867257 on a lighter #DAB289) keeps its layer: the hair's depth over the
forehead, darker than the skin (main -38.3 L*, and the same now: its hair is darker than its skin, nothing grounded).
"""

from functools import cache

import numpy as np
import pytest
from helpers import review
from test_hairline_band_review_r import SIZE, brows_at, drawn, under_the_cards

from workbench.options.colour import LUMA, srgb_to_linear

SHOWS = 60.0
# #5's band at most this many L* from the bald skin's, either way (main +12.3).
MOST_BAND = 5.0
# AA #12's layer at least this many L* darker than its skin (main -38.3).
DARKER = -25.0


def lightness(rgb: np.ndarray) -> np.ndarray:
    """CIE L* of sRGB pixels (0 to 255)."""
    y = srgb_to_linear(rgb / 255.0) @ LUMA
    return np.where(y > 0.008856, 116 * np.cbrt(y) - 16, 903.3 * y)


@cache
def band(seed: int, index: int) -> tuple[float, float]:
    """(the band's mean L* over the bald skin's, its median depth in rows) under the curls of the review's #``index``
    (see the module's text)."""
    s = review(seed, index)
    brow_row, _, _ = brows_at(s)
    bald, haired, cards = drawn(s)
    top = int(brow_row) - 8                                # (over the brows themselves)
    shows = np.abs(haired - bald).sum(-1) > SHOWS
    lh, lb = lightness(haired), lightness(bald)
    depth, diff = [], []
    for x, e in under_the_cards(cards).items():
        m = shows[e + 1: top, x]
        depth.append(int(m.sum()))
        diff.append((lh[e + 1: top, x] - lb[e + 1: top, x])[m])
    assert SIZE == 512
    diffs = np.concatenate(diff)
    # (no row where the hair shows under the cards: no band, the skin there as the bald head's)
    return (float(diffs.mean()) if len(diffs) else 0.0), float(np.median(depth))


def test_review_settings():
    """The avatars measured are the ones the reviews saw: AB's #5 and AA's #12, curly."""
    ab, aa = review(4638, 5), review(4637, 12)
    assert (ab["hair"], ab["skinTone"]) == ({"style": "curly", "color": "#C8B288"}, "#472C1F")
    assert (aa["hair"], aa["skinTone"]) == ({"style": "curly", "color": "#867257"}, "#DAB289")


def test_light_curls_on_deep_skin_leave_no_band_on_the_forehead():
    lighter, rows = band(4638, 5)
    assert abs(lighter) <= MOST_BAND, (round(lighter, 2), rows)


@pytest.mark.parametrize("seed,index", [(4637, 12)])
def test_dark_curls_on_light_skin_keep_their_depth_at_the_hairline(seed, index):
    lighter, rows = band(seed, index)
    assert rows > 0 and lighter <= DARKER, (round(lighter, 2), rows)
