"""The service's HTTP/1.1 connections: uvicorn's protocol with a read timeout, a whole-body deadline, a
cap on connections that keeps room for new requests, a bound on a request's head, and the contract's
envelope on the refusals h11 makes below the app.

>>> ConnectionLimits().max_connections, MAX_HEAD_BYTES
(500, 16384)
"""

from __future__ import annotations

import asyncio
import http
import math
import re
import secrets
import sys
from dataclasses import dataclass

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

from workbench.service.http import error_message

# The most bytes a request's head (request line and headers) may have: h11's bound on an incomplete
# event, which the server configuration hands to h11 (server_config), and this protocol's own for a
# head that arrives whole in one piece, which h11 would parse at any size.
MAX_HEAD_BYTES = 16 * 1024
# How long a connection answered before its request was all read keeps reading (and dropping) after its answer,
# its writing side closed, before it closes (RFC 9112 section 9.6's lingering close; nginx's lingering_time).
LINGER = 2.0


class _Refused(h11.RemoteProtocolError):
    """A request this service refuses before the app sees it, for a rule h11 does not hold (RFC 9112): ``code`` and
    ``message`` are the answer's."""

    def __init__(self, message: str):
        super().__init__(message, error_status_hint=400)
        self.code, self.message = "invalid_http", message


# A line of a head that begins with a space or a tab continues the line before (obs-fold, RFC 9112 section 5.2).
_FOLDED = re.compile(rb"\n[ \t]")
_HEAD_END = re.compile(rb"\n\r?\n")


class StrictConnection(h11.Connection):
    """h11's server connection, refusing two things h11 lets through (RFC 9112):

    - a head with an obs-fold line (a header's value continued on a line that starts with a space or a tab):
      section 5.2 lets a server refuse it or unfold it; h11 unfolds, so ``Host: 127.0.0.1`` then `` evil.com``
      reached the app as one Host. Refused with 400 here, before the request is parsed;
    - a request with both ``Content-Length`` and ``Transfer-Encoding``: section 6.1 lets a server refuse it or
      read it by its chunks, and either way close the connection after answering; h11 read it by its chunks and
      kept the connection, so a request hidden after the chunked end was answered too (request smuggling when
      a proxy in front reads by Content-Length). Refused with 400 here, and the connection closed.

    Both are raised as :class:`_Refused` (an ``h11.RemoteProtocolError``): uvicorn answers it through
    ``send_400_response``, which writes the contract's envelope and closes the connection.
    """

    def next_event(self):
        if self.their_state is h11.IDLE:
            # h11's own buffer (private: tests/service/test_dependency_guards.py checks it is there): the head
            # arriving, read up to its end once it is whole, before h11 unfolds it.
            buffer = self._receive_buffer._data
            end = _HEAD_END.search(buffer)
            if end is not None and _FOLDED.search(buffer, 0, end.start() + 1):
                raise _Refused("The request's head continues a header on a line that starts with a space or a tab "
                               "(obs-fold), which this service refuses (RFC 9112 section 5.2); nothing was done")
        event = super().next_event()
        if isinstance(event, h11.Request):
            names = {name.lower() for name, _ in event.headers}
            if b"content-length" in names and b"transfer-encoding" in names:
                raise _Refused("The request has both Content-Length and Transfer-Encoding, which this service "
                               "refuses (RFC 9112 section 6.1); the connection is closed; nothing was done")
        return event


