"""Where the camera stands: the ``full`` and ``portrait`` framings of a posed model.

The model faces +Z with Y up (glTF), so the camera stands on +Z looking back
along -Z. Framing is exact rather than from a bounding sphere: for every
vertex the camera distance that keeps it inside the frame is solved in closed
form, and the largest wins, so a figure fills the frame up to the margin.

- ``full``: every vertex inside the frame with ``margin`` on each side.
- ``portrait``: head and shoulders. From the head bone when the skeleton has
  one: the head about half the picture's width, the eyes 40% from the top,
  centred; the eyes lower (to half way) where the hair needs room above it
  (``TOP_MARGIN``), and the square wider only when the hair (curls, a bob)
  needs more than that or ``PORTRAIT_MARGIN`` beside it; else the top 30% of
  the bounds. The body goes on below the image.
- :func:`frame_sequence`: one camera for many poses, so a clip's frames keep
  one framing.

>>> from workbench.render.scene import Model
>>> from workbench.regeneration.product import build_product_glb
>>> cam = frame(Model(build_product_glb("x")).posed(), "full")
>>> round(cam.fov_deg)
30
"""

from __future__ import annotations

import numpy as np

from .raster import Camera
from .scene import Posed

__all__ = ["frame", "frame_sequence", "portrait_box", "look_at", "orbit"]


def look_at(eye, target, up=(0.0, 1.0, 0.0)) -> np.ndarray:
    """World-to-view matrix of a camera at ``eye`` looking at ``target``."""
    eye = np.asarray(eye, np.float64)
    fwd = np.asarray(target, np.float64) - eye
    fwd /= np.linalg.norm(fwd)
    right = np.cross(fwd, up)
    right /= np.linalg.norm(right)
    true_up = np.cross(right, fwd)
    m = np.eye(4)
    m[0, :3], m[1, :3], m[2, :3] = right, true_up, -fwd
    m[:3, 3] = -m[:3, :3] @ eye
    return m


def orbit(pivot, distance: float, yaw_deg: float, elevation_deg: float, fov_deg: float = 30.0) -> Camera:
    """A camera ``distance`` from ``pivot``, looking at it, as if the model turned by ``yaw_deg``
    (counter-clockwise seen from above, as ``render(yaw_deg=)``) and the camera rose by
    ``elevation_deg`` (positive: looking down); the pivot stays at the picture's centre.

    >>> cam = orbit(np.zeros(3), 2.0, 0.0, 0.0)
    >>> (cam.view[:3, :3] @ [0, 0, 2.0] + cam.view[:3, 3]).round(6).tolist()
    [0.0, 0.0, 0.0]
    """
    a, e = np.radians(-float(yaw_deg)), np.radians(float(np.clip(elevation_deg, -89.0, 89.0)))
    pivot = np.asarray(pivot, np.float64)
    eye = pivot + distance * np.array([np.sin(a) * np.cos(e), np.sin(e), np.cos(a) * np.cos(e)])
    return Camera(view=look_at(eye, pivot), fov_deg=fov_deg, near=max(1e-4, distance * 1e-3))


def _fit_distance(pts: np.ndarray, center: np.ndarray, half_tan: float, axes=(0, 1)) -> float:
    """Smallest distance along +Z from ``center`` that keeps ``pts`` within ``half_tan`` (tan of half-angle)."""
    rel = pts - center
    need = 0.0
    for ax in axes:
        need = max(need, float(np.max(rel[:, 2] + np.abs(rel[:, ax]) / half_tan)))
    return need


