"""The ``hands_behind_back`` stance's arms (:func:`~workbench.gltf.stances.fitted_stance`): both arms bent behind
the back, the hands hanging one over the other at its small ("at ease").

Blind review AR ("stiff repeated poses": four of twelve avatars with hands on hips, the rest hanging, clasped or
waving) asked for a stance that reads differently at a glance; hands behind the back is one product photos use, and
from the front it shows the elbows at the sides and no hands. The forearms lie behind the back, so each body's arms
are solved as the clasped hands' are in front (:func:`rest_behind`; tests/body/test_behind_back_stance.py and
tests/body/test_stances.py).

>>> BEHIND_ARM["Hand"], BEHIND_MARGIN
((0.0, 0.0, 60.0), 0.015)
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ..skeleton import Skeleton
from .clips import Pose

# Hands behind the back ("at ease"): each upper arm turned in (its ``y``, written for the left side) so the elbow's bend
# carries the forearm across the back, the wrist bent down so the hands hang one over the other (degrees). Per body,
# each wrist goes BEHIND_AT[0] hip heights out from the middle, BEHIND_UP over the Hips joint, BEHIND_AT[1] metres
# behind the rearmost of the body and clothes within BEHIND_BAND metres of that height and of the middle (the small
# of the back): the elbows' bend tried at each of BEHIND_BEND (the same for both arms: bent each on its own, one hand
# hung 14.6 cm under the other on an athletic man), the arm's swing back and down and the forearm's turn solved on
# their grids, the forearm's bone its flesh's or sleeve's reach and BEHIND_MARGIN clear of the trunk (a margin under
# the others' FOREARM_MARGIN: forearms lie against the back; with none, the elbow's outside came 4 to 13 mm into the
# top's side, with 1 cm 4.9 mm on an athletic man's long sleeve, tests/body/test_stances.py). The least miss that
# keeps clear wins: the hands' middles 4.6 to 8.2 cm behind the back, their own thickness and one over the other
# (tests/body/test_behind_back_stance.py). Without the turn in, the forearms pointed straight back and the hands stood
# out 12 cm behind the back, seen from the side; aimed behind the rearmost of the buttocks, 8 to 12 cm.
BEHIND_ARM = {"Arm": (25.0, -70.0, -75.0), "ForeArm": (0.0, -70.0, 0.0), "Hand": (0.0, 0.0, 60.0)}
BEHIND_UP, BEHIND_AT, BEHIND_BAND, BEHIND_MARGIN = 0.1, (0.05, 0.02), 0.02, 0.015
BEHIND_BEND = np.arange(60.0, 121.0, 10.0)
BEHIND_ARM_X = np.arange(0.0, 61.0, 3.0)
BEHIND_ARM_Z = np.arange(-120.0, -59.0, 3.0)
BEHIND_FOREARM_Z = np.arange(-60.0, 61.0, 3.0)


def rest_behind(p: Pose, rig: Skeleton, pts: np.ndarray, solve: Callable[[str, np.ndarray], tuple[float, float]]
                ) -> None:
    """Both wrists behind the small of the back (:data:`BEHIND_AT`), both elbows bent as far as (one of
    :data:`BEHIND_BEND`, the same for both: the arms mirror each other) brings the wrists nearest while the forearms
    keep clear of the trunk: ``solve(side, target)`` sets that side's arm for the elbow's bend in ``p`` and returns
    its wrist's miss and its clearance's margin (:func:`workbench.gltf.stances._solve`); ``pts`` the trunk's points
    at rest (world)."""
    h, y0 = rig.hip_height, rig.world[0, 1]
    band = pts[(np.abs(pts[:, 1] - y0 - BEHIND_UP * h) < BEHIND_BAND) & (np.abs(pts[:, 0]) < 3 * BEHIND_BAND)]
    back = float(np.min(band[:, 2])) - rig.world[0, 2]
    targets = {side: np.array([s * BEHIND_AT[0] * h, BEHIND_UP * h, back - BEHIND_AT[1]])
               for side, s in (("Left", 1.0), ("Right", -1.0))}
    tried = []
    for bend in BEHIND_BEND:
        misses, gaps, angles = [], [], {}
        for side, s in (("Left", 1.0), ("Right", -1.0)):
            p.angles[side + "ForeArm"][:, 1] = -s * bend
            err, gap = solve(side, targets[side])
            misses.append(err)
            gaps.append(gap)
            angles.update({side + j: p.angles[side + j].copy() for j in ("Arm", "ForeArm")})
        tried.append((min(gaps) < 0, sum(misses), float(bend), angles))
    p.angles.update(min(tried, key=lambda t: t[:3])[3])
