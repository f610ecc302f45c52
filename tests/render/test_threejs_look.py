"""What a typical three.js page draws (ACES filmic, RoomEnvironment: the review sheets' look,
``data/threejs_look/look.html``), each place found by our renderer's drawing with the same camera. One page for the
module (one Chromium, one room filtered, shaders compiled once for the 384 px pictures), where each of these tests
started a Chromium and a page of its own (they were test_mouth_threejs.py, test_pale_face_threejs.py and
test_eye_detail_review_e.py's last test).

- An open mouth, against blind review B's "the mouth's cavity reads as a lit box": the mouth's lining and the back
  teeth, smooth, mirrored the room as grey walls either side of the tongue. Inside the opening (the lining and the
  teeth but the front teeth's white), the pixels are a mouth's dark reds, few of them a grey lit wall, and the back
  of the mouth darker than its front.
- A pale face's shape, against blind review F #5: "light skin blows out to almost white; #10 loses nearly all its
  colour and its face shape". The room is all of such a page's light and the GLB's baked occlusion scales it, so the
  face's hollows are the face's shape there. Review F's #10 tone, no hair or glasses, front portrait: the eye sockets
  darker against the cheek, and the face more coloured, than main's occlusion drew them. The pixels of each place
  are found with the body textured with a mask painted on its UVs (:func:`helpers.face_hollows`).
- The lash line at the review sheets' 512 px.
"""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from helpers import UNLIT, face_hollows, random_settings

from workbench.body.ao import body_texels
from workbench.body.mesh import body_mesh
from workbench.options import normalize_avatar_settings
from workbench.render.raster import draw
from workbench.render.scene import Material, Model, Texture, load_clip

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(Path(__file__).resolve().parent), str(ROOT / "data")]
import make_review_sheets as sheets  # noqa: E402
from test_eye_detail_review_e import BLACK, WHITE, edge_ratios  # noqa: E402

SIZE = 384
MOUTH = {"gender": "feminine", "skinTone": "#E0AC8A", "hair": {"style": "none"}, "glasses": "none"}
PALE = {"gender": "masculine", "skinTone": "#F2CDBD", "hair": {"style": "none"}, "glasses": "none"}
PLACES = ("cheek", "socket")


# The sheets' avatars from the run's shared builds and the worker's one three.js page (conftest.py's sheets_built_once,
# sheets_page_once).
pytestmark = pytest.mark.usefixtures("sheets_built_once", "sheets_page_once")


@pytest.fixture(scope="module")
def look_page():
    """look.html ready in a Chromium of the module's (``make_review_sheets.threejs_look_page``), kept for its tests."""
    with sheets.threejs_look_page() as page:
        yield page


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
def test_an_open_mouth_in_threejs_is_dark_red_not_a_lit_box(look_page, monkeypatch):
    """Of the opening's pixels (but the front teeth's white), under a tenth a lit grey (a third or less as saturated
    as a red, luminance over 60 of 255), and the deepest third darker than half the shallowest third."""
    monkeypatch.setattr(sheets, "VIEWS", (("mouthOpen", "mouth", 0.0, "mouthOpen"),))
    avatar = sheets.Avatar(MOUTH)
    shot = np.asarray(sheets.shoot_threejs([avatar], SIZE, "typical", look_page)[0][0].convert("RGB")).astype(float)
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


def _places(glb: bytes, cam, settings: dict) -> dict[str, np.ndarray]:
    """Per place, the picture's pixels that show it (our renderer, the same camera and pose)."""
    mesh = body_mesh(normalize_avatar_settings(settings))
    tris = mesh.triangles[mesh.face_groups["body"]]
    values = np.zeros((len(mesh.positions), 3), np.float32)
    for k, name in enumerate(PLACES):
        values[face_hollows(mesh)[name], k] = 1
    paint = body_texels(mesh).paint_vertices(tris, values)
    rgba = np.full(paint.shape[:2] + (4,), 255, np.uint8)
    rgba[..., :3] = np.where(paint > 0.5, 255, 0)
    mask = Texture(rgba.view(np.uint32).reshape(-1), rgba.shape[1], rgba.shape[0], False, 33071, 33071)
    posed = Model(glb).posed(load_clip(glb), 0.0)
    white, black = Material(color=np.ones(4, np.float32)), Material(color=np.array([0, 0, 0, 1], np.float32))
    draws = [replace(d, material=replace(white, texture=mask) if d.mesh_name == "Body" else black) for d in posed.draws]
    img = draw(replace(posed, draws=draws), cam, SIZE, lights=UNLIT)
    return {name: img[..., k] > 200 for k, name in enumerate(PLACES)}


