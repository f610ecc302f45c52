"""An avatar to turn, zoom and play in a notebook: an anywidget drawn by the workbench's own renderer.

The kernel renders every frame (``workbench.render.stage``) and sends it as PNG bytes in
the ``frame`` traitlet; the front-end (``viewer.js`` beside this file, written for the
project, nothing fetched from any host) shows it and sends back the camera: drag to orbit,
wheel to zoom, double-click to frame. While a drag lasts, frames are cheap
(``interactive_size`` px, ``interactive_lod``); on release the full frame follows.

The camera (``yaw``, ``elevation``, ``zoom``), the clip and its ``time`` are traitlets, so
code sets them as the mouse does and reads what the mouse did. ``snapshot()`` is the current
frame as an image, and the widget's mimebundle carries it as ``image/png`` so a notebook
saved or converted without a kernel shows the picture.

anywidget is imported with this module, not with ``workbench``: a client that never opens a
viewer never loads it.

>>> from workbench.render.testing import tiny_rig_glb, tiny_clip_glb
>>> v = AvatarViewer(tiny_rig_glb(), clips={"bend": tiny_clip_glb()}, size=64)
>>> before = v.frame
>>> v.yaw = 30
>>> v.frame != before, v.snapshot().size
(True, (64, 64))
"""

from __future__ import annotations

import os
from pathlib import Path

import anywidget
import ipywidgets
import traitlets as t

from workbench.render.stage import Stage, StageView, encode

__all__ = ["AvatarViewer", "AvatarComparison", "glb_bytes"]

# The traitlets a frame depends on; a change to any of them draws again.
VIEW_TRAITS = ["yaw", "elevation", "zoom", "dragging", "clip", "time", "skeleton", "size", "lod",
               "interactive_size", "interactive_lod", "format"]
CAMERA_TRAITS = ("yaw", "elevation", "zoom", "dragging")


def glb_bytes(source) -> bytes:
    """GLB bytes of ``source``: bytes, a path, or a result with ``.content`` (the client's ``Model``).

    >>> glb_bytes(b"glTF...")
    b'glTF...'
    """
    if isinstance(source, (bytes, bytearray, memoryview)):
        return bytes(source)
    if isinstance(source, (str, os.PathLike)):
        return Path(source).read_bytes()
    content = getattr(source, "content", None)
    if isinstance(content, (bytes, bytearray)):
        return bytes(content)
    raise TypeError(f"AvatarViewer: a model is GLB bytes, a path or a result with .content; got {type(source).__name__}")


def _with_still(bundle, image) -> dict:
    """A widget's mimebundle with a PNG still of ``image`` beside it, for wherever widgets do not run
    (a notebook saved or converted without a kernel)."""
    data = dict((bundle[0] if isinstance(bundle, tuple) else bundle) or {})
    data["image/png"] = encode(image, "png")
    return data


