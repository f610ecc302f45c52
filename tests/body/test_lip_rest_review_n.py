"""The full lips at rest (issue 46, blind review N's fifth defect: "all neutral portraits (#6, #7, #9, #12): the mouth
at rest is a pout or duck lips, pushed forward past the nose-chin line"). Their fronts lie within a person's distance
of that line (pass 22: upper and lower 2.4/1.5 mm on #6 to 4.7/4.1 on #9), so the pout is the lips' shape: on #7 and
#12 the upper lip as tall as the lower one or taller (a relaxed adult's upper vermilion some 0.6 to 0.8 of the lower's,
Farkas), each lip rolled forward round its middle by MakeHuman's lip volume targets (a pucker). Measured on the face's
middle section of the body mesh (:func:`test_lip_pout_review_l.figures`) of the review's four faces and of full-lipped
faces drawn at random (lipFullness 1, review L's sweep)."""

from __future__ import annotations

import numpy as np
import pytest
from helpers import random_settings
from test_lip_pout_review_l import SWEEP, figures

from workbench.body.shape import face_weights
from workbench.options import normalize_avatar_settings

REVIEW = {i: random_settings(12, 4624)[i - 1] for i in (6, 7, 9, 12)}


@pytest.fixture(scope="module")
def review() -> dict[int, np.ndarray]:
    return {i: figures(s) for i, s in REVIEW.items()}


def test_the_reviews_faces_are_its_neutral_portraits():
    """Review N's #6, #7, #9, #12 (key4624.json): lipFullness 0.4, 1.0, 0.4, 0.4."""
    assert [s["face"]["lipFullness"] for s in REVIEW.values()] == [0.4, 1.0, 0.4, 0.4]


def test_the_upper_lip_is_shorter_than_the_lower(review):
    """The review's faces: the upper lip's vermilion 0.8 of the lower's height or less on average, and none as tall as
    the lower. On main #6, #7, #9, #12 0.86, 1.06, 0.80, 1.09 (0.95 on average; 7.5/8.75, 8.5/8.0, 8.75/11.0, 9.25/8.5
    mm); now 0.68, 0.79, 0.70, 0.97 (0.785; 6.75/10.0, 7.5/9.5, 8.25/11.75, 9.25/9.5: #12's tall upper lip is mostly its
    own, its volume forward 0.22 of MakeHuman's, #7's 0.55)."""
    ratio = np.array([f[2] / f[3] for f in review.values()])
    assert ratio.mean() <= 0.8 and ratio.max() < 1.0, np.round(ratio, 2)


def test_full_lips_keep_a_persons_proportion():
    """Faces drawn at random at lipFullness 1: the upper lip 0.8 of the lower's height or less on average and 0.9 on
    every face. On main 0.94 on average and up to 1.12 (a cushion of an upper lip, as tall as the lower); now 0.68 and up
    to 0.78."""
    f = np.array([figures(s) for s in SWEEP])
    ratio = f[:, 2] / f[:, 3]
    assert ratio.mean() <= 0.8 and ratio.max() <= 0.9, np.round(ratio, 2)


def test_the_reviews_lips_sit_back(review):
    """The review's faces' upper lips no further forward of the nose-base-to-chin line than 4.2 mm (Legan and
    Burstone's adults 3 +- 1 mm) and 3.0 on average. On main 2.43, 4.45, 4.67, 2.34 (3.48 on average); now 1.64, 3.23,
    3.94, 1.78 (2.65): the lip's middle rolled back and tucked under (mouthRollUpper, workbench.body.shape.lips_at_rest).
    The lower lips with them: on main 1.45, 3.55, 4.08, 1.50, now 0.46, 2.39, 3.43, 0.72."""
    upper = np.array([f[0] for f in review.values()])
    assert upper.max() <= 4.2 and upper.mean() <= 3.0, np.round(upper, 2)


@pytest.mark.parametrize("gender", ["feminine", "masculine"])
def test_the_default_faces_lips_are_as_they_were(gender):
    """The default avatars take no lip volume forward, so no setting back (workbench.body.shape.lips_at_rest): their
    faces' weights hold no lip roll and their bodies keep their bytes."""
    face = dict(face_weights(normalize_avatar_settings({"gender": gender})))
    assert "mouth/mouth-upperlip-volume-incr" not in face and not any(k.startswith("face/") for k in face), face
