"""One event checked against the catalog: its key, fields, id, timestamp and payload, one error at
most, in the order ``docs/contract.md`` section 7 gives.

>>> from datetime import datetime, timezone
>>> now = datetime(2026, 11, 1, 12, tzinfo=timezone.utc)
>>> check_event({"key": "heartbeat", "payload": {"visible": True}}, now=now)[0]["timestamp"]
1793534400000
>>> check_event({"key": "viewer_loaded", "payload": {"loadTimeMs": -1}}, now=now)[1]["field"]
'payload.loadTimeMs'
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from workbench.options import text_problem
from workbench.tracking.fields import escaped
from workbench.tracking.fields import show as _show
from workbench.tracking.fields import type_name as _type_name

from .payloads import LONGEST_NUMBER, VALIDATORS, may_be_too_large, number_out_of_range, payload_size, unwritable
from .table import CUSTOM_PATTERN, EVENT_FIELDS, MAX_ID_CHARS, MAX_PAYLOAD_BYTES
from .timestamps import check_timestamp, now_ms

_EVENT_FIELD_SET = frozenset(EVENT_FIELDS)


def error_of(code: str, message: str, fld: str | None) -> tuple[None, dict]:
    return None, {"code": code, "message": message, "field": fld}


def id_text_error(event_id: str | None) -> dict | None:
    """The ``invalid_id`` error of an id string that is not storable, printable text, or None."""
    why = text_problem(event_id) if event_id is not None else None
    return None if why is None else {"code": "invalid_id", "message": f"id {why}.", "field": "id"}


def check_event(obj: Any, *, now: datetime) -> tuple[dict | None, dict | None]:
    """Check one event object; return ``(normalized, None)`` or ``(None, error)``.

    ``normalized`` = ``{"key", "payload" ({} if absent), "timestamp" (int epoch ms UTC,
    ``now`` if absent), "id" (str or None)}``; ``error`` = ``{"code", "message",
    "field"}`` in the order of ``docs/contract.md`` section 7.

    >>> from datetime import datetime, timezone
    >>> now = datetime(2026, 11, 1, tzinfo=timezone.utc)
    >>> check_event({"key": "ar_requested", "payload": {"platform": "ios"},
    ...              "timestamp": "2026-11-01T00:00:00.250+01:00", "id": "e1"}, now=now)[0]
    {'key': 'ar_requested', 'payload': {'platform': 'ios'}, 'timestamp': 1793487600250, 'id': 'e1'}
    >>> check_event({"key": "custom.Bad"}, now=now)[1]["code"]
    'unknown_key'
    """
    return check_event_at(obj, now_ms(now))


def check_event_at(obj: Any, now_ms: int) -> tuple[dict | None, dict | None]:
    """:func:`check_event` with ``now`` already in epoch ms (a batch converts it once)."""
    if type(obj) is not dict and not isinstance(obj, dict):
        return error_of("not_an_object", f"An event must be a JSON object, got {_type_name(obj)}.", None)
    key = obj.get("key")
    if key is None:
        return error_of("missing_key", "The event has no key.", "key")
    validate = VALIDATORS.get(key) if type(key) is str else None
    if validate is None:
        if not isinstance(key, str):
            return error_of("unknown_key", f"key must be a string, got {_type_name(key)}.", "key")
        if not CUSTOM_PATTERN.fullmatch(key):
            return error_of("unknown_key", f"{_show(key)} is not an event key of the catalog or custom.NAME.", "key")
    if len(obj) > 1:
        for name in obj:
            if name not in _EVENT_FIELD_SET:
                return error_of("unknown_field", f"{_show(name)} is not a field of an event.", escaped(str(name)))

    event_id = obj.get("id")
    if event_id is not None and not (isinstance(event_id, str) and 1 <= len(event_id) <= MAX_ID_CHARS):
        if isinstance(event_id, str):
            return error_of("invalid_id", f"id must be 1 to {MAX_ID_CHARS} characters, got {len(event_id)}.", "id")
        return error_of("invalid_id", f"id must be a string, got {_type_name(event_id)}.", "id")
    error = id_text_error(event_id)
    if error:
        return None, error

    ts = obj.get("timestamp")
    if ts is None:
        ts = now_ms
    else:
        ts = check_timestamp(ts, now_ms)
        if type(ts) is tuple:
            return error_of(*ts)

    payload = obj.get("payload")
    if payload is None:
        payload = {}
    elif type(payload) is not dict and not isinstance(payload, dict):
        return error_of("invalid_payload", f"payload must be an object, got {_type_name(payload)}.", "payload")

    if validate is None:  # custom.NAME: any object
        try:
            size = payload_size(payload)
        except (ValueError, TypeError, RecursionError):
            return error_of("invalid_payload", *unwritable(payload))
        if size > MAX_PAYLOAD_BYTES:
            return error_of("payload_too_large", f"payload is {size} bytes of JSON, over the {MAX_PAYLOAD_BYTES} byte limit.", "payload")
        if size > LONGEST_NUMBER:  # a payload this short cannot hold an integer past a double's range
            wrong = number_out_of_range(payload)
            if wrong is not None:
                return error_of("invalid_payload", *wrong)
    else:
        size = 0
        if payload and may_be_too_large(payload):
            try:
                size = payload_size(payload)
            except (ValueError, TypeError, RecursionError):
                size = -1  # the field checks below name the bad value, if they can
            if size > MAX_PAYLOAD_BYTES:
                return error_of("payload_too_large", f"payload is {size} bytes of JSON, over the {MAX_PAYLOAD_BYTES} byte limit.", "payload")
        problem = validate(payload)
        if problem is not None:
            return error_of(*problem)
        if size < 0:  # e.g. an int of more digits than Python will print
            return error_of("invalid_payload", "payload cannot be written as JSON.", "payload")
    return {"key": key, "payload": payload, "timestamp": ts, "id": event_id}, None

