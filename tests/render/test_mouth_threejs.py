"""An open mouth as a typical three.js page draws it (ACES filmic, RoomEnvironment: the review sheets' look), against
blind review B's "the mouth's cavity reads as a lit box": the mouth's lining and the back teeth, smooth, mirrored the
room as grey walls either side of the tongue. Inside the opening (the lining and the teeth but the front teeth's
white, found through our renderer's drawing with the sheets' own camera), the pixels are a mouth's dark reds, few of
them a grey lit wall, and the back of the mouth darker than its front."""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from workbench.render.raster import Lights, draw
from workbench.render.scene import Material, Model, load_clip

ROOT = Path(__file__).resolve().parents[2]
UNLIT = Lights(key=0, fill=0, rim=0, sky=1, ground=1, exposure=1, sheen=0, sheen_grazing=0, skin_wrap=0)
SIZE = 384
SETTINGS = {"gender": "feminine", "skinTone": "#E0AC8A", "hair": {"style": "none"}, "glasses": "none"}


def _inside(glb: bytes, cam) -> tuple[np.ndarray, np.ndarray]:
    """Masks, with our renderer and the same camera: the opening (the lining or the Teeth mesh) and its depth
    behind the front teeth in metres (the teeth's and lining's own z, as a grey level)."""
    from test_mouth_renders import lining_texture

    posed = Model(glb).posed(load_clip(glb), 0.0)
    front = max(float(d.positions[:, 2].max()) for d in posed.draws if d.mesh_name == "Teeth")
    flat = Material(color=np.ones(4, np.float32))
    draws = []
    for d in posed.draws:
        colours = np.zeros((len(d.positions), 4), np.float32)
        colours[:, 3] = 1
        colours[:, 0] = 1                                             # red: inside the opening
        colours[:, 1] = np.clip((front - d.positions[:, 2]) / 0.05, 0, 1)   # green: depth, 0 to 5 cm
        if d.mesh_name == "Body":
            m = replace(flat, texture=lining_texture("feminine"))
        elif d.mesh_name == "Teeth":
            m = flat
        else:
            m = replace(flat, color=np.zeros(4, np.float32) + [0, 0, 0, 1])
        draws.append(replace(d, colors=colours, uv=d.uv, material=replace(m, double_sided=d.material.double_sided)))
    img = draw(replace(posed, draws=draws), cam, SIZE, lights=UNLIT).astype(float)
    return img[..., 0] > 200, img[..., 1] / np.maximum(img[..., 0], 1) * 0.05


def _teeth_mask(glb: bytes, cam) -> np.ndarray:
    """The Teeth mesh's pixels, with our renderer and the same camera."""
    posed = Model(glb).posed(load_clip(glb), 0.0)
    flat = Material(color=np.ones(4, np.float32))
    draws = [replace(d, material=replace(flat, double_sided=d.material.double_sided, color=np.array(
        [1, 1, 1, 1] if d.mesh_name == "Teeth" else [0, 0, 0, 1], np.float32))) for d in posed.draws]
    return draw(replace(posed, draws=draws), cam, SIZE, lights=UNLIT)[..., 0] > 127


@pytest.mark.slow
def test_an_open_mouth_in_threejs_is_dark_red_not_a_lit_box(monkeypatch):
    """Of the opening's pixels (but the front teeth's white), under a tenth a lit grey (a third or less as saturated
    as a red, luminance over 60 of 255), and the deepest third darker than half the shallowest third."""
    sys.path[:0] = [str(ROOT / "data")]
    import make_review_sheets as sheets

    monkeypatch.setattr(sheets, "VIEWS", (("mouthOpen", "mouth", 0.0, "mouthOpen"),))
    avatar = sheets.Avatar(SETTINGS)
    shot = np.asarray(sheets.shoot_threejs([avatar], SIZE, "typical")[0][0].convert("RGB")).astype(float)
    opening, depth = _inside(avatar.files[0], avatar.cameras[0][1])
    rgb = shot[opening & (shot.min(2) < 170)]                         # (not the front teeth's white)
    assert len(rgb) > 1500, len(rgb)
    lum = rgb @ np.array([0.2126, 0.7152, 0.0722])
    grey = (rgb.max(1) - rgb.min(1) < 0.3 * rgb.max(1)) & (lum > 60)
    d = depth[opening & (shot.min(2) < 170)]
    shallow, deep = np.quantile(d, [1 / 3, 2 / 3])
    front, back = lum[d <= shallow].mean(), lum[d >= deep].mean()
    # Measured: grey 0.17 of the opening on main (the walls), 0.05 after; the back at 0.36 and 0.27 of the front.
    # Since mouthOpen lifts the upper lip off the incisors (0.9, mouth13: upper teeth 0.20 -> 0.40 of the opening), the
    # side teeth beside the corners show, 11 to 39 mm behind the front, in shade: grey 0.104, all of it teeth, none
    # the lining. So the lining (the walls of review B's box) is held to none and the whole opening to 0.12.
    teeth = _teeth_mask(avatar.files[0], avatar.cameras[0][1])[opening & (shot.min(2) < 170)]
    assert (grey & ~teeth).mean() < 0.02, (grey & ~teeth).mean()
    assert grey.mean() < 0.12, grey.mean()
    assert back < 0.5 * front, (front, back)
