"""Writing and opening event lakes: day-partitioned Parquet folders in the :mod:`~workbench.tracking.schema` layout.

Writers keep memory bounded by the size of one chunk, never by the size of the lake:

- :func:`write_synth_lake` draws synthetic traffic one chunk of whole sessions at a
  time (chunk ``i`` is seeded by ``(seed, i)``, so the same arguments give the same
  files) and writes chunk ``i`` as ``date=*/part-i.parquet``;
- :class:`LakeWriter` takes event tables in any order (the export of the local
  service) and puts each session in bucket ``hash(sessionId) % buckets``, buffering a
  bounded number of rows.

Both write every file the same way (:data:`PARQUET_OPTIONS`, :func:`compact`): zstd, times
as sorted deltas, each dictionary column holding only the values its file uses.
Both number the visitors too: each file holds ``visitorNumber`` beside ``visitorId``, the
visitor's one number in the lake from the lake's table ``_visitor_numbers.arrow``
(:mod:`~workbench.tracking.visitor_numbers`: appended under a lock, replaced atomically),
and each file's footer is stamped with the state of the table its numbers came from: readers
trust the numbers of a file whose stamp the lake's table lists, and read the ids when one
file's is not.

:func:`read_events` opens a lake (or one Parquet or JSON-lines file) as a Dask
DataFrame. For a lake whose note promises session buckets it makes one partition per
bucket, indexed by :data:`SESSION_PART` with known divisions, which tells the analysis
functions that sessions are whole in every partition.

>>> import tempfile, pathlib
>>> lake = write_synth_lake(pathlib.Path(tempfile.mkdtemp()) / "lake", 3_000, seed=1, chunk_events=1_000)
>>> sorted(p.name for p in lake.glob("date=2026-11-01/*"))
['part-00000.parquet', 'part-00001.parquet', 'part-00002.parquet']
>>> ddf = read_events(lake)
>>> ddf.npartitions, len(ddf)
(3, 3000)
"""

from __future__ import annotations

import contextlib
import functools
import json
import os
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from .schema import LAKE_NOTE, PART_FORMAT, PAYLOAD_FIELDS, SCHEMA, empty_frame, lake_note, to_table
from .visitor_numbers import STAMP, VISITOR_NUMBER, VisitorNumbers, holds_numbers_of, lake_stamps

__all__ = ["write_synth_lake", "LakeWriter", "lake_from_parquet", "unfit_values", "read_events", "lake_files", "rows_of",
           "SESSION_PART", "VISITOR_PART", "VISITOR_NUMBER", "synth_table", "promises_visitor_numbers"]

#: Index name of a Dask frame whose partitions each hold whole sessions.
SESSION_PART = "_session_part"
#: Index name of a Dask frame whose partitions each hold whole visitors (``visitorId``), hence whole sessions.
VISITOR_PART = "_visitor_part"
_MS_PER_DAY = 86_400_000


# --------------------------------------------------------------------------
# Writing
# --------------------------------------------------------------------------

def _day_slices(table: pa.Table):
    """(date text, slice) per UTC day of a table sorted by timestamp."""
    if not table.num_rows:
        return
    ms = table.column("timestamp").cast(pa.int64()).to_numpy()
    day = ms // _MS_PER_DAY
    bounds = np.flatnonzero(np.r_[True, day[1:] != day[:-1], True])
    for lo, hi in zip(bounds[:-1], bounds[1:], strict=True):
        date = np.datetime_as_string(np.datetime64(int(day[lo]), "D"))
        yield date, table.slice(int(lo), int(hi - lo))


def filesystem(path: str | os.PathLike, storage_options: dict | None = None):
    """(fsspec filesystem, path inside it) for a local path or a URL (``s3://bucket/lake`` through s3fs, ...).

    >>> filesystem("/tmp/lake")[1]
    '/tmp/lake'
    """
    from fsspec.core import url_to_fs

    fs, root = url_to_fs(os.fspath(path), **(storage_options or {}))
    return fs, root.rstrip("/")


def _is_url(path) -> bool:
    return "://" in os.fspath(path)


