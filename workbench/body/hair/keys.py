"""The names the hair's patterns and grooms are kept under (``assets.kept``): keyed by the text of the
modules that make them, so a change to any of them makes them again on every machine (a version number
bumped by hand was once forgotten, and a machine kept a groom older than its code).

>>> len(code_key("keys.py")), "../mesh.py" in body_modules()
(12, True)
"""

from __future__ import annotations

import hashlib
from functools import lru_cache
from pathlib import Path


@lru_cache(maxsize=8)
def code_key(*names: str) -> str:
    """A short digest of these modules' text (file names in this package)."""
    here = Path(__file__).resolve().parent
    return hashlib.sha256(b"".join((here / name).read_bytes() for name in names)).hexdigest()[:12]


@lru_cache(maxsize=1)
def body_modules() -> tuple[str, ...]:
    """The body package's own modules (``../*.py``, for :func:`code_key`): a groom grown on the reference
    body depends on how that body is made (its shape, its rest face), not only on the hair's code."""
    here = Path(__file__).resolve().parent
    return tuple(f"../{p.name}" for p in sorted(here.parent.glob("*.py")))
