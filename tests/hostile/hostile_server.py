"""A hostile or broken HTTP server on a loopback port for the client's tests: each request is answered
by a function of (method, path, headers, body) that returns the raw bytes to send, or an iterable of
(bytes, pause in seconds) to trickle them. Every request it got is kept in ``requests``."""

from __future__ import annotations

import socketserver
import threading
import time
from collections.abc import Callable, Iterable

from helpers import read_message


class HostileServer:
    def __init__(self, answer: Callable[[str, str, dict, bytes], bytes | Iterable[tuple[bytes, float]]],
                 host: str = "127.0.0.1"):
        self.answer = answer
        self.requests: list[tuple[str, str, dict, bytes]] = []
        outer = self

        class Handler(socketserver.BaseRequestHandler):
            def handle(self):
                message = read_message(self.request)
                if message is None:
                    return
                first, headers, body = message
                method, path, _ = first.split(" ", 2)
                outer.requests.append((method, path, headers, body))
                out = outer.answer(method, path, headers, body)
                try:
                    if isinstance(out, bytes):
                        self.request.sendall(out)
                    else:
                        for piece, pause in out:
                            self.request.sendall(piece)
                            time.sleep(pause)  # the server's trickle, not a test waiting
                except OSError:
                    pass  # the client gave up, as it should

        class Server(socketserver.ThreadingTCPServer):
            daemon_threads = True
            allow_reuse_address = True

        self._server = Server((host, 0), Handler)
        self.port = self._server.server_address[1]
        self.root = f"http://{host}:{self.port}"
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    def __enter__(self) -> HostileServer:
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._server.shutdown()
        self._server.server_close()


def response(status: int, body: bytes = b"", content_type: str = "application/json", **headers: str) -> bytes:
    lines = [f"HTTP/1.1 {status} X", f"Content-Type: {content_type}", "Connection: close"]
    if "content_length" not in headers:
        lines.append(f"Content-Length: {len(body)}")
    lines += [f"{k.replace('_', '-').title()}: {v}" for k, v in headers.items()]
    return ("\r\n".join(lines) + "\r\n\r\n").encode() + body
