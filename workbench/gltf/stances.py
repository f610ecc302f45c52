"""The stances an avatar's ``pose`` setting picks (contract section 4), each a held frame written as a clip.

``relaxed`` is the first frame of the library's idle clip (``clips._idle`` at 0 s: contrapposto, the weight on the
right leg, the arms hanging loose), the stance every preview showed before the setting. The others start from it
and change the arms (and for ``hands_on_hips`` the legs and chest), the head turned to face straight ahead and
level (:func:`_face_forward`):

- ``hand_on_hip``: the contrapposto kept, the right hand open on the raised right hip, its elbow out to the side;
- ``hands_on_hips``: a power stance: the weight on both feet set a little wider, the chest up, both hands open
  on the hips with the elbows out;
- ``hands_clasped``: the contrapposto kept, the left hand resting on the belly, the right laid over it
  (:func:`~workbench.gltf.clasp.rest_clasped`);
- ``wave`` (blind review AL: "repetitive stiff poses"): the contrapposto kept, the right hand raised open beside the
  head as the ``wave`` clip holds it between two swings (:data:`WAVE_AT`), the other arm hanging as ``hand_on_hip``'s;
- ``hands_behind_back`` (blind review AR: "stiff repeated poses", four of twelve hands on hips): the contrapposto
  kept, the arms bent behind, the hands hanging one over the other at the small of the back ("at ease"; seen from
  the front, the elbows at the sides and no hands; :func:`~workbench.gltf.behind.rest_behind`).

Why these: they are the stances avatar products and product photos use most after the relaxed one (Ready Player
Me's render API: relaxed, power stance, standing), they read differently at a glance (the silhouette's elbows),
and each keeps the arms on the outside of the body's silhouette where a garment of any cut stays clear of them
(``hands_behind_back``'s forearms lie behind the back, solved clear of it per body as the clasped hands' are in front).
Arms folded across the chest were left out: the forearms would lie on the chest through a hoodie's fleece or a
tee's jersey depending on the cut, which a held frame written once per gender cannot follow.

A stance is a :class:`~workbench.gltf.clips.Clip` of two equal keys (0 and 1 s: three.js and model-viewer play a
clip of one key as one of no length), on the gender's skeleton like the library clips; ``build_avatar`` writes
it first among the model's animations, named ``pose`` (contract section 5).

>>> c = stance("hand_on_hip", "feminine")
>>> c.name, c.duration, len(c.times)
('pose', 1.0, 2)
>>> from workbench.gltf.clips import clip
>>> bool(np.array_equal(stance("relaxed", "masculine").rotations["LeftArm"][0], clip("idle", "masculine").rotations["LeftArm"][0]))
True
"""

from __future__ import annotations

from functools import lru_cache
from types import MappingProxyType

import numpy as np
from scipy.spatial import cKDTree

from ..body.outfit.pattern import pattern
from ..options import POSES
from ..skeleton import FINGERS, JOINT_NAMES, JOINTS, Skeleton
from .behind import BEHIND_ARM, BEHIND_ARM_X, BEHIND_ARM_Z, BEHIND_FOREARM_Z, BEHIND_MARGIN, rest_behind
from .clasp import CLASP_ARM, CLASP_ARM_X, CLASP_ARM_Z, CLASP_AT, CLASP_FOREARM_Z, CLASP_SPAN, CLASP_UP, rest_clasped
from .clips import IDLE_STANCE, WAVE_TILT, Clip, Pose, _base, _idle, _wave, euler_to_quat
from .fan import fan
from .hang import hang
from .reach import Surface, frames, rest_hand, tree
from .rotation import matrix

