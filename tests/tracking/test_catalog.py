"""Tests of the tracking event catalog and its event and batch checks (contract section 7)."""

from __future__ import annotations

import json
import math
from datetime import UTC, datetime, timedelta

import pytest

from workbench.tracking.catalog import (
    CATALOG,
    EVENT_ERROR_CODES,
    MAX_PAYLOAD_BYTES,
    BatchRejected,
    catalog_frame,
    check_batch,
    check_event,
    payload_size,
)

NOW = datetime(2026, 11, 1, 12, 0, tzinfo=UTC)
NOW_MS = 1_793_534_400_000  # worked out: 2026-11-01T12:00Z
assert int(NOW.timestamp() * 1000) == NOW_MS

GOOD_PAYLOADS = {
    "viewer_loaded": {"loadTimeMs": 812.5, "device": "tablet", "referrer": "https://shop.example/p/1"},
    "model_loaded": {"loadTimeMs": 0},
    "load_error": {"reason": "network"},
    "interaction_start": {"kind": "pan"},
    "hotspot_opened": {"hotspotId": "h1"},
    "variant_selected": {"variantId": "red"},
    "animation_played": {"name": "wave"},
    "ar_requested": {"platform": "webxr"},
    "ar_session_started": {"platform": "android"},
    "ar_object_placed": {},
    "ar_session_ended": {"durationMs": 30000},
    "fullscreen_toggled": {"enabled": False},
    "cta_clicked": {"target": "buy"},
    "zone_entered": {"zoneId": "lobby"},
    "avatar_spawned": {"modelId": "0123456789abcdef01234567"},
    "heartbeat": {"visible": True},
    "viewer_closed": {"durationMs": 61000.25},
}


def ok(obj):
    event, error = check_event(obj, now=NOW)
    assert error is None, error
    return event


def bad(obj):
    event, error = check_event(obj, now=NOW)
    assert event is None
    assert set(error) == {"code", "message", "field"}
    assert error["code"] in EVENT_ERROR_CODES
    # one sentence
    assert error["message"].endswith(".") and error["message"].count(". ") == 0
    return error["code"], error["field"]


# ---------------------------------------------------------------- catalog

def test_catalog_holds_every_contract_key():
    assert set(CATALOG) == set(GOOD_PAYLOADS) | {"custom.NAME"}
    assert CATALOG["viewer_loaded"].fields_by_name["device"].allowed == ("desktop", "mobile", "tablet")
    assert CATALOG["viewer_loaded"].fields_by_name["device"].required is False
    assert CATALOG["viewer_closed"].fields_by_name["durationMs"].minimum == 0


def test_catalog_frame_one_row_per_key_and_field():
    df = catalog_frame()
    assert list(df.columns) == ["key", "field", "type", "required", "allowed"]
    # 17 keys; viewer_loaded has 3 fields, ar_object_placed 0 (one row), custom one row
    assert len(df) == 16 + 3 - 1 + 1 + 1
    row = df[(df.key == "interaction_start")].iloc[0]
    assert (row.field, row.type, row.required, row.allowed) == ("kind", "string", True, "one of: rotate, zoom, pan")
    assert df[df.key == "ar_object_placed"].iloc[0].type == "none"
    assert df[df.key == "custom.NAME"].iloc[0].type == "object"


# ---------------------------------------------------------------- good events

@pytest.mark.parametrize("key", sorted(GOOD_PAYLOADS))
def test_every_key_accepts_its_payload(key):
    event = ok({"key": key, "payload": GOOD_PAYLOADS[key]})
    assert event == {"key": key, "payload": GOOD_PAYLOADS[key], "timestamp": NOW_MS, "id": None}


def test_optional_fields_may_be_left_out():
    assert ok({"key": "viewer_loaded", "payload": {"loadTimeMs": 5}})["payload"] == {"loadTimeMs": 5}
    assert ok({"key": "ar_object_placed"})["payload"] == {}


def test_null_top_level_fields_mean_absent():
    event = ok({"key": "ar_object_placed", "payload": None, "timestamp": None, "id": None})
    assert event == {"key": "ar_object_placed", "payload": {}, "timestamp": NOW_MS, "id": None}


