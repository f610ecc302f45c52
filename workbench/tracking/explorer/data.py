"""The explorer's events: one frame kept in memory, its days, keys and fields, and the slices its settings ask for.

A pandas DataFrame is used as it is. A lake (its folder, or a frame from
:func:`~workbench.tracking.read_events`) that fits in this process (``cluster.IN_PROCESS_ROWS``
events) is read once by Arrow into pandas, every bucket into one frame; a larger one, or any
other Dask frame, stays a Dask frame and each answer is computed through Dask, in bounded
memory. The last few slices (a date range, a filter on the units) are kept, so changing the
question or its chart does not cut the frame again.

>>> import pandas as pd
>>> events = Events(pd.DataFrame({"sessionId": ["a", "a", "b"], "key": ["viewer_loaded", "cta_clicked", "viewer_loaded"],
...                               "timestamp": pd.to_datetime(["2026-11-01 10:00", "2026-11-01 10:01",
...                                                            "2026-11-02 09:00"], utc=True),
...                               "payload.device": ["mobile", None, "desktop"]}))
>>> events.days, events.keys, events.fields
(['2026-11-01', '2026-11-02'], ['cta_clicked', 'viewer_loaded'], ['device'])
>>> len(events.slice("2026-11-01", "2026-11-02", "device", ("mobile",), "sessionId"))
2
"""

from __future__ import annotations

import os
from collections import OrderedDict
from typing import Any

import pandas as pd

from ..analysis.common import EVENT_COLUMNS, first_events, payload_dict
from ..analysis.dispatch import is_dask
from ..cluster import IN_PROCESS_ROWS
from ..lake import rows_of
from ..lake_rows import lake_items, whole

__all__ = ["Events", "NOT_FIELDS"]

#: Columns that are not fields to break down or filter by.
NOT_FIELDS = {*EVENT_COLUMNS, "receivedAt", "visitorId", "visit", "date"}
_SLICES = 4  # slices kept (date range x filter x unit)


