"""Procedural textures in the avatar's colours (skin with a painted face, hair strands, cloth
weaves, shoe leather, glasses) and their deterministic encoding to JPEG, PNG or WebP.

Every generator is pure (its noise comes from a fixed seed) and cached per colour, and
every encoder uses fixed parameters, so the same settings always give the same bytes.

>>> img = cloth_texture("#3B5B8C", "top")
>>> img.shape, img.dtype.name
((512, 512, 3), 'uint8')
>>> encode(img, "jpeg")[:3] == b"\\xff\\xd8\\xff"
True
"""

from __future__ import annotations

import io
from functools import lru_cache

import numpy as np
from PIL import Image

from .body import EYE_PHI, EYE_THETA, EYE_UV_X, EYE_UV_Y

SKIN_SIZE = 1024
HAIR_SIZE = 512
CLOTH_SIZE = 512
SHOE_SIZE = 256
GLASSES_SIZE = 128

MIME = {"jpeg": "image/jpeg", "png": "image/png", "webp": "image/webp"}


def rgb(color: str) -> np.ndarray:
    """'#RRGGBB' -> float array in 0..1."""
    c = color.lstrip("#")
    return np.array([int(c[i:i + 2], 16) for i in (0, 2, 4)], float) / 255.0


def _smooth_noise(shape: tuple[int, int], cells: tuple[int, int], seed: int) -> np.ndarray:
    """Value noise in about -1..1: a small random grid upsampled bicubically (deterministic)."""
    rng = np.random.default_rng(seed)
    small = rng.random((cells[0], cells[1])).astype(np.float32)
    img = Image.fromarray(small, mode="F").resize((shape[1], shape[0]), Image.BICUBIC)
    return (np.asarray(img, np.float32) - 0.5) * 2.0


def _to_u8(img: np.ndarray) -> np.ndarray:
    out = np.clip(img * np.float32(255.0) + np.float32(0.5), 0, 255).astype(np.uint8)
    out.setflags(write=False)
    return out


def _mix(a: np.ndarray, b: np.ndarray, t: np.ndarray) -> np.ndarray:
    t = np.clip(t, 0.0, 1.0)[..., None]
    return a * (1 - t) + b * t


def _smoothstep(e0, e1, x):
    t = np.clip((x - e0) / (e1 - e0), 0.0, 1.0)
    return t * t * (3 - 2 * t)


def _ellipse(x, y, cx, cy, rx, ry):
    """Signed-ish distance: < 1 inside an ellipse."""
    return np.sqrt(((x - cx) / rx) ** 2 + ((y - cy) / ry) ** 2)


