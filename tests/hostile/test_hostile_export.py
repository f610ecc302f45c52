"""Export of hostile values: a value stored before the number rule does not break the Parquet
export, which either completes or refuses before its first byte; the command line says what failed."""

from __future__ import annotations

import socket
import sqlite3
import subprocess
import sys
import threading

import httpx
import pyarrow.parquet as pq
import pytest
from conftest import ROOT, ServerProcess
from helpers import new_viewer

HUGE = "9" * 400


@pytest.fixture(scope="module")
def old_data_server(tmp_path_factory):
    """A server whose database holds a viewer_loaded event with a 400-digit loadTimeMs, written as the
    service stored it before numbers were bounded (straight into SQLite: the service now refuses it)."""
    srv = ServerProcess(tmp_path_factory.mktemp("unfit") / "data").start()
    viewer = new_viewer(srv)
    batch = {"sessionId": "s1", "events": [{"key": "viewer_loaded", "payload": {"loadTimeMs": 1200}, "id": "a"},
                                           {"key": "heartbeat", "payload": {"visible": True}, "id": "b"}]}
    assert httpx.post(f"{srv.base_url}/viewers/{viewer}/tracking-event/batch", json=batch).status_code == 200
    with sqlite3.connect(srv.data_dir / "workbench.db") as db:
        db.execute("INSERT INTO events (viewer_token, session_id, event_id, key, payload, ts, received_at) "
                   "SELECT viewer_token, session_id, 'old', key, ?, ts + 1, received_at FROM events WHERE event_id = 'a'",
                   (f'{{"loadTimeMs":{HUGE}}}',))
    yield srv, viewer
    srv.stop()


def test_the_parquet_export_completes_and_names_the_value_that_does_not_fit(old_data_server, tmp_path):
    srv, viewer = old_data_server
    r = httpx.get(srv.local_url + "/tracking/events", params={"format": "parquet"}, timeout=60)  # first answer imports pyarrow
    assert r.status_code == 200
    (tmp_path / "e.parquet").write_bytes(r.content)
    table = pq.read_table(tmp_path / "e.parquet")
    assert table.num_rows == 3
    assert sorted(table.column("payload.loadTimeMs").to_pylist(), key=str) == [1200.0, None, None]
    from workbench.tracking.lake import unfit_values

    note = unfit_values(tmp_path / "e.parquet")
    assert note["count"] == 1 and note["values"][0]["id"] == "old" and note["values"][0]["field"] == "payload.loadTimeMs"
    # the JSON lines export still carries the value as stored
    assert HUGE in httpx.get(srv.local_url + "/tracking/events").text


def run_cli(*args, timeout=60):
    return subprocess.run([sys.executable, "-m", "workbench.cli", *args], capture_output=True, text=True,
                          timeout=timeout, env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})


def test_workbench_export_writes_the_lake_and_reports_the_unfit_value(old_data_server, tmp_path):
    srv, _ = old_data_server
    done = run_cli("export", "--out", str(tmp_path / "lake"), "--local-url", srv.local_url)
    assert done.returncode == 0, done.stderr
    assert "wrote 3 events" in done.stdout
    assert "1 stored value(s) do not fit" in done.stderr and "payload.loadTimeMs" in done.stderr
    assert "Traceback" not in done.stderr


def test_workbench_export_against_a_port_that_never_answers_ends_with_one_line(tmp_path):
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(4)  # accepts (the kernel completes the handshake) and never answers
        port = listener.getsockname()[1]
        done = run_cli("export", "--out", str(tmp_path / "lake"), "--local-url", f"http://127.0.0.1:{port}/_local",
                       "--timeout", "1", timeout=30)
    assert done.returncode == 1
    assert len(done.stderr.strip().splitlines()) <= 2 and "Traceback" not in done.stderr, done.stderr
    assert f"127.0.0.1:{port}" in done.stderr


def test_workbench_export_says_when_the_answer_breaks_off(tmp_path):
    """A server that sends the head and part of the body, then closes: the command names the break."""
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(4)
        port = listener.getsockname()[1]

        def serve_half():
            conn, _ = listener.accept()
            with conn:
                conn.recv(65536)
                conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: application/vnd.apache.parquet\r\n"
                             b"Content-Length: 1000\r\n\r\nPAR1" + b"\0" * 100)

        t = threading.Thread(target=serve_half, daemon=True)
        t.start()
        done = run_cli("export", "--out", str(tmp_path / "lake"), "--local-url", f"http://127.0.0.1:{port}/_local",
                       "--timeout", "5")
        t.join(10)
    assert done.returncode == 1
    assert "broke off the answer after 104 bytes" in done.stderr and "Traceback" not in done.stderr, done.stderr
    assert not (tmp_path / "lake").exists()
