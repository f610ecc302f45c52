"""The catalog's fast paths give exactly the answers of its plain checks.

``check_batch_json`` (the service: decode and check the JSON text in one pass) must equal
``check_batch(decode(text))``, refusals included; ``check_events`` (the client's pre-check) must
equal ``check_event`` on every event. Checked on synthetic traffic, on hand-picked edge cases
and on generated events and bodies (hypothesis).
"""

from __future__ import annotations

import enum
import json
from datetime import UTC, datetime, timedelta, timezone

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from workbench.service.bodies import decode_json
from workbench.service.errors import ServiceError
from workbench.tracking import catalog, synth

NOW = datetime(2026, 11, 1, 12, tzinfo=UTC)
NOW_MS = int(NOW.timestamp() * 1000)


def plain(raw: bytes, decode=decode_json):
    try:
        return "ok", catalog.check_batch(decode(raw), now=NOW)
    except catalog.BatchRejected as e:
        return "rejected", (e.code, e.message, e.field, e.status)
    except ServiceError as e:
        return "undecodable", (e.status, e.code, e.message)


def fast(raw: bytes, decode=decode_json):
    try:
        return "ok", catalog.check_batch_json(raw, now=NOW, decode=decode)
    except catalog.BatchRejected as e:
        return "rejected", (e.code, e.message, e.field, e.status)
    except ServiceError as e:
        return "undecodable", (e.status, e.code, e.message)


def same(raw: bytes) -> None:
    assert fast(raw) == plain(raw), raw[:300]


def body(events, sid="s1") -> bytes:
    return json.dumps({"sessionId": sid, "events": events}, ensure_ascii=False).encode()


HB = {"key": "heartbeat", "payload": {"visible": True}}


def test_synthetic_traffic_is_answered_the_same():
    records = synth.to_records(synth.generate(3000, seed=11, viewers=3))
    for r in records:
        for a in range(0, len(r["events"]), catalog.MAX_EVENTS):
            same(body(r["events"][a:a + catalog.MAX_EVENTS], r["sessionId"]))


EDGE_EVENTS = [
    {"key": "viewer_loaded", "payload": {"loadTimeMs": 12}},
    {"key": "viewer_loaded", "payload": {"loadTimeMs": 12.5, "device": "mobile", "referrer": ""}},
    {"key": "viewer_loaded", "payload": {"loadTimeMs": -1}},
    {"key": "viewer_loaded", "payload": {"loadTimeMs": 10**30}},
    {"key": "viewer_loaded", "payload": {"loadTimeMs": 1e308}},
    {"key": "viewer_loaded", "payload": {"loadTimeMs": True}},
    {"key": "viewer_loaded", "payload": {"loadTimeMs": 1, "device": None}},
    {"key": "viewer_loaded", "payload": {"loadTimeMs": 1, "device": "watch"}},
    {"key": "viewer_loaded", "payload": {"loadTimeMs": 1, "referrer": "é" * 1400}},
    {"key": "viewer_loaded", "payload": {"loadTimeMs": 1, "referrer": "\n" * 1400}},
    {"key": "viewer_loaded", "payload": {"loadTimeMs": 1, "referrer": "x" * 8200}},
    {"key": "viewer_loaded", "payload": {"loadTimeMs": 1, "loadtimeMs": 2}},
    {"key": "viewer_loaded"},
    {"key": "viewer_loaded", "payload": None},
    {"key": "ar_object_placed"},
    {"key": "ar_object_placed", "payload": None},
    {"key": "ar_object_placed", "payload": {}},
    {"key": "ar_object_placed", "payload": {"x": 1}},
    {"key": "ar_object_placed", "payload": []},
    {**HB, "timestamp": NOW_MS},
    {**HB, "timestamp": NOW_MS + 24 * 3600 * 1000},
    {**HB, "timestamp": NOW_MS + 24 * 3600 * 1000 + 1},
    {**HB, "timestamp": 946_684_799_999},
    {**HB, "timestamp": 10**40},
    {**HB, "timestamp": 1.7e12},
    {**HB, "timestamp": "2026-11-01T10:00:00.123456+02:00"},
    {**HB, "timestamp": "2026-11-01T10:00:00"},
    {**HB, "timestamp": "2026-11-01 10:00:00Z"},
    {**HB, "timestamp": "yesterday"},
    {**HB, "timestamp": None, "id": None, "payload": {"visible": False}},
    {**HB, "id": ""},
    {**HB, "id": "x" * 64},
    {**HB, "id": "x" * 65},
    {**HB, "id": "é" * 64},
    {**HB, "id": 5},
    {**HB, "id": "dup"},
    {**HB, "id": "dup"},
    {**HB, "colour": "red"},
    {"key": "custom.add_to_cart", "payload": {"sku": "a", "qty": 2, "nested": {"deep": [1, 2, {"x": None}]}}},
    {"key": "custom.big", "payload": {"blob": "z" * 9000}},
    {"key": "custom.Bad"},
    {"key": "nope"},
    {"key": None},
    {"payload": {}},
    {},
    [],
    "heartbeat",
    7,
    None,
]


