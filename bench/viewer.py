"""Benchmark of the AvatarViewer's frames against the renderer as it was before the viewer (git 9fa7291).

Run: ``PYTHONPATH=. python bench/viewer.py [frames]``

The baseline is the render package of commit ``BASE`` read from git into a temporary folder
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

import importlib
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
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


def load_base(tmp: Path):
    """The render package of ``BASE`` as the module ``render_base``."""
    pkg = tmp / "render_base"
    pkg.mkdir()
    for name in RENDER_FILES:
        src = subprocess.run(["git", "-C", str(ROOT), "show", f"{BASE}:workbench/render/{name}"],
                             capture_output=True, text=True, check=True).stdout
        (pkg / name).write_text(src)
    sys.path.insert(0, str(tmp))
    return importlib.import_module("render_base")


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
        old = load_base(tmp)
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


if __name__ == "__main__":
    main(*(int(a) for a in sys.argv[1:2]))
