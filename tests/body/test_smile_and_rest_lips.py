"""The smile's eyes and cheeks, and the lips at rest (issue 46, blind review C: "the corners barely turn up, and the
cheeks and eyes don't move, so it reads as a grimace"; "lips too big and pushed forward in the resting face").
Measured on the body mesh (metres, facing +z) and mouthSmile's sum of shapes (workbench.body.face.COMBINED)."""

from __future__ import annotations

import numpy as np
import pytest
from helpers import random_settings, smile_deltas

from workbench.body.mesh import body_mesh
from workbench.body.skin import lip_corners
from workbench.options import normalize_avatar_settings

FACES = [{"gender": "feminine"}, {"gender": "masculine"}, {"gender": "masculine", "bodyShape": "heavy"}]


def smile(settings: dict) -> dict[str, float]:
    """mm, both sides' mean: the lower lid's rise (the skin 4 to 12 mm under the eye's centre, in front of it) and
    the cheek's rise (15 to 40 mm under it) in mouthSmile, and how far that cheek comes forward ("forward")."""
    m, full = smile_deltas(settings)
    body = np.asarray(m.groups["body"])
    q = m.positions[body].astype(np.float64)
    front = m.normals[body, 2] > 0.3
    lid, cheek, forward = [], [], []
    for side in "lr":
        eye = m.positions[m.groups[f"helper-{side}-eye"]].astype(np.float64).mean(0)
        dx, dy = np.abs(q[:, 0] - eye[0]), q[:, 1] - eye[1]
        lid.append(full[body[front & (dx < 0.008) & (dy > -0.012) & (dy < -0.004) & (q[:, 2] > eye[2])], 1].mean())
        apple = body[front & (dx < 0.015) & (dy > -0.04) & (dy < -0.015) & (q[:, 2] > eye[2] - 0.02)]
        cheek.append(full[apple, 1].mean())
        forward.append(full[apple, 2].mean())
    return {"lid": float(np.mean(lid)) * 1000, "cheek": float(np.mean(cheek)) * 1000,
            "forward": float(np.mean(forward)) * 1000}


@pytest.mark.parametrize("settings", FACES, ids=lambda s: "-".join(s.values()))
def test_a_smile_squints_and_raises_the_cheeks(settings):
    """The lower lids rise 2.9 mm or more (the eyes narrow) and the skin under the eyes comes forward 0.9 mm or more
    on average (the cheeks round). Before: 2.6 to 2.8 mm of lid and -0.3 to 0.4 mm of cheek, a smile with still eyes
    read as a grimace; 3.4 to 3.7 at eyeSquint 0.8, which showed white specks of eyeball under the lids of large
    eyes (blind review E); now 3.0 and more at 0.65."""
    got = smile(settings)
    assert got["lid"] >= 2.9 and got["cheek"] >= 0.9, got


@pytest.mark.parametrize("settings", FACES, ids=lambda s: "-".join(s.values()))
def test_a_smile_brings_the_cheeks_forward(settings):
    """The cheeks under the eyes come 1.2 mm or more forward on average in mouthSmile: a cheek that only slides up
    along its own surface shades as before and reads flat (blind review D: "cheeks don't bunch"). On main the
    smoothing that unfolds the corner's triangles smoothed the cheek's forward push away too: -0.3 to 0.2 mm
    (up 5.5 to 6.7 mm); now 1.5 to 2.0 mm (3.3 to 4.0 at the most)."""
    assert smile(settings)["forward"] >= 1.2


def upper_lip_past_e_line(settings: dict) -> float:
    """mm the upper lip's front lies in front of (+) the line from the nose's tip to the chin, in the face's middle."""
    m = body_mesh(normalize_avatar_settings(settings))
    left, right = lip_corners(m)
    mid = (left + right) / 2
    q = m.positions[np.asarray(m.groups["body"])].astype(np.float64)
    near = np.abs(q[:, 0] - mid[0]) < 0.01

    def front(sel):
        return q[near & sel][np.argmax(q[near & sel][:, 2])]

    lip = front((q[:, 1] > mid[1]) & (q[:, 1] < mid[1] + 0.012))
    nose = front((q[:, 1] > mid[1] + 0.015) & (q[:, 1] < mid[1] + 0.06))
    chin = front((q[:, 1] < mid[1] - 0.02) & (q[:, 1] > mid[1] - 0.06))
    line = nose[2] + (lip[1] - nose[1]) / (chin[1] - nose[1]) * (chin[2] - nose[2])
    return (lip[2] - line) * 1000


FEMININE = [{"gender": "feminine", "bodyShape": b, "face": {"lipFullness": 0}} for b in ("slim", "average")] + \
    [s for s in random_settings(10, 4646) if s["gender"] == "feminine" and s["face"]["lipFullness"] <= 0.2]


def test_resting_feminine_lips_sit_behind_the_e_line():
    """A feminine face's upper lip at rest, with the lip-fullness control at its neutral 0 (or below) and the
    face's own variety, 2.9 mm or more behind the nose-tip-to-chin line, as an adult's sits (Ricketts: about 4);
    at lipFullness 1 still 1.2 mm behind. On main 1.6 to 3.5 mm at 0 and 0.6 at 1, pouting "duck lips" on light
    feminine faces in blind review C; now 3.1 to 4.4 and 1.3."""
    rest = [upper_lip_past_e_line(s) for s in FEMININE]
    full = upper_lip_past_e_line({"gender": "feminine", "face": {"lipFullness": 1}})
    assert max(rest) <= -2.9 and full <= -1.2, (np.round(rest, 1), round(full, 1))
