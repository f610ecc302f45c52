"""build_animation and the library: names, durations, 30 fps, cyclic closure, and motions that read right."""

from __future__ import annotations

import numpy as np
import pytest

from workbench.gltf import build_animation, build_animation_library, inspect
from workbench.gltf.clips import DURATIONS
from workbench.gltf.glb import read_accessor, read_glb
from workbench.options import ANIMATIONS, CYCLIC_ANIMATIONS
from workbench.skeleton import JOINT_NAMES


def _tracks(glb: bytes):
    """{(node name, path): (times, values)} of the file's only animation, plus the node list."""
    doc, binary = read_glb(glb)
    anim = doc["animations"][0]
    out = {}
    for ch in anim["channels"]:
        smp = anim["samplers"][ch["sampler"]]
        out[doc["nodes"][ch["target"]["node"]]["name"], ch["target"]["path"]] = (
            read_accessor(doc, binary, smp["input"])[:, 0], read_accessor(doc, binary, smp["output"]))
    return doc, out


def _rotate(q, v):
    u, w = q[:3], q[3]
    return v + 2 * np.cross(u, np.cross(u, v) + w * v)


def _qmul(a, b):
    ax, ay, az, aw = a
    bx, by, bz, bw = b
    return np.array([aw * bx + ax * bw + ay * bz - az * by, aw * by - ax * bz + ay * bw + az * bx,
                     aw * bz + ax * by - ay * bx + az * bw, aw * bw - ax * bx - ay * by - az * bz])


def _pose(doc, tracks, frame):
    """World positions of every joint at keyframe ``frame`` (forward kinematics)."""
    world, rot = {}, {}

    def walk(i, parent_pos, parent_rot):
        n = doc["nodes"][i]
        name = n["name"]
        t = np.array(tracks[name, "translation"][1][frame] if (name, "translation") in tracks
                     else n.get("translation", [0, 0, 0]), float)
        r = np.array(tracks[name, "rotation"][1][frame] if (name, "rotation") in tracks else [0, 0, 0, 1], float)
        p = parent_pos + _rotate(parent_rot, t)
        q = _qmul(parent_rot, r)
        world[name], rot[name] = p, q
        for c in n.get("children", []):
            walk(c, p, q)
    walk(0, np.zeros(3), np.array([0, 0, 0, 1.0]))
    return world


@pytest.fixture(scope="module")
def library(tmp_path_factory):
    folder = tmp_path_factory.mktemp("animations")
    return folder, build_animation_library(folder)


def test_library_writes_every_clip_for_both_genders(library):
    folder, paths = library
    assert len(paths) == 36
    for gender in ("masculine", "feminine"):
        assert sorted(p.stem for p in (folder / gender).glob("*.glb")) == sorted(ANIMATIONS)


@pytest.mark.parametrize("name", ANIMATIONS)
def test_clip_name_duration_fps_and_tracks(name):
    for gender in ("masculine", "feminine"):
        glb = build_animation(gender, name)
        s = inspect(glb)
        assert s.skeleton == list(JOINT_NAMES)
        assert list(s.animations["name"]) == [name]
        assert s.animations.loc[0, "duration_s"] == pytest.approx(DURATIONS[name], abs=1e-4)
        assert s.animations.loc[0, "frames"] == round(DURATIONS[name] * 30) + 1
        doc, tracks = _tracks(glb)
        assert [k for k in tracks if k[1] == "translation"] == [("Hips", "translation")]
        for (joint, path), (times, values) in tracks.items():
            assert np.allclose(np.diff(times), 1 / 30, atol=1e-5)
            if path == "rotation":
                assert values.shape[1] == 4
                assert np.allclose(np.linalg.norm(values, axis=1), 1, atol=1e-5)
            if name in CYCLIC_ANIMATIONS:
                assert np.array_equal(values[0], values[-1]), (name, joint, path)


def test_masculine_and_feminine_skeletons_differ_in_proportions_only():
    m, _ = _tracks(build_animation("masculine", "idle"))
    f, _ = _tracks(build_animation("feminine", "idle"))
    assert [n["name"] for n in m["nodes"]] == [n["name"] for n in f["nodes"]]
    assert m["nodes"][1]["translation"] != f["nodes"][1]["translation"]


def _frames(name, gender="masculine"):
    doc, tracks = _tracks(build_animation(gender, name))
    n = len(next(iter(tracks.values()))[0])
    return [_pose(doc, tracks, k) for k in range(n)]


