"""Tracking events in the local service: validate a batch, store it durably, export it.

Validation uses the one event catalog (:mod:`workbench.tracking.catalog`) that
the client pre-checks with. Accepted events are committed to SQLite before the
answer is built, so whatever a 200 or 207 reports as accepted survives a crash.
A repeated event ``id`` (per viewer) is stored once and counted as a duplicate.
"""

from __future__ import annotations

import csv
import io
import json
from datetime import datetime, timezone
from typing import Any

from workbench import options as opts
from workbench.service.db import Database
from workbench.service.errors import ServiceError
from workbench.tracking import catalog

INSERT = ("INSERT OR IGNORE INTO events (viewer_token, session_id, event_id, key, payload, ts, received_at) "
          "VALUES (?, ?, ?, ?, ?, ?, ?)")
EXPORT_COLUMNS = ("viewerToken", "sessionId", "id", "key", "timestamp", "payload", "receivedAt")


def iso_ms(ms: int) -> str:
    return datetime.fromtimestamp(ms / 1000, tz=timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.") + f"{ms % 1000:03d}Z"


def parse_time(name: str, value: str | None) -> int | None:
    """Epoch milliseconds from an ISO 8601 time with a zone or an integer of epoch ms."""
    if value is None:
        return None
    v = value.strip()
    if v.lstrip("-").isdigit():
        return int(v)
    try:
        dt = datetime.fromisoformat(v.replace("Z", "+00:00"))
    except ValueError:
        dt = None
    if dt is None or dt.tzinfo is None:
        raise ServiceError.invalid([opts.Problem(name, "invalid_time", "must be ISO 8601 with a zone, or epoch milliseconds")], "query")
    return int(dt.timestamp() * 1000)


class TrackingStore:
    """Tracking events in ``db``."""

    def __init__(self, db: Database):
        self.db = db

    def ingest(self, viewer_token: str, body: Any) -> tuple[int, dict]:
        """(status, data) for a decoded batch body; raises ServiceError for a request-level fault."""
        now = datetime.now(timezone.utc)
        try:
            result = catalog.check_batch(body, now=now)
        except catalog.BatchRejected as e:
            raise ServiceError(e.status, e.code, e.message,
                               [{"field": e.field, "code": e.code, "message": e.message}]) from None
        if not result.accepted:
            raise ServiceError(400, "all_events_invalid",
                               f"None of the {len(result.errors)} events was accepted; see details.", result.errors)
        stored = self._store(viewer_token, result.session_id, result.to_store, now)
        duplicates = len(result.accepted) - stored
        return result.status, result.summary(duplicates)

    def _store(self, viewer_token: str, session_id: str, events: list[tuple[int, dict]], now: datetime) -> int:
        received = int(now.timestamp() * 1000)
        rows = [(viewer_token, session_id, e["id"], e["key"],
                 json.dumps(e["payload"], separators=(",", ":"), sort_keys=True), e["timestamp"], received)
                for _, e in events]
        with self.db.transaction() as c:
            before = c.total_changes
            c.executemany(INSERT, rows)
            return c.total_changes - before

    def count(self, viewer_token: str | None = None) -> int:
        if viewer_token is None:
            return self.db.one("SELECT count(*) AS n FROM events")["n"]
        return self.db.one("SELECT count(*) AS n FROM events WHERE viewer_token = ?", (viewer_token,))["n"]

    def export(self, viewer_token: str | None, since: str | None, until: str | None, fmt: str,
               unknown: list[str] | None = None) -> tuple[str, str]:
        """The stored events as JSON lines or CSV, by viewer and time range [since, until)."""
        problems = [opts.Problem(k, "unknown_parameter", "is not a filter; use viewerToken, since, until, format")
                    for k in unknown or []]
        if fmt not in ("jsonl", "csv"):
            problems.append(opts.Problem("format", "not_allowed", f"must be jsonl or csv; got {fmt!r}"))
        if problems:
            raise ServiceError.invalid(problems, "query")
        where, params = [], []
        if viewer_token:
            where.append("viewer_token = ?")
            params.append(viewer_token)
        lo, hi = parse_time("since", since), parse_time("until", until)
        if lo is not None:
            where.append("ts >= ?")
            params.append(lo)
        if hi is not None:
            where.append("ts < ?")
            params.append(hi)
        sql = ("SELECT viewer_token, session_id, event_id, key, payload, ts, received_at FROM events"
               + (" WHERE " + " AND ".join(where) if where else "") + " ORDER BY ts, seq")
        rows = self.db.all(sql, params)
        if fmt == "csv":
            buf = io.StringIO()
            w = csv.writer(buf, lineterminator="\n")
            w.writerow(EXPORT_COLUMNS)
            for r in rows:
                w.writerow((r[0], r[1], r[2] or "", r[3], iso_ms(r[5]), r[4], iso_ms(r[6])))
            return buf.getvalue(), "text/csv; charset=utf-8"
        lines = [json.dumps({"viewerToken": r[0], "sessionId": r[1], "id": r[2], "key": r[3], "timestamp": iso_ms(r[5]),
                             "payload": json.loads(r[4]), "receivedAt": iso_ms(r[6])}, separators=(",", ":"))
                 for r in rows]
        return "\n".join(lines) + ("\n" if lines else ""), "application/x-ndjson"
