"""The operation groups of the client (``client.avatars``, ``client.viewers``, ...).

The same classes serve ``Client`` and ``AsyncClient``: each method builds its
:class:`~workbench.client._base.Request` and hands it to the client's ``_send``,
which returns the result (sync) or an awaitable of it (async).

>>> import httpx, workbench
>>> def answer(request):
...     return httpx.Response(200, json={"status": "ok", "data": {"masculine": ["walk"], "feminine": ["walk"]}})
>>> c = workbench.Client("http://h/api", "http://h/avatars", transport=httpx.MockTransport(answer))
>>> c.animations.list().masculine
('walk',)
"""

from __future__ import annotations

import dataclasses
import functools
import os
from collections.abc import Awaitable, Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Generic, Literal, Self, TypeVar, overload

from workbench.client import _base as B
from workbench.client._codings import ACCEPT_ENCODING
from workbench.client._deadline import install as install_deadlines
from workbench.client.results import (
    Animation,
    AnimationList,
    BatchResult,
    Model,
    Preview,
    RegenerateJob,
    Registration,
    UploadFinish,
)
from workbench.client.retry import RetryPolicy

if TYPE_CHECKING:
    import httpx

    from workbench.client._batches import SendReport


class Blocking:
    """The mode of ``Client``'s groups, for type checkers: a call returns its result."""


class Awaiting:
    """The mode of ``AsyncClient``'s groups, for type checkers: a call returns an awaitable of its result."""


# One class per group serves both clients; each method's overloads say what it returns in each mode.
M = TypeVar("M", Blocking, Awaiting)
PathLike = str | os.PathLike[str]
JSON = dict[str, Any]


class _Group(Generic[M]):
    def __init__(self, client: ClientCore) -> None:
        self._client = client

    @property
    def _cfg(self) -> B.ClientConfig:
        return self._client.config

    def _send(self, req: B.Request) -> Any:
        return self._client._send(req)


class Avatars(_Group[M]):
    """Register avatars and download their models and previews ({avatar_base_url})."""

    @overload
    def register(self: Avatars[Blocking], settings: dict[str, Any]) -> Registration: ...
    @overload
    def register(self: Avatars[Awaiting], settings: dict[str, Any]) -> Awaitable[Registration]: ...
    def register(self, settings: dict[str, Any]) -> Any:
        """Register avatar settings (checked first); returns a Registration (modelId, modelUrl, previewUrl)."""
        return self._send(B.build_register(self._cfg, settings))

    @overload
    def model(self: Avatars[Blocking], model_id: str, *, lod: int | None = None,
              animations: str | Sequence[str] | None = None, texture_format: str | None = None,
              merge_mesh: bool | int | None = None, texture_atlas_size: int | None = None,
              params: Mapping[str, Any] | None = None, to_file: None = None) -> Model: ...
    @overload
    def model(self: Avatars[Blocking], model_id: str, *, lod: int | None = None,
              animations: str | Sequence[str] | None = None, texture_format: str | None = None,
              merge_mesh: bool | int | None = None, texture_atlas_size: int | None = None,
              params: Mapping[str, Any] | None = None, to_file: PathLike) -> Path: ...
    @overload
    def model(self: Avatars[Awaiting], model_id: str, *, lod: int | None = None,
              animations: str | Sequence[str] | None = None, texture_format: str | None = None,
              merge_mesh: bool | int | None = None, texture_atlas_size: int | None = None,
              params: Mapping[str, Any] | None = None, to_file: None = None) -> Awaitable[Model]: ...
    @overload
    def model(self: Avatars[Awaiting], model_id: str, *, lod: int | None = None,
              animations: str | Sequence[str] | None = None, texture_format: str | None = None,
              merge_mesh: bool | int | None = None, texture_atlas_size: int | None = None,
              params: Mapping[str, Any] | None = None, to_file: PathLike) -> Awaitable[Path]: ...
    def model(self, model_id: str, *, lod: int | None = None, animations: str | Sequence[str] | None = None,
              texture_format: str | None = None, merge_mesh: bool | int | None = None,
              texture_atlas_size: int | None = None, params: Mapping[str, Any] | None = None,
              to_file: PathLike | None = None) -> Any:
        """Download the avatar's GLB with the interface's options; returns a Model (bytes, save(), inspect()).
        ``params``: other query parameters to send as they are (a name the operation does not know warns).
        ``to_file``: stream the GLB to this path as it arrives (memory stays flat) and return the path."""
        req = B.build_model(self._cfg, model_id, lod=lod, animations=animations, texture_format=texture_format,
                            merge_mesh=merge_mesh, texture_atlas_size=texture_atlas_size, params=params, to_file=to_file)
        if to_file is None and self._client.blocking:  # the Model can fetch its lighter levels (Model.view)
            # blocking here, so the partial returns a Model (the overloads cannot see that the mode is Blocking)
            again: Callable[..., Any] = functools.partial(self.model, model_id, texture_format=texture_format, merge_mesh=merge_mesh,
                                      texture_atlas_size=texture_atlas_size, params=params)

            parse: Callable[[httpx.Response], Model] = req.parse

            def fetching(resp: httpx.Response) -> Model:
                return dataclasses.replace(parse(resp), fetch=again)

            req = dataclasses.replace(req, parse=fetching)
        return self._send(req)

    @overload
    def preview(self: Avatars[Blocking], model_id: str, *, size: int | None = None, camera: str | None = None,
                background: Sequence[int] | str | None = None, params: Mapping[str, Any] | None = None) -> Preview: ...
    @overload
    def preview(self: Avatars[Awaiting], model_id: str, *, size: int | None = None, camera: str | None = None,
                background: Sequence[int] | str | None = None,
                params: Mapping[str, Any] | None = None) -> Awaitable[Preview]: ...
    def preview(self, model_id: str, *, size: int | None = None, camera: str | None = None,
                background: Sequence[int] | str | None = None, params: Mapping[str, Any] | None = None) -> Any:
        """Download the avatar's preview PNG; returns a Preview that shows itself inline.
        ``params``: other query parameters to send as they are (a name the operation does not know warns)."""
        return self._send(B.build_preview(self._cfg, model_id, size=size, camera=camera, background=background,
                                          params=params))