def test_walk_swings_arms_against_legs():
    poses = _frames("walk")
    foot = np.array([p["LeftFoot"][2] - p["Hips"][2] for p in poses])
    hand = np.array([p["LeftHand"][2] - p["Hips"][2] for p in poses])
    assert foot.max() - foot.min() > 0.3                      # a real stride
    assert np.corrcoef(foot, hand)[0, 1] < -0.8               # left arm back when left leg forward


def test_wave_raises_the_right_hand_only():
    poses = _frames("wave")
    mid = poses[len(poses) // 2]
    assert mid["RightHand"][1] > mid["Head"][1]
    assert mid["LeftHand"][1] < mid["Hips"][1] + 0.1
    xs = [p["RightHand"][0] for p in poses[15:45]]
    assert max(xs) - min(xs) > 0.05                           # the hand waves side to side


def test_point_reaches_forward_and_thumbs_up_raises_hand():
    mid = _frames("point")[30]
    assert mid["RightHandIndex4"][2] > 0.45
    assert mid["RightHandIndex4"][2] > mid["RightHandMiddle4"][2] + 0.03   # other fingers curled
    th = _frames("thumbs_up")[30]
    assert th["RightHand"][1] > th["Spine1"][1]


def test_jump_crouches_lifts_and_lands():
    poses = _frames("jump")
    hips = np.array([p["Hips"][1] for p in poses])
    assert hips.min() < hips[0] - 0.15 and hips.max() > hips[0] + 0.15
    assert hips.argmin() < hips.argmax()                      # crouch before the lift
    assert hips[-1] == pytest.approx(hips[0], abs=1e-3)


def test_head_nods_and_shakes_on_different_axes():
    nod = _frames("nod")
    shake = _frames("head_shake")
    # A nod moves the crown forward and back; a shake swings the face (nose direction) sideways.
    nod_z = np.ptp([p["HeadTop_End"][2] for p in nod])
    nod_x = np.ptp([p["HeadTop_End"][0] for p in nod])
    assert nod_z > 0.03 and nod_x < 0.005
    yaw = [np.degrees(np.arctan2(*(p["LeftShoulder"] - p["RightShoulder"])[[2, 0]])) for p in shake]
    assert np.ptp(yaw) < 1.0                                  # the body stays put
    crown_x = np.ptp([p["HeadTop_End"][0] for p in shake])
    assert crown_x < 0.01                                     # turning about the vertical axis...
    head_tracks = _tracks(build_animation("masculine", "head_shake"))[1]["Head", "rotation"][1]
    assert np.ptp(head_tracks[:, 1]) > 0.3 and np.ptp(head_tracks[:, 0]) < 0.05   # ...about y, not x


def _facing(p):
    d = p["LeftArm"] - p["RightArm"]
    return np.degrees(np.arctan2(-d[2], d[0]))


def test_turns_end_a_quarter_turn_apart():
    left = _frames("turn_left")
    right = _frames("turn_right")
    assert _facing(left[-1]) == pytest.approx(90, abs=3)
    assert _facing(right[-1]) == pytest.approx(-90, abs=3)
    assert _facing(left[0]) == pytest.approx(0, abs=1)


def test_bow_clap_shrug_and_dance():
    bow = _frames("bow")
    assert max(p["Head"][2] for p in bow) > 0.25
    clap = _frames("clap")
    gaps = [np.linalg.norm(p["LeftHandMiddle2"] - p["RightHandMiddle2"]) for p in clap]
    assert min(gaps) < 0.08 and gaps[0] > 0.5               # the hands meet, from apart
    shrug = _frames("shrug")
    assert max(p["LeftArm"][1] for p in shrug) > shrug[0]["LeftArm"][1] + 0.03
    dance = _frames("dance")
    assert max(p["LeftHand"][1] for p in dance) > dance[0]["Head"][1]
    assert max(p["RightHand"][1] for p in dance) > dance[0]["Head"][1]


def test_strafes_step_sideways_in_opposite_directions():
    left = _frames("strafe_left")
    right = _frames("strafe_right")
    lx = max(p["LeftFoot"][0] for p in left) - left[0]["LeftFoot"][0]
    rx = min(p["RightFoot"][0] for p in right) - right[0]["RightFoot"][0]
    assert lx > 0.05 and rx < -0.05


def test_unknown_names_are_refused():
    with pytest.raises(ValueError, match="^build_animation:"):
        build_animation("robot", "walk")
    with pytest.raises(ValueError, match="^build_animation:"):
        build_animation("feminine", "moonwalk")
