"""Benchmark of the hair (issue 36, item 1): cards grown from the scalp against the shells they replace.

Run: ``PYTHONPATH=. python bench/hair.py [repeats]``

- The baseline is ``workbench/body/hair.py`` of commit ``BASE`` (the second round's shells), read from
  git and loaded as a module of the same package, so both build from the same body meshes in this
  process. What a new avatar pays is the first build for its body: each repeat uses bodies not seen
  before (both genders, slim and heavy, a new height each time), new and base interleaved; the
  minimum per style over repeats, as CPU time (the machine is shared) and wall time.
- Triangles per style and level of detail (new: cards at LOD 0 and 1, the baked shell at LOD 2; base:
  the shell decimated), and the share of the whole avatar kept at LOD 1 and 2.
- The cards' first build in a process (the grooms read from the machine's cache), the LOD 2 bake,
  and the hair texture's PNG size per style.
- The load average before and after.
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BASE = "f2f26e4"


def load_base():
    src = subprocess.run(["git", "-C", str(ROOT), "show", f"{BASE}:workbench/body/hair.py"],
                         capture_output=True, text=True, check=True).stdout
    path = Path(tempfile.mkdtemp()) / "hair_base.py"
    path.write_text(src)
    spec = importlib.util.spec_from_file_location("workbench.body._hair_base", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def timed(fn):
    c, t = time.process_time(), time.perf_counter()
    out = fn()
    return out, time.process_time() - c, time.perf_counter() - t


def main(repeats: int = 3) -> None:
    import workbench.gltf  # noqa: F401  (the generator first: the body package imports it)
    from workbench.body import hair
    from workbench.body.hair import bake, canon
    from workbench.body.lod import decimate
    from workbench.body.mesh import body_mesh
    from workbench.gltf import textures
    from workbench.gltf.meshes import triangle_count
    from workbench.options import normalize_avatar_settings

    print(f"load average before: {os.getloadavg()[0]:.1f}")
    base = load_base()
    styles = ("short", "long", "bun", "curly")
    for style in styles:                      # the grooms' first read in this process, not timed below
        canon.canonical(style, 0)
    best = {(s, w): [1e9, 1e9] for s in styles for w in ("new", "base")}
    height = 150.0
    for _ in range(repeats):
        for g in ("feminine", "masculine"):
            for shape in ("slim", "heavy"):
                height += 1.7
                mesh = body_mesh(normalize_avatar_settings({"gender": g, "bodyShape": shape, "height": height}))
                base.hair_piece(mesh, "short")            # the base's own per-body work is the same
                for style in styles:
                    for who, make in (("base", lambda mesh=mesh, style=style: base.hair_piece(mesh, style)),
                                      ("new", lambda mesh=mesh, style=style: hair.hair_pieces(mesh, style, 0))):
                        _, cpu, wall = timed(make)
                        b = best[(style, who)]
                        b[0], b[1] = min(b[0], cpu), min(b[1], wall)
    for style in styles:
        s = normalize_avatar_settings({"gender": "feminine", "hair": {"style": style}})
        mesh = body_mesh(s)
        new_tris = [sum(p.triangles for p in hair.hair_pieces(mesh, style, lod).values()) for lod in (0, 1, 2)]
        old = base.hair_piece(mesh, style)
        old_tris = [old.triangles] + [decimate(old, r).triangles for r in (0.5, 0.25)]
        total = [triangle_count(s, lod) for lod in (0, 1, 2)]
        n, b = best[(style, "new")], best[(style, "base")]
        png = len(textures.encode(hair.hair_texture("#2B1B10", style), "png"))
        print(f"{style:5s}  first build per body, CPU ms new {n[0] * 1000:5.1f} base {b[0] * 1000:5.1f} "
              f"(wall {n[1] * 1000:5.1f} / {b[1] * 1000:5.1f})  |  triangles LOD 0/1/2 new {new_tris}, base {old_tris}"
              f"  |  avatar kept {total[1] / total[0]:.3f}/{total[2] / total[0]:.3f}  |  texture PNG {png / 1000:.0f} KB")
    bodies = [body_mesh(normalize_avatar_settings({"gender": "masculine", "height": 181.0 + k})) for k in range(2)]
    for style in styles:
        _, cpu, wall = timed(lambda style=style: bake.baked(bodies[0], style))
        print(f"{style:5s}  LOD 2 bake per body: CPU {cpu * 1000:.0f} ms, wall {wall * 1000:.0f} ms")
    canon.canonical.cache_clear()
    _, cpu, wall = timed(lambda: canon.canonical("short", 0))
    print(f"a groom read from the machine's cache: CPU {cpu * 1000:.1f} ms (wall {wall * 1000:.1f} ms)")
    print(f"load average after: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 3)
