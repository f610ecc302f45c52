"""A viewer page on another origin sends tracking by JSON fetch and by sendBeacon, and regenerates by
a Bearer fetch and by the beacon form; the service's export holds exactly what the page sent.

Fails without CORS: the JSON fetch and the Bearer fetch die in their preflights (their events and
their regeneration never arrive), and the page cannot read any answer.
"""

from __future__ import annotations

import json
from datetime import datetime

import httpx
import pytest
from helpers import new_viewer, wait_for

from .conftest import open_page, run_async


@pytest.fixture(scope="module")
def page(browser, pages):
    open_page(browser, pages + "/tracking.html")
    return browser


def exported(server, vt) -> list[dict]:
    r = httpx.get(server.local_url + "/tracking/events", params={"viewerToken": vt, "format": "jsonl"})
    return [json.loads(line) for line in r.text.splitlines() if line.strip()]


def as_stored(batch: dict) -> list[tuple]:
    return sorted((batch["sessionId"], e["id"], e["key"], json.dumps(e["payload"], sort_keys=True), e["timestamp"])
                  for e in batch["events"])


def from_export(rows: list[dict]) -> list[tuple]:
    return sorted((r["sessionId"], r["id"], r["key"], json.dumps(r["payload"], sort_keys=True),
                   round(datetime.fromisoformat(r["timestamp"].replace("Z", "+00:00")).timestamp() * 1000)) for r in rows)


def test_tracking_by_fetch_and_beacon_arrives_exactly(page, server):
    vt = new_viewer(server)
    url = f"{server.base_url}/viewers/{vt}/tracking-event/batch"
    by_fetch = run_async(page, "window.workbench.sendByFetch", url, "fetch-session", 12)
    assert by_fetch["status"] == 200, by_fetch
    assert by_fetch["answer"]["data"] == {"accepted": 12, "rejected": 0, "duplicates": 0, "errors": []}
    assert by_fetch["requestId"]
    by_beacon = run_async(page, "window.workbench.sendByBeacon", url, "beacon-session", 7)
    assert by_beacon["queued"] is True
    sent = as_stored(by_fetch["sent"]) + as_stored(by_beacon["sent"])
    rows = wait_for(lambda: (r := exported(server, vt)) and len(r) >= len(sent) and r)
    assert from_export(rows) == sorted(sent)
    # The page can read an error's envelope and its request id.
    err = run_async(page, "window.workbench.readError", url)
    assert err["status"] == 400 and err["answer"]["status"] == "error" and err["requestId"]


def test_regenerate_by_bearer_fetch_and_by_beacon_form(page, server):
    first, second = new_viewer(server), new_viewer(server)
    regen = f"{server.base_url}/viewers/{{}}/regenerate/all"
    out = run_async(page, "window.workbench.regenerateByFetch", regen.format(first), server.token)
    assert out["status"] == 200 and out["answer"]["data"]["viewerToken"] == first
    assert out["answer"]["data"]["state"] == "started"
    assert run_async(page, "window.workbench.regenerateByBeacon", regen.format(second), server.token)["queued"] is True
    for vt in (first, second):
        record = wait_for(lambda vt=vt: (d := httpx.get(f"{server.local_url}/viewers/{vt}").json()["data"]) and d.get("job") and d)
        assert record and record["job"], (vt, record)
