"""An avatar to turn, zoom and play in a notebook: an anywidget drawn by three.js in the browser.

The front-end (``static/viewer.js``: ``js/viewer/``, one module per feature, bundled with three.js
by esbuild when the package is built, see ``hatch_build.py`` and ``frontend.py``) draws with WebGL on
the GPU: orbit, pan, zoom toward the pointer, focus presets, lights, shadow, wireframe, skeleton, a
timeline with speed and frame steps, morph target sliders, fullscreen, screenshots. Its ranges and
menus are the kernel's (``view_rules.py``, sent as the ``rules`` traitlet). The widget's module is a
small loader (``js/viewer/loader.js``); the bundle and the GLB bytes go to the page as binary buffers of custom
messages, so a notebook saved with its widget state does not hold a copy of either per viewer,
and nothing is fetched from any host.

Where there is no bundle (a package built without Node.js), or with ``renderer="kernel"``, the kernel
draws the frames with the workbench's own renderer (``workbench.render.stage``) and the front-end
(``js/viewer/kernel_frames.js``) shows them; the viewer says so once. A page without WebGL says how to
ask for that: the kernel decides who draws, and a page sets only what a person sets with the mouse and
keys (``set_state``, ``page_link.PAGE_TRAITS``), within the same bounds as code (``view_rules``).

The camera (``yaw``, ``elevation``, ``zoom``, ``target``), the clip, its ``time`` and ``speed``, the
look (``light``, ``background``, ``shadow``...) and the morph ``weights`` are traitlets, so code sets
them as the mouse does and reads what the mouse did (the page sends them when a gesture ends).
With three.js, the page sends the canvas's own PNG when the view settles: ``snapshot()`` is what the
canvas shows, and the output showing the viewer keeps that picture as ``image/png`` beside the widget
(``still.py``), so a notebook saved, converted or shown without a kernel has the view the person had;
where no page ever drew (a notebook run by nbconvert or nbclient), the kernel's still of the same view.
Each picture crosses once: the widget's state holds none. With kernel frames, ``frame`` is the frame.

anywidget is imported with this module, not with ``workbench``: a client that never opens a
viewer never loads it.

>>> from workbench.render.testing import tiny_rig_glb, tiny_clip_glb
>>> v = AvatarViewer(tiny_rig_glb(), clips={"bend": tiny_clip_glb()}, size=64, renderer="kernel")
>>> before = v.frame
>>> v.yaw = 30
>>> v.frame != before, v.snapshot().size
(True, (64, 64))
"""

from __future__ import annotations

import os
import warnings
from pathlib import Path

import anywidget
import traitlets as t
from ipywidgets.widgets.trait_types import bytes_serialization

from workbench.gltf.glb import read_glb
from workbench.render.stage import Stage, StageView, encode

from . import frontend, page_link, view_rules
from .frontend import bundle_path
from .still import ShowsStill, with_still

__all__ = ["AvatarViewer", "glb_bytes", "bundle_path", "morph_target_names"]

# The traitlets a kernel frame depends on; with renderer="kernel" a change to any of them draws again.
VIEW_TRAITS = ["yaw", "elevation", "zoom", "dragging", "clip", "time", "skeleton", "size", "lod",
               "interactive_size", "interactive_lod", "format", "renderer"]
_said: set[str] = set()


def _say_once(message: str) -> None:
    # Once per process: a notebook with ten viewers needs the reason once, not ten times.
    if message not in _said:
        _said.add(message)
        warnings.warn(message, UserWarning, stacklevel=3)


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


def morph_target_names(glb: bytes) -> list[str]:
    """The morph targets' names in a GLB, as three.js reads them (each mesh's ``extras.targetNames``),
    in order of first appearance.

    >>> from workbench.render.testing import tiny_rig_glb
    >>> morph_target_names(tiny_rig_glb())
    []
    """
    doc, _ = read_glb(glb)
    names: list[str] = []
    for mesh in doc.get("meshes", []):
        for n in (mesh.get("extras") or {}).get("targetNames") or []:
            if isinstance(n, str) and n not in names:
                names.append(n)
    return names


