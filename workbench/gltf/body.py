"""The avatar's geometry: body, hair, outfit and glasses as skinned parametric surfaces.

Long on purpose: one generator, read top to bottom in the order an avatar is built (body,
then what fits its outline: outfit, hair, glasses); each part fits the surfaces made before it,
so splitting by part would pass the same dimensions back and forth between modules.

``parts(settings, q)`` returns, per mesh name, one merged :class:`Surface` with UVs in its
material's texture and skin weights on the avatar's own skeleton. ``q`` scales every
part's rows and columns together (1.0 is LOD 0): lower levels of detail are the same
smooth surfaces sampled more coarsely, which keeps silhouettes and UV layout intact.
(An edge-collapse simplifier was the alternative; re-tessellation is exact about the
triangle budget and costs nothing extra, so it was chosen.)

>>> from workbench.options import normalize_avatar_settings
>>> meshes = parts(normalize_avatar_settings({"gender": "feminine", "glasses": "clear"}), 0.5)
>>> sorted(meshes)
['Body', 'Glasses', 'Hair', 'Outfit_Bottom', 'Outfit_Footwear', 'Outfit_Top']
"""

from __future__ import annotations

from contextvars import ContextVar

import numpy as np

from .skeleton import FINGERS, SHAPES, Skeleton, skeleton
from .surfaces import (Surface, bone_weights, grid_surface, merge, polyline_at, profile, rigid_weights,
                       superellipse, tube)

# Texture regions: the head owns the top half of the skin texture (the face is painted
# there), every other skin part shares the bottom half.
HEAD_UV = (0.0, 0.0, 1.0, 0.5)
SKIN_UV = (0.0, 0.5, 1.0, 1.0)
FRAME_UV = (0.0, 0.0, 0.5, 1.0)
LENS_UV = (0.5, 0.0, 1.0, 1.0)

# Counting triangles (the LOD search) needs the geometry only, not the skin weights.
_SKINNING: ContextVar[bool] = ContextVar("skinning", default=True)

# Eye placement on the head, in the head's own angles (shared with the face painter).
EYE_THETA = 0.42
EYE_PHI = 0.5 * np.pi
# The eye socket's depth (a fraction of the head's radius): deep enough that the eyeball,
# a separate sphere, shows through an almond-shaped opening between the lids.
EYE_SOCKET = 0.085
# How the eyeball's texture maps: its sideways and upward offsets (in eyeball radii) to the
# face's theta and phi, where the eye is painted (the painter scales the iris to match).
EYE_UV_X = 0.20
EYE_UV_Y = 0.09


def _n(base: int, q: float, minimum: int) -> int:
    return max(minimum, int(round(base * q)))


def _bone_end(rig: Skeleton, name: str) -> np.ndarray:
    special = {"Hips": "Spine", "Spine2": "Neck", "Head": "HeadTop_End"}
    if name in special:
        return rig.pos(special[name])
    if name.endswith("Shoulder"):
        return rig.pos(name.replace("Shoulder", "Arm"))
    if name.endswith("Hand"):
        return rig.pos(name + "Middle1")
    if name.endswith("Foot"):
        return rig.pos(name.replace("Foot", "ToeBase"))
    children = [i for i, p in enumerate(rig.parents) if p == rig.index[name]]
    return rig.world[children[0]]


def _bones(rig: Skeleton, names) -> list[tuple[int, np.ndarray, np.ndarray]]:
    return [(rig.index[n], rig.pos(n), _bone_end(rig, n)) for n in names]


def _skin(surface: Surface, rig: Skeleton, names, power: float = 6.0, proxy: Surface | None = None) -> Surface:
    """Weights from the distance to the named bones; with ``proxy`` (the body surface under a
    piece of cloth, on the same grid) the cloth copies the skin's weights vertex for vertex,
    so cloth and skin bend together and the body does not poke through at the joints."""
    if not _SKINNING.get():
        return surface
    source = surface if proxy is None else proxy
    surface.joints, surface.weights = bone_weights(source.positions, _bones(rig, names), power,
                                                   eps=0.0012 * rig.height)
    return surface


def _rigid(surface: Surface, rig: Skeleton, name: str) -> Surface:
    if not _SKINNING.get():
        return surface
    surface.joints, surface.weights = rigid_weights(len(surface.positions), rig.index[name])
    return surface


# --------------------------------------------------------------------------
# Head: an ellipsoid in (theta, phi) with nose, brows, lips, chin and sockets as bumps,
# denser where the face is; eyeballs and ears are separate surfaces skinned to the head.
# --------------------------------------------------------------------------

def head_frame(rig: Skeleton) -> tuple[np.ndarray, np.ndarray]:
    """Centre and radii (x, y, z) of the skull ellipsoid."""
    H = rig.height
    fem = rig.gender == "feminine"
    # About 1/7.3 of the height, top at H: a slightly large, appealing stylized head.
    ry = (0.067 if fem else 0.069) * H
    center = np.array([0.0, H - ry, 0.005 * H])
    radii = np.array([(0.049 if fem else 0.051) * H, ry, (0.057 if fem else 0.059) * H])
    return center, radii


def _gauss(theta, phi, t0, p0, st, sp):
    return np.exp(-(((theta - t0) / st) ** 2 + ((phi - p0) / sp) ** 2))