def frame(posed: Posed, camera: str = "full", *, extra_points: np.ndarray | None = None,
          margin: float = 0.06) -> Camera:
    """A camera for ``camera`` = "full" or "portrait" framing of ``posed``.

    ``extra_points`` widen the fit (a turntable passes the model at every angle).
    """
    pts = posed.points().astype(np.float64)
    if extra_points is not None:
        pts = np.concatenate([pts, extra_points.astype(np.float64)])
    if len(pts) == 0:
        return Camera(view=look_at((0, 1, 4), (0, 1, 0)), fov_deg=30.0)
    lo, hi = pts.min(0), pts.max(0)
    if camera == "full":
        fov = 30.0
        half_tan = np.tan(np.radians(fov) / 2) * (1 - 2 * margin)
        center = (lo + hi) / 2
        for _ in range(3):
            d = _fit_distance(pts, center, half_tan)
            d = max(d, float(hi[2] - center[2]) + 1e-3)
            # Centre the projected extents, not the 3D bounds: parts nearer the camera (feet
            # forward of the body) look bigger, so the margins come out equal on both sides.
            depth = np.maximum(d - (pts[:, 2] - center[2]), 1e-6)
            for ax in (0, 1):
                t = (pts[:, ax] - center[ax]) / depth
                center[ax] += (t.max() + t.min()) / 2 * d
        eye = center + np.array([0, 0, d])
        return Camera(view=look_at(eye, center), fov_deg=fov, near=max(1e-4, d * 1e-3))
    if camera != "portrait":
        raise ValueError(f"render: camera must be full or portrait; got {camera!r}")

    fov = PORTRAIT_FOV
    if _has_head(posed):
        return _portrait_camera(portrait_box(posed, pts), fov)
    # No head bone: the top 30% of the bounds, with headroom, cut at the bottom.
    top = float(hi[1])
    bottom = float(hi[1] - 0.30 * (hi[1] - lo[1]))
    cx = float((lo[0] + hi[0]) / 2)
    cz = float((lo[2] + hi[2]) / 2)
    span = max(top - bottom, 1e-3)
    top_m = top + 0.08 * span
    center = np.array([cx, (top_m + bottom) / 2, cz])
    half_tan = np.tan(np.radians(fov) / 2)
    region = pts[(pts[:, 1] >= bottom) & (pts[:, 1] <= top)]
    front = float(region[:, 2].max()) if len(region) else float(hi[2])
    d = (front - cz) + (top_m - bottom) / 2 / half_tan
    head_pts = pts[pts[:, 1] >= center[1]]
    if len(head_pts):
        d = max(d, _fit_distance(head_pts, center, half_tan, axes=(1,)))
    eye = center + np.array([0, 0, d])
    return Camera(view=look_at(eye, center), fov_deg=fov, near=max(1e-4, d * 1e-3))


def _has_head(posed: Posed) -> bool:
    return {"Head", "HeadTop_End"} <= posed.joint_names and "Head" in posed.joints and "HeadTop_End" in posed.joints


# Portrait proportions, in lengths of the head bone (``Head`` to ``HeadTop_End``): the eyes
# sit at 0.45 of the bone above the ``Head`` joint (a Mixamo-style rig's skull base), and
# the picture spans 1.8 bones, so a head about 0.8 bones wide fills close to half of it.
EYE_ALONG_HEAD = 0.45
PORTRAIT_SPAN = 1.8
EYES_FROM_TOP = 0.40
# The least share of the portrait left free beside the head and its hair, and above them. (At 0.06 over the hair too,
# a short crop's, a bun's or a bald crown's top read as touching the picture's edge, and tall hair grew the square
# until the head was small over broad shoulders: blind review BA, "the portraits' heads of different sizes", curly
# heads framed at 0.6 of the others'.)
PORTRAIT_MARGIN = 0.06
TOP_MARGIN = 0.10
# How far down the picture the eyes may go (a share of its height) to make room over tall hair before the square grows.
EYES_LOWEST = 0.50
# The portrait's field of view (degrees).
PORTRAIT_FOV = 25.0


def portrait_box(posed: Posed, pts: np.ndarray | None = None) -> tuple[float, float, float, float, float]:
    """The square a portrait shows, as (centre x, centre y, depth z, half span, front z).

    From the head bone when the model has one (eyes ``EYES_FROM_TOP`` of the way down, centred
    on the head; lower, down to ``EYES_LOWEST``, where the head and hair above the neck would
    come nearer the top than ``TOP_MARGIN``, and the square grown past that or where they would
    come nearer its sides than ``PORTRAIT_MARGIN``), else the top 30% of the bounds.
    """
    if pts is None:
        pts = posed.points().astype(np.float64)
    lo, hi = pts.min(0), pts.max(0)
    j = posed.joints
    if _has_head(posed):
        base = np.asarray(j["Head"], np.float64)
        top = np.asarray(j["HeadTop_End"], np.float64)
        bone = float(np.linalg.norm(top - base))
        raised = _forearms_and_hands(j, pts, bone)
        if raised.any():   # (most stances raise no hand: the points kept as they are, not copied)
            pts = pts[~raised]
        eye = base + EYE_ALONG_HEAD * (top - base)
        half = PORTRAIT_SPAN * bone / 2
        cy = float(eye[1]) - (0.5 - EYES_FROM_TOP) * 2 * half
        near = pts[np.linalg.norm(pts - eye, axis=1) < 1.2 * bone]
        # The head and its hair: everything above the neck within reach of the head (not the arms).
        neck_y = float(j["Neck"][1]) if "Neck" in j else float(base[1]) - 0.3 * bone
        head = pts[(pts[:, 1] > neck_y + 0.15 * bone) & (np.linalg.norm(pts[:, [0, 2]] - eye[[0, 2]], axis=1) < 1.6 * bone)]
        if len(head):
            # The hair's sides keep PORTRAIT_MARGIN; its top TOP_MARGIN, first by lowering the eyes (down to
            # EYES_LOWEST), and only past that by growing the square, so the head keeps its size.
            above = float(head[:, 1].max() - eye[1])
            side = float(np.abs(head[:, 0] - eye[0]).max())
            half = max(half, side / (1 - 2 * PORTRAIT_MARGIN), above / (2 * (EYES_LOWEST - TOP_MARGIN)))
            eyes = min(EYES_LOWEST, max(EYES_FROM_TOP, above / (2 * half) + TOP_MARGIN))
            cy = float(eye[1]) - (0.5 - eyes) * 2 * half
        front = float(near[:, 2].max()) if len(near) else float(eye[2]) + bone
        return float(eye[0]), cy, float(eye[2]), half, front
    top_y = float(hi[1])
    bottom = float(hi[1] - 0.30 * (hi[1] - lo[1]))
    half = max((top_y - bottom) / 2, 1e-3) * 1.08
    return float((lo[0] + hi[0]) / 2), (top_y + bottom) / 2, float((lo[2] + hi[2]) / 2), half, float(hi[2])


