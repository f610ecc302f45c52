"""Stopping a local service (contract section 14): SIGTERM and SIGINT stop accepting, let requests in
flight finish, commit what was acknowledged, and exit 0.

A client streams tracking batches (each event with its own id) from several threads while the
signal arrives; after the exit, the service's backend opens the same data folder again (in this process, as a
second `workbench serve` would: `Backend` over the folder's database), and every event of every batch it answered
200 is there.
"""

from __future__ import annotations

import json
import signal
import threading

import httpx
import pytest
from conftest import ServerProcess

from workbench.service import Backend


def stream_batches(srv: ServerProcess, vt: str, worker: int, acked: list, started: threading.Event, stop: threading.Event):
    url = f"{srv.base_url}/viewers/{vt}/tracking-event/batch"
    with httpx.Client(timeout=30) as http:
        n = 0
        while not stop.is_set():
            ids = [f"w{worker}-b{n}-e{i}" for i in range(50)]
            body = {"sessionId": f"s{worker}", "events": [{"key": "heartbeat", "id": i, "payload": {"visible": True}} for i in ids]}
            try:
                r = http.post(url, json=body)
            except httpx.HTTPError:
                return  # the service stopped listening: nothing more is acknowledged
            if r.status_code == 200:
                acked.extend(ids)
            n += 1
            if n == 5:
                started.set()


@pytest.mark.slow  # a service of its own, stopped: the whole suite's (docs/testing.md, what the quick loop proves)
@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
def test_a_signal_during_a_stream_of_batches_loses_nothing_acknowledged_and_exits_0(tmp_path, sig):
    srv = ServerProcess(tmp_path / "data").start()
    vt = httpx.post(srv.local_url + "/viewers", json={"kind": "product"}, timeout=60).json()["data"]["viewerToken"]
    acked: list[str] = []
    stop = threading.Event()
    started = [threading.Event() for _ in range(3)]
    workers = [threading.Thread(target=stream_batches, args=(srv, vt, w, acked, started[w], stop)) for w in range(3)]
    for t in workers:
        t.start()
    try:
        for e in started:
            assert e.wait(60), "the batches did not start"
        srv.proc.send_signal(sig)
        code = srv.proc.wait(30)
    finally:
        stop.set()
        for t in workers:
            t.join(60)
        srv.stop()
    assert code == 0, f"exit status {code} (negative: killed by that signal, as before the drain)"
    log = (srv.data_dir.parent / f"serve-{srv.port}.log").read_text()
    assert "Traceback" not in log and f"stopped by {sig.name}" in log, log[-2000:]
    assert len(acked) >= 3 * 5 * 50

    # What a second start would read: the backend a `workbench serve` makes over the folder, opened here (a second
    # service's interpreter and animation library cost about 1.5 s of CPU and read the same database the same way).
    again = Backend(tmp_path / "data", generate_library=False)
    try:
        chunks, _ = again.stream_events({"viewerToken": vt, "format": "jsonl"})  # what GET /_local/tracking/events sends
        rows = b"".join(chunks).decode()
    finally:
        again.close()
    stored = {json.loads(line)["id"] for line in rows.splitlines() if line.strip()}
    missing = set(acked) - stored
    assert not missing, f"{len(missing)} acknowledged events were lost, e.g. {sorted(missing)[:3]}"