@pytest.mark.parametrize("event", EDGE_EVENTS, ids=range(len(EDGE_EVENTS)))
def test_each_edge_case_beside_a_valid_event(event):
    same(body([HB, event]))
    assert catalog.check_events([HB, event], now=NOW) == [None, catalog.check_event(event, now=NOW)[1]]


def test_all_edge_cases_in_one_batch():
    same(body(EDGE_EVENTS))
    assert catalog.check_events(EDGE_EVENTS, now=NOW) == [catalog.check_event(e, now=NOW)[1] for e in EDGE_EVENTS]


@pytest.mark.parametrize("raw", [
    b"", b"{nope", b"[]", b"null", b'{"sessionId": "s"}', b'{"events": [{}]}', b'{"sessionId": "", "events": [{}]}',
    b'{"sessionId": "' + b"s" * 129 + b'", "events": [{}]}', b'{"sessionId": 5, "events": [{}]}',
    b'{"sessionId": "s", "events": []}', b'{"sessionId": "s", "events": {}}', body([HB] * 101),
    b'{"sessionId": "s", "events": [{}], "extra": 1}', b'{"sessionId": "a", "sessionId": "b", "events": [{"key": "nope"}]}',
    b'{"sessionId": "s", "events": [{"key": "heartbeat", "payload": {"visible": NaN}}]}',
    b'{"sessionId": "s", "events": [{"key": "viewer_loaded", "payload": {"loadTimeMs": 1e400}}]}',
    b'{"sessionId": "s", "events": [{"key": "custom.x", "payload": {"n": 1e400}}]}',
    b'{"sessionId": "s", "events": [{"key": "custom.x", "payload": {"n": ' + b"9" * 5000 + b"}}]}",
    b'{"sessionId": "s", "events": [{"key": "viewer_loaded", "payload": {"loadTimeMs": ' + b"9" * 5000 + b"}}]}",
    b'{"sessionId": "s", "events": [{"key": "heartbeat", "payload": {"visible": true}, "timestamp": ' + b"9" * 5000 + b"}]}",
    b'{"sessionId": "s", "events": [{"key": "custom.x", "payload": {"s": "\xff"}}]}',
    b'{"sessionId": "s", "events": [{"key": "load_error", "payload": {"reason": "\xff"}}]}',
    b'{"sessionId": "s", "events": [{"key": "load_error", "payload": {"reason": "\\ud800"}}]}',
    b'{"sessionId": "s", "events": [{"key": "heartbeat", "key": "heartbeat", "payload": {"visible": true}}]}',
    b'{"sessionId": "s", "events": [{"key": "heartbeat", "payload": {"visible": true, "visible": 1}}]}',
    b'{"sessionId": "s", "events": [{"key": "custom.x", "payload": ' + b"[" * 127 + b"]" * 127 + b"}]}",
    b'{"sessionId": "s", "events": [{"key": "custom.x", "payload": {"a": ' + b"[" * 124 + b"]" * 124 + b"}}]}",
    b'\xef\xbb\xbf{"sessionId": "s", "events": [{"key": "heartbeat", "payload": {"visible": true}}]}',
    b' {"sessionId": "s", "events": [{"key": "heartbeat", "payload": {"visible": true}}]} ',
    b'{"sessionId": "s", "events": [{"key": "heartbeat", "payload": {"visible": true}}]} x',
])
def test_refusals_and_oddities_of_the_text(raw):
    same(raw)


