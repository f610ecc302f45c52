"""Blind review R's defect 7 and part of 10 in three.js: the project's page under ACES filmic and RoomEnvironment
(``data/threejs_look/look.html``'s ``aces`` look, the project's rig for a page that uses ACES; the blind review
sheets keep the bare ``typical`` page, a customer's page as it comes) against "everything washes
out: clothes turn pastel (#6's sweater near-white mint, #1 and #8's magenta shirts pink), pale skin goes grey-white
and waxy (#6) ... there is no ground shadow, so the figures float".

Review R's #6 (pale skin #E7BEA5, a #5DF7E0 sweater, #A213BB trousers; no glasses, so the cheek shows), drawn in
headless Chromium at 384 px, each place found by our renderer's drawing with the same camera and pose:

- the clothes keep their colour: the lit half of each garment's pixels (by luminance), its mean colour's CIELAB
  chroma over the given colour's (a pastel is a low ratio);
- the pale cheek keeps its warmth: the cheek's mean colour (:func:`helpers.face_hollows`' ``cheek``) near the
  skin tone's hue and with most of its chroma;
- a ground shadow: the backdrop just around the soles darker than the backdrop's own colour.

The look's settings are the page's: the test measures what the page draws in its ``aces`` look (on main's page,
before that look, the bare room: ``typical``, the figures the docstrings give as main's).
"""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from helpers import random_settings

from workbench.body.tone import lab
from workbench.options.colour import hex_rgb
from workbench.render.raster import draw
from workbench.render.scene import Material, Model, load_clip

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(Path(__file__).resolve().parent), str(ROOT / "data")]
import make_review_sheets as sheets  # noqa: E402
from test_threejs_look import SIZE, UNLIT, _places  # noqa: E402

# Review R's #6, without its aviators (they cover the cheek's top).
SIX = {**random_settings(12, 4628, with_added=True)[5], "glasses": "none"}
VIEWS = (("front", "full", 0.0, None), ("portrait", "portrait", 0.0, None))
GARMENTS = {"Outfit_Top": "top", "Outfit_Bottom": "bottom"}


# The sheets' avatars from the run's shared builds and the worker's one three.js page (conftest.py's sheets_built_once,
# sheets_page_once).
pytestmark = pytest.mark.usefixtures("sheets_built_once", "sheets_page_once")


def lch(rgb: np.ndarray) -> tuple[float, float, float]:
    """sRGB 0..1 (3,) -> CIELAB lightness, chroma and hue in degrees."""
    L, a, b = lab(np.clip(rgb, 0, 1))
    return float(L), float(np.hypot(a, b)), float(np.degrees(np.arctan2(b, a)) % 360)


def mesh_masks(glb: bytes, cam, size: int) -> dict[str, np.ndarray]:
    """Per mesh name, its pixels in our renderer's drawing with ``cam`` (the idle clip's first frame); ``"all"``
    every mesh's."""
    posed = Model(glb).posed(load_clip(glb), 0.0)
    names = sorted({d.mesh_name for d in posed.draws})
    out = {}
    for name in names:
        draws = [replace(d, uv=None, material=Material(color=np.array([1, 1, 1, 1] if d.mesh_name == name else
                                                                      [0, 0, 0, 1], np.float32), specular=0.0,
                                                       double_sided=d.material.double_sided)) for d in posed.draws]
        out[name] = draw(replace(posed, draws=draws), cam, size, lights=UNLIT)[..., 0] > 127
    out["all"] = np.any([out[n] for n in names], axis=0)
    return out


def garment_chroma(shot: np.ndarray, mask: np.ndarray, given: str) -> float:
    """The lit half of ``mask``'s pixels (by luminance): their mean colour's chroma over ``given``'s."""
    rgb = shot[mask] / 255.0
    lum = rgb @ np.array([0.2126, 0.7152, 0.0722])
    lit = rgb[lum >= np.median(lum)].mean(0)
    return lch(lit)[1] / lch(hex_rgb(given)[:3])[1]


def ground_shade(shot: np.ndarray, masks: dict[str, np.ndarray]) -> float:
    """How much darker (0..255 luminance) the backdrop is just around the soles than the picture's top corners: the
    pixels within a twentieth of the figure's height of the shoes' lowest row, beside and below them, but no mesh's."""
    shoes = np.argwhere(masks["Outfit_Footwear"])
    rows = np.argwhere(masks["all"])[:, 0]
    reach = max(2, int(0.05 * (rows.max() - rows.min())))
    y1, (x0, x1) = shoes[:, 0].max(), (shoes[:, 1].min(), shoes[:, 1].max())
    near = np.zeros_like(masks["all"])
    near[y1 - reach:y1 + reach + 1, x0 - reach:x1 + reach + 1] = True
    near &= ~masks["all"]
    lum = shot @ np.array([0.2126, 0.7152, 0.0722])
    backdrop = np.median(np.concatenate([lum[:8, :8].ravel(), lum[:8, -8:].ravel()]))
    return float(backdrop - lum[near].mean())


