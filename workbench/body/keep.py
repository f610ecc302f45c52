"""Arrays that take a while to make and depend only on the body's code, made once per machine and kept.

:func:`kept` is the one way the body's modules keep what they make (a groom, a skin's masks, a cloth's
bands): in the assets' compiled folder (:func:`workbench.body.assets.compiled_dir`), named by the code
that made them (:func:`code_digest`), in the form :func:`write_arrays` writes and :func:`read_arrays` reads.
"""

from __future__ import annotations

import hashlib
import json
import logging
import math
import os
import tempfile
import time
from functools import lru_cache
from pathlib import Path

from ..files import read_inside
from .assets import compiled_dir

log = logging.getLogger("workbench.body")


@lru_cache(maxsize=1)
def code_digest() -> str:
    """A short digest of the text of every module of ``workbench.body`` (what kept arrays are made by).

    >>> len(code_digest())
    12
    """
    here = Path(__file__).resolve().parent
    h = hashlib.sha256()
    for path in sorted(here.rglob("*.py")):
        h.update(path.relative_to(here).as_posix().encode() + b"\0" + path.read_bytes())
    return h.hexdigest()[:12]


def kept(name: str, make, shapes: dict[str, tuple] | None = None, check=None) -> dict:
    """Arrays that take a while to make and depend only on this code: ``make()`` (a dict of numpy arrays)
    once per machine, kept as ``<compiled folder>/<name>-<code>.arrays`` (:func:`write_arrays`) and read
    from there by later processes; read-only. ``<code>`` is :func:`code_digest`, so any change to the body's
    code makes them again (versions bumped by hand were forgotten twice: a kept groom and a kept skin
    outlived the code that made them). Where the folder cannot be written the arrays are made again in
    each process. Writing a new file removes the same arrays kept by other code more than a day ago.

    What is read is checked before it is used, and made again (and kept again) when it fails: no
    number may be NaN or infinite; ``shapes`` names every array and its shape (None for a free axis);
    ``check(arrays)`` raises ValueError or IndexError for the maker's own rules (indices in range).

    >>> import tempfile, numpy as np
    >>> os.environ["WORKBENCH_ASSETS_DIR"] = tempfile.mkdtemp()
    >>> kept("example-v1", lambda: {"x": np.arange(3)}, {"x": (3,)})["x"].tolist()
    [0, 1, 2]
    >>> kept("example-v1", lambda: {"x": np.zeros(3)}, {"x": (3,)})["x"].tolist()   # the kept copy
    [0, 1, 2]
    >>> kept("example-v1", lambda: {"x": np.ones(3)}, {"x": (4,)})["x"].tolist()    # not the shape: made again
    [1.0, 1.0, 1.0]
    >>> del os.environ["WORKBENCH_ASSETS_DIR"]
    """
    path = compiled_dir() / f"{name}-{code_digest()}{KEPT_SUFFIX}"
    try:
        data = read_arrays(path)
        _check_kept(data, shapes, check)
    except FileNotFoundError:
        data = None
    except (OSError, ValueError, KeyError, IndexError, TypeError) as e:
        log.warning("the kept arrays %s are unreadable or wrong (%s); making them again", path, e)
        data = None
    if data is None:
        data = make()
        try:
            write_arrays(path, data)
        except OSError:
            pass
        else:
            _forget_older(path, name)
    for v in data.values():
        v.setflags(write=False)
    return data


# Kept arrays: a header naming each array's dtype, shape and place, then their bytes, each at a multiple
# of 64. Read with one read and no parsing per array: a first preview read twelve ``.npz`` files in
# 45 ms (zip members, a header parsed per array), the same arrays in this form in a fifth of that.
KEPT_SUFFIX = ".arrays"
_MAGIC = b"workbench arrays 1\n"
_KINDS = "biuf"   # booleans, integers and floats: nothing else is kept (no objects, no pickles)
KEPT_LIMIT = 256 << 20   # the largest file of kept arrays read (the largest kept is 4 MiB)


