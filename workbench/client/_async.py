"""The asynchronous client: sends the shared requests with httpx.AsyncClient."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Coroutine
from types import TracebackType
from typing import TYPE_CHECKING, Any, Self

import httpx

from workbench.client import _base as B
from workbench.client import _resources as G

if TYPE_CHECKING:
    from workbench.client._batches import SendReport
    from workbench.progress import Progress


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
    avatars: G.Avatars[G.Awaiting]
    animations: G.Animations[G.Awaiting]
    viewers: G.Viewers[G.Awaiting]
    tracking: G.Tracking[G.Awaiting]
    spaces: G.Spaces[G.Awaiting]
    local: G.Local[G.Awaiting]

    async def _send(self, req: B.Request) -> Any:
        with B.waiting(req) as bar:
            attempts = B.Attempts(req, self.config.retry)
            for wait in attempts:
                if wait:
                    bar.say(f"trying again in {wait:.1f} s")
                    await asyncio.sleep(wait)
                    bar.say(None)
                attempts.outcome = await self._exchange(req, bar)
            return attempts.value

    async def _exchange(self, req: B.Request, bar: Progress
                        ) -> tuple[httpx.Response | None, httpx.TransportError | None]:
        """One attempt: its requests sent and its answer read, as :class:`~workbench.client._base.Exchange` says."""
        with B.Exchange(req, self.config, self._http) as exchange:
            for request in exchange.hops():
                async with contextlib.aclosing(await self._http.send(request, stream=True)) as resp:
                    with exchange.arrived(resp) as read:
                        if read:
                            async for raw in resp.aiter_raw():
                                exchange.budget.feed(resp, raw)
                                exchange.show(bar, resp)
        return exchange.outcome

    def _send_events(self, viewer_token: str, events: Any, **kw: Any) -> Coroutine[Any, Any, SendReport]:
        from workbench.client._batches import asend_events

        return asend_events(self, viewer_token, events, **kw)

    async def aclose(self) -> None:
        await self._http.aclose()

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                        tb: TracebackType | None) -> None:
        await self.aclose()

