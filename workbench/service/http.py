"""The HTTP plumbing every part of the service shares: the error envelope, the request context and
the body readers. ``app`` (handlers and routes), ``cors``, ``guards`` and ``openapi`` import it;
it imports none of them, so imports run one way.

- :func:`error_body` is the one place where an error becomes an answer's body (and
  :func:`human` keeps an interpreter's text out of every message);
- :class:`RequestContext` gives every answer ``X-Request-Id`` and turns any fault into a JSON 500;
- the readers take a body within its size limit and decode JSON with the one reader
  (:func:`workbench.service.bodies.decode_json`).

>>> error_body(400, "invalid_parameter", "lod: must be 0, 1 or 2.")
{'status': 'error', 'error': {'code': 'invalid_parameter', 'message': 'lod: must be 0, 1 or 2.'}}
"""

from __future__ import annotations

import json
import re
import secrets
import urllib.parse
from collections.abc import AsyncIterator
from typing import TYPE_CHECKING, Any

from python_multipart import MultipartParser
from python_multipart.exceptions import MultipartParseError
from python_multipart.multipart import parse_options_header
from starlette.requests import ClientDisconnect, Request
from starlette.responses import JSONResponse

from workbench import options as opts
from workbench.service.bodies import check_text, decode_json
from workbench.service.errors import ServiceError
from workbench.service.log import log
from workbench.tracking.fields import escaped

if TYPE_CHECKING:
    from python_multipart.multipart import MultipartCallbacks

_REQUEST_ID = re.compile(r"^[A-Za-z0-9._-]{1,128}$")


# --------------------------------------------------------------------------
# rendering answers
# --------------------------------------------------------------------------

class Answer(JSONResponse):
    r"""Starlette's JSONResponse whose body can always be written.

    Text UTF-8 cannot encode (a lone surrogate some check let through) is escaped where it sits
    (:func:`escape_text`) instead of failing: an answer is rendered after the work is done (a
    tracking batch's events are committed by then), and a 500 there would make the client send
    again what was stored.

    >>> Answer({"field": "payload.\ud800"}).body
    b'{"field":"payload.\\\\ud800"}'
    """

    def render(self, content: Any) -> bytes:
        try:
            return super().render(content)
        except UnicodeEncodeError:
            log.warning("an answer held text UTF-8 cannot encode; it was escaped")
            return super().render(escape_text(content))


