"""Pandas analysis of exported tracking events: loading, visits, funnels and viewer KPIs.

Long for now: one section per question (loading, visits, funnels, load times, dwell, AR,
rankings, time series, KPIs), and it dispatches Dask frames to
:mod:`workbench.tracking.dask_analysis`, which builds on it (the one known circle of imports,
allowed by name in ``tests/test_layout.py``); the analysis is to become a package with one
module per question and one dispatcher.

Every function takes a DataFrame and column names, works on a copy, returns a new
DataFrame and states its input and output columns; none sets a pandas option. The
hot paths (:func:`sessionize`, :func:`funnel`) work on numpy arrays of integer
nanoseconds and factorized codes, so 10 million events take seconds (see
``bench/analysis.py``).

Payload fields are read from a ``payload.<field>`` column when there is one (from
``events_frame(..., flatten_payload=True)``, ``synth.generate(..., flat=True)`` or an
event lake), else from the ``payload`` dicts.

Every analysis function also takes a Dask DataFrame (from :func:`read_events`, or any
other) and gives the same answer, computed where ``client=`` or
``WORKBENCH_DASK_SCHEDULER`` says (else on an embedded LocalCluster): see
:mod:`workbench.tracking.dask_analysis` for how sessions are kept whole per partition,
and :mod:`workbench.tracking.cluster` for where the work runs.

>>> df = events_frame([
...     {"viewerToken": "v", "sessionId": "s", "key": "viewer_loaded",
...      "timestamp": 1793491200000, "payload": {"loadTimeMs": 800, "device": "mobile"}},
...     {"viewerToken": "v", "sessionId": "s", "key": "ar_requested",
...      "timestamp": "2026-11-01T00:00:05Z", "payload": '{"platform": "ios"}'},
... ])
>>> funnel(df, ["viewer_loaded", "ar_requested"])["count"].tolist()
[1, 1]
"""

from __future__ import annotations

import json
import os
from typing import Any, Iterable, Sequence

import numpy as np
import pandas as pd

from .catalog import CATALOG

__all__ = [
    "EVENT_COLUMNS",
    "events_frame",
    "read_events",
    "sessionize",
    "funnel",
    "load_times",
    "dwell_times",
    "ar_conversion",
    "rank",
    "events_over_time",
    "viewer_kpis",
    "plot_funnel",
    "plot_load_times",
    "plot_events_over_time",
    "plot_rank",
]

EVENT_COLUMNS = ("viewerToken", "sessionId", "key", "timestamp", "payload", "id")


# --------------------------------------------------------------------------
# Helpers
# --------------------------------------------------------------------------

def _ns(series: pd.Series) -> np.ndarray:
    """Nanoseconds since the epoch (UTC for aware columns) as int64; NaT is int64 min."""
    if not pd.api.types.is_datetime64_any_dtype(series.dtype):
        series = pd.to_datetime(series, utc=True)
    return pd.DatetimeIndex(series).as_unit("ns").asi8


def _to_utc(values: pd.Series) -> pd.Series:
    """Epoch milliseconds, ISO strings, or a mix, as datetime64[ns, UTC]."""
    if pd.api.types.is_datetime64_any_dtype(values.dtype):
        out = values if getattr(values.dt, "tz", None) is not None else values.dt.tz_localize("UTC")
        return out.dt.tz_convert("UTC").dt.as_unit("ns")
    if pd.api.types.is_numeric_dtype(values.dtype) and not pd.api.types.is_bool_dtype(values.dtype):
        return pd.to_datetime(values, unit="ms", utc=True).dt.as_unit("ns")
    out = pd.Series(pd.NaT, index=values.index, dtype="datetime64[ns, UTC]")
    is_num = values.map(lambda v: isinstance(v, (int, float, np.integer, np.floating)) and not isinstance(v, bool))
    if is_num.any():
        out[is_num] = pd.to_datetime(values[is_num].astype("float64"), unit="ms", utc=True).dt.as_unit("ns")
    is_str = values.map(lambda v: isinstance(v, str))
    if is_str.any():
        out[is_str] = pd.to_datetime(values[is_str], format="ISO8601", utc=True).dt.as_unit("ns")
    other = ~is_num & ~is_str & values.notna()
    if other.any():  # datetime or Timestamp objects
        out[other] = pd.to_datetime(values[other], utc=True).dt.as_unit("ns")
    return out


def _codes(series: pd.Series) -> tuple[np.ndarray, Any]:
    """Integer codes (-1 for missing) and the values they stand for.

    A categorical already holds its codes; hashing them again took a third of
    sessionize's time on 10M rows.
    """
    if isinstance(series.dtype, pd.CategoricalDtype):
        return series.cat.codes.to_numpy().astype(np.int64), series.cat.categories
    return pd.factorize(series, use_na_sentinel=True)


def _payload_dict(value: Any) -> dict:
    if isinstance(value, dict):
        return value
    if isinstance(value, str):
        parsed = json.loads(value)
        return parsed if isinstance(parsed, dict) else {}
    return {}


