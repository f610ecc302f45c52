"""The tracking batch endpoint's rules over raw HTTP, the batch sender, export, and durability under kill -9."""

from __future__ import annotations

import csv
import io
import json
import threading
import time
from datetime import UTC, datetime, timedelta

import httpx
import pandas as pd
import pytest
from conftest import ServerProcess
from helpers import new_viewer

import workbench


def post(server, vt, body, ctype="application/json"):
    raw = body if isinstance(body, (bytes, str)) else json.dumps(body)
    return httpx.post(f"{server.base_url}/viewers/{vt}/tracking-event/batch", content=raw, headers={"Content-Type": ctype})


def events_of(server, vt):
    return [json.loads(l) for l in httpx.get(server.local_url + "/tracking/events", params={"viewerToken": vt}).text.splitlines()]


HB = {"key": "heartbeat", "payload": {"visible": True}}


def test_all_valid_is_200(server):
    vt = new_viewer(server)
    r = post(server, vt, {"sessionId": "s", "events": [HB, {"key": "viewer_loaded", "payload": {"loadTimeMs": 812.5, "device": "mobile"}}]})
    assert r.status_code == 200
    assert r.json()["data"] == {"accepted": 2, "rejected": 0, "duplicates": 0, "errors": []}
    assert len(events_of(server, vt)) == 2


def test_text_plain_from_send_beacon(server):
    vt = new_viewer(server)
    assert post(server, vt, {"sessionId": "s", "events": [HB]}, "text/plain;charset=UTF-8").status_code == 200


def test_unknown_viewer_is_404(server):
    r = post(server, "vw_nobody", {"sessionId": "s", "events": [HB]})
    assert r.status_code == 404 and r.json()["error"]["code"] == "viewer_not_found"


def test_wrong_content_type_and_size(server):
    vt = new_viewer(server)
    r = post(server, vt, "sessionId=s", "application/x-www-form-urlencoded")
    assert r.status_code == 415
    big = {"sessionId": "s", "events": [{"key": "custom.blob", "payload": {"x": "y" * 7000}}] * 80}
    r = post(server, vt, big)
    assert r.status_code == 413 and r.json()["error"]["code"] == "payload_too_large"
    assert events_of(server, vt) == []


@pytest.mark.parametrize("body,code,field", [
    (b"{nope", "invalid_json", None),
    (b"\xff\xfe", "invalid_json", None),
    ([1, 2], "invalid_body", None),
    ({"events": [HB]}, "invalid_session_id", "sessionId"),
    ({"sessionId": 5, "events": [HB]}, "invalid_session_id", "sessionId"),
    ({"sessionId": "", "events": [HB]}, "invalid_session_id", "sessionId"),
    ({"sessionId": "s" * 129, "events": [HB]}, "invalid_session_id", "sessionId"),
    ({"sessionId": "s"}, "invalid_events", "events"),
    ({"sessionId": "s", "events": {"key": "heartbeat"}}, "invalid_events", "events"),
    ({"sessionId": "s", "events": []}, "empty_events", "events"),
    ({"sessionId": "s", "events": [HB] * 101}, "too_many_events", "events"),
])
def test_request_level_rules(server, body, code, field):
    vt = new_viewer(server)
    r = post(server, vt, body)
    assert r.status_code == 400, r.text
    err = r.json()["error"]
    assert err["code"] == code
    if field:
        assert err["details"][0]["field"] == field
    assert events_of(server, vt) == []


NOW = datetime.now(UTC)


