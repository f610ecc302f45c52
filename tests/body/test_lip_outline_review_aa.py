"""Every face its own cupid's bow (issue 46, blind review AA's fourth defect: "Everyone has the same mouth ... All 12 share
a thin, peaked upper lip"; wanted: "philtrum and corner shape as randomized morphs ... a subtle philtrum and cupid's
bow"). Measured on review AA's own twelve avatars (seed 4637, the sheets' draw) at rest: the painted upper lip's border
(the skin texture's ``lips`` mask at a half or more, carried onto the face by its UVs) at the face's middle and at its
highest within 2 to 8.5 mm either side, the bow's depth the second less the first. On main every face's bow lay between
1.66 and 4.00 mm (2.71 on average, a standard deviation of 0.76): no face near straight, none strongly bowed. Each face
now draws its own bow and philtrum at rest (workbench.body.lip_shape.OUTLINE, taken off in every
expression): 1.64 to 4.74 mm (2.77, 0.94). (Flatter bows than main's flattest lifted the upper lip's middle past
tests/body/test_lip_heights.py's 12 mm: the faces' variety widened towards the bowed end.)"""

from __future__ import annotations

import numpy as np
import pytest
from helpers import painted_lip_texels, random_settings

from workbench.body.mesh import body_mesh
from workbench.options import normalize_avatar_settings

# The review's draw: make_review_sheets.review_settings(12, 4637).
REVIEW = random_settings(12, 4637, with_added=True, heads=True, features=True, palettes=True, spread=True)


def bow(m, gender: str) -> float:
    """mm the painted upper lip's border at the face's middle lies under its highest point 2 to 8.5 mm either side."""
    p, painted, left, mid = painted_lip_texels(m, gender)
    on = (p[:, 2] > left[2] - 0.004) & painted & (p[:, 1] > mid[1])

    def top(dx: float) -> float:
        """The painted upper lip's highest point within 0.8 mm of ``dx`` (metres) from the middle."""
        return float(p[on & (np.abs(p[:, 0] - mid[0] - dx) < 0.0008), 1].max())

    peaks = max(top(s * d) for d in np.arange(0.002, 0.0085, 0.0005) for s in (-1, 1))
    return (peaks - top(0.0)) * 1000


@pytest.fixture(scope="module")
def bows() -> np.ndarray:
    """(12,): per face of the review, its painted cupid's bow's depth (mm)."""
    return np.array([bow(body_mesh(normalize_avatar_settings(s)), s["gender"]) for s in REVIEW])


def test_the_draw_is_review_aas():
    """#1 is the review's feminine slim face at lipFullness -0.8, #12 a feminine face (the key's)."""
    assert (REVIEW[0]["gender"], REVIEW[0]["bodyShape"], REVIEW[0]["face"]["lipFullness"]) == ("feminine", "slim", -0.8)
    assert REVIEW[11]["gender"] == "feminine"


def test_the_bows_differ_from_face_to_face(bows):
    """The deepest bow 4.4 mm or over (main 4.00, #12; now #3's 4.74), their standard deviation over the twelve 0.9 mm
    or more (main 0.76, now 0.94), the shallowest still 2 mm or under (main 1.66, now 1.64, #4)."""
    assert bows.max() >= 4.4 and bows.std() >= 0.9 and bows.min() <= 2.0, np.round(bows, 2)
