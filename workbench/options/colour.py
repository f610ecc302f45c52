"""What a colour of the settings means on screen: sRGB and linear light, Khronos PBR Neutral tone mapping, and
the albedo that shows a requested skin tone in a standard studio.

A setting such as ``skinTone: "#C68642"`` names the colour a person sees, not a material's albedo: used
unchanged as a base colour, a light tone burned to near white in a tone-mapped studio. So the one
colour pipeline of the project is:

1. a hex colour is sRGB (:func:`srgb_to_linear`, :func:`linear_to_srgb`, the standard transfer curves);
2. viewers show linear light through Khronos PBR Neutral tone mapping (:func:`neutral`, exactly as
   three.js's ``NeutralToneMapping`` and model-viewer's default draw it; the workbench's renderer uses it too);
3. the reference studio (three.js's ``RoomEnvironment`` at exposure 1, an image-based light as
   model-viewer's default neutral lighting is) lights each pixel of a portrait's skin of albedo ``a``
   to ``k * a + s``: the light it gathers (``k``) and the room reflected in its surface (``s``).
   :data:`STUDIO` holds those pairs for 16 equal shares of the skin's pixels, darkest to brightest,
   measured in three.js (tests/browser/test_studio_colour.py measures them again);
4. the tone a person sees is the mean over those pixels of what the screen shows (steps 3, 2, 1:
   :func:`shown_in_studio`), and :func:`albedo_for` finds the albedo whose mean is the tone asked for.

>>> [round(float(v), 4) for v in neutral(np.array([0.5, 0.25, 0.1]))]       # below its knee: linear less a toe
[0.46, 0.21, 0.06]
>>> [round(float(v), 4) for v in neutral_inverse(neutral(np.array([0.9, 0.5, 0.2])))]   # and back
[0.9, 0.5, 0.2]
>>> albedo_for("#C68642")                       # darker than the tone: the studio brightens it
'#AD763F'
>>> to_hex(shown_in_studio(srgb_to_linear(hex_rgb("#AD763F"))))   # and shows it as asked (to a level: 8 bits)
'#C68642'
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np
from numpy.typing import ArrayLike, NDArray

__all__ = ["srgb_to_linear", "linear_to_srgb", "neutral", "neutral_inverse", "albedo_for", "shown_in_studio",
           "hex_rgb", "to_hex", "skin_reflect", "STUDIO", "LUMA", "GLINT"]

# Relative luminance's weights of linear R, G, B (Rec. 709 / sRGB primaries; also used on sRGB values as a luma).
LUMA = np.array([0.2126, 0.7152, 0.0722])

# Khronos PBR Neutral's constants (its specification, and three.js's NeutralToneMapping).
START_COMPRESSION = 0.8 - 0.04
DESATURATION = 0.15
# Step 3: (k, s) per sixteenth of a portrait's skin pixels, ordered by k: three.js's RoomEnvironment on the
# default feminine avatar in its idle pose (baked occlusion, the skin's roughness, normals and specular factor
# included: its reflectance of 2.8 %, workbench.body.pores.SPECULAR).
STUDIO = ((0.626, 0.0183), (0.811, 0.0171), (0.934, 0.0162), (1.023, 0.0180), (1.113, 0.0189), (1.210, 0.0210),
          (1.304, 0.0228), (1.402, 0.0257), (1.498, 0.0292), (1.586, 0.0332), (1.650, 0.0432), (1.713, 0.0400),
          (1.792, 0.0405), (1.896, 0.0507), (2.034, 0.0630), (2.140, 0.0602))
# The brightest albedo a skin is given (snow is about 0.9; nothing lit reaches the tone of #FFFFFF).
MAX_ALBEDO = 0.9
# A deep tone's skin reflects less of the room than STUDIO's skin: DEEP_SHINE[0] of it at L* DEEP_SHINE[1] and below,
# all of it from L* DEEP_SHINE[2] (a mid tone). Where the skin's own light is a fraction of a pale tone's, the room's
# even reflection on forehead, nose and cheekbones was 63 % of what the deepest tone showed: an oily grey sheen in
# three.js (blind review F); at 0.85 still a grey band over a deep forehead, "oily", "lacquer" (blind review Y #10,
# #11: 19 % of #10's T-zone 15 L* or more over its median in three.js; at 0.65, 11 %). Its albedo makes up the light
# (albedo_for's ``reflect``): the tone shown stays the one asked for. (The browsers take the part under
# workbench.body.pores.FACTOR_LEAST from the specular texture: our renderer reads the factor alone, and its rim
# light's highlight is a reflection, tests/render/test_skin_light.py.)
DEEP_SHINE = (0.65, 20.0, 55.0)
# The colour of the skin's reflections (its ``KHR_materials_specular`` ``specularColorFactor``, which the previews read
# too): warm-white, a studio's warm key and the light that enters skin's top layer and comes straight back. The
# reflections were white, and white over a deep brown lifts its light but drops its b* about twice as fast as its a*:
# the forehead's and nose's highlight turned 4 degrees of hue towards magenta at 0.7 of the skin's chroma, "a grey-lilac
# specular film" (blind review AC, #4 #40281D and #8 #573B29 in the portrait; tests/render/test_skin_glint_review_ac.py).
# The studio's reflection (:data:`STUDIO`'s ``s``) takes it in part (:data:`GLINT_F0`), so the tone shown stays the one
# asked for (contract section 5). Near a 5500 K light's white (D65 is 6500 K).
GLINT = (1.0, 0.9, 0.78)
# The share of the studio's reflection on skin that is in :data:`GLINT`: three.js and model-viewer tint a dielectric's
# reflectance face on (F0) by the specular colour, not its grazing one (F90, white), and the room's light on a
# portrait's skin (roughness about 0.6, the surface mostly facing the camera) is F0 times the split-sum's scale plus
# F90 times its bias, 0.04 x 0.67 against 0.038: about 0.4 of it F0's.
GLINT_F0 = 0.4


def to_hex(rgb: Iterable[float]) -> str:
    """sRGB values in 0..1 -> '#RRGGBB'.

    >>> to_hex([1.0, 0.5, 0.0])
    '#FF8000'
    """
    return "#" + "".join(f"{int(round(float(np.clip(v, 0, 1)) * 255)):02X}" for v in rgb)


def hex_rgb(color: str) -> np.ndarray:
    """'#RRGGBB' -> float array in 0..1 (sRGB).

    >>> hex_rgb("#FF8000").round(3).tolist()
    [1.0, 0.502, 0.0]
    """
    c = color.lstrip("#")
    return np.array([int(c[i:i + 2], 16) for i in (0, 2, 4)], float) / 255.0


def srgb_to_linear(c: ArrayLike) -> NDArray[np.float64]:
    """The sRGB transfer curve undone (IEC 61966-2-1), elementwise on values in 0..1.

    >>> round(float(srgb_to_linear(0.5)), 4)
    0.214
    """
    c = np.asarray(c, np.float64)
    return np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)


def linear_to_srgb(c: ArrayLike) -> NDArray[np.float64]:
    """Linear light to sRGB (IEC 61966-2-1), elementwise; values are clipped to 0..1 first.

    >>> round(float(linear_to_srgb(0.214)), 3)
    0.5
    """
    c = np.clip(np.asarray(c, np.float64), 0.0, 1.0)
    return np.where(c <= 0.0031308, c * 12.92, 1.055 * c ** (1 / 2.4) - 0.055)


def neutral(rgb: np.ndarray) -> np.ndarray:
    """Khronos PBR Neutral tone mapping of linear RGB (..., 3), as three.js's shader computes it."""
    c = np.asarray(rgb, np.float64)
    x = c.min(axis=-1, keepdims=True)
    offset = np.where(x < 0.08, x - 6.25 * x * x, 0.04)
    c = c - offset
    peak = c.max(axis=-1, keepdims=True)
    d = 1.0 - START_COMPRESSION
    new_peak = 1.0 - d * d / (peak + d - START_COMPRESSION)
    compressed = c * (new_peak / np.maximum(peak, 1e-12))
    g = 1.0 - 1.0 / (DESATURATION * (peak - new_peak) + 1.0)
    compressed = compressed * (1 - g) + new_peak * g
    return np.where(peak < START_COMPRESSION, c, compressed)


