"""The workbench command: token create on a data folder, synth, and serve's first-start output."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import httpx
from conftest import ROOT, ServerProcess
from helpers import cli_in_process


def run(*args, env=None):
    return subprocess.run([sys.executable, "-m", "workbench.cli", *args], capture_output=True, text=True, timeout=120,
                          env={**os.environ, "PYTHONPATH": str(ROOT), **(env or {})})


def test_token_create_makes_a_scoped_token_the_server_accepts(tmp_path):
    data = tmp_path / "data"
    first = run("token", "create", "--scopes", "viewer:write", "--data-dir", str(data), "--init")
    assert first.returncode == 0, first.stderr
    lines = first.stdout.strip().splitlines()
    assert "development token (shown once)" in lines[0]
    token = lines[-1]
    srv = ServerProcess(data).start()
    try:
        vt = httpx.post(srv.local_url + "/viewers", json={"kind": "product"}).json()["data"]["viewerToken"]
        ok = httpx.post(f"{srv.base_url}/viewers/{vt}/regenerate/all", headers={"Authorization": f"Bearer {token}"})
        assert ok.status_code == 200
        no = httpx.post(srv.avatar_base_url + "/avatar", json={"gender": "feminine"}, headers={"Authorization": f"Bearer {token}"})
        assert no.status_code == 401 and no.json()["error"]["code"] == "insufficient_scope"
        # The dev token printed on first start was not replaced by the test's WORKBENCH_DEV_TOKEN later.
        dev = lines[0].split(": ")[-1]
        assert httpx.post(srv.avatar_base_url + "/avatar", json={"gender": "feminine"},
                          headers={"Authorization": f"Bearer {dev}"}).status_code == 201
    finally:
        srv.stop()
    # A start on a folder that has its database shows no token: the "shown once" of a first start (the session's
    # service below) is not printed again (this test's service started on the folder --init made).
    assert "shown once" not in (tmp_path / f"serve-{srv.port}.log").read_text()
    again = run("token", "create", "--data-dir", str(data))   # the folder --init made now has a database
    assert again.returncode == 0 and "shown once" not in again.stdout and again.stdout.strip().startswith("wb_"), again


def test_synth_writes_jsonl(tmp_path, capsys):
    out = tmp_path / "events.jsonl"
    r = run("synth", str(out), "--events", "500", "--seed", "4")
    assert r.returncode == 0, r.stderr
    rows = [json.loads(l) for l in out.read_text().splitlines()]
    assert len(rows) == 500 and {"sessionId", "key", "timestamp"} <= set(rows[0])
    # The same seed again, by the command's main in this process (the command's own process is the run above): the
    # same bytes whichever process writes them, without a second interpreter.
    again = tmp_path / "again.jsonl"
    assert cli_in_process(capsys, "synth", str(again), "--events", "500", "--seed", "4").returncode == 0
    assert again.read_bytes() == out.read_bytes()


def test_serve_prints_both_base_urls_and_the_token_once(server):
    """The first start's output, read from the session's `workbench serve` (conftest's ``server``: a first start on a
    new folder, its output in its log); that a later start shows no token is in the test above."""
    log = (server.data_dir.parent / f"serve-{server.port}.log").read_text()
    assert f"http://127.0.0.1:{server.port}/api" in log and f"http://127.0.0.1:{server.port}/avatars" in log
    assert log.count("development token (shown once): wb_test_dev_token") == 1
