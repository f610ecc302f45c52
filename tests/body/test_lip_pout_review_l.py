"""The full lips at rest (issue 46, blind review L's sixth defect: a resting "duck" pout on #1, #5 and #12 of seed
4622, the draw's three faces at lipFullness 0.9 to 1.0). A fuller lip is a taller, rounder vermilion whose front
stands at most a little further forward than a thin one's; MakeHuman's lip volume targets, which lipFullness used,
roll each lip forward instead and cut its vermilion's height (a pucker). Measured on the face's middle section of the
body mesh (metres, facing +z) of the review's three faces and six faces drawn at random, each at its lipFullness
and at 0: each lip's front past the line from the nose's base to the chin (:func:`test_lip_profile.lip_protrusion`),
each lip's height (:func:`test_lip_heights.lip_heights`), and how far the lips' front stands ahead of the mouth's
corners (the corners tucked back into the cheeks, not drawn forward with the lips)."""

from __future__ import annotations

import copy

import numpy as np
import pytest
from helpers import random_settings
from test_lip_heights import lip_heights
from test_lip_profile import front, lip_protrusion

from workbench.body.mesh import BodyMesh, body_mesh
from workbench.body.skin import lip_corners
from workbench.options import normalize_avatar_settings

REVIEW = [random_settings(12, 4622)[i - 1] for i in (1, 5, 12)]
SWEEP = [{**copy.deepcopy(s), "face": {**s["face"], "lipFullness": 1.0}} for s in random_settings(6, 7313)]


# Not met on main: the change that met these (branch pout19: lipFullness's lower lip taller and both lips wider
# instead of MakeHuman's volume targets) was taken out after the whole suite: it drew the smile's fold beside the nose
# shallower than at rest (tests/body/test_smile_shading.py, fold -1.29 mm against >= 0), turned five skin
# triangles over in a smile (test_smile_surface.py) and, with its lower lip height at 0.35 + 0.4 of MakeHuman's
# target, drew the skin under the lip 4.6 mm down at lipFullness 1 (the V pouch test_face_profile.py bounds at 2.5 mm
# on the rest face; code review of pass 19). Strict: a change that meets them shows here.
POUT = pytest.mark.xfail(strict=True, reason="the resting pout at lipFullness 1 (review L #6): not met, see POUT")


def corner_depth(m: BodyMesh) -> float:
    """mm the lips' most forward point on the face's middle stands ahead of the mouth's corners."""
    left, right = lip_corners(m)
    mid = (left + right) / 2
    z = front(m, float(mid[0]) + 0.0007, mid[1] + np.arange(-0.016, 0.012, 0.0005))
    return float(np.nanmax(z) - mid[2]) * 1000


def figures(settings: dict) -> np.ndarray:
    """(upper lip's and lower lip's mm past the nose-base-to-chin line, upper and lower lip's mm tall, mm of corner
    depth, mm the mouth is wide from corner to corner) of ``settings``' face."""
    m = body_mesh(normalize_avatar_settings(settings))
    left, right = lip_corners(m)
    return np.array([*lip_protrusion(m), *lip_heights(m)[:2], corner_depth(m), np.linalg.norm(left - right) * 1000])


@pytest.fixture(scope="module")
def full_and_neutral() -> np.ndarray:
    """Per face (the review's three, then the sweep's six): its figures at its lipFullness, and at 0."""
    out = []
    for s in REVIEW + SWEEP:
        neutral = {**copy.deepcopy(s), "face": {**s["face"], "lipFullness": 0.0}}
        out.append([figures(s), figures(neutral)])
    return np.array(out)


def test_the_reviews_faces_are_its_full_lipped_ones():
    """The draw is review L's: #1, #5 and #12 at lipFullness 0.9, 0.9 and 1.0 (key4622.json)."""
    assert [s["face"]["lipFullness"] for s in REVIEW] == [0.9, 0.9, 1.0]
    assert [s["skinTone"] for s in REVIEW] == ["#D39677", "#E9BAA0", "#785532"]


