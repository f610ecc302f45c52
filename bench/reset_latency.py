"""The event loop during database work: the worst GET latency while ``/_local/reset`` deletes a large
table with beacons arriving, and during a flood of tracking batches (issue 27, item 6).

Two servers are compared in one run, on copies of the same database, each ``workbench serve``'s own
stack in a child process: the service as it is (tracking commits on a thread of their own) and the
baseline that keeps the tracking commits on the event loop (``TrackingWriter(on_loop=True)``, how the
service worked before). Each is measured ``--rounds`` times, alternately, so a busy moment of a shared
machine falls on both alike; the figures are the median over rounds.

Phase 1, reset: a prober GETs ``/`` (no database work) every 5 ms and a sender posts a beacon (a
text/plain batch) to an unknown viewer every 50 ms, while ``POST /_local/reset`` deletes
``--events`` stored events. Printed: the reset's time and the worst GET latency during it.
Phase 2, flood: 8 senders post 100-event batches as fast as they are answered for 3 s while the prober
runs. Printed: the worst and the 99th percentile GET latency, and events stored per second.

Usage: python bench/reset_latency.py [--events 1000000] [--rounds 3]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
from shared import ROOT, free_port

sys.path.insert(0, str(ROOT))


def serve(data_dir: str, port: int, on_loop: bool) -> None:
    """The child: the service's app and server configuration, with the chosen tracking writer."""
    import uvicorn

    from workbench.service.app import TrackingWriter, create_app
    from workbench.service.backend import Backend
    from workbench.service.server import free_socket, server_config

    backend = Backend(data_dir, generate_library=False)
    app = create_app(backend)
    app.state.tracking_writer = TrackingWriter(backend, on_loop=on_loop)
    uvicorn.Server(server_config(app)).run(sockets=[free_socket("127.0.0.1", port)])


def make_database(folder: Path, events: int) -> str:
    """A data folder whose database holds ``events`` events of one viewer (written straight into SQLite:
    the endpoint would take minutes for millions); its viewer token."""
    from workbench.service.backend import Backend

    b = Backend(folder, generate_library=False, dev_token="wb_bench_token_0123456789")
    viewer = b.create_viewer({"kind": "product"})["viewerToken"]
    b.close()
    db = sqlite3.connect(folder / "workbench.db")
    payload = json.dumps({"visible": True})
    rows = ((viewer, f"s{i // 50}", f"e{i}", "heartbeat", payload, 1_790_000_000_000 + i, 1_790_000_000_000 + i)
            for i in range(events))
    with db:
        db.executemany("INSERT INTO events (viewer_token, session_id, event_id, key, payload, ts, received_at) "
                       "VALUES (?, ?, ?, ?, ?, ?, ?)", rows)
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.close()
    return viewer


async def probe(http: httpx.AsyncClient, url: str, stop: asyncio.Event, latencies: list[float]) -> None:
    while not stop.is_set():
        t = time.perf_counter()
        await http.get(url)
        latencies.append(time.perf_counter() - t)
        await asyncio.sleep(0.005)


async def beacons(http: httpx.AsyncClient, url: str, stop: asyncio.Event) -> None:
    body = b'{"sessionId": "s", "events": [{"key": "heartbeat", "payload": {"visible": true}}]}'
    while not stop.is_set():
        await http.post(url, content=body, headers={"Content-Type": "text/plain"})
        await asyncio.sleep(0.05)


async def flood(http: httpx.AsyncClient, url: str, stop: asyncio.Event, stored: list[int]) -> None:
    n = 0
    while not stop.is_set():
        events = [{"key": "heartbeat", "payload": {"visible": True}} for _ in range(100)]
        r = await http.post(url, json={"sessionId": f"f{n}", "events": events})
        stored.append(r.json()["data"]["accepted"])
        n += 1


