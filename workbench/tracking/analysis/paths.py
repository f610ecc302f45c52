"""Paths: the sequences of event keys visitors follow within a visit, and the key -> next key transitions.

A group's events are taken in time order (events of one millisecond by their ``id``, so
the answer does not depend on the order of the rows; a repeated ``id`` is one event), after
dropping the ``exclude`` keys (``heartbeat`` is a good one to drop) and, with
``collapse=True``, every event whose key repeats the one before it (Amplitude's
"collapse repeated events"). Groups are visits by default (``by="visit"``; a frame
without a ``visit`` column is :func:`~.sessions.sessionize` d first with ``gap``).

>>> t = pd.to_datetime(["2026-11-01 10:00", "2026-11-01 10:01", "2026-11-01 10:02"], utc=True)
>>> df = pd.DataFrame({"sessionId": "s", "key": ["viewer_loaded", "model_loaded", "cta_clicked"], "timestamp": t})
>>> paths(df, start="viewer_loaded", steps=2)[["path", "count"]].to_dict("records")
[{'path': 'viewer_loaded → model_loaded', 'count': 1}]
>>> transitions(df)[["from", "to", "probability"]].to_dict("records")[0]
{'from': 'model_loaded', 'to': 'cta_clicked', 'probability': 1.0}
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from .common import check_columns, check_event_keys, codes, first_events, step_list, tie_order
from .dispatch import columns_of, pandas_or_dask, partials
from .sessions import sessionize
from .times import NAT, ms_ticks

if TYPE_CHECKING:
    import dask.dataframe as dd

    from ..cluster import Scheduler

__all__ = ["paths", "transitions", "ARROW", "MAX_STEPS"]

ARROW = " → "
MAX_STEPS = 10


def _sequence(frame: pd.DataFrame, by: str, key: str, time: str, exclude: Sequence[str] | None, collapse: bool
              ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(group codes, key codes, key names) of the kept events, sorted by (group, time to the ms, id)."""
    frame = first_events(frame, time=time, scope=by)
    g, _ = codes(frame[by])
    k, names = codes(frame[key])
    t = ms_ticks(frame[time], function="paths")
    keep = (g >= 0) & (t != NAT)
    excluded = set(exclude or ())
    dropped = np.array([n in excluded for n in names] + [True])  # by key code; the last: no key (-1)
    keep &= ~dropped[k]
    rows = np.flatnonzero(keep)
    order = tie_order(g, t, rows, frame)
    g, k = g[order], k[order]
    if collapse and len(g):
        repeat = np.r_[False, (g[1:] == g[:-1]) & (k[1:] == k[:-1])]
        g, k = g[~repeat], k[~repeat]
    return g, k, np.asarray(names, dtype=object)


def _check(df: pd.DataFrame | dd.DataFrame, start: str | None, end: str | None, steps: int, exclude: Sequence[str] | None, key: str,
           by: str, gap: str, time: str) -> pd.DataFrame | dd.DataFrame:
    named = [x for x in (start, end) if x is not None]
    check_event_keys(named + step_list(exclude or (), "exclude", "paths"), "start/end/exclude", "paths", df,
                     column=key)
    if not isinstance(steps, (int, np.integer)) or not 1 <= steps <= MAX_STEPS:
        raise ValueError(f"paths: steps: {steps!r} must be a whole number from 1 to {MAX_STEPS}")
    if by == "visit" and "visit" not in df.columns:
        df = sessionize(df, gap=gap, time=time)
    check_columns(df, by, key, time)
    return df


