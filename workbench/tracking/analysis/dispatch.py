"""The one place that sends a Dask DataFrame to a question's Dask version, and what those versions share.

Every analysis function is written for pandas; :func:`pandas_or_dask` pairs it with its
Dask version (in the same module), which runs the same pandas kernel per partition of
whole groups and adds the partial answers up, so both give the same pandas answer.

How the work is split (the rule: a group is never split across partitions)
----------------------------------------------------------------------------

1. A lake written by workbench holds each session (and, where it has a ``visitorId``,
   each visitor) in one *bucket* (same part number on every day);
   :func:`~workbench.tracking.lake.read_events` makes one partition per bucket and marks
   the frame with the ``_session_part`` (or ``_visitor_part``) index and known
   divisions. Such a frame is used as it is: no data moves between workers.
2. Any other frame is hash-shuffled on the grouping column (``sessionId``, or ``by``)
   with Dask's shuffle, keeping the number of partitions.
3. Within a partition the pandas kernels run unchanged, and partial counts add up
   exactly because no group spans two partitions. Medians and percentiles add up as
   counts of distinct values (:func:`~.common.quantile_from_counts`).
4. Questions that need only a small slice of the events (load times: one
   ``viewer_loaded`` per visit; the AR funnel: 1-2 % of events) filter it on the
   workers and finish in pandas.

A lake that fits in this process (at most ``cluster.IN_PROCESS_ROWS`` events, counted from its
footers) and is to be computed on this process's threads is answered without Dask's
scheduler (:func:`partials`): each bucket's files are read by Arrow into pandas
(:func:`~workbench.tracking.lake_rows.bucket`) and the same kernel runs on it, the buckets on
a pool of one thread per core; buckets that do not hold whole groups for the question are
read into one frame (:func:`~workbench.tracking.lake_rows.whole`) and the kernel runs once.
At 1M events a Dask graph, its scheduler and the expression's bookkeeping cost 30 to 50 ms of
a question's 100 (``bench/RESULTS.md``). Any other frame, a larger lake, or a named client
or scheduler (``client="sync"``, a ``distributed.Client``) goes through Dask as above, a
bucket at a time, in bounded memory. The per-bucket steps a question may take first
(:func:`~.sessions.sessionize`'s visits) are remembered with the Dask frame they make
(:func:`remember`), so a question over them is answered in this process too.

Measured for sessionize + funnel by visit on 10 million synthetic events, 2 worker
processes of 1 thread, on 2 cores shared with other jobs (``bench/scale.py
--shuffle-sizes``, figures in ``bench/RESULTS.md``): session buckets from the lake, no
data moved (1): 5.8 s; the same files as a plain Parquet dataset, P2P hash shuffle on
``sessionId`` (2): 25.8 s, 4.4x; Dask's task-based shuffle: about 8x. Not built:
``set_index("sessionId")`` (a sort with a quantile pass first, more work than a hash
shuffle for the same guarantee) and one partition per day (sessions cross midnight).

>>> import pandas as pd
>>> @pandas_or_dask(lambda df, client=None: "dask")
... def question(df, client=None):
...     return "pandas"
>>> question(pd.DataFrame())
'pandas'
"""

from __future__ import annotations

import contextlib
import functools
import os
import threading
from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING, Any, NamedTuple, TypeVar, cast

import pandas as pd

from ..cluster import IN_PROCESS_ROWS, compute, get_client
from ..lake import SESSION_PART, VISITOR_PART, promises_unique_ids, promises_visitor_numbers, rows_of
from ..lake_rows import bucket, lake_items, narrowed, picked, selected, whole
from .common import VISITOR, check_columns, first_events, payload_dict

if TYPE_CHECKING:
    from concurrent.futures import ThreadPoolExecutor

    import dask.dataframe as dd

    from ..cluster import Scheduler

__all__ = ["is_dask", "pandas_or_dask", "by_group", "columns_of", "events_of", "field_columns", "as_dicts", "gathered",
           "compute", "partials", "remember", "in_process", "plain_pages"]


def is_dask(df: Any) -> bool:
    """Whether ``df`` is a Dask collection (checked without importing dask)."""
    return type(df).__module__.startswith("dask")


F = TypeVar("F", bound=Callable[..., Any])


