"""One pass over the JSON text: the service's fast check of a batch and the client's pre-check of many
events, by the msgspec types of :mod:`.decoders`; whatever they cannot take goes to the plain
checks (:mod:`.events`, :mod:`.batches`), so the answer is always theirs.

>>> from datetime import datetime, timezone
>>> now = datetime(2026, 11, 1, tzinfo=timezone.utc)
>>> check_events([{"key": "heartbeat", "payload": {"visible": True}}, {"key": "heartbeat"}], now=now)[1]["code"]
'invalid_payload'
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any

from workbench.options import text_problem

from .batches import BatchCheck, check_batch, collect, session_id_problem
from .decoders import NESTING_BOUND, decoders
from .events import check_event_at, error_of, id_text_error
from .payloads import VALIDATORS
from .table import MAX_EVENTS
from .timestamps import check_timestamp, in_window, now_ms


class _Undecided(Exception):
    """The fast path cannot answer for this body; the general way will."""


def check_batch_json(raw: bytes, *, now: datetime, decode: Callable[[bytes], Any] = json.loads) -> BatchCheck:
    """:func:`check_batch` of ``decode(raw)``, decoding and checking the JSON text in one pass where it can.

    The answer (and any :class:`BatchRejected` or exception of ``decode``) is exactly that of
    ``check_batch(decode(raw), now=now)``: a catalog event of the exact shape is checked by
    msgspec types made from :data:`CATALOG`; every other event is decoded with ``decode`` and
    checked by :func:`check_event`, and a body the fast path cannot read goes the general way.

    >>> from datetime import datetime, timezone
    >>> now = datetime(2026, 11, 1, tzinfo=timezone.utc)
    >>> raw = b'{"sessionId": "s", "events": [{"key": "heartbeat", "payload": {"visible": true}, "id": "a"},' \\
    ...       b' {"key": "custom.cart", "payload": {"qty": 2}}, {"key": "heartbeat", "payload": {}}]}'
    >>> r = check_batch_json(raw, now=now)
    >>> r == check_batch(json.loads(raw), now=now), r.status, r.errors[0]["field"]
    (True, 207, 'payload.visible')
    """
    try:
        return _check_batch_fast(raw, now_ms(now), decode)
    except _Undecided:
        return check_batch(decode(raw), now=now)


def check_events(events: Sequence[Any], *, now: datetime) -> list[dict | None]:
    """The error :func:`check_event` gives each event (``{"code", "message", "field"}``), or None
    for a valid one: the client's pre-check, for any number of events.

    Events are checked a hundred at a time by the types of the service's fast path, on their
    JSON text (``msgspec.json.encode``, as the client sends them); the text must decode back
    equal to the objects, so a ``datetime`` where a string belongs is refused as check_event
    refuses it rather than let through as its text. A hundred that holds any other event
    (custom.NAME, an invalid one) is checked one event at a time by check_event.

    >>> from datetime import datetime, timezone
    >>> now = datetime(2026, 11, 1, tzinfo=timezone.utc)
    >>> check_events([{"key": "heartbeat", "payload": {"visible": True}}, {"key": "heartbeat"}], now=now)
    [None, {'code': 'invalid_payload', 'message': 'payload.visible is required for heartbeat.', 'field': 'payload.visible'}]
    """
    d = decoders()
    at = now_ms(now)
    out: list[dict | None] = []
    for a in range(0, len(events), MAX_EVENTS):
        chunk = events[a:a + MAX_EVENTS]
        try:
            typed = d.events.decode(d.msgspec.json.encode(chunk))
        except (TypeError, ValueError, OverflowError, *d.errors):
            typed = None
        if typed is None or d.msgspec.to_builtins(typed) != list(chunk):
            out.extend(_check_one(obj, at) for obj in chunk)
            continue
        for event in typed:
            error = id_text_error(event.id)
            if error:
                out.append(error)
                continue
            ts = event.timestamp
            if ts is None or (type(ts) is int and in_window(ts, at)):
                out.append(None)
                continue
            ts = check_timestamp(ts, at)
            out.append(error_of(*ts)[1] if type(ts) is tuple else None)
    return out


def _check_one(obj: Any, now_ms: int) -> dict | None:
    """check_event's error for one event of a hundred that the list check could not take at once."""
    d = decoders()
    if type(obj) is dict and type(obj.get("key")) is str and obj["key"] in VALIDATORS:
        try:
            event = d.event.decode(d.msgspec.json.encode(obj))
        except (TypeError, ValueError, OverflowError, *d.errors):
            event = None
        if event is not None and d.msgspec.to_builtins(event) == obj and not id_text_error(event.id):
            ts = event.timestamp
            if ts is None or (type(ts) is int and in_window(ts, now_ms)):
                return None
    return check_event_at(obj, now_ms)[1]


def _check_batch_fast(raw: bytes, now_ms: int, decode) -> BatchCheck:
    d = decoders()
    try:
        # Most batches hold only catalog events of the exact shape: one call checks them all.
        batch = d.batch.decode(raw)
        if session_id_problem(batch.sessionId):
            raise _Undecided  # the general way names the rule
        events = d.msgspec.to_builtins(batch.events)
        # The ids' text rule looked at once for all: the joined text has a lone surrogate or a control
        # character exactly when one id has (the space between them has neither). A third of the check's time.
        ids_ok = text_problem(" ".join([e["id"] for e in events if e.get("id") is not None])) is None
        return collect(batch.sessionId, [_typed(e, now_ms, ids_ok) for e in events])
    except d.errors:
        pass
    try:
        batch = d.envelope.decode(raw)
    except d.errors:
        raise _Undecided from None
    if session_id_problem(batch.sessionId):
        raise _Undecided
    outcomes = []
    for text in batch.events:
        try:
            outcomes.append(_typed(d.msgspec.to_builtins(d.event.decode(text)), now_ms))
            continue
        except d.errors:
            pass
        text = bytes(text)
        if text.count(b"[") + text.count(b"{") > NESTING_BOUND:
            raise _Undecided  # the general decoder's nesting bound counts the whole body's levels
        try:
            obj = decode(text)
        except Exception:
            raise _Undecided from None  # the whole body then fails the same way in the general decoder
        outcomes.append(check_event_at(obj, now_ms))
    return collect(batch.sessionId, outcomes)


def _typed(event: dict, now_ms: int, id_ok: bool = False) -> tuple[dict | None, dict | None]:
    """check_event's answer for an event the catalog's types took (as a dict of the fields it was sent with);
    ``id_ok``: its id is known to pass the text rule."""
    if not id_ok:
        error = id_text_error(event.get("id"))
        if error:
            return None, error
    ts = event.get("timestamp")
    if ts is None:
        event["timestamp"] = now_ms
    elif type(ts) is not int or not in_window(ts, now_ms):
        ts = check_timestamp(ts, now_ms)
        if type(ts) is tuple:
            return error_of(*ts)
        event["timestamp"] = ts
    if "payload" not in event:
        event["payload"] = {}
    if "id" not in event:
        event["id"] = None
    return event, None