def _path_partial(frame: pd.DataFrame, start: str | None, end: str | None, steps: int, by: str, key: str, time: str,
                  exclude: Sequence[str] | None, collapse: bool) -> pd.DataFrame:
    """Per frame (or partition of whole groups): each path's count, and how many groups had the anchor."""
    g, k, names = _sequence(frame, by, key, time, exclude, collapse)
    n = len(g)
    first_of_group = np.r_[True, g[1:] != g[:-1]] if n else np.zeros(0, bool)
    group_start = np.maximum.accumulate(np.where(first_of_group, np.arange(n), 0)) if n else np.zeros(0, np.int64)
    group_end = np.r_[np.flatnonzero(first_of_group)[1:], n] if n else np.zeros(0, np.int64)
    group_end = group_end[np.cumsum(first_of_group) - 1] if n else group_end  # one past each event's group

    code = {name: i for i, name in enumerate(names)}

    def first_of(name: str) -> np.ndarray:
        hits = np.flatnonzero(k == code.get(name, -2))
        return hits[np.r_[True, g[hits][1:] != g[hits][:-1]]] if len(hits) else hits

    if start is not None:
        lo = first_of(start)
        hi = np.minimum(lo + steps, group_end[lo])
        if end is not None:  # up to the first end after the start, when it comes within the steps
            ends = np.flatnonzero(k == code.get(end, -2))
            idx = np.searchsorted(ends, lo + 1)
            e = ends[np.minimum(idx, max(len(ends) - 1, 0))] if len(ends) else np.zeros(len(lo), np.int64)
            ok = (idx < len(ends)) & (e < hi) if len(ends) else np.zeros(len(lo), bool)
            anchors = len(lo)
            lo, hi = lo[ok], e[ok] + 1
        else:
            anchors = len(lo)
    elif end is not None:
        hi = first_of(end) + 1
        lo = np.maximum(hi - steps, group_start[hi - 1]) if len(hi) else hi
        anchors = len(hi)
    else:
        lo = np.flatnonzero(first_of_group)
        hi = np.minimum(lo + steps, group_end[lo]) if len(lo) else lo
        anchors = len(lo)
    width = hi - lo
    grid = np.full((len(lo), steps), -1, dtype=np.int64)
    for i in range(steps):
        has = width > i
        grid[has, i] = k[lo[has] + i]
    counts = pd.DataFrame(grid).value_counts(sort=False)
    table = np.r_[names, None].astype(object)
    labels = [ARROW.join(table[c] for c in combo if c >= 0) for combo in counts.index]
    out = pd.DataFrame({"path": labels, "n": counts.to_numpy(dtype=np.int64)})
    return pd.concat([out, pd.DataFrame({"path": [""], "n": [anchors]})], ignore_index=True)


def _path_table(partial: pd.DataFrame, top: int) -> pd.DataFrame:
    anchors = int(partial.loc[partial["path"] == "", "n"].sum())
    counts = partial[partial["path"] != ""].groupby("path", sort=False)["n"].sum()
    out = pd.DataFrame({"path": counts.index.to_numpy(dtype=object), "count": counts.to_numpy(dtype=np.int64)})
    out = out.sort_values(["count", "path"], ascending=[False, True], kind="stable").head(top).reset_index(drop=True)
    out.insert(0, "rank", np.arange(1, len(out) + 1, dtype=np.int64))
    out["steps"] = out["path"].str.count(ARROW).astype(np.int64) + 1
    out["share"] = out["count"] / anchors if anchors else np.nan
    return out[["rank", "path", "steps", "count", "share"]]


def _paths_dask(ddf: dd.DataFrame, *, start: str | None = None, end: str | None = None, steps: int = 5, top: int = 20,
                by: str = "visit", exclude: Sequence[str] | None = None, collapse: bool = False, gap: str = "30min",
                key: str = "key", time: str = "timestamp", client: Scheduler | None = None) -> pd.DataFrame:
    """:func:`paths`: path counts per partition of whole groups, added up."""
    ddf = _check(ddf, start, end, steps, exclude, key, by, gap, time)
    meta = pd.DataFrame({"path": pd.Series([], dtype=object), "n": pd.Series([], dtype=np.int64)})
    partial = partials(ddf, _path_partial, start, end, steps, by, key, time, exclude, collapse, by=by,
                       columns=columns_of(ddf, by, key, time), meta=meta, client=client, time=time)
    return _path_table(partial, top)


