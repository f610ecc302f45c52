"""The shared half of the client: configuration, request building, response parsing, retry decisions.

``Client`` and ``AsyncClient`` differ only in how they send (``_sync.py`` and
``_async.py``). Everything else, every URL, header, option check and result
parser, is built here once, as a :class:`Request` that carries its own parser.

>>> cfg = ClientConfig("http://h/api", "http://h/avatars", "tok")
>>> req = build_model(cfg, "abc", lod=1, merge_mesh=True)
>>> req.method, req.url, req.params
('GET', 'http://h/avatars/model/abc.glb', {'lod': '1', 'mergeMesh': '1'})
"""

from __future__ import annotations

import os
import urllib.parse
import warnings
from dataclasses import dataclass, field, replace
from typing import Any, Callable, Mapping, Sequence

import httpx

from workbench import options as opts
from workbench.client import results as R
from workbench.client.errors import (ConfigurationError, OptionError, RequestTimeoutError, TransportError,
                                     error_from_response)
from workbench.client.retry import RetryPolicy
from workbench.tracking import catalog

__version__ = "0.1.0"
USER_AGENT = f"workbench/{__version__}"

ENV_BASE_URL = "WORKBENCH_BASE_URL"
ENV_AVATAR_BASE_URL = "WORKBENCH_AVATAR_BASE_URL"
ENV_TOKEN = "WORKBENCH_TOKEN"
ENV_LOCAL_URL = "WORKBENCH_LOCAL_URL"


@dataclass(frozen=True)
class ClientConfig:
    """Where the service is and how to talk to it.

    base_url: the platform half (viewers, resources), e.g. ``http://127.0.0.1:8080/api``.
    avatar_base_url: the avatar half (avatar, model, preview, animations), e.g. ``.../avatars``.
    token: a Bearer token; needed by register, regenerate and finish-upload.
    local_url: the local control API (``/_local``) when the target is a local service, else None.
    """

    base_url: str
    avatar_base_url: str
    token: str | None = None
    local_url: str | None = None
    timeout: float = 30.0
    retry: RetryPolicy = field(default_factory=RetryPolicy)

    @classmethod
    def resolve(cls, base_url=None, avatar_base_url=None, token=None, local_url=None, **kw) -> "ClientConfig":
        """Arguments win over ``WORKBENCH_*`` environment variables; both base URLs are required."""
        base_url = base_url or os.environ.get(ENV_BASE_URL)
        avatar_base_url = avatar_base_url or os.environ.get(ENV_AVATAR_BASE_URL)
        token = token if token is not None else os.environ.get(ENV_TOKEN) or None
        local_url = local_url or os.environ.get(ENV_LOCAL_URL) or None
        if local_url == "none":
            local_url = None
        missing = [n for n, v in ((f"base_url (or {ENV_BASE_URL})", base_url),
                                  (f"avatar_base_url (or {ENV_AVATAR_BASE_URL})", avatar_base_url)) if not v]
        if missing:
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
    params: dict | None = None
    headers: dict = field(default_factory=dict)
    json: Any = None
    content: bytes | str | None = None
    files: dict | None = None
    retry: bool = True
    warned_params: tuple[str, ...] = ()  # unknown query parameters already warned about before sending


def _q(segment: str) -> str:
    return urllib.parse.quote(str(segment), safe="")


def _auth(cfg: ClientConfig) -> dict:
    return {"Authorization": f"Bearer {cfg.token}"} if cfg.token else {}


def _json(resp: httpx.Response) -> Any:
    try:
        return resp.json()
    except ValueError:
        return {}


def _check(operation: str, fn, *args):
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
    _require_id(operation, "model_id", value)
    stem, dot, suffix = value.rpartition(".")
    return stem if dot and stem and suffix.lower() in ("glb", "png") else value


def _extra_params(operation: str, query: dict, params: Mapping[str, Any] | None) -> tuple[str, ...]:
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

