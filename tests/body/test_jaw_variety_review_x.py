"""Jaws that differ (issue 46, blind review X's defect 4: "one face for everybody ... #1, #3, #7 and #12 are the same
man in different colours"; wanted: per-avatar variation in "nose width and bridge, lip thickness, eye shape and brow
ridge, and jaw").

Measured on the models' bodies at fixed points of the face seen from the front (tests/body/test_eye_variety_review_v.py's
landmarks): the face's outline under the mouth (``gol``/``gor``, where the jaw's angles shape it) and at the
cheekbones (``zyl``/``zyr``). ``face.jawWidth`` (contract section 4: "the jaw's angles and the chin's width") moved the
chin's width some 9 and 13 mm at its ends but the jaw's angles hardly: MakeHuman's jaw-angle target
(``chin/chin-bones-incr``) drops the angles 8 mm for 1.4 mm of width, and a face's own variety of it takes up its cap,
so on main the outline under the mouth was 2.4 mm narrower at -1 and 0.1 mm wider at +1 (people's bigonial breadth
varies by some 6 mm, 6 %: Farkas). Review X's men #1, #3, #7, #9 and #12 had one jaw: its width over the cheekbones'
0.701 to 0.716. jawWidth now also draws the lower head in at -1 (MakeHuman's diamond head,
:data:`workbench.body.details.FACE_CONTROLS`); its +1 end is left as it was (see there)."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import numpy as np
import pytest
from helpers import random_settings
from test_eye_variety_review_v import front

from workbench.options import normalize_avatar_settings

REVIEW_X = [normalize_avatar_settings(s) for s in
            random_settings(12, seed=4634, with_added=True, heads=True, features=True, palettes=True)]


def jaw(q: dict[str, np.ndarray]) -> float:
    """The face's width under the mouth (mm)."""
    return float(q["gol"][0] - q["gor"][0])


def jaw_index(q: dict[str, np.ndarray]) -> float:
    """The face's width under the mouth over its width at the cheekbones (Farkas' mandible-face width index, some 0.7)."""
    return jaw(q) / float(q["zyl"][0] - q["zyr"][0])


@cache
def indices() -> list[tuple[str, float]]:
    return [(s["gender"], jaw_index(front(s))) for s in REVIEW_X]


def test_the_draw_is_review_xs():
    """The twelve are review X's (its key: /work/wt/keepX/key.json when it is there): #1, #3, #7 and #12 masculine."""
    key = Path("/work/wt/keepX/key.json")
    if key.exists():
        assert [a["settings"] for a in json.loads(key.read_text())["avatars"]] == random_settings(
            12, seed=4634, with_added=True, heads=True, features=True, palettes=True)
    assert [REVIEW_X[i - 1]["gender"] for i in (1, 3, 7, 12)] == ["masculine"] * 4


@pytest.mark.xfail(strict=True, reason="variety34's diamond head at jawWidth -1 taken out at the merge: it moved review Q's #1 hairline fade (9 < 10) and #11's tail (two pieces), both jawWidth -0.7 to -0.8")
def test_the_jaw_control_moves_the_jaws_angles():
    """On the default faces of both genders, jawWidth -1 narrows the face under the mouth by 5 mm or more (main: 2.4 mm
    narrower; now 7.8), and +1 does not narrow it (a guard: 0.1 mm wider on both, main and now)."""
    for gender in ("feminine", "masculine"):
        width = {v: jaw(front(normalize_avatar_settings({"gender": gender, "face": {"jawWidth": v}}))) for v in (-1, 0, 1)}
        assert width[-1] - width[0] <= -5.0 and width[1] >= width[0], (gender, width)


@pytest.mark.xfail(strict=True, reason="variety34's diamond head at jawWidth -1 taken out at the merge: it moved review Q's #1 hairline fade (9 < 10) and #11's tail (two pieces), both jawWidth -0.7 to -0.8")
def test_review_x_jaws_differ():
    """Among review X's faces of one gender, the jaw's width over the cheekbones' varies by 6 % or more of its mean
    (main: 6.45 and 5.02 %, feminine and masculine; now 6.56 and 6.11), and review X's men #1, #3, #7 and #12 ("the
    same man") span 0.03 or more of it (main: 0.015, 0.701 to 0.716; now 0.036, 0.680 to 0.716). On main the masculine
    spread and the men's span fail; the feminine bound is a guard main met too (its gain, 0.1 point, is not claimed)."""
    for gender in ("feminine", "masculine"):
        v = np.array([i for g, i in indices() if g == gender])
        assert v.std() / v.mean() * 100 >= 6.0, (gender, np.round(v, 3))
    four = [indices()[i - 1][1] for i in (1, 3, 7, 12)]
    assert max(four) - min(four) >= 0.03, np.round(four, 3)
