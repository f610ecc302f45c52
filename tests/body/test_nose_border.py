"""No hard crease beside the nose (blind reviews I and J: "a hard dark wedge beside the nose", faces that look crooked).

MakeHuman's nose scale and flare targets move the nose's wings while the cheek's vertices a few millimetres away stay,
and some of the nostril's rim moves less than the wing above it: a short narrow nose (a face's controls and its
variety together) bent the skin at the wing's base by 111 degrees more than its build's plain face, a crease our
renderer shaded as a dark wedge (random face 4621 #1), at the sliders' ends up to 158. workbench.body.feather fades
those targets' motion out over a few rings of vertices and raises the rim towards the wing. Measured on the shaped
body (the same vertices on every body): the largest dihedral angle between neighbouring triangles within 25 mm of the
wings' bases, over its build's plain face's at the same edge."""

from __future__ import annotations

from functools import cache

import numpy as np
import pytest
from helpers import random_settings, sweep

from workbench.body import compile as cc
from workbench.body.shape import face_weights, shaped
from workbench.options import normalize_avatar_settings

# The wings' bases (the vertices at the alar crease nose-scale-horiz-decr moves furthest: 4.3 mm in), and the radius
# of skin measured round them (decimetres).
WINGS = (358, 7119)
RADIUS = 0.25
NOSES = ((-1.0, -1.0), (-1.0, 0.0), (0.0, -1.0), (1.0, -1.0), (-1.0, 1.0))
CASES = [(g, b, w, n) for g in ("feminine", "masculine") for b in ("slim", "heavy") for w, n in NOSES]


@cache
def _edges() -> tuple[np.ndarray, np.ndarray]:
    """The body's triangles, and the pairs of triangles sharing an edge within :data:`RADIUS` of the wings."""
    d = cc.compiled()
    q = d["quads"][d["quad_group"] == list(d["face_group_names"]).index("body")]
    tris = np.concatenate([q[:, [0, 1, 2]], q[:, [0, 2, 3]]])
    e = np.sort(np.concatenate([tris[:, [0, 1]], tris[:, [1, 2]], tris[:, [2, 0]]]), axis=1)
    owner = np.tile(np.arange(len(tris)), 3)
    order = np.lexsort((e[:, 1], e[:, 0]))
    e, owner = e[order], owner[order]
    shared = np.nonzero((e[1:] == e[:-1]).all(1))[0]
    pairs, ends = np.stack([owner[shared], owner[shared + 1]], 1), e[shared]
    mid = d["base"][ends].mean(1)
    near = np.linalg.norm(mid[:, None] - d["base"][list(WINGS)][None], axis=2).min(1) < RADIUS
    return tris, pairs[near]


def bends(p: np.ndarray) -> np.ndarray:
    """The dihedral angle (degrees) at each edge beside the nose."""
    tris, pairs = _edges()
    n = np.cross(p[tris[:, 1]] - p[tris[:, 0]], p[tris[:, 2]] - p[tris[:, 0]])
    n /= np.linalg.norm(n, axis=1, keepdims=True) + 1e-30
    return np.degrees(np.arccos(np.clip((n[pairs[:, 0]] * n[pairs[:, 1]]).sum(1), -1.0, 1.0)))


def added_bend(settings: dict) -> float:
    """The largest bend (degrees) ``settings``' face adds beside the nose over its build's plain face."""
    s = normalize_avatar_settings(settings)
    own = shaped(s["gender"], s["bodyShape"], s["height"], face_weights(s))[0]
    plain = shaped(s["gender"], s["bodyShape"], s["height"], ())[0]
    return float((bends(own) - bends(plain)).max())


def test_the_reviewed_face_has_no_crease():
    """Random face 4621 #1 (noseWidth -0.9, noseLength -0.5 with a short narrow nose of its own): at most 70 degrees
    (main 110.6; now 67.2)."""
    assert added_bend(random_settings(8, 4621)[0]) <= 70.0


@pytest.mark.parametrize(("gender", "build", "width", "length"), sweep(CASES))
def test_nose_sliders_add_no_crease(gender, build, width, length):
    """Every build at the nose sliders' ends: no more than 52 degrees over the plain face (now 31 to 48; main 33 to
    158, the most a heavy masculine face at noseWidth 1 and noseLength -1, whose wing's base turned over)."""
    face = {"noseWidth": width, "noseLength": length}
    bend = added_bend({"gender": gender, "bodyShape": build, "face": face})
    assert bend <= 52.0, (gender, build, face, round(bend, 1))