class AvatarViewer(anywidget.AnyWidget):
    """An avatar GLB in a live view: orbit, zoom, clips, skeleton; frames rendered in the kernel.

    model: GLB bytes, a path, or the client's ``Model`` result (``client.avatars.model(id).view()``).
    lods: lighter versions of the same avatar, ``{2: glb}``: drag frames use ``interactive_lod``.
    clips: more clips, ``{name: clip GLB}``; library_clips: offer the library's clips of the
    avatar's gender too (``library/walk``...), besides the GLB's own animations.
    Other keywords set traitlets (``size``, ``yaw``, ``clip``, ``skeleton``...).

    >>> from workbench.render.testing import tiny_rig_glb
    >>> AvatarViewer(tiny_rig_glb(), size=32).frame_size
    32
    """

    _esm = Path(__file__).with_name("viewer.js")
    _css = """
    .wb-avatar-viewer { display: inline-flex; flex-direction: column; gap: 4px; font: 12px sans-serif;
                        width: var(--wb-av-size, 512px); max-width: 100%; }
    .wb-av-stage { cursor: grab; touch-action: none; user-select: none; line-height: 0; }
    .wb-av-stage:active { cursor: grabbing; }
    .wb-av-frame { width: var(--wb-av-size, 512px); max-width: 100%; aspect-ratio: 1; height: auto; }
    .wb-av-toolbar { display: flex; align-items: center; gap: 6px; flex-wrap: wrap; }
    .wb-av-time { flex: 1; min-width: 100px; }
    .wb-av-clip { max-width: 12em; }
    .wb-av-readout { color: #556; }
    """

    frame = t.Bytes(b"", help="the last frame's image bytes (format)").tag(sync=True)
    frame_id = t.Int(0, help="counts the frames sent").tag(sync=True)
    frame_size = t.Int(0, help="the last frame's side in px").tag(sync=True)
    frame_quality = t.Unicode("full", help="interactive (while dragging) or full").tag(sync=True)
    format = t.Enum(["png", "jpeg", "webp"], "png").tag(sync=True)

    yaw = t.Float(0.0, help="degrees the avatar is turned (counter-clockwise seen from above)").tag(sync=True)
    elevation = t.Float(0.0, help="degrees the camera looks down (negative: up)").tag(sync=True)
    zoom = t.Float(1.0, help="1 frames the whole avatar; 2 is twice as close").tag(sync=True)
    dragging = t.Bool(False, help="set by the front-end while a drag lasts").tag(sync=True)

    size = t.Int(512, help="side of the full frame, px").tag(sync=True)
    lod = t.Int(0, help="level of detail of the full frame").tag(sync=True)
    interactive_size = t.Int(256, help="side of the frames drawn while dragging, px").tag(sync=True)
    interactive_lod = t.Int(2, help="level of detail while dragging, when the viewer has it").tag(sync=True)

    clips = t.List(t.Unicode(), help="the clips the menu offers").tag(sync=True)
    clip = t.Unicode("", help='the clip shown; "" is the preview pose').tag(sync=True)
    time = t.Float(0.0, help="seconds into the clip").tag(sync=True)
    duration = t.Float(0.0, help="the clip's length, s").tag(sync=True)
    playing = t.Bool(False).tag(sync=True)
    loop = t.Bool(True).tag(sync=True)
    skeleton = t.Bool(False, help="draw the joints and bones over the frame").tag(sync=True)

    def __init__(self, model, *, lods: dict | None = None, clips: dict | None = None, library_clips: bool = False,
                 lod: int = 0, **kwargs):
        self.stage = Stage(glb_bytes(model), lod=lod, lods={k: glb_bytes(v) for k, v in (lods or {}).items()},
                           clips={k: glb_bytes(v) for k, v in (clips or {}).items()}, library_clips=library_clips)
        self._image = None
        self._drawn = None
        time_s = kwargs.pop("time", 0.0)  # checked against the clip's duration, known once the clip is set
        super().__init__(lod=lod, clips=self.stage.clip_names, **kwargs)
        self.duration = self.stage.duration(self.clip)
        self.time = time_s
        self.observe(self._redraw, names=VIEW_TRAITS)
        self._redraw()

    # -- traitlets ---------------------------------------------------------------
    @t.validate("clip")
    def _valid_clip(self, proposal):
        name = proposal["value"]
        if name and name not in self.stage.clip_names:
            raise t.TraitError(f"AvatarViewer: no clip {name!r}; the viewer has {self.stage.clip_names}")
        return name

    @t.validate("time")
    def _valid_time(self, proposal):
        return min(max(float(proposal["value"]), 0.0), self.duration) if self.clip else 0.0

    @t.validate("zoom")
    def _valid_zoom(self, proposal):
        return min(max(float(proposal["value"]), 0.1), 20.0)

    @t.validate("elevation")
    def _valid_elevation(self, proposal):
        return min(max(float(proposal["value"]), -89.0), 89.0)

    @t.observe("clip")
    def _clip_changed(self, change):
        self.duration = self.stage.duration(change["new"])
        if self.time > self.duration or not change["new"]:
            self.time = 0.0

    # -- frames ------------------------------------------------------------------
    def view_now(self, *, full: bool | None = None) -> StageView:
        """The StageView the current traitlets describe (the interactive one while dragging)."""
        interactive = self.dragging if full is None else not full
        return StageView(yaw=self.yaw, elevation=self.elevation, zoom=self.zoom,
                         size=self.interactive_size if interactive else self.size,
                         lod=self.interactive_lod if interactive else self.lod,
                         clip=self.clip, time_s=self.time if self.clip else 0.0, skeleton=self.skeleton)

    def _redraw(self, *_):
        view = self.view_now()
        key = (view, self.format)
        # Several traitlets set in one message notify one by one; the first draw serves them all.
        if key == self._drawn:
            return
        self._drawn = key
        self._image = self.stage.image(view)
        with self.hold_sync():
            self.frame = encode(self._image, self.format)
            self.frame_size = view.size
            self.frame_quality = "interactive" if self.dragging else "full"
            self.frame_id += 1

    def snapshot(self):
        """The current view at full size and detail, a PIL image (it shows itself in Jupyter).

        >>> from workbench.render.testing import tiny_rig_glb
        >>> AvatarViewer(tiny_rig_glb(), size=32).snapshot().mode
        'RGBA'
        """
        if self.dragging or self._image is None:
            return self.stage.image(self.view_now(full=True))
        return self._image.copy()

    def _repr_mimebundle_(self, **kwargs):
        return _with_still(super()._repr_mimebundle_(**kwargs), self.snapshot())

    # -- two avatars -----------------------------------------------------------------
    @staticmethod
    def compare(model_a, model_b, **kwargs) -> "AvatarComparison":
        """Two viewers side by side on one camera: turning or zooming either turns both.

        >>> from workbench.render.testing import tiny_rig_glb
        >>> pair = AvatarViewer.compare(tiny_rig_glb(), tiny_rig_glb(), size=32)
        >>> pair.a.yaw = 45
        >>> pair.b.yaw
        45.0
        """
        return AvatarComparison(AvatarViewer(model_a, **kwargs), AvatarViewer(model_b, **kwargs))


class AvatarComparison(ipywidgets.HBox):
    """Two AvatarViewers in an HBox with their cameras linked (``a`` and ``b``)."""

    def __init__(self, a: AvatarViewer, b: AvatarViewer):
        super().__init__([a, b])
        self.a, self.b = a, b
        # Linked in the kernel, so code and the mouse (whose changes reach the kernel) move both.
        self.links = [ipywidgets.link((a, name), (b, name)) for name in CAMERA_TRAITS]

    def snapshot(self):
        """Both frames side by side, one PIL image."""
        from PIL import Image

        left, right = self.a.snapshot(), self.b.snapshot()
        out = Image.new("RGBA", (left.width + right.width, max(left.height, right.height)), (255, 255, 255, 0))
        out.paste(left, (0, 0))
        out.paste(right, (left.width, 0))
        return out

    def _repr_mimebundle_(self, **kwargs):
        return _with_still(super()._repr_mimebundle_(**kwargs), self.snapshot())
