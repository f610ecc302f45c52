"""The ``wave`` stance (contract section 4, blind review AL's "repetitive stiff poses"): the right hand raised open
beside the head, clear of the head, its hair and glasses, on every hair style, build and top.

Measured on the GLB as a viewer poses it (its first animation, ``pose``, at 0 s, as tests/body/test_stances.py
reads it; that file holds the wave's arms clear of the trunk and the skin inside the clothes on every cut). The raised
arm's parts are the skin's and the top's vertices that lie along the right arm in the T-pose: the forearm and hand
from the elbow out, the upper arm from :data:`UPPER_FROM` of its length out from the shoulder. The head is its hair,
brows, lashes, eyes and glasses and the skin above the neck's joint by :data:`NECK_UP`. On this file's bodies, when
written, the forearm and hand stood 22 to 29 cm off the head and hair, the upper arm 16 to 24 cm, the wrist 4 to 8 cm
over the eyes.
"""

from __future__ import annotations

from functools import cache

import numpy as np
import pytest
from built import built_rest as built  # one build per run, no face shapes (tests/built.py)
from scipy.spatial import cKDTree
from test_clothes_in_clips import BUILDS

from workbench.options import HAIR_STYLES, POSES, TOP_STYLES, ModelOptions, normalize_avatar_settings
from workbench.render.pictures import preview_pose
from workbench.render.scene import Model

#: The least distance (metres) from the head and its hair: the forearm and hand (a hand that brushes the hair reads as
#: scratching the head, not waving), the upper arm (long hair hangs beside it); the wrist's least height over the eyes'.
FOREARM_CLEAR, UPPER_CLEAR, WRIST_OVER_EYES = 0.10, 0.05, 0.02
UPPER_FROM, NECK_UP = 0.4, 0.03
HEAD_PARTS = ("Eyebrows", "Eyelashes", "Eyes", "Glasses")
#: Every hair style on a build and a top of its own (the builds and tops in turn); the quick loop keeps the styles that
#: reach the shoulders or stand out round the head (NEAR_ARM), the whole suite runs every one.
CASES = [(style, *BUILDS[k % len(BUILDS)], TOP_STYLES[k % len(TOP_STYLES)]) for k, style in enumerate(HAIR_STYLES)]
NEAR_ARM = ("long", "bob", "curly", "ponytail")


@cache
def measured(style: str, gender: str, shape: str, top: str) -> dict[str, float]:
    """The raised arm's forearm and upper arm's least distance to the head (metres) and the wrist's height over the
    eyes' (metres), in the model's preview pose."""
    settings = normalize_avatar_settings({"gender": gender, "bodyShape": shape, "pose": "wave",
                                          "hair": {"style": style}, "glasses": "clear",
                                          "outfit": {"topStyle": top}})
    m = Model(built(settings, ModelOptions()))
    rest = m.posed()
    posed = m.posed(*preview_pose(m))
    r = {d.mesh_name: d for d in rest.draws}
    p = {d.mesh_name: d for d in posed.draws}
    shoulder, elbow = rest.joints["RightArm"], rest.joints["RightForeArm"]
    upper = float(np.linalg.norm(elbow - shoulder))
    head = [p[n].positions for n in p if n.startswith("Hair") or n in HEAD_PARTS]
    head.append(p["Body"].positions[r["Body"].positions[:, 1] > float(rest.joints["Neck"][1]) + NECK_UP])
    near = cKDTree(np.concatenate(head).astype(np.float64))
    out = {}
    for part, start in (("forearm", float(elbow[0])), ("upper arm", float(shoulder[0]) - UPPER_FROM * upper)):
        # (the right arm lies along -x in the T-pose)
        limb = np.concatenate([p[n].positions[r[n].positions[:, 0] < start] for n in ("Body", "Outfit_Top")])
        out[part] = float(near.query(limb.astype(np.float64))[0].min())
    out["wrist over eyes"] = float(posed.joints["RightHand"][1] - p["Eyes"].positions[:, 1].mean())
    return out


@pytest.mark.parametrize("style,gender,shape,top", [pytest.param(*c, marks=() if c[0] in NEAR_ARM else pytest.mark.slow)
                                                    for c in CASES])
def test_the_raised_hand_waves_clear_of_the_head_and_hair(style, gender, shape, top):
    got = measured(style, gender, shape, top)
    assert got["forearm"] >= FOREARM_CLEAR and got["upper arm"] >= UPPER_CLEAR, got
    assert got["wrist over eyes"] >= WRIST_OVER_EYES, got


@pytest.mark.parametrize("pose", [p for p in POSES if p != "wave"])
def test_the_other_stances_raise_no_hand(pose):
    """What the wave's check reads as a raised hand, no other stance has: their right wrists well under the eyes."""
    settings = normalize_avatar_settings({"gender": "feminine", "hair": {"style": "none"}, "pose": pose})
    m = Model(built(settings, ModelOptions()))
    posed = m.posed(*preview_pose(m))
    eyes = float(next(d for d in posed.draws if d.mesh_name == "Eyes").positions[:, 1].mean())
    assert float(posed.joints["RightHand"][1]) < eyes - 0.3


#: The most the eyes' line may lean off level in any stance (degrees): the idle's own lean is 0.5 to 0.65, the wave's
#: was 6.5 before the clip's tilt of the head and chest came off its held stance (blind review AS #8: "the face skewed,
#: one eye higher, the mouth pushed off-centre" in the portrait and every close-up).
LEVEL = 1.5


@pytest.mark.parametrize("gender", ["feminine", "masculine"])
@pytest.mark.parametrize("pose", POSES)
def test_every_stance_holds_the_eyes_level(pose, gender):
    settings = normalize_avatar_settings({"gender": gender, "hair": {"style": "none"}, "pose": pose})
    m = Model(built(settings, ModelOptions()))
    rest = next(d for d in m.posed().draws if d.mesh_name == "Eyes").positions
    eyes = next(d for d in m.posed(*preview_pose(m)).draws if d.mesh_name == "Eyes").positions
    left, right = eyes[rest[:, 0] > 0].mean(0), eyes[rest[:, 0] < 0].mean(0)
    lean = float(np.degrees(np.arctan2(left[1] - right[1], np.hypot(left[0] - right[0], left[2] - right[2]))))
    assert abs(lean) <= LEVEL, lean
