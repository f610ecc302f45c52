"""A full disk (contract section 14), for real: the service's data folder on a small tmpfs, filled up.

Writes (tracking batches, avatar registration, regeneration, finish-upload) answer 507
``insufficient_storage`` with ``Retry-After`` and keep nothing; reads (previews, models made
then, the animation library, the export, health) keep working; everything acknowledged before is
still there; and once space is freed the same requests succeed, with no restart.

"Full" is the database's own state, not only the file system's: SQLite writes into the free pages
and the room inside pages it already has, so a small batch can still be stored (and acknowledged)
on a full disk. The test fills the file system, then sends batches until SQLite answers "full"
three times running; every batch acknowledged on the way must still be there at the end.

Mounting a tmpfs changes the machine, so the test runs only when asked (``.ci/run`` asks), as root:

    WORKBENCH_MACHINE_TESTS=1 pytest tests/service/test_disk_full.py
"""

from __future__ import annotations

import json
from pathlib import Path

import httpx
from conftest import DATA, ServerProcess
from helpers import wait_for

HB = {"key": "heartbeat", "payload": {"visible": True}}


def fill(folder: Path) -> Path:
    """Write a file until the disk is full; the file (delete it to free the space)."""
    filler = folder / "filler.bin"
    chunk = b"\0" * (1 << 20)
    with open(filler, "ab", buffering=0) as f:
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


def fill_database(writes: dict, limit: int = 2000) -> dict[str, int]:
    """Make each write of ``writes`` (name: a call giving its answer) until SQLite answers "full"
    (507) three times running, in their order: big batches of events first, then smaller ones (a
    failed write leaves room in its log that a smaller one fits in), then each other kind of row.
    How many of each it acknowledged on the way."""
    kept = {}
    for name, write in writes.items():
        kept[name], refusals = 0, 0
        while refusals < 3:
            r = write(kept[name])
            if r.status_code < 300:
                kept[name] += 1
                refusals = 0
            else:
                refused(r)
                refusals += 1
            if kept[name] > limit:
                raise AssertionError(f"{name}: still stored after {limit} writes on a full disk")
    return kept


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

            # things of their own for the filling writes, so the ones checked below stay as they were
            vt2 = http.post(srv.local_url + "/viewers", json={"kind": "product"}).json()["data"]["viewerToken"]
            filling = f"{srv.base_url}/viewers/{vt2}/tracking-event/batch"

            def events(size):
                return lambda n: http.post(filling, json=batch(f"fill{size}", [f"{size}-{n}-{i}" for i in range(size)]))

            filler = fill(small_disk)
            kept = fill_database({
                "100 events": events(100), "10 events": events(10), "1 event": events(1),
                "avatar": lambda n: http.post(srv.avatar_base_url + "/avatar", json={"gender": "masculine"}, headers=auth),
                "regeneration": lambda n: http.post(f"{srv.base_url}/viewers/{vt2}/regenerate/all", headers=auth),
            })

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
            filled = 100 * kept["100 events"] + 10 * kept["10 events"] + kept["1 event"]
            assert counts["avatars"] == 1 + kept["avatar"] and counts["events"] == 2 + filled, counts
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
            stored = sorted(json.loads(line)["id"] for line in rows.splitlines() if line)
            assert stored == ["b1", "b2", "d1", "d2", "d3"]
    finally:
        srv.stop()
    log = (srv.data_dir.parent / f"serve-{srv.port}.log").read_text()
    assert "Traceback" not in log, log[-3000:]
