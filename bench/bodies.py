"""Benchmark of the MakeHuman bodies (issue 25) against the lofted generator they replace (git ``BASE``).

Run: ``PYTHONPATH=. python bench/bodies.py [runs] [case substring] [base commit]``
(the base commit is ``BASE`` unless named: e.g. main before a change, to see what the change costs)

The baseline is the whole ``workbench`` package of commit ``BASE`` read from git into a temporary
folder as ``workbench_base`` (its absolute imports renamed), so old and new run on this machine in the
same run, alternately, each in a fresh process per measurement (imports not timed, like a service's
first request after start-up, which the service's start has prepared: ``workbench.render.warm_up``, whose
own time is printed first, loads the renderer's compiled loops and, since issue 36's speed round, what every
avatar shares: the body's compiled data, topology and common textures, the idle clips; nothing that depends
on an avatar's settings):

- cold model: ``build_avatar`` at LOD 0 with all 18 clips (goal < 0.5 s);
- cold preview: ``build_avatar`` at LOD 0 then ``render_preview`` at 512 px in the idle pose (goal
  < 0.3 s); the first preview as the service makes it (the new code: ``build_avatar_unencoded``, the
  textures handed to the renderer as arrays; the old: the model GLB); and the render alone;
- cold LOD 1 and LOD 2 (the decimation's cost; the old generator re-tessellated);
- size of LOD 0 with a 1024 atlas (WebP) and every clip, and with the ARKit shapes (goal < 6 MB).

Prints medians of wall-clock and CPU time (the process's, all threads), new / old ratios, and the
sizes. On a shared machine the wall clock swings twofold from run to run; the CPU time much less.
The compiled body cache (``workbench.body.compile``) and the kept arrays exist before the first run (a
first start on a machine makes them once); where the code's warm-up does not load them, the cold figures
include reading them.
"""

from __future__ import annotations

import re
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BASE = "8984273"     # main before the MakeHuman bodies: the lofted generator

SETUP = """
import sys, time
sys.path.insert(0, {tmp!r})
from {pkg}.gltf import build_avatar
from {pkg}.options import ANIMATIONS, ModelOptions, PreviewOptions, normalize_avatar_settings
from {pkg}.render import render_preview
from {pkg}.render.scene import Model
import {pkg}.gltf.clips, {pkg}.gltf.textures
import {pkg}.gltf.avatar as avatar_module
settings = normalize_avatar_settings({{"gender": "feminine", "glasses": "clear"}})
# What the service does at its start, in the background (workbench.render.warm_up, where the code has it).
import {pkg}.render as _render
getattr(_render, "warm_up", lambda: None)()


def first_preview():
    # What the service does for a new avatar's first preview: the new code draws from unencoded
    # textures (build_avatar_unencoded), the old one built the model GLB and rendered that.
    options = PreviewOptions(size=512, camera='portrait')
    if hasattr(avatar_module, "build_avatar_unencoded"):
        # (a portrait's model without the meshes below the waist, where the code makes it so)
        try:
            glb, images = avatar_module.build_avatar_unencoded(settings, ModelOptions(), below=False)
        except TypeError:
            glb, images = avatar_module.build_avatar_unencoded(settings, ModelOptions())
        return render_preview(glb, options, pose='preview', images=images)
    return render_preview(build_avatar(settings, ModelOptions()), options, pose='preview')
"""
HTTP = (
    "import tempfile\nfrom {pkg} import connect\n"
    "client = connect(data_dir=tempfile.mkdtemp(), quiet=True)\n"
    "while client.local.health()['animationLibrary'] != 'ready':\n    time.sleep(0.05)\n"
    "_render.warm_up()   # (waits for the service's own warm-up where it is still running)\n"
    "mid = client.avatars.register({'gender': 'feminine', 'glasses': 'clear'}).model_id\n")
CASES = {
    "cold model, LOD 0, all 18 clips": "t = time.perf_counter(); c = time.process_time(); build_avatar(settings, ModelOptions(animations=ANIMATIONS))\n",
    "cold preview 512 px (model + render)": (
        "t = time.perf_counter(); c = time.process_time(); glb = build_avatar(settings, ModelOptions())\n"
        "render_preview(glb, PreviewOptions(size=512, camera='portrait'), pose='preview')\n"),
    "cold first preview 512 px, as the service": "t = time.perf_counter(); c = time.process_time(); first_preview()\n",
    # A stance of its own (the ``pose`` setting, where the code has it: the old code's is the idle's): what fitting
    # the arms to the body costs a first preview.
    "cold first preview 512 px, hands clasped": (
        "import {pkg}.options as o\nif hasattr(o, 'POSES'):\n"
        "    settings = normalize_avatar_settings({'gender': 'feminine', 'glasses': 'clear', 'pose': 'hands_clasped'})\n"
        "t = time.perf_counter(); c = time.process_time(); first_preview()\n"),
    "render alone, 512 px (model made first)": (
        "glb = build_avatar(settings, ModelOptions())\n"
        "t = time.perf_counter(); c = time.process_time(); render_preview(glb, PreviewOptions(size=512, camera='portrait'), pose='preview')\n"),
    # As a user meets it: a local service started in the process (its start's background work done), a new
    # avatar registered, then its first request over HTTP through the client.
    "first preview over HTTP, a new avatar": HTTP + (
        "t = time.perf_counter(); c = time.process_time(); client.avatars.preview(mid, size=512)\n"),
    "first model over HTTP, all clips, a new avatar": HTTP + (
        "t = time.perf_counter(); c = time.process_time(); client.avatars.model(mid, animations='all')\n"),
    "cold model, LOD 1": "t = time.perf_counter(); c = time.process_time(); build_avatar(settings, ModelOptions(lod=1))\n",
    # (the new code reads the arrays whole and checks them; main before issue 40 mapped them)
    "the compiled body cache, loaded": (
        "import {pkg}.body.compile as cc\nt = time.perf_counter(); c = time.process_time(); cc.compiled()\n"),
    "cold model, LOD 2": "t = time.perf_counter(); c = time.process_time(); build_avatar(settings, ModelOptions(lod=2))\n",
}
GOALS = {"cold model, LOD 0, all 18 clips": "< 500 ms", "cold first preview 512 px, as the service": "< 300 ms",
         "first preview over HTTP, a new avatar": "< 300 ms", "first model over HTTP, all clips, a new avatar": "< 500 ms"}
