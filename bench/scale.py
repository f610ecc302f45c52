"""Benchmark: the analysis over an event lake through Dask, against DuckDB (and Polars) on the same Parquet files.

Usage: python bench/scale.py [--sizes 10M,30M,100M] [--root /tmp/workbench_scale] [--keep]
                             [--shuffle-sizes 10M] [--workers N] [--questions funnel,retention,paths,polars]
                             [--sides default,cluster] [--repeats N]

Questions (``--questions``, default all):

- ``funnel``: sessionize + funnel by visit (steps 2 and 3 below), Dask against DuckDB;
- ``retention``: N-day retention by visitor, 6 rolling days, Dask against DuckDB SQL of the
  same definition, both on integer visitor keys; the cohort x day counts are compared;
- ``paths``: the 20 most frequent 4-event paths from ``viewer_loaded`` per session,
  heartbeats left out, Dask against DuckDB SQL (window functions, ``string_agg``); events at
  the same millisecond in ``id`` order on both sides, as ``paths`` defines it;
- ``polars``: sessionize + funnel in Polars (lazy, the streaming engine, integer session
  keys, ``POLARS_MAX_THREADS`` = the cores, greedy next step by ``join_asof``) as a
  second baseline for the funnel;
- ``lifecycle``, ``stickiness``, ``time_to_convert``, ``correlation``, ``variants``: the questions
  issue 38 added, defined (with their DuckDB SQL) in ``bench/scale_new.py``; ``variants`` runs on
  a second lake of the same size whose synthetic experiment starts on its fourth day (``*_exp``),
  so CUPED has visitors' history to read.

For each size:

1. Makes (or reuses) a lake under ``--root`` with ``workbench.tracking.lake.write_synth_lake``
   in a child process: its time and peak RSS are the synth figures (goal under 2 GB).
2. Dask, in a child process, on each of ``--sides``: ``default``, no client given, so the
   dispatcher decides (a lake of at most ``IN_PROCESS_ROWS`` events runs on the process's
   threads, a larger one on the embedded cluster, started inside the timing as a user's
   first call would); ``cluster``, a ``LocalCluster`` of ``--workers`` single-threaded worker
   processes (default: the cores) started and warmed before the clock, then
   ``funnel(sessionize(read_events(lake)), STEPS, by="visit")``, timed from the first read
   to the answer. Memory is sampled every
   0.2 s as the summed RSS of the whole process tree (client, scheduler, nannies,
   workers); the peak is reported (goal under 6 GB at 100M).
3. DuckDB, in a child process with ``threads`` = the same number of cores: the same two
   computations in SQL over the same files, timed the same way (reading included).
   Session keys are integers (``hash(sessionId)``), as the Dask side works on integer
   codes, and only the step events are materialized after the visit numbering (the Dask
   side never materializes anything). The ratio Dask / DuckDB is the figure (goal: within
   2x). The answers are compared.
4. For ``--shuffle-sizes``, Dask again on the same files read as a plain Parquet dataset
   (no session buckets), so the analysis has to shuffle by session: the cost the lake
   layout saves.

With ``--explorer``, for each size: ``workbench.tracking.explore(lake)`` in a child process (its
libraries loaded before the clock, as a notebook's would be), timed to its first answer, then a
person's changes one by one (every question, a period, an order, a breakdown, the unit, the days,
a filter, back to questions already asked), each timed from the control's new value to the chart,
table and code drawn again (the goal: within 1 s after the first answer, at 1M events).

With ``--repeats N`` (N > 1) each question runs N times on each side, in pairs (DuckDB and each
Dask side; which goes first alternates from pair to pair), after one untimed run of each side (the
same warm-up for both: the lake's files in the page cache); the figures are each side's median and
the median of the pairs' ratios, with their range. On a shared machine a single run swings twofold. Each run also
reports the CPU time of its whole process (``time.process_time``, every thread) over the same timed part, and the
median of the pairs' CPU ratios: on a loaded machine a run's wall time is mostly waiting for a core.

Lakes made here are deleted at the end unless ``--keep``.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
STEPS = ["viewer_loaded", "hotspot_opened", "cta_clicked"]
GAP = "30min"
WITHIN = "1h"
RETENTION_DAYS = 6
PATH_STEPS = 4
QUESTIONS = ("funnel", "retention", "paths", "polars", "lifecycle", "stickiness", "time_to_convert", "correlation",
             "variants")
NEW = ("lifecycle", "stickiness", "time_to_convert", "correlation", "variants")


def _size(text: str) -> int:
    text = text.strip().upper()
    mult = {"K": 1_000, "M": 1_000_000}.get(text[-1:], 1)
    return int(float(text.rstrip("KM")) * mult)


class TreeSampler:
    """Peak of the summed RSS of a process and all its descendants, sampled in a thread."""

    def __init__(self, pid: int, every: float = 0.2):
        import psutil

        self.root = psutil.Process(pid)
        self.every = every
        self.peak = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _sample(self) -> int:
        import psutil

        total = 0
        for p in [self.root, *self.root.children(recursive=True)]:
            try:
                total += p.memory_info().rss
            except psutil.Error:
                pass
        return total

    def _run(self):
        while not self._stop.is_set():
            self.peak = max(self.peak, self._sample())
            self._stop.wait(self.every)

    def __enter__(self):
        self.peak = self._sample()
        self._thread.start()
        return self

    def __exit__(self, *exc):
        self._stop.set()
        self._thread.join()
        self.peak = max(self.peak, self._sample())


# --------------------------------------------------------------------------
# children
# --------------------------------------------------------------------------

def child_make(lake: str, events: int, experiment_start: str | None = None) -> dict:
    import resource

    from workbench.tracking.lake import write_synth_lake

    t = time.perf_counter()
    write_synth_lake(lake, events, seed=0, overwrite=True, experiment_start=experiment_start)
    return {"seconds": time.perf_counter() - t, "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}


def _cluster(workers: int):
    """(cluster, client) for the ``cluster`` side, warmed; (None, None) for the ``default`` side (workers 0)."""
    import importlib
    import logging

    import dask.dataframe  # noqa: F401  (loaded before the clock, as DuckDB's library is: a notebook's second
    from distributed import Client, LocalCluster  # call has them; Dask's local scheduler imports distributed too)

    if not workers:
        return None, None

    cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None,
                           silence_logs=logging.ERROR)
    client = Client(cluster)
    client.wait_for_workers(workers)
    # workers import pandas, pyarrow and workbench on first use (about 4 s); DuckDB's process has
    # its library loaded before its clock starts, so the workers get theirs loaded too
    client.run(importlib.import_module, "workbench.tracking.analysis")
    return cluster, client


def _close(cluster, client) -> None:
    from workbench.tracking.cluster import close_embedded

    if client is not None:
        client.close()
        cluster.close()
    close_embedded()


def child_dask(lake: str, workers: int, plain: bool) -> dict:
    import dask.dataframe as dd

    from workbench.tracking.analysis import funnel, read_events, sessionize

    cluster, client = _cluster(workers)
    # the columns DuckDB's query reads: the lake promises unique ids, and a funnel takes events of one
    # millisecond in any order, so the event id is not needed
    cols = ["sessionId", "key", "timestamp"]
    with TreeSampler(os.getpid()) as mem:
        t, cpu = time.perf_counter(), time.process_time()
        if plain:
            events = dd.read_parquet(lake, columns=cols)  # a plain dataset: no bucket promise, so a shuffle
        else:
            events = read_events(lake, columns=cols)
        f = funnel(sessionize(events, gap=GAP, client=client), STEPS, within=WITHIN, by="visit", client=client)
        seconds, cpu = time.perf_counter() - t, time.process_time() - cpu
    out = {"seconds": seconds, "cpu": cpu, "peak_rss_mb": mem.peak / 2**20, "funnel": f["count"].tolist(),
           "partitions": events.npartitions}
    _close(cluster, client)
    return out


def child_duckdb(lake: str, threads: int) -> dict:
    import duckdb
    import pandas as pd

    gap_ms = pd.Timedelta(GAP).value // 1_000_000
    within_ms = pd.Timedelta(WITHIN).value // 1_000_000
    keys = ", ".join("'" + s + "'" for s in dict.fromkeys(STEPS))
    con = duckdb.connect()
    con.execute(f"SET threads = {int(threads)}")
    con.execute("SET preserve_insertion_order = false")
    t, cpu = time.perf_counter(), time.process_time()
    # 1. a visit starts at a session's first event and after a pause longer than the gap.
    #    Sessions are keyed by an integer (hash), as the Dask side works on integer codes;
    #    the running sum uses the default RANGE frame, so events with equal times share a
    #    visit whatever order the two windows put them in. Only the step events are kept,
    #    numbered in (visit, time) order; a run of equal times shares run_start.
    con.execute(f"""CREATE TEMP TABLE fe AS
        WITH e AS (SELECT hash(sessionId) AS sid, CAST(key AS VARCHAR) AS key, epoch_ms(timestamp) AS t
                   FROM read_parquet('{lake}/*/*.parquet')),
        o AS (SELECT sid, key, t,
                     CASE WHEN t - lag(t) OVER w > {gap_ms} OR lag(t) OVER w IS NULL THEN 1 ELSE 0 END AS new
              FROM e WINDOW w AS (PARTITION BY sid ORDER BY t)),
        v AS (SELECT sid, key, t, sum(new) OVER (PARTITION BY sid ORDER BY t) AS vn FROM o)
        SELECT sid, vn, key, t, pos, min(pos) OVER (PARTITION BY sid, vn, t) AS run_start FROM (
            SELECT sid, vn, key, t, row_number() OVER (PARTITION BY sid, vn ORDER BY t) AS pos
            FROM v WHERE key IN ({keys}))""")
    # 2. every first-step event is a start; greedy earliest next step by ASOF join
    con.execute(f"""CREATE TEMP TABLE c0 AS SELECT sid, vn, t AS t0, run_start AS rs FROM fe WHERE key = '{STEPS[0]}'""")
    for j in range(1, len(STEPS)):
        con.execute(f"""CREATE TEMP TABLE c{j} AS
            SELECT c.sid, c.vn, c.t0, e.run_start AS rs FROM c{j - 1} c
            ASOF JOIN (SELECT sid, vn, pos, run_start, t FROM fe WHERE key = '{STEPS[j]}') e
              ON c.sid = e.sid AND c.vn = e.vn AND c.rs <= e.pos
            WHERE e.t - c.t0 <= {within_ms}""")
    counts = [con.execute(f"SELECT count(*) FROM (SELECT DISTINCT sid, vn FROM c{j})").fetchone()[0]
              for j in range(len(STEPS))]
    seconds, cpu = time.perf_counter() - t, time.process_time() - cpu
    import resource

    return {"seconds": seconds, "cpu": cpu, "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
            "funnel": counts, "threads": threads}


def child_question(lake: str, workers: int, question: str) -> dict:
    """Retention or paths on Dask (a LocalCluster as for the funnel, or the dispatcher's choice), timed from the
    first read."""
    from workbench.tracking.analysis import paths, read_events, retention

    cluster, client = _cluster(workers)
    with TreeSampler(os.getpid()) as mem:
        t, cpu = time.perf_counter(), time.process_time()
        if question == "retention":
            table = retention(read_events(lake, columns=["visitorId", "key", "timestamp"]), start_key="viewer_loaded",
                              by="visitorId", periods=RETENTION_DAYS, client=client)
            answer = table["count"].to_numpy().tolist()
        else:
            top = paths(read_events(lake, columns=["sessionId", "key", "timestamp", "id"]), start="viewer_loaded",
                        steps=PATH_STEPS, by="sessionId", exclude=["heartbeat"], top=20, client=client)
            answer = [[p, int(c)] for p, c in zip(top["path"], top["count"], strict=True)]
        seconds, cpu = time.perf_counter() - t, time.process_time() - cpu
    _close(cluster, client)
    return {"seconds": seconds, "cpu": cpu, "peak_rss_mb": mem.peak / 2**20, "answer": answer}


def child_duckdb_question(lake: str, threads: int, question: str) -> dict:
    """The same definitions in DuckDB SQL over the same files, integer keys, ``threads`` threads."""
    import resource

    import duckdb

    con = duckdb.connect()
    con.execute(f"SET threads = {int(threads)}")
    con.execute("SET preserve_insertion_order = false")
    t, cpu = time.perf_counter(), time.process_time()
    if question == "retention":
        rows = con.execute(f"""
            WITH e AS (SELECT hash(visitorId) AS vid, CAST(key AS VARCHAR) AS key, epoch_ms(timestamp) AS t
                       FROM read_parquet('{lake}/*/*.parquet') WHERE visitorId IS NOT NULL),
            first AS (SELECT vid, min(t) AS t0 FROM e WHERE key = 'viewer_loaded' GROUP BY 1),
            back AS (SELECT DISTINCT f.vid, f.t0 // 86400000 AS cohort, (e.t - f.t0) // 86400000 AS n
                     FROM e JOIN first f USING (vid) WHERE e.t >= f.t0 AND e.t - f.t0 < {RETENTION_DAYS + 1} * 86400000)
            SELECT cohort, n, count(*) FROM back GROUP BY 1, 2 ORDER BY 1, 2""").fetchall()
        cohorts = sorted({r[0] for r in rows})
        table = [[0] * (RETENTION_DAYS + 1) for _ in cohorts]
        for cohort, n, c in rows:
            table[cohorts.index(cohort)][int(n)] = c
        answer = table
    else:
        rows = con.execute(f"""
            WITH e AS (SELECT hash(sessionId) AS sid, CAST(key AS VARCHAR) AS key,
                              row_number() OVER (PARTITION BY hash(sessionId) ORDER BY timestamp, id) AS i
                       FROM read_parquet('{lake}/*/*.parquet') WHERE key <> 'heartbeat'),
            s AS (SELECT sid, min(i) AS i0 FROM e WHERE key = 'viewer_loaded' GROUP BY 1),
            p AS (SELECT string_agg(key, ' → ' ORDER BY i) AS path FROM e JOIN s USING (sid)
                  WHERE i BETWEEN i0 AND i0 + {PATH_STEPS - 1} GROUP BY sid)
            SELECT path, count(*) AS c FROM p GROUP BY 1 ORDER BY c DESC, path LIMIT 20""").fetchall()
        answer = [[p, int(c)] for p, c in rows]
    seconds, cpu = time.perf_counter() - t, time.process_time() - cpu
    return {"seconds": seconds, "cpu": cpu, "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
            "answer": answer}


def child_new(lake: str, workers: int, question: str) -> dict:
    """One of issue 38's questions on workbench (scale_new.ours), memory sampled as for the others."""
    # the statistics' libraries loaded before the clock, as dask is (and DuckDB's library is): a notebook's second
    # readout has them; importing them took 6 to 8 s on the loaded machine
    import scipy.stats  # noqa: F401
    import statsmodels.stats.contingency_tables  # noqa: F401
    import statsmodels.stats.proportion  # noqa: F401
    from scale_new import ours

    cluster, client = _cluster(workers)
    with TreeSampler(os.getpid()) as mem:
        seconds, cpu, answer = ours(lake, question, client)
    _close(cluster, client)
    return {"seconds": seconds, "cpu": cpu, "peak_rss_mb": mem.peak / 2**20, "answer": answer}


def child_duckdb_new(lake: str, threads: int, question: str) -> dict:
    import resource

    from scale_new import duckdb_answer

    seconds, cpu, answer = duckdb_answer(lake, question, threads)
    return {"seconds": seconds, "cpu": cpu, "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
            "answer": answer}


def child_polars(lake: str, threads: int) -> dict:
    """Sessionize + funnel by visit in Polars: lazy, the streaming engine, integer session keys."""
    import resource

    import pandas as pd
    import polars as pl

    gap_ms = pd.Timedelta(GAP).value // 1_000_000
    within_ms = pd.Timedelta(WITHIN).value // 1_000_000
    t = time.perf_counter()
    e = (pl.scan_parquet(f"{lake}/*/*.parquet", hive_partitioning=False)
         .select(pl.col("sessionId").hash().alias("sid"), pl.col("key").cast(pl.String),
                 pl.col("timestamp").dt.epoch("ms").alias("t"))
         .sort(["sid", "t"]))
    new = (pl.col("t").diff().over("sid").fill_null(gap_ms + 1) > gap_ms).cast(pl.Int32)
    fe = (e.with_columns(new.alias("new"))
          .with_columns(pl.col("new").cum_sum().over("sid").alias("vn"))
          .filter(pl.col("key").is_in(STEPS))
          .with_columns(pl.int_range(pl.len()).over(["sid", "vn"]).alias("pos"))
          .with_columns(pl.col("pos").min().over(["sid", "vn", "t"]).alias("run_start")))
    fe = fe.collect(engine="streaming").lazy()
    level = fe.filter(pl.col("key") == STEPS[0]).select("sid", "vn", pl.col("t").alias("t0"),
                                                        pl.col("run_start").alias("rs"))
    counts = [level.select(pl.struct("sid", "vn").n_unique()).collect(engine="streaming").item()]
    for step in STEPS[1:]:
        right = (fe.filter(pl.col("key") == step)
                 .select("sid", "vn", "pos", pl.col("run_start").alias("rs_next"), pl.col("t").alias("t_next"))
                 .sort("pos"))
        level = (level.sort("rs").join_asof(right, left_on="rs", right_on="pos", by=["sid", "vn"], strategy="forward")
                 .filter(pl.col("t_next").is_not_null() & (pl.col("t_next") - pl.col("t0") <= within_ms))
                 .select("sid", "vn", "t0", pl.col("rs_next").alias("rs")))
        level = level.collect(engine="streaming").lazy()
        counts.append(level.select(pl.struct("sid", "vn").n_unique()).collect().item())
    seconds = time.perf_counter() - t
    return {"seconds": seconds, "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
            "funnel": counts, "threads": threads}


def child_explorer(lake: str) -> dict:
    """The explorer on ``lake``: its first answer, then each change a person makes, timed."""
    import ipywidgets  # noqa: F401  (loaded before the clock, as in a notebook that shows widgets)
    import matplotlib.figure  # noqa: F401
    import scipy.stats  # noqa: F401
    import statsmodels.stats.proportion  # noqa: F401

    from workbench.tracking.explorer import Explorer

    t = time.perf_counter()
    ex = Explorer(lake, question="funnel")
    first = time.perf_counter() - t
    days = ex.events.days
    changes = [("question", "retention"), ("question", "lifecycle"), ("question", "stickiness"), ("question", "paths"),
               ("question", "experiment"), ("question", "funnel"), ("order", "any"), ("breakdown", "referrer"),
               ("by", "sessionId"), ("first_day", days[1]), ("last_day", days[4]), ("filter_field", "device"),
               ("filter_values", ("mobile",)), ("question", "lifecycle"), ("period", "7D"), ("question", "retention"),
               ("question", "funnel")]
    timed = []
    for control, value in changes:
        t = time.perf_counter()
        getattr(ex, control).value = value
        timed.append([f"{control}={value}", time.perf_counter() - t, ex.problem])
    return {"first": first, "changes": timed, "events": len(ex.events.frame)}


def _child(*args: str, env_extra: dict | None = None) -> dict:
    env = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""), **(env_extra or {})}
    out = subprocess.run([sys.executable, os.path.abspath(__file__), "--child", *args], capture_output=True, text=True,
                         env=env)
    if out.returncode:
        raise SystemExit(f"child {args} failed:\n{out.stderr[-4000:]}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def _lake_of(lake: Path, question: str) -> str:
    """The lake a question runs on: ``variants`` on the one whose experiment starts part way (``*_exp``)."""
    return str(lake) + ("_exp" if question == "variants" else "")


def _duck(lake: Path, question: str, workers: int) -> dict:
    if question in NEW:
        return _child("duckdb_new", _lake_of(lake, question), str(workers), question)
    return (_child("duckdb", str(lake), str(workers)) if question == "funnel"
            else _child("duckdb_question", str(lake), str(workers), question))


def _ours(lake: Path, question: str, side_workers: int) -> dict:
    if question in NEW:
        return _child("new", _lake_of(lake, question), str(side_workers), question)
    return (_child("dask", str(lake), str(side_workers), "lake") if question == "funnel"
            else _child("question", str(lake), str(side_workers), question))


def _repeated(lake: Path, n: int, questions: list[str], sides: dict[str, int], workers: int, repeats: int) -> dict:
    """Each question ``repeats`` times per side in alternating pairs after a warm-up; medians and pair ratios."""
    import statistics

    def duck(question):
        return _duck(lake, question, workers)

    def ours(question, side_workers):
        return _ours(lake, question, side_workers)

    def answer(r):
        return r.get("funnel", r.get("answer"))

    row = {"events": n}
    for question in [q for q in ("retention", "paths", "funnel", *NEW) if q in questions]:
        for side, side_workers in sides.items():
            duck(question), ours(question, side_workers)          # the warm-up, untimed
            d_s, o_s, d_c, o_c = [], [], [], []
            for k in range(repeats):
                pair = [lambda question=question: duck(question),
                        lambda question=question, side_workers=side_workers: ours(question, side_workers)]
                first, second = (pair if k % 2 == 0 else pair[::-1])
                a, b = first(), second()
                d, o = (a, b) if k % 2 == 0 else (b, a)
                if answer(d) != answer(o):
                    raise SystemExit(f"Dask ({side}) and DuckDB disagree on {question}:\n{answer(o)}\n{answer(d)}")
                d_s.append(d["seconds"])
                o_s.append(o["seconds"])
                d_c.append(d["cpu"])
                o_c.append(o["cpu"])
            ratios = [o / d for o, d in zip(o_s, d_s, strict=True)]
            # CPU seconds of each side's whole process (every thread) over the same timed part: on a machine shared
            # with other jobs, wall time is mostly waiting for a core, CPU time what each side asked of it
            cpu_ratios = [o / d for o, d in zip(o_c, d_c, strict=True)]
            print(f"  {question:9s} ({side:7s}) x{repeats}: ours median {statistics.median(o_s):7.2f} s, duckdb median "
                  f"{statistics.median(d_s):7.2f} s, ratio median {statistics.median(ratios):.2f} "
                  f"(range {min(ratios):.2f} to {max(ratios):.2f}; goal <= 1.0)   CPU ours {statistics.median(o_c):.2f} s,"
                  f" duckdb {statistics.median(d_c):.2f} s, ratio median {statistics.median(cpu_ratios):.2f} "
                  f"(range {min(cpu_ratios):.2f} to {max(cpu_ratios):.2f})   answers agree: True"
                  f"   runs ours {', '.join(f'{x:.2f}' for x in o_s)} | duckdb {', '.join(f'{x:.2f}' for x in d_s)}",
                  flush=True)
            row[f"{question}_{side}_ratio"] = statistics.median(ratios)
            row[f"{question}_{side}_cpu_ratio"] = statistics.median(cpu_ratios)
    return row


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="10M,30M,100M", help="event counts, comma separated (10M, 500k, ...)")
    ap.add_argument("--root", default="/tmp/workbench_scale", help="where the lakes are made")
    ap.add_argument("--workers", type=int, default=os.cpu_count() or 1, help="Dask workers = DuckDB threads")
    ap.add_argument("--shuffle-sizes", default="", help="sizes also run through a shuffle (no session buckets)")
    ap.add_argument("--keep", action="store_true", help="keep the lakes")
    ap.add_argument("--questions", default=",".join(QUESTIONS), help="which of " + ", ".join(QUESTIONS))
    ap.add_argument("--sides", default="default,cluster",
                    help="Dask sides: default (the dispatcher decides), cluster (a warmed LocalCluster)")
    ap.add_argument("--repeats", type=int, default=1, help="runs per side, in pairs, after a warm-up (when > 1)")
    ap.add_argument("--explorer", action="store_true", help="time the explorer's first answer and each change")
    ap.add_argument("--child", nargs="+", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        kind, lake, *rest = args.child
        if kind == "explorer":
            result = child_explorer(lake)
        elif kind == "make":
            result = child_make(lake, int(rest[0]), rest[1] if len(rest) > 1 else None)
        elif kind == "new":
            result = child_new(lake, int(rest[0]), rest[1])
        elif kind == "duckdb_new":
            result = child_duckdb_new(lake, int(rest[0]), rest[1])
        elif kind == "dask":
            result = child_dask(lake, int(rest[0]), rest[1] == "plain")
        elif kind == "question":
            result = child_question(lake, int(rest[0]), rest[1])
        elif kind == "duckdb_question":
            result = child_duckdb_question(lake, int(rest[0]), rest[1])
        elif kind == "polars":
            result = child_polars(lake, int(rest[0]))
        else:
            result = child_duckdb(lake, int(rest[0]))
        print(json.dumps(result))
        return

    import platform

    import psutil

    sizes = [_size(s) for s in args.sizes.split(",") if s.strip()]
    shuffled = {_size(s) for s in args.shuffle_sizes.split(",") if s.strip()}
    print(f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}  {platform.node()}  {os.cpu_count()} cores, "
          f"{psutil.virtual_memory().total / 2**30:.0f} GB; Dask workers = DuckDB threads = {args.workers}")
    print(f"steps: {' -> '.join(STEPS)}  gap {GAP}  within {WITHIN}  by visit")
    root = Path(args.root)
    rows = []
    for n in sizes:
        lake = root / f"lake_{n}"
        note = lake / "_workbench_lake.json"
        if note.exists():
            made = None
            print(f"\n{n:,} events: lake reused from {lake}")
        else:
            made = _child("make", str(lake), str(n))
            print(f"\n{n:,} events: lake written in {made['seconds']:.1f} s, peak RSS {made['peak_rss_mb'] / 1024:.2f} GB"
                  f" (goal < 2 GB), {sum(f.stat().st_size for f in lake.rglob('*.parquet')) / 2**30:.2f} GB on disk")
        questions = [q.strip() for q in args.questions.split(",") if q.strip()]
        exp = Path(_lake_of(lake, "variants"))
        if "variants" in questions and not (exp / "_workbench_lake.json").exists():
            from scale_new import EXPERIMENT_START

            done = _child("make", str(exp), str(n), EXPERIMENT_START)
            print(f"  the experiment's lake written in {done['seconds']:.1f} s ({exp})")
        row = {"events": n, "synth_s": made and made["seconds"], "synth_gb": made and made["peak_rss_mb"] / 1024}
        if args.explorer:
            ex = _child("explorer", str(lake))
            took = [c[1] for c in ex["changes"]]
            print(f"  explorer: first answer {ex['first']:.2f} s ({ex['events']:,} events read into memory); "
                  f"{len(took)} changes: median {sorted(took)[len(took) // 2]:.3f} s, slowest {max(took):.3f} s "
                  f"(goal <= 1.0)")
            for label, seconds, problem in ex["changes"]:
                print(f"    {label:32s} {seconds:6.3f} s{'  ' + problem if problem else ''}")
            if not questions:
                rows.append(row)
                continue
        sides = {"default": 0, "cluster": args.workers}
        sides = {name: w for name, w in sides.items() if name in args.sides.split(",")}
        if args.repeats > 1:
            rows.append(_repeated(lake, n, questions, sides, args.workers, args.repeats))
            continue
        for question in ("retention", "paths", *NEW):
            if question in questions:
                qq = _duck(lake, question, args.workers)
                for side, workers in sides.items():
                    dq = _ours(lake, question, workers)
                    same = dq["answer"] == qq["answer"]
                    print(f"  {question:9s} dask ({side:7s}) {dq['seconds']:7.1f} s peak {dq['peak_rss_mb'] / 1024:5.2f} GB"
                          f"   duckdb {qq['seconds']:7.1f} s peak {qq['peak_rss_mb'] / 1024:5.2f} GB   dask / duckdb "
                          f"{dq['seconds'] / qq['seconds']:.2f} (goal <= 1.0)   answers agree: {same}")
                    row.update({f"{question}_{side}_s": dq["seconds"], f"{question}_duckdb_s": qq["seconds"]})
                    if not same:
                        raise SystemExit(f"Dask and DuckDB disagree on {question}:\n{dq['answer']}\n{qq['answer']}")
        if "funnel" not in questions:
            rows.append(row)
            continue
        q = _child("duckdb", str(lake), str(args.workers))
        print(f"  duckdb {q['seconds']:8.1f} s  peak {q['peak_rss_mb'] / 1024:5.2f} GB  funnel {q['funnel']}")
        agree = True
        for side, workers in sides.items():
            d = _child("dask", str(lake), str(workers), "lake")
            agree &= d["funnel"] == q["funnel"]
            print(f"  dask ({side:7s}) {d['seconds']:8.1f} s  peak {d['peak_rss_mb'] / 1024:5.2f} GB (all processes; "
                  f"goal < 6 GB)  {d['partitions']} partitions  funnel {d['funnel']}   dask / duckdb "
                  f"{d['seconds'] / q['seconds']:.2f}   answers agree: {d['funnel'] == q['funnel']}")
            row.update({f"funnel_{side}_s": d["seconds"], "dask_s": d["seconds"], "dask_gb": d["peak_rss_mb"] / 1024})
        row.update({"duckdb_s": q["seconds"], "duckdb_gb": q["peak_rss_mb"] / 1024, "agree": agree})
        if "polars" in questions:
            pq_ = _child("polars", str(lake), str(args.workers), env_extra={"POLARS_MAX_THREADS": str(args.workers)})
            print(f"  polars {pq_['seconds']:8.1f} s  peak {pq_['peak_rss_mb'] / 1024:5.2f} GB  funnel {pq_['funnel']}  "
                  f"dask / polars {d['seconds'] / pq_['seconds']:.2f}   answers agree: {pq_['funnel'] == d['funnel']}")
            row["polars_s"] = pq_["seconds"]
        if n in shuffled:
            s = _child("dask", str(lake), str(args.workers), "plain")
            print(f"  dask, no session buckets (shuffle by sessionId): {s['seconds']:.1f} s, peak "
                  f"{s['peak_rss_mb'] / 1024:.2f} GB, funnel {s['funnel']} "
                  f"({s['seconds'] / d['seconds']:.2f}x the bucketed lake)")
            row["shuffle_s"] = s["seconds"]
        rows.append(row)
        if not args.keep and made is not None:
            shutil.rmtree(lake)
        if not agree:
            raise SystemExit("Dask and DuckDB disagree")
    if len(rows) > 1 and "dask_s" in rows[0]:
        base = rows[0]
        print("\ngrowth (time per event relative to the smallest size):")
        for r in rows:
            print(f"  {r['events']:>12,}  dask {r['dask_s']:7.1f} s ({r['dask_s'] / base['dask_s']:5.2f}x time, "
                  f"{r['events'] / base['events']:5.1f}x events)  duckdb {r['duckdb_s']:7.1f} s "
                  f"({r['duckdb_s'] / base['duckdb_s']:5.2f}x)")


if __name__ == "__main__":
    main()
