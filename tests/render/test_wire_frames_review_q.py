"""Blind review Q, last defect: "s3 #10, s2 #5: thin glasses frames break into dotted, aliased lines in the portraits
(ours and the others). Should be: thicken thin wire frames slightly, or add line anti-aliasing."

Both wear silver aviators. In our sheet-size portraits (288 px, front and three quarters) the wire's coverage was
whole along its path (the frame drawn flat white: every pixel on the rim's centreline at least half covered), but
the 1.3 mm wire was one pixel wide and its round section mirrors the whole studio across that pixel, so each pixel
caught the ceiling or the floor by where its samples fell: bright and dark beads, the dark ones lost on the skin.

Measured along each rim's (and the bridge's) centreline, projected through the camera and sampled every half pixel:
a sample shows the frame where the portrait differs from the same portrait without the frame (its lenses kept) by
at least half of what the frame's typical colour (its median over well-covered pixels) differs from that background;
the gaps are runs of samples that do not. On main, the path in gaps longer than 2 px 0.147, 0.188 (#10 front, three
quarters), 0.121, 0.134 (#5), the frame shown at 0.735, 0.666, 0.787, 0.781 of it. Now (the wire 1.8 mm across, was 1.3,
and its rims' normals eased towards the lens's front: ``glasses_frames.eased``): gapped 0.047, 0.027, 0.012, 0.044,
shown 0.802, 0.848, 0.926, 0.874.
"""

from __future__ import annotations

import json
from dataclasses import replace
from functools import cache

import numpy as np
import pytest
from built import built_rest as build_avatar  # one build per run, no face shapes (tests/built.py)
from helpers import UNLIT, random_settings

from workbench.body.glasses import SEGMENTS
from workbench.body.glasses_frames import frame_of
from workbench.options import ModelOptions, normalize_avatar_settings
from workbench.render.framing import frame
from workbench.render.pictures import SUPERSAMPLE, _pivot, _posed, _turned
from workbench.render.raster import draw
from workbench.render.scene import Material, Model, Texture

# The portrait as it was framed when these measures were tuned (conftest.py's tuned_framing).
pytestmark = pytest.mark.usefixtures("tuned_framing")

SIZE = 288   # (data/make_review_sheets.py's cell: the portraits the reviewer saw)
BACKGROUND = (236, 238, 242)
# Review Q's #5 and #10 (/work/wt/briefs/key4627.json), silver aviators both.
AVATARS = {k: random_settings(12, 4627, with_added=True)[k - 1] for k in (5, 10)}


def centrelines(points: np.ndarray, kind: str) -> list[np.ndarray]:
    """The rims' (closed) and the bridge's centrelines from the Glasses mesh's points in
    :func:`workbench.body.glasses.glasses_piece`'s order: per lens its fan (SEGMENTS + 1), its rim's rings (one per
    point of the frame's section, SEGMENTS each), its end piece (8); then the bridge (a bar of 7 points, 4 rings)."""
    n, rings = SEGMENTS, len(frame_of(kind).bevel)
    per = n + 1 + rings * n + 8
    out = []
    for j in range(2):
        rim = points[j * per + n + 1: j * per + n + 1 + rings * n].reshape(rings, n, 3).mean(0)
        out.append(np.vstack([rim, rim[:1]]))
    out.append(points[2 * per: 2 * per + 28].reshape(4, 7, 3).mean(0))
    return out


