"""A heavy face's jaw stands off its neck (issue 46, blind review AB's defect 2: "Heavy faces (#1 S1 r1, #3 S1 r3, #5
S2 r1, all in the portrait column) go straight from cheek to neck. There is no jaw angle or chin, and the neck is as
wide as the face"; its #8, "a defined masculine jaw", the one face it would ship).

Measured as the front portrait sees the lower face: the body's skin drawn orthographically from the front into a depth
buffer (0.5 mm a pixel), and down six vertical lines through the jaw (at 0.45, 0.6 and 0.75 of the way from the chin's
midline out to the jaw's angle, both sides) the largest fall of the visible skin's depth over 3 mm of height, between
the mouth's corners' level and 45 mm under the chin: the jaw's lower border standing in front of the neck, the line a
portrait's light draws as the shadow under the jaw. Where the neck's skin runs on from the jaw's with no step, the jaw
melts into the neck. On main review AB's heavy men #1 and #5 measured 17.0 and 14.7 mm, #8 30.4 and the average
builds' faces 30 to 38 (AB's #2 and #3): MakeHuman's double chin (``neck/neck-double-incr``, 0.3 on heavy bodies) filled
the step. A heavy man now takes its opposite, a firm line under the chin (``details.FIRM_JAW``), and keeps his fuller
neck, cheeks and head."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import numpy as np
import pytest
from helpers import random_settings

from workbench.body import compile as cc
from workbench.body.mesh import body_mesh, cut
from workbench.options import normalize_avatar_settings

REVIEW_AB = random_settings(12, seed=4638, with_added=True, heads=True, features=True, palettes=True, spread=True)
HEAVY_AB = [normalize_avatar_settings(REVIEW_AB[i - 1]) for i in (1, 5)]
# Random faces (their own seed) made heavy, each as a man and as a woman.
HEAVY = [normalize_avatar_settings({**s, "gender": g, "bodyShape": "heavy"})
         for s in random_settings(4, seed=5480) for g in ("masculine", "feminine")]
MM = 0.5


@cache
def _marks() -> tuple[np.ndarray, int, int, int]:
    """The body's triangles, the left jaw angle's vertex (the one MakeHuman's narrower jaw moves furthest), the left
    mouth corner's (the one the corners' lift moves furthest up) and the chin's lowest front point on the midline."""
    d = cc.compiled()
    base = d["base"]
    q = d["quads"][d["quad_group"] == list(d["face_group_names"]).index("body")]
    tris = np.concatenate([q[:, [0, 1, 2]], q[:, [0, 2, 3]]])
    idx, delta = cc.target(d, "chin/chin-bones-decr")
    go = int(idx[np.argmax(np.where(base[idx, 0] > 0, np.linalg.norm(delta, axis=1), -1))])
    idx, delta = cc.target(d, "mouth/mouth-angles-up")
    ch = int(idx[np.argmax(np.where(base[idx, 0] > 0, delta[:, 1], -np.inf))])
    body = cc.group(d, "body")
    x, y, z = base[body].T
    under = (np.abs(x) < 1e-3) & (z > 1.0) & (y > 6.0) & (y < 6.6)
    return tris, go, ch, int(body[under][np.argmin(y[under])])


def depth_buffer(p: np.ndarray, tris: np.ndarray, x0: float, x1: float, y0: float, y1: float) -> np.ndarray:
    """The nearest skin's depth (z, mm) seen from the front in each MM pixel of the window (rows from ``y0`` up)."""
    w, h = int((x1 - x0) / MM) + 1, int((y1 - y0) / MM) + 1
    out = np.full((h, w), -np.inf)
    t = tris[((p[tris, 0] > x0) & (p[tris, 0] < x1) & (p[tris, 1] > y0) & (p[tris, 1] < y1)).any(1)]
    for a, b, c in p[t]:
        det = (b[1] - c[1]) * (a[0] - c[0]) + (c[0] - b[0]) * (a[1] - c[1])
        if abs(det) < 1e-9:     # edge-on to the viewer: its neighbours cover it
            continue
        lo = np.maximum(np.floor((np.minimum(np.minimum(a, b), c)[:2] - (x0, y0)) / MM).astype(int), 0)
        hi = np.minimum(np.ceil((np.maximum(np.maximum(a, b), c)[:2] - (x0, y0)) / MM).astype(int), (w - 1, h - 1))
        if (hi < lo).any():
            continue
        gx, gy = np.meshgrid(x0 + MM * np.arange(lo[0], hi[0] + 1), y0 + MM * np.arange(lo[1], hi[1] + 1))
        l1 = ((b[1] - c[1]) * (gx - c[0]) + (c[0] - b[0]) * (gy - c[1])) / det
        l2 = ((c[1] - a[1]) * (gx - c[0]) + (a[0] - c[0]) * (gy - c[1])) / det
        l3 = 1.0 - l1 - l2
        z = np.where((l1 >= 0) & (l2 >= 0) & (l3 >= 0), l1 * a[2] + l2 * b[2] + l3 * c[2], -np.inf)
        view = out[lo[1]:hi[1] + 1, lo[0]:hi[0] + 1]
        np.maximum(view, z, out=view)
    return out


