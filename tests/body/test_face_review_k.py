"""Faces that stay plausible at the sliders' combinations (issue 46, blind review K #10: "a brick-shaped face, flat
forehead, small sunken eyes ...; a gaunt, pointed, over-long face; hard polygon steps along the jawline and a sharp
chin crease" in our mouth close-ups, seed 4621's #10, #4 and #12).

The jaw's outline: seen from the front as the mouth's close-up sees it (the camera 12 cm across at the mouth,
25 degrees of field, :data:`data.make_review_sheets.MOUTH_SPAN`), the chin's and jaw's lower border is a silhouette
against the neck. Found exactly on the T-posed mesh (:func:`workbench.body.mesh.body_mesh`), column by column of the
picture (a quarter of a millimetre apart at the mouth, over the 6 cm round the chin the close-up shows below the
mouth): the nearest surface along the column, and where it leaves the chin for the neck behind (a step of 4 mm or
more in depth), the chin's last point. Its bend: the turn between the outline's chords 1 mm long, one chord apart
(so a corner anywhere is seen whole), within each stretch of the outline that runs on without a jump. A build's own
face (its gender's and body's, no controls or variety) bends it by 8 to 35 degrees at MakeHuman's 7 to 10 mm edges;
a face's own targets added up to 14 degrees more where their patches met (workbench.body.jaw).
"""

from __future__ import annotations

from functools import cache

import numpy as np
import pytest
from helpers import random_settings

from workbench.body.mesh import body_mesh, body_of
from workbench.options import normalize_avatar_settings

REVIEW_K = [normalize_avatar_settings(s) for s in random_settings(12, 4621)]
NEXT = [normalize_avatar_settings(s) for s in random_settings(12, 4622)]
# The close-up's camera (data/make_review_sheets.py's MOUTH_SPAN and MOUTH_FOV): metres across at the mouth, degrees.
SPAN, FOV = 0.12, 25.0
# The most a face's own targets may bend its jaw's outline beyond its build's (degrees).
MORE_BEND = 5.0