def _payload_field(df: pd.DataFrame, field: str, payload: str = "payload") -> pd.Series:
    """One payload field as a Series (missing values as None/NaN)."""
    flat = f"{payload}.{field}"
    if flat in df.columns:
        return df[flat]
    if payload not in df.columns:
        return pd.Series(None, index=df.index, dtype=object)
    return pd.Series([p.get(field) if isinstance(p, dict) else None for p in df[payload]],
                     index=df.index, dtype=object)


def _is_dask(df: Any) -> bool:
    return type(df).__module__.startswith("dask")


def _dask():
    # imported on first use: pandas users never load dask (and dask_analysis builds on this module)
    from . import dask_analysis

    return dask_analysis


def check_event_keys(keys: Sequence[str], parameter: str, function: str, df=None, column: str = "key",
                     strict: bool = False) -> list[str]:
    """``keys`` as a list, after checking each against the catalog: a misspelt step would otherwise
    count 0 without a word.

    Decided: an event key of the catalog or ``custom.NAME`` always passes (a catalog key the data
    does not hold is a real 0). Any other value passes when the data's ``column`` holds it (a
    funnel over another alphabet); when it does not, ``strict`` raises ValueError naming the keys
    (the CLI, whose steps are event keys) and otherwise a UserWarning says the count will be 0 and
    names the nearest key. On Dask the data is looked at only when a key is unknown to the catalog.

    >>> check_event_keys(["viewer_loaded", "cta_clicked", "custom.cart"], "steps", "funnel", strict=True)
    ['viewer_loaded', 'cta_clicked', 'custom.cart']
    >>> check_event_keys(["cta_clikced"], "steps", "funnel", strict=True)
    Traceback (most recent call last):
    ...
    ValueError: funnel: steps: 'cta_clikced' is not an event key; did you mean cta_clicked? The keys are animation_played, ..., or custom.NAME
    """
    import difflib
    import warnings

    keys = list(keys)
    catalog_keys = {k for k, spec in CATALOG.items() if not spec.free_form}
    odd = [k for k in keys if not (isinstance(k, str) and (k in catalog_keys or (k.startswith("custom.") and len(k) > 7)))]
    if not odd:
        return keys
    present: set = set()
    if df is not None and column in df.columns:
        values = df[column].dropna().unique()
        present = set((values.compute() if hasattr(values, "compute") else values).tolist())
    for k in odd:
        if k in present:
            continue
        known = sorted(catalog_keys | {str(v) for v in present})
        close = difflib.get_close_matches(str(k), known, n=1)
        hint = f"; did you mean {close[0]}?" if close else "."
        if strict:
            raise ValueError(f"{function}: {parameter}: {k!r} is not an event key{hint} The keys are "
                             f"{', '.join(known)}, or custom.NAME")
        warnings.warn(f"{function}: {parameter}: {k!r} is neither an event key nor in the data, so it counts 0{hint}",
                      UserWarning, stacklevel=3)
    return keys


def _check_columns(df: pd.DataFrame, *names: str) -> None:
    missing = [n for n in names if n not in df.columns]
    if missing:
        raise KeyError(f"missing column(s) {missing}; have {list(df.columns)}")


# --------------------------------------------------------------------------
# Loading
# --------------------------------------------------------------------------

def events_frame(records: Any, flatten_payload: bool = False) -> pd.DataFrame:
    """Exported events as a tidy frame, sorted by time (stable).

    ``records``: a list of dicts, a JSON-lines path, or a DataFrame, with the service's
    export fields ``viewerToken, sessionId, key, timestamp`` (epoch ms or ISO 8601),
    ``payload`` (dict or JSON string) and ``id``.

    Output columns: ``viewerToken, sessionId, key, timestamp`` (datetime64[ns, UTC]),
    ``payload`` (dict, ``{}`` when absent), ``id``; with ``flatten_payload=True`` also one
    ``payload.<field>`` column per payload field seen. The index is 0..n-1.

    >>> events_frame([{"sessionId": "s", "key": "heartbeat", "timestamp": 0,
    ...                "payload": {"visible": True}}], flatten_payload=True).iloc[0].to_dict()["payload.visible"]
    True
    """
    if isinstance(records, pd.DataFrame):
        df = records.copy()
    elif isinstance(records, (str, os.PathLike)):
        with open(records, encoding="utf-8") as fh:
            df = pd.DataFrame.from_records([json.loads(line) for line in fh if line.strip()])
    else:
        df = pd.DataFrame.from_records(list(records))
    for col in EVENT_COLUMNS:
        if col not in df.columns:
            df[col] = None
    extra = [c for c in df.columns if c not in EVENT_COLUMNS]
    df = df[list(EVENT_COLUMNS) + extra]
    df["timestamp"] = _to_utc(df["timestamp"])
    df["payload"] = [_payload_dict(p) for p in df["payload"]]
    df = df.sort_values("timestamp", kind="stable").reset_index(drop=True)
    if flatten_payload:
        flat = pd.DataFrame.from_records(list(df["payload"]), index=df.index)
        flat = flat.drop(columns=[c for c in flat.columns if f"payload.{c}" in df.columns])
        df = pd.concat([df, flat.add_prefix("payload.")], axis=1)
    return df