STANCE_CLIP = "pose"
# (x, y, z) degrees, written for the left side (``clips`` conventions), which replace the idle frame's angles of
# the arm holding a hand on the hip: the elbow 15 degrees back, the forearm swung 60 degrees forward (it comes in
# along the hip's front-side, not square into its side), the wrist near in line; the ``Arm`` and ``ForeArm`` z are
# solved per body. The hand is open, its palm side laid on the hip (:func:`_rest_on_hips`): blind review Z ("fists
# jammed into the hips") saw hands32's fist, 280 to 326 degrees of curl a finger, the fingertips out through the palm.
# The forearm is turned 50 degrees (its x) so the palm starts facing in: untwisted, the grid's solution held it facing
# back, and the rest (within 35 to 40 degrees of it) left every hand behind the waist's side, its back to the body, its
# palm 6 to 8 cm off it and seen from behind (blind review AU's worst: "the palms light beige ... someone else's
# hands"; tests/body/test_palms_review_au.py). Turned 45, a slim body's hand rested 14 mm off its hip. The palm now
# faces the hip but is cupped off it (the nearest tenth of it 11 to 56 mm off on AU's hands): the curled fingers and
# the heel touch first (a pass that lays it flat: the fingers straighter closed up, 2 to 3 mm apart).
HIP_ARM = {"Arm": (15.0, 0.0, -50.0), "ForeArm": (-50.0, -60.0, -80.0), "Hand": (0.0, 0.0, 5.0)}
# The open hand on the hip (degrees per finger joint 1, 2, 3; the knuckle's spread ``y``): the relaxed hand's cascade
# (``clips.REST_CURL``, the index least) at half its curl, lying along the hip. Its palm is rested on the hip with the
# fingers together (CLOSED_SPREAD: the T-pose's fan of 16, 10 and 9 degrees between neighbours at the knuckles closed
# to 7, 4 and 10, the thumb 15 degrees off the index), then the fan is opened (HIP_SPREAD: the middle, ring and
# little fingers turned away from the index, which lies on the hip, to 11, 7 and 8 degrees, their tips 10 to 20 mm
# apart against 5 to 7; the thumb up to 56 degrees off the index), each finger as far as it stays out of the hip
# (:func:`~workbench.gltf.fan.fan`). Until hands39 the closed fan was the one shown, written as if it opened the
# fingers (its signs reversed): the "mitten-like hands" of blind review AC (defect 9). The clasped right hand keeps
# it (laid on the other hand). The middle finger curls least, out of the cascade: with the palm on the hip's side
# (pass 62), curled as the cascade's 9, 14 and 8 degrees its tip lay 3 to 6 mm from the ring finger's (AC's #3 and
# #11), 9 to 15 now; the clasped right hand's middle finger with it.
HIP_CURL = {"Index": (6.0, 10.0, 6.0), "Middle": (4.0, 6.0, 4.0), "Ring": (12.0, 18.0, 10.0),
            "Pinky": (15.0, 22.0, 12.0), "Thumb": (-4.0, -6.0, -4.0)}
CLOSED_SPREAD = {"Index": 22.0, "Middle": 6.0, "Ring": -10.0, "Pinky": -28.0, "Thumb": 40.0}
HIP_SPREAD = {"Index": 22.0, "Middle": 14.0, "Ring": 10.0, "Pinky": -4.0, "Thumb": -20.0}
# Where the wrist of a hand on the hip goes, per body: this far above the Hips joint (in hip heights), out from the
# widest of the body and clothes over the hand's length below it by the wrist's half thickness and a margin (metres).
HIP_WRIST_UP, HIP_HAND_SPAN, HIP_CLEAR = 0.14, 0.2, 0.055
# The palm's centre rests on the hip this far above the Hips joint, within this band (hip heights), on its furthest
# HIP_FRONT degrees round from its side to the front (where the forearm, swung forward, meets it near in line).
# (At 0.09 and 0.03 hip heights, the wrist and palm of pass 25 to 59, the hand lay at the widest of the hips, under a
# long top's hem on heavy bodies: "the hand hanging in the air beside the hip", "hands hover next to the hip", blind
# review AS #2, #3 and #7. Now the palm is on the waist, 5 cm higher, the elbow out wider.)
HIP_PALM_UP, HIP_PALM_BAND, HIP_FRONT = 0.08, 0.015, 35.0
# The forearm's bone (elbow to wrist, sampled at these fractions) off the trunk's surface at rest by its own flesh's
# or sleeve's reach and this margin; the hand's middle (from the wrist towards its middle finger's last joint, at
# these fractions) by this much (half its thickness and a margin); the trunk: whatever lies this far and more below
# the shoulder joints.
FOREARM_AT, FOREARM_MARGIN, ARMPIT = (0.0, 0.35, 0.7, 1.0), 0.025, 0.1
HAND_AT, HAND_CLEAR = (0.5, 1.0), 0.04
SOLVE_ARM = np.arange(-75.0, -19.0, 1.0)
SOLVE_FOREARM = np.arange(-125.0, -39.0, 1.0)
# The power stance: each leg this much further out than the idle's (which comes in 3.5 degrees from the base
# mesh's wide stance), the chest lifted (degrees); the head level over it (:func:`_face_forward`).
POWER_LEG, POWER_CHEST = 1.5, 3.0
# The wave: the library's clip (``clips._wave``) at this time (seconds), the arm fully raised, the hand upright; the
# clip's tilt of the head and chest to the side (``clips.WAVE_TILT`` each, in full at WAVE_AT) taken off the head, so the face is as level as the
# other stances' (its eyes' line 6.5 degrees off level, against 0 to 0.65: "the face skewed, one eye higher, the mouth
# pushed off-centre" in the portraits and close-ups, blind review AS #8; tests/body/test_wave_stance.py).
WAVE_AT, WAVE_LEVEL = 0.85, 2 * WAVE_TILT