class AvatarViewer(ShowsStill, anywidget.AnyWidget):
    """An avatar GLB in a live 3D view drawn by three.js: orbit, pan, zoom, clips, lights, morphs.

    model: GLB bytes, a path, or the client's ``Model`` result (``client.avatars.model(id).view()``).
    clips: more clips, ``{name: clip GLB}``; library_clips: offer the library's clips of the
    avatar's gender too (``library/walk``...), besides the GLB's own animations.
    renderer: "webgl" (the default where the bundle is built) or "kernel" (frames drawn by the
    kernel, as without Node.js or WebGL); lods: lighter versions of the same avatar, ``{level: GLB}``,
    for the kernel's drag frames and, on a software GPU (no graphics card), the frames three.js
    draws while the view moves; a level may be a callable returning its GLB, called (in a thread)
    only when a page first needs it (``Model.view()`` fetches LOD 1 from the service so).
    Other keywords set traitlets (``size``, ``yaw``, ``clip``, ``light``, ``weights``...).

    >>> from workbench.render.testing import tiny_rig_glb
    >>> v = AvatarViewer(tiny_rig_glb(), size=32, yaw=20)
    >>> v.snapshot().size, v.yaw
    ((32, 32), 20.0)
    """

    _esm = frontend.loader() if bundle_path() else frontend.kernel_frames_module()
    _css = frontend.css()

    renderer = t.Enum(["webgl", "kernel"], "webgl", help="who draws: three.js in the page, or the kernel").tag(sync=True)
    bundle_id = t.Unicode("", help="the three.js front-end's version: a page loads each once").tag(sync=True)
    model_key = t.Unicode("", help="the GLB's name in the page: a page holds one copy of each").tag(sync=True)
    viewer_id = t.Unicode("", help="this viewer, for the page: an output drawn again keeps its view").tag(sync=True)
    notice = t.Unicode("", help="what the viewer says about how it draws").tag(sync=True)
    label = t.Unicode("", help="a title over the view (compare() names each side)").tag(sync=True)
    rules = t.Dict(view_rules.page_rules(), read_only=True,
                   help="the zoom range and the menus' values, for the page (view_rules.py)").tag(sync=True)

    frame = t.Bytes(b"", help="kernel frames: the last frame, in `format`").tag(sync=True, **bytes_serialization)
    frame_id = t.Int(0, help="counts the pictures").tag(sync=True)
    frame_size = t.Int(0, help="the last picture's width in px").tag(sync=True)
    frame_quality = t.Unicode("full", help="kernel frames: interactive (while dragging) or full; with three.js: "
                                           "still (the kernel's, until a page draws) or canvas (the page's)").tag(sync=True)
    format = t.Enum(["png", "jpeg", "webp"], "png", help="kernel frames' image format").tag(sync=True)

    yaw = t.Float(0.0, help="degrees the avatar is turned (counter-clockwise seen from above)").tag(sync=True)
    elevation = t.Float(0.0, help="degrees the camera looks down (negative: up)").tag(sync=True)
    zoom = t.Float(1.0, help="1 frames the whole avatar; 2 is twice as close").tag(sync=True)
    target = t.List(t.Float(), [], help="the point the camera orbits, metres; [] is the avatar's centre").tag(sync=True)
    focus = t.Enum(view_rules.FOCUS, "full", help="frame the whole body or a part").tag(sync=True)
    auto_rotate = t.Bool(False).tag(sync=True)
    dragging = t.Bool(False, help="kernel frames: set by the front-end while a drag lasts").tag(sync=True)

    size = t.Int(512, help="the view's height in px (its width follows the cell); kernel frames' side").tag(sync=True)
    lod = t.Int(0, help="kernel frames: level of detail of the full frame").tag(sync=True)
    interactive_size = t.Int(256, help="kernel frames: side of the frames drawn while dragging, px").tag(sync=True)
    interactive_lod = t.Int(2, help="kernel frames: level of detail while dragging, when the viewer has it").tag(sync=True)

    light = t.Enum(view_rules.LIGHTS, "studio", help="lights fixed to the world").tag(sync=True)
    background = t.Unicode("#eef1f5", help="background colour, #rrggbb").tag(sync=True)
    shadow = t.Bool(True, help="a shadow on the ground").tag(sync=True)
    wireframe = t.Bool(False).tag(sync=True)
    normals = t.Bool(False, help="shade by surface normals").tag(sync=True)
    skeleton = t.Bool(False, help="draw the joints and bones (names on hover)").tag(sync=True)

    clips = t.List(t.Unicode(), help="the clips the menu offers").tag(sync=True)
    clip = t.Unicode("", help='the clip shown; "" is no clip').tag(sync=True)
    time = t.Float(0.0, help="seconds into the clip").tag(sync=True)
    duration = t.Float(0.0, help="the clip's length, s").tag(sync=True)
    playing = t.Bool(False).tag(sync=True)
    loop = t.Bool(True).tag(sync=True)
    speed = t.Float(1.0, help="playback speed, 0.25 to 2 (the menu: view_rules.SPEEDS)").tag(sync=True)

    morph_targets = t.List(t.Unicode(), help="the model's morph targets, by name").tag(sync=True)
    weights = t.Dict(t.Float(), help="morph target weights, {name: 0 to 1}").tag(sync=True)

    link_group = t.Unicode("", help="viewers of one group share the camera in the page (compare())").tag(sync=True)
    link_time = t.Bool(False, help="and the clip's time").tag(sync=True)

    def __init__(self, model, *, lods: dict | None = None, clips: dict | None = None, library_clips: bool = False,
                 lod: int = 0, **kwargs):
        self._glb = glb_bytes(model)
        self._levels = page_link.Levels(lods or {}, glb_bytes)
        self.stage = Stage(self._glb, lod=lod, lods=self._levels.known,
                           clips={k: glb_bytes(v) for k, v in (clips or {}).items()}, library_clips=library_clips)
        self._image = None
        self._drawn = None
        self._still = None  # (view, image): the kernel's still of the last view asked for
        self._picture: bytes | None = None  # the page's PNG of the view it drew last
        time_s = kwargs.pop("time", 0.0)  # checked against the clip's duration, known once the clip is set
        weights = kwargs.pop("weights", {})  # checked against the model's morph targets
        renderer = kwargs.pop("renderer", "webgl" if bundle_path() else "kernel")
        if renderer == "webgl" and not bundle_path():
            renderer = "kernel"
        if renderer == "kernel" and not bundle_path():
            kwargs.setdefault("notice", "the kernel draws the frames: this package was built without Node.js, "
                                        "so the three.js front-end is missing (reinstall with Node.js and npm)")
            _say_once(f"AvatarViewer: {kwargs['notice']}.")
        if bundle_path():
            kwargs["bundle_id"] = frontend.bundle()[0]
        super().__init__(lod=lod, clips=self.stage.clip_names, model_key=page_link.glb_key(self._glb),
                         frame_quality="full" if renderer == "kernel" else "still",
                         morph_targets=morph_target_names(self._glb), renderer=renderer, **kwargs)
        if self.comm is not None:
            self.viewer_id = self.model_id
        self.duration = self.stage.duration(self.clip)
        self.time = time_s
        self.weights = weights
        self.observe(self._redraw, names=VIEW_TRAITS)
        self.on_msg(self._on_message)
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
        return view_rules.clamp(view_rules.finite("zoom", proposal["value"]), view_rules.ZOOM_RANGE)

    @t.validate("elevation")
    def _valid_elevation(self, proposal):
        return view_rules.clamp(view_rules.finite("elevation", proposal["value"]), view_rules.ELEVATION_RANGE)

    @t.validate("speed")
    def _valid_speed(self, proposal):
        lo, hi = min(view_rules.SPEEDS), max(view_rules.SPEEDS)
        value = float(proposal["value"])
        if not lo <= value <= hi:
            raise t.TraitError(f"AvatarViewer: speed is {lo} to {hi}; got {value}")
        return value

    @t.validate("target")
    def _valid_target(self, proposal):
        value = [view_rules.finite("target", v) for v in proposal["value"]]
        if len(value) not in (0, 3):
            raise t.TraitError(f"AvatarViewer: target is [x, y, z] in metres or [] for the centre; got {value}")
        return value

    @t.validate("size")
    def _valid_size(self, proposal):
        return view_rules.within("size", proposal["value"], view_rules.SIZE_RANGE)

    @t.validate("interactive_size")
    def _valid_interactive_size(self, proposal):
        return view_rules.within("interactive_size", proposal["value"], view_rules.INTERACTIVE_SIZE_RANGE)

    @t.validate("yaw")
    def _valid_yaw(self, proposal):
        return view_rules.finite("yaw", proposal["value"])

    @t.validate("background")
    def _valid_background(self, proposal):
        value = proposal["value"]
        if not (len(value) == 7 and value[0] == "#" and all(c in "0123456789abcdefABCDEF" for c in value[1:])):
            raise t.TraitError(f"AvatarViewer: background is a colour #rrggbb; got {value!r}")
        return value.lower()

    @t.validate("weights")
    def _valid_weights(self, proposal):
        weights = dict(proposal["value"])
        unknown = sorted(set(weights) - set(self.morph_targets))
        if unknown:
            raise t.TraitError(f"AvatarViewer: no morph target {unknown[0]!r}; the model has "
                               f"{self.morph_targets or 'none'}")
        bad = {k: v for k, v in weights.items() if not 0.0 <= float(v) <= 1.0}
        if bad:
            raise t.TraitError(f"AvatarViewer: a morph weight is 0 to 1; got {bad}")
        return {k: float(v) for k, v in weights.items()}

    @t.observe("clip")
    def _clip_changed(self, change):
        self.duration = self.stage.duration(change["new"])
        if self.time > self.duration or not change["new"]:
            self.time = 0.0

    # -- the page: what it may set, what it asks for (page_link.py) ----------------------------------
    def set_state(self, sync_data):
        """A page's update: only the traitlets a person sets with the mouse and keys
        (``page_link.PAGE_TRAITS``), each of a bounded size and checked as code's values are; the rest, and any
        value that fails its check, are dropped (the others in the same message are kept); a value too large is
        said to the page (an ``error`` message naming it)."""
        taken = {}
        for name, value in sync_data.items():
            if name not in page_link.PAGE_TRAITS:
                continue
            problem = page_link.page_value_problem(name, value, self.morph_targets)
            if problem is None:
                taken[name] = value
            else:   # refused before traitlets walks it, and said to the page
                self.send({"type": "error", "request": "state", "name": name,
                           "message": f"AvatarViewer: {name} {problem}; not taken"})
        try:
            super().set_state(taken)
        except (t.TraitError, TypeError, ValueError):
            for name, value in taken.items():
                try:
                    super().set_state({name: value})
                except (t.TraitError, TypeError, ValueError):
                    pass


    def _reopen(self) -> None:
        super()._reopen()
        if self.comm is not None:
            self.viewer_id = self.model_id

    def _on_message(self, _widget, content, buffers):
        if isinstance(content, dict):
            page_link.answer(self, content, buffers)

    # -- frames ------------------------------------------------------------------
    def view_now(self, *, full: bool | None = None) -> StageView:
        """The StageView the current traitlets describe (the interactive one while dragging)."""
        interactive = self.dragging if full is None else not full
        return StageView(yaw=self.yaw, elevation=self.elevation, zoom=self.zoom,
                         size=self.interactive_size if interactive else self.size,
                         lod=self.interactive_lod if interactive else self.lod,
                         clip=self.clip, time_s=self.time if self.clip else 0.0, skeleton=self.skeleton)

    def _redraw(self, *_):
        if self.renderer != "kernel":
            return  # the page draws; the kernel draws a still only where no page has drawn (snapshot)
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

    def take_picture(self, png: bytes) -> None:
        """The page's picture of the view, as it drew it (a PNG): what ``snapshot()`` returns from now
        on and what the notebook keeps of this viewer (the outputs showing it are updated)."""
        if png == self._picture:
            return
        size = page_link.png_size(png)
        if size is None:
            raise ValueError("png: not a PNG (a page's picture of its view is a PNG with its header)")
        width, _ = size
        self._picture = png
        with self.hold_sync():
            self.frame_quality, self.frame_size = "canvas", width
            self.frame_id += 1
        self._still_changed()

    def snapshot(self):
        """What the view shows, a PIL image (it shows itself in Jupyter).

        With three.js, the canvas's own picture as the page last sent it (when the view settled);
        where no page has drawn, and with kernel frames, the kernel's full frame of the same view.

        >>> from workbench.render.testing import tiny_rig_glb
        >>> AvatarViewer(tiny_rig_glb(), size=32).snapshot().mode
        'RGBA'
        """
        import io

        from PIL import Image

        if self.renderer == "webgl" and self._picture is not None:
            return Image.open(io.BytesIO(self._picture)).convert("RGBA")
        view = self.view_now(full=True)
        if self.renderer == "kernel" and self._drawn == (view, self.format) and self._image is not None:
            return self._image.copy()
        if self._still is None or self._still[0] != view:
            self._still = (view, self.stage.image(view))
        return self._still[1].copy()

    def still_alt(self) -> str:
        """What the picture shows, in words.

        >>> from workbench.render.testing import tiny_clip_glb, tiny_rig_glb
        >>> AvatarViewer(tiny_rig_glb(), clips={"bend": tiny_clip_glb()}, size=32, yaw=30, clip="bend").still_alt()
        'The avatar in the 3D viewer, turned 30°, looked at from 0° above, zoom 1, clip bend at 0.00 s'
        """
        words = f"The avatar in the 3D viewer{' (' + self.label + ')' if self.label else ''}, turned {self.yaw:g}°, " \
                f"looked at from {self.elevation:g}° above, zoom {self.zoom:g}"
        return words + (f", clip {self.clip} at {self.time:.2f} s" if self.clip else "")

    def _repr_mimebundle_(self, **kwargs):
        # The page's PNG as it sent it, else the kernel's still: the widget's state holds no copy.
        picture = self._picture if self.renderer == "webgl" and self._picture is not None else self.snapshot()
        return with_still(self._widget_bundle(**kwargs), picture)

    # -- two avatars -----------------------------------------------------------------
    @staticmethod
    def compare(model_a, model_b, *, labels: tuple[str, str] = ("A", "B"), link_clip: bool = True,
                link_time: bool = False, **kwargs):
        """Two viewers side by side, labelled, on one camera: turning or zooming either turns both.

        link_clip: picking a clip on one picks it on the other (when both have it); link_time: and
        keeps their times together. Each view takes half the cell's width (two fit 1200 px).

        >>> from workbench.render.testing import tiny_rig_glb
        >>> pair = AvatarViewer.compare(tiny_rig_glb(), tiny_rig_glb(), labels=("LOD 0", "LOD 2"), size=32)
        >>> pair.a.yaw = 45
        >>> pair.b.yaw, pair.b.label
        (45.0, 'LOD 2')
        """
        a = AvatarViewer(model_a, label=labels[0], **kwargs)
        b = AvatarViewer(model_b, label=labels[1], **kwargs)
        from .comparison import AvatarComparison

        return AvatarComparison(a, b, link_clip=link_clip, link_time=link_time)