def _camera(m) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per vertex of ``m``, its place in the close-up (metres at the mouth's distance, x right, y up) and its depth,
    and the body's skin triangles."""
    p = m.positions.astype(np.float64)
    teeth = p[m.groups["helper-upper-teeth"]]
    centre = np.array([teeth[:, 0].mean(), teeth[:, 1].mean(), 0.0])
    skin = p[m.groups["body"]]
    centre[2] = skin[np.linalg.norm(skin[:, :2] - centre[:2], axis=1) < 0.03, 2].max()
    d = SPAN / 2 / np.tan(np.radians(FOV) / 2) + 0.02
    q = p - (centre + [0, 0, d])
    return np.stack([q[:, 0] / -q[:, 2] * d, q[:, 1] / -q[:, 2] * d], 1), -q[:, 2], m.triangles[m.face_groups["body"]]


def jaw_outline(m, half: float = 0.03, step: float = 0.00025, jump: float = 0.004) -> tuple[np.ndarray, np.ndarray]:
    """The chin's and jaw's outline in the close-up: per column (``half`` either side of the mouth, ``step`` apart),
    the height of the chin's last point before the neck behind it (NaN where there is none)."""
    uv, depth, tris = _camera(m)
    u_, d_ = uv[tris], depth[tris]
    near = (u_[:, :, 1].max(1) < -0.01) & (u_[:, :, 1].min(1) > -0.11) & (np.abs(u_[:, :, 0]).min(1) < half + 0.01)
    u_, d_ = u_[near], d_[near]
    heights = np.arange(-0.015, -0.1, -0.00005)
    columns = np.arange(-half, half + 1e-12, step)
    out = np.full(len(columns), np.nan)
    for c, x in enumerate(columns):
        vs, zs = [], []
        for i, j in ((0, 1), (1, 2), (2, 0)):
            a, b = u_[:, i], u_[:, j]
            with np.errstate(divide="ignore", invalid="ignore"):
                t = (x - a[:, 0]) / (b[:, 0] - a[:, 0])
            hit = (t >= 0) & (t <= 1)
            vs.append(np.where(hit, a[:, 1] + t * (b[:, 1] - a[:, 1]), np.nan))
            zs.append(np.where(hit, d_[:, i] + t * (d_[:, j] - d_[:, i]), np.nan))
        v, z = np.stack(vs, 1), np.stack(zs, 1)
        crossed = np.isfinite(v).sum(1) >= 2
        v, z = v[crossed], z[crossed]
        two = np.argsort(np.isnan(v), 1, kind="stable")[:, :2]
        v, z = np.take_along_axis(v, two, 1), np.take_along_axis(z, two, 1)
        lo = np.argmin(v, 1)
        rows = np.arange(len(v))
        v0, v1, z0, z1 = v[rows, lo], v[rows, 1 - lo], z[rows, lo], z[rows, 1 - lo]
        t = (heights[None] - v0[:, None]) / np.maximum(v1 - v0, 1e-12)[:, None]
        zz = np.where((t >= 0) & (t <= 1), z0[:, None] + t * (z1 - z0)[:, None], np.inf)
        who = np.argmin(zz, 0)
        with np.errstate(invalid="ignore"):     # (no surface on either side: inf less inf, not a step)
            steps = np.flatnonzero(np.diff(zz[who, np.arange(len(heights))]) > jump)
        if len(steps):
            out[c] = v0[who[steps[0]]]
    return columns, out


def jaw_bend(m, chord: float = 0.001, gap: float = 0.0006) -> float:
    """The outline's sharpest bend (degrees): the turn between chords ``chord`` long one chord apart, within each
    stretch that runs on without a step of ``gap`` between columns."""
    x, y = jaw_outline(m)
    ok = np.isfinite(y)
    cuts = np.flatnonzero(~ok[1:] | ~ok[:-1] | (np.abs(np.diff(np.where(ok, y, 0.0))) > gap)) + 1
    best = 0.0
    for run in np.split(np.arange(len(x)), cuts):
        run = run[ok[run]]
        if len(run) < 4:
            continue
        pts = np.stack([x[run], y[run]], 1)
        s = np.concatenate([[0.0], np.cumsum(np.linalg.norm(np.diff(pts, axis=0), axis=1))])
        t = np.arange(0.0, s[-1], chord)
        if len(t) < 4:
            continue
        d = np.diff(np.stack([np.interp(t, s, pts[:, 0]), np.interp(t, s, pts[:, 1])], 1), axis=0)
        a = np.unwrap(np.arctan2(d[:, 1], d[:, 0]))
        best = max(best, float(np.degrees(np.abs(a[2:] - a[:-2])).max()))
    return best


@cache
def build_bend(gender: str, body_shape: str, height: float) -> float:
    return jaw_bend(body_of((gender, body_shape, height, ())))


def more_bend(s: dict) -> float:
    """How much more a face bends its jaw's outline than its build's own face does (degrees)."""
    return jaw_bend(body_mesh(s)) - build_bend(s["gender"], s["bodyShape"], s["height"])


@pytest.mark.parametrize("k", [3, 9, 11, 6, 7])
def test_review_k_jaws_bend_as_their_builds(k):
    """Review K's #4, #10 and #12 (and #7, #8) bend their jaw's outline in the close-up at most :data:`MORE_BEND`
    degrees more than their builds do (on main 41a5e56: #10 10.1 more, #7 10.1, #8 8.9, #4 5.3; now 0.5 at most)."""
    assert more_bend(REVIEW_K[k]) <= MORE_BEND, round(more_bend(REVIEW_K[k]), 1)


@pytest.mark.slow
@pytest.mark.parametrize("k", range(24))
def test_random_jaws_bend_as_their_builds(k):
    """Every face of review K's draw and the next (seeds 4621 and 4622) likewise (on main, 10 of the 24 more than 5, up
    to 14.0; now 4.4 at most)."""
    s = (REVIEW_K + NEXT)[k]
    assert more_bend(s) <= MORE_BEND, round(more_bend(s), 1)

