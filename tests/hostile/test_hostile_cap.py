"""The connection cap against idle sockets, with a steady upload under way (issue 40, item 5), and a head over
16 KiB that arrives in one write (item 9)."""

from __future__ import annotations

import socket
import threading
import time

import pytest
from conftest import ServerProcess
from helpers import answer_of, make_space

MiB = 1 << 20


@pytest.fixture(scope="module")
def capped(tmp_path_factory):
    srv = ServerProcess(tmp_path_factory.mktemp("capped") / "data", args=("--max-connections", "10")).start()
    yield srv
    srv.stop()


def test_a_steady_upload_completes_while_idle_connections_fill_the_cap(capped):
    sid = make_space(capped, kind="splat")
    size, piece = 20 * MiB, 256 * 1024
    upload = socket.create_connection(("127.0.0.1", capped.port))
    upload.sendall(f"PUT /_local/spaces/{sid}/upload?filename=big.splat HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                   f"Content-Type: application/octet-stream\r\nContent-Length: {size}\r\n\r\n".encode())
    sent = threading.Event()
    failure = []

    def send():
        try:
            for _ in range(size // piece):      # 2 MiB/s: a piece every 1/8 s (the client's own pace)
                upload.sendall(b"\0" * piece)
                time.sleep(0.125)
        except OSError as e:
            failure.append(e)
        sent.set()

    threading.Thread(target=send, daemon=True).start()
    idle = []
    try:
        while not sent.is_set():                # a new idle socket every 0.1 s, far past the cap of 10
            idle.append(socket.create_connection(("127.0.0.1", capped.port)))
            sent.wait(0.1)
        assert not failure, f"the upload was cut after {len(idle)} idle sockets: {failure}"
        status, _, body = answer_of(upload, timeout=60)
        assert status == 200 and body["data"]["bytes"] == size and body["data"]["state"] == "uploaded", body
        # The cap was reached and kept: the server closed idle sockets to make room.
        closed = 0
        for s in idle:
            s.setblocking(False)
            try:
                closed += s.recv(1) == b""
            except BlockingIOError:
                pass
            except OSError:
                closed += 1
        assert closed >= len(idle) - 10, (closed, len(idle))
    finally:
        upload.close()
        for s in idle:
            s.close()


@pytest.mark.parametrize("pieces", [1, 4])
def test_a_head_over_16_kib_gets_431_in_one_write_or_in_pieces(server, pieces):
    head = b"GET /_local/health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: " + b"a" * (20 * 1024) + b"\r\n\r\n"
    with socket.create_connection(("127.0.0.1", server.port)) as s:
        s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        step = -(-len(head) // pieces)
        try:
            for i in range(0, len(head), step):
                s.sendall(head[i:i + step])
                if pieces > 1:
                    time.sleep(0.05)   # apart, so the server reads them as pieces
        except (BrokenPipeError, ConnectionResetError):
            pass  # answered and closed before the rest was sent
        status, headers, body = answer_of(s)
    assert status == 431 and body["error"]["code"] == "header_too_large" and headers.get("x-request-id")


def test_a_head_under_16_kib_in_one_write_is_served(server):
    head = b"GET /_local/health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nX-Big: " + b"a" * (15 * 1024) + \
        b"\r\n\r\n"
    with socket.create_connection(("127.0.0.1", server.port)) as s:
        s.sendall(head)
        status, _, body = answer_of(s)
    assert status == 200 and body["status"] == "ok"
