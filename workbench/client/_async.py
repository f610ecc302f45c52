"""The asynchronous client: sends the shared requests with httpx.AsyncClient."""

from __future__ import annotations

import asyncio

import httpx

from workbench.client import _base as B
from workbench.client import _resources as G


class AsyncClient:
    """The same operations as :class:`workbench.Client`, as coroutines.

    >>> import asyncio, httpx
    >>> ok = httpx.MockTransport(lambda r: httpx.Response(200, json={"status": "ok", "data": {"masculine": [], "feminine": []}}))
    >>> async def main():
    ...     async with AsyncClient("http://h/api", "http://h/avatars", transport=ok) as c:
    ...         return await c.animations.list()
    >>> asyncio.run(main()).feminine
    ()
    """

    def __init__(self, base_url: str | None = None, avatar_base_url: str | None = None, token: str | None = None, *,
                 local_url: str | None = None, transport: httpx.AsyncBaseTransport | None = None,
                 timeout: float = 30.0, retries: int = 3, backoff: float = 0.25, config: B.ClientConfig | None = None):
        self.config = config or B.ClientConfig.resolve(
            base_url, avatar_base_url, token, local_url, timeout=timeout,
            retry=B.RetryPolicy(retries=retries, backoff=backoff))
        self._transport = transport
        self._http = httpx.AsyncClient(transport=transport, timeout=httpx.Timeout(self.config.timeout, connect=5.0),
                                       headers={"User-Agent": B.USER_AGENT}, follow_redirects=True)
        self.avatars = G.Avatars(self)
        self.animations = G.Animations(self)
        self.viewers = G.Viewers(self)
        self.tracking = G.Tracking(self)
        self.spaces = G.Spaces(self)
        self.local = G.Local(self)
        self.service = None

    def with_options(self, **changes) -> "AsyncClient":
        return AsyncClient(config=B.with_config(self.config, **changes), transport=self._transport)

    async def _send(self, req: B.Request):
        attempt = 0
        while True:
            resp = exc = None
            try:
                resp = await self._http.request(req.method, req.url, **B.request_kwargs(req))
            except httpx.TransportError as e:
                exc = e
            action, value = B.decide(req, self.config.retry, attempt, resp, exc)
            if action == "done":
                return value
            if action == "raise":
                raise value
            await asyncio.sleep(value)
            attempt += 1

    def _send_events(self, viewer_token, events, **kw):
        from workbench.tracking.sender import asend_events

        return asend_events(self, viewer_token, events, **kw)

    async def aclose(self) -> None:
        await self._http.aclose()

    async def __aenter__(self):
        return self

    async def __aexit__(self, *exc):
        await self.aclose()

    def __repr__(self) -> str:
        c = self.config
        return f"AsyncClient(base_url={c.base_url!r}, avatar_base_url={c.avatar_base_url!r}, local={c.local_url is not None})"
