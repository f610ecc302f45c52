"""Benchmark: the CPU of drawing avatars as the review tests and sheets draw them, several views of each; with
``--hashes`` one digest over every picture, to compare two versions of the code (speed38).

Run: ``python bench/views.py [--hashes]`` (from the repository, ``PYTHONPATH=.``). A warm process (the renderer's
warm-up and one avatar drawn) builds four avatars of the blind reviews (seeds 4629's #7, 4627's #7, 4626's #3,
4631's #1: three bobs and one more; LOD 0 with the idle clip, as ``tests/built.py`` builds them), then, timed with
``time.process_time``, draws each as the review tests do: 512 px portraits from behind, at three quarters and from
the front in the first frame of the model's own clip (``pose=(glb, 0.0)``), and a 256 px full length in the preview's
pose. It prints the first view's CPU and the mean of the later ones per avatar, and the totals; then a 3-frame 96 px
turntable and a 2-frame 128 px pose sequence, which enter the digest only.
"""

from __future__ import annotations

import hashlib
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from helpers import random_settings  # noqa: E402

from workbench.gltf import build_avatar  # noqa: E402
from workbench.options import ModelOptions, normalize_avatar_settings  # noqa: E402
from workbench.render import render, warm_up  # noqa: E402
from workbench.render.pictures import pose_sequence, turntable  # noqa: E402

PICKS = [(4629, 7), (4627, 7), (4626, 3), (4631, 1)]
OPTIONS = ModelOptions(lod=0, animations=("idle",))


def main(hashes: bool = False) -> None:
    warm_up()
    render(build_avatar(normalize_avatar_settings({"gender": "masculine"}), OPTIONS), size=64)
    glbs = [build_avatar(normalize_avatar_settings(random_settings(12, seed, with_added=True)[k - 1]), OPTIONS)
            for seed, k in PICKS]
    digest = hashlib.sha256()
    first_total = later_total = 0.0
    for (seed, k), glb in zip(PICKS, glbs, strict=True):
        times = []
        for yaw in (180.0, 35.0, 0.0, None):
            t = time.process_time()
            if yaw is None:
                im = render(glb, size=256, camera="full", background=(255, 255, 255))
            else:
                im = render(glb, size=512, camera="portrait", background=(90, 90, 90), pose=(glb, 0.0), yaw_deg=yaw)
            times.append(time.process_time() - t)
            digest.update(im.tobytes())
        first_total += times[0]
        later_total += sum(times[1:])
        print(f"{seed} #{k}: first view {times[0]:.3f} s CPU, later views {sum(times[1:]) / 3:.3f} s each", flush=True)
    digest.update(turntable(glbs[0], frames=3, size=96))
    for im in pose_sequence(glbs[1], "feminine/walk", [0.0, 0.3], size=128):
        digest.update(im.tobytes())
    n = len(glbs)
    print(f"per avatar: first view {first_total / n:.3f} s CPU, later views {later_total / (3 * n):.3f} s each; "
          f"all 16 views {first_total + later_total:.2f} s")
    if hashes:
        print(f"all pictures: {digest.hexdigest()}")


if __name__ == "__main__":
    main("--hashes" in sys.argv[1:])