# A raised forearm and its hand (the wrist over the neck's joint), which a portrait leaves out of the head's square (a
# hand raised beside the head, the ``wave`` stance, grew it to hold the hand: the head small in a corner of sky): the
# points within FOREARM_REACH of the bone from the elbow to the wrist carried on past the wrist by HAND_ALONG (both in
# head bones, :data:`PORTRAIT_SPAN`'s unit). A hand under the neck is left alone (hair over a hand at the chest stays).
FOREARM_REACH, HAND_ALONG = 0.45, 1.1


def _forearms_and_hands(joints: dict, pts: np.ndarray, bone: float) -> np.ndarray:
    """Which of ``pts`` lie on a raised forearm or hand (see :data:`FOREARM_REACH`), by the posed ``joints``.

    >>> j = {"Neck": np.array([0.0, -0.1, 0.0]), "LeftForeArm": np.array([0.0, 0.0, 0.0]),
    ...      "LeftHand": np.array([0.0, 0.2, 0.0])}
    >>> pts = np.array([[0.0, 0.3, 0.05], [0.0, 0.6, 0.0], [0.2, 0.1, 0.0]])
    >>> _forearms_and_hands(j, pts, 0.2).tolist(), _forearms_and_hands({**j, "Neck": np.ones(3)}, pts, 0.2).tolist()
    ([True, False, False], [False, False, False])
    """
    out = np.zeros(len(pts), bool)
    neck = joints.get("Neck")
    for side in ("Left", "Right"):
        if side + "ForeArm" not in joints or side + "Hand" not in joints:
            continue
        elbow = np.asarray(joints[side + "ForeArm"], np.float64)
        wrist = np.asarray(joints[side + "Hand"], np.float64)
        if neck is not None and wrist[1] < float(neck[1]):
            continue
        along = wrist - elbow
        length = float(np.linalg.norm(along))
        if length < 1e-9:
            continue
        axis = along / length
        t = np.clip((pts - elbow) @ axis, 0.0, length + HAND_ALONG * bone)
        out |= np.linalg.norm(pts - elbow - t[:, None] * axis, axis=1) < FOREARM_REACH * bone
    return out


def _portrait_camera(box, fov: float) -> Camera:
    cx, cy, cz, half, front = box
    center = np.array([cx, cy, cz])
    half_tan = np.tan(np.radians(fov) / 2)
    # The square spans 2 * half at the head's depth; the camera stays outside the face.
    d = max(half / half_tan, (front - cz) + 0.05 * half)
    eye = center + np.array([0, 0, d])
    return Camera(view=look_at(eye, center), fov_deg=fov, near=max(1e-4, d * 1e-3))


def frame_sequence(poses: list[Posed], camera: str = "full", *, margin: float = 0.06) -> Camera:
    """One camera for a sequence of poses (a clip's frames), so the figure keeps its size.

    ``full`` fits every vertex of every pose; ``portrait`` takes the square that holds the
    portrait square of every pose.

    >>> from workbench.render.scene import Model
    >>> from workbench.regeneration.product import build_product_glb
    >>> posed = Model(build_product_glb("x")).posed()
    >>> frame_sequence([posed, posed], "full").fov_deg == frame(posed, "full").fov_deg
    True
    """
    if not poses:
        raise ValueError("render: a sequence needs at least one pose")
    if camera == "full":
        rest = [p.points() for p in poses[1:]]
        extra = np.concatenate(rest) if rest else None
        return frame(poses[0], "full", extra_points=extra, margin=margin)
    if camera != "portrait":
        raise ValueError(f"render: camera must be full or portrait; got {camera!r}")
    boxes = np.array([portrait_box(p) for p in poses])
    cx, cy, cz, half, front = boxes.T
    x0, x1 = float((cx - half).min()), float((cx + half).max())
    y0, y1 = float((cy - half).min()), float((cy + half).max())
    union = ((x0 + x1) / 2, (y0 + y1) / 2, float(cz.mean()), max(x1 - x0, y1 - y0) / 2, float(front.max()))
    return _portrait_camera(union, 25.0)