def build_register(cfg: ClientConfig, settings: dict) -> Request:
    """POST {avatar}/avatar: settings are checked here with the service's own rules."""
    _check("avatars.register", opts.normalize_avatar_settings, settings)

    def parse(resp):
        d = R.envelope_data(_json(resp))
        return R.Registration(d["modelId"], d["modelUrl"], d["previewUrl"])

    # A repeat would register a second avatar, so only a refused connection is retried.
    return Request("avatars.register", "POST", f"{cfg.avatar_base_url}/avatar", parse,
                   headers=_auth(cfg), json=settings, retry=False)


def build_model(cfg: ClientConfig, model_id: str, *, lod=None, animations=None, texture_format=None,
                merge_mesh=None, texture_atlas_size=None, params=None) -> Request:
    """GET {avatar}/model/:id.glb with the interface's query options, checked first; ``params``: any
    other query parameters (names the operation does not know are sent with a warning)."""
    model_id = _model_id("avatars.model", model_id)
    if isinstance(animations, (list, tuple)) and not animations:
        animations = "none"  # an empty list of clips, which would otherwise become an empty value
    raw = {"lod": lod, "animations": animations, "textureFormat": texture_format,
           "mergeMesh": merge_mesh, "textureAtlasSize": texture_atlas_size}
    query = {k: _query_value(v) for k, v in raw.items() if v is not None}
    warned = _extra_params("avatars.model", query, params)
    _check("avatars.model", opts.parse_model_options, query)

    def parse(resp):
        return R.Model(model_id, resp.content, query, resp.headers.get("etag"), resp.headers.get("content-type"))

    return Request("avatars.model", "GET", f"{cfg.avatar_base_url}/model/{_q(model_id)}.glb", parse, params=query,
                   warned_params=warned)


def build_preview(cfg: ClientConfig, model_id: str, *, size=None, camera=None, background=None, params=None) -> Request:
    """GET {avatar}/preview/:id.png; ``background`` is (R, G, B) or "R,G,B"; None is transparent;
    ``params``: any other query parameters (names the operation does not know are sent with a warning)."""
    model_id = _model_id("avatars.preview", model_id)
    raw = {"size": size, "camera": camera, "background": background}
    query = {k: _query_value(v) for k, v in raw.items() if v is not None}
    warned = _extra_params("avatars.preview", query, params)
    _check("avatars.preview", opts.parse_preview_options, query)

    def parse(resp):
        return R.Preview(model_id, resp.content, query, resp.headers.get("etag"))

    return Request("avatars.preview", "GET", f"{cfg.avatar_base_url}/preview/{_q(model_id)}.png", parse, params=query,
                   warned_params=warned)


def build_animation_list(cfg: ClientConfig) -> Request:
    def parse(resp):
        d = R.envelope_data(_json(resp))
        return R.AnimationList(tuple(d.get("masculine", ())), tuple(d.get("feminine", ())))

    return Request("animations.list", "GET", f"{cfg.avatar_base_url}/animations", parse)


def build_animation_download(cfg: ClientConfig, gender: str, name: str) -> Request:
    _check("animations.download", opts.check_animation_path, gender, name)
    return Request("animations.download", "GET", f"{cfg.avatar_base_url}/animations/{_q(gender)}/{_q(name)}.glb",
                   lambda resp: R.Animation(gender, name, resp.content))


# --------------------------------------------------------------------------
# Platform half
# --------------------------------------------------------------------------

