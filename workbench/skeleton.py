"""The 65-joint Mixamo-named skeleton and its proportions by gender, height and body shape.

Below both ``body`` (which fits MakeHuman's mesh to it) and ``gltf`` (which writes it as an armature,
:mod:`workbench.gltf.armature`, and makes the animation library on it); it imports nothing of the package.

Rest pose is a T-pose with every joint's local rotation the identity, so each joint's
frame is aligned with the world (metres, Y up, facing +Z, the avatar's left on +X, feet at
y=0). That choice makes the inverse bind matrices pure translations and lets one set of
rotation keyframes drive any proportions: retargeting a clip is scaling its Hips
translation by the hip height.

>>> rig = skeleton("masculine", 178.0, "average")
>>> len(rig.names), rig.names[:3], round(float(rig.world[rig.index["HeadTop_End"], 1]), 2)
(65, ('Hips', 'Spine', 'Spine1'), 1.78)
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

FINGERS = ("Thumb", "Index", "Middle", "Ring", "Pinky")


def _joint_table() -> list[tuple[str, str | None]]:
    table: list[tuple[str, str | None]] = [
        ("Hips", None), ("Spine", "Hips"), ("Spine1", "Spine"), ("Spine2", "Spine1"),
        ("Neck", "Spine2"), ("Head", "Neck"), ("HeadTop_End", "Head"),
    ]
    for side in ("Left", "Right"):
        table += [(f"{side}Shoulder", "Spine2"), (f"{side}Arm", f"{side}Shoulder"),
                  (f"{side}ForeArm", f"{side}Arm"), (f"{side}Hand", f"{side}ForeArm")]
        for f in FINGERS:
            parent = f"{side}Hand"
            for k in range(1, 5):
                table.append((f"{side}Hand{f}{k}", parent))
                parent = f"{side}Hand{f}{k}"
    for side in ("Left", "Right"):
        table += [(f"{side}UpLeg", "Hips"), (f"{side}Leg", f"{side}UpLeg"), (f"{side}Foot", f"{side}Leg"),
                  (f"{side}ToeBase", f"{side}Foot"), (f"{side}Toe_End", f"{side}ToeBase")]
    return table


JOINTS: tuple[tuple[str, str | None], ...] = tuple(_joint_table())
JOINT_NAMES: tuple[str, ...] = tuple(n for n, _ in JOINTS)

# Girth multipliers (chest, waist, hips, limbs) and a shoulder-width factor per body shape.
SHAPES = {
    "slim": dict(chest=0.88, waist=0.84, hips=0.90, limbs=0.82, shoulders=0.95),
    "average": dict(chest=1.0, waist=1.0, hips=1.0, limbs=1.0, shoulders=1.0),
    "athletic": dict(chest=1.10, waist=0.93, hips=0.96, limbs=1.16, shoulders=1.10),
    "heavy": dict(chest=1.20, waist=1.46, hips=1.26, limbs=1.30, shoulders=1.04),
}


# Hips above the soles, as a fraction of the height, of the default bodies (workbench.body, average shape).
HIP_HEIGHT = {"masculine": 0.562, "feminine": 0.546}


@dataclass(frozen=True)
class Skeleton:
    """Joint names, parent indices and rest positions (world and local), plus the proportions used."""

    gender: str
    height: float            # metres
    body_shape: str
    names: tuple[str, ...]
    parents: tuple[int, ...]  # -1 for Hips
    world: np.ndarray         # (65, 3) rest positions, read-only
    local: np.ndarray         # (65, 3) translations relative to the parent
    index: dict

    @property
    def hip_height(self) -> float:
        return float(self.world[0, 1])

    def pos(self, name: str) -> np.ndarray:
        return self.world[self.index[name]]

    @classmethod
    def placed(cls, gender: str, height: float, body_shape: str, world: np.ndarray) -> Skeleton:
        """The 65 joints at ``world`` positions (metres, in :data:`JOINT_NAMES` order), their local
        offsets made from the parents; both arrays read-only."""
        index = {n: i for i, n in enumerate(JOINT_NAMES)}
        parents = tuple(-1 if p is None else index[p] for _, p in JOINTS)
        local = world.copy()
        for i, par in enumerate(parents):
            if par >= 0:
                local[i] = world[i] - world[par]
        world.setflags(write=False)
        local.setflags(write=False)
        return cls(gender, height, body_shape, JOINT_NAMES, parents, world, local, index)


def _positions(gender: str, H: float, shape: str) -> dict[str, tuple[float, float, float]]:
    fem = gender == "feminine"
    s = SHAPES[shape]
    p: dict[str, tuple[float, float, float]] = {}
    # The MakeHuman bodies' hip heights at the default heights (tests/body/test_body.py checks they agree): a
    # library clip's Hips track, made on this skeleton, then stands a default avatar on the floor.
    hip_y = HIP_HEIGHT[gender] * H
    p["Hips"] = (0.0, hip_y, 0.0)
    p["Spine"] = (0.0, 0.585 * H, -0.004 * H)
    p["Spine1"] = (0.0, 0.645 * H, -0.006 * H)
    p["Spine2"] = (0.0, 0.715 * H, -0.006 * H)
    # A stylized head is about 1/7 of the height (chin near 0.86 H): the neck runs from the
    # shoulder line (0.835 H) to the skull's base, a short span.
    p["Neck"] = (0.0, 0.835 * H, -0.008 * H)
    p["Head"] = (0.0, 0.875 * H, -0.002 * H)
    p["HeadTop_End"] = (0.0, H, -0.002 * H)
    shoulder_w = (0.112 if not fem else 0.094) * H * s["shoulders"]
    if not fem and shape == "heavy":
        shoulder_w *= 1.05    # a heavy masculine build is broad across the shoulders too
    # Feminine shoulders are narrower and slope more: the arm joint sits a little lower.
    arm_y = 0.807 * H if not fem else 0.805 * H
    upper = 0.172 * H
    fore = 0.150 * H
    palm = 0.058 * H
    for sign, side in ((1.0, "Left"), (-1.0, "Right")):
        p[f"{side}Shoulder"] = (sign * 0.025 * H, arm_y - 0.012 * H, -0.006 * H)
        p[f"{side}Arm"] = (sign * shoulder_w, arm_y, -0.008 * H)
        p[f"{side}ForeArm"] = (sign * (shoulder_w + upper), arm_y, -0.010 * H)
        hand_x = shoulder_w + upper + fore
        p[f"{side}Hand"] = (sign * hand_x, arm_y, -0.008 * H)
        # Finger bases across the knuckles (z), lengths per finger (fractions of H per phalanx).
        knuckles = {"Index": 0.014, "Middle": 0.004, "Ring": -0.006, "Pinky": -0.015}
        lengths = {"Index": (0.022, 0.014, 0.011), "Middle": (0.025, 0.016, 0.012),
                   "Ring": (0.023, 0.015, 0.011), "Pinky": (0.018, 0.011, 0.010)}
        for f, kz in knuckles.items():
            x = hand_x + palm * (1.0 if f in ("Index", "Middle") else 0.95 if f == "Ring" else 0.88)
            z = kz * H - 0.008 * H
            p[f"{side}Hand{f}1"] = (sign * x, arm_y, z)
            for k, seg in enumerate(lengths[f], start=2):
                x += seg * H
                p[f"{side}Hand{f}{k}"] = (sign * x, arm_y, z)
        # The thumb leaves the palm forward and outward, slightly below the knuckle plane.
        tx, ty, tz = hand_x + 0.012 * H, arm_y - 0.006 * H, 0.016 * H
        direction = np.array([0.62, -0.18, 0.76])
        direction /= np.linalg.norm(direction)
        p[f"{side}HandThumb1"] = (sign * tx, ty, tz)
        for k, seg in zip((2, 3, 4), (0.020, 0.017, 0.013), strict=True):
            tx, ty, tz = tx + direction[0] * seg * H, ty + direction[1] * seg * H, tz + direction[2] * seg * H
            p[f"{side}HandThumb{k}"] = (sign * tx, ty, tz)
    leg_x = (0.045 if not fem else 0.051) * H * s["hips"] ** 0.5
    for sign, side in ((1.0, "Left"), (-1.0, "Right")):
        p[f"{side}UpLeg"] = (sign * leg_x, hip_y - 0.03 * H, 0.0)
        p[f"{side}Leg"] = (sign * leg_x * 0.92, 0.285 * H, 0.004 * H)
        p[f"{side}Foot"] = (sign * leg_x * 0.88, 0.048 * H, -0.008 * H)
        p[f"{side}ToeBase"] = (sign * leg_x * 0.92, 0.013 * H, 0.072 * H)
        p[f"{side}Toe_End"] = (sign * leg_x * 0.94, 0.013 * H, 0.118 * H)
    return p


@lru_cache(maxsize=64)
def skeleton(gender: str, height_cm: float, body_shape: str = "average") -> Skeleton:
    """The rest skeleton for these proportions (cached: it is pure and read-only)."""
    if gender not in ("masculine", "feminine"):
        raise ValueError(f"skeleton: unknown gender {gender!r}")
    if body_shape not in SHAPES:
        raise ValueError(f"skeleton: unknown bodyShape {body_shape!r}")
    H = float(height_cm) / 100.0
    pos = _positions(gender, H, body_shape)
    return Skeleton.placed(gender, H, body_shape, np.array([pos[n] for n in JOINT_NAMES], dtype=np.float64))
