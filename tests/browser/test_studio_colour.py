"""The avatars in a standard tone-mapped studio in three.js (issue 36): RoomEnvironment's image-based light,
Khronos PBR Neutral tone mapping at exposure 1 (pages/studio.js), with the camera of a workbench portrait.

- A skin tone shows as the tone asked for: the mean colour over the body's pixels is within a small
  CIELAB distance of the requested hex in three.js, and in the workbench's own preview of the same avatar
  (one colour pipeline, :mod:`workbench.options.colour`), which also agree with each other.
- The studio's light on the skin is what :data:`workbench.options.colour.STUDIO` says (the calibration the
  albedo is computed from is measured again here).
- Sunglasses stay dark (no flash of the studio's lights in them) and an open mouth is dark.
"""

from __future__ import annotations

import io

import httpx
import numpy as np
import pytest
from helpers import new_avatar
from PIL import Image

from workbench.options.colour import STUDIO, hex_rgb, srgb_to_linear

from .conftest import data_url_image, open_page, run_async, save_artifact

SIZE = 384
TONES = ("#FFE0C4", "#E0AC8A", "#C68642", "#8D5524", "#3B2416")


class Page:
    """One of this module's pages in the session's one Chromium tab, opened again if the tab was left on another page
    when a test calls it (:meth:`call`). Both pages here (the three.js studio, model-viewer's) share the tab, and the
    suite orders tests by their recorded cost, not as written (tests/suite_order.py: the model-viewer test came
    between the three.js ones, which then called ``window.studio`` on model-viewer's page and failed: studio38). What
    the page has is the condition, not which test ran before: a page still open keeps its renderer, environment and
    models' bytes (seconds of a software GPU's CPU to make again)."""

    def __init__(self, browser, url: str, script: str, ready: str):
        self.browser, self.url, self.script, self.ready = browser, url, script, ready

    def call(self, fn: str, *args):
        """``run_async(fn, *args)`` on this page, opened first if the tab shows another."""
        if not self.browser.execute_script(f"return location.href === {self.url!r} && Boolean({self.ready})"):
            open_page(self.browser, self.url)
            self.browser.execute_async_script(f"const done = arguments[0]; import({self.script!r}).then(() => done(true));")
        return run_async(self.browser, fn, *args)


@pytest.fixture(scope="module")
def page(browser, pages):
    return Page(browser, pages + "/threejs.html", "./studio.js", "window.studio")


def fetch(url: str) -> bytes:
    r = httpx.get(url, timeout=300)
    assert r.status_code == 200, (url, r.text[:300])
    return r.content


def studio_args(server, settings: dict, camera: str = "portrait"):
    """The page's arguments for an avatar in its idle pose with the camera the workbench's preview frames, its
    GLB's bytes and that pose (:class:`workbench.render.scene.Posed`)."""
    from workbench.render.framing import frame
    from workbench.render.scene import Clip, Model

    url = new_avatar(server, settings)["modelUrl"] + "?animations=idle"
    glb = fetch(url)
    model = Model(glb, max_texture=1)
    posed = model.posed(Clip(model), 0.0)
    cam = frame(posed, camera)
    return ({"model": url, "size": SIZE, "animation": "idle", "time": 0.0,
             "view": [float(v) for v in cam.view.reshape(-1)], "fov": cam.fov_deg, "near": cam.near}, glb, posed)


def shoot_masked(page, args: dict, *masks: str) -> list[np.ndarray]:
    """The shot of ``args`` and, of the same posed scene, each mesh of ``masks`` as a mask (True on its pixels): one
    parse of the model in the page for them all (a parse a shot cost seconds of a software GPU's texture uploads)."""
    lit, *drawn = (data_url_image(url) for url in page.call("window.studio.render", {**args, "masks": list(masks)}))
    return [lit, *(mask[..., 0] > 127 for mask in drawn)]


def shoot_all(page, args: dict, shots: list[dict]) -> list:
    """Each of ``shots`` (overrides of ``args``) drawn from one parse of the model in the page: a shot's picture, or
    with ``masks`` its picture and masks as :func:`shoot_masked` gives them. (Each parse uploads the model's
    textures to the software GPU again: seconds of the GPU process's CPU.)"""
    drawn = page.call("window.studio.render", {**args, "shots": shots})
    return [data_url_image(got) if isinstance(got, str)
            else [data_url_image(got[0]), *(data_url_image(url)[..., 0] > 127 for url in got[1:])] for got in drawn]