class Animations(_Group[M]):
    """The built-in animation library ({avatar_base_url}/animations)."""

    @overload
    def list(self: Animations[Blocking]) -> AnimationList: ...
    @overload
    def list(self: Animations[Awaiting]) -> Awaitable[AnimationList]: ...
    def list(self) -> Any:
        """The names per gender, as an AnimationList."""
        return self._send(B.build_animation_list(self._cfg))

    @overload
    def download(self: Animations[Blocking], gender: str, name: str, *, to_file: None = None) -> Animation: ...
    @overload
    def download(self: Animations[Blocking], gender: str, name: str, *, to_file: PathLike) -> Path: ...
    @overload
    def download(self: Animations[Awaiting], gender: str, name: str, *,
                 to_file: None = None) -> Awaitable[Animation]: ...
    @overload
    def download(self: Animations[Awaiting], gender: str, name: str, *, to_file: PathLike) -> Awaitable[Path]: ...
    def download(self, gender: str, name: str, *, to_file: PathLike | None = None) -> Any:
        """One clip's GLB for a gender (masculine or feminine); with ``to_file``, streamed to that path (returned)."""
        return self._send(B.build_animation_download(self._cfg, gender, name, to_file))


class Viewers(_Group[M]):
    """Viewer regeneration ({base_url}/viewers)."""

    @overload
    def regenerate(self: Viewers[Blocking], viewer_token: str, method: str = "POST", *,
                   beacon: bool = False) -> RegenerateJob: ...
    @overload
    def regenerate(self: Viewers[Awaiting], viewer_token: str, method: str = "POST", *,
                   beacon: bool = False) -> Awaitable[RegenerateJob]: ...
    def regenerate(self, viewer_token: str, method: str = "POST", *, beacon: bool = False) -> Any:
        """Start regenerating a viewer's files (POST or PUT, or the beacon form); returns the RegenerateJob."""
        return self._send(B.build_regenerate(self._cfg, viewer_token, method, beacon))


class Spaces(_Group[M]):
    """Space template uploads ({base_url}/resources/spaces)."""

    @overload
    def finish_upload(self: Spaces[Blocking], space_template_id: str, *, success: bool,
                      message: str) -> UploadFinish: ...
    @overload
    def finish_upload(self: Spaces[Awaiting], space_template_id: str, *, success: bool,
                      message: str) -> Awaitable[UploadFinish]: ...
    def finish_upload(self, space_template_id: str, *, success: bool, message: str) -> Any:
        """Finalize (success=True, 201) or cancel (success=False, 200) an upload; returns UploadFinish."""
        return self._send(B.build_finish_upload(self._cfg, space_template_id, success=success, message=message))