@dataclass(frozen=True)
class ConnectionLimits:
    """How long a client may keep a connection without progress, and how many it may hold.

    read_timeout: seconds for a request's head to arrive (from connecting or from the previous
    answer) and between two pieces of its body; then the server closes the connection.
    body_timeout: seconds for a whole body to arrive, however steadily it trickles (plus a second for
    each MiB its Content-Length declares, so a large upload at 1 MiB/s is not cut off); then 408
    ``request_timeout`` and the connection is closed.
    keep_alive_timeout: seconds an idle connection stays open after an answer.
    max_connections: connections open at once. A connection past the cap takes the place of the idle
    one that has waited longest, else of the one still sending its request that sends slowest (its
    bytes over its time, see :data:`_RATE_PRIOR_BYTES`), so slow clients cannot keep new requests out
    and a steady upload is never the one cut; when every connection is being answered, the new one
    is closed.

    >>> ConnectionLimits(read_timeout=float("nan"))
    Traceback (most recent call last):
    ...
    ValueError: --read-timeout must be a finite number of seconds above 0; got nan
    """

    read_timeout: float = 10.0
    keep_alive_timeout: float = 30.0
    max_connections: int = 500
    body_timeout: float = 60.0

    def __post_init__(self):
        for name in ("read_timeout", "keep_alive_timeout", "body_timeout"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 < value < math.inf:
                raise ValueError(f"--{name.replace('_', '-')} must be a finite number of seconds above 0; got {value}")
        if isinstance(self.max_connections, bool) or not isinstance(self.max_connections, int) or self.max_connections < 1:
            raise ValueError(f"--max-connections must be a whole number of at least 1; got {self.max_connections}")


# A body may take body_timeout plus this many seconds per byte its Content-Length declares (1 MiB/s).
_SECONDS_PER_DECLARED_BYTE = 1 / (1 << 20)

# A request's receive rate, for choosing whom the cap closes, is (bytes + this) / (seconds + 1): a new
# connection starts at 1 KiB/s, one that sends nothing falls below it within a second, a steady upload
# stays far above (issue 40, item 5: the connection that had waited longest was a 2 MiB/s upload, cut
# with 408 while idle sockets filled the cap). Apache's mod_reqtimeout drops senders below a minimum
# rate in the same spirit; nginx refuses new connections at its limit, which lets idle sockets keep
# every new client out for their whole read timeout.
_RATE_PRIOR_BYTES = 1024


class GuardedH11Protocol(H11Protocol):
    """uvicorn's HTTP/1.1 protocol plus a read timeout, a whole-body deadline, a connection cap that
    keeps room for new requests, and the contract's envelope on the refusals h11 makes.

    uvicorn times out only idle keep-alive connections: one that sends nothing, half a head, or
    half a body stays open for ever, so slow clients can pile up sockets. This closes them.
    uvicorn has no public option for either (``limit_concurrency`` answers 503 instead of closing,
    and only once a request is read), so this extends its protocol class: the version range is
    pinned in pyproject.toml, and ``tests/service/test_dependency_guards.py`` names what this relies on
    (``connections``, ``conn.their_state``, ``flow.read_paused``, ``transport``, ``loop``, ``cycle``,
    ``send_400_response``, the callbacks) and fails with that list if an upgrade changes it.
    """

    def __init__(self, *args, limits: ConnectionLimits, **kwargs):
        super().__init__(*args, **kwargs)
        self.conn = StrictConnection(h11.SERVER, self.config.h11_max_incomplete_event_size or MAX_HEAD_BYTES)
        self.limits = limits
        self._read_timer: asyncio.TimerHandle | None = None
        self._body_timer: asyncio.TimerHandle | None = None
        # what the connection is doing: "head" (its request's head is arriving), "body", "answering"
        # (the app has the request), "idle" (kept alive after an answer); and since when
        self._phase, self._since = "head", 0.0
        # the bytes of the request being received, and when it began (its head's first byte, or connecting)
        self._received, self._request_since = 0, 0.0
        self._head_tail = b""   # the head's last bytes so far: its end may fall between two pieces
        self._lingering = False   # answered early and closing: what arrives is dropped (_close_lingering)
        self._linger_timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport) -> None:
        super().connection_made(transport)
        self._enter("head")
        if len(self.connections) > self.limits.max_connections:
            victim = self._to_close_for_new()
            if victim is None:
                self.logger.warning("closing a connection: %d are open, the cap is %d, and all are being answered",
                                    len(self.connections), self.limits.max_connections)
                transport.close()
                return
            victim._evict()
        self._arm_read_timer()

    def data_received(self, data: bytes) -> None:
        if self._lingering:
            return   # the rest of a request already answered and closing (_close_lingering): dropped
        if self._phase == "idle":
            self._enter("head")   # a new request after a keep-alive pause: its rate counts from now
        if self._phase == "head" and self._head_too_large(data):
            self._cancel_timers()
            self._write_error(431, *_REFUSALS[431])
            return
        self._received += len(data)
        super().data_received(data)
        state = self.conn.their_state
        if state is h11.SEND_BODY:
            if self._phase != "body":
                self._enter("body")
                self._arm_body_timer()
            self._arm_read_timer()  # the body is arriving: each piece must follow within the timeout
        elif state is h11.IDLE:
            if self._phase == "idle":
                self._enter("head")
            if self._read_timer is None:  # a new head began after a keep-alive pause: it has the timeout from now
                self._arm_read_timer()
        elif state is not h11.ERROR:
            self._enter("answering")
            self._cancel_timers()  # the request is read; answering it may take as long as it takes

    def on_response_complete(self) -> None:
        self._cancel_timers()  # uvicorn's keep-alive timeout guards the idle connection from here
        if self.conn.their_state is h11.SEND_BODY and not self.transport.is_closing():
            # Answered with the body still arriving (a 413, a 401 before an upload): whatever comes next on this
            # connection is the rest of that body, not a request (read as one, it got 431 or worse): closed.
            self._close_lingering()
            return
        self._enter("idle")
        super().on_response_complete()

    def eof_received(self) -> None:
        if self._lingering:   # the client is done sending after an early answer: nothing left to wait for
            self.transport.close()
            return
        super().eof_received()

    def connection_lost(self, exc) -> None:
        self._cancel_timers()
        if self._linger_timer is not None:
            self._linger_timer.cancel()
        super().connection_lost(exc)

    # ---------------------------------------------------------------- refusals below the app

    def send_400_response(self, msg: str) -> None:
        """h11 refused the request (two Host headers, none in HTTP/1.1, a head past its buffer, a byte a
        request line may not hold): the contract's envelope and an X-Request-Id, as every answer has.
        uvicorn calls this inside its ``except h11.RemoteProtocolError``, so the error is at hand."""
        error = sys.exc_info()[1]
        if isinstance(error, _Refused):
            self._write_error(400, error.code, error.message)
            return
        status = getattr(error, "error_status_hint", 400)
        code, message = _REFUSALS.get(status, _REFUSALS[400])
        self._write_error(status, code, message)

    def _write_error(self, status: int, code: str, message: str) -> None:
        rid = secrets.token_hex(8)
        start, body = error_message(status, code, f"{message} (request id {rid}).",
                                    headers=[(b"x-request-id", rid.encode()), (b"connection", b"close")])
        try:
            out = self.conn.send(h11.Response(status_code=status, headers=start["headers"]))
            out += self.conn.send(h11.Data(data=body)) + self.conn.send(h11.EndOfMessage())
        except h11.LocalProtocolError:  # h11 cannot answer in this state: the bytes are written as they are
            head = [f"HTTP/1.1 {status} {http.HTTPStatus(status).phrase}".encode()]
            out = b"\r\n".join(head + [k + b": " + v for k, v in start["headers"]]) + b"\r\n\r\n" + body
        self.transport.write(out)
        self._close_lingering()

    def _close_lingering(self) -> None:
        """Close after an answer sent before the request was all read, as RFC 9112 section 9.6 asks: the writing
        side first, then what still arrives read and dropped for at most :data:`LINGER` seconds. Closed at once,
        a socket with bytes still coming answers them with a reset, and a client that had not read the answer
        yet lost it with the reset ("Connection reset by peer" for a 400 sent before a small body)."""
        self._lingering = True
        self._cancel_timers()
        if self.transport.is_closing():
            return
        if self.transport.can_write_eof():
            self.transport.write_eof()
        self.transport.resume_reading()
        self._linger_timer = self.loop.call_later(LINGER, self.transport.close)

    # ---------------------------------------------------------------- timers and the cap

    def _enter(self, phase: str) -> None:
        self._phase, self._since = phase, self.loop.time()
        if phase == "head":
            self._received, self._request_since, self._head_tail = 0, self._since, b""

    def _head_too_large(self, data: bytes) -> bool:
        """Whether the head being received, with ``data``, passes :data:`MAX_HEAD_BYTES`. h11 refuses a head
        that long only while it is incomplete: one that arrived whole in a single piece was served."""
        seen = self._head_tail + data
        end = seen.find(b"\r\n\r\n")
        size = self._received - len(self._head_tail) + (end + 4 if end >= 0 else len(seen))
        self._head_tail = seen[-3:]
        return size > MAX_HEAD_BYTES

    def _receive_rate(self, now: float) -> float:
        """Bytes a second of the request being received (see :data:`_RATE_PRIOR_BYTES`)."""
        return (self._received + _RATE_PRIOR_BYTES) / (now - self._request_since + 1.0)

    def _to_close_for_new(self) -> GuardedH11Protocol | None:
        """The connection to close for a new one: the idle one that has waited longest, else the one still
        sending its request that sends slowest (the longest waiting of equals); None when all are being
        answered."""
        others = [c for c in self.connections if c is not self and isinstance(c, GuardedH11Protocol)
                  and not c.transport.is_closing()]
        idle = [c for c in others if c._phase == "idle"]
        if idle:
            return min(idle, key=lambda c: c._since)
        now = self.loop.time()
        sending = [c for c in others if c._phase in ("head", "body")]
        return min(sending, key=lambda c: (c._receive_rate(now), c._request_since), default=None)

    def _evict(self) -> None:
        self.logger.info("closing a connection %s for a new one: the cap of %d connections is reached",
                         "idle after an answer" if self._phase == "idle" else f"still sending its request ({self._phase})",
                         self.limits.max_connections)
        if self._phase == "body":
            self._time_out_body("The service is at its connection cap and this request's body arrived the slowest of "
                                "all; send it again")
        else:
            self._cancel_timers()
            self.transport.close()

    def _arm_read_timer(self) -> None:
        if self._read_timer is not None:
            self._read_timer.cancel()
        self._read_timer = self.loop.call_later(self.limits.read_timeout, self._read_timed_out)

    def _arm_body_timer(self) -> None:
        declared = dict(self.headers or []).get(b"content-length", b"0")
        allowance = int(declared) * _SECONDS_PER_DECLARED_BYTE if declared.isdigit() and len(declared) < 19 else 0
        self._body_timer = self.loop.call_later(self.limits.body_timeout + allowance, self._body_deadline)

    def _cancel_timers(self) -> None:
        for timer in (self._read_timer, self._body_timer):
            if timer is not None:
                timer.cancel()
        self._read_timer = self._body_timer = None

    def _read_timed_out(self) -> None:
        self._read_timer = None
        if self.flow.read_paused:
            # uvicorn stopped reading because the app has not taken the body yet: the wait is ours, not the client's.
            self._arm_read_timer()
        elif not self.transport.is_closing():
            self.transport.close()

    def _body_deadline(self) -> None:
        self._body_timer = None
        if self.flow.read_paused:  # the app has not taken what came: the wait is ours
            self._body_timer = self.loop.call_later(self.limits.read_timeout, self._body_deadline)
        elif self._phase == "body" and not self.transport.is_closing():
            self._time_out_body(f"The request's body did not arrive within {self.limits.body_timeout:g} s "
                                "(plus a second per MiB declared); send it again faster, or in parts")

    def _time_out_body(self, message: str) -> None:
        """408 in the envelope (unless the app began its answer), then close; the app's read of the
        body ends as a client disconnect, logged in one line."""
        self._cancel_timers()
        cycle = self.cycle
        if cycle is not None and not cycle.response_started:
            cycle.response_started = True  # whatever the app sends now is not written
            self._write_error(408, "request_timeout", message)
        else:
            self.transport.close()
        if cycle is not None:
            cycle.disconnected = True
            cycle.message_event.set()


# What h11's refusals become (its error_status_hint: 400, 431 for a head past its buffer, 501 for a
# Transfer-Encoding it does not know), in our words: its own text names its internals.
_REFUSALS = {
    400: ("invalid_http", "The request is not valid HTTP/1.1: its request line or headers are malformed (HTTP/1.1 "
                          "needs one Host header; a path must be ASCII, percent-encode the rest); nothing was done"),
    431: ("header_too_large", "The request's head (request line and headers) is larger than this service reads; "
                              "nothing was done"),
    501: ("not_implemented", "The request's Transfer-Encoding is not one this service reads (chunked, or a "
                             "Content-Length); nothing was done"),
}
