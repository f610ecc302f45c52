"""Where the camera stands: the ``full`` and ``portrait`` framings of a posed model.

The model faces +Z with Y up (glTF), so the camera stands on +Z looking back
along -Z. Framing is exact rather than from a bounding sphere: for every
vertex the camera distance that keeps it inside the frame is solved in closed
form, and the largest wins, so a figure fills the frame up to the margin.

- ``full``: every vertex inside the frame with ``margin`` on each side.
- ``portrait``: head and shoulders. From the skeleton when it has the joints
  (top of the head from the vertices above ``Neck``, the cut below ``Spine2``,
  the chest), else the top 30% of the bounds. The frame is cut at the bottom:
  the body goes on below the image.

>>> from workbench.render.scene import Model
>>> from workbench.viewers.product import build_product_glb
>>> cam = frame(Model(build_product_glb("x")).posed(), "full")
>>> round(cam.fov_deg)
30
"""

from __future__ import annotations

import numpy as np

from .raster import Camera
from .scene import Posed

__all__ = ["frame", "look_at"]


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
        d = _fit_distance(pts, center, half_tan)
        d = max(d, float(hi[2] - center[2]) + 1e-3)
        eye = center + np.array([0, 0, d])
        return Camera(view=look_at(eye, center), fov_deg=fov, near=max(1e-4, d * 1e-3))
    if camera != "portrait":
        raise ValueError(f"render: camera must be full or portrait; got {camera!r}")

    fov = 25.0
    j = posed.joints
    named = posed.joint_names
    if {"Neck", "Spine2"} <= named and "Head" in j:
        neck_y = float(j["Neck"][1])
        chest_y = float(j["Spine2"][1])
        head = pts[pts[:, 1] >= neck_y]
        top = float(head[:, 1].max()) if len(head) else float(j["Head"][1])
        # Below the chest joint by 0.3 of the neck-to-chest span: shoulders and chest show, the waist not.
        bottom = chest_y - 0.3 * max(neck_y - chest_y, 0.05 * (hi[1] - lo[1]))
        cx = float(j["Head"][0])
        cz = float(j["Head"][2])
    else:
        top = float(hi[1])
        bottom = float(hi[1] - 0.30 * (hi[1] - lo[1]))
        cx = float((lo[0] + hi[0]) / 2)
        cz = float((lo[2] + hi[2]) / 2)
    span = max(top - bottom, 1e-3)
    # Headroom above the hair; the bottom edge cuts through the body.
    top_m = top + 0.08 * span
    center = np.array([cx, (top_m + bottom) / 2, cz])
    half_tan = np.tan(np.radians(fov) / 2)
    region = pts[(pts[:, 1] >= bottom) & (pts[:, 1] <= top)]
    front = float(region[:, 2].max()) if len(region) else float(hi[2])
    # The cut lies on the front of the chest; the head above it must still fit.
    d = (front - cz) + (top_m - bottom) / 2 / half_tan
    head_pts = pts[pts[:, 1] >= center[1]]
    if len(head_pts):
        d = max(d, _fit_distance(head_pts, center, half_tan, axes=(1,)))
    eye = center + np.array([0, 0, d])
    return Camera(view=look_at(eye, center), fov_deg=fov, near=max(1e-4, d * 1e-3))
