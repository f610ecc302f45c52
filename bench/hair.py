"""Benchmark of the hair styles (issue 25, item 5): the hair meshes against the first round's, in one run.

Run: ``PYTHONPATH=. python bench/hair.py [repeats]``

- The baseline is ``workbench/body/hair.py`` of commit ``BASE`` (the first round's shells), read from
  git and loaded as a module of the same package, so both build from the same body meshes in this
  process: eight bodies (both genders, slim and heavy, 150 and 200 cm), each style, interleaved
  repeats, the minimum per body; printed as the range over bodies and the median ratio new / base.
- Triangles per style (new and base) and the hair's share kept at LOD 1 and 2, with the whole
  avatar's share (the contract's 50 % and 25 %, within 5 points).
- The long and curly textures' uncached build time, new and base.
- The load average before and after, since the machine is shared.
"""

from __future__ import annotations

import importlib.util
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BASE = "adc4320"


def load_base():
    src = subprocess.run(["git", "-C", str(ROOT), "show", f"{BASE}:workbench/body/hair.py"],
                         capture_output=True, text=True, check=True).stdout
    path = Path(tempfile.mkdtemp()) / "hair_base.py"
    path.write_text(src)
    # A module of workbench.body, so its relative imports (.lod, .mesh) resolve to today's.
    spec = importlib.util.spec_from_file_location("workbench.body._hair_base", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def main(repeats: int = 3) -> None:
    import workbench.gltf  # noqa: F401  (loads the generator before the body package's modules)
    from workbench.body import hair
    from workbench.body.lod import decimate
    from workbench.body.mesh import body_mesh
    from workbench.gltf.meshes import triangle_count
    from workbench.options import normalize_avatar_settings

    base = load_base()
    print(f"load average before: {os.getloadavg()[0]:.1f}")
    bodies = [body_mesh(normalize_avatar_settings({"gender": g, "bodyShape": b, "height": h}))
              for g in ("feminine", "masculine") for b in ("slim", "heavy") for h in (150, 200)]
    for style in ("short", "long", "bun", "curly"):
        new_ms, base_ms, new_tris, base_tris, shares = [], [], [], [], []
        for mesh in bodies:
            best = {"new": 1e9, "base": 1e9}
            for _ in range(repeats):
                for name, module in (("base", base), ("new", hair)):
                    t = time.perf_counter()
                    p = module.hair_piece(mesh, style)
                    best[name] = min(best[name], time.perf_counter() - t)
                    (new_tris if name == "new" else base_tris).append(p.triangles)
            new_ms.append(best["new"] * 1000)
            base_ms.append(best["base"] * 1000)
            p = hair.hair_piece(mesh, style)
            shares.append([decimate(p, r).triangles / p.triangles for r in (0.5, 0.25)])
        ratio = statistics.median(n / b for n, b in zip(new_ms, base_ms))
        s = normalize_avatar_settings({"gender": "feminine", "hair": {"style": style}})
        total = [triangle_count(s, lod) for lod in (0, 1, 2)]
        print(f"{style:5s}  ms new {min(new_ms):5.1f} to {max(new_ms):5.1f}, base {min(base_ms):5.1f} to "
              f"{max(base_ms):5.1f}, new/base {ratio:.2f}  |  triangles new {min(new_tris)} to {max(new_tris)}, "
              f"base {min(base_tris)} to {max(base_tris)}  |  hair kept at LOD 1/2 "
              f"{min(x[0] for x in shares):.2f}/{max(x[1] for x in shares):.2f}, avatar "
              f"{total[1] / total[0]:.3f}/{total[2] / total[0]:.3f}")
    # The textures (built once per colour and style, then cached): uncached builds, interleaved; the
    # curl pattern (shared by every colour) once, then per colour.
    for style in ("long", "curly"):
        best = {"new": 1e9, "base": 1e9}
        for _ in range(repeats):
            for name, module in (("base", base), ("new", hair)):
                t = time.perf_counter()
                module.hair_texture.__wrapped__("#1A1A1A", style)
                best[name] = min(best[name], time.perf_counter() - t)
        if style == "curly":
            hair._curl_pattern.cache_clear()
            t = time.perf_counter()
            hair._curl_pattern()
            print(f"curly  coil pattern (once per process) ms {(time.perf_counter() - t) * 1000:5.1f}")
        print(f"{style:5s}  texture per colour ms new {best['new'] * 1000:5.1f}, base {best['base'] * 1000:5.1f}, "
              f"new/base {best['new'] / best['base']:.2f}")
    print(f"load average after: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 3)
