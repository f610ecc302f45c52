"""A lake's visitor numbers: each ``visitorId`` one int32 number for the life of the lake, kept in a table beside
its partitions, so every writer of the lake stores the same number for the same visitor.

The table is ``LAKE/_visitor_numbers.arrow`` (:data:`NUMBERS_FILE`, an Arrow IPC file: not ``*.parquet``, so a
glob of the lake's Parquet files, DuckDB's ``read_parquet('LAKE/**/*.parquet')`` among them, never meets it), two columns: ``visitorId`` (text) and
``visitorNumber`` (int32), row ``i`` numbered ``i``: numbers are 0, 1, 2, ... in the order the lake's writers met
their visitors, and a number is never given again, to the same visitor or another. Each lake file then holds
:data:`VISITOR_NUMBER` beside ``visitorId`` (null where the visitor is), which a question that only tells visitors
apart (stickiness, lifecycle) reads instead of the ids: integers, no strings to decode or hash.

A writer that meets visitors not in the table appends them under an exclusive lock on ``LAKE/_visitor_numbers.lock``
(``flock``: the system releases it when a writer dies): it reads the table as it is on disk (another writer may
have appended since), numbers the new visitors after the last, writes the whole table to a temporary file in the
lake's folder and renames it over the table (``os.replace``, atomic: a reader sees the old table or the new one,
never half of one). A writer that crashes before the rename leaves the table as it was and at most a stray
``._visitor_numbers.*.tmp`` (a name no reader of the lake lists); numbers it gave in the table but never wrote to a
file are simply unused. A lake in object storage (no lock, no atomic rename there) is written without numbers, and
its questions read the ids.

A number means a visitor only in the table that gave it: a file copied in from another lake (or a lake's files
mixed with another's) holds that lake's numbers, which here may name other visitors. So every file a writer numbers
is **stamped** (its Parquet footer's key-value metadata :data:`STAMP`) with the state of the table its numbers came
from, ``"N:DIGEST"``: the table's length N then, and a digest chained over its appends (each append's digest hashes
the one before and the visitors it added, in order), which names the table's first N rows exactly. The table keeps
the stamp of each of its appends (its schema's metadata :data:`STAMP`, a JSON list), and a reader trusts a file's
numbers only when its stamp is one of them (:func:`lake_stamps`, :func:`holds_numbers_of`): the file's numbers were
then given by this table's first N rows. One file without a stamp, or with a stamp of another table (another lake's,
or this lake's table deleted and made again in another order), and the lake's questions read the ids (the same
answer). The stamps hold no time and no random part: the same writes make the same bytes, and two lakes numbered
alike (the same synthetic lake twice) can share files, whose numbers then are right in both.

>>> import tempfile, pathlib, fsspec
>>> root = tempfile.mkdtemp()
>>> numbers = VisitorNumbers(fsspec.filesystem("file"), root)
>>> numbers.of(pa.array(["b", None, "a", "b"])).to_pylist()
[0, None, 1, 0]
>>> second = VisitorNumbers(fsspec.filesystem("file"), root)
>>> second.of(pa.array(["c", "a"])).to_pylist()
[2, 1]
>>> read_numbers(root).to_pydict()
{'visitorId': ['b', 'a', 'c'], 'visitorNumber': [0, 1, 2]}
>>> [s.split(":")[0] for s in sorted(lake_stamps(root))], numbers.stamp in lake_stamps(root), second.stamp[:2]
(['0', '2', '3'], True, '3:')
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import tempfile
from typing import Any

import numpy as np
import pyarrow as pa

__all__ = ["VISITOR_NUMBER", "NUMBERS_FILE", "STAMP", "VisitorNumbers", "read_numbers", "lake_stamps",
           "holds_numbers_of"]

#: The column beside ``visitorId`` in a lake's files: the visitor's number in the lake (int32; null where the
#: visitor is). Not a column of ``read_events``' frames; any Parquet reader sees it (DuckDB's ``SELECT *``).
VISITOR_NUMBER = "visitorNumber"
#: The lake's table of visitor numbers, at the lake's root: an Arrow IPC file (a name that Parquet datasets skip,
#: starting with ``_``, and no glob of ``*.parquet`` meets).
NUMBERS_FILE = "_visitor_numbers.arrow"
#: The metadata key of the stamps: in each numbered file's footer its own (``"N:DIGEST"``), in the table's schema the
#: JSON list of the stamps of its appends.
STAMP = "workbench.visitor_numbers"
_LOCK_FILE = "_visitor_numbers.lock"
#: The process's umask, read once: the table gets the mode every other file of the lake gets (0644 under 022). The
#: lock file is made with it too; a reader never opens it, a writer of another user needs to write it.
_UMASK = os.umask(0o022)
os.umask(_UMASK)
_TABLE_SCHEMA = pa.schema([pa.field("visitorId", pa.string()), pa.field(VISITOR_NUMBER, pa.int32())])
#: The stamp of the empty table, the first of every table's: a file whose rows have no visitor holds no number.
_EMPTY = "0:" + hashlib.blake2b(b"workbench visitor numbers", digest_size=16).hexdigest()


def _next(stamp: str, start: int, new) -> str:
    """The stamp after ``stamp`` (of a table of ``start`` rows) once the visitors ``new`` are appended in order."""
    added = pa.array(np.asarray(new, dtype=object), pa.string())
    digest = hashlib.blake2b(stamp.encode("ascii"), digest_size=16)
    for buffer in added.buffers()[1:]:  # the offsets (from 0: a fresh array) and the text: each visitor exactly
        if buffer is not None:
            digest.update(memoryview(buffer))
    return f"{start + len(added)}:{digest.hexdigest()}"


def _stamps_of(table: pa.Table) -> list[str]:
    """The table's stamps: as it lists them, or for a table written before them one stamp of its whole length."""
    listed = (table.schema.metadata or {}).get(STAMP.encode())
    if listed:
        return list(json.loads(listed))
    ids = table.column("visitorId").to_numpy(zero_copy_only=False)
    return [_EMPTY, _next(_EMPTY, 0, ids)] if len(ids) else [_EMPTY]