def pandas_or_dask(dask_version: Callable[..., Any]) -> Callable[[F], F]:
    """Decorator: the function answers for pandas frames, ``dask_version`` (same arguments) for Dask ones,
    computed where :func:`~workbench.tracking.cluster.get_client` says for a frame of that many rows (a lake
    that fits in memory on this process's threads, no worker processes)."""
    def decorate(pandas_version: F) -> F:
        @functools.wraps(pandas_version)
        def question(df: Any, *args: Any, **kwargs: Any) -> Any:
            if is_dask(df):
                if kwargs.get("client") is None:
                    kwargs["client"] = get_client(rows=rows_of(df))
                return dask_version(df, *args, **kwargs)
            return pandas_version(df, *args, **kwargs)

        question.dask_version = dask_version  # type: ignore[attr-defined]  # a function's attribute
        return cast(F, question)  # the same signature: a type checker sees pandas_version's

    return decorate


# --------------------------------------------------------------------------
# A lake that fits, answered in this process without Dask's scheduler

class Step(NamedTuple):
    """A per-bucket step a question may take before its own kernel: ``function(frame, **kwargs)`` adds ``column``,
    keeping whole the ``group`` groups it needs whole (sessionize: ``visit``, from whole sessions)."""

    function: Callable
    column: str
    group: str
    kwargs: dict


#: Per-bucket steps remembered by the name of the Dask frame they made, with the lake's buckets under their input.
_STEPS: dict[str, tuple[list, Step]] = {}
_pool_lock = threading.Lock()
_pool: list[ThreadPoolExecutor] = []


def remember(result: dd.DataFrame, source: dd.DataFrame, function: Callable[..., pd.DataFrame], column: str, group: str,
             **kwargs: Any) -> dd.DataFrame:
    """Note that ``result`` is ``source`` with ``function(frame, **kwargs)`` applied per partition of whole ``group``
    groups, adding ``column`` (:func:`~.sessions.sessionize`'s visits): a question over ``result`` may then run
    the step itself on each bucket of the lake under ``source``. Returns ``result``."""
    items = lake_items(source)
    if items is not None:
        _STEPS[result.expr._name] = (items, Step(function, column, group, kwargs))
    return result


@contextlib.contextmanager
def plain_pages() -> Iterator[None]:
    """The block's numpy arrays and Arrow buffers allocated without huge pages, the settings restored after.

    numpy advises huge pages for arrays of 4 MB and more, and Arrow's default allocator (mimalloc) maps large
    regions too; where the kernel grants huge pages only by compacting memory on the spot
    (``/sys/kernel/mm/transparent_hugepage/defrag`` = ``madvise``, this 2-core machine's setting) a loaded
    machine stalled a 1M-event question in the kernel: 0.12 to 0.5 s of system time against 0.01 to 0.05 s
    without (bench/RESULTS.md). numpy's advice is switched off and Arrow allocates from the system's allocator
    for the block; only how memory is mapped changes, never an answer.

    >>> with plain_pages():
    ...     pass
    """
    import numpy as np
    import pyarrow as pa

    switch = getattr(getattr(np, "_core", np).multiarray, "_set_madvise_hugepage", None)
    before = switch(False) if switch is not None else None
    pool = pa.default_memory_pool()
    pa.set_memory_pool(pa.system_memory_pool())
    try:
        yield
    finally:
        pa.set_memory_pool(pool)
        if switch is not None:
            switch(before)


def in_process(ddf: dd.DataFrame, client: Scheduler | None) -> tuple[list[Any], Step | None] | None:
    """(the lake's buckets, the per-bucket step or None) when ``ddf`` is a lake read (column selections, a
    remembered step) that fits in this process and is to be computed on its threads (``client`` resolved to
    ``"threads"``); else None: Dask computes it."""
    if not isinstance(client, str) or client != "threads":
        return None
    rows = rows_of(ddf)
    if rows is None or rows > IN_PROCESS_ROWS:
        return None
    expr = selected(ddf)
    if expr is not None and expr._name in _STEPS:
        return _STEPS[expr._name]
    items = lake_items(ddf)
    return (items, None) if items else None


def _closed(items: list, by: str, step: Step | None) -> bool:
    """Whether every ``by`` group lies in one bucket of ``items`` (after the step, whose groups it keeps whole)."""
    kept = {"sessionId", "visitorId"} if items[0][3] == VISITOR_PART else {"sessionId"}
    if step is not None:
        return step.group in kept and (by in kept or by == step.column)
    return by in kept


