"""A feminine face of its own (issue 46, blind review U's defect 1: "the same square jaw, broad flat nose ... on almost
everyone"; "add a real feminine base ... so femme avatars don't read as middle-aged men").

Each build's neutral face (no face controls, no variety: its gender's base), measured on the shaped body
(:func:`workbench.body.shape.shaped`) at fixed landmarks of the mesh (tests/body/test_face_proportions.py): the nose's
width at its wings over the eyes' distance (centre to centre), and the jaw's width at its angles over the cheekbones'.
Main's feminine base took a little of MakeHuman's nose width off (0.3), its nose as wide for its eyes as the
masculine one's (0.651 and 0.647), and its jaw 0.078 of the cheekbones' width narrower than the masculine one's.
"""

from __future__ import annotations

import numpy as np
from test_face_proportions import landmarks, target_landmark

from workbench.body import compile as cc
from workbench.body.shape import face_weights, shaped
from workbench.options import normalize_avatar_settings


def neutral(gender: str) -> np.ndarray:
    """Per build (slim, average, athletic, heavy) of ``gender``: (nose's width over the eyes' distance, jaw's width
    at its angles over the cheekbones')."""
    data = cc.compiled()
    q = landmarks()
    jaw = [target_landmark("chin/chin-bones-incr", 0, s, s) for s in (1.0, -1.0)]
    eyes = [cc.group(data, "helper-l-eye"), cc.group(data, "helper-r-eye")]
    rows = []
    for build in ("slim", "average", "athletic", "heavy"):
        s = normalize_avatar_settings({"gender": gender, "bodyShape": build})
        p = shaped(gender, build, s["height"], face_weights(s))[0]
        between = p[eyes[0]].mean(0)[0] - p[eyes[1]].mean(0)[0]
        zygia = p[q["zyL"]][0] - p[q["zyR"]][0]
        rows.append([(p[q["noseL"]][0] - p[q["noseR"]][0]) / between, (p[jaw[0]][0] - p[jaw[1]][0]) / zygia])
    return np.array(rows)


def test_feminine_faces_have_a_smaller_nose_and_keep_a_narrower_jaw():
    """The feminine nose at most 0.64 of the eyes' distance on every build (main: 0.651 on each; face31's 0.624 at
    half MakeHuman's nose width off, 0.637 to 0.638 at 0.4 since review Q's #10, a narrow nose under silver aviators,
    broke its wire frame at 3/4 with the half: tests/render/test_wire_frames_review_q.py; the masculine 0.647 as
    before). The jaw is main's, not changed here: the second check passes on main too and only
    guards main's gap, the masculine faces keeping their jaws (0.728 of the cheekbones' width) and staying wider in
    the jaw than the feminine (0.650)."""
    her, his = neutral("feminine"), neutral("masculine")
    assert her[:, 0].max() <= 0.64, np.round(her[:, 0], 3)
    assert his[:, 1].mean() - her[:, 1].mean() >= 0.07 and his[:, 1].mean() >= 0.72, (
        np.round(her[:, 1], 3), np.round(his[:, 1], 3))