def read_events(path: str | os.PathLike, columns: Iterable[str] | None = None):
    """A lake folder, ``.parquet`` or ``.jsonl`` file as a Dask DataFrame (see :func:`workbench.tracking.lake.read_events`).

    >>> import tempfile, pathlib
    >>> from workbench.tracking.lake import write_synth_lake
    >>> lake = write_synth_lake(pathlib.Path(tempfile.mkdtemp()) / "lake", 2_000, seed=4)
    >>> funnel(read_events(lake), ["viewer_loaded", "model_loaded"], client="threads")["count"].tolist()
    [104, 104]
    """
    from .lake import read_events as _read

    return _read(path, columns=columns)


# --------------------------------------------------------------------------
# Visits
# --------------------------------------------------------------------------

def sessionize(df: pd.DataFrame, gap: str | pd.Timedelta = "30min", by: str = "sessionId",
               time: str = "timestamp", client=None) -> pd.DataFrame:
    """Split each ``by`` group into visits at pauses longer than ``gap``.

    Within a group, events are ordered by ``time`` (input order breaks ties; the input
    itself may be in any order). A new visit starts at the group's first event and at
    every event more than ``gap`` after the one before it; exactly ``gap`` stays in the
    same visit.

    Input columns: ``by``, ``time`` (datetime64). Output: a copy of ``df``, same rows and
    order, plus ``visit`` (categorical, ``"{by value}#{n}"`` with n = 1, 2, ... in time
    order; missing where ``by`` or ``time`` is missing).

    >>> t = pd.to_datetime(["2026-11-01 10:01", "2026-11-01 09:00", "2026-11-01 09:30"], utc=True)
    >>> sessionize(pd.DataFrame({"sessionId": "s", "timestamp": t}), gap="30min")["visit"].tolist()
    ['s#2', 's#1', 's#1']

    On a Dask DataFrame the result is a lazy Dask DataFrame (``visit`` categorical per partition).
    """
    if _is_dask(df):
        return _dask().sessionize(df, gap=gap, by=by, time=time, client=client)
    _check_columns(df, by, time)
    # A shallow copy is enough: only a new column is added, and a new column of the
    # copy never reaches the caller's frame (a deep copy cost 0.4 s on 10M rows).
    out = df.copy(deep=False)
    gap_ns = pd.Timedelta(gap).value
    n = len(out)
    t = _ns(out[time])
    codes, uniques = _codes(out[by])
    valid = (codes >= 0) & (t != np.iinfo(np.int64).min)
    rows = np.flatnonzero(valid)
    # 1. order by (group, time); lexsort is stable, so ties keep input order
    order = rows[np.lexsort((t[rows], codes[rows]))]
    c, ts = codes[order], t[order]
    # 2. a visit starts at a new group or after a pause longer than gap
    new_group = np.empty(len(order), dtype=bool)
    new_visit = np.empty(len(order), dtype=bool)
    if len(order):
        new_group[0] = True
        new_group[1:] = c[1:] != c[:-1]
        new_visit[0] = True
        new_visit[1:] = new_group[1:] | ((ts[1:] - ts[:-1]) > gap_ns)
    visit_id = np.cumsum(new_visit) - 1
    # 3. number visits from 1 within each group: subtract the group's first visit id
    first = np.maximum.accumulate(np.where(new_group, visit_id, 0)) if len(order) else visit_id
    number = visit_id - first + 1
    # 4. labels only once per visit (not per event): far cheaper on millions of rows
    starts = np.flatnonzero(new_visit)
    names = pd.Index(uniques).astype(str).to_numpy(dtype=object)[c[starts]]
    labels = pd.Index(names + "#" + number[starts].astype(str).astype(object))
    visit_codes = np.full(n, -1, dtype=np.int64)
    visit_codes[order] = visit_id
    out["visit"] = pd.Categorical.from_codes(visit_codes, categories=labels)
    return out


# --------------------------------------------------------------------------
# Funnels
# --------------------------------------------------------------------------

