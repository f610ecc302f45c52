"""Avatars and their generated content (contract sections 4 to 6): settings, models, previews, the animation library.

Registration stores an avatar's normalized settings. Models and previews are made on first request and cached on disk by avatar
and options, so the same request gives the same bytes, fast, with a strong
ETag. The animation library is written into the data folder on first start.
"""

from __future__ import annotations

import hashlib
import json
import os
import secrets
import threading
from pathlib import Path
from typing import Any

from workbench import options as opts
from workbench.body.assets import AssetsMissing
from workbench.body.assets import available as assets_available
from workbench.files import NotOurs, link_on_the_way, read_inside, read_inside_stat
from workbench.service.db import Database
from workbench.service.errors import ServiceError
from workbench.service.faults import Faults
from workbench.service.lazy import importing, ready
from workbench.service.log import log
from workbench.service.storage import now_ms, write_atomic

# The code that makes models, previews and the animation library. Every cache path starts with a
# fingerprint of its source, so a change to any of it (a generator, the renderer, an option's default)
# is a new cache entry by itself: no version number to remember to bump.
GENERATOR_PACKAGES = ("body", "gltf", "render", "options")
GENERATOR_MODULES = ("skeleton.py",)


def _warm_generator(done: threading.Event) -> None:
    """What every avatar shares, made ready before a first request needs it (``workbench.render.warm_up``);
    ``done`` is set when it has ended (``GET /_local/health`` says ``"generator": "ready"``)."""
    try:
        with importing():
            from workbench.render import warm_up

        warm_up()
    except Exception:  # a first preview then makes them itself, and says what failed if it does
        log.exception("preparing the generator and the renderer's compiled loops failed")
    finally:
        done.set()


def generator_sources() -> list[Path]:
    """The source files of the generator: the ``body``, ``gltf``, ``render`` and ``options`` packages and
    ``skeleton.py``."""
    root = Path(__file__).resolve().parent.parent
    files = [f for pkg in GENERATOR_PACKAGES for f in (root / pkg).rglob("*.py")]
    return sorted(files + [root / m for m in GENERATOR_MODULES])


def generator_fingerprint(files: list[Path]) -> str:
    r"""``g`` and 12 hex digits of SHA-256 over the files' names (with their folder) and bytes.

    >>> import tempfile
    >>> f = Path(tempfile.mkdtemp()) / "a.py"
    >>> _ = f.write_text("x = 1"); before = generator_fingerprint([f])
    >>> _ = f.write_text("x = 2"); before == generator_fingerprint([f]), len(before)
    (False, 13)
    """
    # Every Backend asks at its start (tests make hundreds): the files are read again only when one
    # of them changed, which a stat of each tells.
    stamp = tuple((str(f), st.st_mtime_ns, st.st_size) for f in files for st in [f.stat()])
    if stamp not in _FINGERPRINTS:
        h = hashlib.sha256()
        for f in sorted(files, key=lambda f: (f.parent.name, f.name)):
            h.update(f"{f.parent.name}/{f.name}".encode() + b"\0" + f.read_bytes() + b"\0")
        _FINGERPRINTS[stamp] = "g" + h.hexdigest()[:12]
    return _FINGERPRINTS[stamp]


_FINGERPRINTS: dict[tuple, str] = {}


# Models and previews are made on the request threads (Starlette's pool), side by side, and viewers'
# regenerations on the job threads (viewers.py). The native code they reach, and whether it needs a
# lock (issue 40; bench/model_load.py puts every model option under load):
# - fast-simplification (LOD 1 and 2): yes. Its mesh lives in C++ globals between the calls of one
#   decimation; workbench.body.lod holds a process-wide lock around them.
# - numba kernels (renderer, occlusion, cloth): no. njit(nogil=True) without parallel=True (so no
#   threading layer), no global state written: each call allocates its outputs and reads only its
#   arguments, which are per-request arrays or read-only cached ones; compiling and loading numba's
#   cache run under numba's own global compiler lock.
# - Pillow (texture resizing, PNG/JPEG/WebP encoding, previews): no. It releases the GIL only inside
#   loops over the images it was handed (its maintainers' reading of the code, Pillow issue 9600), and
#   every image here is the request's own; its memory arena is guarded by the GIL.
# - scipy (ConvexHull, cKDTree, distance_transform_edt): no. Qhull is the reentrant libqhull_r with a
#   lock per object; trees and transforms are per call.
# - the glTF validator and pygltflib: never called by the service (the validator is a node subprocess
#   per call in the tests and tools; pygltflib is pure Python, used by the client's Model.gltf).
# - zlib (PNG, gzip): no; each compressor is its own object. SQLite: one connection behind Database's lock.


def _assets_missing(e: AssetsMissing) -> ServiceError:
    """The 503 of missing body assets: the folder they are missing from goes to the log only (a web page
    on any origin may read the answer); the answer says what to run."""
    if e.fresh:
        log.warning("%s", e)
    return ServiceError.assets_missing(e.public_message(), e.retry_after)


