"""A lake's Arrow rows as pandas frames: which rows a narrowed read keeps (:func:`_positions`), columns as
numpy values, and dictionary columns as categoricals whose dictionaries are hashed once per file or per
bucket (:func:`frame_of`, :func:`_unified`). :mod:`.lake_rows` reads the files and calls these.

>>> import pyarrow as pa
>>> frame_of(pa.table({"k": pa.array(["a", "b", "a"]).dictionary_encode()}))["k"].tolist()
['a', 'b', 'a']
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pyarrow as pa


def _times(ticks: np.ndarray, type_: pa.DataType):
    """Int64 ticks of an Arrow timestamp type as pandas' datetimes of its unit and zone, uncopied where pandas allows."""
    import pandas as pd

    values = ticks.view(f"M8[{type_.unit}]")
    if not type_.tz:
        return values
    dtype = pd.DatetimeTZDtype(type_.unit, type_.tz)
    simple = getattr(pd.arrays.DatetimeArray, "_simple_new", None)  # pandas' own constructor: no copy, no check
    return simple(values, dtype=dtype) if simple is not None else pd.array(values, dtype=dtype)


def _array(column) -> pa.Array:
    """A table's column (chunks) or a batch's (one array) as one array."""
    return column.combine_chunks() if isinstance(column, pa.ChunkedArray) else column


def _numbers(array: pa.Array, fill) -> np.ndarray:
    """An integer array as numpy, nulls as ``fill`` (uncopied when it has none)."""
    if array.null_count:
        array = array.fill_null(fill)
    return array.to_numpy(zero_copy_only=False)


def _values(column, fill) -> np.ndarray:
    """A column of integers (or their dictionary indices, or times as their ticks) as numpy, nulls as ``fill``."""
    array = _array(column)
    if pa.types.is_dictionary(array.type):
        array = array.indices
    elif pa.types.is_timestamp(array.type):
        array = array.view(pa.int64())  # the same buffers: no cast
    return _numbers(array, fill)


def _set(table, names: Sequence[str]) -> np.ndarray | bool:
    """Whether each row has every column of ``names`` set (True for all when none has a null)."""
    out: np.ndarray | bool = True
    for name in names:
        column = table.column(name)
        if column.null_count:
            out = out & _array(column).is_valid().to_numpy(zero_copy_only=False)
    return out


def _picked(table: pa.Table, key: str, keys: tuple, ends_of: tuple, firsts_of: str | None = None) -> pa.Table:
    """The rows of ``table`` :func:`_positions` picks."""
    return table.take(_positions(table, key, keys, ends_of, firsts_of))


def _positions(table, key: str, keys: tuple, ends_of: tuple, firsts_of: str | None = None) -> np.ndarray:
    """The positions, in order, of the rows of ``table`` (a table or a batch) whose ``key`` is one of ``keys``, its
    earliest and latest (by ``ends_of[0]``) among the rows whose ``ends_of`` columns are all set, and with
    ``firsts_of`` the earliest row of each of that column's values (the rows at its earliest time, all of them when
    several share it)."""
    column = _array(table.column(key))
    if pa.types.is_dictionary(column.type):  # the keys' indices in the file's dictionary: no string compared per row
        hit = np.array([v in keys for v in column.dictionary.to_pylist()] + [False])
        indices = _values(column, len(hit) - 1)
        asked = np.flatnonzero(hit)
        if len(asked) == 1:  # one key (lifecycle's and stickiness's event): one comparison, no mask to OR into
            keep = indices == asked[0]
        elif len(asked) <= 4:  # a comparison per key asked: a third of the time of a lookup per row
            keep = np.zeros(len(indices), dtype=bool)
            for code in asked:
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
    return np.flatnonzero(keep)


