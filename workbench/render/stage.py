"""An avatar on a turntable stage: one parsed model drawn again and again from an orbiting camera.

What the interactive viewer (``workbench.widgets.viewer``) draws. Everything that does not change
with the camera is kept per avatar: the parsed model at each level of detail (decoded
textures, accessors), the clips (read on first use), and the skinned pose of each
(clip, time) already drawn (the last ``POSE_CACHE`` of them), so a camera move costs one
projection, rasterization and PNG encoding.

1. :meth:`Stage.pose` poses the model (the preview pose, or a clip at a time) once per
   (lod, clip, time).
2. The camera orbits the stage's pivot (the centre of the preview pose's bounds) at a
   distance that keeps the sphere around the figure in view at any angle, so the avatar
   stays centred and does not grow or shrink as it turns; ``zoom`` divides that distance.
3. :meth:`Stage.image` draws with the previews' rasterizer (2x supersampling) and lays the
   skeleton over it on demand (joints and bones projected with the same camera, drawn by PIL).

Measured on the default feminine avatar, 2-core Xeon: posing 6 to 8 ms, drawing 17 ms
(256 px, LOD 2) and 93 ms (512 px, LOD 0); ``bench/viewer.py`` prints the frame times.

>>> from workbench.render.testing import tiny_rig_glb, tiny_clip_glb
>>> stage = Stage(tiny_rig_glb(), clips={"bend": tiny_clip_glb()})
>>> stage.clip_names
['bend']
>>> a = stage.image(size=48, yaw=0)
>>> b = stage.image(size=48, yaw=90, clip="bend", time_s=1.0)
>>> a.size, a.tobytes() != b.tobytes()
((48, 48), True)
"""

from __future__ import annotations

import io
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from PIL import Image, ImageDraw

from workbench.gltf.png import png_bytes

from .framing import orbit
from .pictures import SUPERSAMPLE, _closest_gender_clip, preview_pose
from .raster import Camera, draw
from .scene import Clip, Model, Posed, load_clip

__all__ = ["Stage", "StageView", "project", "encode"]

POSE_CACHE = 64
# The figure's bounding sphere fills this share of the picture's height at zoom 1.
FILL = 0.92
FOV_DEG = 30.0
LIBRARY_PREFIX = "library/"


@dataclass(frozen=True)
class StageView:
    """Everything one frame depends on; equal views draw equal bytes."""

    yaw: float = 0.0
    elevation: float = 0.0
    zoom: float = 1.0
    size: int = 512
    lod: int = 0
    clip: str = ""
    time_s: float = 0.0
    skeleton: bool = False
    background: tuple[int, int, int] | None = (238, 241, 245)