def _threads() -> ThreadPoolExecutor:
    """One pool of a thread per core for this process's buckets (started once)."""
    with _pool_lock:
        if not _pool:
            from concurrent.futures import ThreadPoolExecutor

            _pool.append(ThreadPoolExecutor(os.cpu_count() or 1, thread_name_prefix="workbench-bucket"))
        return _pool[0]


def partials(ddf: dd.DataFrame, kernel: Callable[..., pd.DataFrame], *args: Any, by: str, columns: list[str],
             meta: pd.DataFrame, client: Scheduler | None, time: str = "timestamp",
             rows: tuple[Any, ...] | None = None, units_only: bool = False) -> pd.DataFrame:
    """``kernel(frame, *args)`` on every partition of whole ``by`` groups of ``ddf[columns]``, concatenated in
    partition order: in this process without Dask for a lake that fits (:func:`in_process`), else through Dask
    (:func:`by_group`, ``map_partitions``, :func:`compute`). ``rows`` = (key column, keys, ends_of, firsts_of)
    reads only those rows of a lake that promises unique ids (:func:`~workbench.tracking.lake_rows.narrowed`).
    ``units_only``: the kernel only tells the ``by`` units apart, never names one (its answer is counts), so a
    narrowed read by ``visitorId`` of a lake that numbers its visitors reads their numbers instead (the same
    units, the same answer; :func:`~workbench.tracking.lake_rows.picked`); a lake written before the numbers is
    read by its visitor ids."""
    here = in_process(ddf, client)
    if here is not None:
        items, step = here
        read = [c for c in columns if step is None or c != step.column]
        if step is not None:  # what the step reads too
            read = list(dict.fromkeys([*read, step.group, step.kwargs.get("time", time)]))
        unique = all(item[4] for item in items)
        narrow = rows if rows is not None and unique and step is None else None

        def one(frame: pd.DataFrame) -> pd.DataFrame:
            if step is not None:
                frame = step.function(frame, **step.kwargs)
            return kernel(frame[columns], *args)

        numbered = by if units_only and by == VISITOR and step is None and promises_visitor_numbers(ddf) else None

        def read_bucket(item: Any) -> pd.DataFrame:
            return bucket(item, read, narrow) if numbered is None else _numbered_bucket(item, read, narrow, time)

        with plain_pages():
            if narrow is not None:  # every bucket's few rows in one frame: one scan, one kernel
                return one(picked(items, read, narrow, closed=by if _closed(items, by, None) else None,
                                  numbered=numbered))
            if not _closed(items, by, step):
                return one(whole(items, read))
            if len(items) == 1:
                return one(read_bucket(items[0]))
            done = list(_threads().map(lambda item: one(read_bucket(item)), items))
            return pd.concat(done, ignore_index=True)
    few = narrowed(ddf, columns, rows[0], rows[1], rows[2], firsts_of=rows[3]) if rows is not None else None
    part = by_group(ddf[columns] if few is None else few, by, time=time)
    (partial,) = compute(part.map_partitions(kernel, *args, meta=meta), client=client)
    return partial


def _numbered_bucket(item: Any, read: list[str], narrow: tuple | None, time: str) -> pd.DataFrame:
    """One bucket with its visitors read as the lake's numbers, when no event id repeats in it (the frame then
    says so, and the kernel's :func:`~.common.first_events` takes it as it is); a bucket with copies of an event
    is read again by the visitor ids, whose text the copy rule may need to choose between copies."""
    frame = bucket(item, read, narrow, numbered=VISITOR)
    if frame.attrs.get("unique_ids") or first_events(frame, time=time) is frame:
        frame.attrs["unique_ids"] = True
        return frame
    return bucket(item, read, narrow)


def session_closed(ddf: dd.DataFrame) -> bool:
    """Whether every session is inside one partition already (a workbench lake's buckets)."""
    return ddf.index.name in (SESSION_PART, VISITOR_PART) and ddf.known_divisions


def visitor_closed(ddf: dd.DataFrame) -> bool:
    """Whether every visitor (``visitorId``) is inside one partition already (a lake bucketed by visitor)."""
    return ddf.index.name == VISITOR_PART and ddf.known_divisions


