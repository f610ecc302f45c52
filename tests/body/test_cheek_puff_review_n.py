"""A heavy face's cheeks beside the mouth (issue 46, blind review N's fourth defect: s2 #6, a heavy feminine face, "lumpy
and swollen: puffy cheeks, pursed protruding lips and a blobby jaw"; #9, heavy too, among the fifth's resting pouts).
MakeHuman's cheek volume target puffs the lower cheek out beside the mouth's corners; a heavy build took 0.5 of it
and the face's own variety up to 0.45 more (0.74 on #6), so the cheeks stood level with the corners, which sat in a pit
between them: the mouth read as pursed and the face as swollen. In a face the cheek falls back from the corner, a
little on a full face (workbench.body.details.SHAPE_DETAILS, WITH_BUILD_CAP).

Measured on the body mesh (metres, facing +z) on review N's two heavy faces (seed 4624, #6 and #9) and eight random
faces made heavy: on a horizontal section at the mouth's corners' height, how far the cheek 12 mm outside each corner
stands behind it (the two sides' mean); and how bumpy the cheeks and jaw beside the mouth are (the spread of each
vertex's offset along its normal from its neighbours' mean, a discrete mean curvature), against the default face of
the same gender. The default faces keep theirs."""

from __future__ import annotations

import copy

import numpy as np
import pytest
from helpers import random_settings

from workbench.body import lip_heights
from workbench.body.mesh import body_mesh
from workbench.body.skin import lip_corners
from workbench.options import normalize_avatar_settings

REVIEW = [random_settings(12, 4624)[i - 1] for i in (6, 9)]
HEAVY = [{**copy.deepcopy(s), "bodyShape": "heavy"} for s in random_settings(8, 7314)]


def cheek_behind(settings: dict) -> float:
    """mm the cheek 12 mm outside the mouth's corners, at their height, lies behind them (the sides' mean; negative:
    in front, the corners in a pit)."""
    m = body_mesh(normalize_avatar_settings(settings))
    skin = m.triangles[np.asarray(m.face_groups["body"])]
    behind = []
    for corner, out in zip(lip_corners(m), (1, -1), strict=True):
        # the section y = the corner's height: the skin's most forward z at x (lip_heights.front with x and y swapped)
        z = lip_heights.front(m.positions[:, [1, 0, 2]], skin, float(corner[1]), np.array([corner[0] + out * 0.012]))
        behind.append(float(corner[2] - z[0]) * 1000)
    return float(np.mean(behind))


def bumpiness(settings: dict) -> float:
    """mm: the spread (standard deviation) of the skin's vertices' offsets along their normals from their neighbours'
    mean (the umbrella operator), over the cheeks and jaw beside the mouth: 6 to 40 mm outside the corners, 40 mm below
    them to 30 mm above, no more than 50 mm behind them."""
    m = body_mesh(normalize_avatar_settings(settings))
    tri = m.triangles[np.asarray(m.face_groups["body"])]
    p, n = m.positions.astype(np.float64), m.normals.astype(np.float64)
    total, count = np.zeros_like(p), np.zeros(len(p))
    for a, b in ((0, 1), (1, 2), (2, 0), (1, 0), (2, 1), (0, 2)):
        np.add.at(total, tri[:, a], p[tri[:, b]])
        np.add.at(count, tri[:, a], 1)
    offset = ((total / np.maximum(count, 1)[:, None] - p) * n).sum(1)
    left, right = lip_corners(m)
    mid = (left + right) / 2
    out = np.abs(p[:, 0] - mid[0]) - abs(left[0] - mid[0])
    near = (count > 0) & (out > 0.006) & (out < 0.04) & (np.abs(p[:, 1] - mid[1] + 0.005) < 0.035) & (p[:, 2] > mid[2] - 0.05)
    return float(offset[near].std()) * 1000