SIZES = """
from {pkg}.gltf import inspect
for label, opts in (("LOD 0, 1024 atlas (WebP), all clips", ModelOptions(texture_atlas_size=1024, texture_format="webp", animations=ANIMATIONS)),
                    ("LOD 0, 1024 atlas (JPEG), all clips", ModelOptions(texture_atlas_size=1024, animations=ANIMATIONS)),
                    ("LOD 0 default", ModelOptions()), ("LOD 1 default", ModelOptions(lod=1)), ("LOD 2 default", ModelOptions(lod=2))):
    glb = build_avatar(settings, opts)
    print(label, len(glb), inspect(glb).triangles)
"""


def load_base(tmp: Path, base: str = BASE) -> None:
    """``base``'s workbench package as ``workbench_base`` in ``tmp``."""
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", base, "workbench"], capture_output=True, check=True)
    subprocess.run(["tar", "-x", "-C", str(tmp)], input=archive.stdout, check=True)
    (tmp / "workbench").rename(tmp / "workbench_base")
    for path in (tmp / "workbench_base").rglob("*.py"):
        text = path.read_text()
        renamed = re.sub(r"\bworkbench\.", "workbench_base.", text)
        renamed = re.sub(r"^(\s*)import workbench\b", r"\1import workbench_base", renamed, flags=re.M)
        if renamed != text:
            path.write_text(renamed)


def run(code: str) -> str:
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    if done.returncode:
        raise RuntimeError(done.stderr[-2000:])
    return done.stdout


def main(runs: int = 5, only: str = "", base: str = BASE) -> None:
    with tempfile.TemporaryDirectory(prefix="bench-bodies-") as folder:
        tmp = Path(folder)
        load_base(tmp, base)
        print(f"old: the workbench of {base}")
        # The compiled body cache and the kept arrays exist before timing (a first start makes them once).
        for pkg in ("workbench", "workbench_base"):
            run(SETUP.format(tmp=str(tmp), pkg=pkg) + "build_avatar(settings, ModelOptions(lod=2))\nfirst_preview()\n"
                "build_avatar(settings, ModelOptions(animations=ANIMATIONS))\nbuild_avatar(settings, ModelOptions(lod=1))\n")
        print(f"cold figures: median of {runs} fresh processes each, in rounds of every case, new and old alternately")
        warm = [float(run("import time, workbench.render as r\nt = time.perf_counter(); r.warm_up()\n"
                          "print(time.perf_counter() - t)").strip().splitlines()[-1]) for _ in range(runs)]
        print(f"warm-up at a service's start, before any request (new code only): "
              f"{statistics.median(warm) * 1000:.0f} ms median")
        # Rounds: each round runs every case once, new then old, so the machine's drift (its speed swings by
        # 1.4 within minutes) falls on every case alike and the cases compare with each other too.
        cases = {label: body for label, body in CASES.items() if not only or only in label}
        times = {label: {"workbench": [], "workbench_base": []} for label in cases}
        cpu = {label: {"workbench": [], "workbench_base": []} for label in cases}
        for _ in range(runs):
            for label, body in cases.items():
                for pkg in ("workbench", "workbench_base"):
                    code = (SETUP.format(tmp=str(tmp), pkg=pkg) + body.replace("{pkg}", pkg)
                            + "print(time.perf_counter() - t, time.process_time() - c)\n")
                    wall, used = map(float, run(code).strip().splitlines()[-1].split())
                    times[label][pkg].append(wall)
                    cpu[label][pkg].append(used)
        for label in cases:
            new, old = (statistics.median(times[label][p]) for p in ("workbench", "workbench_base"))
            new_cpu, old_cpu = (statistics.median(cpu[label][p]) for p in ("workbench", "workbench_base"))
            # CPU time as well: on a shared machine the wall clock mostly measures waiting for a core.
            print(f"{label:<42} wall new {new * 1000:6.0f} | old {old * 1000:6.0f} ms, new/old {new / old:5.2f}"
                  f" | CPU new {new_cpu * 1000:6.0f} | old {old_cpu * 1000:6.0f} ms, new/old {new_cpu / old_cpu:5.2f}"
                  f" | goal {GOALS.get(label, '-')}")
        for pkg in ("workbench", "workbench_base") if not only else ():
            print(f"sizes ({'new' if pkg == 'workbench' else 'old'}): bytes, triangles")
            for row in run(SETUP.format(tmp=str(tmp), pkg=pkg) + SIZES.format(pkg=pkg)).splitlines():
                label, size, tris = row.rsplit(" ", 2)
                print(f"  {label:<40} {int(size) / 1e6:6.2f} MB  {int(tris):6d} triangles")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 5, sys.argv[2] if len(sys.argv) > 2 else "",
         sys.argv[3] if len(sys.argv) > 3 else BASE)
