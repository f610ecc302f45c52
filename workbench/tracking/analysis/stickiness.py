"""Stickiness: on how many days of a week (periods of a window) were units active? PostHog's stickiness, per window.

A unit (a ``by`` value: a visitor, or a session) is *active* in a period when it has at
least one ``event`` event in it (name the event that means engagement, not a page load).
Windows are calendar windows of ``within`` (``"7D"``: weeks from Monday; periods and
windows of more than a day count from Monday 1970-01-05, ``"28D"`` is four weeks), each
cut into ``within / period`` periods (``period`` must divide it), in ``tz`` (UTC when
none). For each window, every unit active in it at least once is counted once, under the
number of its periods it was active in (1 to ``within / period``); units never active in a
window are not in it (PostHog's rule: stickiness is among the active). A window the data
do not cover end to end (its first or last period holds no event of any key: the data
start or stop inside it) is marked ``complete=False``: its counts are low on many days
through no fault of the units. A repeated event ``id`` is one event.

>>> t = pd.to_datetime(["2026-11-02 10:00", "2026-11-03 10:00", "2026-11-03 11:00", "2026-11-08 09:00"], utc=True)
>>> df = pd.DataFrame({"visitorId": ["a", "a", "b", "c"], "key": "interaction_start", "timestamp": t})
>>> out = stickiness(df, event="interaction_start", by="visitorId")
>>> out.loc[out["count"] > 0, ["periods_active", "count", "at_least"]].values.tolist()
[[1, 2, 3], [2, 1, 1]]
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from .common import check_columns
from .dispatch import columns_of, pandas_or_dask, partials
from .lifecycle import _options as _event_and_period
from .lifecycle import active_periods
from .times import NAT, duration, floor_period, instant

if TYPE_CHECKING:
    import dask.dataframe as dd

    from ..cluster import Scheduler

__all__ = ["stickiness"]

_PARTIAL = {"window": np.int64, "active": np.int64, "n": np.int64}
_FIRST, _LAST = -1, -2  # "active" of the rows holding the data's first and last event (wall-clock ns)


def _options(df: pd.DataFrame | dd.DataFrame, event: str, period: str | pd.Timedelta, within: str | pd.Timedelta,
             key: str) -> tuple[int, int]:
    p = _event_and_period(df, event, period, key, "stickiness")
    w = duration(within, "within", "stickiness")
    if w % p or w < p:
        raise ValueError(f"stickiness: within: {within!r} is not a whole number of periods of {period!r}")
    return p, w


def _partial(frame: pd.DataFrame, event: str, by: str, key: str, time: str, p: int, w: int, tz: str | None
             ) -> pd.DataFrame:
    """Per frame (or partition of whole units): units per (window, periods active), and the data's first and last
    event (rows of ``active`` -1 and -2)."""
    g, start, first, last = active_periods(frame, event, by, key, time, p, tz, "stickiness")
    origin = int(floor_period(np.array([0]), w)[0])
    window = (floor_period(start, w) - origin) // w  # windows numbered from their calendar's origin
    # the pairs are sorted by unit, then period: a unit's periods of one window are a run; its length is the
    # unit's days active in it, counted per (window, days) by one bincount
    edge = np.flatnonzero(np.r_[True, (g[1:] != g[:-1]) | (window[1:] != window[:-1])]) if len(g) else np.empty(0, int)
    days = np.diff(np.r_[edge, len(g)])
    per = w // p
    lo = int(window.min()) if len(g) else 0
    n = np.bincount((window[edge] - lo) * (per + 1) + days)
    at = np.flatnonzero(n)
    body = np.column_stack([(at // (per + 1) + lo) * w + origin, at % (per + 1), n[at]])
    head = np.array([[first, _FIRST, 0], [last, _LAST, 0]], dtype=np.int64)
    out = np.concatenate([head, body.astype(np.int64)])
    return pd.DataFrame({c: out[:, i] for i, c in enumerate(_PARTIAL)})


def _table(partial: pd.DataFrame, p: int, w: int, tz: str | None) -> pd.DataFrame:
    columns = {"window": None, "periods_active": np.int64, "count": np.int64, "share": float, "at_least": np.int64,
               "complete": bool}
    window, active, units = (partial[c].to_numpy(dtype=np.int64) for c in _PARTIAL)
    body = (active > 0) & (active <= w // p)
    if not body.any():
        out = pd.DataFrame({c: pd.Series([], dtype=d) for c, d in columns.items() if d is not None})
        out.insert(0, "window", pd.DatetimeIndex([], tz=tz or "UTC"))
        return out
    first = int(window[(active == _FIRST) & (window != NAT)].min())
    last = int(window[(active == _LAST) & (window != NAT)].max())
    n = w // p
    # numpy on a few hundred rows: pandas' groupby and unstack took longer than a 1M lake's pass
    windows = np.unique(window[body])
    counts = np.zeros((len(windows), n), dtype=np.int64)
    np.add.at(counts, (np.searchsorted(windows, window[body]), active[body] - 1), units[body])
    at_least = np.cumsum(counts[:, ::-1], axis=1)[:, ::-1]
    active = at_least[:, :1]
    complete = (first < windows + p) & (last >= windows + w - p)
    out = pd.DataFrame({
        "window": np.repeat(pd.DatetimeIndex(pd.to_datetime(instant(windows, tz), utc=True)).tz_convert(tz or "UTC"), n),
        "periods_active": np.tile(np.arange(1, n + 1, dtype=np.int64), len(windows)),
        "count": counts.ravel(), "share": (counts / np.maximum(active, 1)).ravel(), "at_least": at_least.ravel(),
        "complete": np.repeat(complete, n)})
    return out.reset_index(drop=True)


def _stickiness_dask(ddf: dd.DataFrame, *, event: str, period: str | pd.Timedelta = "1D",
                     within: str | pd.Timedelta = "7D", by: str = "sessionId", tz: str | None = None,
                     key: str = "key", time: str = "timestamp", client: Scheduler | None = None) -> pd.DataFrame:
    """:func:`stickiness`: counts per partition of whole units, added up."""
    p, w = _options(ddf, event, period, within, key)
    check_columns(ddf, by, key, time)
    meta = pd.DataFrame({c: pd.Series([], dtype=d) for c, d in _PARTIAL.items()})
    # from a lake, only the event's rows and each file's ends
    partial = partials(ddf, _partial, event, by, key, time, p, w, tz, by=by, meta=meta, client=client,
                       columns=columns_of(ddf, by, key, time, ties=False), time=time, rows=(key, (event,), (time, by), None), units_only=True)
    return _table(partial, p, w, tz)


@pandas_or_dask(_stickiness_dask)
def stickiness(df: pd.DataFrame, *, event: str, period: str | pd.Timedelta = "1D",
               within: str | pd.Timedelta = "7D", by: str = "sessionId", tz: str | None = None, key: str = "key",
               time: str = "timestamp", client: Scheduler | None = None) -> pd.DataFrame:
    """How many units were active on exactly 1, 2, ... of a window's periods (definitions and edge rules in the
    module text).

    Input columns: ``by``, ``key``, ``time``. Output, per window (in order) one row per number
    of periods 1..``within / period``: ``window`` (its start, in ``tz`` or UTC),
    ``periods_active``, ``count`` (units active on exactly that many), ``share`` = count /
    units active in the window, ``at_least`` (units active on that many or more: PostHog's
    cumulative view), ``complete`` (the data cover the window). No unit active (an empty
    frame, an event the data lack) gives an empty table.

    >>> t = pd.to_datetime(["2026-11-02 10:00", "2026-11-02 11:00", "2026-11-04 10:00"], utc=True)
    >>> df = pd.DataFrame({"visitorId": "a", "key": "interaction_start", "timestamp": t})
    >>> stickiness(df, event="interaction_start", by="visitorId")["count"].tolist()  # 2 days of the week of 11-02
    [0, 1, 0, 0, 0, 0, 0]
    """
    p, w = _options(df, event, period, within, key)
    check_columns(df, by, key, time)
    return _table(_partial(df, event, by, key, time, p, w, tz), p, w, tz)
