"""Viewers and their regeneration jobs (contract section 8).

A product viewer keeps a source GLB; a space viewer refers to a finalized GLB
space template. Regeneration runs as a job in a small thread pool; only when
every output is made are the viewer's files replaced, so a failed job keeps
the previous set. Files live under ``data_dir/viewers/TOKEN/``.
"""

from __future__ import annotations

import hashlib
import json
import secrets
import sqlite3
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from workbench import options as opts
from workbench.files import NotOurs, link_on_the_way, read_inside
from workbench.service.accounts import Accounts
from workbench.service.db import Database
from workbench.service.errors import ServiceError
from workbench.service.faults import Faults
from workbench.service.jobs import JobFailed, JobLimits, JobRunner
from workbench.service.lazy import importing
from workbench.service.log import log
from workbench.service.spaces import Spaces
from workbench.service.spec import UPLOAD_LIMIT
from workbench.service.storage import now_ms, write_atomic

VIEWER_FIELDS = ("kind", "account", "seed", "spaceTemplateId")
# The largest output file served back (a bundle holds its space's scene, at most an upload's size).
OUTPUT_LIMIT = UPLOAD_LIMIT + (16 << 20)
VIEWER_OUTPUTS = {"product": ("glb", "usdz", "preview"), "space": ("preview", "bundle")}
OUTPUT_FILES = {"glb": ("model.glb", "model/gltf-binary"), "usdz": ("model.usdz", "model/vnd.usdz+zip"),
                "preview": ("preview.png", "image/png"), "bundle": ("bundle.zip", "application/zip")}


