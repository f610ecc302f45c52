"""The hair sheet as three.js draws it (issue 36: look at the hair in what users' pages show).

``python data/make_hair_threejs.py [OUT]`` (default ``docs/looks_hair_threejs.png``): every hair style
in a dark and a light colour, front, back and three-quarter portraits, drawn by the pinned three.js
in headless Chromium (WebGL on SwiftShader) on the project's page (``data/threejs_look/look.html``: PBR
Neutral tone mapping, a studio environment and rim lights), each with the workbench preview's camera.
Needs Chromium, chromedriver and selenium (as the browser tests do) and the repository's ``node_modules``; it takes
minutes (a software GPU). ``data/make_random_sheet.py`` shoots its avatars with the same studio
(:func:`threejs_studio`).
"""

from __future__ import annotations

import base64
import contextlib
import functools
import http.server
import io
import shutil
import sys
import tempfile
import threading
import time
from pathlib import Path

import numpy as np
from PIL import Image

ROOT = Path(__file__).resolve().parent.parent
PAGE = Path(__file__).resolve().parent / "threejs_look"
SIZE = 256
VIEWS = (("front", 0.0), ("back", 180.0), ("three-quarter", 60.0))


def _browser(profile: str, window: int = 600):
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    o = webdriver.ChromeOptions()
    o.binary_location = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
    for a in ("--headless=new", f"--window-size={window},{window}", f"--user-data-dir={profile}",
              "--use-angle=swiftshader", "--enable-unsafe-swiftshader", "--disable-gpu-compositing", "--no-first-run",
              "--no-sandbox", "--disable-dev-shm-usage", "--force-device-scale-factor=1"):
        o.add_argument(a)
    driver = webdriver.Chrome(service=Service(shutil.which("chromedriver")), options=o)
    driver.set_script_timeout(600)
    # A shot can take minutes on a busy machine's software GPU: wait as long for chromedriver's answer
    # (selenium's own client gives up after 120 s).
    driver.command_executor._client_config.timeout = 900
    return driver


def yaw_matrix(yaw: float) -> np.ndarray:
    """The turn by ``yaw`` degrees about the vertical (counter-clockwise seen from above), as the workbench's
    ``render(yaw_deg=)`` turns a model."""
    a = np.radians(yaw)
    return np.array([[np.cos(a), 0, np.sin(a)], [0, 1, 0], [-np.sin(a), 0, np.cos(a)]])


def preview_camera(glb: bytes, camera: str, yaw: float):
    """(pivot, camera) of the workbench's picture of ``glb`` standing in the first frame of its own first clip
    (the pose the pages draw it in: ``render(glb, pose=(glb, 0.0))``) turned by ``yaw`` degrees about the
    vertical through ``pivot`` (its bounds' centre), framed as ``camera`` ("portrait" or "full")."""
    from workbench.render.framing import frame
    from workbench.render.scene import Model, Posed, load_clip

    model = Model(glb, max_texture=1)
    # Not preview_pose (the library's idle clip, with the library's bone lengths): the pages play the model's
    # own retargeted clip, and a camera framed on the other pose cut the portraits' heads off.
    posed = model.posed(load_clip(glb), 0.0)
    pts = posed.points()
    pivot = (pts.min(0) + pts.max(0)) / 2
    turn = yaw_matrix(yaw).astype(np.float32)
    turned = Posed(draws=[type(d)(**{**d.__dict__, "positions": (d.positions - pivot) @ turn.T + pivot})
                          for d in posed.draws],
                   joints={k: (v - pivot) @ turn.T + pivot for k, v in posed.joints.items()},
                   joint_names=posed.joint_names)
    return pivot, frame(turned, camera)


def png_of(data_url: str) -> Image.Image:
    return Image.open(io.BytesIO(base64.b64decode(data_url.split(",", 1)[1]))).convert("RGBA")


@contextlib.contextmanager
def serve(files: dict[str, Path], modules: Path, window: int = 600):
    """(base URL, folder, browser): ``files`` (name: source) and ``modules`` as ``/node_modules`` served from a
    folder on a loopback port, and a headless Chromium; models written into the folder are served too."""
    with tempfile.TemporaryDirectory() as folder:
        site = Path(folder)
        for name, source in files.items():
            shutil.copy(source, site / name)
        (site / "node_modules").symlink_to(modules)

        class Quiet(http.server.SimpleHTTPRequestHandler):
            def log_message(self, *args):
                pass

        httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=str(site)))
        threading.Thread(target=httpd.serve_forever, daemon=True).start()
        driver = _browser(str(site / "profile"), window)
        try:
            yield f"http://127.0.0.1:{httpd.server_address[1]}", site, driver
        finally:
            driver.quit()
            httpd.shutdown()


def wait_ready(driver, url: str) -> None:
    driver.get(url)
    while not driver.execute_script("return window.pageReady === true"):
        time.sleep(0.1)


@contextlib.contextmanager
def threejs_studio(size: int = SIZE):
    """``shoot(glb, camera, yaw) -> RGBA image``: the avatar in look.html's studio, seen by the camera of the
    workbench preview of it turned by ``yaw`` degrees."""
    with serve({"look.html": PAGE / "look.html"}, ROOT / "node_modules") as (base, site, driver):
        wait_ready(driver, base + "/look.html")
        names: dict[bytes, str] = {}

        def shoot(glb: bytes, camera: str, yaw: float) -> Image.Image:
            if glb not in names:
                names[glb] = f"m{len(names)}.glb"
                (site / names[glb]).write_bytes(glb)
            pivot, cam = preview_camera(glb, camera, yaw)
            url = driver.execute_async_script(
                "const done = arguments[1]; window.shot(arguments[0]).then(done, e => done('error: ' + e));",
                {"model": f"{base}/{names[glb]}", "size": size, "yaw": yaw, "pivot": [float(v) for v in pivot],
                 "view": [float(v) for v in cam.view.reshape(-1)], "fov": cam.fov_deg, "near": cam.near})
            if url.startswith("error"):
                raise RuntimeError(url)
            return png_of(url)

        yield shoot


def main(out: Path) -> None:
    from workbench.gltf import build_avatar
    from workbench.options import HAIR_STYLES, ModelOptions, normalize_avatar_settings
    from workbench.render import grid

    rows, labels = [], []
    with threejs_studio() as shoot:
        for style in [h for h in HAIR_STYLES if h != "none"]:
            for gender, color in (("feminine", "#2B1B10"), ("masculine", "#E6CFA0")):
                s = normalize_avatar_settings({"gender": gender, "hair": {"style": style, "color": color},
                                               "skinTone": "#E0AC8A"})
                glb = build_avatar(s, ModelOptions(animations=("idle",)))
                rows.append([shoot(glb, "portrait", yaw) for _, yaw in VIEWS])
                labels.append(f"{style} {gender[0]} {color}")
    sheet = grid(rows, row_labels=labels, col_labels=[v for v, _ in VIEWS])
    sheet.convert("RGB").save(out, optimize=True)
    print(out, sheet.size)


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "docs" / "looks_hair_threejs.png")