def test_custom_keys():
    assert ok({"key": "custom.a"})["payload"] == {}
    assert ok({"key": "custom.cart_add_2", "payload": {"x": [1, {"y": None}]}})["payload"] == {"x": [1, {"y": None}]}
    assert ok({"key": "custom.a" + "b" * 63})["key"].endswith("b")
    assert bad({"key": "custom.a" + "b" * 64}) == ("unknown_key", "key")
    for key in ("custom.", "custom.1a", "custom.Ab", "custom.a-b", "custom.NAME", "Custom.a", "custom.a.b"):
        assert bad({"key": key}) == ("unknown_key", "key"), key


# ---------------------------------------------------------------- event errors

def test_not_an_object():
    for obj in ([], "heartbeat", 3, None, True):
        assert bad(obj) == ("not_an_object", None)


def test_missing_key():
    assert bad({"payload": {}}) == ("missing_key", "key")
    assert bad({"key": None}) == ("missing_key", "key")


def test_unknown_key():
    assert bad({"key": "page_view"}) == ("unknown_key", "key")
    assert bad({"key": ""}) == ("unknown_key", "key")
    assert bad({"key": 5}) == ("unknown_key", "key")
    assert bad({"key": ["heartbeat"]}) == ("unknown_key", "key")
    assert bad({"key": "Heartbeat", "payload": {"visible": True}}) == ("unknown_key", "key")


def test_unknown_top_level_field():
    assert bad({"key": "ar_object_placed", "foo": 1}) == ("unknown_field", "foo")
    assert bad({"key": "ar_object_placed", "sessionId": "s"}) == ("unknown_field", "sessionId")


def test_unknown_payload_field_of_catalog_key():
    assert bad({"key": "heartbeat", "payload": {"visible": True, "foo": 1}}) == ("unknown_field", "payload.foo")
    assert bad({"key": "ar_object_placed", "payload": {"x": 1}}) == ("unknown_field", "payload.x")
    assert bad({"key": "viewer_loaded", "payload": {"loadtimeMs": 1}}) == ("unknown_field", "payload.loadtimeMs")


@pytest.mark.parametrize("payload, field", [
    ({}, "payload.loadTimeMs"),                                   # required missing
    ({"loadTimeMs": -0.001}, "payload.loadTimeMs"),               # below range
    ({"loadTimeMs": "12"}, "payload.loadTimeMs"),                 # wrong type
    ({"loadTimeMs": True}, "payload.loadTimeMs"),                 # boolean is not a number
    ({"loadTimeMs": None}, "payload.loadTimeMs"),                 # null is not a number
    ({"loadTimeMs": math.nan}, "payload.loadTimeMs"),
    ({"loadTimeMs": math.inf}, "payload.loadTimeMs"),
    ({"loadTimeMs": 1, "device": "phone"}, "payload.device"),     # not in the set
    ({"loadTimeMs": 1, "device": None}, "payload.device"),
    ({"loadTimeMs": 1, "referrer": 7}, "payload.referrer"),
])
def test_invalid_viewer_loaded_payloads(payload, field):
    assert bad({"key": "viewer_loaded", "payload": payload}) == ("invalid_payload", field)


def test_invalid_payloads_of_other_keys():
    assert bad({"key": "heartbeat", "payload": {"visible": 1}}) == ("invalid_payload", "payload.visible")
    assert bad({"key": "heartbeat", "payload": {"visible": "true"}}) == ("invalid_payload", "payload.visible")
    assert bad({"key": "interaction_start", "payload": {"kind": "ROTATE"}}) == ("invalid_payload", "payload.kind")
    assert bad({"key": "ar_requested", "payload": {"platform": "windows"}}) == ("invalid_payload", "payload.platform")
    assert bad({"key": "ar_session_ended", "payload": {"durationMs": -1}}) == ("invalid_payload", "payload.durationMs")
    assert bad({"key": "hotspot_opened", "payload": {"hotspotId": 3}}) == ("invalid_payload", "payload.hotspotId")
    assert bad({"key": "hotspot_opened"}) == ("invalid_payload", "payload.hotspotId")
    assert bad({"key": "viewer_closed", "payload": {"durationMs": float("-inf")}}) == ("invalid_payload", "payload.durationMs")