class Tracking(_Group[M]):
    """Visitors' tracking events ({base_url}/viewers/{token}/tracking-event/batch)."""

    @overload
    def send_batch(self: Tracking[Blocking], viewer_token: str, session_id: str, events: Sequence[JSON], *,
                   check: bool = True) -> BatchResult: ...
    @overload
    def send_batch(self: Tracking[Awaiting], viewer_token: str, session_id: str, events: Sequence[JSON], *,
                   check: bool = True) -> Awaitable[BatchResult]: ...
    def send_batch(self, viewer_token: str, session_id: str, events: Sequence[JSON], *, check: bool = True) -> Any:
        """Send one batch of at most 100 events as they are; returns a BatchResult (200 or 207).

        The request-level rules are checked first unless ``check=False``; the
        events themselves are left to the service, whose per-event errors come back
        in ``result.errors``.
        """
        return self._send(B.build_tracking_batch(self._cfg, viewer_token, session_id, events, check=check))

    @overload
    def send(self: Tracking[Blocking], viewer_token: str, events: Any, *, session_id: str | None = None,
             **kw: Any) -> SendReport: ...
    @overload
    def send(self: Tracking[Awaiting], viewer_token: str, events: Any, *, session_id: str | None = None,
             **kw: Any) -> Awaitable[SendReport]: ...
    def send(self, viewer_token: str, events: Any, *, session_id: str | None = None, **kw: Any) -> Any:
        """Send any number of events (list or DataFrame) in checked, concurrent batches; returns a SendReport.

        See :func:`workbench.client._batches.send_events` for the options.
        """
        return self._client._send_events(viewer_token, events, session_id=session_id, **kw)


