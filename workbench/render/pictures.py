"""The pictures people look at, drawn by the renderer: one image, a preview's PNG bytes, a
turntable, a pose from a clip, a clip's frames, a grid.

>>> from workbench.regeneration.product import build_product_glb
>>> render(build_product_glb("vase"), size=64, camera="full").size
(64, 64)
"""

from __future__ import annotations

import io
import re
import threading
from collections import OrderedDict
from dataclasses import replace

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from workbench.gltf.png import png_bytes
from workbench.gltf.stances import STANCE_CLIP

from .framing import frame, frame_sequence
from .raster import draw, ground_shadow, warm_loops
from .scene import Clip, Model, Posed, load_clip

# 2x supersampling: measured against 3x and 1x in raster's notes.
SUPERSAMPLE = 2
GRID_LABEL_PX = 16
LINE_STEP = GRID_LABEL_PX + 4    # a wrapped column label's lines apart (pixels)


def _turned(posed: Posed, yaw_deg: float, pivot: np.ndarray, elevation_deg: float = 0.0) -> Posed:
    """The posed model turned by ``yaw_deg`` about the vertical axis through ``pivot``, then
    tipped towards the camera by ``elevation_deg`` (the same as raising a camera that looks down)."""
    if not yaw_deg and not elevation_deg:
        return posed
    a, e = np.radians(yaw_deg), np.radians(elevation_deg)
    c, s = np.cos(a), np.sin(a)
    yaw = np.array([[c, 0, s], [0, 1, 0], [-s, 0, c]])
    c, s = np.cos(e), np.sin(e)
    tip = np.array([[1, 0, 0], [0, c, -s], [0, s, c]])
    R = (tip @ yaw).astype(np.float32)
    pv = pivot.astype(np.float32)
    draws = [replace(d, positions=(d.positions - pv) @ R.T + pv, normals=d.normals @ R.T,
                     tangents=None if d.tangents is None else d.tangents @ R.T) for d in posed.draws]
    joints = {k: (v - pv) @ R.T + pv for k, v in posed.joints.items()}
    return Posed(draws=draws, joints=joints, joint_names=posed.joint_names)


def _yawed(posed: Posed, yaw_deg: float, pivot: np.ndarray) -> Posed:
    return _turned(posed, yaw_deg, pivot)


def _pivot(posed: Posed) -> np.ndarray:
    pts = posed.points()
    if len(pts) == 0:
        return np.zeros(3, np.float32)
    c = (pts.min(0) + pts.max(0)) / 2
    return c.astype(np.float32)


def _posed(model: Model, pose, morphs: dict[str, float] | None = None) -> Posed:
    if isinstance(pose, str) and pose == "preview":
        pose = preview_pose(model)
    if pose is None or (isinstance(pose, str) and pose == "bind"):
        return model.posed(morphs=morphs)
    clip_src, time_s = pose
    return model.posed(_posed_clip(model, clip_src), float(time_s), morphs=morphs)


def _shadow(model: Model, posed: Posed, shadow):
    """The contact shadow to draw: ``"auto"`` gives one to avatars (models with the library's
    skeleton, which stand on the ground), True to any model, False to none."""
    if shadow == "auto":
        from workbench.skeleton import JOINT_NAMES

        shadow = set(JOINT_NAMES) <= {model.names[i] for i in model.joint_nodes}
    return ground_shadow(posed) if shadow else None


def _posed_clip(model: Model, clip_src) -> Clip:
    if isinstance(clip_src, str) and "/" not in clip_src:
        return _closest_gender_clip(model, clip_src)
    return clip_src if isinstance(clip_src, Clip) else load_clip(clip_src)


def preview_pose(model: Model):
    """The pose previews and turntables show: the model's own stance (its animation named ``pose``, contract
    section 5: an avatar whose ``pose`` setting is not ``relaxed``) at 0 s, else the library's idle clip at 0 s
    for a model with the library's skeleton (its joint names), else None (the bind pose).

    >>> from workbench.regeneration.product import build_product_glb
    >>> preview_pose(Model(build_product_glb("x"))) is None
    True
    """
    from workbench.skeleton import JOINT_NAMES

    if not set(JOINT_NAMES) <= {model.names[i] for i in model.joint_nodes}:
        return None
    names = [a.get("name") for a in model.doc.get("animations", [])]
    if STANCE_CLIP in names:
        return (Clip(model, names.index(STANCE_CLIP)), 0.0)
    return (_closest_gender_clip(model, "idle"), 0.0)


