"""The asynchronous client: sends the shared requests with httpx.AsyncClient."""

from __future__ import annotations

import asyncio

import httpx

from workbench.client import _base as B
from workbench.client import _resources as G


class AsyncClient(G.ClientCore):
    """The same operations as :class:`workbench.Client`, as coroutines.

    >>> import asyncio, httpx
    >>> ok = httpx.MockTransport(lambda r: httpx.Response(200, json={"status": "ok", "data": {"masculine": [], "feminine": []}}))
    >>> async def main():
    ...     async with AsyncClient("http://h/api", "http://h/avatars", transport=ok) as c:
    ...         return await c.animations.list()
    >>> asyncio.run(main()).feminine
    ()
    """

    _http_class = httpx.AsyncClient

    async def _send(self, req: B.Request):
        attempt = 0
        while True:
            resp = exc = None
            try:
                resp = await self._exchange(req)
            except httpx.TransportError as e:
                exc = e
            action, value = B.decide(req, self.config.retry, attempt, resp, exc)
            if action == "done":
                return value
            if action == "raise":
                raise value
            await asyncio.sleep(value)
            attempt += 1

    async def _exchange(self, req: B.Request):
        """Send ``req`` and read its answer within the answer's bounds (B.Budget), redirects followed by B.next_hop."""
        budget = B.Budget(req, self.config)
        request = self._http.build_request(req.method, req.url, **B.request_kwargs(req))
        first = request.url
        with budget:
            for _ in range(B.MAX_REDIRECTS + 1):
                resp = await self._http.send(request, stream=True)
                try:
                    request = B.next_hop(req, first, resp)
                    if request is None:
                        budget.begin(resp)
                        if not resp.is_stream_consumed:  # (an in-process transport's answer comes read)
                            async for raw in resp.aiter_raw():
                                budget.feed(resp, raw)
                        budget.end(resp)
                        return budget.answer(resp)
                except BaseException:
                    budget.discard()
                    raise
                finally:
                    await resp.aclose()
                budget.check_time()
        raise B.TransportError(f"{req.operation}: more than {B.MAX_REDIRECTS} redirects from {req.url}")

    def _send_events(self, viewer_token, events, **kw):
        from workbench.client._batches import asend_events

        return asend_events(self, viewer_token, events, **kw)

    async def aclose(self) -> None:
        await self._http.aclose()

    async def __aenter__(self):
        return self

    async def __aexit__(self, *exc):
        await self.aclose()