def _above(joint: str) -> tuple[str, ...]:
    """The skeleton's joints from the Hips down to ``joint``'s parent (:data:`workbench.skeleton.JOINTS`).

    >>> _above("Head")
    ('Hips', 'Spine', 'Spine1', 'Spine2', 'Neck')
    """
    parent = dict(JOINTS)
    out: list[str] = []
    up = parent[joint]
    while up is not None:
        out.append(up)
        up = parent[up]
    return tuple(reversed(out))


# The joints from the Hips to the head's parent: their turns, undone at the head, leave the face level and square.
HEAD_CHAIN = _above("Head")


def _set(p: Pose, side: str, joint: str, angles: tuple[float, float, float]) -> None:
    """Replace ``side`` ``joint``'s angles by ``angles`` written for the left side (mirrored for the right)."""
    x, y, z = angles
    s = 1.0 if side == "Left" else -1.0
    p.angles[side + joint] = np.tile([x, s * y, s * z], (p.f, 1))


def _hand_on_hip(p: Pose, side: str) -> None:
    for joint, angles in HIP_ARM.items():
        _set(p, side, joint, angles)
    _open_hand(p, side)


def _open_hand(p: Pose, side: str) -> None:
    """``side``'s fingers as :data:`HIP_CURL` and :data:`CLOSED_SPREAD` curl and spread them (the relaxed hand's
    replaced): an open hand that lies on what it rests on, its fingers together (:func:`~workbench.gltf.fan.fan` opens
    them)."""
    for f in FINGERS:                                # the relaxed hand's curl and spread replaced by the hip's
        for k in (1, 2, 3):
            p.angles.pop(f"{side}Hand{f}{k}", None)
    sign = 1.0 if side == "Left" else -1.0           # (the hand's joints mirrored as ``Pose.add`` mirrors them)
    for f, bends in HIP_CURL.items():
        for k, bend in enumerate(bends, 1):
            p.add(f"{side}Hand{f}{k}", z=-sign * bend, y=sign * CLOSED_SPREAD[f] if k == 1 else 0.0)


def _power(p: Pose) -> None:
    """The idle frame's weight shift undone: the hips level and centred, both knees straight, the feet set wider."""
    for joint in ("Hips", "Spine", "Spine1", "Spine2", "Neck", "Head", "LeftUpLeg", "RightUpLeg", "LeftLeg",
                  "RightLeg", "LeftFoot", "RightFoot"):
        p.angles.pop(joint, None)
    p.hips[:] = 0.0
    p.add("UpLeg", z=POWER_LEG - IDLE_STANCE)
    p.add("Foot", z=IDLE_STANCE - POWER_LEG)
    p.add("Spine1", x=-POWER_CHEST)
    for side in ("Left", "Right"):
        _hand_on_hip(p, side)


