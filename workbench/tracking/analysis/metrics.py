"""Headline figures: load time percentiles, rankings of payload values, events over time, KPIs per viewer.

As everywhere in the analysis, a repeated event ``id`` is one event.

>>> df = pd.DataFrame({"key": ["viewer_loaded"], "payload": [{"loadTimeMs": 100, "device": "mobile"}]})
>>> load_times(df, percentiles=(0.5,))["p50"].tolist()
[100.0]
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from ..catalog import CATALOG
from .common import as_text, check_columns, check_event_keys, first_events, payload_field, pct_name, warn_unseen
from .dispatch import as_dicts, by_group, columns_of, compute, field_columns, gathered, pandas_or_dask
from .sessions import dwell_times, sessionize

if TYPE_CHECKING:
    import dask.dataframe as dd

    from ..cluster import Scheduler

__all__ = ["load_times", "rank", "events_over_time", "viewer_kpis"]


def _check_rank(df: pd.DataFrame | dd.DataFrame, key: str, field: str, key_column: str) -> None:
    check_event_keys([key], "key", "rank", df, column=key_column)
    spec = CATALOG.get(key)
    if spec is not None and not spec.free_form and field not in spec.fields_by_name:
        # the service refuses payload fields a catalog key does not have, so no data can hold this one
        raise ValueError(f"rank: field: {key} has no payload field {field!r}; its fields are "
                         f"{', '.join(f.name for f in spec.fields) or 'none'}")


def _load_times_dask(ddf: dd.DataFrame, by: str = "device", percentiles: Iterable[float] = (0.5, 0.9, 0.99),
                     key: str = "key", client: Scheduler | None = None) -> pd.DataFrame:
    """:func:`load_times` on the ``viewer_loaded`` events, gathered."""
    check_columns(ddf, key)
    wanted = columns_of(ddf, key, *field_columns(ddf, "loadTimeMs", by))
    return load_times(gathered(ddf, key, ["viewer_loaded"], wanted, client), by=by, percentiles=percentiles, key=key)


def _rank_part(part: pd.DataFrame, key: str, field: str, session: str, key_column: str) -> pd.DataFrame:
    part = as_dicts(first_events(part))
    sub = part[part[key_column] == key]
    values = payload_field(sub, field)
    frame = pd.DataFrame({"value": values.astype(object).to_numpy(), "s": sub[session].to_numpy()})
    frame = frame[frame["value"].notna()]
    g = frame.groupby("value", sort=True)
    return pd.DataFrame({"count": g.size(), "sessions": g["s"].nunique()}).reset_index()


def _rank_dask(ddf: dd.DataFrame, key: str = "hotspot_opened", field: str = "hotspotId", session: str = "sessionId",
               key_column: str = "key",
         client: Scheduler | None = None) -> pd.DataFrame:
    """:func:`rank`: counts and distinct sessions per partition of whole sessions."""
    _check_rank(ddf, key, field, key_column)
    check_columns(ddf, key_column, session)
    part = by_group(ddf[columns_of(ddf, key_column, session, *field_columns(ddf, field))], session, session=session)
    meta = pd.DataFrame({"value": pd.Series([], dtype=object), "count": pd.Series([], dtype=np.int64),
                         "sessions": pd.Series([], dtype=np.int64)})
    (partial,) = compute(part.map_partitions(_rank_part, key, field, session, key_column, meta=meta), client=client)
    # sessions are whole in each partition, so distinct counts add up
    totals = partial.groupby("value", sort=True)[["count", "sessions"]].sum()
    return _rank_table(totals.rename_axis(field).reset_index(), field)


def _over_time_part(part: pd.DataFrame, freq: str, by: str | None, time: str) -> pd.DataFrame:
    part = first_events(part, time=time)
    bucket = pd.DatetimeIndex(part[time]).floor(freq)
    frame = pd.DataFrame({"time": bucket, "value": part[by].astype(object).to_numpy() if by else "events"})
    return frame.groupby(["time", "value"], sort=False).size().rename("n").reset_index()


def _events_over_time_dask(ddf: dd.DataFrame, freq: str = "1h", by: str | None = "key", time: str = "timestamp",
                           client: Scheduler | None = None) -> pd.DataFrame:
    """:func:`events_over_time`: bucket counts per partition, added up."""
    check_columns(ddf, time, *([by] if by is not None else []))
    cols = columns_of(ddf, time, *([by] if by is not None else []))
    meta = pd.DataFrame({"time": pd.Series([], dtype=ddf[time].dtype), "value": pd.Series([], dtype=object),
                         "n": pd.Series([], dtype=np.int64)})
    (partial,) = compute(ddf[cols].map_partitions(_over_time_part, freq, by, time, meta=meta), client=client)
    counts = partial.groupby(["time", "value"], sort=True)["n"].sum()
    return _over_time_table(counts, freq, by)


def _kpi_part(part: pd.DataFrame, viewer: str, session: str, visit: str, key: str, time: str) -> pd.DataFrame:
    part = as_dicts(first_events(part, time=time))
    base = pd.DataFrame({"viewer": part[viewer].astype(object).to_numpy(), "session": part[session].to_numpy(),
                         "visit": part[visit].astype(object).to_numpy(), "key": part[key].to_numpy()})
    g = base.groupby("viewer", sort=True)
    out = pd.DataFrame({"sessions": g["session"].nunique(), "visits": g["visit"].nunique(), "events": g.size()})
    out["ar_visits"] = base[base["key"] == "ar_session_started"].groupby("viewer")["visit"].nunique()
    dwell = dwell_times(part, visit=visit, time=time, key=key)
    viewer_of_visit = base.drop_duplicates("visit").set_index("visit")["viewer"]
    d = pd.Series(dwell["duration_s"].to_numpy(), index=viewer_of_visit.reindex(dwell["visit"].to_numpy()).to_numpy())
    out["dwell_sum"] = d.groupby(level=0).sum()
    out["dwell_n"] = d.groupby(level=0).count()
    out = out.fillna(0)
    out.index.name = "viewer"
    return out.reset_index()


def _viewer_kpis_dask(ddf: dd.DataFrame, viewer: str = "viewerToken", session: str = "sessionId", visit: str = "visit",
                      key: str = "key", time: str = "timestamp", gap: str = "30min", client: Scheduler | None = None) -> pd.DataFrame:
    """:func:`viewer_kpis`: distinct counts and dwell sums per partition, added up."""
    if visit not in ddf.columns:
        ddf = sessionize(ddf[columns_of(ddf, viewer, session, key, time, *field_columns(ddf, "loadTimeMs",
                                                                                       "durationMs"))],
                         gap=gap, by=session, time=time)
    check_columns(ddf, viewer, session, visit, key, time)
    wanted = columns_of(ddf, viewer, session, visit, key, time, *field_columns(ddf, "durationMs"))
    part = by_group(ddf[wanted], visit, session=session)
    meta = pd.DataFrame({"viewer": pd.Series([], dtype=object),
                         **{c: pd.Series([], dtype=np.float64) for c in ("sessions", "visits", "events", "ar_visits",
                                                                          "dwell_sum", "dwell_n")}})
    loads_wanted = columns_of(ddf, viewer, key, *field_columns(ddf, "loadTimeMs"))
    partial, loads = compute(part.map_partitions(_kpi_part, viewer, session, visit, key, time, meta=meta),
                             ddf[ddf[key] == "viewer_loaded"][loads_wanted], client=client)
    totals = partial.groupby("viewer", sort=True).sum()
    out = totals[["sessions", "visits", "events"]].astype(np.int64)
    loads = first_events(as_dicts(loads.reset_index(drop=True)))
    ms = pd.to_numeric(payload_field(loads, "loadTimeMs"), errors="coerce").astype(float)
    out["median_load_ms"] = pd.Series(ms.to_numpy(), index=loads[viewer].astype(object).to_numpy()).groupby(
        level=0).median()
    out["ar_rate"] = totals["ar_visits"] / out["visits"]
    out["mean_dwell_s"] = totals["dwell_sum"] / totals["dwell_n"].where(totals["dwell_n"] > 0)
    out.index.name = viewer
    return out.reset_index()


@pandas_or_dask(_load_times_dask)
def load_times(df: pd.DataFrame, by: str = "device", percentiles: Iterable[float] = (0.5, 0.9, 0.99),
               key: str = "key", client: Scheduler | None = None) -> pd.DataFrame:
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
    check_columns(df, key)
    df = first_events(df)
    sub = df[df[key] == "viewer_loaded"]
    ms = pd.to_numeric(payload_field(sub, "loadTimeMs"), errors="coerce").astype(float)
    group = payload_field(sub, by)
    if len(sub) and not group.notna().any():
        warn_unseen(by, "by", "load_times", df.columns, "every load counts under 'unknown'")
    group = pd.Series(as_text(group), index=group.index).fillna("unknown")
    frame = pd.DataFrame({by: group.to_numpy(), "ms": ms.to_numpy()})
    grouped = frame.groupby(by, sort=True)["ms"]
    out = pd.DataFrame({"count": grouped.count(), "mean_ms": grouped.mean()})
    for q in percentiles:
        out[pct_name(q)] = grouped.quantile(q)
    out = out.reset_index()
    out["count"] = out["count"].astype(np.int64)
    return out


@pandas_or_dask(_rank_dask)
def rank(df: pd.DataFrame, key: str = "hotspot_opened", field: str = "hotspotId", session: str = "sessionId",
         key_column: str = "key", client: Scheduler | None = None) -> pd.DataFrame:
    """Rank the values of one payload field (hotspots, variants, ...) by how often they occur.

    Input columns: ``key_column``, ``session``, payload. Output, most frequent first (ties
    by value): ``rank`` (1, 2, ...), ``field`` (the value), ``count`` (events), ``sessions``
    (distinct sessions), ``share`` = count / all counted events.

    >>> df = pd.DataFrame({"sessionId": ["a", "a", "b"], "key": "variant_selected",
    ...                    "payload": [{"variantId": "red"}, {"variantId": "red"}, {"variantId": "blue"}]})
    >>> rank(df, "variant_selected", "variantId").to_dict("list")
    {'rank': [1, 2], 'variantId': ['red', 'blue'], 'count': [2, 1], 'sessions': [1, 1], 'share': [0.6666666666666666, 0.3333333333333333]}
    """
    _check_rank(df, key, field, key_column)
    check_columns(df, key_column, session)
    df = first_events(df)
    sub = df[df[key_column] == key]
    values = payload_field(sub, field)
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


@pandas_or_dask(_events_over_time_dask)
def events_over_time(df: pd.DataFrame, freq: str = "1h", by: str | None = "key", time: str = "timestamp",
                     client: Scheduler | None = None) -> pd.DataFrame:
    """Event counts per time bucket (start of the bucket, floor of ``time`` to ``freq``).

    Input columns: ``time``, ``by``. Output: index ``time`` (every bucket from the first to
    the last, empty ones 0), one column per ``by`` value (or a single ``events`` column
    when ``by`` is None), int64 counts.

    >>> t = pd.to_datetime(["2026-11-01 10:10", "2026-11-01 10:50", "2026-11-01 12:00"], utc=True)
    >>> events_over_time(pd.DataFrame({"key": ["a", "b", "a"], "timestamp": t}))["a"].tolist()
    [1, 0, 1]
    """
    check_columns(df, time)
    df = first_events(df, time=time)
    bucket = pd.DatetimeIndex(df[time]).floor(freq)
    if by is None:
        values = np.full(len(df), "events", dtype=object)
    else:
        check_columns(df, by)
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


@pandas_or_dask(_viewer_kpis_dask)
def viewer_kpis(df: pd.DataFrame, viewer: str = "viewerToken", session: str = "sessionId", visit: str = "visit",
                key: str = "key", time: str = "timestamp", gap: str = "30min", client: Scheduler | None = None) -> pd.DataFrame:
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
    if visit not in df.columns:
        df = sessionize(df, gap=gap, by=session, time=time)
    check_columns(df, viewer, session, visit, key, time)
    df = first_events(df, time=time)
    base = pd.DataFrame({"viewer": df[viewer].to_numpy(), "session": df[session].to_numpy(),
                         "visit": df[visit].astype(object).to_numpy(), "key": df[key].to_numpy()})
    g = base.groupby("viewer", sort=True)
    out = pd.DataFrame({"sessions": g["session"].nunique(), "visits": g["visit"].nunique(), "events": g.size()})
    loaded = df[key] == "viewer_loaded"
    ms = pd.to_numeric(payload_field(df[loaded], "loadTimeMs"), errors="coerce").astype(float)
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
