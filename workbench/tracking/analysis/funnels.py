"""Funnels: how many groups went through a sequence of steps, with the options analytics products offer.

:func:`funnel` counts, per step, the groups (sessions, visits, visitors) that reached it,
in one of three orders, with excluded events, drop-off, times to convert and a
breakdown; :func:`ar_conversion` is the AR funnel per platform. The search itself is
:mod:`.funnel_loops`.

>>> t = pd.to_datetime(["2026-11-01 10:00", "2026-11-01 10:02"], utc=True)
>>> df = pd.DataFrame({"sessionId": "s", "key": ["viewer_loaded", "cta_clicked"], "timestamp": t})
>>> funnel(df, ["viewer_loaded", "cta_clicked"])[["step", "count", "median_s"]].to_dict("list")
{'step': ['viewer_loaded', 'cta_clicked'], 'count': [1, 1], 'median_s': [nan, 120.0]}
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from .common import (
    as_text,
    check_columns,
    check_event_keys,
    codes,
    first_events,
    payload_field,
    quantiles_from_counts,
    step_list,
    tie_order,
    unique_pairs,
    warn_unseen,
)
from .dispatch import columns_of, field_columns, gathered, pandas_or_dask, partials
from .funnel_loops import ORDERS, TIMES, Chains, chains, step_times
from .times import NAT, duration, ms_ticks

if TYPE_CHECKING:
    import dask.dataframe as dd

    from ..cluster import Scheduler

__all__ = ["funnel", "ar_conversion", "AR_STEPS", "ATTRIBUTIONS"]

ATTRIBUTIONS = ("first_touch", "last_touch", "first_seen", "last_seen")
AR_STEPS = ("ar_requested", "ar_session_started", "ar_object_placed")
_PARTIAL = {"value": object, "step": np.int64, "delta": np.int64, "n": np.int64}
_UNKNOWN = "unknown"


def _options(df: pd.DataFrame | dd.DataFrame, steps: Sequence[str], key: str, order: str,
             exclude: Sequence[str] | None, attribution: str, definition: str = "posthog",
             function: str = "funnel") -> tuple[list[str], list[str]]:
    """The steps and excluded keys as lists, after checking every option (the same for pandas and Dask)."""
    if definition not in TIMES:
        raise ValueError(f"{function}: definition: {definition!r} is not one of {', '.join(map(repr, TIMES))} (how "
                         "order='any' times its steps: 'posthog', its events in time order; 'all_done', when steps "
                         "1..k were all done)")
    steps = check_event_keys(step_list(steps, "steps", "funnel"), "steps", "funnel", df, column=key)
    if not steps:
        raise ValueError("funnel: steps: give at least one step")
    if order not in ORDERS:
        raise ValueError(f"funnel: order: {order!r} is not one of {', '.join(ORDERS)}")
    if attribution not in ATTRIBUTIONS:
        renamed = {"first_step": "first_touch"}.get(attribution)
        hint = f" ({attribution!r} is now {renamed!r}: the event that filled step 1)" if renamed else ""
        raise ValueError(f"funnel: attribution: {attribution!r} is not one of {', '.join(ATTRIBUTIONS)}{hint}")
    exclude = check_event_keys(step_list(exclude or (), "exclude", "funnel"), "exclude", "funnel", df, column=key)
    both = sorted(set(exclude) & set(steps))
    if both:
        raise ValueError(f"funnel: exclude: {', '.join(both)} is also a step; a key cannot be both")
    return steps, exclude


def _touch(frame: pd.DataFrame, values: pd.Series, g: np.ndarray, k: np.ndarray, t: np.ndarray, found: Chains,
           steps: list[int], order: str, attribution: str) -> np.ndarray:
    """Each found group's breakdown value (None where it has none), in the order of ``found.groups``.

    ``first_touch``: on the event that filled the counted chain's first step; ``last_touch``: on the event that
    filled the last step it reached (for ``any``, the chain's latest event); ``first_seen`` / ``last_seen``: on the
    group's first or last event that has the field. Events of one millisecond are taken in (time, id) order.
    ``values``: the field per event; ``g``, ``k``, ``t``: group codes, key codes, times floored to the ms."""
    has = values.notna().to_numpy()
    if attribution in ("first_touch", "last_touch"):
        first = attribution == "first_touch"
        j = np.zeros(len(found.groups), dtype=np.int64) if first else found.depth - 1
        at = np.full(int(g.max(initial=-1)) + 2, NAT, dtype=np.int64)  # per group code (-1: the spare last)
        # ``any``'s last touch is the chain's latest event, whichever step it filled (NAT beyond depth is the least)
        at[found.groups] = (found.times.max(axis=1) if order == "any" and not first
                            else found.times[np.arange(len(found.groups)), j])
        want = np.full(len(at), -3, dtype=np.int64)
        want[found.groups] = np.asarray(steps, dtype=np.int64)[j]
        if order == "any" and not first:  # the chain's latest event, whichever step's key it has
            is_key = np.isin(k, [s for s in steps if s >= 0])
        else:
            is_key = k == want[g]
        has = is_key & (t == at[g]) & (at[g] != NAT)
    else:
        first = attribution == "first_seen"
    rows = tie_order(g, t, np.flatnonzero(has & (g >= 0)), frame)
    gs = g[rows]
    edge = np.r_[True, gs[1:] != gs[:-1]] if first else np.r_[gs[1:] != gs[:-1], True]
    pick = rows[edge] if len(rows) else rows
    out = pd.Series(values.to_numpy(dtype=object)[pick], index=g[pick])
    return np.array(out.reindex(found.groups).to_numpy(dtype=object), dtype=object)  # a copy: it is filled in


def _found(frame: pd.DataFrame, steps: list[str], exclude: list[str], within_ns: int, by: str, key: str, time: str, order: str
           ) -> tuple[pd.DataFrame, np.ndarray, Any, np.ndarray, np.ndarray, dict[str, int], Chains]:
    """(frame without repeated ids, group codes, group names, key codes, times floored to the ms, each key's code,
    the chains found): what a funnel, its times and its correlation read from one frame."""
    frame = first_events(frame, time=time, scope=by)
    k_all, k_names = codes(frame[key])
    code_of = {name: i for i, name in enumerate(k_names)}
    g_all, g_names = codes(frame[by])
    ticks = ms_ticks(frame[time], function="funnel")  # a lake's own milliseconds, uncopied
    t_all = np.where(ticks == NAT, NAT, ticks * 1_000_000)
    found = chains(g_all, k_all, t_all, [code_of.get(s, -1) for s in steps], within_ns, order,
                   [code_of[s] for s in exclude if s in code_of])
    return frame, g_all, g_names, k_all, t_all, code_of, found


def _partial(frame: pd.DataFrame, steps: list[str], exclude: list[str], within_ns: int, by: str, key: str, time: str, order: str,
             breakdown: str | None, attribution: str, total: bool = False, definition: str = "posthog") -> pd.DataFrame:
    """One frame's (or partition's) summary: groups reaching each step, and counts of each time to convert,
    per breakdown value (a row of step -1 counts the events that carry the breakdown field; with ``total``, rows
    of step ``len(steps)`` count the times from the first step to the last); summaries of frames with disjoint
    groups add up."""
    frame, g_all, _, k_all, t_all, code_of, found = _found(frame, steps, exclude, within_ns, by, key, time, order)
    times = step_times(found, order, definition)
    seen = None
    if breakdown is None:
        value, names = np.zeros(len(found.groups), dtype=np.int64), np.array([""], dtype=object)
    else:
        field = payload_field(frame, breakdown)
        touched = _touch(frame, field, g_all, k_all, t_all, found, [code_of.get(s, -1) for s in steps], order,
                         attribution)
        text = as_text(touched)  # values compared as text: 1, 1.0 and "1" are one group
        text[pd.isna(text)] = _UNKNOWN
        value, names = pd.factorize(pd.Series(text, dtype=object))
        names = np.asarray(names, dtype=object)
        seen = int(field.notna().sum())
    # counts in numpy on the groups' value codes (pandas' groupby on an object column took half a question's time)
    parts = [] if seen is None else [(np.array([-1]), np.array([-1]), np.array([-1]), np.array([seen]))]
    for j in range(len(steps)):
        at = found.depth > j
        n = np.bincount(value[at], minlength=len(names))
        has = np.flatnonzero(n)
        parts.append((has, np.full(len(has), j), np.full(len(has), -1), n[has]))
        if j:
            v, d, c = unique_pairs(value[at], times[at, j] - times[at, j - 1])
            parts.append((v, np.full(len(v), j), d, c))
    if total and len(steps) > 1:
        done = found.depth == len(steps)
        v, d, c = unique_pairs(value[done], times[done, -1] - times[done, 0])
        parts.append((v, np.full(len(v), len(steps)), d, c))
    if not parts:
        return pd.DataFrame({c: pd.Series([], dtype=t) for c, t in _PARTIAL.items()})
    code, step, delta, n = (np.concatenate([p[i] for p in parts]).astype(np.int64) for i in range(4))
    label = np.append(names, "").astype(object)[np.where(code >= 0, code, len(names))]  # -1: the seen row's ""
    return pd.DataFrame({"value": pd.Series(label, dtype=object), "step": step, "delta": delta, "n": n})


def _table(partial: pd.DataFrame, steps: list[str], breakdown: str | None, columns: Iterable[Any] = ()) -> pd.DataFrame:
    """The funnel table from summed partial summaries (``columns``: the frame's, to name a misspelt breakdown)."""
    seen = partial["step"] < 0
    if breakdown is not None and not partial.loc[seen, "n"].sum() and (~seen).any():
        warn_unseen(breakdown, "breakdown", "funnel", columns, "every group counts under 'unknown'")
    partial = partial[~seen]
    parts = []
    values = sorted(partial["value"].unique().tolist(), key=str) if breakdown is not None else [""]
    # the partial's columns as numpy once, each value's rows picked by its code (pandas masks per value and step
    # took longer than the funnel's search)
    code = pd.Categorical(partial["value"].to_numpy(dtype=object), categories=values).codes
    step, delta, n = (partial[c].to_numpy(np.int64) for c in ("step", "delta", "n"))
    reach = delta < 0
    for i, v in enumerate(values):
        mine = code == i
        counts = np.bincount(step[mine & reach], weights=n[mine & reach], minlength=len(steps))[:len(steps)]
        out = _counts_frame(steps, counts.astype(np.int64))
        timed = [quantiles_from_counts(delta[at], n[at], (0.5, 0.9))
                 for at in (mine & ~reach & (step == j) for j in range(1, len(steps)))]
        out["median_s"] = [np.nan] + [q[0] / 1e9 for q in timed]
        out["p90_s"] = [np.nan] + [q[1] / 1e9 for q in timed]
        if breakdown is not None:
            out.insert(0, breakdown, v)
        parts.append(out)
    return pd.concat(parts, ignore_index=True)


def _counts_frame(steps: list[str], counts: np.ndarray) -> pd.DataFrame:
    counts = np.asarray(counts, dtype=np.int64)
    with np.errstate(divide="ignore", invalid="ignore"):
        first = counts[0] if len(counts) else 0
        conversion = np.where(first > 0, counts / max(first, 1), np.nan)
        prev = np.r_[counts[:1], counts[:-1]]
        step_conversion = np.where(prev > 0, counts / np.maximum(prev, 1), np.nan)
    drop = prev - counts
    return pd.DataFrame({"step": steps, "count": counts, "conversion": conversion.astype(float),
                         "step_conversion": step_conversion.astype(float), "drop_off": drop.astype(np.int64),
                         "drop_off_rate": np.where(prev > 0, drop / np.maximum(prev, 1), np.nan).astype(float)})


def _funnel_dask(ddf: dd.DataFrame, steps: Sequence[str], within: str | pd.Timedelta = "1h", by: str = "sessionId",
                 key: str = "key", time: str = "timestamp", *, order: str = "ordered",
                 exclude: Sequence[str] | None = None, breakdown: str | None = None, attribution: str = "first_touch",
                 definition: str = "posthog", client: Scheduler | None = None) -> pd.DataFrame:
    """:func:`funnel`: per-partition summaries of whole groups, added up."""
    steps, exclude = _options(ddf, steps, key, order, exclude, attribution, definition)
    check_columns(ddf, by, key, time)
    extra = [] if breakdown is None else field_columns(ddf, breakdown)
    meta = pd.DataFrame({c: pd.Series([], dtype=t) for c, t in _PARTIAL.items()})
    # events of one millisecond are taken in any order: the id orders only a breakdown's touches
    partial = partials(ddf, _partial, steps, exclude, duration(within, "within", "funnel", zero=True), by, key, time,
                       order, breakdown, attribution, False, definition, by=by, meta=meta, client=client, time=time,
                       columns=columns_of(ddf, by, key, time, *extra, ties=breakdown is not None))
    return _table(partial, steps, breakdown, list(ddf.columns))


@pandas_or_dask(_funnel_dask)
def funnel(df: pd.DataFrame, steps: Sequence[str], within: str | pd.Timedelta = "1h", by: str = "sessionId",
           key: str = "key", time: str = "timestamp", *, order: str = "ordered", exclude: Sequence[str] | None = None,
           breakdown: str | None = None, attribution: str = "first_touch", definition: str = "posthog",
           client: Scheduler | None = None) -> pd.DataFrame:
    """How many groups went through ``steps``, step by step.

    A group is a ``by`` value: a session, a ``visit`` from :func:`sessionize`, or a visitor
    (``visitorId``). Every step's event lies at most ``within`` (a duration such as ``"1h"``;
    a bare number is refused) after the first step's (inclusive). Events in the same
    millisecond are taken in either order (Amplitude's rule), so equal timestamps always
    count as in order. One event fills one step at most, and a repeated event ``id`` is one
    event (the first kept). ``steps`` is a list of keys, never one string.

    ``order``:

    - ``"ordered"`` (the default): the steps' events come in the steps' order; other events
      may come between. Each first-step event is tried as a start and the group counts with
      its best start (only the earliest would miss a visitor who left the viewer idle past
      ``within`` and converted after opening it again).
    - ``"strict"``: as ordered, and no other event of the group comes between two steps
      (filter the frame first, e.g. without ``heartbeat``, to say which events count); events
      of one millisecond may be taken in any order, so a chain may use any of them.
    - ``"any"``: step k is reached when steps 1..k were all done, in any order, within one
      window of ``within``.

    ``exclude``: event keys; a chain never has such an event strictly between the times of
    two of its consecutive steps (``"any"``: between its first and its last event, whatever
    their steps), and a group counts to the furthest step of any chain
    (every start and every choice of events is tried). An excluded event in the same
    millisecond as a step's event is not between them. Amplitude instead drops the user
    from the whole funnel (every step) when the excluded event comes between the two steps
    it names, and PostHog drops the user's conversion when the excluded event falls between
    the steps it names anywhere in the window; ours keeps the steps reached before it.

    ``breakdown``: a column or payload field (``"device"``); one funnel per value, each group
    counted under the value (``attribution=``)

    - ``"first_touch"`` (the default; PostHog's and Amplitude's): on the event that filled
      the counted chain's first step;
    - ``"last_touch"`` (PostHog's): on the event that filled the last step the group reached
      (``"any"``: the chain's latest event);
    - ``"first_seen"`` / ``"last_seen"``: on the group's first or last event that has the
      field, whichever its key.

    A group whose chosen event lacks the field counts under ``"unknown"``. Events of one
    millisecond are taken in (time, id) order, so the answer does not depend on the order of
    the rows. Values are compared as text: ``1`` and ``"1"`` are one value. When no event at
    all has the field (a misspelt ``"device"`` for a ``Device`` column), a UserWarning says
    so and names the nearest column.

    Input columns: ``by``, ``key``, ``time`` [, ``breakdown``]. Output: one row per step
    (per breakdown value, sorted) with [``breakdown``], ``step``, ``count`` (groups reaching
    it), ``conversion`` = count / count of step 1, ``step_conversion`` = count / previous
    step's count (1.0 for the first step), ``drop_off`` = previous step's count - count,
    ``drop_off_rate`` = drop_off / previous count, ``median_s`` and ``p90_s`` (seconds from
    the previous step's event to this one's, over the groups reaching this step, linear
    interpolation; NaN for step 1; for ``"any"`` as ``definition`` says: ``"posthog"``, the
    default, PostHog's unordered funnel: a chain's events in time order, step k reached at its
    k-th earliest; ``"all_done"``: step k reached when steps 1..k were all done, see
    :func:`~.funnel_loops.step_times`). A ratio whose denominator is 0 is NaN.

    >>> t = pd.to_datetime(["2026-11-01 10:00", "2026-11-01 10:05", "2026-11-01 10:01"], utc=True)
    >>> df = pd.DataFrame({"sessionId": ["a", "a", "b"], "key": ["viewer_loaded", "ar_requested", "viewer_loaded"],
    ...                    "timestamp": t})
    >>> funnel(df, ["viewer_loaded", "ar_requested"]).iloc[:, :5]
                step  count  conversion  step_conversion  drop_off
    0  viewer_loaded      2         1.0              1.0         0
    1   ar_requested      1         0.5              0.5         1
    >>> funnel(df, ["ar_requested", "viewer_loaded"], order="any")["count"].tolist()
    [1, 1]
    """
    steps, exclude = _options(df, steps, key, order, exclude, attribution, definition)
    check_columns(df, by, key, time)
    partial = _partial(df, steps, exclude, duration(within, "within", "funnel", zero=True), by, key, time, order,
                       breakdown, attribution, False, definition)
    return _table(partial, steps, breakdown, list(df.columns))


def _ar_conversion_dask(ddf: dd.DataFrame, by: str = "platform", group: str = "sessionId", within: str = "1h",
                        key: str = "key", time: str = "timestamp", client: Scheduler | None = None) -> pd.DataFrame:
    """:func:`ar_conversion` on the AR events, gathered (1-2 % of all events)."""
    check_columns(ddf, group, key, time)
    wanted = columns_of(ddf, group, key, time, *field_columns(ddf, by))
    return ar_conversion(gathered(ddf, key, AR_STEPS, wanted, client), by=by, group=group, within=within,
                         key=key, time=time)


@pandas_or_dask(_ar_conversion_dask)
def ar_conversion(df: pd.DataFrame, by: str = "platform", group: str = "sessionId", within: str = "1h",
                  key: str = "key", time: str = "timestamp", client: Scheduler | None = None) -> pd.DataFrame:
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
    check_columns(df, group, key, time)
    req = df[df[key] == AR_STEPS[0]]
    plat = payload_field(req, by)
    first = (pd.DataFrame({"g": req[group].to_numpy(), "t": req[time].to_numpy(), "p": plat.astype(object).to_numpy()})
             .sort_values("t", kind="stable").drop_duplicates("g"))
    platform_of = dict(zip(first["g"], first["p"].where(first["p"].notna(), "unknown"), strict=True))
    sub = df[df[key].isin(AR_STEPS)]
    sub_platform = sub[group].map(platform_of)
    rows = []
    for name in sorted(set(platform_of.values()), key=str):
        part = sub[(sub_platform == name).to_numpy()]
        c = funnel(part, list(AR_STEPS), within=within, by=group, key=key, time=time)["count"].tolist()
        rows.append((name, *c))
    out = pd.DataFrame(rows, columns=["platform", "requested", "started", "placed"])
    for col in ("requested", "started", "placed"):
        out[col] = out[col].astype(np.int64)
    with np.errstate(divide="ignore", invalid="ignore"):
        out["start_rate"] = out["started"] / out["requested"].where(out["requested"] > 0)
        out["place_rate"] = out["placed"] / out["started"].where(out["started"] > 0)
        out["overall_rate"] = out["placed"] / out["requested"].where(out["requested"] > 0)
    return out