def fitted_stance(name: str, rig: Skeleton, pieces, shells: dict[str, int] | None = None) -> Clip:
    """Stance ``name`` fitted to one body: a hand on the hip lands on the outside of ``pieces`` (name -> mesh
    piece at rest, the body and its clothes; ``shells``: how many of a garment's first vertices are its outside),
    clasped hands in front of them, whatever their width.

    >>> from workbench.gltf.meshes import avatar_skeleton, parts
    >>> from workbench.options import normalize_avatar_settings
    >>> s = normalize_avatar_settings({"gender": "feminine", "bodyShape": "heavy"})
    >>> c = fitted_stance("hands_on_hips", avatar_skeleton(s), parts(s))
    >>> c.name, bool(np.allclose(c.rotations["LeftArm"], stance("hands_on_hips", "feminine").rotations["LeftArm"]))
    ('pose', False)
    """
    p = _pose(name, rig.gender)
    h = rig.hip_height
    pts = np.concatenate([np.asarray(pieces[n].positions) for n in ("Body", "Outfit_Top", "Outfit_Bottom")
                          if n in pieces])
    pts = pts[pts[:, 1] < rig.pos("LeftArm")[1] - ARMPIT]     # the trunk and legs (the T-pose's arms are above)
    trunk = tree(pts - rig.world[0])                            # from the Hips joint, in its frame
    flesh = _forearm_radius(rig, pieces)
    clear = flesh + FOREARM_MARGIN
    y0 = rig.world[0, 1]
    if name in ("hand_on_hip", "hands_on_hips"):
        band = pts[(pts[:, 1] > y0 + (HIP_WRIST_UP - HIP_HAND_SPAN) * h) & (pts[:, 1] < y0 + HIP_WRIST_UP * h)]
        for side in ("Right",) if name == "hand_on_hip" else ("Left", "Right"):
            s = 1.0 if side == "Left" else -1.0
            half = float(np.max(s * band[:, 0]))
            target = np.array([s * (half + HIP_CLEAR), HIP_WRIST_UP * h, np.nan])
            _solve(p, side, rig, target, trunk, clear, [HIP_ARM["Arm"][0]], SOLVE_ARM, SOLVE_FOREARM)
        _rest_on_hips(p, rig, pieces, ("Right",) if name == "hand_on_hip" else ("Left", "Right"), shells)
        if name == "hand_on_hip":
            hang(p, "Left", rig, pieces, shells)
    elif name == "wave":
        hang(p, "Left", rig, pieces, shells)
    elif name == "hands_behind_back":
        def aim(side: str, target: np.ndarray) -> tuple[float, float]:
            return _solve(p, side, rig, target, trunk, flesh + BEHIND_MARGIN, BEHIND_ARM_X,
                          BEHIND_ARM_Z, BEHIND_FOREARM_Z)

        rest_behind(p, rig, pts, aim)
    elif name == "hands_clasped":
        band = pts[(pts[:, 1] > y0 + (CLASP_UP - CLASP_SPAN) * h) & (pts[:, 1] < y0 + (CLASP_UP + CLASP_SPAN) * h)
                   & (np.abs(pts[:, 0]) < 0.12 * h)]
        front = float(np.max(band[:, 2])) - rig.world[0, 2]

        def solve(side: str, target: np.ndarray) -> None:
            _solve(p, side, rig, target, trunk, clear, CLASP_ARM_X, CLASP_ARM_Z, CLASP_FOREARM_Z)

        solve("Left", np.array([CLASP_AT[0] * h, CLASP_UP * h, front + CLASP_AT[1]]))
        rest_clasped(p, rig, pieces, shells, solve, _open_hand)
    return _clip(p)


def outsides(outfit: dict, pieces) -> dict[str, int]:
    """How many of each garment's first vertices are its outside (the pattern's; after them its rolled edges and
    the facings turned in), for the garments ``pieces`` holds of ``outfit`` (the settings' ``outfit``)."""
    return {n: len(pattern(outfit[style])["vmap"]) for n, style in (("Outfit_Top", "topStyle"),
                                                                     ("Outfit_Bottom", "bottomStyle")) if n in pieces}


def _rest_on_hips(p: Pose, rig: Skeleton, pieces, sides, shells) -> None:
    """From the grid's solution, each hand of ``sides`` laid on the hip, palm side down (blind review P #2: they hung
    1 to 16 cm beside it; :func:`~workbench.gltf.reach.rest_hand`'s ``palmar``), its centre on the posed body and
    clothes at :data:`HIP_PALM_UP` hip heights above the Hips joint, their furthest :data:`HIP_FRONT` round; then
    its fingers fanned (:func:`~workbench.gltf.fan.fan`)."""
    rot, pos = frames(p, rig)
    surface = Surface(rig, pieces, rot, pos, shells)
    pts = surface.points
    y = pos[0, 1] + HIP_PALM_UP * rig.hip_height
    band = pts[np.abs(pts[:, 1] - y) < HIP_PALM_BAND * rig.hip_height]
    a = np.radians(HIP_FRONT)
    for side in sides:
        s = 1.0 if side == "Left" else -1.0
        out = s * (band[:, 0] - pos[0, 0]) * np.cos(a) + (band[:, 2] - pos[0, 2]) * np.sin(a)
        rest_hand(p, side, rig, pieces, surface, band[int(np.argmax(out))], (shells or {}).get("Outfit_Top"), True)
    for side in sides:       # (after both rests: the right hand's solve reads the left hand's fingers, fanned or not)
        fan(p, side, rig, pieces, surface, HIP_SPREAD)


