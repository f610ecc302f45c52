"""Procedural textures in the avatar's colours (cloth, shoe leather) and their deterministic encoding
to JPEG, PNG or WebP. The body's own textures live with the body: skin (:mod:`workbench.body.skin`),
eyes (:mod:`workbench.body.eyes`), hair (:mod:`workbench.body.hair`), baked occlusion
(:mod:`workbench.body.ao`) and glasses (:mod:`workbench.body.glasses`); the cloth's weave, bands, folds
and roughness on each garment's UVs live with the garments (:mod:`workbench.body.outfit.cloth`).

Every generator is pure (its noise comes from a fixed seed) and cached per colour, and
every encoder uses fixed parameters, so the same settings always give the same bytes.

>>> img = cloth_texture("#3B5B8C", "tee")
>>> img.shape, img.dtype.name
((512, 512, 3), 'uint8')
>>> encode(img, "jpeg")[:3] == b"\\xff\\xd8\\xff"
True
"""

from __future__ import annotations

import hashlib
import io
import threading
from collections import OrderedDict
from functools import lru_cache

import numpy as np
from numba import njit
from PIL import Image

from .png import png_bytes

SHOE_SIZE = 256

MIME = {"jpeg": "image/jpeg", "png": "image/png", "webp": "image/webp"}


def rgb(color: str) -> np.ndarray:
    """'#RRGGBB' -> float array in 0..1."""
    c = color.lstrip("#")
    return np.array([int(c[i:i + 2], 16) for i in (0, 2, 4)], float) / 255.0


def _to_u8(img: np.ndarray) -> np.ndarray:
    out = np.clip(img * np.float32(255.0) + np.float32(0.5), 0, 255).astype(np.uint8)
    out.setflags(write=False)
    return out


def _mix(a: np.ndarray, b: np.ndarray, t: np.ndarray) -> np.ndarray:
    t = np.clip(t, 0.0, 1.0)[..., None]
    return a * (1 - t) + b * t


@lru_cache(maxsize=64)
def cloth_texture(color: str, style: str) -> np.ndarray:
    """A garment of style ``style`` (``tee``, ``trousers``, ..., ``sneakers``, ``boots``: workbench.body.outfit)
    in ``color``: its weave and bands (:func:`workbench.body.outfit.cloth.shading`) tinted; a shoe's upper in
    it beside its sole's and laces' bands."""
    from ..body.outfit import STYLES, cloth, denim

    if style not in STYLES:
        raise ValueError(f"cloth_texture: unknown style {style!r}")
    base = rgb(color).astype(np.float32)   # float32 throughout: float64 (n, n, 3) temporaries doubled the time
    if STYLES[style].part == "Outfit_Footwear":
        return _shoe_texture(base, style)
    # (A twill's warp streaks by its colour: a blue denim's whole, a pink or grey twill's faint: review AF.)
    streaks = denim.streaked(color, style) if STYLES[style].kind == "twill" else 1.0
    out = _tinted(np.ascontiguousarray(cloth.shading(style, streaks), np.float32), base,
                  np.ascontiguousarray(cloth.trim(style, streaks), np.float32), cloth.trim_colour(base))
    out.setflags(write=False)
    return out


# Per shoe style: its sole's colour and its laces' (sRGB 0..1): a sneaker's white rubber and white cord, a
# boot's dark rubber and tan waxed cord (main's brown cord, thin and dark on a mid upper, was lost at full figure);
# on a light upper (CIELAB L* over LIGHT_UPPER) the laces dark, and a pale sneaker's sole gum (L* over PALE_UPPER: a
# white sole and white laces on a pale upper were one white blob, three.js's ACES taking the upper to white too:
# review U's #9).
SOLES = {"sneakers": ((0.93, 0.92, 0.89), (0.95, 0.95, 0.94)), "boots": ((0.12, 0.105, 0.095), (0.8, 0.7, 0.52))}
GUM = (0.55, 0.38, 0.24)
DARK_LACE = (0.14, 0.13, 0.12)
LIGHT_UPPER, PALE_UPPER = 62.0, 78.0
# A boot's toe cap: its leather this much darker (L*), or lighter on a dark boot (L* under DARK_BOOT).
CAP_STEP = (-20.0, 12.0)
DARK_BOOT = 28.0


def shoe_colours(base: np.ndarray, style: str) -> dict[str, np.ndarray]:
    """A shoe's parts' colours (sRGB 0..1) for its upper's ``base``: the sole's, the laces' and the overlays'
    (the toe cap, :func:`workbench.body.outfit.shoes._toe_cap`: a sneaker's rubber, as its sole; a boot's leather
    :data:`CAP_STEP` from the upper's).

    >>> c = shoe_colours(rgb("#CBF8A1"), "sneakers")
    >>> [np.allclose(c[part], want) for part, want in (("sole", GUM), ("lace", DARK_LACE), ("cap", GUM))]
    [True, True, True]
    """
    from ..body.tone import lab, shifted

    light = float(lab(base)[0])
    sole, lace = (np.array(c, np.float32) for c in SOLES[style])
    if light > LIGHT_UPPER:
        lace = np.array(DARK_LACE, np.float32)
    if style == "sneakers":
        if light > PALE_UPPER:
            sole = np.array(GUM, np.float32)
        cap = sole
    else:
        cap = shifted(base, dL=CAP_STEP[0] if light > DARK_BOOT else CAP_STEP[1]).astype(np.float32)
    return {"sole": sole, "lace": lace, "cap": cap}


