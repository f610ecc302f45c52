"""The skin's surface: pores as a faint normal map, and where skin shines as a roughness map.

Without them skin read as wax in three.js and model-viewer (issue 36): one roughness for the whole body,
smooth between the triangles. Both maps are on MakeHuman's UVs, drawn once per gender and machine
(:func:`~workbench.body.keep.kept`) from the skin's masks (:func:`workbench.body.skin.features`):

- :func:`skin_normal` (``NORMAL_SIZE``): a height field of fine bumps, a texel or two across (the face has
  about one texel a millimetre: real pores are finer than a texel, so what a texel can show is their
  grain in a highlight, not each pit), a little deeper on the face's front, none on the lips; then its
  slopes as tangent-space normals (+X along u, +Y up the image, glTF's convention). Faint on purpose: at
  :data:`PORE_FACE` the bumps tilt a normal by about 3 degrees (pits tilting it 12 degrees read as craters
  on foreheads and cheeks, and as dark specks round the mouth);
- :func:`skin_roughness` (``ROUGH_SIZE``): the body's ``BODY`` roughness; the face a little more matte and
  the cheeks most (``face``, ``flush``), the T-zone (forehead, nose) shinier, the lips and the mouth's wet
  lining shinier still, the brows rough as hair. Smooth regions only, from masks drawn on the body itself,
  so the two sides of a UV seam get one roughness; each region's value wanders by ``ROUGH_VARY`` with the skin's
  grain, every centimetre or so;
- :func:`skin_specular` (``ROUGH_SIZE``): how strong the skin's reflections are (``KHR_materials_specular``'s
  texture, times :data:`SPECULAR`): full on the skin, none on the mouth's lining from a few millimetres behind the
  lips, where a viewer's room mirrored in it (at grazing angles most) drew a grey haze over an open mouth, and
  :data:`LIPS_SPECULAR` of it on the lips.

>>> ROUGHNESS["lips"] < ROUGHNESS["tzone"] < BODY < ROUGHNESS["face"] < ROUGHNESS["flush"] < ROUGHNESS["brows"]
True
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from . import keep

__all__ = ["NORMAL_SIZE", "ROUGH_SIZE", "BODY", "ROUGHNESS", "SPECULAR", "FACTOR_LEAST", "specular", "toned_specular",
           "skin_normal", "skin_roughness", "skin_specular"]

NORMAL_SIZE = 1024
ROUGH_SIZE = 512
FORMAT = 7
# The upper lid and the socket's skin over it (the skin's ``lids`` mask: round each eye above its middle, out under the
# brow) turned up towards the key by LID_TILT (the tangent of the angle, about 35 degrees): MakeHuman's skin between the
# lid's fold and the brow faces down (its normals 0.7 to 0.87 down, 6 to 15 mm over the eye's centre), so the key from
# above the camera missed it and the eye sat in a dark band at portrait size, "small and set deep under a shadowed brow
# ridge ... dead eyes" (blind review AF's sixth defect; the baked occlusion was not it: lit at 0.9 or more, the skin
# over the lid went from 0.46 to 0.48 of the cheek's L*). tests/render/test_eye_alive_review_af.py.
LID_TILT = 0.7
# Roughness: the body's, and where a mask of the skin takes it (fully where the mask is 1), in this order. The
# mouth's lining rough: wet and smooth (0.3), its walls mirrored the room as grey sides of a lit box in the
# browsers (blind review B); a mouth's inside is in its own shadow, which no viewer casts.
BODY = 0.6
# (The T-zone at 0.5 put a sharp grey sheen of the room on a deep tone's forehead and nose in three.js: "oily",
# blind review F.)
# (Blind review T: "uniform roughness", a bald dome's "uniform sheen": the T-zone 0.56 and the cheeks 0.7 drew one
# highlight over both; now 0.52 and 0.76, and the scalp's own value wanders by SCALP_VARY.)
ROUGHNESS = {"face": 0.68, "flush": 0.8, "tzone": 0.58, "lips": 0.42, "mouth": 0.9, "brows": 0.85}
# The skin's specular factor (KHR_materials_specular): a dielectric's reflectance of 4 % at normal incidence
# times this, 2.8 %, skin's (its index of refraction is about 1.4, not glTF's default 1.5). The room's
# reflection was half of what a deep tone showed, which read as lacquer.
SPECULAR = 0.7
# The least share of SPECULAR a deep tone's factor keeps: our previews read the factor alone, and at 0.8 their rim light
# no longer outlined a deep tone's contour (tests/render/test_skin_light.py). What a deep tone reflects less than this
# (workbench.options.colour.skin_reflect, down to 0.65) the browsers take from the specular texture
# (:func:`toned_specular`), which our previews do not read.
FACTOR_LEAST = 0.85
# How far the roughness wanders about each region's value, with the skin's grain (:func:`workbench.body.skin.features`,
# drawn in space: one value on both sides of a UV seam): a little oilier or drier from place to place, as real skin is; one roughness per
# region drew each region's highlight as even as plastic's (blind review E).
ROUGH_VARY = 0.06
# How far the scalp's roughness wanders with the skin's mottling (a few centimetres across): a bald head is oilier and
# drier in patches, its highlight broken, not one even sheen over the dome (blind review T #6 and #1).
SCALP_VARY = 0.14
# The lips' reflection as a share of the skin's (the specular map; our previews draw the factor alone). Smooth
# (``ROUGHNESS["lips"]``), they mirrored the bright room in three.js and model-viewer as a light veil that took the
# lips' darker colour: blind review T's #6 (#71502F) 0.2 C* over the face on the typical three.js page, now 3.1.
LIPS_SPECULAR = 0.45
# The bumps' height (texels of height per texel of slope) on the face's front and elsewhere.
PORE_FACE, PORE_BODY = 0.03, 0.02


def specular(tone: str) -> float:
    """The skin's specular factor (``KHR_materials_specular``) for ``tone`` ('#RRGGBB', the colour shown): SPECULAR,
    less on a deep tone (:func:`workbench.options.colour.skin_reflect`), never under :data:`FACTOR_LEAST` of it.

    >>> specular("#C68642"), specular("#3B2416")
    (0.7, 0.595)
    """
    from ..options.colour import skin_reflect

    return round(SPECULAR * max(skin_reflect(tone), FACTOR_LEAST), 4)


def toned_specular(spec: np.ndarray, tone: str) -> np.ndarray:
    """The skin's specular map ``spec`` (uint8) for ``tone``: what a deep tone reflects under its factor's
    :data:`FACTOR_LEAST` (:func:`workbench.options.colour.skin_reflect` over it), so that in the browsers factor times
    texture is ``skin_reflect`` of SPECULAR; a mid or pale tone's map as it is.

    >>> m = np.full((2, 2), 255, np.uint8)
    >>> int(toned_specular(m, "#3B2416")[0, 0]), toned_specular(m, "#C68642") is m
    (195, True)
    """
    from ..options.colour import skin_reflect

    share = skin_reflect(tone) / max(skin_reflect(tone), FACTOR_LEAST)
    if share >= 1:
        return spec
    out = np.round(spec * share).astype(np.uint8)
    out.setflags(write=False)
    return out


def _mask(f: dict, name: str, size: int) -> np.ndarray:
    at, w = f[name]
    out = np.zeros(size * size, np.float32)
    out[at] = w
    return out.reshape(size, size)


def _texels(f: dict, name: str, size: int) -> np.ndarray:
    """Mask ``name`` of the skin's features at a map of ``size`` texels a side, each texel its block's mean."""
    from .skin import SKIN_SIZE

    step = SKIN_SIZE // size
    return _mask(f, name, SKIN_SIZE).reshape(size, step, size, step).mean(axis=(1, 3))


def _height(gender: str, size: int) -> np.ndarray:
    from .skin import SKIN_SIZE, _noise, features

    f = features(gender, SKIN_SIZE)
    face, lips = _mask(f, "face", SKIN_SIZE), _mask(f, "lips", SKIN_SIZE)
    if size != SKIN_SIZE:
        face, lips = (m[:: SKIN_SIZE // size, :: SKIN_SIZE // size] for m in (face, lips))
    depth = (PORE_BODY + (PORE_FACE - PORE_BODY) * face) * (1 - lips)
    h = _noise(size, size // 2, 91) * depth
    # A faint, larger-scale unevenness everywhere.
    h += 0.04 * _noise(size, size // 24, 93)
    return h.astype(np.float32)


def _draw_normal(gender: str, size: int) -> np.ndarray:
    if size < NORMAL_SIZE:   # the full map's normals averaged over each block (finer pores flatten out)
        k = NORMAL_SIZE // size
        n = (skin_normal(gender).astype(np.float32) / 127.5 - 1).reshape(size, k, size, k, 3).mean(axis=(1, 3))
        n /= np.maximum(np.linalg.norm(n, axis=2, keepdims=True), 1e-6)
        return np.clip(np.round((n * 0.5 + 0.5) * 255), 0, 255).astype(np.uint8)
    from .skin import SKIN_SIZE, features

    h = _height(gender, size)
    dx = (np.roll(h, -1, axis=1) - np.roll(h, 1, axis=1)) / 2      # along u (right)
    dy = (np.roll(h, 1, axis=0) - np.roll(h, -1, axis=0)) / 2      # up the image (rows run down)
    # (minus: turned up the image, the lids drew darker, 0.48 -> 0.40 of the cheek's L* on review AF's #1: the face's
    # tangent frame runs the other way, its up the map's down)
    lids = _texels(features(gender, SKIN_SIZE), "lids", size)
    n = np.stack([-dx, -dy - LID_TILT * lids, np.ones_like(h)], axis=2)
    n /= np.linalg.norm(n, axis=2, keepdims=True)
    return np.clip(np.round((n * 0.5 + 0.5) * 255), 0, 255).astype(np.uint8)


@lru_cache(maxsize=2)
def skin_normal(gender: str, size: int = NORMAL_SIZE) -> np.ndarray:
    """The skin's normal map (size, size, 3) uint8 on MakeHuman's UVs (a smaller size: the full one averaged)."""
    return keep.kept(f"skin-normal-{gender}-{size}-v{FORMAT}", lambda: {"n": _draw_normal(gender, size)})["n"]


def _draw_roughness(gender: str, size: int) -> np.ndarray:
    from .skin import SKIN_SIZE, features

    f = features(gender, SKIN_SIZE)
    step = SKIN_SIZE // size

    # (Each texel the mean of the block it covers: one of the block's texels sat half a texel off, across a seam too.)
    def dense(name: str) -> np.ndarray:
        return np.asarray(f[name]).reshape(size, step, size, step).astype(np.float32).mean(axis=(1, 3)) / 127.5 - 1

    # The skin's mottling over the body; over the face (no seams there, more texels a millimetre) its finer grain.
    # (Only where the face's mask is full: the seam under the jaw is at its fading edge.)
    face = np.clip(_texels(f, "face", size) * 3 - 2, 0, 1)
    # (Half as far on the body: more, and the UV seams round the neck, where a texel spans 5 mm, showed as a step.)
    scalp = _texels(f, "scalp", size)
    # (The mottle less its mean over the scalp: there it averages about -0.16, which left a bald head 0.027 shinier
    # than the body's BODY on average.)
    mottle = dense("mottle")
    patches = mottle - (mottle * scalp).sum() / max(float(scalp.sum()), 1e-6)
    grain = ROUGH_VARY * (0.5 * mottle * (1 - face) + dense("grain") * face) + SCALP_VARY * patches * scalp
    r = BODY + grain
    for name, value in ROUGHNESS.items():
        m = _mask(f, name, SKIN_SIZE)[::step, ::step]
        r += (value + grain - r) * m
    return np.clip(np.round(r * 255), 0, 255).astype(np.uint8)


@lru_cache(maxsize=2)
def skin_roughness(gender: str, size: int = ROUGH_SIZE) -> np.ndarray:
    """The skin's roughness map (size, size) uint8 (0 smooth .. 255 rough) on MakeHuman's UVs."""
    return keep.kept(f"skin-rough-{gender}-{size}-v{FORMAT}", lambda: {"r": _draw_roughness(gender, size)})["r"]


def _draw_specular(gender: str, size: int) -> np.ndarray:
    from .skin import SKIN_SIZE, features

    # The lining's mask is 0.4 where it meets the lips and 1 from 2 cm in (workbench.body.skin): its reflections
    # kept at the lips' wet inner edge, none deeper (each texel the mean of its block).
    f = features(gender, SKIN_SIZE)
    mouth, lips = _texels(f, "mouth", size), _texels(f, "lips", size)
    spec = (1 - np.clip((mouth - 0.4) / 0.5, 0, 1) ** 0.5) * (1 - (1 - LIPS_SPECULAR) * lips)
    return np.clip(np.round(spec * 255), 0, 255).astype(np.uint8)


@lru_cache(maxsize=2)
def skin_specular(gender: str, size: int = ROUGH_SIZE) -> np.ndarray:
    """The skin's specular map (size, size) uint8 (0 no reflection .. 255 :data:`SPECULAR`'s) on MakeHuman's UVs.

    >>> from .skin import SKIN_SIZE, features
    >>> spec = skin_specular("feminine")
    >>> at, w = features("feminine")["throat"]
    >>> int(spec.max()), int(np.median(spec.reshape(-1)[np.unique((at[w > 0.9] // SKIN_SIZE // 2) * ROUGH_SIZE
    ...                                                             + at[w > 0.9] % SKIN_SIZE // 2)]))
    (255, 0)
    """
    return keep.kept(f"skin-spec-{gender}-{size}-v{FORMAT}", lambda: {"s": _draw_specular(gender, size)})["s"]
