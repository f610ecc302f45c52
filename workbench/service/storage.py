"""What the backend's parts share about keeping things: atomic file writes and the clock in epoch milliseconds.

>>> import tempfile, pathlib
>>> p = pathlib.Path(tempfile.mkdtemp()) / "a" / "b.bin"
>>> write_atomic(p, b"xyz"); p.read_bytes()
b'xyz'
"""

from __future__ import annotations

import os
import secrets
import time
from pathlib import Path


def now_ms() -> int:
    return int(time.time() * 1000)


def write_atomic(path: Path, data: bytes) -> None:
    """Write through a temporary file and rename, so a crash never leaves half a file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{secrets.token_hex(4)}.tmp")
    with open(tmp, "wb") as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)