async def measure(root: str, viewer: str) -> dict:
    limits = httpx.Limits(max_connections=20)
    async with httpx.AsyncClient(timeout=120, limits=limits) as http:
        # phase 1: reset with beacons arriving
        stop, latencies = asyncio.Event(), []
        tasks = [asyncio.create_task(probe(http, root + "/", stop, latencies)),
                 asyncio.create_task(beacons(http, root + "/api/viewers/vt_unknown/tracking-event/batch", stop))]
        await asyncio.sleep(0.3)
        latencies.clear()
        t = time.perf_counter()
        r = await http.post(root + "/_local/reset", json={})
        reset_s = time.perf_counter() - t
        assert r.status_code == 200, r.text
        stop.set()
        await asyncio.gather(*tasks)
        worst_reset = max(latencies)
        # phase 2: a flood of batches to a real viewer
        viewer = (await http.post(root + "/_local/viewers", json={"kind": "product"})).json()["data"]["viewerToken"]
        stop, latencies, stored = asyncio.Event(), [], []
        url = f"{root}/api/viewers/{viewer}/tracking-event/batch"
        tasks = [asyncio.create_task(probe(http, root + "/", stop, latencies))]
        tasks += [asyncio.create_task(flood(http, url, stop, stored)) for _ in range(8)]
        t = time.perf_counter()
        await asyncio.sleep(3)
        stop.set()
        await asyncio.gather(*tasks)
        took = time.perf_counter() - t
        latencies.sort()
        return {"reset_s": reset_s, "worst_reset_ms": worst_reset * 1000, "worst_flood_ms": latencies[-1] * 1000,
                "p99_flood_ms": latencies[int(0.99 * (len(latencies) - 1))] * 1000, "events_per_s": sum(stored) / took}


def run_one(template: Path, viewer: str, on_loop: bool) -> dict:
    with tempfile.TemporaryDirectory(prefix="wb-reset-bench-") as tmp:
        data = Path(tmp) / "data"
        shutil.copytree(template, data)
        port = free_port()
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        proc = subprocess.Popen([sys.executable, __file__, "--serve", str(data), str(port), "1" if on_loop else "0"], env=env)
        try:
            root = f"http://127.0.0.1:{port}"
            for _ in range(600):
                try:
                    if httpx.get(root + "/_local/health", timeout=1).status_code == 200:
                        break
                except httpx.HTTPError:
                    time.sleep(0.05)
            return asyncio.run(measure(root, viewer))
        finally:
            proc.terminate()
            proc.wait(30)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--events", type=int, default=1_000_000)
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--serve", nargs=3, metavar=("DIR", "PORT", "ON_LOOP"), help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.serve:
        serve(args.serve[0], int(args.serve[1]), args.serve[2] == "1")
        return
    with tempfile.TemporaryDirectory(prefix="wb-reset-template-") as tmp:
        template = Path(tmp) / "data"
        t = time.perf_counter()
        viewer = make_database(template, args.events)
        print(f"database of {args.events:,} events made in {time.perf_counter() - t:.1f} s")
        results: dict[str, list[dict]] = {"on the loop (before)": [], "own thread (after)": []}
        for r in range(args.rounds):
            for name, on_loop in (("on the loop (before)", True), ("own thread (after)", False)):
                res = run_one(template, viewer, on_loop)
                results[name].append(res)
                print(f"round {r + 1} {name:22s} reset {res['reset_s']:.2f} s, worst GET during it {res['worst_reset_ms']:.0f} ms; "
                      f"flood: worst GET {res['worst_flood_ms']:.0f} ms, p99 {res['p99_flood_ms']:.1f} ms, "
                      f"{res['events_per_s']:,.0f} events/s", flush=True)
    med = {name: {k: statistics.median(x[k] for x in rs) for k in rs[0]} for name, rs in results.items()}
    before, after = med["on the loop (before)"], med["own thread (after)"]
    print()
    print(f"| median of {args.rounds} | reset | worst GET during reset | flood: worst GET | flood: p99 GET | flood: events/s |")
    print("|---|---|---|---|---|---|")
    for name, m in med.items():
        print(f"| {name} | {m['reset_s']:.2f} s | {m['worst_reset_ms']:.0f} ms | {m['worst_flood_ms']:.0f} ms | "
              f"{m['p99_flood_ms']:.1f} ms | {m['events_per_s']:,.0f} |")
    print(f"| after / before | {after['reset_s'] / before['reset_s']:.2f} | {after['worst_reset_ms'] / before['worst_reset_ms']:.3f} | "
          f"{after['worst_flood_ms'] / before['worst_flood_ms']:.2f} | {after['p99_flood_ms'] / before['p99_flood_ms']:.2f} | "
          f"{after['events_per_s'] / before['events_per_s']:.2f} |")


if __name__ == "__main__":
    main()
