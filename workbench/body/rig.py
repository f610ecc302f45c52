"""The rig: our 65-joint skeleton placed on the shaped mesh, and the mesh re-posed from A to T.

1. **Joints.** MakeHuman places each bone of ``rig.mixamo.json`` at the mean of some vertices of the
   shaped mesh (a joint cube's vertices, or a listed pair), so the skeleton follows every shape. Our
   skeleton has the rig's 52 bones plus 13 end joints the rig lacks; each end joint is its parent
   bone's *tail* (``HeadTop_End`` the head's, ``...Thumb4`` the last phalanx's, ``Toe_End`` the toe's).
2. **Weights** come compiled from ``weights.mixamo.json`` (four influences). The eyes, eyelashes,
   teeth and tongue follow ``Head`` alone: the face moves them by morph targets, not by bones.
3. **A-pose to T-pose.** ``base.obj`` hangs its arms about 50 degrees down; our clips assume a
   T-pose whose every joint has the identity rest rotation (``workbench.skeleton``). Each arm
   is turned at the shoulder so the upper arm points straight out (+X on the left, -X on the right),
   at the elbow so the forearm continues it, and at the wrist so the hand points out with its
   knuckles along Z (palm down); the fingers keep their slight natural curl. The mesh follows by
   linear blend skinning with the weights, and the posed joint positions become the rest skeleton.
   (A pose file from MakeHuman was the alternative: the wheel has T-poses only for other rigs.)

>>> import numpy as np
>>> r = rotation_between(np.array([0.0, -1.0, 0.0]), np.array([1.0, 0.0, 0.0]))
>>> np.round(r @ [0.0, -1.0, 0.0], 6).tolist()
[1.0, 0.0, 0.0]
"""

from __future__ import annotations

import json

import numpy as np
from numba import njit

from ..skeleton import FINGERS, JOINT_NAMES, JOINTS
from . import compile as cc

HEAD_ONLY_GROUPS = ("helper-l-eye", "helper-r-eye", "helper-l-eyelashes-1", "helper-l-eyelashes-2",
                    "helper-r-eyelashes-1", "helper-r-eyelashes-2", "helper-upper-teeth",
                    "helper-lower-teeth", "helper-tongue")
INDEX = {n: i for i, n in enumerate(JOINT_NAMES)}
PARENTS = tuple(-1 if p is None else INDEX[p] for _, p in JOINTS)


def _end_joints() -> dict[str, str]:
    """End joint -> the rig bone whose tail places it."""
    ends = {"HeadTop_End": "Head"}
    for side in ("Left", "Right"):
        ends[f"{side}Toe_End"] = f"{side}ToeBase"
        for f in FINGERS:
            ends[f"{side}Hand{f}4"] = f"{side}Hand{f}3"
    return ends


END_JOINTS = _end_joints()


def joint_positions(verts: np.ndarray) -> np.ndarray:
    """(65, 3) joint positions on ``verts`` (any units), in JOINT_NAMES order."""
    bones = json.loads(str(cc.compiled()["rig"]))
    out = np.zeros((len(JOINT_NAMES), 3))
    for name, i in INDEX.items():
        end = "tail" if name in END_JOINTS else "head"
        out[i] = verts[bones[END_JOINTS.get(name, name)][end]].mean(axis=0)
    return out


def skin_weights() -> tuple[np.ndarray, np.ndarray]:
    """(V, 4) uint8 joints and (V, 4) float32 weights, the face helpers bound to ``Head``."""
    data = cc.compiled()
    joints, weights = data["skin_joints"].copy(), data["skin_weights"].copy()
    head = np.concatenate([cc.group(data, g) for g in HEAD_ONLY_GROUPS])
    joints[head] = (INDEX["Head"], 0, 0, 0)
    weights[head] = (1.0, 0.0, 0.0, 0.0)
    return joints, weights


