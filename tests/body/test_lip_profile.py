"""The resting lips in profile (issue 46, blind review G's worst defect: "duck-lip pout on the neutral face ... the
lips are inflated and pushed forward; in the 3/4 portraits they nearly reach the line of the nose tip ... it reads
as a kiss face"). A relaxed adult mouth sits well behind the nose's tip (Legan and Burstone's profile: the upper
lip's front 12 to 18 mm behind the nose's tip) and the upper lip's vermilion stands a few millimetres forward of the
philtrum above it (some 3 mm), not a cushion. Measured on the face's middle section of the body mesh (metres, facing
+z) of twenty-four faces drawn at random (two seeds no review used) and eight at lipFullness's ends."""

from __future__ import annotations

import copy

import numpy as np
import pytest
from helpers import random_settings

from workbench.body.mesh import BodyMesh, body_mesh
from workbench.body.skin import lip_corners
from workbench.options import normalize_avatar_settings

DRAWN = random_settings(12, 7311) + random_settings(12, 7312)
ENDS = [{**copy.deepcopy(s), "face": {**s["face"], "lipFullness": end}} for s in random_settings(4, 7313)
        for end in (-1.0, 1.0)]


def midline(m: BodyMesh, x0: float) -> np.ndarray:
    """(y, z) of the points where the body's skin crosses the plane x = x0 (0.7 mm beside the face's middle, whose
    own vertices would lie on it)."""
    p = m.positions.astype(np.float64)[m.triangles[np.asarray(m.face_groups["body"])]]
    cuts = []
    for a, b in ((0, 1), (1, 2), (2, 0)):
        da, db = p[:, a, 0] - x0, p[:, b, 0] - x0
        s = da * db < 0
        f = (da[s] / (da[s] - db[s]))[:, None]
        cuts.append((p[s, a] + f * (p[s, b] - p[s, a]))[:, 1:])
    return np.concatenate(cuts)


def lip_profile(settings: dict) -> tuple[float, float]:
    """(mm the upper lip's front lies behind the nose's tip, mm it stands forward of the philtrum's deepest point in
    the 2 to 8 mm above it (the nostrils lie higher on the shortest noses)). The section also cuts the mouth's lining and the nostrils, behind the skin: the face's
    front is the most forward point in each 3 mm window of height."""
    m = body_mesh(normalize_avatar_settings(settings))
    left, right = lip_corners(m)
    mid = (left + right) / 2
    q = midline(m, float(mid[0]) + 0.0007)
    lip = q[(q[:, 0] > mid[1]) & (q[:, 0] < mid[1] + 0.012)]
    front_y, front_z = lip[lip[:, 1].argmax()]
    nose = q[(q[:, 0] > mid[1] + 0.015) & (q[:, 0] < mid[1] + 0.06), 1].max()
    windows = [q[np.abs(q[:, 0] - y) < 0.0015, 1] for y in np.arange(front_y + 0.002, front_y + 0.008, 0.0005)]
    philtrum = min(w.max() for w in windows if len(w))
    return float(nose - front_z) * 1000, float(front_z - philtrum) * 1000


@pytest.fixture(scope="module")
def profiles() -> np.ndarray:
    return np.array([lip_profile(s) for s in DRAWN + ENDS])


def test_the_lips_rest_well_behind_the_nose_tip(profiles):
    """The upper lip's front 12 mm or more behind the nose's tip on average and 9.5 mm on every face. On main 10.3 mm
    on average and 6.7 at the least (the lips all but reached the nose's line in a three-quarter view); now 14.0
    and 10.5."""
    behind = profiles[:, 0]
    assert behind.mean() >= 12.0 and behind.min() >= 9.5, np.round(behind, 1)


def test_the_upper_lip_is_no_cushion_over_the_philtrum(profiles):
    """The upper lip's front 3.8 mm or less forward of the philtrum on average and none more than 5.8 mm. On main 4.25
    on average and up to 6.1 (the vermilion a cushion standing out from the face); now 3.6 and up to 5.5."""
    over = profiles[:, 1]
    assert over.mean() <= 3.8 and over.max() <= 5.8, np.round(over, 1)
