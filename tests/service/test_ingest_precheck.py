"""A tracking batch checked as it arrives (``Backend.tracking_precheck``, on the service's event loop)
and stored later with others answers and stores exactly as the body handed in whole."""

from __future__ import annotations

import json

from workbench.service import Backend
from workbench.service.errors import ServiceError

HB = {"key": "heartbeat", "payload": {"visible": True}}


def batch(sid, events) -> bytes:
    return json.dumps({"sessionId": sid, "events": events}).encode()


def cases(vt):
    return [
        (vt, batch("s1", [{**HB, "id": "a"}, {**HB, "id": "b"}])),
        ("vw_nobody", batch("s2", [{"key": "nope"}])),  # the viewer is named first, before the events' faults
        (vt, batch("s3", [{"key": "nope"}])),
        (vt, batch("s4", [{**HB, "id": "a"}, {"key": "nope"}, {**HB, "id": "c\u0007"}, {**HB, "id": "d"}])),
        (vt, b"{not json"),
    ]


def summary(outcome):
    return (outcome.status, outcome.code, outcome.details) if isinstance(outcome, ServiceError) else outcome


def test_a_verdict_made_first_answers_and_stores_as_the_body(tmp_path):
    answers, stored = [], []
    for n, precheck in enumerate((False, True)):
        b = Backend(tmp_path / str(n), generate_library=False)
        vt = b.create_viewer({"kind": "product"})["viewerToken"]
        items = [(t, b.tracking_precheck(body) if precheck else body) for t, body in cases(vt)]
        answers.append([summary(o) for o in b.tracking_batches(items)])
        rows = [json.loads(line) for line in b.tracking.export(vt, None, None, "jsonl")[0].split("\n") if line]
        stored.append(sorted((r["sessionId"], r["id"], r["key"], json.dumps(r["payload"])) for r in rows))
        b.close()
    assert answers[0] == answers[1]
    assert answers[1][1][1] == "viewer_not_found" and answers[1][3][0] == 207
    assert stored[0] == stored[1] and [r[1] for r in stored[1]] == ["a", "b", "d"]


def test_an_event_without_a_time_takes_the_time_its_batch_was_received(tmp_path):
    b = Backend(tmp_path, generate_library=False)
    vt = b.create_viewer({"kind": "product"})["viewerToken"]
    verdict = b.tracking_precheck(batch("s", [HB, {**HB, "timestamp": 1_700_000_000_000}]))
    assert b.tracking_batches([(vt, verdict)]) == [(200, {"accepted": 2, "rejected": 0, "duplicates": 0, "errors": []})]
    rows = [json.loads(line) for line in b.tracking.export(vt, None, None, "jsonl")[0].split("\n") if line]
    untimed = [r for r in rows if r["timestamp"] != "2023-11-14T22:13:20.000Z"]
    assert len(untimed) == 1 and untimed[0]["timestamp"] == untimed[0]["receivedAt"]
    b.close()
