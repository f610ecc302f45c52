"""Benchmark of the looks (issue 25): the renderer's new shading against the renderer before it, and
what the looks cost when an avatar is built. Prints figures and ratios.

Run: ``PYTHONPATH=. python bench/looks.py [repeats]``

- The baseline renderer is ``workbench/render`` of commit ``BASE`` (before world-fixed lights,
  occlusion, skin wrap, contact shadow and morphs), read from git into a temporary package; both
  draw the same new GLB (the default feminine MakeHuman avatar) in this run, warm (interleaved
  repeats, minimum and median) and cold (a fresh process each, first preview after reading the file).
- The looks' parts of a cold model: skin texture per tone, occlusion bake per body, hair, outfit.
- The size of LOD 0 with a 1024 atlas and the 52 ARKit shapes (goal under 6 MB).
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from shared import ROOT, render_at

BASE = "15a6100"
RENDER_FILES = ("__init__.py", "framing.py", "raster.py", "scene.py", "stage.py", "testing.py")
COLD = """
import sys, time
sys.path.insert(0, {tmp!r})
glb = open({path!r}, "rb").read()
from workbench.options import PreviewOptions
import {pkg} as R
t = time.perf_counter()
R.render_preview(glb, PreviewOptions(size=512, camera="portrait"))
print(time.perf_counter() - t)
"""


def timed(fn, repeats: int) -> list[float]:
    out = []
    for _ in range(repeats):
        t = time.perf_counter()
        fn()
        out.append(time.perf_counter() - t)
    return out


def show(label: str, ts: list[float]) -> None:
    print(f"{label:<52} min {min(ts) * 1000:8.1f} ms   median {statistics.median(ts) * 1000:8.1f} ms  (n={len(ts)})")


def main(repeats: int = 5) -> None:
    import workbench.gltf  # noqa: F401  (the generator first: the body package imports it)
    import workbench.render as new
    from workbench.body import ao, hair, outfit, skin
    from workbench.body.mesh import body_mesh
    from workbench.gltf import build_avatar
    from workbench.options import ModelOptions, PreviewOptions, normalize_avatar_settings

    settings = normalize_avatar_settings({"gender": "feminine"})
    glb = build_avatar(settings, ModelOptions())
    opts = PreviewOptions(size=512, camera="portrait")
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        old = render_at(BASE, RENDER_FILES, tmp)
        path = tmp / "avatar.glb"
        path.write_bytes(glb)
        # Warm, interleaved so both see the same load on this shared machine.
        t_old, t_new = [], []
        for _ in range(repeats):
            t_old += timed(lambda: old.render_preview(glb, opts), 1)
            t_new += timed(lambda: new.render_preview(glb, opts), 1)
        show("512 px portrait preview, renderer before (warm)", t_old)
        show("512 px portrait preview, renderer now (warm)", t_new)
        print(f"ratio now / before (medians): {statistics.median(t_new) / statistics.median(t_old):.2f}")
        full_opts = PreviewOptions(size=512, camera="full", background=(255, 255, 255))
        f_old = timed(lambda: old.render_preview(glb, full_opts), repeats)
        f_new = timed(lambda: new.render_preview(glb, full_opts), repeats)
        show("512 px full preview with backdrop, before", f_old)
        show("512 px full preview with backdrop, now (contact shadow)", f_new)
        print(f"ratio now / before (medians): {statistics.median(f_new) / statistics.median(f_old):.2f}")
        # Cold: a fresh process each, alternating.
        c_old, c_new = [], []
        for _ in range(max(2, repeats // 2)):
            for pkg, out in (("render_base", c_old), ("workbench.render", c_new)):
                code = COLD.format(tmp=str(tmp), path=str(path), pkg=pkg)
                res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                                     cwd=str(ROOT))
                out.append(float(res.stdout.strip().splitlines()[-1]))
        show("cold 512 px portrait preview, before (fresh process)", c_old)
        show("cold 512 px portrait preview, now (fresh process)", c_new)
        print(f"goal: cold preview under 0.3 s -> {'met' if min(c_new) < 0.3 else 'NOT met'} "
              f"(ratio now / before {statistics.median(c_new) / statistics.median(c_old):.2f})")

    mesh = body_mesh(settings)
    show("skin texture, one new tone (1024 px)",
         timed(lambda: (skin.skin_texture.cache_clear(), skin.skin_texture("#8D5524", "feminine")), repeats))
    show("occlusion bake, one body (512 px)", timed(lambda: ao.occlusion_texture(mesh), repeats))
    for style in ("short", "long"):
        show(f"hair mesh, {style}", timed(lambda style=style: hair.hair_piece(mesh, style), repeats))
    show("outfit meshes", timed(lambda: outfit.outfit_pieces(mesh), repeats))
    atlas = build_avatar(normalize_avatar_settings({"gender": "feminine", "hair": {"style": "long"}, "glasses": "clear"}),
                         ModelOptions(texture_atlas_size=1024))
    plain = build_avatar(normalize_avatar_settings({"gender": "feminine", "hair": {"style": "long"}, "glasses": "clear"}),
                         ModelOptions())
    print(f"LOD 0, long hair and glasses, 1024 atlas, 52 ARKit shapes: {len(atlas) / 1e6:.2f} MB "
          f"(goal under 6 MB -> {'met' if len(atlas) < 6e6 else 'NOT met'}); without the atlas {len(plain) / 1e6:.2f} MB")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 5)
