"""Blind review T, defect 8: "a stiff, odd idle pose: in the three-quarter column the far arm reaches forward"
(the ``relaxed`` avatars #1, #2, #5, #12). Should be: the arms hanging by the thighs with a slight elbow bend.

Measured as a preview poses the avatar (the library's idle clip at 0 s, :func:`workbench.render.pictures.preview_pose`),
in the hips' frame (forward: square to the line between the hip joints): each palm's centre (the mean of the body's
vertices past the wrist in the T-pose) against the middle of the leg's outside at the palm's height (the skin's and
the bottom's vertices on that side, within 1.5 cm of it), the elbow's bend between the joints, and no hand or forearm
through the skin or the bottom (``test_stances.limbs_in_trunk``). On main (pass 29's idle) the elbows bent 39 (left,
the free side's) and 32.5 degrees, the forearms 50 degrees forward of the vertical: the left palm hung above the
crotch, in front of the belly (no leg at its height), the right one 20 to 23 cm in front of its thigh's middle; now
17.5 and 11.5 degrees, the palms 3.5 to 9 cm (left) and -5.4 to 4.8 cm (right) from it on eight bodies (each
gender: slim, average, heavy, athletic).
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest
from built import built
from test_stances import DEPTH, limbs_in_trunk

from workbench.options import ModelOptions, normalize_avatar_settings
from workbench.render.pictures import preview_pose
from workbench.render.scene import Model

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "gltf"))
from test_idle_stance import ELBOW, bend  # noqa: E402

BODIES = [("masculine", "average"), ("masculine", "heavy"), ("feminine", "slim")]
# The palm's centre at most this far in front of its thigh's middle (metres; a thigh is 14 to 20 cm deep).
FORWARD = 0.10


@pytest.fixture(scope="module", params=BODIES, ids=["-".join(b) for b in BODIES])
def avatar(request):
    gender, shape = request.param
    settings = normalize_avatar_settings({"gender": gender, "bodyShape": shape, "hair": {"style": "none"},
                                          "outfit": {"topStyle": "tee", "bottomStyle": "trousers"}})
    return Model(built(settings, ModelOptions()))


def palms_ahead(m: Model) -> dict[str, float]:
    """Each palm's centre ahead of the middle of the leg's outside at its height (metres; NaN: no leg there)."""
    rest, posed = m.posed(), m.posed(*preview_pose(m))
    j = posed.joints
    across = j["LeftUpLeg"] - j["RightUpLeg"]
    across[1] = 0.0
    forward = np.cross(across / np.linalg.norm(across), [0.0, 1.0, 0.0])
    r = {d.mesh_name: d.positions.astype(np.float64) for d in rest.draws}
    p = {d.mesh_name: d.positions.astype(np.float64) for d in posed.draws}
    legs_rest = np.concatenate([r["Body"], r["Outfit_Bottom"]])
    legs = np.concatenate([p["Body"], p["Outfit_Bottom"]])
    shoulder = abs(float(rest.joints["LeftArm"][0]))
    out = {}
    for side, s in (("Left", 1.0), ("Right", -1.0)):
        palm = p["Body"][s * r["Body"][:, 0] > s * rest.joints[side + "Hand"][0]].mean(0)
        leg = ((np.abs(legs[:, 1] - palm[1]) < 0.015) & (s * legs_rest[:, 0] > 0.01) & (s * legs_rest[:, 0] < shoulder)
               & (legs_rest[:, 1] < rest.joints["LeftUpLeg"][1]))
        out[side] = float((palm - legs[leg].mean(0)) @ forward) if leg.any() else float("nan")
    return out


def test_the_hands_hang_by_the_thighs_not_reaching_forward(avatar):
    ahead = palms_ahead(avatar)
    assert all(a <= FORWARD for a in ahead.values()), ahead           # (NaN: the hand above the legs fails too)


def test_the_elbows_bend_slightly(avatar):
    j = avatar.posed(*preview_pose(avatar)).joints
    elbows = {s: bend(j, f"{s}Arm", f"{s}ForeArm", f"{s}Hand") for s in ("Left", "Right")}
    assert all(ELBOW[0] < e < ELBOW[1] for e in elbows.values()), elbows


def test_no_hand_in_the_thigh(avatar):
    depths = limbs_in_trunk(avatar, "tee", "trousers")
    assert depths["Body"] <= DEPTH and depths["Outfit_Bottom"] <= DEPTH, depths