@pytest.mark.parametrize("event,code,field", [
    ("heartbeat", "not_an_object", None),
    ({"payload": {}}, "missing_key", "key"),
    ({"key": "teleported"}, "unknown_key", "key"),
    ({"key": "custom.Bad-Name"}, "unknown_key", "key"),
    ({**HB, "colour": "red"}, "unknown_field", "colour"),
    ({"key": "heartbeat", "payload": {"visible": True, "x": 1}}, "unknown_field", "payload.x"),
    ({"key": "heartbeat", "payload": {}}, "invalid_payload", "payload.visible"),
    ({"key": "heartbeat", "payload": {"visible": "yes"}}, "invalid_payload", "payload.visible"),
    ({"key": "viewer_loaded", "payload": {"loadTimeMs": -1}}, "invalid_payload", "payload.loadTimeMs"),
    ({"key": "viewer_loaded", "payload": {"loadTimeMs": 5, "device": "watch"}}, "invalid_payload", "payload.device"),
    ({"key": "ar_requested", "payload": {"platform": "symbian"}}, "invalid_payload", "payload.platform"),
    ({"key": "hotspot_opened", "payload": "h1"}, "invalid_payload", "payload"),
    ({**HB, "timestamp": "yesterday"}, "invalid_timestamp", "timestamp"),
    ({**HB, "timestamp": "2026-11-01T10:00:00"}, "invalid_timestamp", "timestamp"),
    ({**HB, "timestamp": "1999-12-31T23:59:59Z"}, "invalid_timestamp", "timestamp"),
    ({**HB, "timestamp": int((NOW + timedelta(hours=25)).timestamp() * 1000)}, "invalid_timestamp", "timestamp"),
    ({**HB, "id": ""}, "invalid_id", "id"),
    ({**HB, "id": "x" * 65}, "invalid_id", "id"),
    ({**HB, "id": 7}, "invalid_id", "id"),
    ({"key": "custom.big", "payload": {"blob": "z" * 9000}}, "payload_too_large", "payload"),
])
def test_event_level_rules_reject_that_event_only(server, event, code, field):
    vt = new_viewer(server)
    r = post(server, vt, {"sessionId": "s", "events": [HB, event]})
    assert r.status_code == 207, r.text
    d = r.json()["data"]
    assert (d["accepted"], d["rejected"]) == (1, 1)
    err = d["errors"][0]
    assert (err["index"], err["code"]) == (1, code) and err["message"]
    if field is not None:
        assert err["field"] == field
    assert len(events_of(server, vt)) == 1


def test_all_invalid_is_400_with_per_event_details(server):
    vt = new_viewer(server)
    r = post(server, vt, {"sessionId": "s", "events": [{"key": "nope"}, {"payload": {}}]})
    assert r.status_code == 400
    err = r.json()["error"]
    assert err["code"] == "all_events_invalid"
    assert [(d["index"], d["code"]) for d in err["details"]] == [(0, "unknown_key"), (1, "missing_key")]


def test_timestamps_and_custom_events_are_stored(server):
    vt = new_viewer(server)
    events = [{"key": "custom.quiz_answered", "payload": {"q": 3, "right": True}, "timestamp": "2026-11-20T10:00:00+02:00"},
              {**HB, "timestamp": 1763000000000}]
    assert post(server, vt, {"sessionId": "s", "events": events}).status_code == 200
    stored = events_of(server, vt)
    assert [e["timestamp"] for e in stored] == ["2025-11-13T02:13:20.000Z", "2026-11-20T08:00:00.000Z"]
    assert stored[1]["payload"] == {"q": 3, "right": True}


def test_duplicates_are_stored_once_within_and_across_batches(server):
    vt = new_viewer(server)
    e1, e2 = {**HB, "id": "a"}, {**HB, "id": "b"}
    d = post(server, vt, {"sessionId": "s", "events": [e1, e1, e2]}).json()["data"]
    assert (d["accepted"], d["duplicates"]) == (3, 1)
    d = post(server, vt, {"sessionId": "s", "events": [e2, {**HB, "id": "c"}]}).json()["data"]
    assert (d["accepted"], d["duplicates"]) == (2, 1)
    assert sorted(e["id"] for e in events_of(server, vt)) == ["a", "b", "c"]
    # The same id on another viewer is another event.
    vt2 = new_viewer(server)
    assert post(server, vt2, {"sessionId": "s", "events": [e1]}).json()["data"]["duplicates"] == 0


def test_export_filters_and_csv(server):
    vt = new_viewer(server)
    events = [{**HB, "timestamp": f"2026-11-0{d}T12:00:00Z", "id": f"e{d}"} for d in (1, 2, 3)]
    post(server, vt, {"sessionId": "s", "events": events})
    q = {"viewerToken": vt, "since": "2026-11-02T00:00:00Z", "until": "2026-11-03T00:00:00Z"}
    lines = httpx.get(server.local_url + "/tracking/events", params=q).text.splitlines()
    assert [json.loads(l)["id"] for l in lines] == ["e2"]
    text = httpx.get(server.local_url + "/tracking/events", params={"viewerToken": vt, "format": "csv"}).text
    rows = list(csv.DictReader(io.StringIO(text)))
    assert [r["id"] for r in rows] == ["e1", "e2", "e3"] and json.loads(rows[0]["payload"]) == {"visible": True}
    r = httpx.get(server.local_url + "/tracking/events", params={"format": "xml"})
    assert r.status_code == 400 and r.json()["error"]["details"][0]["field"] == "format"


# ---------------------------------------------------------------- the batch sender

