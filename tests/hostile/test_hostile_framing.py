"""HTTP/1.1 framing on raw sockets (issue 45, item 4; RFC 9112): a request with both Content-Length and
Transfer-Encoding is refused and its connection closed, so nothing hidden after it is answered; a header folded
onto a continuation line is refused; an answer sent while the request's body is still arriving closes the
connection, so the rest of that body is never read as a request."""

from __future__ import annotations

import json
import socket

import pytest
from helpers import answer_of, read_message


def _connect(server) -> socket.socket:
    s = socket.create_connection(("127.0.0.1", server.port), timeout=30)
    s.settimeout(30)
    return s


def _rest(sock) -> bytes:
    """Everything the server sends until it closes the connection (a test that waits longer fails by timeout)."""
    out = b""
    while True:
        try:
            chunk = sock.recv(65536)
        except ConnectionResetError:
            return out
        if not chunk:
            return out
        out += chunk


HIDDEN = b"GET /_local/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"


@pytest.mark.parametrize("head, body", [
    (b"Content-Length: 5\r\nTransfer-Encoding: chunked\r\n", b"0\r\n\r\n"),
    (b"Transfer-Encoding: chunked\r\nContent-Length: 4\r\n", b"4\r\nabcd\r\n0\r\n\r\n"),
], ids=["length-first", "chunked-first"])
def test_content_length_and_transfer_encoding_together_are_refused_and_the_connection_closed(server, viewer, head, body):
    with _connect(server) as s:
        s.sendall(f"POST /api/viewers/{viewer}/tracking-event/batch HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                  "Content-Type: application/json\r\n".encode() + head + b"\r\n" + body + HIDDEN)
        status, headers, answer = answer_of(s)
        assert status == 400 and answer["error"]["code"] == "invalid_http", answer
        assert "Content-Length and Transfer-Encoding" in answer["error"]["message"]
        assert headers.get("connection") == "close"
        assert _rest(s) == b""   # the GET hidden after the chunked end is never answered


@pytest.mark.parametrize("fold", [b"Host: 127.0.0.1\r\n evil.com\r\n", b"Host: 127.0.0.1\r\nX-Note: a\r\n\tcontinued\r\n"],
                         ids=["host", "another-header"])
def test_a_header_continued_on_a_folded_line_is_400(server, fold):
    with _connect(server) as s:
        s.sendall(b"GET /_local/health HTTP/1.1\r\n" + fold + b"\r\n")
        status, headers, answer = answer_of(s)
        assert status == 400 and answer["error"]["code"] == "invalid_http", answer
        assert "obs-fold" in answer["error"]["message"] and headers.get("x-request-id")
        assert _rest(s) == b""


def test_the_same_requests_unfolded_and_with_one_framing_are_answered_on_one_connection(server, viewer):
    batch = json.dumps({"sessionId": "s1", "events": [{"key": "heartbeat", "payload": {"visible": True}}]}).encode()
    with _connect(server) as s:
        s.sendall(b"GET /_local/health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Note: a continued\r\n\r\n")
        assert answer_of(s)[0] == 200
        s.sendall(f"POST /api/viewers/{viewer}/tracking-event/batch HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                  f"Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n{len(batch):x}\r\n".encode()
                  + batch + b"\r\n0\r\n\r\n")
        assert answer_of(s)[0] == 200
        s.sendall(HIDDEN)
        assert answer_of(s)[0] == 200   # kept alive: nothing was wrong


def test_an_answer_sent_with_the_body_unread_closes_the_connection(server):
    """A 413 for a chunked body past the limit (64 KiB), sent while the body still arrives: the connection is
    closed, so the innocent request sent next on it is never read as part of that body (it got 400, or 431)."""
    with _connect(server) as s:
        s.sendall(b"POST /avatars/avatar HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer " + server.token.encode()
                  + b"\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n")
        piece = b"9000\r\n" + b" " * 0x9000 + b"\r\n"
        s.sendall(piece + piece)   # 72 KiB of a body that does not end
        message = read_message(s)
        assert message is not None and message[0].split()[1] == "413", message
        try:
            s.sendall(HIDDEN)
        except OSError:
            pass   # closed already
        assert b"HTTP/1.1" not in _rest(s)


def test_an_early_answer_reaches_a_client_whose_body_arrives_after_it(server):
    """A request refused before its body is read (a foreign Host here) is answered, and the answer is not lost when
    the body arrives after it: the service closes its writing side and drops what still comes for a moment (RFC 9112
    section 9.6). (Closed at once with the body's bytes unread, a socket answers with a reset, which can take the
    answer with it: CI saw "Connection reset by peer" on such 400s. This test guards the answer and the close; it
    does not make that reset happen on demand: on the old code it passes here too.)"""
    import select

    with _connect(server) as s:
        body = b"{" + b" " * (256 * 1024 - 2) + b"}"
        s.sendall(b"POST /_local/reset HTTP/1.1\r\nHost: evil.example\r\nContent-Type: application/json\r\n"
                  b"Content-Length: " + str(len(body)).encode() + b"\r\n\r\n")
        # The answer is on its way (readable), and left unread while the body goes.
        assert select.select([s], [], [], 30)[0]
        try:
            s.sendall(body)
        except OSError:
            pass   # the service stopped reading: the answer must still be there to read
        answer = _rest(s)
        assert answer.startswith(b"HTTP/1.1 400") and b"host_not_allowed" in answer, answer[:200]


def test_a_small_body_arriving_after_its_head_keeps_the_connection_for_the_next_request(server):
    """A request refused for its head (a form post to /_local) whose small body comes in a packet after the head:
    the body is read before the refusal, so the connection stays open and the next request on it is answered. (The
    connection used to close after the refusal with the body unread, and a keep-alive client that had already sent
    its next request on it got no answer: "Server disconnected without sending a response", seen under load.)"""
    import select

    with _connect(server) as s:
        s.sendall(b"POST /_local/reset HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: text/plain\r\nContent-Length: 2\r\n\r\n")
        # Long enough for an answer given before the body to be on its way (the old code's); no answer is due yet.
        early = select.select([s], [], [], 1.0)[0]
        s.sendall(b"{}")
        status, headers, answer = answer_of(s)
        assert status == 403 and answer["error"]["code"] == "cross_site_request", answer
        assert headers.get("connection") != "close" and not early
        s.sendall(HIDDEN)
        status, _, answer = answer_of(s)
        assert status == 200, answer