@lru_cache(maxsize=32)
def skin_texture(skin: str, brows: str, feminine: bool = False) -> np.ndarray:
    """Skin: subtle mottling everywhere; the top half is the head, with the face painted on.

    The head half is laid out in the head surface's own angles (u = theta, v = phi), so the
    painter can place eyes, brows and lips where the geometry's bumps are. ``feminine``
    paints a softer face: arched, finer brows, lashes, fuller lips and more blush; otherwise
    brows are straighter and heavier and the lips closer to the skin's colour.
    """
    n = SKIN_SIZE
    base = rgb(skin)
    # Faint: stronger mottling and pores read as speckles on light skin at 128 px.
    mottle = _smooth_noise((n, n), (24, 24), 11) * 0.03 + _smooth_noise((n, n), (160, 160), 12) * 0.01
    pores = (np.random.default_rng(13).random((n, n)).astype(np.float32) - 0.5) * 0.01
    shade = 1.0 + mottle + pores
    img = base.astype(np.float32)[None, None, :] * shade[..., None]
    # A faint warm undertone keeps the skin from looking like paint.
    img = img + np.array([0.012, -0.004, -0.010], np.float32) * (mottle[..., None] * 8)

    h = n // 2
    # Only the face window (theta within +-1.1 rad, phi 0.3..0.9 pi) is painted: 6x fewer texels.
    c0, c1 = int(n * (0.5 - 1.1 / (2 * np.pi))), int(n * (0.5 + 1.1 / (2 * np.pi))) + 1
    r0, r1 = int(h * 0.30), int(h * 0.90)
    u = ((np.arange(c0, c1) + 0.5) / n).astype(np.float32)
    v = ((np.arange(r0, r1) + 0.5) / h).astype(np.float32)
    U, V = np.meshgrid(u, v)
    theta = U * 2 * np.pi - np.pi
    phi = V * np.pi
    # Face coordinates in units of the head's half width (vertical arcs are ~1.5x longer).
    x = theta
    y = (phi - EYE_PHI) * 1.5
    head = img[r0:r1, c0:c1]
    ax = np.abs(x)
    # Cheeks and lips first (colour), then eyes and brows (shapes) on top.
    blush = np.exp(-(((ax - 0.55) / 0.16) ** 2 + ((y - 0.55) / 0.16) ** 2))
    head = _mix(head, head * np.array([1.06, 0.88, 0.86]), blush * (0.55 if feminine else 0.25))
    if feminine:
        lip_color = base * np.array([0.80, 0.46, 0.50]) + np.array([0.13, 0.0, 0.04])
        upper = _ellipse(x, y, 0.0, 0.915, 0.28, 0.065)
        lower = _ellipse(x, y, 0.0, 1.0, 0.25, 0.09)
    else:
        lip_color = base * np.array([0.80, 0.58, 0.56]) + np.array([0.06, 0.0, 0.0])
        upper = _ellipse(x, y, 0.0, 0.92, 0.30, 0.05)
        lower = _ellipse(x, y, 0.0, 1.0, 0.27, 0.07)
    lips = np.minimum(upper, lower)
    # Masculine lips are only a little darker than the skin: the modelled lips carry the shape.
    head = _mix(head, lip_color[None, None, :], (1.0 - _smoothstep(0.8, 1.0, lips)) * (1.0 if feminine else 0.6))
    line = np.exp(-(((y - 0.955) / 0.010) ** 2)) * (ax < 0.30) * (1.0 - _smoothstep(0.22, 0.30, ax))
    head = _mix(head, lip_color * 0.45, line)
    # Nostrils: two soft dark dots under the nose tip.
    nostril = np.exp(-((((ax - 0.055) / 0.03) ** 2) + ((y - 0.66) / 0.02) ** 2))
    head = _mix(head, head * 0.55, nostril * 0.8)
    brow_color = rgb(brows) * 0.9
    for sign in (1.0, -1.0):
        ex = sign * EYE_THETA
        # The eye is painted for the eyeball (see body._eyeball), which maps its vertical
        # offsets more tightly than its horizontal ones: ``sq`` squeezes y so circles stay round.
        sq = 1.5 * EYE_UV_Y / EYE_UV_X
        d = _ellipse(x, y, ex, 0.0, 0.165, 0.062 if feminine else 0.058)
        white = 1.0 - _smoothstep(0.85, 1.0, d)
        head = _mix(head, np.array([0.93, 0.92, 0.90]), white)
        iris = _ellipse(x, y, ex, 0.0, 0.078, 0.078 * sq)
        iris_col = np.array([0.30, 0.19, 0.10]) * (0.8 + 0.4 * _smoothstep(0.2, 1.0, iris))[..., None]
        head = _mix(head, iris_col, (1.0 - _smoothstep(0.9, 1.0, iris)) * white)
        pupil = _ellipse(x, y, ex, 0.0, 0.034, 0.034 * sq)
        head = _mix(head, np.array([0.03, 0.03, 0.03]), (1.0 - _smoothstep(0.8, 1.0, pupil)) * white)
        glint = _ellipse(x, y, ex + 0.02, -0.018 * sq, 0.012, 0.012 * sq)
        head = _mix(head, np.array([1.0, 1.0, 1.0]), (1.0 - _smoothstep(0.6, 1.0, glint)) * white)
        # Upper lid line and lashes: a dark arc along the top of the eye.
        # Lashes: a heavier line, flicked up at the outer corner.
        # Soft-edged masks (not thresholds), so lines stay smooth when magnified at 512 px.
        lw = 0.22 if feminine else 0.12
        lid = 1.0 - _smoothstep(0.6 * lw, lw, np.abs(d - 1.0))
        head = _mix(head, np.array([0.08, 0.06, 0.05]), lid * (1.0 - _smoothstep(-0.01, 0.02, y)) * 0.9)
        if feminine:
            bx_eye = (x - ex) * sign
            flick = np.exp(-(((bx_eye - 0.19) / 0.025) ** 2 + ((y + 0.035 + 0.3 * (bx_eye - 0.17)) / 0.012) ** 2))
            head = _mix(head, np.array([0.08, 0.06, 0.05]), flick * 0.9)
        # Brow: an arc above the eye, thicker towards the nose (arched and finer when feminine).
        bx = (x - ex) * sign
        arc_y = -0.17 - (0.07 if feminine else 0.025) * np.cos(np.clip(bx / 0.2, -1.5, 1.5))
        thick = (0.020 if feminine else 0.034) * (1.0 - 0.35 * (bx + 0.2) / 0.4)
        brow = (1.0 - _smoothstep(0.6 * thick, thick, np.abs(y - arc_y))) * (1.0 - _smoothstep(0.17, 0.21, np.abs(bx)))
        head = _mix(head, brow_color, brow * 0.85)
    img[r0:r1, c0:c1] = head
    return _to_u8(img)