def funnel(df: pd.DataFrame, steps: Sequence[str], within: str | pd.Timedelta = "1h", by: str = "sessionId",
           key: str = "key", time: str = "timestamp", client=None) -> pd.DataFrame:
    """How many groups went through ``steps`` in order.

    A group (a ``by`` value: a session, or a ``visit`` from :func:`sessionize`) reaches
    step k when it has events e1..ek with keys steps[0..k-1] such that each is at or
    after the previous one's time (equal timestamps count as in order, whatever the row
    order) and ek is at most ``within`` after e1 (inclusive). Other events may come
    between. One event fills one step at most: with a key repeated in ``steps``, events
    of that key with equal timestamps are taken in input order.

    Each first-step event of a group is tried as a start, and the group counts with its
    best start. (Only the earliest start would miss a visitor who opened the viewer,
    left it idle past ``within``, and converted after opening it again.) From a given
    start, taking the earliest possible event for every next step is optimal, so the
    search is one binary search per candidate and step.

    Input columns: ``by``, ``key``, ``time``. Output: one row per step with ``step``,
    ``count``, ``conversion`` = count / count of step 1, ``step_conversion`` = count /
    previous step's count (1.0 for the first step). A ratio whose denominator is 0
    (empty input, or no group reaching that far) is NaN.

    >>> t = pd.to_datetime(["2026-11-01 10:00", "2026-11-01 10:05", "2026-11-01 10:01"], utc=True)
    >>> df = pd.DataFrame({"sessionId": ["a", "a", "b"], "key": ["viewer_loaded", "ar_requested", "viewer_loaded"],
    ...                    "timestamp": t})
    >>> funnel(df, ["viewer_loaded", "ar_requested"])
                step  count  conversion  step_conversion
    0  viewer_loaded      2         1.0              1.0
    1   ar_requested      1         0.5              0.5
    """
    steps = check_event_keys(steps, "steps", "funnel", df, column=key)
    if _is_dask(df):
        return _dask().funnel(df, steps, within=within, by=by, key=key, time=time, client=client)
    if not steps:
        raise ValueError("funnel needs at least one step")
    _check_columns(df, by, key, time)
    within_ns = pd.Timedelta(within).value
    counts = _funnel_counts(df[by], df[key], df[time], steps, within_ns)
    return _funnel_frame(steps, counts)


def _funnel_frame(steps: list[str], counts: np.ndarray) -> pd.DataFrame:
    counts = np.asarray(counts, dtype=np.int64)
    with np.errstate(divide="ignore", invalid="ignore"):
        first = counts[0] if len(counts) else 0
        conversion = np.where(first > 0, counts / max(first, 1), np.nan)
        prev = np.r_[counts[:1], counts[:-1]]
        step_conversion = np.where(prev > 0, counts / np.maximum(prev, 1), np.nan)
    return pd.DataFrame({"step": steps, "count": counts, "conversion": conversion.astype(float),
                         "step_conversion": step_conversion.astype(float)})


def _funnel_counts(groups: pd.Series, keys: pd.Series, times: pd.Series, steps: list[str],
                   within_ns: int) -> np.ndarray:
    m = len(steps)
    # factorize once: comparing codes is far cheaper than materializing 10M key strings
    k_all, k_names = _codes(keys)
    step_codes = [i for i, name in enumerate(k_names) if name in set(steps)]
    wanted = np.isin(k_all, step_codes)
    g_all, _ = _codes(groups)
    t_all = _ns(times)
    wanted = wanted & (g_all >= 0) & (t_all != np.iinfo(np.int64).min)
    rows = np.flatnonzero(wanted)
    if not len(rows):
        return np.zeros(m, dtype=np.int64)
    # 1. only step events matter: sort them by (group, time), ties in input order
    order = rows[np.lexsort((t_all[rows], g_all[rows]))]
    g, t = g_all[order], t_all[order]
    k_sorted = k_all[order]
    pos_of_key = {k_names[i]: np.flatnonzero(k_sorted == i) for i in step_codes}
    # 2. first position of each run of equal (group, time): a next step may sit anywhere in it
    n = len(order)
    positions = np.arange(n)
    new_run = np.empty(n, dtype=bool)
    new_run[0] = True
    new_run[1:] = (g[1:] != g[:-1]) | (t[1:] != t[:-1])
    run_start = np.maximum.accumulate(np.where(new_run, positions, 0))
    # 3. every first-step event is a candidate start; advance all candidates step by step
    start = pos_of_key.get(steps[0], np.empty(0, dtype=np.int64))
    depth = np.zeros(len(start), dtype=np.int64)
    if not len(start):
        return np.zeros(m, dtype=np.int64)
    depth[:] = 1
    alive = np.arange(len(start))
    prev = start.copy()
    last_of_key = {steps[0]: start.copy()}
    for j in range(1, m):
        targets = pos_of_key.get(steps[j])
        if targets is None or not len(alive):
            break
        lo = run_start[prev]
        if steps[j] in last_of_key:
            # the same key filled an earlier step: never reuse that event
            lo = np.maximum(lo, last_of_key[steps[j]] + 1)
        idx = np.searchsorted(targets, lo, side="left")
        found = idx < len(targets)
        p = targets[np.minimum(idx, len(targets) - 1)]
        found &= g[p] == g[start[alive]]
        found &= (t[p] - t[start[alive]]) <= within_ns
        alive, prev, p = alive[found], prev[found], p[found]
        last_of_key = {name: last[found] for name, last in last_of_key.items()}
        last_of_key[steps[j]] = p
        prev = p
        depth[alive] += 1
    # 4. each group counts with its best start; starts are sorted by group already
    start_groups = g[start]
    bounds = np.flatnonzero(np.r_[True, start_groups[1:] != start_groups[:-1]])
    best = np.maximum.reduceat(depth, bounds)
    return np.array([(best >= k).sum() for k in range(1, m + 1)], dtype=np.int64)