def lab(srgb: np.ndarray) -> np.ndarray:
    """CIELAB (D65) of sRGB colours in 0..255."""
    lin = srgb_to_linear(np.asarray(srgb, float) / 255)
    xyz = lin @ np.array([[0.4124, 0.3576, 0.1805], [0.2126, 0.7152, 0.0722], [0.0193, 0.1192, 0.9505]]).T
    xyz = xyz / np.array([0.9505, 1.0, 1.089])
    f = np.where(xyz > 0.008856, np.cbrt(xyz), 7.787 * xyz + 16 / 116)
    return np.stack([116 * f[..., 1] - 16, 500 * (f[..., 0] - f[..., 1]), 200 * (f[..., 1] - f[..., 2])], -1)


def delta_e(a, b) -> float:
    return float(np.linalg.norm(lab(a) - lab(b)))


def test_a_skin_tone_shows_as_asked_in_three_js_and_in_the_preview(page, server, tmp_path):
    """Over the body's pixels of a portrait, the mean colour is the requested tone within 6 (CIE76) in
    three.js's studio and in the workbench preview, from the lightest tone to the darkest, and the two
    within 6 of each other. (Before, the hex was the albedo: light tones burned to near white in three.js,
    9 to 14 levels over the tone, and the previews drew them saturated orange.)"""
    from workbench.render import render

    rows = []
    for tone in TONES:
        args, glb, _ = studio_args(server, {"gender": "feminine", "skinTone": tone, "hair": {"style": "short"}})
        lit, body = shoot_masked(page, args, "Body")
        ours = np.asarray(render(glb, size=SIZE, camera="portrait", pose=(glb, 0.0)))
        want = hex_rgb(tone) * 255
        three, preview = lit[body][:, :3].mean(0), ours[body][:, :3].mean(0)
        rows.append((tone, delta_e(three, want), delta_e(preview, want), delta_e(three, preview)))
        print(f"\n{tone}: three.js {three.round(1)} dE {rows[-1][1]:.1f}; preview {preview.round(1)} dE {rows[-1][2]:.1f};"
              f" between {rows[-1][3]:.1f}")
        buf = io.BytesIO()
        Image.fromarray(np.concatenate([lit, ours], 1), "RGBA").save(buf, format="PNG")
        save_artifact(tmp_path, f"studio_skin_{tone[1:]}.png", buf.getvalue())
    for tone, three, preview, between in rows:
        assert three < 6 and preview < 6 and between < 6, (tone, three, preview, between)


def test_the_studio_lights_skin_as_the_calibration_says(page, server):
    """Each pixel of the skin of albedo a shows k a + s in linear light: the measured (k, s), in sixteen
    shares of the pixels by k, are :data:`~workbench.options.colour.STUDIO`'s within a tenth in k (and the
    mean tone they predict for the default skin within 3 levels of what three.js draws)."""
    args, _, _ = studio_args(server, {"gender": "feminine", "hair": {"style": "short"}})
    (dark, body), light = shoot_all(page, args, [{"probe": {"mesh": "Body", "albedo": 0.0}, "masks": ["Body"]},
                                                 {"probe": {"mesh": "Body", "albedo": 0.3}}])
    probe = {0.0: dark[body][:, :3].astype(float) / 255, 0.3: light[body][:, :3].astype(float) / 255}
    s = probe[0.0].mean(1)
    k = (probe[0.3].mean(1) - s) / 0.3
    order = np.argsort(k)
    measured = np.array([(k[b].mean(), s[b].mean()) for b in np.array_split(order, len(STUDIO))])
    print("\nmeasured (k, s):", [tuple(round(float(v), 4) for v in row) for row in measured])
    assert np.abs(measured[:, 0] - np.array(STUDIO)[:, 0]).max() < 0.1
    assert np.abs(measured[:, 1] - np.array(STUDIO)[:, 1]).max() < 0.02


