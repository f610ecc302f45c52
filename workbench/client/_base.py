"""The shared half of the client: configuration, request building, response parsing, retries and redirects.

``Client`` and ``AsyncClient`` differ only in how they send (``_sync.py`` and
``_async.py``). Everything else, every URL, header, option check and result
parser, is built here once, as a :class:`Request` that carries its own parser;
the senders' loops, the retries (:class:`Attempts`) and the redirects and the
answer's bounds (:class:`Exchange`), are here too, their I/O left to the senders.

>>> cfg = ClientConfig("http://h/api", "http://h/avatars", "tok")
>>> req = build_model(cfg, "abc", lod=1, merge_mesh=True)
>>> req.method, req.url, req.params
('GET', 'http://h/avatars/model/abc.glb', {'lod': '1', 'mergeMesh': '1'})
"""

from __future__ import annotations

import contextlib
import functools
import os
import secrets
import ssl
import time
import urllib.parse
import warnings
import zlib
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from types import MappingProxyType, TracebackType
from typing import IO, TYPE_CHECKING, Any, Literal, TypeVar

import httpx

from workbench import options as opts
from workbench.__version__ import __version__
from workbench.client import results as R
from workbench.client._codings import CodingRefused, Decoder
from workbench.client._deadline import answer_deadline
from workbench.client.errors import (
    AnswerTooLargeError,
    ConfigurationError,
    OptionError,
    RequestTimeoutError,
    TransportError,
    UnexpectedAnswerError,
    error_from_response,
)
from workbench.client.retry import RetryPolicy
from workbench.tracking import catalog

if TYPE_CHECKING:
    from workbench.progress import Progress

T = TypeVar("T")

USER_AGENT = f"workbench/{__version__}"

ENV_BASE_URL = "WORKBENCH_BASE_URL"
ENV_AVATAR_BASE_URL = "WORKBENCH_AVATAR_BASE_URL"
ENV_TOKEN = "WORKBENCH_TOKEN"
ENV_LOCAL_URL = "WORKBENCH_LOCAL_URL"


MiB = 1 << 20

#: The most bytes an answer of each kind may have, counted after decompression (``ClientConfig.max_bytes``):
#: far above what the service sends (a model at the highest level of detail is a few MiB, a 2048 px
#: preview under 10), far below what would hurt a notebook's memory.
DEFAULT_MAX_BYTES = MappingProxyType({
    "json": 16 * MiB,        # every JSON answer of the interface
    "model": 512 * MiB,      # GLB downloads: avatar models and animation clips
    "image": 64 * MiB,       # previews
    "file": 512 * MiB,       # a viewer's files (local control API)
    "export": 4096 * MiB,    # the tracking export (local control API)
})


def tls_context() -> ssl.SSLContext:
    """The TLS settings of this process's ``Client`` and ``AsyncClient``: httpx's default (certifi's roots, or the
    files ``SSL_CERT_FILE`` / ``SSL_CERT_DIR`` name), one context for each value of those two variables, shared by the
    clients, never changed after it is made. Making one reads the whole certificate bundle, 27 ms of CPU here, which a
    notebook or a suite that opens many clients paid for each. (A bundle's file changed in place is read again by a
    new process, as a variable changed is by the next client.)

    >>> tls_context() is tls_context(), tls_context().verify_mode == ssl.CERT_REQUIRED
    (True, True)
    """
    return _tls_for(os.environ.get("SSL_CERT_FILE"), os.environ.get("SSL_CERT_DIR"))


@functools.cache
def _tls_for(cert_file: str | None, cert_dir: str | None) -> ssl.SSLContext:
    # (httpx reads the variables itself: the arguments key the cache.)
    return httpx.create_ssl_context()