class Local(_Group[M]):
    """The local service's control API (``/_local``): not part of the real service.

    ``available`` is False against a deployment; notebooks skip these cells there. Each call returns the answer's
    ``data``, a JSON object (contract section 9 names the keys it promises), or an awaitable of it from
    ``AsyncClient``.
    """

    @property
    def available(self) -> bool:
        return self._cfg.local_url is not None

    @property
    def can_inject_faults(self) -> bool:
        """Whether notebooks may arm faults here: the control API is there and ``WORKBENCH_FAULTS`` is
        not ``off``. ``workbench check`` sets it off, so a fault never lands in a service the run did not
        start (the person's own ``workbench serve`` would log its failure as an ERROR)."""
        return self.available and os.environ.get("WORKBENCH_FAULTS", "on").strip().lower() != "off"

    def _call(self, operation: str, method: str, path: str, **kw: Any) -> Any:
        return self._send(B.build_local(self._cfg, operation, method, path, **kw))

    @overload
    def health(self: Local[Blocking]) -> JSON: ...
    @overload
    def health(self: Local[Awaiting]) -> Awaitable[JSON]: ...
    def health(self) -> Any:
        return self._call("health", "GET", "/health")

    @overload
    def reset(self: Local[Blocking]) -> JSON: ...
    @overload
    def reset(self: Local[Awaiting]) -> Awaitable[JSON]: ...
    def reset(self) -> Any:
        """Forget every avatar, viewer, template, event and file (accounts and tokens stay)."""
        # JSON, as every state change of /_local must be sent (contract section 14): no page can forge it.
        return self._call("reset", "POST", "/reset", json={}, retry=False)

    @overload
    def create_token(self: Local[Blocking], scopes: Sequence[str], account: str = "dev") -> JSON: ...
    @overload
    def create_token(self: Local[Awaiting], scopes: Sequence[str], account: str = "dev") -> Awaitable[JSON]: ...
    def create_token(self, scopes: Sequence[str], account: str = "dev") -> Any:
        """A new token of ``account`` with ``scopes``; returns {"token", "account", "scopes"}."""
        return self._call("create_token", "POST", "/tokens", json={"account": account, "scopes": list(scopes)}, retry=False)

    @overload
    def revoke_token(self: Local[Blocking], token: str) -> JSON: ...
    @overload
    def revoke_token(self: Local[Awaiting], token: str) -> Awaitable[JSON]: ...
    def revoke_token(self, token: str) -> Any:
        return self._call("revoke_token", "POST", "/tokens/revoke", json={"token": token})

    @overload
    def create_viewer(self: Local[Blocking], kind: str = "product", account: str = "dev", **extra: Any) -> JSON: ...
    @overload
    def create_viewer(self: Local[Awaiting], kind: str = "product", account: str = "dev",
                      **extra: Any) -> Awaitable[JSON]: ...
    def create_viewer(self, kind: str = "product", account: str = "dev", **extra: Any) -> Any:
        """A new product or space viewer; returns {"viewerToken", "kind", ...}."""
        return self._call("create_viewer", "POST", "/viewers", json={"kind": kind, "account": account, **extra}, retry=False)

    @overload
    def viewer(self: Local[Blocking], viewer_token: str) -> JSON: ...
    @overload
    def viewer(self: Local[Awaiting], viewer_token: str) -> Awaitable[JSON]: ...
    def viewer(self, viewer_token: str) -> Any:
        """The viewer's record, its last job (state, timings, error) and its files."""
        return self._call("viewer", "GET", f"/viewers/{B._q(viewer_token)}")

    @overload
    def viewer_file(self: Local[Blocking], viewer_token: str, output: str) -> bytes: ...
    @overload
    def viewer_file(self: Local[Awaiting], viewer_token: str, output: str) -> Awaitable[bytes]: ...
    def viewer_file(self, viewer_token: str, output: str) -> Any:
        """The bytes of one output file (glb, usdz, preview, bundle), or an awaitable of them from AsyncClient."""
        return self._call("viewer_file", "GET", f"/viewers/{B._q(viewer_token)}/files/{B._q(output)}", raw=True,
                          kind="file")

    @overload
    def create_space(self: Local[Blocking], kind: str = "glb", account: str = "dev") -> JSON: ...
    @overload
    def create_space(self: Local[Awaiting], kind: str = "glb", account: str = "dev") -> Awaitable[JSON]: ...
    def create_space(self, kind: str = "glb", account: str = "dev") -> Any:
        """A space template waiting for its upload (kind glb or splat); returns {"spaceTemplateId", ...}."""
        return self._call("create_space", "POST", "/spaces", json={"kind": kind, "account": account}, retry=False)

    @overload
    def upload_space(self: Local[Blocking], space_template_id: str, filename: str, content: bytes) -> JSON: ...
    @overload
    def upload_space(self: Local[Awaiting], space_template_id: str, filename: str,
                     content: bytes) -> Awaitable[JSON]: ...
    def upload_space(self, space_template_id: str, filename: str, content: bytes) -> Any:
        """Upload a template's file (the step the interface does not show)."""
        return self._call("upload_space", "PUT", f"/spaces/{B._q(space_template_id)}/upload",
                          params={"filename": filename}, content=content)

    @overload
    def space(self: Local[Blocking], space_template_id: str) -> JSON: ...
    @overload
    def space(self: Local[Awaiting], space_template_id: str) -> Awaitable[JSON]: ...
    def space(self, space_template_id: str) -> Any:
        return self._call("space", "GET", f"/spaces/{B._q(space_template_id)}")

    @overload
    def fault(self: Local[Blocking], operation: str, count: int = 1, status: int | None = None,
              retry_after: float | None = None) -> JSON: ...
    @overload
    def fault(self: Local[Awaiting], operation: str, count: int = 1, status: int | None = None,
              retry_after: float | None = None) -> Awaitable[JSON]: ...
    def fault(self, operation: str, count: int = 1, status: int | None = None, retry_after: float | None = None) -> Any:
        """Make the next ``count`` calls of ``operation`` fail (see GET /_local/faults for the names)."""
        body: dict[str, Any] = {"operation": operation, "count": count}
        if status is not None:
            body["status"] = status
        if retry_after is not None:
            body["retryAfter"] = retry_after
        return self._call("fault", "POST", "/faults", json=body, retry=False)

    # The format decides the result's type: the events as JSON objects, or the CSV's text.
    @overload
    def events(self: Local[Blocking], viewer_token: str | None = None, since: str | None = None,
               until: str | None = None, fmt: Literal["jsonl"] = "jsonl") -> list[JSON]: ...
    @overload
    def events(self: Local[Blocking], viewer_token: str | None = None, since: str | None = None,
               until: str | None = None, *, fmt: Literal["csv"]) -> str: ...
    @overload
    def events(self: Local[Blocking], viewer_token: str | None = None, since: str | None = None,
               until: str | None = None, fmt: str = "jsonl") -> list[JSON] | str: ...
    @overload
    def events(self: Local[Awaiting], viewer_token: str | None = None, since: str | None = None,
               until: str | None = None, fmt: Literal["jsonl"] = "jsonl") -> Awaitable[list[JSON]]: ...
    @overload
    def events(self: Local[Awaiting], viewer_token: str | None = None, since: str | None = None,
               until: str | None = None, *, fmt: Literal["csv"]) -> Awaitable[str]: ...
    @overload
    def events(self: Local[Awaiting], viewer_token: str | None = None, since: str | None = None,
               until: str | None = None, fmt: str = "jsonl") -> Awaitable[list[JSON] | str]: ...
    def events(self, viewer_token: str | None = None, since: str | None = None, until: str | None = None,
               fmt: str = "jsonl") -> Any:
        """The stored tracking events, as a list of dicts (``fmt="jsonl"``) or CSV text (``fmt="csv"``)."""
        params = {k: v for k, v in (("viewerToken", viewer_token), ("since", since), ("until", until),
                                    ("format", fmt)) if v is not None}
        req = B.build_local(self._cfg, "events", "GET", "/tracking/events", params=params, raw=True, kind="export")
        inner = req.parse

        def parse(resp: httpx.Response) -> list[JSON] | str:
            text: str = inner(resp).decode("utf-8")
            if fmt == "csv":
                return text
            import json

            return [json.loads(line) for line in text.splitlines() if line.strip()]

        req.parse = parse
        return self._send(req)


