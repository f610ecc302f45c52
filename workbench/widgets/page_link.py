"""The kernel's side of an ``AvatarViewer``'s page: the GLB bytes it asks for, the picture it sends,
and what it may change.

GLB bytes go as a custom message's binary buffer, named by a key (their SHA-256): the page says which
keys it holds (``have``) and gets the bytes only for the others, so a page keeps one copy of a model
shared by all its viewers. A lighter level of detail (what a software GPU draws while the view moves)
may be a fetch, made in a thread when a page first asks for it: ``model.view()`` on a model from the
service fetches LOD 1 so (``workbench.client.results.Model.view``).

The page is not trusted: of its state updates only the traitlets a person changes with the mouse
and keys are taken (``PAGE_TRAITS``), each of a bounded size (:func:`page_value_problem`) and checked as
code's are; the renderer, the sizes and everything else are the kernel's. Its picture must be a PNG of a
bounded size.

>>> glb_key(b"glTF")[:8]
'c74f9194'
>>> png_size(b"not a png") is None
True
"""

from __future__ import annotations

import hashlib
import struct
import threading

# What a page may set: the camera, the clip and its clock, the look, the morph weights, the drag.
PAGE_TRAITS = frozenset({"yaw", "elevation", "zoom", "target", "focus", "auto_rotate", "dragging", "clip", "time",
                         "playing", "loop", "speed", "light", "background", "shadow", "wireframe", "normals",
                         "skeleton", "weights"})
# The most characters of a name the page sends (a clip, a focus, a light, a colour), and the most numbers of the
# camera's target: checked before traitlets sees a value, which it walks whole (the weights of a million
# names held the kernel past 60 s before they were refused: issue 45, item 5).
PAGE_TEXT_MAX = 256
TARGET_MAX = 3
# The page's picture: a PNG no wider or taller than a fullscreen canvas at a high pixel ratio.
PICTURE_MAX_SIDE = 8192
PICTURE_MAX_BYTES = 32 * 2**20
_PNG = b"\x89PNG\r\n\x1a\n"


def page_value_problem(name: str, value, morph_targets) -> str | None:
    """Why the page may not set ``name`` to ``value`` at any size (None when its size is fine; its rules are the
    traitlet's): the ``weights`` name at most the model's morph targets, the ``target`` is 3 numbers, and a
    name is at most :data:`PAGE_TEXT_MAX` characters.

    >>> page_value_problem("weights", {f"k{i}": 1.0 for i in range(9)}, ["smile"])
    'holds 9 weights; the model has 1 morph targets'
    >>> page_value_problem("yaw", 45.0, []) is None
    True
    """
    if name == "weights":
        if not isinstance(value, dict):
            return "is an object of morph weights by name"
        if len(value) > len(morph_targets):
            return f"holds {len(value)} weights; the model has {len(morph_targets)} morph targets"
    elif name == "target":
        if not isinstance(value, list) or len(value) > TARGET_MAX:
            return f"is at most {TARGET_MAX} numbers"
    elif isinstance(value, (dict, list)):
        return "is one value"
    elif isinstance(value, str) and len(value) > PAGE_TEXT_MAX:
        return f"is at most {PAGE_TEXT_MAX} characters; got {len(value)}"
    return None


def glb_key(data: bytes) -> str:
    """The name a page keeps GLB bytes under."""
    return hashlib.sha256(data).hexdigest()[:32]


def png_size(data: bytes) -> tuple[int, int] | None:
    """A PNG's (width, height) from its header, or None for anything else."""
    if len(data) < 24 or not data.startswith(_PNG) or data[12:16] != b"IHDR":
        return None
    return struct.unpack(">II", data[16:24])


def picture_ok(data: bytes) -> bool:
    """Whether ``data`` is a PNG a page may send as its picture.

    >>> picture_ok(_PNG + b"\\0\\0\\0\\rIHDR" + struct.pack(">II", 640, 480))
    True
    """
    size = png_size(data)
    return size is not None and len(data) <= PICTURE_MAX_BYTES and 0 < min(size) and max(size) <= PICTURE_MAX_SIDE


