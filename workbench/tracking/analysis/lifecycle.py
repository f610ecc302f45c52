"""Lifecycle: per period, how many units were new, returning, resurrecting, and how many went dormant (PostHog's).

A unit (a ``by`` value: a visitor, or a session) is *active* in a period when it has at
least one ``event`` event in it: name the event that means engagement (an engaged view,
``"interaction_start"``, not a page load), as PostHog itself advises. Periods are calendar
periods of ``period`` in ``tz`` (UTC when none): days from midnight, ``"7D"`` weeks from
Monday. Each period, every unit active in it is exactly one of:

- **new**: ``definition="posthog"`` (the default, PostHog's): the period is the unit's first
  period *with any event* (PostHog counts from the person's creation, which its first event
  of any kind makes; events carry no profile, so the first event stands for it: give the
  whole history, not a slice of it). A unit seen earlier with other events only is not new
  when it first does ``event``: it is *resurrecting*. ``definition="first_active"``: the
  unit's first period with ``event`` (whatever it did before);
- **returning**: active in the previous period too;
- **resurrecting**: not active in the previous period, and not new;

and **dormant** counts the units active in the previous period and not in this one, as a
negative number (PostHog plots it below the axis); a unit that never comes back is dormant
once, in the period after its last active one. The table runs from the first period any
unit was active to the period of the data's last event of any key (so the last period's
dormant count is there when the data reach it, and no period past the data is made up).
A repeated event ``id`` is one event; events without a unit or a time are not looked at.

>>> t = pd.to_datetime(["2026-11-01 10:00", "2026-11-02 10:00", "2026-11-04 10:00", "2026-11-02 11:00"], utc=True)
>>> df = pd.DataFrame({"visitorId": ["a", "a", "a", "b"], "key": "interaction_start", "timestamp": t})
>>> lifecycle(df, event="interaction_start", by="visitorId")[["new", "returning", "resurrecting", "dormant"]].values.tolist()
[[1, 0, 0, 0], [1, 1, 0, 0], [0, 0, 0, -2], [0, 0, 1, 0]]
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from .common import check_columns, check_event_keys, codes, first_events, unique_pairs
from .dispatch import columns_of, pandas_or_dask, partials
from .times import MAX_PERIODS, NAT, duration, floor_period, instant, ms_ticks, period_number, wall_clock

if TYPE_CHECKING:
    import dask.dataframe as dd

    from ..cluster import Scheduler

__all__ = ["lifecycle", "active_periods", "STATUSES", "DEFINITIONS"]

STATUSES = ("new", "returning", "resurrecting", "dormant")
#: What makes a unit new: its first period with any event (PostHog's), or its first with the event.
DEFINITIONS = ("posthog", "first_active")
_FIRST, _LAST = -1, -2  # status codes of the rows holding the first active period and the data's last period
_PARTIAL = {"period": np.int64, "status": np.int64, "n": np.int64}


def active_periods(frame: pd.DataFrame, event: str, by: str, key: str, time: str, period: int, tz: str | None,
                   function: str, seen: bool = False) -> tuple[Any, ...]:
    """Each unit's active periods: (unit codes, period starts in wall-clock ns of ``tz``), unique, sorted by unit
    then period; and the wall-clock ns of the frame's first and last event of any key (``NAT`` when none). With
    ``seen``, a fifth item: per unit code, the start of the period of its first event of any key."""
    frame = first_events(frame, time=time, scope=by)
    g, _ = codes(frame[by], wide=False)
    t = ms_ticks(frame[time], tz=tz, function=function)  # a lake's own milliseconds, uncopied
    ok = (g >= 0) & (t != NAT)
    ends = np.array([t.min(where=ok, initial=np.iinfo(np.int64).max), t.max(where=ok, initial=NAT)], dtype=np.int64)
    first, last = (int(x) for x in wall_clock(np.where(ends == NAT, NAT, ends * 10**6), tz)) if ok.any() else (NAT, NAT)
    k, names = codes(frame[key], wide=False)
    hit = ok & (k == {n: i for i, n in enumerate(names)}.get(event, -2))
    # periods numbered from the origin of their calendar (small integers pack into one sort key)
    origin = int(floor_period(np.array([0]), period)[0])
    units, numbers = _pairs(g, t, hit, period, tz, ends=ends)
    out = units, numbers * period + origin, first, last
    if not seen:
        return out
    earliest = np.full(int(g.max(initial=-1)) + 1, np.iinfo(np.int64).max, dtype=np.int64)
    everyone = ok.all()  # a lake's narrowed rows: no copies of the units and times
    np.minimum.at(earliest, g if everyone else g[ok], t if everyone else t[ok])
    met = earliest != np.iinfo(np.int64).max
    earliest[met] = floor_period(wall_clock(earliest[met] * 10**6, tz), period)
    return (*out, earliest)


_CHUNK = 1 << 16  # rows per slice of :func:`_pairs`: its scratch arrays are reused, never an event-sized one


def _pairs(g: np.ndarray, t: np.ndarray, hit: np.ndarray, period: int, tz: str | None,
           ends: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """The distinct (unit code, period number) pairs of the rows ``hit``, sorted by unit then period: what
    ``unique_pairs(g[hit], period_number(t[hit], period, tz), counts=False)`` gives, the same arrays.

    Where the possible pairs are few enough to mark each in a byte (units by days), each slice of rows marks its
    own and no event-sized array is made: the copies of the hits' units and times and their packed keys were
    three fresh arrays (at 10M events 64 MB, 15,000 pages faulted in: a tenth of stickiness's CPU time).
    ``ends``: the least and greatest time (ms) of rows that include every hit (the caller's, over the rows with
    a unit and a time): the table of possible pairs then spans units 0 to ``g``'s greatest code and those times,
    found without a reduction masked by ``hit``. numpy's reductions with ``where=`` go run by run of the mask:
    on lifecycle's rows (the event's, interleaved with each unit's first event of any key) four of them took
    4 ms of a 1M lake's 11 ms kernel. A wider table marks the same pairs.

    >>> g, t = np.array([1, 0, 1, 1]), np.array([0, 86_400_000, 10, 3 * 86_400_000])
    >>> [x.tolist() for x in _pairs(g, t, np.array([True, True, True, False]), 86_400 * 10**9, None)]
    [[0, 1], [1, 0]]
    >>> [x.tolist() for x in _pairs(g, t, np.array([True, True, True, False]), 86_400 * 10**9, None,
    ...                             ends=np.array([0, 3 * 86_400_000]))]
    [[0, 1], [1, 0]]
    """
    n = int(np.count_nonzero(hit))
    if not n or tz is not None or period % 1_000_000:
        return unique_pairs(g[hit], period_number(t[hit], period, tz, scratch=True), counts=False)[:2]
    big = np.iinfo(np.int64).max
    if ends is None:
        ends = np.array([t.min(where=hit, initial=big), t.max(where=hit, initial=NAT)])
        a0, a1 = int(g.min(where=hit, initial=np.iinfo(g.dtype).max)), int(g.max(where=hit, initial=-1))
    else:  # a hit's unit code is at least 0
        a0, a1 = 0, int(g.max())
    ends = period_number(np.array(ends, dtype=np.int64), period, None)
    b0, span = int(ends[0]), int(ends[1] - ends[0]) + 1
    cells = (a1 - a0 + 1) * span
    if cells > 8 * n + 4096:  # too many possible pairs to mark: unique_pairs sorts them
        return unique_pairs(g[hit], period_number(t[hit], period, tz, scratch=True), counts=False)[:2]
    seen = np.zeros(cells + 1, dtype=bool)  # the last cell: rows not hit
    key = np.empty(min(_CHUNK, len(g)), dtype=np.int64)
    unit = np.empty(len(key), dtype=np.int64)
    for lo in range(0, len(g), _CHUNK):
        m = min(_CHUNK, len(g) - lo)
        k, u = key[:m], unit[:m]
        np.copyto(k, t[lo:lo + m])
        k = period_number(k, period, None, scratch=True)
        k -= b0
        np.subtract(g[lo:lo + m], a0, out=u, casting="unsafe")
        u *= span
        k += u
        np.putmask(k, ~hit[lo:lo + m], cells)  # copyto's where= is masked run by run too: half again as long
        seen[k] = True
    at = np.flatnonzero(seen[:cells])
    return at // span + a0, at % span + b0


def _options(df: pd.DataFrame | dd.DataFrame, event: str, period: str | pd.Timedelta, key: str, function: str) -> int:
    check_event_keys([event], "event", function, df, column=key, strict=True)
    return duration(period, "period", function)


def _definition(definition: Any) -> str:
    if definition not in DEFINITIONS:
        raise ValueError(f"lifecycle: definition: {definition!r} is not one of {', '.join(map(repr, DEFINITIONS))} "
                         "('posthog': new is a unit's first period with any event; 'first_active': its first with "
                         "the event)")
    return definition


def _partial(frame: pd.DataFrame, event: str, by: str, key: str, time: str, p: int, tz: str | None,
             definition: str = "posthog") -> pd.DataFrame:
    """Per frame (or partition of whole units): counts per (period, status), the first active period and the
    data's last period (rows of status -1 and -2)."""
    found = active_periods(frame, event, by, key, time, p, tz, "lifecycle", seen=definition == "posthog")
    g, start, _, last = found[:4]
    same = np.r_[False, g[1:] == g[:-1]]
    prev = same & (np.r_[0, start[:-1]] == start - p)  # active in the period before
    after = np.r_[same[1:], False] & (np.r_[start[1:], 0] == start + p)  # active in the period after
    new = ~same  # a unit's first active period (pairs are sorted by unit, then period)
    if definition == "posthog" and len(g):  # and the first of any of its events: else seen before, coming back
        new &= start == found[4][g]
    status = np.where(new, 0, np.where(prev, 1, 2))
    # counts per (period, status) by one bincount over (period number - the first, status): no sort
    lo = int(start.min()) if len(start) else 0
    if len(start) and (int(start.max()) - lo) // p + 2 > MAX_PERIODS:
        raise ValueError(f"lifecycle: period: {pd.tseries.frequencies.to_offset(pd.Timedelta(p)).freqstr} makes {(int(start.max()) - lo) // p + 2:,} periods "
                         f"from the first active one to the last, more than the {MAX_PERIODS:,} a table may have; "
                         "give a longer period")
    cell = np.r_[(start - lo) // p * 4 + status, (start[~after] + p - lo) // p * 4 + 3]
    n = np.bincount(cell)
    at = np.flatnonzero(n)
    body = np.column_stack([at // 4 * p + lo, at % 4, n[at]])
    head = [[int(start.min()) if len(start) else NAT, _FIRST, 0],
            [int(floor_period(np.array([last]), p)[0]) if last != NAT else NAT, _LAST, 0]]
    out = np.concatenate([np.array(head, dtype=np.int64), body.astype(np.int64)])
    return pd.DataFrame({c: out[:, i] for i, c in enumerate(_PARTIAL)})


def _table(partial: pd.DataFrame, p: int, tz: str | None) -> pd.DataFrame:
    """The partial counts (of one frame, or of every partition) added up per period, from the first active period to
    the data's last (numpy on a few hundred rows: pandas' groupby and unstack took longer than a 1M lake's pass)."""
    columns = ["period", *STATUSES, "active"]
    period, status, n = (partial[c].to_numpy(dtype=np.int64) for c in _PARTIAL)
    firsts = period[(status == _FIRST) & (period != NAT)]
    lasts = period[(status == _LAST) & (period != NAT)]
    if not len(firsts):
        empty = pd.DataFrame({c: pd.Series([], dtype=np.int64) for c in columns[1:]})
        empty.insert(0, "period", pd.DatetimeIndex([], tz=tz or "UTC"))
        return empty
    starts = np.arange(int(firsts.min()), int(lasts.max()) + 1, p, dtype=np.int64)
    body = status >= 0
    row = np.searchsorted(starts, period[body])
    inside = starts[np.minimum(row, len(starts) - 1)] == period[body]  # a dormant count past the data's end is not
    counts = np.zeros((len(starts), len(STATUSES)), dtype=np.int64)
    np.add.at(counts, (row[inside], status[body][inside]), n[body][inside])
    out = pd.DataFrame({name: counts[:, i] for i, name in enumerate(STATUSES)})
    out["dormant"] = -out["dormant"]
    out["active"] = out["new"] + out["returning"] + out["resurrecting"]
    out.insert(0, "period", pd.DatetimeIndex(pd.to_datetime(instant(starts, tz), utc=True)).tz_convert(tz or "UTC"))
    return out


def _lifecycle_dask(ddf: dd.DataFrame, *, event: str, period: str | pd.Timedelta = "1D", by: str = "sessionId", tz: str | None = None, key: str = "key",
                    time: str = "timestamp", definition: str = "posthog", client: Scheduler | None = None) -> pd.DataFrame:
    """:func:`lifecycle`: counts per partition of whole units, added up."""
    p = _options(ddf, event, period, key, "lifecycle")
    definition = _definition(definition)
    check_columns(ddf, by, key, time)
    meta = pd.DataFrame({c: pd.Series([], dtype=d) for c, d in _PARTIAL.items()})
    # from a lake, only the event's rows, each file's ends and (PostHog's new) each unit's first event of each file
    partial = partials(ddf, _partial, event, by, key, time, p, tz, definition, by=by, meta=meta, client=client,
                       columns=columns_of(ddf, by, key, time, ties=False), time=time,
                       rows=(key, (event,), (time, by), by if definition == "posthog" else None), units_only=True)
    return _table(partial, p, tz)


@pandas_or_dask(_lifecycle_dask)
def lifecycle(df: pd.DataFrame, *, event: str, period: str | pd.Timedelta = "1D", by: str = "sessionId",
              tz: str | None = None, key: str = "key", time: str = "timestamp", definition: str = "posthog",
              client: Scheduler | None = None) -> pd.DataFrame:
    """New, returning, resurrecting and dormant units per period (definitions and edge rules in the module text).

    ``period`` is a duration (``"1D"``, ``"7D"``; a bare number is refused) that cuts the data into at most
    100,000 periods (``times.MAX_PERIODS``; more is a ValueError naming ``period``); ``tz`` is where the
    periods' midnights are (and what a time without a zone means): a name pandas knows, else a ValueError.
    ``definition`` says what makes a unit new: ``"posthog"`` (the default: its first period with any
    event) or ``"first_active"`` (its first period with ``event``).

    Input columns: ``by``, ``key``, ``time``. Output, one row per period in order:
    ``period`` (its start, in ``tz`` or UTC), ``new``, ``returning``, ``resurrecting``
    (units), ``dormant`` (minus the units that went dormant), ``active`` = new + returning +
    resurrecting. No unit ever active (an empty frame, an event the data lack) gives an
    empty table.

    >>> t = pd.to_datetime(["2026-11-01 10:00", "2026-11-03 10:00"], utc=True)
    >>> df = pd.DataFrame({"visitorId": "a", "key": "interaction_start", "timestamp": t})
    >>> lifecycle(df, event="interaction_start", by="visitorId")[["new", "resurrecting", "dormant"]].values.tolist()
    [[1, 0, 0], [0, 0, -1], [0, 1, 0]]
    """
    p = _options(df, event, period, key, "lifecycle")
    definition = _definition(definition)
    check_columns(df, by, key, time)
    return _table(_partial(df, event, by, key, time, p, tz, definition), p, tz)