# --------------------------------------------------------------------------
# Analyst questions
# --------------------------------------------------------------------------

def _pct_name(q: float) -> str:
    return "p" + f"{q * 100:g}".replace(".", "_")


def load_times(df: pd.DataFrame, by: str = "device", percentiles: Iterable[float] = (0.5, 0.9, 0.99),
               key: str = "key", client=None) -> pd.DataFrame:
    """Viewer load time percentiles per ``by`` (default: the device).

    Uses ``viewer_loaded`` events and their ``loadTimeMs``; ``by`` is a column, or else a
    payload field; a missing value becomes ``"unknown"``. Percentiles interpolate
    linearly between ranks (pandas ``quantile``).

    Input columns: ``key``, payload (``payload`` or ``payload.loadTimeMs``/``payload.<by>``).
    Output: ``by``, ``count``, ``mean_ms``, one ``p<q>`` column per percentile (``p50``,
    ``p90``, ``p99``), sorted by ``by``.

    >>> df = pd.DataFrame({"key": ["viewer_loaded"] * 3, "payload": [
    ...     {"loadTimeMs": 100, "device": "mobile"}, {"loadTimeMs": 300, "device": "mobile"}, {"loadTimeMs": 50}]})
    >>> load_times(df, percentiles=(0.5,)).to_dict("list")
    {'device': ['mobile', 'unknown'], 'count': [2, 1], 'mean_ms': [200.0, 50.0], 'p50': [200.0, 50.0]}
    """
    if _is_dask(df):
        return _dask().load_times(df, by=by, percentiles=percentiles, key=key, client=client)
    _check_columns(df, key)
    sub = df[df[key] == "viewer_loaded"]
    ms = pd.to_numeric(_payload_field(sub, "loadTimeMs"), errors="coerce").astype(float)
    group = sub[by] if by in sub.columns else _payload_field(sub, by)
    group = group.astype(object).where(group.notna(), "unknown").astype(str)
    frame = pd.DataFrame({by: group.to_numpy(), "ms": ms.to_numpy()})
    grouped = frame.groupby(by, sort=True)["ms"]
    out = pd.DataFrame({"count": grouped.count(), "mean_ms": grouped.mean()})
    for q in percentiles:
        out[_pct_name(q)] = grouped.quantile(q)
    out = out.reset_index()
    out["count"] = out["count"].astype(np.int64)
    return out


def dwell_times(df: pd.DataFrame, visit: str = "visit", time: str = "timestamp", key: str = "key",
                gap: str = "30min", client=None) -> pd.DataFrame:
    """Per visit: when it started and ended, its events and how long it lasted.

    ``duration_s`` is last event time minus first event time in seconds (0 for a
    one-event visit); ``closed_duration_s`` is the last ``viewer_closed`` ``durationMs``
    of the visit / 1000, NaN where the visit has none (the tab was killed). Without a
    ``visit`` column the frame is :func:`sessionize` d first with ``gap``.

    Input columns: ``visit`` (or ``sessionId``), ``time``, ``key``, payload; ``sessionId``
    and ``viewerToken`` are carried when present. Output: ``visit``, [``viewerToken``,
    ``sessionId``], ``start``, ``end``, ``events``, ``duration_s``, ``closed_duration_s``.

    >>> t = pd.to_datetime(["2026-11-01 10:00:00", "2026-11-01 10:01:30"], utc=True)
    >>> df = pd.DataFrame({"sessionId": "s", "key": ["viewer_loaded", "viewer_closed"], "timestamp": t,
    ...                    "payload": [{"loadTimeMs": 1}, {"durationMs": 91000}]})
    >>> dwell_times(df)[["visit", "events", "duration_s", "closed_duration_s"]].to_dict("records")
    [{'visit': 's#1', 'events': 2, 'duration_s': 90.0, 'closed_duration_s': 91.0}]

    On a Dask DataFrame the result is a lazy Dask DataFrame, sorted by visit within
    each partition.
    """
    if _is_dask(df):
        return _dask().dwell_times(df, visit=visit, time=time, key=key, gap=gap, client=client)
    if visit not in df.columns:
        df = sessionize(df, gap=gap, time=time)
    _check_columns(df, visit, time, key)
    closed = df[key] == "viewer_closed"
    work = pd.DataFrame({
        "visit": df[visit].astype(object).to_numpy(),
        "t": df[time].to_numpy(),
        "closed_ms": pd.to_numeric(_payload_field(df, "durationMs").where(closed), errors="coerce").astype(float).to_numpy(),
    })
    carried = [c for c in ("viewerToken", "sessionId") if c in df.columns and c != visit]
    for c in carried:
        work[c] = df[c].to_numpy()
    work = work[work["visit"].notna()].sort_values("t", kind="stable")
    grouped = work.groupby("visit", sort=True)
    out = grouped.agg(start=("t", "min"), end=("t", "max"), events=("t", "size"), closed_ms=("closed_ms", "last"),
                      **{c: (c, "first") for c in carried})
    out["duration_s"] = (out["end"] - out["start"]).dt.total_seconds()
    out["closed_duration_s"] = out.pop("closed_ms") / 1000.0
    out = out.reset_index()
    return out[["visit", *carried, "start", "end", "events", "duration_s", "closed_duration_s"]]


