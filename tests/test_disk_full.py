"""A full disk (contract section 14), for real: the service's data folder on a small tmpfs, filled up.

Writes (tracking batches, avatar registration, regeneration, finish-upload) answer 507
``insufficient_storage`` with ``Retry-After`` and keep nothing; reads (previews, models made
then, the animation library, the export, health) keep working; everything acknowledged before is
still there; and once space is freed the same requests succeed, with no restart.

Mounting needs root: elsewhere the test skips and says so.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import httpx
import pytest

from conftest import DATA, ServerProcess
from helpers import wait_for

HB = {"key": "heartbeat", "payload": {"visible": True}}


@pytest.fixture()
def small_disk(tmp_path):
    if not hasattr(os, "geteuid") or os.geteuid() != 0:
        pytest.skip("a full disk is tested on a small tmpfs, and mounting one needs root")
    if shutil.which("mount") is None:
        pytest.skip("no mount command here to make a small tmpfs")
    folder = tmp_path / "logs-here" / "data"  # the data folder is the mount; the server's log stays outside
    folder.mkdir(parents=True)
    made = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=32m", "tmpfs", str(folder)], capture_output=True, text=True)
    if made.returncode != 0:
        pytest.skip(f"cannot mount a small tmpfs here: {made.stderr.strip()}")
    yield folder
    subprocess.run(["umount", "-l", str(folder)], capture_output=True)


def fill(folder: Path) -> Path:
    """Write a file until the disk is full; the file (delete it to free the space)."""
    filler = folder / "filler.bin"
    chunk = b"\0" * (1 << 20)
    with open(filler, "wb", buffering=0) as f:
        try:
            while True:
                f.write(chunk)
        except OSError:
            pass
        for size in (1 << 16, 1 << 12, 1 << 9, 1):  # the last bytes too
            try:
                while True:
                    f.write(b"\0" * size)
            except OSError:
                pass
    return filler


def batch(session: str, ids) -> dict:
    return {"sessionId": session, "events": [{**HB, "id": i} for i in ids]}


def refused(r: httpx.Response) -> None:
    assert r.status_code == 507, (r.status_code, r.text)
    assert r.json()["error"]["code"] == "insufficient_storage" and "Traceback" not in r.text
    assert float(r.headers["retry-after"]) > 0


def test_a_full_disk_refuses_writes_keeps_reads_loses_nothing_and_recovers(small_disk):
    srv = ServerProcess(small_disk).start()
    try:
        auth = {"Authorization": f"Bearer {srv.token}"}
        with httpx.Client(timeout=120) as http:
            mid = http.post(srv.avatar_base_url + "/avatar", json={"gender": "feminine"}, headers=auth).json()["data"]["modelId"]
            vt = http.post(srv.local_url + "/viewers", json={"kind": "product"}).json()["data"]["viewerToken"]
            sid = http.post(srv.local_url + "/spaces", json={"kind": "glb"}).json()["data"]["spaceTemplateId"]
            up = http.put(f"{srv.local_url}/spaces/{sid}/upload", params={"filename": "bundle.glb"},
                          content=(DATA / "sample_space.glb").read_bytes())
            assert up.status_code == 200, up.text
            tracking = f"{srv.base_url}/viewers/{vt}/tracking-event/batch"
            assert http.post(tracking, json=batch("before", ["b1", "b2"])).status_code == 200
            finish = f"{srv.base_url}/resources/spaces/{sid}/finish-upload"
            form = {"success": (None, "true"), "message": (None, "done")}
            # the animation library is made in the background at the first start
            assert wait_for(lambda: http.get(srv.local_url + "/health").json()["data"]["animationLibrary"] == "ready",
                            timeout=120), "the animation library was not made in 120 s"

            filler = fill(small_disk)

            # Writes: 507, nothing kept.
            refused(http.post(tracking, json=batch("during", ["d1", "d2", "d3"])))
            refused(http.post(tracking, content=json.dumps(batch("beacon", ["k1"])), headers={"Content-Type": "text/plain"}))
            refused(http.post(srv.avatar_base_url + "/avatar", json={"gender": "masculine"}, headers=auth))
            refused(http.post(f"{srv.base_url}/viewers/{vt}/regenerate/all", headers=auth))
            refused(http.post(finish, files=form, headers=auth))

            # Reads keep working, the ones that make a file on the way included.
            assert http.get(f"{srv.avatar_base_url}/preview/{mid}.png", params={"size": 128}).status_code == 200
            assert http.get(f"{srv.avatar_base_url}/model/{mid}.glb", params={"lod": 2}).status_code == 200
            assert http.get(srv.avatar_base_url + "/animations").status_code == 200
            assert http.get(srv.avatar_base_url + "/animations/feminine/wave.glb").status_code == 200
            counts = http.get(srv.local_url + "/health").json()["data"]["counts"]
            assert counts["avatars"] == 1 and counts["events"] == 2, counts
            assert http.get(f"{srv.local_url}/spaces/{sid}").json()["data"]["state"] == "uploaded"
            assert http.get(f"{srv.local_url}/viewers/{vt}").json()["data"]["job"] is None

            # Space comes back: the same requests succeed, without a restart.
            filler.unlink()
            assert http.post(tracking, json=batch("during", ["d1", "d2", "d3"])).status_code == 200
            assert http.post(srv.avatar_base_url + "/avatar", json={"gender": "masculine"}, headers=auth).status_code == 201
            assert http.post(f"{srv.base_url}/viewers/{vt}/regenerate/all", headers=auth).status_code == 200
            done = http.post(finish, files=form, headers=auth)
            assert done.status_code == 201 and done.json()["data"]["state"] == "finalized", done.text
            rows = http.get(srv.local_url + "/tracking/events", params={"viewerToken": vt, "format": "jsonl"}).text
            assert sorted(json.loads(line)["id"] for line in rows.splitlines() if line) == ["b1", "b2", "d1", "d2", "d3"]
    finally:
        srv.stop()
    log = (srv.data_dir.parent / f"serve-{srv.port}.log").read_text()
    assert "Traceback" not in log, log[-3000:]
