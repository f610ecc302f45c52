"""A buzz cut (style ``buzz``): hair clipped to a few millimetres, drawn on the scalp alone, no cards (issue 46, blind
review O: "Buzz: none, not in the sample"; its best-rated heads were the bald one's clean scalp and the curls).

Over the skin texture, inside the buzz cut's own hairline (``head.HAIRLINE["buzz"]``: the front at the forehead's top,
a temple's corner down to the sideburn, over the ear, a squared nape low on the neck), two layers (:func:`draw_buzz`):
the clipped lengths lying over the skin, so far from the skin to the hair's colour (:data:`LENGTHS`, in clumps of
:data:`GRAIN` per metre, the skin showing through them), and over those the hairs' roots, a dot at :data:`ROOTS` of
the texels (each texel its own draw from its point in space, :func:`follicles`: no seam where the UV islands meet)
in the brows' colour (:func:`..brows.brow_color`: the hair darker and muted, dyed hair's roots a natural brown), so
the head reads as hairs over skin in the brows' colour, not a tinted cap. The line is a clipper's: the cover from
none to full over :data:`EDGE` (some 2 mm), the roots thinning there one by one. (Blind review Q: "a flat,
untextured orange shell like a swim cap": one cover nearly full; review V, #11, grey #9A9A9A on #B18560: "a flat
grey-beige swim cap with an airbrushed edge and no stubble": the cover, the hair at 0.8, had the skin's own
lightness, its grain was only a hue's, and its fade ran 8 mm from a line under the crown:
tests/render/test_buzz_stubble_review_v.py.) The bald head's stubble (``none``, :mod:`.bald`) is its own, lighter
mask.

The styles painted on the scalp alone (:data:`PAINTED`) have no ``Hair`` mesh at any level of detail, so they cost
no triangles; :func:`scalp_skin` is the body's skin texture for every style.

>>> from workbench.body.skin import skin_texture
>>> skin = skin_texture("#8D5524", "masculine")
>>> out = buzzed("#8D5524", "masculine", "#2B1B10")
>>> out.shape == skin.shape, bool((out != skin).any()), bool((out <= skin).all())
(True, True, True)
>>> scalp_skin("#8D5524", "masculine", "curly", "#2B1B10") is skin
True
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from .. import keep, pores
from ..brows import brow_color
from ..skin import SKIN_SIZE, skin_texture
from .bald import HAIRS_FOR, clumps, front_hairs, painted, scalp_texels, shaved
from .head import hairline, smoothstep
from .texture import rgb

# Styles drawn on the scalp's skin, with no hair mesh: ``none`` (a shaved head's stubble) and ``buzz``.
PAINTED = ("none", "buzz")
# The hairline (in hairlines from the crown): the cover from none at EDGE[0] to full at EDGE[1], some 2 mm on the
# forehead: a clipper's line, not an airbrushed fade (blind review V, #11: "a flat grey-beige swim cap with an
# airbrushed edge"; over 1.05 to 0.8 the fade was 8 mm, its middle under the crown's third of the forehead).
EDGE = (1.02, 0.975)
# The hairs' roots: cells of FOLLICLE metres in space (under a texel: each texel its own draw, no seam where the UV
# islands meet), ROOTS of them a hair's root where the cover is full (fewer towards the line, each still whole: single
# hairs at the edge, not a paler tint), drawn in the hairs' root colour (the brows', :func:`..brows.brow_color`).
FOLLICLE = 0.0006
ROOTS = 0.32
ROOT = 0.8
# Between the roots the clipped lengths lie over the skin: so much of the way from the skin to the hair's colour
# (LENGTHS[0] to LENGTHS[1] with the clumps, GRAIN per metre, a couple of millimetres: the skin shows through).
LENGTHS = (0.55, 0.8)
GRAIN = 1800.0
# The lengths' colour: so much of the hair's (their lit ends; light hair stays its colour, not a grey).
LIT = 0.95
# The cover (mean, where full) by which the skin's reflection and roughness go to MATTE and ROUGH.
COVER = 0.93
# The share of the skin's reflection (its specular map) left under the cover.
MATTE = 0.35
# ...and its least roughness (0..1).
ROUGH = 0.85


def draw_buzz(gender: str, size: int) -> dict[str, np.ndarray]:
    """The buzz cut's layers on a ``size`` px skin texture of ``gender``: ``at`` (flat texel indices inside the
    line), ``lengths`` (0..255: how far the clipped lengths cover the skin there) and ``roots`` (0..255: a hair's
    root, drawn over that)."""
    p, az, pol, near = scalp_texels(gender, size)
    w = smoothstep(EDGE[0], EDGE[1], pol / hairline("buzz", az)) * near
    draw = follicles(p, FOLLICLE)
    roots = draw < ROOTS * w
    lengths = w * (LENGTHS[0] + (LENGTHS[1] - LENGTHS[0]) * clumps(p * GRAIN))
    at = np.flatnonzero((lengths > 1 / 255) | roots).astype(np.int32)
    return {"at": at, "lengths": np.round(lengths[at] * 255).astype(np.uint8),
            "roots": np.where(roots[at], round(255 * ROOT), 0).astype(np.uint8)}


def follicles(p: np.ndarray, cell: float) -> np.ndarray:
    """A draw 0..1 per point ``p`` (N, 3, metres), the same for every point of a ``cell`` metres cube of space (an
    integer hash: the same on every CPU).

    >>> d = follicles(np.array([[0.0, 0.0, 0.0], [0.0001, 0.0, 0.0], [0.01, 0.02, -0.03]]), 0.001)
    >>> bool(d[0] == d[1]), bool(d[0] != d[2]), bool(((d >= 0) & (d < 1)).all())
    (True, True, True)
    """
    q = np.floor(p / cell).astype(np.int64).astype(np.uint64)
    k = q[:, 0] * np.uint64(0x9E3779B97F4A7C15) ^ q[:, 1] * np.uint64(0xC2B2AE3D27D4EB4F) \
        ^ q[:, 2] * np.uint64(0x165667B19E3779F9)
    k ^= k >> np.uint64(31)
    k *= np.uint64(0xBF58476D1CE4E5B9)
    k ^= k >> np.uint64(29)
    return (k >> np.uint64(11)).astype(np.float64) / float(1 << 53)


def _mask(gender: str, size: int) -> dict[str, np.ndarray]:
    """:func:`draw_buzz`, kept (``keep.kept``)."""
    return keep.kept(f"buzz-{gender}-{size}", lambda: draw_buzz(gender, size),
                     {"at": (None,), "lengths": (None,), "roots": (None,)})


@lru_cache(maxsize=16)
def buzzed(tone: str, gender: str, hair_color: str) -> np.ndarray:
    """The skin texture (:func:`workbench.body.skin.skin_texture` of ``tone`` and ``gender``) of a head with its
    hair clipped short, in ``hair_color`` (read-only): the skin under the clipped lengths (the hair's colour), the
    hairs' roots over them in the brows' colour (darker: roots are the hair in its own shade)."""
    skin = skin_texture(tone, gender)
    data = _mask(gender, skin.shape[0])
    level = np.arange(256, dtype=np.float64)[None, None, :]
    t = np.arange(256, dtype=np.float64)[None, :, None] / 255

    def table(colour: np.ndarray) -> np.ndarray:
        # Per channel, weight (0..255) and skin level (0..255): the level drawn (as bald.shaved's).
        return np.clip(level * (1 - t) + colour[:, None, None] * 255 * t + 0.5, 0, 255).astype(np.uint8)

    lengths = painted(skin, data["at"], data["lengths"], table(rgb(hair_color) * LIT))
    return painted(lengths, data["at"], data["roots"], table(rgb(brow_color(hair_color, tone))))


@lru_cache(maxsize=2)
def _cover(gender: str, size: int) -> np.ndarray:
    """The buzz cut's cover (0..1: the lengths, a root whole) over a ``size`` px map of the body, each texel its
    block's most (the line's blocks matte too)."""
    data = _mask(gender, SKIN_SIZE)
    cover = np.zeros(SKIN_SIZE * SKIN_SIZE)
    cover[data["at"]] = np.minimum(np.maximum(data["lengths"] / LENGTHS[0], data["roots"] / ROOT) / 255.0, 1.0)
    step = SKIN_SIZE // size
    return cover.reshape(size, step, size, step).max(axis=(1, 3))


@lru_cache(maxsize=2)
def scalp_specular(gender: str, style: str) -> np.ndarray:
    """The skin's specular map (:func:`workbench.body.pores.skin_specular`) under hair ``style``: a buzz cut's cover
    reflects :data:`MATTE` of the skin's sheen (clipped hair scatters the light: with the skin's, a deep-toned buzz
    cut shone as a bare scalp does), the rest as the skin's."""
    spec = pores.skin_specular(gender)
    if style != "buzz":
        return spec
    out = np.round(spec * (1 - (1 - MATTE) * _cover(gender, spec.shape[0]))).astype(np.uint8)
    out.setflags(write=False)
    return out