class ClientCore:
    """What ``Client`` and ``AsyncClient`` share: configuration, the operation groups, copies.

    Subclasses set ``_http_class`` (httpx.Client or httpx.AsyncClient) and define ``_send``.
    """

    _http_class: type[httpx.Client] | type[httpx.AsyncClient]
    # the groups, in the subclass's mode (Blocking or Awaiting)
    avatars: Avatars[Any]
    animations: Animations[Any]
    viewers: Viewers[Any]
    tracking: Tracking[Any]
    spaces: Spaces[Any]
    local: Local[Any]

    def __init__(self, base_url: str | None = None, avatar_base_url: str | None = None, token: str | None = None, *,
                 local_url: str | None = None, transport: httpx.BaseTransport | httpx.AsyncBaseTransport | None = None,
                 timeout: float = 30.0, retries: int = 3, backoff: float = 0.25, answer_timeout: float = 300.0,
                 max_bytes: dict[str, int] | None = None, config: B.ClientConfig | None = None) -> None:
        import httpx

        self.config = config or B.ClientConfig.resolve(
            base_url, avatar_base_url, token, local_url, timeout=timeout,
            retry=RetryPolicy(retries=retries, backoff=backoff), answer_timeout=answer_timeout,
            max_bytes=max_bytes or {})
        self._transport = transport
        # Redirects are followed by the senders (_base.next_hop), which never take a credential to another origin.
        # Codings are asked for by name (never br or zstd because a compressor happens to be installed): the
        # senders decode them in bounded steps (_codings).
        http_class: Any = self._http_class  # httpx.Client with a transport, or httpx.AsyncClient with an async one
        self._http = http_class(transport=transport, verify=B.tls_context(),
                                timeout=httpx.Timeout(self.config.timeout, connect=5.0),
                                headers={"User-Agent": B.USER_AGENT, "Accept-Encoding": ACCEPT_ENCODING},
                                follow_redirects=False)
        install_deadlines(self._http)
        self.avatars = Avatars(self)
        self.animations = Animations(self)
        self.viewers = Viewers(self)
        self.tracking = Tracking(self)
        self.spaces = Spaces(self)
        self.local = Local(self)
        self.service: Any = None  # the LocalService when workbench.connect() started one
        self._opened()

    def _opened(self) -> None:
        """What a subclass does once its connections are set up (Client: close them when it is collected)."""

    @property
    def blocking(self) -> bool:
        """Whether calls return their results (``Client``) rather than awaitables (``AsyncClient``)."""
        import httpx

        return isinstance(self._http, httpx.Client)

    def _send(self, req: B.Request) -> Any:
        raise NotImplementedError  # the subclass sends: blocking, or as a coroutine

    def _send_events(self, viewer_token: str, events: Any, **kw: Any) -> Any:
        raise NotImplementedError

    def with_options(self, **changes: Any) -> Self:
        """A copy with other settings (token=, retries=, timeout=...), sharing the transport."""
        return type(self)(config=B.with_config(self.config, **changes), transport=self._transport)

    def __repr__(self) -> str:
        c = self.config
        return (f"{type(self).__name__}(base_url={c.base_url!r}, avatar_base_url={c.avatar_base_url!r}, "
                f"local={c.local_url is not None})")
