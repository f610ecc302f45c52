"""Running the local service: in the foreground (``workbench serve``) or in a background thread.

>>> svc = LocalService.start(generate_library=False)   # doctest: +SKIP
>>> svc.base_url                                        # doctest: +SKIP
'http://127.0.0.1:54321/api'
"""

from __future__ import annotations

import gc
import logging
import shutil
import socket
import tempfile
import threading
import time
from pathlib import Path

import uvicorn

from workbench.service.app import create_app
from workbench.service.backend import Backend


def free_socket(host: str = "127.0.0.1", port: int = 0) -> socket.socket:
    """A bound, listening socket (port 0 picks a free one), handed to uvicorn so no other process can take it."""
    # proto IPPROTO_TCP, not 0: asyncio only turns on TCP_NODELAY for accepted sockets whose proto says
    # TCP, and without it a keep-alive answer waits ~40 ms for the client's delayed ACK (measured).
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    sock.listen(512)
    sock.set_inheritable(True)
    return sock


class LocalService:
    """A local service running on uvicorn in a daemon thread of this process."""

    def __init__(self, backend: Backend, sock: socket.socket, owns_dir: bool):
        self.backend = backend
        self.app = create_app(backend)
        self._sock = sock
        host, port = sock.getsockname()[:2]
        self.root_url = f"http://{host}:{port}"
        self.base_url = f"{self.root_url}/api"
        self.avatar_base_url = f"{self.root_url}/avatars"
        self.local_url = f"{self.root_url}/_local"
        self.dev_token = backend.new_dev_token
        self._owns_dir = owns_dir
        config = uvicorn.Config(self.app, log_level="warning", access_log=False, lifespan="off", timeout_keep_alive=30)
        self._server = uvicorn.Server(config)
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


def serve(host: str, port: int, data_dir: str | Path, *, print_fn=None) -> None:
    """Run the service in the foreground until interrupted (``workbench serve``)."""
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(levelname)s %(message)s")
    print_fn = print_fn or (lambda *a: print(*a, flush=True))
    backend = Backend(data_dir)
    root = f"http://{host}:{port}"
    print_fn(f"workbench local service, data in {backend.data_dir}")
    print_fn(f"  base_url        {root}/api")
    print_fn(f"  avatar_base_url {root}/avatars")
    print_fn(f"  control API     {root}/_local   (local service only)")
    if backend.new_dev_token:
        print_fn(f"  development token (shown once): {backend.new_dev_token}")
    if host not in ("127.0.0.1", "localhost", "::1"):
        print_fn(f"  WARNING: listening on {host}: the /_local control API has no authentication; "
                 "anyone who reaches this port can make tokens and reset the data")
    # Everything alive now (modules, the app, the backend) lives as long as the process: move it out of
    # the collector's reach, and collect cycles less often (refcounting frees the rest at once), so the
    # collections that requests' short-lived objects trigger stop walking the animation library's
    # objects again and again: a sixth of the service's CPU per tracking event (bench/ingest.py,
    # 8.8 -> 7.3 us; 7.0 with no collector at all).
    gc.freeze()
    gc.set_threshold(100_000, 10, 10)
    try:
        uvicorn.run(create_app(backend), host=host, port=port, log_level="warning", access_log=False,
                    lifespan="off", timeout_keep_alive=30)
    finally:
        backend.close()
