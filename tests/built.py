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

:func:`rendered` is :func:`workbench.render.render` likewise made once per run (suite30): the review files draw the same
avatars in the same views (review Q's bob at three quarters in three files, the 512 px portraits over the sheets'
backdrop in nineteen), each drawing them again. Its pixels are render's own (the renderer is deterministic), kept as
lossless PNGs beside the builds; only for tests that measure a picture, never for those that test the renderer.
"""

from __future__ import annotations

import functools
import hashlib
import io
import json
import os
import tempfile
from collections import OrderedDict
from pathlib import Path

import numpy as np
from PIL import Image

import workbench
import workbench.render
from workbench.gltf import build_avatar
from workbench.options import ModelOptions

#: How many GLBs a process keeps in memory (a LOD 0 avatar is about 10 MB).
KEEP = 12
#: The environment variable naming the run's shared folder (set by tests/conftest.py's pytest_configure).
FOLDER_VAR = "WORKBENCH_TEST_GLBS"

#: How many pictures a process keeps in memory (a 512 px RGBA picture is 1 MB).
KEEP_PICTURES = 48

_kept: OrderedDict[str, bytes] = OrderedDict()
_pictures: OrderedDict[str, np.ndarray] = OrderedDict()


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
    path = _shared_path(key, ".glb")
    glb = None
    if path is not None:
        try:
            glb = path.read_bytes()
        except OSError:
            glb = None
    if glb is None:
        glb = build_avatar(settings, options)
        if path is not None:
            _write_whole(path, glb)
    _kept[key] = glb
    while len(_kept) > KEEP:
        _kept.popitem(last=False)
    return glb


def _shared_path(key: str, suffix: str) -> Path | None:
    folder = os.environ.get(FOLDER_VAR)
    return Path(folder) / f"{key}{suffix}" if folder else None


def _write_whole(path: Path, data: bytes) -> None:
    """``data`` at ``path``, whole or not at all: a worker reading it meanwhile sees none; on a full disk the run goes
    on drawing and building, no part left behind."""
    tmp = None
    try:
        fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".part")
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
    except OSError:
        if tmp is not None:
            Path(tmp).unlink(missing_ok=True)


def _plain(value):
    """``value`` as JSON names it, bytes by their digest; None where it is not plain data (a clip, arrays)."""
    if isinstance(value, bytes):
        return "sha256:" + hashlib.sha256(value).hexdigest()
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, (tuple, list)):
        items = [_plain(v) for v in value]
        return None if any(i is None and v is not None for i, v in zip(items, value, strict=True)) else items
    if isinstance(value, dict) and all(isinstance(k, str) for k in value):
        items = {k: _plain(v) for k, v in value.items()}
        return None if any(items[k] is None and value[k] is not None for k in value) else items
    return None


def rendered(glb: bytes, **kw) -> Image.Image:
    """``workbench.render.render(glb, **kw)``, drawn once per run (see the module): its RGBA pixels, a new image each
    call (a test may change its own). Arguments that are not plain data (a ``Clip``, ``images``) draw afresh.

    >>> from workbench.regeneration.product import build_product_glb
    >>> glb = build_product_glb("vase")
    >>> a = rendered(glb, size=32, camera="full")
    >>> (np.asarray(a) == np.asarray(workbench.render.render(glb, size=32, camera="full"))).all(), a is rendered(glb, size=32, camera="full")
    (np.True_, False)
    """
    named = _plain([glb, kw])
    if named is None:
        return workbench.render.render(glb, **kw)
    key = hashlib.sha256(json.dumps([named, code_digest()], sort_keys=True).encode()).hexdigest()[:24]
    pixels = _pictures.get(key)
    if pixels is not None:
        _pictures.move_to_end(key)
    else:
        path = _shared_path(key, ".png")
        if path is not None:
            try:
                with Image.open(path) as im:
                    pixels = np.asarray(im.convert("RGBA"))
            except OSError:
                pixels = None
        if pixels is None:
            pixels = np.asarray(workbench.render.render(glb, **kw))
            if path is not None:
                out = io.BytesIO()
                Image.fromarray(pixels, "RGBA").save(out, format="PNG", compress_level=1)   # lossless: the same pixels
                _write_whole(path, out.getvalue())
        pixels.setflags(write=False)
        _pictures[key] = pixels
        while len(_pictures) > KEEP_PICTURES:
            _pictures.popitem(last=False)
    return Image.fromarray(pixels.copy(), "RGBA")


def sheet_glb(settings: dict, lod: int = 0) -> bytes:
    """The review sheets' avatar of raw ``settings`` (data/make_looks_grid.py's ``_glb``: LOD ``lod``, its idle clip),
    once per run."""
    from workbench.options import normalize_avatar_settings

    return built(normalize_avatar_settings(settings), ModelOptions(lod=lod, animations=("idle",)))
