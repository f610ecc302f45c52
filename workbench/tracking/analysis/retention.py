"""Retention: do visitors come back? Cohorts by the period of their first start event, returns per period.

Definitions follow Amplitude's. An *entity* is a ``by`` value (a session, or a visitor,
``visitorId``); its cohort is the period (the day in ``tz``, UTC by default, for ``period="1D"``) of its first
``start_key`` event at ``t0``. A return is an event with ``return_key`` (any event when
None) at or after ``t0``; its period number is

- rolling (the default): ``floor((t - t0) / period)``, so period 1 is 24 to 48 hours
  after the start, whatever the clock says;
- ``calendar=True``: the number of calendar periods between them (days in ``tz``, UTC by
  default, so a 21:30 visit in New York lands on its own day; periods of several days
  count from Monday 1970-01-05).

``kind``:

- ``"n_day"``: counted in period N when it returned in period N;
- ``"unbounded"``: counted in period N when it returned in period N or any later one;
- ``"bracket"``: counted in a bracket ``(first, last)`` of periods when it returned in
  any of them.

Period 0 is the cohort itself (rate 1). The data end at ``end`` (default: the end of
the calendar period of the last event): events at or after it are not looked at. A
cohort has *reached* period N when every member's period N has begun by then (rolling:
cohort start + (N + 1) periods <= end, calendar: cohort start + N periods < end), and a
bracket when its *last* period has begun (Amplitude counts only users who have reached
that point; a bracket seen in part would be biased low). Cells a cohort has not reached
have no rate, and :func:`retention_curve` divides by the cohorts that reached each
period only. ``end`` without a zone is in ``tz`` (UTC when none is given). A repeated
event ``id`` is one event. No entity with a start (an empty
frame, a start key the data lacks) gives an empty table; a ``by`` column with no value
at all is refused, naming it.

>>> t = pd.to_datetime(["2026-11-01 10:00", "2026-11-02 11:00", "2026-11-01 12:00"], utc=True)
>>> df = pd.DataFrame({"visitorId": ["a", "a", "b"], "key": "viewer_loaded", "timestamp": t})
>>> table = retention(df, start_key="viewer_loaded", by="visitorId", periods=2, end="2026-11-05")
>>> table["count"].to_dict("list")
{0: [2], 1: [1], 2: [0]}
>>> retention_curve(table)["rate"].tolist()
[1.0, 0.5, 0.0]
"""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from .common import check_columns, check_event_keys, codes, first_events
from .dispatch import columns_of, pandas_or_dask, partials
from .times import NAT, check_tz, duration, ns
from .times import floor_period as _floor
from .times import instant as _instant
from .times import wall_clock as _local

if TYPE_CHECKING:
    import dask.dataframe as dd

    from ..cluster import Scheduler

__all__ = ["retention", "retention_curve", "KINDS"]

KINDS = ("n_day", "unbounded", "bracket")
_PARTIAL = {"cohort": np.int64, "column": np.int64, "n": np.int64}
_SIZE = -1  # the column number of cohort sizes in partial summaries
_LAST = -2  # the column of the row whose "cohort" is the partial's last event time (ns)
_IDS = -3  # the column of the row whose "n" is the partial's rows with a ``by`` value, and "cohort" its rows
_NEVER = np.iinfo(np.int64).max  # an entity's first start when it has none
_ANY = -3  # the return key's code when any event is a return
_BLOCK = 1 << 16  # events per block of retention's pass (512 KB of int64)
_ABSENT = -2  # the code of a key the data lack (codes are -1 for a missing key, else >= 0): it matches nothing


# The most periods a table follows a cohort for (``periods``, a bracket's last): each entity holds a cell per period
# while the table is made, so periods=10**9 ended in MemoryError after seconds (issue 45, item 5).
MAX_COLUMNS = 1_000