def measure(shots: list[np.ndarray], avatar, settings: dict) -> dict[str, float]:
    """The figures the tests hold: each garment's chroma ratio, the cheek's chroma ratio and hue shift, the shade
    under the feet (front view, then portrait, as :data:`VIEWS`)."""
    front, portrait = shots
    masks = mesh_masks(avatar.glb, avatar.cameras[0][1], SIZE)
    out = {side: garment_chroma(front, masks[name], settings["outfit"][side]) for name, side in GARMENTS.items()}
    cheek = _places(avatar.glb, avatar.cameras[1][1], settings)["cheek"]
    _, c, h = lch(portrait[cheek].mean(0) / 255.0)
    _, c0, h0 = lch(hex_rgb(settings["skinTone"])[:3])
    out.update(cheek_chroma=c / c0, cheek_hue=(h - h0 + 180) % 360 - 180, ground=ground_shade(front, masks))
    return out


# The project's ACES look (main, before it, had only the bare room, "typical": the figures given as main's).
LOOK = "aces"


@pytest.fixture(scope="module")
def look_page():
    """look.html ready in a Chromium of the module's, kept for its tests."""
    with sheets.threejs_look_page() as page:
        yield page


@pytest.fixture(scope="module")
def six(look_page):
    """Review R's #6 in three.js on the review sheets' page and look, front and portrait: its figures."""
    mp = pytest.MonkeyPatch()
    mp.setattr(sheets, "VIEWS", VIEWS)
    try:
        avatar = sheets.Avatar(SIX)
        shots = [np.asarray(im.convert("RGB")).astype(float)
                 for im in sheets.shoot_threejs([avatar], SIZE, LOOK, look_page)[0]]
        return measure(shots, avatar, SIX)
    finally:
        mp.undo()


@pytest.mark.slow
def test_clothes_keep_their_colour_under_aces(six):
    """The sweater's lit half at least 0.36 of the given mint's chroma (measured: main 0.26, the pastel the review
    saw; now 0.41), the trousers' magenta, darker and so little compressed, kept at 0.85 and more (0.96 and 0.93)."""
    assert six["top"] >= 0.36 and six["bottom"] >= 0.85, six


@pytest.mark.slow
def test_a_pale_cheek_keeps_its_warmth_under_aces(six):
    """The cheek's mean colour at least 0.5 of the skin tone's chroma, its hue within 5 degrees of the tone's
    (measured: main 0.36 and -0.9 degrees, grey-white; now 0.61 and -1.3)."""
    assert six["cheek_chroma"] >= 0.5 and abs(six["cheek_hue"]) <= 5, six


@pytest.mark.slow
def test_the_figure_stands_on_a_shadow(six):
    """The backdrop round the soles at least 6 levels (of 255) darker than the backdrop (measured: main 0.1, no
    shadow; now 12.0)."""
    assert six["ground"] >= 6, six


@pytest.mark.slow
def test_hair_edges_are_not_black_under_the_rig(look_page, monkeypatch):
    """Review R's #2 (a bob, whose cards carry KHR_materials_anisotropy), portrait: no pixel of the hair black
    (luminance under 12 of 255). three.js r183's anisotropic specular (the browser tests' three.js; r184 guards it)
    under a directional light from behind gave NaN on the cards' edges: 1,082 black hair pixels under this look's rig without the page's guard (1,079 on main's
    "project" look, its rim lights; none in the bare room, main's review look); now 0."""
    monkeypatch.setattr(sheets, "VIEWS", (("portrait", "portrait", 0.0, None),))
    avatar = sheets.Avatar(random_settings(12, 4628, with_added=True)[1])
    masks = mesh_masks(avatar.glb, avatar.cameras[0][1], SIZE)
    assert masks["Hair"].sum() > 2000, int(masks["Hair"].sum())
    for look in sorted({LOOK, "project"}):
        shot = np.asarray(sheets.shoot_threejs([avatar], SIZE, look, look_page)[0][0].convert("L")).astype(float)
        assert int((masks["Hair"] & (shot < 12)).sum()) == 0, (look, int((masks["Hair"] & (shot < 12)).sum()))
