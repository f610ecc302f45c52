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

import numpy as np
import pyarrow as pa

from .lake import _BUCKETS, _bucket_frame, _meta, _read_file

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


def bucket(item: tuple, columns: Sequence[str], rows: tuple | None = None):
    """One bucket of a lake read (an item of :func:`lake_items`) as the pandas frame its Dask partition would be,
    read by Arrow straight, without Dask: its ``columns``, and with ``rows`` = (key column, keys, ends_of,
    firsts_of) only the rows :func:`narrowed` keeps (a lake that promises unique ids only).

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
    table = _scan(files, columns, rows)
    # a workbench lake's dictionaries hold each value once per file (lake.compact): categoricals without a hash
    df = frame_of(table, unique=True)
    df.index = pd.Index(np.broadcast_to(np.int64(number), len(df)), name=index_name, copy=False)
    if unique_ids:
        df.attrs["unique_ids"] = True
    return df


def _scan(files: list[str], columns: Sequence[str], rows: tuple | None = None) -> pa.Table:
    """Local lake files as one table in :data:`~workbench.tracking.lake.READ_SCHEMA` (a column a file lacks is
    null), file after file, each in time order; with ``rows`` (:func:`_picked`'s) only the rows it picks of each
    batch the scan reads: a batch's arrays are freed before the next is read, so the whole bucket's columns are
    never in memory at once (fresh pages cost 5 to 25 microseconds each on this loaded machine)."""
    import pyarrow.dataset as ds

    from .lake import READ_SCHEMA

    schema = pa.schema([READ_SCHEMA.field(c) for c in columns])
    strings = [c for c in columns if pa.types.is_dictionary(READ_SCHEMA.field(c).type)]
    fmt = ds.ParquetFileFormat(read_options={"dictionary_columns": strings})
    dataset = ds.dataset(files, format=fmt, schema=schema)
    if rows is None:
        return dataset.to_table(columns=list(columns), use_threads=True)
    # each batch's ends and first rows per unit are a superset of each file's: the kernel's answer is the same
    # a few batches read ahead, enough to keep Arrow's threads decoding while this one picks: Arrow's default (4
    # files of 16 batches) held a hundred megabytes of fresh pages on the 10M lake, each page a fault
    batches = dataset.to_batches(columns=list(columns), use_threads=True, batch_readahead=4, fragment_readahead=2)
    picked = [_picked(pa.Table.from_batches([b]), *rows) for b in batches if b.num_rows]
    return pa.concat_tables(picked) if picked else schema.empty_table()


def picked(items: list, columns: Sequence[str], rows: tuple):
    """The rows :func:`narrowed` keeps of every bucket of ``items``, as one pandas frame: one scan of all the files,
    its batches decoded on Arrow's threads while this one picks each (the rows kept are a third of a lake's for
    one event, so the question's kernel runs once on them, no bucket split between threads holding one lock)."""
    fs = items[0][2]
    if "file" not in (fs.protocol if isinstance(fs.protocol, (tuple, list)) else (fs.protocol,)):
        import pandas as pd

        return pd.concat([bucket(item, columns, rows) for item in items], ignore_index=True)
    frame = frame_of(_scan([f for item in items for f in item[1]], columns, rows), unique=True)
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


def _values(column: pa.ChunkedArray, fill) -> np.ndarray:
    """A column of integers (or their dictionary indices, or times as their ticks) as numpy, nulls as ``fill``."""
    array = column.combine_chunks()
    if pa.types.is_dictionary(array.type):
        array = array.indices
    elif pa.types.is_timestamp(array.type):
        array = array.cast(pa.int64())
    if array.null_count:
        array = array.fill_null(fill)
    return array.to_numpy(zero_copy_only=False)


def _set(table: pa.Table, names: Sequence[str]) -> np.ndarray | bool:
    """Whether each row has every column of ``names`` set (True for all when none has a null)."""
    out: np.ndarray | bool = True
    for name in names:
        column = table.column(name)
        if column.null_count:
            out = out & column.is_valid().to_numpy(zero_copy_only=False)
    return out


def _picked(table: pa.Table, key: str, keys: tuple, ends_of: tuple, firsts_of: str | None = None) -> pa.Table:
    """The rows of ``table`` whose ``key`` is one of ``keys``, its earliest and latest (by ``ends_of[0]``) among
    the rows whose ``ends_of`` columns are all set, and with ``firsts_of`` the earliest row of each of that column's
    values (the rows at its earliest time, all of them when several share it)."""
    column = table.column(key).combine_chunks()
    if pa.types.is_dictionary(column.type):  # the keys' indices in the file's dictionary: no string compared per row
        hit = np.array([v in keys for v in column.dictionary.to_pylist()] + [False])
        indices = _values(table.column(key), len(hit) - 1)
        if np.count_nonzero(hit) <= 4:  # a comparison per key asked: a third of the time of a lookup per row
            keep = np.zeros(len(indices), dtype=bool)
            for code in np.flatnonzero(hit):
                keep |= indices == code
        else:
            keep = hit[indices]
    else:
        keep = np.array([v in keys for v in column.to_pylist()], dtype=bool)
    ok = _set(table, ends_of)
    if np.any(ok):
        t = _values(table.column(ends_of[0]), 0)
        if ok is True:
            first, last = int(np.argmin(t)), int(np.argmax(t))
        else:
            at = np.flatnonzero(ok)
            first, last = int(at[np.argmin(t[at])]), int(at[np.argmax(t[at])])
        keep[first] = keep[last] = True
        if firsts_of is not None:
            keep |= _earliest(table.column(firsts_of), t, ok)
    return table.take(np.flatnonzero(keep))


def _earliest(column: pa.ChunkedArray, t: np.ndarray, ok) -> np.ndarray:
    """Whether each row is at the earliest time ``t`` of its value of ``column`` (rows not ``ok`` never are)."""
    array = column.combine_chunks()
    if not pa.types.is_dictionary(array.type):
        array = array.dictionary_encode()
    values = _values(pa.chunked_array([array]), len(array.dictionary))
    big = np.iinfo(np.int64).max
    lowest = np.full(len(array.dictionary) + 1, big, dtype=np.int64)
    tt = np.where(ok, t, big)
    np.minimum.at(lowest, values, tt)
    return (tt == lowest[values]) & (tt != big)


def frame_of(table: pa.Table, unique: bool = False):
    """``table.to_pandas()``, the same frame, with each dictionary column made a categorical from one dictionary of
    its chunks' values (:func:`_codes`) and their indices: pyarrow's own conversion of a visitor column of 73,000
    values took four times as long. ``unique``: the caller knows each chunk's dictionary holds no value twice (a
    workbench lake's, made by ``pyarrow.compute.dictionary_encode``), so pandas need not check the categories
    (hashing 73,000 visitor ids again took a third of the conversion).

    >>> t = pa.table({"k": pa.chunked_array([pa.array(["a", None]).dictionary_encode(),
    ...                                      pa.array(["b", "a"]).dictionary_encode()])})
    >>> frame_of(t)["k"].tolist() == t.to_pandas()["k"].tolist()
    True
    """
    import pandas as pd

    out = {}
    for name, column in zip(table.column_names, table.columns, strict=True):
        if not pa.types.is_dictionary(column.type) or not column.num_chunks:
            out[name] = column.to_pandas()
            continue
        values, codes = _codes(column)
        categories = pd.Index(values.to_pandas())
        fast = getattr(pd.CategoricalDtype, "_from_fastpath", None) if unique else None
        dtype = fast(categories, ordered=False) if fast else pd.CategoricalDtype(categories, ordered=False)
        out[name] = pd.Categorical.from_codes(codes, dtype=dtype, validate=False)  # the indices are in range
    return pd.DataFrame(out, columns=table.column_names, copy=False)


def _codes(column: pa.ChunkedArray) -> tuple[pa.Array, np.ndarray]:
    """A dictionary column's values, each once, in the order ``ChunkedArray.unify_dictionaries`` gives (first seen,
    chunk after chunk), and every row's index into them (int32, -1 for a null).

    The chunks of one file share its dictionary (the batches a scan reads of it, the rows picked of each): each
    distinct dictionary is hashed once, not once per chunk (Arrow's unification hashed the 10M lake's 35 day
    files' visitor ids once for each of their 105 chunks, as long as reading the files).

    >>> d = pa.array(["x", "y"])
    >>> column = pa.chunked_array([pa.DictionaryArray.from_arrays(pa.array([1, None]), d),
    ...                            pa.DictionaryArray.from_arrays(pa.array([0, 1]), d),
    ...                            pa.DictionaryArray.from_arrays(pa.array([0]), pa.array(["z", "x"]))])
    >>> values, codes = _codes(column)
    >>> values.to_pylist(), codes.tolist()
    (['x', 'y', 'z'], [1, -1, 0, 1, 2])
    >>> values.equals(column.unify_dictionaries().chunk(0).dictionary)
    True
    """
    import pyarrow.compute as pc

    seen: dict[tuple, int] = {}
    dictionaries: list[pa.Array] = []
    which: list[int] = []
    for chunk in column.chunks:
        d = chunk.dictionary
        same = (d.offset, len(d), *(b.address if b is not None else 0 for b in d.buffers()))
        if same not in seen:
            seen[same] = len(dictionaries)
            dictionaries.append(d)
        which.append(seen[same])
    joined = pa.concat_arrays(dictionaries) if len(dictionaries) > 1 else dictionaries[0]
    encoded = pc.dictionary_encode(joined)
    # where each distinct dictionary's values went (a null value: a missing row, as Arrow reads one chunk); a last
    # -1 for the null rows' fill
    to = _values(pa.chunked_array([encoded.indices]), -1).astype(np.int32, copy=False)
    starts = np.cumsum([0] + [len(d) for d in dictionaries])
    maps = [np.append(to[a:b], np.int32(-1)) for a, b in zip(starts[:-1], starts[1:], strict=True)]
    codes = np.empty(len(column), dtype=np.int32)
    at = 0
    for chunk, k in zip(column.chunks, which, strict=True):
        n = len(chunk)
        np.take(maps[k], _values(pa.chunked_array([chunk]), len(maps[k]) - 1), out=codes[at:at + n])
        at += n
    return encoded.dictionary, codes