def escape_text(value: Any) -> Any:
    """``value`` with every string (keys included) made encodable by :func:`workbench.tracking.fields.escaped`."""
    if isinstance(value, str):
        return escaped(value)
    if isinstance(value, dict):
        return {escape_text(k): escape_text(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [escape_text(v) for v in value]
    return value


def ok(data: Any, status: int = 200, headers: dict | None = None) -> JSONResponse:
    return Answer({"status": "ok", "data": data}, status_code=status, headers=headers)


# Text that only an interpreter or a library writes (exception class names, tracebacks, decoder
# positions, reprs). Every message is rendered here, so none can reach an answer whatever step let it through.
_INTERPRETER_TEXT = re.compile(r"Traceback|\bsys\.\w|set_int_max_str_digits|maximum recursion|\b[A-Z]\w*(?:Error|Exception)\b"
                               r"|\(char \d+\)|object at 0x[0-9a-f]+|<class '|File \"[^\"]*\", line")


def human(message: str, code: str, status: int) -> str:
    """``message``, or one sentence of our own when it carries an interpreter's text (logged for the developer).

    >>> human("lod: must be 0, 1 or 2.", "invalid_parameter", 400)
    'lod: must be 0, 1 or 2.'
    >>> human("Model generation failed: UnicodeEncodeError: 'utf-8' codec can't encode", "model_generation_failed", 500)
    'The service failed (model generation failed); the service log has the cause.'
    """
    message = escaped(message)  # a name or value echoed in it may hold a lone surrogate
    if not _INTERPRETER_TEXT.search(message):
        return message
    log.warning("an answer's message held interpreter text and was replaced (%s): %s", code, message)
    what = code.replace("_", " ")
    if status >= 500:
        return f"The service failed ({what}); the service log has the cause."
    return f"The request was refused ({what})."


def error_body(status: int, code: str, message: str, details: list | None = None) -> dict:
    """The contract's error envelope; the one place where an error becomes the answer's body."""
    err: dict[str, Any] = {"code": code, "message": human(message, code, status)}
    if details is not None:
        err["details"] = [{**escape_text(d), "message": human(d["message"], d.get("code") or code, status)}
                          if isinstance(d, dict) and isinstance(d.get("message"), str) else escape_text(d) for d in details]
    return {"status": "error", "error": err}


def error_message(status: int, code: str, message: str, details: list | None = None,
                  headers: list[tuple[bytes, bytes]] | None = None) -> tuple[dict, bytes]:
    """The ASGI start message and body of an error answer, for middleware that answers before the app."""
    body = json.dumps(error_body(status, code, message, details), separators=(",", ":")).encode()
    return ({"type": "http.response.start", "status": status,
             "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
                         *(headers or [])]}, body)


# How many ignored names the header lists: enough to spot a typo, and a header of a few hundred bytes
# whatever the request (12,000 names made 85 KB of header, near where clients refuse an answer).
IGNORED_NAMES_SHOWN = 10
IGNORED_NAME_CHARS = 64


def ignored_header(names: list[str]) -> bytes:
    """The value of ``X-Workbench-Ignored-Params``: the first :data:`IGNORED_NAMES_SHOWN` names, comma
    separated, then ``; total=N`` when there were more.

    Percent-encoded as in a URL: a name may hold anything, a CR or LF included, and a header value may not
    (h11 would drop the connection; a lax server would be split). A long name is cut to 64 characters.

    >>> ignored_header(["v", "a b"])
    b'v, a%20b'
    >>> ignored_header(["0", ""])
    b'0, ""'
    >>> ignored_header([f"p{i}" for i in range(12)])
    b'p0, p1, p2, p3, p4, p5, p6, p7, p8, p9; total=12'
    """
    # An empty name (``?=1``) is shown as "": left empty, the value could end in a space, which a header
    # value may not (h11 then closes the connection without an answer).
    shown = ", ".join(urllib.parse.quote(n[:IGNORED_NAME_CHARS], safe="!#$&'*+^`|", errors="backslashreplace") or '""'
                      for n in names[:IGNORED_NAMES_SHOWN])
    if len(names) > IGNORED_NAMES_SHOWN:
        shown += f"; total={len(names)}"
    return shown.encode("ascii")


class RequestContext:
    """Pure ASGI middleware: an ``X-Request-Id`` on every answer, and a JSON 500 for any fault."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        incoming = dict(scope.get("headers") or []).get(b"x-request-id", b"").decode("latin-1")
        rid = incoming if _REQUEST_ID.match(incoming) else secrets.token_hex(8)
        started = False
        state = scope.setdefault("state", {})  # request.state of the handler: takes_query notes ignored names there

        async def send_with_id(message):
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                extra = [(b"x-request-id", rid.encode())]
                if state.get("ignored_params"):
                    extra.append((opts.IGNORED_PARAMS_HEADER.lower().encode(), ignored_header(state["ignored_params"])))
                message["headers"] = list(message.get("headers") or []) + extra
            await send(message)

        try:
            await self.app(scope, receive, send_with_id)
        except ClientDisconnect:
            # The client went away mid-body (a closed tab, a timeout of its own): nobody to answer, nothing
            # of ours failed, and a slow-body flood would otherwise write a traceback per connection.
            log.info("client disconnected before sending the whole body of %s %s (request %s)",
                     scope.get("method"), scope.get("path"), rid)
        except Exception:
            # The traceback goes to the log, never into the answer.
            log.exception("unexpected fault in %s %s (request %s)", scope.get("method"), scope.get("path"), rid)
            if started:
                raise
            start, body = error_message(500, "internal_error", f"The service failed unexpectedly; quote request id {rid}.",
                                        headers=[(b"x-request-id", rid.encode())])
            await send(start)
            await send({"type": "http.response.body", "body": body})


# --------------------------------------------------------------------------
# reading requests
# --------------------------------------------------------------------------

def check_declared_size(request: Request, limit: int) -> None:
    """413 before any byte is read when the request's Content-Length passes ``limit``."""
    declared = request.headers.get("content-length", "")
    if declared.isascii() and declared.isdigit() and (len(declared) > 18 or int(declared) > limit):
        raise ServiceError.too_large(limit)


def body_stream(request: Request, limit: int) -> AsyncIterator[bytes]:
    """The body's pieces as they arrive; 413 at once (before any byte is read) when the declared Content-Length
    passes ``limit``, and as soon as the pieces pass it (nothing past it is read)."""
    check_declared_size(request, limit)
    return _bounded(request.stream(), limit)


async def _bounded(pieces: AsyncIterator[bytes], limit: int) -> AsyncIterator[bytes]:
    size = 0
    async for piece in pieces:
        size += len(piece)
        if size > limit:
            raise ServiceError.too_large(limit)
        yield piece


async def read_body(request: Request, limit: int) -> bytes:
    """The body, or 413 as soon as it passes ``limit`` bytes (never buffering more)."""
    return b"".join([piece async for piece in body_stream(request, limit)])


def media_type(request: Request) -> str:
    return request.headers.get("content-type", "").split(";")[0].strip().lower()


def _unsupported(sent: str, allowed: tuple[str, ...], what: str = "the body") -> ServiceError:
    wanted = " or ".join(allowed)
    return ServiceError(415, "unsupported_media_type", f"Send {what} as {wanted}; got {sent or 'no Content-Type'}.",
                        [{"field": "Content-Type", "code": "unsupported_media_type", "message": f"must be {wanted}"}])


async def read_json_text(request: Request, limit: int, allowed: tuple[str, ...] = ("application/json",),
                         what: str = "the body", *, structured_suffix: bool = True) -> bytes:
    """The JSON body's bytes, undecoded, after the media type and size checks.

    allowed: the media types taken; with ``structured_suffix`` also any ``application/*+json``.
    """
    mt = media_type(request)
    if mt not in allowed and not (structured_suffix and mt.startswith("application/") and mt.endswith("+json")):
        raise _unsupported(mt, allowed, what)
    return await read_body(request, limit)


async def read_json(request: Request, limit: int, allowed: tuple[str, ...] = ("application/json",), what: str = "the body",
                    *, structured_suffix: bool = True, refusal: str = "request") -> Any:
    """The decoded JSON body (one reader for every endpoint: :func:`bodies.decode_json`), its text all
    encodable (:func:`bodies.check_text`, answering ``invalid_<refusal>``)."""
    value = decode_json(await read_json_text(request, limit, allowed, what, structured_suffix=structured_suffix))
    check_text(value, refusal)
    return value


async def read_form(request: Request, limit: int) -> list[tuple[str, Any]]:
    """The (name, value) pairs of a multipart/form-data body of at most ``limit`` bytes."""
    if media_type(request) != "multipart/form-data":
        raise ServiceError(400, "invalid_payload", "Send the finish as multipart/form-data with success and message.",
                           [{"field": "Content-Type", "code": "wrong_content_type", "message": "must be multipart/form-data"}])
    raw = await read_body(request, limit)

    try:
        fields, not_utf8 = parse_multipart(request.headers.get("content-type", ""), raw)
    except FormError as e:
        raise ServiceError(400, "invalid_payload", "The multipart body does not parse; see details.",
                           [{"field": "body", "code": "invalid_multipart", "message": str(e)}]) from None
    if not_utf8:
        raise ServiceError.invalid([opts.Problem(name, "invalid_text", "must be UTF-8 text") for name in not_utf8], "payload")
    return fields


class FormError(ValueError):
    """A multipart body that does not parse, or holds what a form of plain fields may not."""


def parse_multipart(content_type: str, raw: bytes, *, max_fields: int = 10) -> tuple[list[tuple[str, str]], list[str]]:
    r"""The (name, text) fields of a ``multipart/form-data`` body of plain fields (no files), and the
    names of those whose value is not UTF-8, through python-multipart's public parser; FormError
    when it does not parse.

    >>> body = b'--b\r\nContent-Disposition: form-data; name="success"\r\n\r\ntrue\r\n--b--\r\n'
    >>> parse_multipart("multipart/form-data; boundary=b", body)
    ([('success', 'true')], [])
    """
    _, params = parse_options_header(content_type)
    boundary = params.get(b"boundary")
    if not boundary:
        raise FormError("Missing boundary in multipart.")
    parts: list[dict] = []
    header = {"field": b"", "value": b""}

    def begin() -> None:
        parts.append({"headers": {}, "data": bytearray()})
        if len(parts) > max_fields:
            raise FormError(f"Too many fields. Maximum number of fields is {max_fields}.")

    def header_end() -> None:
        parts[-1]["headers"][header["field"].lower()] = header["value"]
        header["field"] = header["value"] = b""

    callbacks: MultipartCallbacks = {
        "on_part_begin": begin,
        "on_header_field": lambda data, start, end: header.__setitem__("field", header["field"] + data[start:end]),
        "on_header_value": lambda data, start, end: header.__setitem__("value", header["value"] + data[start:end]),
        "on_header_end": header_end,
        "on_part_data": lambda data, start, end: parts[-1]["data"].extend(data[start:end]),
    }
    try:
        parser = MultipartParser(boundary, callbacks)
        parser.write(raw)
        parser.finalize()
    except MultipartParseError as e:
        raise FormError(f"The multipart body is malformed ({str(e).split(':')[0]}).") from None
    fields, not_utf8 = [], []
    for part in parts:
        disposition, options = parse_options_header(part["headers"].get(b"content-disposition", b""))
        if disposition != b"form-data" or b"name" not in options:
            raise FormError("The Content-Disposition header of a part is missing or incorrect.")
        name = options[b"name"].decode("utf-8", "replace")
        if b"filename" in options:
            raise FormError("Too many files. Maximum number of files is 0.")
        try:
            fields.append((name, bytes(part["data"]).decode("utf-8")))
        except UnicodeDecodeError:
            not_utf8.append(name)
    return fields, not_utf8


def beacon_token(raw: bytes) -> str | None:
    """The ``access_token`` field of a beacon body (navigator.sendBeacon cannot set headers; RFC 6750 section 2.2)."""
    try:
        fields = urllib.parse.parse_qs(raw.decode("utf-8").strip(), keep_blank_values=True)
    except UnicodeDecodeError:
        fields = {}
    tokens = fields.get("access_token") or []
    if len(tokens) > 1:
        raise ServiceError(400, "invalid_request", "Send access_token once.")
    return tokens[0] if tokens else None


def authorization(request: Request) -> str | None:
    """The one ``Authorization`` header; two are refused rather than letting one silently win."""
    values = request.headers.getlist("authorization")
    if len(values) > 1:
        raise ServiceError(400, "invalid_request", f"Send one Authorization header; this request has {len(values)}.",
                           [{"field": "Authorization", "code": "repeated_header", "message": "must be sent once"}])
    return values[0] if values else None


def query(request: Request, operation: str) -> dict:
    """The query parameters ``operation`` knows (:data:`workbench.options.QUERY_PARAMETERS`); each
    given once, else 400. The others are ignored (contract section 14): :func:`takes_query` names them."""
    q: dict[str, str] = {}
    known = opts.QUERY_PARAMETERS.get(operation, ())
    for k, v in request.query_params.multi_items():
        if k not in known:
            continue
        if k in q:
            raise ServiceError.invalid([opts.Problem(k, "repeated_parameter", "is given more than once")], "query")
        q[k] = v
    return q


def takes_query(operation: str | None, handler):
    """``handler`` with the names of the query parameters ``operation`` does not know noted, so that
    :class:`RequestContext` names them in ``X-Workbench-Ignored-Params`` on the answer, errors included."""
    async def endpoint(request: Request):
        _, ignored = opts.split_query(dict(request.query_params), operation or "")
        if ignored:
            request.state.ignored_params = ignored
        return await handler(request)

    endpoint.__name__ = endpoint.__qualname__ = handler.__name__
    endpoint.__doc__ = handler.__doc__
    return endpoint


