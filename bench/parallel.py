"""Benchmark: the notebooks one at a time against several at once, as `workbench tour --jobs N` and
`pytest -n N` (pytest-xdist) run them; prints the wall times and the speed-up.

Usage: ``PYTHONPATH=. python bench/parallel.py [--jobs 2] [--repeats 1]``

Both sides run the same notebooks in the same way, in child processes started from here one after
the other (so they never compete): the baseline is ``--jobs 1`` / no ``-n``, the same command
otherwise. The tour's notebooks each get their own local service in both runs.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def timed(cmd: list[str], repeats: int) -> list[float]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    out = []
    for _ in range(repeats):
        t = time.perf_counter()
        done = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True)
        out.append(time.perf_counter() - t)
        if done.returncode:
            raise SystemExit(f"{' '.join(cmd)} failed:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}")
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--repeats", type=int, default=1)
    args = ap.parse_args()
    print(f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}  {os.cpu_count()} cores; "
          f"{len(list((ROOT / 'notebooks').glob('*.ipynb')))} notebooks; jobs = {args.jobs}")
    with tempfile.TemporaryDirectory() as tmp:
        tour = [sys.executable, "-m", "workbench.cli", "tour", "--out", tmp + "/tour"]
        pytest = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "notebooks"]
        rows = [("workbench tour", timed(tour, args.repeats), timed(tour + ["--jobs", str(args.jobs)], args.repeats)),
                ("pytest notebooks (nbval)", timed(pytest + ["-p", "no:xdist"], args.repeats),
                 timed(pytest + ["-n", str(args.jobs)], args.repeats))]
    for name, serial, parallel in rows:
        s, p = statistics.median(serial), statistics.median(parallel)
        print(f"  {name:26s} one at a time {s:6.1f} s   {args.jobs} at once {p:6.1f} s   speed-up {s / p:.2f}x")


if __name__ == "__main__":
    main()