def _flat(posed, keep_frame: bool):
    """``posed`` with the glasses' frame white and the rest black (``keep_frame``), or without the frame."""
    draws = []
    for d in posed.draws:
        if d.mesh_name != "Glasses":
            draws.append(d if not keep_frame else replace(d, uv=None, material=Material(
                color=np.array([0, 0, 0, 1], np.float32), double_sided=d.material.double_sided)))
        elif keep_frame:
            tex = d.material.texture
            texels = np.zeros((tex.height, tex.width, 4), np.uint8)
            texels[..., 3] = 255
            texels[:, : tex.width // 2, :3] = 255
            draws.append(replace(d, material=Material(color=np.ones(4, np.float32), double_sided=True, texture=Texture(
                texels.reshape(-1, 4).view(np.uint32).reshape(-1), tex.width, tex.height, False, tex.wrap_s,
                tex.wrap_t))))
        else:   # (the lenses only: the triangles on the texture's lens half)
            lens = (d.uv[d.tris][..., 0] > 0.5).all(1)
            draws.append(replace(d, tris=d.tris[lens]))
    return replace(posed, draws=draws)


@cache
def continuity(index: int, yaw: float, size: int = SIZE) -> dict:
    """Avatar #``index``'s portrait at ``yaw`` degrees and ``size`` px (as the review sheets draw it): along its
    glasses' centrelines, the share of samples showing the frame (``shown``), the share of the path in gaps
    longer than 2 px (``gapped``), the longest gap (px) and the share of samples at least half covered
    (``covered``, the frame's geometry alone)."""
    settings = normalize_avatar_settings(AVATARS[index])
    glb = build_avatar(settings, ModelOptions(animations=("idle",)))   # (the sheets' build: posed by the library's clip)
    model = Model(glb, max_texture=max(64, size * SUPERSAMPLE))
    posed = _posed(model, "preview")
    posed = _turned(posed, yaw, _pivot(posed))
    cam = frame(posed, "portrait")
    lit = draw(posed, cam, size, ss=SUPERSAMPLE, background=BACKGROUND)[..., :3].astype(float)
    bare = draw(_flat(posed, False), cam, size, ss=SUPERSAMPLE, background=BACKGROUND)[..., :3].astype(float)
    mask = draw(_flat(posed, True), cam, size, ss=SUPERSAMPLE, lights=UNLIT)[..., 0].astype(float)
    mask /= mask.max()
    typical = np.median(lit[mask > 0.9], axis=0)
    view = cam.view
    f = 1 / np.tan(np.radians(cam.fov_deg) / 2)
    shown, covered, gaps = [], [], []
    glasses = next(d for d in posed.draws if d.mesh_name == "Glasses")
    for line in centrelines(glasses.positions.astype(float), settings["glasses"]):
        pv = line @ view[:3, :3].T + view[:3, 3]
        xy = np.column_stack([0.5 + 0.5 * f * pv[:, 0] / -pv[:, 2], 0.5 - 0.5 * f * pv[:, 1] / -pv[:, 2]]) * size
        at = np.concatenate([[0.0], np.cumsum(np.linalg.norm(np.diff(xy, axis=0), axis=1))])
        t = np.arange(0.0, at[-1], 0.5)
        px = np.clip(np.column_stack([np.interp(t, at, xy[:, 0]), np.interp(t, at, xy[:, 1])]).astype(int), 0, size - 1)
        under = bare[px[:, 1], px[:, 0]]
        seen = (np.linalg.norm(lit[px[:, 1], px[:, 0]] - under, axis=1)
                >= 0.5 * np.linalg.norm(typical - under, axis=1))
        shown.append(seen)
        covered.append(mask[px[:, 1], px[:, 0]] >= 0.5)
        # (runs of samples not shown, in px: a closed rim's run may wrap round its start)
        edges = np.flatnonzero(np.diff(np.concatenate([[0], (~seen).astype(int), [0]])))
        gaps += list((edges[1::2] - edges[::2]) * 0.5)
    seen_all = np.concatenate(shown)
    long = sum(g for g in gaps if g > 2.0)
    return {"shown": float(seen_all.mean()), "gapped": long / (0.5 * len(seen_all)),
            "longest": max(gaps, default=0.0), "covered": float(np.concatenate(covered).mean())}


@pytest.mark.parametrize("yaw", [0.0, 35.0])
@pytest.mark.parametrize("index", [10, 5])
def test_a_wire_frame_is_an_unbroken_line_in_the_portrait(index, yaw):
    """At most 0.085 of the path in gaps over 2 px (main 0.121 to 0.188, then 0.012 to 0.047; 0.082 on #5 at three
    quarters since our renderer takes a lens's reflection down to its file's strength, pass 50: the aviator's brown
    lens behind the far rim no longer greyed, the wire's dark beads match it there, the wire as whole to the eye as
    before) and the frame shown on 0.78 of it or more (main 0.666 to 0.787, now 0.802 to 0.926), its coverage whole
    (0.974 to 1.0 on both)."""
    c = continuity(index, yaw)
    assert c["covered"] >= 0.95, c
    assert c["gapped"] <= 0.085 and c["shown"] >= 0.78, c


if __name__ == "__main__":   # (the figures for the report)
    import sys

    for size in (int(s) for s in (sys.argv[1:] or ["288"])):
        for index in (10, 5):
            for yaw in (0.0, 35.0):
                print(size, index, yaw, json.dumps({k: round(v, 3) for k, v in continuity(index, yaw, size).items()}))
