"""Benchmark: sessionize + funnel on millions of events, pandas against DuckDB SQL on the same data.

Usage: python bench/analysis.py [--events 10000000] [--seed 0] [--duckdb-threads CORES]

1. Makes (or reuses) a Parquet cache of synthetic events in /tmp: ``row`` (input order),
   ``viewerToken``, ``sessionId``, ``key``, ``timestamp``.
2. Runs each side (and the generator) in its own subprocess, so each one's peak
   resident memory (``ru_maxrss``) is its own: pandas ``sessionize`` then ``funnel(by="visit")``; DuckDB
   the same two computations in SQL (window functions, then one ASOF join per step,
   the same best-start/greedy rule as ``workbench.tracking.analysis.funnel``).
3. Checks the answers agree (funnel counts; every visit's label, size, first and last
   time) and prints both times, the ratio (goal: pandas within 2x of DuckDB) and peak
   memory (goal: under 6 GB).

Loading the Parquet file is timed apart and not part of the ratio. Both sides start from
integer keys, as pandas does from the cached categoricals: DuckDB's untimed load maps each
``sessionId`` to an integer (and ``key`` to an ENUM), its timed part partitions on those
integers, and visit labels are built only for the answer check (before this, DuckDB
partitioned and concatenated strings inside its timed part while pandas got category codes
for free). DuckDB runs with threads = the machine's cores.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import resource
import subprocess
import sys
import time

STEPS = ["viewer_loaded", "hotspot_opened", "cta_clicked"]
GAP = "30min"
WITHIN = "1h"


def _rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0  # Linux: KiB


def make_cache(path: str, n: int, seed: int) -> float:
    import numpy as np

    from workbench.tracking.synth import generate

    t = time.perf_counter()
    df = generate(n, seed=seed, flat=True)[["viewerToken", "sessionId", "key", "timestamp"]]
    df.insert(0, "row", np.arange(len(df), dtype=np.int64))
    df.to_parquet(path, index=False)
    return time.perf_counter() - t


def _visit_digest(pairs) -> str:
    """A digest of (visit, events, first ns, last ns) rows sorted by visit."""
    h = hashlib.sha256()
    for visit, count, first, last in pairs:
        h.update(f"{visit}|{count}|{first}|{last}\n".encode())
    return h.hexdigest()


def run_pandas(path: str) -> dict:
    import pandas as pd

    from workbench.tracking.analysis import funnel, sessionize

    t = time.perf_counter()
    df = pd.read_parquet(path)
    load_s = time.perf_counter() - t

    t = time.perf_counter()
    s = sessionize(df, gap=GAP)
    sessionize_s = time.perf_counter() - t
    t = time.perf_counter()
    f = funnel(s, STEPS, within=WITHIN, by="visit")
    funnel_s = time.perf_counter() - t

    # answers to compare (not timed)
    ns = pd.DatetimeIndex(s["timestamp"]).as_unit("ns").asi8
    codes = s["visit"].cat.codes.to_numpy()
    per = pd.DataFrame({"c": codes, "t": ns}).groupby("c").agg(n=("t", "size"), lo=("t", "min"), hi=("t", "max"))
    labels = s["visit"].cat.categories.to_numpy()[per.index.to_numpy()]
    rows = sorted(zip(labels.tolist(), per["n"].tolist(), per["lo"].tolist(), per["hi"].tolist(), strict=True))
    return {"side": "pandas", "events": len(df), "load_s": load_s, "sessionize_s": sessionize_s,
            "funnel_s": funnel_s, "visits": len(rows), "visit_digest": _visit_digest(rows),
            "funnel": f["count"].tolist(), "peak_rss_mb": _rss_mb()}


def funnel_sql(steps: list[str], within_ns: int) -> list[str]:
    """SQL statements making tables c0..c{m-1}: the candidates alive after each step."""
    def q(s):
        return "'" + s.replace("'", "''") + "'"

    stmts = [f"""CREATE OR REPLACE TEMP TABLE c0 AS
        SELECT g, t AS t0, pos AS p0, run_start AS rs0 FROM fe WHERE key = {q(steps[0])}"""]
    for j in range(1, len(steps)):
        lo = f"c.rs{j - 1}"
        earlier = [i for i in range(j) if steps[i] == steps[j]]
        if earlier:
            # never reuse the event that filled an earlier step of the same key
            lo = f"greatest({lo}, c.p{earlier[-1]} + 1)"
        keep = ", ".join(f"c.p{i}" for i in range(j))
        stmts.append(f"""CREATE OR REPLACE TEMP TABLE c{j} AS
            SELECT c.g, c.t0, {keep}, e.pos AS p{j}, e.run_start AS rs{j}
            FROM (SELECT *, {lo} AS lo FROM c{j - 1} c) c
            ASOF JOIN (SELECT g, pos, run_start, t FROM fe WHERE key = {q(steps[j])}) e
              ON c.g = e.g AND c.lo <= e.pos
            WHERE e.t - c.t0 <= {within_ns}""")
    return stmts


VISIT_BITS = 20  # a visit's integer key: session code << VISIT_BITS | visit number


def run_duckdb(path: str, threads: int) -> dict:
    import duckdb
    import pandas as pd

    gap_ns = pd.Timedelta(GAP).value
    within_ns = pd.Timedelta(WITHIN).value
    con = duckdb.connect()
    con.execute(f"SET threads = {int(threads)}")
    t = time.perf_counter()
    # integer session codes and an ENUM key, as pandas has category codes from the cache
    con.execute(f"""CREATE TABLE sids AS SELECT sessionId, (row_number() OVER (ORDER BY sessionId))::BIGINT AS sid
                    FROM (SELECT DISTINCT CAST(sessionId AS VARCHAR) AS sessionId FROM read_parquet('{path}'))""")
    con.execute(f"""CREATE TYPE event_key AS ENUM (SELECT DISTINCT CAST(key AS VARCHAR) FROM read_parquet('{path}')
                                                  WHERE key IS NOT NULL)""")
    con.execute(f"""CREATE TABLE ev AS SELECT e.row, s.sid, CAST(CAST(e.key AS VARCHAR) AS event_key) AS key,
                    epoch_ns(e.timestamp) AS t
                    FROM read_parquet('{path}') e JOIN sids s ON CAST(e.sessionId AS VARCHAR) = s.sessionId""")
    load_s = time.perf_counter() - t

    t = time.perf_counter()
    # 1. a visit starts at a session's first event and after a pause longer than the gap
    con.execute(f"""CREATE TABLE sess AS
        WITH o AS (
            SELECT row, sid, key, t,
                   CASE WHEN t - lag(t) OVER w > {gap_ns} OR lag(t) OVER w IS NULL THEN 1 ELSE 0 END AS new
            FROM ev WINDOW w AS (PARTITION BY sid ORDER BY t, row))
        SELECT row, key, t, sid,
               (sid << {VISIT_BITS}) | sum(new) OVER (PARTITION BY sid ORDER BY t, row ROWS UNBOUNDED PRECEDING)
                   AS visit
        FROM o""")
    sessionize_s = time.perf_counter() - t
    too_many = con.execute(f"SELECT max(visit & {(1 << VISIT_BITS) - 1}) FROM sess").fetchone()[0]
    assert too_many is None or too_many < (1 << VISIT_BITS) - 1, "a session with too many visits for the key"

    t = time.perf_counter()
    # 2. step events in (visit, time, input order) order; a run of equal times shares run_start
    keys = ", ".join("'" + s + "'" for s in dict.fromkeys(STEPS))
    con.execute(f"""CREATE OR REPLACE TEMP TABLE fe AS
        SELECT g, key, t, pos, min(pos) OVER (PARTITION BY g, t) AS run_start FROM (
            SELECT visit AS g, key, t, row_number() OVER (PARTITION BY visit ORDER BY t, row) AS pos
            FROM sess WHERE key IN ({keys}))""")
    # 3. every first-step event is a start; greedy earliest next step by ASOF join
    for stmt in funnel_sql(STEPS, within_ns):
        con.execute(stmt)
    counts = [con.execute(f"SELECT count(DISTINCT g) FROM c{j}").fetchone()[0] for j in range(len(STEPS))]
    funnel_s = time.perf_counter() - t

    # labels "{sessionId}#{n}" for the answer check only (untimed), as pandas makes them
    rows = con.execute(f"""SELECT s.sessionId || '#' || CAST(v.visit & {(1 << VISIT_BITS) - 1} AS VARCHAR), v.n, v.lo, v.hi
        FROM (SELECT visit, any_value(sid) AS sid, count(*) AS n, min(t) AS lo, max(t) AS hi FROM sess GROUP BY visit) v
        JOIN sids s USING (sid)""").fetchall()
    rows = sorted((v, int(n), int(lo), int(hi)) for v, n, lo, hi in rows)
    return {"side": "duckdb", "load_s": load_s, "sessionize_s": sessionize_s, "funnel_s": funnel_s,
            "visits": len(rows), "visit_digest": _visit_digest(rows), "funnel": counts, "peak_rss_mb": _rss_mb(),
            "threads": threads}


def _child(side: str, path: str, threads: int, events: int = 0, seed: int = 0) -> dict:
    env = dict(os.environ)
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    env["PYTHONPATH"] = root + os.pathsep + env.get("PYTHONPATH", "")
    out = subprocess.run([sys.executable, os.path.abspath(__file__), "--worker", side, "--cache", path,
                          "--duckdb-threads", str(threads), "--events", str(events), "--seed", str(seed)],
                         capture_output=True, text=True, env=env)
    if out.returncode:
        raise SystemExit(f"{side} worker failed:\n{out.stderr}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--events", type=int, default=10_000_000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--duckdb-threads", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--cache", default=None, help="Parquet cache path (default in /tmp)")
    ap.add_argument("--worker", choices=["make", "pandas", "duckdb"], help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.worker == "make":
        print(json.dumps({"seconds": make_cache(args.cache, args.events, args.seed), "peak_rss_mb": _rss_mb()}))
        return
    if args.worker:
        result = run_pandas(args.cache) if args.worker == "pandas" else run_duckdb(args.cache, args.duckdb_threads)
        print(json.dumps(result))
        return

    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    path = args.cache or f"/tmp/workbench_bench_events_{args.events}_{args.seed}.parquet"
    if os.path.exists(path):
        print(f"events: {args.events:,} from cache {path}")
    else:
        # in a child too: Linux carries a process's peak RSS across fork and exec, so a
        # parent that generated the data would hand its peak to both workers
        made = _child("make", path, args.duckdb_threads, args.events, args.seed)
        print(f"events: {args.events:,} generated and cached in {made['seconds']:.1f} s "
              f"(peak RSS {made['peak_rss_mb'] / 1024:.2f} GB) -> {path}")

    p = _child("pandas", path, args.duckdb_threads)
    d = _child("duckdb", path, args.duckdb_threads)
    agree = p["funnel"] == d["funnel"] and p["visit_digest"] == d["visit_digest"] and p["visits"] == d["visits"]
    print(f"steps: {' -> '.join(STEPS)}  gap {GAP}  within {WITHIN}  by visit")
    print(f"visits: pandas {p['visits']:,}  duckdb {d['visits']:,}")
    print(f"funnel: pandas {p['funnel']}  duckdb {d['funnel']}")
    print(f"answers agree: {agree}")
    print(f"{'':10}{'load s':>9}{'sessionize s':>14}{'funnel s':>10}{'total s':>9}{'peak RSS MB':>13}")
    for r in (p, d):
        total = r["sessionize_s"] + r["funnel_s"]
        name = r["side"] + (f" ({r['threads']}t)" if r["side"] == "duckdb" else "")
        print(f"{name:10}{r['load_s']:9.2f}{r['sessionize_s']:14.2f}{r['funnel_s']:10.2f}{total:9.2f}"
              f"{r['peak_rss_mb']:13.0f}")
    ratio = (p["sessionize_s"] + p["funnel_s"]) / (d["sessionize_s"] + d["funnel_s"])
    print(f"pandas / duckdb time ratio: {ratio:.2f} (goal <= 2)")
    print(f"peak memory: pandas {p['peak_rss_mb'] / 1024:.2f} GB, duckdb {d['peak_rss_mb'] / 1024:.2f} GB (goal < 6 GB)")
    if not agree:
        raise SystemExit("the two sides disagree")


if __name__ == "__main__":
    main()