def test_zero_and_huge_numbers_are_in_range():
    assert ok({"key": "ar_session_ended", "payload": {"durationMs": 0}})["payload"]["durationMs"] == 0
    assert ok({"key": "ar_session_ended", "payload": {"durationMs": 10**308}})
    assert ok({"key": "ar_session_ended", "payload": {"durationMs": 1.7976931348623157e308}})
    # past a double's range the lake's float64 column cannot hold it (issue 27)
    assert bad({"key": "ar_session_ended", "payload": {"durationMs": 10**400}}) == ("invalid_payload", "payload.durationMs")


def test_payload_not_an_object():
    for payload in ([], "x", 1, True):
        assert bad({"key": "heartbeat", "payload": payload}) == ("invalid_payload", "payload")
        assert bad({"key": "custom.x", "payload": payload}) == ("invalid_payload", "payload")


def test_custom_payload_with_nan_is_invalid():
    assert bad({"key": "custom.x", "payload": {"v": math.nan}}) == ("invalid_payload", "payload")


def test_payload_too_large_boundary():
    # {"reason":"..."} is 13 bytes around the string: 8192 bytes exactly is allowed.
    fits = "r" * (MAX_PAYLOAD_BYTES - 13)
    assert payload_size({"reason": fits}) == MAX_PAYLOAD_BYTES
    assert ok({"key": "load_error", "payload": {"reason": fits}})
    assert bad({"key": "load_error", "payload": {"reason": fits + "r"}}) == ("payload_too_large", "payload")
    # multi-byte characters count in UTF-8 bytes: 2 bytes each
    assert bad({"key": "load_error", "payload": {"reason": "é" * 4096}}) == ("payload_too_large", "payload")
    assert ok({"key": "load_error", "payload": {"reason": "é" * 4000}})
    # custom payloads: {"a":[...]} with 8192 - 8 bytes of list
    assert bad({"key": "custom.big", "payload": {"a": ["x" * 9000]}}) == ("payload_too_large", "payload")
    assert ok({"key": "custom.big", "payload": {"a": "x" * (MAX_PAYLOAD_BYTES - 8)}})
    assert bad({"key": "custom.big", "payload": {"a": "x" * (MAX_PAYLOAD_BYTES - 7)}}) == ("payload_too_large", "payload")


def test_payload_size_counts_huge_numbers_and_wide_characters():
    # {"loadTimeMs":N,"referrer":"S"}: 29 bytes of syntax + 4201 digits + 1000 x 4 bytes = 8230
    payload = {"loadTimeMs": 10**4200, "referrer": "\U0001F600" * 1000}
    assert payload_size(payload) == 8230
    assert bad({"key": "viewer_loaded", "payload": payload}) == ("payload_too_large", "payload")
    # under the size limit, the number is then refused for its range (issue 27)
    assert bad({"key": "viewer_loaded", "payload": {"loadTimeMs": 10**4200, "referrer": "\U0001F600" * 980}}) == (
        "invalid_payload", "payload.loadTimeMs")


def test_payload_too_large_wins_over_field_errors():
    assert bad({"key": "load_error", "payload": {"reason": "x" * 9000, "foo": 1}}) == ("payload_too_large", "payload")


# ---------------------------------------------------------------- timestamps

def test_timestamps_accepted_and_normalized():
    assert ok({"key": "custom.t", "timestamp": NOW_MS})["timestamp"] == NOW_MS
    assert ok({"key": "custom.t", "timestamp": "2026-11-01T12:00:00Z"})["timestamp"] == NOW_MS
    assert ok({"key": "custom.t", "timestamp": "2026-11-01T13:00:00+01:00"})["timestamp"] == NOW_MS
    assert ok({"key": "custom.t", "timestamp": "2026-11-01T07:30:00.5-04:30"})["timestamp"] == NOW_MS + 500
    # sub-millisecond digits are dropped, not rounded
    assert ok({"key": "custom.t", "timestamp": "2026-11-01T12:00:00.123999Z"})["timestamp"] == NOW_MS + 123
    assert ok({"key": "custom.t", "timestamp": "2000-01-01T00:00:00Z"})["timestamp"] == 946_684_800_000
    assert ok({"key": "custom.t", "timestamp": 946_684_800_000})["timestamp"] == 946_684_800_000