def _closest_gender_clip(model: Model, name: str) -> Clip:
    """A bare animation name: the library's clip whose skeleton best matches the model's joints.

    Masculine and feminine skeletons share names but not proportions (contract section 6),
    so the rest offsets of the joints tell which file fits this avatar.
    """
    here = {model.names[i]: np.asarray(t[0]) for i, t in enumerate(model.rest_trs) if not isinstance(t, np.ndarray)}
    best, best_err = None, None
    for gender in ("feminine", "masculine"):
        clip = load_clip(f"{gender}/{name}")
        other = clip.rest_offsets
        common = sorted(set(here) & set(other))
        err = sum(float(np.sum((here[n] - other[n]) ** 2)) for n in common) if common else float("inf")
        if best_err is None or err < best_err:
            best, best_err = clip, err
    return best  # type: ignore[return-value]  # the first gender's clip is taken, so never None


def warm_up() -> None:
    """Make ready in this process what every preview and every avatar share, so a new avatar's first
    preview pays only for its own: the renderer's compiled loops (:func:`~workbench.render.raster.warm_loops`),
    the generator's shared parts (``workbench.gltf.avatar.warm_up``: the body's compiled data, topology and
    common textures) and the idle clip of both skeletons, which previews pose in. A service calls it at
    its start, in the background; later calls return at once (about 0.45 s the first time, most of it
    numba loading its cache, then the library clips' keyframes). Nothing made here depends on an avatar's settings.

    >>> warm_up()
    """
    from workbench.gltf.avatar import warm_up as warm_generator

    warm_loops()
    warm_generator()
    for gender in ("feminine", "masculine"):
        load_clip(f"{gender}/idle")
    Image.init()   # Pillow's format plugins, which the first PNG would load


def _max_texture(size: int) -> int:
    # Textures need no more texels than the supersampled image has pixels. Measured per 1024 px
    # JPEG: decoding 1.8 ms (1.1 ms at 1/4 scale through draft), to linear light 3.9 ms: small
    # previews save most of that, a 512 px preview keeps full textures.
    return max(64, size * SUPERSAMPLE)


# The models last drawn, by their GLB's bytes and texture cap: a review test or sheet draws one avatar from two to
# four sides, and each view read the GLB and decoded its textures again (speed38: about a fifth of a 512 px view's
# CPU). A Model is not changed by posing or drawing it (posed() copies what it moves), so a kept one draws the same
# bytes. Two: an avatar and the one compared with it; a model's decoded textures are tens of MB.
KEEP_MODELS = 2
_models: OrderedDict[tuple[bytes, int], Model] = OrderedDict()
_models_lock = threading.Lock()


def _model(glb: bytes, max_texture: int, images: dict[int, np.ndarray] | None) -> Model:
    if images is not None:   # (unencoded textures: a service's first preview, drawn once)
        return Model(glb, max_texture=max_texture, images=images)
    key = (bytes(glb), max_texture)
    with _models_lock:
        model = _models.get(key)
        if model is not None:
            _models.move_to_end(key)
            return model
    model = Model(key[0], max_texture=max_texture)
    with _models_lock:
        _models[key] = model
        while len(_models) > KEEP_MODELS:
            _models.popitem(last=False)
    return model


def render(glb: bytes, *, size: int = 512, camera: str = "portrait",
           background: tuple[int, int, int] | None = None, yaw_deg: float = 0.0, pose="preview",
           elevation_deg: float = 0.0, morphs: dict[str, float] | None = None,
           shadow="auto", images: dict[int, np.ndarray] | None = None) -> Image.Image:
    """Draw the GLB's scene into a ``size`` x ``size`` RGBA image.

    camera: "portrait" (head and shoulders) or "full" (head to toe).
    background: None for transparent, else an (r, g, b) opaque backdrop.
    yaw_deg: turn the model about its vertical axis (positive: counter-clockwise seen from above).
    pose: ``"preview"`` (default: the pose previews and turntables show, :func:`preview_pose`:
    an avatar stands relaxed in the idle clip's first frame, anything else as modelled), ``"bind"``
    (or None) for the bind pose (an avatar's T-pose), or ``(clip, time_s)`` with the clip as GLB
    bytes, an animation name ``"feminine/walk"``, or a bare name ``"walk"`` (the gender whose
    skeleton matches the model's); its channels drive the model's nodes of the same names.
    elevation_deg: look down on the model from this angle (rooms and products); 0 is level.
    morphs: morph target weights by name, ``{"mouthSmileLeft": 0.6, "eyeBlinkLeft": 1.0}``, looked
    up in each mesh's ``extras.targetNames`` (an avatar's 52 ARKit face shapes).
    shadow: the soft contact shadow under the feet: "auto" (avatars), True or False.
    images: pixels of the GLB's images by index, used instead of decoding them (a GLB from
    ``workbench.gltf.avatar.build_avatar_unencoded``, whose images are left empty).

    >>> from workbench.regeneration.product import build_product_glb
    >>> im = render(build_product_glb("lamp"), size=32, camera="full", background=(255, 255, 255))
    >>> im.getpixel((0, 0))
    (255, 255, 255, 255)
    """
    model = _model(glb, _max_texture(size), images)
    posed = _posed(model, pose, morphs)
    posed = _turned(posed, yaw_deg, _pivot(posed), elevation_deg)
    cam = frame(posed, camera)
    return Image.fromarray(draw(posed, cam, size, ss=SUPERSAMPLE, background=background,
                                shadow=_shadow(model, posed, shadow)), "RGBA")