def head_point(rig: Skeleton, theta: np.ndarray, phi: np.ndarray, face: bool = True, offset=0.0) -> np.ndarray:
    """Points of the head surface; theta=0 faces +Z, phi=0 is the crown."""
    center, (rx, ry, rz) = head_frame(rig)
    fem = rig.gender == "feminine"
    low = np.clip((phi - 0.5 * np.pi) / (0.5 * np.pi), 0.0, 1.0)
    # Below the eyes the outline narrows to the jaw: masculine keeps its width longer (with
    # jaw-angle bumps below, a squarer jaw); feminine tapers to a softer, smaller chin.
    # Above the eyes a slightly boxy superellipse gives a full, rounded cranium (not an egg).
    high = np.clip((0.5 * np.pi - phi) / (0.5 * np.pi), 0.0, 1.0)
    sx = rx * (1.0 - (0.30 * low ** 1.3 if fem else 0.16 * low ** 2.0))
    box = 2.0 + 0.15 * low + 0.6 * high
    sz = rz * (1.0 - 0.08 * low ** 2)
    sp = np.abs(np.sin(phi)) ** (2.0 / box)
    cp = np.sign(np.cos(phi)) * np.abs(np.cos(phi)) ** (2.0 / box)
    bump = np.zeros(np.broadcast(theta, phi).shape)
    if face:
        at = np.abs(theta)
        bump = ((0.16 if fem else 0.20) * _gauss(theta, phi, 0.0, 0.612 * np.pi, 0.075, 0.055)  # nose tip
                + (0.075 if fem else 0.10) * _gauss(theta, phi, 0.0, 0.55 * np.pi, 0.055, 0.10)  # nose bridge
                + 0.045 * _gauss(at, phi, 0.075, 0.632 * np.pi, 0.045, 0.035)  # nostril wings
                - 0.006 * _gauss(theta, phi, 0.0, 0.662 * np.pi, 0.05, 0.025)  # under the nose
                + (0.035 if fem else 0.025) * _gauss(theta, phi, 0.0, 0.692 * np.pi, 0.17, 0.032)  # upper lip
                + (0.04 if fem else 0.03) * _gauss(theta, phi, 0.0, 0.716 * np.pi, 0.15, 0.035)  # lower lip
                - 0.018 * _gauss(theta, phi, 0.0, 0.704 * np.pi, 0.19, 0.012)  # the mouth's line
                + (0.03 if fem else 0.045) * _gauss(at, phi, 0.40, 0.43 * np.pi, 0.22, 0.05)  # brows
                - EYE_SOCKET * np.exp(-(((at - EYE_THETA) / 0.20) ** 2 + ((phi - EYE_PHI) / 0.066) ** 2) ** 2)
                + (0.035 if fem else 0.06) * _gauss(theta, phi, 0.0, 0.80 * np.pi, 0.25, 0.07)  # chin
                + (0.03 if fem else 0.045) * _gauss(at, phi, 0.95, 0.76 * np.pi, 0.45, 0.11)  # jaw
                + 0.03 * _gauss(at, phi, 0.62, 0.58 * np.pi, 0.25, 0.07)   # cheekbones
                + 0.03 * _gauss(at, phi, 0.5 * np.pi, 0.56 * np.pi, 0.10, 0.11))  # where the ears join
    r = 1.0 + bump + offset
    x = sx * sp * np.sin(theta) * r
    y = ry * cp * (1.0 + (bump + offset) * 0.6)
    z = sz * sp * np.cos(theta) * r
    return np.stack([x, y, z], axis=-1) + center


def _dense(n: int, lo: float, hi: float, center: float, width: float, boost: float) -> np.ndarray:
    """``n`` samples from ``lo`` to ``hi``, ``1 + boost`` times denser around ``center``."""
    x = np.linspace(lo, hi, 4097)
    rho = 1.0 + boost * np.exp(-(((x - center) / width) ** 2))
    cum = np.concatenate([[0.0], np.cumsum((rho[1:] + rho[:-1]) / 2 * np.diff(x))])
    out = np.interp(np.linspace(0.0, cum[-1], n), cum, x)
    out[0], out[-1] = lo, hi
    return out


def _head(rig: Skeleton, q: float) -> list[Surface]:
    # Rows and columns crowd into the face (2.5-3x denser than at the back of the head), so
    # nose, lips and eyelids get the vertices and the outline stays round.
    R, C = _n(80, q, 10), _n(84, q, 12)
    theta = _dense(C + 1, -np.pi, np.pi, 0.0, 0.9, 2.0)
    theta = (theta - theta[::-1]) / 2           # exactly symmetric, so left and right match
    phi = _dense(R, 0.0, np.pi, 0.6 * np.pi, 0.22 * np.pi, 2.0)
    T, P = np.meshgrid(theta, phi)
    s = grid_surface(head_point(rig, T, P), pole_start=True, pole_end=True)
    # UVs follow the angles (the face painter's layout), not the row and column numbers.
    s.uv = np.column_stack([((T + np.pi) / (2 * np.pi)).ravel(), (P / np.pi).ravel()])
    # Under the jaw the surface faces the floor and, with no bounce light from the chest,
    # shades to a dirty patch: its normals lean forward, as stylized characters' are, so the
    # underside reads as a soft shadow that continues into the neck.
    k = (np.clip((P.ravel() - 0.74 * np.pi) / (0.16 * np.pi), 0.0, 1.0) ** 2 * 0.65)[:, None]
    forward = np.column_stack([s.normals[:, 0], np.full(len(k), -0.15), np.maximum(s.normals[:, 2], 0.0) + 0.6])
    forward /= np.linalg.norm(forward, axis=1, keepdims=True)
    s.normals = s.normals * (1 - k) + forward * k
    s.normals /= np.linalg.norm(s.normals, axis=1, keepdims=True)
    s.uv_into(HEAD_UV)
    out = [_skin(s, rig, ["Head", "Neck"], power=8.0)]
    for sign in (1.0, -1.0):
        out.append(_rigid(_eyeball(rig, sign, q), rig, "Head"))
        out.append(_rigid(_ear(rig, sign, q), rig, "Head"))
    return out


