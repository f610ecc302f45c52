"""The local service's state: one method per operation, apart from HTTP.

A handler in ``app.py`` only parses a request, calls one method here and
renders the answer; this object raises :class:`ServiceError` and can
``reset()``. The same backend serves in-process (ASGI transport) and behind
uvicorn. Everything lives under ``data_dir``: ``workbench.db`` (SQLite, WAL)
and plain files, so a restart (even after kill -9) finds it all again.

>>> import tempfile
>>> b = Backend(tempfile.mkdtemp(), dev_token="wb_doc_token", generate_library=False)
>>> b.authenticate("Bearer wb_doc_token", "avatar:write")
'dev'
"""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
import os
import secrets
import shutil
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from workbench import options as opts
from workbench.service import uploads
from workbench.service.db import Database
from workbench.service.errors import ServiceError

log = logging.getLogger("workbench.service")

HTTP_FAULT_OPERATIONS = ("avatars.register", "avatars.model", "avatars.preview", "animations.list",
                         "animations.download", "viewers.regenerate", "tracking.batch", "spaces.finish_upload")
INTERNAL_FAULT_OPERATIONS = {
    "model.generate": "GET /model fails with 500 model_generation_failed",
    "preview.render": "GET /preview fails with 500 preview_generation_failed",
    "viewers.job": "the next regeneration job fails and keeps the previous files",
    "spaces.finalize": "finish-upload with success=true fails with 500 finalization_failed",
}
VIEWER_OUTPUTS = {"product": ("glb", "usdz", "preview"), "space": ("preview", "bundle")}
OUTPUT_FILES = {"glb": ("model.glb", "model/gltf-binary"), "usdz": ("model.usdz", "model/vnd.usdz+zip"),
                "preview": ("preview.png", "image/png"), "bundle": ("bundle.zip", "application/zip")}


