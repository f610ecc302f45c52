"""The hanging arm of the ``hand_on_hip`` and ``wave`` stances (:func:`~workbench.gltf.stances.fitted_stance`): hung
at the side, then swung out from it only as far as the body and clothes need.

>>> HANG_OUT, HANG_CLEAR
(15.0, 0.002)
"""

from __future__ import annotations

import numpy as np

from ..body.rig import skin
from ..skeleton import Skeleton
from .clips import Pose
from .limb import arm_points
from .reach import NEAR, Surface, frames, tree

# The other arm of ``hand_on_hip`` hangs at the side, less forward than the idle's free arm (9 degrees back, its elbow
# 0.5 degrees more bent: 24 degrees, as when the idle's was bent 39 and this 15 less, before review AM),
# then out from the side a degree at a time, up to HANG_OUT, until every point of its forearm, sleeve and hand
# stands HANG_CLEAR (metres) or more outside the posed trunk, hips and legs (:func:`hang`). Blind review W (#5,
# #12: "the other arm held out like a T-pose leftover"): a margin kept off the trunk at rest (the T-pose's,
# turned with the hips) held it 19 to 24 degrees off the side on most bodies, the forearm 19 degrees forward.
HANG_BACK, HANG_STRAIGHTEN, HANG_OUT, HANG_CLEAR = 9.0, -0.5, 15.0, 0.002


def hang(p: Pose, side: str, rig: Skeleton, pieces, shells) -> None:
    """``side``'s arm hung at the side (:data:`HANG_BACK`, :data:`HANG_STRAIGHTEN`), then swung out from it a degree
    at a time until its forearm, sleeve and hand (:func:`~workbench.gltf.reach.arm_points`, skinned by the pose as
    a viewer skins them) stand :data:`HANG_CLEAR` or more outside each posed surface of the trunk, hips and legs
    (read on its nearest sample's normal within :data:`~workbench.gltf.reach.NEAR`, as tests/body/test_stances
    reads them); else the least out of those furthest off."""
    p.angles[side + "Arm"][:, 0] += HANG_BACK
    p.angles[side + "ForeArm"][:, 1] += (1.0 if side == "Left" else -1.0) * HANG_STRAIGHTEN
    z = p.angles[side + "Arm"][0, 2]
    s = 1.0 if side == "Left" else -1.0
    best, best_gap = 0.0, -np.inf
    limb = arm_points(rig, pieces, side, shells)    # (its rest places: the same at every degree)
    for out in np.arange(0.0, HANG_OUT + 1):
        p.angles[side + "Arm"][:, 2] = z + s * out
        rot, pos = frames(p, rig)      # (the top's side under the arm is skinned to it in part: posed each time)
        each = [(tree(a), a, b) for a, b in Surface(rig, pieces, rot, pos, shells).each if len(a)]
        at = np.concatenate([skin(x, rig.world, pos, rot, j, w) for j, w, x in limb])
        gap = np.inf
        for near, a, n in each:
            d, k = near.query(at, distance_upper_bound=NEAR)
            hit = np.isfinite(d)
            if hit.any():
                gap = min(gap, float(np.einsum("nc,nc->n", at[hit] - a[k[hit]], n[k[hit]]).min()))
        if gap > best_gap + 1e-9:
            best, best_gap = out, gap
        if gap >= HANG_CLEAR:
            best = out
            break
    p.angles[side + "Arm"][:, 2] = z + s * best
