"""Ingest throughput: events per second through the batch sender into the local service's endpoint,
against the same sender into a bare endpoint on the same server stack (uvicorn + Starlette) that only
parses the JSON and answers.

Two figures, timed apart (``SendReport.plan_seconds`` and ``send_seconds``), as a user calling
``client.tracking.send`` gets them:

- the HTTP part: the sending of planned batches (8 concurrent senders, 100-event batches); the
  real endpoint validates every event with the catalog and commits to SQLite before it answers.
  Goal: real >= 0.6 of bare.
- client planning: pre-checks, ids and batching, no I/O. Goal: >= 300,000 events/s.

Runs are interleaved (bare, real, bare, real...), so that a busy moment of a shared machine falls on
both kinds alike. The verdict is the median over the rounds of each round's ratio (the real run
against the bare run just before it), printed as PASS or FAIL against 0.6; the best of each kind and
the server's CPU time per event (real against bare, a figure the machine's load changes far less)
are printed beside it. 100,000 events a run keeps a run long enough (about a second) for short
noise to average out.

The bare endpoint runs on the same stack as the service: uvicorn with the service's own
configuration (``server.server_config``: its HTTP/1.1 protocol with the read timeout and connection
cap, no lifespan, no access log), Starlette, and the middlewares every answer of the contract
needs (``RequestContext``: X-Request-Id and the JSON 500; ``CorsByPath``: the CORS policy by path;
``LocalGuard``: who may talk to a local service).
It decodes the JSON body, counts the events and answers with the real summary's shape; it checks
nothing and stores nothing. Since contract section 14 the bare stack also has the guard every answer
passes (``LocalGuard``: the Host allow-list and the /_local rule), as the service does.

Usage: python bench/ingest.py [--events 100000] [--concurrency 8] [--rounds 5]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

import httpx
from shared import ROOT, free_port

sys.path.insert(0, str(ROOT))


def bare_app():
    """The baseline: the service's stack and middlewares, an endpoint that only decodes and answers."""
    from starlette.applications import Starlette
    from starlette.middleware import Middleware
    from starlette.responses import JSONResponse
    from starlette.routing import Route

    from workbench.service.cors import CorsByPath
    from workbench.service.guards import LocalGuard
    from workbench.service.http import RequestContext

    async def batch(request):
        body = json.loads(await request.body())
        n = len(body["events"])
        return JSONResponse({"status": "ok", "data": {"accepted": n, "rejected": 0, "duplicates": 0, "errors": []}})

    async def create_viewer(request):
        return JSONResponse({"status": "ok", "data": {"viewerToken": "vw_bare"}}, status_code=201)

    return Starlette(routes=[Route("/api/viewers/{token}/tracking-event/batch", batch, methods=["POST"]),
                             Route("/_local/viewers", create_viewer, methods=["POST"])],
                     middleware=[Middleware(CorsByPath), Middleware(RequestContext), Middleware(LocalGuard)])


def serve_bare(port: int) -> None:
    import uvicorn

    from workbench.service.server import free_socket, server_config

    sock = free_socket("127.0.0.1", port)
    uvicorn.Server(server_config(bare_app())).run(sockets=[sock])


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
            break
        except httpx.HTTPError:
            time.sleep(0.05)
    else:
        raise RuntimeError(f"{kind} server did not start")
    # A new data folder starts writing the animation library in the background: wait for it, so
    # that the real endpoint's figure is not charged with that work (the bare one has none).
    deadline = time.monotonic() + 300
    while kind == "real" and time.monotonic() < deadline:
        health = httpx.get(root + "/_local/health", timeout=10).json()["data"]
        if health.get("animationLibrary") != "generating":
            break
        time.sleep(0.2)
    return proc, root


def cpu_seconds(pid: int) -> float | None:
    """User + system CPU time of a process (Linux /proc), or None elsewhere."""
    try:
        fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return None


