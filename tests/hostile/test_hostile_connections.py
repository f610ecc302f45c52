"""Hostile connections over raw sockets: slow bodies, refusals h11 makes below the app, and the
log lines a slow-body run leaves."""

from __future__ import annotations

import socket
import time

import httpx
import pytest
from conftest import ServerProcess
from helpers import answer_of


@pytest.fixture(scope="module")
def slow_server(tmp_path_factory):
    srv = ServerProcess(tmp_path_factory.mktemp("slow") / "data",
                        args=("--read-timeout", "5", "--body-timeout", "2", "--max-connections", "20")).start()
    yield srv
    srv.stop()


def dribbling_upload(port: int) -> socket.socket:
    s = socket.create_connection(("127.0.0.1", port))
    s.sendall(b"POST /_local/viewers HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
              b"Content-Length: 1000\r\n\r\n{")
    return s


# ---------------------------------------------------------------- 5. slow bodies

def test_a_trickling_body_gets_408_in_the_envelope_and_the_connection_closed(slow_server):
    with dribbling_upload(slow_server.port) as s:
        # a byte a second keeps the per-piece read timeout (5 s) from ever firing; the body's deadline (2 s) does
        status = None
        for _ in range(30):
            try:
                s.sendall(b" ")
            except OSError:
                break
            s.settimeout(1)
            try:
                status, headers, body = answer_of(s)
                break
            except TimeoutError:
                continue
        assert status == 408
        assert body["error"]["code"] == "request_timeout" and headers.get("x-request-id")
        assert headers.get("connection") == "close"
        s.settimeout(10)
        assert s.recv(100) == b""  # closed


def test_slow_bodies_at_the_cap_do_not_keep_new_requests_out(slow_server):
    socks = [dribbling_upload(slow_server.port) for _ in range(25)]  # past the cap of 20
    try:
        with httpx.Client(timeout=30) as http:
            answered = [http.get(slow_server.local_url + "/health").status_code for _ in range(10)]
        assert answered == [200] * 10
    finally:
        for s in socks:
            s.close()


# ---------------------------------------------------------------- 7. refusals below the app

@pytest.mark.parametrize("request_bytes, status, code", [
    (b"GET /_local/health HTTP/1.1\r\nHost: 127.0.0.1\r\nHost: evil.example\r\n\r\n", 400, "invalid_http"),
    (b"GET /_local/health HTTP/1.1\r\n\r\n", 400, "invalid_http"),
    (b"GET /_local/health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: " + b"a" * (1 << 20) + b"\r\n\r\n", 431, "header_too_large"),
    ("GET /_local/héalth HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode(), 400, "invalid_http"),
    (b"POST /_local/reset HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: gzip\r\n\r\n", 501, "not_implemented"),
    (b"OPTIONS /avatars/animations HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: ]N\\ ,Z^)7\"\r\n\r\n", 501,
     "not_implemented"),
], ids=["two-hosts", "no-host", "1MB-header", "raw-non-ascii-path", "gzip-coding", "garbage-coding"])
def test_refusals_below_the_app_get_the_envelope_and_a_request_id(server, request_bytes, status, code):
    with socket.create_connection(("127.0.0.1", server.port)) as s:
        try:
            s.sendall(request_bytes)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the server answered and closed before the 1 MB head was all sent
        got, headers, body = answer_of(s)
    assert got == status
    assert headers["content-type"] == "application/json" and headers.get("x-request-id")
    assert body["status"] == "error" and body["error"]["code"] == code
    assert "Invalid HTTP request received" not in body["error"]["message"]


# ---------------------------------------------------------------- 8. logs

def test_a_client_gone_mid_body_is_one_info_line_not_a_traceback(tmp_path):
    srv = ServerProcess(tmp_path / "data", args=("--read-timeout", "5")).start()
    try:
        for _ in range(3):
            with dribbling_upload(srv.port) as s:
                s.sendall(b'"kind"')
                time.sleep(0.2)  # the server is reading the body when the client goes
        # the server notices each disconnect; a request after them is logged after them
        assert httpx.get(srv.local_url + "/health").status_code == 200
    finally:
        srv.stop()
    log = (tmp_path / f"serve-{srv.port}.log").read_text()
    assert "Traceback" not in log and "unexpected fault" not in log, log[-3000:]
    assert log.count("client disconnected before sending the whole body") == 3, log[-3000:]


def test_the_ignored_params_header_names_the_first_few_and_the_count(server):
    r = httpx.get(server.local_url + "/health", params={f"p{i}": "" for i in range(1500)})
    value = r.headers["x-workbench-ignored-params"]
    assert len(value) < 1000 and value.endswith("; total=1500"), value[:200]
    assert value.startswith("p0, p1, p2")