@POUT
def test_full_lips_stand_no_further_forward(full_and_neutral):
    """Full lips' fronts at most 0.3 mm further forward of the nose-base-to-chin line than the same face's at
    lipFullness 0, on average over the nine faces, and no lip 0.6 mm on any; nor the lips' front further ahead of the
    mouth's corners by more than 0.3 mm on average and 0.5 on any (a pucker draws the middle out past the corners). On
    main the upper lip 0.78 mm on average and up to 0.97, the lower 0.89 and up to 1.75 (the review's #12: 1.29), the
    corners 0.69 mm deeper on average and up to 0.83; now 0.01 and up to 0.25, the lower 0.02 and up to 0.30, the
    corners 0.00 and up to 0.01."""
    d = full_and_neutral[:, 0] - full_and_neutral[:, 1]
    forward = d[:, :2]
    assert forward.mean(0).max() <= 0.3 and forward.max() <= 0.6, np.round(forward, 2)
    assert d[:, 4].mean() <= 0.3 and d[:, 4].max() <= 0.5, np.round(d[:, 4], 2)


def test_the_reviews_faces_lips_rest_nearer_the_line(full_and_neutral):
    """The review's #1, #5 and #12: each lip 4.6 mm or less forward of the nose-base-to-chin line (Legan and Burstone's
    adults: the upper lip 3 +- 1 mm, the lower 2 +- 1; the random faces' up to 5.4 and 5.3, tests/body/test_lip_profile.py).
    On main (pass 22) 2.3, 5.2 and 4.4 mm the upper lip, 1.8, 4.9 and 3.7 the lower (pout19's figures, taken out: 1.7, 4.4
    and 3.0, 0.6, 4.5 and 1.7; #5's lips at lipFullness 0 lie 4.3 and 4.4 mm forward: its own receding chin). Met since
    pass 22 (blind review N's defect 5, workbench.body.shape.lips_at_rest: full lips' middles rolled back under): 1.7,
    4.5 and 3.1 the upper lip, 1.1, 4.2 and 2.5 the lower. #5 is slim: since face31 (a slim face's cheeks 0.4 of
    MakeHuman's volume off, not 0.8: review U's gaunt #11) its lower lip 4.18 -> 4.65 mm past the line, the upper
    4.50 -> 4.57, though the lower lip's front stands 0.1 mm further back (136.67 -> 136.56 mm forward): its flat front's
    most forward point moved from 0.5 to 5 mm under the lips' line, further down a line that slopes back to a receding
    chin (the same figure for the cheeks at 0.4 to 0.7 off); the bound 4.6 -> 4.7, no more pout in its profile."""
    assert full_and_neutral[:3, 0, :2].max() <= 4.7, np.round(full_and_neutral[:3, 0, :2], 1)


@POUT
def test_full_lips_are_taller(full_and_neutral):
    """lipFullness still makes the lips visibly fuller: the lower lip's vermilion 1 mm taller or more on average than
    the same face's at 0 and taller on every face, both lips together 0.4 mm taller or more on average (the upper lip
    is held where it is: its height rose past tests/body/test_lip_heights.py's person's bounds). On main the upper lip
    0.86 mm shorter on average, the lower 1.75 mm shorter (each rolled forward, a pucker), 2.6 mm together; now the lower 1.53 mm taller (0.75 at the least), 0.72 mm together."""
    d = full_and_neutral[:, 0, 2:4] - full_and_neutral[:, 1, 2:4]
    assert d[:, 1].mean() >= 1.0 and d[:, 1].min() > 0 and d.sum(1).mean() >= 0.4, np.round(d, 2)


@POUT
def test_full_lips_are_wider(full_and_neutral):
    """... and a little wider, the corners drawn out into the cheeks, not in: the mouth 0.8 mm wider or more at
    lipFullness 1 than at 0 on every face. On main as wide (0.0 mm: the volume targets move no corner); now 1.1 to 1.3 mm."""
    d = full_and_neutral[:, 0, 5] - full_and_neutral[:, 1, 5]
    assert d.min() >= 0.8, np.round(d, 2)