def _linear(srgb: np.ndarray) -> np.ndarray:
    c = srgb / 255.0
    return np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)


def measure(shot: np.ndarray, masks: dict[str, np.ndarray]) -> dict[str, float]:
    """The socket's mean luminance (linear) over the cheek's, and the chroma (CIELAB C*, D65) of the two places'
    mean colour."""
    lin = _linear(shot)
    lum = lin @ np.array([0.2126, 0.7152, 0.0722])
    cheek = lum[masks["cheek"]].mean()
    out = {name: float(lum[masks[name]].mean() / cheek) for name in PLACES[1:]}
    xyz = np.array([[0.4124, 0.3576, 0.1805], [0.2126, 0.7152, 0.0722], [0.0193, 0.1192, 0.9505]]) @ \
        lin[masks["cheek"] | masks["socket"]].mean(0) / np.array([0.9505, 1.0, 1.089])
    f = np.cbrt(xyz)                                     # (skin is far above CIELAB's linear toe)
    out["chroma"] = float(np.hypot(500 * (f[0] - f[1]), 200 * (f[1] - f[2])))
    return out


@pytest.mark.slow
def test_a_pale_face_keeps_its_shape_in_threejs(look_page, monkeypatch):
    """The sockets under 0.55 of the cheek's luminance and the two places' chroma over 5.25 (measured: main 0.58 and
    5.1, now 0.54 and 5.3; each place a few hundred pixels). Beside and under the nose the room's light from above
    lights the skin as brightly as the cheek on main and now (0.97 and 0.85 of it): there the occlusion shows as
    the nose's edge, not as a darker patch."""
    monkeypatch.setattr(sheets, "VIEWS", (("portrait", "portrait", 0.0, None),))
    avatar = sheets.Avatar(PALE)
    shot = np.asarray(sheets.shoot_threejs([avatar], SIZE, "typical", look_page)[0][0].convert("RGB")).astype(float)
    masks = _places(avatar.glb, avatar.cameras[0][1], PALE)
    assert all(m.sum() > 60 for m in masks.values()), {k: int(m.sum()) for k, m in masks.items()}
    got = measure(shot, masks)
    assert got["socket"] < 0.55, got
    assert got["chroma"] > 5.25, got


@pytest.mark.slow
def test_the_upper_lashes_read_in_threejs(look_page, monkeypatch):
    """The lash line as a typical three.js page draws the review sheets' portraits (ACES filmic, RoomEnvironment,
    512 px; the eyes found with our renderer's drawing from the same camera): just above the opening at most 0.45 of
    the skin's brightness above it on average (before, 0.68: thin lashes a grey haze once the browser's mipmaps
    averaged them, their room reflection greying them further; now about 0.22)."""
    monkeypatch.setattr(sheets, "VIEWS", (("portrait", "portrait", 0.0, None),))
    drawn = random_settings(4, seed=4646)[:2]
    avatars = [sheets.Avatar({**s, "glasses": "none", "hair": {**s["hair"], "style": "short"}}) for s in drawn]
    shots = sheets.shoot_threejs(avatars, 512, "typical", look_page)
    ratios = []
    for a, (shot,) in zip(avatars, shots, strict=True):
        model = Model(a.glb)
        posed = model.posed(load_clip(a.glb), 0.0)
        flat = [replace(d, uv=None, material=Material(color=WHITE if d.mesh_name == "Eyes" else BLACK, specular=0.0,
                                                      double_sided=d.material.double_sided))
                for d in posed.draws if d.mesh_name != "Eyelashes"]
        mask = draw(replace(posed, draws=flat), a.cameras[0][1], 512, lights=UNLIT)[..., 0] > 127
        lum = (np.asarray(shot.convert("RGB")).astype(np.float64) / 255) @ np.array([0.2126, 0.7152, 0.0722])
        ratios += edge_ratios(lum, mask, 512)[0]
    assert np.mean(ratios) <= 0.45, np.round(ratios, 3)