def test_a_decoder_that_refuses_is_asked_about_the_whole_body():
    # The fast path hands an event it cannot type to the decoder; a refusal there must be the
    # refusal of the whole body, as the plain way gives it.
    raw = body([HB, {"key": "custom.x", "payload": {"n": 1}}])

    def picky(text: bytes):
        if b"custom" in text:
            raise ValueError("no custom events here")
        return json.loads(text)

    with pytest.raises(ValueError, match="no custom"):
        catalog.check_batch_json(raw, now=NOW, decode=picky)


class Colour(str, enum.Enum):   # noqa: UP042  a str-mixin enum on purpose: a str subclass both checks must treat alike
    RED = "red"


@pytest.mark.parametrize("event", [
    {"key": "hotspot_opened", "payload": {"hotspotId": datetime(2026, 1, 1)}},
    {"key": "hotspot_opened", "payload": {"hotspotId": b"bytes"}},
    {"key": "hotspot_opened", "payload": {"hotspotId": Colour.RED}},
    {"key": "viewer_loaded", "payload": {"loadTimeMs": float("nan")}},
    {"key": "viewer_loaded", "payload": {"loadTimeMs": float("inf")}},
    {"key": "viewer_loaded", "payload": {"loadTimeMs": 1}, "timestamp": NOW},
    {"key": "viewer_loaded", "payload": {"loadTimeMs": 1}, "timestamp": NOW_MS - 1},
    {"key": "heartbeat", "payload": {"visible": 1}},
    {"key": "heartbeat", "payload": {"visible": True}, "id": ("a",)},
    {"key": "custom.x", "payload": {"when": datetime(2026, 1, 1)}},
    {"key": "custom.x", "payload": {1: "int key"}},
    {"key": "custom.x", "payload": {"n": float("nan")}},
])
def test_python_objects_are_checked_as_check_event_checks_them(event):
    assert catalog.check_events([HB, event, HB], now=NOW) == [None, catalog.check_event(event, now=NOW)[1], None]


# ---------------------------------------------------------------- generated

KEYS = st.sampled_from([*catalog.CATALOG, "custom.cart", "custom.Bad", "nope"])
SCALARS = st.one_of(
    st.none(), st.booleans(), st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=False, allow_infinity=False), st.text(max_size=20),
    st.sampled_from(["desktop", "ios", "rotate", "", "é", "x" * 1500]))
VALUES = st.one_of(SCALARS, st.lists(SCALARS, max_size=3), st.dictionaries(st.text(max_size=5), SCALARS, max_size=3))
FIELD_NAMES = st.sampled_from(sorted({f.name for s in catalog.CATALOG.values() for f in s.fields} | {"x", "sku"}))


@st.composite
def events(draw):
    key = draw(KEYS)
    spec = catalog.CATALOG.get(key)
    payload = {}
    for f in (spec.fields if spec else ()):
        if draw(st.integers(0, 9)) < 8:  # mostly the right fields, often with good values
            if f.allowed:
                payload[f.name] = draw(st.one_of(st.sampled_from(f.allowed), VALUES))
            elif f.type == "number":
                payload[f.name] = draw(st.one_of(st.floats(min_value=0, allow_infinity=False), st.integers(0, 10**6), VALUES))
            elif f.type == "boolean":
                payload[f.name] = draw(st.one_of(st.booleans(), VALUES))
            else:
                payload[f.name] = draw(st.one_of(st.text(max_size=30), VALUES))
    payload.update(draw(st.dictionaries(FIELD_NAMES, VALUES, max_size=1)))
    event = {"key": key}
    if draw(st.booleans()):
        event["payload"] = draw(st.one_of(st.just(payload), VALUES))
    if draw(st.booleans()):
        event["timestamp"] = draw(st.one_of(
            st.integers(NOW_MS - 10**12, NOW_MS + 2 * 86_400_000),
            st.datetimes(timezones=st.sampled_from([UTC, timezone(timedelta(hours=5)), None])).map(
                lambda d: d.isoformat()),
            VALUES))
    if draw(st.booleans()):
        event["id"] = draw(st.one_of(st.text(min_size=0, max_size=70), st.sampled_from(["a", "b"]), VALUES))
    if draw(st.integers(0, 9)) == 0:
        event[draw(st.sampled_from(["extra", "sessionId"]))] = 1
    return event


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(events(), min_size=1, max_size=120))
def test_generated_batches(evs):
    same(body(evs))
    assert catalog.check_events(evs, now=NOW) == [catalog.check_event(e, now=NOW)[1] for e in evs]