def _forearm_radius(rig: Skeleton, pieces) -> float:
    """How far the forearm's flesh or sleeve reaches from its bone, at rest (the T-pose: the left forearm along
    +x): the 95th percentile over the skin and the top between the elbow and the wrist."""
    elbow, wrist = rig.pos("LeftForeArm"), rig.pos("LeftHand")
    pts = np.concatenate([np.asarray(pieces[n].positions) for n in ("Body", "Outfit_Top") if n in pieces])
    on = (pts[:, 0] > elbow[0] + 0.02) & (pts[:, 0] < wrist[0] - 0.02)
    radial = np.hypot(pts[on, 1] - elbow[1], pts[on, 2] - elbow[2])
    radial = radial[radial < 0.15]                                   # (the T-pose's arm: nothing else is out there)
    return float(np.percentile(radial, 95)) if len(radial) else 0.04


def _solve(p: Pose, side: str, rig: Skeleton, target: np.ndarray, trunk: cKDTree, clear: float, arm_x, arm_z,
           fore_z) -> tuple[float, float]:
    """Set ``side``'s ``Arm`` x and z and ``ForeArm`` z (written for the left side, from the grids given) to
    those that bring its wrist nearest ``target`` (in the Hips' frame from the Hips joint; NaN: any) with the
    forearm's bone ``clear`` or more from every point of ``trunk`` (the trunk at rest, from the Hips joint: it
    turns with the Hips) and the hand's :data:`HAND_CLEAR`, else those that keep them furthest off. Returns the
    wrist's miss (metres) and the least clearance's margin (negative: not clear)."""
    s = 1.0 if side == "Left" else -1.0
    chain = _chain_to(p, rig, side + "Arm")
    hips_r, hips_p = chain["Hips"]
    arm_r, shoulder_p = chain[side + "Shoulder"]
    arm_p = shoulder_p + arm_r @ rig.local[rig.index[side + "Arm"]]
    ya = p.angles[side + "Arm"][0, 1]
    xf, yf, _ = p.angles[side + "ForeArm"][0]
    X, A, F = np.meshgrid(np.asarray(arm_x, float), np.asarray(arm_z, float), np.asarray(fore_z, float),
                          indexing="ij")
    qa = euler_to_quat(np.stack([X, np.full(X.shape, ya), s * A], -1)[..., None, :])[..., 0, :]
    qf = euler_to_quat(np.stack([np.full(F.shape, xf), np.full(F.shape, yf), s * F], -1)[..., None, :])[..., 0, :]
    ra = arm_r @ matrix(qa)
    elbow = arm_p + ra @ rig.local[rig.index[side + "ForeArm"]]
    wrist = elbow + (ra @ matrix(qf)) @ rig.local[rig.index[side + "Hand"]]
    local = (wrist - hips_p) @ hips_r                                 # into the Hips' frame
    err = np.sqrt(np.nansum((local - target) ** 2 * ~np.isnan(target), axis=-1)).reshape(-1)
    qh = euler_to_quat(p.angles[side + "Hand"][:1])[0] if side + "Hand" in p.angles else np.array([0, 0, 0, 1.0])
    reach = (ra @ matrix(qf) @ matrix(qh)) @ (rig.pos(side + "HandMiddle3") - rig.pos(side + "Hand"))
    at = [(elbow - hips_p) @ hips_r + f * (local - (elbow - hips_p) @ hips_r) for f in FOREARM_AT]
    at += [(wrist + f * reach - hips_p) @ hips_r for f in HAND_AT]
    bone = np.stack(at, -2).reshape(-1, len(at), 3)
    need = np.array([clear] * len(FOREARM_AT) + [HAND_CLEAR] * len(HAND_AT))
    best, best_gap = 0, -np.inf
    for chunk in np.array_split(np.argsort(err, kind="stable"), max(1, err.size // 512)):
        gap = (trunk.query(bone[chunk].reshape(-1, 3))[0].reshape(len(chunk), -1) - need).min(1)
        if gap.max() > best_gap:
            best, best_gap = int(chunk[int(np.argmax(gap))]), float(gap.max())
        ok = np.flatnonzero(gap >= 0)
        if len(ok):
            best = int(chunk[ok[0]])
            break
    i = np.unravel_index(best, X.shape)
    p.angles[side + "Arm"][:, 0] = X[i]
    p.angles[side + "Arm"][:, 2] = s * A[i]
    p.angles[side + "ForeArm"][:, 2] = s * F[i]
    return float(err[best]), best_gap


def _chain_to(p: Pose, rig: Skeleton, joint: str) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """Each joint's world rotation and position from the Hips down to ``joint``'s parent, in the pose's first
    frame (rotations in the parent's frame over identity rest rotations, as the clips are written)."""
    path = []
    k = rig.parents[rig.index[joint]]
    while k >= 0:
        path.append(k)
        k = rig.parents[k]
    out: dict[str, tuple[np.ndarray, np.ndarray]] = {}
    r, pos = np.eye(3), rig.local[0] + p.hips[0] * rig.hip_height
    for k in reversed(path):
        n = rig.names[k]
        if k:
            pos = pos + r @ rig.local[k]
        if n in p.angles:
            r = r @ matrix(euler_to_quat(p.angles[n][:1])[0])
        out[n] = (r, pos)
    return out


@lru_cache(maxsize=16)
def stance(name: str, gender: str) -> Clip:
    """The keyframes of stance ``name`` for ``gender`` on an average body (pure and cached): a clip named
    :data:`STANCE_CLIP`."""
    return _clip(_pose(name, gender))


def _pose(name: str, gender: str) -> Pose:
    if name not in POSES:
        raise ValueError(f"stance: {name!r} is not a pose; allowed: {', '.join(POSES)}")
    p = Pose(2)
    _base(p)
    _idle(p, np.zeros(2), gender == "feminine")
    if name == "hand_on_hip":
        _hand_on_hip(p, "Right")
    elif name == "hands_on_hips":
        _power(p)
    elif name == "hands_clasped":
        for side, joints in CLASP_ARM.items():
            for joint, angles in joints.items():
                _set(p, side, joint, angles)
    elif name == "wave":
        _wave(p, np.full(p.f, WAVE_AT), gender == "feminine")
        p.add("Head", z=-WAVE_LEVEL)
    elif name == "hands_behind_back":
        for side in ("Left", "Right"):
            for joint, angles in BEHIND_ARM.items():
                _set(p, side, joint, angles)
    if name != "relaxed":
        _face_forward(p)
    return p


def _face_forward(p: Pose) -> None:
    """The head turned back to face straight ahead, level: its forward axis (+z, the eyes' at rest) set along the
    world's front through the turns of :data:`HEAD_CHAIN` (its own tilt to the side kept). The idle's first frame
    turns it 4.2 degrees on the hips' 1.7, the face 5.9 degrees to the body's left, which the portraits' frontal
    camera drew as the nose and mouth skewed to the viewer's right and the far cheek foreshortened into a hollow
    (blind review L #3, a narrow face with a long thin nose; tests/body/test_face_symmetry_review_l.py); the power
    stance's lifted chest and a chin lifted over it tipped the eyes 6 degrees up, chin up, nostrils in the mouth's
    close-ups (blind review Y's defect 8; tests/body/test_head_level_review_y.py). The body keeps its turn and lift.

    >>> p = _pose("hands_on_hips", "feminine")
    >>> r = np.eye(3)
    >>> for j in (*HEAD_CHAIN, "Head"):
    ...     r = r @ matrix(euler_to_quat(p.angles[j][:1])[0]) if j in p.angles else r
    >>> [round(float(v), 6) + 0.0 for v in r @ [0, 0, 1]]
    [0.0, 0.0, 1.0]
    """
    above = np.eye(3)
    for joint in HEAD_CHAIN:
        if joint in p.angles:
            above = above @ matrix(euler_to_quat(p.angles[joint][:1])[0])
    # The head turns z first, then x, then y (euler_to_quat): its +z goes to (cos x sin y, -sin x, cos x cos y),
    # which is to be the world's front as the neck's frame sees it.
    gx, gy, gz = above.T @ [0.0, 0.0, 1.0]
    head = p.angles.setdefault("Head", np.zeros((p.f, 3)))
    head[:, 0] = -np.degrees(np.arcsin(np.clip(gy, -1.0, 1.0)))
    head[:, 1] = np.degrees(np.arctan2(gx, gz))


def _clip(p: Pose) -> Clip:
    joints = [j for j in JOINT_NAMES if j in p.angles]
    quats = euler_to_quat(np.stack([p.angles[j] for j in joints]))
    quats.setflags(write=False)
    hips = p.hips.copy()
    hips.setflags(write=False)
    t = np.array([0.0, 1.0])
    t.setflags(write=False)
    # (The clip is cached and shared between the service's threads: its joints' table is read-only as its arrays are.)
    return Clip(STANCE_CLIP, 1.0, t, MappingProxyType({j: quats[k] for k, j in enumerate(joints)}), hips)
