"""The smile's cheeks rounded into apples (issue 46, blind reviews Q, R and S: the smile 4/10, "a sideways stretch with
no cheek lift (every avatar)"; seed 4629's #2, #4 and #11, and the default feminine and masculine faces).

Measured on the body mesh (metres, facing +z) at rest and with mouthSmile's sum of shapes at full weight
(tests/helpers.smile_mouth). The cheek's apple: the point 2 mm in from each eye's middle and 24 mm under it (for eyes
58.5 mm apart). Its rounding: how far the skin's surface over that point stands in front of the mean of the surface
12 mm above, below, in and out of it, smiling less at rest (a bump the light draws, where the cheek raise that slides
the whole cheek up draws none). The surface's height is found by a ray along -z through the front-most skin triangle
(test_smile_fold_review_n's), not a vertex: the cheek's vertices are 4 to 6 mm apart."""

from __future__ import annotations

from functools import cache

import numpy as np
import pytest
from helpers import random_settings, smile_mouth
from test_smile_fold_review_n import surface_height

#: Review S's #2, #4 and #11 (seed 4629, as data/make_review_sheets.py --count 12 draws them) and the default faces.
FACES = {**{f"#{k}": random_settings(12, 4629, with_added=True)[k - 1] for k in (2, 4, 11)},
         "default feminine": {"gender": "feminine"}, "default masculine": {"gender": "masculine"}}
#: The apple (in, down from the eye's middle) and the ring's radius round it, metres for eyes 58.5 mm apart.
APPLE, RING = (0.002, 0.024), 0.012


def bump(q: np.ndarray, tris: np.ndarray, c: np.ndarray, ring: float) -> float:
    """How far the surface of positions ``q`` over ``c`` (x, y) stands in front of the mean of it ``ring`` above,
    below and to either side."""
    around = [surface_height(q, tris, c + ring * np.array(v)) for v in ((0, 1), (0, -1), (1, 0), (-1, 0))]
    return surface_height(q, tris, c) - float(np.mean(around))


@cache
def rounding(name: str) -> list[float]:
    """Per side, the apple's rounding in the smile less at rest (see the module's text), mm for eyes 58.5 mm apart."""
    m, rest, smiling, tris, *_ = smile_mouth(FACES[name])
    eyes = [rest[m.groups[f"helper-{s}-eye"]].mean(0) for s in "lr"]
    mid = (eyes[0][0] + eyes[1][0]) / 2
    unit = float(np.linalg.norm(eyes[0] - eyes[1])) / 0.0585
    out = []
    for e in eyes:
        c = e[:2] + np.array([-np.sign(e[0] - mid) * APPLE[0], -APPLE[1]]) * unit
        out.append((bump(smiling, tris, c, RING * unit) - bump(rest, tris, c, RING * unit)) * 1000 / unit)
    return out


@pytest.mark.parametrize("name", list(FACES))
def test_the_smile_rounds_the_cheeks_apples(name):
    """Each apple stands 1.8 mm or more further out of the cheek round it smiling than at rest. On main (f72ad2e) 0.97 /
    2.30 / 2.43 / 0.90 / 0.39 (#2 / #4 / #11 / the default feminine / masculine, the less of the two sides): the
    cheek's raise slid the whole cheek 6 to 8 mm up and its bulge, 21 mm across, pushed it forward as one; now 3.22 /
    4.58 / 4.02 / 3.00 / 2.21 (workbench.body.expressions.APPLE_PUSH)."""
    assert min(rounding(name)) >= 1.8, [round(r, 2) for r in rounding(name)]