def _eyeball(rig: Skeleton, sign: float, q: float) -> Surface:
    """A sphere behind the lids; its texture is the eye painted on the face at the same angles."""
    H = rig.height
    surface = head_point(rig, np.array(sign * EYE_THETA), np.array(EYE_PHI), face=False)
    center, _ = head_frame(rig)
    outward = surface - center
    outward[1] = 0.0
    outward /= np.linalg.norm(outward)
    # Look straight ahead, not along the head's radius: the eyes sit on the face's front.
    look = 0.25 * outward + 0.75 * np.array([0.0, 0.0, 1.0])
    look /= np.linalg.norm(look)
    r = 0.0115 * H
    c = surface - look * (r - 0.0012 * H)
    R, C = _n(20, q, 6), _n(24, q, 8)
    a = np.linspace(0.0, np.pi, R)[:, None]
    b = np.linspace(-np.pi, np.pi, C + 1)[None, :]
    # Pole on the look axis: the iris gets the densest rings.
    side = np.cross(look, [0.0, 1.0, 0.0])
    side /= np.linalg.norm(side)
    up = np.cross(side, look)
    pts = (c + r * (np.cos(a)[..., None] * look + (np.sin(a) * np.cos(b))[..., None] * side
                    + (np.sin(a) * np.sin(b))[..., None] * up))
    ball = grid_surface(pts, pole_start=True, pole_end=True)
    # The front half takes the eye painted on the face: its sideways and upward offsets map
    # to the face's theta and phi around the eye (``side`` points to the avatar's right, -x,
    # and theta grows towards +x, hence the minus). The hidden back half takes plain skin,
    # from the cheek beside the eye.
    d = ball.positions - c
    th = sign * EYE_THETA - EYE_UV_X * (d @ side) / r
    ph = EYE_PHI - EYE_UV_Y * (d @ up) / r
    th = np.where(d @ look < 0, sign * (EYE_THETA + 0.3), th)
    ball.uv = np.column_stack([(th + np.pi) / (2 * np.pi), ph / np.pi])
    ball.uv_into(HEAD_UV)
    return ball


def _ear(rig: Skeleton, sign: float, q: float) -> Surface:
    """A flattened, slightly cupped ellipsoid on the side of the head, tilted back and standing out a little."""
    H = rig.height
    theta = sign * 0.54 * np.pi
    root = head_point(rig, np.array(theta), np.array(0.565 * np.pi), face=False)
    R, C = _n(14, q, 5), _n(20, q, 8)
    a = np.linspace(0.0, np.pi, R)[:, None]
    b = np.linspace(-np.pi, np.pi, C + 1)[None, :]
    thick, tall, deep = 0.0042 * H, 0.0185 * H, 0.0115 * H
    # Poles at the ear's top and bottom edges (not in the middle of its face, where a pole's
    # fan of triangles would shade as a dark dot).
    x = thick * np.sin(a) * np.cos(b)
    y = tall * np.cos(a) + np.zeros_like(b)
    z = deep * np.sin(a) * np.sin(b)
    # The back rim stands a little away from the head, like an ear's helix; the front stays on it.
    x = x + 0.9 * thick * np.sin(a) * (0.5 - 0.5 * np.sin(b))
    pts = np.stack([sign * x, y, z], -1)
    tilt = np.radians(12.0)       # the top leans back
    rot = np.array([[1, 0, 0], [0, np.cos(tilt), -np.sin(tilt)], [0, np.sin(tilt), np.cos(tilt)]])
    pts = pts @ rot.T + root + np.array([-sign * 0.001 * H, 0.0, -0.003 * H])
    ear = grid_surface(pts, pole_start=True, pole_end=True)
    ear.uv_into(SKIN_UV)
    return ear


# --------------------------------------------------------------------------
# Torso, neck, limbs, hands
# --------------------------------------------------------------------------

# Half width (rx), half depth (rz) and centre z (cz) at heights _TORSO_Y (fractions of H):
# crotch, hips, belly, waist, chest, upper chest, armpits, shoulder top, neck base. The upper
# torso stays about as wide as the arm joints (no barrel bulging past the shoulders) and
# slopes to the neck above them. Masculine is a straighter, V-shaped torso (chest wider than
# hips, little waist); feminine has a defined waist between a bust and wider hips.
_TORSO_Y = (0.455, 0.50, 0.56, 0.62, 0.70, 0.765, 0.812, 0.840, 0.858)
TORSO_TOP = _TORSO_Y[-1]
_TORSO = {
    "masculine": dict(y=_TORSO_Y,
                      rx=(0.066, 0.098, 0.091, 0.088, 0.094, 0.098, 0.096, 0.079, 0.038),
                      rz=(0.050, 0.062, 0.058, 0.056, 0.064, 0.062, 0.052, 0.040, 0.027),
                      cz=(0.000, -0.004, 0.000, 0.002, 0.006, 0.002, -0.004, -0.007, -0.008)),
    # The bust sits high (0.72 H) with the waist below it, not a broad bulge down the front.
    "feminine": dict(y=(0.455, 0.50, 0.56, 0.628, 0.718, 0.772, 0.814, 0.840, 0.858),
                     rx=(0.074, 0.115, 0.099, 0.073, 0.084, 0.086, 0.081, 0.061, 0.032),
                     rz=(0.054, 0.068, 0.060, 0.050, 0.068, 0.054, 0.046, 0.036, 0.024),
                     cz=(0.000, -0.008, -0.002, 0.000, 0.013, 0.003, -0.004, -0.007, -0.008)),
}


def _torso_profile(rig: Skeleton, y: np.ndarray):
    """Half width, half depth and centre z of the torso at heights ``y`` (metres)."""
    H = rig.height
    t = _TORSO[rig.gender]
    sh = SHAPES[rig.body_shape]
    girth = np.array([sh["hips"], sh["hips"], sh["hips"], sh["waist"], sh["chest"], sh["chest"], sh["shoulders"],
                      sh["shoulders"], 1.0])
    ky = np.array(t["y"]) * H
    gx, gz = girth, girth ** 0.8
    if rig.gender == "masculine":
        # A heavier masculine build carries its weight in front, in a round belly, and on
        # broad shoulders, with straight hips: the extra girth of hips and waist goes more
        # into depth than width (width everywhere reads as a feminine pear shape).
        lower = np.array([1, 1, 1, 1, 0.5, 0, 0, 0, 0], float)
        gx = girth * (1 - lower) + (1 + (girth - 1) * 0.55) * lower
        gz = girth ** 0.8 * (1 - lower) + girth ** 1.1 * lower
    rx = profile(ky, np.array(t["rx"]) * gx * H, y)
    rz = profile(ky, np.array(t["rz"]) * gz * H, y)
    # A heavy belly pushes forward rather than only outward.
    cz = profile(ky, np.array(t["cz"]) * H + (girth - 1) * 0.02 * H * np.array([0, 0, 0.5, 1, 0.6, 0.2, 0, 0, 0]), y)
    return rx, rz, cz


