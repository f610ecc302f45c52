"""Benchmark: cold generation of the default avatar (LOD 0, 1024 atlas, all animations) and its size.

Run: ``python bench/models.py``. Prints the figures, then ratios against a baseline measured
in the same process (so machine load cancels out as far as it can):

- cold: the first build in a fresh process (textures, skeleton and geometry caches empty);
- baseline: re-serializing the same document with pygltflib (parse + write back to GLB bytes),
  the cost of merely handling a file of that size;
- warm: the same build again (everything cached but the GLB assembly).

Goals: cold under 0.5 s on a 2-core machine; the default LOD 0 GLB under 3 MB.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import pygltflib  # noqa: E402

from workbench.gltf import build_avatar, inspect  # noqa: E402
from workbench.options import ANIMATIONS, ModelOptions, normalize_avatar_settings  # noqa: E402


def timed(fn, repeat=1):
    best = float("inf")
    out = None
    for _ in range(repeat):
        t = time.perf_counter()
        out = fn()
        best = min(best, time.perf_counter() - t)
    return best, out


def main() -> None:
    settings = normalize_avatar_settings({"gender": "masculine"})
    full = ModelOptions(lod=0, texture_atlas_size=1024, animations=ANIMATIONS)
    cold, glb = timed(lambda: build_avatar(settings, full))
    warm, _ = timed(lambda: build_avatar(settings, full), repeat=3)
    baseline, _ = timed(lambda: b"".join(pygltflib.GLTF2.load_from_bytes(glb).save_to_bytes()), repeat=3)
    plain_cold, plain = timed(lambda: build_avatar(settings, ModelOptions()))
    s = inspect(plain)
    print(f"default avatar LOD 0: {s.triangles} triangles, {len(plain):,} bytes ({len(plain) / 1e6:.2f} MB; goal < 3 MB)")
    for lod in (1, 2):
        t = inspect(build_avatar(settings, ModelOptions(lod=lod))).triangles
        print(f"  LOD {lod}: {t} triangles ({t / s.triangles:.1%} of LOD 0)")
    print(f"LOD 0 + 1024 atlas + {len(ANIMATIONS)} animations: {len(glb):,} bytes")
    print(f"cold generation: {cold * 1000:.0f} ms (goal < 500 ms)")
    print(f"warm generation: {warm * 1000:.0f} ms")
    print(f"plain default after that (textures cached, new options): {plain_cold * 1000:.0f} ms")
    print(f"baseline, pygltflib parse + re-serialize of the same file: {baseline * 1000:.0f} ms")
    print(f"ratio cold / baseline: {cold / baseline:.1f}x; warm / baseline: {warm / baseline:.1f}x")


if __name__ == "__main__":
    main()
