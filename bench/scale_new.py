"""The questions issue 38 added, for bench/scale.py: each answered by workbench (through the dispatcher, on a lake) and by
DuckDB SQL of the same definition over the same files, as the same plain answer (lists of numbers) to compare.

- ``lifecycle``: new / returning / resurrecting / dormant visitors per UTC day, active = ``interaction_start``, new
  as PostHog's (the day of the visitor's first event of any key; active later for the first time: resurrecting);
- ``stickiness``: visitors per (week from Monday, days active that week), active = ``interaction_start``, and
  whether the data cover the week (its first and last day hold an event of a visitor);
- ``time_to_convert``: per step of viewer_loaded -> hotspot_opened -> cta_clicked by session within 1 h, and end to
  end: groups, mean, p50, p90, p99 of the seconds from the step before (the counted chain: the deepest, then the
  earliest start; each next step the earliest after the previous one, as the funnel's);
- ``correlation``: the same funnel's correlation: per event key (strictly inside each session's window) and per
  device and platform value (in it, ends included), the sessions that converted and that did not;
- ``variants``: hotspots per visitor (``compare_variants(metric="mean")``) with CUPED over the 7 days before each
  visitor's exposure, on a lake whose experiment starts on its fourth day: units and totals per variant, the
  adjusted means, the difference and its interval, theta, the variance reduction and the sample-ratio p-value.

DuckDB reads the columns it needs, keys visitors and sessions by ``hash()`` (the Dask side works on integer codes),
and finishes the few sums CUPED needs in Python (``experiment_stats.merge`` and ``estimates``: the same arithmetic,
from DuckDB's sums).
"""

from __future__ import annotations

import time

NEW_QUESTIONS = ("lifecycle", "stickiness", "time_to_convert", "correlation", "variants")
STEPS = ["viewer_loaded", "hotspot_opened", "cta_clicked"]
WITHIN_MS = 3_600_000
PERCENTILES = (0.5, 0.9, 0.99)
PROPERTIES = ["device", "platform"]
EXPERIMENT_START = "2026-11-04T00:00:00Z"
DAY = 86_400_000


def _rounded(rows, digits=6):
    return [[round(x, digits) if isinstance(x, float) else x for x in r] for r in rows]


