"""One build of each avatar a test run's look tests share (docs/testing.md, suite27).

The past reviews' regression files (``test_*_review_<letter>.py``) and the mouth close-ups build the same
avatars again and again: review P's seed-4626 avatars, the default feminine and masculine bodies, each in
several files, handed to different workers. :func:`built` is :func:`workbench.gltf.build_avatar` made once
per run: kept in this process (the last :data:`KEEP` builds) and, when the run gave one, in a folder its
workers share (``WORKBENCH_TEST_GLBS``, made and removed by tests/conftest.py for the run), named by the
settings, the options and the digest of the package's code. Its bytes are build_avatar's own (the build is
deterministic, test_avatar checks it), so a test reading them measures what it measured before.

Only for tests that measure an avatar, never for those that test the build itself (its determinism, its
cost, a monkeypatched part of it): those call :func:`workbench.gltf.build_avatar`.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import tempfile
from collections import OrderedDict
from pathlib import Path

import workbench
from workbench.gltf import build_avatar
from workbench.options import ModelOptions

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


def key_of(settings: dict, options: ModelOptions) -> str:
    """A name for the build of normalized ``settings`` with ``options`` by this code."""
    text = json.dumps([settings, repr(options), code_digest()], sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:24]


def built(settings: dict, options: ModelOptions) -> bytes:
    """``build_avatar(settings, options)``, built once per run (see the module)."""
    key = key_of(settings, options)
    if key in _kept:
        _kept.move_to_end(key)
        return _kept[key]
    folder = os.environ.get(FOLDER_VAR)
    path = Path(folder) / f"{key}.glb" if folder else None
    glb = None
    if path is not None:
        try:
            glb = path.read_bytes()
        except OSError:
            glb = None
    if glb is None:
        glb = build_avatar(settings, options)
        if path is not None:
            tmp = None
            try:
                fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".part")
                with os.fdopen(fd, "wb") as f:
                    f.write(glb)
                os.replace(tmp, path)   # whole or not at all: a worker reading it meanwhile sees none
            except OSError:   # (a full disk: the run goes on building; no part left behind)
                if tmp is not None:
                    Path(tmp).unlink(missing_ok=True)
    _kept[key] = glb
    while len(_kept) > KEEP:
        _kept.popitem(last=False)
    return glb


def sheet_glb(settings: dict, lod: int = 0) -> bytes:
    """The review sheets' avatar of raw ``settings`` (data/make_looks_grid.py's ``_glb``: LOD ``lod``, its idle clip),
    once per run."""
    from workbench.options import normalize_avatar_settings

    return built(normalize_avatar_settings(settings), ModelOptions(lod=lod, animations=("idle",)))