def lake_stamps(root: str | os.PathLike, fs: Any = None) -> frozenset[str] | None:
    """The stamps the table of the lake at ``root`` (of filesystem ``fs``; None: the local one) vouches for: the
    files whose stamp is one of them hold its numbers. None when the lake has no table (in object storage, or
    written before the numbers) or one that cannot be read (truncated, empty, not readable by this user): its
    questions then read the ids. A table written before the stamps lists one its files (unstamped) never hold.

    >>> import tempfile, pathlib, fsspec
    >>> root = pathlib.Path(tempfile.mkdtemp())
    >>> lake_stamps(root), sorted(lake_stamps(root) or ["-"])
    (None, ['-'])
    >>> numbers = VisitorNumbers(fsspec.filesystem("file"), str(root))
    >>> _ = numbers.of(pa.array(["a"]))
    >>> numbers.stamp in lake_stamps(root), len(lake_stamps(root))
    (True, 2)
    >>> _ = (root / NUMBERS_FILE).write_bytes(b"half a table")
    >>> lake_stamps(root) is None
    True
    """
    if fs is not None and not _local(fs):
        return None
    path = os.path.join(os.fspath(root), NUMBERS_FILE)
    if not os.path.exists(path):
        return None
    try:
        with pa.memory_map(path) as source:  # the file's footer: its schema, no batch read
            listed = (pa.ipc.open_file(source).schema.metadata or {}).get(STAMP.encode())
        return frozenset(json.loads(listed)) if listed else frozenset()
    except (OSError, pa.ArrowException, ValueError):  # unreadable, truncated, empty, not a table: read by the ids
        return None


