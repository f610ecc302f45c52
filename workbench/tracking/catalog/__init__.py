"""The tracking event catalog (contract section 7) as one definition, and the checks built on it.

``table`` is the catalog (:data:`CATALOG`, the batch limits, :func:`catalog_frame`); ``timestamps``
the one window a timestamp must fall in; ``payloads`` the per-key payload validators compiled from
the table; ``events`` checks one event (:func:`check_event`); ``batches`` checks a batch
(:func:`check_batch`, :class:`BatchCheck`, :class:`BatchRejected`); ``decoders`` makes the msgspec
types of the table, which ``fast`` uses to check a batch's JSON text in one pass
(:func:`check_batch_json`, :func:`check_events`), always with the plain checks' answer;
``canonical`` writes the JSON text ids are hashed over.

The local service validates batches with :func:`check_batch_json`, the client pre-checks events
with :func:`check_events` before it sends, and notebooks print :func:`catalog_frame`; all read the
same :data:`CATALOG`, so they cannot drift. The decisions the contract leaves open (error codes and
their order, the timestamp window, the size measure) are written in ``docs/contract.md`` section 7.

>>> from datetime import datetime, timezone
>>> now = datetime(2026, 11, 1, 12, tzinfo=timezone.utc)
>>> check_event({"key": "heartbeat", "payload": {"visible": True}}, now=now)[0]["timestamp"]
1793534400000
"""

from .batches import BatchCheck, BatchRejected, check_batch, session_id_problem
from .canonical import canonical_json
from .events import check_event
from .fast import check_batch_json, check_events
from .payloads import payload_size
from .table import (
                    BATCH_ERROR_CODES,
                    BATCH_FIELDS,
                    CATALOG,
                    CUSTOM_KEY,
                    EVENT_ERROR_CODES,
                    EVENT_FIELDS,
                    MAX_BODY_BYTES,
                    MAX_EVENTS,
                    MAX_ID_CHARS,
                    MAX_PAYLOAD_BYTES,
                    MAX_SESSION_ID_CHARS,
                    EventSpec,
                    FieldSpec,
                    catalog_frame,
)

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
    "session_id_problem",
    "canonical_json",
]