def _torso_tube(rig: Skeleton, y0: float, y1: float, rows: int, cols: int, scale: float = 1.0,
                pad: float = 0.0, caps=(0, 0), hang_below: float | None = None) -> Surface:
    y = np.linspace(y0, y1, rows)
    # Cloth below ``hang_below`` hangs straight instead of following the body in to the crotch.
    rx, rz, cz = _torso_profile(rig, y if hang_below is None else np.maximum(y, hang_below))
    path = np.column_stack([np.zeros(rows), y, cz])
    return tube(path, rx * scale + pad, rz * scale + pad, rows, cols, hint=(1, 0, 0),
                exponent=2.3, caps=caps, cap_depth=0.35, smooth_path=False)


_SPINE = ["Hips", "Spine", "Spine1", "Spine2", "Neck", "LeftShoulder", "RightShoulder",
          "LeftUpLeg", "RightUpLeg", "LeftArm", "RightArm"]


def _torso(rig: Skeleton, q: float) -> Surface:
    H = rig.height
    # Under the shirt and trousers: fewer rows than the cloth, whose outline is what shows.
    s = _torso_tube(rig, 0.455 * H, TORSO_TOP * H, _n(30, q, 8), _n(64, q, 12), caps=(_n(6, q, 2), _n(5, q, 2)))
    s.uv_into(SKIN_UV)
    return _skin(s, rig, _SPINE)


def _neck(rig: Skeleton, q: float) -> Surface:
    H = rig.height
    r = (0.028 if rig.gender == "feminine" else 0.034) * H * SHAPES[rig.body_shape]["limbs"] ** 0.5
    # From inside the shoulders to inside the skull: only a short span shows under the chin.
    path = np.array([[0, 0.815 * H, -0.010 * H], [0, 0.905 * H, -0.004 * H]])
    rows = _n(12, q, 3)
    s = tube(path, np.array([r * 1.15, r, r * 1.05]), np.array([r * 1.05, r * 0.95, r]), rows, _n(36, q, 8),
             hint=(0, 0, 1), smooth_path=False)
    s.uv_into(SKIN_UV)
    return _skin(s, rig, ["Spine2", "Neck", "Head"])


def arm_path(rig: Skeleton, side: str) -> np.ndarray:
    sign = 1.0 if side == "Left" else -1.0
    arm = rig.pos(f"{side}Arm")
    # The tube starts inside the torso, a little low, so its end never pokes above the shoulder.
    start = arm - np.array([sign * 0.05 * rig.height, 0.016 * rig.height, 0.0])
    return np.array([start, arm, rig.pos(f"{side}ForeArm"), rig.pos(f"{side}Hand")])


def _arm_radii(rig: Skeleton) -> tuple[np.ndarray, np.ndarray]:
    H = rig.height
    limbs = SHAPES[rig.body_shape]["limbs"] * (0.88 if rig.gender == "feminine" else 1.0)
    # Samples from inside the torso to the wrist: deltoid, biceps, elbow, forearm, wrist.
    r = np.array([0.030, 0.034, 0.031, 0.028, 0.024, 0.023, 0.024, 0.021, 0.017]) * H * limbs
    r[-1] = 0.018 * H * (0.9 if rig.gender == "feminine" else 1.0)
    # Vertical (r1) and front-back (r2) radii in the T-pose: the deltoid is lower than it is
    # deep, so the arm's top meets the shoulder's slope; the wrist is flat like the palm.
    return r * np.array([0.84, 0.80, 0.93, 0.95, 0.95, 0.92, 0.92, 0.85, 0.72]), r


def _arm(rig: Skeleton, side: str, q: float) -> Surface:
    r1, r2 = _arm_radii(rig)
    s = tube(arm_path(rig, side), r1, r2, _n(44, q, 6), _n(28, q, 6), hint=(0, 1, 0),
             caps=(_n(4, q, 2), _n(4, q, 2)), cap_depth=0.5)
    s.uv_into(SKIN_UV)
    return _skin(s, rig, [f"{side}Shoulder", f"{side}Arm", f"{side}ForeArm", f"{side}Hand", "Spine2"])


def _hand(rig: Skeleton, side: str, q: float) -> list[Surface]:
    H = rig.height
    sign = 1.0 if side == "Left" else -1.0
    fem = 0.9 if rig.gender == "feminine" else 1.0
    hand = rig.pos(f"{side}Hand")
    knuckle = rig.pos(f"{side}HandMiddle1")
    z_mid = (rig.pos(f"{side}HandIndex1")[2] + rig.pos(f"{side}HandPinky1")[2]) / 2
    a = np.array([hand[0] - sign * 0.006 * H, hand[1], z_mid])
    b = np.array([knuckle[0] + sign * 0.004 * H, hand[1], z_mid])
    palm = tube(np.array([a, b]), np.array([0.013, 0.015, 0.012]) * H * fem,
                np.array([0.026, 0.039, 0.040]) * H * fem, _n(14, q, 3), _n(28, q, 8), hint=(0, 1, 0),
                exponent=2.6, caps=(_n(4, q, 2), _n(4, q, 2)), cap_depth=0.5, smooth_path=False)
    palm.uv_into(SKIN_UV)
    out = [_skin(palm, rig, [f"{side}Hand", f"{side}ForeArm"] + [f"{side}Hand{f}1" for f in FINGERS])]
    for f in FINGERS:
        joints = [rig.pos(f"{side}Hand{f}{k}") for k in range(1, 5)]
        base = joints[0] - (joints[1] - joints[0]) * 0.35
        path = np.array([base] + joints)
        r = (0.0072 if f == "Thumb" else 0.0066 if f != "Pinky" else 0.0056) * H * fem
        radii = np.array([r * 1.1, r, r * 0.92, r * 0.85, r * 0.78])
        s = tube(path, radii * 0.9, radii, _n(16, q, 3), _n(14, q, 6), hint=(0, 1, 0),
                 caps=(_n(3, q, 1), _n(4, q, 2)), cap_depth=0.9)
        s.uv_into(SKIN_UV)
        out.append(_skin(s, rig, [f"{side}Hand"] + [f"{side}Hand{f}{k}" for k in range(1, 4)]))
    return out