@pandas_or_dask(_paths_dask)
def paths(df: pd.DataFrame, *, start: str | None = None, end: str | None = None, steps: int = 5, top: int = 20,
          by: str = "visit", exclude: Sequence[str] | None = None, collapse: bool = False, gap: str = "30min",
          key: str = "key", time: str = "timestamp", client: Scheduler | None = None) -> pd.DataFrame:
    """The most frequent sequences of at most ``steps`` event keys within a group.

    - ``start``: from each group's first ``start`` event, it and the next ``steps - 1`` events;
    - ``end``: the ``steps - 1`` events before each group's first ``end`` event, and it;
    - both: from the first ``start`` to the first ``end`` after it, counted only when that
      end comes within ``steps`` events;
    - neither: each group's first ``steps`` events.

    A group whose visit ends sooner has a shorter path. Input columns: ``by`` (or
    ``sessionId``), ``key``, ``time``. Output, the ``top`` paths, most frequent first (ties
    by path): ``rank``, ``path`` (keys joined by " → "), ``steps`` (keys in it), ``count``
    (groups), ``share`` = count / groups that had the ``start`` (else ``end``; else all).

    >>> t = pd.to_datetime(["2026-11-01 10:00", "2026-11-01 10:01", "2026-11-01 10:02"], utc=True)
    >>> df = pd.DataFrame({"sessionId": ["a", "a", "b"], "key": ["viewer_loaded", "cta_clicked", "viewer_loaded"],
    ...                    "timestamp": t})
    >>> paths(df, start="viewer_loaded")[["path", "count", "share"]].to_dict("list")
    {'path': ['viewer_loaded', 'viewer_loaded → cta_clicked'], 'count': [1, 1], 'share': [0.5, 0.5]}
    """
    df = _check(df, start, end, steps, exclude, key, by, gap, time)
    return _path_table(_path_partial(df, start, end, steps, by, key, time, exclude, collapse), top)


def _transition_partial(frame: pd.DataFrame, by: str, key: str, time: str, exclude: Sequence[str] | None,
                        collapse: bool) -> pd.DataFrame:
    g, k, names = _sequence(frame, by, key, time, exclude, collapse)
    same = g[1:] == g[:-1]
    pairs = pd.DataFrame({"from": k[:-1][same], "to": k[1:][same]}).value_counts(sort=False)
    return pd.DataFrame({"from": names[pairs.index.get_level_values(0).to_numpy()] if len(pairs) else [],
                         "to": names[pairs.index.get_level_values(1).to_numpy()] if len(pairs) else [],
                         "n": pairs.to_numpy(dtype=np.int64)}).astype({"from": object, "to": object})


def _transition_table(partial: pd.DataFrame) -> pd.DataFrame:
    counts = partial.groupby(["from", "to"], sort=False)["n"].sum().rename("count").reset_index()
    counts["count"] = counts["count"].astype(np.int64)
    counts["probability"] = counts["count"] / counts.groupby("from")["count"].transform("sum")
    return counts.sort_values(["from", "count", "to"], ascending=[True, False, True], kind="stable").reset_index(
        drop=True)


def _transitions_dask(ddf: dd.DataFrame, *, by: str = "visit", exclude: Sequence[str] | None = None,
                      collapse: bool = False, gap: str = "30min", key: str = "key", time: str = "timestamp",
                      client: Scheduler | None = None) -> pd.DataFrame:
    """:func:`transitions`: pair counts per partition of whole groups, added up."""
    ddf = _check(ddf, None, None, 1, exclude, key, by, gap, time)
    meta = pd.DataFrame({"from": pd.Series([], dtype=object), "to": pd.Series([], dtype=object),
                         "n": pd.Series([], dtype=np.int64)})
    partial = partials(ddf, _transition_partial, by, key, time, exclude, collapse, by=by,
                       columns=columns_of(ddf, by, key, time), meta=meta, client=client, time=time)
    return _transition_table(partial)


@pandas_or_dask(_transitions_dask)
def transitions(df: pd.DataFrame, *, by: str = "visit", exclude: Sequence[str] | None = None, collapse: bool = False,
                gap: str = "30min", key: str = "key", time: str = "timestamp", client: Scheduler | None = None) -> pd.DataFrame:
    """How often each key is followed by each other key within a group: the transition matrix, as a long table.

    Input columns: ``by`` (or ``sessionId``), ``key``, ``time``. Output: ``from``, ``to``,
    ``count`` (pairs of consecutive events), ``probability`` = count / pairs leaving
    ``from`` (the last event of a group leaves nowhere), sorted by ``from`` then most
    frequent. ``.pivot(index="from", columns="to", values="probability")`` gives the matrix.

    >>> t = pd.to_datetime(["2026-11-01 10:00", "2026-11-01 10:01", "2026-11-01 10:02"], utc=True)
    >>> df = pd.DataFrame({"sessionId": "s", "key": ["viewer_loaded", "cta_clicked", "viewer_loaded"], "timestamp": t})
    >>> transitions(df)[["from", "to", "count"]].to_dict("list")
    {'from': ['cta_clicked', 'viewer_loaded'], 'to': ['viewer_loaded', 'cta_clicked'], 'count': [1, 1]}
    """
    df = _check(df, None, None, 1, exclude, key, by, gap, time)
    return _transition_table(_transition_partial(df, by, key, time, exclude, collapse))