class Levels:
    """The lighter levels of detail of a viewer's model: ``{level: GLB bytes, or a callable fetching them}``.

    A fetch runs once, in a thread; ``on_ready(level, glb)`` gets its bytes (or ``on_error(level, e)``).
    """

    def __init__(self, levels: dict, glb_bytes):
        self._glb_bytes = glb_bytes
        self._bytes = {int(k): glb_bytes(v) for k, v in levels.items() if not callable(v)}
        self._fetches = {int(k): v for k, v in levels.items() if callable(v)}
        self._lock = threading.Lock()
        self._running: dict[int, list] = {}

    @property
    def known(self) -> dict[int, bytes]:
        """The levels whose bytes are here."""
        return dict(self._bytes)

    def levels(self) -> list[int]:
        return sorted({*self._bytes, *self._fetches})

    def get(self, level: int, on_ready, on_error) -> None:
        """Hand ``level``'s bytes to ``on_ready``: at once when here, else when its fetch ends."""
        with self._lock:
            if level in self._bytes:
                glb = self._bytes[level]
            else:
                waiting = self._running.setdefault(level, [])
                waiting.append((on_ready, on_error))
                if len(waiting) > 1:
                    return  # already fetching
                glb = None
        if glb is not None:
            on_ready(level, glb)
            return
        threading.Thread(target=self._fetch, args=(level,), name=f"viewer-lod-{level}", daemon=True).start()

    def _fetch(self, level: int) -> None:
        try:
            glb, error = self._glb_bytes(self._fetches[level]()), None
        except Exception as e:  # the service's error, reported to the page; the viewer keeps LOD 0
            glb, error = None, e
        with self._lock:
            if glb is not None:
                self._bytes[level] = glb
            waiting = self._running.pop(level, [])
        for on_ready, on_error in waiting:
            if glb is not None:
                on_ready(level, glb)
            else:
                on_error(level, error)


def send_glb(widget, reply: dict, glb: bytes, have) -> None:
    """``reply`` with the GLB's key, and its bytes unless the page holds them (``have``)."""
    key = glb_key(glb)
    widget.send({**reply, "key": key}, [] if key in have else [glb])


def answer(viewer, content: dict, buffers=()) -> None:
    """Answer one of the page's messages (``content``, and its binary ``buffers``)."""
    kind, have = content.get("type"), content.get("have")
    have = [h for h in have if isinstance(h, str)] if isinstance(have, list) else []
    if kind == "bundle":
        from .frontend import bundle, bundle_path

        if bundle_path():
            viewer.send({"type": "bundle"}, [bundle()[1]])
    elif kind == "model":
        send_glb(viewer, {"type": "model"}, viewer._glb, have)
    elif kind == "lod":
        # The next lighter level, not the lightest: LOD 2 has no morph targets and the trousers let the
        # legs through (seen on the feminine avatar, 2026-11-23); LOD 1 keeps both and halves the triangles.
        lighter = [k for k in viewer._levels.levels() if k > viewer.lod]
        if not lighter:
            viewer.send({"type": "lod", "level": None})
            return
        viewer._levels.get(min(lighter), lambda level, glb: send_glb(viewer, {"type": "lod", "level": level}, glb, have),
                           lambda level, e: viewer.send({"type": "error", "request": "lod", "name": "",
                                                        "message": f"LOD {level} could not be fetched: {e}"}))
    elif kind == "gone":
        # The page shows this viewer no more (its output cleared, its cell run again): closed, so the
        # kernel lets go of it (still.py); displayed again, it opens again.
        viewer.close()
    elif kind == "picture":
        png = bytes(buffers[0]) if buffers else b""
        if picture_ok(png):
            viewer.take_picture(png)
    elif kind == "clip":
        name = str(content.get("name", ""))
        try:
            glb = viewer.stage.clip_glb(name)
        except ValueError as e:
            viewer.send({"type": "error", "request": "clip", "name": name, "message": str(e)})
            return
        if glb is not None:
            send_glb(viewer, {"type": "clip", "name": name}, glb, have)