def holds_numbers_of(metadata: Any, stamps: frozenset[str] | None) -> bool:
    """Whether a Parquet file's footer (``pyarrow.parquet.FileMetaData``) holds visitor numbers of the lake's table,
    which vouches for ``stamps`` (:func:`lake_stamps`): the column, and a stamp of that table (not another's, not
    none).

    >>> import io, pyarrow.parquet as pq
    >>> def footer(stamp):
    ...     sink = io.BytesIO()
    ...     table = pa.table({VISITOR_NUMBER: pa.array([0], pa.int32())})
    ...     pq.write_table(table.replace_schema_metadata({STAMP: stamp}), sink)
    ...     return pq.ParquetFile(io.BytesIO(sink.getvalue())).metadata
    >>> holds_numbers_of(footer("1:ab"), frozenset({"1:ab"})), holds_numbers_of(footer("1:cd"), frozenset({"1:ab"}))
    (True, False)
    >>> holds_numbers_of(footer("1:ab"), None)
    False
    """
    stamp = (metadata.metadata or {}).get(STAMP.encode())
    return (stamps is not None and stamp is not None and stamp.decode("ascii", "replace") in stamps
            and VISITOR_NUMBER in metadata.schema.names)


def read_numbers(root: str | os.PathLike) -> pa.Table:
    """The table of a local lake at ``root`` (empty when it numbers no visitor yet).

    >>> import tempfile, fsspec
    >>> root = tempfile.mkdtemp()
    >>> read_numbers(root).num_rows
    0
    >>> _ = VisitorNumbers(fsspec.filesystem("file"), root).of(pa.array(["x", "y", "x"]))
    >>> read_numbers(root).to_pydict()
    {'visitorId': ['x', 'y'], 'visitorNumber': [0, 1]}
    """
    path = os.path.join(os.fspath(root), NUMBERS_FILE)
    return _read(path) if os.path.exists(path) else _TABLE_SCHEMA.empty_table()


def _read(path: str) -> pa.Table:
    with pa.OSFile(path) as source:
        return pa.ipc.open_file(source).read_all()


def _local(fs) -> bool:
    return "file" in (fs.protocol if isinstance(fs.protocol, (tuple, list)) else (fs.protocol,))


