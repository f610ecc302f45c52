"""HTTP handlers and the route table of the local service (Starlette).

A handler parses the request (headers, query, a body read within its limit and decoded by the one JSON reader),
calls one Backend method and renders the answer. Domain errors become the contract's JSON envelope in one place
(:func:`_service_error`, in the envelope of :mod:`workbench.service.http`); unknown routes, wrong methods and
unexpected faults get the same envelope, and every response carries ``X-Request-Id``.

>>> import asyncio, tempfile, httpx
>>> app = create_app(Backend(tempfile.mkdtemp(), generate_library=False))
>>> async def unknown_route():
...     async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://localhost") as c:
...         r = await c.get("/nowhere")
...         return r.status_code, r.json()["error"]["code"], "x-request-id" in r.headers
>>> asyncio.run(unknown_route())
(404, 'route_not_found', True)
"""

from __future__ import annotations

import asyncio
import itertools
import sqlite3
from concurrent.futures import ThreadPoolExecutor

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Match, Route

from workbench.service import spec
from workbench.service.backend import Backend
from workbench.service.content import etag_of
from workbench.service.cors import CorsByPath
from workbench.service.drain import FinishSmallBodies
from workbench.service.errors import ServiceError
from workbench.service.guards import LocalGuard
from workbench.service.http import (
    Answer,
    RequestContext,
    authorization,
    beacon_token,
    body_stream,
    error_body,
    media_type,
    ok,
    query,
    read_body,
    read_form,
    read_json,
    read_json_text,
    takes_query,
)
from workbench.service.lazy import importing
from workbench.service.storage import disk_full
from workbench.service.tracking_store import Checked

AVATAR_BODY_LIMIT = spec.body_limit("avatars.register")
TRACKING_BODY_LIMIT = spec.body_limit("tracking.send_batch")
FORM_BODY_LIMIT = spec.body_limit("spaces.finish_upload")
BEACON_BODY_LIMIT = spec.body_limit("viewers.regenerate", "POST")
CONTROL_BODY_LIMIT = spec.CONTROL_BODY_LIMIT
UPLOAD_LIMIT = spec.body_limit("local.upload_space")


# --------------------------------------------------------------------------
# rendering refusals (the envelope itself: workbench.service.http)
# --------------------------------------------------------------------------

async def _storage_error(request: Request, exc: Exception) -> JSONResponse:
    """A full disk met outside the storage helpers is the same 507; any other fault stays a 500 (RequestContext)."""
    if disk_full(exc):
        return await _service_error(request, ServiceError.insufficient_storage())
    raise exc


async def _service_error(request: Request, exc: ServiceError) -> JSONResponse:
    return Answer(error_body(exc.status, exc.code, exc.message, exc.details), status_code=exc.status,
                        headers=exc.headers)


def _route_exists(path: str) -> bool:
    """Whether some route of the table matches ``path`` (any method), by Starlette's public ``Route.matches``."""
    scope = {"type": "http", "path": path, "method": "GET"}
    return any(route.matches(scope)[0] is not Match.NONE for route in ROUTES)


async def _http_error(request: Request, exc: HTTPException) -> JSONResponse:
    path = request.url.path
    details = None
    if exc.status_code == 404:
        message = f"No route {request.method} {path}."
        # Starlette would answer 307 with an empty body; a hint in the envelope serves every client.
        if len(path) > 1 and path.endswith("/") and _route_exists(path.rstrip("/")):
            message = f"No route {request.method} {path}; did you mean {path.rstrip('/')} (without the trailing slash)?"
            details = [{"field": "path", "code": "trailing_slash", "message": f"must not end with '/': use {path.rstrip('/')}"}]
        body = error_body(404, "route_not_found", message, details)
    elif exc.status_code == 405:
        body = error_body(405, "method_not_allowed", f"{request.method} is not allowed on {path}.")
    else:
        body = error_body(exc.status_code, "http_error", str(exc.detail))
    return Answer(body, status_code=exc.status_code, headers=getattr(exc, "headers", None))


# --------------------------------------------------------------------------
# parsing requests
# --------------------------------------------------------------------------

def backend_of(request: Request) -> Backend:
    return request.app.state.backend


async def call(fn, *args):
    """Run one backend method in the thread pool (it may touch the disk or the database)."""
    return await run_in_threadpool(fn, *args)


