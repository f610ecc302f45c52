"""Space templates (contract section 10): made and filled through the control API, finished by finish-upload.

A template moves ``awaiting_upload`` -> ``uploaded`` -> ``finalized`` | ``failed``,
or to ``cancelled``; finishing checks the uploaded file for real
(:mod:`workbench.service.uploads`). Files live under ``data_dir/spaces/ID/``.
"""

from __future__ import annotations

import os
import secrets
from pathlib import Path
from typing import Any

from workbench import options as opts
from workbench.files import NotOurs, read_inside
from workbench.service import uploads
from workbench.service.accounts import Accounts
from workbench.service.db import Database
from workbench.service.errors import ServiceError
from workbench.service.faults import Faults
from workbench.service.spec import UPLOAD_LIMIT
from workbench.service.storage import disk_full, now_ms, write_atomic

SPACE_KINDS = ("glb", "splat")
# The most bytes a file name may take: ext4, XFS, Btrfs and APFS all stop at 255.
NAME_MAX_BYTES = 255
MAX_FILENAME_CHARS = 200


def filename_problem(filename: Any) -> str | None:
    r"""Why ``filename`` cannot name an uploaded file, or None.

    >>> filename_problem("scene.glb") is None, filename_problem("a\0.glb"), filename_problem("é" * 150 + ".glb")
    (True, 'must not hold control characters (NUL, line breaks, ...)', 'must take at most 255 bytes as UTF-8; got 304')
    """
    if not isinstance(filename, str) or not 1 <= len(filename) <= MAX_FILENAME_CHARS:
        return f"must be a plain file name of 1 to {MAX_FILENAME_CHARS} characters"
    if "/" in filename or "\\" in filename or filename.startswith("."):
        return "must be a plain file name (no '/' or '\\', not starting with '.')"
    if any(ord(c) < 32 or ord(c) == 127 for c in filename):
        return "must not hold control characters (NUL, line breaks, ...)"
    problem = opts.utf8_problem(filename)
    if problem:
        return problem
    size = len(filename.encode("utf-8"))
    if size > NAME_MAX_BYTES:
        return f"must take at most {NAME_MAX_BYTES} bytes as UTF-8; got {size}"
    return None


class Incoming:
    """An upload's body on its way to disk: a temporary file in the template's folder, written piece by
    piece (memory stays flat whatever the size); a full disk is 507 with the piece written so far removed."""

    def __init__(self, folder: Path, filename: str):
        self.folder, self.filename = folder, filename
        folder.mkdir(parents=True, exist_ok=True)
        self.tmp = folder / f".upload-{secrets.token_hex(8)}.tmp"
        self._file = open(self.tmp, "wb")
        self.size = 0

    def write(self, data: bytes) -> None:
        try:
            self._file.write(data)
        except OSError as e:
            self.discard()
            if disk_full(e):
                raise ServiceError.insufficient_storage() from None
            raise
        self.size += len(data)

    def close(self) -> int:
        """Flush and sync the file (a full disk may only show here); its size."""
        try:
            self._file.flush()
            os.fsync(self._file.fileno())
            self._file.close()
        except OSError as e:
            self.discard()
            if disk_full(e):
                raise ServiceError.insufficient_storage() from None
            raise
        return self.size

    def discard(self) -> None:
        try:
            self._file.close()
        except OSError:
            pass
        self.tmp.unlink(missing_ok=True)


def check_finish_fields(fields: list[tuple[str, Any]]) -> tuple[bool, str]:
    """``(success, message)`` from finish-upload's form fields, or 400 ``invalid_payload`` naming each problem.

    The rules are :func:`workbench.options.parse_finish_upload_form`, which the client checks with too.

    >>> check_finish_fields([("success", "true"), ("message", "done")])
    (True, 'done')
    """
    try:
        return opts.parse_finish_upload_form(fields)
    except opts.InvalidOptions as e:
        raise ServiceError.invalid(e.problems, "payload") from None


