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
6. Join the per-event answers back to the events they came from, in a SendReport.

>>> split_batches([{"key": "heartbeat"}] * 250, max_events=100, max_bytes=10_000)
[(0, 100), (100, 200), (200, 250)]
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import math
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any

import pandas as pd

from workbench import options as opts
from workbench.client.errors import APIError, BadRequestError, NotFoundError, OptionError, UnauthorizedError
from workbench.tracking import catalog

MAX_EVENTS = catalog.MAX_EVENTS
# Under the service's limit, with room for the envelope and sessionId (up to 6 bytes a character escaped).
MAX_BODY_BYTES = catalog.MAX_BODY_BYTES - 64 - 6 * catalog.MAX_SESSION_ID_CHARS
_EVENT_FIELDS = catalog.EVENT_FIELDS


# --------------------------------------------------------------------------
# 1. input to events
# --------------------------------------------------------------------------

def _clean(value: Any) -> Any:
    if isinstance(value, pd.Timestamp):
        ts = value if value.tzinfo else value.tz_localize("UTC")
        return ts.tz_convert("UTC").strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"
    if isinstance(value, datetime):
        return _clean(pd.Timestamp(value))
    return value


def _is_missing(value: Any) -> bool:
    if value is None:
        return True
    if isinstance(value, float) and math.isnan(value):
        return True
    return value is pd.NaT


def to_event_rows(events: Any, session_id: str | None) -> list[tuple[str, dict]]:
    """(sessionId, event dict) pairs from a list of dicts or a DataFrame, in input order."""
    if isinstance(events, pd.DataFrame):
        cols = [c for c in events.columns if c in _EVENT_FIELDS or c == "sessionId"]
        records = []
        for row in events[cols].itertuples(index=False, name=None):
            records.append({c: _clean(v) for c, v in zip(cols, row) if not _is_missing(v)})
    elif isinstance(events, (list, tuple)):
        records = list(events)
    else:
        raise OptionError("tracking.send", [opts.Problem("events", "wrong_type", "must be a list of event dicts or a DataFrame")])
    out = []
    for i, e in enumerate(records):
        sid = session_id
        if isinstance(e, dict) and "sessionId" in e:
            e = dict(e)
            sid = session_id or e.pop("sessionId")
        if not sid:
            raise OptionError("tracking.send", [opts.Problem("session_id", "required",
                                                             f"event {i} has no session: pass session_id= or a sessionId column")])
        out.append((str(sid), e))
    return out


# --------------------------------------------------------------------------
# 3. ids
# --------------------------------------------------------------------------

def event_id(viewer_token: str, session_id: str, position: int, event: dict) -> str:
    """A stable id: the same event at the same place of the same list always gets the same one."""
    canon = json.dumps(event, sort_keys=True, separators=(",", ":"), default=str)
    return "wb-" + hashlib.sha256(f"{viewer_token}|{session_id}|{position}|{canon}".encode()).hexdigest()[:32]


# --------------------------------------------------------------------------
# 4. batches
# --------------------------------------------------------------------------

def split_batches(events: list[dict], max_events: int = MAX_EVENTS, max_bytes: int = MAX_BODY_BYTES) -> list[tuple[int, int]]:
    """[start, end) ranges of at most ``max_events`` events whose JSON stays under ``max_bytes``."""
    ranges, start, size = [], 0, 64
    for i, e in enumerate(events):
        n = len(json.dumps(e, separators=(",", ":"), default=str)) + 1
        if i > start and (i - start >= max_events or size + n > max_bytes):
            ranges.append((start, i))
            start, size = i, 64
        size += n
    if start < len(events):
        ranges.append((start, len(events)))
    return ranges


# --------------------------------------------------------------------------
# the report
# --------------------------------------------------------------------------

@dataclass
class SendReport:
    """What happened to every event.

    ``events``: one row per input event (position, sessionId, key, id, status: accepted,
    duplicate, rejected or failed; code, message, field, stage: client or service).
    ``errors``: the rows that were not accepted.
    """

    events: pd.DataFrame
    batches: int
    seconds: float = 0.0
    failures: list = field(default_factory=list)

    @property
    def accepted(self) -> int:
        return int(self.events["status"].isin(["accepted", "duplicate"]).sum())

    @property
    def duplicates(self) -> int:
        return int((self.events["status"] == "duplicate").sum())

    @property
    def rejected(self) -> int:
        return int((self.events["status"] == "rejected").sum())

    @property
    def failed(self) -> int:
        return int((self.events["status"] == "failed").sum())

    @property
    def errors(self) -> pd.DataFrame:
        return self.events[~self.events["status"].isin(["accepted", "duplicate"])].reset_index(drop=True)

    def summary(self) -> pd.DataFrame:
        return pd.DataFrame([{"events": len(self.events), "batches": self.batches, "accepted": self.accepted,
                              "duplicates": self.duplicates, "rejected": self.rejected, "failed": self.failed}])

    def _repr_html_(self) -> str:
        return self.summary().to_html(index=False)

    def __repr__(self) -> str:
        return (f"SendReport(events={len(self.events)}, batches={self.batches}, accepted={self.accepted}, "
                f"duplicates={self.duplicates}, rejected={self.rejected}, failed={self.failed})")


@dataclass
class _Plan:
    rows: list[dict]                      # one per input event: position, sessionId, key, id, status...
    batches: list[tuple[str, list[int]]]  # (sessionId, positions)
    bodies: dict                          # position -> event dict as sent


