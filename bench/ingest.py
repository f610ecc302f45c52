"""Ingest throughput: events per second through the batch sender into the local service's endpoint,
against the same sender into a bare endpoint on the same server stack (uvicorn + Starlette) that only
parses the JSON and answers. Goal: the real endpoint, with validation and durable SQLite storage on,
reaches at least 0.5 of the bare rate with 8 concurrent senders.

Usage: python bench/ingest.py [--events 40000] [--concurrency 8]
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def bare_app():
    from starlette.applications import Starlette
    from starlette.responses import JSONResponse
    from starlette.routing import Route

    async def batch(request):
        body = json.loads(await request.body())
        n = len(body["events"])
        return JSONResponse({"status": "ok", "data": {"accepted": n, "rejected": 0, "duplicates": 0, "errors": []}})

    async def create_viewer(request):
        return JSONResponse({"status": "ok", "data": {"viewerToken": "vw_bare"}}, status_code=201)

    return Starlette(routes=[Route("/api/viewers/{token}/tracking-event/batch", batch, methods=["POST"]),
                             Route("/_local/viewers", create_viewer, methods=["POST"])])


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start(kind: str, data_dir: str) -> tuple[subprocess.Popen, str]:
    port = free_port()
    env = {**os.environ, "PYTHONPATH": str(ROOT), "WORKBENCH_DEV_TOKEN": "wb_bench_token_0123456789"}
    if kind == "bare":
        cmd = [sys.executable, __file__, "--serve-bare", str(port)]
    else:
        cmd = [sys.executable, "-m", "workbench.cli", "serve", "--port", str(port), "--data-dir", data_dir]
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    root = f"http://127.0.0.1:{port}"
    for _ in range(300):
        try:
            httpx.post(root + "/_local/viewers", json={"kind": "product"}, timeout=1)
            return proc, root
        except httpx.HTTPError:
            time.sleep(0.05)
    raise RuntimeError(f"{kind} server did not start")


def run(root: str, events, concurrency: int) -> tuple[float, object]:
    import workbench

    vt = httpx.post(root + "/_local/viewers", json={"kind": "product"}, timeout=60).json()["data"]["viewerToken"]
    c = workbench.Client(root + "/api", root + "/avatars", "wb_bench_token_0123456789")
    t = time.perf_counter()
    report = c.tracking.send(vt, events, concurrency=concurrency, progress=False)
    return time.perf_counter() - t, report


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--events", type=int, default=40_000)
    ap.add_argument("--concurrency", type=int, default=8)
    ap.add_argument("--serve-bare", type=int, default=None)
    args = ap.parse_args()
    if args.serve_bare:
        import uvicorn

        uvicorn.run(bare_app(), host="127.0.0.1", port=args.serve_bare, log_level="warning", access_log=False)
        return
    from workbench.tracking import synth

    df = synth.generate(args.events, seed=3, viewers=1)
    # One session per 1000 events, so batches are full (100 events) as a busy page would send them.
    df["sessionId"] = [f"bench-{i // 1000}" for i in range(len(df))]
    events = df.drop(columns=["viewerToken"])
    results = {}
    with tempfile.TemporaryDirectory() as tmp:
        for kind in ("bare", "real", "bare", "real"):  # interleaved, best of two each, to damp noise
            proc, root = start(kind, os.path.join(tmp, f"data-{len(results)}-{kind}"))
            try:
                secs, rep = run(root, events, args.concurrency)
            finally:
                proc.terminate()
                proc.wait(10)
            rate = len(events) / secs
            results.setdefault(kind, []).append(rate)
            print(f"{kind:4}: {len(events)} events in {secs:.2f} s = {rate:,.0f} events/s "
                  f"(accepted {rep.accepted}, batches {rep.batches})")
    bare, real = max(results["bare"]), max(results["real"])
    print(f"bare endpoint (parse JSON, answer):         {bare:,.0f} events/s")
    print(f"local service (validate + SQLite commit):   {real:,.0f} events/s")
    print(f"ratio real/bare: {real / bare:.2f}  (goal >= 0.5, concurrency {args.concurrency})")


if __name__ == "__main__":
    main()
