"""Faces of ordinary proportions (issue 46, blind review F: "the faces are too long and narrow, with tall chins and
boxy jaws"; "the noses are pinched, with very dark nostril holes").

Random faces (tests/helpers.py, their own seed) on every build (each gender and body shape in turn), each measured
against the face its build alone gives (the same gender, body shape and height without face controls or variety:
MakeHuman's own proportions for that body, an ordinary face) at fixed landmarks of the mesh (the same vertex on every
body): the nose's root (nasion), the chin's front below the mouth (menton's line), the cheekbones (zygia). A face's
own features may make it longer or narrower than its build's, as people differ, but by no more than about two of
people's standard deviations (the face's length from nasion to chin about 6 mm, the facial index about 5 points:
Farkas's norms for young adults). Measured on the shaped body (decimetres, before the exact height's scale)."""

from __future__ import annotations

from functools import cache

import numpy as np
import pytest
from helpers import random_settings

from workbench.body import compile as cc
from workbench.body.shape import face_weights, shaped
from workbench.options import normalize_avatar_settings

BUILDS = [(g, b) for g in ("feminine", "masculine") for b in ("slim", "average", "athletic", "heavy")]
DRAWN = [normalize_avatar_settings({**s, "gender": BUILDS[k % 8][0], "bodyShape": BUILDS[k % 8][1]})
         for k, s in enumerate(random_settings(48, 4660))]


def target_landmark(name: str, axis: int, sign: float, side: float = 0.0) -> int:
    """The base mesh's vertex a MakeHuman target moves furthest along ``axis`` (``sign``), on one ``side`` (x's sign)
    or on the midline."""
    data = cc.compiled()
    idx, delta = cc.target(data, name)
    x = data["base"][idx, 0]
    along = np.where(np.sign(x) == side if side else np.abs(x) < 1e-4, delta[:, axis] * sign, -np.inf)
    return int(idx[np.argmax(along)])


@cache
def landmarks() -> dict[str, int]:
    return {"nasion": target_landmark("nose/nose-scale-vert-incr", 1, 1),
            "chin": target_landmark("chin/chin-height-incr", 1, -1),
            "zyL": target_landmark("cheek/l-cheek-bones-incr", 0, 1, 1),
            "zyR": target_landmark("cheek/r-cheek-bones-incr", 0, -1, -1),
            "noseL": target_landmark("nose/nose-scale-horiz-incr", 0, 1, 1),
            "noseR": target_landmark("nose/nose-scale-horiz-incr", 0, -1, -1)}


def proportions(p: np.ndarray) -> dict[str, float]:
    """The face's length (nasion to chin, mm), its facial index (length over the cheekbones' width, x 100) and the
    nose's width at its wings (mm) of a shaped body (decimetres)."""
    q = {k: p[v] for k, v in landmarks().items()}
    length = q["nasion"][1] - q["chin"][1]
    return {"length": 100 * length, "index": 100 * length / (q["zyL"][0] - q["zyR"][0]),
            "nose": 100 * (q["noseL"][0] - q["noseR"][0])}


@pytest.fixture(scope="module")
def excess() -> dict[str, np.ndarray]:
    """Per drawn face, its proportions less its build's."""
    rows = []
    for s in DRAWN:
        own = proportions(shaped(s["gender"], s["bodyShape"], s["height"], face_weights(s))[0])
        plain = proportions(shaped(s["gender"], s["bodyShape"], s["height"], ())[0])
        rows.append([own[k] - plain[k] for k in ("length", "index", "nose")])
    a = np.array(rows)
    return {"length": a[:, 0], "index": a[:, 1], "nose": a[:, 2]}


def test_no_face_is_stretched(excess):
    """No face is more than 12 mm longer than its build's (now 10.2 at most; before, 15.3: MakeHuman's chin height at
    0.6 dropped the chin 12 mm, with the faces' own variety more), nor its index more than 12.5 points higher, longer
    for its width (now 11.5; before 14.1)."""
    assert excess["length"].max() <= 12.0 and excess["index"].max() <= 12.5, (
        np.round(excess["length"].max(), 1), np.round(excess["index"].max(), 1))


def test_faces_are_not_longer_on_average(excess):
    """The faces' median length is no more than 6.5 mm over their builds' (now 6.0; before 7.3: a chin that
    lengthened twice as far as it shortened)."""
    assert np.median(excess["length"]) <= 6.5, np.round(np.median(excess["length"]), 2)


def test_no_nose_is_pinched(excess):
    """No face's nose is more than 7 mm narrower at its wings than its build's (now 5.9 at most; before, 8.2: noseWidth
    at -1 past MakeHuman's slider's end, with the feminine faces' slimmer nose and the faces' own narrowing, pinched the
    wings into dark nostril slits)."""
    assert excess["nose"].min() >= -7.0, np.round(excess["nose"].min(), 2)



def test_masculine_jaws_are_not_boxy():
    """A masculine build's neutral face has a jaw (its angles: where MakeHuman's chin-bones target moves furthest out)
    nearer a man's, about 0.71 of its cheekbones' width (Farkas: 97 mm over 137): at most 0.755 over the four builds,
    none past 0.78 (a slim face's leaner cheeks show more jaw). Before, 0.775, and 0.765 to 0.797 (the head squared by
    half of MakeHuman's slider: boxy jaws in blind review F); now 0.754, 0.743 to 0.775."""
    ratios = []
    for body_shape in ("slim", "average", "athletic", "heavy"):
        p = shaped("masculine", body_shape, 175.0, ())[0]
        jaw = {s: p[target_landmark("chin/chin-bones-incr", 0, s, s)][0] for s in (1.0, -1.0)}
        q = {k: p[v] for k, v in landmarks().items()}
        ratios.append((jaw[1.0] - jaw[-1.0]) / (q["zyL"][0] - q["zyR"][0]))
    assert np.mean(ratios) <= 0.755 and max(ratios) <= 0.78, np.round(ratios, 3)
