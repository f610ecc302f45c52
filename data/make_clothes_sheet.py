"""The clothes, shoes and glasses up close, for people to judge them by (issue 46, items 3, 4 and 7).

``python data/make_clothes_sheet.py [OUT] [COUNT] [SEED] [threejs]`` (default ``docs/looks_clothes.png``, 6
avatars, seed 46; run from the repository with ``PYTHONPATH=.`` and the project's venv) draws seeded random
avatars (``helpers.random_settings``: every field drawn, any colour for the clothes) standing in the first
frame of their own idle clip, one row each: the full figure from the front, at three quarters and from behind,
then close-ups framed on the body's joints: the neckline, a cuff, the top's hem and the bottom's hem, the
hood or the back of the neck from behind, the shoes, and the glasses (front and side). With ``threejs`` the
same cells come from three.js in the project's studio page (``data/threejs_look/look.html``, as
``data/make_random_sheet.py`` draws), beside ours: ``OUT`` with ``_threejs`` before its suffix.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path[:0] = [str(HERE), str(ROOT / "tests")]

CELL = 256
BACKGROUND = (236, 238, 242)


def _glb(settings: dict) -> bytes:
    from workbench.gltf import build_avatar
    from workbench.options import ModelOptions, normalize_avatar_settings

    return build_avatar(normalize_avatar_settings(settings), ModelOptions(lod=0, animations=("idle",)))


def close_ups(posed) -> list[tuple[str, np.ndarray, float, float, float]]:
    """(label, target, distance, yaw, elevation) per close-up, from the posed model's joints."""
    j = posed.joints
    neck, chest, head = j["Neck"], j["Spine2"], j["Head"]
    hips, knees, feet = j["Hips"], (j["LeftLeg"] + j["RightLeg"]) / 2, (j["LeftFoot"] + j["RightFoot"]) / 2
    return [("neckline", neck * 0.6 + chest * 0.4, 0.5, 0.0, 8.0),
            ("sleeve", j["LeftForeArm"] * 0.8 + j["LeftArm"] * 0.2, 0.75, -70.0, 0.0),
            ("cuff", j["LeftHand"] * 0.7 + j["LeftForeArm"] * 0.3, 0.45, -60.0, 0.0),
            ("hems", (hips + knees) / 2 - np.array([0, 0.05, 0]), 0.9, 20.0, 0.0),
            ("back neck", neck * 0.7 + chest * 0.3, 0.6, 180.0, 10.0),
            ("hood 3/4", neck * 0.7 + chest * 0.3, 0.6, -50.0, 10.0),
            ("shoes", feet + np.array([0, -0.04, 0.05]), 0.7, 30.0, 25.0),
            ("glasses", head + np.array([0, 0.08, 0.06]), 0.42, 0.0, 0.0),
            ("glasses side", head + np.array([0, 0.08, 0.0]), 0.42, -90.0, 0.0)]


def shoot_ours(glb: bytes) -> list:
    from workbench.render import render
    from workbench.render.framing import orbit
    from workbench.render.pictures import SUPERSAMPLE, ground_shadow
    from workbench.render.raster import draw
    from workbench.render.scene import Model, load_clip

    cells = [render(glb, size=CELL, camera="full", background=BACKGROUND, pose=(glb, 0.0), yaw_deg=yaw)
             for yaw in (0.0, 45.0, 180.0)]
    model = Model(glb, max_texture=CELL * SUPERSAMPLE * 2)
    posed = model.posed(load_clip(glb), 0.0)
    from PIL import Image

    for _, target, dist, yaw, elev in close_ups(posed):
        cam = orbit(target, dist, yaw, elev, fov_deg=30.0)
        cells.append(Image.fromarray(draw(posed, cam, CELL, ss=SUPERSAMPLE, background=BACKGROUND,
                                          shadow=ground_shadow(posed)), "RGBA"))
    return cells


def main(out: Path, count: int, seed: int, threejs: bool) -> None:
    from helpers import random_settings
    from make_random_sheet import label

    from workbench.body.hair.styles import STYLES as HAIR
    from workbench.render import grid

    settings = random_settings(count, seed=seed)
    for s in settings:
        # (Styles the hair's own round adds may not be built yet on this branch: drawn as long hair then.)
        if s["hair"]["style"] not in HAIR and s["hair"]["style"] != "none":
            s["hair"]["style"] = "long"
    glbs = [_glb(s) for s in settings]
    cols = ["front", "three-quarter", "back"] + [c[0] for c in close_ups(_dummy())]
    labels = [label(k, s) for k, s in enumerate(settings)]
    rows = [shoot_ours(g) for g in glbs]
    grid(rows, row_labels=labels, col_labels=cols).convert("RGB").save(out, optimize=True)
    print(out)
    if threejs:
        rows = shoot_threejs(glbs)
        path = out.with_name(out.stem + "_threejs" + out.suffix)
        grid(rows, row_labels=labels, col_labels=cols).convert("RGB").save(path, optimize=True)
        print(path)


class _dummy:
    def __init__(self):
        z = np.zeros(3)
        self.joints = {k: z for k in ("Neck", "Spine2", "LeftHand", "LeftForeArm", "LeftArm", "Hips", "LeftLeg",
                                      "RightLeg", "LeftFoot", "RightFoot", "Head")}


def shoot_threejs(glbs: list[bytes]) -> list:
    """The same cells in three.js's studio: the page's camera set from the same view matrices."""
    from make_hair_threejs import PAGE, png_of, preview_camera, serve, wait_ready
    from make_random_sheet import on_background

    from workbench.render.framing import orbit
    from workbench.render.scene import Model, load_clip

    rows = []
    with serve({"look.html": PAGE / "look.html"}, ROOT / "node_modules") as (base, site, driver):
        wait_ready(driver, base + "/look.html")
        for n, glb in enumerate(glbs):
            (site / f"m{n}.glb").write_bytes(glb)
            posed = Model(glb, max_texture=1).posed(load_clip(glb), 0.0)
            shots = []
            for yaw in (0.0, 45.0, 180.0):
                pivot, cam = preview_camera(glb, "full", yaw)
                shots.append((yaw, pivot, cam))
            for _, target, dist, yaw, elev in close_ups(posed):
                # The page turns the model by ``yaw`` about ``pivot``; the camera is the unturned one.
                cam = orbit(target, dist, 0.0, elev, fov_deg=30.0)
                shots.append((yaw, np.asarray(target), cam))
            row = []
            for yaw, pivot, cam in shots:
                url = driver.execute_async_script(
                    "const done = arguments[1]; window.shot(arguments[0]).then(done, e => done('error: ' + e));",
                    {"model": f"{base}/m{n}.glb", "size": CELL, "yaw": yaw, "pivot": [float(v) for v in pivot],
                     "view": [float(v) for v in cam.view.reshape(-1)], "fov": cam.fov_deg, "near": cam.near})
                if url.startswith("error"):
                    raise RuntimeError(url)
                row.append(on_background(png_of(url)))
            rows.append(row)
    return rows


if __name__ == "__main__":
    args = sys.argv[1:]
    threejs = "threejs" in args
    args = [a for a in args if a != "threejs"]
    main(Path(args[0]) if args else ROOT / "docs" / "looks_clothes.png", int(args[1]) if len(args) > 1 else 6,
         int(args[2]) if len(args) > 2 else 46, threejs)
