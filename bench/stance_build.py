"""Benchmark: the CPU of an avatar build in each stance (the ``pose`` setting) against the relaxed stance's, same
process.

Run: ``python bench/stance_build.py [N]``. A warm process (one build of each stance first) builds N fresh bodies
(heights 150.0, 151.5, ... cm: each a body no cache holds) in each stance, relaxed and on the hips alternating,
and prints the median CPU seconds (``time.process_time``, which a loaded machine moves less than wall time) of
each and their ratio to the relaxed's: the cost of fitting the stance (``workbench.gltf.stances.fitted_stance``,
the palm's rest on the hip ``workbench.gltf.reach.rest_hand`` most) that every new avatar's first preview in
such a stance pays. Pass 24's hands25 took a hip stance's build from 0.59 to 1.75 s. Every stance since pass 60
(``hands_behind_back`` new; before, the two hip stances only).
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from workbench.gltf import build_avatar  # noqa: E402
from workbench.options import POSES, ModelOptions, normalize_avatar_settings  # noqa: E402

STANCES = POSES            # (relaxed first: the others' ratio is to it)
# The bodies: each gender, build and cut of clothes in turn (the solve's cost differs with a sleeve).
BODIES = [("feminine", "average", "tee", "trousers"), ("masculine", "heavy", "hoodie", "shorts"),
          ("feminine", "slim", "longsleeve", "skirt"), ("masculine", "athletic", "tee", "skirt")]


def settings(pose: str, k: int, height: float) -> dict:
    gender, shape, top, bottom = BODIES[k % len(BODIES)]
    return normalize_avatar_settings({"gender": gender, "bodyShape": shape, "height": height, "pose": pose,
                                      "outfit": {"topStyle": top, "bottomStyle": bottom}})


def main(n: int = 8) -> None:
    for pose in STANCES:                             # warm: the data, the compiled code, the clips
        build_avatar(settings(pose, 0, 170.0), ModelOptions())
    cpu: dict[str, list[float]] = {pose: [] for pose in STANCES}
    for k in range(n):
        for j, pose in enumerate(STANCES):
            s = settings(pose, k, 150.0 + 1.5 * (len(STANCES) * k + j) / len(STANCES))
            t = time.process_time()
            build_avatar(s, ModelOptions())
            cpu[pose].append(time.process_time() - t)
    relaxed = statistics.median(cpu["relaxed"])
    for pose in STANCES:
        m = statistics.median(cpu[pose])
        print(f"{pose:17s} median {m:.3f} s CPU (min {min(cpu[pose]):.3f}, max {max(cpu[pose]):.3f}) "
              f"ratio to relaxed {m / relaxed:.2f}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 8)