@lru_cache(maxsize=32)
def hair_texture(color: str, curly: bool = False) -> np.ndarray:
    """Hair: strands running down v, with lighter and darker strands and a sheen band."""
    n = HAIR_SIZE
    base = rgb(color)
    rng = np.random.default_rng(21)
    strands = rng.random(n).astype(np.float32)
    # Each strand is a few texels wide; neighbouring strands differ.
    strands = np.repeat(strands[:: 2], 2)[:n]
    y = np.arange(n)[:, None]
    x = np.arange(n)[None, :]
    if curly:
        shift = (np.sin(y / 6.0 + x / 23.0) * 5).astype(int)
        idx = (x + shift) % n
    else:
        shift = (_smooth_noise((n, 1), (8, 1), 22)[:, :1] * 6).astype(int)
        idx = (x + shift) % n
    s = strands[idx]
    along = _smooth_noise((n, n), (4, 64), 23) * 0.15
    shade = 0.72 + 0.45 * s + along
    sheen = np.exp(-(((np.arange(n) / n - 0.25) / 0.08) ** 2))[:, None] * 0.25
    img = base[None, None, :] * shade[..., None] + sheen[..., None] * (0.25 + base[None, None, :])
    return _to_u8(img)


@lru_cache(maxsize=64)
def cloth_texture(color: str, kind: str) -> np.ndarray:
    """Cloth: a knit weave for the top, a diagonal twill for the trousers, leather for shoes."""
    base = rgb(color)
    n = SHOE_SIZE if kind == "shoes" else CLOTH_SIZE
    y, x = np.mgrid[0:n, 0:n].astype(np.float32)
    slub = _smooth_noise((n, n), (32, 32), 31) * 0.06
    if kind == "top":
        # Jersey: columns of small V stitches (8 texels a column, 6 a row) at low contrast, so
        # at 512 px the shirt reads as soft knitted cotton, not a mesh; a faint heathered
        # variation of the yarn over larger areas.
        cx = (x % 8) / 8.0
        cy = ((y + 3 * (x // 8 % 2)) % 6) / 6.0
        v = 1.0 - np.abs(2 * cx - 1.0) - 0.5 * cy
        knit = np.clip(v, 0.0, 1.0)
        heather = _smooth_noise((n, n), (64, 64), 35) * 0.025
        shade = 0.94 + 0.07 * knit + slub * 0.6 + heather
        # A band of ribbing at the hem and cuffs.
        shade = shade - 0.05 * ((y > n * 0.94) * (np.sin(x * np.pi / 4) > 0))
    elif kind == "bottom":
        # Cotton twill: a fine diagonal at low contrast and a soft, larger mottling; the
        # earlier high-contrast stripes and streaks read as brushed metal under the key light.
        twill = ((x + y) % 6 < 3).astype(np.float32)
        mottle = _smooth_noise((n, n), (24, 48), 32) * 0.035
        shade = 0.92 + 0.05 * twill + slub * 0.5 + mottle
        # Side seams run down the outer sides of the legs (u 0.25 and 0.75 of each tube).
        seam = (np.abs((x / n) % 0.5 - 0.25) < 0.006)
        shade = shade - 0.12 * seam
    elif kind == "shoes":
        grain = _smooth_noise((n, n), (64, 64), 33) * 0.05 + _smooth_noise((n, n), (12, 12), 34) * 0.05
        shade = 0.9 + grain
        img = base[None, None, :] * shade[..., None]
        u = x / n
        sole = (np.abs(u - 0.5) < 0.14)
        img = _mix(img, np.array([0.88, 0.86, 0.82]) * (0.95 + grain[..., None]), sole)
        stitch = (np.abs(np.abs(u - 0.5) - 0.16) < 0.006) * ((y // 4) % 2 == 0)
        img = _mix(img, img * 0.5 + 0.35, stitch)
        return _to_u8(img)
    else:
        raise ValueError(f"cloth_texture: unknown kind {kind!r}")
    img = base[None, None, :] * shade[..., None]
    return _to_u8(img)


@lru_cache(maxsize=8)
def glasses_texture(kind: str) -> np.ndarray:
    """RGBA: the left half is the opaque frame, the right half the lens (tinted, see-through)."""
    n = GLASSES_SIZE
    img = np.zeros((n, n, 4), np.float32)
    if kind == "sunglasses":
        # Nearly opaque: blending is in linear light, where even a few percent of the eye's
        # white shows through the dark tint as a visible grey, so the lens stops almost all of it.
        frame, lens, alpha = np.array([0.06, 0.06, 0.07]), np.array([0.03, 0.035, 0.045]), 0.996
    elif kind == "clear":
        frame, lens, alpha = np.array([0.24, 0.15, 0.10]), np.array([0.88, 0.93, 0.97]), 0.16
    else:
        raise ValueError(f"glasses_texture: unknown kind {kind!r}")
    y = (np.arange(n) / n)[:, None, None]
    y2 = y[..., 0]
    img[:, : n // 2, :3] = frame * (0.85 + 0.3 * y)
    img[:, : n // 2, 3] = 1.0
    # The lens is darker at the top, like a gradient tint.
    img[:, n // 2:, :3] = lens * (0.9 + 0.1 * y)
    img[:, n // 2:, 3] = alpha if kind == "sunglasses" else alpha * (1.05 - 0.1 * y2)
    return _to_u8(img)


def resize(img: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    """Resample to (width, height) with a fixed filter."""
    if img.shape[1] == size[0] and img.shape[0] == size[1]:
        return img
    mode = "RGBA" if img.shape[2] == 4 else "RGB"
    return np.asarray(Image.fromarray(img, mode).resize(size, Image.LANCZOS))


def encode(img: np.ndarray, fmt: str) -> bytes:
    """Encode with fixed parameters: 'jpeg' (quality 88, 4:2:0), 'png' (level 6) or 'webp' (q 85)."""
    return _encode(img.tobytes(), img.shape, fmt)


@lru_cache(maxsize=128)
def _encode(raw: bytes, shape: tuple, fmt: str) -> bytes:
    mode = "RGBA" if shape[2] == 4 else "RGB"
    im = Image.frombytes(mode, (shape[1], shape[0]), raw)
    buf = io.BytesIO()
    if fmt == "jpeg":
        im.convert("RGB").save(buf, "JPEG", quality=88, subsampling=2, optimize=False, progressive=False)
    elif fmt == "png":
        im.save(buf, "PNG", compress_level=6, optimize=False)
    elif fmt == "webp":
        im.save(buf, "WEBP", quality=85, method=4, lossless=False, exact=False)
    else:
        raise ValueError(f"encode: unknown format {fmt!r}")
    return buf.getvalue()
