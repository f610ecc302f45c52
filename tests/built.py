"""One build of each avatar a test run's look tests share (docs/testing.md, suite27).

The past reviews' regression files (``test_*_review_<letter>.py``) and the mouth close-ups build the same
avatars again and again: review P's seed-4626 avatars, the default feminine and masculine bodies, each in
several files, handed to different workers. :func:`built` is :func:`workbench.gltf.build_avatar` made once
per run: kept in this process (the last :data:`KEEP` builds) and, when the run gave one, in a folder its
workers share (``WORKBENCH_TEST_GLBS``, made and removed by tests/conftest.py for the run), named by the
settings, the options and the digest of the package's code. Its bytes are build_avatar's own (the build is
deterministic, test_avatar checks it), so a test reading them measures what it measured before.

Two workers asking for one build at once (the costliest files start together, and review P's avatars are in
several of them) would each build it: a worker holds the build's lock file (``<key>.lock``, ``fcntl.flock``) while it
looks for the GLB and builds it, so the other waits and reads it. ``WORKBENCH_BUILT_LOG=FILE`` appends a line a call
(the worker, the key, where the GLB came from: ``kept``, ``read``, ``built``, the build's CPU seconds and the test asking), to
count the builds of a run, the ones made twice and the tests that ask for the most avatars of their own.

Only for tests that measure an avatar, never for those that test the build itself (its determinism, its
cost, a monkeypatched part of it): those call :func:`workbench.gltf.build_avatar`.

A test that reads the rest face only (no morph target: no smile, viseme, blink or open mouth, neither in our
renderer nor in a browser) asks for :func:`built_rest` or :func:`sheet_glb_rest`: the same build without the face's
shapes (``build_avatar(..., morphs=False)``: the same rest meshes, skeleton, clips and images, tests/gltf/test_avatar.py
checks it), about half a cold build's CPU where its stance needs no fit (pass 54: 0.31 s against 0.65 a review avatar);
the whole build instead where the run has made it already (its rest face is the same).
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import os
import tempfile
import time
from collections import OrderedDict
from pathlib import Path

import workbench
from workbench.gltf import build_avatar
from workbench.options import ModelOptions

try:
    import fcntl
except ImportError:   # (no flock: Windows; two workers may then build the same avatar, as before)
    fcntl = None  # type: ignore[assignment]

#: How many GLBs a process keeps in memory (a LOD 0 avatar is about 10 MB).
KEEP = 12
#: The environment variable naming the run's shared folder (set by tests/conftest.py's pytest_configure).
FOLDER_VAR = "WORKBENCH_TEST_GLBS"

_kept: OrderedDict[str, bytes] = OrderedDict()


@functools.cache
def code_digest() -> str:
    """A digest of every module of the package (what a build is made by)."""
    here = Path(workbench.__file__).resolve().parent
    h = hashlib.sha256()
    for path in sorted(here.rglob("*.py")):
        h.update(path.relative_to(here).as_posix().encode() + b"\0" + path.read_bytes())
    return h.hexdigest()[:16]


def key_of(settings: dict, options: ModelOptions, shapes: bool = True) -> str:
    """A name for the build of normalized ``settings`` with ``options`` (and the face's shapes, or not) by this code."""
    text = json.dumps([settings, repr(options), code_digest()] + ([] if shapes else ["rest"]), sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:24]


def built(settings: dict, options: ModelOptions, shapes: bool = True) -> bytes:
    """``build_avatar(settings, options, morphs=shapes)``, built once per run (see the module)."""
    key = key_of(settings, options, shapes)
    glb = _found(key)
    if glb is not None:
        return glb
    folder = os.environ.get(FOLDER_VAR)
    if folder is None:
        glb = _build(key, settings, options, shapes)
    else:
        path = Path(folder) / f"{key}.glb"
        with _locked(path.with_suffix(".lock")):
            try:
                glb = path.read_bytes()
                _log(key, "read")
            except OSError:
                glb = _build(key, settings, options, shapes)
                _write(path, glb)
    return _keep(key, glb)


def built_rest(settings: dict, options: ModelOptions) -> bytes:
    """:func:`built` without the face's shapes, for a test that reads the rest face only (see the module); the whole
    build instead where this process keeps it or the run's folder has it already (its rest face is the same), so an
    avatar a test with shapes has built is not built again."""
    return _found(key_of(settings, options), look_in_folder=True) or built(settings, options, shapes=False)


def _found(key: str, look_in_folder: bool = False) -> bytes | None:
    """The build named ``key`` where this process keeps it (or, ``look_in_folder``, where the run's folder has it
    already, written whole or not at all: :func:`_write`; kept from then on); None where not."""
    if key in _kept:
        _kept.move_to_end(key)
        _log(key, "kept")
        return _kept[key]
    folder = os.environ.get(FOLDER_VAR) if look_in_folder else None
    if folder is None:
        return None
    try:
        glb = (Path(folder) / f"{key}.glb").read_bytes()
    except OSError:
        return None
    _log(key, "read")
    return _keep(key, glb)


def _keep(key: str, glb: bytes) -> bytes:
    """``glb`` kept in this process as ``key`` (the last :data:`KEEP`)."""
    _kept[key] = glb
    while len(_kept) > KEEP:
        _kept.popitem(last=False)
    return glb


def _build(key: str, settings: dict, options: ModelOptions, shapes: bool) -> bytes:
    cpu = time.process_time()
    glb = build_avatar(settings, options, morphs=shapes)
    _log(key, "built", time.process_time() - cpu)
    return glb


@contextlib.contextmanager
def _locked(lock: Path):
    """Held by one process of the run at a time: the one looking for (and, not finding it, building) the GLB."""
    try:
        fd = os.open(lock, os.O_RDWR | os.O_CREAT, 0o600)
    except OSError:   # (the folder gone or read-only: build without the lock)
        fd = None
    try:
        if fd is not None and fcntl is not None:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX)   # released when the fd closes, or when a killed worker's process ends
            except OSError:   # (a file system without locks: build without the lock, as above)
                pass
        yield
    finally:
        if fd is not None:
            os.close(fd)


def _write(path: Path, glb: bytes) -> None:
    tmp = None
    try:
        fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".part")
        with os.fdopen(fd, "wb") as f:
            f.write(glb)
        os.replace(tmp, path)   # whole or not at all: a reader without the lock sees none
    except OSError:   # (a full disk: the run goes on building; no part left behind)
        if tmp is not None:
            Path(tmp).unlink(missing_ok=True)


def _log(key: str, source: str, cpu: float = 0.0) -> None:
    log = os.environ.get("WORKBENCH_BUILT_LOG")
    if log:
        with open(log, "a") as f:   # one short line a write: appends from several workers do not interleave
            test = os.environ.get("PYTEST_CURRENT_TEST", "").split(" ")[0]
            f.write(f"{os.environ.get('PYTEST_XDIST_WORKER', 'main')}\t{os.getpid()}\t{key}\t{source}\t{cpu:.2f}\t{test}\n")


def sheet_glb(settings: dict, lod: int = 0, shapes: bool = True) -> bytes:
    """The review sheets' avatar of raw ``settings`` (data/make_looks_grid.py's ``_glb``: LOD ``lod``, its idle clip),
    once per run."""
    from workbench.options import normalize_avatar_settings

    return built(normalize_avatar_settings(settings), ModelOptions(lod=lod, animations=("idle",)), shapes)


def sheet_glb_rest(settings: dict, lod: int = 0) -> bytes:
    """:func:`sheet_glb` without the face's shapes, for a test that reads the rest face only (see the module)."""
    return sheet_glb(settings, lod, shapes=False)
