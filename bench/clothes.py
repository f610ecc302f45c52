"""What the round's clothes cost a new avatar (issue 46): the first 512 px preview and the model with every clip,
per outfit, against a base commit's code, in fresh processes, alternately.

Run: ``PYTHONPATH=. python bench/clothes.py [runs] [base commit]`` (default 5 runs, base ``BASE``: main before
the round's clothes). Each case is one avatar's settings; each measurement a fresh process that has made the
service's start (``workbench.render.warm_up``) and the machine's kept arrays (patterns, weaves) beforehand,
as a service would have, then times the first preview as the service makes it (``build_avatar_unencoded``,
then ``render_preview`` of its pixels) or the model with all 18 clips. Prints medians of wall and CPU time
per case, new and old and their ratio, and the least CPU time of the runs (on a shared machine the wall clock
mostly measures waiting for a core, and contention inflates CPU time too: the least is the fairest), and the
load.
"""

from __future__ import annotations

import os
import statistics
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from bodies import load_base, run  # noqa: E402

BASE = "9802d5d"
CASES = {
    "default (feminine, short hair, tee, trousers)": {"gender": "feminine", "glasses": "clear"},
    "curly hair, trousers": {"gender": "feminine", "hair": {"style": "curly"}},
    "curly hair, skirt": {"gender": "feminine", "hair": {"style": "curly"}, "outfit": {"bottomStyle": "skirt"}},
    "long hair, hoodie, shorts, boots": {"gender": "masculine", "bodyShape": "heavy", "hair": {"style": "long"},
                                         "outfit": {"topStyle": "hoodie", "bottomStyle": "shorts",
                                                    "shoeStyle": "boots"}},
}
SETUP = """
import sys, time
sys.path.insert(0, {tmp!r})
from {pkg}.gltf import build_avatar
from {pkg}.options import ANIMATIONS, ModelOptions, PreviewOptions, normalize_avatar_settings
from {pkg}.render import render_preview
import {pkg}.gltf.avatar as avatar_module
import {pkg}.render as _render
_render.warm_up()
settings = normalize_avatar_settings({settings!r})
"""
PREVIEW = """t = time.perf_counter(); c = time.process_time()
glb, images = avatar_module.build_avatar_unencoded(settings, ModelOptions())
render_preview(glb, PreviewOptions(size=512, camera='portrait'), pose='preview', images=images)
"""
MODEL = """t = time.perf_counter(); c = time.process_time()
build_avatar(settings, ModelOptions(animations=ANIMATIONS))
"""


def main(runs: int = 5, base: str = BASE) -> None:
    print(f"load before: {os.getloadavg()}")
    with tempfile.TemporaryDirectory(prefix="bench-clothes-") as folder:
        tmp = Path(folder)
        load_base(tmp, base)
        pkgs = ("workbench", "workbench_base")
        for pkg in pkgs:     # what a machine keeps, made once before timing
            for s in CASES.values():
                run(SETUP.format(tmp=str(tmp), pkg=pkg, settings=s) + PREVIEW.replace("{pkg}", pkg) + MODEL)
        times = {(c, k, p): [] for c in CASES for k in ("preview", "model") for p in pkgs}
        cpu = {key: [] for key in times}
        for _ in range(runs):
            for case, s in CASES.items():
                for kind, body in (("preview", PREVIEW), ("model", MODEL)):
                    for pkg in pkgs:
                        out = run(SETUP.format(tmp=str(tmp), pkg=pkg, settings=s) + body
                                  + "print(time.perf_counter() - t, time.process_time() - c)\n")
                        wall, used = map(float, out.strip().splitlines()[-1].split())
                        times[(case, kind, pkg)].append(wall)
                        cpu[(case, kind, pkg)].append(used)
        print(f"medians of {runs} fresh processes, new (this code) and old ({base}) alternately")
        for case in CASES:
            for kind in ("preview", "model"):
                new, old = (statistics.median(times[(case, kind, p)]) for p in pkgs)
                nc, oc = (statistics.median(cpu[(case, kind, p)]) for p in pkgs)
                nm, om = (min(cpu[(case, kind, p)]) for p in pkgs)
                print(f"{case:<40} {kind:<8} wall new {new * 1000:5.0f} | old {old * 1000:5.0f} ms, new/old "
                      f"{new / old:4.2f} | CPU new {nc * 1000:4.0f} | old {oc * 1000:4.0f} ms, new/old {nc / oc:4.2f}"
                      f" | least CPU new {nm * 1000:4.0f} | old {om * 1000:4.0f} ms, new/old {nm / om:4.2f}")
    print(f"load after: {os.getloadavg()}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 5, sys.argv[2] if len(sys.argv) > 2 else BASE)
