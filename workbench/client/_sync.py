"""The synchronous client: sends the shared requests with httpx.Client."""

from __future__ import annotations

import contextlib
import time
import weakref
from types import TracebackType
from typing import TYPE_CHECKING, Any, Self

import httpx

from workbench.client import _base as B
from workbench.client import _resources as G

if TYPE_CHECKING:
    from workbench.client._batches import SendReport
    from workbench.progress import Progress


class Client(G.ClientCore):
    """A blocking client for every operation of the interface.

    Configuration comes from the arguments, else from ``WORKBENCH_BASE_URL``,
    ``WORKBENCH_AVATAR_BASE_URL`` and ``WORKBENCH_TOKEN``. ``transport=`` replaces
    the network (tests pass ``httpx.MockTransport`` or a WSGI/ASGI transport).

    >>> import httpx
    >>> c = Client("http://h/api", "http://h/avatars", "t", transport=httpx.MockTransport(lambda r: httpx.Response(500)))
    >>> c.config.avatar_base_url
    'http://h/avatars'
    """

    _http_class = httpx.Client
    avatars: G.Avatars[G.Blocking]
    animations: G.Animations[G.Blocking]
    viewers: G.Viewers[G.Blocking]
    tracking: G.Tracking[G.Blocking]
    spaces: G.Spaces[G.Blocking]
    local: G.Local[G.Blocking]

    def _opened(self) -> None:
        # A script that never calls close() (``client = workbench.connect()`` at the top) still has its
        # connections closed when the client is collected or the interpreter exits: no ResourceWarning.
        self._finalizer = weakref.finalize(self, self._http.close)

    def _send(self, req: B.Request) -> Any:
        with B.waiting(req) as bar:
            attempts = B.Attempts(req, self.config.retry)
            for wait in attempts:
                if wait:
                    bar.say(f"trying again in {wait:.1f} s")
                    time.sleep(wait)
                    bar.say(None)
                attempts.outcome = self._exchange(req, bar)
            return attempts.value

    def _exchange(self, req: B.Request, bar: Progress) -> tuple[httpx.Response | None, httpx.TransportError | None]:
        """One attempt: its requests sent and its answer read, as :class:`~workbench.client._base.Exchange` says."""
        with B.Exchange(req, self.config, self._http) as exchange:
            for request in exchange.hops():
                with contextlib.closing(self._http.send(request, stream=True)) as resp, exchange.arrived(resp) as read:
                    for raw in resp.iter_raw() if read else ():
                        exchange.budget.feed(resp, raw)
                        exchange.show(bar, resp)
        return exchange.outcome

    def _send_events(self, viewer_token: str, events: Any, **kw: Any) -> SendReport:
        from workbench.client._batches import send_events

        return send_events(self, viewer_token, events, **kw)

    def close(self) -> None:
        self._finalizer()  # closes the connections once; later calls do nothing

    def __enter__(self) -> Self:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        self.close()