@lru_cache(maxsize=2)
def scalp_roughness(gender: str, style: str) -> np.ndarray:
    """The skin's roughness map (:func:`workbench.body.pores.skin_roughness`) under hair ``style``: a buzz cut's
    cover at least :data:`ROUGH` (in a browser's room light, at the skin's 0.6, a black buzz cut on deep skin
    shone in a broad band over the crown, a bare scalp's)."""
    rough = pores.skin_roughness(gender)
    if style != "buzz":
        return rough
    cover = _cover(gender, rough.shape[0])
    out = np.round(rough + (np.maximum(rough, ROUGH * 255) - rough) * cover).astype(np.uint8)
    out.setflags(write=False)
    return out


def scalp_skin(tone: str, gender: str, style: str, hair_color: str) -> np.ndarray:
    """The body's skin texture for hair ``style``: a shaved head's stubble (``none``), a buzz cut's cover
    (``buzz``), fine hairs where the forehead's hairline fades (:data:`.bald.HAIRS_FOR`), else the skin alone (the
    hair's mesh covers the scalp)."""
    if style == "none":
        return shaved(tone, gender, hair_color)
    if style == "buzz":
        return buzzed(tone, gender, hair_color)
    if style in HAIRS_FOR:
        return front_hairs(tone, gender, style, hair_color)
    return skin_texture(tone, gender)