def write_arrays(path: Path, arrays: dict) -> None:
    """Write ``arrays`` (name -> numpy array of booleans, integers or floats) to ``path`` atomically
    (:func:`read_arrays` reads them). Raises OSError.

    >>> import tempfile, numpy as np
    >>> f = Path(tempfile.mkdtemp()) / "a.arrays"
    >>> write_arrays(f, {"x": np.arange(3, dtype=np.int16), "y": np.eye(2).T, "z": np.float32(0.5)})
    >>> {k: v.tolist() for k, v in read_arrays(f).items()}
    {'x': [0, 1, 2], 'y': [[1.0, 0.0], [0.0, 1.0]], 'z': 0.5}
    """
    import numpy as np

    index, blobs, at = [], [], 0
    for key, value in arrays.items():
        a = np.asarray(value)    # (tobytes gives C order; ascontiguousarray would make a scalar 1-d)
        if a.dtype.kind not in _KINDS:
            raise TypeError(f"write_arrays: {key} holds {a.dtype}, not booleans, integers or floats")
        index.append([key, a.dtype.str, list(a.shape), at, a.nbytes])
        blobs.append(a.tobytes())
        at += -(-a.nbytes // 64) * 64
    header = json.dumps(index).encode()
    start = -(-(len(_MAGIC) + 8 + len(header)) // 64) * 64
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.stem}-", suffix=KEPT_SUFFIX)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(_MAGIC + len(header).to_bytes(8, "little") + header)
            fh.write(b"\0" * (start - fh.tell()))
            for (_, _, _, offset, _size), blob in zip(index, blobs, strict=True):
                fh.write(b"\0" * (start + offset - fh.tell()))
                fh.write(blob)
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)


def read_arrays(path: Path) -> dict:
    """The arrays :func:`write_arrays` wrote to ``path``, read-only. Raises FileNotFoundError, OSError (also for
    anything but a regular file of at most :data:`KEPT_LIMIT` bytes: a link, a FIFO, a device), or ValueError
    for anything that is not such a file whole (another format, a torn or truncated copy)."""
    import numpy as np

    # Only a regular file of a bounded size, never through a link (a FIFO here hung every model and preview,
    # SIGTERM with them; a link to /dev/zero took 3 GB in 9 s: issue 45, item 3). NotOurs is an OSError.
    data = read_inside(path.parent, path, KEPT_LIMIT)
    if not data.startswith(_MAGIC):
        raise ValueError("it is not a file of kept arrays")
    size = int.from_bytes(data[len(_MAGIC):len(_MAGIC) + 8], "little")
    head = len(_MAGIC) + 8
    try:
        index = json.loads(data[head:head + size])
    except (UnicodeDecodeError, json.JSONDecodeError):
        raise ValueError("its header is unreadable") from None
    start = -(-(head + size) // 64) * 64
    out, end = {}, start
    try:
        for key, dtype, shape, offset, nbytes in index:
            kind = np.dtype(dtype)
            count = math.prod(shape)
            if kind.kind not in _KINDS or count * kind.itemsize != nbytes or offset < 0:
                raise ValueError(f"{key}'s entry is wrong")
            if start + offset + nbytes > len(data):
                raise ValueError(f"it ends before {key} does (truncated)")
            out[str(key)] = np.frombuffer(data, kind, count, start + offset).reshape(shape)
            end = max(end, start + offset + nbytes)
    except (TypeError, ValueError) as e:
        raise ValueError(f"its header is wrong ({e})") from None
    if len(data) != end:
        raise ValueError(f"it holds {len(data)} bytes, not the {end} its header says")
    return out


# How many other codes' copies of one name are kept when younger than a day: a developer's worktrees (each its own
# code, :func:`code_digest`) use theirs at once, and each edit of the body's code makes every kept file again
# (about 70 files, 170 MB a code): with only the day's rule the folder grew to 59 GB in one day of edits.
RECENT_KEPT = 8


def _forget_older(path: Path, name: str) -> None:
    """Remove ``name``'s arrays kept by other code (another :func:`code_digest`): those more than a day old,
    and of the younger ones all but the :data:`RECENT_KEPT` newest. An upgraded generator otherwise leaves
    every earlier version's behind (tens of MB each)."""
    cutoff = time.time() - 86_400
    recent = []
    for suffix in (KEPT_SUFFIX, ".npz"):   # (.npz: the form kept arrays had before)
        for other in path.parent.glob(f"{name}-*{suffix}"):
            try:
                if other == path or not other.name[len(name) + 1:-len(suffix)].isalnum():
                    continue
                when = other.stat().st_mtime
                if when < cutoff:
                    other.unlink()
                else:
                    recent.append((when, other.name, other))
            except OSError:
                pass
    for _, _, other in sorted(recent, reverse=True)[RECENT_KEPT:]:
        try:
            other.unlink()
        except OSError:
            pass


def _check_kept(data: dict, shapes: dict[str, tuple] | None, check) -> None:
    import numpy as np

    if shapes is not None:
        if sorted(data) != sorted(shapes):
            raise ValueError(f"it holds {sorted(data)}, not {sorted(shapes)}")
        for k, shape in shapes.items():
            a = data[k]
            if a.ndim != len(shape) or any(n is not None and n != m for n, m in zip(shape, a.shape, strict=True)):
                raise ValueError(f"{k} has the shape {a.shape}, not {shape}")
    for k, a in data.items():
        if a.dtype.kind == "f" and not np.isfinite(a).all():
            raise ValueError(f"{k} holds numbers that are not finite")
    if check is not None:
        check(data)
