"""The local service's state, apart from HTTP: one facade with one method per operation.

:class:`Backend` wires the parts, each owning one resource and given what it
needs (the database, its folder, its collaborators), never a pointer back:

- :mod:`~workbench.service.accounts`: accounts and tokens, authentication
- :mod:`~workbench.service.content`: avatars, models, previews, the animation library
- :mod:`~workbench.service.viewers`: viewers and regeneration jobs
- :mod:`~workbench.service.spaces`: space templates and finish-upload
- :mod:`~workbench.service.tracking_store`: tracking events
- :mod:`~workbench.service.faults`: injected failures

Each public method takes what a request carried, already parsed (the
``Authorization`` header, a decoded JSON body, query parameters), checks its
fault, authenticates, does the work and returns plain data or raises
:class:`ServiceError`. A handler in ``app.py`` parses, calls one method here and
renders; tests call the same methods directly, in process, without HTTP.
Everything lives under ``data_dir``: ``workbench.db`` (SQLite, WAL) and plain
files, so a restart (even after kill -9) finds it all again.

>>> import tempfile
>>> b = Backend(tempfile.mkdtemp(), dev_token="wb_doc_token", generate_library=False)
>>> reg = b.register_avatar("Bearer wb_doc_token", {"gender": "feminine"})
>>> b.avatar_settings(reg["modelId"])["gender"]
'feminine'
>>> b.register_avatar(None, {})
Traceback (most recent call last):
...
workbench.service.errors.ServiceError: This endpoint needs a token: send 'Authorization: Bearer <token>'.
>>> b.close()
"""

from __future__ import annotations

import shutil
from datetime import datetime
from pathlib import Path
from typing import Any

from workbench import options as opts
from workbench.service import spec
from workbench.service.accounts import Accounts
from workbench.service.content import Content
from workbench.service.db import Database
from workbench.service.errors import ServiceError
from workbench.service.faults import Faults
from workbench.service.jobs import JobLimits
from workbench.service.spaces import Spaces
from workbench.service.tracking_store import Checked, TrackingStore
from workbench.service.viewers import Viewers

EXPORT_FILTERS = ("viewerToken", "since", "until")