def leg_path(rig: Skeleton, side: str) -> np.ndarray:
    up = rig.pos(f"{side}UpLeg")
    start = up + np.array([0.0, 0.025 * rig.height, -0.006 * rig.height])
    return np.array([start, up, rig.pos(f"{side}Leg"), rig.pos(f"{side}Foot")])


def _leg_radii(rig: Skeleton) -> tuple[np.ndarray, np.ndarray]:
    H = rig.height
    sh = SHAPES[rig.body_shape]
    fem = rig.gender == "feminine"
    # The first sample sits inside the pelvis: narrower, so the thigh's top stays under the skin.
    thigh = np.array([0.046, 0.058, 0.055, 0.048, 0.040, 0.043, 0.040, 0.030, 0.024]) * H
    width = thigh.copy()
    width[:5] *= sh["hips"] * (1.05 if fem else 1.0)
    width[5:] *= sh["limbs"] ** 0.7 * (0.93 if fem else 1.0)
    # Depth grows more slowly than width with the hips, as the torso's does (girth ** 0.8).
    depth = thigh.copy()
    depth[:5] *= (sh["hips"] * (1.05 if fem else 1.0)) ** 0.8
    depth[5:] *= sh["limbs"] ** 0.7 * (0.93 if fem else 1.0)
    return depth * 0.96, width * np.array([0.95, 0.92, 0.9, 0.88, 0.9, 0.9, 0.85, 0.85, 0.9])


def _leg(rig: Skeleton, side: str, q: float) -> Surface:
    r1, r2 = _leg_radii(rig)
    s = tube(leg_path(rig, side), r1, r2, _n(32, q, 6), _n(28, q, 6), hint=(0, 0, 1),
             caps=(_n(4, q, 2), _n(4, q, 2)), cap_depth=0.5)
    s.uv_into(SKIN_UV)
    return _skin(s, rig, ["Hips", f"{side}UpLeg", f"{side}Leg", f"{side}Foot"])


def _path_part(path: np.ndarray, t0: float, t1: float, n: int = 12) -> np.ndarray:
    return polyline_at(path, np.linspace(t0, t1, n))


# --------------------------------------------------------------------------
# Outfit
# --------------------------------------------------------------------------

# The shirt's hem, in heights: at the widest of the hips, where a fitted T-shirt ends. Lower
# down it would have to stand out over the hips and the tops of the thighs, like a tunic.
SHIRT_HEM = 0.50


def _hem_fit(rig: Skeleton, ring: np.ndarray, cz: np.ndarray, trousers: np.ndarray) -> np.ndarray:
    """The shirt's rings (rows, columns + 1, 3) widened, each column along its own direction
    from the spine, just enough to enclose every trouser point near the row's height with
    a little room: the hem follows the trousers' own outline (hips and the tops of the
    thighs) instead of a wider ellipse around it, like a fitted T-shirt.

    Each column needs at least the largest radius of the trouser points within a few degrees
    of its direction; towards the hem the rings never narrow (the shirt falls over the hips,
    it does not tuck in), and going up they narrow again gently, not in a step (a step is a
    shelf, and trousers just above it would stand outside).
    """
    H = rig.height
    # Trouser points from a little below the row to 2% of the height above it count; the
    # room (12 mm for 1.6 m) is what the running and bowing clips need where the thighs
    # lift the trousers' front (measured: 4 mm lets them through).
    up, down, room, width = 0.02 * H, 0.004 * H, 0.0075 * H, np.radians(14.0)
    rows = ring.shape[0]
    y = ring[:, 0, 1]
    out = ring.copy()
    rel = ring - np.stack([np.zeros(rows), y, cz], -1)[:, None, :]
    radius = np.hypot(rel[..., 0], rel[..., 2])
    angle = np.arctan2(rel[..., 0], rel[..., 2])
    f = np.ones(radius.shape)
    for i in range(rows):
        dy = trousers[:, 1] - y[i]
        near = trousers[(dy < up) & (dy > -down)]
        if not len(near):
            continue
        qa = np.arctan2(near[:, 0], near[:, 2] - cz[i])
        qr = np.hypot(near[:, 0], near[:, 2] - cz[i]) + room
        gap = np.abs((angle[i][:, None] - qa[None, :] + np.pi) % (2 * np.pi) - np.pi)
        need = np.where(gap < width, qr[None, :], 0.0).max(1)
        f[i] = np.maximum(1.0, need / radius[i])
    f = np.maximum.accumulate(f[::-1], axis=0)[::-1]
    step = 0.8 * np.diff(y) / H   # at most 8% per tenth of the height
    for i in range(1, rows):
        f[i] = np.maximum(f[i], f[i - 1] - step[i - 1])
    # Smooth around each ring so neighbouring columns do not step.
    k = np.array([0.25, 0.5, 0.25])
    for _ in range(2):
        core = f[:, :-1]
        core = np.maximum(core, k[0] * np.roll(core, 1, 1) + k[1] * core + k[2] * np.roll(core, -1, 1))
        f = np.concatenate([core, core[:, :1]], 1)
    out[..., 0] = rel[..., 0] * f
    out[..., 2] = cz[:, None] + rel[..., 2] * f
    return out


# The shirt hangs from the shoulders and rides on the pelvis; it takes no weight from the
# thighs, which would fold its front up into a shelf over the trousers when a knee rises.
_SHIRT_BONES = [b for b in _SPINE if not b.endswith("UpLeg")]


