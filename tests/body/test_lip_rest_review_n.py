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

from workbench.body.face import MOUTH, combination
from workbench.body.mesh import body_key, body_mesh, body_of, morph_deltas
from workbench.body.shape import face_weights, rest_lips
from workbench.options import normalize_avatar_settings

REVIEW = {i: random_settings(12, 4624)[i - 1] for i in (6, 7, 9, 12)}

# Not met yet. Branch rest22 met both (its commit 5c58359: roll 0.25 upper and 1.0 lower per unit of volume, height
# -0.7): the upper lips 1.64, 3.23, 3.94, 1.78 mm forward, the sweep's ratio up to 0.78. Rolled that far the fullest
# lips' smile turned a triangle over beside the upper lip's corner (tests/body/test_smile_surface.py's body 3, 5
# triangles) even with the roll taken off in the smile (lipsUnrolled), and with less lower roll than upper the lower
# lip came forward of the upper (tests/body/test_resting_lips.py, 0.98 mm behind on average, >= 1 wanted, at upper roll
# 0.2). At 0.15 (workbench.body.details.LIP_REST) the sweep's #3 and #6's lower lips no longer turn at the front
# (test_lip_heights.lip_heights reads 1.75 and 2 mm tall). Strict: a change that meets them shows here.
REST = pytest.mark.xfail(strict=True, reason="review N #5's resting pout: not met, see REST")


@pytest.fixture(scope="module")
def review() -> dict[int, np.ndarray]:
    return {i: figures(s) for i, s in REVIEW.items()}


def test_the_reviews_faces_are_its_neutral_portraits():
    """Review N's #6, #7, #9, #12 (key4624.json): lipFullness 0.4, 1.0, 0.4, 0.4."""
    assert [s["face"]["lipFullness"] for s in REVIEW.values()] == [0.4, 1.0, 0.4, 0.4]


def test_the_upper_lip_is_shorter_than_the_lower(review):
    """The review's faces: the upper lip's vermilion 0.8 of the lower's height or less on average, and none as tall as
    the lower. On main #6, #7, #9, #12 0.86, 1.06, 0.80, 1.09 (0.95 on average; 7.5/8.75, 8.5/8.0, 8.75/11.0, 9.25/8.5
    mm); now 0.68, 0.78, 0.67, 0.97 (0.775; 7.0/10.25, 7.75/10.0, 8.25/12.25, 9.25/9.5: #12's tall upper lip is mostly
    its own, its net volume forward 0.105 of MakeHuman's, #7's 0.55). Since mouths37 (blind review AA: "everyone has the
    same mouth", a thin upper lip over a thick lower one; people's lower lip some 1.0 to 2.0 of the upper) each face draws
    its own lips' heights at rest (workbench.body.lip_shape): #12 draws lips nearer even, 0.97 -> 1.15 (9.75/8.5 mm) here,
    where the paint a viewer reads (tests/helpers.painted_lips) keeps its lower lip 1.32 times the upper's height (6.9 and
    9.2 mm; 1.54 on main), #7 0.74 -> 0.80, #9 0.67 -> 0.74; the bounds 0.8 -> 0.85 on average and 1.0 -> 1.2 on any face."""
    ratio = np.array([f[2] / f[3] for f in review.values()])
    assert ratio.mean() <= 0.85 and ratio.max() <= 1.2, np.round(ratio, 2)


@REST
def test_full_lips_keep_a_persons_proportion():
    """Faces drawn at random at lipFullness 1: the upper lip 0.8 of the lower's height or less on average and 0.9 on
    every face. On main 0.94 on average and up to 1.12 (a cushion of an upper lip, as tall as the lower); now 0.60, 0.72,
    0.95 and 0.53 on four, the other two's lower lips' fronts not found (REST)."""
    f = np.array([figures(s) for s in SWEEP])
    ratio = f[:, 2] / f[:, 3]
    assert ratio.mean() <= 0.8 and ratio.max() <= 0.9, np.round(ratio, 2)