def run(root: str, events, concurrency: int):
    import workbench

    vt = httpx.post(root + "/_local/viewers", json={"kind": "product"}, timeout=60).json()["data"]["viewerToken"]
    with workbench.Client(root + "/api", root + "/avatars", "wb_bench_token_0123456789") as c:
        return c.tracking.send(vt, events, concurrency=concurrency, progress=False)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--events", type=int, default=100_000)
    ap.add_argument("--concurrency", type=int, default=8)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--serve-bare", type=int, default=None)
    args = ap.parse_args()
    if args.serve_bare:
        serve_bare(args.serve_bare)
        return
    from workbench.tracking import synth

    df = synth.generate(args.events, seed=3, viewers=1)
    # One session per 1000 events, so batches are full (100 events) as a busy page would send them.
    df["sessionId"] = [f"bench-{i // 1000}" for i in range(len(df))]
    events = df.drop(columns=["viewerToken"])
    n = len(events)
    http: dict[str, list[float]] = {}
    whole: dict[str, list[float]] = {}
    plans: list[float] = []
    pairs: list[float] = []
    server_cpu: dict[str, list[float]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(args.rounds):
            for kind in ("bare", "real"):  # interleaved: each real run paired with the bare run before it
                proc, root = start(kind, os.path.join(tmp, f"data-{i}-{kind}"))
                try:
                    c0 = cpu_seconds(proc.pid)
                    rep = run(root, events, args.concurrency)
                    c1 = cpu_seconds(proc.pid)
                    if c0 is not None and c1 is not None:
                        server_cpu.setdefault(kind, []).append((c1 - c0) * 1e6 / n)
                finally:
                    proc.terminate()
                    proc.wait(10)
                assert rep.accepted == n, rep
                http.setdefault(kind, []).append(n / rep.send_seconds)
                whole.setdefault(kind, []).append(n / rep.seconds)
                plans.append(n / rep.plan_seconds)
                if kind == "real":
                    pairs.append(http["real"][-1] / http["bare"][-1])
                print(f"{kind:4}: {n} events, {rep.batches} batches: planning {rep.plan_seconds:.3f} s, "
                      f"HTTP {rep.send_seconds:.2f} s = {n / rep.send_seconds:,.0f} events/s")
    # Planning alone, again, with its CPU time: on a shared machine the wall clock also counts
    # the time other processes held the cores.
    from workbench.client import _batches

    cpu = []
    for _ in range(3):
        t0, c0 = time.perf_counter(), time.process_time()
        _batches.plan("vw_plan", events, None, True)
        cpu.append(time.process_time() - c0)
        plans.append(n / (time.perf_counter() - t0))
    bare, real = max(http["bare"]), max(http["real"])
    median = statistics.median(pairs)
    print(f"HTTP part, bare endpoint (same stack, decode JSON, answer): {bare:,.0f} events/s (best)")
    print(f"HTTP part, local service (validate + SQLite commit):       {real:,.0f} events/s (best)")
    print(f"ratio real/bare per round (each real run against the bare run just before it): "
          f"{', '.join(f'{r:.2f}' for r in pairs)}")
    print(f"ratio real/bare of the best runs: {real / bare:.2f}")
    if len(server_cpu) == 2:
        cpu_bare, cpu_real = statistics.median(server_cpu["bare"]), statistics.median(server_cpu["real"])
        print(f"server CPU per event (us, median of rounds): real {cpu_real:.1f}, bare {cpu_bare:.1f}; "
              f"bare/real {cpu_bare / cpu_real:.2f}")
    print(f"client planning (pre-checks, ids, batches): {max(plans):,.0f} events/s wall clock, "
          f"{n / min(cpu):,.0f} events/s of CPU time  (goal >= 300,000)")
    print(f"whole send (planning + HTTP), real/bare: {max(whole['real']) / max(whole['bare']):.2f}")
    print(f"{'PASS' if median >= 0.6 else 'FAIL'}: median ratio real/bare over {len(pairs)} paired rounds "
          f"{median:.2f} (goal >= 0.6, {args.concurrency} senders, load average {os.getloadavg()[0]:.1f})")


if __name__ == "__main__":
    main()
