"""The full lips at rest in profile (issue 46, blind review Z's third defect: "Neutral lips are pursed into a pout on
every avatar ... clearest on sheet-02-ours #5 and #7, and sheet-03-ours #11 (3/4 profile, where the lips push forward
past the chin line)"; "should be ... no forward protrusion in profile"). Measured on review Z's own twelve avatars
(seed 4636, the sheets' draw, ``make_review_sheets.review_settings``) on the face's middle section of the body mesh:
each lip's front past the line from the nose's base to the soft chin (:func:`test_lip_profile.lip_protrusion`;
Legan and Burstone's adults: the upper lip 3 +- 1 mm, the lower 2 +- 1). The faces whose lips MakeHuman's volume
targets roll forward (a lipFullness over 0 or the lips' own variety: #1, #2, #3, #5, #7, #11) stood furthest out,
#3's upper lip 5.2 mm past the line, #5's and #7's lower lips 3.4 and 3.1."""

from __future__ import annotations

import numpy as np
import pytest
from helpers import random_settings
from test_lip_profile import lip_protrusion

from workbench.body.mesh import body_mesh
from workbench.body.shape import face_weights
from workbench.options import normalize_avatar_settings

# The review's draw: make_review_sheets.review_settings(12, 4636) (spread face controls from seed 4636 on).
REVIEW = random_settings(12, 4636, with_added=True, heads=True, features=True, palettes=True, spread=True)


def full(settings: dict) -> bool:
    """Whether the face's upper lip takes MakeHuman's volume forward (incr over decr: the rest's roll sets it back)."""
    w = dict(face_weights(normalize_avatar_settings(settings)))
    return w.get("mouth/mouth-upperlip-volume-incr", 0.0) > w.get("mouth/mouth-upperlip-volume-decr", 0.0)


# Not met on main (branch lips36, a finding): ARKit's pucker on the full lips' rest, as on every masculine face
# (LIP_REST["masculine"]), 0.5 a unit of the upper lip's volume forward on every face, met it (#3's upper lip 5.21 ->
# 3.00 mm, #5's lower lip 3.35 -> 2.22, #7's 3.12 -> 1.27; the six upper lips 3.24 -> 2.20 on average) and two strict
# xfails (review L's full lips wider, review N #5's lips sitting back), but broke six earlier tests: review P's
# masculine lips behind the line (-0.13 mm against >= 0.5), review N's heavy cheeks, mouths 0.97 of the eyes' distance
# wide (<= 0.95), a smile triangle turned over (test_smile_surface body3), review O's #9's smile symmetry, and
# lipFullness +1 over HTTP 0.92 mm back on average (test_face_settings_http wants the lips forward). On feminine faces but heavy ones only it left
# the named #5, #7 and #11 as they were and still broke the HTTP lipFullness and the mouth's width. Strict: a change
# that meets it shows here.
PUFF = pytest.mark.xfail(strict=True, reason="review Z's full lips past the nose-base-to-chin line: not met, see PUFF")


@pytest.fixture(scope="module")
def protrusions() -> dict[int, np.ndarray]:
    """Per full-lipped face of the review (its sheet number): (mm the upper lip's front stands past the
    nose-base-to-chin line, mm the lower's)."""
    return {i: np.array(lip_protrusion(body_mesh(normalize_avatar_settings(s))))
            for i, s in enumerate(REVIEW, 1) if full(s)}


def test_the_draw_is_review_zs():
    """#5, #7 and #11 (the faces the review names) are its feminine heavy, masculine athletic and masculine slim."""
    assert [(REVIEW[i - 1]["gender"], REVIEW[i - 1]["bodyShape"]) for i in (5, 7, 11)] == [
        ("feminine", "heavy"), ("masculine", "athletic"), ("masculine", "slim")]


@PUFF
def test_full_lips_rest_within_a_persons_profile(protrusions):
    """Every full-lipped face's upper lip 4 mm or less past the nose-base-to-chin line and its lower lip 3 mm or less
    (an adult's mean and one deviation), the upper 2.8 mm or less on average. On main #1, #2, #3, #5, #7, #11: the upper
    lip 1.99, 2.91, 5.21, 3.80, 3.92, 1.63 mm (3.24 on average), the lower 0.96, 2.11, 4.16, 3.35, 3.12, 1.42 (see PUFF for what met it and why it was not kept)."""
    assert sorted(protrusions) == [1, 2, 3, 5, 7, 11]
    p = np.array(list(protrusions.values()))
    assert p[:, 0].max() <= 4.0 and p[:, 1].max() <= 3.0 and p[:, 0].mean() <= 2.8, np.round(p, 2)
