"""The batch sender stops at the first fatal answer and always ends with a report (sync and async).

A wrong viewer (404) or token (401, 403) fails every batch the same way: once one batch is answered
so, no further batch is sent, and the error raised carries the report of what was sent,
accepted and not sent. No answer at all (the service out of reach, after the client's retries)
stops the run the same way, instead of escaping with the report lost. Other failures (a 5xx
after retries) are reported per batch and the run goes on.
"""

from __future__ import annotations

import asyncio
import threading

import httpx
import pytest

import workbench
from workbench.client.errors import ForbiddenError, NotFoundError, TransportError, UnauthorizedError

HB = {"key": "heartbeat", "payload": {"visible": True}, "timestamp": 1790000000000}
EVENTS = [dict(HB, id=f"e{i}") for i in range(3000)]  # 30 batches
OK = {"status": "ok", "data": {"accepted": 100, "rejected": 0, "duplicates": 0, "errors": []}}


class Service:
    """A MockTransport handler: the first ``ok`` batches are accepted, then ``then`` answers (or raises)."""

    def __init__(self, ok: int, then):
        self.ok, self.then = ok, then
        self.requests = 0
        self.lock = threading.Lock()

    def __call__(self, request: httpx.Request) -> httpx.Response:
        with self.lock:
            self.requests += 1
            n = self.requests
        if n <= self.ok:
            return httpx.Response(200, json=OK)
        return self.then(request)


def refusal(status: int, code: str):
    return lambda request: httpx.Response(status, json={"status": "error", "error": {"code": code, "message": code}})


def unreachable(request):
    raise httpx.ConnectError("connection refused", request=request)


def send(service: Service, asynchronous: bool, concurrency: int = 3):
    kw = dict(retries=0, backoff=0.0)
    if asynchronous:
        async def run():
            async with workbench.AsyncClient("http://h/api", "http://h/avatars", "wb_x",
                                             transport=httpx.MockTransport(service), **kw) as c:
                return await c.tracking.send("vw", EVENTS, session_id="s", progress=False, concurrency=concurrency)
        return asyncio.run(run())
    with workbench.Client("http://h/api", "http://h/avatars", "wb_x", transport=httpx.MockTransport(service), **kw) as c:
        return c.tracking.send("vw", EVENTS, session_id="s", progress=False, concurrency=concurrency)


@pytest.mark.parametrize("asynchronous", [False, True], ids=["sync", "async"])
@pytest.mark.parametrize("status,code,error", [(404, "viewer_not_found", NotFoundError), (401, "unauthorized", UnauthorizedError),
                                               (403, "forbidden", ForbiddenError)])
def test_a_fatal_answer_stops_the_batches_still_queued(asynchronous, status, code, error):
    service = Service(ok=4, then=refusal(status, code))
    with pytest.raises(error) as caught:
        send(service, asynchronous, concurrency=3)
    # Four accepted, then at most the batches already in flight when the first refusal came back.
    assert service.requests <= 4 + 3, f"{service.requests} of 30 batches were sent after a fatal answer"
    report = caught.value.report
    counts = report.events["status"].value_counts().to_dict()
    assert counts["accepted"] == 400 and counts["failed"] == 100 * (service.requests - 4), counts
    assert counts["not_sent"] == 3000 - 100 * service.requests and report.not_sent == counts["not_sent"]
    assert "not_sent" in repr(report) and sum(counts.values()) == 3000


@pytest.mark.parametrize("asynchronous", [False, True], ids=["sync", "async"])
def test_no_answer_ends_with_the_report_not_a_lost_one(asynchronous):
    service = Service(ok=2, then=unreachable)
    with pytest.raises(TransportError) as caught:
        send(service, asynchronous, concurrency=2)
    report = caught.value.report
    counts = report.events["status"].value_counts().to_dict()
    assert counts["accepted"] == 200 and counts["failed"] >= 100 and counts.get("not_sent", 0) >= 2500, counts
    assert sum(counts.values()) == 3000


@pytest.mark.parametrize("asynchronous", [False, True], ids=["sync", "async"])
def test_a_server_error_is_reported_per_batch_and_the_run_goes_on(asynchronous):
    flaky = Service(ok=0, then=lambda r: httpx.Response(200, json=OK))
    calls = {"n": 0}

    def then(request):
        calls["n"] += 1
        return httpx.Response(500, json={"status": "error", "error": {"code": "internal_error", "message": "x"}}) \
            if calls["n"] == 5 else httpx.Response(200, json=OK)

    flaky.then = then
    report = send(flaky, asynchronous)
    assert flaky.requests == 30 and report.failed == 100 and report.accepted == 2900 and report.not_sent == 0


def test_errors_403_and_415_have_their_own_classes_and_timeouts_no_longer_shadow_the_builtin():
    from workbench.client import errors

    assert type(errors.error_from_status(403, None, "")) is errors.ForbiddenError
    assert type(errors.error_from_status(415, None, "")) is errors.UnsupportedMediaTypeError
    namespace: dict = {}
    exec("from workbench import *\nfrom workbench.client.errors import *", namespace)
    assert "TimeoutError" not in namespace  # a star import leaves Python's TimeoutError alone
    assert issubclass(workbench.RequestTimeoutError, TimeoutError)  # and the builtin catches ours
    assert workbench.TimeoutError is errors.TimeoutError is workbench.RequestTimeoutError  # the old name still works