def _shoe_texture(base: np.ndarray, style: str) -> np.ndarray:
    """A shoe's texture in its bands (workbench.body.outfit.shoes.UV): the upper in ``base`` with its grain
    (a stitched line round its foot), the sole's rubber, the laces' cord, the overlays' rubber or leather
    (:func:`shoe_colours`)."""
    from ..body.outfit import cloth, shoes

    n = SHOE_SIZE
    y = np.arange(n, dtype=np.float32)[:, None]
    x = np.arange(n, dtype=np.float32)[None, :]
    v = (y + 0.5) / n
    grain = cloth.shading(style)
    colours = shoe_colours(base, style)
    sole, lace = colours["sole"], colours["lace"]
    img = base[None, None, :] * (0.9 + grain)[..., None]
    # A line of stitches a little above where the upper meets the sole.
    stitch = (np.abs(v - 0.72) < 0.005) & ((x // 5) % 2 == 0)
    img = _mix(img, img * 0.55 + 0.3, stitch.astype(np.float32))
    lo, hi = shoes.UV["sole"]
    band = ((v >= lo - 0.01) & (v < hi + 0.01)).astype(np.float32)
    # The sole: its rubber, a groove along it and a little darker towards the floor.
    rubber = sole * (0.97 + grain[..., None] * 0.5) * (1 - 0.08 * ((v - lo) / (hi - lo)))[..., None]
    groove = (np.abs(v - (lo + 0.55 * (hi - lo))) < 0.004).astype(np.float32)
    rubber = rubber * (1 - 0.12 * groove)[..., None]
    img = _mix(img, rubber, band)
    lo, hi = shoes.UV["lace"]
    band = ((v >= lo - 0.01) & (v <= hi + 0.01)).astype(np.float32)
    twist = 0.94 + 0.06 * np.sin(x * 1.3 + y * 0.7)
    img = _mix(img, lace * twist[..., None], band)
    lo, hi = shoes.UV["cap"]
    band = ((v >= lo - 0.01) & (v <= hi + 0.01)).astype(np.float32)
    img = _mix(img, colours["cap"] * (0.95 + grain[..., None] * 0.6), band)
    return _to_u8(img)


@njit(cache=True, nogil=True)
def _tinted(shade: np.ndarray, base: np.ndarray, trim: np.ndarray, trim_colour: np.ndarray) -> np.ndarray:
    """``_to_u8(mix(base, trim_colour, trim) * shade[..., None])`` in one pass (the same float32 arithmetic,
    the same bytes): 4 ms for a 512 px cloth against 13 ms for numpy's temporaries."""
    h, w = shade.shape
    out = np.empty((h, w, 3), np.uint8)
    for i in range(h):
        for j in range(w):
            t = trim[i, j]
            for c in range(3):
                v = (base[c] * (np.float32(1) - t) + trim_colour[c] * t) * shade[i, j] * np.float32(255.0) + np.float32(0.5)
                out[i, j, c] = np.uint8(min(max(v, np.float32(0)), np.float32(255)))
    return out




def warm_up() -> None:
    """Load the cloth tint's compiled loop from numba's cache, with the argument types a cloth passes
    (a read-only shading): a first cloth otherwise pays about 8 ms for it.

    >>> warm_up()
    """
    shade = np.ones((1, 1), np.float32)
    shade.setflags(write=False)
    _tinted(shade, np.ones(3, np.float32), shade, np.ones(3, np.float32))


def resize(img: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    """Resample to (width, height) with a fixed filter."""
    if img.shape[1] == size[0] and img.shape[0] == size[1]:
        return img
    mode = "RGBA" if img.shape[2] == 4 else "RGB"
    return np.asarray(Image.fromarray(img, mode).resize(size, Image.Resampling.LANCZOS))


def encode(img: np.ndarray, fmt: str) -> bytes:
    """Encode with fixed parameters: 'jpeg' (quality 88, 4:2:0), 'png' (level 2) or 'webp' (q 85). The last
    :data:`ENCODED_KEPT` results are kept by a digest of the pixels (not the pixels themselves: 128 skin
    textures as keys held 400 MB)."""
    pixels = np.ascontiguousarray(img)
    # an ndarray has the buffer protocol; numpy declares __buffer__ to type checkers only from Python 3.12
    key = (hashlib.blake2b(memoryview(pixels).cast("B"), digest_size=16).digest(), pixels.shape, fmt)  # type: ignore[arg-type]
    with _encoded_lock:
        hit = _encoded.get(key)
        if hit is not None:
            _encoded.move_to_end(key)
            return hit
    data = _encode(pixels, fmt)
    with _encoded_lock:
        _encoded[key] = data
        while len(_encoded) > ENCODED_KEPT:
            _encoded.popitem(last=False)
    return data


ENCODED_KEPT = 64
_encoded: OrderedDict[tuple, bytes] = OrderedDict()
_encoded_lock = threading.Lock()


def _encode(pixels: np.ndarray, fmt: str) -> bytes:
    im = Image.fromarray(pixels, "RGBA" if pixels.shape[2] == 4 else "RGB")
    buf = io.BytesIO()
    if fmt == "jpeg":
        im.convert("RGB").save(buf, "JPEG", quality=88, subsampling=2, optimize=False, progressive=False)
    elif fmt == "png":
        # On two threads (workbench.gltf.png): the hair's 1024 x 512 RGBA texture, in every model, took
        # 45 ms through Pillow at level 2.
        return png_bytes(pixels)
    elif fmt == "webp":
        im.save(buf, "WEBP", quality=85, method=4, lossless=False, exact=False)
    else:
        raise ValueError(f"encode: unknown format {fmt!r}")
    return buf.getvalue()