def _options(df: pd.DataFrame | dd.DataFrame, start_key: str, return_key: str | None, key: str,
             period: str | pd.Timedelta, periods: int, kind: str, brackets: Sequence[tuple[int, int]] | None
             ) -> tuple[int, list[tuple[int, int]]]:
    """The period in ns and the table's columns as (first, last) period pairs, after checking every option."""
    keys = [start_key] + ([return_key] if return_key is not None else [])
    check_event_keys(keys, "start_key/return_key", "retention", df, column=key)
    if kind not in KINDS:
        raise ValueError(f"retention: kind: {kind!r} is not one of {', '.join(KINDS)}")
    p = duration(period, "period", "retention")
    if brackets is not None and kind != "bracket":
        raise ValueError(f"retention: brackets: only kind='bracket' uses brackets (kind is {kind!r}); "
                         "give kind='bracket' or drop brackets")
    if kind == "bracket":
        if not brackets:
            raise ValueError("retention: brackets: kind='bracket' needs brackets, e.g. [(1, 1), (2, 3), (4, 7)]")
        cols = [(int(a), int(b)) for a, b in brackets]
        if any(a < 1 or b < a or b > MAX_COLUMNS for a, b in cols):
            raise ValueError(f"retention: brackets: each bracket is (first, last) with 1 <= first <= last <= {MAX_COLUMNS:,}")
        ordered = sorted(cols)
        overlap = [(x, y) for x, y in zip(ordered, ordered[1:], strict=False) if y[0] <= x[1]]
        if overlap:
            x, y = overlap[0]
            raise ValueError(f"retention: brackets: {x} and {y} overlap; each period belongs to one bracket")
    else:
        if not isinstance(periods, (int, np.integer)) or not 1 <= periods <= MAX_COLUMNS:
            raise ValueError(f"retention: periods: {periods!r} must be a whole number from 1 to {MAX_COLUMNS:,}")
        cols = [(n, n) for n in range(1, periods + 1)]
    return p, [(0, 0)] + cols


def _ticks(series: pd.Series, tz: str | None) -> tuple[np.ndarray, int]:
    """A zoned time column's integers as stored (a lake's are milliseconds) and nanoseconds per tick: no copy
    to nanoseconds, which cost as much as the rest of the pass on 2 million events. Any other column is read
    by the one rule for times (zone-less times in ``tz``)."""
    if isinstance(series.dtype, pd.DatetimeTZDtype):
        return pd.DatetimeIndex(series).asi8, {"s": 10**9, "ms": 10**6, "us": 10**3, "ns": 1}[series.dt.unit]
    return ns(series, tz=tz, function="retention"), 1


def _returns(g: np.ndarray, k: np.ndarray, t: np.ndarray, n_groups: int, *, start: int, back: int, end: int | None,
             width: int, step: int, unit: int, period: int, calendar: bool) -> tuple[np.ndarray, np.ndarray, int, int]:
    """Each entity's first start and the periods it returned in, from events' entity codes ``g`` (-1: none), key
    codes ``k`` and times ``t`` in ticks of ``unit`` ns (``NAT``: none); events at or after tick ``end`` are
    not looked at.

    Returns ``(t0, seen, last, rows)``: per entity its first start (``_NEVER``: none) and, shape
    (entities, width), the periods it returned in, the last column standing for that period or any
    later one; the latest tick looked at (``NAT``: none); the rows with an entity. ``start`` and
    ``back`` are the start and return keys' codes (``_ANY``: any event is a return). Rolling
    periods are ``step`` ticks, calendar ones ``period`` ns.

    The events are taken in blocks of :data:`_BLOCK`, so every mask and period array is small
    and the allocator hands the same memory back block after block: in a fresh process every
    new megabyte costs about 1.3 ms of page faults on the benchmark's machine, and the
    whole-array version (a dozen event-sized temporaries) took three times as long on a first
    call as on a second one.

    >>> g, k, t = np.array([0, 0, 0, 1]), np.array([0, 1, 1, 1]), np.array([10, 15, 31, 12])
    >>> t0, seen, last, rows = _returns(g, k, t, 2, start=0, back=_ANY, end=None, width=4, step=10, unit=1,
    ...                                 period=10, calendar=False)
    >>> t0.tolist() == [10, _NEVER], seen.astype(int).tolist(), last, rows
    (True, [[1, 0, 1, 0], [0, 0, 0, 0]], 31, 4)
    """
    # one spare entity after the last for the events without one (code -1 picks it): it never starts
    t0 = np.full(n_groups + 1, _NEVER, dtype=np.int64)
    cells = width + 1  # per entity: its periods, and a spare cell for the events that count nowhere
    seen = np.zeros((n_groups + 1) * cells, dtype=bool)
    blocks = [slice(a, a + _BLOCK) for a in range(0, len(g), _BLOCK)]
    last, rows, looked = NAT, 0, []
    for b in blocks:  # first starts, the latest time looked at, rows with an entity
        has = g[b] >= 0
        rows += int(np.count_nonzero(has))
        ok = t[b] != NAT
        ok &= has
        if end is not None:
            ok &= t[b] < end
        looked.append(ok)
        last = max(last, int(np.max(t[b], where=ok, initial=NAT)))
        s = ok & (k[b] == start)
        np.minimum.at(t0, g[b][s], t[b][s])
    n_buffer, cell_buffer = (np.empty(min(len(g), _BLOCK), dtype=np.int64) for _ in range(2))
    for b, ok in zip(blocks, looked, strict=True):  # returns: at or after the entity's first start
        m = len(g[b])
        # each event's entity's first start ("wrap": the same values as the default, without its copy of the output)
        n = np.take(t0, g[b], out=n_buffer[:m], mode="wrap")
        ok &= t[b] >= n  # an entity without a start has t0 = never: nothing is after it
        if back != _ANY:
            ok &= k[b] == back
        if calendar:
            n[:] = (_floor(t[b] * unit, period) - _floor(n * unit, period)) // period
        else:  # in place; what it makes of the events not looked at is overwritten below
            np.subtract(t[b], n, out=n)
            np.floor_divide(n, step, out=n)
        np.minimum(n, width - 1, out=n)
        np.putmask(n, ~ok, width)
        cell = np.multiply(g[b], cells, out=cell_buffer[:m], dtype=np.int64, casting="unsafe")
        cell += n  # entity -1's spare cell is the array's last
        seen[cell] = True
    grid = seen.reshape(n_groups + 1, cells)
    return t0[:n_groups], grid[:n_groups, :width], last, rows


