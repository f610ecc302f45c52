"""The analysis functions on Dask DataFrames: the pandas algorithms run per partition of whole sessions.

:mod:`workbench.tracking.analysis` sends a Dask DataFrame here; callers never import
this module. Each function gives the pandas answer on the same events:

- per-event and per-visit results (:func:`sessionize`, :func:`dwell_times`) stay Dask
  DataFrames (as big as the input; ``visit`` is categorical per partition, its
  categories unknown to Dask); ``.compute()`` gives the pandas rows, in partition order;
- summary tables (:func:`funnel`, :func:`load_times`, :func:`ar_conversion`,
  :func:`rank`, :func:`events_over_time`, :func:`viewer_kpis`) are computed and
  returned as pandas frames, identical to the pandas function's.

How the work is split (the rule: a session is never split across partitions)
----------------------------------------------------------------------------

1. A lake written by workbench holds each session in one *bucket* (same part number
   on every day); :func:`~workbench.tracking.lake.read_events` makes one partition per
   bucket and marks the frame with the ``_session_part`` index and known divisions.
   Such a frame is used as it is: no data moves between workers.
2. Any other frame is hash-shuffled on the grouping column (``sessionId``, or ``by``)
   with Dask's shuffle, keeping the number of partitions.
3. Within a partition the pandas kernels run unchanged (sort by (session, time) on
   integer codes, then vectorized scans), and partial counts add up exactly because no
   group spans two partitions.
4. Exact percentiles and medians (load times) and the AR funnel need only a small slice
   of the events (one ``viewer_loaded`` per visit, the 1-2 % AR events): that slice is
   filtered on the workers and finished in pandas.

Measured for sessionize + funnel by visit on 10 million synthetic events, 2 worker
processes of 1 thread, on 2 cores shared with other jobs (``bench/scale.py
--shuffle-sizes``, figures in ``bench/RESULTS.md``):

- session buckets from the lake, no data moved (1): 5.8 s (9.6 s in a busier run);
- the same files read as a plain Parquet dataset, P2P hash shuffle on ``sessionId``
  (2): 25.8 s, 4.4x (37 s against 9.6 s in the busier run, 3.9x);
- the same with Dask's task-based shuffle: 75 s against 9.6 s, about 8x.

Not built: ``set_index("sessionId")`` (a sort with a quantile pass first, more work than
a hash shuffle for the same guarantee) and one partition per day (sessions cross
midnight, and a day of a large lake is larger than a worker's memory).

>>> import tempfile, pathlib
>>> from workbench.tracking.lake import write_synth_lake, read_events
>>> from workbench.tracking.analysis import funnel, sessionize
>>> lake = write_synth_lake(pathlib.Path(tempfile.mkdtemp()) / "l", 3_000, seed=2, chunk_events=1_000)
>>> visits = sessionize(read_events(lake), client="threads")
>>> visits.npartitions, funnel(visits, ["viewer_loaded", "model_loaded"], by="visit", client="threads")["count"].tolist()
(3, [185, 185])
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from . import analysis as A
from .cluster import compute
from .lake import SESSION_PART

__all__ = ["sessionize", "funnel", "load_times", "dwell_times", "ar_conversion", "rank", "events_over_time",
           "viewer_kpis", "by_group"]


def _session_closed(ddf) -> bool:
    return ddf.index.name == SESSION_PART and ddf.known_divisions


def by_group(ddf, by: str, session: str = "sessionId"):
    """``ddf`` with every ``by`` group inside one partition, shuffling only when it must.

    A frame from a session-bucketed lake keeps its partitions for ``by`` = ``session``
    and for ``visit`` (visits split sessions, never join them).
    """
    if _session_closed(ddf) and by in (session, "visit"):
        return ddf
    # Dask's P2P shuffle moves Arrow tables; merging many partitions' dictionaries of a
    # categorical failed at 10M events ("requires a larger index type"), so they travel as strings
    cats = [c for c, t in ddf.dtypes.items() if isinstance(t, pd.CategoricalDtype)]
    if cats:
        ddf = ddf.astype({c: "str" for c in cats})
    return ddf.shuffle(on=by, npartitions=ddf.npartitions)


def _columns(ddf, *names) -> list[str]:
    A._check_columns(ddf, *[n for n in names if not n.startswith("payload.")])
    return list(dict.fromkeys(n for n in names if n in ddf.columns))


def _field_columns(ddf, *fields: str) -> list[str]:
    """Columns that hold payload ``fields``: the flattened ones, else ``payload``."""
    out = []
    for f in fields:
        if f in ddf.columns:
            out.append(f)
        elif f"payload.{f}" in ddf.columns:
            out.append(f"payload.{f}")
        elif "payload" in ddf.columns:
            out.append("payload")
    return out


def _as_dicts(frame: pd.DataFrame) -> pd.DataFrame:
    """A lake's ``payload`` column holds JSON text; the pandas kernels read it as dicts."""
    if "payload" in frame.columns:
        frame = frame.copy()
        frame["payload"] = [A._payload_dict(p) for p in frame["payload"]]
    return frame


