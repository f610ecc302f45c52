"""The face square to the previews' camera (issue 46, blind review L #3: seed 4622's #5, masculine slim, jawWidth -0.9,
noseWidth -1.0, noseLength 0.4, hands clasped: "nose and mouth skewed to the viewer's right, a concave facet from
nose to jaw on that cheek", in every renderer).

The mesh was not the cause: mirrored on MakeHuman's symmetric base (each head vertex's partner at -x), #5's shaped
head is symmetric within 0.78 mm (a build's own face 0.12 mm; each face slider alone at either end 0.24 mm or less;
:func:`workbench.body.jaw.evened` changes none of it). The stance was: ``hand_on_hip`` and ``hands_clasped`` kept the
idle clip's first frame's head, turned 4.2 degrees on the hips' 1.7, so the posed face looked 5.9 degrees to the
body's left. The portrait's frontal camera then drew the nose tip 5.4 mm right of the eyes' middle, and on a narrow
face with a long thin nose the far cheek's hollow foreshortened into a facet. (``relaxed``, the idle's own first frame,
keeps that turn: the default avatar's look; ``hands_on_hips`` had none.)
"""

from __future__ import annotations

from functools import cache

import numpy as np
import pytest
from helpers import random_settings
from scipy.spatial import cKDTree

from workbench.body import compile as cc
from workbench.body.shape import face_weights, shaped
from workbench.options import normalize_avatar_settings

REVIEW_L_5 = normalize_avatar_settings(random_settings(12, 4622)[4])
SLIDERS = ("jawWidth", "cheekbones", "noseWidth", "eyeSize", "lipFullness", "noseLength", "chinLength", "browRidge")
# The head turned no more than this (degrees) in a stance's held frame: 5.9 on main.
TURN = 1.0
# Largest mirror asymmetry over the head (millimetres): a build's own face 0.12, #5 0.78, a slider alone at an end
# 0.24 or less (main and this branch alike: a guard that a face target or the jaw's smoothing stays symmetric).
ASYMMETRY = 1.0


def test_review_l_5_is_the_reviewed_avatar():
    """The settings drawn here are review L's #5 (its key's settings)."""
    face = REVIEW_L_5["face"]
    assert (REVIEW_L_5["gender"], REVIEW_L_5["bodyShape"], REVIEW_L_5["pose"]) == ("masculine", "slim", "hands_clasped")
    assert (face["jawWidth"], face["noseWidth"], face["noseLength"]) == (-0.9, -1.0, 0.4)


def _posed_face(settings: dict) -> tuple[float, float]:
    """(degrees the eyes' line turns about the vertical, mm the nose's tip lies right of the eyes' middle, +x the
    body's left: the viewer's right) in the model's first frame, as every preview and viewer stands it."""
    from built import built as build_avatar  # one build per run (tests/built.py)

    from workbench.options import ModelOptions
    from workbench.render.scene import Model, load_clip

    glb = build_avatar(settings, ModelOptions(lod=0, animations=("idle",)))
    posed = Model(glb, max_texture=1).posed(load_clip(glb), 0.0)
    eyes = np.concatenate([d.positions for d in posed.draws if d.mesh_name == "Eyes"])
    side = eyes[:, 0] > np.median(eyes[:, 0])
    left, right = ((e.min(0) + e.max(0)) / 2 for e in (eyes[side], eyes[~side]))   # each eyeball's middle
    across = left - right
    body = np.concatenate([d.positions for d in posed.draws if d.mesh_name == "Body"])
    mid = (left + right) / 2
    near = body[(body[:, 1] < mid[1]) & (body[:, 1] > mid[1] - 0.06) & (np.abs(body[:, 0] - mid[0]) < 0.03)]
    tip = near[np.argmax(near[:, 2])]
    return float(np.degrees(np.arctan2(-across[2], across[0]))), float((tip[0] - mid[0]) * 1000)


@pytest.mark.parametrize("pose", ["hands_clasped", "hand_on_hip"])
def test_stance_faces_the_camera(pose):
    """#5 in its own stance and in the other stance that kept the idle's head: the face square to the body's front."""
    turn, nose = _posed_face({**REVIEW_L_5, "pose": pose})
    assert abs(turn) < TURN, f"{pose}: the head turned {turn:.2f} degrees, the nose tip {nose:.1f} mm off the middle"
    assert abs(nose) < 1.5, f"{pose}: the nose tip {nose:.1f} mm right of the eyes' middle"


@cache
def _partners() -> tuple[np.ndarray, np.ndarray]:
    """The head's skin vertices (the top 26 cm of the base mesh) and each base vertex's mirror partner (x negated)."""
    data = cc.compiled()
    base = data["base"].astype(np.float64)
    mirrored = base * [-1.0, 1.0, 1.0]
    gap, partner = cKDTree(base).query(mirrored)
    skin = cc.group(data, "body")
    head = skin[base[skin, 1] > base[skin, 1].max() - 2.6]
    assert gap[head].max() < 1e-6          # MakeHuman's base is symmetric: every head vertex has its mirror
    return head, partner


def _asymmetry(settings: dict) -> float:
    """The largest distance (mm) between a shaped head vertex and its partner's mirror image."""
    head, partner = _partners()
    v, _ = shaped(settings["gender"], settings["bodyShape"], float(settings["height"]), face_weights(settings))
    mirror = v[partner] * [-1.0, 1.0, 1.0]
    return float(np.linalg.norm(v - mirror, axis=1)[head].max() * 100.0)


@pytest.mark.parametrize("slider", [None, *SLIDERS])
def test_shaped_head_is_symmetric(slider):
    """#5's face, and #5's build with one slider at either end (the others at rest), stays mirror-symmetric."""
    cases = [REVIEW_L_5] if slider is None else \
        [{**REVIEW_L_5, "face": {**{k: 0.0 for k in SLIDERS}, slider: end}} for end in (-1.0, 1.0)]
    for s in cases:
        worst = _asymmetry(s)
        assert worst < ASYMMETRY, f"{slider}: {worst:.2f} mm between the head's sides"

