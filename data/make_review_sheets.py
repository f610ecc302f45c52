"""Sheets of avatars drawn at random, for blind reviewers (issue 46: "judge from pictures you did not pick").

``python data/make_review_sheets.py OUT_DIR [--count 12] [--seed 46] [--per-sheet 4] [--cell 288]
[--renderers ours,threejs,modelviewer] [--threejs-look typical]`` (from the repository, ``PYTHONPATH=.``, the
project's venv) writes into ``OUT_DIR``:

- ``sheet-NN-RENDERER.png``: ``--per-sheet`` avatars a sheet, one row each, labelled with an index number only
  (``#1``, ``#2``...: nothing that tells a setting), in eight views: the full figure from the front, at three
  quarters and from behind, the portrait from the front and at three quarters, and close-ups of the mouth in
  ``mouthOpen``, ``viseme_aa`` and ``mouthSmile``. One sheet per renderer: ``ours`` (the service's previews,
  :func:`workbench.render.render`), ``threejs`` (a typical product page, ACES filmic at exposure 1 in
  ``RoomEnvironment`` alone, ``data/threejs_look/look.html``'s ``typical`` look, what every blind review saw;
  ``--threejs-look aces`` draws the project's rig for ACES pages: the room at 0.6, a warm key and two rim lights,
  exposure 0.8, a contact shadow; ``project`` the project's PBR Neutral page) and ``modelviewer`` (``<model-viewer>`` in its default neutral environment
  and tone mapping, ``tests/browser/pages/model-viewer.html``);
- ``key.json``, for whoever reads the ratings, not for the reviewers: each index's settings, sheet and row,
  the views and what each renderer is, and any avatar skipped (with why).

The avatars are :func:`review_settings`, ``helpers.random_settings(count, seed, with_added=True, heads=True,
features=True, palettes=True)`` (``tests/helpers.py``; from seed :data:`SPREAD_FROM` on with ``spread=True`` too, the face
controls spread over their ranges): every
field of the service's settings schema drawn (values added later too: ``with_added``; the head's own width and
forehead, review S's "one base head": ``heads``, so a seed drawn before review S, e.g. review R's 4628, now shows
other heads than its reviewers saw, while the tests pinned to it keep theirs; the eyes' spacing and tilt and the nose's
bridge, review V's "the same person in 12 wigs": ``features``, likewise), skin tones from light to deep, mostly
natural hair and eye colours, clothes in colours a person would pick together (``palettes``, review V's "neon colour
combinations": one accent and neutrals, by a stream of their own, so every other field of a seed drawn before keeps
its value), stances too. Each avatar is its LOD 0 model with its idle clip, standing in its
first clip's first frame in every renderer (its stance: the ``pose`` clip the model carries first when its
``pose`` setting is not ``relaxed``, else idle's), seen by the cameras the service's previews frame (the close-ups:
the face from over the brows to under the chin, at least 12 cm across, so the smile's squint and cheeks are in it,
the open mouths' down to the chin their jaw drops lowest); a face shape is set as the model's default morph weight (glTF's ``mesh.weights``,
which every viewer reads), so the three renderers draw the same file. An avatar that fails to build (a
setting a body does not support yet) is skipped with a message. The browsers need Chromium, chromedriver,
selenium and the npm packages ``tools/install_test_tools.py`` installs (as the browser tests do); the three
renderers draw at once, the browsers on a software GPU: about four minutes for 12 avatars on a quiet
2-core machine.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import json
import struct
import sys
import threading
import time
import traceback
from pathlib import Path

import numpy as np
from PIL import Image, ImageDraw, ImageFont

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path[:0] = [str(HERE), str(ROOT / "tests")]

from make_hair_threejs import png_of, preview_camera, serve, wait_ready  # noqa: E402
from make_looks_grid import BACKGROUND, _glb  # noqa: E402
from make_random_sheet import modelviewer_page, mv_orbit  # noqa: E402

# (column title, framing, yaw in degrees, face shape at full weight or None)
VIEWS = (("front", "full", 0.0, None), ("three-quarter", "full", 35.0, None), ("back", "full", 180.0, None),
         ("portrait", "portrait", 0.0, None), ("portrait 3/4", "portrait", 35.0, None),
         ("mouthOpen", "open", 0.0, "mouthOpen"), ("viseme_aa", "open", 0.0, "viseme_aa"),
         ("mouthSmile", "smile", 0.0, "mouthSmile"))
RENDERERS = ("ours", "threejs", "modelviewer")
# The three.js look the sheets draw: issue 46 judges three.js under ACES filmic with RoomEnvironment as a typical
# product page draws it (look.html's "typical": the bare room at exposure 1, what every blind review saw), so that the
# sheets' three.js column measures the asset rather than our lighting; "aces" is the project's rig for ACES pages
# (its exposure, key and rim lights, contact shadow), "project" the project's own page (PBR Neutral).
THREEJS_LOOK = "typical"
TITLES = {"ours": "workbench renderer (the service's previews)",
          "threejs": {"typical": "three.js, a typical page (ACES filmic, RoomEnvironment)",
                      "project": "three.js, the project's page (PBR Neutral, RoomEnvironment, rim lights)",
                      "aces": "three.js, the project's page under ACES filmic (RoomEnvironment, rim lights, "
                              "contact shadow)"},
          "modelviewer": "model-viewer 4, default neutral environment and tone mapping"}
# The mouth close-up: 12 cm across at the mouth, the previews' portrait field of view.
MOUTH_SPAN = 0.12
MOUTH_FOV = 25.0
# The smile's close-up (:func:`smile_camera`): the face from SMILE_ABOVE over the brows' middle (their mesh's mean
# height: the brows whole, and the glasses' frames, whose tops lie 9 to 19 mm over the eyes' centres, with skin over
# them) to SMILE_BELOW under the chin, the cheeks between. Centred on the mouth, the 12 cm frame ran through the eyes,
# on some faces under their centres (review T's #12), so a reviewer saw a mouth stretched under a face that did not
# move (blind review T, defect 2); from 14 mm over the eyes' centres (reviews T to AM) it cut the brows and the
# sunglasses' tops, "sunglasses become huge opaque slabs covering the upper face in close-ups" (blind review AM's
# third defect). Metres; never narrower than MOUTH_SPAN.
SMILE_ABOVE = 0.014
SMILE_BELOW = 0.008
# model-viewer: the element drawn at the cell's size (its page's 512 px cost a software GPU three times the
# pixels), and a model held in its first clip's first frame once the clip has started (model-viewer shows the
# bind pose, a T, until it plays), with no crossfade: model-viewer blends 300 ms from the clip it played before,
# and a stance loaded after a relaxed avatar was held half in the last one's idle (blind review J's #2 and #8).
MV_SIZE = "const v = document.getElementById('viewer'); v.style.width = v.style.height = arguments[0] + 'px';"
MV_POSE = """
const done = arguments[0];
const v = document.getElementById('viewer');
v.animationCrossfadeDuration = 0;   // (300 ms by default: from the last model's idle, a stance was caught mid-blend)
v.animationName = v.availableAnimations[0];
v.play();
const start = performance.now();
const hold = () => {
  if (v.currentTime <= 0 && performance.now() - start < 20000) return setTimeout(hold, 30);
  v.pause(); v.currentTime = 0; requestAnimationFrame(() => done(v.animationName));
};
hold();
"""


def with_weights(glb: bytes, weights: dict[str, float]) -> bytes:
    """``glb`` with each mesh's default morph weights (glTF ``mesh.weights``) set by target name (its
    ``extras.targetNames``): the same file for every viewer, which shows a mesh's default weights.

    >>> from helpers import arkit_glb
    >>> g = with_weights(arkit_glb(), {"jawOpen": 1.0})
    >>> doc = json.loads(g[20:20 + struct.unpack("<I", g[12:16])[0]])
    >>> head = next(m for m in doc["meshes"] if m["name"] == "Head")
    >>> head["weights"][head["extras"]["targetNames"].index("jawOpen")]
    1.0
    """
    n = struct.unpack("<I", glb[12:16])[0]
    doc = json.loads(glb[20:20 + n])
    for mesh in doc["meshes"]:
        names = mesh.get("extras", {}).get("targetNames", [])
        if names:
            mesh["weights"] = [float(weights.get(t, w)) for t, w in zip(names, mesh.get("weights", [0.0] * len(names)), strict=True)]
    text = json.dumps(doc, separators=(",", ":")).encode()
    text += b" " * (-len(text) % 4)
    rest = glb[20 + n:]
    header = struct.pack("<III", 0x46546C67, 2, 12 + 8 + len(text) + len(rest))       # "glTF", version 2, length
    return header + struct.pack("<II", len(text), 0x4E4F534A) + text + rest           # the JSON chunk, then the rest


def _rest_face(glb: bytes):
    """The model in the first frame of its own first clip with the file's default face weights (at rest, for the
    close-ups' framing: each close-up's camera the same whatever shape its column shows)."""
    return _faces(glb)[0]


def _faces(glb: bytes, shapes: tuple[str, ...] = ()) -> list:
    """:func:`_rest_face`, then the same frame with each of ``shapes`` at full weight (the file read once)."""
    from workbench.render.scene import Model, load_clip

    model, clip = Model(glb, max_texture=1), load_clip(glb)
    return [model.posed(clip, 0.0)] + [model.posed(clip, 0.0, morphs={shape: 1.0}) for shape in shapes]


def _mesh(posed, name: str) -> np.ndarray:
    return np.concatenate([d.positions for d in posed.draws if d.mesh_name == name])


def _close_up(posed, centre, span: float):
    """(pivot, camera): a front close-up at ``centre`` (x, y; its depth the skin's front within 3 cm of it, else the
    teeth's front), ``span`` metres across at :data:`MOUTH_FOV`, the pivot the model's bounding box's centre."""
    from workbench.render.framing import look_at
    from workbench.render.raster import Camera

    body = _mesh(posed, "Body")
    centre = np.array([centre[0], centre[1], 0.0])
    near = body[np.linalg.norm(body[:, :2] - centre[:2], axis=1) < 0.03]
    centre[2] = float(near[:, 2].max()) if len(near) else float(_mesh(posed, "Teeth")[:, 2].max())
    d = span / 2 / np.tan(np.radians(MOUTH_FOV) / 2) + 0.02
    pts = posed.points()
    return (pts.min(0) + pts.max(0)) / 2, Camera(view=look_at(centre + [0, 0, d], centre), fov_deg=MOUTH_FOV,
                                                 near=0.01)


def mouth_camera(glb: bytes):
    """(pivot, camera): the mouth at the picture's centre, :data:`MOUTH_SPAN` across, the model at rest
    (:func:`_rest_face`, so the mouth's close-ups share one camera)."""
    posed = _rest_face(glb)
    teeth = _mesh(posed, "Teeth")
    return _close_up(posed, (teeth[:, 0].mean(), teeth[:, 1].mean()), MOUTH_SPAN)


# chin_bottom: the face's middle line (metres either side of the mouth's x: a vertex or two of the base mesh across),
# searched from under the lower lip (CHIN_FROM under the mouth: the lip's own bottom is the nearest low front point) to
# CHIN_TO under it (past any chin, short of the chest), among points no more than CHIN_DEPTH behind the mouth (the
# neck's front and the hair behind the head left out); the chin's front CHIN_FRONT deep (its underside turns back
# towards the neck from there).
MIDDLE, CHIN_FROM, CHIN_TO, CHIN_DEPTH, CHIN_FRONT = 0.006, 0.012, 0.10, 0.06, 0.010


def chin_bottom(body: np.ndarray, centre: np.ndarray) -> float:
    """The height (metres) of the chin's lowest front point under a mouth at ``centre`` (x, y, z) among the skin's
    points ``body``: on the face's middle line, the lowest point within CHIN_FRONT of the chin's front-most depth.

    >>> y = np.linspace(1.40, 1.48, 9)  # a profile: the chin's front to 1.42 m, under it 4 cm further back
    >>> round(chin_bottom(np.c_[np.zeros(9), y, np.where(y < 1.415, 0.05, 0.09)], np.array([0.0, 1.48, 0.1])), 2)
    1.42
    """
    line = body[(np.abs(body[:, 0] - centre[0]) < MIDDLE) & (body[:, 1] < centre[1] - CHIN_FROM)
                & (body[:, 1] > centre[1] - CHIN_TO) & (body[:, 2] > centre[2] - CHIN_DEPTH)]
    front = line[:, 2].max()
    return float(line[line[:, 2] > front - CHIN_FRONT, 1].min())


def smile_camera(glb: bytes, opened: tuple[str, ...] = ()):
    """(pivot, camera) for the mouthSmile close-up: the face from over the brows to under the chin
    (:data:`SMILE_ABOVE`, :data:`SMILE_BELOW`), centred halfway between those two, the model at rest as for
    :func:`mouth_camera` (the same field of view, at least :data:`MOUTH_SPAN` across), so the lower lids' squint and
    the cheeks' raise are in the picture with the lips. With face shapes ``opened``, the chin's lowest under any of
    them (each at full weight) instead of at rest: the open mouths' close-ups (:func:`open_camera`).

    >>> y = np.linspace(1.40, 1.48, 9)  # chin_bottom's profile: the picture's bottom edge 8 mm under its chin
    >>> round(chin_bottom(np.c_[np.zeros(9), y, np.where(y < 1.415, 0.05, 0.09)], np.array([0.0, 1.48, 0.1])) - SMILE_BELOW, 3)
    1.412
    """
    posed, *shaped = _faces(glb, opened)
    teeth = _mesh(posed, "Teeth")
    mouth = np.array([teeth[:, 0].mean(), teeth[:, 1].mean(), teeth[:, 2].max()])
    top = float(_mesh(posed, "Eyebrows")[:, 1].mean()) + SMILE_ABOVE
    bottom = min(chin_bottom(_mesh(p, "Body"), mouth) for p in (posed, *shaped)) - SMILE_BELOW
    return _close_up(posed, (mouth[0], (top + bottom) / 2), max(MOUTH_SPAN, top - bottom))


def open_camera(glb: bytes):
    """(pivot, camera) for the open mouths' close-ups (mouthOpen, viseme_aa): :func:`smile_camera`'s face, from over
    the brows to under the chin its jaw drops lowest, one camera for both. (Until review AM the 12 cm
    :func:`mouth_camera`: the eyes and glasses cut off at the top and a collar at a corner, blind review AL's eighth
    defect; a mouth judged without the face it moves.)"""
    return smile_camera(glb, OPEN_SHAPES)


# The face shapes the open mouths' close-ups show (VIEWS' "open" framing).
OPEN_SHAPES = tuple(shape for _, kind, _, shape in VIEWS if kind == "open")
# The close-ups' cameras by the views' framing (VIEWS): each avatar's own, drawn by our renderer in its rest pose
# ("mouth", the 12 cm close-up the open mouths had until review AM, for the tests that measure in it).
CLOSE_UPS = {"mouth": mouth_camera, "open": open_camera, "smile": smile_camera}


class Avatar:
    """One avatar's files and cameras: the model, its face-shape variants and per view (pivot, camera, yaw)."""

    def __init__(self, settings: dict):
        self.settings = settings
        self.glb = _glb(settings)
        self.files = [self.glb if shape is None else with_weights(self.glb, {shape: 1.0}) for _, _, _, shape in VIEWS]
        shots = {kind: CLOSE_UPS[kind](self.glb) for _, kind, _, _ in VIEWS if kind in CLOSE_UPS}
        self.cameras = [(*(shots[kind] if kind in shots else preview_camera(self.glb, kind, yaw)), yaw)
                        for _, kind, yaw, _ in VIEWS]


def on_background(im: Image.Image, cell: int) -> Image.Image:
    out = Image.new("RGBA", im.size, BACKGROUND + (255,))
    out.alpha_composite(im.convert("RGBA"))
    return out.resize((cell, cell), Image.LANCZOS) if out.size != (cell, cell) else out


def failed(cell: int) -> Image.Image:
    im = Image.new("RGBA", (cell, cell), (200, 200, 200, 255))
    ImageDraw.Draw(im).text((8, 8), "not drawn", fill=(0, 0, 0, 255), font=ImageFont.load_default(size=16))
    return im


def shoot_ours(avatars: list[Avatar], cell: int, _look: str) -> list[list[Image.Image]]:
    from workbench.render import render
    from workbench.render.pictures import SUPERSAMPLE
    from workbench.render.raster import draw
    from workbench.render.scene import Model, load_clip

    rows = []
    for a in avatars:
        row = []
        for (_, kind, yaw, _), glb, (_, cam, _) in zip(VIEWS, a.files, a.cameras, strict=True):
            if kind in CLOSE_UPS:
                posed = Model(glb, max_texture=2 * cell).posed(load_clip(glb), 0.0)
                row.append(Image.fromarray(draw(posed, cam, cell, ss=SUPERSAMPLE, background=BACKGROUND), "RGBA"))
            else:
                row.append(render(glb, size=cell, camera=kind, background=BACKGROUND, pose=(glb, 0.0), yaw_deg=yaw))
        rows.append(row)
    return rows


@contextlib.contextmanager
def threejs_look_page():
    """(base URL, folder, browser): look.html ready in a headless Chromium, for :func:`shoot_threejs`'s ``page``.
    A test that shoots several avatars keeps one open (one Chromium start, one room's light, shaders compiled once)."""
    from browser.conftest import NPM_HOME

    with serve({"look.html": HERE / "threejs_look" / "look.html"}, NPM_HOME / "node_modules") as page:
        wait_ready(page[2], page[0] + "/look.html")
        yield page


def shoot_threejs(avatars: list[Avatar], cell: int, look: str, page=None, tune: dict | None = None
                  ) -> list[list[Image.Image]]:
    """Each avatar's views in three.js with ``look``, on ``page`` (:func:`threejs_look_page`) or one of its own;
    ``tune``: values that replace the look's (``exposure``, ``env``, ``rig``, ``shadow``: a trial's)."""
    if page is None:
        with threejs_look_page() as own:
            return shoot_threejs(avatars, cell, look, own, tune)
    base, site, driver = page
    rows = []
    for k, a in enumerate(avatars):
        row = []
        for j, (glb, (pivot, cam, yaw)) in enumerate(zip(a.files, a.cameras, strict=True)):
            # Named by its bytes: the page keeps its last model by URL, and a kept page sees many avatars' files.
            name = hashlib.sha256(glb).hexdigest()[:16] + ".glb"
            (site / name).write_bytes(glb)
            url = driver.execute_async_script(
                "const done = arguments[1]; window.shot(arguments[0]).then(done, e => done('error: ' + e));",
                {"model": f"{base}/{name}", "size": cell, "yaw": yaw, "pivot": [float(v) for v in pivot],
                 "view": [float(v) for v in cam.view.reshape(-1)], "fov": cam.fov_deg, "near": cam.near,
                 "look": look, "tune": tune or {}})
            row.append(failed(cell) if url.startswith("error") else on_background(png_of(url), cell))
            if url.startswith("error"):
                print(f"three.js, avatar #{k + 1}, view {VIEWS[j][0]}: {url}", file=sys.stderr)
        rows.append(row)
    return rows


def shoot_modelviewer(avatars: list[Avatar], cell: int, _look: str) -> list[list[Image.Image]]:
    rows = []
    with modelviewer_page() as (base, site, driver):
        driver.execute_script(MV_SIZE, cell)
        for k, a in enumerate(avatars):
            row, loaded = [], None
            for j, (glb, (pivot, cam, yaw)) in enumerate(zip(a.files, a.cameras, strict=True)):
                name = f"a{k}v{j}.glb" if glb is not a.glb else f"a{k}.glb"
                (site / name).write_bytes(glb)
                view = {"model": f"{base}/{name}", **mv_orbit(np.asarray(pivot, float), cam, yaw)}
                show = ("const done = arguments[1]; "
                        "window.mvStudio.show(arguments[0]).then(done, e => done('error: ' + e));")
                if loaded != name:               # a new file: load it, then hold its idle clip's first frame
                    driver.execute_async_script(show, view)
                    driver.execute_async_script(MV_POSE)
                    loaded = name
                url = driver.execute_async_script(show, view)
                row.append(failed(cell) if url.startswith("error") else on_background(png_of(url), cell))
                if url.startswith("error"):
                    print(f"model-viewer, avatar #{k + 1}, view {VIEWS[j][0]}: {url}", file=sys.stderr)
            rows.append(row)
    return rows


SHOOT = {"ours": shoot_ours, "threejs": shoot_threejs, "modelviewer": shoot_modelviewer}


def sheet(rows: list[list[Image.Image]], indices: list[int], title: str) -> Image.Image:
    from workbench.render import grid

    body = grid(rows, row_labels=[f"#{i}" for i in indices], col_labels=[v[0] for v in VIEWS])
    out = Image.new("RGBA", (body.width, body.height + 34), (255, 255, 255, 255))
    ImageDraw.Draw(out).text((8, 6), title, fill=(0, 0, 0, 255), font=ImageFont.load_default(size=20))
    out.alpha_composite(body, (0, 34))
    return out


# The first seed whose face controls are spread over their range (``random_settings``' ``spread``: review X's seed 4634
# drew eleven of twelve noseWidth values under 0; review Y, 4635, was drawn before it); the seeds before it, which tests pin reviews' avatars to, keep theirs.
SPREAD_FROM = 4636
# From this seed on (review AM's) the values added after tests were pinned to the sheets' draws (helpers.LATER: the
# ``wave`` stance) are drawn too; the seeds before keep the avatars their reviews and tests saw.
LATER_FROM = 4657


def review_settings(count: int, seed: int) -> list[dict]:
    """The settings of the sheets' ``count`` avatars for ``seed`` (see the module's docstring).

    >>> [s["outfit"]["topStyle"] for s in review_settings(2, 4632)]
    ['longsleeve', 'tee']
    >>> sorted(s["face"]["noseWidth"] for s in review_settings(4, SPREAD_FROM))
    [-1.0, -0.2, 0.2, 0.9]
    """
    from helpers import random_settings

    return random_settings(count, seed, with_added=True, heads=True, features=True, palettes=True,
                           spread=seed >= SPREAD_FROM, recent=seed >= LATER_FROM)


def main(out: Path, count: int, seed: int, per_sheet: int, cell: int, renderers: tuple[str, ...], look: str) -> None:
    out.mkdir(parents=True, exist_ok=True)
    t0 = time.time()
    avatars, indices, skipped = [], [], []
    for k, s in enumerate(review_settings(count, seed)):
        try:
            avatars.append(Avatar(s))
            indices.append(k + 1)
        except Exception as e:           # a setting a body cannot build yet: leave that avatar out, say so
            print(f"avatar #{k + 1} skipped: {type(e).__name__}: {e}", file=sys.stderr)
            skipped.append({"index": k + 1, "settings": s, "error": f"{type(e).__name__}: {e}"})
    print(f"{len(avatars)} avatars built in {time.time() - t0:.0f} s", file=sys.stderr)

    results: dict[str, list] = {}

    def run(name: str) -> None:
        try:
            results[name] = SHOOT[name](avatars, cell, look)
        except Exception:
            traceback.print_exc()
            results[name] = [[failed(cell) for _ in VIEWS] for _ in avatars]
        print(f"{name} drawn at {time.time() - t0:.0f} s", file=sys.stderr)

    # The browsers draw on their own processes: all three renderers at once.
    threads = [threading.Thread(target=run, args=(name,)) for name in renderers if name != "ours"]
    for t in threads:
        t.start()
    if "ours" in renderers:
        run("ours")
    for t in threads:
        t.join()

    key = {"seed": seed, "count": count, "views": [v[0] for v in VIEWS],
           "renderers": {r: (TITLES[r][look] if r == "threejs" else TITLES[r]) for r in renderers},
           "avatars": [], "skipped": skipped}
    for n, start in enumerate(range(0, len(avatars), per_sheet)):
        part = slice(start, start + per_sheet)
        for r in renderers:
            title = f"Sheet {n + 1}: {key['renderers'][r]}"
            sheet(results[r][part], indices[part], title).save(out / f"sheet-{n + 1:02d}-{r}.png")
        for row, (i, a) in enumerate(zip(indices[part], avatars[part], strict=True)):
            key["avatars"].append({"index": i, "sheet": n + 1, "row": row + 1, "settings": a.settings})
    (out / "key.json").write_text(json.dumps(key, indent=1) + "\n")
    print(f"sheets in {out} after {time.time() - t0:.0f} s", file=sys.stderr)


if __name__ == "__main__":
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("out", type=Path)
    p.add_argument("--count", type=int, default=12)
    p.add_argument("--seed", type=int, default=46)
    p.add_argument("--per-sheet", type=int, default=4)
    p.add_argument("--cell", type=int, default=288)
    p.add_argument("--renderers", default=",".join(RENDERERS))
    p.add_argument("--threejs-look", choices=("aces", "typical", "project"), default=THREEJS_LOOK)
    a = p.parse_args()
    chosen = tuple(r for r in a.renderers.split(",") if r)
    unknown = set(chosen) - set(RENDERERS)
    if unknown:
        p.error(f"--renderers: {', '.join(sorted(unknown))} not among {', '.join(RENDERERS)}")
    main(a.out, a.count, a.seed, a.per_sheet, a.cell, chosen, a.threejs_look)
