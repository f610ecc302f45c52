"""Blind review K's eighth defect: in the hands-on-hips stances the hands floated beside the hips on heavier bodies
(seed 4621 #7, ``hand_on_hip``, a short heavy woman: the hand hangs beside the hip, the elbow out; #9,
``hands_on_hips``, a short heavy man: a gunslinger's stance, the hands not touching).

A hand on the hip touches it. Measured on the GLB as a viewer poses it (its ``pose`` clip at 0 s): the palm is the
hand's skin between the wrist and the knuckles facing down in the T-pose (where the left hand lies along +x palm
down); the hip is the outermost of the skin and the clothes (the skin, the top's and the bottom's
outsides) below the armpits (the T-pose's arms are above), sampled at its triangles with their normals. The gap is the nearest a palm vertex
comes to that surface, signed by its normal (negative: inside it): it must lie in :data:`GAP` (touching, not sunk
into the hip) for each hand on a hip, over bodies light to heavy, short to tall, both genders and each bottom.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
import pytest
from helpers import sweep
from scipy.spatial import cKDTree
from test_stances import _samples

from workbench.body.outfit.pattern import pattern
from workbench.gltf import build_avatar
from workbench.options import BODY_SHAPES, ModelOptions, normalize_avatar_settings
from workbench.render.pictures import preview_pose
from workbench.render.scene import Model

GAP = (-0.015, 0.010)
NEAR = 0.03
HEIGHTS = (145.0, 175.0, 205.0)
BOTTOMS = ("trousers", "skirt", "shorts")
CASES = [(pose, gender, shape, height, BOTTOMS[(i + j + k) % len(BOTTOMS)])
         for pose in ("hands_on_hips", "hand_on_hip") for i, gender in enumerate(("feminine", "masculine"))
         for j, shape in enumerate(BODY_SHAPES) for k, height in enumerate(HEIGHTS)]


@lru_cache(maxsize=4)
def model(pose: str, gender: str, shape: str, height: float, bottom: str, top: str = "tee") -> Model:
    settings = normalize_avatar_settings({"gender": gender, "bodyShape": shape, "height": height, "pose": pose,
                                          "hair": {"style": "none"}, "glasses": "none",
                                          "outfit": {"topStyle": top, "bottomStyle": bottom}})
    return Model(build_avatar(settings, ModelOptions()))


def palm_gaps(m: Model, top: str, bottom: str) -> dict[str, float]:
    """Per side (``Left``, ``Right``), the signed distance from the palm's nearest vertex to the trunk's outermost
    surface in the model's preview pose (metres; negative: inside it)."""
    rest, posed = m.posed(), m.posed(*preview_pose(m))
    r = {d.mesh_name: d for d in rest.draws}
    p = {d.mesh_name: d for d in posed.draws}
    armpit = float(rest.joints["LeftArm"][1]) - 0.1
    pts, normals = [], []
    for name, shell in (("Body", None), ("Outfit_Top", len(pattern(top)["vmap"])),
                        ("Outfit_Bottom", len(pattern(bottom)["vmap"]))):
        pos = r[name].positions
        keep = pos[:, 1] < armpit                    # (a heavy body's hips are wider than its shoulder joints)
        if shell is not None:
            keep[shell:] = False                      # the outsides only, not the facings turned in at the hems
        a, n = _samples(p[name], keep)
        pts.append(a)
        normals.append(n)
    surface, normal = np.concatenate(pts), np.concatenate(normals)
    tree = cKDTree(surface)
    body = r["Body"].positions
    out = {}
    for side, s in (("Left", 1.0), ("Right", -1.0)):
        wrist, knuckle = rest.joints[side + "Hand"], rest.joints[side + "HandMiddle1"]
        x = s * body[:, 0]
        hand = (x > s * wrist[0] - 0.005) & (x < s * knuckle[0]) & (np.abs(body[:, 2] - wrist[2]) < 0.06)
        palm = hand & (np.abs(body[:, 1] - wrist[1]) < 0.06) & (r["Body"].normals[:, 1] < -0.5)
        at = p["Body"].positions[palm].astype(np.float64)
        d, k = tree.query(at)
        near = d < NEAR
        signed = np.einsum("nc,nc->n", at[near] - surface[k[near]], normal[k[near]])
        out[side] = round(float(signed.min() if near.any() else d.min()), 4)
    return out


# A known fault, not fixed yet: main's solver aims the wrist 5.5 cm out from the hip's widest, and every
# ``hands_on_hips`` body here holds its palms 2.7 to 9.4 cm off the hip (``hand_on_hip``'s right palm 0.4 to 6.8 cm).
# A solver laying the palm on the hip (branch hips17, commit 4e5dd6d) brought the power stance's palms to 0.2 to
# 0.7 cm but put forearms 1.6 to 3 cm into long sleeves' and tees' trunks on five of test_stances' cases, so it was
# left out. Strict: each case fails as soon as the fault is fixed (then take the mark off).
@pytest.mark.xfail(strict=True, reason="hands float off the hips (review K #8): see the comment")
@pytest.mark.parametrize("pose,gender,shape,height,bottom", sweep(c for c in CASES if c[0] == "hands_on_hips"))
def test_each_hand_on_a_hip_touches_it(pose, gender, shape, height, bottom):
    gaps = palm_gaps(model(pose, gender, shape, height, bottom), "tee", bottom)
    on_hip = gaps if pose == "hands_on_hips" else {"Right": gaps["Right"]}
    assert all(GAP[0] <= g <= GAP[1] for g in on_hip.values()), gaps