def test_timestamp_boundary_24h_ahead():
    limit = NOW_MS + 24 * 3600 * 1000
    assert ok({"key": "custom.t", "timestamp": limit})["timestamp"] == limit
    assert bad({"key": "custom.t", "timestamp": limit + 1}) == ("invalid_timestamp", "timestamp")
    assert ok({"key": "custom.t", "timestamp": "2026-11-02T12:00:00Z"})
    assert bad({"key": "custom.t", "timestamp": "2026-11-02T12:00:00.001Z"}) == ("invalid_timestamp", "timestamp")


@pytest.mark.parametrize("ts", [
    946_684_799_999,               # one ms before 2000
    "1999-12-31T23:59:59.999Z",
    0,
    -5,
    "2026-11-01T12:00:00",         # no zone
    "2026-11-01",                  # a date, no zone
    "yesterday",
    "",
    True,                          # booleans are not numbers
    1.793534400e12,                # a float is not integer epoch ms
    1793534400000.0,
    [NOW_MS],
    {"ms": NOW_MS},
    10**30,
    "9999-12-31T23:59:59-23:59",   # beyond the datetime range once converted to UTC
])
def test_invalid_timestamps(ts):
    assert bad({"key": "custom.t", "timestamp": ts}) == ("invalid_timestamp", "timestamp")


def test_now_must_be_aware():
    with pytest.raises(ValueError):
        check_event({"key": "custom.t"}, now=datetime(2026, 11, 1))


# ---------------------------------------------------------------- ids

def test_ids():
    assert ok({"key": "custom.t", "id": "x"})["id"] == "x"
    assert ok({"key": "custom.t", "id": "x" * 64})["id"] == "x" * 64
    for eid in ("", "x" * 65, 5, True, ["a"], {"a": 1}):
        assert bad({"key": "custom.t", "id": eid}) == ("invalid_id", "id"), eid


def test_error_order_one_error_per_event():
    # unknown key beats unknown field; unknown field beats bad id; bad id beats bad timestamp;
    # bad timestamp beats bad payload
    assert bad({"key": "nope", "foo": 1})[0] == "unknown_key"
    assert bad({"key": "heartbeat", "foo": 1, "id": 3})[0] == "unknown_field"
    assert bad({"key": "heartbeat", "id": 3, "timestamp": "x"})[0] == "invalid_id"
    assert bad({"key": "heartbeat", "timestamp": "x", "payload": 1})[0] == "invalid_timestamp"


# ---------------------------------------------------------------- batches

def batch(events, **extra):
    return {"sessionId": "s-1", "events": events, **extra}


def rejected(body):
    with pytest.raises(BatchRejected) as info:
        check_batch(body, now=NOW)
    return info.value.code, info.value.field, info.value.status


def test_request_level_rejections():
    hb = {"key": "heartbeat", "payload": {"visible": True}}
    assert rejected([hb]) == ("invalid_body", None, 400)
    assert rejected("x") == ("invalid_body", None, 400)
    assert rejected({"events": [hb]}) == ("invalid_session_id", "sessionId", 400)
    assert rejected({"sessionId": None, "events": [hb]}) == ("invalid_session_id", "sessionId", 400)
    assert rejected({"sessionId": 12, "events": [hb]}) == ("invalid_session_id", "sessionId", 400)
    assert rejected({"sessionId": "", "events": [hb]}) == ("invalid_session_id", "sessionId", 400)
    assert rejected({"sessionId": "s" * 129, "events": [hb]}) == ("invalid_session_id", "sessionId", 400)
    assert check_batch({"sessionId": "s" * 128, "events": [hb]}, now=NOW).session_id == "s" * 128
    assert rejected({"sessionId": "s"}) == ("invalid_events", "events", 400)
    assert rejected({"sessionId": "s", "events": {"0": hb}}) == ("invalid_events", "events", 400)
    assert rejected({"sessionId": "s", "events": None}) == ("invalid_events", "events", 400)
    assert rejected(batch([])) == ("empty_events", "events", 400)
    assert rejected(batch([hb] * 101)) == ("too_many_events", "events", 400)
    assert len(check_batch(batch([hb] * 100), now=NOW).accepted) == 100
    assert rejected(batch([hb], viewerToken="v")) == ("unknown_field", "viewerToken", 400)