def _outfit_top(rig: Skeleton, q: float, trousers: Surface) -> Surface:
    H = rig.height
    ease = 0.0045 * H
    rows, cols = _n(40, q, 6), _n(64, q, 12)
    top = (TORSO_TOP - 0.005) * H    # a crew neck close around the neck's base
    # Close over the chest, easing out towards the hem so it falls over the trousers' top.
    y = np.linspace(SHIRT_HEM * H, top, rows)
    hem = np.clip((0.58 * H - y) / (0.09 * H), 0.0, 1.0)
    scale = 1.05 + 0.03 * hem * hem * (3 - 2 * hem)
    pad = ease * 1.4
    # Then, column by column, just wide enough to go over the trousers' waist and the tops of
    # the legs, so no edge of the trousers crosses the shirt's surface (the spikes at the hem).
    cz = _torso_profile(rig, np.maximum(y, 0.505 * H))[2]
    shirt = _torso_tube(rig, SHIRT_HEM * H, top, rows, cols, scale=scale, pad=pad, hang_below=0.505 * H)
    fitted = _hem_fit(rig, shirt.positions.reshape(rows, cols + 1, 3), cz, trousers.positions)
    uv = shirt.uv
    shirt = grid_surface(fitted)
    shirt.uv = uv
    parts = [_skin(shirt, rig, _SHIRT_BONES, proxy=_torso_tube(rig, SHIRT_HEM * H, top, rows, cols))]
    r1, r2 = _arm_radii(rig)
    for side in ("Left", "Right"):
        path = _path_part(arm_path(rig, side), 0.0, 0.42)
        rows = _n(18, q, 3)
        k = np.linspace(0, 1, 4)
        b1 = profile(np.linspace(0, 1, len(r1)), r1, k * 0.42)
        b2 = profile(np.linspace(0, 1, len(r2)), r2, k * 0.42)
        # A T-shirt sleeve: close over the upper arm, opening a touch wider than the biceps.
        s1, s2 = b1 * 1.03 + ease, b2 * 1.03 + ease
        s1[-1] *= 1.04
        s2[-1] *= 1.04
        grid = dict(rows=rows, cols=_n(28, q, 6), hint=(0, 1, 0), caps=(_n(3, q, 1), 0), cap_depth=0.5)
        s = tube(path, s1, s2, **grid)
        parts.append(_skin(s, rig, [f"{side}Shoulder", f"{side}Arm", f"{side}ForeArm", f"{side}Hand", "Spine2"],
                           proxy=tube(path, b1, b2, **grid)))
    return merge(parts)


def _outfit_bottom(rig: Skeleton, q: float) -> Surface:
    H = rig.height
    ease = 0.005 * H
    rows, cols, caps = _n(20, q, 4), _n(64, q, 12), (_n(5, q, 2), 0)
    pelvis = _torso_tube(rig, 0.445 * H, 0.605 * H, rows, cols, scale=1.02, pad=ease, caps=caps)
    parts = [_skin(pelvis, rig, _SPINE, proxy=_torso_tube(rig, 0.445 * H, 0.605 * H, rows, cols, caps=caps))]
    r1, r2 = _leg_radii(rig)
    for side in ("Left", "Right"):
        path = leg_path(rig, side).copy()
        # The trouser leg starts under the pelvis shell, so its top never shows through the shirt.
        path[0] = rig.pos(f"{side}UpLeg") + np.array([0.0, 0.004 * H, -0.004 * H])
        path[-1] = path[-1] + np.array([0.0, 0.012 * H, 0.0])
        l1 = r1 * 1.08 + ease
        l2 = r2 * 1.08 + ease
        # The trouser leg starts at the hip joint, a little narrower than the thigh, so its top
        # stays inside the pelvis shell (and under the shirt's hem) when the hips sway.
        l1[0], l2[0] = 0.92 * l1[1], 0.88 * l2[1]
        # Straight-cut trousers: below the knee they hang rather than follow the calf.
        l1[5:] = np.maximum(l1[5:], l1[4] * np.linspace(1.0, 0.92, len(l1) - 5))
        l2[5:] = np.maximum(l2[5:], l2[4] * np.linspace(1.0, 0.95, len(l2) - 5))
        grid = dict(rows=_n(48, q, 6), cols=_n(30, q, 6), hint=(0, 0, 1))
        s = tube(path, l1, l2, **grid)
        b1, b2 = r1.copy(), r2.copy()
        b1[0], b2[0] = b1[1], b2[1]
        parts.append(_skin(s, rig, ["Hips", f"{side}UpLeg", f"{side}Leg", f"{side}Foot"],
                           proxy=tube(path, b1, b2, **grid)))
    return merge(parts)


def _shoe(rig: Skeleton, side: str, q: float) -> Surface:
    """A low sneaker: an upper with a raised heel counter, an instep that slopes down to a
    rounded toe with a little spring, on a flat, slightly wider sole in the sole's colour."""
    H = rig.height
    foot = rig.pos(f"{side}Foot")
    toe = rig.pos(f"{side}ToeBase")
    end = rig.pos(f"{side}Toe_End")
    rows = _n(30, q, 5)
    sole_h = 0.009 * H
    z = np.linspace(foot[2] - 0.040 * H, end[2] + 0.014 * H, rows)
    kz = np.array([z[0], foot[2], 0.5 * (foot[2] + toe[2]), toe[2], z[-1]])
    half_h = profile(kz, np.array([0.030, 0.036, 0.028, 0.018, 0.012]) * H, z)
    half_w = profile(kz, np.array([0.025, 0.029, 0.033, 0.035, 0.027]) * H, z)
    x = profile(kz, np.array([foot[0], foot[0], 0.5 * (foot[0] + toe[0]), toe[0], end[0]]), z)
    spring = profile(kz, np.array([0.0, 0.0, 0.0, 0.0, 0.004]) * H, z)
    path = np.column_stack([x, sole_h + half_h + spring - 0.002 * H, z])
    upper = tube(path, half_h, half_w, rows, _n(32, q, 8), hint=(0, 1, 0), exponent=2.5,
                 caps=(_n(5, q, 2), _n(6, q, 2)), cap_depth=0.7, smooth_path=False)
    # The upper's texture avoids the sole's band and its stitching (u 0.30-0.70 of the texture).
    u = upper.uv[:, 0]
    upper.uv[:, 0] = np.where(u < 0.5, u * 0.6, 0.7 + (u - 0.5) * 0.6)
    sole_path = np.column_stack([x, np.full(rows, sole_h / 2) + spring, z])
    sole = tube(sole_path, np.full(rows, sole_h / 2), half_w * 1.07 + 0.001 * H, rows, _n(24, q, 8),
                hint=(0, 1, 0), exponent=4.0, caps=(_n(3, q, 1), _n(3, q, 1)), cap_depth=1.0, smooth_path=False)
    sole.uv[:, 0] = 0.5
    return _skin(merge([upper, sole]), rig, [f"{side}Foot", f"{side}ToeBase", f"{side}Leg"])