def jaw_step(settings: dict) -> float:
    """The mean over the six lines through the jaw of the skin's largest fall in depth over 3 mm of height (mm)."""
    tris, go, ch, gn = _marks()
    p = body_mesh(settings).positions.astype(np.float64) * 1000
    reach = p[go, 0] - p[gn, 0]
    x0 = p[gn, 0] - 1.2 * reach
    z = depth_buffer(p, tris, x0, p[gn, 0] + 1.2 * reach, p[gn, 1] - 45, p[ch, 1])
    k = int(3.0 / MM)
    falls = []
    for share in (0.45, 0.6, 0.75):
        for side in (1, -1):
            line = z[:, int((p[gn, 0] + side * share * reach - x0) / MM)]
            line = np.where(np.isfinite(line), line, np.nan)
            falls.append(np.nanmax(line[k:] - line[:-k]))
    return float(np.mean(falls))


def neck_girth(settings: dict) -> float:
    """The neck's circumference (mm) a third of the way up from its joint to the head's (under the jaw)."""
    m = body_mesh(settings)
    neck, head = m.skeleton.pos("Neck"), m.skeleton.pos("Head")
    q = cut(m.positions.astype(np.float64), m.triangles[m.face_groups["body"]], 1, neck[1] + (head[1] - neck[1]) / 3)
    q = q[np.hypot(q[:, 0] - neck[0], q[:, 2] - neck[2]) < 0.1][:, [0, 2]]
    c = q.mean(0)
    ring = q[np.argsort(np.arctan2(*(q - c).T[::-1]))]
    return 1000 * float(np.linalg.norm(np.diff(np.vstack([ring, ring[:1]]), axis=0), axis=1).sum())


def test_the_draw_is_review_abs():
    """The settings are review AB's (its key: /work/wt/keyAB/key.json when it is there): #1 and #5 heavy men."""
    key = Path("/work/wt/keyAB/key.json")
    if key.exists():
        assert [a["settings"] for a in json.loads(key.read_text())["avatars"]] == REVIEW_AB
    assert [(s["gender"], s["bodyShape"]) for s in HEAVY_AB] == [("masculine", "heavy")] * 2


def test_review_ab_heavy_jaws_stand_off_the_neck():
    """Review AB's heavy men #1 and #5: the jaw's lower border 22 mm or more in front of the neck's skin under it (main
    17.0 and 14.7; now 28.3 and 24.4; #8's athletic jaw 30.4)."""
    steps = [jaw_step(s) for s in HEAVY_AB]
    assert min(steps) >= 22.0, np.round(steps, 1)


@pytest.mark.parametrize("i", range(0, len(HEAVY), 2))
def test_heavy_mens_jaws_stand_off_the_neck(i):
    """Random faces made heavy men: the jaw's step 22 mm or more (main 13.3 to 19.3; now 23.4 to 33.1). (The same faces
    as heavy women measure 17.0 to 27.9, as on main: not changed, see workbench.body.details.FIRM_JAW.)"""
    assert jaw_step(HEAVY[i]) >= 22.0, HEAVY[i]["face"]


def test_heavy_necks_stay_fuller():
    """A heavy body keeps its fuller neck (the weight's read is not traded for the jaw): under the jaw its girth 20 mm
    or more over the same face's at an average build (the men's main 34 to 46, the double chin filling the neck's top
    too, now 24 to 29; the women's 36 to 39 as on main)."""
    for s in HEAVY_AB + HEAVY:
        heavy, average = neck_girth(s), neck_girth({**s, "bodyShape": "average"})
        assert heavy - average >= 20.0, (s["gender"], round(heavy, 1), round(average, 1))
