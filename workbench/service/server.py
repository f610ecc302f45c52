"""Running the local service: in the foreground (``workbench serve``) or in a background thread.

>>> svc = LocalService.start(generate_library=False)   # doctest: +SKIP
>>> svc.base_url                                        # doctest: +SKIP
'http://127.0.0.1:54321/api'
"""

from __future__ import annotations

import atexit
import errno
import functools
import gc
import logging
import shutil
import signal
import socket
import tempfile
import threading
import time
from pathlib import Path

import uvicorn

from workbench.service.app import create_app
from workbench.service.backend import Backend
from workbench.service.jobs import JobLimits
from workbench.service.protocol import MAX_HEAD_BYTES, ConnectionLimits, GuardedH11Protocol


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


def server_config(app, limits: ConnectionLimits | None = None) -> uvicorn.Config:
    """uvicorn's configuration for the service: quiet, no lifespan, the connection limits applied."""
    limits = limits or ConnectionLimits()
    # On SIGTERM or SIGINT uvicorn stops accepting and lets requests in flight finish, for at most
    # the read timeout (contract section 14); what they acknowledged is committed by then.
    return uvicorn.Config(app, log_level="warning", access_log=False, lifespan="off",
                          # uvicorn calls it as it calls a protocol class; the partial gives it the limits
                          http=functools.partial(GuardedH11Protocol, limits=limits),  # type: ignore[arg-type]
                          h11_max_incomplete_event_size=MAX_HEAD_BYTES,
                          # uvicorn annotates these as int but waits them out with asyncio (call_later, wait_for),
                          # which take seconds as a float: --read-timeout 0.5 means half a second
                          timeout_keep_alive=limits.keep_alive_timeout,  # type: ignore[arg-type]
                          timeout_graceful_shutdown=limits.read_timeout)  # type: ignore[arg-type]  # as above


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
              dev_token: str | None = None, generate_library: bool = True) -> LocalService:
        owns = data_dir is None
        data_dir = Path(tempfile.mkdtemp(prefix="workbench-")) if data_dir is None else Path(data_dir)
        if owns:   # a folder of its own goes when the process ends, stopped or not (a notebook's kernel, say)
            atexit.register(shutil.rmtree, data_dir, ignore_errors=True)
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

    def __enter__(self) -> LocalService:
        return self

    def __exit__(self, *exc: object) -> None:
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
          cors_origins: tuple[str, ...] = ("*",), allowed_hosts: tuple[str, ...] = (),
          job_limits: JobLimits | None = None) -> int:
    """Run the service in the foreground until SIGTERM or SIGINT (``workbench serve``), then drain and
    return the signal that stopped it; ``cors_origins``: the page origins allowed to call the
    endpoints that take a token (contract section 12); ``allowed_hosts``: ``Host`` names answered
    besides loopback ones (section 14); ``job_limits``: each regeneration job's bounds of time and memory.

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
    backend = Backend(data_dir, job_limits=job_limits)
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
