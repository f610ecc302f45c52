"""The event lake's writers and the export in bounded memory: the peak RSS of ``workbench synth``, ``workbench export``
and a service streaming its stored events, each against a baseline measured in the same run.

Moved here from tests/tracking/test_lake.py (pass 35): these are measurements of a million events written and 100 MB
and more streamed, 140 s of CPU a run. The tests keep the behaviour that makes memory bounded at a small size
(the synth draws one chunk at a time, the export reads and sends one page at a time, the command splits the streamed
file into the lake); the figures that follow from it are here.

    nice python bench/lake_memory.py [--events 1000000] [--chunk 100000] [--stored 600000] [--only synth|export]

1. ``workbench synth`` of EVENTS in chunks of CHUNK, and of the same EVENTS in one chunk (the baseline: what drawing
   them in one frame costs); the ratio chunked / whole. The chunk, not the count, sets the peak.
2. A service holding STORED events answers ``GET /_local/tracking/events`` as JSON lines, then Parquet: its peak RSS
   before (warm: each format's modules loaded, the avatar generator ready) and after; the rise against the size of
   the JSON lines answer (the baseline: what holding the answer would take at the least).
3. ``workbench export`` of those events into a lake: the command's peak, against its peak exporting no events (the
   baseline: the interpreter, pandas and Arrow loaded).

Peaks are of each command's own process (a small launcher reports its child's RUSAGE_CHILDREN maxrss: Linux starts a
child's peak at its parent's size), and of the service's process (VmHWM); memory, which the machine's load does not
change. The bounds the tests held until pass 35: synth < 400 MB, the service's rise < 200 MB, export < 450 MB.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
from conftest import ServerProcess  # noqa: E402  (the tests' one server factory)
from helpers import store_events  # noqa: E402  (the tests' one way to store a lake's events)

MB = 1024 * 1024
_LAUNCHER = ("import resource, subprocess, sys; rc = subprocess.call(sys.argv[1:]); "
             "sys.stderr.write('\\npeak_kb=%d\\n' % resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss); "
             "sys.exit(rc)")


def measured(*args: str) -> tuple[subprocess.CompletedProcess, float]:
    """Run ``workbench ARGS``; the result and the command's own peak RSS in MB."""
    done = subprocess.run([sys.executable, "-c", _LAUNCHER, sys.executable, "-m", "workbench.cli", *args],
                          capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(ROOT)})
    head, _, peak = done.stderr.rpartition("\npeak_kb=")
    if done.returncode != 0:
        raise RuntimeError(f"workbench {' '.join(args)} failed: {head[-2000:]}")
    return done, int(peak) / 1024.0


def _peak_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024.0
    raise RuntimeError("no VmHWM")


def bench_synth(tmp: Path, events: int, chunk: int) -> None:
    _, chunked = measured("synth", "--out", str(tmp / "chunked"), "--events", str(events), "--chunk-events", str(chunk))
    _, whole = measured("synth", "--out", str(tmp / "whole"), "--events", str(events), "--chunk-events", str(events))
    print(f"synth {events:,} events: chunks of {chunk:,} peak {chunked:.0f} MB; one chunk (baseline) {whole:.0f} MB; "
          f"ratio chunked / whole {chunked / whole:.2f}")


def bench_export(tmp: Path, stored: int) -> None:
    data = tmp / "serve" / "data"
    data.mkdir(parents=True)
    srv = ServerProcess(data).start()
    srv.stop()
    store_events(data / "workbench.db", stored)
    srv = ServerProcess(data).start()
    try:
        for fmt in ("jsonl", "parquet"):   # warm: the modules a format needs are not the answer's memory
            httpx.get(srv.local_url + "/tracking/events", params={"format": fmt, "viewerToken": "vw_no"}).raise_for_status()
        deadline = time.monotonic() + 1800   # nor what the service's start prepares for avatars in the background
        while httpx.get(srv.local_url + "/health").json()["data"]["generator"] != "ready":
            if time.monotonic() > deadline:
                raise RuntimeError("the service's avatar generator was not ready in 1800 s")
            time.sleep(0.5)
        before = _peak_mb(srv.proc.pid)
        sizes = {}
        for fmt in ("jsonl", "parquet"):
            path = tmp / f"all.{fmt}"
            with httpx.stream("GET", srv.local_url + "/tracking/events", params={"format": fmt}, timeout=None) as r:
                r.raise_for_status()
                with open(path, "wb") as fh:
                    for chunk in r.iter_bytes():
                        fh.write(chunk)
            sizes[fmt] = path.stat().st_size
        after = _peak_mb(srv.proc.pid)
        print(f"service streaming {stored:,} events (jsonl {sizes['jsonl'] / MB:.0f} MB, then parquet "
              f"{sizes['parquet'] / MB:.0f} MB): peak {before:.0f} MB before, {after:.0f} MB after, rise "
              f"{after - before:.0f} MB; ratio rise / jsonl answer (baseline) {(after - before) * MB / sizes['jsonl']:.2f}")
        _, empty = measured("export", "--out", str(tmp / "none"), "--local-url", srv.local_url, "--viewer", "vw_none")
        done, peak = measured("export", "--out", str(tmp / "lake"), "--local-url", srv.local_url)
        print(f"workbench export {stored:,} events: {done.stdout.strip()}; peak {peak:.0f} MB; of no events "
              f"(baseline: the interpreter and its modules) {empty:.0f} MB; ratio {peak / empty:.2f}")
    finally:
        srv.stop()


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--events", type=int, default=1_000_000, help="events the synth writes (default 1,000,000)")
    p.add_argument("--chunk", type=int, default=100_000, help="the synth's chunk (default 100,000)")
    p.add_argument("--stored", type=int, default=600_000, help="events the service holds (default 600,000: "
                                                                "about 120 MB of JSON lines)")
    p.add_argument("--only", choices=["synth", "export"], help="run one of the two parts")
    args = p.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="lake-memory-"))
    try:
        if args.only != "export":
            bench_synth(tmp, args.events, args.chunk)
        if args.only != "synth":
            bench_export(tmp, args.stored)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
