"""Tracking batches committed together (``Backend.tracking_batches``, what the app's tracking writer
calls with the batches of one turn of the event loop) answer each batch as if it came alone."""

from __future__ import annotations

import json

from helpers import post_batches

from workbench.service import Backend, create_app
from workbench.service.errors import ServiceError

HB = {"key": "heartbeat", "payload": {"visible": True}}


def batch(sid, events) -> bytes:
    return json.dumps({"sessionId": sid, "events": events}).encode()


def test_a_group_answers_each_batch_as_alone(tmp_path):
    b = Backend(tmp_path, generate_library=False)
    vt = b.create_viewer({"kind": "product"})["viewerToken"]
    out = b.tracking_batches([
        (vt, batch("s1", [{**HB, "id": "a"}, {**HB, "id": "b"}])),
        ("vw_nobody", batch("s2", [HB])),
        (vt, batch("s3", [{"key": "nope"}])),
        (vt, batch("s4", [{**HB, "id": "a"}, {"key": "nope"}, {**HB, "id": "c"}])),  # "a" is stored by the first
        (vt, b"{not json"),
        (vt, {"sessionId": "s5", "events": [{**HB, "id": "d"}]}),  # a decoded body works too
    ])
    assert out[0] == (200, {"accepted": 2, "rejected": 0, "duplicates": 0, "errors": []})
    assert isinstance(out[1], ServiceError) and out[1].code == "viewer_not_found"
    assert isinstance(out[2], ServiceError) and out[2].code == "all_events_invalid"
    assert out[3][0] == 207 and out[3][1]["accepted"] == 2 and out[3][1]["duplicates"] == 1
    assert isinstance(out[4], ServiceError) and out[4].code == "invalid_json"
    assert out[5][0] == 200
    assert sorted(e["id"] for e in json.loads("[" + ",".join(b.tracking.export(vt, None, None, "jsonl")[0].split()) + "]")) \
        == ["a", "b", "c", "d"]
    b.close()


def test_concurrent_batches_through_the_app(tmp_path):
    b = Backend(tmp_path, generate_library=False)
    vt = b.create_viewer({"kind": "product"})["viewerToken"]
    bodies = [batch(f"s{n}", [{**HB, "id": f"e{n}-{i}"} for i in range(50)] + [{**HB, "id": "shared"}]) for n in range(12)]
    answers = post_batches(create_app(b), vt, bodies)
    assert {r.status_code for r in answers} == {200}
    data = [r.json()["data"] for r in answers]
    assert sum(d["accepted"] for d in data) == 12 * 51 and sum(d["duplicates"] for d in data) == 11
    assert b.tracking.count(vt) == 12 * 50 + 1
    b.close()