def neutral_inverse(rgb: np.ndarray) -> np.ndarray:
    """The linear RGB that :func:`neutral` maps to ``rgb`` (..., 3); a peak of 1 or more (which the curve
    only reaches at infinity) is taken as just under 1."""
    o = np.asarray(rgb, np.float64)
    new_peak = np.minimum(o.max(axis=-1, keepdims=True), 0.999)
    d = 1.0 - START_COMPRESSION
    peak = d * d / (1.0 - new_peak) - d + START_COMPRESSION
    g = 1.0 - 1.0 / (DESATURATION * (peak - new_peak) + 1.0)
    uncompressed = (np.minimum(o, new_peak) - g * new_peak) / (1 - g) * (peak / np.maximum(new_peak, 1e-12))
    c = np.where(new_peak < START_COMPRESSION, o, uncompressed)
    # The toe: the offset came from the smallest channel before it was taken off.
    low = c.min(axis=-1, keepdims=True)
    x = np.where(low < 0.04, np.sqrt(np.maximum(low, 0.0) / 6.25), low + 0.04)
    offset = np.where(x < 0.08, x - 6.25 * x * x, 0.04)
    return c + offset


def shown_in_studio(albedo: ArrayLike, reflect: float = 1.0) -> np.ndarray:
    """The mean sRGB colour (0..1) a skin of linear ``albedo`` (3,) shows over a portrait in the reference
    studio (steps 3, 2 and 1); ``reflect``: its reflections as a share of those :data:`STUDIO` was measured with
    (a specular factor over 0.7: ``KHR_materials_specular`` scales the room's reflection in it), in the skin's
    :data:`GLINT` as far as the studio tints it (:data:`GLINT_F0`)."""
    k, s = np.asarray(STUDIO).T
    tint = 1 - GLINT_F0 * (1 - np.asarray(GLINT))
    lit = k[:, None] * np.asarray(albedo, np.float64)[None, :] + reflect * s[:, None] * tint[None, :]
    mean: np.ndarray = linear_to_srgb(neutral(lit)).mean(axis=0)   # numpy's stubs give .mean() as Any
    return mean