def build_regenerate(cfg: ClientConfig, viewer_token: str, method: str = "POST", beacon: bool = False) -> Request:
    """PUT or POST {base}/viewers/{token}/regenerate/all; ``beacon=True`` sends the token
    in a text/plain body, as ``navigator.sendBeacon`` must (POST only)."""
    _require_id("viewers.regenerate", "viewer_token", viewer_token)
    method = method.upper()
    problems = []
    if method not in ("POST", "PUT"):
        problems.append(opts.Problem("method", "not_allowed", f"must be POST or PUT; got {method!r}"))
    if beacon and method != "POST":
        problems.append(opts.Problem("beacon", "not_allowed", "the beacon form exists only for POST"))
    if problems:
        raise OptionError("viewers.regenerate", problems)

    def parse(resp):
        d = R.envelope_data(_json(resp))
        return R.RegenerateJob(d.get("viewerToken", viewer_token), d.get("kind", ""), d.get("jobId", ""),
                               d.get("state", ""), tuple(d.get("outputs", ())), resp.status_code)

    url = f"{cfg.base_url}/viewers/{_q(viewer_token)}/regenerate/all"
    if beacon:
        body = urllib.parse.urlencode({"access_token": cfg.token or ""})
        return Request("viewers.regenerate", "POST", url, parse,
                       headers={"Content-Type": "text/plain;charset=UTF-8"}, content=body)
    return Request("viewers.regenerate", method, url, parse, headers=_auth(cfg))


def check_batch_request(operation: str, session_id: Any, events: Any) -> None:
    """The request-level rules of a tracking batch (contract section 7), checked before sending."""
    problems = []
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


def build_tracking_batch(cfg: ClientConfig, viewer_token: str, session_id: str, events: Sequence[dict],
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
    and sizes batches by these bytes). ``safe``: every event carries an id, so a repeat stores nothing twice."""
    _require_id("tracking.send_batch", "viewer_token", viewer_token)
    return Request("tracking.send_batch", "POST", f"{cfg.base_url}/viewers/{_q(viewer_token)}/tracking-event/batch",
                   _parse_batch_result, headers={"Content-Type": "application/json"}, content=body, retry=safe)


def _parse_batch_result(resp: httpx.Response):
    d = R.envelope_data(_json(resp))
    return R.BatchResult(resp.status_code, int(d.get("accepted", 0)), int(d.get("rejected", 0)),
                         int(d.get("duplicates", 0)), tuple(d.get("errors", ())))


def build_finish_upload(cfg: ClientConfig, space_template_id: str, *, success: bool, message: str) -> Request:
    """POST {base}/resources/spaces/{id}/finish-upload as multipart/form-data."""
    _require_id("spaces.finish_upload", "space_template_id", space_template_id)
    _check("spaces.finish_upload", opts.check_finish_upload, success, message)

    def parse(resp):
        d = R.envelope_data(_json(resp))
        return R.UploadFinish(d.get("spaceTemplateId", space_template_id), d.get("state", ""), resp.status_code, d)

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


def build_local(cfg: ClientConfig, operation: str, method: str, path: str, *, json=None, params=None,
                content=None, raw: bool = False, retry: bool = True) -> Request:
    """A call of the ``/_local`` control API; its answer's ``data`` (or bytes when ``raw``)."""
    url = _local(cfg, f"local.{operation}") + path

    def parse(resp):
        if raw:
            return resp.content
        return R.envelope_data(_json(resp))

    return Request(f"local.{operation}", method, url, parse, json=json, params=params, content=content, retry=retry)


# --------------------------------------------------------------------------
# What to do with an answer: shared by the sync and async senders
# --------------------------------------------------------------------------

def decide(req: Request, policy: RetryPolicy, attempt: int, resp: httpx.Response | None, exc: Exception | None):
    """Return ("done", value), ("retry", seconds) or ("raise", exception)."""
    if resp is not None:
        # "a, b; total=N": the service names the first few of N ignored names
        ignored = [n.strip() for n in resp.headers.get(opts.IGNORED_PARAMS_HEADER, "").split(";")[0].split(",") if n.strip()]
        if [n for n in ignored if n not in req.warned_params]:
            warnings.warn(f"{req.operation}: the service ignored the query parameter(s) {', '.join(ignored)}, which "
                          "this operation does not know", UserWarning, stacklevel=5)
        if resp.status_code < 400:
            return "done", req.parse(resp)
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


def request_kwargs(req: Request) -> dict:
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


def with_config(cfg: ClientConfig, **changes) -> ClientConfig:
    if "retries" in changes:
        changes["retry"] = replace(cfg.retry, retries=changes.pop("retries"))
    return replace(cfg, **changes)