class Events:
    """The events an explorer asks its questions of (see the module text)."""

    def __init__(self, events: Any):
        self.path: str | None = None
        if isinstance(events, (str, os.PathLike)):
            from ..lake import read_events

            self.path = os.fspath(events)
            events = read_events(events)
        if is_dask(events):
            items = lake_items(events)
            if items and self.path is None:  # the lake's folder, for the code shown: its files' common root
                self.path = items[0][1][0].rsplit("/date=", 1)[0]
            rows = rows_of(events)
            if items and rows is not None and rows <= IN_PROCESS_ROWS:
                # one read by Arrow, every bucket into one frame (each dictionary column one categorical)
                events = whole(items, [c for c in events.columns if c != "receivedAt"])
        elif isinstance(events, pd.DataFrame):
            if "sessionId" in events.columns and "id" in events.columns and not events.attrs.get("unique_ids"):
                # a repeated id made one once (the rule every question applies, scoped by session whatever the
                # question's unit), not at every answer; the caller's frame is left as it is
                events = first_events(events).copy(deep=False)
                events.attrs["unique_ids"] = True
        else:
            raise TypeError(f"explore: events: {type(events).__name__} is neither a DataFrame, a Dask frame of "
                            "events nor a lake's folder")
        self.frame = events
        self.lazy = is_dask(events)  # answered through Dask, a bucket at a time
        missing = [c for c in ("key", "timestamp") if c not in events.columns]
        if missing:
            raise KeyError(f"explore: events: missing column(s) {missing}; have {list(events.columns)}")
        self.units = [c for c in ("sessionId", "visitorId") if c in events.columns and self._has(c)]
        if not self.units:
            raise KeyError("explore: events: no sessionId or visitorId column with a value to count units by")
        self.keys = sorted(str(k) for k in self._distinct("key"))
        stamps = self._compute(events["timestamp"].dropna())
        t = pd.to_datetime(stamps, utc=True) if len(stamps) else pd.DatetimeIndex([], tz="UTC")
        self.days = [d.strftime("%Y-%m-%d") for d in pd.date_range(t.min().floor("D"), t.max().floor("D"), freq="D")] \
            if len(t) else []
        self.fields = self._fields()
        #: fields held in a column of their own: those a filter may use (a payload's JSON text is not cut)
        self.columns = [f for f in self.fields if self.column_of(f) != "payload"]
        self._slices: OrderedDict = OrderedDict()

    # ------------------------------------------------------------------
    def _compute(self, x):
        return x.compute() if hasattr(x, "compute") else x

    def _has(self, column: str) -> bool:
        return bool(self._compute(self.frame[column].notnull().any()))

    def _distinct(self, column: str) -> list:
        return self._compute(self.frame[column].dropna().unique()).tolist()

    def _fields(self) -> list[str]:
        """Fields to break down and filter by: the flattened ``payload.<field>`` columns holding a value, plain
        columns besides the event's own, and the fields of the first payloads (dicts or JSON text)."""
        columns = [c for c in self.frame.columns if c not in NOT_FIELDS]
        found = [c.removeprefix("payload.") for c in columns if self._has(c)]
        if "payload" in self.frame.columns:
            sample = self._compute(self.frame["payload"].dropna().head(2000) if not self.lazy
                                   else self.frame["payload"].dropna().head(2000, npartitions=-1))
            for p in sample:
                found += list(payload_dict(p))
        return sorted(dict.fromkeys(found))

    def values(self, field: str, limit: int = 50) -> list:
        """The most frequent values of the column ``field`` (a filter's choices), at most ``limit``, as they are
        in the data (a filter compares them as they are: the code shown does the same)."""
        counts = self._compute(self.frame[self.column_of(field)].dropna().value_counts())
        return counts.sort_values(ascending=False, kind="stable").head(limit).index.tolist()

    def column_of(self, field: str) -> str:
        """The column that holds ``field`` (a plain column, ``payload.<field>``, or ``payload``)."""
        for name in (field, f"payload.{field}"):
            if name in self.frame.columns:
                return name
        return "payload"

    # ------------------------------------------------------------------
    def slice(self, start: str | None, end: str | None, field: str | None, values: tuple, unit: str,
              columns: list[str] | None = None):
        """The events from day ``start`` to day ``end`` (both included, UTC), of the units (``unit`` values) that
        have an event whose ``field`` is one of ``values`` in that range, with only ``columns`` (all when None):
        the frame itself when nothing is cut. The last few slices are kept."""
        whole_range = (start in (None, self.days[0] if self.days else None)
                       and end in (None, self.days[-1] if self.days else None))
        cut = field if field and values else None
        key = (None if whole_range else (start, end), cut, tuple(values) if cut else (), unit if cut else None,
               None if columns is None else tuple(columns))
        if key in self._slices:
            self._slices.move_to_end(key)
            return self._slices[key]
        frame = self.frame
        keep = None
        if not whole_range:
            lo, hi = bounds(start, end)
            t = frame["timestamp"]
            keep = (t >= lo) & (t < hi)
        if cut:
            carried = self._has_value(frame, cut, values)
            units = self._compute(frame.loc[carried if keep is None else carried & keep, unit].dropna().unique())
            inside = frame[unit].isin(list(units))
            keep = inside if keep is None else keep & inside
        wanted = list(frame.columns) if columns is None else [c for c in dict.fromkeys(columns) if c in frame.columns]
        # only the columns asked are taken: a wide lake's text columns (the event id) cost most of a cut
        frame = frame[wanted] if keep is None else frame.loc[keep, wanted]
        if not self.lazy:
            frame.attrs.update(self.frame.attrs)
        self._slices[key] = frame
        while len(self._slices) > _SLICES:
            self._slices.popitem(last=False)
        return frame

    def _has_value(self, frame, field: str, values: tuple):
        """Whether each event's column ``field`` holds one of ``values``."""
        return frame[self.column_of(field)].isin(list(values))


def bounds(start: str | None, end: str | None) -> tuple[pd.Timestamp, pd.Timestamp]:
    """Day ``start`` 00:00 UTC and the midnight after day ``end``: the events from one to the other.

    >>> [str(t) for t in bounds("2026-11-02", "2026-11-03")]
    ['2026-11-02 00:00:00+00:00', '2026-11-04 00:00:00+00:00']
    """
    lo = pd.Timestamp(start or "1970-01-01", tz="UTC")
    hi = pd.Timestamp(end or "2262-04-10", tz="UTC") + pd.Timedelta(days=1) if end else pd.Timestamp.max.tz_localize("UTC")
    return lo, hi


