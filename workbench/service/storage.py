"""What the backend's parts share about keeping things: atomic file writes, the clock in epoch
milliseconds, and the one rule of a full disk (:func:`disk_full`: 507 ``insufficient_storage``, the
half-written file removed, so space returns by itself once it is freed).

>>> import tempfile, pathlib
>>> p = pathlib.Path(tempfile.mkdtemp()) / "a" / "b.bin"
>>> write_atomic(p, b"xyz"); p.read_bytes()
b'xyz'
"""

from __future__ import annotations

import errno
import os
import secrets
import sqlite3
import time
from pathlib import Path

from workbench.service.errors import ServiceError

_FULL_ERRNOS = {errno.ENOSPC, getattr(errno, "EDQUOT", errno.ENOSPC)}


def disk_full(exc: BaseException) -> bool:
    """Whether ``exc`` says the disk (or the user's quota) is full: an OSError ENOSPC or EDQUOT, or
    SQLite's SQLITE_FULL ("database or disk is full").

    >>> disk_full(OSError(errno.ENOSPC, "No space left on device")), disk_full(OSError(errno.EACCES, "denied"))
    (True, False)
    """
    if isinstance(exc, OSError):
        return exc.errno in _FULL_ERRNOS
    if isinstance(exc, sqlite3.Error):
        return getattr(exc, "sqlite_errorcode", None) == sqlite3.SQLITE_FULL or "disk is full" in str(exc)
    return False


def now_ms() -> int:
    return int(time.time() * 1000)


def write_atomic(path: Path, data: bytes) -> None:
    """Write through a temporary file and rename, so a crash never leaves half a file."""
    tmp = path.with_name(f".{path.name}.{secrets.token_hex(4)}.tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(tmp, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except OSError as e:
        if not disk_full(e):
            raise
        tmp.unlink(missing_ok=True)  # the part written would keep the disk full
        raise ServiceError.insufficient_storage() from None
