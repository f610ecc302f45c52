"""Heads that differ (issue 46, blind review S: variety 5/10, "one base head"; reviews Q and R: "the slim female head
is the same woman on four avatars").

Every face control shaped a feature inside the face; the skull under them was its gender's one head, only scaled
with the body. Review S's own twelve avatars (``make_review_sheets.py --seed 4629``, the draw its sheets show), each
pair of one gender, their heads (the cranium and the face to the chin) brought together by a similarity (a turn, a
shift and one scale): on main 92 % of the heads' differences were the scale alone, and what was left, the shape,
2.7 mm RMS. ``face.headWidth`` and ``face.foreheadHeight`` (contract section 4,
:data:`workbench.body.details.HEAD_CONTROLS`) shape the head itself. Measured on the models' bodies
(:func:`workbench.body.mesh.body_mesh`, what the model and the preview are built from)."""

from __future__ import annotations

from functools import cache

import numpy as np
from helpers import random_settings

from workbench.body import compile as cc
from workbench.body.mesh import body_mesh
from workbench.options import normalize_avatar_settings

REVIEW_S = [normalize_avatar_settings(s) for s in random_settings(12, seed=4629, with_added=True, heads=True)]


@cache
def head() -> np.ndarray:
    """The body's vertices of the head: the cranium above the ears' middle, and the face in front down to the chin."""
    data = cc.compiled()
    base, body = data["base"], cc.group(data, "body")
    y, z = base[body, 1], base[body, 2]
    return body[(y > 6.7) | ((y > 6.1) & (z > 0.6))]


def residual(a: np.ndarray, b: np.ndarray, scale: bool) -> float:
    """RMS distance (mm) of ``a``'s points from ``b``'s after the rotation and shift (and with ``scale``, the one
    scale) that bring them closest (Procrustes).

    >>> p = np.random.default_rng(0).random((50, 3)); round(residual(p, 2 * p + 1, True), 9)
    0.0
    """
    a, b = a - a.mean(0), b - b.mean(0)
    u, s, vt = np.linalg.svd(a.T @ b)
    k = s.sum() / (a ** 2).sum() if scale else 1.0
    return float(np.sqrt(((k * a @ (u @ vt) - b) ** 2).sum(1).mean()) * 1000)


def test_review_s_heads_differ_in_shape_not_only_in_size():
    """Review S's pairs of one gender (30): their heads, a scale apart taken off, differ by 3.2 mm RMS or more on
    average (main: 2.73, now 3.36), and the scale is less of their difference: 90 % of it at most (main: 92 %, now
    88 %). The default avatars keep their bytes (every head control at 0 is the head as before:
    tests/service/test_face_settings_http.py's naming the defaults)."""
    heads = [(s["gender"], body_mesh(s).positions[head()].astype(np.float64)) for s in REVIEW_S]
    pairs = np.array([(residual(a, b, False), residual(a, b, True))
                      for i, (ga, a) in enumerate(heads) for gb, b in heads[i + 1:] if ga == gb])
    shape = pairs[:, 1].mean()
    size_share = 1 - (pairs[:, 1] ** 2).sum() / (pairs[:, 0] ** 2).sum()
    assert len(pairs) == 30 and shape >= 3.2 and size_share <= 0.9, (round(shape, 2), round(size_share, 3))


def test_the_head_controls_shape_the_skull_within_a_persons_range():
    """headWidth at +1 and -1 makes the default feminine skull over the ears broader and narrower by 5 % to 9 % of its
    breadth (now 6.3 and 6.7 %, some 9 and 10 mm of 147: a cephalic index still a person's), its length from brow to
    back changing less; foreheadHeight sets the crown 8 to 15 mm higher or lower over the eyes (now 12.3 and 10.2 of
    111), the eyes to the chin within 2 mm (the exact height's scale takes up the crown's millimetres)."""
    data = cc.compiled()
    base = data["base"]
    idx = head()
    skull = idx[(np.abs(base[idx, 1] - 7.7) < 0.1) & (np.abs(base[idx, 2] - 0.1) < 1.6)]   # a band over the ears
    eyes = cc.group(data, "helper-l-eye")
    chin = idx[base[idx, 2] > 0.6]

    def measures(face: dict) -> tuple[float, float, float, float]:
        p = body_mesh(normalize_avatar_settings({"gender": "feminine", "face": face})).positions.astype(np.float64)
        eye = p[eyes, 1].mean()
        return (float(np.ptp(p[skull, 0])) * 1000, float(np.ptp(p[skull, 2])) * 1000,
                float(p[idx, 1].max() - eye) * 1000, float(eye - p[chin, 1].min()) * 1000)

    w0, l0, up0, down0 = measures({})
    for sign in (1, -1):
        w, length, _, _ = measures({"headWidth": sign})
        assert 0.05 <= sign * (w - w0) / w0 <= 0.09 and abs(length - l0) < abs(w - w0), (sign, w, w0, length, l0)
        _, _, up, down = measures({"foreheadHeight": sign})
        assert 8 <= sign * (up - up0) <= 15 and abs(down - down0) < 2.0, (sign, up - up0, down - down0)
