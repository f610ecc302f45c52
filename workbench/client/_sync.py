"""The synchronous client: sends the shared requests with httpx.Client."""

from __future__ import annotations

import time
import weakref

import httpx

from workbench.client import _base as B
from workbench.client import _resources as G


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

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # A script that never calls close() (``client = workbench.connect()`` at the top) still has its
        # connections closed when the client is collected or the interpreter exits: no ResourceWarning.
        self._finalizer = weakref.finalize(self, self._http.close)

    def _send(self, req: B.Request):
        attempt = 0
        while True:
            resp = exc = None
            try:
                resp = self._exchange(req)
            except httpx.TransportError as e:
                exc = e
            action, value = B.decide(req, self.config.retry, attempt, resp, exc)
            if action == "done":
                return value
            if action == "raise":
                raise value
            time.sleep(value)
            attempt += 1

    def _exchange(self, req: B.Request):
        """Send ``req`` and read its answer within the answer's bounds (B.Budget), redirects followed by B.next_hop."""
        budget = B.Budget(req, self.config)
        request = self._http.build_request(req.method, req.url, **B.request_kwargs(req))
        first = request.url
        with budget:
            for _ in range(B.MAX_REDIRECTS + 1):
                resp = self._http.send(request, stream=True)
                try:
                    request = B.next_hop(req, first, resp)
                    if request is None:
                        budget.begin(resp)
                        if not resp.is_stream_consumed:  # (an in-process transport's answer comes read)
                            for raw in resp.iter_raw():
                                budget.feed(resp, raw)
                        budget.end(resp)
                        return budget.answer(resp)
                except BaseException:
                    budget.discard()
                    raise
                finally:
                    resp.close()
                budget.check_time()
        raise B.TransportError(f"{req.operation}: more than {B.MAX_REDIRECTS} redirects from {req.url}")

    def _send_events(self, viewer_token, events, **kw):
        from workbench.client._batches import send_events

        return send_events(self, viewer_token, events, **kw)

    def close(self) -> None:
        self._finalizer()  # closes the connections once; later calls do nothing

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

