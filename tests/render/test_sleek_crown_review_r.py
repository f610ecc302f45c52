"""Blind review R's slicked buns and ponytail (issue 46, defect 2, seed 4628's #1 bun #5F4B3D, #5 bun #BA9A79, #4
ponytail #00634C): "a clay shell with rectangular brush dashes". What sleek28 left of it: zigzag patches on the crown
and short dark patches at the nape, where the cards converge on the bun or the tie.

There the cards, each as wide as at its root, lay 8 to 10 deep round a bun's base (19 at the tie), and crossing at
heights the locks could not part by more than a flat card's middle dips under its edges, cut through each other in
patches of either one's strands (:data:`workbench.body.hair.sleek.DEEP`). They now narrow where they converge
(:func:`workbench.body.hair.sleek.converging`), their strands as wide as before (:func:`workbench.body.hair.sleek.narrowed`).

Measured from behind (512 px portrait) with review R's dash measure
(:func:`test_sleek_dashes_review_r.strand_correlation`: the fine shade's correlation along the strands over the hair's
pixels; the bun and the tail's top in it are unchanged): on main 7cee4d8 #1 0.619, #5 0.655, #4 0.773; now 0.664,
0.682 and 0.808 (bounds between).
"""


import numpy as np
import pytest
from helpers import random_settings
from scipy import ndimage
from test_sleek_dashes_review_r import HAIR_DIFF, PROBE, SEED, _view, strand_correlation

BEHIND = 180.0
# The least correlation (main: #1 0.619, #5 0.655, #4 0.773; crown28 0.664, 0.682, 0.808). Moved by slick33 (review W's
# "carved wood": each sleek card's dark core showing as a brown rim round its root end and sides, workbench.body.hair.clumps
# .COVER): the rims ran along the strands and counted as shade that runs on; with them gone and the strands' own shades
# finer, 0.635, 0.654, 0.774, the crown and nape seen from behind in fine strands, no zigzags or dark patches back
# (/tmp/slick33/reviewR-before-after.png).
# level35 (pass 35, the head level in the power stance, #5's 6 degrees less chin-up): #5 0.649, its bound 0.65 -> 0.645.
# hair38 (review AB's "wood grain" on blond sleek hair, workbench.body.hair.texture.LIGHT_EVEN): light sleek hair's locks
# evened across to 0.4 of their spread, #5's blond #BA9A79 0.649 -> 0.590, its bound 0.645 -> 0.58: the locks' bands ran
# on along the strands and counted as shade that runs on; from behind at 512 px the crown is softer, in fine strands, no
# zigzags or dark patches back (/tmp/hair38/cmp-r5.png). #1 and #4 (brown, green) unchanged.
# sleek39 (review AC's "paddle" ponytail, workbench.body.hair.tail.THINS_FROM and SAG): #4's tail tapers and swells
# under its tie, not over it, so less of the picture from behind is tail and more the nape's converging hair: 0.773 ->
# 0.769, its bound 0.77 -> 0.765; the crown's and nape's strands as before seen from behind (AC's #2 and #11 at 145
# and 180 degrees, /tmp/sleek39/cmp7.png).
# tail40 (review AD's "single flat slab": the tail's clumps part and taper at its end, workbench.body.hair.tail
# .LOCK_FROM): #4 0.769 -> 0.7646, the cap's cards the same bytes; from behind at 512 px the crown and nape the same
# fine strands, the tail's lower part in parted locks (/tmp/t40/r4-cmp.png, main left): its bound 0.765 -> 0.76.
LEAST = {1: 0.63, 5: 0.58, 4: 0.76}


@pytest.mark.parametrize("index", sorted(LEAST))
def test_sleek_crown_and_nape_run_in_strands(index):
    assert random_settings(12, SEED, with_added=True)[index - 1]["hair"]["style"] in ("bun", "ponytail")
    own = _view(index, None, BEHIND)
    hair = ndimage.binary_opening(np.abs(own - _view(index, PROBE, BEHIND)).sum(2) > HAIR_DIFF)
    assert hair.sum() > 20000, int(hair.sum())
    c = strand_correlation(own, hair)
    assert c >= LEAST[index], round(c, 3)
