"""The tracking event catalog (contract section 7) as one definition: every key, its payload fields
and their rules, and the limits of a batch. Every check of this package reads it.

>>> CATALOG["ar_requested"].fields_by_name["platform"].describe()
'one of: ios, android, webxr'
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field

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
CUSTOM_PATTERN = re.compile(r"custom\.[a-z][a-z0-9_]{0,63}")
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