def ours(lake: str, question: str, client=None):
    """(wall seconds, CPU seconds of the whole process, the answer) of workbench (the dispatcher's choice of scheduler
    unless ``client``), timed from the first read."""
    from workbench.tracking.analysis import (
        compare_variants,
        funnel_correlation,
        lifecycle,
        read_events,
        stickiness,
        time_to_convert,
    )

    t, cpu = time.perf_counter(), time.process_time()
    if question == "lifecycle":
        table = lifecycle(read_events(lake, columns=["visitorId", "key", "timestamp"]), event="interaction_start",
                          by="visitorId", client=client)
        answer = [[int(p.value // 10**6 // DAY), *map(int, r)] for p, r in
                  zip(table["period"], table[["new", "returning", "resurrecting", "dormant"]].to_numpy(), strict=True)]
    elif question == "stickiness":
        table = stickiness(read_events(lake, columns=["visitorId", "key", "timestamp"]), event="interaction_start",
                           by="visitorId", client=client)
        table = table[table["count"] > 0]
        answer = [[int(w.value // 10**6 // DAY), int(k), int(c), bool(whole)] for w, k, c, whole in
                  zip(table["window"], table["periods_active"], table["count"], table["complete"], strict=True)]
    elif question == "time_to_convert":
        table = time_to_convert(read_events(lake, columns=["sessionId", "key", "timestamp"]), STEPS,
                                percentiles=PERCENTILES, client=client)
        answer = _rounded(table[["groups", "mean_s", "p50_s", "p90_s", "p99_s"]].values.tolist())
    elif question == "correlation":
        table = funnel_correlation(read_events(lake, columns=["sessionId", "key", "timestamp", "payload.device",
                                                              "payload.platform"]), STEPS, properties=PROPERTIES,
                                   client=client)
        answer = sorted([k, n, v, int(s), int(f)] for k, n, v, s, f in
                        table[["kind", "name", "value", "success_with", "failure_with"]].values.tolist())
    else:
        table = compare_variants(read_events(lake, columns=["visitorId", "key", "timestamp", "payload"]),
                                 variant_field="variant", metric="mean", value="hotspot_opened", by="visitorId",
                                 covariate=True, client=client)
        answer = _variants_answer(table)
    return time.perf_counter() - t, time.process_time() - cpu, answer


def _variants_answer(table):
    cols = ["units", "units_with_covariate", "total", "mean", "difference", "difference_low", "difference_high",
            "theta", "variance_reduction", "srm_p_value"]
    return [[v, *[None if x != x else x for x in row]] for v, row in
            zip(table["variant"], _rounded(table[cols].values.tolist(), 9), strict=True)]


def duckdb_answer(lake: str, question: str, threads: int):
    import duckdb

    con = duckdb.connect()
    con.execute(f"SET threads = {int(threads)}")
    con.execute("SET preserve_insertion_order = false")
    files = f"read_parquet('{lake}/*/*.parquet')"
    t, cpu = time.perf_counter(), time.process_time()
    if question in ("lifecycle", "stickiness"):
        con.execute(f"""CREATE TEMP TABLE a AS
            SELECT DISTINCT hash(visitorId) AS u, epoch_ms(timestamp) // {DAY} AS d FROM {files}
            WHERE visitorId IS NOT NULL AND key = 'interaction_start'""")
    if question == "lifecycle":
        # each visitor's first day with any event (PostHog's person creation) and the data's last event
        con.execute(f"""CREATE TEMP TABLE f AS SELECT hash(visitorId) AS u, min(epoch_ms(timestamp)) // {DAY} AS d0,
            max(epoch_ms(timestamp)) AS t1 FROM {files} WHERE visitorId IS NOT NULL GROUP BY 1""")
        rows = con.execute(f"""
            WITH s AS (SELECT d, d0, lag(d) OVER (PARTITION BY u ORDER BY d) AS prev,
                              lead(d) OVER (PARTITION BY u ORDER BY d) AS nxt FROM a JOIN f USING (u)),
            span AS (SELECT (SELECT min(d) FROM a) AS lo, (SELECT max(t1) FROM f) // {DAY} AS hi),
            up AS (SELECT d, count(*) FILTER (WHERE d = d0) AS n_new,
                          count(*) FILTER (WHERE prev = d - 1) AS n_ret,
                          count(*) FILTER (WHERE d <> d0 AND (prev IS NULL OR prev < d - 1)) AS n_res FROM s GROUP BY d),
            down AS (SELECT d + 1 AS d, count(*) AS n_dor FROM s WHERE nxt IS NULL OR nxt > d + 1 GROUP BY 1)
            SELECT r.d, coalesce(n_new, 0), coalesce(n_ret, 0), coalesce(n_res, 0), -coalesce(n_dor, 0)
            FROM span, range(span.lo, span.hi + 1) r(d) LEFT JOIN up USING (d) LEFT JOIN down USING (d)
            ORDER BY 1""").fetchall()
        answer = [list(map(int, r)) for r in rows]
    elif question == "stickiness":  # weeks from Monday 1970-01-05, epoch day 4
        rows = con.execute(f"""
            WITH w AS (SELECT (d - 4) // 7 * 7 + 4 AS w, u, count(*) AS k FROM a GROUP BY 1, 2),
            span AS (SELECT min(epoch_ms(timestamp)) AS lo, max(epoch_ms(timestamp)) AS hi FROM {files}
                     WHERE visitorId IS NOT NULL)
            SELECT w, k, count(*), any_value(lo < (w + 1) * {DAY} AND hi >= (w + 6) * {DAY})
            FROM w, span GROUP BY 1, 2 ORDER BY 1, 2""").fetchall()
        answer = [[*map(int, r[:3]), bool(r[3])] for r in rows]
    elif question in ("time_to_convert", "correlation"):
        _chains(con, files)
        answer = _ttc(con) if question == "time_to_convert" else _correlation(con, files)
    else:
        answer = _variants_duckdb(con, files)
    return time.perf_counter() - t, time.process_time() - cpu, answer


def _chains(con, files) -> None:
    """Each session's counted chain of STEPS (table ``best``: sid, depth, t0, t1, t2): from every first-step event,
    the earliest next step at or after the previous one's millisecond, within the hour; the deepest chain, then the
    earliest start."""
    keys = ", ".join(f"'{s}'" for s in STEPS)
    con.execute(f"""CREATE TEMP TABLE fe AS
        SELECT sid, key, t, pos, min(pos) OVER (PARTITION BY sid, t) AS run_start FROM (
            SELECT hash(sessionId) AS sid, CAST(key AS VARCHAR) AS key, epoch_ms(timestamp) AS t,
                   row_number() OVER (PARTITION BY hash(sessionId) ORDER BY epoch_ms(timestamp)) AS pos
            FROM {files} WHERE key IN ({keys}))""")
    con.execute(f"CREATE TEMP TABLE c0 AS SELECT sid, t AS t0, run_start AS rs FROM fe WHERE key = '{STEPS[0]}'")
    con.execute(f"""CREATE TEMP TABLE c1 AS SELECT c.sid, c.t0, e.t AS t1, e.run_start AS rs FROM c0 c
        ASOF JOIN (SELECT sid, pos, run_start, t FROM fe WHERE key = '{STEPS[1]}') e ON c.sid = e.sid AND c.rs <= e.pos
        WHERE e.t - c.t0 <= {WITHIN_MS}""")
    con.execute(f"""CREATE TEMP TABLE c2 AS SELECT c.sid, c.t0, c.t1, e.t AS t2 FROM c1 c
        ASOF JOIN (SELECT sid, pos, run_start, t FROM fe WHERE key = '{STEPS[2]}') e ON c.sid = e.sid AND c.rs <= e.pos
        WHERE e.t - c.t0 <= {WITHIN_MS}""")
    con.execute("""CREATE TEMP TABLE best AS
        SELECT sid, arg_min(depth, (-depth, t0)) AS depth, arg_min(t0, (-depth, t0)) AS t0,
               arg_min(t1, (-depth, t0)) AS t1, arg_min(t2, (-depth, t0)) AS t2 FROM (
            SELECT sid, 1 AS depth, t0, NULL::BIGINT AS t1, NULL::BIGINT AS t2 FROM c0
            UNION ALL SELECT sid, 2, t0, t1, NULL FROM c1 UNION ALL SELECT sid, 3, t0, t1, t2 FROM c2) GROUP BY sid""")


def _ttc(con):
    rows = []
    for a, b, depth in (("t0", "t1", 2), ("t1", "t2", 3), ("t0", "t2", 3)):
        n, mean, *qs = con.execute(f"""SELECT count(*), avg(({b} - {a}) / 1000.0),
            {", ".join(f"quantile_cont(({b} - {a}) / 1000.0, {q})" for q in PERCENTILES)}
            FROM best WHERE depth >= {depth}""").fetchone()
        rows.append([int(n), mean, *qs])
    return _rounded(rows)


def _correlation(con, files):
    con.execute(f"""CREATE TEMP TABLE w AS SELECT sid, depth = 3 AS won, t0,
        CASE WHEN depth = 3 THEN t2 ELSE t0 + {WITHIN_MS} END AS t_end FROM best""")
    steps = ", ".join(f"'{s}'" for s in STEPS)
    con.execute(f"""CREATE TEMP TABLE ev AS SELECT hash(sessionId) AS sid, CAST(key AS VARCHAR) AS key,
        epoch_ms(timestamp) AS t, CAST("payload.device" AS VARCHAR) AS device,
        CAST("payload.platform" AS VARCHAR) AS platform FROM {files} WHERE hash(sessionId) IN (SELECT sid FROM w)""")
    rows = con.execute(f"""
        SELECT 'event', key, '', count(*) FILTER (WHERE won), count(*) FILTER (WHERE NOT won) FROM (
            SELECT DISTINCT e.sid, e.key, w.won FROM ev e JOIN w USING (sid)
            WHERE e.t > w.t0 AND e.t < w.t_end AND e.key NOT IN ({steps})) GROUP BY key
        UNION ALL
        SELECT 'property', name, value, count(*) FILTER (WHERE won), count(*) FILTER (WHERE NOT won) FROM (
            SELECT DISTINCT e.sid, p.name, p.value, w.won FROM ev e JOIN w USING (sid),
                LATERAL (VALUES ('device', e.device), ('platform', e.platform)) p(name, value)
            WHERE e.t >= w.t0 AND e.t <= w.t_end AND p.value IS NOT NULL) GROUP BY name, value""").fetchall()
    return sorted([k, n, v, int(s), int(f)] for k, n, v, s, f in rows)


def _variants_duckdb(con, files):
    """Per visitor: the exposure (first event with a variant, in (time, id) order), hotspots during and in the 7 days
    before, and whether it had any event then; summed per (variant, stratum) into the moments CUPED reads."""
    import numpy as np
    import pandas as pd

    from workbench.tracking.analysis.experiment_readout import readout

    week = 7 * DAY
    sums = con.execute(f"""
        WITH e AS (SELECT hash(visitorId) AS u, CAST(key AS VARCHAR) AS key, epoch_ms(timestamp) AS t, id,
                          CASE WHEN payload IS NOT NULL THEN json_extract_string(payload, '$.variant') END AS v
                   FROM {files} WHERE visitorId IS NOT NULL),
        x AS (SELECT u, arg_min(v, (t, id)) AS v, min(t) AS te FROM e WHERE v IS NOT NULL GROUP BY u),
        per AS (SELECT x.u, x.v,
                       count(*) FILTER (WHERE e.key = 'hotspot_opened' AND e.t >= x.te) AS y,
                       count(*) FILTER (WHERE e.key = 'hotspot_opened' AND e.t >= x.te - {week} AND e.t < x.te) AS xx,
                       bool_or(e.t >= x.te - {week} AND e.t < x.te) AS has
                FROM x JOIN e USING (u) GROUP BY x.u, x.v)
        SELECT v, has::INT AS stratum, count(*) AS n, avg(y) AS m_y, avg(xx) AS m_x,
               sum((y - m_y_all) * (y - m_y_all)) AS c_yy, sum((y - m_y_all) * (xx - m_x_all)) AS c_yx,
               sum((xx - m_x_all) * (xx - m_x_all)) AS c_xx
        FROM (SELECT *, avg(y) OVER (PARTITION BY v, has) AS m_y_all, avg(xx) OVER (PARTITION BY v, has) AS m_x_all
              FROM per) GROUP BY 1, 2 ORDER BY 1, 2""").df()
    cells = pd.DataFrame({"variant": sums["v"].astype(object), "stratum": sums["stratum"].astype(np.int64),
                          "n": sums["n"].astype(np.int64), "m_Y": sums["m_y"], "m_N": 1.0, "m_X": sums["m_x"],
                          "m_M": 1.0, "c_YY": sums["c_yy"], "c_YN": 0.0, "c_YX": sums["c_yx"], "c_YM": 0.0,
                          "c_NN": 0.0, "c_NX": 0.0, "c_NM": 0.0, "c_XX": sums["c_xx"], "c_XM": 0.0, "c_MM": 0.0,
                          "multiple": 0, "rows": 0})
    opts = {"metric": "mean", "window": (-week * 10**6, 0), "interval": "fixed", "level": 0.95, "weights": None,
            "planned": 10_000, "field": "variant"}
    return _variants_answer(readout(cells, opts, None))