def compact(table: pa.Table) -> pa.Table:
    """``table`` with each dictionary column holding only the values its rows use, in order of first use.

    A slice of a table keeps the whole table's dictionary, and Parquet stores a column's
    dictionary in each row group: a day's file of one bucket held every visitor id of its
    input chunk (36,590 of them in each of the 1M lake's seven files, when a day has about
    6,700), and reading the lake decoded and matched them all seven times.

    >>> t = pa.table({"k": pa.array(["a", "b", "c"]).dictionary_encode()}).slice(1, 1)
    >>> t.column("k").chunk(0).dictionary.to_pylist(), compact(t).column("k").chunk(0).dictionary.to_pylist()
    (['a', 'b', 'c'], ['b'])
    """
    import pyarrow.compute as pc

    for i, field in enumerate(table.schema):
        if pa.types.is_dictionary(field.type):
            values = table.column(i).combine_chunks().dictionary_decode()
            table = table.set_column(i, field, pc.dictionary_encode(values).cast(field.type))
    return table


#: How every lake file is written. Times (sorted within a file) as deltas, not a dictionary: on the 1M lake a
#: third of the bytes and a third of the time to read (a dictionary of mostly distinct values overflows and
#: falls back to plain pages); every other column keeps Parquet's dictionary.
_TIMES = [f.name for f in SCHEMA if pa.types.is_timestamp(f.type)]
PARQUET_OPTIONS = {"compression": "zstd", "use_dictionary": [n for n in SCHEMA.names if n not in _TIMES],
                   "column_encoding": {n: "DELTA_BINARY_PACKED" for n in _TIMES}}


def _write(table: pa.Table, fs, path: str) -> None:
    fs.makedirs(path.rsplit("/", 1)[0], exist_ok=True)
    with fs.open(path, "wb") as fh:
        # no timestamps or writer-specific text beyond the version: the same input gives the same bytes
        pq.write_table(compact(table), fh, row_group_size=1 << 20, **_options(table.column_names))


def _options(names: list[str]) -> dict:
    """:data:`PARQUET_OPTIONS` for a file of the columns ``names``: the visitor numbers, when there, uncompressed.
    zstd only halves a file's numbers (its visitors' in time order, nearly random), and uncompressed, reading
    them is a copy: at 1M events the scan of stickiness's three columns took 20 ms of CPU, not 26, for 2 MB
    more on disk (16 MB against 14)."""
    if VISITOR_NUMBER not in names:
        return PARQUET_OPTIONS
    codec = PARQUET_OPTIONS["compression"]
    return {**PARQUET_OPTIONS, "compression": {n: "none" if n == VISITOR_NUMBER else codec for n in names}}


def _start_lake(out, overwrite: bool, storage_options: dict | None = None):
    """(filesystem, root) of a new, empty lake folder at ``out``."""
    fs, root = filesystem(out, storage_options)
    if fs.exists(root) and fs.ls(root):
        if not overwrite:
            raise FileExistsError(f"lake: {out} is not empty; pass overwrite=True (--overwrite) to replace it")
        fs.rm(root, recursive=True)
    fs.makedirs(root, exist_ok=True)
    return fs, root


def _finish(fs, root: str, unique_ids: bool = False, visitor_buckets: bool = True) -> None:
    with fs.open(f"{root}/{LAKE_NOTE}", "w", encoding="utf-8") as fh:
        fh.write(lake_note(session_buckets=True, visitor_buckets=visitor_buckets, unique_ids=unique_ids))


def synth_table(df) -> pa.Table:
    """A :func:`~workbench.tracking.synth.generate` ``flat=True`` frame in the lake's schema.

    Catalog fields keep their ``payload.<field>`` columns; the rest (the custom key's
    ``sku``, ``qty``) becomes the ``payload`` JSON text of the rows that carry it.
    """
    import pandas as pd

    cols: dict[str, Any] = {name: df[name] for name in ("viewerToken", "sessionId", "visitorId", "key", "id")
                            if name in df.columns}
    cols["timestamp"] = pa.array(df["timestamp"], type=pa.timestamp("ns", tz="UTC")).cast(pa.timestamp("ms", tz="UTC"))
    for name in PAYLOAD_FIELDS:
        column = f"payload.{name}"
        if column in df.columns:
            values = df[column]
            cols[column] = values.astype(object).where(values.notna(), None) if isinstance(
                values.dtype, pd.BooleanDtype) else values
    rest = [c for c in df.columns if c.startswith("payload.") and c[len("payload."):] not in PAYLOAD_FIELDS]
    text = np.full(len(df), None, dtype=object)
    if rest:
        present = df[rest].notna().any(axis=1).to_numpy()
        rows = np.flatnonzero(present)
        names = [c[len("payload."):] for c in rest]
        values = [df[c].to_numpy(dtype=object)[rows] for c in rest]
        for i, vals in zip(rows, zip(*values, strict=True), strict=True):
            # numbers drawn as floats (qty) are whole: write them as JSON integers, as a sender would
            obj = {n: (int(v) if isinstance(v, float) and v.is_integer() else v)
                   for n, v in zip(names, vals, strict=True) if not pd.isna(v)}
            text[i] = json.dumps(obj, separators=(",", ":"), sort_keys=True)
    cols["payload"] = pa.array(text, type=pa.string())
    return to_table(cols)