def test_the_reviews_lips_sit_back(review):
    """The review's faces' upper lips no further forward of the nose-base-to-chin line than 4.2 mm (Legan and
    Burstone's adults 3 +- 1 mm) and 3.0 on average. On main 2.43, 4.45, 4.67, 2.34 (3.48 on average); then 2.00, 3.77,
    4.11, 2.17 (3.01): the lip's middle rolled back and tucked under (mouthRollUpper, workbench.body.shape.lips_at_rest).
    The lower lips with them: on main 1.45, 3.55, 4.08, 1.50, then 1.00, 2.88, 3.69, 1.22. Met since pout38 (blind
    review AB's pout), which rolls a heavy build's full lips back further (workbench.body.details.LIP_REST["heavy"]):
    before it 2.08, 3.49, 4.59, 2.06 (3.05), now 1.40, 3.49, 4.08, 2.06 (2.76); the lower lips 1.17, 2.45, 4.02, 1.06 ->
    0.58, 2.45, 3.88, 1.06 (the heavy #6's lower lip a little behind a person's range, 2 +- 1)."""
    upper = np.array([f[0] for f in review.values()])
    assert upper.max() <= 4.2 and upper.mean() <= 3.0, np.round(upper, 2)


@pytest.mark.parametrize("gender", ["feminine", "masculine"])
def test_the_default_faces_take_no_lip_roll(gender):
    """The default avatars take no lip volume forward, so no setting back (workbench.body.shape.lips_at_rest): their
    faces' weights hold no lip roll (their lips are widened at rest since review O, tests/body/test_mouth_width_review_o.py;
    the masculine face's drawn back by ARKit's pucker since review P, LIP_REST["masculine"],
    tests/body/test_lip_rest_review_p.py: before it no "face/" weight at all, now none but that)."""
    face = dict(face_weights(normalize_avatar_settings({"gender": gender})))
    arkit = {k for k in face if k.startswith("face/")}
    assert "mouth/mouth-upperlip-volume-incr" not in face and arkit <= {"face/mouthPucker"}, face
    assert (gender == "masculine") == (face.get("face/mouthPucker", 0.0) < 0), face


@pytest.mark.parametrize("i", [7, 12])
def test_the_mouths_expressions_start_from_lips_not_set_back(i):
    """Every expression of the mouth (the visemes but sil, mouthOpen, mouthSmile) holds all of ``lipsUnrolled``, which
    takes the rest's setting back off: the rest face with it is the face whose lips were not set back, to 0.75 mm (0.2
    until review O's lips widened at rest, LIP_REST["every"]: 0.13 then, the skeleton's joints, placed on the shaped
    body, moving a little with the lips; now 0.68 and 0.67 mm at the mouth's corners only, where workbench.body.corners
    unfolds the wider rest's turned triangles, not a linear target's sum)
    (rolled at rest, the lips' roll added to the smile's: review E's lining beside the mouth, review K's parting 6.7 mm,
    review L's lower lip turned 59.5 degrees at its sides). On main no such shape: the expressions on the rest's lips."""
    s = normalize_avatar_settings(REVIEW[i])
    key = body_key(s)
    face = dict(key[3])
    for k, w in rest_lips(face).items():      # (the rest's setting back and, since mouths37, the face's own lips' heights)
        face[k] = round(face.get(k, 0.0) - w, 4)
    plain = body_of((*key[:3], tuple((k, w) for k, w in sorted(face.items()) if w != 0)))
    idx, delta = morph_deltas(s)["lipsUnrolled"]
    unrolled = body_mesh(s).positions.astype(np.float64)
    unrolled[idx] += delta
    assert len(idx) and np.abs(unrolled - plain.positions).max() < 7.5e-4, np.abs(unrolled - plain.positions).max()
    assert all(combination(n).get("lipsUnrolled") == 1.0 for n in MOUTH) and "viseme_sil" not in MOUTH