class TrackingWriter:
    """Stores the tracking batches that arrive while the previous commit runs together, on a thread of
    its own (``Backend.tracking_batches``: one transaction for all), then answers each.

    No database work happens on the event loop: a commit, or the database lock it waits for, would stop
    every request meanwhile (a reset deleting 3 million events held the lock for 4.4 s, and three beacons
    froze the service for all of it). The loop only queues a batch's verdict; one thread commits, and the
    batches that came in meanwhile wait for the next commit together, which writes each touched index
    page once for all of them. bench/reset_latency.py measures the worst GET latency during a large reset
    with beacons arriving, and during a batch flood, against ``on_loop=True``, which keeps the
    commits on the loop as before (bench/RESULTS.md "Tracking writer off the loop").
    """

    def __init__(self, backend: Backend, *, on_loop: bool = False):
        self._backend = backend
        self._on_loop = on_loop
        self._waiting: list = []
        self._busy = False
        self._thread = ThreadPoolExecutor(1, thread_name_prefix="workbench-tracking")

    @property
    def pending(self) -> bool:
        """Whether batches are waiting for, or in, a commit."""
        return self._busy

    async def ingest(self, viewer_token: str, body: Checked) -> tuple[int, dict]:
        """Queue a batch's verdict (:meth:`Backend.tracking_precheck`) to be stored; its (status, data) after the commit."""
        loop = asyncio.get_running_loop()
        answer = loop.create_future()
        self._waiting.append((answer, viewer_token, body))
        if not self._busy:  # else the commit that runs takes this batch up when it ends
            self._busy = True
            loop.call_soon(self._next, loop)  # once the turn's other tasks queued theirs
        return await answer

    def _next(self, loop: asyncio.AbstractEventLoop) -> None:
        waiting, self._waiting = self._waiting, []
        if not waiting:
            self._busy = False
            return
        if self._on_loop:
            self._answer(waiting, self._store(waiting))
            loop.call_soon(self._next, loop)
            return
        def stored(done: asyncio.Future[list]) -> None:
            self._answer(waiting, done.result())
            self._next(loop)

        loop.run_in_executor(self._thread, self._store, waiting).add_done_callback(stored)

    def _store(self, waiting: list) -> list:
        self._backend.db.checkpoint_in_background()
        try:
            return self._backend.tracking_batches([(token, body) for _, token, body in waiting])
        except Exception as e:  # answered as a 500 by RequestContext, and logged there
            return [e] * len(waiting)

    @staticmethod
    def _answer(waiting: list, outcomes: list) -> None:
        for (answer, *_), outcome in zip(waiting, outcomes, strict=True):
            if answer.cancelled():
                continue
            if isinstance(outcome, BaseException):
                answer.set_exception(outcome)
            else:
                answer.set_result(outcome)

    def close(self) -> None:
        self._thread.shutdown(wait=True)


def _avatar_base(request: Request) -> str:
    return str(request.base_url).rstrip("/") + "/avatars"


def _strip_suffix(request: Request, name: str, suffix: str) -> str:
    """``name`` without ``suffix``; a 404 that names the suffix when it is missing."""
    if name.endswith(suffix) and len(name) > len(suffix):
        return name[: -len(suffix)]
    path = request.url.path
    stem = path.rsplit(".", 1)[0] if "." in name else path
    raise ServiceError(404, "route_not_found", f"No route {request.method} {path}: the file name ends in {suffix}, as in {stem}{suffix}.",
                       [{"field": "path", "code": "missing_suffix", "message": f"must end with {suffix}"}])


def _binary(request: Request, data: bytes, etag: str, media: str) -> Response:
    headers = {"ETag": etag, "Cache-Control": "public, max-age=3600"}
    inm = request.headers.get("if-none-match")
    if inm and (inm.strip() == "*" or etag in [t.strip().removeprefix("W/") for t in inm.split(",")]):
        return Response(status_code=304, headers=headers)
    return Response(data, media_type=media, headers=headers)


# --------------------------------------------------------------------------
# avatar half: {avatar_base_url} = /avatars
# --------------------------------------------------------------------------

async def register_avatar(request: Request) -> Response:
    body = await read_json(request, AVATAR_BODY_LIMIT, refusal="settings")
    result = await call(backend_of(request).register_avatar, authorization(request), body)
    base, mid = _avatar_base(request), result["modelId"]
    return ok({"modelId": mid, "modelUrl": f"{base}/model/{mid}.glb", "previewUrl": f"{base}/preview/{mid}.png"}, 201)


