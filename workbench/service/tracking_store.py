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
import re
import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from workbench import options as opts
from workbench.service.bodies import check_nesting, decode_json
from workbench.service.db import Database
from workbench.service.errors import ServiceError
from workbench.service.lazy import importing
from workbench.tracking import catalog

INSERT = ("INSERT OR IGNORE INTO events (viewer_token, session_id, event_id, key, payload, ts, received_at) "
          "VALUES (?, ?, ?, ?, ?, ?, ?)")
_ROW = "(?, ?, ?, ?, ?, ?, ?)"
EXPORT_COLUMNS = ("viewerToken", "sessionId", "id", "key", "timestamp", "payload", "receivedAt")
EXPORT_FORMATS = ("jsonl", "csv", "parquet")
EXPORT_PAGE_ROWS = 20_000
PARQUET_MEDIA_TYPE = "application/vnd.apache.parquet"

def _payload_text(payload: dict) -> str:
    """``json.dumps(payload, separators=(",", ":"), sort_keys=True)``, made fast by msgspec
    (:func:`workbench.tracking.catalog.canonical_json`: json.dumps was a fifth of the service's time
    per batch, bench/ingest.py).

    >>> _payload_text({"b": 1.5, "a": "é"}) == json.dumps({"b": 1.5, "a": "é"}, separators=(",", ":"), sort_keys=True)
    True
    """
    return catalog.canonical_json(payload, default_str=False, decoded=True)  # payloads come from the JSON reader


def iso_ms(ms: int) -> str:
    return datetime.fromtimestamp(ms / 1000, tz=UTC).strftime("%Y-%m-%dT%H:%M:%S.") + f"{ms % 1000:03d}Z"


def parse_time(name: str, value: str | None) -> int | None:
    """Epoch milliseconds from an ISO 8601 time with a zone or an integer of epoch ms."""
    if value is None:
        return None
    v = value.strip()
    if re.fullmatch(r"-?[0-9]{1,18}", v):  # epoch ms; longer digit runs are no time and would not convert
        return int(v)
    try:
        dt = datetime.fromisoformat(v.replace("Z", "+00:00"))
    except ValueError:
        dt = None
    if dt is None or dt.tzinfo is None:
        raise ServiceError.invalid([opts.Problem(name, "invalid_time", "must be ISO 8601 with a zone, or epoch milliseconds")], "query")
    return int(dt.timestamp() * 1000)


@dataclass(frozen=True)
class Checked:
    """A batch's verdict, made when it arrived and stored later with the batches that wait with it:
    the time it was received (the default timestamp of its events), and the catalog's check or
    the ServiceError that refuses it."""

    received: datetime
    result: catalog.BatchCheck | None = None
    error: ServiceError | None = None