# --------------------------------------------------------------------------
# Hair
# --------------------------------------------------------------------------

def _hair_cap(rig: Skeleton, q: float, thickness: float, front: float, back: float,
              curls: float = 0.0) -> Surface:
    R, C = _n(36, q, 6), _n(72, q, 12)
    theta = np.linspace(-np.pi, np.pi, C + 1)
    s = np.linspace(0.0, 1.0, R)
    T, S = np.meshgrid(theta, s)
    phi_end = front + (back - front) * ((1 - np.cos(T)) / 2) ** 0.7
    P = S * phi_end
    off = thickness * (1.0 - 0.85 * S ** 5)
    if curls:
        off = off + curls * (np.sin(9 * T) * np.sin(13 * P)) ** 2 * (1 - 0.5 * S ** 4)
    pts = head_point(rig, T, P, face=False, offset=off)
    return grid_surface(pts, pole_start=True)


def _hair(rig: Skeleton, style: str, q: float) -> Surface | None:
    if style == "none":
        return None
    H = rig.height
    center, radii = head_frame(rig)
    if style == "curly":
        cap = _hair_cap(rig, q, 0.16, 0.33 * np.pi, 0.70 * np.pi, curls=0.09)
        return _skin(cap, rig, ["Head"])
    if style == "short" and rig.gender == "masculine":
        # A man's short cut: thin, off the forehead, tapered above the ears and at the nape.
        cap = _hair_cap(rig, q, 0.06, 0.30 * np.pi, 0.60 * np.pi)
    else:
        cap = _hair_cap(rig, q, 0.10 if style != "short" else 0.08, 0.35 * np.pi, 0.64 * np.pi)
    parts = [_skin(cap, rig, ["Head"])]
    if style == "bun":
        R, C = _n(18, q, 5), _n(28, q, 8)
        phi = np.linspace(0, np.pi, R)
        th = np.linspace(-np.pi, np.pi, C + 1)
        Th, Ph = np.meshgrid(th, phi)
        # High on the back of the crown, so it shows above the head from the front too.
        rb = 0.035 * H
        c = head_point(rig, np.array(np.pi), np.array(0.17 * np.pi), face=False, offset=0.12)
        pts = np.stack([rb * np.sin(Ph) * np.sin(Th), rb * 0.85 * np.cos(Ph), rb * np.sin(Ph) * np.cos(Th)], -1) + c
        bun = grid_surface(pts, pole_start=True, pole_end=True)
        parts.append(_rigid(bun, rig, "Head"))
    if style == "long":
        parts.append(_skin(_long_hair(rig, q), rig, ["Head", "Neck", "Spine2"], power=4.0))
    return merge(parts)


def _long_hair(rig: Skeleton, q: float) -> Surface:
    """A curtain around the back and sides, from under the cap on the crown to below the
    shoulders: it rounds over the head and stands out from it at the ears (volume), widens a
    little as it falls, turns its tips in, and rolls its front edges towards the face, so
    neither its outline nor its shading reads as a flat panel beside the face.

    Each column is a path (over the head, then down) resampled by arc length into rows, so
    the rows stay evenly spaced where the path turns from the head into the fall.
    """
    H = rig.height
    center, _ = head_frame(rig)
    R, C = _n(36, q, 6), _n(48, q, 8)
    th = np.linspace(1.0, 2 * np.pi - 1.0, C + 1)
    side = np.abs(np.cos(th / 2))                 # 1 at the front edges, 0 at the back
    u = np.linspace(0.0, 1.0, C + 1)
    edge = np.clip(1.0 - np.minimum(u, 1.0 - u) / 0.10, 0.0, 1.0) ** 2
    # Over the head: from inside the cap (offset below its 0.10) out to ear height, standing
    # further off the head as it goes down, less so at the front edges.
    phi = np.linspace(0.22, 0.50, 10) * np.pi
    off = 0.085 + (0.15 - 0.085) * np.sin(0.5 * np.pi * (phi - phi[0]) / (phi[-1] - phi[0]))
    Th, Ph = np.meshgrid(th, phi)
    over = head_point(rig, Th, Ph, face=False, offset=off[:, None] * (1.0 - 0.35 * edge[None, :]))
    # The fall: shorter at the sides than down the back, the tips not on one straight line.
    k = np.linspace(0.0, 1.0, 16)[1:, None]
    start = over[-1]
    length = (0.24 - 0.10 * side + 0.008 * np.sin(5.0 * th)) * H
    y = start[:, 1] - length * k
    widen = 1.0 + 0.12 * (1.0 - (1.0 - k) ** 2) - 0.06 * np.clip((k - 0.8) / 0.2, 0.0, 1.0) ** 2
    roll = 1.0 - 0.14 * edge
    x = center[0] + (start[:, 0] - center[0]) * widen * roll
    z_head = center[2] + (start[:, 2] - center[2]) * (1.0 + 0.04 * k) * roll - 0.006 * H * edge * k
    # Below the head it drapes behind the shoulders and down the back: it stays behind the
    # torso (the shirt's back surface at its own x, plus a little room), blended in smoothly.
    rx, rz, cz = _torso_profile(rig, y)
    rx, rz = rx * 1.06 + 0.005 * H, rz * 1.06 + 0.005 * H
    half = rz * np.sqrt(np.clip(1.0 - (x / rx) ** 2, 0.0, 1.0))
    z_body = cz - half - 0.010 * H
    soft = 0.010 * H
    z = 0.5 * (z_head + z_body - np.sqrt((z_head - z_body) ** 2 + soft * soft))
    path = np.concatenate([over, np.stack([x, y, z], -1)])         # (points, columns, 3)
    pts = np.stack([polyline_at(path[:, j], np.linspace(0.0, 1.0, R)) for j in range(C + 1)], axis=1)
    return grid_surface(pts, wrap=False)