class Backend:
    """All state of the local service.

    data_dir: where the database and files live (created if missing).
    dev_token: the development token for a new data folder (else ``WORKBENCH_DEV_TOKEN``, else random).
    generate_library: write the animation library on first start (in a background thread).
    job_workers, job_limits: regeneration jobs run at once, and each one's bounds of time and memory (jobs.py).
    """

    def __init__(self, data_dir: str | Path, *, dev_token: str | None = None, generate_library: bool = True,
                 job_workers: int = 2, job_limits: JobLimits | None = None):
        self.data_dir = Path(data_dir).resolve()
        self.data_dir.mkdir(parents=True, exist_ok=True)
        self.db = Database(self.data_dir / "workbench.db")
        self.faults = Faults()
        self.accounts = Accounts(self.db, dev_token)
        self.content = Content(self.db, self.data_dir, self.faults)
        self.spaces = Spaces(self.db, self.data_dir, self.accounts, self.faults)
        self.viewers = Viewers(self.db, self.data_dir, self.accounts, self.spaces, self.faults, job_workers, job_limits)
        self.tracking = TrackingStore(self.db)
        if generate_library:
            self.content.start_library()

    @property
    def new_dev_token(self) -> str | None:
        """The development token when this start made the data folder (shown once), else None."""
        return self.accounts.new_dev_token

    def authenticate(self, authorization: str | None, scope: str) -> str:
        """The account of the token in ``authorization`` if it carries ``scope``, else 401."""
        return self.accounts.authenticate(authorization, scope)

    # ------------------------------------------------------------------
    # avatar half: {avatar_base_url}
    # ------------------------------------------------------------------

    def register_avatar(self, authorization: str | None, body: Any) -> dict:
        """POST /avatar: ``{"modelId", "settings"}`` (settings normalized)."""
        self.faults.check("avatars.register")
        account = self.accounts.authenticate(authorization, spec.scope("avatars.register"))
        return self.content.register_avatar(account, body)

    def avatar_settings(self, model_id: str) -> dict:
        return self.content.avatar_settings(model_id)

    def model(self, model_id: str, query: dict[str, str]) -> tuple[bytes, str]:
        """GET /model/{id}.glb: (GLB bytes, ETag) for the options in ``query``."""
        self.faults.check("avatars.model")
        return self.content.model(model_id, _parsed(opts.parse_model_options, query))

    def preview(self, model_id: str, query: dict[str, str]) -> tuple[bytes, str]:
        """GET /preview/{id}.png: (PNG bytes, ETag) for the options in ``query``."""
        self.faults.check("avatars.preview")
        return self.content.preview(model_id, _parsed(opts.parse_preview_options, query))

    def animation_list(self) -> dict:
        self.faults.check("animations.list")
        return self.content.animation_list()

    def animation_file(self, gender: str, name: str) -> bytes:
        self.faults.check("animations.download")
        return self.content.animation_file(gender, name)

    # ------------------------------------------------------------------
    # platform half: {base_url}
    # ------------------------------------------------------------------

    def regenerate(self, authorization: str | None, token: str, body_token: str | None = None) -> dict:
        """POST or PUT regenerate/all: start a job (or return the running one); the token may come from a beacon body."""
        self.faults.check("viewers.regenerate")
        account = self.accounts.authenticate(authorization, spec.scope("viewers.regenerate", "PUT"), body_token)
        return self.viewers.regenerate(account, token)

    def tracking_batch(self, viewer_token: str, body: Any) -> tuple[int, dict]:
        """POST tracking-event/batch: (200 or 207, summary); 400 when no event was accepted.

        ``body``: the decoded JSON value, or the body's bytes (the handler passes those: they
        are decoded and checked in one pass, and an undecodable body is 400 ``invalid_json``).
        """
        self.faults.check("tracking.send_batch")
        if not self.viewers.exists(viewer_token):
            raise ServiceError.not_found("viewer", viewer_token)
        return self.tracking.ingest(viewer_token, body)

    def tracking_precheck(self, body: Any) -> Checked:
        """The catalog's verdict on a tracking batch body, made as it arrives, without I/O; hand it
        to :meth:`tracking_batches` in place of the body. The service makes it on the event loop as
        each batch arrives, and stores the verdicts of a turn of the loop together."""
        return self.tracking.precheck(body)

    def tracking_batches(self, batches: list[tuple[str, Any]]) -> list[Any]:
        """Several tracking batches ``(viewer token, body or its Checked verdict)`` at once, the accepted
        events of all committed in one transaction; for each, its (status, data) or the ServiceError
        that refused it, in order (the fault first, then the viewer, then the catalog's verdict)."""
        outcomes: list[Any] = []
        checked: list[tuple[int, str, Any, datetime]] = []
        for i, (viewer_token, body) in enumerate(batches):
            try:
                self.faults.check("tracking.send_batch")
                if not self.viewers.exists(viewer_token):
                    raise ServiceError.not_found("viewer", viewer_token)
                verdict = body if isinstance(body, Checked) else self.tracking.precheck(body)
                if verdict.error is not None:
                    raise verdict.error
                checked.append((i, viewer_token, verdict.result, verdict.received))
                outcomes.append(None)
            except ServiceError as e:
                outcomes.append(e)
        if checked:
            for (i, *_), answer in zip(checked, self.tracking.store_many([(t, r, at) for _, t, r, at in checked]), strict=True):
                outcomes[i] = answer
        return outcomes

    def finish_upload(self, authorization: str | None, space_id: str, fields: list[tuple[str, Any]]) -> tuple[int, dict]:
        """POST finish-upload with the form's (name, value) pairs: (201 finalized or 200 cancelled, the template)."""
        self.faults.check("spaces.finish_upload")
        account = self.accounts.authenticate(authorization, spec.scope("spaces.finish_upload"))
        return self.spaces.finish(account, space_id, fields)

    # ------------------------------------------------------------------
    # local control API (contract section 9)
    # ------------------------------------------------------------------

    def health(self) -> dict:
        counts = {t: self.db.count(f"SELECT count(*) FROM {t}") for t in ("avatars", "viewers", "spaces", "events")}
        return {"service": "workbench-local", "dataDir": str(self.data_dir), "counts": counts,
                "animationLibrary": self.content.library_state(), "generator": self.content.generator_state()}

    def create_token(self, body: Any) -> dict:
        """``{"account"?, "scopes"?}`` -> a new token (shown once) with those scopes (default all)."""
        if not isinstance(body, dict) or any(k not in ("account", "scopes") for k in body):
            raise ServiceError.bad_request("invalid_token_request", "Send {\"account\": ..., \"scopes\": [...]} and nothing else.")
        return self.accounts.create_token(body.get("account", "dev"), body.get("scopes"))

    def revoke_token(self, body: Any) -> dict:
        """``{"token"}`` -> the token no longer authenticates."""
        return self.accounts.revoke_token(body.get("token") if isinstance(body, dict) else None)

    def create_viewer(self, body: Any) -> dict:
        return self.viewers.create(body)

    def viewer_record(self, token: str) -> dict:
        return self.viewers.record(token)

    def viewer_file(self, token: str, output: str) -> tuple[bytes, str]:
        return self.viewers.file(token, output)

    def wait_for_jobs(self, timeout: float = 60.0) -> None:
        self.viewers.wait_for_jobs(timeout)

    def create_space(self, body: Any) -> dict:
        return self.spaces.create(body)

    def space_record(self, space_id: str) -> dict:
        return self.spaces.record(space_id)

    def upload_space(self, space_id: str, filename: Any, data: bytes) -> dict:
        return self.spaces.upload(space_id, filename, data)

    def receive_space_upload(self, space_id: str, filename: Any):
        """The first step of a streamed upload: checks (404, 409, 400) and a temporary file for the body
        (:class:`workbench.service.spaces.Incoming`); :meth:`keep_space_upload` puts it in place."""
        return self.spaces.receive(space_id, filename)

    def keep_space_upload(self, incoming) -> dict:
        return self.spaces.keep(incoming)

    def export_events(self, query: dict[str, str]) -> tuple[str, str]:
        """The stored events as (text, media type): JSON lines or CSV, filtered by viewerToken, since, until."""
        q = dict(query)
        fmt = q.pop("format", "jsonl")
        return self.tracking.export(q.get("viewerToken"), q.get("since"), q.get("until"), fmt,
                                    [k for k in q if k not in EXPORT_FILTERS])

    def stream_events(self, query: dict[str, str]):
        """The stored events as (chunks of bytes, media type): JSON lines, CSV or Parquet, streamed."""
        q = dict(query)
        fmt = q.pop("format", "jsonl")
        return self.tracking.export_stream(q.get("viewerToken"), q.get("since"), q.get("until"), fmt,
                                           [k for k in q if k not in EXPORT_FILTERS])

    def fault_listing(self) -> dict:
        return self.faults.listing()

    def arm_fault(self, body: Any) -> dict:
        return self.faults.arm(body)

    def reset(self) -> dict:
        """Forget avatars, viewers, jobs, templates, events and generated files; keep accounts and tokens."""
        self.viewers.wait_for_jobs(timeout=30)
        with self.db.transaction() as c:
            for t in ("avatars", "viewers", "jobs", "viewer_files", "spaces", "events"):
                c.execute(f"DELETE FROM {t}")
        for sub in ("viewers", "spaces", "models", "previews"):
            shutil.rmtree(self.data_dir / sub, ignore_errors=True)
        self.faults.clear()
        self.viewers.forget()
        self.content.clear_memory()
        return {"reset": True}

    def close(self) -> None:
        self.viewers.close()
        self.db.close()


def _parsed(parse, query: dict[str, str]):
    try:
        return parse(query)
    except opts.InvalidOptions as e:
        raise ServiceError.invalid(e.problems, "parameter") from None
