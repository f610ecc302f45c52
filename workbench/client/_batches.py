"""The batch sender: any number of tracking events, checked, given ids, batched and sent concurrently.

It belongs to the client and reads the rules (batch size, body limit, event checks) from the
tracking catalog, the same definition the service checks with; the catalog knows nothing of it.

``client.tracking.send(viewer_token, events, session_id=...)`` (sync) and
``await client.tracking.send(...)`` (async) both land here. Steps:

1. Turn the input (a list of dicts or a DataFrame) into event dicts, grouped by session.
2. Pre-check every event with the service's own catalog; an invalid event is
   reported and not sent.
3. Give each event without an ``id`` a deterministic one (a hash of viewer,
   session, position and content), so a retry, or sending the same list again,
   stores nothing twice.
4. Split each session's events into batches of at most ``catalog.MAX_EVENTS`` (100)
   and under the service's body limit (``catalog.MAX_BODY_BYTES``).
5. Send the batches with at most ``concurrency`` in flight; the client retries
   transport failures, 429 and 5xx with backoff (safe: every event has an id).
   A fatal answer (401, 403, 404: a wrong token or viewer fails every batch the same way) or
   no answer at all after the retries stops the run: no further batch is sent, and the ones
   not sent are reported as ``not_sent``.
6. Join the per-event answers back to the events they came from, in a SendReport. A run that
   stopped raises the error that stopped it, with the report of what was sent, accepted and
   not sent as its ``report`` attribute; any other failure is in the report.

>>> import httpx, workbench
>>> sent = []
>>> def service(request):
...     sent.append(request.read())
...     return httpx.Response(200, json={"status": "ok", "data": {"accepted": 1, "rejected": 0, "duplicates": 0, "errors": []}})
>>> c = workbench.Client("http://h/api", "http://h/avatars", transport=httpx.MockTransport(service))
>>> c.tracking.send("vw", [{"key": "heartbeat", "payload": {"visible": True}, "timestamp": 1790000000000, "id": "e1"}],
...                 session_id="s1", progress=False)
SendReport(events=1, batches=1, accepted=1, duplicates=0, rejected=0, failed=0)
>>> sent[0]
b'{"sessionId":"s1","events":[{"key":"heartbeat","payload":{"visible":true},"timestamp":1790000000000,"id":"e1"}]}'
"""

from __future__ import annotations

import asyncio
import hashlib
import json
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, Protocol

import msgspec
import pandas as pd

from workbench import options as opts
from workbench.client import _base as B
from workbench.client.errors import (
    BadRequestError,
    ForbiddenError,
    NotFoundError,
    OptionError,
    TransportError,
    UnauthorizedError,
    WorkbenchError,
)
from workbench.tracking import catalog

if TYPE_CHECKING:
    from tqdm.auto import tqdm

    from workbench.client import results as R

Batch = tuple[str, list[int], bytes]   # (sessionId, positions, request body)


class _Sender(Protocol):
    """What the senders use of a Client or AsyncClient (named so, not imported: they import this module)."""

    config: B.ClientConfig

    def _send(self, req: B.Request) -> Any: ...

MAX_EVENTS = catalog.MAX_EVENTS
MAX_BODY_BYTES = catalog.MAX_BODY_BYTES
_EVENT_FIELDS = catalog.EVENT_FIELDS


# --------------------------------------------------------------------------
# 1. input to events
# --------------------------------------------------------------------------