def plan(viewer_token: str, events: Any, session_id: str | None, check: bool, now: datetime | None = None) -> _Plan:
    """Steps 1 to 4: events, checks, ids and batches, without any I/O."""
    now = now or datetime.now(timezone.utc)
    pairs = to_event_rows(events, session_id)
    rows: list[dict] = []
    by_session: dict[str, list[int]] = {}
    bodies: dict[int, dict] = {}
    for pos, (sid, e) in enumerate(pairs):
        row = {"position": pos, "sessionId": sid, "key": e.get("key") if isinstance(e, dict) else None,
               "id": None, "status": "pending", "code": None, "message": None, "field": None, "stage": None}
        rows.append(row)
        if check:
            _, err = catalog.check_event(e, now=now)
            if err is not None:
                row.update(status="rejected", stage="client", **err)
                continue
        body = dict(e) if isinstance(e, dict) else e
        if isinstance(body, dict) and not body.get("id"):
            body["id"] = event_id(viewer_token, sid, pos, e)
        row["id"] = body.get("id") if isinstance(body, dict) else None
        bodies[pos] = body
        by_session.setdefault(sid, []).append(pos)
    batches = []
    for sid, positions in by_session.items():
        for a, b in split_batches([bodies[p] for p in positions]):
            batches.append((sid, positions[a:b]))
    return _Plan(rows, batches, bodies)


def _apply(p: _Plan, positions: list[int], result=None, error: Exception | None = None) -> None:
    """Step 6 for one batch: mark its events from the answer (or the failure)."""
    if error is not None:
        details = getattr(error, "details", None) or []
        if isinstance(error, BadRequestError) and error.code == "all_events_invalid":
            for d in details:
                p.rows[positions[d["index"]]].update(status="rejected", stage="service", code=d.get("code"),
                                                     message=d.get("message"), field=d.get("field"))
            return
        for pos in positions:
            p.rows[pos].update(status="failed", stage="service", code=getattr(error, "code", type(error).__name__),
                               message=str(error))
        return
    for pos in positions:
        p.rows[pos]["status"] = "accepted"
    for d in result.error_list:
        p.rows[positions[d["index"]]].update(status="rejected", stage="service", code=d.get("code"),
                                             message=d.get("message"), field=d.get("field"))
    # The service counts duplicates but does not say which; ids repeated within this run are marked here.
    if result.duplicates:
        _mark_duplicates(p, positions, result.duplicates)


def _mark_duplicates(p: _Plan, positions: list[int], n: int) -> None:
    marked = 0
    seen: set = set()
    for pos in positions:
        rid = p.rows[pos]["id"]
        if p.rows[pos]["status"] == "accepted" and rid in seen and marked < n:
            p.rows[pos]["status"] = "duplicate"
            marked += 1
        seen.add(rid)
    for pos in positions:  # the rest were stored by an earlier request
        if marked >= n:
            break
        if p.rows[pos]["status"] == "accepted":
            p.rows[pos]["status"] = "duplicate"
            marked += 1


def _report(p: _Plan, seconds: float, failures: list) -> SendReport:
    df = pd.DataFrame(p.rows, columns=["position", "sessionId", "key", "id", "status", "code", "message", "field", "stage"])
    return SendReport(df, len(p.batches), seconds, failures)


def _progress(total: int, progress: bool | None):
    if progress is False or (progress is None and total < 20):
        return None
    from tqdm.auto import tqdm

    return tqdm(total=total, unit="batch", desc="sending", leave=False)


def _fatal(e: Exception) -> bool:
    # A wrong viewer or token fails every batch the same way: say so at once.
    return isinstance(e, (NotFoundError, UnauthorizedError))


class _Run:
    """One sending run: the plan, the progress bar, the failures; shared by the sync and async senders."""

    def __init__(self, viewer_token: str, events: Any, session_id: str | None, check: bool, progress: bool | None):
        import time

        self._started = time.perf_counter()
        self.plan = plan(viewer_token, events, session_id, check)
        self.bar = _progress(len(self.plan.batches), progress)
        self.failures: list = []

    def body(self, positions: list[int]) -> list[dict]:
        return [self.plan.bodies[i] for i in positions]

    def settle(self, positions: list[int], result, error: Exception | None) -> None:
        """Step 6 for one answered batch; a wrong viewer or token stops the whole run."""
        if error is not None and _fatal(error):
            raise error
        if error is not None:
            self.failures.append(error)
        _apply(self.plan, positions, result, error)
        if self.bar is not None:
            self.bar.update(1)

    def report(self) -> SendReport:
        import time

        if self.bar is not None:
            self.bar.close()
        return _report(self.plan, time.perf_counter() - self._started, self.failures)


def send_events(client, viewer_token: str, events: Any, *, session_id: str | None = None, concurrency: int = 4,
                check: bool = True, progress: bool | None = None) -> SendReport:
    """Send any number of events through a sync Client; returns a SendReport (see the module notes)."""
    run = _Run(viewer_token, events, session_id, check, progress)

    def one(batch):
        sid, positions = batch
        try:
            return positions, client.tracking.send_batch(viewer_token, sid, run.body(positions)), None
        except APIError as e:
            return positions, None, e

    with ThreadPoolExecutor(max_workers=max(1, concurrency)) as pool:
        for positions, result, error in pool.map(one, run.plan.batches):
            run.settle(positions, result, error)
    return run.report()


async def asend_events(client, viewer_token: str, events: Any, *, session_id: str | None = None, concurrency: int = 4,
                       check: bool = True, progress: bool | None = None) -> SendReport:
    """The same as :func:`send_events` through an AsyncClient."""
    run = _Run(viewer_token, events, session_id, check, progress)
    gate = asyncio.Semaphore(max(1, concurrency))

    async def one(batch):
        sid, positions = batch
        async with gate:
            try:
                result, error = await client.tracking.send_batch(viewer_token, sid, run.body(positions)), None
            except APIError as e:
                result, error = None, e
        run.settle(positions, result, error)

    await asyncio.gather(*(one(b) for b in run.plan.batches))
    return run.report()
