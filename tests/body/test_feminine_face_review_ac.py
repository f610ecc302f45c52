"""A feminine face reads as a woman's at every setting of the face controls (issue 46, blind review AC's defect 1: "Same
heavy, masculine face on everyone ... a wide jaw, a broad flat nose, a heavy brow, a thick cylindrical neck ... Those
that look meant to be women look like the same man in a wig").

Review AC's own twelve draws (``make_review_sheets.py --seed 4639``: spread face controls, each uniform over -1 to 1;
its key names #1, #3, #6, #9 and #11 feminine), each built once as a woman and once as a man with the same build,
height and controls, measured on the shaped body (:func:`workbench.body.shape.shaped`, before the exact height's scale; ratios only) at
fixed points of the mesh (tests/body/test_face_proportions.py's landmarks): the jaw's width at its angles over the
cheekbones' (bigonial over bizygomatic: a woman's some 0.70 to 0.75, a man's 0.78 to 0.82 by calipers; on these
landmarks the default woman's 0.643, the man's 0.720) and the neck's girth at its narrowest over the head's at its
widest above the brows. On main the cheekbones' -1 end, the faces' own jaw angles and the heavy and athletic builds'
thicker necks were the same on a woman as on a man: as women these faces' jaws reached 0.691 of the
cheekbones (as men 0.667 to 0.770), their necks 0.603 of the head (as men 0.486 to 0.751)."""

from __future__ import annotations

from functools import cache

import numpy as np
from helpers import random_settings
from scipy.spatial import ConvexHull
from test_face_proportions import landmarks, target_landmark

from workbench.body import compile as cc
from workbench.body.shape import face_weights, shaped
from workbench.options import normalize_avatar_settings

# The review's draw: make_review_sheets.review_settings(12, 4639).
REVIEW = random_settings(12, 4639, with_added=True, heads=True, features=True, palettes=True, spread=True)


def _tape(p: np.ndarray, body: np.ndarray, y: float) -> float:
    """The girth (decimetres) round the body's skin within 3 mm of height ``y``: its section's convex hull's
    perimeter, as a tape measures it."""
    ring = p[body[np.abs(p[body, 1] - y) < 0.03]][:, [0, 2]]
    v = ring[ConvexHull(ring).vertices]
    return float(np.linalg.norm(v - np.roll(v, 1, 0), axis=1).sum())


@cache
def face(index: int, gender: str) -> tuple[float, float]:
    """(jaw over cheekbones, neck over head) of review AC's avatar ``index`` (1 to 12) built as
    ``gender``."""
    s = normalize_avatar_settings({**REVIEW[index - 1], "gender": gender})
    p = shaped(gender, s["bodyShape"], s["height"], face_weights(s))[0]
    data = cc.compiled()
    q = {k: p[v] for k, v in landmarks().items()}
    zygia = q["zyL"][0] - q["zyR"][0]
    jaw = [p[target_landmark("chin/chin-bones-incr", 0, side, side), 0] for side in (1.0, -1.0)]
    eyes = p[cc.group(data, "helper-l-eye"), 1].mean()
    length = eyes - q["chin"][1]
    body = cc.group(data, "body")
    # (the neck at its narrowest from under the chin to its root; the head at its widest from the brows up)
    neck = min(_tape(p, body, y) for y in np.linspace(q["chin"][1] - length, q["chin"][1] - 0.1 * length, 19))
    head = max(_tape(p, body, y) for y in np.linspace(eyes + 0.2 * length, eyes + 0.6 * length, 9))
    return float((jaw[0] - jaw[1]) / zygia), neck / head


def measured(gender: str) -> np.ndarray:
    return np.array([face(i, gender) for i in range(1, 13)])


def test_the_draw_is_review_acs():
    """The key of review AC's sheets names #1, #3, #6, #9 and #11 feminine (#1 athletic with jawWidth 1.0, #11 heavy)."""
    assert [i for i, s in enumerate(REVIEW, 1) if s["gender"] == "feminine"] == [1, 3, 6, 9, 11]
    assert (REVIEW[0]["face"]["jawWidth"], REVIEW[0]["bodyShape"], REVIEW[10]["bodyShape"]) == (1.0, "athletic", "heavy")


def test_feminine_jaws_stay_tapered():
    """Every face as a woman's has a jaw at most 0.685 of her cheekbones' width (the same faces as men's 0.667 to 0.770;
    the default woman's 0.643, man's 0.720) and on average 0.07 narrower than as a man's. Main: up to 0.691 (#11,
    heavy, cheekbones -0.3: her cheekbones narrowed as a man's under a heavy build's full jaw) and 0.684 (#2 as a
    woman), 0.064 narrower on average; now 0.681 and 0.677, 0.076 narrower (workbench.body.details.FEMININE_LOWS, her
    cheekbones' -1 end, and FEMININE_CAP, her jaw's angles with the faces' own variety: #9's 0.656 -> 0.650)."""
    her, his = measured("feminine")[:, 0], measured("masculine")[:, 0]
    assert her.max() <= 0.685 and his.mean() - her.mean() >= 0.07, (np.round(her, 3), np.round(his, 3))


def test_feminine_necks_stay_slim():
    """No woman's neck is more than 0.59 of her head's girth (the default woman's 0.485, man's 0.723; by a tape at the
    neck's middle a woman's some 0.58 to 0.6, a man's 0.65 to 0.7). Main: #1 (athletic) 0.586, #6 and #11 (heavy) 0.603
    and 0.600, the same thicker necks the men's builds take; now #6 and #11 0.585 and 0.579 (a heavy woman 0.6 of a heavy
    man's thicker neck, workbench.body.details.FEMININE_BUILD, still 20 mm fuller than her average build's,
    tests/body/test_jaw_heavy_review_ab.py), #1 as on main (an athletic woman's at 0.6 broke review Q's #10's aviators,
    tests/render/test_wire_frames_review_q.py)."""
    her = measured("feminine")[:, 1]
    assert her.max() <= 0.59, np.round(her, 3)
