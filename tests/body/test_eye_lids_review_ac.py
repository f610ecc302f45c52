"""No startled stare (issue 46, blind review AC's seventh defect: "Eyes look stuck on and startled ... white shows above
the iris, which gives a startled stare", sheet 3 #9 and sheet 1 #1). Measured on review AC's own twelve avatars (seed
4639, the sheets' draw, ``make_review_sheets.review_settings``) on the mesh: the share of the iris's height (its
diameter, :data:`workbench.body.eyes.IRIS` of the eyeball's radius) that the upper lid covers over the eye's middle (the
upper lashes' roots within 3 mm of it across, as tests/body/test_eye_opening.py reads the lid). A relaxed eye's lid
covers the iris's top by 1 to 2 mm, some 0.09 to 0.17 of its 11.7 mm. On main the feminine faces with large eyes
(eyeSize 0.5, 0.8, 1: #1, #3, #9) had theirs at 0.042, 0.032 and 0.07: the whole iris ringed by white in the portraits
(eyeSize's "eye-scale-incr" opens the lids faster than it grows the iris). Now a large eye's rest takes eyeWide off
again (workbench.body.details.LID_FOLLOW): 0.12, 0.143, 0.193; the other nine as before."""

from __future__ import annotations

import numpy as np
import pytest
from helpers import random_settings

from workbench.body.eyes import IRIS
from workbench.body.mesh import body_mesh
from workbench.options import normalize_avatar_settings

# The review's draw: make_review_sheets.review_settings(12, 4639).
REVIEW = random_settings(12, 4639, with_added=True, heads=True, features=True, palettes=True, spread=True)


def iris_covered(settings: dict) -> list[float]:
    """Per eye, the share of the iris's height its upper lid covers over the eye's middle (under 0: white above)."""
    m = body_mesh(normalize_avatar_settings(settings))
    out = []
    for side in "lr":
        eye = m.positions[m.groups[f"helper-{side}-eye"]].astype(np.float64)
        centre = eye.mean(0)
        radius = float(np.linalg.norm(eye - centre, axis=1).max())
        lashes = m.positions[m.groups[f"helper-{side}-eyelashes-2"]].astype(np.float64) - centre
        lid = float(lashes[np.abs(lashes[:, 0]) < 0.003, 1].min())
        out.append((IRIS * radius - lid) / (2 * IRIS * radius))
    return out


@pytest.fixture(scope="module")
def covered() -> np.ndarray:
    """(12, 2): per face of the review, per eye, :func:`iris_covered`."""
    return np.array([iris_covered(s) for s in REVIEW])


def test_the_draw_is_review_acs():
    """#9 is the review's feminine face at eyeSize 1 (the key's), #1 its feminine face at 0.5."""
    assert (REVIEW[8]["gender"], REVIEW[8]["face"]["eyeSize"]) == ("feminine", 1.0)
    assert (REVIEW[0]["gender"], REVIEW[0]["face"]["eyeSize"]) == ("feminine", 0.5)


def test_the_lid_covers_the_iris_top_on_every_face(covered):
    """Every eye's upper lid covers at least 0.09 of its iris's height, a millimetre (main 0.032 on #3, 0.042 on #1, 0.07
    on #9; now 0.102 and more), and no more than 0.3 (over a third of it hidden read as sleepy, blind review F: now 0.265
    at most, #2's, as on main)."""
    assert covered.min() >= 0.09, np.round(covered, 3)
    assert covered.max() <= 0.3, np.round(covered, 3)


@pytest.mark.parametrize("index", [1, 3, 9])
def test_a_large_eye_is_covered_as_the_default_eye(index, covered):
    """The large feminine eyes (#1, #3, #9) have as much of the iris under the lid as the review's feminine eye at
    eyeSize 0 (#11, 0.102) or more: a larger eye is not a wider-open one (main 0.042, 0.032, 0.07)."""
    assert covered[index - 1].min() >= covered[10].min() - 0.005, np.round(covered[[index - 1, 10]], 3)
