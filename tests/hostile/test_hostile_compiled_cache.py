"""The compiled body cache, tampered with or cut short under a running service (issue 40, item 8): what is
loaded is checked and compiled again when wrong, and a file truncated while the service runs cannot kill it."""

from __future__ import annotations

import json
import os
import shutil

import httpx
import numpy as np
import pytest
from conftest import ServerProcess
from helpers import auth, new_avatar

from workbench.body import assets, keep
from workbench.body import compile as cc
from workbench.gltf import build_avatar
from workbench.options import ModelOptions, normalize_avatar_settings

pytestmark = pytest.mark.slow  # services that compile the body cache again (a load: tens of seconds of CPU each)

FIRST = {"gender": "feminine", "height": 162}
SECOND = {"gender": "masculine", "bodyShape": "heavy", "height": 191}


@pytest.fixture(scope="module")
def good():
    """The real cache's wheel and compiled folder, and the models they make (built here, untouched)."""
    try:
        wheel = assets.wheel()
    except assets.AssetsMissing:
        pytest.skip("the body assets are not cached: run `workbench assets fetch`")
    cc.compiled()  # the compiled folder exists
    models = {json.dumps(s): build_avatar(normalize_avatar_settings(s), ModelOptions()) for s in (FIRST, SECOND)}
    return wheel, cc._path(), models


@pytest.fixture()
def own_cache(good, tmp_path, monkeypatch):
    """A cache folder of the test's own (the wheel linked, the compiled folder copied), for a service to use."""
    wheel, body, _ = good
    cache = tmp_path / "cache"
    compiled = cache / assets.compiled_dir().name
    compiled.mkdir(parents=True)
    (cache / assets.WHEEL_NAME).symlink_to(wheel)
    shutil.copytree(body, compiled / body.name)
    # This code's kept arrays only (a machine that ran other versions keeps theirs for a day, gigabytes), hard
    # linked, not copied: six services here would copy hundreds of megabytes each (a CI machine ran out of disk),
    # and a symbolic link is refused as not the cache's own (workbench.files). The service replaces a wrong kept
    # file by a rename (keep.write_arrays), never writing into the shared file; a harm below that cuts a file
    # short unlinks it first.
    for kept in body.parent.glob(f"*-{keep.code_digest()}{keep.KEPT_SUFFIX}"):
        try:
            os.link(kept, compiled / kept.name)
        except OSError:   # another file system: a copy
            shutil.copyfile(kept, compiled / kept.name)
    monkeypatch.setenv("WORKBENCH_ASSETS_DIR", str(cache))
    return compiled, compiled / body.name


def model(server, settings) -> httpx.Response:
    mid = new_avatar(server, settings)["modelId"]
    return httpx.get(f"{server.avatar_base_url}/model/{mid}.glb", headers=auth(server), timeout=300)


def _rewrite(folder, name, change):
    path = folder / f"{name}.npy"
    a = np.load(path)
    np.save(path, change(a.copy()))


def _out_of_range(compiled, body):
    _rewrite(body, "quads", lambda a: a + 1_000_000)


def _nan(compiled, body):
    def poison(a):
        a[:] = np.nan
        return a
    _rewrite(body, "target_delta", poison)


def _wrong_key(compiled, body):
    (body / "skin_weights.npy").rename(body / "skin_weightz.npy")
    names = json.loads((body / "index.json").read_text())
    (body / "index.json").write_text(json.dumps([("skin_weightz" if n == "skin_weights" else n) for n in names]))


def _kept_texels_out_of_range(compiled, body):
    for path in compiled.glob(f"texels-body-*{keep.KEPT_SUFFIX}"):
        data = keep.read_arrays(path)
        data["triangle"] = data["triangle"] + 10_000_000
        keep.write_arrays(path, data)


def _kept_skin_truncated(compiled, body):
    for path in compiled.glob(f"skin-*{keep.KEPT_SUFFIX}"):
        head = path.read_bytes()[:1000]
        path.unlink()            # (a link to the real cache's file: cut short one of the test's own)
        path.write_bytes(head)


# Each wrong compiled body is refused, and says why, by the check every process runs as it loads the folder
# (compile._checked_load, which the service's first model calls): here in this process, where a refusal costs a
# read, not a compile. What a refusal leads to (the folder compiled again under a service, the same models) is
# the same code for every reason, shown once below with a refused body and both kinds of wrong kept arrays.
BODY_HARMS = {_out_of_range: "indices outside", _nan: "not finite", _wrong_key: "its index names"}


@pytest.mark.parametrize("harm", list(BODY_HARMS))
def test_a_wrong_compiled_body_is_refused_saying_why(harm, own_cache, caplog):
    harm(*own_cache)
    cc.forget()
    try:
        with caplog.at_level("WARNING", logger="workbench.body"):
            assert cc._checked_load() is None
    finally:
        cc.forget()   # (the next test of this worker loads the real cache again)
    assert f"{BODY_HARMS[harm]}" in caplog.text and "compiling it again" in caplog.text, caplog.text


def test_a_wrong_cache_is_compiled_again_under_a_service_and_the_models_are_the_same(good, own_cache, tmp_path):
    """A refused body, out-of-range texels and truncated skins at once: each file is checked on its own as it is
    read (a body's refusal stops at its first fault, hence one body harm here and each above), each is made
    again saying so, and the model is the same bytes."""
    compiled, _ = own_cache
    kept = sorted(p.name for p in [*compiled.glob(f"texels-body-*{keep.KEPT_SUFFIX}"), *compiled.glob(f"skin-*{keep.KEPT_SUFFIX}")])
    assert any(n.startswith("texels-") for n in kept) and any(n.startswith("skin-") for n in kept), kept
    for harm in (_out_of_range, _kept_texels_out_of_range, _kept_skin_truncated):
        harm(*own_cache)
    server = ServerProcess(tmp_path / "data").start()
    try:
        r = model(server, FIRST)
        assert r.status_code == 200, r.text
        assert r.content == good[2][json.dumps(FIRST)]
    finally:
        server.stop()
    log = (tmp_path / f"serve-{server.port}.log").read_text(errors="replace")
    # the log says what was wrong and that it was made again: the body, and every kept file the model read
    assert "compiling it again" in log, log[-2000:]
    remade = [n for n in kept if f"{n} are unreadable or wrong" in log]
    assert any(n.startswith("texels-") for n in remade) and any(n.startswith("skin-") for n in remade), (kept, log[-3000:])


def test_a_cache_file_truncated_under_a_running_service_does_not_kill_it(good, own_cache, tmp_path):
    compiled, body = own_cache
    server = ServerProcess(tmp_path / "data").start()
    try:
        assert model(server, FIRST).status_code == 200      # the compiled arrays are loaded
        biggest = max(body.glob("*.npy"), key=lambda p: p.stat().st_size)
        with open(biggest, "r+b") as f:
            f.truncate(4096)                                 # under the service's feet
        r = model(server, SECOND)                            # another body: other targets' pages
        assert r.status_code == 200 and r.content == good[2][json.dumps(SECOND)]
        assert server.proc.poll() is None
    finally:
        server.stop()
    # The next start finds the file short, says so, and compiles the folder again.
    again = ServerProcess(tmp_path / "data").start()
    try:
        assert model(again, SECOND).status_code == 200
    finally:
        again.stop()
    assert "again" in (tmp_path / f"serve-{again.port}.log").read_text(errors="replace")
