"""The ``hands_behind_back`` stance (contract section 4, blind review AR's "stiff repeated poses", four of twelve
hands on hips): both hands behind the back at its small, hanging one over the other, close to it, on every build,
top and bottom.

Measured on the GLB as a viewer poses it (its first animation, ``pose``, at 0 s, as tests/body/test_stances.py
reads it; that file holds the forearms clear of the trunk and the skin inside the clothes on every cut). A hand is
the skin's vertices that lie past its wrist along the arm in the T-pose; the back is the rearmost of the trunk's skin
and clothes (below the armpits, between the shoulders) within :data:`BAND` of the hands' height and the middle. On
this file's bodies, when written, the hands' middles stood 4.6 to 8.2 cm behind the back (the hand's own thickness and
the outer hand over the inner in it), 0.8 to 6.3 cm from the middle, 4.3 cm under to 11.8 cm over the Hips joint (the
two hands of a body within 2.0 cm of each other's height; 14.6 cm apart on one when each arm's elbow was bent on its
own); every hand's foremost point 29.1 cm or more behind the trunk's foremost (no hand seen from the front).
"""

from __future__ import annotations

from functools import cache

import numpy as np
import pytest
from test_stances import CASES as STANCE_CASES
from test_stances import model

from workbench.render.pictures import preview_pose

BAND = 0.03
#: Each hand's middle: behind the back by at most BEHIND (metres; a hand further off floats, seen from the side: the
#: first solve's hands, aimed at the rearmost of the buttocks, stood 8 to 12 cm off), and not in it; within MIDDLE of
#: the body's middle (where the hands meet); from DOWN under the Hips joint to UP over it (the small of the back, not
#: the shoulder blades), the two within LEVEL of each other (one over the other); each hand's foremost point FRONT or
#: more behind the trunk's foremost.
BEHIND, MIDDLE, DOWN, UP, LEVEL, FRONT = 0.09, 0.08, 0.06, 0.15, 0.04, 0.2
#: Every top and bottom, each on a build of its own in turn: tests/body/test_stances.py's cases of the stance, whose
#: avatars are built once for both files (tests/built.py).
CASES = [c[1:] for c in STANCE_CASES if c[0] == "hands_behind_back"]


@cache
def measured(top: str, bottom: str, gender: str, shape: str) -> dict[str, list[float]]:
    """Per hand (left, right): its middle's depth behind the back, its distance from the body's middle and its height
    over the Hips joint (metres), and how far its foremost point lies behind the trunk's foremost."""
    m = model("hands_behind_back", top, bottom, gender, shape)
    rest = m.posed()
    posed = m.posed(*preview_pose(m))
    r = {d.mesh_name: d for d in rest.draws}
    p = {d.mesh_name: d for d in posed.draws}
    arm_x = abs(float(rest.joints["LeftArm"][0]))
    armpit = float(rest.joints["LeftArm"][1]) - 0.1
    hips = posed.joints["Hips"]
    trunk = []
    for name in ("Body", "Outfit_Top", "Outfit_Bottom"):
        if name in r:
            x, y = np.abs(r[name].positions[:, 0]), r[name].positions[:, 1]
            trunk.append(p[name].positions[(y < armpit) & (x < arm_x)])
    trunk_pts = np.concatenate(trunk).astype(np.float64)
    out: dict[str, list[float]] = {"behind": [], "middle": [], "up": [], "under front": []}
    for side, s in (("Left", 1.0), ("Right", -1.0)):
        wrist_x = s * float(rest.joints[side + "Hand"][0])
        hand = p["Body"].positions[s * r["Body"].positions[:, 0] > wrist_x].astype(np.float64)
        mid = hand.mean(0)
        near = trunk_pts[(np.abs(trunk_pts[:, 1] - mid[1]) < BAND) & (np.abs(trunk_pts[:, 0] - hips[0]) < BAND)]
        back = float(near[:, 2].min())
        out["behind"].append(round(back - float(mid[2]), 4))
        out["middle"].append(round(abs(float(mid[0] - hips[0])), 4))
        out["up"].append(round(float(mid[1] - hips[1]), 4))
        out["under front"].append(round(float(trunk_pts[:, 2].max() - hand[:, 2].max()), 4))
    return out


@pytest.mark.parametrize("top,bottom,gender,shape", CASES)
def test_the_hands_rest_behind_the_small_of_the_back(top, bottom, gender, shape):
    got = measured(top, bottom, gender, shape)
    assert all(0.0 <= v <= BEHIND for v in got["behind"]), got
    assert all(v <= MIDDLE for v in got["middle"]), got
    assert all(-DOWN <= v <= UP for v in got["up"]), got
    assert abs(got["up"][0] - got["up"][1]) <= LEVEL, got
    assert all(v >= FRONT for v in got["under front"]), got
