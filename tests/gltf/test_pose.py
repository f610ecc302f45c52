"""gltf.pose.bone_positions against the renderer's own reading of the same files (two readers, one answer)."""

from __future__ import annotations

import numpy as np
import pytest

from workbench.gltf import bone_positions, build_animation, build_avatar
from workbench.options import ModelOptions, normalize_avatar_settings
from workbench.render.scene import Clip, Model


@pytest.fixture(scope="module")
def avatar():
    return build_avatar(normalize_avatar_settings({"gender": "feminine", "height": 180}),
                        ModelOptions(lod=2, animations=("walk", "wave")))


@pytest.mark.parametrize("t", [0.0, 0.37, 1.234, 99.0])
def test_own_clip_matches_the_renderer(avatar, t):
    model = Model(avatar, max_texture=1)
    for index, name in enumerate(["walk", "wave"]):
        ours = bone_positions(avatar, t, animation=name).set_index("joint")
        theirs = model.posed(Clip(model, index), t).joints
        err = max(float(np.abs(ours.loc[j, ["x", "y", "z"]].to_numpy() - theirs[j]).max()) for j in ours.index)
        assert err < 1e-5, (name, t, err)


def test_library_clip_applied_by_name_moves_the_hand(avatar):
    wave = build_animation("feminine", "wave")
    rest = bone_positions(avatar, None).set_index("joint")
    posed = bone_positions(avatar, 0.8, clip=wave).set_index("joint")
    assert len(posed) == 65
    moved = np.linalg.norm(posed[["x", "y", "z"]] - rest[["x", "y", "z"]], axis=1)
    assert moved[posed.index.get_loc("RightHand")] > 0.2 or moved[posed.index.get_loc("LeftHand")] > 0.2
    model = Model(avatar, max_texture=1)
    theirs = model.posed(Clip(Model(wave, max_texture=1)), 0.8).joints
    assert max(float(np.abs(posed.loc[j, ["x", "y", "z"]].to_numpy() - theirs[j]).max()) for j in posed.index) < 1e-5


def test_unknown_animation_is_named():
    with pytest.raises(ValueError, match="pose: no animation 'fly'"):
        bone_positions(build_animation("masculine", "nod"), 0.1, animation="fly")