def skin_reflect(tone: str) -> float:
    """The share of :data:`STUDIO`'s reflection a skin of ``tone`` (the colour shown) reflects (:data:`DEEP_SHINE`).

    >>> skin_reflect("#C68642"), skin_reflect("#3B2416")
    (1.0, 0.65)
    """
    y = float(srgb_to_linear(hex_rgb(tone)) @ LUMA)
    lightness = 116 * np.cbrt(y) - 16 if y > 0.008856 else 903.3 * y
    least, deep, mid = DEEP_SHINE
    return round(least + (1 - least) * float(np.clip((lightness - deep) / (mid - deep), 0, 1)), 4)


def albedo_for(color: str, reflect: float = 1.0) -> str:
    """The albedo ('#RRGGBB', sRGB-encoded as glTF's base colour) that shows ``color`` in the reference studio;
    a tone brighter than the brightest albedo (:data:`MAX_ALBEDO`) can show comes as near as it can. ``reflect``:
    the skin's reflections as a share of :data:`STUDIO`'s (:func:`shown_in_studio`); less reflection, more albedo.

    >>> albedo_for("#3B2416"), albedo_for("#3B2416", reflect=0.65)
    ('#2F1A0F', '#36251D')
    """
    want = srgb_to_linear(hex_rgb(color))
    albedo = np.clip(want / 1.4, 1e-4, MAX_ALBEDO)
    for _ in range(40):   # each channel scaled by how far its mean is from the tone (linear light)
        got = srgb_to_linear(shown_in_studio(albedo, reflect))
        albedo = np.clip(albedo * (np.maximum(want, 1e-4) / np.maximum(got, 1e-4)) ** 0.8, 0.0, MAX_ALBEDO)
    return to_hex(linear_to_srgb(albedo))