class Stage:
    """An avatar (GLB bytes) ready to be drawn from any angle, in any of its clips.

    lods: more levels of detail of the same avatar, ``{level: glb}`` (the main GLB is level 0
    unless ``lod`` says otherwise); a view asking for a level the stage lacks gets the nearest.
    clips: more clips by name, ``{name: glb bytes}``, besides the GLB's own animations.
    library_clips: also offer the library's clips (``library/walk``...) of the avatar's gender
    when it has the library's skeleton.
    """

    def __init__(self, glb: bytes, *, lod: int = 0, lods: dict[int, bytes] | None = None,
                 clips: dict[str, bytes] | None = None, library_clips: bool = False, max_texture: int = 1024):
        sources = {int(k): bytes(v) for k, v in (lods or {}).items()}
        sources[int(lod)] = bytes(glb)
        self.main_lod = int(lod)
        self._sources = dict(sorted(sources.items()))
        self._models: dict[int, Model] = {}
        self.max_texture = max_texture
        main = self.model(self.main_lod)
        # Clips: name -> a callable making the Clip, made on first use (reading 18 clips' keys costs
        # more than the first frame of one).
        self._clip_makers: dict[str, Callable[..., Clip]] = {}
        for i, a in enumerate(main.doc.get("animations", [])):
            name = a.get("name") or f"animation {i}"
            self._clip_makers.setdefault(name, lambda i=i: Clip(main, i))
        self._own = set(self._clip_makers)
        self._extra = {name: bytes(data) for name, data in (clips or {}).items() if name not in self._own}
        for name, data in (clips or {}).items():
            self._clip_makers.setdefault(name, lambda data=data: load_clip(bytes(data)))
        if library_clips and self._library_skeleton(main):
            from workbench.options import ANIMATIONS

            for name in ANIMATIONS:
                self._clip_makers[LIBRARY_PREFIX + name] = lambda name=name: _closest_gender_clip(main, name)
        self._clips: dict[str, Clip] = {}
        self._poses: OrderedDict = OrderedDict()
        rest = self.pose()
        pts = rest.points().astype(np.float64)
        if len(pts):
            self.pivot = (pts.min(0) + pts.max(0)) / 2
            self.radius = float(np.sqrt(((pts - self.pivot) ** 2).sum(1)).max())
        else:
            self.pivot, self.radius = np.zeros(3), 1.0
        # Bones to draw over the frame: (parent name, child name) of the skin's joints.
        m = main
        self.bones = [(m.names[m.parent[j]], m.names[j]) for j in sorted(m.joint_nodes)
                      if m.parent[j] in m.joint_nodes and m.names[j] and m.names[m.parent[j]]]

    @staticmethod
    def _library_skeleton(model: Model) -> bool:
        from workbench.skeleton import JOINT_NAMES

        return set(JOINT_NAMES) <= {model.names[i] for i in model.joint_nodes}

    # -- what the stage holds ------------------------------------------------
    @property
    def lods(self) -> list[int]:
        """The levels of detail the stage can draw."""
        return list(self._sources)

    @property
    def clip_names(self) -> list[str]:
        """The clips a view may name: the GLB's own, then the extra ones, then the library's."""
        return list(self._clip_makers)

    def nearest_lod(self, lod: int) -> int:
        return min(self._sources, key=lambda k: (abs(k - lod), -k))

    def model(self, lod: int) -> Model:
        lod = self.nearest_lod(lod)
        if lod not in self._models:
            self._models[lod] = Model(self._sources[lod], max_texture=self.max_texture)
        return self._models[lod]

    def clip(self, name: str) -> Clip:
        if name not in self._clip_makers:
            raise ValueError(f"stage: no clip {name!r}; the stage has {self.clip_names}")
        if name not in self._clips:
            self._clips[name] = self._clip_makers[name]()
        return self._clips[name]

    def clip_glb(self, name: str) -> bytes | None:
        """The GLB of clip ``name`` for a viewer that plays it itself (three.js); None for the model's own.

        >>> from workbench.render.testing import tiny_rig_glb, tiny_clip_glb
        >>> Stage(tiny_rig_glb(), clips={"bend": tiny_clip_glb()}).clip_glb("bend") == tiny_clip_glb()
        True
        """
        if name not in self._clip_makers:
            raise ValueError(f"stage: no clip {name!r}; the stage has {self.clip_names}")
        if name in self._extra:
            return self._extra[name]
        if name.startswith(LIBRARY_PREFIX) and name not in self._own:
            from workbench.gltf import build_animation

            # a library clip has its source, "gender/name"
            gender, _, base = self.clip(name).source.partition("/")  # type: ignore[union-attr]
            return build_animation(gender, base)
        return None

    def duration(self, clip: str) -> float:
        """The clip's length in seconds (0 for the preview pose, ``""``)."""
        return self.clip(clip).duration if clip else 0.0

    # -- 1. posing -------------------------------------------------------------
    def pose(self, lod: int | None = None, clip: str = "", time_s: float = 0.0) -> Posed:
        """The skinned model: the preview pose (``clip=""``) or the clip at ``time_s``; cached."""
        lod = self.nearest_lod(self.main_lod if lod is None else lod)
        key = (lod, clip, round(float(time_s), 4) if clip else 0.0)
        if key in self._poses:
            self._poses.move_to_end(key)
            return self._poses[key]
        model = self.model(lod)
        if clip:
            posed = model.posed(self.clip(clip), key[2])
        else:
            pp = preview_pose(model)
            posed = model.posed(*pp) if pp else model.posed()
        self._poses[key] = posed
        while len(self._poses) > POSE_CACHE:
            self._poses.popitem(last=False)
        return posed

    # -- 2. the camera ---------------------------------------------------------
    def camera(self, view: StageView) -> Camera:
        distance = self.radius / np.sin(np.radians(FOV_DEG) / 2) / FILL
        return orbit(self.pivot, distance / max(view.zoom, 1e-3), view.yaw, view.elevation, FOV_DEG)

    # -- 3. drawing ------------------------------------------------------------
    def image(self, view: StageView | None = None, **kw) -> Image.Image:
        """The frame of ``view`` (or of a StageView made of ``kw``) as an RGBA image."""
        view = view or StageView(**kw)
        posed = self.pose(view.lod, view.clip, view.time_s)
        cam = self.camera(view)
        im = Image.fromarray(draw(posed, cam, view.size, ss=SUPERSAMPLE, background=view.background), "RGBA")
        if view.skeleton:
            self._overlay_skeleton(im, posed, cam)
        return im

    def _overlay_skeleton(self, im: Image.Image, posed: Posed, cam: Camera) -> None:
        names = sorted({n for b in self.bones for n in b} & set(posed.joints))
        if not names:
            return
        xy, front = project(np.stack([posed.joints[n] for n in names]), cam, im.width)
        at = {n: (tuple(p), ok) for n, p, ok in zip(names, xy, front, strict=True)}
        d = ImageDraw.Draw(im)
        width = max(1, im.width // 256)
        for a, b in self.bones:
            if a in at and b in at and at[a][1] and at[b][1]:
                d.line([at[a][0], at[b][0]], fill=(255, 140, 0, 255), width=width)
        r = max(1.5, im.width / 200)
        for p, ok in at.values():
            if ok:
                d.ellipse([p[0] - r, p[1] - r, p[0] + r, p[1] + r], fill=(20, 90, 220, 255))


def project(points: np.ndarray, cam: Camera, size: int) -> tuple[np.ndarray, np.ndarray]:
    """Pixel coordinates (n, 2) of world ``points`` in a ``size`` image of ``cam``, and which lie in front of it.

    >>> from workbench.render.framing import orbit
    >>> xy, ok = project(np.array([[0.0, 1.0, 0.0]]), orbit(np.array([0.0, 1.0, 0.0]), 3.0, 0, 0), 100)
    >>> xy.round(1).tolist(), ok.tolist()
    ([[50.0, 50.0]], [True])
    """
    V = np.asarray(cam.view, np.float64)
    pv = points @ V[:3, :3].T + V[:3, 3]
    depth = -pv[:, 2]
    ok = depth > cam.near
    f = 1.0 / np.tan(np.radians(cam.fov_deg) / 2)
    d = np.where(ok, depth, 1.0)
    x = (0.5 + 0.5 * f * pv[:, 0] / d) * size
    y = (0.5 - 0.5 * f * pv[:, 1] / d) * size
    return np.stack([x, y], 1), ok


def encode(im: Image.Image, fmt: str = "png") -> bytes:
    """Image bytes for the front-end; the same image gives the same bytes.

    PNG as previews are (:func:`workbench.gltf.png.png_bytes`, RGBA on two threads).

    >>> encode(Image.new("RGBA", (4, 4)))[:4]
    b'\\x89PNG'
    """
    if fmt == "png":
        return png_bytes(np.asarray(im.convert("RGBA")))
    buf = io.BytesIO()
    if fmt in ("jpeg", "webp"):
        im.convert("RGB").save(buf, format=fmt.upper(), quality=88)
    else:
        raise ValueError(f"stage: format must be png, jpeg or webp; got {fmt!r}")
    return buf.getvalue()