AR_STEPS = ("ar_requested", "ar_session_started", "ar_object_placed")


def ar_conversion(df: pd.DataFrame, by: str = "platform", group: str = "sessionId", within: str = "1h",
                  key: str = "key", time: str = "timestamp", client=None) -> pd.DataFrame:
    """AR funnel ``ar_requested -> ar_session_started -> ar_object_placed`` per platform.

    A group (session by default) belongs to the platform of its first ``ar_requested``
    (``by`` is that event's payload field, or a column); the funnel is :func:`funnel` over
    that platform's groups.

    Input columns: ``group``, ``key``, ``time``, payload. Output: ``platform``,
    ``requested``, ``started``, ``placed`` (group counts), ``start_rate`` = started /
    requested, ``place_rate`` = placed / started, ``overall_rate`` = placed / requested.

    >>> t = pd.to_datetime(["2026-11-01 10:00", "2026-11-01 10:01", "2026-11-01 10:02", "2026-11-01 11:00"], utc=True)
    >>> df = pd.DataFrame({"sessionId": ["a", "a", "a", "b"],
    ...     "key": ["ar_requested", "ar_session_started", "ar_object_placed", "ar_requested"], "timestamp": t,
    ...     "payload": [{"platform": "ios"}, {"platform": "ios"}, {}, {"platform": "ios"}]})
    >>> ar_conversion(df)[["platform", "requested", "started", "placed", "overall_rate"]].to_dict("records")
    [{'platform': 'ios', 'requested': 2, 'started': 1, 'placed': 1, 'overall_rate': 0.5}]
    """
    if _is_dask(df):
        return _dask().ar_conversion(df, by=by, group=group, within=within, key=key, time=time, client=client)
    _check_columns(df, group, key, time)
    req = df[df[key] == AR_STEPS[0]]
    plat = req[by] if by in req.columns else _payload_field(req, by)
    first = (pd.DataFrame({"g": req[group].to_numpy(), "t": req[time].to_numpy(), "p": plat.astype(object).to_numpy()})
             .sort_values("t", kind="stable").drop_duplicates("g"))
    platform_of = dict(zip(first["g"], first["p"].where(first["p"].notna(), "unknown")))
    sub = df[df[key].isin(AR_STEPS)]
    sub_platform = sub[group].map(platform_of)
    rows = []
    for name in sorted(set(platform_of.values()), key=str):
        part = sub[(sub_platform == name).to_numpy()]
        c = funnel(part, AR_STEPS, within=within, by=group, key=key, time=time)["count"].tolist()
        rows.append((name, *c))
    out = pd.DataFrame(rows, columns=["platform", "requested", "started", "placed"])
    for col in ("requested", "started", "placed"):
        out[col] = out[col].astype(np.int64)
    with np.errstate(divide="ignore", invalid="ignore"):
        out["start_rate"] = out["started"] / out["requested"].where(out["requested"] > 0)
        out["place_rate"] = out["placed"] / out["started"].where(out["started"] > 0)
        out["overall_rate"] = out["placed"] / out["requested"].where(out["requested"] > 0)
    return out


def rank(df: pd.DataFrame, key: str = "hotspot_opened", field: str = "hotspotId", session: str = "sessionId",
         key_column: str = "key", client=None) -> pd.DataFrame:
    """Rank the values of one payload field (hotspots, variants, ...) by how often they occur.

    Input columns: ``key_column``, ``session``, payload. Output, most frequent first (ties
    by value): ``rank`` (1, 2, ...), ``field`` (the value), ``count`` (events), ``sessions``
    (distinct sessions), ``share`` = count / all counted events.

    >>> df = pd.DataFrame({"sessionId": ["a", "a", "b"], "key": "variant_selected",
    ...                    "payload": [{"variantId": "red"}, {"variantId": "red"}, {"variantId": "blue"}]})
    >>> rank(df, "variant_selected", "variantId").to_dict("list")
    {'rank': [1, 2], 'variantId': ['red', 'blue'], 'count': [2, 1], 'sessions': [1, 1], 'share': [0.6666666666666666, 0.3333333333333333]}
    """
    check_event_keys([key], "key", "rank", df, column=key_column)
    spec = CATALOG.get(key)
    if spec is not None and not spec.free_form and field not in spec.fields_by_name:
        # the service refuses payload fields a catalog key does not have, so no data can hold this one
        raise ValueError(f"rank: field: {key} has no payload field {field!r}; its fields are "
                         f"{', '.join(f.name for f in spec.fields) or 'none'}")
    if _is_dask(df):
        return _dask().rank(df, key=key, field=field, session=session, key_column=key_column, client=client)
    _check_columns(df, key_column, session)
    sub = df[df[key_column] == key]
    values = _payload_field(sub, field)
    frame = pd.DataFrame({field: values.to_numpy(), "s": sub[session].to_numpy()})
    frame = frame[frame[field].notna()]
    grouped = frame.groupby(field, sort=True)
    return _rank_table(pd.DataFrame({"count": grouped.size(), "sessions": grouped["s"].nunique()}).reset_index(), field)