def test_the_studio_draws_after_the_tab_was_left_on_model_viewers_page(page, browser, pages, server):
    """A studio shot after the tab went to model-viewer's page (as the model-viewer test, run between the three.js
    ones in the suite's order by cost, leaves it) draws the avatar: the body's mask covers it and its lit pixels are
    opaque. (Before studio38 the call reached model-viewer's page: "Cannot read properties of undefined (reading
    'render')", the calibration and sunglasses tests' failure.) 96 px: where the page is, not the colours, is measured."""
    args, _, _ = studio_args(server, {"gender": "feminine", "hair": {"style": "short"}})
    browser.get(pages + "/model-viewer.html")
    lit, body = shoot_masked(page, {**args, "size": 96}, "Body")
    print(f"\nbody {int(body.sum())} px of {body.size}")
    assert 300 < body.sum() < 0.5 * body.size and (lit[body][:, 3] > 127).mean() > 0.95


def test_sunglasses_stay_dark_and_an_open_mouth_is_dark(page, server, tmp_path):
    """At three quarters, a sunglass lens shows the studio's light only as a soft sheen (no pixel near white,
    where a mirror-smooth lens flashed white); with the jaw open, the mouth's inside (the Teeth mesh, the
    teeth and tongue) is far darker than the face (a flat white block before)."""
    args, _, posed = studio_args(server, {"gender": "masculine", "glasses": "sunglasses", "hair": {"style": "short"},
                                          "skinTone": "#E0AC8A"})
    pts = posed.points()
    pivot = [float(v) for v in (pts.min(0) + pts.max(0)) / 2]
    # The two turns and the open mouth from one parse of the model.
    *turns, (opened, mouth, skin) = shoot_all(page, args, [
        *({"yaw": yaw, "pivot": pivot, "masks": ["Glasses"]} for yaw in (35, -35)),
        {"morphs": {"jawOpen": 1.0}, "masks": ["Teeth", "Body"]}])
    for yaw, (lit, lens) in zip((35, -35), turns, strict=True):
        lum = lit[lens][:, :3] @ np.array([0.2126, 0.7152, 0.0722])
        print(f"\nsunglasses at {yaw}: mean {lum.mean():.1f}, 99th percentile {np.percentile(lum, 99):.1f}")
        # (The mask holds the frame too: its rims, rounded bars 4 mm deep since review A, catch the room on their
        # edge, 164 at the 99th percentile; a mirror-smooth lens's flash is near white.)
        assert lens.sum() > 300 and np.percentile(lum, 99) < 190 and lum.mean() < 70
        buf = io.BytesIO()
        Image.fromarray(lit, "RGBA").save(buf, format="PNG")
        save_artifact(tmp_path, f"studio_sunglasses_{yaw}.png", buf.getvalue())
    lit = opened
    lum = lit[..., :3] @ np.array([0.2126, 0.7152, 0.0722])
    print(f"\nopen mouth: inside {np.median(lum[mouth]):.1f}, skin {np.median(lum[skin]):.1f}")
    assert mouth.sum() > 100 and np.median(lum[mouth]) < 0.45 * np.median(lum[skin])
    buf = io.BytesIO()
    Image.fromarray(lit, "RGBA").save(buf, format="PNG")
    save_artifact(tmp_path, "studio_open_mouth.png", buf.getvalue())



@pytest.fixture(scope="module")
def model_viewer(browser, pages):
    return Page(browser, pages + "/model-viewer.html", "./mv-studio.js", "window.mvStudio")


def test_a_skin_tone_in_model_viewers_default_environment(model_viewer, server, tmp_path):
    """model-viewer's own neutral lighting (not three.js's RoomEnvironment the albedo is calibrated on) shows
    the face's skin within 8 (CIE76) of the tone asked for, the lightest tone to the darkest."""
    for tone in TONES:
        url = new_avatar(server, {"gender": "feminine", "skinTone": tone, "hair": {"style": "short"}})["modelUrl"]
        view = {"model": url + "?lod=1", "target": "0m 1.5m 0m", "orbit": "0deg 90deg 0.75m", "fov": "25deg"}
        lit = data_url_image(model_viewer.call("window.mvStudio.show", view))
        skin = data_url_image(model_viewer.call("window.mvStudio.show", {**view, "mask": "Skin"}))[..., 0] > 127
        mean = lit[skin][:, :3].mean(0)
        error = delta_e(mean, hex_rgb(tone) * 255)
        print(f"\nmodel-viewer {tone}: {mean.round(1)} dE {error:.1f} over {int(skin.sum())} pixels")
        buf = io.BytesIO()
        Image.fromarray(lit, "RGBA").save(buf, format="PNG")
        save_artifact(tmp_path, f"model_viewer_skin_{tone[1:]}.png", buf.getvalue())
        assert skin.sum() > 2000 and error < 8, (tone, mean, error)
