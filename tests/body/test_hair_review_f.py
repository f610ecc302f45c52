"""Review F's hair (issue 46, defect 3: "The bobs are one rigid shell with painted streaks and chopped, stepped
ends ... Should be: layered cards with tapered, broken-up tips"), measured as :mod:`test_hair_review_e` measures
review E's (the avatar drawn with its hair and without it by one camera, ``h`` per pixel 0 to 1):

- **Ends that thin out** (the bob from behind): over the nape's columns, the share of them with hair in each row;
  from the last row where at least :data:`FULL` of them have hair to the last where :data:`SOME` do, at least
  :data:`LEAST_THINNING` pixels (the cards' hem cut at once: 8 to 10 pixels; with the ends going on past it in
  blended strands of their own lengths, :mod:`workbench.body.hair.ends`: 18 to 25). Blind review S called those
  strands "frayed ends" and asked for blunt ends (tests/render/test_bob_ends_review_s.py): the bob sends none now,
  and its hem thins over the curve up to the nape and its clumps' rounded points alone: 10 / 10 / 12 pixels (main
  f72ad2e 18 / 18 / 19). The bound, :data:`LEAST_THINNING`, is 9 (was 15): review S reverses review F's ask, and what
  is left of this test is that the hem is not cut out at once under the cards' full rows (3 pixels or fewer).
- **Broken up, not a comb**: those strands go on past their cards' tips by lengths that differ (a comb is teeth
  of one length), and only from hanging tips, blended in the fringe (the cards' own hem stays no comb:
  :mod:`test_hair_review_e`).
"""

import numpy as np
import pytest
from helpers import body_of
from test_hair_review_e import hairness

from workbench.body.hair import hair_pieces
from workbench.body.hair.canon import fitted
from workbench.body.hair.ends import ENDS, end_wisps
from workbench.body.hair.head import head_of

FULL, SOME = 0.9, 0.1
# (9 -> 7, 2 December, pass 42, knowingly: bob42 hangs the front locks behind the jaw's angle, blind review AF's "the
# front lock slices across the cheek and jaw", and draws the sides in to 78 degrees; from behind the hem's middle half
# is 10 / 8 / 11 pixels (main 10 / 14 / 18), the hem the same to the eye, curved up to the nape, not cut at once
# (/tmp/bob42/f1-cmp.png, body 1, main left); what this test keeps is the cut at once, 3 pixels or fewer.)
LEAST_THINNING = 7


def thinning(h: np.ndarray) -> int:
    """Pixels over which a bob's hem goes from hair in :data:`FULL` of the nape's columns to :data:`SOME` (from
    behind: the middle half of the hair's width)."""
    hair = h >= 0.5
    cols = np.flatnonzero(hair.any(0))
    mid, half = (cols.min() + cols.max()) // 2, (cols.max() - cols.min()) // 4
    cover = hair[:, mid - half: mid + half].mean(1)
    full = np.flatnonzero(cover >= FULL).max()
    some = np.flatnonzero((cover >= SOME) & (np.arange(len(cover)) > full))
    return int(some.max() - full) if len(some) else 0


@pytest.mark.parametrize("k", [0, 1, 2])
def test_a_bobs_ends_thin_out_from_behind(k):
    assert thinning(hairness(k, "bob", 180.0)) >= LEAST_THINNING, (k, thinning(hairness(k, "bob", 180.0)))


def test_the_measure_sees_a_blunt_cut():
    """The same render with every row under the hem's full rows cleared (a blunt cut) fails the measure."""
    h = hairness(0, "bob", 180.0).copy()
    hair = h >= 0.5
    cols = np.flatnonzero(hair.any(0))
    mid, half = (cols.min() + cols.max()) // 2, (cols.max() - cols.min()) // 4
    full = np.flatnonzero(hair[:, mid - half: mid + half].mean(1) >= FULL).max()
    h[full + 3:, mid - half: mid + half] = 0
    assert thinning(h) < LEAST_THINNING


@pytest.mark.parametrize("style", sorted(ENDS))
@pytest.mark.parametrize("lod", [0, 1])
def test_the_ends_go_on_past_hanging_tips_by_lengths_of_their_own(style, lod):
    mesh = body_of("feminine")
    head = head_of(mesh)
    cards = fitted(mesh, style, lod).cards
    ends = end_wisps(cards, head, style, lod)
    if ENDS[style][lod] == 0:
        assert len(ends.pts) == 0
        return
    tips = cards.pts[cards.hanging[:, -1], -1]
    assert len(ends.pts) >= 0.5 * ENDS[style][lod] * len(tips)
    # Each its own length (a comb's teeth are one)...
    length = np.linalg.norm(np.diff(ends.pts, axis=1), axis=2).sum(1)
    assert np.std(length) > 0.1 * np.mean(length), (np.mean(length), np.std(length))
    if style == "bob":
        # ...and a bob's end about its hem (the lowest card tip within 2 cm round the head), each its own length.
        near = np.linalg.norm(ends.pts[:, -1][:, None, [0, 2]] - tips[None, :, [0, 2]], axis=2) < 0.02
        below = np.where(near, tips[None, :, 1], np.inf).min(1) - ends.pts[:, -1, 1]
        # (0.004, was 0.005: main's median was 5.1 mm; the bob lying lower over the forehead (review H) moved its front
        # strands' tips by a share of the growth step (8 mm), to 4.6 mm at LOD 0, the ends as long as before.)
        # (Was: a median over 4 mm below, spread over 0.3 of it; main's 4.6 mm. Blind review L called the bob's hem
        # "spiky tips": its ends now 3 to 5 mm wide and at most 1 cm past their cards' tips, turned under 1.5 cm
        # (canon.TUCK), they end about the hem, not below it: medians -2.9 and -2.2 mm at LOD 0 and 1, spread 5.3 and
        # 5.4 mm; so at most 6 mm over the hem, each its own length.)
        assert np.median(below) > -0.006 and np.std(below) > 0.003, (np.median(below), np.std(below))
    # ...blended, in the fringe, and there in the avatar's pieces.
    fringe = hair_pieces(mesh, style, lod)["Hair_Fringe"]
    # (Below the lowest tip by 5 mm; by 0.4 of the style's reach where that is less: the bob's ends run 6 mm past their
    # tips since blind review Q called 1 cm of them "straw-like, ragged ends" (tests/render/test_bob_hem_review_q.py),
    # 3.9 and 2.8 mm under its lowest tip at LOD 0 and 1, main's 1 cm ends more. Long hair's bound stays 5 mm.)
    assert fringe.positions[:, 1].min() < tips[:, 1].min() - min(0.005, 0.4 * ENDS[style][2])
