"""Benchmarks of the AvatarViewer: plain ``model.view()`` in the browser as people meet it (issue 48), and
the kernel's frames against the renderer as it was before the viewer (git 9fa7291, issue 18).

Run: ``PYTHONPATH=. python bench/viewer.py --browser [--uncapped] [--rounds N] [seconds]``  (JupyterLab in headless Chromium)
     ``PYTHONPATH=. python bench/viewer.py [frames]``            (the kernel's renderer)

``--browser``: JupyterLab on loopback, Chromium with software WebGL (SwiftShader, as the browser tests
start it) in a 1280 x 1000 window, one notebook: the README's example, a model of the local service
(LOD 0 with all 18 clips), then plain ``model.view()`` (which fetches LOD 1 itself for the moving frames
of a software GPU). In the same page, in turns, each motion now and as it was drawn before issue 48
(moving frames at half the resolution, ``wbViewer.fixedMovingRatio = 0.5``), ``seconds`` each:

- first frame: from the view's cell run command to the viewer's first drawn frame;
- orbit: a mouse drag (selenium's input actions, a move every 16 ms);
- clip playing: the walk clip played, and the share of frames that showed a new pose;
- morph slider: the jawOpen slider moved (a new value every animation frame, as a drag sends them).

Frames a second are counted by ``requestAnimationFrame`` in the page: a frame counts when the viewer
drew a new picture since the one before. The moving frames' resolution (their share of the still
view's, which the viewer sets by the frames' pace) is printed with them.

Without ``--browser``, the baseline is the render package of commit ``BASE`` read from git into a temporary folder
and imported under another name (``render_base``), so both run in this process on the same
GLBs, one after the other, and the ratios hold on a loaded machine. A viewer built on the old
code would call ``render()`` for every frame (parse, pose, frame, draw) and encode it; the
viewer keeps the parsed model and the poses (``workbench.render.stage``) and only draws.

- interactive frame: 256 px, LOD 2, the camera turning (a new yaw each frame);
- full frame: 512 px, LOD 0, the same;
- cold 512 px portrait preview: ``render_preview`` in a fresh process (imports not timed);
- cold model with all clips: a fresh process opens LOD 0 with all 18 clips embedded, reads
  every clip and draws the first 512 px frame (old: ``Model`` + every ``Clip`` + ``render``).

Prints median and p90 of wall time, the new / old ratio, and checks that equal views draw
equal bytes.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from shared import ROOT, render_at

BASE = "9fa7291"
RENDER_FILES = ("__init__.py", "framing.py", "raster.py", "scene.py", "testing.py")

COLD_SETUP = """
import sys, time
sys.path.insert(0, {tmp!r})
from workbench.gltf import build_avatar
from workbench.options import ANIMATIONS, ModelOptions, PreviewOptions, normalize_avatar_settings
settings = normalize_avatar_settings({{"gender": "feminine"}})
glb = build_avatar(settings, ModelOptions(animations={anims}))
import {pkg} as R
from {pkg}.scene import Model, Clip
"""
COLD_PREVIEW = "t = time.perf_counter(); R.render_preview(glb, PreviewOptions(size=512, camera='portrait'), pose='preview')\n"
COLD_CLIPS_NEW = ("from workbench.render.stage import Stage, encode\n"
                  "t = time.perf_counter(); s = Stage(glb); [s.clip(n) for n in s.clip_names]; encode(s.image(size=512))\n")
COLD_CLIPS_OLD = ("import io\n"
                  "t = time.perf_counter(); m = Model(glb); [Clip(m, i) for i in range(len(m.doc['animations']))]\n"
                  "buf = io.BytesIO(); R.render(glb, size=512, camera='full').save(buf, format='PNG', compress_level=1)\n")


def stats(ts: list[float]) -> tuple[float, float]:
    ts = sorted(ts)
    return statistics.median(ts), ts[min(len(ts) - 1, round(0.9 * (len(ts) - 1)))]


def line(label: str, new: list[float], old: list[float], goal: str) -> None:
    (nm, n90), (om, o90) = stats(new), stats(old)
    print(f"{label:<34} new median {nm * 1000:7.1f} ms  p90 {n90 * 1000:7.1f} ms | old median {om * 1000:7.1f} ms  "
          f"p90 {o90 * 1000:7.1f} ms | new/old {nm / om:5.2f}  goal {goal}")


def timed(fn, args) -> list[float]:
    out = []
    for a in args:
        t = time.perf_counter()
        fn(a)
        out.append(time.perf_counter() - t)
    return out


def cold(tmp: Path, anims: str, new_body: str, old_body: str, runs: int) -> tuple[list[float], list[float]]:
    """Wall times of the new and the old code, each in a fresh process, taken in turns so a
    burst of load on the machine falls on both."""
    out: dict[str, list[float]] = {"workbench.render": [], "render_base": []}
    for _ in range(runs):
        for pkg, body in (("workbench.render", new_body), ("render_base", old_body)):
            code = COLD_SETUP.format(tmp=str(tmp), pkg=pkg, anims=anims) + body + "print(time.perf_counter() - t)\n"
            r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT,
                               env={"PYTHONPATH": str(ROOT)}, check=True)
            out[pkg].append(float(r.stdout.split()[-1]))
    return out["workbench.render"], out["render_base"]


def main(frames: int = 21) -> None:
    import io

    from workbench.gltf import build_avatar
    from workbench.options import ModelOptions, normalize_avatar_settings
    from workbench.render.stage import Stage, StageView, encode

    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        old = render_at(BASE, RENDER_FILES, tmp)
        settings = normalize_avatar_settings({"gender": "feminine"})
        lod0 = build_avatar(settings, ModelOptions(lod=0))
        lod2 = build_avatar(settings, ModelOptions(lod=2))
        stage = Stage(lod0, lods={2: lod2})
        yaws = [7.0 + 17.0 * k for k in range(frames)]

        def old_frame(glb, size):
            def f(yaw):
                buf = io.BytesIO()
                old.render(glb, size=size, camera="full", yaw_deg=yaw).save(buf, format="PNG", compress_level=1)
                return buf.getvalue()
            return f

        def new_frame(size, lod):
            return lambda yaw: encode(stage.image(StageView(yaw=yaw, size=size, lod=lod)))

        for size, lod, glb, label, goal in ((256, 2, lod2, "interactive frame (256 px, LOD 2)", "<= 60 ms"),
                                            (512, 0, lod0, "full frame (512 px, LOD 0)", "<= 250 ms")):
            new_frame(size, lod)(0.0)  # the stage's pose for this LOD, made once per avatar
            new_ts = timed(new_frame(size, lod), yaws)
            old_ts = timed(old_frame(glb, size), yaws)
            line(label, new_ts, old_ts, goal)
            assert new_frame(size, lod)(33.0) == new_frame(size, lod)(33.0), "equal views drew different bytes"

        runs = max(5, frames // 4)
        line("cold 512 px portrait preview", *cold(tmp, "()", COLD_PREVIEW, COLD_PREVIEW, runs), "< 300 ms")
        line("cold model with all 18 clips", *cold(tmp, "ANIMATIONS", COLD_CLIPS_NEW, COLD_CLIPS_OLD, runs), "< 500 ms")


# The README's example: a model from the local service with every clip, then plain ``model.view()`` (on a
# software GPU it fetches LOD 1 itself when the page first asks).
MODEL_CELL = """\
import workbench
from workbench.options import ANIMATIONS

