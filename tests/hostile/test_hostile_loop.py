"""The service's event loop under a held database: no database work on the event loop. While something else holds the database (a
large /_local/reset), a beacon to an unknown viewer must not stop every other request."""

from __future__ import annotations

import threading

import httpx
from helpers import wait_for

from workbench.service.server import LocalService


def test_a_beacon_waiting_for_the_database_does_not_stop_other_requests():
    svc = LocalService.start(generate_library=False)
    try:
        beacon_done = threading.Event()
        answers = []

        def beacon():
            r = httpx.post(f"{svc.base_url}/viewers/vt_nobody/tracking-event/batch", timeout=60,
                           content=b'{"sessionId": "s", "events": [{"key": "heartbeat", "payload": {"visible": true}}]}',
                           headers={"Content-Type": "text/plain"})
            answers.append(r.status_code)
            beacon_done.set()

        with svc.backend.db.lock:  # what a reset deleting millions of events does for seconds
            sender = threading.Thread(target=beacon)
            sender.start()
            assert wait_for(lambda: svc.app.state.tracking_writer.pending, timeout=20)
            # The beacon is in (its answer waits for the lock); the loop must still serve others. The timeout
            # only bounds the failure: with the commit on the loop this GET never got an answer while the lock was held.
            with httpx.Client(timeout=10) as http:
                for _ in range(3):
                    r = http.get(svc.root_url + "/")
                    assert r.status_code == 200
                assert not beacon_done.is_set()
        sender.join(30)
        assert answers == [404]
    finally:
        svc.stop()