@pytest.fixture(scope="module")
def heavy_faces() -> np.ndarray:
    """cheek_behind of review N's #6 and #9, then of the eight heavy faces."""
    return np.array([cheek_behind(s) for s in REVIEW + HEAVY])


@pytest.fixture(scope="module")
def bumpy() -> np.ndarray:
    """bumpiness of review N's #6 and #9, then of the eight heavy faces, each over its gender's default face's."""
    default = {g: bumpiness({"gender": g}) for g in ("feminine", "masculine")}
    return np.array([bumpiness(s) / default[s["gender"]] for s in REVIEW + HEAVY])


def test_the_reviews_faces_are_its_heavy_ones():
    """The draw is review N's: #6 and #9 heavy (key4624.json), #6 at cheekbones -0.3 and jawWidth 0.4."""
    assert [(s["bodyShape"], s["gender"]) for s in REVIEW] == [("heavy", "feminine"), ("heavy", "masculine")]
    assert (REVIEW[0]["face"]["cheekbones"], REVIEW[0]["face"]["jawWidth"]) == (-0.3, 0.4)


def test_heavy_cheeks_fall_back_from_the_mouths_corners(heavy_faces):
    """The cheek 12 mm outside the corners 0.5 mm or more behind them on review N's #6 and #9, 1.4 mm on average over
    all ten faces and on none more than 0.5 mm in front (a face at cheekbones 0.7 with its cheeks set low). On main #6
    0.01 mm behind and #9 0.66 mm in front, 0.28 mm behind on average, up to 1.58 in front; now 1.56 and 0.74 behind,
    1.53 on average, up to 0.12 in front."""
    assert heavy_faces[:2].min() >= 0.5, np.round(heavy_faces[:2], 2)
    assert heavy_faces.mean() >= 1.4 and heavy_faces.min() >= -0.5, np.round(heavy_faces, 2)


def test_the_default_faces_keep_their_cheeks():
    """The default feminine and masculine faces (average builds, whose faces' cheeks the cap leaves as they were): the
    cheek 6.22 and 2.85 mm behind the corners, as on main. (4.67 and 2.00 before review O's wider resting mouth,
    tests/body/test_mouth_width_review_o.py: its corners sit farther out, where the cheek stands farther back. The
    masculine 2.85 -> 2.79 since review P's lips drawn back at rest, workbench.body.details.LIP_REST["masculine"]: ARKit's
    pucker at -0.25 takes its corners a little back with the lips.)"""
    got = [cheek_behind({"gender": g}) for g in ("feminine", "masculine")]
    assert np.allclose(got, [6.22, 2.79], atol=0.01), np.round(got, 3)


def test_heavy_faces_are_no_lumpier_than_the_defaults(bumpy):
    """The cheeks and jaw beside the mouth of review N's #6 and #9 no more than 1.08 times as bumpy as the default face
    of their gender (0.78 mm feminine, 0.93 masculine), the ten faces 1.13 times on average. On main #6 1.143 and #9
    1.106, 1.18 on average (up to 1.45); then 1.051 and 0.962, 1.10 on average (up to 1.28). Review O's wider resting
    mouth (tests/body/test_mouth_width_review_o.py) moved the corners, and with them the band measured, out: 1.084 and
    0.956, 1.14 on average (up to 1.39); the bounds 1.08 and 1.13 moved to 1.09 and 1.15 with it, still under main's
    1.143 and 1.18 before review N. Review P's masculine lips drawn back at rest (LIP_REST["masculine"], not on a heavy
    build: no face here changed, #9 0.886 mm as before) made the default masculine face's own spread smaller, 0.927 ->
    0.881 mm, so each masculine face's ratio 1.05 times higher: #6 1.084 and #9 1.005, 1.16 on average; the mean's bound
    1.15 -> 1.17 with it (each face's own spread unchanged)."""
    assert bumpy[:2].max() <= 1.09 and bumpy.mean() <= 1.17, np.round(bumpy, 3)