class VisitorNumbers:
    """The visitor numbers of the lake at ``root`` of filesystem ``fs``, for one writer (see the module).

    ``enabled`` is False for a lake outside the local filesystem (its files then hold no numbers)."""

    def __init__(self, fs, root: str):
        self.enabled = _local(fs)
        self.root = root
        self.path = os.path.join(root, NUMBERS_FILE)
        # the known visitors: their numbers by id (a dict grown by each append, never rebuilt: a pandas Index made
        # again per append cost time quadratic in the appends, code review 23 M2) and their ids in number order
        self._known: dict[str, int] = {}
        self._ids: list[pa.Array] = []
        self._signature: tuple | None = None  # (inode, size, time of change) of the table when read
        self._stamps = [_EMPTY]  # the table's stamps as this writer read or wrote it last

    @property
    def stamp(self) -> str:
        """The stamp of the table as this writer knows it (see the module): every number it gave is the table's
        then, so it stamps every file it numbers, written or closed after it gave them."""
        return self._stamps[-1]

    def add(self, table: pa.Table) -> pa.Table:
        """``table`` with its :data:`VISITOR_NUMBER` column (:meth:`of` its ``visitorId``) and stamped (its schema's
        metadata :data:`STAMP`, which Parquet writes into the file's footer: :attr:`stamp` after numbering it);
        ``table`` as it is when the lake keeps no numbers."""
        column = self.of(table.column("visitorId"))
        if column is None:
            return table
        table = table.append_column(pa.field(VISITOR_NUMBER, pa.int32()), column)
        return table.replace_schema_metadata({**(table.schema.metadata or {}), STAMP.encode(): self.stamp.encode()})

    def of(self, visitors: pa.Array | pa.ChunkedArray) -> pa.Array | None:
        """Each row's visitor number (int32, null where ``visitors`` is), the new visitors appended to the table
        in order of first appearance; None when the lake keeps no numbers (:attr:`enabled`)."""
        if not self.enabled:
            return None
        import pyarrow.compute as pc

        column = visitors.combine_chunks() if isinstance(visitors, pa.ChunkedArray) else visitors
        if pa.types.is_dictionary(column.type):
            column = column.dictionary_decode()
        encoded = pc.dictionary_encode(column.cast(pa.string()))
        distinct = encoded.dictionary.to_numpy(zero_copy_only=False).astype(object)
        numbers = self._lookup(distinct)
        if (numbers < 0).any():  # visitors this writer has not seen: the table on disk, under the lock
            numbers = self._append(distinct)
        indices = encoded.indices.fill_null(0).to_numpy(zero_copy_only=False)
        valid = encoded.indices.is_valid().to_numpy(zero_copy_only=False)
        rows = numbers[indices] if len(numbers) else np.zeros(len(column), np.int32)
        return pa.array(rows.astype(np.int32), mask=~valid)

    def _lookup(self, distinct: np.ndarray) -> np.ndarray:
        known = self._known
        return np.fromiter((known.get(v, -1) for v in distinct), dtype=np.int64, count=len(distinct))

    def _append(self, distinct: np.ndarray) -> np.ndarray:
        import fcntl

        with open(os.path.join(self.root, _LOCK_FILE), "a+b") as lock:
            fcntl.flock(lock.fileno(), fcntl.LOCK_EX)  # released on close, or by the system if this process dies
            try:
                self._reload()
                numbers = self._lookup(distinct)
                new = distinct[numbers < 0]
                if len(new):
                    start = len(self._known)
                    if start + len(new) > np.iinfo(np.int32).max:
                        raise OverflowError("visitor numbers: more visitors than an int32 numbers")
                    stamps = [*self._stamps, _next(self.stamp, start, new)]
                    ids = [*self._ids, pa.array(new, pa.string())]
                    self._write(ids, stamps)
                    self._ids, self._stamps = ids, stamps
                    self._known.update(zip(new.tolist(), range(start, start + len(new)), strict=True))
                    numbers = self._lookup(distinct)
            finally:
                fcntl.flock(lock.fileno(), fcntl.LOCK_UN)
        return numbers

    def _stat(self) -> tuple | None:
        try:
            st = os.stat(self.path)
        except FileNotFoundError:
            return None
        return st.st_ino, st.st_size, st.st_mtime_ns

    def _reload(self) -> None:
        """The table as on disk, unless it is the one this writer read or wrote last."""

        signature = self._stat()
        if signature is None or signature == self._signature:
            return  # a table deleted under this writer is written again whole, its stamps with it
        table = _read(self.path)
        stamps = _stamps_of(table)
        if stamps[:len(self._stamps)] != self._stamps:
            raise ValueError(f"{self.path}: the lake's visitor numbers were replaced by another table while this "
                             "writer wrote (its files' numbers would name other visitors)")
        if not np.array_equal(table.column(VISITOR_NUMBER).to_numpy(), np.arange(table.num_rows)):
            raise ValueError(f"{self.path}: visitor numbers are not 0, 1, 2, ... in order; the table is not this "
                             "module's")
        start = len(self._known)  # the table holds this writer's rows first (its stamps checked): add the rest
        added = table.column("visitorId").slice(start)
        self._known.update(zip(added.to_numpy(zero_copy_only=False).tolist(), range(start, table.num_rows),
                               strict=True))
        self._ids = [*self._ids, *added.chunks]
        self._signature = signature
        self._stamps = stamps

    def _write(self, ids: list[pa.Array], stamps: list[str]) -> None:
        """The table of ``ids`` (number = position) over the old one: a temporary file, flushed, then renamed."""
        schema = _TABLE_SCHEMA.with_metadata({STAMP: json.dumps(stamps)})
        column = pa.chunked_array(ids, pa.string())
        table = pa.table({"visitorId": column, VISITOR_NUMBER: pa.array(np.arange(len(column), dtype=np.int32))},
                         schema=schema)
        fd, temp = tempfile.mkstemp(prefix=f".{NUMBERS_FILE}.", suffix=".tmp", dir=self.root)
        try:
            os.fchmod(fd, 0o666 & ~_UMASK)  # mkstemp's 0600 would hide the table from those who read the lake
            with os.fdopen(fd, "wb") as fh:
                with pa.ipc.new_file(fh, schema, options=pa.ipc.IpcWriteOptions(compression="zstd")) as out:
                    out.write_table(table)
                fh.flush()
                os.fsync(fh.fileno())
            os.replace(temp, self.path)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(temp)
            raise
        self._signature = self._stat()
