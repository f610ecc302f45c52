"""Files in the data folder and the body's cache are not trusted (issue 45, item 3): only a regular file inside its
folder, of a bounded size, is read, never through a link; anything else (a link out, a FIFO, a link to
/dev/zero, a folder) is made again, the log saying so, or refused, and SIGTERM still stops the service."""

from __future__ import annotations

import json
import os
import signal

import httpx
import pytest
from conftest import ServerProcess
from helpers import auth, error_of, new_avatar, wait_for
from test_hostile_compiled_cache import FIRST, good, model, own_cache  # noqa: F401  (fixtures)

from workbench.body import keep

OUTSIDE = b"glTF a file outside the data folder, which must never be served"


def _link_out(path, tmp_path):
    outside = tmp_path / "outside.glb"
    outside.write_bytes(OUTSIDE)
    path.symlink_to(outside)


def _fifo(path, tmp_path):
    os.mkfifo(path)


def _dev_zero(path, tmp_path):
    path.symlink_to("/dev/zero")


def _folder(path, tmp_path):
    path.mkdir()
    (path / "x").write_bytes(OUTSIDE)


REPLACEMENTS = {"link-out": _link_out, "fifo": _fifo, "dev-zero": _dev_zero, "folder": _folder}


def _log(server) -> str:
    return (server.data_dir.parent / f"serve-{server.port}.log").read_text(errors="replace")


@pytest.mark.parametrize("kind", ["model", "preview"])
def test_a_cached_file_replaced_by_anything_else_is_made_again(server, tmp_path, kind):
    mid = new_avatar(server, {"gender": "masculine", "height": 171})["modelId"]
    url = f"{server.avatar_base_url}/{kind}/{mid}.{'glb' if kind == 'model' else 'png'}"
    first = httpx.get(url, headers=auth(server), timeout=120)
    assert first.status_code == 200
    [cached] = (server.data_dir / f"{kind}s" / mid).iterdir()
    for name, replace in REPLACEMENTS.items():
        if cached.is_dir() and not cached.is_symlink():
            os.rename(cached, tmp_path / f"gone-{name}")
        else:
            cached.unlink()
        replace(cached, tmp_path)
        r = httpx.get(url, headers=auth(server), timeout=60)   # a FIFO hung here; /dev/zero grew the service
        assert r.status_code == 200, (name, r.text[:200])
        assert r.content == first.content and r.headers["etag"] == first.headers["etag"], name
        (tmp_path / "outside.glb").unlink(missing_ok=True)
    assert f"the cached file {cached}" in _log(server) and "making it again" in _log(server)


def test_a_cached_files_folder_replaced_by_a_link_out_is_neither_read_nor_written(server, tmp_path):
    mid = new_avatar(server, {"gender": "feminine", "height": 158})["modelId"]
    url = f"{server.avatar_base_url}/model/{mid}.glb"
    first = httpx.get(url, headers=auth(server), timeout=120)
    folder = server.data_dir / "models" / mid
    [cached] = folder.iterdir()
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    (outside / cached.name).write_bytes(OUTSIDE)
    cached.unlink()
    folder.rmdir()
    folder.symlink_to(outside)
    for _ in range(2):
        r = httpx.get(url, headers=auth(server), timeout=120)
        assert r.status_code == 200 and r.content == first.content
    assert sorted(p.name for p in outside.iterdir()) == [cached.name]
    assert (outside / cached.name).read_bytes() == OUTSIDE   # nothing written through the link


@pytest.mark.parametrize("replace", list(REPLACEMENTS))
def test_a_viewer_file_replaced_by_anything_else_is_not_served(server, tmp_path, replace):
    token = httpx.post(server.local_url + "/viewers", json={"kind": "product"}).json()["data"]["viewerToken"]
    r = httpx.put(f"{server.base_url}/viewers/{token}/regenerate/all", headers=auth(server))
    job = r.json()["data"]["jobId"]
    assert wait_for(lambda: httpx.get(f"{server.local_url}/viewers/{token}").json()["data"]["job"]["state"]
                    in ("succeeded", "failed"), 120)
    record = httpx.get(f"{server.local_url}/viewers/{token}").json()["data"]
    assert record["job"]["jobId"] == job and record["job"]["state"] == "succeeded", record
    [path] = (server.data_dir / "viewers" / token / "outputs").glob("*preview.png")
    path.unlink()
    REPLACEMENTS[replace](path, tmp_path)
    r = httpx.get(f"{server.local_url}/viewers/{token}/files/preview", timeout=30)
    error_of(r, 404, "file_not_found")
    assert b"outside the data folder" not in r.content
    assert f"the viewer file {path} is not served" in _log(server)
    # A new job makes it again.
    httpx.put(f"{server.base_url}/viewers/{token}/regenerate/all", headers=auth(server))
    assert wait_for(lambda: httpx.get(f"{server.local_url}/viewers/{token}/files/preview").status_code == 200, 120)


def _kept_by_fifo(compiled, body):
    for path in compiled.glob(f"skin-*{keep.KEPT_SUFFIX}"):
        path.unlink()
        os.mkfifo(path)


def _kept_by_dev_zero(compiled, body):
    for path in compiled.glob(f"texels-body-*{keep.KEPT_SUFFIX}"):
        path.unlink()
        path.symlink_to("/dev/zero")


def _compiled_by_fifo(compiled, body):
    (body / "quads.npy").unlink()
    os.mkfifo(body / "quads.npy")


@pytest.mark.slow   # a service of its own, and the arrays made again
def test_kept_arrays_replaced_by_a_fifo_or_dev_zero_are_made_again(good, own_cache, tmp_path):  # noqa: F811
    """Kept skins a FIFO, kept texels a link to /dev/zero and the compiled body's quads a FIFO, at once: each file
    is opened on its own as it is read (files.NotOurs), so one service shows each refused and made again, as
    test_hostile_compiled_cache.py's wrong cache does (a service apiece cost a start and a compile each)."""
    compiled, body = own_cache
    kept = sorted([*compiled.glob(f"skin-*{keep.KEPT_SUFFIX}"), *compiled.glob(f"texels-body-*{keep.KEPT_SUFFIX}")])
    assert any(p.name.startswith("skin-") for p in kept) and any(p.name.startswith("texels-") for p in kept), kept
    for harm in (_kept_by_fifo, _kept_by_dev_zero, _compiled_by_fifo):
        harm(*own_cache)
    server = ServerProcess(tmp_path / "data").start()
    try:
        r = model(server, FIRST)   # every model and preview request hung behind a FIFO, past 60 s
        assert r.status_code == 200, r.text
        assert r.content == good[2][json.dumps(FIRST)]
        server.proc.send_signal(signal.SIGTERM)
        assert server.proc.wait(30) == 0
    finally:
        server.stop()
    log = (tmp_path / f"serve-{server.port}.log").read_text(errors="replace")
    assert f"{body / 'quads.npy'}: it is a FIFO, not a regular file" in log and "compiling it again" in log, log[-3000:]
    # every kept file the model read (its own gender's skin, the body's texels) refused as what it is and made again
    refused = [p for p in kept if f"the kept arrays {p} are unreadable or wrong" in log]
    assert any(p.name.startswith("skin-") for p in refused) and any(p.name.startswith("texels-") for p in refused), \
        (kept, log[-3000:])
    for path in refused:
        what = "a FIFO" if path.name.startswith("skin-") else "a symbolic link"
        assert f"{path}: it is {what}, not a regular file" in log, (path, log[-3000:])
