"""Long hair falls onto the shoulders and the back (issue 46, review C's worst defect, S2#7: "long hair has sheets of
strands sticking out sideways at shoulder height ... as wings in the back view"), measured in the idle pose as a
viewer draws it (the first frame of the avatar's own idle clip, posed from the GLB), on random bodies and tops:

- **Off the body**: no long-hair vertex from 20 cm under the shoulders' joints to 20 cm over them lies more than
  :data:`MOST_OFF` from the skin or the top. (The body envelope hair is fitted over took the arms' reach right across
  a row with no vertex over the back or the chest, and the shoulders' tops turned down with the arms whole rose
  5 to 10 cm over where the clips put them: long hair stood up to 16 cm off a slim back.)
- **Carried out by the arms**: no hair over the shoulders' joints moves out sideways from the neck by more than
  :data:`MOST_CARRIED` from its place in the file to the idle pose. (The hair is fitted round the arms as they hang;
  skinned to them, it was carried out again as the clip lowered them from the bind pose's T, up to 7 cm: flaps beside
  the neck.) Out from the neck as it stands in each: the idle's weight on one leg carries the whole upper body 5 to 7
  cm sideways (pose8), hair and neck alike, and measured from the file's middle that read as 6 to 8 cm carried out.
"""

from functools import cache

import numpy as np
import pytest
from built import built_rest as build_avatar  # one build per run, no face shapes (tests/built.py)
from scipy.spatial import cKDTree
from test_hair_long_review_g import CASES, long_haired

from workbench.body.mesh import body_mesh
from workbench.options import ModelOptions
from workbench.render.scene import Clip, Model

MOST_OFF = 0.092      # metres (main: 0.0859 on #2, a hoodie; locks39 0.0904, its back rounded over the blades)
MOST_CARRIED = 0.02
# The random long-haired avatars are review G's (test_hair_long_review_g: every body shape under every top, the other
# fields drawn at random), built once for both files: until suite42 this file drew eight of its own (seed 4603, the
# tops in turn), the same kind of avatar, measured in the same pose.
COUNT = len(CASES)


@cache
def idle(k: int):
    """Random body ``k`` with long hair in the idle pose: (hair vertices as posed and as in the file, skin and top
    vertices, the shoulders' joints' height, the neck joint's x as posed and as in the file, what the body wears)."""
    s = long_haired(*CASES[k])
    model = Model(build_avatar(s, ModelOptions(animations=("idle",))), max_texture=1)
    posed = model.posed(Clip(model, 0), 0.0)
    hair = np.concatenate([d.positions for d in posed.draws if d.mesh_name == "Hair"]).astype(np.float64)
    prims = next(m for m in model.doc["meshes"] if m["name"] == "Hair")["primitives"]
    placed = np.concatenate([model.accessor(p["attributes"]["POSITION"]) for p in prims]).astype(np.float64)
    body = np.concatenate([d.positions for d in posed.draws if d.mesh_name in ("Body", "Outfit_Top")]).astype(np.float64)
    left, right = body_mesh(s).skeleton.pos("LeftArm"), body_mesh(s).skeleton.pos("RightArm")
    neck = (float(posed.joints["Neck"][0]), float(model.posed().joints["Neck"][0]))
    return (hair, placed, body, float((left[1] + right[1]) / 2), neck, (s["gender"], s["bodyShape"], s["outfit"]["topStyle"]))


@pytest.mark.parametrize("k", range(COUNT))
def test_long_hair_lies_on_the_shoulders_and_the_back(k):
    hair, _, body, shoulder, _, what = idle(k)
    band = (hair[:, 1] > shoulder - 0.2) & (hair[:, 1] < shoulder + 0.2)
    off = cKDTree(body).query(hair[band])[0].max()
    assert off <= MOST_OFF, (what, float(off))


@pytest.mark.parametrize("k", range(0, COUNT, 2))
def test_lowering_the_arms_carries_no_hair_out_beside_the_neck(k):
    hair, placed, _, shoulder, (neck, neck_placed), what = idle(k)
    assert hair.shape == placed.shape
    above = placed[:, 1] > shoulder + 0.06
    out = np.abs(hair[above, 0] - neck) - np.abs(placed[above, 0] - neck_placed)
    assert out.max() <= MOST_CARRIED, (what, float(out.max()))
