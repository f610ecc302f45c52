"""Running the local service: in the foreground (``workbench serve``) or in a background thread.

>>> svc = LocalService.start(generate_library=False)   # doctest: +SKIP
>>> svc.base_url                                        # doctest: +SKIP
'http://127.0.0.1:54321/api'
"""

from __future__ import annotations

import asyncio
import errno
import functools
import gc
import http
import logging
import math
import secrets
import shutil
import signal
import socket
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path

import h11
import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol

from workbench.service.app import create_app
from workbench.service.backend import Backend
from workbench.service.http import error_message


def free_socket(host: str = "127.0.0.1", port: int = 0) -> socket.socket:
    """A bound, listening socket (port 0 picks a free one), handed to uvicorn so no other process can take it."""
    # proto IPPROTO_TCP, not 0: asyncio only turns on TCP_NODELAY for accepted sockets whose proto says
    # TCP, and without it a keep-alive answer waits ~40 ms for the client's delayed ACK (measured).
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError:
        sock.close()
        raise
    sock.listen(512)
    sock.set_inheritable(True)
    return sock


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
    one, or the one still sending its request, that has waited longest (so slow clients cannot
    keep new requests out); when every connection is being answered, the new one is closed.

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
        self.limits = limits
        self._read_timer: asyncio.TimerHandle | None = None
        self._body_timer: asyncio.TimerHandle | None = None
        # what the connection is doing: "head" (its request's head is arriving), "body", "answering"
        # (the app has the request), "idle" (kept alive after an answer); and since when
        self._phase, self._since = "head", 0.0

    def connection_made(self, transport) -> None:
        super().connection_made(transport)
        self._enter("head")
        if len(self.connections) > self.limits.max_connections:
            victim = self._longest_waiting()
            if victim is None:
                self.logger.warning("closing a connection: %d are open, the cap is %d, and all are being answered",
                                    len(self.connections), self.limits.max_connections)
                transport.close()
                return
            victim._evict()
        self._arm_read_timer()

    def data_received(self, data: bytes) -> None:
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
        self._enter("idle")
        super().on_response_complete()

    def connection_lost(self, exc) -> None:
        self._cancel_timers()
        super().connection_lost(exc)

    # ---------------------------------------------------------------- refusals below the app

    def send_400_response(self, msg: str) -> None:
        """h11 refused the request (two Host headers, none in HTTP/1.1, a head past its buffer, a byte a
        request line may not hold): the contract's envelope and an X-Request-Id, as every answer has.
        uvicorn calls this inside its ``except h11.RemoteProtocolError``, so the error is at hand."""
        error = sys.exc_info()[1]
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
        self.transport.close()

    # ---------------------------------------------------------------- timers and the cap

    def _enter(self, phase: str) -> None:
        self._phase, self._since = phase, self.loop.time()

    def _longest_waiting(self) -> "GuardedH11Protocol | None":
        """The connection to close for a new one: the idle one, else the one still sending its request,
        that has waited longest; None when all are being answered."""
        others = [c for c in self.connections if c is not self and isinstance(c, GuardedH11Protocol)
                  and not c.transport.is_closing()]
        for phases in (("idle",), ("head", "body")):
            waiting = [c for c in others if c._phase in phases]
            if waiting:
                return min(waiting, key=lambda c: c._since)
        return None

    def _evict(self) -> None:
        self.logger.info("closing a connection %s for a new one: the cap of %d connections is reached",
                         "idle after an answer" if self._phase == "idle" else f"still sending its request ({self._phase})",
                         self.limits.max_connections)
        if self._phase == "body":
            self._time_out_body("The service is at its connection cap and this request's body was the slowest; send it again")
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


def server_config(app, limits: ConnectionLimits | None = None) -> uvicorn.Config:
    """uvicorn's configuration for the service: quiet, no lifespan, the connection limits applied."""
    limits = limits or ConnectionLimits()
    # On SIGTERM or SIGINT uvicorn stops accepting and lets requests in flight finish, for at most
    # the read timeout (contract section 14); what they acknowledged is committed by then.
    return uvicorn.Config(app, log_level="warning", access_log=False, lifespan="off",
                          http=functools.partial(GuardedH11Protocol, limits=limits),
                          timeout_keep_alive=limits.keep_alive_timeout,
                          timeout_graceful_shutdown=limits.read_timeout)