def rotation_between(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The smallest rotation taking direction ``a`` to direction ``b`` (Rodrigues)."""
    a = a / np.linalg.norm(a)
    b = b / np.linalg.norm(b)
    v, c = np.cross(a, b), float(np.dot(a, b))
    if c < -1.0 + 1e-9:    # opposite: any perpendicular axis
        axis = np.cross(a, [1.0, 0.0, 0.0] if abs(a[0]) < 0.9 else [0.0, 1.0, 0.0])
        axis /= np.linalg.norm(axis)
        return 2.0 * np.outer(axis, axis) - np.eye(3)
    k = np.array([[0, -v[2], v[1]], [v[2], 0, -v[0]], [-v[1], v[0], 0]])
    return np.eye(3) + k + k @ k / (1.0 + c)


def _frame_rotation(x_from: np.ndarray, z_from: np.ndarray, x_to: np.ndarray, z_to: np.ndarray) -> np.ndarray:
    """The rotation taking the frame (x_from, z_from made orthogonal) onto (x_to, z_to)."""
    def frame(x, z):
        x = x / np.linalg.norm(x)
        z = z - np.dot(z, x) * x
        z /= np.linalg.norm(z)
        return np.stack([x, np.cross(z, x), z], axis=1)
    return frame(x_to, z_to) @ frame(x_from, z_from).T


def t_pose_rotations(joints: np.ndarray) -> np.ndarray:
    """(65, 3, 3) world rotation of every joint taking the A-pose to the T-pose (identity but arms)."""
    world = np.tile(np.eye(3), (len(JOINT_NAMES), 1, 1))
    for side, sign in (("Left", 1.0), ("Right", -1.0)):
        out = np.array([sign, 0.0, 0.0])
        arm, fore, hand = (INDEX[f"{side}{n}"] for n in ("Arm", "ForeArm", "Hand"))
        r_arm = rotation_between(joints[fore] - joints[arm], out)
        r_fore = rotation_between(r_arm @ (joints[hand] - joints[fore]), out) @ r_arm
        middle, index, pinky = (INDEX[f"{side}Hand{f}1"] for f in ("Middle", "Index", "Pinky"))
        r_hand = _frame_rotation(r_fore @ (joints[middle] - joints[hand]), r_fore @ (joints[index] - joints[pinky]),
                                 out, np.array([0.0, 0.0, 1.0])) @ r_fore
        world[arm] = r_arm
        world[fore] = r_fore
        world[hand] = r_hand
    # Children inherit their parent's rotation unless given their own (parents precede children).
    own = {INDEX[f"{s}{n}"] for s in ("Left", "Right") for n in ("Arm", "ForeArm", "Hand")}
    for i, p in enumerate(PARENTS):
        if p >= 0 and i not in own:
            world[i] = world[p]
    return world


def posed_joints(joints: np.ndarray, rotations: np.ndarray) -> np.ndarray:
    """Joint positions after each joint's world rotation (forward kinematics from the root)."""
    posed = joints.copy()
    for i, p in enumerate(PARENTS):
        if p >= 0:
            posed[i] = posed[p] + rotations[p] @ (joints[i] - joints[p])
    return posed


def skin(points: np.ndarray, joints: np.ndarray, posed: np.ndarray, rotations: np.ndarray,
         skin_joints: np.ndarray, skin_w: np.ndarray) -> np.ndarray:
    """Linear blend skinning of ``points`` from rest ``joints`` to ``posed`` ones.

    >>> turn = np.array([[[0.0, -1, 0], [1, 0, 0], [0, 0, 1]]])     # a quarter turn about z
    >>> skin(np.array([[1.0, 0, 0]]), np.zeros((1, 3)), np.zeros((1, 3)), turn, np.zeros((1, 1), np.int64),
    ...      np.ones((1, 1))).tolist()
    [[0.0, 1.0, 0.0]]
    """
    return _skin(np.ascontiguousarray(points, np.float64), np.ascontiguousarray(joints, np.float64),
                 np.ascontiguousarray(posed, np.float64), np.ascontiguousarray(rotations, np.float64),
                 np.ascontiguousarray(skin_joints, np.int64), np.ascontiguousarray(skin_w, np.float64))


@njit(cache=True, nogil=True)
def _skin(points, joints, posed, rotations, skin_joints, skin_w):
    # Compiled (a body's 19,000 vertices: 6 ms in numpy, 0.6 here) in numpy's arithmetic and order, so the
    # same bits: per influence k, the rotation times the offset from the joint (einsum's sum of three terms
    # adds the first and the third, then the second) plus the posed joint, weighted and added to what the
    # influences before k gave.
    out = np.zeros_like(points)
    for k in range(skin_joints.shape[1]):
        for v in range(points.shape[0]):
            j = skin_joints[v, k]
            l0, l1, l2 = points[v, 0] - joints[j, 0], points[v, 1] - joints[j, 1], points[v, 2] - joints[j, 2]
            w = skin_w[v, k]
            for i in range(3):
                moved = (rotations[j, i, 0] * l0 + rotations[j, i, 2] * l2) + rotations[j, i, 1] * l1 + posed[j, i]
                out[v, i] += w * moved
    return out


def blend_rotations(rotations: np.ndarray, skin_joints: np.ndarray, skin_w: np.ndarray) -> np.ndarray:
    """(N, 3, 3) per-vertex blended rotation: how a small offset (a morph delta) turns with the skin."""
    return np.einsum("nk,nkij->nij", skin_w, rotations[skin_joints])
