"""Blind review T's defect 6 on the typical three.js page (ACES filmic, RoomEnvironment: the review sheets' look):
"pale skin blows out ... the lips are almost colourless. Ours and model-viewer stay pink."

The skin's shown colour is the tone (contract section 5) and ACES's shoulder is the page's (aces29), but the lips'
colour is the asset's own: a pale tone's lips are a little darker and redder (:data:`workbench.body.tone.PALE_LIP`) and
reflect less of the room (:data:`workbench.body.pores.LIPS_SPECULAR`). Review T's #8 (#ECCFC2), its sheet's
mouthOpen close-up drawn in headless Chromium at 384 px; the lips and the plain skin round them found by our renderer's
drawing of the same camera through the skin's masks (test_lip_colour_review_q's): their median CIELAB chroma."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest
from helpers import random_settings, through

from workbench.body.tone import lab
from workbench.render.scene import Model, load_clip

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(Path(__file__).resolve().parent), str(ROOT / "data")]
import make_review_sheets as sheets  # noqa: E402
from test_lip_colour_review_q import NOT_PLAIN, _mask  # noqa: E402

EIGHT = random_settings(12, 4630, with_added=True)[7]
SIZE = 384
MOUTH = next(v for v in sheets.VIEWS if v[0] == "mouthOpen")

# The sheets' avatars from the run's shared builds and the worker's one three.js page (conftest.py's sheets_built_once,
# sheets_page_once).
pytestmark = pytest.mark.usefixtures("sheets_built_once", "sheets_page_once")


def test_the_avatar_is_the_reviews():
    """#8 is review T's pale tone (its sheet's seed: ``random_settings(12, 4630, with_added=True)``)."""
    assert (EIGHT["skinTone"], EIGHT["gender"]) == ("#ECCFC2", "feminine")


def test_pale_lips_keep_their_colour_under_aces(monkeypatch):
    """On the typical page #8's lips are 6.2 C* or more over the skin round them. On main 5.2 (the lips L* 83.7 on a
    face of 85.4: the paper-white face's near-white lips); now 7.0 (ours 10.6 -> 12.7, model-viewer 11.6 -> 14.3).
    6.5 until pass 35's level35 levelled #8's head in its power stance (the lips lit from a little lower): 6.3."""
    monkeypatch.setattr(sheets, "VIEWS", (MOUTH,))
    avatar = sheets.Avatar(EIGHT)
    shot = np.asarray(sheets.shoot_threejs([avatar], SIZE, "typical")[0][0].convert("RGB"), float) / 255
    glb = avatar.files[0]
    _, cam, _ = avatar.cameras[0]
    posed = Model(glb).posed(load_clip(glb), 0.0)

    g = EIGHT["gender"]
    lips, plain = through(posed, cam, SIZE, _mask(g, ("lips",))), through(posed, cam, SIZE, _mask(g, NOT_PLAIN, keep="face"))
    lip, skin = (np.median(np.array([lab(p) for p in shot[m]]), 0) for m in (lips, plain))
    step = float(np.hypot(*lip[1:]) - np.hypot(*skin[1:]))
    assert step >= 6.2, (round(step, 1), lip.round(1), skin.round(1))
