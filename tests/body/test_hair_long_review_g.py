"""Review G's long hair (issue 46, defect 2: "Long hair splays out as stiff flat sheets ... Card planes stick out
sideways over the shoulders like wings ... Should be: hair that falls onto the shoulders and follows gravity and the
collar"), measured on random avatars wearing long hair, every body shape under every top, posed from the GLB as a
viewer poses it (the first frame of the idle clip):

- **No wings**: between :data:`BAND` metres over each shoulder's joint (the trapezius, the side of the neck: hair
  lying on the shoulders lies there over the skin or a collar) the hair's farthest vertex from the neck, sideways,
  as a share of the neck's distance from the shoulder's joint, is at most :data:`WIDEST`. The hair falling down the
  back, still turning behind the neck as it met the shoulders' back corners (the shoulder blades, a hood), was held
  out over them and drew a sheet from the jaw to the shoulder's corner: 1.1 to 1.35.
"""

from functools import cache

import numpy as np
import pytest
from built import built_rest as build_avatar  # one build per run, no face shapes (tests/built.py)
from helpers import random_settings, sweep

from workbench.options import BODY_SHAPES, TOP_STYLES, ModelOptions, normalize_avatar_settings
from workbench.render.scene import Clip, Model

BAND = (0.03, 0.10)
WIDEST = 0.95
CASES = [(shape, top) for shape in BODY_SHAPES for top in TOP_STYLES]
SEED = 4710


def wings(hair: np.ndarray, joints: dict) -> list[float]:
    """Per side, the hair's farthest reach sideways from the neck within :data:`BAND` over the shoulder's joint,
    as a share of the joint's distance from the neck (hair lying on the shoulders: under 1).

    >>> j = {"Neck": np.zeros(3), "LeftArm": np.array([0.16, -0.08, 0]), "RightArm": np.array([-0.16, -0.08, 0])}
    >>> hair = np.array([[0.12, -0.03, 0.0], [-0.2, -0.02, 0.0], [0.3, -0.2, 0.0]])
    >>> [round(w, 2) for w in wings(hair, j)]
    [0.75, 1.25]
    """
    neck = np.asarray(joints["Neck"], float)
    out = []
    for side, sign in (("Left", 1.0), ("Right", -1.0)):
        arm = np.asarray(joints[f"{side}Arm"], float)
        band = (hair[:, 1] > arm[1] + BAND[0]) & (hair[:, 1] < arm[1] + BAND[1])
        reach = sign * (hair[band, 0] - neck[0])
        out.append(float(reach.max() / abs(arm[0] - neck[0])) if band.any() else 0.0)
    return out


def long_haired(shape: str, top: str) -> dict:
    """The normalized settings of a random avatar (review G's seed's neighbour) with long hair, this body shape and
    top: one of the twelve random long-haired avatars review G's and review C's (test_hair_falls_review_c) tests
    measure, built once for both (tests/built.py)."""
    k = CASES.index((shape, top))
    s = dict(random_settings(len(CASES), SEED)[k])
    s.update(bodyShape=shape, hair=dict(s["hair"], style="long"), outfit=dict(s["outfit"], topStyle=top))
    return normalize_avatar_settings(s)


@cache
def posed_hair(shape: str, top: str) -> tuple[np.ndarray, dict]:
    """The long hair's vertices (both pieces) and the joints, in the idle clip's first frame, on
    :func:`long_haired`'s avatar."""
    model = Model(build_avatar(long_haired(shape, top), ModelOptions(animations=("idle",))), max_texture=1)
    posed = model.posed(Clip(model, 0), 0.0)
    hair = np.concatenate([d.positions for d in posed.draws if d.mesh_name in ("Hair", "Hair_Fringe")])
    return hair.astype(np.float64), {k: np.asarray(v, float) for k, v in posed.joints.items()}


@pytest.mark.parametrize("shape,top", sweep(CASES))
def test_long_hair_lies_on_the_shoulders_with_no_wings(shape, top):
    hair, joints = posed_hair(shape, top)
    assert max(wings(hair, joints)) <= WIDEST, [round(w, 3) for w in wings(hair, joints)]