class TrackingStore:
    """Tracking events in ``db``."""

    def __init__(self, db: Database):
        self.db = db

    def ingest(self, viewer_token: str, body: Any) -> tuple[int, dict]:
        """(status, data) for a batch body (decoded, or JSON bytes); raises ServiceError for a request-level fault."""
        now = datetime.now(UTC)
        result = self.check(body, now)
        return self.store_many([(viewer_token, result, now)])[0]

    def precheck(self, body: Any) -> Checked:
        """The catalog's verdict on a batch body received now, refusals included; no I/O.

        >>> from workbench.service.db import Database
        >>> import pathlib, tempfile
        >>> store = TrackingStore(Database(pathlib.Path(tempfile.mkdtemp()) / "t.db"))
        >>> store.precheck(b'{"sessionId": "s", "events": [{"key": "nope"}]}').error.code
        'all_events_invalid'
        >>> store.precheck(b'{"sessionId": "s", "events": [{"key": "heartbeat", "payload": {"visible": true}}]}').result.status
        200
        """
        now = datetime.now(UTC)
        try:
            return Checked(now, self.check(body, now))
        except ServiceError as e:
            return Checked(now, error=e)

    def check(self, body: Any, now: datetime) -> catalog.BatchCheck:
        """The catalog's verdict on a batch body; ServiceError for a request-level fault or when no event is valid."""
        try:
            if isinstance(body, (bytes, bytearray)):
                check_nesting(bytes(body))  # before any decoder, msgspec's fast path included
                result = catalog.check_batch_json(bytes(body), now=now, decode=decode_json)
            else:
                result = catalog.check_batch(body, now=now)
        except catalog.BatchRejected as e:
            raise ServiceError(e.status, e.code, e.message,
                               [{"field": e.field, "code": e.code, "message": e.message}]) from None
        if not result.accepted:
            raise ServiceError(400, "all_events_invalid",
                               f"None of the {len(result.errors)} events was accepted; see details.", result.errors)
        return result

    def store_many(self, batches: list[tuple[str, catalog.BatchCheck, datetime]]) -> list[tuple[int, dict]]:
        """Store checked batches ``(viewer token, check, time received)`` in one transaction; (status, data) for each.

        Committing the batches that wait together writes each touched page of the indexes once
        for all of them; every answer is built after the commit, so what it reports is durable.
        """
        stored = []
        with self.db.transaction() as c:
            for viewer_token, result, now in batches:
                events = result.to_store
                received, sid = int(now.timestamp() * 1000), result.session_id
                params = [v for _, e in events for v in (viewer_token, sid, e["id"], e["key"], _payload_text(e["payload"]),
                                                          e["timestamp"], received)]
                # One statement of all the batch's rows (at most catalog.MAX_EVENTS x 7 parameters, far under
                # SQLite's limit) took a third less of SQLite's time than executemany, row by row.
                before = c.total_changes
                if events:
                    c.execute(INSERT + (", " + _ROW) * (len(events) - 1), params)
                stored.append(c.total_changes - before)
        return [(result.status, result.summary(len(result.accepted) - n)) for (_, result, _), n in zip(batches, stored, strict=True)]

    def count(self, viewer_token: str | None = None) -> int:
        if viewer_token is None:
            return self.db.count("SELECT count(*) FROM events")
        return self.db.count("SELECT count(*) FROM events WHERE viewer_token = ?", (viewer_token,))

    def export(self, viewer_token: str | None, since: str | None, until: str | None, fmt: str,
               unknown: list[str] | None = None) -> tuple[str, str]:
        """The stored events as one text (JSON lines or CSV): :meth:`export_stream` joined, for small exports."""
        if fmt == "parquet":
            raise ServiceError.invalid([opts.Problem("format", "not_allowed", "parquet is binary; use export_stream")],
                                       "query")
        chunks, media = self.export_stream(viewer_token, since, until, fmt, unknown)
        return b"".join(chunks).decode("utf-8"), media

    def export_stream(self, viewer_token: str | None, since: str | None, until: str | None, fmt: str,
                      unknown: list[str] | None = None) -> tuple[Iterator[bytes], str]:
        """The stored events by viewer and time range [since, until), as chunks of bytes and a media type.

        ``fmt``: ``jsonl``, ``csv`` or ``parquet`` (one Parquet file in the event lake's
        schema, :mod:`workbench.tracking.schema`). Filters are checked now (a bad one
        raises before anything is sent); the rows are read later, a page at a time, from
        a read-only connection of their own, so memory stays bounded at any size and
        ingest goes on meanwhile (WAL readers do not block the writer).
        """
        problems = [opts.Problem(k, "unknown_parameter", "is not a filter; use viewerToken, since, until, format")
                    for k in unknown or []]
        if fmt not in EXPORT_FORMATS:
            problems.append(opts.Problem("format", "not_allowed", f"must be jsonl, csv or parquet; got {fmt!r}"))
        if problems:
            raise ServiceError.invalid(problems, "query")
        where: list[str] = []
        params: list[str | int] = []
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
        pages = self._pages(sql, params)
        if fmt == "csv":
            return _csv_chunks(pages), "text/csv; charset=utf-8"
        if fmt == "parquet":
            return _parquet_chunks(pages), PARQUET_MEDIA_TYPE
        return _jsonl_chunks(pages), "application/x-ndjson"

    def _pages(self, sql: str, params: list) -> Iterator[list[tuple]]:
        # check_same_thread off: a streamed answer is iterated from the server's thread pool
        conn = sqlite3.connect(self.db.path.resolve().as_uri() + "?mode=ro", uri=True, check_same_thread=False)
        try:
            cur = conn.execute(sql, params)
            while True:
                rows = cur.fetchmany(EXPORT_PAGE_ROWS)
                if not rows:
                    return
                yield rows
        finally:
            conn.close()