class Viewers:
    """Viewers and jobs in ``db``, files under ``data_dir``.

    accounts: makes a new viewer's account; spaces: the templates space viewers show;
    faults: where a job asks ``viewers.job`` whether to fail. Jobs still running when
    the service stopped are marked failed on the next start.
    """

    def __init__(self, db: Database, data_dir: Path, accounts: Accounts, spaces: Spaces, faults: Faults,
                 job_workers: int = 2, job_limits: JobLimits | None = None):
        self.db = db
        self.data_dir = data_dir
        self.dir = data_dir / "viewers"
        self.accounts = accounts
        self.spaces = spaces
        self.faults = faults
        self._known: set[str] = set()
        self.db.execute("UPDATE jobs SET state = 'failed', ended_at = ?, error = ? WHERE state IN ('started', 'running')",
                        (now_ms(), "interrupted: the service stopped before the job ended; regenerate again"))
        self._jobs = ThreadPoolExecutor(max_workers=job_workers, thread_name_prefix="wb-job")
        self._runner = JobRunner(job_limits or JobLimits())
        self._job_lock = threading.Lock()

    def create(self, body: Any) -> dict:
        if not isinstance(body, dict):
            raise ServiceError.invalid([opts.Problem("body", "wrong_type", "must be a JSON object")])
        problems = [opts.Problem(k, "unknown_field", f"is not a field; allowed: {', '.join(VIEWER_FIELDS)}")
                    for k in body if k not in VIEWER_FIELDS]
        kind = body.get("kind", "product")
        if not isinstance(kind, str) or kind not in VIEWER_OUTPUTS:
            problems.append(opts.Problem("kind", "not_allowed", f"must be product or space; got {kind!r}"))
        seed = body.get("seed")
        if seed is not None and (not isinstance(seed, str) or not 1 <= len(seed) <= 64):
            problems.append(opts.Problem("seed", "wrong_type", "must be a string of 1 to 64 characters"))
        template = body.get("spaceTemplateId")
        if template is not None and kind != "space":
            problems.append(opts.Problem("spaceTemplateId", "not_allowed", "only a space viewer refers to a space template"))
        elif template is not None and not isinstance(template, str):
            problems.append(opts.Problem("spaceTemplateId", "wrong_type", "must be a space template id (a string)"))
        if problems:
            raise ServiceError.invalid(problems, "viewer")
        token = "vw_" + secrets.token_hex(10)
        seed = seed or token
        account = self.accounts.ensure(body.get("account", "dev"))
        if kind == "product":
            with importing():
                from workbench.regeneration.product import build_product_glb

            write_atomic(self.dir / token / "source.glb", build_product_glb(seed))
            source = {"seed": seed}
        else:
            if template is None:
                with importing():
                    from workbench.regeneration.space import build_space_scene

                template = self.spaces.create_generated(account, build_space_scene(seed))
            else:
                sp = self.spaces.row(account, template)
                if sp["kind"] != "glb" or sp["state"] != "finalized":
                    raise ServiceError(409, "space_not_ready", "A space viewer needs a finalized GLB bundle template.")
            source = {"seed": seed, "spaceTemplateId": template}
        self.db.execute("INSERT INTO viewers VALUES (?, ?, ?, ?, ?)",
                        (token, account, kind, json.dumps(source), now_ms()))
        return self.record(token)

    def _row(self, account: str | None, token: str):
        return ServiceError.unless_owned(self.db.one("SELECT * FROM viewers WHERE token = ?", (token,)), account,
                                         "viewer", token)

    def exists(self, token: str) -> bool:
        # Asked on every tracking batch; viewers are only ever removed by forget(), which clears this set.
        if token in self._known:
            return True
        if self.db.one("SELECT 1 FROM viewers WHERE token = ?", (token,)) is None:
            return False
        self._known.add(token)
        return True

    def forget(self) -> None:
        """Drop what this object remembers of viewers (after reset deleted them)."""
        self._known.clear()

    @staticmethod
    def _job_dict(row: sqlite3.Row) -> dict:
        d = {"jobId": row["id"], "state": row["state"], "outputs": json.loads(row["outputs"]),
             "startedAt": row["started_at"], "runningAt": row["running_at"], "endedAt": row["ended_at"],
             "error": row["error"]}
        d["durationMs"] = (row["ended_at"] - row["started_at"]) if row["ended_at"] else None
        return d

    def record(self, token: str) -> dict:
        row = self._row(None, token)
        job = self.db.one("SELECT * FROM jobs WHERE viewer_token = ? ORDER BY started_at DESC, rowid DESC LIMIT 1", (token,))
        files = {r["output"]: {"sha256": r["sha256"], "bytes": r["bytes"], "jobId": r["job_id"], "updatedAt": r["updated_at"]}
                 for r in self.db.all("SELECT * FROM viewer_files WHERE viewer_token = ?", (token,))}
        return {"viewerToken": token, "kind": row["kind"], "account": row["account"],
                "source": json.loads(row["source"]), "outputs": list(VIEWER_OUTPUTS[row["kind"]]),
                "job": None if job is None else self._job_dict(job), "files": files}

    def file(self, token: str, output: str) -> tuple[bytes, str]:
        row = self._row(None, token)
        if output not in OUTPUT_FILES:
            raise ServiceError.invalid([opts.Problem("output", "not_allowed", f"must be one of {', '.join(OUTPUT_FILES)}; got {output!r}")], "output")
        if output not in VIEWER_OUTPUTS[row["kind"]]:
            raise ServiceError(404, "file_not_found", f"A {row['kind']} viewer has no {output} output.")
        f = self.db.one("SELECT path FROM viewer_files WHERE viewer_token = ? AND output = ?", (token, output))
        if f is None:
            raise ServiceError(404, "file_not_found", f"The viewer has no {output} file yet: regenerate it first.")
        path = self.data_dir / f["path"]
        try:
            return read_inside(self.data_dir, path, OUTPUT_LIMIT), OUTPUT_FILES[output][1]
        except OSError as e:
            # Replaced by a link, a FIFO, a device, a folder, or removed: not served; the next job makes it again.
            log.warning("the viewer file %s is not served (%s)", path, e.reason if isinstance(e, NotOurs) else e.strerror or e)
            raise ServiceError(404, "file_not_found", f"The viewer's {output} file is missing on the server: "
                                                      "regenerate it.") from None

    def regenerate(self, account: str, token: str) -> dict:
        """Start a job (or return the one running) and answer once it has started."""
        row = self._row(account, token)
        with self._job_lock:
            running = self.db.one("SELECT * FROM jobs WHERE viewer_token = ? AND state IN ('started', 'running') "
                                  "ORDER BY started_at DESC LIMIT 1", (token,))
            if running is not None:
                job = self._job_dict(running)
            else:
                job_id = "job_" + secrets.token_hex(8)
                outputs = list(VIEWER_OUTPUTS[row["kind"]])
                self.db.execute("INSERT INTO jobs (id, viewer_token, state, outputs, started_at) VALUES (?, ?, 'started', ?, ?)",
                                (job_id, token, json.dumps(outputs), now_ms()))
                self._jobs.submit(self._run_job, job_id, token)
                job = {"jobId": job_id, "state": "started", "outputs": outputs}
        return {"viewerToken": token, "kind": row["kind"], "jobId": job["jobId"], "state": job["state"],
                "outputs": job["outputs"]}

    def _run_job(self, job_id: str, token: str) -> None:
        self.db.execute("UPDATE jobs SET state = 'running', running_at = ? WHERE id = ?", (now_ms(), job_id))
        try:
            row = self._row(None, token)
            source = json.loads(row["source"])
            if self.faults.take("viewers.job"):
                raise RuntimeError("injected fault (viewers.job): the renderer was told to fail")
            try:
                if row["kind"] == "product":
                    data = read_inside(self.data_dir, self.dir / token / "source.glb", UPLOAD_LIMIT)
                else:
                    data = self.spaces.file(source["spaceTemplateId"])
            except OSError as e:
                why = e.reason if isinstance(e, NotOurs) else "it is missing"
                raise JobFailed(f"the {'source model' if row['kind'] == 'product' else 'space template'}'s file "
                                f"cannot be read ({why})") from None
            # In a worker process, within the job's bounds of time and memory (jobs.py).
            files = self._runner.run(row["kind"], data, source["seed"])
            # Each job's files under names of their own, put in place by one commit: a failure keeps the previous
            # set whole, and whatever stands at an earlier name (a link, a FIFO, a folder) is never written through.
            out_dir = self.dir / token / "outputs"
            odd = link_on_the_way(self.data_dir, out_dir / "x")
            if odd is not None:
                raise JobFailed(f"the viewer's folder {odd.relative_to(self.data_dir)} is not a folder of the data "
                                "folder's own; the outputs were not written")
            paths = {name: out_dir / f"{job_id}-{OUTPUT_FILES[name][0]}" for name in files}
            before = [self.data_dir / r["path"] for r in
                      self.db.all("SELECT path FROM viewer_files WHERE viewer_token = ?", (token,))]
            now = now_ms()
            for name, data in files.items():
                write_atomic(paths[name], data)
            with self.db.transaction() as c:
                for name, data in files.items():
                    c.execute("INSERT OR REPLACE INTO viewer_files VALUES (?, ?, ?, ?, ?, ?, ?)",
                              (token, name, str(paths[name].relative_to(self.data_dir)),
                               hashlib.sha256(data).hexdigest(), len(data), job_id, now))
                c.execute("UPDATE jobs SET state = 'succeeded', ended_at = ? WHERE id = ?", (now_ms(), job_id))
            for old in before:
                if old not in paths.values() and not old.is_dir():
                    old.unlink(missing_ok=True)   # (a link goes, not what it points to)
        except Exception as e:  # a job's failure is recorded, never raised into the pool
            log.warning("regeneration job %s failed: %s", job_id, e)
            message = str(e) or type(e).__name__
            error = message if isinstance(e, JobFailed) else f"{type(e).__name__}: {message}"
            self.db.execute("UPDATE jobs SET state = 'failed', ended_at = ?, error = ? WHERE id = ?",
                            (now_ms(), error[:1000], job_id))

    def wait_for_jobs(self, timeout: float = 60.0) -> None:
        """Block until no job is started or running (for tests and notebooks)."""
        deadline = time.monotonic() + timeout
        while self.db.one("SELECT 1 FROM jobs WHERE state IN ('started', 'running')") and time.monotonic() < deadline:
            time.sleep(0.05)

    def close(self) -> None:
        self._runner.close()   # a job running fails now, saying the service stopped
        self._jobs.shutdown(wait=True, cancel_futures=False)