async def get_model(request: Request) -> Response:
    model_id = _strip_suffix(request, request.path_params["file"], ".glb")
    data, etag = await call(backend_of(request).model, model_id, query(request, "avatars.model"))
    return _binary(request, data, etag, "model/gltf-binary")


async def get_preview(request: Request) -> Response:
    model_id = _strip_suffix(request, request.path_params["file"], ".png")
    data, etag = await call(backend_of(request).preview, model_id, query(request, "avatars.preview"))
    return _binary(request, data, etag, "image/png")


async def list_animations(request: Request) -> Response:
    return ok(await call(backend_of(request).animation_list))


async def get_animation(request: Request) -> Response:
    name = _strip_suffix(request, request.path_params["file"], ".glb")
    data = await call(backend_of(request).animation_file, request.path_params["gender"], name)
    return _binary(request, data, etag_of(data), "model/gltf-binary")


# --------------------------------------------------------------------------
# platform half: {base_url} = /api
# --------------------------------------------------------------------------

async def regenerate(request: Request) -> Response:
    body_token = None
    if request.method == "POST" and media_type(request) in ("text/plain", "application/x-www-form-urlencoded"):
        body_token = beacon_token(await read_body(request, BEACON_BODY_LIMIT))
    return ok(await call(backend_of(request).regenerate, authorization(request), request.path_params["token"], body_token))


async def tracking_batch(request: Request) -> Response:
    # text/plain is what navigator.sendBeacon sends without a preflight. The backend decodes and
    # checks the text in one pass (the catalog's fast path), with the one JSON reader behind it.
    backend = backend_of(request)
    text = await read_json_text(request, TRACKING_BODY_LIMIT, ("application/json", "text/plain"), "the batch",
                                structured_suffix=False)
    # Checked as it arrives (CPU only, no I/O); the verdicts of a turn of the loop are stored together.
    verdict = backend.tracking_precheck(text)
    status, data = await request.app.state.tracking_writer.ingest(request.path_params["token"], verdict)
    return ok(data, status)


async def finish_upload(request: Request) -> Response:
    fields = await read_form(request, FORM_BODY_LIMIT)
    status, record = await call(backend_of(request).finish_upload, authorization(request), request.path_params["id"], fields)
    return ok(record, status)


# --------------------------------------------------------------------------
# local control API: /_local (contract section 9)
# --------------------------------------------------------------------------

async def local_health(request: Request) -> Response:
    return ok(await call(backend_of(request).health))


async def local_reset(request: Request) -> Response:
    return ok(await call(backend_of(request).reset))


async def local_tokens(request: Request) -> Response:
    return ok(await call(backend_of(request).create_token, await read_json(request, CONTROL_BODY_LIMIT)), 201)


async def local_revoke(request: Request) -> Response:
    return ok(await call(backend_of(request).revoke_token, await read_json(request, CONTROL_BODY_LIMIT)))


async def local_create_viewer(request: Request) -> Response:
    return ok(await call(backend_of(request).create_viewer, await read_json(request, CONTROL_BODY_LIMIT)), 201)


async def local_viewer(request: Request) -> Response:
    return ok(await call(backend_of(request).viewer_record, request.path_params["token"]))


async def local_viewer_file(request: Request) -> Response:
    data, media = await call(backend_of(request).viewer_file, request.path_params["token"], request.path_params["output"])
    return Response(data, media_type=media)


async def local_create_space(request: Request) -> Response:
    return ok(await call(backend_of(request).create_space, await read_json(request, CONTROL_BODY_LIMIT)), 201)


async def local_space(request: Request) -> Response:
    return ok(await call(backend_of(request).space_record, request.path_params["id"]))


# Pieces of an upload's body gathered before one write in the thread pool: few thread hops, little memory.
UPLOAD_WRITE_BYTES = 1 << 20


async def local_upload_space(request: Request) -> Response:
    # The template, its state, the file name and the declared size are checked before a byte of the body
    # is read; the body then goes to a temporary file a piece at a time (memory stays flat whatever the
    # size), renamed over the template's file only once it is whole.
    pieces = body_stream(request, UPLOAD_LIMIT)
    filename = query(request, "local.upload_space").get("filename")
    backend = backend_of(request)
    incoming = await call(backend.receive_space_upload, request.path_params["id"], filename)
    try:
        pending = []
        async for chunk in pieces:
            pending.append(chunk)
            if sum(map(len, pending)) >= UPLOAD_WRITE_BYTES:
                await call(incoming.write, b"".join(pending))
                pending.clear()
        await call(incoming.write, b"".join(pending))
    except BaseException:
        await call(incoming.discard)
        raise
    return ok(await call(backend.keep_space_upload, incoming))