class LocalService:
    """A local service running on uvicorn in a daemon thread of this process."""

    def __init__(self, backend: Backend, sock: socket.socket, owns_dir: bool):
        self.backend = backend
        self.app = create_app(backend)
        self._sock = sock
        host, port = sock.getsockname()[:2]
        self.root_url = url_root(host, port)
        self.base_url = f"{self.root_url}/api"
        self.avatar_base_url = f"{self.root_url}/avatars"
        self.local_url = f"{self.root_url}/_local"
        self.dev_token = backend.new_dev_token
        self._owns_dir = owns_dir
        self._server = uvicorn.Server(server_config(self.app))
        self._thread = threading.Thread(target=self._server.run, kwargs={"sockets": [sock]},
                                        name="workbench-local-service", daemon=True)

    @classmethod
    def start(cls, data_dir: str | Path | None = None, *, host: str = "127.0.0.1", port: int = 0,
              dev_token: str | None = None, generate_library: bool = True) -> "LocalService":
        owns = data_dir is None
        data_dir = Path(tempfile.mkdtemp(prefix="workbench-")) if owns else Path(data_dir)
        backend = Backend(data_dir, dev_token=dev_token, generate_library=generate_library)
        svc = cls(backend, free_socket(host, port), owns)
        svc._thread.start()
        deadline = time.monotonic() + 10
        while not svc._server.started and time.monotonic() < deadline:
            time.sleep(0.01)
        if not svc._server.started:
            raise RuntimeError("the local service did not start within 10 s")
        return svc

    def stop(self) -> None:
        self._server.should_exit = True
        self._thread.join(timeout=10)
        self.backend.close()
        self._sock.close()
        if self._owns_dir:
            shutil.rmtree(self.backend.data_dir, ignore_errors=True)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.stop()


def url_root(host: str, port: int) -> str:
    """``http://host:port``, an IPv6 address in brackets (RFC 3986), as a browser or httpx takes it.

    >>> url_root("::1", 8080), url_root("127.0.0.1", 80)
    ('http://[::1]:8080', 'http://127.0.0.1:80')
    """
    return f"http://[{host}]:{port}" if ":" in host else f"http://{host}:{port}"


class PortInUse(RuntimeError):
    """The address ``workbench serve`` was asked to listen on is taken (or not available)."""


def serve(host: str, port: int, data_dir: str | Path, *, limits: ConnectionLimits | None = None, print_fn=None,
          cors_origins: tuple[str, ...] = ("*",), allowed_hosts: tuple[str, ...] = ()) -> int:
    """Run the service in the foreground until SIGTERM or SIGINT (``workbench serve``), then drain and
    return the signal that stopped it; ``cors_origins``: the page origins allowed to call the
    endpoints that take a token (contract section 12); ``allowed_hosts``: ``Host`` names answered
    besides loopback ones (section 14).

    The port is taken first: when it is busy, :class:`PortInUse` is raised before anything is
    printed or any data folder is made, so no URL or token is shown for a service that never ran.
    """
    print_fn = print_fn or (lambda *a: print(*a, flush=True))
    try:
        sock = free_socket(host, port)
    except OSError as e:
        if e.errno == errno.EADDRINUSE:
            raise PortInUse(f"port {port} on {host} is in use (another program listens there); "
                            "choose another with --port") from None
        raise PortInUse(f"cannot listen on {host}:{port} ({e.strerror}); check --host and --port") from None
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(levelname)s %(message)s")
    backend = Backend(data_dir)
    root = url_root(host, sock.getsockname()[1])
    print_fn(f"workbench local service, data in {backend.data_dir}")
    print_fn(f"  base_url        {root}/api")
    print_fn(f"  avatar_base_url {root}/avatars")
    print_fn(f"  control API     {root}/_local   (local service only)")
    print_fn(f"  CORS            any origin for files and tracking; token endpoints: {', '.join(cors_origins)}")
    if backend.new_dev_token:
        print_fn(f"  development token (shown once): {backend.new_dev_token}")
    if allowed_hosts:
        print_fn(f"  allowed hosts   loopback, {', '.join(allowed_hosts)}")
    if host not in ("127.0.0.1", "localhost", "::1"):
        print_fn(f"  WARNING: listening on {host}: the /_local control API has no authentication; "
                 "anyone who reaches this port can make tokens and reset the data")
        if not allowed_hosts:
            print_fn(f"  WARNING: --host {host} without --allowed-hosts: only requests naming a loopback host "
                     "are answered; give the names clients use, e.g. --allowed-hosts wb.lan,10.0.0.5")
    # Everything alive now (modules, the app, the backend) lives as long as the process: move it out of
    # the collector's reach, and collect cycles less often (refcounting frees the rest at once), so the
    # collections that requests' short-lived objects trigger stop walking the animation library's
    # objects again and again: a sixth of the service's CPU per tracking event (bench/ingest.py,
    # 8.8 -> 7.3 us; 7.0 with no collector at all).
    gc.freeze()
    gc.set_threshold(100_000, 10, 10)
    # uvicorn drains on SIGTERM/SIGINT, then raises the signal again for the handler it found, so that
    # an embedding program learns of it; the handler it finds is this one, which only notes the
    # signal, so the process goes on to close the database and exits 0 (not 143 or a KeyboardInterrupt).
    stopped_by: list[int] = []
    previous = {sig: signal.signal(sig, lambda n, _frame: stopped_by.append(n)) for sig in (signal.SIGTERM, signal.SIGINT)}
    try:
        uvicorn.Server(server_config(create_app(backend, cors_origins, allowed_hosts), limits)).run(sockets=[sock])
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        backend.close()
        sock.close()
    if stopped_by:
        print_fn(f"workbench serve: stopped by {signal.Signals(stopped_by[0]).name}; requests in flight finished, "
                 "data committed")
    return stopped_by[0] if stopped_by else 0