class Spaces:
    """Space templates in ``db`` with their files under ``data_dir``.

    accounts: makes the owning account of a new template; faults: where ``spaces.finalize`` asks whether to fail.
    """

    def __init__(self, db: Database, data_dir: Path, accounts: Accounts, faults: Faults):
        self.db = db
        self.dir = data_dir / "spaces"
        self.accounts = accounts
        self.faults = faults

    def create(self, body: Any) -> dict:
        if not isinstance(body, dict):
            raise ServiceError.invalid([opts.Problem("body", "wrong_type", "must be a JSON object")])
        problems = [opts.Problem(k, "unknown_field", "is not a field; allowed: kind, account") for k in body if k not in ("kind", "account")]
        kind = body.get("kind", "glb")
        if kind not in SPACE_KINDS:
            problems.append(opts.Problem("kind", "not_allowed", f"must be glb or splat; got {kind!r}"))
        if problems:
            raise ServiceError.invalid(problems, "space")
        sid = "sp_" + secrets.token_hex(10)
        account = self.accounts.ensure(body.get("account", "dev"))
        self.db.execute("INSERT INTO spaces (id, account, kind, state, created_at, updated_at) VALUES (?, ?, ?, 'awaiting_upload', ?, ?)",
                        (sid, account, kind, now_ms(), now_ms()))
        return self.record(sid)

    def create_generated(self, account: str, scene: bytes) -> str:
        """A finalized GLB template holding ``scene`` (for a space viewer made without one)."""
        sid = "sp_" + secrets.token_hex(10)
        write_atomic(self.dir / sid / "scene.glb", scene)
        self.db.execute("INSERT INTO spaces (id, account, kind, state, filename, bytes, message, created_at, updated_at) "
                        "VALUES (?, ?, 'glb', 'finalized', 'scene.glb', ?, 'generated by the local service', ?, ?)",
                        (sid, account, len(scene), now_ms(), now_ms()))
        return sid

    def row(self, account: str | None, sid: str):
        """The template's row; 404 when it does not exist or belongs to another account."""
        return ServiceError.unless_owned(self.db.one("SELECT * FROM spaces WHERE id = ?", (sid,)), account,
                                         "space_template", sid)

    def file(self, sid: str) -> bytes:
        """The template's file: only a regular file in its folder of at most an upload's size (anything else
        raises OSError, :class:`workbench.files.NotOurs` saying what it is)."""
        row = self.row(None, sid)
        return read_inside(self.dir, self.dir / sid / row["filename"], UPLOAD_LIMIT)

    def record(self, sid: str) -> dict:
        r = self.row(None, sid)
        return {"spaceTemplateId": r["id"], "account": r["account"], "kind": r["kind"], "state": r["state"],
                "filename": r["filename"], "bytes": r["bytes"], "message": r["message"], "error": r["error"]}

    def upload(self, sid: str, filename: Any, data: bytes) -> dict:
        """Store ``data`` as the template's file, replacing the one before only once it is all written."""
        incoming = self.receive(sid, filename)
        try:
            incoming.write(data)
        except BaseException:
            incoming.discard()
            raise
        return self.keep(incoming)

    def receive(self, sid: str, filename: Any) -> Incoming:
        """Check that ``sid`` takes an upload named ``filename`` (404, 409 or 400, before any byte is read)
        and open a temporary file in its folder for the body; :meth:`keep` puts it in place."""
        row = self.row(None, sid)
        problem = filename_problem(filename)
        if problem:
            raise ServiceError.invalid([opts.Problem("filename", "invalid_filename", problem)], "upload")
        if row["state"] in ("finalized", "cancelled"):
            raise ServiceError(409, "space_template_ended", f"The template is {row['state']}; it takes no more uploads.")
        return Incoming(self.dir / sid, filename)

    def keep(self, incoming: Incoming) -> dict:
        """Put a completely written upload in place of the template's file (a rename: the last good file
        stays whole until then), and forget the one before."""
        sid = incoming.folder.name
        try:
            row = self.row(None, sid)
            if row["state"] in ("finalized", "cancelled"):  # ended while the body was arriving
                raise ServiceError(409, "space_template_ended", f"The template is {row['state']}; it takes no more uploads.")
            size = incoming.close()
            os.replace(incoming.tmp, incoming.folder / incoming.filename)
        except BaseException:
            incoming.discard()
            raise
        self.db.execute("UPDATE spaces SET state = 'uploaded', filename = ?, bytes = ?, error = NULL, updated_at = ? WHERE id = ?",
                        (incoming.filename, size, now_ms(), sid))
        if row["filename"] and row["filename"] != incoming.filename:
            (incoming.folder / row["filename"]).unlink(missing_ok=True)
        return self.record(sid)

    def finish(self, account: str, sid: str, fields: list[tuple[str, Any]]) -> tuple[int, dict]:
        """201 finalized, 200 cancelled; 409 for the opposite finish on an ended template; 400 for bad fields."""
        row = self.row(account, sid)
        success, message = check_finish_fields(fields)
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
            return (201 if success else 200), self.record(sid)
        if not success:
            self.db.execute("UPDATE spaces SET state = 'cancelled', message = ?, updated_at = ? WHERE id = ?",
                            (message, now_ms(), sid))
            return 200, self.record(sid)
        data, problems = None, None
        if row["filename"]:
            try:
                data = self.file(sid)
            except FileNotFoundError:
                pass
            except NotOurs as e:
                problems = [f"the uploaded file was replaced: {e.reason}; upload it again"]
        problems = problems or uploads.check_upload(row["kind"], row["filename"], data)
        if self.faults.take("spaces.finalize"):
            problems = ["injected fault (spaces.finalize): the storage step was told to fail"]
        if problems:
            error = "; ".join(problems)
            self.db.execute("UPDATE spaces SET state = 'failed', message = ?, error = ?, updated_at = ? WHERE id = ?",
                            (message, error, now_ms(), sid))
            raise ServiceError(500, "finalization_failed", f"Finalization failed: {error}",
                               [{"field": "file", "code": "invalid_file", "message": p} for p in problems])
        self.db.execute("UPDATE spaces SET state = ?, message = ?, updated_at = ? WHERE id = ?",
                        (wanted_end, message, now_ms(), sid))
        return 201, self.record(sid)
