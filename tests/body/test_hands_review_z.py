"""Blind review Z (``make_review_sheets.py OUT --count 12 --seed 4636``), body and pose 4.5: "mitten hands, fists
jammed into the hips". Wanted (Ready Player Me, MetaHuman): a hand on the hip rests on it open, the fingers apart
and lying along the hip, not a fist pushed into it.

Measured on the GLB as a viewer poses it (its ``pose`` animation at 0 s), per hand a stance puts on a hip, on the
four fingers' last segments: their reach, the median distance of their vertices from the wrist joint over the same
at rest (a straight hand 1; a fist curls them back against its palm), and how far the farthest fingertip lies from
the hip (the least distance of each finger's last segment to the trunk's surface, as ``test_hands_review_p`` reads
it). On main (hands32's fist, 80 degrees a finger joint over the relaxed hand: 280 to 326 degrees a finger, the tips
out through the palm) the reach was 0.606 to 0.614 on all seven (each case fails), the farthest fingertip 24 to 87 mm
off; with the open hand (``stances.HIP_CURL``, its palm side laid on the hip by ``reach.rest_hand``'s ``palmar``)
0.935 to 0.939, the farthest fingertip 40 to 79 mm off: the palm and knuckles rest (``test_hands_review_v``), the
fingers do not yet all lie on the hip (not held here).
"""

from __future__ import annotations

import numpy as np
import pytest
from built import sheet_glb_rest as sheet_glb  # one build per run, no face shapes (tests/built.py)
from helpers import random_settings
from scipy.spatial import cKDTree
from test_hands_review_p import trunk

from workbench.render.scene import Model

# Each avatar is the review sheets' own (built.sheet_glb: LOD 0 with the idle clip, as the sheets drew it), so the
# review's other files that measure it share its build (suite42: these were built without the idle clip, a
# distinct build with the same stance; the stance's clip, ``pose``, is what the measure poses in either).
REVIEW = random_settings(12, 4636, with_added=True, heads=True, features=True, palettes=True, spread=True)
HANDS = {"hand_on_hip": ("Right",), "hands_on_hips": ("Left", "Right")}
CASES = [k + 1 for k, s in enumerate(REVIEW) if s["pose"] in HANDS]
# The fingertips' reach (their distance from the wrist over the same at rest): at least this (an open hand).
REACH = 0.8


def last_segments(rest, rest_body: np.ndarray, side: str) -> np.ndarray:
    """Per vertex of the body at rest (the T-pose), which finger's last segment it is (0 to 3: the index to the
    little finger), -1 elsewhere: the hand's vertices nearest a point of that segment (each finger's and the thumb's
    three segments sampled between their joints)."""
    s = 1.0 if side == "Left" else -1.0
    along, label = [], []
    for n, f in enumerate(("Index", "Middle", "Ring", "Pinky", "Thumb")):
        for k in (1, 2, 3):
            a, b = (np.asarray(rest.joints[f"{side}Hand{f}{q}"], float) for q in (k, k + 1))
            along.append(a + np.linspace(0.0, 1.0, 8)[:, None] * (b - a))
            label += [n if k == 3 and f != "Thumb" else -1] * 8
    near = cKDTree(np.concatenate(along)).query(rest_body)[1]
    out = np.asarray(label)[near]
    out[s * rest_body[:, 0] <= s * float(rest.joints[side + "Hand"][0])] = -1
    return out


def fingertips(m: Model, top: str, bottom: str, sides) -> dict[str, tuple[float, float]]:
    """Per side, the fingertips' reach (the median over the four fingers' last segments' vertices) and the farthest
    of the four fingertips from the trunk's surface (metres: the least distance of a last segment's vertices), in
    the preview pose."""
    rest, posed, r, p, _, tree, _ = trunk(m, top, bottom)
    rest_body = r["Body"].positions.astype(np.float64)
    out = {}
    for side in sides:
        which = last_segments(rest, rest_body, side)
        tip = which >= 0
        at_rest = np.linalg.norm(rest_body[tip] - np.asarray(rest.joints[side + "Hand"], float), axis=1)
        posed_at = p["Body"].positions[tip].astype(np.float64)
        reach = np.linalg.norm(posed_at - np.asarray(posed.joints[side + "Hand"], float), axis=1) / at_rest
        off = tree.query(posed_at)[0]
        out[side] = (round(float(np.median(reach)), 3),
                     round(float(max(off[which[tip] == k].min() for k in range(4))), 4))
    return out


@pytest.mark.parametrize("k", CASES)
def test_a_hand_on_the_hip_is_open(k):
    s = REVIEW[k - 1]
    got = fingertips(Model(sheet_glb(s)), s["outfit"]["topStyle"], s["outfit"]["bottomStyle"],
                     HANDS[s["pose"]])
    assert min(r for r, _ in got.values()) >= REACH, got
