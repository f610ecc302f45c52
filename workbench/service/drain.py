"""Keeping a connection open after an early answer: a small body read before the answer goes.

A pure ASGI middleware, outermost in :func:`workbench.service.app.create_app`; the connection's own rules (the
lingering close of a connection whose body is left unread) are in :mod:`workbench.service.protocol`.
"""

from __future__ import annotations

__all__ = ["DRAIN_BYTES", "FinishSmallBodies"]

# An unread body of at most this many bytes (by its Content-Length) is read and dropped before an early answer.
DRAIN_BYTES = 64 * 1024


class FinishSmallBodies:
    """Pure ASGI middleware: an answer given before its request's body was read (a guard's refusal, a 401 before an
    upload's bytes) first reads and drops the rest of a body of at most :data:`DRAIN_BYTES`, so the connection stays
    open for the client's next request, as after any answer.

    Why: with the body unread, the connection must close after the answer (what follows is the rest of that body,
    not a request; ``protocol._close_lingering``), and a keep-alive client that sends its next request on it before
    it sees the close gets no answer at all ("Server disconnected without sending a response", seen under load when
    a small body came in a packet after its head). A body past the bound, or of unknown length (chunked), is not
    read: its connection still closes, so a refusal never costs more than that many bytes.
    """

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        declared = dict(scope.get("headers") or []).get(b"content-length", b"") if scope["type"] == "http" else b""
        if not declared.isdigit() or not 0 < int(declared) <= DRAIN_BYTES:
            return await self.app(scope, receive, send)
        read = False

        async def receive_noting_the_end():
            nonlocal read
            message = await receive()
            read = read or message["type"] != "http.request" or not message.get("more_body", False)
            return message

        async def send_after_the_body(message):
            nonlocal read
            while message["type"] == "http.response.start" and not read:
                await receive_noting_the_end()
            await send(message)

        await self.app(scope, receive_noting_the_end, send_after_the_body)