def write_synth_lake(out: str | os.PathLike, n_events: int, *, seed: int = 0, chunk_events: int = 2_000_000,
                     viewers: int = 5, start: str = "2026-11-01T00:00:00Z", days: int = 7,
                     overwrite: bool = False, progress=None, storage_options: dict | None = None,
                     experiment_start: str | None = None) -> Path | str:
    """Write ``n_events`` synthetic events as a lake at ``out``, one chunk of whole sessions at a time.

    Peak memory follows ``chunk_events`` (about 1.3 GB at the default 2 million), not
    ``n_events``. Chunk ``i`` becomes ``date=*/part-i.parquet``: its sessions are drawn
    with ``numpy.random.default_rng([seed, i])`` and share the viewer tokens of ``seed``.
    A chunk holds whole visitors too (returns are drawn within it), so the lake is bucketed
    by visitor. ``progress`` (optional) is called with the number of events written so far.
    ``out`` may be an fsspec URL (``s3://bucket/lake``). ``experiment_start``: the synthetic
    experiment's start, with visitors' behaviour before it predicting their behaviour during
    it (:mod:`~workbench.tracking.synth`, 8.). Returns the lake's path (its URL for one).

    >>> import tempfile, pathlib
    >>> lake = write_synth_lake(pathlib.Path(tempfile.mkdtemp()) / "l", 500, seed=2)
    >>> json.loads((lake / "_workbench_lake.json").read_text())["session_buckets"]
    True
    """
    import pandas as pd

    from .synth import _draw, _hex_ids, experiment_ms

    if n_events < 0:
        raise ValueError("write_synth_lake: n_events must be >= 0")
    if chunk_events < 1:
        raise ValueError("write_synth_lake: chunk_events must be >= 1")
    fs, root = _start_lake(out, overwrite, storage_options)
    tokens = _hex_ids(np.random.default_rng(seed), viewers, "vt_", 12)
    start_ms = int(pd.Timestamp(start).tz_convert("UTC").value // 1_000_000)
    done, part, numbers = 0, 0, VisitorNumbers(fs, root)
    while done < n_events:
        n = min(chunk_events, n_events - done)
        df = _draw(np.random.default_rng([seed, part]), n, tokens, start_ms, days, flat=True,
                   experiment=experiment_ms(experiment_start))
        table = numbers.add(synth_table(df))
        del df
        for date, piece in _day_slices(table):
            _write(piece, fs, f"{root}/date={date}/{PART_FORMAT.format(part)}")
        done += n
        part += 1
        if progress is not None:
            progress(done)
    _finish(fs, root, unique_ids=True)  # synth numbers each session's events: its ids never repeat
    return os.fspath(out) if _is_url(out) else Path(out)


class LakeWriter:
    """Append event tables (in :data:`~workbench.tracking.schema.SCHEMA`) to a new lake, by day and session bucket.

    Rows are buffered up to ``buffer_rows`` in all, then each (day, bucket) buffer is
    appended to its open Parquet file as a row group, so memory stays bounded by the buffer
    and a table of the sessions seen (16 bytes each). A session's bucket is fixed when it is
    first seen: ``hash(visitorId) % buckets`` (pandas' stable hash) when one of its events in
    that table has a visitor, else ``hash(sessionId)``; every later event of the session goes
    there too, so a session is always whole in one part number. A visitor's sessions share
    its bucket, unless one of them was first seen anonymous (its visitor named only later)
    or carries two visitors: the lake's note then promises whole sessions only, and the
    analysis shuffles by visitor where it needs to. ``out`` may be an fsspec URL.

    >>> import tempfile, pathlib
    >>> from workbench.tracking.schema import from_records
    >>> with LakeWriter(pathlib.Path(tempfile.mkdtemp()) / "x", buckets=2) as w:
    ...     w.write(from_records([{"sessionId": "s", "key": "heartbeat", "timestamp": 0, "payload": {"visible": True}}]))
    >>> w.rows
    1
    """

    def __init__(self, out: str | os.PathLike, *, buckets: int = 8, buffer_rows: int = 200_000,
                 overwrite: bool = False, storage_options: dict | None = None):
        if buckets < 1:
            raise ValueError("LakeWriter: buckets must be >= 1")
        self.fs, self.root = _start_lake(out, overwrite, storage_options)
        self.out = os.fspath(out) if _is_url(out) else Path(out)
        self._files: list = []
        self.buckets = buckets
        self.buffer_rows = buffer_rows
        self.rows = 0
        self._pending: dict[tuple[str, int], list[pa.Table]] = {}
        self._pending_rows = 0
        self._writers: dict[tuple[str, int], pq.ParquetWriter] = {}
        import pandas as pd

        self._sessions = pd.Series([], dtype=np.int64, index=pd.Index([], dtype=np.uint64))  # hash -> bucket
        self._numbers = VisitorNumbers(self.fs, self.root)
        self.visitors_whole = True

    def write(self, table: pa.Table) -> None:
        """Add events; they need not be sorted."""
        if not table.num_rows:
            return
        table = self._numbers.add(table.select(SCHEMA.names).cast(SCHEMA))
        bucket = self._buckets(table.column("sessionId").to_pandas(), table.column("visitorId").to_pandas())
        day = table.column("timestamp").cast(pa.int64()).to_numpy(zero_copy_only=False) // _MS_PER_DAY
        key = day * self.buckets + bucket
        order = np.argsort(key, kind="stable")
        key = key[order]
        table = table.take(pa.array(order))
        bounds = np.flatnonzero(np.r_[True, key[1:] != key[:-1], True])
        for lo, hi in zip(bounds[:-1], bounds[1:], strict=True):
            d, b = divmod(int(key[lo]), self.buckets)
            date = np.datetime_as_string(np.datetime64(d, "D"))
            self._pending.setdefault((date, b), []).append(table.slice(int(lo), int(hi - lo)))
        self.rows += table.num_rows
        self._pending_rows += table.num_rows
        if self._pending_rows >= self.buffer_rows:
            self.flush()

    def _buckets(self, session, visitor) -> np.ndarray:
        """Each row's bucket: its session's, fixed when the session was first seen (see the class)."""
        import pandas as pd

        def hashed(values) -> np.ndarray:
            return pd.util.hash_pandas_object(pd.Series(values, dtype=object), index=False).to_numpy()

        codes, sessions = pd.factorize(session.astype(object))
        per = pd.DataFrame({"s": codes, "v": visitor.astype(object)}).groupby("s", sort=True)["v"]
        named, several = per.first().to_numpy(dtype=object), per.nunique().to_numpy()
        has = pd.notna(named)
        fresh = (hashed(np.where(has, named, np.asarray(sessions, dtype=object))) % np.uint64(self.buckets))
        fresh = fresh.astype(np.int64)
        key = hashed(sessions)
        known = self._sessions.reindex(key).to_numpy(dtype=np.float64)
        seen = ~np.isnan(known)
        bucket = np.where(seen, np.nan_to_num(known).astype(np.int64), fresh)
        # a visitor's session kept in a bucket that is not its visitor's, or a session with two visitors
        if (several > 1).any() or (seen & has & (bucket != fresh)).any():
            self.visitors_whole = False
        if (~seen).any():
            self._sessions = pd.concat([self._sessions, pd.Series(fresh[~seen], index=pd.Index(key[~seen]))])
        return bucket[codes]

    def flush(self) -> None:
        for (date, b), pieces in sorted(self._pending.items()):
            writer = self._writers.get((date, b))
            if writer is None:
                folder = f"{self.root}/date={date}"
                self.fs.makedirs(folder, exist_ok=True)
                fh = self.fs.open(f"{folder}/{PART_FORMAT.format(b)}", "wb")
                self._files.append(fh)
            # within a file, keep time order (the export arrives sorted; other input may not)
            piece = pa.concat_tables(pieces)
            if writer is None:  # stamped when closed, by the table as the numbers of all its row groups left it
                schema = piece.schema.remove_metadata()
                writer = self._writers[(date, b)] = pq.ParquetWriter(fh, schema, **_options(schema.names))
            writer.write_table(compact(piece.sort_by([("timestamp", "ascending")])))
        self._pending.clear()
        self._pending_rows = 0

    def close(self) -> None:
        self.flush()
        for w in self._writers.values():
            if VISITOR_NUMBER in w.schema.names:
                w.add_key_value_metadata({STAMP: self._numbers.stamp})
            w.close()
        for fh in self._files:
            fh.close()
        self._writers.clear()
        self._files.clear()
        _finish(self.fs, self.root, visitor_buckets=self.visitors_whole)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def lake_from_parquet(source: str | os.PathLike, out: str | os.PathLike, *, buckets: int = 8,
                      batch_rows: int = 100_000, overwrite: bool = False,
                      storage_options: dict | None = None) -> tuple[Path | str, int]:
    """Split one Parquet file in the lake's schema (the service's ``format=parquet`` export) into a lake.

    Reads ``batch_rows`` at a time, so memory stays bounded. Returns (lake path, rows).

    >>> import tempfile, pathlib
    >>> from workbench.tracking.schema import from_records
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> pq.write_table(from_records([{"sessionId": "s", "key": "heartbeat", "timestamp": 0,
    ...                               "payload": {"visible": True}}]), d / "e.parquet")
    >>> lake_from_parquet(d / "e.parquet", d / "lake")[1]
    1
    """
    parquet = pq.ParquetFile(source)
    with LakeWriter(out, buckets=buckets, overwrite=overwrite, storage_options=storage_options) as w:
        for batch in parquet.iter_batches(batch_size=batch_rows):
            w.write(pa.Table.from_batches([batch]))
    return w.out, w.rows


# The Parquet footer's key-value entry where the service's export lists the stored values a column could
# not hold (JSON: {"count": N, "values": [the first few: {"row", "id", "key", "field", "problem"}]}).
UNFIT_METADATA_KEY = "workbench.unfit"


def unfit_values(source: str | os.PathLike) -> dict | None:
    """What the service's Parquet export noted in its footer as stored values its columns could not hold
    (``{"count", "values": [{"row", "id", "key", "field", "problem"}, ...]}``), or None when all fit.

    >>> import tempfile, pathlib
    >>> from workbench.tracking.schema import from_records
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> pq.write_table(from_records([{"sessionId": "s", "key": "heartbeat", "timestamp": 0}]), d / "e.parquet")
    >>> unfit_values(d / "e.parquet") is None
    True
    """
    note = (pq.read_metadata(source).metadata or {}).get(UNFIT_METADATA_KEY.encode())
    return json.loads(note) if note else None


# --------------------------------------------------------------------------
# Reading
# --------------------------------------------------------------------------

def lake_files(path: str | os.PathLike, storage_options: dict | None = None) -> dict[int, list[str]]:
    """The Parquet files of a lake by part number (bucket), each list in date order (paths inside its filesystem).

    >>> import tempfile, pathlib
    >>> lake = write_synth_lake(pathlib.Path(tempfile.mkdtemp()) / "l", 10, seed=1)
    >>> all(p.endswith("/part-00000.parquet") for p in lake_files(lake)[0])
    True
    """
    fs, root = filesystem(path, storage_options)
    parts: dict[int, list[str]] = {}
    for f in sorted(fs.glob(f"{root}/date=*/part-*.parquet")):
        number = int(f.rsplit("/", 1)[1].split("-")[1].split(".")[0])
        parts.setdefault(number, []).append(f)
    return dict(sorted(parts.items()))


def _read_bucket(item: tuple, columns: list[str] | None = None):
    """One bucket (its files across all days) as a pandas frame indexed by its number (:data:`VISITOR_PART`
    or :data:`SESSION_PART`, ``index_name``).

    The item names the columns :func:`read_events` was asked for (None: all); the ``columns``
    keyword lets Dask push a later selection down into the Parquet read.
    """
    number, files, fs, index_name, unique_ids, asked = item
    read = list(columns) if columns is not None else list(asked or SCHEMA.names)
    return _bucket_frame(item, lambda f: _read_file(fs, f, read), pa.Table.to_pandas)


def _bucket_frame(item: tuple, read_file, to_pandas):
    """The frame of one bucket ``item`` (see :func:`_read_bucket`): ``read_file`` of each of its files (an Arrow
    table), joined, made pandas by ``to_pandas`` and indexed by the bucket's number.

    >>> item = (3, ["a", "b"], None, VISITOR_PART, True, None)
    >>> df = _bucket_frame(item, lambda f: pa.table({"f": [f, f]}), pa.Table.to_pandas)
    >>> df["f"].tolist(), df.index.tolist(), df.index.name, df.attrs
    (['a', 'a', 'b', 'b'], [3, 3, 3, 3], '_visitor_part', {'unique_ids': True})
    """
    import pandas as pd

    number, files, _, index_name, unique_ids, _ = item
    if len(files) > 1:  # a bucket's day files read side by side: Arrow's reader (and numpy) let go of the GIL
        from concurrent.futures import ThreadPoolExecutor

        with ThreadPoolExecutor(min(len(files), os.cpu_count() or 1)) as pool:
            tables = list(pool.map(read_file, files))
    else:
        tables = [read_file(f) for f in files]
    df = to_pandas(pa.concat_tables(tables))
    # every row holds the bucket's number: one value seen len(df) times, no memory (an 8 MB array of it cost
    # as much as the retention pass on a fresh process's first call)
    df.index = pd.Index(np.broadcast_to(np.int64(number), len(df)), name=index_name, copy=False)
    if unique_ids:  # the lake's note promises it: the analysis need not hash every id to find repeats
        df.attrs["unique_ids"] = True
    return df


#: The lake's columns as read: ``sessionId`` (a string in the files, dictionary-encoded there) comes back as a
#: dictionary, so a frame holds a categorical whose codes the analysis groups by: on the 1M lake reading and
#: grouping sessions took half the time of hashing a million strings.
READ_SCHEMA = pa.schema([f.with_type(pa.dictionary(pa.int32(), pa.string())) if f.name == "sessionId" else f
                         for f in SCHEMA])


def _read_file(fs, path: str, columns: list[str]) -> pa.Table:
    """One lake file in :data:`READ_SCHEMA`: a column it lacks (``visitorId`` in a lake written before it) is null.

    A local file is read by Arrow itself (its own I/O is about twice as fast as through a Python
    file object); one in object storage through its fsspec filesystem.
    """
    local = "file" in (fs.protocol if isinstance(fs.protocol, (tuple, list)) else (fs.protocol,))
    as_dictionary = [c for c in columns if pa.types.is_dictionary(READ_SCHEMA.field(c).type)]
    with contextlib.nullcontext(path) if local else fs.open(path, "rb") as source:
        pf = pq.ParquetFile(source, read_dictionary=as_dictionary)
        table = pf.read(columns=[c for c in columns if c in pf.schema_arrow.names])
    for name in columns:
        if name not in table.column_names:
            table = table.append_column(READ_SCHEMA.field(name), pa.nulls(table.num_rows, READ_SCHEMA.field(name).type))
    return table.select(columns).cast(pa.schema([READ_SCHEMA.field(c) for c in columns]))


#: Rows of each frame :func:`read_events` made, by the name of its expression: the dispatcher reads it
#: (:func:`rows_of`) to run a lake that fits in memory in this process.
_ROWS: dict[str, int] = {}


def rows_of(ddf) -> int | None:
    """How many rows the files under a Dask frame hold (from their Parquet footers), when read_events made
    it; a frame made from pandas (``from_pandas``) holds its rows in this process already: 0. None when unknown.

    >>> import tempfile, pathlib
    >>> rows_of(read_events(write_synth_lake(pathlib.Path(tempfile.mkdtemp()) / "l", 100, seed=1))["key"])
    100
    """
    expr = getattr(ddf, "expr", None)
    if expr is None:
        return None
    total, known = 0, False
    for e in expr.walk():
        if e._name in _ROWS:
            total, known = total + _ROWS[e._name], True
        elif type(e).__name__ == "FromPandas":
            known = True
    return total if known else None


def _footer_rows(fs, files: Iterable[str]) -> int:
    """Rows of Parquet files from their footers alone (no data read); a local file's count is kept for
    :func:`file_rows`."""
    return _footers(fs, files)[0]


def _footers(fs, files: Iterable[str], stamps: frozenset[str] | None = None) -> tuple[int, bool]:
    """(rows, whether every file holds visitor numbers of the lake's table, which lists ``stamps``:
    :func:`~.visitor_numbers.holds_numbers_of`) of Parquet files, from their footers alone."""
    local = "file" in (fs.protocol if isinstance(fs.protocol, (tuple, list)) else (fs.protocol,))
    rows, numbered = 0, stamps is not None
    for f in files:
        with contextlib.nullcontext(f) if local else fs.open(f, "rb") as source:
            metadata = pq.ParquetFile(source).metadata
        n = metadata.num_rows
        numbered = numbered and holds_numbers_of(metadata, stamps)
        if local:
            _FILE_ROWS[f] = (_signature(f), n)
        rows += n
    return rows, numbered


#: Rows of the local lake files read_events counted, by path: (the file's size and time of change, rows).
_FILE_ROWS: dict[str, tuple[tuple[int, int], int]] = {}


def _signature(path: str) -> tuple[int, int]:
    stat = os.stat(path)
    return stat.st_size, stat.st_mtime_ns


def file_rows(path: str) -> int | None:
    """The rows of a local lake file :func:`read_events` counted from its footer, if it has not changed since (else
    None): a question that reads the file again need not open its footer a second time (at 1M events, 7 footers
    took 4 to 7 ms of CPU, a tenth of a question).

    >>> import tempfile, pathlib
    >>> lake = write_synth_lake(pathlib.Path(tempfile.mkdtemp()) / "l", 100, seed=1)
    >>> _ = read_events(lake)
    >>> file_rows(lake_files(lake)[0][0]) > 0, file_rows("/no/such/file.parquet")
    (True, None)
    """
    kept = _FILE_ROWS.get(path)
    if kept is None:
        return None
    try:
        return kept[1] if _signature(path) == kept[0] else None
    except OSError:
        return None


def _noted(ddf, rows: int):
    _ROWS[ddf.expr._name] = rows
    return ddf


#: The Dask reads (by expression name) of lakes whose note promises that no event id repeats.
_UNIQUE: set[str] = set()
#: The verdict of the last read of each lake (by expression name) on its visitor numbers
#: (:func:`promises_visitor_numbers`): whether every file held them, and each file's (path, size, time of change)
#: then. Stored on every read, True or False: the name is a token of the paths, not of the files' contents, so a file
#: replaced at its own path gives the same name, and a changed signature voids the verdict.
_NUMBERED: dict[str, tuple[bool, tuple[tuple[str, tuple[int, int]], ...]]] = {}
#: The bucket items of each Dask read of a lake (by expression name), for :mod:`.lake_rows` to read again narrowed.
_BUCKETS: dict[str, list[tuple]] = {}


def _sources(ddf) -> list:
    return [e for e in ddf.expr.walk() if not e.dependencies()]


def promises_unique_ids(ddf) -> bool:
    """Whether every source of a Dask frame is a lake whose note promises that no event ``id`` repeats (a
    question that does not order by id then need not read it).

    >>> import tempfile, pathlib
    >>> promises_unique_ids(read_events(write_synth_lake(pathlib.Path(tempfile.mkdtemp()) / "l", 10, seed=1)))
    True
    """
    return _every_source(ddf, _UNIQUE.__contains__)


def _every_source(ddf, holds) -> bool:
    """Whether ``ddf`` is a Dask frame of lake reads and ``holds`` (of a read's expression name) for each of them."""
    if getattr(ddf, "expr", None) is None:
        return False
    sources = _sources(ddf)
    return bool(sources) and all(holds(e._name) for e in sources)


def promises_visitor_numbers(ddf) -> bool:
    """Whether every source of a Dask frame is a lake every file of which holds the visitor numbers
    (:data:`VISITOR_NUMBER`, :mod:`.visitor_numbers`), as its footers said when :func:`read_events` opened it; a lake
    with one file written before the numbers or dropped in by hand, or any other input, does not (read by the ids).

    >>> import tempfile, pathlib
    >>> promises_visitor_numbers(read_events(write_synth_lake(pathlib.Path(tempfile.mkdtemp()) / "l", 10, seed=1)))
    True
    """
    return _every_source(ddf, lambda name: _still_numbered(_NUMBERED.get(name)))


def _still_numbered(verdict: tuple | None) -> bool:
    """Whether a read's verdict (:data:`_NUMBERED`) said numbered and none of its files changed since."""
    if verdict is None or not verdict[0]:
        return False
    try:
        return all(_signature(f) == signature for f, signature in verdict[1])
    except OSError:
        return False


def read_events(path: str | os.PathLike, columns: Iterable[str] | None = None, storage_options: dict | None = None):
    """Events as a Dask DataFrame: a lake folder, one ``.parquet`` file, or one ``.jsonl`` export, local or at an
    fsspec URL (``s3://bucket/lake``; ``storage_options`` go to its filesystem).

    A lake written by workbench (its ``_workbench_lake.json`` promises buckets) gives one
    partition per bucket, index :data:`VISITOR_PART` (whole visitors, hence whole
    sessions) or, for a lake written before visitors, :data:`SESSION_PART`, divisions
    known: the analysis functions then run without a shuffle. Its columns are typed by
    :data:`READ_SCHEMA` (``sessionId`` and the dictionary columns as categoricals). Any other input is read with
    ``dask.dataframe.read_parquet`` / our JSON-lines reader and shuffled by group where an
    analysis needs it. ``columns`` limits what is read.

    >>> import tempfile, pathlib
    >>> lake = write_synth_lake(pathlib.Path(tempfile.mkdtemp()) / "l", 100, seed=1)
    >>> list(read_events(lake, columns=["sessionId", "key"]).columns)
    ['sessionId', 'key']
    """
    import dask.dataframe as dd

    fs, root = filesystem(path, storage_options)
    columns = list(columns) if columns is not None else None
    if fs.isdir(root):
        note_path = f"{root}/{LAKE_NOTE}"
        note = json.loads(fs.cat_file(note_path).decode("utf-8")) if fs.exists(note_path) else {}
        if note.get("session_buckets"):
            parts = lake_files(path, storage_options)
            if not parts:
                raise FileNotFoundError(f"read_events: no date=*/part-*.parquet files under {path}")
            numbers = list(parts)
            index_name = VISITOR_PART if note.get("visitor_buckets") else SESSION_PART
            unique_ids = bool(note.get("unique_ids"))
            asked = tuple(columns) if columns is not None else None
            items = [(n, parts[n], fs, index_name, unique_ids, asked) for n in numbers]
            ddf = dd.from_map(_read_bucket, items, meta=_meta(asked, index_name),
                              divisions=tuple(numbers) + (numbers[-1],), label="read-lake")
            _BUCKETS.update((e._name, items) for e in _sources(ddf))
            if unique_ids:
                _UNIQUE.update(e._name for e in _sources(ddf))
            # every file's footer, read now: one written before the numbers (or their stamps), dropped in by hand,
            # or copied from another lake holds none of this lake's table's (which only a local lake has)
            files = [f for n in numbers for f in parts[n]]
            rows, numbered = _footers(fs, files, lake_stamps(root, fs))
            signatures = tuple((f, _FILE_ROWS[f][0]) for f in files) if numbered else ()
            _NUMBERED.update((e._name, (numbered, signatures)) for e in _sources(ddf))
            return _noted(ddf, rows)
        ddf = dd.read_parquet(os.fspath(path), columns=columns, dataset={"partitioning": "hive"},
                              storage_options=storage_options)
        return _noted(ddf, _footer_rows(fs, fs.glob(f"{root}/**/*.parquet")))
    suffix = os.path.splitext(root)[1].lower()
    if suffix == ".parquet":
        return _noted(dd.read_parquet(os.fspath(path), columns=columns, storage_options=storage_options),
                      _footer_rows(fs, [root]))
    if suffix in (".jsonl", ".ndjson", ".json"):
        from dask import delayed
        from dask.bytes import read_bytes

        # blocks of whole lines, parsed by our schema (dask's read_json would turn payload dicts into text)
        _, blocks = read_bytes(os.fspath(path), delimiter=b"\n", blocksize=64 * 2**20, **(storage_options or {}))
        meta = empty_frame()  # the lines' own schema: sessionId as text
        ddf = dd.from_delayed([delayed(_lines_to_frame)(b, os.fspath(path), i) for i, b in enumerate(blocks[0])],
                              meta=meta, verify_meta=False)
        # an exported event takes about 200 bytes of JSON: a hint for the dispatcher, not a count
        return _noted(ddf[columns] if columns is not None else ddf, fs.size(root) // 200)
    raise ValueError(f"read_events: {os.fspath(path)!r} is not a lake folder, .parquet or .jsonl file")


def _meta(columns: tuple | None, index_name: str):
    """The zero-row frame of ``columns`` (None: all) indexed by ``index_name``: Dask's ``meta``."""
    return _empty_meta(columns, index_name).copy()


@functools.cache
def _empty_meta(columns: tuple | None, index_name: str):
    import pandas as pd

    unknown = [c for c in columns or () if c not in READ_SCHEMA.names]
    if unknown:
        raise KeyError(f"read_events: columns: {unknown} are not lake columns; the lake has {READ_SCHEMA.names}")
    # column by column: Arrow's first Table.to_pandas in a process sets up its pandas metadata machinery (15 to
    # 60 ms, a tenth of a question on a 1M lake); an array's conversion gives the same dtypes without it
    fields = [READ_SCHEMA.field(c) for c in columns or READ_SCHEMA.names]
    meta = pd.DataFrame({f.name: pa.chunked_array([], type=f.type).to_pandas() for f in fields},
                        index=pd.Index([], dtype=np.int64, name=index_name))
    return meta


def _lines_to_frame(block: bytes, path: str = "", part: int = 0):
    """One block of a JSON lines file as a frame in the lake's schema; ValueError naming the file and the
    line (of the block, after the first) that is not a JSON object."""
    from .schema import from_records

    records = []
    for n, line in enumerate(block.splitlines(), 1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except ValueError:
            record = None
        if not isinstance(record, dict):
            where = f"line {n}" if part == 0 else f"line {n} of its part {part + 1} (64 MiB each)"
            text = line[:60].decode("utf-8", "replace")
            raise ValueError(f"{path}: {where} is not a JSON object, as each line of a JSON lines file of events must be: "
                             f"{text!r}")
        records.append(record)
    return from_records(records).to_pandas()
