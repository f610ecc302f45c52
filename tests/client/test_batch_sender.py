"""The client's batch sender (``client.tracking.send``) against a recording transport: how it checks,
names, splits and reports, with the limits read from the tracking catalog."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import httpx
import pandas as pd
import pytest

import workbench
from workbench.client import _batches
from workbench.tracking import catalog


class Recorder:
    """A service stand-in that accepts every event and keeps the bodies it was sent."""

    def __init__(self):
        self.bodies: list[dict] = []

    def __call__(self, request: httpx.Request) -> httpx.Response:
        raw = request.read()
        assert len(raw) <= catalog.MAX_BODY_BYTES
        body = json.loads(raw)
        self.bodies.append(body)
        errors = [{"index": i, "code": "unknown_key", "message": "no", "field": "key"}
                  for i, e in enumerate(body["events"]) if e["key"] == "custom.refused_by_service"]
        n = len(body["events"])
        data = {"accepted": n - len(errors), "rejected": len(errors), "duplicates": 0, "errors": errors}
        return httpx.Response(207 if errors else 200, json={"status": "ok", "data": data})


def client_for(recorder) -> workbench.Client:
    return workbench.Client("http://h/api", "http://h/avatars", "t", transport=httpx.MockTransport(recorder))


def heartbeats(n: int) -> list[dict]:
    return [{"key": "heartbeat", "payload": {"visible": i % 2 == 0}, "timestamp": 1_790_000_000_000 + i}
            for i in range(n)]


def test_batches_hold_at_most_the_catalogs_limit_per_session():
    rec = Recorder()
    report = client_for(rec).tracking.send("vw", heartbeats(250), session_id="s1", progress=False)
    assert [len(b["events"]) for b in rec.bodies] == [catalog.MAX_EVENTS, catalog.MAX_EVENTS, 50]
    assert {b["sessionId"] for b in rec.bodies} == {"s1"}
    assert (report.accepted, report.batches, report.failed) == (250, 3, 0)


def test_batches_stay_under_the_body_limit():
    big = [{"key": "custom.note", "payload": {"text": "é" * 3000}, "id": f"n{i}"} for i in range(100)]
    rec = Recorder()
    report = client_for(rec).tracking.send("vw", big, session_id="s", progress=False)
    assert report.accepted == 100 and len(rec.bodies) > 1  # the recorder asserts each body's size


def test_invalid_events_are_reported_by_the_client_and_not_sent():
    events = heartbeats(3) + [{"key": "viewer_loaded", "payload": {"loadTimeMs": -1}}, {"key": "nope"}]
    rec = Recorder()
    report = client_for(rec).tracking.send("vw", events, session_id="s", progress=False)
    assert sum(len(b["events"]) for b in rec.bodies) == 3
    errs = report.errors
    assert errs["position"].tolist() == [3, 4]
    assert errs["code"].tolist() == ["invalid_payload", "unknown_key"]  # the catalog's own codes
    assert errs["field"].tolist() == ["payload.loadTimeMs", "key"]
    assert set(errs["stage"]) == {"client"}


def test_service_rejections_are_joined_back_to_their_events():
    events = heartbeats(2) + [{"key": "custom.refused_by_service"}]
    report = client_for(Recorder()).tracking.send("vw", events, session_id="s", progress=False)
    assert report.errors[["position", "stage", "code"]].values.tolist() == [[2, "service", "unknown_key"]]


def test_ids_are_given_deterministically():
    runs = []
    for _ in range(2):
        rec = Recorder()
        client_for(rec).tracking.send("vw", heartbeats(5), session_id="s", progress=False)
        runs.append([e["id"] for b in rec.bodies for e in b["events"]])
    assert runs[0] == runs[1] and len(set(runs[0])) == 5
    rec = Recorder()
    client_for(rec).tracking.send("other viewer", heartbeats(5), session_id="s", progress=False)
    assert not set(runs[0]) & {e["id"] for b in rec.bodies for e in b["events"]}


def test_a_dataframe_with_sessions_and_times():
    df = pd.DataFrame({"sessionId": ["a", "b", "a"], "key": ["heartbeat"] * 3,
                       "payload": [{"visible": True}] * 3,
                       "timestamp": pd.to_datetime(["2026-11-01T10:00:00.123456Z"] * 3, utc=True),
                       "extra": [1, 2, 3]})
    rec = Recorder()
    report = client_for(rec).tracking.send("vw", df, progress=False)
    assert report.accepted == 3 and sorted(b["sessionId"] for b in rec.bodies) == ["a", "b"]
    sent = rec.bodies[0]["events"][0]
    assert set(sent) == {"key", "payload", "timestamp", "id"}  # columns outside the event are not sent
    ms = catalog.check_event(sent, now=datetime(2026, 11, 2, tzinfo=UTC))[0]["timestamp"]
    assert ms == int(pd.Timestamp("2026-11-01T10:00:00.123Z").value // 1_000_000)


def test_no_session_is_an_option_error():
    with pytest.raises(workbench.OptionError) as e:
        client_for(Recorder()).tracking.send("vw", heartbeats(1), progress=False)
    assert e.value.problems[0].field == "session_id"


def test_the_sender_lives_in_the_client():
    from workbench import client, tracking

    assert client.SendReport is _batches.SendReport
    with pytest.raises(AttributeError, match="client.tracking.send"):
        tracking.send_events  # noqa: B018


def test_ids_of_dataframe_rows_are_hashed_over_the_iso_time_as_before():
    # Times now go as epoch milliseconds, but an id is still the hash of the event with its time
    # written as ISO 8601 (how DataFrame times were sent before), so resending old data stores nothing twice.
    from workbench.client._batches import event_id, plan

    df = pd.DataFrame({"sessionId": ["a"], "key": ["heartbeat"], "payload": [{"visible": True}],
                       "timestamp": pd.to_datetime(["2026-11-01T10:00:00.123456Z"], utc=True)})
    expected = event_id("vw", "a", 0, {"key": "heartbeat", "payload": {"visible": True},
                                       "timestamp": "2026-11-01T10:00:00.123Z"})
    assert plan("vw", df, None, True).columns["id"] == [expected]
    ints = df.assign(timestamp=[1_793_527_200_123])  # integer times are hashed as they are
    assert plan("vw", ints, None, True).columns["id"] == [event_id("vw", "a", 0, {
        "key": "heartbeat", "payload": {"visible": True}, "timestamp": 1_793_527_200_123})]
