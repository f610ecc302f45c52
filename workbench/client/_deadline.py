"""The answer's deadline at the socket: every read of an answer, its head included, stops at ``answer_timeout``.

httpx's read timeout restarts with every read, so a server that trickles the status line and headers a
byte at a time held a client with ``answer_timeout=5`` past 90 s (issue 40, item 2): the client's own
check ran only between pieces of the body. Here the network streams of the client's connection pools
read no longer than the time left before the deadline of the answer being read (a context variable the
senders set around each exchange, so the sync client's threads and the async client's tasks each have
their own); past it a read raises httpcore's ``ReadTimeout``, which the senders report as the
answer's ``RequestTimeoutError``.

Only reads are bounded this way (a slow upload is the write timeout's business), and only on the
connections httpx makes itself (a ``transport=`` of another kind, in-process or mocked, has no socket).

>>> with answer_deadline(0.0):
...     try:
...         _within(5.0)
...     except Exception as e:
...         print(type(e).__name__)
ReadTimeout
>>> _within(5.0)   # no answer being read: httpx's own timeout
5.0
"""

from __future__ import annotations

import contextlib
import contextvars
import time
from collections.abc import Iterator
from typing import Any

import httpcore

_DEADLINE: contextvars.ContextVar[float | None] = contextvars.ContextVar("workbench_answer_deadline", default=None)


@contextlib.contextmanager
def answer_deadline(deadline: float) -> Iterator[None]:
    """Reads of the connections made by :func:`install` end at ``deadline`` (``time.monotonic()``) within the block."""
    token = _DEADLINE.set(deadline)
    try:
        yield
    finally:
        _DEADLINE.reset(token)


def _within(timeout: float | None) -> float | None:
    deadline = _DEADLINE.get()
    if deadline is None:
        return timeout
    left = deadline - time.monotonic()
    if left <= 0:
        raise httpcore.ReadTimeout("the answer's deadline (answer_timeout) passed")
    return left if timeout is None else min(timeout, left)


class _Stream(httpcore.NetworkStream):
    def __init__(self, inner: httpcore.NetworkStream):
        self._inner = inner

    def read(self, max_bytes: int, timeout: float | None = None) -> bytes:
        return self._inner.read(max_bytes, _within(timeout))

    def write(self, buffer: bytes, timeout: float | None = None) -> None:
        self._inner.write(buffer, timeout)

    def close(self) -> None:
        self._inner.close()

    def start_tls(self, *args: Any, **kwargs: Any) -> httpcore.NetworkStream:
        return _Stream(self._inner.start_tls(*args, **kwargs))

    def get_extra_info(self, info: str) -> Any:
        return self._inner.get_extra_info(info)


class _Backend(httpcore.NetworkBackend):
    def __init__(self, inner: httpcore.NetworkBackend):
        self._inner = inner

    def connect_tcp(self, *args: Any, **kwargs: Any) -> httpcore.NetworkStream:
        return _Stream(self._inner.connect_tcp(*args, **kwargs))

    def connect_unix_socket(self, *args: Any, **kwargs: Any) -> httpcore.NetworkStream:
        return _Stream(self._inner.connect_unix_socket(*args, **kwargs))

    def sleep(self, seconds: float) -> None:
        self._inner.sleep(seconds)


class _AsyncStream(httpcore.AsyncNetworkStream):
    def __init__(self, inner: httpcore.AsyncNetworkStream):
        self._inner = inner

    async def read(self, max_bytes: int, timeout: float | None = None) -> bytes:
        return await self._inner.read(max_bytes, _within(timeout))

    async def write(self, buffer: bytes, timeout: float | None = None) -> None:
        await self._inner.write(buffer, timeout)

    async def aclose(self) -> None:
        await self._inner.aclose()

    async def start_tls(self, *args: Any, **kwargs: Any) -> httpcore.AsyncNetworkStream:
        return _AsyncStream(await self._inner.start_tls(*args, **kwargs))

    def get_extra_info(self, info: str) -> Any:
        return self._inner.get_extra_info(info)


class _AsyncBackend(httpcore.AsyncNetworkBackend):
    def __init__(self, inner: httpcore.AsyncNetworkBackend):
        self._inner = inner

    async def connect_tcp(self, *args: Any, **kwargs: Any) -> httpcore.AsyncNetworkStream:
        return _AsyncStream(await self._inner.connect_tcp(*args, **kwargs))

    async def connect_unix_socket(self, *args: Any, **kwargs: Any) -> httpcore.AsyncNetworkStream:
        return _AsyncStream(await self._inner.connect_unix_socket(*args, **kwargs))

    async def sleep(self, seconds: float) -> None:
        await self._inner.sleep(seconds)


def install(http: Any) -> int:
    """Bound the reads of every connection pool of the httpx client ``http`` (its transport and the proxy
    mounts httpx made from the environment); how many pools it found.

    httpx does not hand its transports a network backend, so this reaches into their pools
    (``_transport``, ``_mounts``, ``_pool._network_backend``: httpx 0.28, httpcore 1.0);
    ``tests/hostile/test_hostile_answers.py`` fails if a new httpx moves them.

    >>> import httpx
    >>> with httpx.Client() as http:
    ...     install(http) >= 1       # its transport, and a proxy's where the environment names one
    True
    """
    transports = [getattr(http, "_transport", None), *getattr(http, "_mounts", {}).values()]
    found = 0
    for transport in transports:
        pool = getattr(transport, "_pool", None)
        if pool is None:   # no connection pool (a mock or in-process transport): nothing reads a socket
            continue
        inner = getattr(pool, "_network_backend", None)
        if isinstance(inner, (_Backend, _AsyncBackend)):
            found += 1
        elif isinstance(inner, httpcore.NetworkBackend):
            pool._network_backend = _Backend(inner)
            found += 1
        elif isinstance(inner, httpcore.AsyncNetworkBackend):
            pool._network_backend = _AsyncBackend(inner)
            found += 1
    return found
