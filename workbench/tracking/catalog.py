"""The tracking event catalog (contract section 7) as one definition, and the checks built on it.

Long on purpose: the catalog, the reference check that reads it and the msgspec fast path
generated from it must change together (the fast path is proved equal to the reference check
event by event), and splitting them would put the same rule in two modules or make them
import each other.

The local service validates batches with :func:`check_batch`, the client pre-checks
events with :func:`check_event` before it sends, and notebooks print
:func:`catalog_frame`; all three read the same :data:`CATALOG`, so they cannot drift.

Decisions the contract leaves open, taken here:

- An unknown field inside the payload of a catalog key is an error: ``unknown_field``
  with field ``payload.NAME`` (a typo such as ``loadtimeMs`` would otherwise be lost
  silently). ``custom.NAME`` payloads are free-form objects.
- Numbers are JSON numbers (Python ``int``/``float``), never booleans, and must be finite;
  NaN and infinities are ``invalid_payload``.
- Strings of catalog payloads may be any length, empty included; only the 8 KiB payload
  limit bounds them.
- ``null`` at the top level of an event (``payload``, ``timestamp``, ``id``) means absent,
  because generic client code often writes ``None`` for "not given"; ``null`` as a
  payload field value is a wrong type.
- ``timestamp``: an integer number of epoch milliseconds (a float, even ``1.7e12``, is
  not an integer) or an ISO 8601 string carrying a zone (``Z`` or ``+hh:mm``); accepted
  from 2000-01-01T00:00:00Z up to exactly 24 h after ``now``; sub-millisecond digits are
  dropped (floor).
- Payload size is the length in bytes of ``json.dumps(payload, separators=(",", ":"),
  ensure_ascii=False)`` encoded as UTF-8; over 8192 bytes is ``payload_too_large``.
- One error per event; the checks run in this order: ``not_an_object``,
  ``missing_key`` (absent or null), ``unknown_key`` (not a string, or not in the catalog),
  ``unknown_field`` (top level), ``invalid_id``, ``invalid_timestamp``, then the payload:
  not an object (``invalid_payload``, field ``payload``), ``payload_too_large``,
  ``unknown_field`` (``payload.NAME``), ``invalid_payload`` (``payload.NAME``).
- Request-level checks, in order: ``invalid_body``, ``invalid_session_id``,
  ``invalid_events``, ``empty_events``, ``too_many_events``, ``unknown_field``.
- Within one batch a repeated ``id`` of an accepted event is a duplicate: accepted,
  reported in :attr:`BatchCheck.duplicate_indexes`, left out of
  :attr:`BatchCheck.to_store`. An event whose first holder of the id was rejected is not
  a duplicate.

>>> from datetime import datetime, timezone
>>> now = datetime(2026, 11, 1, 12, tzinfo=timezone.utc)
>>> check_event({"key": "heartbeat", "payload": {"visible": True}}, now=now)[0]["timestamp"]
1793534400000
>>> check_event({"key": "viewer_loaded", "payload": {"loadTimeMs": -1}}, now=now)[1]["field"]
'payload.loadTimeMs'
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any, Callable, Mapping, Sequence

from workbench.options import text_problem, utf8_problem
from workbench.tracking.fields import INT_BOUND, escaped, kind_of, number_problem
from workbench.tracking.fields import show as _show
from workbench.tracking.fields import type_name as _type_name

__all__ = [
    "FieldSpec",
    "EventSpec",
    "CATALOG",
    "CUSTOM_KEY",
    "MAX_EVENTS",
    "MAX_SESSION_ID_CHARS",
    "MAX_ID_CHARS",
    "MAX_PAYLOAD_BYTES",
    "MAX_BODY_BYTES",
    "EVENT_FIELDS",
    "BATCH_FIELDS",
    "EVENT_ERROR_CODES",
    "BATCH_ERROR_CODES",
    "BatchRejected",
    "BatchCheck",
    "catalog_frame",
    "check_event",
    "check_batch",
    "check_batch_json",
    "check_events",
    "payload_size",
]

MAX_EVENTS = 100
MAX_SESSION_ID_CHARS = 128
MAX_ID_CHARS = 64
MAX_PAYLOAD_BYTES = 8 * 1024
MAX_BODY_BYTES = 512 * 1024
EVENT_FIELDS = ("key", "payload", "timestamp", "id")
BATCH_FIELDS = ("sessionId", "events")
EVENT_ERROR_CODES = (
    "not_an_object", "missing_key", "unknown_key", "unknown_field", "invalid_payload",
    "invalid_timestamp", "invalid_id", "payload_too_large",
)
BATCH_ERROR_CODES = (
    "invalid_json", "body_too_large", "invalid_body", "invalid_session_id", "invalid_events",
    "empty_events", "too_many_events", "unknown_field",
)
CUSTOM_KEY = "custom.NAME"
_CUSTOM = re.compile(r"custom\.[a-z][a-z0-9_]{0,63}")

_EPOCH_MIN_MS = 946_684_800_000  # 2000-01-01T00:00:00Z
_AHEAD_MS = 24 * 3600 * 1000
_DEVICES = ("desktop", "mobile", "tablet")
_PLATFORMS = ("ios", "android", "webxr")


@dataclass(frozen=True)
class FieldSpec:
    """One payload field: ``type`` is ``number``, ``string`` or ``boolean``; ``allowed``
    limits a string to a set, ``minimum`` a number from below (inclusive)."""

    name: str
    type: str
    required: bool = True
    allowed: tuple[str, ...] | None = None
    minimum: float | None = None

    def describe(self) -> str:
        """The value rule as text, e.g. ``>= 0`` or ``one of: ios, android, webxr``."""
        if self.allowed is not None:
            return "one of: " + ", ".join(self.allowed)
        if self.minimum is not None:
            return f">= {self.minimum:g}"
        return "any"


@dataclass(frozen=True)
class EventSpec:
    """One event key and its payload fields; ``free_form`` marks ``custom.NAME`` (any object)."""

    key: str
    fields: tuple[FieldSpec, ...] = ()
    free_form: bool = False
    fields_by_name: Mapping[str, FieldSpec] = field(init=False, repr=False, compare=False)

    def __post_init__(self):
        object.__setattr__(self, "fields_by_name", {f.name: f for f in self.fields})


def _spec(key: str, *fields: FieldSpec) -> EventSpec:
    return EventSpec(key, tuple(fields))


#: Every event key of contract section 7, in the contract's order.
CATALOG: Mapping[str, EventSpec] = {
    s.key: s
    for s in (
        _spec("viewer_loaded", FieldSpec("loadTimeMs", "number", minimum=0),
              FieldSpec("device", "string", required=False, allowed=_DEVICES),
              FieldSpec("referrer", "string", required=False)),
        _spec("model_loaded", FieldSpec("loadTimeMs", "number", minimum=0)),
        _spec("load_error", FieldSpec("reason", "string")),
        _spec("interaction_start", FieldSpec("kind", "string", allowed=("rotate", "zoom", "pan"))),
        _spec("hotspot_opened", FieldSpec("hotspotId", "string")),
        _spec("variant_selected", FieldSpec("variantId", "string")),
        _spec("animation_played", FieldSpec("name", "string")),
        _spec("ar_requested", FieldSpec("platform", "string", allowed=_PLATFORMS)),
        _spec("ar_session_started", FieldSpec("platform", "string", allowed=_PLATFORMS)),
        _spec("ar_object_placed"),
        _spec("ar_session_ended", FieldSpec("durationMs", "number", minimum=0)),
        _spec("fullscreen_toggled", FieldSpec("enabled", "boolean")),
        _spec("cta_clicked", FieldSpec("target", "string")),
        _spec("zone_entered", FieldSpec("zoneId", "string")),
        _spec("avatar_spawned", FieldSpec("modelId", "string")),
        _spec("heartbeat", FieldSpec("visible", "boolean")),
        _spec("viewer_closed", FieldSpec("durationMs", "number", minimum=0)),
        EventSpec(CUSTOM_KEY, free_form=True),
    )
}


def catalog_frame():
    """The catalog as a table, one row per key and payload field, for printing.

    Columns: ``key``, ``field`` (empty for a key without payload, ``*`` for the free-form
    custom payload), ``type``, ``required``, ``allowed`` (the value rule as text).

    >>> catalog_frame().query("key == 'ar_requested'")[["field", "allowed"]].to_string(index=False)
    '   field                  allowed\\nplatform one of: ios, android, webxr'
    """
    import pandas as pd

    rows = []
    for spec in CATALOG.values():
        if spec.free_form:
            rows.append((spec.key, "*", "object", False, "any JSON object; NAME matches [a-z][a-z0-9_]{0,63}"))
        elif not spec.fields:
            rows.append((spec.key, "", "none", False, "empty or absent payload"))
        for f in spec.fields:
            rows.append((spec.key, f.name, f.type, f.required, f.describe()))
    return pd.DataFrame(rows, columns=["key", "field", "type", "required", "allowed"])


# --------------------------------------------------------------------------
# Errors
# --------------------------------------------------------------------------

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


def _err(code: str, message: str, fld: str | None) -> tuple[None, dict]:
    return None, {"code": code, "message": message, "field": fld}


def _id_text_error(event_id: str | None) -> dict | None:
    """The ``invalid_id`` error of an id string that is not storable, printable text, or None."""
    why = text_problem(event_id) if event_id is not None else None
    return None if why is None else {"code": "invalid_id", "message": f"id {why}.", "field": "id"}


# --------------------------------------------------------------------------
# Per-key payload validators, compiled once from CATALOG
# --------------------------------------------------------------------------

# A validator takes a payload dict and returns None or (code, message, field).
_Validator = Callable[[dict], "tuple[str, str, str] | None"]


def _compile(spec: EventSpec) -> _Validator:
    checks = tuple((f.name, f.required, kind_of(f).check(f)) for f in spec.fields)
    names = frozenset(spec.fields_by_name)
    required = tuple(f.name for f in spec.fields if f.required)
    key = spec.key

    def validate(payload: dict):
        for name in payload:
            if name not in names:
                name = escaped(name)  # echoed in the answer, which must be encodable
                return ("unknown_field", f"payload.{name} is not a field of {key}.", f"payload.{name}")
        for name, is_required, check in checks:
            if name in payload:
                problem = check(payload[name])
                if problem is not None:
                    return ("invalid_payload", f"payload.{name} of {key} {problem}.", f"payload.{name}")
            elif is_required:
                return ("invalid_payload", f"payload.{name} is required for {key}.", f"payload.{name}")
        return None

    validate.required = required  # type: ignore[attr-defined]
    return validate


_VALIDATORS: dict[str, _Validator] = {k: _compile(s) for k, s in CATALOG.items() if not s.free_form}


def payload_size(payload: Any) -> int:
    """Bytes of the compact UTF-8 JSON encoding of ``payload`` (the 8 KiB rule's measure).

    Raises ValueError for values JSON cannot encode (NaN, infinities, other types).

    >>> payload_size({"a": "é"})
    10
    """
    return len(json.dumps(payload, separators=(",", ":"), ensure_ascii=False, allow_nan=False).encode("utf-8"))


def _unwritable(payload: Any) -> tuple[str, str]:
    """(message, field) for a payload JSON cannot write: the path of a string UTF-8 cannot encode, or the whole payload."""
    stack = [("payload", payload)]
    while stack:
        path, value = stack.pop()
        if isinstance(value, dict):
            bad_names = [k for k in value if isinstance(k, str) and utf8_problem(k)]
            if bad_names:
                return f"{path} has a field name that {utf8_problem(bad_names[0])[5:]}.", path
            stack.extend((f"{path}.{k}", v) for k, v in reversed(list(value.items())))
        elif isinstance(value, list):
            stack.extend((f"{path}[{i}]", v) for i, v in reversed(list(enumerate(value))))
        elif isinstance(value, str) and utf8_problem(value):
            return f"{path} {utf8_problem(value)}.", path
    return "payload must hold only JSON values (no NaN or infinity).", "payload"


# Digits of the shortest integer past a double's range (fields.NUMBER_LIMIT is about 1.8e308).
_LONGEST_NUMBER = 309


def _number_out_of_range(payload: Any) -> tuple[str, str] | None:
    """(message, field) of the first number of a free-form payload, nested ones too, that the lake
    could not hold (:func:`workbench.tracking.fields.number_problem`), or None."""
    stack = [("payload", payload)]
    while stack:
        path, value = stack.pop()
        if isinstance(value, dict):
            stack.extend((f"{path}.{k}", v) for k, v in reversed(list(value.items())))
        elif isinstance(value, list):
            stack.extend((f"{path}[{i}]", v) for i, v in reversed(list(enumerate(value))))
        elif isinstance(value, (int, float)) and not isinstance(value, bool):
            problem = number_problem(value)
            if problem is not None:
                return f"{path} {problem}.", path
    return None


def _may_be_too_large(payload: dict) -> bool:
    """Cheap upper bound on :func:`payload_size` for flat payloads, so the common small
    event never pays for a JSON encoding (that encoding was a third of check_event's time)."""
    bound = 2
    for name, v in payload.items():
        if isinstance(v, str):
            # a character costs at most 6 bytes in JSON (a \\u00XX escape)
            size = 6 * len(v) + 2
        elif isinstance(v, (float, bool)) or v is None:
            size = 32
        elif isinstance(v, int):
            # decimal digits <= bits / 3 (log10 2 < 1/3); huge ints are legal JSON
            size = v.bit_length() // 3 + 2
        else:
            return True
        bound += 6 * len(str(name)) + 4 + size
    return bound > MAX_PAYLOAD_BYTES


# --------------------------------------------------------------------------
# Timestamps
# --------------------------------------------------------------------------

def _now_ms(now: datetime) -> int:
    if now.tzinfo is None:
        raise ValueError("now must be a timezone-aware datetime")
    return _to_ms(now)


def _to_ms(dt: datetime) -> int:
    # Integer arithmetic keeps milliseconds exact where float timestamp() could round.
    delta = dt - datetime(1970, 1, 1, tzinfo=timezone.utc)
    return (delta.days * 86_400 + delta.seconds) * 1000 + delta.microseconds // 1000


def _check_timestamp(value: Any, now_ms: int):
    """Return epoch ms or an error tuple."""
    if type(value) is int or (isinstance(value, int) and not isinstance(value, bool)):
        ms = int(value)
    elif isinstance(value, str):
        try:
            dt = datetime.fromisoformat(value)
        except (ValueError, OverflowError):
            return ("invalid_timestamp", f"timestamp {_show(value)} is not an ISO 8601 date-time.", "timestamp")
        if dt.tzinfo is None or dt.utcoffset() is None:
            return ("invalid_timestamp", f"timestamp {_show(value)} has no time zone; add Z or an offset.", "timestamp")
        try:
            ms = _to_ms(dt)
        except OverflowError:
            return ("invalid_timestamp", f"timestamp {_show(value)} is out of range.", "timestamp")
    else:
        return ("invalid_timestamp",
                f"timestamp must be an ISO 8601 string or integer epoch milliseconds, got {_type_name(value)}.",
                "timestamp")
    if ms < _EPOCH_MIN_MS:
        return ("invalid_timestamp", f"timestamp {_show(value)} is before 2000-01-01.", "timestamp")
    if ms > now_ms + _AHEAD_MS:
        return ("invalid_timestamp", f"timestamp {_show(value)} is more than 24 h ahead of the server clock.", "timestamp")
    return ms


# --------------------------------------------------------------------------
# Events
# --------------------------------------------------------------------------

def check_event(obj: Any, *, now: datetime) -> tuple[dict | None, dict | None]:
    """Check one event object; return ``(normalized, None)`` or ``(None, error)``.

    ``normalized`` = ``{"key", "payload" ({} if absent), "timestamp" (int epoch ms UTC,
    ``now`` if absent), "id" (str or None)}``; ``error`` = ``{"code", "message",
    "field"}`` with the codes and order described in this module's docstring.

    >>> from datetime import datetime, timezone
    >>> now = datetime(2026, 11, 1, tzinfo=timezone.utc)
    >>> check_event({"key": "ar_requested", "payload": {"platform": "ios"},
    ...              "timestamp": "2026-11-01T00:00:00.250+01:00", "id": "e1"}, now=now)[0]
    {'key': 'ar_requested', 'payload': {'platform': 'ios'}, 'timestamp': 1793487600250, 'id': 'e1'}
    >>> check_event({"key": "custom.Bad"}, now=now)[1]["code"]
    'unknown_key'
    """
    return _check_event(obj, _now_ms(now))


def _check_event(obj: Any, now_ms: int) -> tuple[dict | None, dict | None]:
    """:func:`check_event` with ``now`` already in epoch ms (a batch converts it once)."""
    if type(obj) is not dict and not isinstance(obj, dict):
        return _err("not_an_object", f"An event must be a JSON object, got {_type_name(obj)}.", None)
    key = obj.get("key")
    if key is None:
        return _err("missing_key", "The event has no key.", "key")
    validate = _VALIDATORS.get(key) if type(key) is str else None
    if validate is None:
        if not isinstance(key, str):
            return _err("unknown_key", f"key must be a string, got {_type_name(key)}.", "key")
        if not _CUSTOM.fullmatch(key):
            return _err("unknown_key", f"{_show(key)} is not an event key of the catalog or custom.NAME.", "key")
    if len(obj) > 1:
        for name in obj:
            if name not in _EVENT_FIELD_SET:
                return _err("unknown_field", f"{_show(name)} is not a field of an event.", escaped(str(name)))

    event_id = obj.get("id")
    if event_id is not None and not (isinstance(event_id, str) and 1 <= len(event_id) <= MAX_ID_CHARS):
        if isinstance(event_id, str):
            return _err("invalid_id", f"id must be 1 to {MAX_ID_CHARS} characters, got {len(event_id)}.", "id")
        return _err("invalid_id", f"id must be a string, got {_type_name(event_id)}.", "id")
    error = _id_text_error(event_id)
    if error:
        return None, error

    ts = obj.get("timestamp")
    if ts is None:
        ts = now_ms
    else:
        ts = _check_timestamp(ts, now_ms)
        if type(ts) is tuple:
            return _err(*ts)

    payload = obj.get("payload")
    if payload is None:
        payload = {}
    elif type(payload) is not dict and not isinstance(payload, dict):
        return _err("invalid_payload", f"payload must be an object, got {_type_name(payload)}.", "payload")

    if validate is None:  # custom.NAME: any object
        try:
            size = payload_size(payload)
        except (ValueError, TypeError, RecursionError):
            return _err("invalid_payload", *_unwritable(payload))
        if size > MAX_PAYLOAD_BYTES:
            return _err("payload_too_large", f"payload is {size} bytes of JSON, over the {MAX_PAYLOAD_BYTES} byte limit.", "payload")
        if size > _LONGEST_NUMBER:  # a payload this short cannot hold an integer past a double's range
            wrong = _number_out_of_range(payload)
            if wrong is not None:
                return _err("invalid_payload", *wrong)
    else:
        size = 0
        if payload and _may_be_too_large(payload):
            try:
                size = payload_size(payload)
            except (ValueError, TypeError, RecursionError):
                size = -1  # the field checks below name the bad value, if they can
            if size > MAX_PAYLOAD_BYTES:
                return _err("payload_too_large", f"payload is {size} bytes of JSON, over the {MAX_PAYLOAD_BYTES} byte limit.", "payload")
        problem = validate(payload)
        if problem is not None:
            return _err(*problem)
        if size < 0:  # e.g. an int of more digits than Python will print
            return _err("invalid_payload", "payload cannot be written as JSON.", "payload")
    return {"key": key, "payload": payload, "timestamp": ts, "id": event_id}, None


_EVENT_FIELD_SET = frozenset(EVENT_FIELDS)


# --------------------------------------------------------------------------
# Batches
# --------------------------------------------------------------------------

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
    sid = body.get("sessionId")
    if "sessionId" not in body:
        raise BatchRejected("invalid_session_id", "sessionId is required.", "sessionId")
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

    now_ms = _now_ms(now)
    return _collect(sid, (_check_event(obj, now_ms) for obj in events))


def _collect(sid: str, outcomes) -> BatchCheck:
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


# --------------------------------------------------------------------------
# Canonical JSON text: event ids and stored payloads
# --------------------------------------------------------------------------

_CANONICAL = json.JSONEncoder(sort_keys=True, separators=(",", ":"), default=str)
_CANONICAL_STRICT = json.JSONEncoder(sort_keys=True, separators=(",", ":"))
_EXPONENT = re.compile(rb"[0-9]e[-+]?[0-9]")


def canonical_json(value: Any, *, default_str: bool = True, decoded: bool = False) -> str:
    """``json.dumps(value, sort_keys=True, separators=(",", ":"), default=str)``, the text event ids
    are hashed over and payloads are stored as, made by msgspec where that gives the same text.

    msgspec writes sorted, compact JSON 5 to 10 times faster, and the same text for plain JSON
    values; it is used when its text is ASCII (json escapes the rest), has no float in exponent
    form (json writes ``1e+16``, msgspec ``1e16``) and decodes back equal to ``value`` (so NaN,
    tuples, datetimes, non-string keys and other types go to json, which handles them its way).
    With ``default_str=False`` a value that is not JSON raises TypeError, as json.dumps does.
    ``decoded=True`` says ``value`` came from a JSON decoder (only dicts with string keys, lists,
    strings, finite numbers, booleans and None), so the round trip that catches other types is skipped.

    >>> canonical_json({"b": [1, 2.5, None], "a": "é"}) == json.dumps({"b": [1, 2.5, None], "a": "é"}, sort_keys=True,
    ...                                                                separators=(",", ":"))
    True
    >>> canonical_json({"x": 1e16})
    '{"x":1e+16}'
    """
    d = _decoders()
    try:
        raw = d.canonical.encode(value)
    except (TypeError, ValueError, OverflowError, d.msgspec.MsgspecError):
        raw = None
    if raw is not None and raw.isascii() and not _EXPONENT.search(raw):
        if decoded:
            return raw.decode("ascii")
        try:
            same = d.canonical_decoder.decode(raw) == value
        except d.errors:
            same = False
        if same:
            return raw.decode("ascii")
    return (_CANONICAL if default_str else _CANONICAL_STRICT).encode(value)


# --------------------------------------------------------------------------
# One pass over the JSON text: the service's fast path
# --------------------------------------------------------------------------
#
# Decoding a body and then walking it with check_event cost about 5 us per event, most of
# the service's time per batch (measured in bench/ingest.py). msgspec decodes and checks at
# once, in C, against types generated here from CATALOG, so the rules are still written once.
# The types accept only a subset of what the rules accept (every catalog key, its exact
# payload fields, bounded numbers); anything else, custom.NAME included, is decided by
# check_event on that event alone, so the answer is always the one check_batch gives.

_INT_BOUND = INT_BOUND  # larger ints take the general way (the general decoder has its own limit)
_NESTING_BOUND = 32       # an event of more brackets takes the general way, whose decoder bounds nesting


@dataclass(frozen=True)
class _Decoders:
    """msgspec decoders made from CATALOG (built on first use: msgspec is imported only then)."""

    msgspec: Any
    batch: Any     # a batch whose events are all catalog events of the exact shape
    envelope: Any  # a batch with each event left as its JSON text (msgspec.Raw)
    event: Any     # one catalog event
    events: Any    # a list of catalog events (the client's pre-check)
    errors: tuple  # what msgspec raises for text or values it refuses
    canonical: Any          # sorted compact JSON (canonical_json)
    canonical_decoder: Any  # its text back to plain values


_DECODERS: _Decoders | None = None


def _decoders() -> _Decoders:
    global _DECODERS
    if _DECODERS is None:
        import msgspec
        from typing import Annotated, Optional, Union

        M = msgspec.Meta

        def string_bound(spec: EventSpec) -> int:
            # The 8 KiB payload rule as a bound on each free text field: JSON writes a character
            # in at most 6 bytes, so a payload of shorter strings cannot pass the limit, and a
            # typed payload needs no size check. A longer string is measured by check_event.
            sizes = [kind_of(f).json_bytes(f) for f in spec.fields]
            fixed = 2 + sum(len(f.name) + 4 for f in spec.fields) + sum(n for n in sizes if n is not None)
            return (MAX_PAYLOAD_BYTES - fixed) // (6 * max(1, sizes.count(None))) - 2

        def field_type(f: FieldSpec, spec: EventSpec):
            return kind_of(f).msgspec_type(f, string_bound(spec))

        def event_type(spec: EventSpec):
            name = "".join(part.title() for part in spec.key.split("_"))
            fields = [(f.name, field_type(f, spec)) if f.required
                      else (f.name, Union[field_type(f, spec), msgspec.UnsetType], msgspec.UNSET)
                      for f in sorted(spec.fields, key=lambda f: not f.required)]
            payload = msgspec.defstruct(name + "Payload", fields, forbid_unknown_fields=True)
            # A payload with a required field cannot be absent; one without may be absent or null.
            has_required = any(f.required for f in spec.fields)
            payload_field = ("payload", payload) if has_required else ("payload", Optional[payload], None)
            ident = Annotated[str, M(min_length=1, max_length=MAX_ID_CHARS)]
            epoch_ms = Annotated[int, M(ge=-_INT_BOUND, le=_INT_BOUND)]
            # omit_defaults: turned back into a dict, an event has only the fields it was sent with.
            return msgspec.defstruct(name + "Event", [payload_field, ("timestamp", Union[epoch_ms, str, None], None),
                                                      ("id", Optional[ident], None)],
                                     tag=spec.key, tag_field="key", forbid_unknown_fields=True, omit_defaults=True)

        def batch_type(name: str, event):
            return msgspec.defstruct(name, [
                ("sessionId", Annotated[str, M(min_length=1, max_length=MAX_SESSION_ID_CHARS)]),
                ("events", Annotated[list[event], M(min_length=1, max_length=MAX_EVENTS)])],
                forbid_unknown_fields=True)

        event = Union[tuple(event_type(spec) for spec in CATALOG.values() if not spec.free_form)]
        D = msgspec.json.Decoder
        _DECODERS = _Decoders(msgspec, D(batch_type("Batch", event)), D(batch_type("RawBatch", msgspec.Raw)),
                              D(event), D(list[event]), (msgspec.MsgspecError, UnicodeDecodeError),
                              msgspec.json.Encoder(order="sorted"), D())
    return _DECODERS


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
        return _check_batch_fast(raw, _now_ms(now), decode)
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
    d = _decoders()
    now_ms = _now_ms(now)
    out: list[dict | None] = []
    for a in range(0, len(events), MAX_EVENTS):
        chunk = events[a:a + MAX_EVENTS]
        try:
            typed = d.events.decode(d.msgspec.json.encode(chunk))
        except (TypeError, ValueError, OverflowError, *d.errors):
            typed = None
        if typed is None or d.msgspec.to_builtins(typed) != list(chunk):
            out.extend(_check_one(obj, now_ms) for obj in chunk)
            continue
        for event in typed:
            error = _id_text_error(event.id)
            if error:
                out.append(error)
                continue
            ts = event.timestamp
            if ts is None or (type(ts) is int and _EPOCH_MIN_MS <= ts <= now_ms + _AHEAD_MS):
                out.append(None)
                continue
            ts = _check_timestamp(ts, now_ms)
            out.append(_err(*ts)[1] if type(ts) is tuple else None)
    return out


def _check_one(obj: Any, now_ms: int) -> dict | None:
    """check_event's error for one event of a hundred that the list check could not take at once."""
    d = _decoders()
    if type(obj) is dict and type(obj.get("key")) is str and obj["key"] in _VALIDATORS:
        try:
            event = d.event.decode(d.msgspec.json.encode(obj))
        except (TypeError, ValueError, OverflowError, *d.errors):
            event = None
        if event is not None and d.msgspec.to_builtins(event) == obj and not _id_text_error(event.id):
            ts = event.timestamp
            if ts is None or (type(ts) is int and _EPOCH_MIN_MS <= ts <= now_ms + _AHEAD_MS):
                return None
    return _check_event(obj, now_ms)[1]


def _check_batch_fast(raw: bytes, now_ms: int, decode) -> BatchCheck:
    d = _decoders()
    try:
        # Most batches hold only catalog events of the exact shape: one call checks them all.
        batch = d.batch.decode(raw)
        if session_id_problem(batch.sessionId):
            raise _Undecided  # the general way names the rule
        events = d.msgspec.to_builtins(batch.events)
        # The ids' text rule looked at once for all: the joined text has a lone surrogate or a control
        # character exactly when one id has (the space between them has neither). A third of the check's time.
        ids_ok = text_problem(" ".join([e["id"] for e in events if e.get("id") is not None])) is None
        return _collect(batch.sessionId, [_typed(e, now_ms, ids_ok) for e in events])
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
        if text.count(b"[") + text.count(b"{") > _NESTING_BOUND:
            raise _Undecided  # the general decoder's nesting bound counts the whole body's levels
        try:
            obj = decode(text)
        except Exception:
            raise _Undecided from None  # the whole body then fails the same way in the general decoder
        outcomes.append(_check_event(obj, now_ms))
    return _collect(batch.sessionId, outcomes)


def _typed(event: dict, now_ms: int, id_ok: bool = False) -> tuple[dict | None, dict | None]:
    """check_event's answer for an event the catalog's types took (as a dict of the fields it was sent with);
    ``id_ok``: its id is known to pass the text rule."""
    if not id_ok:
        error = _id_text_error(event.get("id"))
        if error:
            return None, error
    ts = event.get("timestamp")
    if ts is None:
        event["timestamp"] = now_ms
    elif type(ts) is not int or not _EPOCH_MIN_MS <= ts <= now_ms + _AHEAD_MS:
        ts = _check_timestamp(ts, now_ms)
        if type(ts) is tuple:
            return _err(*ts)
        event["timestamp"] = ts
    if "payload" not in event:
        event["payload"] = {}
    if "id" not in event:
        event["id"] = None
    return event, None
