"""The hair sheet as three.js draws it (issue 36: look at the hair in what users' pages show).

``python data/make_hair_threejs.py [OUT]`` (default ``docs/looks_hair_threejs.png``): every hair style
in a dark and a light colour, front, back and three-quarter portraits, drawn by the pinned three.js
in headless Chromium (WebGL on SwiftShader) with ACES tone mapping and a studio environment
(``data/threejs_look/look.html``), each with the workbench preview's camera. Needs Chromium,
chromedriver and selenium (as the browser tests do) and the repository's ``node_modules``; it takes
minutes (a software GPU).
"""

from __future__ import annotations

import base64
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


def _browser(profile: str):
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    o = webdriver.ChromeOptions()
    o.binary_location = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
    for a in ("--headless=new", "--window-size=600,600", f"--user-data-dir={profile}", "--use-angle=swiftshader",
              "--enable-unsafe-swiftshader", "--disable-gpu-compositing", "--no-first-run", "--no-sandbox",
              "--disable-dev-shm-usage", "--force-device-scale-factor=1"):
        o.add_argument(a)
    driver = webdriver.Chrome(service=Service(shutil.which("chromedriver")), options=o)
    driver.set_script_timeout(600)
    return driver


def main(out: Path) -> None:
    from workbench.gltf import build_avatar
    from workbench.options import HAIR_STYLES, ModelOptions, normalize_avatar_settings
    from workbench.render import grid
    from workbench.render.framing import frame
    from workbench.render.pictures import preview_pose
    from workbench.render.scene import Model, Posed

    with tempfile.TemporaryDirectory() as folder:
        site = Path(folder)
        shutil.copy(PAGE / "look.html", site / "look.html")
        (site / "node_modules").symlink_to(ROOT / "node_modules")
        class Quiet(http.server.SimpleHTTPRequestHandler):
            def log_message(self, *args):
                pass

        handler = functools.partial(Quiet, directory=str(site))
        httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        threading.Thread(target=httpd.serve_forever, daemon=True).start()
        base = f"http://127.0.0.1:{httpd.server_address[1]}"
        driver = _browser(str(site / "profile"))
        try:
            driver.get(base + "/look.html")
            while not driver.execute_script("return window.pageReady === true"):
                time.sleep(0.1)
            rows, labels = [], []
            for style in [h for h in HAIR_STYLES if h != "none"]:
                for gender, color in (("feminine", "#2B1B10"), ("masculine", "#E6CFA0")):
                    s = normalize_avatar_settings({"gender": gender, "hair": {"style": style, "color": color},
                                                   "skinTone": "#E0AC8A"})
                    glb = build_avatar(s, ModelOptions(animations=("idle",)))
                    name = f"{style}-{gender}.glb"
                    (site / name).write_bytes(glb)
                    model = Model(glb, max_texture=1)
                    posed = model.posed(*preview_pose(model))
                    pts = posed.points()
                    pivot = (pts.min(0) + pts.max(0)) / 2
                    row = []
                    for _, yaw in VIEWS:
                        # The camera the workbench's preview of the figure turned by `yaw` would have.
                        a = np.radians(yaw)
                        turn = np.array([[np.cos(a), 0, np.sin(a)], [0, 1, 0], [-np.sin(a), 0, np.cos(a)]], np.float32)
                        turned = Posed(draws=[type(d)(**{**d.__dict__, "positions": (d.positions - pivot) @ turn.T + pivot})
                                              for d in posed.draws],
                                       joints={k: (v - pivot) @ turn.T + pivot for k, v in posed.joints.items()},
                                       joint_names=posed.joint_names)
                        cam = frame(turned, "portrait")
                        url = driver.execute_async_script(
                            "const done = arguments[1]; window.shot(arguments[0]).then(done, e => done('error: ' + e));",
                            {"model": f"{base}/{name}", "size": SIZE, "yaw": yaw, "pivot": [float(v) for v in pivot],
                             "view": [float(v) for v in cam.view.reshape(-1)], "fov": cam.fov_deg, "near": cam.near})
                        if url.startswith("error"):
                            raise RuntimeError(url)
                        row.append(Image.open(io.BytesIO(base64.b64decode(url.split(",", 1)[1]))).convert("RGBA"))
                    rows.append(row)
                    labels.append(f"{style} {gender[0]} {color}")
        finally:
            driver.quit()
            httpd.shutdown()
    sheet = grid(rows, row_labels=labels, col_labels=[v for v, _ in VIEWS])
    sheet.convert("RGB").save(out, optimize=True)
    print(out, sheet.size)


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "docs" / "looks_hair_threejs.png")
