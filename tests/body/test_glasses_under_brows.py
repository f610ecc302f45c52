"""Glasses under the brows (issue 46, blind review F 9b: "the eyebrows sit right on the top rim of the glasses, and
the eyes look tiny behind the frame").

Random settings (tests/helpers.py, their own seed: every face control drawn) on every build in turn, and the face
controls' ends that move the eyes and brows most, seen from the front: the brows as drawn (their shell's triangles
sampled, kept where the brow texture's cover shows, at least 0.3) against the glasses' frame. The frame's geometry
is the same for the clear and sunglasses styles (they differ only in their look), so one piece per body is measured
(the round and aviator frames: tests/body/test_glasses_styles_review_o.py)."""

from __future__ import annotations

import numpy as np
import pytest
from helpers import random_settings

from workbench.body.brows import BROW_SIZE, _hairs, brow_piece
from workbench.body.glasses import FRAME_UV, LENS_UV, glasses_piece
from workbench.body.mesh import body_mesh
from workbench.options import normalize_avatar_settings

BUILDS = [(g, b) for g in ("feminine", "masculine") for b in ("slim", "average", "athletic", "heavy")]
DRAWN = [{**s, "gender": BUILDS[k % 8][0], "bodyShape": BUILDS[k % 8][1]} for k, s in enumerate(random_settings(16, 4671))]
ENDS = [{"gender": g, "bodyShape": b, "height": h, "face": {"eyeSize": e, "browRidge": r}}
        for g, b, h in (("masculine", "heavy", 150), ("masculine", "slim", 205), ("feminine", "athletic", 150))
        for e, r in ((1.0, -1.0), (-1.0, 1.0))]
# The least gap seen between a brow's lowest hairs and the rim's top, in every 1 mm column over a lens (metres): 2.6 to
# 4.4 mm on the drawn settings, 1.6 mm at the ends (the largest eyes under the lowest brows: the lens keeps their
# opening inside it).
GAP = 0.0014


def brows_seen(mesh, gender: str) -> np.ndarray:
    """Points of the brows where they show: their shell's triangles sampled on a grid (9 steps a side), kept where
    the texture's cover at their UV is at least 0.3."""
    piece = brow_piece(mesh, gender)
    cover, _ = _hairs(gender)
    steps = np.linspace(0.0, 1.0, 9)
    b1, b2 = np.meshgrid(steps, steps)
    inside = b1 + b2 <= 1
    bary = np.column_stack([1 - b1[inside] - b2[inside], b1[inside], b2[inside]])
    pos = np.einsum("kj,tjc->tkc", bary, piece.positions[piece.indices].astype(float)).reshape(-1, 3)
    uv = np.einsum("kj,tjc->tkc", bary, piece.uv[piece.indices].astype(float)).reshape(-1, 2)
    h, w = BROW_SIZE
    alpha = cover[np.clip((uv[:, 1] * h).astype(int), 0, h - 1), np.clip((uv[:, 0] * w).astype(int), 0, w - 1)]
    return pos[alpha >= 0.3]


@pytest.mark.parametrize("settings", DRAWN + ENDS, ids=lambda s: f"{s['gender'][:4]}-{s['bodyShape']}")
def test_the_rims_sit_under_the_brows_and_frame_the_eyes(settings):
    """Over each lens, in every 1 mm column, the brow's lowest hairs stand at least 1.4 mm over the rim's top (before,
    the rims crossed the brows: 0.7 to 5.8 mm over their lowest hairs); and the lens frames the eye: the lids' margins
    well inside it, the lashes' corners inside its sides."""
    s = normalize_avatar_settings(settings)
    mesh = body_mesh(s)
    glasses = glasses_piece(mesh, s["gender"])
    p = glasses.positions.astype(float)
    frame = p[np.all(np.isclose(glasses.uv, FRAME_UV), axis=1)]
    lens = p[np.all(np.isclose(glasses.uv, LENS_UV), axis=1)]
    brows = brows_seen(mesh, s["gender"])
    eyes = {k: mesh.positions[mesh.groups[f"helper-{k}-eye"]].astype(float).mean(0) for k in "lr"}
    mid = (eyes["l"] + eyes["r"]) / 2
    for k, eye in eyes.items():
        side = np.sign(eye[0] - mid[0])
        mine = lens[np.sign(lens[:, 0] - mid[0]) == side]
        lo, hi = mine[:, 0].min(), mine[:, 0].max()
        rim = frame[(frame[:, 0] > lo - 0.004) & (frame[:, 0] < hi + 0.004) & (frame[:, 2] > mid[2] - 0.01)]
        brow = brows[np.sign(brows[:, 0] - mid[0]) == side]
        gaps = []
        for x in np.arange(lo - 0.003, hi + 0.003, 0.001):
            over, under = brow[np.abs(brow[:, 0] - x) < 0.0007], rim[np.abs(rim[:, 0] - x) < 0.0015]
            if len(over) and len(under):
                gaps.append(over[:, 1].min() - under[:, 1].max())
        assert len(gaps) > 30 and min(gaps) >= GAP, (k, round(min(gaps) * 1000, 1))
        # The eye's opening inside the lens: the lids' margins over the pupil (the lashes' roots within 3 mm of the
        # eye's middle, across) 1.5 mm inside its top and bottom, both corners inside its sides.
        lashes = {n: mesh.positions[mesh.groups[f"helper-{k}-eyelashes-{n}"]].astype(float) for n in (1, 2)}
        over = {n: v[np.abs(v[:, 0] - eye[0]) < 0.003] for n, v in lashes.items()}
        assert mine[:, 1].max() - over[2][:, 1].min() > 0.0015, k
        assert over[1][:, 1].max() - mine[:, 1].min() > 0.0015, k
        both = np.vstack(list(lashes.values()))
        assert lo < both[:, 0].min() and both[:, 0].max() < hi, k
