"""Avatars drawn at random, in three renderers, for people to judge them by (issue 36, item 6: "look at it as a
product team would").

``python data/make_random_sheet.py [OUT_DIR] [ours] [threejs] [modelviewer]`` (default ``docs``, all three;
run from the repository with ``PYTHONPATH=.`` and the project's venv) writes one sheet per renderer:

- ``looks_random_ours.png``: the workbench's own renderer (:func:`workbench.render.render`, as the service's
  previews and ``data/make_looks_grid.py`` draw);
- ``looks_random_threejs.png``: three.js on the project's page (``data/threejs_look/look.html``: PBR Neutral,
  RoomEnvironment and rim lights, as ``data/make_hair_threejs.py`` draws);
- ``looks_random_modelviewer.png``: ``<model-viewer>`` 4.4 in its default neutral environment and tone mapping
  (the browser tests' page ``tests/browser/pages/model-viewer.html`` and ``mv-studio.js``, with the npm
  packages ``tools/install_test_tools.py`` installs in ``~/.cache/workbench-browser``).

The avatars are ``helpers.random_settings(12, seed=36, with_added=True)`` (``tests/helpers.py``): a seeded draw over every
allowed value of every field of the service's own settings schema, no hand picking, the same draw the
framing test (``tests/render/test_random_sheet_framing.py``) checks. Each row is one avatar, labelled with its
settings; the columns are the portrait, the full figure, and the full figure from behind, each with the camera
the workbench's preview of it frames, the avatar standing in the first frame of its own idle clip in every
renderer. The draw is seeded: the same code gives the same avatars, and two runs gave the same bytes in our
renderer and in model-viewer; three.js's sheet differed in 10 pixels of 3.3 million (a software GPU,
SwiftShader). The browsers need Chromium, chromedriver and selenium (as the browser tests do) and take minutes.
"""

from __future__ import annotations

import sys
from contextlib import contextmanager
from pathlib import Path

import numpy as np
from PIL import Image

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path[:0] = [str(HERE), str(ROOT / "tests")]

from make_hair_threejs import (
    png_of,
    preview_camera,
    serve,
    threejs_studio,
    wait_ready,
    yaw_matrix,
)
from make_looks_grid import BACKGROUND, _glb, save

SEED = 36
COUNT = 12
CELL = 256
VIEWS = (("portrait", "portrait", 0.0), ("full", "full", 0.0), ("back", "full", 180.0))
RENDERERS = ("ours", "threejs", "modelviewer")
TITLES = {"ours": "workbench renderer",
          "threejs": "three.js, the project's page (PBR Neutral, RoomEnvironment, rim lights)",
          "modelviewer": "model-viewer 4.4, default neutral environment"}


def label(k: int, s: dict) -> str:
    """An avatar's settings in five short lines.

    >>> print(label(0, {"gender": "feminine", "bodyShape": "slim", "height": 170.0, "skinTone": "#E0AC8A",
    ...     "hair": {"style": "bun", "color": "#2B1B10"}, "glasses": "clear", "outfit": {"top": "#FFFFFF",
    ...     "bottom": "#000000", "shoes": "#111111", "topStyle": "tee", "bottomStyle": "skirt"}}))
    #1 feminine slim 170 cm
    skin #E0AC8A
    hair bun #2B1B10
    tee #FFFFFF, skirt #000000
    shoes #111111, glasses clear
    """
    o, h = s.get("outfit", {}), s.get("hair", {})
    return (f"#{k + 1} {s.get('gender')} {s.get('bodyShape')} {s.get('height', 0):.0f} cm\n"
            f"skin {s.get('skinTone')}\nhair {h.get('style')} {h.get('color')}\n"
            f"{o.get('topStyle')} {o.get('top')}, {o.get('bottomStyle')} {o.get('bottom')}\n"
            f"shoes {o.get('shoes')}, glasses {s.get('glasses')}")


def on_background(im: Image.Image) -> Image.Image:
    """``im`` at the cell's size over the sheets' backdrop (model-viewer draws a transparent one)."""
    out = Image.new("RGBA", im.size, BACKGROUND + (255,))
    out.alpha_composite(im.convert("RGBA"))
    return out.resize((CELL, CELL), Image.LANCZOS) if out.size != (CELL, CELL) else out


def shoot_ours(glbs: list[bytes]) -> list[list[Image.Image]]:
    from workbench.render import render

    return [[render(glb, size=CELL, camera=cam, background=BACKGROUND, pose=(glb, 0.0), yaw_deg=yaw)
             for _, cam, yaw in VIEWS] for glb in glbs]


def shoot_threejs(glbs: list[bytes]) -> list[list[Image.Image]]:
    with threejs_studio(CELL) as shoot:
        return [[on_background(shoot(glb, cam, yaw)) for _, cam, yaw in VIEWS] for glb in glbs]