def _rank_table(out: pd.DataFrame, field: str) -> pd.DataFrame:
    """Shares, order and rank numbers from per-value ``field, count, sessions``."""
    total = out["count"].sum()
    out["share"] = out["count"] / total if total else np.nan
    out = out.sort_values(["count", field], ascending=[False, True], kind="stable").reset_index(drop=True)
    out.insert(0, "rank", np.arange(1, len(out) + 1, dtype=np.int64))
    out["count"] = out["count"].astype(np.int64)
    out["sessions"] = out["sessions"].astype(np.int64)
    return out


def events_over_time(df: pd.DataFrame, freq: str = "1h", by: str | None = "key", time: str = "timestamp",
                     client=None) -> pd.DataFrame:
    """Event counts per time bucket (start of the bucket, floor of ``time`` to ``freq``).

    Input columns: ``time``, ``by``. Output: index ``time`` (every bucket from the first to
    the last, empty ones 0), one column per ``by`` value (or a single ``events`` column
    when ``by`` is None), int64 counts.

    >>> t = pd.to_datetime(["2026-11-01 10:10", "2026-11-01 10:50", "2026-11-01 12:00"], utc=True)
    >>> events_over_time(pd.DataFrame({"key": ["a", "b", "a"], "timestamp": t}))["a"].tolist()
    [1, 0, 1]
    """
    if _is_dask(df):
        return _dask().events_over_time(df, freq=freq, by=by, time=time, client=client)
    _check_columns(df, time)
    bucket = pd.DatetimeIndex(df[time]).floor(freq)
    if by is None:
        values = np.full(len(df), "events", dtype=object)
    else:
        _check_columns(df, by)
        values = df[by].astype(object).to_numpy()
    counts = pd.DataFrame({"time": bucket, "value": values}).groupby(["time", "value"], sort=True).size()
    return _over_time_table(counts, freq, by)


def _over_time_table(counts: pd.Series, freq: str, by: str | None) -> pd.DataFrame:
    """The wide table from counts indexed by (time bucket, value)."""
    if len(counts):
        out = counts.unstack("value", fill_value=0)
    else:
        out = pd.DataFrame(index=pd.DatetimeIndex([], tz="UTC"), columns=pd.Index(["events"] if by is None else []))
    out.columns = pd.Index(out.columns.astype(object), name=by)
    if len(out):
        full = pd.date_range(out.index.min(), out.index.max(), freq=freq)
        out = out.reindex(full, fill_value=0)
    out.index.name = "time"
    return out.astype(np.int64)


def viewer_kpis(df: pd.DataFrame, viewer: str = "viewerToken", session: str = "sessionId", visit: str = "visit",
                key: str = "key", time: str = "timestamp", gap: str = "30min", client=None) -> pd.DataFrame:
    """One row of headline figures per viewer.

    Output columns: ``viewerToken``, ``sessions`` (distinct ``sessionId``), ``visits``
    (distinct visits; :func:`sessionize` with ``gap`` when there is no ``visit``
    column), ``events``, ``median_load_ms`` (median ``loadTimeMs`` of ``viewer_loaded``),
    ``ar_rate`` = visits with an ``ar_session_started`` / visits, ``mean_dwell_s`` = mean of
    :func:`dwell_times` ``duration_s`` over the viewer's visits.

    >>> t = pd.to_datetime(["2026-11-01 10:00", "2026-11-01 10:10", "2026-11-01 12:00"], utc=True)
    >>> df = pd.DataFrame({"viewerToken": "v", "sessionId": "s", "timestamp": t,
    ...     "key": ["viewer_loaded", "ar_session_started", "viewer_loaded"],
    ...     "payload": [{"loadTimeMs": 100}, {"platform": "ios"}, {"loadTimeMs": 300}]})
    >>> viewer_kpis(df).iloc[0].to_dict()
    {'viewerToken': 'v', 'sessions': 1, 'visits': 2, 'events': 3, 'median_load_ms': 200.0, 'ar_rate': 0.5, 'mean_dwell_s': 300.0}
    """
    if _is_dask(df):
        return _dask().viewer_kpis(df, viewer=viewer, session=session, visit=visit, key=key, time=time, gap=gap,
                                   client=client)
    if visit not in df.columns:
        df = sessionize(df, gap=gap, by=session, time=time)
    _check_columns(df, viewer, session, visit, key, time)
    base = pd.DataFrame({"viewer": df[viewer].to_numpy(), "session": df[session].to_numpy(),
                         "visit": df[visit].astype(object).to_numpy(), "key": df[key].to_numpy()})
    g = base.groupby("viewer", sort=True)
    out = pd.DataFrame({"sessions": g["session"].nunique(), "visits": g["visit"].nunique(), "events": g.size()})
    loaded = df[key] == "viewer_loaded"
    ms = pd.to_numeric(_payload_field(df[loaded], "loadTimeMs"), errors="coerce").astype(float)
    out["median_load_ms"] = pd.Series(ms.to_numpy(), index=df.loc[loaded, viewer].to_numpy()).groupby(level=0).median()
    ar_visits = base[base["key"] == "ar_session_started"].groupby("viewer")["visit"].nunique()
    out["ar_rate"] = ar_visits.reindex(out.index, fill_value=0) / out["visits"]
    dwell = dwell_times(df, visit=visit, time=time, key=key)
    viewer_of_visit = base.drop_duplicates("visit").set_index("visit")["viewer"]
    dwell_viewer = viewer_of_visit.reindex(dwell["visit"].to_numpy()).to_numpy()
    out["mean_dwell_s"] = pd.Series(dwell["duration_s"].to_numpy(), index=dwell_viewer).groupby(level=0).mean()
    out.index.name = viewer
    out = out.reset_index()
    for col in ("sessions", "visits", "events"):
        out[col] = out[col].astype(np.int64)
    return out


