"""Caches that cannot go stale: the cache key of models, previews and the animation library is a
fingerprint of the generator's own source, not a version someone must remember to bump.

The test changes the generator (a copy of its source with one edit, standing in for the next
commit) and restarts the service on the same data folder: the same request makes a new cache
entry, and the library is written again.
"""

from __future__ import annotations

import asyncio
import shutil

import httpx
import pytest

from workbench.service import Backend, content, create_app


def fetch(data_dir, path: str) -> httpx.Response:
    backend = Backend(data_dir, dev_token="wb_cache_dev_token_0123456789", generate_library=False)

    async def go():
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=create_app(backend)),
                                     base_url="http://localhost") as c:
            auth = {"Authorization": "Bearer wb_cache_dev_token_0123456789"}
            if path == "register":
                return await c.post("/avatars/avatar", json={"gender": "feminine"}, headers=auth)
            return await c.get(path)

    try:
        return asyncio.run(go())
    finally:
        backend.close()


def test_a_changed_generator_makes_a_new_cache_entry(tmp_path, monkeypatch):
    data = tmp_path / "data"
    mid = fetch(data, "register").json()["data"]["modelId"]
    first = fetch(data, f"/avatars/model/{mid}.glb?lod=2")
    assert first.status_code == 200
    entries = sorted(p.name for p in (data / "models" / mid).iterdir())
    assert len(entries) == 1 and entries[0].startswith(content.generator_fingerprint(content.generator_sources()))

    # The same code again: the entry is used, not made twice.
    assert fetch(data, f"/avatars/model/{mid}.glb?lod=2").content == first.content
    assert sorted(p.name for p in (data / "models" / mid).iterdir()) == entries

    # The next version of the generator: one line of body/mesh.py changed.
    copies = tmp_path / "next"
    sources = []
    for f in content.generator_sources():
        target = copies / f.parent.name / f.name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(f, target)
        sources.append(target)
    body = next(f for f in sources if f.name == "mesh.py")
    body.write_text(body.read_text() + "\n# the next version\n")
    monkeypatch.setattr(content, "generator_sources", lambda: sources)
    again = fetch(data, f"/avatars/model/{mid}.glb?lod=2")
    assert again.status_code == 200
    now = sorted(p.name for p in (data / "models" / mid).iterdir())
    assert len(now) == 2 and entries[0] in now, now
    new = next(n for n in now if n != entries[0])
    assert new.startswith(content.generator_fingerprint(sources)) and new.split("_", 1)[1] == entries[0].split("_", 1)[1]


def test_the_library_is_written_again_for_another_generator(tmp_path, monkeypatch):
    backend = Backend(tmp_path / "data", generate_library=True)
    try:
        backend.content.animation_file("feminine", "idle")  # waits for the library
        done = tmp_path / "data" / "animations" / ".complete"
        assert done.read_text().strip() == backend.content.generator
    finally:
        backend.close()
    done.write_text("g000000000000\n")  # written by an earlier generator
    backend = Backend(tmp_path / "data", generate_library=True)
    try:
        backend.content.animation_file("feminine", "idle")
        assert done.read_text().strip() == backend.content.generator
    finally:
        backend.close()


@pytest.mark.parametrize("name", ["mesh.py", "meshes.py", "raster.py", "limits.py", "skeleton.py"])
def test_the_fingerprint_covers_the_generator_and_the_renderer(name):
    assert name in {f.name for f in content.generator_sources()}


# What a process makes on a machine whose caches are empty is what every later process makes from them:
# a kept copy must be read back as the same numbers (the body's texel weights are kept as float16, and the
# first process once used its own float32 ones: its occlusion texture, and the GLB, differed).
_SAME_BYTES = """
import hashlib, sys
from workbench.gltf import build_avatar
from workbench.options import ModelOptions, normalize_avatar_settings, parse_preview_options
from workbench.render import render_preview
settings = normalize_avatar_settings({"gender": "feminine", "bodyShape": "slim", "height": 172, "skinTone": "#F1C27D",
                                      "hair": {"style": "bun", "color": "#6A4E42"}, "glasses": "clear"})
for lod in (0, 2):
    glb = build_avatar(settings, ModelOptions(lod=lod))
    print(lod, hashlib.sha256(glb).hexdigest())
print("png", hashlib.sha256(render_preview(glb, parse_preview_options({"size": "128"}))).hexdigest())
"""


# slow: new interpreters compile the body cache again (docs/testing.md); the quick loop keeps the fingerprint and
# cache-entry tests above, in this process.
@pytest.mark.slow
def test_a_cold_machine_makes_the_same_bytes_as_a_warm_one(tmp_path):
    import os
    import subprocess
    import sys

    from workbench.body import assets

    (tmp_path / assets.WHEEL_NAME).symlink_to(assets.wheel())
    env = {**os.environ, "WORKBENCH_ASSETS_DIR": str(tmp_path)}
    runs = [subprocess.run([sys.executable, "-c", _SAME_BYTES], env=env, capture_output=True, text=True, timeout=600)
            for _ in range(2)]
    for run in runs:
        assert run.returncode == 0, run.stderr[-2000:]
    assert any(p.name.startswith("compiled-") for p in tmp_path.iterdir())  # the first run filled the cache
    assert runs[0].stdout == runs[1].stdout and runs[0].stdout.count("\n") == 3