def test_partial_batch():
    body = batch([
        {"key": "viewer_loaded", "payload": {"loadTimeMs": 10}, "id": "a"},
        "not an event",
        {"key": "hotspot_opened", "payload": {"hotspotId": 4}},
        {"key": "heartbeat", "payload": {"visible": True}, "id": "b"},
    ])
    r = check_batch(body, now=NOW)
    assert [i for i, _ in r.accepted] == [0, 3]
    assert [(e["index"], e["code"], e["field"]) for e in r.errors] == [
        (1, "not_an_object", None), (2, "invalid_payload", "payload.hotspotId")]
    assert r.status == 207
    data = r.summary()
    assert (data["accepted"], data["rejected"], data["duplicates"]) == (2, 2, 0)
    assert json.loads(json.dumps(data)) == data


def test_all_invalid_and_all_valid_status():
    assert check_batch(batch([{"key": "x"}, {}]), now=NOW).status == 400
    assert check_batch(batch([{"key": "custom.x"}]), now=NOW).status == 200


def test_duplicate_ids_in_one_batch():
    body = batch([
        {"key": "custom.a", "id": "dup"},
        {"key": "custom.b", "id": "dup"},        # duplicate of 0
        {"key": "custom.c", "id": "other"},
        {"key": "custom.a", "id": "dup"},        # duplicate of 0 again
        {"key": "custom.a"},                     # no id: never a duplicate
        {"key": "custom.a"},
    ])
    r = check_batch(body, now=NOW)
    assert r.duplicate_indexes == [1, 3]
    assert len(r.accepted) == 6
    assert [i for i, _ in r.to_store] == [0, 2, 4, 5]
    assert r.summary()["duplicates"] == 2
    assert r.summary(duplicates=5)["duplicates"] == 5


def test_id_of_a_rejected_event_does_not_make_a_duplicate():
    r = check_batch(batch([{"key": "bad", "id": "x"}, {"key": "custom.a", "id": "x"}]), now=NOW)
    assert r.duplicate_indexes == []
    assert [i for i, _ in r.to_store] == [1]


def test_batch_uses_one_now_for_missing_timestamps():
    r = check_batch(batch([{"key": "custom.a"}, {"key": "custom.b"}]), now=NOW)
    assert [e["timestamp"] for _, e in r.accepted] == [NOW_MS, NOW_MS]
    later = NOW + timedelta(days=2)
    r = check_batch(batch([{"key": "custom.a", "timestamp": "2026-11-03T00:00:00Z"}]), now=later)
    assert r.status == 200


# ---------------------------------------------------------------- the body's JSON
# The catalog checks decoded values; decoding a body is the service's one JSON reader
# (workbench.service.bodies), which tracking batches go through like every other body.

def test_the_one_json_reader_takes_and_refuses_batch_bodies():
    from workbench.service.bodies import decode_json
    from workbench.service.errors import ServiceError

    assert decode_json(b'{"sessionId":"s","events":[1]}') == {"sessionId": "s", "events": [1]}
    assert decode_json('{"a":"é"}'.encode()) == {"a": "é"}
    for raw in (b"", b"{", b"{'a':1}", b'{"a":NaN}', b'{"a":Infinity}', b"\xff\xfe{}", b'{"a":"\xe9"}', b"[" * 100000):
        with pytest.raises(ServiceError) as info:
            decode_json(raw)
        assert (info.value.code, info.value.status) == ("invalid_json", 400), raw[:10]


def test_batch_body_size_limit_over_http(tmp_path):
    import asyncio

    import httpx

    from workbench.service import Backend, create_app
    from workbench.tracking.catalog import MAX_BODY_BYTES

    backend = Backend(tmp_path, generate_library=False)
    vt = backend.create_viewer({"kind": "product"})["viewerToken"]
    head = b'{"sessionId":"s","events":[{"key":"custom.blob","payload":{"x":"'
    tail = b'"}}]}'
    body = head + b"x" * (MAX_BODY_BYTES - len(head) - len(tail)) + tail
    assert len(body) == MAX_BODY_BYTES

    async def post(content):
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=create_app(backend)), base_url="http://localhost") as c:
            return await c.post(f"/api/viewers/{vt}/tracking-event/batch", content=content,
                                headers={"Content-Type": "application/json"})

    assert asyncio.run(post(body)).status_code != 413
    r = asyncio.run(post(body + b" "))
    assert (r.status_code, r.json()["error"]["code"]) == (413, "payload_too_large")
    backend.close()
