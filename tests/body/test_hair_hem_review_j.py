"""Blind review J's "the bob's ragged hem" (issue 46, defect 6), measured on :mod:`test_hair_review_e`'s renders of
a bob from behind (``h`` per pixel, 512 px portraits): over the nape's columns (the middle half of the hair's
width) in windows of :data:`WINDOW` columns, the lowest row where :data:`FULL` of a window's columns have hair (the
hem where the hair is whole); the hem's raggedness is the RMS of those rows about a parabola through them (the hem's
own curve, shorter at the nape's middle). Main: 5.9, 5.5 and 7.2 px (its ends hanging up to 2.2 cm past the cards'
tips, :mod:`workbench.body.hair.ends`, in teeth of their own lengths); now 4.4, 4.4 and 4.7: at most
:data:`MOST_RAGGED`. Review F's thinning of the ends stays (:mod:`test_hair_review_f`).
"""

import numpy as np
import pytest
from test_hair_review_e import hairness

WINDOW = 8
FULL = 0.9
MOST_RAGGED = 5.0


def ragged(h: np.ndarray) -> float:
    """The RMS (pixels) of the whole hair's hem rows over the nape's windows about a parabola through them."""
    hair = h >= 0.5
    cols = np.flatnonzero(hair.any(0))
    mid, half = (cols.min() + cols.max()) // 2, (cols.max() - cols.min()) // 4
    nape = hair[:, mid - half: mid + half]
    rows = np.array([np.flatnonzero(nape[:, a:a + WINDOW].mean(1) >= FULL).max()
                     for a in range(0, nape.shape[1] - WINDOW + 1, WINDOW)], float)
    x = np.arange(len(rows))
    return float(np.sqrt(np.mean((rows - np.polyval(np.polyfit(x, rows, 2), x)) ** 2)))


def test_the_measure_sees_a_ragged_hem():
    """A straight hem with every other window's cut 12 px higher is ragged; the straight one is not."""
    h = np.zeros((100, 200))
    h[:60, 20:180] = 1.0
    assert ragged(h) < 0.5
    for a in range(60, 140, 16):
        h[48:60, a:a + 8] = 0.0
    assert ragged(h) > MOST_RAGGED


@pytest.mark.parametrize("k", [0, 1, 2])
def test_a_bobs_hem_is_even(k):
    assert ragged(hairness(k, "bob", 180.0)) <= MOST_RAGGED, round(ragged(hairness(k, "bob", 180.0)), 2)