client = workbench.connect()
avatar = client.avatars.register({"gender": "feminine"})
model = client.avatars.model(avatar.model_id, animations=",".join(ANIMATIONS))
print("model bytes:", len(model.content))"""
VIEW_CELL = "plain = model.view()\nplain"

# Frames the viewer showed, counted by requestAnimationFrame: a frame counts when the viewer drew a new
# picture since the last one (its data-frames), and, for a clip, when that picture showed a new pose.
WATCH = """
const root = document.querySelectorAll('.wb-avatar-viewer')[arguments[0]];
const w = window.__wbWatch = {start: performance.now(), count: 0, poses: 0, frames: root.dataset.frames,
                              clock: root.dataset.clipClock, on: true, ratios: {}};
const tick = () => {
  if (!w.on) return;
  const d = root.dataset;
  if (d.frames !== w.frames) {
    w.frames = d.frames; w.count += 1;
    if (d.clipClock !== w.clock) { w.clock = d.clipClock; w.poses += 1; }
    w.ratios[d.movingRatio] = (w.ratios[d.movingRatio] || 0) + 1;
  }
  requestAnimationFrame(tick);
};
requestAnimationFrame(tick);
"""
READ = "const w = window.__wbWatch; w.on = false; return {...w, seconds: (performance.now() - w.start) / 1000};"

# A morph slider moved for ``seconds``: a new value and its input event every animation frame, as a
# mouse dragging it sends them.
SLIDE = """const [index, seconds, done] = arguments;
const v = document.querySelectorAll('.wb-avatar-viewer')[index];
v.querySelector('details').open = true;
const slider = v.querySelector("input.wb-av-morph[data-name='jawOpen']"), end = performance.now() + seconds * 1000;
let k = 0;
const step = () => {
  if (performance.now() > end) return done();
  slider.value = String((k++ % 40) / 40);
  slider.dispatchEvent(new Event('input', {bubbles: true}));
  requestAnimationFrame(step);
};
step();"""
# ``--uncapped``: Chromium's frame rate limit lifted, so the figures show what the page can draw, not
# the display's 60 frames a second.
UNCAPPED = ("--disable-frame-rate-limit", "--disable-gpu-vsync")
RUN_CELL = "window.jupyterapp.shell.currentWidget.content.activeCellIndex = arguments[0]; window.jupyterapp.commands.execute('notebook:run-cell');"


def browser_main(seconds: float = 4.0, rounds: int = 3, uncapped: bool = False) -> None:
    """Plain ``model.view()`` in JupyterLab in headless Chromium (SwiftShader): its first frame, and the
    frames a second it shows while a mouse drags it (orbit), a clip plays and a morph slider moves, each
    against the same motion drawn as before issue 48 (moving frames at half the resolution), in turns."""
    import datetime
    import platform

    import nbformat

    sys.path.insert(0, str(ROOT / "tests"))
    from browser.conftest import jupyter_lab, start_chrome, wait
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.support.ui import Select

    def until(browser, cond, what, timeout=300):
        return wait(browser, "const v = document.querySelectorAll('.wb-avatar-viewer')[0];"
                             f"const d = v && v.dataset; return d && ({cond}) && {{...d}};", timeout, what)

    def drag(browser):
        canvas = browser.find_element("css selector", ".wb-avatar-viewer .wb-av-stage")
        ActionChains(browser, duration=16).move_to_element(canvas).click_and_hold().perform()
        # In chunks: the button stays down between them, and no single call waits on a slow page for long.
        steps = int(seconds / 0.016)
        for start in range(0, steps, 30):
            chain = ActionChains(browser, duration=16)
            for k in range(start, min(steps, start + 30)):
                chain.move_by_offset(2 if (k // 60) % 2 == 0 else -2, 0)
            chain.perform()
        ActionChains(browser, duration=16).release().perform()

    def play(browser):
        Select(browser.find_element("css selector", ".wb-avatar-viewer .wb-av-clip")).select_by_value("walk")
        until(browser, "d.playing === 'true'", "the walk playing")
        time.sleep(seconds)

    def slide(browser):
        browser.execute_async_script(SLIDE, 0, seconds)

    def stop(browser):  # back to the still view between two motions
        browser.execute_script("const v = document.querySelector('.wb-avatar-viewer');"
                               "if (v.dataset.playing === 'true') v.querySelector('.wb-av-play').click();")
        until(browser, "d.playing !== 'true'", "the clip paused")
        Select(browser.find_element("css selector", ".wb-avatar-viewer .wb-av-clip")).select_by_value("")
        time.sleep(0.5)

    def measure(browser, act, before: bool) -> dict:
        browser.execute_script("document.querySelector('.wb-avatar-viewer').wbViewer.fixedMovingRatio = arguments[0]",
                               0.5 if before else None)
        browser.execute_script(WATCH, 0)
        act(browser)
        w = browser.execute_script(READ)
        stop(browser)
        return w

    loads = [os.getloadavg()[0]]
    with tempfile.TemporaryDirectory() as tmp, start_chrome(Path(tmp) / "profile", frame_cap=None,
                                                            extra_args=UNCAPPED if uncapped else ()) as browser:
        tmp = Path(tmp)
        root = tmp / "notebooks"
        root.mkdir()
        nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(c) for c in (MODEL_CELL, VIEW_CELL)])
        nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
        nbformat.write(nb, root / "bench.ipynb")
        browser.set_window_size(1280, 1000)
        browser.set_script_timeout(600)
        with jupyter_lab(tmp, root) as lab:
            browser.get(f"{lab['url']}/lab/tree/bench.ipynb?token={lab['token']}")
            wait(browser, "const nb = window.jupyterapp && window.jupyterapp.shell.currentWidget;"
                          "return nb && nb.sessionContext && nb.sessionContext.session && nb.sessionContext.session.kernel"
                          " && nb.sessionContext.session.kernel.status === 'idle';", 120, "the kernel")
            browser.execute_script(RUN_CELL, 0)
            wait(browser, "return [...document.querySelectorAll('.jp-OutputArea-output')].some(o => /model bytes: \\d+/.test(o.textContent));",
                 600, "the model downloaded")
            # The first frame: model.view()'s cell run to its first canvas draw, by the page's clock.
            started = browser.execute_script(f"const t = performance.now(); {RUN_CELL} return t;", 1)
            first = until(browser, "d.firstFrameAt", "model.view()'s first frame")
            first_s = (float(first["firstFrameAt"]) - started) / 1000
            software = browser.execute_script("return document.querySelector('.wb-avatar-viewer').wbViewer.software")
            if software:
                until(browser, "d.movingLod", "the lighter level model.view() fetched")
            canvas = until(browser, "true", "the canvas")["canvas"]
            browser.execute_script("document.querySelector('.wb-avatar-viewer').scrollIntoView({block: 'start'})")
            time.sleep(1)
            rows: dict[str, list] = {}
            for _ in range(rounds):  # in turns, so a burst of load falls on both
                for name, act in (("orbit (mouse drag)", drag), ("clip playing", play), ("morph slider", slide)):
                    for before in (False, True):
                        rows.setdefault((name, before), []).append(measure(browser, act, before))
                loads.append(os.getloadavg()[0])

    rate = lambda w: w["count"] / w["seconds"]  # noqa: E731
    print(f"{datetime.datetime.now(datetime.UTC):%Y-%m-%d %H:%M} UTC · {platform.processor() or platform.machine()}, "
          f"{os.cpu_count()} cores · load average {min(loads):.1f} to {max(loads):.1f} (1 min)"
          + (" · frame rate limit lifted (--uncapped)" if uncapped else ""))
    print(f"plain model.view() of LOD 0 with all 18 clips, canvas {canvas}, "
          f"{'a software GPU' if software else 'a GPU'}; frames a second by requestAnimationFrame, {seconds:g} s each, {rounds} rounds")
    print(f"first frame (the view() cell run to its first draw): {first_s:.2f} s")
    for name in ("orbit (mouse drag)", "clip playing", "morph slider"):
        now, before = rows[(name, False)], rows[(name, True)]
        ratios = {}
        for w in now:
            for k, n in w["ratios"].items():
                ratios[k] = ratios.get(k, 0) + n
        shown = ", ".join(f"{k}" for k, _ in sorted(ratios.items(), key=lambda kv: -kv[1])[:3])
        print(f"{name:<19} now {', '.join(f'{rate(w):5.1f}' for w in now)} (moving frames at {shown} of full resolution)"
              f" | before {', '.join(f'{rate(w):5.1f}' for w in before)} (half) | now / before "
              f"{statistics.median(rate(w) for w in now) / max(statistics.median(rate(w) for w in before), 1e-9):.2f}"
              "  goal >= 30")
        if name == "clip playing":
            print(f"{'':<19} a new pose in {sum(w['poses'] for w in now) / max(sum(w['count'] for w in now), 1):.0%} of the frames")


def parse_args(argv: list[str]):
    import argparse

    parser = argparse.ArgumentParser(prog="bench/viewer.py", description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter,
                                     epilog="Figures go to bench/RESULTS.md with the date, the machine and its load.")
    parser.add_argument("--browser", action="store_true",
                        help="plain model.view() in JupyterLab in headless Chromium: frames a second while dragging, "
                             "playing and sliding (else: the kernel's renderer against commit %s)" % BASE)
    parser.add_argument("--uncapped", action="store_true", help="with --browser: lift Chromium's 60 frames a second limit")
    parser.add_argument("--rounds", type=int, default=3, help="with --browser: rounds of the three motions (default 3)")
    parser.add_argument("amount", nargs="?", type=float,
                        help="with --browser: seconds of each motion (default 4); else: frames per figure (default 21)")
    return parser.parse_args(argv)


if __name__ == "__main__":
    args = parse_args(sys.argv[1:])
    if args.browser:
        browser_main(args.amount or 4.0, args.rounds, uncapped=args.uncapped)
    else:
        main(int(args.amount or 21))