async def local_events(request: Request) -> Response:
    # Filters are checked, and the first page read and converted, before the first byte: what can fail
    # fails while an error can still be answered in the envelope. The rows follow a page at a time.
    chunks, media = await call(backend_of(request).stream_events, query(request, "local.events"))
    first = await call(next, chunks, b"")
    return StreamingResponse(itertools.chain((first,), chunks), media_type=media)


async def local_faults(request: Request) -> Response:
    if request.method == "GET":
        return ok(await call(backend_of(request).fault_listing))
    return ok(await call(backend_of(request).arm_fault, await read_json(request, CONTROL_BODY_LIMIT)), 201)


# --------------------------------------------------------------------------
# the app
# --------------------------------------------------------------------------

async def openapi(request: Request) -> Response:
    with importing():
        from workbench.service.openapi import build_openapi
    return JSONResponse(build_openapi(str(request.base_url).rstrip("/")))


async def index(request: Request) -> Response:
    root = str(request.base_url).rstrip("/")
    return ok({"service": "workbench-local", "baseUrl": f"{root}/api", "avatarBaseUrl": f"{root}/avatars",
               "localUrl": f"{root}/_local", "openapi": f"{root}/openapi.json"})


# The handler of each operation of the interface table (workbench.service.spec); the routes, their
# methods and the query parameters each knows come from the table.
HANDLERS = {
    "avatars.register": register_avatar, "avatars.model": get_model, "avatars.preview": get_preview,
    "animations.list": list_animations, "animations.download": get_animation,
    "viewers.regenerate": regenerate, "tracking.send_batch": tracking_batch, "spaces.finish_upload": finish_upload,
    "local.health": local_health, "local.reset": local_reset, "local.create_token": local_tokens,
    "local.revoke_token": local_revoke, "local.create_viewer": local_create_viewer, "local.viewer": local_viewer,
    "local.viewer_file": local_viewer_file, "local.create_space": local_create_space, "local.space": local_space,
    "local.upload_space": local_upload_space, "local.events": local_events, "local.faults": local_faults,
    "local.fault": local_faults,
}


def _routes() -> list[Route]:
    routes = [Route("/", takes_query(None, index)), Route("/openapi.json", takes_query(None, openapi))]
    by_route: dict[str, list[spec.Operation]] = {}
    for o in spec.ALL:
        by_route.setdefault(o.route, []).append(o)
    for path, ops in by_route.items():
        handlers = {HANDLERS[o.name] for o in ops}
        assert len(handlers) == 1, f"{path}: one handler per route"
        routes.append(Route(path, takes_query(ops[0].name, handlers.pop()), methods=[o.method for o in ops]))
    return routes


ROUTES = _routes()


def create_app(backend: Backend, cors_origins: tuple[str, ...] = ("*",), allowed_hosts: tuple[str, ...] = ()) -> Starlette:
    """The ASGI app over ``backend`` (serve it with uvicorn, or pass it to httpx.ASGITransport).
    ``cors_origins``: the origins whose pages may call the endpoints that take a token (contract section 12);
    ``allowed_hosts``: names answered besides loopback ones (contract section 14, :mod:`workbench.service.guards`)."""
    # Outermost first: a small body read before an early answer, CORS and X-Request-Id on every answer (refusals too).
    app = Starlette(routes=ROUTES, middleware=[Middleware(FinishSmallBodies), Middleware(CorsByPath, origins=tuple(cors_origins)), Middleware(RequestContext),
                                               Middleware(LocalGuard, allowed_hosts=tuple(allowed_hosts))],
                    # Starlette calls each handler with an exception of its key's class only, which its types cannot say
                    exception_handlers={ServiceError: _service_error, HTTPException: _http_error,  # type: ignore[dict-item]
                                        OSError: _storage_error, sqlite3.Error: _storage_error})
    # A trailing slash gets a 404 with a hint (see _http_error), not Starlette's empty 307.
    app.router.redirect_slashes = False
    app.state.backend = backend
    app.state.tracking_writer = TrackingWriter(backend)  # one per app: an app is served by one event loop
    return app
