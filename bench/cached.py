"""Cached requests over HTTP: a model or preview that the service already made, fetched again.

The service caches generated models and previews on disk by avatar and options; a repeat
request reads the file and answers with its ETag. This measures, through the workbench client
against a local service on loopback (uvicorn, in this process):

- the first request (cold: generation or rendering included; the preview is asked first, so its
  figure includes making the avatar's model, as a new avatar's first preview does), once what the
  service prepares in the background at its start is ready (the animation library written, the
  renderer's compiled loops loaded): a service's first request after start-up,
- the same request again (cached; goal under 10 ms),
- a baseline in the same run: GET /avatars/animations, a small JSON answer with no work behind it,

and prints the cached time as a ratio of the baseline.

Usage: python bench/cached.py [repeats]
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import workbench  # noqa: E402


def median_ms(fn, n):
    times = []
    for _ in range(n):
        t = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t) * 1000)
    return statistics.median(times)


def main(n: int = 50) -> None:
    client = workbench.connect(quiet=True)
    try:
        # The library is written in a background thread on first start; measure after it is done.
        while client.local.health()["animationLibrary"] != "ready":
            time.sleep(0.1)
        # and for the renderer's compiled loops, which the service also loads in the background at its start
        from workbench.render import warm_up

        warm_up()
        mid = client.avatars.register({"gender": "masculine"}).model_id
        base = median_ms(client.animations.list, n)
        # The preview first: a new avatar's first preview is what a user meets, its model not made yet.
        cases = {
            "preview 512 px portrait": lambda: client.avatars.preview(mid, size=512),
            "model LOD 0, 1024 atlas, all animations": lambda: client.avatars.model(mid, texture_atlas_size=1024, animations="all"),
            "model LOD 0 default": lambda: client.avatars.model(mid),
        }
        print(f"baseline GET /animations (JSON, no work): {base:6.2f} ms median of {n}")
        for name, call in cases.items():
            t = time.perf_counter()
            first = call()
            cold = (time.perf_counter() - t) * 1000
            cached = median_ms(call, n)
            print(f"{name:42} first {cold:7.1f} ms | cached {cached:6.2f} ms median of {n} "
                  f"({len(first.content):,} bytes) | cached / baseline {cached / base:5.2f} | goal cached < 10 ms: "
                  f"{'met' if cached < 10 else 'NOT met'}")
    finally:
        client.service.stop()


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 50)