MV_SETUP = """
const v = document.getElementById('viewer');
// No clamp on the camera: the workbench's cameras stand nearer (portraits) and farther than its defaults.
v.setAttribute('min-camera-orbit', 'auto auto 0.01m');
v.setAttribute('max-camera-orbit', 'auto auto 100m');
v.setAttribute('min-field-of-view', '1deg');
v.setAttribute('max-field-of-view', '90deg');
"""
# The model's own idle clip, at its first frame, held (model-viewer shows the bind pose, a T, until played).
MV_POSE = """
const done = arguments[0];
const v = document.getElementById('viewer');
v.animationName = v.availableAnimations[0];
v.play();
setTimeout(() => { v.pause(); v.currentTime = 0; requestAnimationFrame(() => done(v.animationName)); }, 1500);
"""


def mv_orbit(pivot: np.ndarray, cam, yaw: float) -> dict:
    """model-viewer's target, orbit and field of view for ``cam`` seeing the model turned by ``yaw`` about the
    vertical through ``pivot``: the model stays put and the camera goes round it by ``-yaw``."""
    rot, t = cam.view[:3, :3].astype(float), cam.view[:3, 3].astype(float)
    eye = -rot.T @ t
    ahead = -rot[2]                      # the camera looks down its -z
    target = eye + ahead * float(np.dot(pivot - eye, ahead))
    turn = yaw_matrix(-yaw)
    eye, target = (turn @ (eye - pivot) + pivot), (turn @ (target - pivot) + pivot)
    d = eye - target
    r = float(np.linalg.norm(d))
    theta, phi = np.degrees(np.arctan2(d[0], d[2])), np.degrees(np.arccos(d[1] / r))
    return {"target": " ".join(f"{v:.4f}m" for v in target), "orbit": f"{theta:.3f}deg {phi:.3f}deg {r:.4f}m",
            "fov": f"{cam.fov_deg:.3f}deg"}


def mv_view(glb: bytes, camera: str, yaw: float) -> dict:
    """:func:`mv_orbit` for the workbench preview's ``camera`` of ``glb``."""
    pivot, cam = preview_camera(glb, camera, yaw)
    return mv_orbit(pivot, cam, yaw)


@contextmanager
def modelviewer_page(window: int = 900):
    """(page base URL, its site folder, the driver) of the browser tests' model-viewer page in headless Chromium,
    its studio script loaded and set up (``MV_SETUP``)."""
    from browser.conftest import NPM_HOME

    pages = ROOT / "tests" / "browser" / "pages"
    files = {"model-viewer.html": pages / "model-viewer.html", "mv-studio.js": pages / "mv-studio.js"}
    with serve(files, NPM_HOME / "node_modules", window=window) as (base, site, driver):
        wait_ready(driver, base + "/model-viewer.html")
        driver.execute_async_script("const done = arguments[0]; import('./mv-studio.js').then(() => done(true));")
        driver.execute_script(MV_SETUP)
        yield base, site, driver


def shoot_modelviewer(glbs: list[bytes]) -> list[list[Image.Image]]:
    rows = []
    with modelviewer_page() as (base, site, driver):

        def show(view: dict) -> str:
            return driver.execute_async_script(
                "const done = arguments[1]; window.mvStudio.show(arguments[0]).then(done, e => done('error: ' + e));",
                view)

        for k, glb in enumerate(glbs):
            (site / f"m{k}.glb").write_bytes(glb)
            views = [{"model": f"{base}/m{k}.glb", **mv_view(glb, cam, yaw)} for _, cam, yaw in VIEWS]
            show(views[0])                   # loads the model
            driver.execute_async_script(MV_POSE)
            row = []
            for view in views:
                url = show(view)
                if url.startswith("error"):
                    raise RuntimeError(url)
                row.append(on_background(png_of(url)))
            rows.append(row)
    return rows


def sheet(rows: list[list[Image.Image]], labels: list[str], title: str) -> Image.Image:
    from PIL import ImageDraw, ImageFont

    from workbench.render import grid

    body = grid(rows, row_labels=labels, col_labels=[v for v, _, _ in VIEWS])
    out = Image.new("RGBA", (body.width, body.height + 34), (255, 255, 255, 255))
    ImageDraw.Draw(out).text((8, 6), f"{title}: {len(rows)} avatars drawn at random (seed {SEED})",
                             fill=(0, 0, 0, 255), font=ImageFont.load_default(size=20))
    out.alpha_composite(body, (0, 34))
    return out


SHOOT = {"ours": shoot_ours, "threejs": shoot_threejs, "modelviewer": shoot_modelviewer}


def main(out_dir: Path, which: tuple[str, ...] = RENDERERS) -> None:
    from helpers import random_settings

    settings = random_settings(COUNT, SEED, with_added=True)
    labels = [label(k, s) for k, s in enumerate(settings)]
    glbs = [_glb(s) for s in settings]
    for name in which:
        save(sheet(SHOOT[name](glbs), labels, TITLES[name]), out_dir / f"looks_random_{name}.png")


if __name__ == "__main__":
    args = sys.argv[1:]
    chosen = tuple(a for a in args if a in RENDERERS) or RENDERERS
    rest = [a for a in args if a not in RENDERERS]
    main(Path(rest[0]) if rest else ROOT / "docs", chosen)
