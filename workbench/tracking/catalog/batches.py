"""A batch checked as a whole: the request-level rules (a refusal raises :class:`BatchRejected`), then
each event, with the in-batch duplicates marked (:class:`BatchCheck`).

>>> from datetime import datetime, timezone
>>> check_batch({"sessionId": "s", "events": [{"key": "nope"}]}, now=datetime(2026, 11, 1, tzinfo=timezone.utc)).status
400
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from workbench.options import text_problem
from workbench.tracking.fields import show as _show
from workbench.tracking.fields import type_name as _type_name

from .events import check_event_at
from .table import BATCH_FIELDS, MAX_EVENTS, MAX_SESSION_ID_CHARS
from .timestamps import now_ms


class BatchRejected(ValueError):
    """The whole request is refused (status 400, or 413 for ``body_too_large``).

    Carries ``code``, ``message`` (one sentence), ``field`` (dotted path or None) and
    ``status``. Per-event problems never raise; they are listed in :class:`BatchCheck`.
    """

    def __init__(self, code: str, message: str, field: str | None = None, status: int = 400):
        super().__init__(message)
        self.code = code
        self.message = message
        self.field = field
        self.status = status

    def to_dict(self) -> dict:
        return {"code": self.code, "message": self.message, "field": self.field}


@dataclass
class BatchCheck:
    """The outcome of :func:`check_batch` for a well-formed request.

    ``accepted``: ``(index, normalized event)`` for every accepted event, duplicates
    included; ``errors``: ``{"index", "code", "message", "field"}`` in index order;
    ``duplicate_indexes``: indexes of accepted events whose ``id`` an earlier accepted
    event of the same batch already carried.
    """

    session_id: str
    accepted: list[tuple[int, dict]]
    errors: list[dict]
    duplicate_indexes: list[int]

    @property
    def to_store(self) -> list[tuple[int, dict]]:
        """Accepted events minus the in-batch duplicates: what the service writes."""
        dup = set(self.duplicate_indexes)
        return [(i, e) for i, e in self.accepted if i not in dup]

    @property
    def status(self) -> int:
        """200 when all were accepted, 207 when some, 400 (``all_events_invalid``) when none."""
        if not self.errors:
            return 200
        return 207 if self.accepted else 400

    def summary(self, duplicates: int | None = None) -> dict:
        """The answer's ``data``: ``{"accepted", "rejected", "duplicates", "errors"}``.

        ``duplicates`` defaults to the in-batch count; the service passes its own count
        when it also finds ids stored by earlier batches.
        """
        return {
            "accepted": len(self.accepted),
            "rejected": len(self.errors),
            "duplicates": len(self.duplicate_indexes) if duplicates is None else duplicates,
            "errors": list(self.errors),
        }


def session_id_problem(sid: Any) -> str | None:
    r"""Why ``sid`` cannot be a batch's ``sessionId`` (the end of a sentence), or None.

    >>> session_id_problem("visit-1") is None, session_id_problem(""), session_id_problem("a\x00")
    (True, 'must be 1 to 128 characters, got 0', 'must not contain control characters (U+0000 at position 1)')
    """
    if not isinstance(sid, str):
        return f"must be a string, got {_type_name(sid)}"
    if not 1 <= len(sid) <= MAX_SESSION_ID_CHARS:
        return f"must be 1 to {MAX_SESSION_ID_CHARS} characters, got {len(sid)}"
    return text_problem(sid)


def check_batch(body: Any, *, now: datetime) -> BatchCheck:
    """Check a parsed batch body; raise :class:`BatchRejected` for a request-level fault.

    >>> from datetime import datetime, timezone
    >>> now = datetime(2026, 11, 1, tzinfo=timezone.utc)
    >>> r = check_batch({"sessionId": "s1", "events": [
    ...     {"key": "heartbeat", "payload": {"visible": True}, "id": "a"},
    ...     {"key": "nope"},
    ...     {"key": "heartbeat", "payload": {"visible": False}, "id": "a"}]}, now=now)
    >>> (r.status, [i for i, _ in r.accepted], r.duplicate_indexes, r.errors[0]["code"])
    (207, [0, 2], [2], 'unknown_key')
    """
    if not isinstance(body, dict):
        raise BatchRejected("invalid_body", f"The body must be a JSON object, got {_type_name(body)}.")
    if "sessionId" not in body:
        raise BatchRejected("invalid_session_id", "sessionId is required.", "sessionId")
    sid = body["sessionId"]
    why = session_id_problem(sid)
    if why:
        raise BatchRejected("invalid_session_id", f"sessionId {why}.", "sessionId")
    if "events" not in body:
        raise BatchRejected("invalid_events", "events is required.", "events")
    events = body["events"]
    if not isinstance(events, list):
        raise BatchRejected("invalid_events", f"events must be an array, got {_type_name(events)}.", "events")
    if not events:
        raise BatchRejected("empty_events", "events must hold at least one event.", "events")
    if len(events) > MAX_EVENTS:
        raise BatchRejected("too_many_events", f"events holds {len(events)} events, over the limit of {MAX_EVENTS}.", "events")
    for name in body:
        if name not in BATCH_FIELDS:
            raise BatchRejected("unknown_field", f"{_show(name)} is not a field of a batch.", str(name))

    at = now_ms(now)
    return collect(sid, (check_event_at(obj, at) for obj in events))


def collect(sid: str, outcomes) -> BatchCheck:
    """A BatchCheck from each event's ``(normalized, error)`` in index order; marks in-batch duplicates."""
    accepted: list[tuple[int, dict]] = []
    errors: list[dict] = []
    duplicates: list[int] = []
    seen: set[str] = set()
    for i, (event, error) in enumerate(outcomes):
        if error is not None:
            errors.append({"index": i, **error})
            continue
        accepted.append((i, event))
        eid = event["id"]
        if eid is not None:
            if eid in seen:
                duplicates.append(i)
            else:
                seen.add(eid)
    return BatchCheck(sid, accepted, errors, duplicates)
