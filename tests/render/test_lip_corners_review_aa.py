"""The resting mouth's corners soft, not knife points (issue 46, blind review AA's fourth defect: "a thin, peaked upper lip
over a thick bulging lower lip with hard pointed corners" on all twelve faces; wanted "Soften the lip corners").

MakeHuman's lips meet at each corner in a fin of tiny triangles; the rest face's normals there turned from facing up to
facing down within a vertex or two, and every viewer drew a bright wedge under a dark line one or two pixels wide,
running out to a point. Measured as review P's smile corners are (tests/render/test_smile_corners_review_p.py), at rest:
our renderer, the sheets' mouth close-up (12 cm across) at 512 px, supersampled, the avatars as the sheets build them.
Each corner is placed from the mesh (the Body vertex mouthSmile moves furthest on that side, on the cheek just out from
the corner, projected at rest); over the 31 columns (7 mm) from 12 px outside it to 18 px inside and 55 rows (13 mm)
from 10 over it down, per column the darkest pixel's depth under its surroundings (the luminance's median over 17 px,
4 mm, less its own): a line one or two pixels wide is deep, a shade spread over millimetres is not. The mean of both
corners per face is the measure. The rest's normals are now evened along the lips' meeting line at the corners as the
smile's are (workbench.body.corner_shade.rest_normals); the expressions' shapes end where they did."""

from __future__ import annotations

import sys
from functools import cache
from pathlib import Path

import numpy as np
import pytest
from helpers import random_settings
from test_smile_corners_review_p import corner_depths

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "data"))
import make_review_sheets as sheets  # noqa: E402

REVIEW = random_settings(12, 4637, with_added=True, heads=True, features=True, palettes=True, spread=True)
#: The faces the review named (#1, #3, #8, #12) and the deepest corners on main (#9).
FACES = (1, 3, 8, 12, 9)
#: The deepest line allowed a face (levels of 0..255 luminance), and over the five faces on average. On main #1, #3,
#: #8, #12, #9: 25.3, 31.6, 33.0, 69.4, 72.2 (46.3).
LINE, MEAN = 40.0, 30.0

# The sheets' avatars from the run's shared builds (conftest.py's sheets_built_once).
pytestmark = pytest.mark.usefixtures("sheets_built_once")


@cache
def corner_lines(n: int) -> tuple[float, float]:
    """#n's two corners' mean column depth at rest (levels; see the module; test_smile_corners_review_p.corner_depths)."""
    return corner_depths(sheets._glb(REVIEW[n - 1]), 0.0, 18, 12, (10, 45))


@pytest.mark.parametrize("n", FACES)
def test_the_resting_corners_are_soft(n):
    """Each face's mean corner line LINE or less: on main #12 69.4 (56.9, 82.0) and #9 72.2 (60.3, 84.0); now 29.5 (19.9,
    39.2) and 38.3 (33.3, 43.4), #1, #3, #8 20.4, 18.9, 22.1 (main 25.3, 31.6, 33.0)."""
    assert np.mean(corner_lines(n)) <= LINE, [round(x, 1) for x in corner_lines(n)]


def test_the_resting_corners_are_soft_on_average():
    """The five faces' mean MEAN or less: 46.3 on main, 25.8 now (over all twelve of the review 41.5 -> 23.7)."""
    lines = [np.mean(corner_lines(n)) for n in FACES]
    assert np.mean(lines) <= MEAN, np.round(lines, 1)
