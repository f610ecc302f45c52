"""Repeated event ids: which copy of an event counts, one rule whatever the rows' order or partitions.

>>> t = pd.Timestamp("2026-11-01", tz="UTC")
>>> first_events(pd.DataFrame({"id": ["a", "a"], "visitorId": [None, "v"], "timestamp": [t, t]}))["visitorId"].tolist()
['v']
"""

from __future__ import annotations

import json
import warnings
from typing import Any

import numpy as np
import pandas as pd

from .times import ns

__all__ = ["VISITOR", "first_events", "copy_order"]


#: The field a copy of an event may lack where another copy has it: a client names the visitor on later sends.
VISITOR = "visitorId"


def first_events(frame: pd.DataFrame, id_column: str = "id", time: str = "timestamp",
                 scope: str | None = None) -> pd.DataFrame:
    """``frame`` with each repeated event id kept once, the same copy whatever the rows' order or partitioning.

    The contract says a repeated id is one event (a client retries a batch; Amplitude likewise
    de-duplicates on its insert id), so every analysis counts it once. An id repeats only within
    its session (``sessionId``; else the question's group, ``scope``): two sessions whose clients
    happen to reuse ids keep each other's events, as Amplitude scopes its insert id to a device or
    user. Rows without an id are kept.

    Which copy is kept, one rule (:func:`copy_order`): the copy that has a ``visitorId`` (a
    retried event may have been sent before the client knew its visitor), then the earliest,
    then the first by the text of its other columns taken in the order of their names (a
    missing value after any text). Copies that tie on all of these are the same event in every
    column the question reads, so which one stays does not change an answer. A frame whose
    ``attrs["unique_ids"]`` is set (a lake whose note promises it) is taken as it is: hashing every
    id costs about as much as the rest of a question.

    >>> t = pd.Timestamp("2026-11-01", tz="UTC") + pd.to_timedelta([2, 1, 3, 3], unit="s")
    >>> first_events(pd.DataFrame({"id": ["a", "a", None, None], "timestamp": t}))["timestamp"].dt.second.tolist()
    [1, 3, 3]
    >>> len(first_events(pd.DataFrame({"sessionId": ["s", "t"], "id": ["a", "a"], "timestamp": t[:2]})))
    2
    >>> first_events(pd.DataFrame({"id": ["a", "a"], "visitorId": [None, "v"], "timestamp": t[:2]}))["visitorId"].tolist()
    ['v']
    """
    if id_column not in frame.columns or not len(frame) or frame.attrs.get("unique_ids"):
        return frame
    ids, _ = pd.factorize(frame[id_column], use_na_sentinel=True)
    within = "sessionId" if "sessionId" in frame.columns else scope
    if within is not None and within in frame.columns and within != id_column:
        groups, _ = pd.factorize(frame[within], use_na_sentinel=True)
        # (group, id) pairs as one code; a row without a group keeps its id's own scope
        pair = np.where(ids >= 0, ids.astype(np.int64) * (int(groups.max(initial=-1)) + 2) + groups + 1, -1)
        ids, _ = pd.factorize(pair, use_na_sentinel=False)
        ids = np.where(pair < 0, -1, ids)
    has = ids >= 0
    _, first = np.unique(ids[has], return_index=True)
    if len(first) == int(has.sum()):
        return frame  # every id once
    counts = np.bincount(ids[has])
    rows = np.flatnonzero(has & (counts[np.maximum(ids, 0)] > 1))  # the rows of repeated ids
    keep = rows[copy_order(frame, rows, ids[rows], id_column, time, within)]
    c = ids[keep]
    out = np.ones(len(frame), dtype=bool)
    out[keep[np.r_[False, c[1:] == c[:-1]]]] = False
    return frame[out]


def copy_order(frame: pd.DataFrame, rows: np.ndarray, ids: np.ndarray, id_column: str = "id",
               time: str = "timestamp", within: str | None = None) -> np.ndarray:
    """The order of ``rows`` (copies of events; ``ids``: their event codes) that puts each event's copies together,
    the one :func:`first_events` keeps first: with a ``visitorId``, earliest, then by the text of the other
    columns in the order of their names (missing last). The text is read only for copies still tied after the
    visitor and the time (a retry resends the same event: they are few).

    >>> f = pd.DataFrame({"id": ["a", "a", "a"], "key": ["y", "x", "x"], "visitorId": [None, "v", "v"],
    ...                   "timestamp": pd.Timestamp("2026-11-01", tz="UTC")})
    >>> copy_order(f, np.arange(3), np.zeros(3, int)).tolist()
    [1, 2, 0]
    """
    no_visitor = (frame[VISITOR].iloc[rows].isna().to_numpy() if VISITOR in frame.columns
                  else np.zeros(len(rows), dtype=bool))
    t = np.zeros(len(rows), dtype=np.int64)
    if time in frame.columns:
        with warnings.catch_warnings():  # the question reading these times says it once, not this helper
            warnings.simplefilter("ignore", UserWarning)
            t = ns(frame[time].iloc[rows])
    order = np.lexsort((t, no_visitor, ids))
    # copies tied with the one before them on (id, visitor, time): their content decides
    i, v, s = ids[order], no_visitor[order], t[order]
    tied = np.r_[False, (i[1:] == i[:-1]) & (v[1:] == v[:-1]) & (s[1:] == s[:-1])]
    if not tied.any():
        return order
    run = np.cumsum(~tied)  # one number per run of tied copies
    in_tie = tied | np.r_[tied[1:], False]
    at = np.flatnonzero(in_tie)
    columns = sorted((c for c in frame.columns if c not in (id_column, within, time, VISITOR)), key=str)
    ranks = []
    for column in reversed([*([VISITOR] if VISITOR in frame.columns else []), *columns]):
        text = [_text(x) for x in frame[column].iloc[rows[order[at]]]]
        rank = pd.factorize(pd.Series(text, dtype=object), sort=True, use_na_sentinel=True)[0]
        ranks.append(np.where(rank < 0, np.iinfo(np.int64).max, rank))  # missing after any text
    order[at] = order[at][np.lexsort((*ranks, run[at]))]
    return order


def _text(value: Any) -> str | None:
    """A value as the text copies are ordered by: dicts as JSON with sorted keys, missing as None."""
    if isinstance(value, dict):
        return json.dumps(value, sort_keys=True, default=str)
    if value is None or (not isinstance(value, (str, bytes)) and pd.api.types.is_scalar(value) and pd.isna(value)):
        return None
    return str(value)