def _to_ms(value: Any) -> Any:
    """A pandas or datetime time as integer epoch milliseconds UTC (a naive time is taken as UTC)."""
    if isinstance(value, datetime):  # pd.Timestamp is one too
        ts = pd.Timestamp(value)
        ts = ts if ts.tzinfo else ts.tz_localize("UTC")
        return int(ts.value // 1_000_000)
    return value


def _iso_ms(ms: int) -> str:
    """Epoch milliseconds as ISO 8601 UTC with milliseconds, the form DataFrame times were sent in before
    they went as integers (ids are hashed over it, so they stay the same)."""
    return str(pd.Timestamp(ms, unit="ms", tz="UTC").strftime("%Y-%m-%dT%H:%M:%S.%f"))[:-3] + "Z"


def _frame_columns(df: pd.DataFrame) -> tuple[dict[str, list[Any]], dict[str, list[int]], list[bool] | None]:
    """The event columns of a DataFrame as lists (times in the timestamp column as epoch milliseconds,
    in any other as ISO text), per column the rows where it is missing (None, NaN, NaT), and per row
    whether its timestamp was converted from a time (None when none was)."""
    out, where, converted = {}, {}, None
    for c in [c for c in df.columns if c in _EVENT_FIELDS or c == "sessionId"]:
        col = df[c]
        missing = col.isna().to_numpy()
        if pd.api.types.is_datetime64_any_dtype(col):
            # Whole-column conversion: per-value strftime was a third of the planning time.
            utc = col.dt.tz_convert("UTC") if col.dt.tz is not None else col
            values = (utc.to_numpy(dtype="datetime64[ns]").astype("int64") // 1_000_000).tolist()
            if c == "timestamp":
                converted = [True] * len(values)
            else:
                values = [_iso_ms(v) for v in values]
        else:
            values = col.astype(object).tolist() if isinstance(col.dtype, pd.CategoricalDtype) else col.tolist()
            if col.dtype == object and any(isinstance(v, datetime) for v in values):
                if c == "timestamp":
                    converted = [isinstance(v, datetime) for v in values]
                    values = [_to_ms(v) for v in values]
                else:
                    values = [_iso_ms(_to_ms(v)) if isinstance(v, datetime) else v for v in values]
        if missing.any():
            where[c] = missing.nonzero()[0].tolist()
        out[c] = values
    return out, where, converted


def to_event_rows(events: Any, session_id: str | None) -> tuple[list[str], list[Any], list[bool] | None]:
    """Session ids and event dicts in input order, and per event whether its timestamp was converted
    from a DataFrame time (None when none was)."""
    converted = None
    if isinstance(events, pd.DataFrame):
        cols, missing, converted = _frame_columns(events)
        names = [c for c in cols if c != "sessionId"]
        sids = cols.get("sessionId", [None] * len(events))
        records = [dict(zip(names, row, strict=True)) for row in zip(*(cols[c] for c in names), strict=True)] if names else [{} for _ in range(len(events))]
        for c in names:
            if c in missing:
                for i in missing[c]:
                    del records[i][c]
        if session_id or "sessionId" not in cols:
            sids = [session_id] * len(events)
        else:
            gone = set(missing.get("sessionId", ()))
            sids = [None if i in gone else s for i, s in enumerate(sids)] if gone else sids
    elif isinstance(events, (list, tuple)):
        records, sids = [], []
        for e in events:
            sid = session_id
            if isinstance(e, dict) and "sessionId" in e:
                e = dict(e)
                sid = session_id or e.pop("sessionId")
            records.append(e)
            sids.append(sid)
    else:
        raise OptionError("tracking.send", [opts.Problem("events", "wrong_type", "must be a list of event dicts or a DataFrame")])
    for i, sid in enumerate(sids):
        if not sid:
            raise OptionError("tracking.send", [opts.Problem("session_id", "required",
                                                             f"event {i} has no session: pass session_id= or a sessionId column")])
    return [s if type(s) is str else str(s) for s in sids], records, converted


# --------------------------------------------------------------------------
# 3. ids
# --------------------------------------------------------------------------



def event_id(viewer_token: str, session_id: str, position: int, event: dict[str, Any]) -> str:
    """A stable id: the same event at the same place of the same list always gets the same one.

    >>> event_id("vw", "s", 0, {"key": "heartbeat"}) == event_id("vw", "s", 0, {"key": "heartbeat"})
    True
    """
    canon = catalog.canonical_json(event)  # json.dumps(event, sort_keys=True, separators=(",", ":"), default=str)
    return "wb-" + hashlib.sha256(f"{viewer_token}|{session_id}|{position}|{canon}".encode()).hexdigest()[:32]


# --------------------------------------------------------------------------
# 4. batches
# --------------------------------------------------------------------------

def _encode(value: Any) -> bytes:
    """JSON text as msgspec writes it (compact UTF-8), or as httpx would (json.dumps) where msgspec refuses."""
    try:
        return msgspec.json.encode(value)
    except (TypeError, ValueError, OverflowError, msgspec.MsgspecError):
        return json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False).encode("utf-8")


def batch_body(session_id: str, events: list[Any]) -> bytes:
    """The request body of a batch: ``{"sessionId": ..., "events": [...]}`` as JSON text.

    >>> batch_body("s1", [{"key": "heartbeat"}])
    b'{"sessionId":"s1","events":[{"key":"heartbeat"}]}'
    """
    return _encode({"sessionId": session_id, "events": events})


def split_batches(texts: list[bytes], max_events: int = MAX_EVENTS, max_bytes: int = MAX_BODY_BYTES,
                  envelope: int = 32) -> list[tuple[int, int]]:
    """[start, end) ranges of at most ``max_events`` events whose body (``envelope`` bytes plus the
    texts and their commas) stays within ``max_bytes``: the sizes are those of the bytes sent.

    >>> split_batches([b'{"key":"heartbeat"}'] * 250, max_events=100, max_bytes=10_000)
    [(0, 100), (100, 200), (200, 250)]
    """
    ranges, start, size = [], 0, envelope
    for i, text in enumerate(texts):
        n = len(text) + 1
        if i > start and (i - start >= max_events or size + n > max_bytes):
            ranges.append((start, i))
            start, size = i, envelope
        size += n
    if start < len(texts):
        ranges.append((start, len(texts)))
    return ranges


# --------------------------------------------------------------------------
# the report
# --------------------------------------------------------------------------

HELD = ("accepted", "duplicate")  # the statuses of events the service holds


def _count(*statuses: str, doc: str | None = None) -> property:
    """A report's property: how many of its events ended with one of ``statuses``."""
    return property(lambda report: int(report.events["status"].isin(statuses).sum()), doc=doc)


@dataclass
class SendReport:
    """What happened to every event.

    ``events``: one row per input event (position, sessionId, key, id, status: accepted,
    duplicate, rejected, failed or not_sent; code, message, field, stage: client or service).
    ``errors``: the rows that were not accepted. ``seconds``: the whole run;
    ``plan_seconds``: its first part without I/O (steps 1 to 4: pre-checks, ids, batches);
    ``send_seconds``: the rest (sending and joining the answers).
    """

    events: pd.DataFrame
    batches: int
    seconds: float = 0.0
    failures: list[Exception] = field(default_factory=list)
    plan_seconds: float = 0.0

    @property
    def send_seconds(self) -> float:
        return self.seconds - self.plan_seconds

    # How many events ended each way (the summary's columns).
    accepted = _count(*HELD, doc="Events the service holds: stored now, or before (duplicates).")
    duplicates = _count("duplicate")
    rejected = _count("rejected")
    failed = _count("failed")
    not_sent = _count("not_sent", doc="Events never sent because the run stopped at a fatal answer (see the "
                                      "module notes).")

    @property
    def errors(self) -> pd.DataFrame:
        return self.events[~self.events["status"].isin(HELD)].reset_index(drop=True)

    def summary(self) -> pd.DataFrame:
        row = {"events": len(self.events), "batches": self.batches, "accepted": self.accepted,
               "duplicates": self.duplicates, "rejected": self.rejected, "failed": self.failed}
        if self.not_sent:
            row["not_sent"] = self.not_sent
        return pd.DataFrame([row])

    def _repr_html_(self) -> str:
        return str(self.summary().to_html(index=False))

    def __repr__(self) -> str:
        return (f"SendReport(events={len(self.events)}, batches={self.batches}, accepted={self.accepted}, "
                f"duplicates={self.duplicates}, rejected={self.rejected}, failed={self.failed}"
                + (f", not_sent={self.not_sent})" if self.not_sent else ")"))


_COLUMNS = ("position", "sessionId", "key", "id", "status", "code", "message", "field", "stage")


@dataclass
class _Plan:
    columns: dict[str, list[Any]]  # the report's columns, one entry per input event
    batches: list[Batch]


def plan(viewer_token: str, events: Any, session_id: str | None, check: bool, now: datetime | None = None) -> _Plan:
    """Steps 1 to 4: events, checks, ids and batches, without any I/O."""
    now = now or datetime.now(UTC)
    sids, records, converted = to_event_rows(events, session_id)
    n = len(records)
    keys = [e.get("key") if isinstance(e, dict) else None for e in records]
    ids = [e.get("id") if isinstance(e, dict) else None for e in records]
    bodies = list(records)
    # With checks on, a present but invalid id is reported, not replaced.
    for pos in [i for i, eid in enumerate(ids) if (eid is None if check else not eid)]:
        e = records[pos]
        if not isinstance(e, dict):
            continue
        hashed = e
        if converted is not None and converted[pos] and "timestamp" in e:
            hashed = {**e, "timestamp": _iso_ms(e["timestamp"])}
        ids[pos] = event_id(viewer_token, sids[pos], pos, hashed)
        bodies[pos] = {**e, "id": ids[pos]}
    cols: dict[str, list[Any]] = {"position": list(range(n)), "sessionId": sids, "key": keys, "id": ids, "status": ["pending"] * n,
            "code": [None] * n, "message": [None] * n, "field": [None] * n, "stage": [None] * n}
    by_session: dict[str, list[int]] = {}
    errors = catalog.check_events(bodies, now=now) if check else [None] * n
    for pos, err in enumerate(errors):
        if err is not None:
            _mark(cols, pos, "rejected", "client", err["code"], err["message"], err["field"])
            ids[pos] = None  # a rejected event was given no id
            continue
        by_session.setdefault(sids[pos], []).append(pos)
    batches: list[Batch] = []
    for sid, positions in by_session.items():
        for a in range(0, len(positions), MAX_EVENTS):
            group = positions[a:a + MAX_EVENTS]
            body = batch_body(sid, [bodies[p] for p in group])
            if len(body) <= MAX_BODY_BYTES:
                batches.append((sid, group, body))
                continue
            # Large events: split by the size of each event's own text.
            texts = [_encode(bodies[p]) for p in group]
            for i, j in split_batches(texts, envelope=len(batch_body(sid, []))):
                batches.append((sid, group[i:j], batch_body(sid, [bodies[p] for p in group[i:j]])))
    return _Plan(cols, batches)


def _mark(cols: dict[str, list[Any]], pos: int, status: str, stage: str | None = None, code: Any = None,
          message: Any = None, fld: Any = None) -> None:
    cols["status"][pos], cols["stage"][pos] = status, stage
    cols["code"][pos], cols["message"][pos], cols["field"][pos] = code, message, fld


def _apply(p: _Plan, positions: list[int], answer: R.BatchResult | Exception) -> None:
    """Step 6 for one batch: mark its events from the answer (or the failure)."""
    cols = p.columns
    if isinstance(answer, Exception):
        error = answer
        details = getattr(error, "details", None) or []
        if isinstance(error, BadRequestError) and error.code == "all_events_invalid":
            for d in details:
                _mark(cols, positions[d["index"]], "rejected", "service", d.get("code"), d.get("message"), d.get("field"))
            return
        for pos in positions:
            _mark(cols, pos, "failed", "service", getattr(error, "code", type(error).__name__), str(error))
        return
    result = answer
    status = cols["status"]
    for pos in positions:
        status[pos] = "accepted"
    for d in result.error_list:
        _mark(cols, positions[d["index"]], "rejected", "service", d.get("code"), d.get("message"), d.get("field"))
    # The service counts duplicates but does not say which; ids repeated within this run are marked here.
    if result.duplicates:
        _mark_duplicates(p, positions, result.duplicates)


def _mark_duplicates(p: _Plan, positions: list[int], n: int) -> None:
    status, ids = p.columns["status"], p.columns["id"]
    marked = 0
    seen: set[Any] = set()
    for pos in positions:
        rid = ids[pos]
        if status[pos] == "accepted" and rid in seen and marked < n:
            status[pos] = "duplicate"
            marked += 1
        seen.add(rid)
    for pos in positions:  # the rest were stored by an earlier request
        if marked >= n:
            break
        if status[pos] == "accepted":
            status[pos] = "duplicate"
            marked += 1


def _report(p: _Plan, seconds: float, failures: list[Exception], plan_seconds: float) -> SendReport:
    df = pd.DataFrame({c: p.columns[c] for c in _COLUMNS}, columns=list(_COLUMNS))
    return SendReport(df, len(p.batches), seconds, failures, plan_seconds)


def _progress(total: int, progress: bool | None) -> tqdm | None:
    if progress is False or (progress is None and total < 20):
        return None
    from tqdm.auto import tqdm

    return tqdm(total=total, unit="batch", desc="sending", leave=False)


def _fatal(e: Exception) -> bool:
    # A wrong viewer or token fails every batch the same way, and no answer after the client's retries
    # means the service is out of reach: stop at once rather than send the rest into the same wall.
    return isinstance(e, (NotFoundError, UnauthorizedError, ForbiddenError, TransportError))


class _Run:
    """One sending run: the plan, the progress bar, the failures; shared by the sync and async senders."""

    def __init__(self, viewer_token: str, events: Any, session_id: str | None, check: bool, progress: bool | None):
        import time

        self._started = time.perf_counter()
        self.plan = plan(viewer_token, events, session_id, check)
        self._planned = time.perf_counter()
        self.bar = _progress(len(self.plan.batches), progress)
        self.failures: list[Exception] = []
        self.stopped_by: Exception | None = None  # the first fatal error; no batch is sent after it

    def may_send(self, positions: list[int]) -> bool:
        """False once the run stopped; the batch's events are then reported ``not_sent``."""
        if self.stopped_by is None:
            return True
        for pos in positions:
            _mark(self.plan.columns, pos, "not_sent", "client", "not_sent",
                  f"not sent: the run stopped at {type(self.stopped_by).__name__}")
        return False

    def answered(self, error: Exception | None) -> None:
        """Called by the sender as soon as an answer (or none) is in, before the next batch can start."""
        if error is not None and _fatal(error) and self.stopped_by is None:
            self.stopped_by = error

    def request(self, client: _Sender, viewer_token: str, positions: list[int], body: bytes) -> B.Request:
        ids = self.plan.columns["id"]
        safe = all(type(ids[p]) is str and ids[p] for p in positions)
        return B.build_tracking_batch_body(client.config, viewer_token, body, safe=safe)

    def settle(self, positions: list[int], result: R.BatchResult | None, error: Exception | None) -> None:
        """Step 6 for one answered batch (``result`` and ``error`` both None: it was not sent)."""
        if error is not None:
            self.failures.append(error)
            _apply(self.plan, positions, error)
        elif result is not None:
            _apply(self.plan, positions, result)
        if self.bar is not None:
            self.bar.update(1)

    def report(self) -> SendReport:
        """The report; when a fatal error stopped the run, that error is raised with it as ``report``."""
        import time

        if self.bar is not None:
            self.bar.close()
        report = _report(self.plan, time.perf_counter() - self._started, self.failures, self._planned - self._started)
        if self.stopped_by is not None:
            setattr(self.stopped_by, "report", report)  # noqa: B010 - only the error that stopped a run has one
            raise self.stopped_by
        return report


def send_events(client: _Sender, viewer_token: str, events: Any, *, session_id: str | None = None, concurrency: int = 4,
                check: bool = True, progress: bool | None = None) -> SendReport:
    """Send any number of events through a sync Client; returns a SendReport (see the module notes)."""
    run = _Run(viewer_token, events, session_id, check, progress)

    def one(batch: Batch) -> tuple[list[int], R.BatchResult | None, WorkbenchError | None]:
        _, positions, body = batch
        if not run.may_send(positions):
            return positions, None, None
        try:
            result, error = client._send(run.request(client, viewer_token, positions, body)), None
        except WorkbenchError as e:
            result, error = None, e
        run.answered(error)
        return positions, result, error

    with ThreadPoolExecutor(max_workers=max(1, concurrency)) as pool:
        for positions, result, error in pool.map(one, run.plan.batches):
            run.settle(positions, result, error)
    return run.report()


async def asend_events(client: _Sender, viewer_token: str, events: Any, *, session_id: str | None = None, concurrency: int = 4,
                       check: bool = True, progress: bool | None = None) -> SendReport:
    """The same as :func:`send_events` through an AsyncClient."""
    run = _Run(viewer_token, events, session_id, check, progress)
    gate = asyncio.Semaphore(max(1, concurrency))

    async def one(batch: Batch) -> None:
        _, positions, body = batch
        async with gate:
            if not run.may_send(positions):
                result, error = None, None
            else:
                try:
                    result, error = await client._send(run.request(client, viewer_token, positions, body)), None
                except WorkbenchError as e:
                    result, error = None, e
                run.answered(error)
        run.settle(positions, result, error)

    await asyncio.gather(*(one(b) for b in run.plan.batches))
    return run.report()