def test_sender_reports_and_resends_safely(client):
    vt = client.local.create_viewer("product")["viewerToken"]
    events = [{"key": "heartbeat", "payload": {"visible": i % 2 == 0}, "timestamp": f"2026-11-01T00:{i // 60:02d}:{i % 60:02d}Z"}
              for i in range(230)]
    events[5] = {"key": "viewer_loaded", "payload": {"loadTimeMs": -5}}
    events[17] = {"key": "not_in_catalog"}
    rep = client.tracking.send(vt, events, session_id="visit-1", progress=False)
    assert (rep.accepted, rep.rejected, rep.duplicates, rep.batches) == (228, 2, 0, 3)
    errs = rep.errors.set_index("position")
    assert errs.loc[5, "field"] == "payload.loadTimeMs" and errs.loc[17, "code"] == "unknown_key"
    assert (errs["stage"] == "client").all()
    again = client.tracking.send(vt, events, session_id="visit-1", progress=False)
    assert (again.accepted, again.duplicates) == (228, 228)
    assert len(client.local.events(vt)) == 228


def test_sender_takes_a_dataframe_with_sessions(client):
    vt = client.local.create_viewer("product")["viewerToken"]
    df = pd.DataFrame({"sessionId": ["a", "a", "b"], "key": ["viewer_loaded", "heartbeat", "heartbeat"],
                       "payload": [{"loadTimeMs": 100, "device": "desktop"}, {"visible": True}, {"visible": False}],
                       "timestamp": pd.to_datetime(["2026-11-01T10:00:00Z", "2026-11-01T10:00:05Z", "2026-11-01T11:00:00Z"])})
    rep = client.tracking.send(vt, df, progress=False)
    assert rep.accepted == 3 and rep.batches == 2
    stored = client.local.events(vt)
    assert sorted({e["sessionId"] for e in stored}) == ["a", "b"]
    assert stored[0]["timestamp"] == "2026-11-01T10:00:00.000Z"


def test_sender_raises_on_unknown_viewer(client):
    with pytest.raises(workbench.NotFoundError):
        client.tracking.send("vw_missing", [{"key": "heartbeat", "payload": {"visible": True}}], session_id="s", progress=False)


def test_sender_retries_through_5xx(client):
    vt = client.local.create_viewer("product")["viewerToken"]
    client.local.fault("tracking.send_batch", count=2, status=503)
    rep = client.tracking.send(vt, [{"key": "heartbeat", "payload": {"visible": True}}] * 3, session_id="s", progress=False)
    assert rep.accepted == 3 and rep.failed == 0


# ---------------------------------------------------------------- durability

# slow: a load of concurrent senders against a service killed and started again; the quick loop keeps
# tests/service/test_service_http.py::test_kill9_and_restart_lose_nothing.
@pytest.mark.slow
def test_kill9_during_concurrent_sending_loses_nothing_acknowledged(tmp_path):
    srv = ServerProcess(tmp_path / "data").start()
    try:
        vt = new_viewer(srv)
        acked: set[str] = set()
        sent: list[list[dict]] = []
        lock = threading.Lock()
        stop = threading.Event()

        def sender(n):
            with httpx.Client(timeout=5) as h:
                for b in range(10_000):
                    if stop.is_set():
                        return
                    batch = [{**HB, "id": f"t{n}-b{b}-e{i}"} for i in range(50)]
                    with lock:
                        sent.append(batch)
                    try:
                        r = h.post(f"{srv.base_url}/viewers/{vt}/tracking-event/batch", json={"sessionId": f"s{n}", "events": batch})
                    except httpx.HTTPError:
                        return
                    if r.status_code == 200:
                        with lock:
                            acked.update(e["id"] for e in batch)

        threads = [threading.Thread(target=sender, args=(n,)) for n in range(6)]
        for t in threads:
            t.start()
        deadline = time.monotonic() + 20
        while len(acked) < 3000 and time.monotonic() < deadline:
            time.sleep(0.02)
        srv.kill9()
        stop.set()
        for t in threads:
            t.join(10)
        assert len(acked) >= 3000
        srv.start()
        stored = {e["id"] for e in events_of(srv, vt)}
        assert acked <= stored, f"{len(acked - stored)} acknowledged events were lost"
        # The client resends everything it sent; nothing is stored twice.
        c = srv.client(backoff=0.01)
        rep = c.tracking.send(vt, [e for b in sent for e in b], session_id="resend", progress=False)
        everything = {e["id"] for b in sent for e in b}
        after = events_of(srv, vt)
        assert len(after) == len({e["id"] for e in after}) == len(everything)
        assert rep.accepted == len(everything)
    finally:
        srv.stop()
