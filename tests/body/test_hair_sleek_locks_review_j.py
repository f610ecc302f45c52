"""Review J's slicked-back crown (issue 46, defect 3, bun and ponytail 3.5: "a painted helmet"): no combed structure.

Each sleek card lay at its own random height in the hair's layers (``styles.SLEEK_LAYERS``), and its shade follows
that height (:mod:`workbench.body.hair.occlusion`: deeper is darker), so neighbouring cards were each their own shade,
card by card, a brushstroke each, over one smooth shell. Combed hair lies in locks a few centimetres wide, running
the way it is combed: cards rooted near one another lie at nearly one height (their lock's,
:func:`workbench.body.hair.sleek.heights`), and their shade with it. Measured on the cards fitted to random bodies
(``canon.fitted``): the correlation of the heights of cards whose roots lie within :data:`NEAR` metres of each other
is at least :data:`LEAST_LOCK` (0.50 to 0.52 on main, where only the fit's common bend of neighbouring cards is shared;
0.87 to 0.88 now).
"""

from functools import cache

import numpy as np
import pytest
from helpers import random_settings

from workbench.body.hair.bake import hair_head
from workbench.body.hair.canon import fitted
from workbench.body.mesh import body_mesh
from workbench.options import normalize_avatar_settings

NEAR = 0.012
LEAST_LOCK = 0.7


@cache
def cards(k: int, style: str) -> tuple[np.ndarray, np.ndarray]:
    """(each sleek card's root point (S, 3), its mean height (S,) in metres over the head envelope) on random body
    ``k`` with ``style``, over its top."""
    s = random_settings(4, seed=4620)[k]
    s = normalize_avatar_settings(dict(s, hair=dict(s["hair"], style=style)))
    mesh = body_mesh(s)
    head = hair_head(mesh, s["outfit"]["topStyle"], s["outfit"]["bottomStyle"])
    pts = fitted(mesh, style, 0, head).cards.pts
    rel = pts.reshape(-1, 3) - head.centre
    r = np.linalg.norm(rel, axis=1)
    height = (r - head.envelope(rel / r[:, None])).reshape(pts.shape[:2]).mean(1)
    return pts[:, 0], height


def lock_correlation(roots: np.ndarray, height: np.ndarray) -> float:
    """The correlation of the heights of every two cards whose roots lie within :data:`NEAR` of each other."""
    gap = np.linalg.norm(roots[:, None] - roots[None], axis=2)
    i, j = np.nonzero(np.triu(gap < NEAR, 1))
    return float(np.corrcoef(height[i], height[j])[0, 1])


@pytest.mark.parametrize("style,k", [("bun", 0), ("bun", 3), ("ponytail", 1), ("ponytail", 2)])
def test_the_sleek_cards_lie_in_locks(style, k):
    roots, height = cards(k, style)
    assert lock_correlation(roots, height) >= LEAST_LOCK, lock_correlation(roots, height)
