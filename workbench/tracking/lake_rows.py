"""Reading some of a lake's rows: the events of a few keys, picked in Arrow before pandas sees a row.

A question that counts the events of one key (lifecycle and stickiness count
``interaction_start``, a third of the synthetic lake's events) needs the other events for
one thing only: the data's first and last time. Reading every row into pandas first cost
most of such a question's time at 10M events (two thirds of the visitor column turned
into a categorical, then dropped). :func:`narrowed` reads the same bucket files, keeps
the rows of the keys asked and, of each file, its earliest and its latest event among
those whose ``ends_of`` columns are all set, and hands pandas only those rows: a pandas
kernel that counts the keys' events and takes the frame's first and last time answers
on them exactly as on the whole lake.

Only a read of a lake whose note promises that no event id repeats is narrowed: where an
id may repeat, which copy of it counts depends on the rows left out (the earliest copy
wins, whatever its key). Any other frame (a filter or a new column applied after the
read, another source) gives None, and the question reads it whole.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np
import pyarrow as pa

from .lake import _BUCKETS, VISITOR_NUMBER, _bucket_frame, _meta, _read_file, file_rows
from .lake_frames import _categorical, _numbers, _picked, _positions, _times, _unified, frame_of

__all__ = ["narrowed", "frame_of", "lake_items", "bucket", "picked", "whole", "selected"]


def narrowed(ddf, columns: list[str], key: str, keys: Iterable[str], ends_of: Sequence[str],
             firsts_of: str | None = None):
    """``ddf[columns]`` with only the rows whose ``key`` is one of ``keys`` and, of each file, the earliest and the
    latest row by ``ends_of[0]`` (a time column) among those whose ``ends_of`` columns are all set (and, with
    ``firsts_of``, the earliest row of each value of that column); or None when ``ddf`` is not a column selection
    of a lake read that promises unique ids (see the module's text).

    The frame has the lake read's partitions (one per bucket), index and divisions.

    >>> import tempfile, pathlib
    >>> from workbench.tracking.lake import read_events, write_synth_lake
    >>> from workbench.tracking.lake import lake_files
    >>> lake = write_synth_lake(pathlib.Path(tempfile.mkdtemp()) / "l", 3_000, seed=1)
    >>> ddf = read_events(lake)
    >>> few = narrowed(ddf, ["visitorId", "key", "timestamp"], "key", ["cta_clicked"], ("timestamp", "visitorId"))
    >>> few = few.compute()
    >>> ends = few[few["key"] != "cta_clicked"]  # of each file, its first and last event
    >>> len(few) < len(ddf), len(ends) <= 2 * sum(len(files) for files in lake_files(lake).values())
    (True, True)
    >>> narrowed(ddf[ddf["key"] == "cta_clicked"], ["key"], "key", ["cta_clicked"], ("timestamp",)) is None  # a filter
    True
    """
    items = _lake_items(ddf)
    wanted = set(columns) | {key, *ends_of}
    if items is None or not all(c in ddf.columns for c in wanted) or not all(item[4] for item in items):
        return None
    import dask.dataframe as dd

    read = [c for c in ddf.columns if c in wanted]  # the frame's order
    rows = (key, tuple(keys), tuple(ends_of), firsts_of)
    index_name = items[0][3]
    divisions = tuple(item[0] for item in items) + (items[-1][0],)
    part = dd.from_map(_read_rows, [(*item[:5], tuple(read)) for item in items], rows=rows,
                       meta=_meta(tuple(read), index_name), divisions=divisions, label="read-lake-rows")
    return part[[c for c in read if c in columns]]


def _lake_items(ddf) -> list | None:
    """The bucket items of the lake read under ``ddf`` when nothing but column selections lies between (else None)."""
    expr = selected(ddf)
    if expr is None or expr.dependencies():
        return None
    return _BUCKETS.get(expr._name)


def lake_items(ddf) -> list | None:
    """The buckets of the lake read under ``ddf`` (items of :func:`bucket`) when nothing but column selections lies
    between, else None.

    >>> import tempfile, pathlib
    >>> from workbench.tracking.lake import read_events, write_synth_lake
    >>> ddf = read_events(write_synth_lake(pathlib.Path(tempfile.mkdtemp()) / "l", 100, seed=1))
    >>> len(lake_items(ddf[["key"]])), lake_items(ddf[ddf["key"] == "heartbeat"])
    (1, None)
    """
    return _lake_items(ddf)


def selected(ddf):
    """The Dask expression under ``ddf``'s column selections (None for a frame without one)."""
    expr = getattr(ddf, "expr", None)
    while expr is not None and type(expr).__name__ in ("Projection", "ArrowStringConversion"):
        expr = expr.frame
    return expr


def bucket(item: tuple, columns: Sequence[str], rows: tuple | None = None, numbered: str | None = None):
    """One bucket of a lake read (an item of :func:`lake_items`) as the pandas frame its Dask partition would be,
    read by Arrow straight, without Dask: its ``columns``, and with ``rows`` = (key column, keys, ends_of,
    firsts_of) only the rows :func:`narrowed` keeps (a lake that promises unique ids only). ``numbered``: the
    column (``visitorId``) to read as the lake's visitor numbers, from a local bucket (:func:`_picked_frame`).

    A local bucket's files are read by one Arrow dataset scan, their decoding spread over Arrow's own threads:
    no Python thread to start (each start waits for the new thread to be scheduled: tens of milliseconds on a
    loaded machine) and no interpreter lock handed between readers."""
    import pandas as pd

    number, files, fs, index_name, unique_ids, _ = item
    local = "file" in (fs.protocol if isinstance(fs.protocol, (tuple, list)) else (fs.protocol,))
    if not local:
        item = (*item[:5], tuple(columns))
        if rows is not None:
            return _read_rows(item, rows)
        return _bucket_frame(item, lambda path: _read_file(fs, path, list(columns)),
                             lambda table: frame_of(table, unique=True))
    # every row (rows None) or the rows picked, written batch by batch into the frame's own arrays: the frame
    # frame_of(_scan(files, columns), unique=True) makes, without the whole Arrow table and its joined copies
    # first (at 1M events 16 MB of fresh pages fewer: a tenth of a question's CPU time in a fresh process)
    df = _picked_frame([files], columns, rows, numbered=numbered)
    df.index = pd.Index(np.broadcast_to(np.int64(number), len(df)), name=index_name, copy=False)
    if unique_ids:
        df.attrs["unique_ids"] = True
    return df


def _scan(files: list[str], columns: Sequence[str]) -> pa.Table:
    """Local lake files as one table in :data:`~workbench.tracking.lake.READ_SCHEMA` (a column a file lacks is
    null), file after file, each in time order."""
    return _dataset(files, columns).to_table(columns=list(columns), use_threads=True)


def _dataset(files: list[str], columns: Sequence[str]):
    """The local ``files`` as one Arrow dataset of ``columns`` in READ_SCHEMA's types, strings as dictionaries."""
    import pyarrow.dataset as ds

    from .lake import READ_SCHEMA

    schema = pa.schema([READ_SCHEMA.field(c) if c != VISITOR_NUMBER else pa.field(c, pa.int32()) for c in columns])
    strings = [f.name for f in schema if pa.types.is_dictionary(f.type)]
    fmt = ds.ParquetFileFormat(read_options={"dictionary_columns": strings})
    return ds.dataset(files, format=fmt, schema=schema)


def _picked_frame(groups: list[list[str]], columns: Sequence[str], rows: tuple | None, closed: str | None = None,
                  numbered: str | None = None):
    """The rows :func:`_positions` picks (every row when ``rows`` is None) of the local files of ``groups`` (lists
    of files: a lake's buckets), as one
    pandas frame of ``columns``, made from numpy without an Arrow table between: of each batch the scan reads (its
    arrays freed before the next is read, so a bucket's columns are never in memory whole), the dictionary columns'
    indices and the times' ticks at the rows picked, and at the end each dictionary column's categorical from its
    batches' dictionaries hashed once each (:func:`_unified`). ``closed`` names a dictionary column none of whose
    values lies in two groups (a lake's visitors, bucketed whole): its dictionaries are hashed group by group,
    tables a fifth the size of the whole lake's (the 10M lake's 473,000 visitor ids in 30 ms, not 65).

    The rows picked are written straight into one array per column as large as the files' rows (their footers):
    only the pages written are ever mapped, and no piece per batch is kept and copied again (at 10M events, 50 MB
    of fresh pages fewer: a third of a question's CPU time in a fresh process is the kernel mapping pages). A few
    batches are read ahead, enough to keep Arrow's threads decoding while this one picks: Arrow's default (4 files
    of 16 batches) held a hundred megabytes of fresh pages on the 10M lake, each page a fault.

    ``numbered`` (``visitorId``, of a lake whose files number the visitors): that column is read from the files'
    :data:`~workbench.tracking.lake.VISITOR_NUMBER` instead, as a categorical whose codes are the numbers and
    whose categories are the numbers too (0 to the greatest): the same units, told apart by integers the files
    hold, with no strings decoded or hashed (at 1M events the visitor column's decoding on Arrow's threads and
    its dictionaries' hash here were about 14 ms of stickiness's 50 ms of CPU)."""
    import pyarrow.dataset as ds

    files = [f for g in groups for f in g]
    group_of = {f: i for i, g in enumerate(groups) for f in g}
    names = list(columns)  # the frame's columns
    if numbered is not None:
        columns = [VISITOR_NUMBER if c == numbered else c for c in columns]
        if rows is not None:
            key, keys, ends_of, firsts_of = rows
            rows = (key, keys, tuple(VISITOR_NUMBER if c == numbered else c for c in ends_of),
                    VISITOR_NUMBER if firsts_of == numbered else firsts_of)
    dataset = _dataset(files, columns)
    # read_events' count of each file's rows, else its footer again
    capacity = sum(_or(file_rows(fragment.path), fragment.count_rows) for fragment in dataset.get_fragments())
    kinds = ["dictionary" if pa.types.is_dictionary(f.type) else "time" if pa.types.is_timestamp(f.type) else
             "number" if f.name == VISITOR_NUMBER else "other" for f in dataset.schema]
    # per column: an array written in place (dictionary indices, visitor numbers, times) or a list of Arrow pieces
    outs: list[Any] = [np.empty(capacity, np.int64 if k == "time" else np.int32) if k != "other" else []
                       for k in kinds]
    segments: list[tuple] = []  # (rows picked, dictionaries of the batch's dictionary columns, group)
    n = 0
    scanner = ds.Scanner.from_dataset(dataset, columns=list(columns), use_threads=True, batch_readahead=4,
                                      fragment_readahead=2)
    for tagged in scanner.scan_batches():
        batch = tagged.record_batch
        if not batch.num_rows:
            continue
        # each batch's ends and first rows per unit are a superset of each file's: the kernel's answer is the same
        at = _positions(batch, *rows) if rows is not None else None
        m = len(at) if at is not None else batch.num_rows
        dictionaries = []
        for kind, out, array in zip(kinds, outs, batch.columns, strict=True):
            if kind == "dictionary":  # the file's indices (a null as the dictionary's length), mapped at the end
                _put(_numbers(array.indices, len(array.dictionary)), at, out[n:n + m])
                dictionaries.append(array.dictionary)
            elif kind == "number":  # a visitor's number, a missing one as -1: the categorical's codes
                _put(_numbers(array, -1), at, out[n:n + m])
            elif kind == "time":  # ticks, NaT as int64's least: pandas' own representation
                _put(_numbers(array.view(pa.int64()), np.iinfo(np.int64).min), at, out[n:n + m])
            else:
                out.append(array if at is None else array.take(pa.array(at)))
        segments.append((m, dictionaries, group_of.get(tagged.fragment.path, -1)))
        n += m
    if not segments:
        empty = frame_of(dataset.schema.empty_table(), unique=True)
        empty.columns = names
        return empty
    import pandas as pd

    frame = {}
    ends = np.cumsum([0] + [s[0] for s in segments])
    d = 0  # which of each segment's dictionaries
    for name, field, kind, out in zip(names, dataset.schema, kinds, outs, strict=True):
        if kind == "dictionary":
            pieces = [out[a:b] for a, b in zip(ends[:-1], ends[1:], strict=True)]
            groups_of = [s[2] for s in segments] if name == closed else None
            # each piece's indices made codes in place
            values, codes = _unified(pieces, [s[1][d] for s in segments], groups_of, out=out[:n])
            frame[name] = _categorical(values, codes)
            d += 1
        elif kind == "number":
            frame[name] = _numbered(out[:n])
        elif kind == "time":
            frame[name] = _times(out[:n], field.type)
        else:
            frame[name] = pa.chunked_array(out, field.type).to_pandas()
    return pd.DataFrame(frame, columns=names, copy=False)


def _numbered(codes: np.ndarray):
    """Visitor numbers (-1: none) as a categorical of those codes over the categories 0 to the greatest."""
    import pandas as pd

    fast = getattr(pd.CategoricalDtype, "_from_fastpath", None)
    categories = pd.RangeIndex(int(codes.max(initial=-1)) + 1)
    dtype = fast(categories, ordered=False) if fast else pd.CategoricalDtype(categories, ordered=False)
    return pd.Categorical.from_codes(codes, dtype=dtype, validate=False)


def _put(values: np.ndarray, at: np.ndarray | None, out: np.ndarray) -> None:
    """``values`` at the positions ``at`` (all of them when None) written into ``out``, which holds as many."""
    if at is None:
        np.copyto(out, values, casting="unsafe")  # a dictionary's indices may be narrower than int32
    else:  # "clip": the same values as the default mode, without its copy of the output
        np.take(values, at, out=out, mode="clip")


def _or(value: int | None, count) -> int:
    return value if value is not None else count()


def picked(items: list, columns: Sequence[str], rows: tuple, closed: str | None = None, numbered: str | None = None):
    """The rows :func:`narrowed` keeps of every bucket of ``items``, as one pandas frame: one scan of all the files,
    its batches decoded on Arrow's threads while this one picks each (the rows kept are a third of a lake's for
    one event, so the question's kernel runs once on them, no bucket split between threads holding one lock).
    ``closed``: a column whose every value lies in one bucket (the caller knows it from the lake's note), hashed
    bucket by bucket (:func:`_picked_frame`). ``numbered``: the column (``visitorId``) to read as the lake's
    visitor numbers (a lake whose note promises them), for a question that only tells its units apart."""
    fs = items[0][2]
    if "file" not in (fs.protocol if isinstance(fs.protocol, (tuple, list)) else (fs.protocol,)):
        import pandas as pd

        return pd.concat([bucket(item, columns, rows) for item in items], ignore_index=True)
    frame = _picked_frame([list(item[1]) for item in items], columns, rows, closed, numbered)
    frame.attrs["unique_ids"] = True  # rows are narrowed only for a lake that promises it
    return frame


def whole(items: list, columns: Sequence[str]):
    """Every bucket of ``items`` as one pandas frame (each dictionary column one categorical over all of them)."""
    fs = items[0][2]
    if "file" in (fs.protocol if isinstance(fs.protocol, (tuple, list)) else (fs.protocol,)):
        table = _scan([f for item in items for f in item[1]], columns)
    else:
        table = pa.concat_tables([_read_file(fs, f, list(columns)) for item in items for f in item[1]])
    frame = frame_of(table)
    if all(item[4] for item in items):
        frame.attrs["unique_ids"] = True
    return frame


def _read_rows(item: tuple, rows: tuple):
    """One bucket's rows of ``rows`` = (key column, keys, ends_of, firsts_of) as a pandas frame indexed like
    :func:`~workbench.tracking.lake._read_bucket`'s."""
    fs, read = item[2], list(item[5])
    # a workbench lake's dictionaries hold each value once (lake.compact); Arrow's unified one too
    return _bucket_frame(item, lambda path: _picked(_read_file(fs, path, read), *rows),
                         lambda table: frame_of(table, unique=True))