# The largest cached model or preview read back (a model of every option is a few tens of MB): a file past
# it is not one the service wrote, and reading it whole could take the service's memory (issue 45, item 3).
CACHED_FILE_LIMIT = 256 << 20


def etag_of(data: bytes) -> str:
    return '"' + hashlib.sha256(data).hexdigest()[:32] + '"'


class Content:
    """Avatars in ``db``; models, previews and the animation library as files under ``data_dir``.

    faults: where the internal steps ``model.generate`` and ``preview.render`` ask whether to fail.
    """

    def __init__(self, db: Database, data_dir: Path, faults: Faults):
        self.db = db
        self.faults = faults
        self.data_dir = data_dir
        self.models_dir = data_dir / "models"
        self.previews_dir = data_dir / "previews"
        self.library_dir = data_dir / "animations"
        self.generator = generator_fingerprint(generator_sources())
        self._locks: dict[str, threading.Lock] = {}
        self._locks_guard = threading.Lock()
        self._etags: dict[tuple, str] = {}
        self._library_done = threading.Event()
        self._warm_done = threading.Event()
        self._library_started = False
        self._library_error: str | None = None
        self._library_guard = threading.Lock()

    def _lock_for(self, key: str) -> threading.Lock:
        with self._locks_guard:
            return self._locks.setdefault(key, threading.Lock())

    def clear_memory(self) -> None:
        self._etags.clear()

    def _cached(self, path: Path, make, failure_code: str, what: str) -> tuple[bytes, str]:
        """The file at ``path``, made by ``make()`` once if missing; any failure is a 500 ``failure_code``.
        What is there is read only when it is a regular file inside the data folder of a bounded size
        (:func:`workbench.files.read_inside`); anything else is made again, and the log says what it was."""
        found = self._read_cached(path, what)
        if found is not None:
            data, st = found
            # By the file as opened, so a file changed under the same name is hashed again.
            key = (path, st.st_ino, st.st_size, st.st_mtime_ns)
            etag = self._etags.get(key)
            if etag is None:
                etag = self._etags[key] = etag_of(data)
            return data, etag
        try:
            # Before any lock: while the body assets are being fetched, or just failed to be, every request
            # is answered at once rather than holding a thread of the pool (issue 40, item 4).
            assets_available()
        except AssetsMissing as e:
            raise _assets_missing(e) from None
        with self._lock_for(str(path)):
            if self._read_cached(path, what, quiet=True) is not None:
                return self._cached(path, make, failure_code, what)
            try:
                data = make()
            except ServiceError:
                raise
            except AssetsMissing as e:
                raise _assets_missing(e) from None
            except Exception:
                # The cause goes to the log; the answer says what failed in the contract's words.
                log.exception("%s failed", what)
                raise ServiceError(500, failure_code, f"{what} failed on the server; the service log has the cause.") from None
            etag = etag_of(data)
            odd = link_on_the_way(self.data_dir, path)
            if odd is not None:   # writing through it would put the file outside the data folder
                log.warning("%s: not cached, %s is not a folder of the data folder's own", what, odd)
                return data, etag
            try:
                write_atomic(path, data)
            except ServiceError as e:
                if e.status != 507:
                    raise
                # A full disk: the answer is served all the same (reads keep working) and made again next time.
                log.warning("%s: not cached, the disk is full (%s)", what, path.name)
                return data, etag
            except OSError as e:
                # A folder where the file goes (made by someone else): served all the same, made again next time.
                log.warning("%s: not cached, %s cannot be written (%s)", what, path, e.strerror or e)
                return data, etag
            return data, etag

    def _read_cached(self, path: Path, what: str, quiet: bool = False) -> tuple[bytes, os.stat_result] | None:
        """The cached file's bytes and stat, or None when it is missing or is not ours to read (then logged)."""
        try:
            return read_inside_stat(self.data_dir, path, CACHED_FILE_LIMIT)
        except FileNotFoundError:
            return None
        except OSError as e:
            if not quiet:
                log.warning("%s: the cached file %s is not read (%s); making it again", what, path,
                            e.reason if isinstance(e, NotOurs) else e.strerror or e)
            return None

    # ------------------------------------------------------------------
    # avatars (contract section 4)
    # ------------------------------------------------------------------

    def register_avatar(self, account: str, body: Any) -> dict:
        try:
            settings = opts.normalize_avatar_settings(body)
        except opts.InvalidOptions as e:
            raise ServiceError.invalid(e.problems, "settings") from None
        model_id = secrets.token_hex(12)
        self.db.execute("INSERT INTO avatars VALUES (?, ?, ?, ?)",
                        (model_id, account, json.dumps(settings, sort_keys=True), now_ms()))
        return {"modelId": model_id, "settings": settings}

    def avatar_settings(self, model_id: str) -> dict:
        row = self.db.one("SELECT settings FROM avatars WHERE model_id = ?", (model_id,))
        if row is None:
            raise ServiceError.not_found("avatar", model_id)
        # Normalized again: a registration stored before a setting existed gets its default (contract section 4).
        return opts.stored_avatar_settings(json.loads(row["settings"]))

    # ------------------------------------------------------------------
    # models (contract section 5)
    # ------------------------------------------------------------------

    def model(self, model_id: str, options: opts.ModelOptions) -> tuple[bytes, str]:
        settings = self.avatar_settings(model_id)
        path = self.models_dir / model_id / f"{self.generator}_{options.cache_key()}.glb"

        def make():
            if self.faults.take("model.generate"):
                raise RuntimeError("injected fault (model.generate)")
            with importing():
                from workbench.gltf import build_avatar

            return build_avatar(settings, options)

        return self._cached(path, make, "model_generation_failed", "Model generation")

    # ------------------------------------------------------------------
    # previews
    # ------------------------------------------------------------------

    def preview(self, model_id: str, options: opts.PreviewOptions) -> tuple[bytes, str]:
        settings = self.avatar_settings(model_id)  # 404 before any work
        path = self.previews_dir / model_id / f"{self.generator}_{options.cache_key()}.png"

        def make():
            if self.faults.take("preview.render"):
                raise RuntimeError("injected fault (preview.render)")
            with importing():
                from workbench.gltf.avatar import build_avatar_unencoded
                from workbench.render import render_preview

            # Drawn from the textures as arrays: encoding them into a GLB only to decode them again was a
            # sixth of a first preview; the model file is made when it is asked for.
            # A portrait shows nothing below the waist: its model is made without those garments (the same pixels).
            glb, images = build_avatar_unencoded(settings, opts.ModelOptions(), below=options.camera != "portrait")
            # A preview shows the avatar standing relaxed (the library's idle pose), not in its T bind pose:
            # the clip by name, the same as the library's file and read once per process (the service's
            # start reads both idles), so a first preview neither waits for the library to be written nor
            # reads and parses its file.
            # An avatar with a stance of its own (its ``pose`` setting) carries it in the model as the clip ``pose``,
            # which the preview's default pose stands in.
            relaxed = settings.get("pose", opts.DEFAULT_POSE) == opts.DEFAULT_POSE
            return render_preview(glb, options, pose=(f"{settings['gender']}/idle", 0.0) if relaxed else "preview",
                                  images=images)

        return self._cached(path, make, "preview_generation_failed", "Preview rendering")

    # ------------------------------------------------------------------
    # animation library (contract section 6)
    # ------------------------------------------------------------------

    def start_library(self) -> None:
        """Write the library into the data folder once (in the background); later starts find it there.
        Also makes ready in the background what every avatar shares (the renderer's compiled loops, the body's
        data), so a first preview does not wait for it."""
        with self._library_guard:
            if self._library_started:
                return
            self._library_started = True
            ready()   # (before the threads: workbench.service.lazy)
            threading.Thread(target=_warm_generator, args=(self._warm_done,), name="wb-warm", daemon=True).start()
            done = self.library_dir / ".complete"
            if done.exists() and done.read_text().strip() == self.generator:
                self._library_done.set()
                return
            threading.Thread(target=self._write_library, name="wb-library", daemon=True).start()

    def _write_library(self) -> None:
        try:
            with importing():
                from workbench.gltf import build_animation

            # Written whole: files of another generator (its fingerprint in .complete) are replaced.
            for gender in opts.GENDERS:
                for name in opts.ANIMATIONS:
                    write_atomic(self.library_dir / gender / f"{name}.glb", build_animation(gender, name))
            write_atomic(self.library_dir / ".complete", f"{self.generator}\n".encode())
        except Exception as e:
            log.exception("writing the animation library failed")
            self._library_error = f"{type(e).__name__}: {e}"
        finally:
            self._library_done.set()

    def generator_state(self) -> str:
        """Whether what every avatar shares is made ready yet (the start's background work, 0.5 s)."""
        if not self._library_started:
            return "not started"
        return "ready" if self._warm_done.is_set() else "preparing"

    def library_state(self) -> str:
        if not self._library_started:
            return "not started"
        if not self._library_done.is_set():
            return "generating"
        return "failed: " + self._library_error if self._library_error else "ready"

    def animation_list(self) -> dict:
        return {"masculine": list(opts.ANIMATIONS), "feminine": list(opts.ANIMATIONS)}

    def animation_file(self, gender: str, name: str) -> bytes:
        # The name is checked against the list before any file is touched.
        try:
            opts.check_animation_path(gender, name)
        except opts.InvalidOptions as e:
            raise ServiceError.invalid(e.problems, "animation") from None
        self.start_library()
        self._library_done.wait(timeout=300)
        path = self.library_dir / gender / f"{name}.glb"
        try:
            return read_inside(self.data_dir, path, CACHED_FILE_LIMIT)
        except FileNotFoundError:
            raise ServiceError(404, "animation_file_missing",
                               f"The animation {gender}/{name} is in the list but its file is missing on the server.") from None
        except OSError as e:
            log.warning("the animation file %s is not read (%s); making it again", path,
                        e.reason if isinstance(e, NotOurs) else e.strerror or e)
        with importing():
            from workbench.gltf import build_animation

        data = build_animation(gender, name)
        try:
            write_atomic(path, data)
        except (ServiceError, OSError):
            pass   # served all the same; made again next time
        return data