# --------------------------------------------------------------------------
# Visits and funnels
# --------------------------------------------------------------------------

def sessionize(ddf, gap="30min", by="sessionId", time="timestamp", client=None):
    """:func:`workbench.tracking.analysis.sessionize` per partition of whole ``by`` groups (lazy).

    ``visit`` stays a categorical in each partition (its own labels, unknown to Dask up
    front): a funnel by visit then reads integer codes instead of hashing a string per
    event, which was a third of sessionize + funnel's time at 10M events.
    """
    from dask.dataframe.utils import clear_known_categories

    A._check_columns(ddf, by, time)
    part = by_group(ddf, by, session=by)
    meta = clear_known_categories(part._meta.assign(visit=pd.Categorical([])), cols=["visit"])
    return part.map_partitions(A.sessionize, gap=gap, by=by, time=time, meta=meta)


def _funnel_part(part: pd.DataFrame, steps, within_ns, by, key, time) -> pd.DataFrame:
    counts = A._funnel_counts(part[by], part[key], part[time], steps, within_ns)
    return pd.DataFrame([counts], columns=[str(i) for i in range(len(steps))], dtype=np.int64)


def funnel(ddf, steps, within="1h", by="sessionId", key="key", time="timestamp", client=None) -> pd.DataFrame:
    """:func:`workbench.tracking.analysis.funnel`: per-partition counts, added up."""
    steps = list(steps)
    if not steps:
        raise ValueError("funnel needs at least one step")
    A._check_columns(ddf, by, key, time)
    part = by_group(ddf[_columns(ddf, by, key, time)], by)
    meta = pd.DataFrame({str(i): pd.Series([], dtype=np.int64) for i in range(len(steps))})
    within_ns = pd.Timedelta(within).value
    (counts,) = compute(part.map_partitions(_funnel_part, steps, within_ns, by, key, time, meta=meta).sum(),
                        client=client)
    return A._funnel_frame(steps, counts.to_numpy())


def dwell_times(ddf, visit="visit", time="timestamp", key="key", gap="30min", client=None):
    """:func:`workbench.tracking.analysis.dwell_times` per partition of whole visits (lazy)."""
    if visit not in ddf.columns:
        ddf = sessionize(ddf, gap=gap, time=time)
    A._check_columns(ddf, visit, time, key)
    wanted = _columns(ddf, visit, time, key, "viewerToken", "sessionId", *_field_columns(ddf, "durationMs"))
    part = by_group(ddf[wanted], visit)
    return part.map_partitions(lambda p: A.dwell_times(_as_dicts(p), visit=visit, time=time, key=key),
                               meta=A.dwell_times(_as_dicts(part._meta_nonempty), visit=visit, time=time,
                                                  key=key).iloc[:0])


# --------------------------------------------------------------------------
# Questions answered from a small slice of the events
# --------------------------------------------------------------------------

def _slice(ddf, key, keys, wanted, client) -> pd.DataFrame:
    sub = ddf[ddf[key].isin(list(keys))][wanted]
    (frame,) = compute(sub, client=client)
    return _as_dicts(frame.reset_index(drop=True))


def load_times(ddf, by="device", percentiles=(0.5, 0.9, 0.99), key="key", client=None) -> pd.DataFrame:
    """:func:`workbench.tracking.analysis.load_times` on the ``viewer_loaded`` events, gathered."""
    A._check_columns(ddf, key)
    wanted = _columns(ddf, key, *_field_columns(ddf, "loadTimeMs", by))
    return A.load_times(_slice(ddf, key, ["viewer_loaded"], wanted, client), by=by, percentiles=percentiles, key=key)


def ar_conversion(ddf, by="platform", group="sessionId", within="1h", key="key", time="timestamp",
                  client=None) -> pd.DataFrame:
    """:func:`workbench.tracking.analysis.ar_conversion` on the AR events, gathered."""
    A._check_columns(ddf, group, key, time)
    wanted = _columns(ddf, group, key, time, *_field_columns(ddf, by))
    return A.ar_conversion(_slice(ddf, key, A.AR_STEPS, wanted, client), by=by, group=group, within=within,
                           key=key, time=time)


def _rank_part(part: pd.DataFrame, key, field, session, key_column) -> pd.DataFrame:
    part = _as_dicts(part)
    sub = part[part[key_column] == key]
    values = A._payload_field(sub, field)
    frame = pd.DataFrame({"value": values.astype(object).to_numpy(), "s": sub[session].to_numpy()})
    frame = frame[frame["value"].notna()]
    g = frame.groupby("value", sort=True)
    return pd.DataFrame({"count": g.size(), "sessions": g["s"].nunique()}).reset_index()


