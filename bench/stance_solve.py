"""Benchmark: the CPU of a stance's fit (``workbench.gltf.stances.fitted_stance``) with the solves' k-d trees
(``workbench.gltf.reach.tree``) against the same fit with scipy's default trees, same process, same result.

Run: ``python bench/stance_solve.py [N]`` (from the repository, ``PYTHONPATH=.``). A warm process (one fit of each
stance first) fits each stance that solves (``hand_on_hip``, ``hands_on_hips``, ``hands_clasped``) to N bodies and
clothes (``bench/stance_build.py``'s, in turn), each twice in alternation: once as the workbench fits it, once with
every tree the fit makes built by scipy's defaults (``cKDTree(points)``: the median split, the cells shrunk to their
points), the trees main made before pass 36. It checks that both give the same clip to the last bit (the hands'
search follows the last bit of every reading, bench/RESULTS.md's pass 27) and prints the median CPU seconds
(``time.process_time``) of each and their ratio. The rest of pass 36's cut (the arm posed a level at a time, the
surfaces skinned without unread normals, the sleeve's rims made only when read) is in both figures: compare the
figure with main's by ``bench/stance_build.py`` run on both.
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

import numpy as np
from scipy.spatial import cKDTree

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from workbench.gltf import reach, stances  # noqa: E402
from workbench.gltf.avatar import body_of, fit_key, parts_of  # noqa: E402
from workbench.gltf.stances import fitted_stance, outsides  # noqa: E402
from workbench.options import normalize_avatar_settings  # noqa: E402

STANCES = ("hand_on_hip", "hands_on_hips", "hands_clasped")
BODIES = [("feminine", "average", "tee", "trousers"), ("masculine", "heavy", "hoodie", "shorts"),
          ("feminine", "slim", "longsleeve", "skirt"), ("masculine", "athletic", "tee", "skirt")]


def fit_args(pose: str, k: int):
    gender, shape, top, bottom = BODIES[k % len(BODIES)]
    s = normalize_avatar_settings({"gender": gender, "bodyShape": shape, "height": 160.0 + 2.5 * k, "pose": pose,
                                   "outfit": {"topStyle": top, "bottomStyle": bottom}})
    key = fit_key(s, 0)
    meshes = parts_of(key, 0)
    return pose, body_of(key.body).skeleton, meshes, outsides({"topStyle": key.top, "bottomStyle": key.bottom}, meshes)


def fit(args, make_tree) -> tuple[float, list[np.ndarray]]:
    reach.tree = stances.tree = make_tree      # (both modules read the name at call time)
    t = time.process_time()
    c = fitted_stance(*args)
    dt = time.process_time() - t
    return dt, [c.rotations[j] for j in sorted(c.rotations)] + [c.hips_offset]


def main(n: int = 4) -> None:
    ours = reach.tree
    try:
        cases = [(pose, fit_args(pose, k)) for k in range(n) for pose in STANCES]
        for pose in STANCES:                                   # warm: the compiled code, the meshes' caches
            fit(fit_args(pose, n), ours)
        cpu: dict[tuple[str, str], list[float]] = {}
        for pose, args in cases:
            a, clip_a = fit(args, ours)
            b, clip_b = fit(args, cKDTree)
            assert all(np.array_equal(x, y) for x, y in zip(clip_a, clip_b, strict=True)), pose
            cpu.setdefault((pose, "ours"), []).append(a)
            cpu.setdefault((pose, "scipy"), []).append(b)
    finally:
        reach.tree = stances.tree = ours
    for pose in (*STANCES, "all"):
        mine = [t for (p, w), ts in cpu.items() if w == "ours" and pose in (p, "all") for t in ts]
        base = [t for (p, w), ts in cpu.items() if w == "scipy" and pose in (p, "all") for t in ts]
        m, b = statistics.median(mine), statistics.median(base)
        print(f"{pose:14s} fit median {m:.3f} s CPU, with scipy's default trees {b:.3f} s: ratio {m / b:.2f} "
              f"(sum {sum(mine):.2f} / {sum(base):.2f} s; the same clips)")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 4)
