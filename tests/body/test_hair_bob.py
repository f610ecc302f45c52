"""The bob lies on the head (issue 46, review C's second defect, S2#5: "the blonde bob is a stiff shell set away from
the head"), measured in the idle pose as a viewer draws it, on random bodies: behind the ears and below the skull's
centre no bob vertex is more than :data:`MOST_OFF` from the skin. (Falling from the head's widest, where the body
envelope under it is as wide, the back hung straight down, 4 to 5 cm off the nape: a shell.)
"""

from functools import cache

import numpy as np
import pytest
from helpers import random_settings
from scipy.spatial import cKDTree

from workbench.body.hair.head import head_of
from workbench.body.mesh import body_mesh
from workbench.gltf import build_avatar
from workbench.options import ModelOptions, normalize_avatar_settings
from workbench.render.scene import Clip, Model

MOST_OFF = 0.03
COUNT = 3


@cache
def idle(k: int):
    s = normalize_avatar_settings(dict(random_settings(COUNT, seed=4607)[k], hair={"style": "bob", "color": "#D8B878"}))
    model = Model(build_avatar(s, ModelOptions(animations=("idle",))), max_texture=1)
    posed = model.posed(Clip(model, 0), 0.0)
    hair = np.concatenate([d.positions for d in posed.draws if d.mesh_name == "Hair"]).astype(np.float64)
    skin = np.concatenate([d.positions for d in posed.draws if d.mesh_name == "Body"]).astype(np.float64)
    return hair, skin, head_of(body_mesh(s)).centre, (s["gender"], s["bodyShape"])


@pytest.mark.parametrize("k", range(COUNT))
def test_the_bob_lies_on_the_nape(k):
    hair, skin, centre, what = idle(k)
    rel = hair - centre
    behind = (np.abs(np.degrees(np.arctan2(rel[:, 0], rel[:, 2]))) > 135) & (rel[:, 1] < -0.02)
    off = cKDTree(skin).query(hair[behind])[0]
    assert behind.sum() > 100 and off.max() <= MOST_OFF, (what, int(behind.sum()), float(off.max()))