def rank(ddf, key="hotspot_opened", field="hotspotId", session="sessionId", key_column="key",
         client=None) -> pd.DataFrame:
    """:func:`workbench.tracking.analysis.rank`: counts and distinct sessions per partition of whole sessions."""
    A._check_columns(ddf, key_column, session)
    part = by_group(ddf[_columns(ddf, key_column, session, *_field_columns(ddf, field))], session, session=session)
    meta = pd.DataFrame({"value": pd.Series([], dtype=object), "count": pd.Series([], dtype=np.int64),
                         "sessions": pd.Series([], dtype=np.int64)})
    (partial,) = compute(part.map_partitions(_rank_part, key, field, session, key_column, meta=meta), client=client)
    # sessions are whole in each partition, so distinct counts add up
    totals = partial.groupby("value", sort=True)[["count", "sessions"]].sum()
    return A._rank_table(totals.rename_axis(field).reset_index(), field)


def _over_time_part(part: pd.DataFrame, freq, by, time) -> pd.DataFrame:
    bucket = pd.DatetimeIndex(part[time]).floor(freq)
    frame = pd.DataFrame({"time": bucket, "value": part[by].astype(object).to_numpy() if by else "events"})
    return frame.groupby(["time", "value"], sort=False).size().rename("n").reset_index()


def events_over_time(ddf, freq="1h", by="key", time="timestamp", client=None) -> pd.DataFrame:
    """:func:`workbench.tracking.analysis.events_over_time`: bucket counts per partition, added up."""
    A._check_columns(ddf, time, *([by] if by is not None else []))
    cols = _columns(ddf, time, *([by] if by is not None else []))
    meta = pd.DataFrame({"time": pd.Series([], dtype=ddf[time].dtype), "value": pd.Series([], dtype=object),
                         "n": pd.Series([], dtype=np.int64)})
    (partial,) = compute(ddf[cols].map_partitions(_over_time_part, freq, by, time, meta=meta), client=client)
    counts = partial.groupby(["time", "value"], sort=True)["n"].sum()
    return A._over_time_table(counts, freq, by)


def _kpi_part(part: pd.DataFrame, viewer, session, visit, key, time) -> pd.DataFrame:
    part = _as_dicts(part)
    base = pd.DataFrame({"viewer": part[viewer].astype(object).to_numpy(), "session": part[session].to_numpy(),
                         "visit": part[visit].astype(object).to_numpy(), "key": part[key].to_numpy()})
    g = base.groupby("viewer", sort=True)
    out = pd.DataFrame({"sessions": g["session"].nunique(), "visits": g["visit"].nunique(), "events": g.size()})
    out["ar_visits"] = base[base["key"] == "ar_session_started"].groupby("viewer")["visit"].nunique()
    dwell = A.dwell_times(part, visit=visit, time=time, key=key)
    viewer_of_visit = base.drop_duplicates("visit").set_index("visit")["viewer"]
    d = pd.Series(dwell["duration_s"].to_numpy(), index=viewer_of_visit.reindex(dwell["visit"].to_numpy()).to_numpy())
    out["dwell_sum"] = d.groupby(level=0).sum()
    out["dwell_n"] = d.groupby(level=0).count()
    out = out.fillna(0)
    out.index.name = "viewer"
    return out.reset_index()


def viewer_kpis(ddf, viewer="viewerToken", session="sessionId", visit="visit", key="key", time="timestamp",
                gap="30min", client=None) -> pd.DataFrame:
    """:func:`workbench.tracking.analysis.viewer_kpis`: distinct counts and dwell sums per partition, added up."""
    if visit not in ddf.columns:
        ddf = sessionize(ddf[_columns(ddf, viewer, session, key, time, *_field_columns(ddf, "loadTimeMs",
                                                                                       "durationMs"))],
                         gap=gap, by=session, time=time)
    A._check_columns(ddf, viewer, session, visit, key, time)
    wanted = _columns(ddf, viewer, session, visit, key, time, *_field_columns(ddf, "durationMs"))
    part = by_group(ddf[wanted], visit, session=session)
    meta = pd.DataFrame({"viewer": pd.Series([], dtype=object),
                         **{c: pd.Series([], dtype=np.float64) for c in ("sessions", "visits", "events", "ar_visits",
                                                                          "dwell_sum", "dwell_n")}})
    loads_wanted = _columns(ddf, viewer, key, *_field_columns(ddf, "loadTimeMs"))
    partial, loads = compute(part.map_partitions(_kpi_part, viewer, session, visit, key, time, meta=meta),
                             ddf[ddf[key] == "viewer_loaded"][loads_wanted], client=client)
    totals = partial.groupby("viewer", sort=True).sum()
    out = totals[["sessions", "visits", "events"]].astype(np.int64)
    loads = _as_dicts(loads.reset_index(drop=True))
    ms = pd.to_numeric(A._payload_field(loads, "loadTimeMs"), errors="coerce").astype(float)
    out["median_load_ms"] = pd.Series(ms.to_numpy(), index=loads[viewer].astype(object).to_numpy()).groupby(
        level=0).median()
    out["ar_rate"] = totals["ar_visits"] / out["visits"]
    out["mean_dwell_s"] = totals["dwell_sum"] / totals["dwell_n"].where(totals["dwell_n"] > 0)
    out.index.name = viewer
    return out.reset_index()
