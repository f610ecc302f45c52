"""The hair defects of blind review A (issue 46, second pass), each measured where it comes from:

1. **Planks**: long hair meeting a shoulder or a hood went out level along it in one step (a card on edge,
   seen as a board sticking out past the shoulder): hanging hair moves out at most ``DRAPE`` metres per
   metre down (plus the few millimetres of a step's sway).
2. **Tips**: the cards' alpha held their strands (a texel or two wide, gaps between), which alias under a
   pixel: scattered pixels in our renderer, comb teeth after mipmaps in three.js, a bob's barcode. Every
   clump column's alpha is one run per row (its outline) that ends in a point.
3. **Hairline**: the scalp layer lit as the hair's full colour from well inside its hairline showed as a
   pale flat strip at the temple (and under grey curls as a white band); it is in the roots' shade to where
   its fill fades.

The renders' side (speckles in our picture of long hair's ends) is in ``tests/render/test_hair_tips.py``.
"""

from functools import cache

import numpy as np
import pytest
from helpers import random_settings

from workbench.body.hair import hair_pieces
from workbench.body.hair.bake import hair_head
from workbench.body.hair.buzz import PAINTED
from workbench.body.hair.canon import DRAPE, fitted
from workbench.body.hair.outline import CARD_POINT
from workbench.body.hair.pieces import SCALP_SHADE, SOFT_TIPS, edge
from workbench.body.hair.texture import CLUMPS, COLUMNS, V_END, pattern
from workbench.body.mesh import body_mesh
from workbench.options import HAIR_STYLES, TOP_STYLES, normalize_avatar_settings

STYLES = [s for s in HAIR_STYLES if s not in PAINTED]   # (styles with hair cards; a buzz cut is painted: test_buzz_review_o)
# Metres out a hanging point may move besides DRAPE per metre down (a strand's sway, resampling).
SWAY = 0.003


def _hanging(style: str) -> list[dict]:
    """Review-like settings with ``style`` over every top: seeded random bodies, the hair's style set."""
    out = []
    for k, s in enumerate(random_settings(8, seed=4601)):
        s = dict(s, hair=dict(s["hair"], style=style))
        s["outfit"] = dict(s["outfit"], topStyle=TOP_STYLES[k % len(TOP_STYLES)])
        out.append(normalize_avatar_settings(s))
    return out


@pytest.mark.parametrize("style", ["long", "bob"])
def test_hanging_hair_drapes_over_shoulders_and_hoods_at_a_slope(style):
    for s in _hanging(style):
        mesh = body_mesh(s)
        head = hair_head(mesh, s["outfit"]["topStyle"], s["outfit"]["bottomStyle"])
        g = fitted(mesh, style, 0, head)
        p, fall = g.cards.pts, g.cards.hanging
        rho = np.hypot(p[..., 0] - head.centre[0], p[..., 2] - head.centre[2])
        both = fall[:, 1:] & fall[:, :-1]
        out = rho[:, 1:] - rho[:, :-1]
        down = p[:, :-1, 1] - p[:, 1:, 1]
        excess = np.where(both, out - DRAPE * np.maximum(down, 0) - SWAY, -1.0)
        assert excess.max() <= 0, (s["gender"], s["bodyShape"], s["outfit"]["topStyle"], float(excess.max()))


def _runs(row: np.ndarray) -> int:
    on = row >= 128
    return int(on[0]) + int(np.count_nonzero(on[1:] & ~on[:-1]))


@pytest.mark.parametrize("style", [s for s in STYLES if s != "curly"])
def test_every_clump_card_is_one_outline_that_ends_in_a_point(style):
    """(Curly's coils keep their strands in the alpha: a coil's frizz, and its soft hairline.)"""
    alpha = (pattern(style)["alpha"] >> 24).astype(np.uint8)
    cw = alpha.shape[1] // 2 // COLUMNS
    for c in range(CLUMPS):
        col = alpha[:, c * cw:(c + 1) * cw]
        runs = [_runs(r) for r in col]
        assert max(runs) <= 1, (style, c, max(runs))              # no strand apart from its clump
        width = (col >= 128).sum(1)
        rows = np.flatnonzero(width)
        last = rows.max()
        assert width[rows.min(): last + 1].min() > 0, (style, c)   # no row cut out of it
        # A point: the clump's last rows far narrower than its body. (Long hair's cards narrow to their points in their
        # triangles, outline.CARD_POINT, measured as drawn at every mipmap level by test_hair_tips_review_k: its clumps
        # keep their width to the column's end, its last rows 0.94 of the column, as its body.)
        if style in CARD_POINT:
            assert last == len(col) - 1 and width[last] >= 0.9 * np.median(width[rows]), (style, c)
            continue
        if style in SOFT_TIPS:
            # (A style whose tips are blended, pieces.SOFT_TIPS, is seen to its alpha's last texel, fading there,
            # outline.FADE, not cut at 0.5: its point is how wide its last rows are with any alpha at all. Its rows over
            # 0.5 end 0.73 to 0.8 of its body's width since the fade, review W's defect 5; the alpha summed across
            # its last rows, which the fade drives to nothing, passed a blunt clump too (review of pass 33: 0.039);
            # with any alpha, a pointed clump's last rows are 0.26 of its body's width, a blunt one's 1.0.)
            covered = (col > 0).sum(1)
            any_rows = np.flatnonzero(covered)
            end = any_rows.max()
            assert covered[end - 2: end + 1].max() <= 0.35 * np.median(covered[any_rows]), (style, c)
            continue
        assert width[last - 2: last + 1].max() <= 0.25 * np.median(width[rows]), (style, c)


@cache
def _pieces(style):
    return hair_pieces(body_mesh(normalize_avatar_settings({"gender": "masculine", "hair": {"style": style}})), style, 0)


@pytest.mark.parametrize("style", STYLES)
def test_the_scalp_layer_is_no_lighter_than_the_roots_shade_at_its_hairline(style):
    band = _pieces(style)["Hair_Fringe"]
    # The layer's (the atlas's right half) band inside the hairline, where its fill is opaque.
    lo = edge(style)[0]
    at = band.uv[:, 1] * V_END
    edges = (band.uv[:, 0] >= 0.5) & (at > lo - 0.06) & (at < lo)
    assert edges.any()
    shade = band.colors[edges]
    assert shade.max() <= SCALP_SHADE + 1e-6, (style, float(shade.max()))