# --------------------------------------------------------------------------
# Plots (matplotlib is imported by pandas only when a plot is drawn)
# --------------------------------------------------------------------------

def plot_funnel(funnel_df: pd.DataFrame, ax=None, unit: str = "visits"):
    """Bar chart of a :func:`funnel` result; returns the matplotlib Axes. ``unit``: what the funnel
    counted (its ``by``: visits from :func:`sessionize`, or sessions), named on the axis.

    >>> ax = plot_funnel(pd.DataFrame({"step": ["a", "b"], "count": [4, 1]}))
    >>> ax.get_ylabel()
    'visits reaching the step'
    """
    ax = funnel_df.plot.bar(x="step", y="count", ax=ax, legend=False, rot=0)
    ax.set_ylabel(f"{unit} reaching the step")
    ax.set_xlabel("")
    # Step names are event keys ("interaction_start"): level, they run into each other.
    labels = [t.get_text() for t in ax.get_xticklabels()]
    if sum(map(len, labels)) > 40:
        ax.set_xticks(ax.get_xticks(), labels, rotation=25, ha="right")
    ax.figure.tight_layout()  # tilted labels stay inside the figure
    return ax


def plot_load_times(df: pd.DataFrame, by: str = "device", ax=None):
    """Box plot of ``viewer_loaded`` ``loadTimeMs`` per ``by``; returns the Axes.

    >>> ax = plot_load_times(pd.DataFrame({"key": ["viewer_loaded"], "payload": [{"loadTimeMs": 5}]}))
    >>> ax.get_ylabel()
    'load time (ms)'
    """
    sub = df[df["key"] == "viewer_loaded"]
    group = sub[by] if by in sub.columns else _payload_field(sub, by)
    frame = pd.DataFrame({by: group.astype(object).where(group.notna(), "unknown").astype(str).to_numpy(),
                          "loadTimeMs": pd.to_numeric(_payload_field(sub, "loadTimeMs"), errors="coerce").to_numpy()})
    ax = frame.plot.box(by=by, ax=ax, return_type="axes") if len(frame) else frame.plot(ax=ax)
    if isinstance(ax, pd.Series):
        ax = ax.iloc[0]
    values = frame["loadTimeMs"].dropna()
    # A slow tail (10x the median and more) squashes the boxes into a line: a log scale shows both.
    log = bool(len(values)) and values.min() > 0 and values.max() > 10 * values.median()
    if log:
        ax.set_yscale("log")
    ax.set_ylabel("load time (ms, log scale)" if log else "load time (ms)")
    return ax


def plot_events_over_time(df: pd.DataFrame, freq: str = "1h", by: str | None = "key", ax=None):
    """Line chart of :func:`events_over_time`; returns the Axes.

    >>> t = pd.to_datetime(["2026-11-01 10:10", "2026-11-01 12:00"], utc=True)
    >>> plot_events_over_time(pd.DataFrame({"key": "a", "timestamp": t})).get_ylabel()
    'events per 1h'
    """
    ax = events_over_time(df, freq=freq, by=by).plot(ax=ax)
    ax.set_ylabel(f"events per {freq}")
    return ax


def plot_rank(rank_df: pd.DataFrame, top: int = 20, ax=None):
    """Horizontal bars of the ``top`` rows of a :func:`rank` result; returns the Axes.

    >>> plot_rank(pd.DataFrame({"rank": [1], "hotspotId": ["h1"], "count": [3]})).get_xlabel()
    'events'
    """
    value = [c for c in rank_df.columns if c not in ("rank", "count", "sessions", "share")][0]
    ax = rank_df.head(top).iloc[::-1].plot.barh(x=value, y="count", ax=ax, legend=False)
    ax.set_xlabel("events")
    return ax
