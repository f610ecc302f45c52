"""The synchronous client: sends the shared requests with httpx.Client."""

from __future__ import annotations

import time

import httpx

from workbench.client import _base as B
from workbench.client import _resources as G


class Client:
    """A blocking client for every operation of the interface.

    Configuration comes from the arguments, else from ``WORKBENCH_BASE_URL``,
    ``WORKBENCH_AVATAR_BASE_URL`` and ``WORKBENCH_TOKEN``. ``transport=`` replaces
    the network (tests pass ``httpx.MockTransport`` or a WSGI/ASGI transport).

    >>> import httpx
    >>> c = Client("http://h/api", "http://h/avatars", "t", transport=httpx.MockTransport(lambda r: httpx.Response(500)))
    >>> c.config.avatar_base_url
    'http://h/avatars'
    """

    def __init__(self, base_url: str | None = None, avatar_base_url: str | None = None, token: str | None = None, *,
                 local_url: str | None = None, transport: httpx.BaseTransport | None = None,
                 timeout: float = 30.0, retries: int = 3, backoff: float = 0.25, config: B.ClientConfig | None = None):
        self.config = config or B.ClientConfig.resolve(
            base_url, avatar_base_url, token, local_url, timeout=timeout,
            retry=B.RetryPolicy(retries=retries, backoff=backoff))
        self._transport = transport
        self._http = httpx.Client(transport=transport, timeout=httpx.Timeout(self.config.timeout, connect=5.0),
                                  headers={"User-Agent": B.USER_AGENT}, follow_redirects=True)
        self.avatars = G.Avatars(self)
        self.animations = G.Animations(self)
        self.viewers = G.Viewers(self)
        self.tracking = G.Tracking(self)
        self.spaces = G.Spaces(self)
        self.local = G.Local(self)
        self.service = None  # set by workbench.connect() when it started a local service

    def with_options(self, **changes) -> "Client":
        """A copy with other settings (token=, retries=, timeout=...), sharing the transport."""
        return Client(config=B.with_config(self.config, **changes), transport=self._transport)

    def _send(self, req: B.Request):
        attempt = 0
        while True:
            resp = exc = None
            try:
                resp = self._http.request(req.method, req.url, **B.request_kwargs(req))
            except httpx.TransportError as e:
                exc = e
            action, value = B.decide(req, self.config.retry, attempt, resp, exc)
            if action == "done":
                return value
            if action == "raise":
                raise value
            time.sleep(value)
            attempt += 1

    def _send_events(self, viewer_token, events, **kw):
        from workbench.tracking.sender import send_events

        return send_events(self, viewer_token, events, **kw)

    def close(self) -> None:
        self._http.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __repr__(self) -> str:
        c = self.config
        return f"Client(base_url={c.base_url!r}, avatar_base_url={c.avatar_base_url!r}, local={c.local_url is not None})"
