"""The service's SQLite database: schema, one connection, short transactions.

WAL mode with ``synchronous=NORMAL``: a commit is in the WAL file before the
call returns, so it survives a crash (kill -9) of the service process; only a
power loss could take back the last transactions.

>>> import tempfile, pathlib
>>> db = Database(pathlib.Path(tempfile.mkdtemp()) / "t.db")
>>> db.one("SELECT count(*) AS n FROM accounts")["n"]
0
"""

from __future__ import annotations

import sqlite3
import threading
from contextlib import contextmanager
from pathlib import Path

from workbench.service.errors import ServiceError
from workbench.service.storage import disk_full

SCHEMA = """
CREATE TABLE IF NOT EXISTS accounts (
    id TEXT PRIMARY KEY,
    created_at INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS tokens (
    token_hash TEXT PRIMARY KEY,
    account TEXT NOT NULL REFERENCES accounts(id),
    scopes TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    revoked INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS avatars (
    model_id TEXT PRIMARY KEY,
    account TEXT NOT NULL,
    settings TEXT NOT NULL,
    created_at INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS viewers (
    token TEXT PRIMARY KEY,
    account TEXT NOT NULL,
    kind TEXT NOT NULL,
    source TEXT NOT NULL,
    created_at INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS jobs (
    id TEXT PRIMARY KEY,
    viewer_token TEXT NOT NULL,
    state TEXT NOT NULL,
    outputs TEXT NOT NULL,
    started_at INTEGER NOT NULL,
    running_at INTEGER,
    ended_at INTEGER,
    error TEXT
);
CREATE INDEX IF NOT EXISTS jobs_by_viewer ON jobs(viewer_token, started_at);
CREATE TABLE IF NOT EXISTS viewer_files (
    viewer_token TEXT NOT NULL,
    output TEXT NOT NULL,
    path TEXT NOT NULL,
    sha256 TEXT NOT NULL,
    bytes INTEGER NOT NULL,
    job_id TEXT NOT NULL,
    updated_at INTEGER NOT NULL,
    PRIMARY KEY (viewer_token, output)
);
CREATE TABLE IF NOT EXISTS spaces (
    id TEXT PRIMARY KEY,
    account TEXT NOT NULL,
    kind TEXT NOT NULL,
    state TEXT NOT NULL,
    filename TEXT,
    bytes INTEGER,
    message TEXT,
    error TEXT,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS events (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    viewer_token TEXT NOT NULL,
    session_id TEXT NOT NULL,
    event_id TEXT,
    key TEXT NOT NULL,
    payload TEXT NOT NULL,
    ts INTEGER NOT NULL,
    received_at INTEGER NOT NULL
);
CREATE UNIQUE INDEX IF NOT EXISTS events_unique_id ON events(viewer_token, event_id) WHERE event_id IS NOT NULL;
CREATE INDEX IF NOT EXISTS events_by_viewer_time ON events(viewer_token, ts);
"""


class UnreadableDatabase(RuntimeError):
    """The data folder's database file is not one SQLite can open (damaged, or another kind of file)."""


class Database:
    """One SQLite connection shared by the service's threads, guarded by a lock.

    A file SQLite cannot read raises :class:`UnreadableDatabase` naming it, before anything is served.
    """

    def __init__(self, path: Path):
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._conn = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None, timeout=30)
        self._conn.row_factory = sqlite3.Row
        self.lock = threading.RLock()
        self._closed = threading.Event()
        self._checkpointer: threading.Thread | None = None
        try:
            self._prepare()
        except sqlite3.DatabaseError as e:
            self._conn.close()
            if disk_full(e):
                raise
            raise UnreadableDatabase(
                f"{self.path} is not a database SQLite can read ({e}); it is damaged or not a workbench database. "
                f"Restore it from a backup, or move it away to start with an empty one") from None

    def _prepare(self) -> None:
        with self.lock:
            self._conn.execute("PRAGMA journal_mode=WAL")
            self._conn.execute("PRAGMA synchronous=NORMAL")
            self._conn.execute("PRAGMA foreign_keys=ON")
            # Tracking events' ids are random, so each batch writes pages all over the id index: a page
            # cache of 64 MiB (default 2) keeps the index of a few hundred thousand events in memory, and
            # checkpoints every 10,000 WAL pages (default 1,000) copy a page rewritten by many commits back
            # once. SQLite alone: 3.7 -> 3.1 us per event (bench/RESULTS.md); a commit is still in the WAL
            # file before it returns.
            self._conn.execute("PRAGMA cache_size=-65536")
            self._conn.execute("PRAGMA wal_autocheckpoint=10000")
            self._conn.executescript(SCHEMA)

    @contextmanager
    def transaction(self):
        """BEGIN IMMEDIATE ... COMMIT (ROLLBACK on error); yields the connection."""
        with self.lock:
            try:
                self._conn.execute("BEGIN IMMEDIATE")
                try:
                    yield self._conn
                except BaseException:
                    if self._conn.in_transaction:  # SQLite may have rolled back itself (a full disk does)
                        self._conn.execute("ROLLBACK")
                    raise
                self._conn.execute("COMMIT")
            except sqlite3.Error as e:
                if not disk_full(e):
                    raise
                if self._conn.in_transaction:
                    self._conn.execute("ROLLBACK")
                # Nothing of the transaction is kept; the next one succeeds once space is back.
                raise ServiceError.insufficient_storage() from None

    def one(self, sql: str, params=()) -> sqlite3.Row | None:
        with self.lock:
            return self._conn.execute(sql, params).fetchone()

    def count(self, sql: str, params=()) -> int:
        """The number a ``SELECT count(*)`` answers (an aggregate without GROUP BY always gives its one row)."""
        with self.lock:
            n: int = self._conn.execute(sql, params).fetchone()[0]
        return n

    def all(self, sql: str, params=()) -> list[sqlite3.Row]:
        with self.lock:
            return self._conn.execute(sql, params).fetchall()

    def execute(self, sql: str, params=()) -> None:
        with self.transaction() as c:
            c.execute(sql, params)

    def checkpoint_in_background(self, every: float = 0.25) -> None:
        """Copy the WAL back to the database file from a thread and connection of their own (once per Database).

        A commit that passes ``wal_autocheckpoint`` copies the pages back itself, which takes tens of
        milliseconds for a WAL of 10,000 pages; the tracking writer commits on the event loop, so a
        checkpoint there would hold up every request. This thread's PASSIVE checkpoints every
        ``every`` seconds keep the WAL short (a writer restarts it once it is all copied back) and
        wait for nobody; the autocheckpoint stays as the backstop. Durability is unchanged: a commit
        is in the WAL file before it returns, checkpoints or not.
        """
        with self.lock:
            if self._checkpointer is not None:
                return
            self._checkpointer = threading.Thread(target=self._checkpoints, args=(every,),
                                                  name="workbench-checkpoint", daemon=True)
        self._checkpointer.start()

    def _checkpoints(self, every: float) -> None:
        try:
            conn = sqlite3.connect(self.path, isolation_level=None, timeout=30)
        except sqlite3.Error:
            return
        try:
            while not self._closed.wait(every):
                try:
                    conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
                except sqlite3.Error:  # the folder was removed (tests) or the file is busy: try again later
                    if not self.path.exists():
                        return
        finally:
            conn.close()

    def close(self) -> None:
        self._closed.set()
        with self.lock:
            self._conn.close()