def _earliest(column: pa.ChunkedArray, t: np.ndarray, ok) -> np.ndarray:
    """Whether each row is at the earliest time ``t`` of its value of ``column`` (rows not ``ok`` never are)."""
    import pyarrow.compute as pc

    array = _array(column)
    span = pc.min_max(array).as_py() if pa.types.is_integer(array.type) else {"min": None}
    # numbers (a lake's visitors'), few apart: a table from the least to the greatest, no hash
    if span["min"] is not None and span["max"] - span["min"] <= 4 * len(array):
        values = _numbers(array, span["min"]) - span["min"]
        size = span["max"] - span["min"] + 1
    else:
        if not pa.types.is_dictionary(array.type):
            array = array.dictionary_encode()
        values = _values(array, len(array.dictionary))
        size = len(array.dictionary) + 1
    big = np.iinfo(np.int64).max
    lowest = np.full(size, big, dtype=np.int64)
    if ok is True:  # every row set (a lake's usual batch): the times as they are, no copy and no mask
        np.minimum.at(lowest, values, t)
        return t == lowest[values]
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
        if pa.types.is_timestamp(column.type) and column.num_chunks:
            # the chunks' ticks joined once and viewed as pandas' datetimes: Arrow's conversion joined them, then
            # pandas localized a copy to the zone (at 1M events 3 to 4 ms and 8 MB of fresh pages)
            ticks = [_numbers(chunk.view(pa.int64()), np.iinfo(np.int64).min) for chunk in column.chunks]
            out[name] = _times(np.concatenate(ticks), column.type)  # a new array of numpy's own: writable
        elif not pa.types.is_dictionary(column.type) or not column.num_chunks:
            out[name] = column.to_pandas()
        else:
            out[name] = _categorical(*_codes(column), unique=unique)
    return pd.DataFrame(out, columns=table.column_names, copy=False)


def _categorical(values: pa.Array, codes: np.ndarray, unique: bool = True):
    """A pandas categorical of ``codes`` into ``values``; ``unique``: the caller knows no value is there twice, so
    pandas need not hash them to check."""
    import pandas as pd

    categories = pd.Index(values.to_pandas())
    fast = getattr(pd.CategoricalDtype, "_from_fastpath", None) if unique else None
    dtype = fast(categories, ordered=False) if fast else pd.CategoricalDtype(categories, ordered=False)
    return pd.Categorical.from_codes(codes, dtype=dtype, validate=False)  # the indices are in range


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
    chunks = column.chunks
    return _unified([_values(c, len(c.dictionary)) for c in chunks], [c.dictionary for c in chunks])


def _unified(indices: list[np.ndarray], dictionaries: list[pa.Array], groups: list[int] | None = None,
             out: np.ndarray | None = None) -> tuple[pa.Array, np.ndarray]:
    """Pieces of a dictionary column (each piece's ``indices``, a null as its dictionary's length, into its
    ``dictionaries``) as :func:`_codes` gives them: the values, each once, first seen first, and every row's index
    into them (in ``out``, int32, when given: it may be the pieces' own memory, one after another). Each distinct
    dictionary is hashed once; with ``groups`` (each piece's), the dictionaries of one
    group with those of that group only: the caller knows no value lies in two groups (then, the groups coming one
    after another, the values are in the same order as hashed all together).

    >>> values, codes = _unified([np.array([0, 2]), np.array([1])], [pa.array(["a", "b"])] * 2, [0, 0])
    >>> values.to_pylist(), codes.tolist()
    (['a', 'b'], [0, -1, 1])
    """
    import pyarrow.compute as pc

    seen: dict[tuple, int] = {}
    distinct: list[pa.Array] = []
    which: list[int] = []
    of: list[int] = []  # each distinct dictionary's group
    for d, group in zip(dictionaries, groups or [0] * len(dictionaries), strict=True):
        same = (group, d.offset, len(d), *(b.address if b is not None else 0 for b in d.buffers()))
        if same not in seen:
            seen[same] = len(distinct)
            distinct.append(d)
            of.append(group)
        which.append(seen[same])
    # each group's dictionaries hashed together; a smaller hash table stays in the cache (a group's values follow
    # the previous group's)
    maps: list[np.ndarray] = [np.empty(0, np.int32)] * len(distinct)
    values: list[pa.Array] = []
    offset = 0
    for group in dict.fromkeys(of):
        members = [i for i, g in enumerate(of) if g == group]
        joined = pa.concat_arrays([distinct[i] for i in members])
        encoded = pc.dictionary_encode(joined)
        # where each dictionary's values went (a null value: a missing row, as Arrow reads one chunk); a last -1
        # for the null rows' fill
        to = _values(encoded.indices, -1 - offset).astype(np.int32, copy=False) + np.int32(offset)
        start = 0
        for i in members:
            maps[i] = np.append(to[start:start + len(distinct[i])], np.int32(-1))
            start += len(distinct[i])
        values.append(encoded.dictionary)
        offset += len(encoded.dictionary)
    codes = np.empty(sum(len(i) for i in indices), dtype=np.int32) if out is None else out
    at = 0
    for piece, k in zip(indices, which, strict=True):
        np.take(maps[k], piece, out=codes[at:at + len(piece)], mode="clip")
        at += len(piece)
    return (pa.concat_arrays(values) if len(values) > 1 else values[0]), codes