# --------------------------------------------------------------------------
# Glasses
# --------------------------------------------------------------------------

def _glasses(rig: Skeleton, q: float) -> Surface:
    H = rig.height
    center, radii = head_frame(rig)
    # Where the face's surface was before the socket deepened for the eyeball: the lenses
    # keep their distance from the brows and cheeks.
    eye = head_point(rig, np.array(EYE_THETA), np.array(EYE_PHI), face=False, offset=-0.035)
    lens_z = eye[2] + 0.011 * H
    lx, ly = 0.0148 * H, 0.0112 * H
    cx, cy = max(eye[0], lx + 0.0018 * H), eye[1] + 0.001 * H
    rim_r = 0.0014 * H
    parts = []
    for sign in (1.0, -1.0):
        c = np.array([sign * cx, cy, lens_z])
        lens = tube(np.array([c - [0, 0, 1e-4], c + [0, 0, 1e-4]]), np.array([ly, ly]), np.array([lx, lx]),
                    2, _n(32, q, 8), hint=(0, 1, 0), exponent=2.6, caps=(_n(6, q, 2), _n(6, q, 2)),
                    cap_depth=0.0012 * H / ly, smooth_path=False)
        lens.uv_into(LENS_UV)
        parts.append(lens)
        # The rim: a thin tube around the lens outline (a closed path: rows wrap too).
        R, C = _n(48, q, 12), _n(10, q, 5)
        a = np.linspace(0, 2 * np.pi, R + 1)
        ca, sa = superellipse(a, 2.6)
        rim = np.stack([c[0] + lx * 1.04 * ca, c[1] + ly * 1.04 * sa, np.full_like(a, lens_z)], -1)
        outward = np.stack([ca, sa, np.zeros_like(a)], -1)
        outward /= np.linalg.norm(outward, axis=1, keepdims=True)
        b = np.linspace(0, 2 * np.pi, C + 1)
        pts = (rim[:, None, :] + rim_r * np.cos(b)[None, :, None] * outward[:, None, :]
               + rim_r * np.sin(b)[None, :, None] * np.array([0, 0, 1.0]))
        frame = grid_surface(pts, closed_rows=True)
        frame.uv_into(FRAME_UV)
        parts.append(frame)
        # The temple arm runs back along the side of the head, just off the skin (under any
        # hair), rests on the top of the ear where it joins the head, and hooks down behind it.
        ear_top = center[1] + 0.0045 * H

        def on_head(theta, y, off):
            phi = np.arccos(np.clip((y - center[1]) / radii[1], -1, 1))
            return head_point(rig, np.array(sign * theta), np.array(phi), face=False, offset=off)
        path = np.array([[sign * (cx + lx * 1.04), cy + 0.002 * H, lens_z],
                         on_head(0.36 * np.pi, cy + 0.003 * H, 0.07),
                         on_head(0.45 * np.pi, ear_top + 0.001 * H, 0.035),
                         on_head(0.54 * np.pi, ear_top + 0.002 * H, 0.03),
                         on_head(0.62 * np.pi, ear_top - 0.012 * H, 0.01)])
        temple = tube(path, np.array([rim_r * 1.2] * 2), np.array([rim_r * 0.7] * 2), _n(16, q, 4),
                      _n(8, q, 4), hint=(0, 1, 0), caps=(_n(2, q, 1), _n(2, q, 1)))
        temple.uv_into(FRAME_UV)
        parts.append(temple)
    inner = cx - lx * 1.04
    bridge = tube(np.array([[inner, cy + 0.003 * H, lens_z], [0, cy + 0.006 * H, lens_z + 0.001 * H],
                            [-inner, cy + 0.003 * H, lens_z]]), np.array([rim_r] * 2), np.array([rim_r] * 2),
                  _n(10, q, 3), _n(8, q, 4), hint=(0, 0, 1), caps=(_n(2, q, 1), _n(2, q, 1)))
    bridge.uv_into(FRAME_UV)
    parts.append(bridge)
    return _rigid(merge(parts), rig, "Head")


# --------------------------------------------------------------------------

def avatar_skeleton(settings: dict) -> Skeleton:
    return skeleton(settings["gender"], float(settings["height"]), settings["bodyShape"])


def parts(settings: dict, q: float = 1.0) -> dict[str, Surface]:
    """Every mesh of the avatar at resolution ``q``: name -> merged, skinned Surface."""
    rig = avatar_skeleton(settings)
    body = [*_head(rig, q), _torso(rig, q), _neck(rig, q)]
    for side in ("Left", "Right"):
        body.append(_arm(rig, side, q))
        body.extend(_hand(rig, side, q))
        body.append(_leg(rig, side, q))
    meshes: dict[str, Surface] = {"Body": merge(body)}
    hair = _hair(rig, settings["hair"]["style"], q)
    if hair is not None:
        meshes["Hair"] = hair
    meshes["Outfit_Bottom"] = _outfit_bottom(rig, q)
    meshes["Outfit_Top"] = _outfit_top(rig, q, meshes["Outfit_Bottom"])
    meshes["Outfit_Footwear"] = merge([_shoe(rig, "Left", q), _shoe(rig, "Right", q)])
    if settings["glasses"] != "none":
        meshes["Glasses"] = _glasses(rig, q)
    return meshes


def triangle_count(settings: dict, q: float) -> int:
    """Triangles of every mesh at resolution ``q`` (geometry only: no skin weights computed)."""
    token = _SKINNING.set(False)
    try:
        return sum(s.triangles for s in parts(settings, q).values())
    finally:
        _SKINNING.reset(token)