def by_group(ddf: dd.DataFrame, by: str, session: str = "sessionId", time: str = "timestamp") -> dd.DataFrame:
    """``ddf`` with every ``by`` group inside one partition, shuffling only when it must.

    A frame from a session-bucketed lake keeps its partitions for ``by`` = ``session``
    and for ``visit`` (visits split sessions, never join them); one bucketed by visitor
    also for ``visitorId`` (a visitor's sessions are all in its bucket).

    Where an event id may repeat (no lake promises otherwise) and ``by`` is not the session, the
    copies of one event are made one first, within whole sessions (:func:`~.common.first_events`,
    after a shuffle by session unless the partitions hold whole sessions already): grouped by
    another column straight away, a copy without the visitor would land apart from the copy with
    it, and which one counted would depend on the partitions.
    """
    if session_closed(ddf) and by in (session, "visit"):
        return ddf
    if visitor_closed(ddf) and by == "visitorId":
        return ddf
    # Dask's P2P shuffle moves Arrow tables; merging many partitions' dictionaries of a
    # categorical failed at 10M events ("requires a larger index type"), so they travel as strings
    cats = [c for c, t in ddf.dtypes.items() if isinstance(t, pd.CategoricalDtype)]
    if cats:
        ddf = ddf.astype({c: "str" for c in cats})
    if by != session and _may_repeat(ddf, session):
        if not session_closed(ddf):
            ddf = ddf.shuffle(on=session, npartitions=ddf.npartitions)
        ddf = ddf.map_partitions(first_events, time=time, meta=ddf._meta)
    return ddf.shuffle(on=by, npartitions=ddf.npartitions)


def _may_repeat(ddf: dd.DataFrame, session: str) -> bool:
    """Whether an event id of ``ddf`` may repeat within a session (it has both, and no lake promises otherwise)."""
    return "id" in ddf.columns and session in ddf.columns and not promises_unique_ids(ddf)


def columns_of(ddf: pd.DataFrame | dd.DataFrame, *names: str, ties: bool = True) -> list[str]:
    """The columns named that the frame has (payload fields may be flattened or not), checked, and the event
    ``id`` (with ``sessionId``, its scope) when there is one: every question counts a repeated id once, and those
    that order events (``ties``)
    break ties by it. A question that does not order events skips the id of a lake that promises it never
    repeats (so a frame of all the lake's columns does not read a million ids for nothing)."""
    check_columns(ddf, *[n for n in names if not n.startswith("payload.")])
    # an id repeats only within its session (common.first_events), so the session comes with it, and the visitor,
    # which decides which copy counts
    unique = promises_unique_ids(ddf)
    wanted = (*names, "id", "sessionId", *([] if unique else [VISITOR])) if ties or not unique else names
    return list(dict.fromkeys(n for n in wanted if n in ddf.columns))


def events_of(ddf: dd.DataFrame, keys: Iterable[str], by: str, key: str, time: str, firsts: bool = False) -> dd.DataFrame:
    """``ddf``'s ``by``, ``key`` and ``time`` columns (:func:`columns_of`) with every ``by`` group in one partition, for a
    question that counts only the events of ``keys`` and takes the data's first and last time (of the events with a
    ``by``) and, with ``firsts``, each ``by`` group's first event of any key: from a lake, only those rows are turned
    into pandas (:func:`~workbench.tracking.lake_rows.narrowed`); any other frame whole."""
    columns = columns_of(ddf, by, key, time, ties=False)
    few = narrowed(ddf, columns, key, keys, (time, by), firsts_of=by if firsts else None)
    return by_group(ddf[columns] if few is None else few, by, time=time)


def field_columns(ddf: pd.DataFrame | dd.DataFrame, *fields: str) -> list[str]:
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


def as_dicts(frame: pd.DataFrame) -> pd.DataFrame:
    """A lake's ``payload`` column holds JSON text; the pandas kernels read it as dicts."""
    if "payload" in frame.columns:
        frame = frame.copy()
        frame["payload"] = [payload_dict(p) for p in frame["payload"]]
    return frame


# --------------------------------------------------------------------------
# Visits and funnels


def gathered(ddf: dd.DataFrame, key: str, keys: Iterable[str], wanted: list[str], client: Scheduler | None) -> pd.DataFrame:
    """The events whose ``key`` is one of ``keys`` (only the ``wanted`` columns), as one pandas frame."""
    sub = ddf[ddf[key].isin(list(keys))][wanted]
    (frame,) = compute(sub, client=client)
    return as_dicts(frame.reset_index(drop=True))