def _csv_chunks(pages: Iterator[list[tuple]]) -> Iterator[bytes]:
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(EXPORT_COLUMNS)
    for rows in pages:
        for r in rows:
            w.writerow((r[0], r[1], r[2] or "", r[3], iso_ms(r[5]), r[4], iso_ms(r[6])))
        yield buf.getvalue().encode("utf-8")
        buf.seek(0)
        buf.truncate()
    if buf.tell():
        yield buf.getvalue().encode("utf-8")


def _jsonl_chunks(pages: Iterator[list[tuple]]) -> Iterator[bytes]:
    for rows in pages:
        yield "".join(json.dumps({"viewerToken": r[0], "sessionId": r[1], "id": r[2], "key": r[3],
                                  "timestamp": iso_ms(r[5]), "payload": json.loads(r[4]),
                                  "receivedAt": iso_ms(r[6])}, separators=(",", ":")) + "\n"
                      for r in rows).encode("utf-8")


class _Sink:
    """A write-only file for pyarrow that hands over what was written since the last take()."""

    closed = False

    def __init__(self):
        self.parts: list[bytes] = []

    def write(self, data) -> int:
        self.parts.append(bytes(data))
        return len(data)

    def flush(self) -> None:
        pass

    def close(self) -> None:
        self.closed = True

    def take(self) -> bytes:
        out = b"".join(self.parts)
        self.parts.clear()
        return out


UNFIT_LISTED = 20  # unfit values named in the export's footer (all are counted)


def _parquet_chunks(pages: Iterator[list[tuple]]) -> Iterator[bytes]:
    """One Parquet file, a row group per page: the footer comes last, so it can be sent as it is written.

    A value stored before a rule was tightened (an integer of 400 digits in a number field) may not
    fit its column: it is left empty there and listed in the footer's ``lake.UNFIT_METADATA_KEY``
    (``workbench export`` prints the list), so one old event never breaks every later export; the JSON
    lines export still carries it as stored.
    """
    with importing():
        import pyarrow as pa
        import pyarrow.parquet as pq

        from workbench.tracking.lake import UNFIT_METADATA_KEY
        from workbench.tracking.schema import SCHEMA, from_records

    sink = _Sink()
    writer = pq.ParquetWriter(pa.PythonFile(sink, mode="w"), SCHEMA, compression="zstd")
    unfit: list[dict] = []
    row = 0
    for rows in pages:
        records = [{"viewerToken": r[0], "sessionId": r[1], "id": r[2], "key": r[3], "payload": r[4],
                    "timestamp": r[5], "receivedAt": r[6]} for r in rows]
        try:
            table = from_records(records)
        except (pa.ArrowException, OverflowError, ValueError, TypeError):
            table = from_records(_fitted(records, row, unfit))  # the rare page with an old value: row by row
        writer.write_table(table)
        row += len(rows)
        yield sink.take()
    if unfit:
        writer.add_key_value_metadata({UNFIT_METADATA_KEY: json.dumps(
            {"count": len(unfit), "values": unfit[:UNFIT_LISTED]}, separators=(",", ":"))})
    writer.close()
    yield sink.take()


def _fitted(records: list[dict], first_row: int, unfit: list[dict]) -> list[dict]:
    """``records`` with every catalog payload value that its lake column cannot hold taken out, each noted in ``unfit``."""
    with importing():
        import pyarrow as pa

        from workbench.tracking.schema import PAYLOAD_FIELDS

    out = []
    for n, rec in enumerate(records):
        payload = json.loads(rec["payload"])
        for name, arrow_type in PAYLOAD_FIELDS.items():
            if name not in payload:
                continue
            value = payload[name]
            try:
                pa.array([float(value) if type(value) is int else value]).cast(arrow_type)
            except (pa.ArrowException, OverflowError, ValueError, TypeError) as e:
                problem = (f"{type(value).__name__} does not fit {arrow_type}" if not isinstance(e, OverflowError)
                           else f"a number past the range of {arrow_type}")
                unfit.append({"row": first_row + n, "id": rec["id"], "key": rec["key"], "field": f"payload.{name}",
                              "problem": problem})
                del payload[name]
        out.append({**rec, "payload": payload})
    return out
