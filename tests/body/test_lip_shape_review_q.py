"""The feminine faces' resting lips (blind review Q, defect 8: "Every face has the same puffed, pursed 'duck' lips
(#1, #2, #3, #4, #9 especially) ... Should be: a range of lip shapes"). Measured on the body mesh at rest: each
lip's front past the line from under the nose to the soft chin (:func:`test_lip_profile.lip_protrusion`; Legan and
Burstone's adults: the upper lip 3 +- 1 mm, the lower 2 +- 1) and the mouth's width over the pupils' distance
(:func:`test_mouth_width_review_o.width_over_pupils`; a relaxed adult's 0.85 to 0.95).

On main, over review Q's twelve faces (tests/helpers.py random_settings(12, 4627, with_added=True)) the upper lip
stood -0.5 to 4.2 mm past the line (2.2 on average), the mouths 0.83 to 0.92 wide; the pursed ones were the narrow,
forward mouths: #4 (feminine, 0.83 wide, 4.0 and 4.0 mm forward), #12 (3.7 and 1.9), #2 (masculine, already drawn
back since review P: 0.83, 4.0 and 3.8). The default masculine face's 3.12 and 3.11, 0.896 wide; the default
feminine face's 3.76 and 2.60, 0.900 wide.

Kept as a strict xfail: drawing a feminine face's lips back at rest as a masculine face's are
(workbench.body.details.LIP_REST, ARKit's pucker at -0.2 on a feminine face but a heavy one, taken off in every
expression) met it (the default 2.34 and 1.87 at 0.932, #4 2.71 and 2.94 at 0.860, #10 1.72 and 1.77 at 0.873,
#12 2.59 and 0.62 at 0.876; review Q's mean upper lip 2.16 -> 1.87 mm) but broke ten tests on other faces: jawOpen's,
viseme_O's and viseme_U's skin folded over round the mouth (tests/body/test_mouth.py), a random face's mouth 0.977
of the pupils' distance wide (tests/body/test_resting_lips.py: 0.95 at most), an upper lip 12.5 mm tall
(tests/body/test_lip_heights.py), the smile's nasolabial fold gone on a face (tests/body/test_smile_shading.py),
review N's cheek bumpiness and the default feminine face's roll (tests/body/test_cheek_puff_review_n.py,
test_lip_rest_review_n.py). At -0.1 (#4 3.42 and 3.69 at 0.845: not enough) seven of them still failed."""

from __future__ import annotations

import numpy as np
import pytest
from helpers import random_settings
from test_lip_profile import lip_protrusion
from test_mouth_width_review_o import width_over_pupils

from workbench.body.mesh import body_mesh
from workbench.options import normalize_avatar_settings

_Q = random_settings(12, 4627, with_added=True)
FEMININE = {"default": {"gender": "feminine"}, **{f"Q{i + 1}": s for i, s in enumerate(_Q) if s["gender"] == "feminine"}}


@pytest.fixture(scope="module")
def lips() -> dict[str, np.ndarray]:
    """Per face: (upper, lower lip past the nose-base-to-chin line in mm, the mouth's width over the pupils')."""
    return {k: np.array([*lip_protrusion(body_mesh(normalize_avatar_settings(s))), width_over_pupils(s)])
            for k, s in FEMININE.items()}


def test_the_faces_are_the_reviews():
    """Review Q's feminine faces are #3, #4, #6, #10, #11 and #12 (key4627.json), #3 and #11 heavy."""
    assert list(FEMININE)[1:] == ["Q3", "Q4", "Q6", "Q10", "Q11", "Q12"]
    assert [FEMININE[k]["bodyShape"] for k in ("Q3", "Q11")] == ["heavy", "heavy"]


@pytest.mark.xfail(strict=True, reason="the narrow, forward feminine mouths (#4, #12, the default) not yet drawn back")
def test_feminine_lips_rest_flat_and_wide_not_pursed(lips):
    """Each feminine face's upper lip 3.3 mm or less past the nose-chin line, its lower 3.0 or less, and its mouth 0.85
    of the pupils' distance or wider. On main (default, #3, #4, #6, #10, #11, #12): upper 3.76 0.21 4.03 0.75 2.68 1.11
    3.68, lower 2.60 -0.60 3.98 -0.25 2.45 1.01 1.90, wide 0.900 0.917 0.830 0.897 0.854 0.889 0.850 (the default, #4
    and #12 past it)."""
    f = np.array(list(lips.values()))
    seen = {k: v.round(3).tolist() for k, v in lips.items()}
    assert f[:, 0].max() <= 3.3 and f[:, 1].max() <= 3.0 and f[:, 2].min() >= 0.85, seen