def render_preview(glb: bytes, options, pose=None, images: dict[int, np.ndarray] | None = None) -> bytes:
    """PNG bytes (RGBA) of the preview ``options`` (a ``PreviewOptions``) asks for; same input, same bytes.

    pose: as for :func:`render`; the service passes the idle clip at 0 s, so avatars stand relaxed.
    images: as for :func:`render` (the service renders a first preview from unencoded textures).

    >>> from workbench.options import PreviewOptions
    >>> from workbench.regeneration.product import build_product_glb
    >>> png = render_preview(build_product_glb("a"), PreviewOptions(size=32, camera="full"))
    >>> png[:8] == b"\\x89PNG\\r\\n\\x1a\\n"
    True
    """
    im = render(glb, size=options.size, camera=options.camera, background=options.background, pose=pose,
                images=images)
    # Always RGBA, so readers index the same four channels; with a backdrop every alpha is 255. Encoded on
    # two threads (workbench.gltf.png: 10 ms for a 512 px portrait against Pillow's 19 ms on one).
    return png_bytes(np.asarray(im))


def turntable(glb: bytes, *, frames: int = 24, size: int = 256, camera: str = "full",
              background: tuple[int, int, int] | None = None, fmt: str = "gif", pose="preview") -> bytes:
    """An animated GIF or APNG of the model turning 360 degrees, the camera fixed for all frames.

    pose: "preview" (the default) shows the pose previews show (see :func:`preview_pose`:
    an avatar stands in the idle pose); None the bind pose; or ``(clip, time_s)`` as for
    :func:`render`.

    >>> from workbench.regeneration.product import build_product_glb
    >>> turntable(build_product_glb("v"), frames=4, size=32)[:6]
    b'GIF89a'
    """
    if fmt not in ("gif", "png"):
        raise ValueError(f"turntable: fmt must be gif or png; got {fmt!r}")
    model = _model(glb, _max_texture(size), None)
    posed = _posed(model, preview_pose(model) if isinstance(pose, str) and pose == "preview" else pose)
    pivot = _pivot(posed)
    angles = [360.0 * k / frames for k in range(frames)]
    # Frame once on the model at every angle, so the figure does not jump between frames.
    pts = posed.points()
    step = max(1, len(pts) // 4000)
    sample = Posed(draws=[replace(posed.draws[0], positions=pts[::step])] if posed.draws else [],
                   joints=posed.joints, joint_names=posed.joint_names)
    extra = np.concatenate([_yawed(sample, a, pivot).points() for a in range(0, 360, 30)]) if len(pts) else None
    cam = frame(posed, camera, extra_points=extra)
    shadows = _shadow(model, posed, "auto") is not None
    images = []
    for a in angles:
        turned = _yawed(posed, a, pivot)
        images.append(Image.fromarray(draw(turned, cam, size, ss=SUPERSAMPLE, background=background,
                                           shadow=ground_shadow(turned) if shadows else None), "RGBA"))
    buf = io.BytesIO()
    duration = max(20, round(3000 / frames))
    if fmt == "png":
        images[0].save(buf, format="PNG", save_all=True, append_images=images[1:], duration=duration, loop=0,
                       disposal=1, blend=0)
    else:
        pal = [_gif_frame(im, background) for im in images]
        kwargs = {"transparency": 255} if background is None else {}
        pal[0].save(buf, format="GIF", save_all=True, append_images=pal[1:], duration=duration, loop=0,
                    disposal=2, optimize=False, **kwargs)
    return buf.getvalue()


def _gif_frame(im: Image.Image, background) -> Image.Image:
    """A palette frame; with a transparent background, index 255 is the see-through colour."""
    if background is not None:
        return im.convert("RGB").quantize(256, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
    q = im.convert("RGB").quantize(255, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
    idx = np.asarray(q).copy()
    idx[np.asarray(im)[..., 3] < 128] = 255
    pal = q.getpalette()[: 255 * 3] + [0, 0, 0]  # type: ignore[index]  # a quantized image has its palette
    out = Image.fromarray(idx, "P")
    out.putpalette(pal)
    return out


def pose_image(model_glb: bytes, clip_glb, time_s: float, *, size: int = 256, camera: str = "full",
               background: tuple[int, int, int] | None = None) -> Image.Image:
    """The model in the clip's pose at ``time_s`` (clip: GLB bytes or ``"gender/name"``).

    >>> from workbench.regeneration.product import build_product_glb
    >>> from workbench.render.testing import tiny_rig_glb, tiny_clip_glb
    >>> pose_image(tiny_rig_glb(), tiny_clip_glb(), 0.5, size=32).size
    (32, 32)
    """
    return render(model_glb, size=size, camera=camera, background=background, pose=(clip_glb, time_s))


def pose_sequence(model_glb: bytes, clip_glb, times, *, size: int = 256, camera: str = "full",
                  background: tuple[int, int, int] | None = None, morphs=None, shadow="auto") -> list[Image.Image]:
    """The model in the clip's pose at each of ``times``, all with one camera (framed once on
    every pose), so the figure keeps its size and place from image to image.

    morphs: face shapes to play with the clip: one dict of weights by name for every frame, or
    a callable ``time_s -> dict`` (a blink at 0.4 s, a smile growing over the clip).

    >>> from workbench.render.testing import tiny_rig_glb, tiny_clip_glb
    >>> [im.size for im in pose_sequence(tiny_rig_glb(), tiny_clip_glb(), [0.0, 0.5], size=32)]
    [(32, 32), (32, 32)]
    """
    model = _model(model_glb, _max_texture(size), None)
    clip = _posed_clip(model, clip_glb)
    weights = morphs if callable(morphs) else (lambda t: morphs)
    poses = [model.posed(clip, float(t), morphs=weights(float(t))) for t in times]
    if not poses:
        return []
    cam = frame_sequence(poses, camera)
    return [Image.fromarray(draw(p, cam, size, ss=SUPERSAMPLE, background=background,
                                 shadow=_shadow(model, p, shadow)), "RGBA") for p in poses]


def grid(images: list[list[Image.Image]], row_labels=None, col_labels=None) -> Image.Image:
    """One image of ``images`` in rows and columns, labelled with Pillow's default font.

    >>> from PIL import Image
    >>> tile = Image.new("RGBA", (20, 20), (200, 0, 0, 255))
    >>> grid([[tile, tile]], row_labels=["a"], col_labels=["x", "y"]).mode
    'RGBA'
    """
    rows = [list(r) for r in images if r]
    if not rows:
        return Image.new("RGBA", (1, 1), (255, 255, 255, 255))
    ncols = max(len(r) for r in rows)
    cw = max(im.width for r in rows for im in r)
    rh = max(im.height for r in rows for im in r)
    font = ImageFont.load_default(size=GRID_LABEL_PX)  # Pillow's own font, large enough to read (its bitmap default is ~10 px)
    probe = ImageDraw.Draw(Image.new("RGBA", (1, 1)))

    def text_size(t):
        b = probe.textbbox((0, 0), str(t), font=font)
        return b[2] - b[0], b[3] - b[1]

    def wrapped(t) -> list[str]:
        """A column's label in lines that fit its column, broken after an underscore or a space (a label as long as
        ``hands_behind_back`` under a 160 px preview ran into the next one's)."""
        lines = [""]
        for word in re.split(r"(?<=[_ ])", str(t)):
            if lines[-1] and text_size(lines[-1] + word)[0] > cw - 4:
                lines.append("")
            lines[-1] += word
        return lines

    def label_height(lines: list[str]) -> int:
        return (len(lines) - 1) * LINE_STEP + text_size(lines[-1])[1]

    pad = 6
    col_lines = [wrapped(t) for t in col_labels] if col_labels else []
    left = max((text_size(t)[0] for t in row_labels), default=0) + 2 * pad if row_labels else 0
    top = max((label_height(lines) for lines in col_lines), default=0) + 2 * pad if col_labels else 0
    out = Image.new("RGBA", (left + ncols * cw, top + len(rows) * rh), (255, 255, 255, 255))
    d = ImageDraw.Draw(out)
    for r, row in enumerate(rows):
        for c, im in enumerate(row):
            tile = im.convert("RGBA")
            out.alpha_composite(tile, (left + c * cw + (cw - tile.width) // 2, top + r * rh + (rh - tile.height) // 2))
    for c, lines in enumerate(col_lines[:ncols]):
        for k, line in enumerate(lines):
            w, _ = text_size(line)
            d.text((left + c * cw + (cw - w) // 2, pad + k * LINE_STEP), line, fill=(0, 0, 0, 255), font=font)
    if row_labels:
        for r, t in enumerate(row_labels[: len(rows)]):
            _, h = text_size(t)
            d.text((pad, top + r * rh + (rh - h) // 2), str(t), fill=(0, 0, 0, 255), font=font)
    return out