def _partial(frame: pd.DataFrame, start_key: str, return_key: str | None, by: str, key: str, time: str, p: int,
             cols: list[tuple[int, int]], kind: str, calendar: bool, end_ns: int | None = None,
             tz: str | None = None) -> pd.DataFrame:
    """Per frame (or partition of whole entities): cohort sizes and the entities counted in each column.

    One pass over the events (:func:`_returns`, no sort) gives each entity's first start
    (``t0``) and the periods it came back in, periods past the last column sharing the last
    cell (what "that period or later" needs); every column is then an ``any`` over an entity's
    periods. Times stay in the column's own unit; entities and keys are their integer codes
    (comparing strings per event cost most of the time).
    """
    frame = first_events(frame, time=time, scope=by)
    g, entities = codes(frame[by], wide=False)
    k, names = codes(frame[key], wide=False)
    code = {name: i for i, name in enumerate(names)}
    t, per = _ticks(frame[time], tz)
    if p % per or (calendar and tz is not None):  # a period finer than the column's unit, or local days: ns
        t, per = _local(ns(frame[time], tz=tz, function="retention"), tz if calendar else None), 1
    end = None if end_ns is None else int(_local(np.array([end_ns]), tz if calendar else None)[0] // per)
    width = max(b for _, b in cols) + 2  # periods 0..last, and one cell for everything later
    t0, seen, last_tick, rows = _returns(g, k, t, len(entities), start=code.get(start_key, _ABSENT),
                                         back=_ANY if return_key is None else code.get(return_key, _ABSENT),
                                         end=end, width=width, step=p // per, unit=per, period=p, calendar=calendar)
    # the data's end comes from the same read (a second pass over the files for it cost as much again)
    head = np.array([[last_tick * per if last_tick != NAT else NAT, _LAST, 0], [len(g), _IDS, rows]], dtype=np.int64)
    has = t0 != _NEVER
    if not has.any():
        return _partial_frame(head)
    # cohorts are periods of the wall clock in ``tz`` (calendar ones are there already), as Amplitude counts them
    first = t0[has] * per if calendar or tz is None else _local(t0[has] * per, tz)
    cohorts, cohort_of = np.unique(_floor(first, p), return_inverse=True)
    seen = seen[has]
    n = np.empty((len(cohorts), len(cols)), dtype=np.int64)  # per cohort: its size, then each column's count
    n[:, 0] = np.bincount(cohort_of, minlength=len(cohorts))
    for c, (a, b) in enumerate(cols[1:], start=1):
        hit = seen[:, a:].any(axis=1) if kind == "unbounded" else seen[:, a:b + 1].any(axis=1)
        n[:, c] = np.bincount(cohort_of[hit], minlength=len(cohorts))
    column = np.array([_SIZE] + list(range(1, len(cols))), dtype=np.int64)
    kept = (n > 0).ravel()
    body = np.column_stack([np.repeat(cohorts, len(cols))[kept], np.tile(column, len(cohorts))[kept], n.ravel()[kept]])
    return _partial_frame(np.concatenate([head, body]))


def _partial_frame(rows: np.ndarray) -> pd.DataFrame:
    """A partial summary from its (cohort, column, n) rows."""
    return pd.DataFrame({name: rows[:, i] for i, name in enumerate(_PARTIAL)})


def _end(end: str | datetime.datetime | None, tz: str | None) -> int | None:
    """``end`` as UTC ns, read like every timestamp; a day without a zone (``"2026-11-08"``) is the start of
    that day in ``tz`` (UTC when none is given), said in the docstring rather than warned each call."""
    if end is None:
        return None
    return int(ns(pd.Series([end]), tz=tz or "UTC", function="retention")[0])


def _table(partial: pd.DataFrame, p: int, cols: list[tuple[int, int]], calendar: bool, end_ns: int | None, by: str,
           tz: str | None = None) -> pd.DataFrame:
    """The cohort x column table from summed partial summaries (a few rows per cohort: added in numpy)."""
    cohort, column, n = (partial[c].to_numpy() for c in ("cohort", "column", "n"))
    ids = column == _IDS
    if cohort[ids].sum() > 0 and n[ids].sum() == 0:
        raise ValueError(f"retention: by: column {by!r} has no value in any row (the service's export carries "
                         "no visitor id); group by 'sessionId', or fill it with your own ids first")
    stamps = cohort[(column == _LAST) & (cohort != NAT)]
    last_event = int(stamps.max()) if len(stamps) else NAT
    labels = [a if a == b else f"{a}-{b}" for a, b in cols]
    cohorts = np.unique(cohort[column == _SIZE])  # none when no entity has a start: an empty table
    counted = (column >= _SIZE) & np.isin(cohort, cohorts)
    count = np.zeros((len(cohorts), len(cols)), dtype=np.int64)  # column 0: the cohort's size
    np.add.at(count, (np.searchsorted(cohorts, cohort[counted]), np.maximum(column[counted], 0)), n[counted])
    size = count[:, 0].copy()
    # cohorts are wall-clock periods of ``tz`` (UTC when none); the data's end in wall time and as an instant
    if end_ns is None:
        wall = last_event if calendar or last_event == NAT else int(_local(np.array([last_event]), tz)[0])
        end_wall = int(_floor(np.array([wall]), p)[0] + p) if last_event != NAT else 0
        end_ns = int(_instant(np.array([end_wall]), tz)[0]) if last_event != NAT else 0
    else:
        end_wall = int(_local(np.array([end_ns]), tz)[0])
    last = np.array([b for _, b in cols], dtype=np.int64)  # a bracket is reached when its last period has begun
    if calendar:
        reached = cohorts[:, None] + last[None, :] * p < end_wall
    else:  # every member's period N has begun when the cohort's period has ended N periods before the end
        reached = _instant(cohorts + p, tz)[:, None] + last[None, :] * p <= end_ns
    reached[:, 0] = True
    with np.errstate(divide="ignore", invalid="ignore"):
        rate = np.where(reached & (size[:, None] > 0), count / np.maximum(size[:, None], 1), np.nan)
    index = pd.DatetimeIndex(pd.to_datetime(cohorts, utc=True), name="cohort")
    if tz is not None:  # local midnights, labelled in their own zone
        index = pd.DatetimeIndex(pd.to_datetime(_instant(cohorts, tz), utc=True).tz_convert(tz), name="cohort")
    return pd.DataFrame({("size", ""): size, **{("count", label): count[:, c] for c, label in enumerate(labels)},
                         **{("rate", label): rate[:, c] for c, label in enumerate(labels)}}, index=index)


def _retention_dask(ddf: dd.DataFrame, *, start_key: str, return_key: str | None = None, by: str = "sessionId",
                    period: str | pd.Timedelta = "1D", periods: int = 7, kind: str = "n_day",
                    brackets: Sequence[tuple[int, int]] | None = None, calendar: bool = False, end: str | datetime.datetime | None = None,
                    tz: str | None = None, key: str = "key", time: str = "timestamp", client: Scheduler | None = None) -> pd.DataFrame:
    """:func:`retention`: per-partition summaries of whole entities, added up."""
    p, cols = _options(ddf, start_key, return_key, key, period, periods, kind, brackets)
    check_tz(tz, "retention")
    check_columns(ddf, by, key, time)
    end_ns = _end(end, tz)
    meta = pd.DataFrame({c: pd.Series([], dtype=d) for c, d in _PARTIAL.items()})
    partial = partials(ddf, _partial, start_key, return_key, by, key, time, p, cols, kind, calendar, end_ns, tz,
                       by=by, columns=columns_of(ddf, by, key, time, ties=False), meta=meta, client=client, time=time)
    return _table(partial, p, cols, calendar, end_ns, by, tz)


@pandas_or_dask(_retention_dask)
def retention(df: pd.DataFrame, *, start_key: str, return_key: str | None = None, by: str = "sessionId",
              period: str | pd.Timedelta = "1D", periods: int = 7, kind: str = "n_day",
              brackets: Sequence[tuple[int, int]] | None = None, calendar: bool = False, end: str | datetime.datetime | None = None,
              tz: str | None = None, key: str = "key", time: str = "timestamp", client: Scheduler | None = None) -> pd.DataFrame:
    """A cohort x period retention table (definitions in the module text above).

    ``period`` is a duration (``"1D"``, ``"7D"``; a bare number is refused); ``periods`` (and a bracket's last
    period) is 1 to 1,000 (:data:`MAX_COLUMNS`; more is a ValueError naming it); ``tz`` is where calendar days
    are counted and what a zone-less ``end`` or timestamp means: a name pandas knows, else a ValueError.

    Input columns: ``by``, ``key``, ``time``. Output: index ``cohort`` (start of the
    cohort's period: UTC, or the wall clock of ``tz`` when given, rolling periods too, as Amplitude counts
    cohorts in the project's zone; a local midnight that comes twice is its first instant, one the clock
    skips the first that exists), columns in three groups: ``size`` (entities in the cohort),
    ``count`` and ``rate`` with one column per period 0..``periods`` (``kind="bracket"``:
    0 and one per bracket, labelled ``"2-3"``; a one-period bracket keeps its number);
    ``rate`` = count / size, NaN where the cohort has not reached the period.

    >>> t = pd.to_datetime(["2026-11-01 10:00", "2026-11-04 09:00", "2026-11-01 12:00"], utc=True)
    >>> df = pd.DataFrame({"visitorId": ["a", "a", "b"], "key": "viewer_loaded", "timestamp": t})
    >>> retention(df, start_key="viewer_loaded", by="visitorId", periods=3, end="2026-11-08")["count"].iloc[0].tolist()
    [2, 0, 1, 0]
    >>> retention(df, start_key="viewer_loaded", by="visitorId", periods=3, kind="unbounded",
    ...           end="2026-11-08")["count"].iloc[0].tolist()
    [2, 1, 1, 0]
    >>> retention(df, start_key="viewer_loaded", by="visitorId", calendar=True, kind="bracket",
    ...           brackets=[(1, 2), (3, 5)], end="2026-11-08")["count"].iloc[0].tolist()
    [2, 0, 1]
    """
    p, cols = _options(df, start_key, return_key, key, period, periods, kind, brackets)
    check_tz(tz, "retention")
    check_columns(df, by, key, time)
    end_ns = _end(end, tz)
    return _table(_partial(df, start_key, return_key, by, key, time, p, cols, kind, calendar, end_ns, tz), p, cols,
                  calendar, end_ns, by, tz)


def retention_curve(table: pd.DataFrame) -> pd.DataFrame:
    """All cohorts together, per period: only cohorts that reached a period count in its denominator.

    Input: a :func:`retention` table. Output columns: ``period`` (its labels), ``cohorts``
    (cohorts that reached it), ``size`` (their entities), ``count`` (their entities counted
    in it), ``rate`` = count / size (NaN when no cohort reached it).

    >>> t = pd.to_datetime(["2026-11-01 10:00", "2026-11-02 11:00", "2026-11-02 12:00"], utc=True)
    >>> df = pd.DataFrame({"visitorId": ["a", "a", "b"], "key": "viewer_loaded", "timestamp": t})
    >>> retention_curve(retention(df, start_key="viewer_loaded", by="visitorId", periods=1))[["period", "size", "rate"]].to_dict("list")
    {'period': [0, 1], 'size': [2, 1], 'rate': [1.0, 1.0]}
    """
    size = table[("size", "")].to_numpy()
    rows = []
    for label in table["count"].columns:
        reached = table[("rate", label)].notna().to_numpy()
        s, c = int(size[reached].sum()), int(table[("count", label)].to_numpy()[reached].sum())
        rows.append((label, int(reached.sum()), s, c, c / s if s else np.nan))
    out = pd.DataFrame(rows, columns=["period", "cohorts", "size", "count", "rate"])
    return out.astype({"cohorts": np.int64, "size": np.int64, "count": np.int64, "rate": float})