@dataclass(frozen=True)
class ClientConfig:
    """Where the service is and how to talk to it.

    base_url: the platform half (viewers, resources), e.g. ``http://127.0.0.1:8080/api``.
    avatar_base_url: the avatar half (avatar, model, preview, animations), e.g. ``.../avatars``.
    token: a Bearer token; needed by register, regenerate and finish-upload.
    local_url: the local control API (``/_local``) when the target is a local service, else None.
    timeout: seconds for each connect, read or write (httpx's timeouts, which restart with each read).
    answer_timeout: seconds for a whole answer, head and body, however it trickles; then
    RequestTimeoutError.
    max_bytes: the most bytes an answer may have, by kind (:data:`DEFAULT_MAX_BYTES`; a dict given
    here changes the kinds it names); past it AnswerTooLargeError, and reading stops.
    """

    base_url: str
    avatar_base_url: str
    token: str | None = None
    local_url: str | None = None
    timeout: float = 30.0
    retry: RetryPolicy = field(default_factory=RetryPolicy)
    answer_timeout: float = 300.0
    max_bytes: Mapping[str, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        unknown = [k for k in self.max_bytes if k not in DEFAULT_MAX_BYTES]
        if unknown:
            raise ConfigurationError(f"Client: max_bytes knows the kinds {', '.join(DEFAULT_MAX_BYTES)}; got {unknown}")
        object.__setattr__(self, "max_bytes", MappingProxyType({**DEFAULT_MAX_BYTES, **self.max_bytes}))
        if not 0 < self.answer_timeout < float("inf"):
            raise ConfigurationError(f"Client: answer_timeout must be a finite number of seconds above 0; got {self.answer_timeout}")

    @classmethod
    def resolve(cls, base_url: str | None = None, avatar_base_url: str | None = None, token: str | None = None,
                local_url: str | None = None, **kw: Any) -> ClientConfig:
        """Arguments win over ``WORKBENCH_*`` environment variables; both base URLs are required."""
        base_url = base_url or os.environ.get(ENV_BASE_URL)
        avatar_base_url = avatar_base_url or os.environ.get(ENV_AVATAR_BASE_URL)
        token = token if token is not None else os.environ.get(ENV_TOKEN) or None
        local_url = local_url or os.environ.get(ENV_LOCAL_URL) or None
        if local_url == "none":
            local_url = None
        if not base_url or not avatar_base_url:
            missing = [n for n, v in ((f"base_url (or {ENV_BASE_URL})", base_url),
                                      (f"avatar_base_url (or {ENV_AVATAR_BASE_URL})", avatar_base_url)) if not v]
            raise ConfigurationError(
                "Client: missing " + " and ".join(missing)
                + "; pass them, set the environment variables, or call workbench.connect() for a local service")
        for name, url in (("base_url", base_url), ("avatar_base_url", avatar_base_url)):
            if urllib.parse.urlsplit(url).scheme not in ("http", "https"):
                raise ConfigurationError(f"Client: {name} must be an http(s) URL; got {url!r}")
        return cls(base_url.rstrip("/"), avatar_base_url.rstrip("/"), token,
                   local_url.rstrip("/") if local_url else None, **kw)


@dataclass
class Request:
    """One HTTP request, fully built, with the parser of its answer.

    retry: whether repeating it is safe (same effect twice as once).
    """

    operation: str
    method: str
    url: str
    parse: Callable[[httpx.Response], Any]
    params: dict[str, str] | None = None
    headers: dict[str, str] = field(default_factory=dict)
    json: Any = None
    content: bytes | str | None = None
    files: dict[str, Any] | None = None
    retry: bool = True
    warned_params: tuple[str, ...] = ()  # unknown query parameters already warned about before sending
    kind: str = "json"  # what the answer holds: its size bound (ClientConfig.max_bytes) and its check
    credential_in_body: bool = False  # the body carries the token (the beacon form of regenerate)
    to_file: Path | None = None  # a success's body goes to this file as it arrives, not to memory
    progress: bool = True  # a bar once it has waited 2 s (waiting()); the batch sender shows its own

    @property
    def carries_credential(self) -> bool:
        return self.credential_in_body or any(k.lower() == "authorization" for k in self.headers)


def _q(segment: str) -> str:
    return urllib.parse.quote(str(segment), safe="")


def _auth(cfg: ClientConfig) -> dict[str, str]:
    return {"Authorization": f"Bearer {cfg.token}"} if cfg.token else {}


def waiting(req: Request) -> Progress:
    """The wait for ``req``'s answer as a person sees it: nothing for 2 s, then a bar saying what is asked
    and, once the answer's body comes, its bytes (:mod:`workbench.progress`); a retry's wait says so.

    >>> with waiting(Request("avatars.model", "GET", "http://h/avatars/avatar/m1/model", _json)) as bar:
    ...     bar.what
    'Waiting for GET http://h/avatars/avatar/m1/model'
    """
    from workbench.progress import Progress

    return Progress(f"Waiting for {req.method} {req.url}", unit="B", quiet=not req.progress)


def body_size(resp: httpx.Response) -> int | None:
    """The bytes ``resp``'s body will have as read, when its head says (no content coding)."""
    declared = resp.headers.get("content-length", "")
    return int(declared) if declared.isdigit() and "content-encoding" not in resp.headers else None


class NotPromised(ValueError):
    """A parser met an answer the interface does not promise; :func:`decide` makes it an UnexpectedAnswerError."""


def _json(resp: httpx.Response) -> Any:
    try:
        return resp.json()
    except ValueError:
        raise NotPromised("the body is not JSON") from None
    except RecursionError:  # Python's decoder recurses once per level: a hostile body nests 100,000 deep
        raise NotPromised("its JSON nests deeper than Python's decoder reads") from None


def _data(resp: httpx.Response, *keys: str) -> dict[str, Any]:
    """The answer's data (in the envelope or bare) as an object holding ``keys``, else NotPromised."""
    d = R.envelope_data(_json(resp))
    if not isinstance(d, dict):
        raise NotPromised("the data is not a JSON object")
    missing = [k for k in keys if k not in d]
    if missing:
        raise NotPromised(f"no {', '.join(missing)} in the data")
    return d


def _binary(resp: httpx.Response, magic: bytes, what: str) -> bytes:
    if not resp.content.startswith(magic):
        raise NotPromised(f"the body is not a {what}")
    return resp.content


PART_FILE = "workbench.part_file"  # the response extension that names the part file of a body streamed to disk


def _saved(to_file: str | os.PathLike[str], magic: bytes, what: str) -> Callable[[httpx.Response], Path]:
    """The parser of an answer streamed to ``to_file`` (see :class:`Budget`): the part file, checked by its
    first bytes, renamed to ``to_file``; the path."""
    target = Path(to_file)

    def parse(resp: httpx.Response) -> Path:
        _binary(resp, magic, what)  # the content of a streamed answer is its first bytes
        os.replace(resp.extensions[PART_FILE], target)
        return target

    return parse


def discard_part(resp: httpx.Response | None) -> None:
    """Remove the part file of an answer that was streamed to disk and then refused."""
    part = resp.extensions.get(PART_FILE) if resp is not None else None
    if part is not None:
        Path(part).unlink(missing_ok=True)


def _check(operation: str, fn: Callable[..., T], *args: Any) -> T:
    try:
        return fn(*args)
    except opts.InvalidOptions as e:
        raise OptionError(operation, e.problems) from None


def _require_id(operation: str, name: str, value: Any) -> str:
    if not isinstance(value, str) or not value or "/" in value or len(value) > 256:
        raise OptionError(operation, [opts.Problem(name, "invalid_id", f"must be a non-empty string without '/'; got {value!r}")])
    return value


def _model_id(operation: str, value: Any) -> str:
    """A model id as the URL needs it: ``ID.glb`` or ``ID.png`` (copied from a file URL) means ``ID``.

    The client adds the suffix itself, so without this an id pasted with it would ask for
    ``ID.glb.glb`` and be told that no such avatar exists.
    """
    model_id = _require_id(operation, "model_id", value)
    stem, dot, suffix = model_id.rpartition(".")
    return stem if dot and stem and suffix.lower() in ("glb", "png") else model_id


def _extra_params(operation: str, query: dict[str, str], params: Mapping[str, Any] | None) -> tuple[str, ...]:
    """Add ``params`` (any other query parameters, such as a cache buster) to ``query``; warn once for
    each name the operation does not know (the service ignores those, contract section 14): a typo
    never passes silently. Returns the names warned about."""
    if not params:
        return ()
    known = opts.QUERY_PARAMETERS.get(operation, ())
    unknown = tuple(k for k in params if k not in known)
    for k, v in params.items():
        if k in query:
            raise ValueError(f"{operation}: {k} is given twice (as an argument and in params)")
        query[k] = _query_value(v)
    if unknown:
        warnings.warn(f"{operation}: {', '.join(map(repr, unknown))} is not a parameter of this operation "
                      f"(it knows {', '.join(known) or 'none'}); the service will ignore it", UserWarning, stacklevel=4)
    return unknown


def _query_value(value: Any) -> str:
    if isinstance(value, bool):
        return "1" if value else "0"
    if isinstance(value, (list, tuple)):
        return ",".join(str(v) for v in value)
    return str(value)


# --------------------------------------------------------------------------
# Avatar half
# --------------------------------------------------------------------------

def build_register(cfg: ClientConfig, settings: dict[str, Any]) -> Request:
    """POST {avatar}/avatar: settings are checked here with the service's own rules."""
    _check("avatars.register", opts.normalize_avatar_settings, settings)

    def parse(resp: httpx.Response) -> R.Registration:
        d = _data(resp, "modelId", "modelUrl", "previewUrl")
        return R.Registration(d["modelId"], d["modelUrl"], d["previewUrl"])

    # A repeat would register a second avatar, so only a refused connection is retried.
    return Request("avatars.register", "POST", f"{cfg.avatar_base_url}/avatar", parse,
                   headers=_auth(cfg), json=settings, retry=False)


def build_model(cfg: ClientConfig, model_id: str, *, lod: int | None = None,
                animations: str | Sequence[str] | None = None, texture_format: str | None = None,
                merge_mesh: bool | int | None = None, texture_atlas_size: int | None = None,
                params: Mapping[str, Any] | None = None, to_file: str | os.PathLike[str] | None = None) -> Request:
    """GET {avatar}/model/:id.glb with the interface's query options, checked first; ``params``: any
    other query parameters (names the operation does not know are sent with a warning); ``to_file``:
    stream the GLB to this file (its path is the result) instead of holding it in memory."""
    model_id = _model_id("avatars.model", model_id)
    if isinstance(animations, (list, tuple)) and not animations:
        animations = "none"  # an empty list of clips, which would otherwise become an empty value
    raw = {"lod": lod, "animations": animations, "textureFormat": texture_format,
           "mergeMesh": merge_mesh, "textureAtlasSize": texture_atlas_size}
    query = {k: _query_value(v) for k, v in raw.items() if v is not None}
    warned = _extra_params("avatars.model", query, params)
    _check("avatars.model", opts.parse_model_options, query)

    parse: Callable[[httpx.Response], Any]

    def parse_model(resp: httpx.Response) -> R.Model:
        return R.Model(model_id, _binary(resp, b"glTF", "GLB"), query, resp.headers.get("etag"),
                       resp.headers.get("content-type"))

    parse = parse_model if to_file is None else _saved(to_file, b"glTF", "GLB")
    return Request("avatars.model", "GET", f"{cfg.avatar_base_url}/model/{_q(model_id)}.glb", parse, params=query,
                   warned_params=warned, kind="model", to_file=Path(to_file) if to_file is not None else None)


def build_preview(cfg: ClientConfig, model_id: str, *, size: int | None = None, camera: str | None = None,
                  background: Sequence[int] | str | None = None, params: Mapping[str, Any] | None = None) -> Request:
    """GET {avatar}/preview/:id.png; ``background`` is (R, G, B) or "R,G,B"; None is transparent;
    ``params``: any other query parameters (names the operation does not know are sent with a warning)."""
    model_id = _model_id("avatars.preview", model_id)
    raw = {"size": size, "camera": camera, "background": background}
    query = {k: _query_value(v) for k, v in raw.items() if v is not None}
    warned = _extra_params("avatars.preview", query, params)
    _check("avatars.preview", opts.parse_preview_options, query)

    def parse(resp: httpx.Response) -> R.Preview:
        return R.Preview(model_id, _binary(resp, b"\x89PNG\r\n\x1a\n", "PNG"), query, resp.headers.get("etag"))

    return Request("avatars.preview", "GET", f"{cfg.avatar_base_url}/preview/{_q(model_id)}.png", parse, params=query,
                   warned_params=warned, kind="image")


def build_animation_list(cfg: ClientConfig) -> Request:
    def parse(resp: httpx.Response) -> R.AnimationList:
        d = _data(resp, "masculine", "feminine")
        if not all(isinstance(d[g], list) for g in ("masculine", "feminine")):
            raise NotPromised("masculine and feminine are not lists of names")
        return R.AnimationList(tuple(d["masculine"]), tuple(d["feminine"]))

    return Request("animations.list", "GET", f"{cfg.avatar_base_url}/animations", parse)


def build_animation_download(cfg: ClientConfig, gender: str, name: str,
                             to_file: str | os.PathLike[str] | None = None) -> Request:
    _check("animations.download", opts.check_animation_path, gender, name)
    parse: Callable[[httpx.Response], Any] = _saved(to_file, b"glTF", "GLB") if to_file is not None else \
        (lambda resp: R.Animation(gender, name, _binary(resp, b"glTF", "GLB")))
    return Request("animations.download", "GET", f"{cfg.avatar_base_url}/animations/{_q(gender)}/{_q(name)}.glb",
                   parse, kind="model", to_file=Path(to_file) if to_file is not None else None)


# --------------------------------------------------------------------------
# Platform half
# --------------------------------------------------------------------------

def build_regenerate(cfg: ClientConfig, viewer_token: str, method: str = "POST", beacon: bool = False) -> Request:
    """PUT or POST {base}/viewers/{token}/regenerate/all; ``beacon=True`` sends the token
    in a text/plain body, as ``navigator.sendBeacon`` must (POST only)."""
    _require_id("viewers.regenerate", "viewer_token", viewer_token)
    method = method.upper()
    problems: list[opts.Problem] = []
    if method not in ("POST", "PUT"):
        problems.append(opts.Problem("method", "not_allowed", f"must be POST or PUT; got {method!r}"))
    if beacon and method != "POST":
        problems.append(opts.Problem("beacon", "not_allowed", "the beacon form exists only for POST"))
    if problems:
        raise OptionError("viewers.regenerate", problems)

    def parse(resp: httpx.Response) -> R.RegenerateJob:
        d = _data(resp, "jobId", "state")
        return R.RegenerateJob(d.get("viewerToken", viewer_token), d.get("kind", ""), d["jobId"],
                               d["state"], tuple(d.get("outputs", ())), resp.status_code)

    url = f"{cfg.base_url}/viewers/{_q(viewer_token)}/regenerate/all"
    if beacon:
        body = urllib.parse.urlencode({"access_token": cfg.token or ""})
        return Request("viewers.regenerate", "POST", url, parse,
                       headers={"Content-Type": "text/plain;charset=UTF-8"}, content=body, credential_in_body=True)
    return Request("viewers.regenerate", method, url, parse, headers=_auth(cfg))


def check_batch_request(operation: str, session_id: Any, events: Any) -> None:
    """The request-level rules of a tracking batch (contract section 7), checked before sending."""
    problems: list[opts.Problem] = []
    why = catalog.session_id_problem(session_id)
    if why:
        problems.append(opts.Problem("sessionId", "invalid_session_id", why))
    if not isinstance(events, (list, tuple)):
        problems.append(opts.Problem("events", "invalid_events", "must be a list of event objects"))
    elif not events:
        problems.append(opts.Problem("events", "empty_events", "must hold at least one event"))
    elif len(events) > catalog.MAX_EVENTS:
        problems.append(opts.Problem("events", "too_many_events",
                                     f"holds at most {catalog.MAX_EVENTS} events; got {len(events)}"))
    if problems:
        raise OptionError(operation, problems)


def build_tracking_batch(cfg: ClientConfig, viewer_token: str, session_id: str, events: Sequence[dict[str, Any]],
                         *, check: bool = True) -> Request:
    """POST {base}/viewers/{token}/tracking-event/batch. ``check=False`` sends even a batch that
    breaks the request-level rules (to see the service's 400)."""
    _require_id("tracking.send_batch", "viewer_token", viewer_token)
    if check:
        check_batch_request("tracking.send_batch", session_id, events)
    events = list(events) if isinstance(events, tuple) else events
    # Safe to repeat only when every event carries an id: the service stores a repeated id once.
    safe = isinstance(events, list) and all(isinstance(e, dict) and e.get("id") for e in events)
    return Request("tracking.send_batch", "POST", f"{cfg.base_url}/viewers/{_q(viewer_token)}/tracking-event/batch",
                   _parse_batch_result, json={"sessionId": session_id, "events": events}, retry=safe)


def build_tracking_batch_body(cfg: ClientConfig, viewer_token: str, body: bytes, *, safe: bool) -> Request:
    """The same POST with a body already written as JSON (the batch sender checks and encodes events once,
    and sizes batches by these bytes). ``safe``: every event carries an id, so a repeat stores nothing twice.
    No bar of its own: the batch sender's counts the batches."""
    _require_id("tracking.send_batch", "viewer_token", viewer_token)
    return Request("tracking.send_batch", "POST", f"{cfg.base_url}/viewers/{_q(viewer_token)}/tracking-event/batch",
                   _parse_batch_result, headers={"Content-Type": "application/json"}, content=body, retry=safe,
                   progress=False)


def _parse_batch_result(resp: httpx.Response) -> R.BatchResult:
    d = _data(resp, "accepted")
    return R.BatchResult(resp.status_code, int(d.get("accepted", 0)), int(d.get("rejected", 0)),
                         int(d.get("duplicates", 0)), tuple(d.get("errors", ())))


def build_finish_upload(cfg: ClientConfig, space_template_id: str, *, success: bool, message: str) -> Request:
    """POST {base}/resources/spaces/{id}/finish-upload as multipart/form-data."""
    _require_id("spaces.finish_upload", "space_template_id", space_template_id)
    _check("spaces.finish_upload", opts.check_finish_upload, success, message)

    def parse(resp: httpx.Response) -> R.UploadFinish:
        d = _data(resp, "state")
        return R.UploadFinish(d.get("spaceTemplateId", space_template_id), d["state"], resp.status_code, d)

    # (None, value) parts make httpx send multipart/form-data fields without file names.
    files = {name: (None, value) for name, value in opts.finish_upload_form(success, message).items()}
    return Request("spaces.finish_upload", "POST", f"{cfg.base_url}/resources/spaces/{_q(space_template_id)}/finish-upload",
                   parse, headers=_auth(cfg), files=files)


# --------------------------------------------------------------------------
# Local control API (local service only)
# --------------------------------------------------------------------------

def _local(cfg: ClientConfig, operation: str) -> str:
    if not cfg.local_url:
        raise ConfigurationError(f"{operation}: this target has no local control API (it is not a local workbench service)")
    return cfg.local_url


def build_local(cfg: ClientConfig, operation: str, method: str, path: str, *, json: Any = None,
                params: dict[str, str] | None = None, content: bytes | str | None = None, raw: bool = False, retry: bool = True, kind: str = "json") -> Request:
    """A call of the ``/_local`` control API; its answer's ``data`` (or bytes when ``raw``)."""
    url = _local(cfg, f"local.{operation}") + path

    def parse(resp: httpx.Response) -> Any:
        if raw:
            return resp.content
        return R.envelope_data(_json(resp))

    return Request(f"local.{operation}", method, url, parse, json=json, params=params, content=content, retry=retry,
                   kind=kind)


# --------------------------------------------------------------------------
# What to do with an answer: shared by the sync and async senders
# --------------------------------------------------------------------------

def decide(req: Request, policy: RetryPolicy, attempt: int, resp: httpx.Response | None, exc: Exception | None
           ) -> tuple[Literal["done"], Any] | tuple[Literal["retry"], float] | tuple[Literal["raise"], Exception]:
    """Return ("done", value), ("retry", seconds) or ("raise", exception)."""
    if resp is not None:
        # "a, b; total=N": the service names the first few of N ignored names
        ignored = [n.strip() for n in resp.headers.get(opts.IGNORED_PARAMS_HEADER, "").split(";")[0].split(",") if n.strip()]
        if [n for n in ignored if n not in req.warned_params]:
            warnings.warn(f"{req.operation}: the service ignored the query parameter(s) {', '.join(ignored)}, which "
                          "this operation does not know", UserWarning, stacklevel=6)
        if resp.status_code < 400:
            try:
                return "done", req.parse(resp)
            except (NotPromised, KeyError, TypeError, ValueError, RecursionError) as e:
                discard_part(resp)
                why = str(e) if isinstance(e, NotPromised) else f"the data does not read as {req.operation} answers ({type(e).__name__})"
                return "raise", unexpected(req, resp, why)
        if req.retry and policy.should_retry(attempt, resp.status_code):
            wait = policy.delay(attempt, resp.headers.get("retry-after"))
            if wait is not None:
                return "retry", wait
        return "raise", error_from_response(resp)
    # No answer. A refused connection never reached the service, so it is safe to repeat anything.
    refused = isinstance(exc, httpx.ConnectError)
    if (req.retry or refused) and policy.should_retry(attempt):
        return "retry", policy.delay(attempt)
    if isinstance(exc, httpx.TimeoutException):
        return "raise", RequestTimeoutError(f"{req.operation}: {type(exc).__name__} on {req.method} {req.url}")
    return "raise", TransportError(f"{req.operation}: {type(exc).__name__}: {exc} on {req.method} {req.url}")


class Attempts:
    """The retry loop of one request without its I/O, for both senders: iterating gives, before each
    attempt, the seconds to wait first (None before the first); after an attempt the sender sets
    :attr:`outcome` (:attr:`Exchange.outcome`), which :func:`decide` weighs: the loop ends with the
    result in :attr:`value`, raises the refusal, or asks for another attempt.

    >>> ok = httpx.Response(200, request=httpx.Request("GET", "http://h/a"))
    >>> attempts = Attempts(Request("demo", "GET", "http://h/a", parse=lambda r: r.status_code), RetryPolicy())
    >>> for wait in attempts:
    ...     attempts.outcome = (ok, None)
    >>> attempts.value
    200
    """

    def __init__(self, req: Request, policy: RetryPolicy):
        self.req, self.policy = req, policy
        self.outcome: tuple[httpx.Response | None, Exception | None] = (None, None)
        self.value: Any = None

    def __iter__(self) -> Iterator[float | None]:
        wait: float | None = None
        attempt = 0
        while True:
            yield wait
            decision = decide(self.req, self.policy, attempt, *self.outcome)
            if decision[0] == "done":
                self.value = decision[1]
                return
            if decision[0] == "raise":
                raise decision[1]
            wait, attempt = decision[1], attempt + 1


def request_kwargs(req: Request) -> dict[str, Any]:
    kw: dict[str, Any] = {"headers": req.headers}
    if req.params:
        kw["params"] = req.params
    if req.json is not None:
        kw["json"] = req.json
    if req.content is not None:
        kw["content"] = req.content
    if req.files is not None:
        kw["files"] = req.files
    return kw


def with_config(cfg: ClientConfig, **changes: Any) -> ClientConfig:
    if "retries" in changes:
        changes["retry"] = replace(cfg.retry, retries=changes.pop("retries"))
    return replace(cfg, **changes)


def unexpected(req: Request, resp: httpx.Response, why: str,
               cls: type[UnexpectedAnswerError] = UnexpectedAnswerError) -> UnexpectedAnswerError:
    """The error of an answer that is not what ``req``'s operation promises, naming what came instead."""
    try:
        first = resp.content[:120]
    except httpx.ResponseNotRead:
        first = b""
    try:
        url = str(resp.request.url)
    except RuntimeError:  # a response made without a request (tests)
        url = req.url
    return cls(req.operation, url, resp.status_code, resp.headers.get("content-type"), first, why)


# --------------------------------------------------------------------------
# Reading an answer within its bounds: shared by the sync and async senders
# --------------------------------------------------------------------------

MAX_REDIRECTS = 10


def origin(url: httpx.URL | str) -> tuple[str, str, int | None]:
    u = httpx.URL(str(url))
    return u.scheme, u.host, u.port or {"http": 80, "https": 443}.get(u.scheme)


def next_hop(req: Request, first_url: httpx.URL, resp: httpx.Response) -> httpx.Request | None:
    """The request a redirect answer asks for (httpx's own rules: method, body, headers), or None when
    ``resp`` is no redirect. A request that carries a credential (an Authorization header, or the
    beacon's access_token in its body) never follows a redirect to another origin than the one it was
    sent to: that would hand the token to whoever the redirect names (UnexpectedAnswerError)."""
    nxt = resp.next_request
    if nxt is None:
        return None
    if nxt.url.scheme in ("http", "https") and not 0 <= (nxt.url.port or 0) <= 65535:
        raise unexpected(req, resp, f"a redirect to port {nxt.url.port}, which no address has; not followed")
    if req.carries_credential and origin(nxt.url) != origin(first_url):
        raise unexpected(req, resp, f"a redirect to {nxt.url.scheme}://{nxt.url.netloc.decode()}, another origin; "
                                    "not followed, so the token stays with the configured service")
    return nxt


class Budget:
    """The bounds of one answer: a deadline for all of it and a size for its body (decoded bytes).

    The senders read the raw body (``iter_raw``) and hand each piece to :meth:`feed`, which decodes its
    content codings in bounded steps (``_codings``) and counts every decoded piece; the deadline also
    bounds every read of the answer at the socket, its head included (``_deadline``).
    """

    def __init__(self, req: Request, cfg: ClientConfig):
        self.req, self.limit, self.seconds = req, cfg.max_bytes[req.kind], cfg.answer_timeout
        self.deadline = time.monotonic() + self.seconds
        self.parts: list[bytes] = []
        self.size = 0
        self.file: IO[bytes] | None = None
        self.part: Path | None = None
        self.decoder: Decoder | None = None

    def begin(self, resp: httpx.Response) -> None:
        """Check the head, and open the part file when a successful body is to go to disk (``Request.to_file``)."""
        self.check_head(resp)
        try:
            # An answer that comes read (in-process and mock transports) was decoded by httpx already.
            self.decoder = Decoder("" if resp.is_stream_consumed else resp.headers.get("content-encoding", ""))
        except CodingRefused as e:
            raise unexpected(self.req, resp, str(e)) from None
        if self.req.to_file is not None and resp.status_code < 300:
            target = Path(self.req.to_file)
            target.parent.mkdir(parents=True, exist_ok=True)
            self.part = target.with_name(f".{target.name}.{secrets.token_hex(4)}.part")
            self.file = open(self.part, "wb")
        if resp.is_stream_consumed:
            self.feed(resp, resp.content)

    def discard(self) -> None:
        """Close and remove the part file of an answer that did not arrive whole."""
        if self.file is not None:
            self.file.close()
            if self.part is not None:
                self.part.unlink(missing_ok=True)
            self.file = None

    def check_time(self) -> None:
        if time.monotonic() > self.deadline:
            raise RequestTimeoutError(f"{self.req.operation}: the whole answer did not arrive within {self.seconds:g} s "
                                      f"(answer_timeout) on {self.req.method} {self.req.url}")

    def check_head(self, resp: httpx.Response) -> None:
        """Refuse at once a body whose declared length passes the bound (nothing of it is read)."""
        declared = resp.headers.get("content-length", "")
        if declared.isdigit() and int(declared) > self.limit and "content-encoding" not in resp.headers:
            raise unexpected(self.req, resp, f"it declares {int(declared):,} bytes, past the bound of {self.limit:,} for "
                                             f"{self.req.kind} answers (max_bytes)", AnswerTooLargeError)

    def feed(self, resp: httpx.Response, raw: bytes) -> None:
        """One raw piece of the body, decoded and taken piece by piece."""
        assert self.decoder is not None, "begin() sets the decoder before the body is fed"
        self._decoded(resp, self.decoder.feed(raw))

    def end(self, resp: httpx.Response) -> None:
        """The end of the body: what the decoder still holds."""
        assert self.decoder is not None, "begin() sets the decoder before the body ends"
        self._decoded(resp, self.decoder.flush())

    def _decoded(self, resp: httpx.Response, pieces: Iterable[bytes]) -> None:
        try:
            for chunk in pieces:
                self.take(resp, chunk)
        except zlib.error:
            raise unexpected(self.req, resp, "its body does not decode as its Content-Encoding "
                                             f"({resp.headers.get('content-encoding')}) says") from None
        self.check_time()

    def __enter__(self) -> Budget:
        """Within the block the answer's deadline bounds every read at the socket (``_deadline``); a read
        it cuts is this answer's RequestTimeoutError."""
        self._deadline = answer_deadline(self.deadline)
        self._deadline.__enter__()
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        self._deadline.__exit__(kind, exc, tb)
        if isinstance(exc, httpx.TimeoutException) and time.monotonic() >= self.deadline:
            self.discard()
            try:
                self.check_time()
            except RequestTimeoutError as late:
                raise late from None

    def take(self, resp: httpx.Response, chunk: bytes) -> None:
        self.size += len(chunk)
        if self.size > self.limit:
            raise unexpected(self.req, resp, f"its body passed {self.limit:,} bytes (decompressed), the bound for "
                                             f"{self.req.kind} answers (max_bytes); reading stopped",
                             AnswerTooLargeError)
        if self.file is None:
            self.parts.append(chunk)
        else:
            self.file.write(chunk)
            if sum(map(len, self.parts)) < 64:
                self.parts.append(chunk[:64])  # the first bytes: the parser's check and an error's excerpt
        self.check_time()

    def answer(self, resp: httpx.Response) -> httpx.Response:
        """``resp`` with the body read, as a plain response (its bytes already decoded); for a body that
        went to disk, its first bytes, with the part file named in the :data:`PART_FILE` extension."""
        headers = [(k, v) for k, v in resp.headers.multi_items()
                   if k.lower() not in ("content-encoding", "content-length", "transfer-encoding")]
        extensions = dict(resp.extensions)
        if self.file is not None:
            self.file.close()
            self.file = None
            extensions[PART_FILE] = self.part
        return httpx.Response(resp.status_code, headers=headers, content=b"".join(self.parts), request=resp.request,
                              extensions=extensions)


class Exchange:
    """One attempt at a request without its I/O, for both senders: the requests to send (the first, then
    each redirect's, :data:`MAX_REDIRECTS` at the most, by :func:`next_hop`'s rules), and the answer's body
    read within its :class:`Budget`, whose deadline bounds every read inside ``with exchange:``.
    :attr:`outcome` is what the attempt came to, for :class:`Attempts`: (the answer, None), or (None, the
    transport error that cut it). The sync sender, whole (the async one awaits the same steps)::

        with Exchange(req, config, http) as exchange:
            for request in exchange.hops():
                with contextlib.closing(http.send(request, stream=True)) as resp, exchange.arrived(resp) as read:
                    for raw in resp.iter_raw() if read else ():
                        exchange.budget.feed(resp, raw)
        return exchange.outcome

    (the senders also show the wait: :func:`waiting`, :meth:`Exchange.show`)
    """

    def __init__(self, req: Request, cfg: ClientConfig, http: httpx.Client | httpx.AsyncClient):
        self.req, self.budget = req, Budget(req, cfg)
        self.request = http.build_request(req.method, req.url, **request_kwargs(req))
        self.first = self.request.url
        self.answer: httpx.Response | None = None
        self.error: httpx.TransportError | None = None

    @property
    def outcome(self) -> tuple[httpx.Response | None, httpx.TransportError | None]:
        return self.answer, self.error

    def show(self, bar: Progress, resp: httpx.Response) -> None:
        """How far a successful answer's body has come, on ``bar`` (:func:`waiting`)."""
        if resp.is_success:
            bar.update(self.budget.size, body_size(resp))

    def hops(self) -> Iterator[httpx.Request]:
        """The requests to send in turn, until one is answered by other than a redirect."""
        for _ in range(MAX_REDIRECTS + 1):
            yield self.request
            if self.answer is not None:
                return
            self.budget.check_time()
        raise TransportError(f"{self.req.operation}: more than {MAX_REDIRECTS} redirects from {self.req.url}")

    @contextlib.contextmanager
    def arrived(self, resp: httpx.Response) -> Iterator[bool]:
        """The block where the sender reads ``resp``'s raw body into :attr:`budget`, when it is given True
        (``resp`` is the answer, not a redirect, and its body is still unread); once it ends, the answer is
        whole or the next request is set. An answer cut short leaves no part file."""
        try:
            redirect = next_hop(self.req, self.first, resp)
            if redirect is not None:
                self.request = redirect
                yield False
                return
            self.budget.begin(resp)
            yield not resp.is_stream_consumed  # (an in-process transport's answer comes read)
            self.budget.end(resp)
            self.answer = self.budget.answer(resp)
        except BaseException:
            self.budget.discard()
            raise

    def __enter__(self) -> Exchange:
        self.budget.__enter__()
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> bool:
        self.budget.__exit__(kind, exc, tb)
        if isinstance(exc, httpx.TransportError):  # no answer: the retry loop weighs it
            self.error = exc
            return True
        if isinstance(exc, httpx.InvalidURL):
            # httpx raises it from send() when a redirect's Location is a URL it cannot make a request of
            # (data:, javascript:, mailto:): the answer, not the caller, is at fault (issue 45, item 5).
            raise UnexpectedAnswerError(self.req.operation, str(self.request.url), None, None, b"",
                                        f"a redirect to a URL that is not http or https, not followed ({exc})") from None
        return False
