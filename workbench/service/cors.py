"""Cross-origin use from web pages (contract section 12): two CORS policies chosen by path.

Pages on other origins load models, previews and animations and send tracking batches, so
those answer any origin (``Access-Control-Allow-Origin: *``, no cookies). The endpoints that
take a token (POST /avatar, regenerate, finish-upload) answer preflights only for the origins
of ``workbench serve --cors-origins`` (default ``*``) and allow the ``Authorization`` header;
the beacon form of regenerate is a simple request and needs no preflight. The control API
``/_local`` gets no CORS headers: it has no authentication, so no page on another origin may
read it. Both policies are Starlette's ``CORSMiddleware``; this module only chooses one per
request, answers a granted preflight with 204, and a refused one with the contract's envelope.

The policy wraps the whole app, outside the request-id middleware, so every answer carries
the headers: 2xx, 304, 4xx from handlers and unknown routes, and the 500 of a fault.

>>> parse_origins("https://shop.example, http://127.0.0.1:5173")
('https://shop.example', 'http://127.0.0.1:5173')
>>> parse_origins("*")
('*',)
>>> token_path("/api/viewers/vw_1/regenerate/all"), token_path("/avatars/model/x.glb")
(True, False)
"""

from __future__ import annotations

import re

from starlette.middleware.cors import CORSMiddleware
from starlette.responses import JSONResponse, Response

from workbench.service import spec
from workbench.service.http import RequestContext, error_body

__all__ = ["CorsByPath", "parse_origins", "token_path", "PUBLIC_EXPOSED", "TOKEN_EXPOSED"]

# What a page may read of an answer besides the CORS-safelisted headers.
PUBLIC_EXPOSED = ("ETag", "Content-Length", "X-Request-Id", "Retry-After")
TOKEN_EXPOSED = ("X-Request-Id", "Retry-After", "WWW-Authenticate")

# The endpoints that take a token: the interface table's rows with a scope.
_TOKEN_PATH = spec.route_regex([o for o in spec.INTERFACE if o.scope])
_ORIGIN = re.compile(r"^https?://[A-Za-z0-9.\-]+(?::[0-9]{1,5})?$|^https?://\[[0-9A-Fa-f:.]+\](?::[0-9]{1,5})?$")


def token_path(path: str) -> bool:
    """True for the paths of the endpoints that take a token."""
    return _TOKEN_PATH.match(path) is not None


def parse_origins(text: str) -> tuple[str, ...]:
    """The origins of a comma list (``*`` alone for any origin); ValueError naming the bad entry.

    >>> parse_origins("https://shop.example/")
    Traceback (most recent call last):
    ...
    ValueError: --cors-origins: 'https://shop.example/' is not an origin; give * or scheme://host[:port] entries separated by commas
    """
    entries = [e.strip() for e in str(text).split(",") if e.strip()]
    if not entries:
        raise ValueError("--cors-origins: give * or at least one origin scheme://host[:port]")
    for e in entries:
        if e != "*" and not _ORIGIN.match(e):
            raise ValueError(f"--cors-origins: {e!r} is not an origin; give * or scheme://host[:port] entries "
                             "separated by commas")
    if "*" in entries and len(entries) > 1:
        raise ValueError("--cors-origins: * already allows every origin; give it alone")
    return tuple(entries)


class _Policy(CORSMiddleware):
    """Starlette's CORS middleware, answering preflights as the contract says: 204 when granted,
    the JSON error envelope (code ``cors_preflight_refused``) when not."""

    def preflight_response(self, request_headers) -> Response:
        answer = super().preflight_response(request_headers)
        headers = {k: v for k, v in answer.headers.items() if k not in ("content-length", "content-type")}
        if answer.status_code < 400:
            return Response(status_code=204, headers=headers)
        # Starlette names what it refused in its text answer ("Disallowed CORS origin, headers"):
        # one detail each, so the page's developer sees which header of the preflight to fix.
        refused = bytes(answer.body).decode().removeprefix("Disallowed CORS ").split(", ")
        sent = {"origin": request_headers.get("origin"),
                "method": request_headers.get("access-control-request-method"),
                "headers": request_headers.get("access-control-request-headers"),
                "private-network": request_headers.get("access-control-request-private-network")}
        field = {"origin": "Origin", "method": "Access-Control-Request-Method",
                 "headers": "Access-Control-Request-Headers",
                 "private-network": "Access-Control-Request-Private-Network"}
        details = [{"field": field[r], "code": "not_allowed", "message": f"{sent[r]!r} is not allowed here"}
                   for r in refused if r in field]
        first = details[0] if details else {"field": "Origin", "message": "is not allowed here"}
        return JSONResponse(error_body(400, "cors_preflight_refused",
                                       f"Cross-origin request refused: {first['field']} {first['message']}.", details),
                            status_code=400, headers=headers)


class CorsByPath:
    """Pure ASGI middleware: the public policy, the token policy for :func:`token_path`, none for ``/_local``."""

    def __init__(self, app, origins: tuple[str, ...] = ("*",)):
        # allow_private_network: a page on a public site may call a service on this machine (Chromium
        # asks first with Access-Control-Request-Private-Network); the local service is made for that.
        self.app = app
        self.public = _Policy(app, allow_origins=["*"], allow_methods=["GET", "HEAD", "POST"],
                              allow_headers=["Content-Type", "If-None-Match", "X-Request-Id"],
                              expose_headers=PUBLIC_EXPOSED, allow_private_network=True)
        self.token = _Policy(app, allow_origins=list(origins), allow_methods=["POST", "PUT"],
                             allow_headers=["Authorization", "Content-Type", "X-Request-Id"],
                             expose_headers=TOKEN_EXPOSED, allow_private_network=True)

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        path = scope.get("path", "")
        if path == "/_local" or path.startswith("/_local/"):
            return await self.app(scope, receive, send)
        policy = self.token if token_path(path) else self.public
        if _is_preflight(scope):
            # The policy answers a preflight itself; it gets its X-Request-Id like every other answer.
            return await RequestContext(policy)(scope, receive, send)
        await policy(scope, receive, send)


def _is_preflight(scope) -> bool:
    if scope["method"] != "OPTIONS":
        return False
    names = {k for k, _ in scope.get("headers") or []}
    return b"origin" in names and b"access-control-request-method" in names