def _now_ms() -> int:
    return int(time.time() * 1000)


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def write_atomic(path: Path, data: bytes) -> None:
    """Write through a temporary file and rename, so a crash never leaves half a file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{secrets.token_hex(4)}.tmp")
    with open(tmp, "wb") as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


@dataclass
class Fault:
    operation: str
    remaining: int
    status: int = 503
    retry_after: float | None = None


class Faults:
    """Armed failures, consumed one per call of their operation (in memory, for demonstrations)."""

    def __init__(self):
        self._lock = threading.Lock()
        self._armed: dict[str, Fault] = {}

    def arm(self, operation: str, count: int, status: int | None, retry_after: float | None) -> Fault:
        known = HTTP_FAULT_OPERATIONS + tuple(INTERNAL_FAULT_OPERATIONS)
        problems = []
        if operation not in known:
            problems.append(opts.Problem("operation", "not_allowed", f"must be one of {', '.join(known)}; got {operation!r}"))
        if isinstance(count, bool) or not isinstance(count, int) or not 0 <= count <= 1000:
            problems.append(opts.Problem("count", "out_of_range", "must be an integer from 0 to 1000"))
        if status is not None and (isinstance(status, bool) or not isinstance(status, int) or not 400 <= status <= 599):
            problems.append(opts.Problem("status", "out_of_range", "must be an HTTP error status from 400 to 599"))
        if retry_after is not None and (isinstance(retry_after, bool) or not isinstance(retry_after, (int, float)) or not 0 <= retry_after <= 3600):
            problems.append(opts.Problem("retryAfter", "out_of_range", "must be a number of seconds from 0 to 3600"))
        if problems:
            raise ServiceError.invalid(problems, "fault")
        fault = Fault(operation, count, status or (500 if operation in INTERNAL_FAULT_OPERATIONS else 503), retry_after)
        with self._lock:
            self._armed[operation] = fault
        return fault

    def take(self, operation: str) -> Fault | None:
        with self._lock:
            f = self._armed.get(operation)
            if f is None or f.remaining <= 0:
                return None
            f.remaining -= 1
            return Fault(f.operation, 1, f.status, f.retry_after)

    def clear(self) -> None:
        with self._lock:
            self._armed.clear()

    def listing(self) -> dict:
        with self._lock:
            armed = {k: {"remaining": f.remaining, "status": f.status, "retryAfter": f.retry_after}
                     for k, f in self._armed.items() if f.remaining > 0}
        return {"http": list(HTTP_FAULT_OPERATIONS), "internal": INTERNAL_FAULT_OPERATIONS, "armed": armed}


class Backend:
    """All state of the local service.

    data_dir: where the database and files live (created if missing).
    dev_token: the development token for a new data folder (else ``WORKBENCH_DEV_TOKEN``, else random).
    generate_library: write the animation library on first start (in a background thread).
    """

    def __init__(self, data_dir: str | Path, *, dev_token: str | None = None, generate_library: bool = True,
                 job_workers: int = 2):
        self.data_dir = Path(data_dir).resolve()
        self.data_dir.mkdir(parents=True, exist_ok=True)
        self.db = Database(self.data_dir / "workbench.db")
        self.faults = Faults()
        self._known_viewers: set[str] = set()
        self.new_dev_token: str | None = None
        self._init_accounts(dev_token)
        self._fail_interrupted_jobs()
        self._jobs = ThreadPoolExecutor(max_workers=job_workers, thread_name_prefix="wb-job")
        self._job_lock = threading.Lock()
        from workbench.service.content import Content
        from workbench.service.tracking_store import TrackingStore

        self.content = Content(self)
        self.tracking = TrackingStore(self)
        if generate_library:
            self.content.start_library()

    # ------------------------------------------------------------------
    # accounts and tokens (contract section 3)
    # ------------------------------------------------------------------

    def _init_accounts(self, dev_token: str | None) -> None:
        if self.db.one("SELECT 1 FROM accounts WHERE id = 'dev'"):
            return
        token = dev_token or os.environ.get("WORKBENCH_DEV_TOKEN") or ("wb_" + secrets.token_urlsafe(32))
        with self.db.transaction() as c:
            c.execute("INSERT INTO accounts VALUES ('dev', ?)", (_now_ms(),))
            c.execute("INSERT INTO tokens (token_hash, account, scopes, created_at) VALUES (?, 'dev', ?, ?)",
                      (hash_token(token), " ".join(opts.SCOPES), _now_ms()))
        self.new_dev_token = token

    def _ensure_account(self, c, account: Any) -> str:
        if not isinstance(account, str) or not 1 <= len(account) <= 64 or not account.replace("-", "").replace("_", "").isalnum():
            raise ServiceError.invalid([opts.Problem("account", "invalid_account",
                                                     "must be 1 to 64 letters, digits, '-' or '_'")])
        c.execute("INSERT OR IGNORE INTO accounts VALUES (?, ?)", (account, _now_ms()))
        return account

    def create_token(self, account: Any = "dev", scopes: Any = None) -> dict:
        scopes = list(opts.SCOPES) if scopes is None else scopes
        if not isinstance(scopes, list) or not scopes or any(s not in opts.SCOPES for s in scopes):
            raise ServiceError.invalid([opts.Problem("scopes", "not_allowed",
                                                     f"must be a non-empty list of {', '.join(opts.SCOPES)}")])
        token = "wb_" + secrets.token_urlsafe(32)
        with self.db.transaction() as c:
            account = self._ensure_account(c, account)
            c.execute("INSERT INTO tokens (token_hash, account, scopes, created_at) VALUES (?, ?, ?, ?)",
                      (hash_token(token), account, " ".join(sorted(set(scopes))), _now_ms()))
        return {"token": token, "account": account, "scopes": sorted(set(scopes))}

    def revoke_token(self, token: Any) -> dict:
        if not isinstance(token, str):
            raise ServiceError.invalid([opts.Problem("token", "wrong_type", "must be a string")])
        with self.db.transaction() as c:
            n = c.execute("UPDATE tokens SET revoked = 1 WHERE token_hash = ?", (hash_token(token),)).rowcount
        if not n:
            raise ServiceError.not_found("token", "(given)")
        return {"revoked": True}

    def authenticate(self, authorization: str | None, scope: str, body_token: str | None = None) -> str:
        """The account of a valid token with ``scope``, else 401 (contract section 3)."""
        if authorization and body_token:
            raise ServiceError(400, "invalid_request", "Send the token in one place only: the Authorization header or the access_token field.")
        token = body_token
        if authorization is not None:
            scheme, _, value = authorization.partition(" ")
            if scheme.lower() != "bearer" or not value.strip():
                raise ServiceError.unauthorized("The Authorization header must be 'Bearer <token>'.")
            token = value.strip()
        if not token:
            raise ServiceError.unauthorized("This endpoint needs a token: send 'Authorization: Bearer <token>'.")
        digest = hash_token(token)
        row = self.db.one("SELECT token_hash, account, scopes, revoked FROM tokens WHERE token_hash = ?", (digest,))
        # The lookup is by hash; compare again in constant time so timing says nothing about near misses.
        if row is None or not hmac.compare_digest(row["token_hash"], digest) or row["revoked"]:
            raise ServiceError.unauthorized("The token is unknown or revoked.")
        if scope not in row["scopes"].split():
            raise ServiceError.insufficient_scope(scope)
        return row["account"]

    # ------------------------------------------------------------------
    # avatars (contract section 4)
    # ------------------------------------------------------------------

    def register_avatar(self, account: str, body: Any) -> dict:
        try:
            settings = opts.normalize_avatar_settings(body)
        except opts.InvalidOptions as e:
            raise ServiceError.invalid(e.problems, "settings") from None
        model_id = secrets.token_hex(12)
        self.db.execute("INSERT INTO avatars VALUES (?, ?, ?, ?)",
                        (model_id, account, json.dumps(settings, sort_keys=True), _now_ms()))
        return {"modelId": model_id, "settings": settings}

    def avatar_settings(self, model_id: str) -> dict:
        row = self.db.one("SELECT settings FROM avatars WHERE model_id = ?", (model_id,))
        if row is None:
            raise ServiceError.not_found("avatar", model_id)
        return json.loads(row["settings"])

    # ------------------------------------------------------------------
    # viewers and regeneration (contract section 8)
    # ------------------------------------------------------------------

    def create_viewer(self, body: Any) -> dict:
        if not isinstance(body, dict):
            raise ServiceError.invalid([opts.Problem("body", "wrong_type", "must be a JSON object")])
        allowed = ("kind", "account", "seed", "spaceTemplateId")
        problems = [opts.Problem(k, "unknown_field", f"is not a field; allowed: {', '.join(allowed)}") for k in body if k not in allowed]
        kind = body.get("kind", "product")
        if kind not in VIEWER_OUTPUTS:
            problems.append(opts.Problem("kind", "not_allowed", f"must be product or space; got {kind!r}"))
        seed = body.get("seed")
        if seed is not None and (not isinstance(seed, str) or not 1 <= len(seed) <= 64):
            problems.append(opts.Problem("seed", "wrong_type", "must be a string of 1 to 64 characters"))
        template = body.get("spaceTemplateId")
        if template is not None and kind != "space":
            problems.append(opts.Problem("spaceTemplateId", "not_allowed", "only a space viewer refers to a space template"))
        if problems:
            raise ServiceError.invalid(problems, "viewer")
        token = "vw_" + secrets.token_hex(10)
        seed = seed or token
        account = body.get("account", "dev")
        with self.db.transaction() as c:
            account = self._ensure_account(c, account)
        vdir = self.data_dir / "viewers" / token
        if kind == "product":
            from workbench.viewers.product import build_product_glb

            write_atomic(vdir / "source.glb", build_product_glb(seed))
            source = {"seed": seed}
        else:
            if template is None:
                from workbench.viewers.space import build_space_scene

                template = self._create_generated_space(account, build_space_scene(seed))
            else:
                sp = self.space_row(account, template)
                if sp["kind"] != "glb" or sp["state"] != "finalized":
                    raise ServiceError(409, "space_not_ready", "A space viewer needs a finalized GLB bundle template.")
            source = {"seed": seed, "spaceTemplateId": template}
        self.db.execute("INSERT INTO viewers VALUES (?, ?, ?, ?, ?)",
                        (token, account, kind, json.dumps(source), _now_ms()))
        return self.viewer_record(token)

    def _viewer_row(self, account: str | None, token: str):
        row = self.db.one("SELECT * FROM viewers WHERE token = ?", (token,))
        # Another account's viewer is answered exactly like a missing one.
        if row is None or (account is not None and row["account"] != account):
            raise ServiceError.not_found("viewer", token)
        return row

    def viewer_exists(self, token: str) -> bool:
        # Asked on every tracking batch; viewers are only ever removed by reset(), which clears this set.
        if token in self._known_viewers:
            return True
        if self.db.one("SELECT 1 FROM viewers WHERE token = ?", (token,)) is None:
            return False
        self._known_viewers.add(token)
        return True

    def _job_dict(self, row) -> dict | None:
        if row is None:
            return None
        d = {"jobId": row["id"], "state": row["state"], "outputs": json.loads(row["outputs"]),
             "startedAt": row["started_at"], "runningAt": row["running_at"], "endedAt": row["ended_at"],
             "error": row["error"]}
        d["durationMs"] = (row["ended_at"] - row["started_at"]) if row["ended_at"] else None
        return d

    def viewer_record(self, token: str) -> dict:
        row = self._viewer_row(None, token)
        job = self.db.one("SELECT * FROM jobs WHERE viewer_token = ? ORDER BY started_at DESC, rowid DESC LIMIT 1", (token,))
        files = {r["output"]: {"sha256": r["sha256"], "bytes": r["bytes"], "jobId": r["job_id"], "updatedAt": r["updated_at"]}
                 for r in self.db.all("SELECT * FROM viewer_files WHERE viewer_token = ?", (token,))}
        return {"viewerToken": token, "kind": row["kind"], "account": row["account"],
                "source": json.loads(row["source"]), "outputs": list(VIEWER_OUTPUTS[row["kind"]]),
                "job": self._job_dict(job), "files": files}

    def viewer_file(self, token: str, output: str) -> tuple[bytes, str]:
        row = self._viewer_row(None, token)
        if output not in OUTPUT_FILES:
            raise ServiceError.invalid([opts.Problem("output", "not_allowed", f"must be one of {', '.join(OUTPUT_FILES)}; got {output!r}")], "output")
        if output not in VIEWER_OUTPUTS[row["kind"]]:
            raise ServiceError(404, "file_not_found", f"A {row['kind']} viewer has no {output} output.")
        f = self.db.one("SELECT path FROM viewer_files WHERE viewer_token = ? AND output = ?", (token, output))
        if f is None:
            raise ServiceError(404, "file_not_found", f"The viewer has no {output} file yet: regenerate it first.")
        return (self.data_dir / f["path"]).read_bytes(), OUTPUT_FILES[output][1]

    def regenerate(self, account: str, token: str) -> dict:
        """Start a job (or return the one running) and answer once it has started."""
        row = self._viewer_row(account, token)
        with self._job_lock:
            running = self.db.one("SELECT * FROM jobs WHERE viewer_token = ? AND state IN ('started', 'running') "
                                  "ORDER BY started_at DESC LIMIT 1", (token,))
            if running is not None:
                job = self._job_dict(running)
            else:
                job_id = "job_" + secrets.token_hex(8)
                outputs = list(VIEWER_OUTPUTS[row["kind"]])
                self.db.execute("INSERT INTO jobs (id, viewer_token, state, outputs, started_at) VALUES (?, ?, 'started', ?, ?)",
                                (job_id, token, json.dumps(outputs), _now_ms()))
                self._jobs.submit(self._run_job, job_id, token)
                job = {"jobId": job_id, "state": "started", "outputs": outputs}
        return {"viewerToken": token, "kind": row["kind"], "jobId": job["jobId"], "state": job["state"],
                "outputs": job["outputs"]}

    def _run_job(self, job_id: str, token: str) -> None:
        self.db.execute("UPDATE jobs SET state = 'running', running_at = ? WHERE id = ?", (_now_ms(), job_id))
        try:
            row = self._viewer_row(None, token)
            source = json.loads(row["source"])
            if self.faults.take("viewers.job"):
                raise RuntimeError("injected fault (viewers.job): the renderer was told to fail")
            from workbench.viewers import regenerate

            if row["kind"] == "product":
                files = regenerate.regenerate_product((self.data_dir / "viewers" / token / "source.glb").read_bytes())
            else:
                files = regenerate.regenerate_space(self._space_file(source["spaceTemplateId"]), source["seed"])
            # Only when every output is made are the files replaced, so a failure keeps the previous set.
            out_dir = self.data_dir / "viewers" / token / "outputs"
            now = _now_ms()
            for name, data in files.items():
                write_atomic(out_dir / OUTPUT_FILES[name][0], data)
            with self.db.transaction() as c:
                for name, data in files.items():
                    c.execute("INSERT OR REPLACE INTO viewer_files VALUES (?, ?, ?, ?, ?, ?, ?)",
                              (token, name, str((out_dir / OUTPUT_FILES[name][0]).relative_to(self.data_dir)),
                               hashlib.sha256(data).hexdigest(), len(data), job_id, now))
                c.execute("UPDATE jobs SET state = 'succeeded', ended_at = ? WHERE id = ?", (_now_ms(), job_id))
        except Exception as e:  # a job's failure is recorded, never raised into the pool
            log.warning("regeneration job %s failed: %s", job_id, e)
            message = str(e) or type(e).__name__
            self.db.execute("UPDATE jobs SET state = 'failed', ended_at = ?, error = ? WHERE id = ?",
                            (_now_ms(), f"{type(e).__name__}: {message}"[:1000], job_id))

    def _fail_interrupted_jobs(self) -> None:
        self.db.execute("UPDATE jobs SET state = 'failed', ended_at = ?, error = ? WHERE state IN ('started', 'running')",
                        (_now_ms(), "interrupted: the service stopped before the job ended; regenerate again"))

    def wait_for_jobs(self, timeout: float = 60.0) -> None:
        """Block until no job is started or running (for tests and notebooks)."""
        deadline = time.monotonic() + timeout
        while self.db.one("SELECT 1 FROM jobs WHERE state IN ('started', 'running')") and time.monotonic() < deadline:
            time.sleep(0.05)

    # ------------------------------------------------------------------
    # space templates (contract section 10)
    # ------------------------------------------------------------------

    def create_space(self, body: Any) -> dict:
        if not isinstance(body, dict):
            raise ServiceError.invalid([opts.Problem("body", "wrong_type", "must be a JSON object")])
        problems = [opts.Problem(k, "unknown_field", "is not a field; allowed: kind, account") for k in body if k not in ("kind", "account")]
        kind = body.get("kind", "glb")
        if kind not in ("glb", "splat"):
            problems.append(opts.Problem("kind", "not_allowed", f"must be glb or splat; got {kind!r}"))
        if problems:
            raise ServiceError.invalid(problems, "space")
        sid = "sp_" + secrets.token_hex(10)
        with self.db.transaction() as c:
            account = self._ensure_account(c, body.get("account", "dev"))
            c.execute("INSERT INTO spaces (id, account, kind, state, created_at, updated_at) VALUES (?, ?, ?, 'awaiting_upload', ?, ?)",
                      (sid, account, kind, _now_ms(), _now_ms()))
        return self.space_record(sid)

    def _create_generated_space(self, account: str, scene: bytes) -> str:
        sid = "sp_" + secrets.token_hex(10)
        write_atomic(self.data_dir / "spaces" / sid / "scene.glb", scene)
        self.db.execute("INSERT INTO spaces (id, account, kind, state, filename, bytes, message, created_at, updated_at) "
                        "VALUES (?, ?, 'glb', 'finalized', 'scene.glb', ?, 'generated by the local service', ?, ?)",
                        (sid, account, len(scene), _now_ms(), _now_ms()))
        return sid

    def space_row(self, account: str | None, sid: str):
        """The template's row; 404 when it does not exist or belongs to another account."""
        row = self.db.one("SELECT * FROM spaces WHERE id = ?", (sid,))
        if row is None or (account is not None and row["account"] != account):
            raise ServiceError.not_found("space_template", sid)
        return row

    def _space_file(self, sid: str) -> bytes:
        row = self.space_row(None, sid)
        return (self.data_dir / "spaces" / sid / row["filename"]).read_bytes()

    def space_record(self, sid: str) -> dict:
        r = self.space_row(None, sid)
        return {"spaceTemplateId": r["id"], "account": r["account"], "kind": r["kind"], "state": r["state"],
                "filename": r["filename"], "bytes": r["bytes"], "message": r["message"], "error": r["error"]}

    def upload_space(self, sid: str, filename: Any, data: bytes) -> dict:
        row = self.space_row(None, sid)
        if not isinstance(filename, str) or not 1 <= len(filename) <= 200 or "/" in filename or "\\" in filename or filename.startswith("."):
            raise ServiceError.invalid([opts.Problem("filename", "invalid_filename",
                                                     "must be a plain file name (1 to 200 characters, no '/')")], "upload")
        if row["state"] in ("finalized", "cancelled"):
            raise ServiceError(409, "space_template_ended", f"The template is {row['state']}; it takes no more uploads.")
        folder = self.data_dir / "spaces" / sid
        if folder.exists():
            shutil.rmtree(folder)
        write_atomic(folder / filename, data)
        self.db.execute("UPDATE spaces SET state = 'uploaded', filename = ?, bytes = ?, error = NULL, updated_at = ? WHERE id = ?",
                        (filename, len(data), _now_ms(), sid))
        return self.space_record(sid)

    def finish_upload(self, account: str, sid: str, success: bool, message: str) -> tuple[int, dict]:
        """201 finalized, 200 cancelled; 409 for the opposite finish on an ended template."""
        row = self.space_row(account, sid)
        state = row["state"]
        wanted_end = "finalized" if success else "cancelled"
        ended = {"finalized": True, "failed": True, "cancelled": False}
        if state in ended:
            if ended[state] != success:
                raise ServiceError(409, "space_template_ended",
                                   f"The template is already {state}; it cannot be {'finalized' if success else 'cancelled'} now.")
            if state == "failed":
                raise ServiceError(500, "finalization_failed", f"Finalization failed: {row['error']}",
                                   [{"field": "file", "code": "invalid_file", "message": p} for p in row["error"].split("; ")])
            return (201 if success else 200), self.space_record(sid)
        if not success:
            self.db.execute("UPDATE spaces SET state = 'cancelled', message = ?, updated_at = ? WHERE id = ?",
                            (message, _now_ms(), sid))
            return 200, self.space_record(sid)
        data = None
        if row["filename"]:
            path = self.data_dir / "spaces" / sid / row["filename"]
            data = path.read_bytes() if path.exists() else None
        problems = uploads.check_upload(row["kind"], row["filename"], data)
        if self.faults.take("spaces.finalize"):
            problems = ["injected fault (spaces.finalize): the storage step was told to fail"]
        if problems:
            error = "; ".join(problems)
            self.db.execute("UPDATE spaces SET state = 'failed', message = ?, error = ?, updated_at = ? WHERE id = ?",
                            (message, error, _now_ms(), sid))
            raise ServiceError(500, "finalization_failed", f"Finalization failed: {error}",
                               [{"field": "file", "code": "invalid_file", "message": p} for p in problems])
        self.db.execute("UPDATE spaces SET state = ?, message = ?, updated_at = ? WHERE id = ?",
                        (wanted_end, message, _now_ms(), sid))
        return 201, self.space_record(sid)

    # ------------------------------------------------------------------
    # control
    # ------------------------------------------------------------------

    def health(self) -> dict:
        counts = {t: self.db.one(f"SELECT count(*) AS n FROM {t}")["n"] for t in ("avatars", "viewers", "spaces", "events")}
        return {"service": "workbench-local", "dataDir": str(self.data_dir), "counts": counts,
                "animationLibrary": self.content.library_state()}

    def reset(self) -> dict:
        """Forget avatars, viewers, jobs, templates, events and generated files; keep accounts and tokens."""
        self.wait_for_jobs(timeout=30)
        with self.db.transaction() as c:
            for t in ("avatars", "viewers", "jobs", "viewer_files", "spaces", "events"):
                c.execute(f"DELETE FROM {t}")
        for sub in ("viewers", "spaces", "models", "previews"):
            shutil.rmtree(self.data_dir / sub, ignore_errors=True)
        self.faults.clear()
        self._known_viewers.clear()
        self.content.clear_memory()
        return {"reset": True}

    def close(self) -> None:
        self._jobs.shutdown(wait=True, cancel_futures=False)
        self.db.close()
