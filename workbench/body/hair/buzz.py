"""A buzz cut (style ``buzz``): hair clipped to a few millimetres, drawn on the scalp alone, no cards (issue 46, blind
review O: "Buzz: none, not in the sample"; its best-rated heads were the bald one's clean scalp and the curls).

Over the skin texture, inside the ``short`` style's hairline (the line hair grows to), the skin is covered by the
settings' hair colour, as densely as clipped hair covers a scalp (:data:`COVER`, the scalp a little through it), in a
grain of clumps (:data:`GRAIN` per metre, drawn in space: no seam where the UV islands meet) and short hairs between
them (:data:`FINE`), the skin showing between them (:data:`BETWEEN`; :data:`CROWN`: fewer gaps on the crown; blind
review Q: "a flat, untextured orange shell like a swim cap": the cover had been all but full), the colour a little deeper
than the hair's own (:data:`ROOT`: short hair shows its shaded roots, not its lit lengths). The hairline is soft: the
cover fades over :data:`FADE` of a hairline, its edge broken by the grain (:data:`RAGGED`), not a drawn line. The
bald head's stubble (``none``, :mod:`.bald`) is the same mask, lighter (a skin tone drawn towards a greyed stubble);
a buzz cut is the hair's own colour.

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
from ..skin import SKIN_SIZE, skin_texture
from .bald import HAIRS_FOR, draw_mask, front_hairs, painted, shaved
from .texture import rgb

# Styles drawn on the scalp's skin, with no hair mesh: ``none`` (a shaved head's stubble) and ``buzz``.
PAINTED = ("none", "buzz")
# How much of the scalp the clipped hair covers (the rest is the skin through it).
COVER = 0.93
# The clipped hair's colour: so much of the hair's (its roots in their own shade).
ROOT = 0.8
# Grain cells per metre (clumps some 5 mm apart), the cover between them (the skin shows there: 0.9 drew a flat cap)
# and the short hairs' finer grain per metre.
GRAIN = 700.0
BETWEEN = 0.45
FINE = 1800.0
# How much of the gaps between the hairs the crown fills (denser there, thinning towards the hairline).
CROWN = 0.3
# Where the cover fades (in hairlines from the crown): from none just past the hairline to full a fifth inside it;
# and how far the grain moves the fade's weights (a broken edge).
FADE = (1.05, 0.8)
RAGGED = 0.8
# The share of the skin's reflection (its specular map) left under the cover.
MATTE = 0.35
# ...and its least roughness (0..1).
ROUGH = 0.85


def _mask(gender: str, size: int) -> tuple[np.ndarray, np.ndarray]:
    """(flat texel indices, weights 0..255 uint8) of the buzz cut's cover on a ``size`` px skin texture."""
    data = keep.kept(f"buzz-{gender}-{size}", lambda: draw_mask(gender, size, FADE, GRAIN, BETWEEN, RAGGED, FINE,
                                                                           CROWN),
                     {"at": (None,), "w": (None,)})
    return data["at"], data["w"]


@lru_cache(maxsize=16)
def buzzed(tone: str, gender: str, hair_color: str) -> np.ndarray:
    """The skin texture (:func:`workbench.body.skin.skin_texture` of ``tone`` and ``gender``) of a head with its
    hair clipped short, in ``hair_color`` (read-only)."""
    skin = skin_texture(tone, gender)
    at, w = _mask(gender, skin.shape[0])
    hair = rgb(hair_color) * 255 * ROOT
    # Per channel, weight (0..255) and skin level (0..255): the level drawn (a table, as bald.shaved's).
    level = np.arange(256, dtype=np.float64)[None, None, :]
    t = np.arange(256, dtype=np.float64)[None, :, None] / 255 * COVER
    table = np.clip(level * (1 - t) + hair[:, None, None] * t + 0.5, 0, 255).astype(np.uint8)          # (3, 256, 256)
    return painted(skin, at, w, table)


@lru_cache(maxsize=2)
def _cover(gender: str, size: int) -> np.ndarray:
    """The buzz cut's cover (0..1, the grain's cells and the fade) over a ``size`` px map of the body."""
    at, w = _mask(gender, SKIN_SIZE)
    cover = np.zeros(SKIN_SIZE * SKIN_SIZE)
    cover[at] = w / 255.0
    step = SKIN_SIZE // size
    return np.clip(cover.reshape(size, step, size, step).mean(axis=(1, 3)) / BETWEEN, 0, 1)


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
