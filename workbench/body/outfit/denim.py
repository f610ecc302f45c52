"""A denim's look on a garment's texture, what tells it from a jersey or a knit at a full figure's size (blind review
AE: "T-shirts, sweaters, denim skirts all show the same coarse woven noise"):

- :func:`twill`: its weave, a fine diagonal rib (:data:`TWILL` texels, 7 mm: the browsers' mipmaps and our supersampling average it at a
  full figure, a close look shows it) at low contrast (high-contrast stripes read as brushed metal under the key light);
- :func:`streaks`: its warp's streaks down the cloth: a ring-spun warp's dye is uneven along its length, so the cloth
  is streaked in threads :data:`WARP_THREAD` texels wide and :data:`WARP_LENGTH` long along the way it falls;
- :func:`weft`: the undyed weft in the rib's hollows and the warp's pale streaks, as a share of the trim's colour
  (:func:`.trims.trim_colour`, the cloth's lifted towards undyed cotton);
- :func:`wear`: paler along its seams and its bands' folded edges, where the cloth stands proud and rubs first;
- :func:`streaked`: how much of the warp's streaks (and of the weft they pale) a garment in a colour shows: a denim's
  are an indigo warp's, so blue trousers and shorts take them whole; on pink, purple, grey, tan or black cloth, and on
  a flared skirt's panels, the same streaks read as "brushed wood-grain" (blind review AF, #1's pink trousers, #7's
  purple and #11's grey skirts): there the cloth is a piece-dyed twill, its fine rib, its weft dyed and the streaks
  at :data:`PLAIN`.

:mod:`workbench.body.outfit.cloth` draws them on a twill's garments (trousers, shorts, skirts).

>>> twill(6)["shade"].shape
(6, 6)
>>> [round(streaked(c, "trousers"), 2) for c in ("#243952", "#BD898F", "#6F7275", "#683C68")]
[1.0, 0.12, 0.12, 0.12]
"""

from __future__ import annotations

import numpy as np
from scipy.ndimage import gaussian_filter, map_coordinates

__all__ = ["TWILL", "WARP", "WEFT", "WEAR", "WEAR_WIDTH", "PLAIN", "BLUE", "SKIRT", "twill", "streaks", "weft", "wear",
           "streaked"]

# The rib's period (texels: it divides review O's 30 by 24 tile); how much the warp's streaks lighten and darken the
# cloth (per unit of their spread, which is clipped at WARP_CLIP: further out, single threads read as scratches), how
# wide (texels) and long (texels: 32, about 8 cm) they are.
TWILL = 3
WARP, WARP_THREAD, WARP_LENGTH, WARP_CLIP = 0.055, 3.0, 32, 2.0
# The undyed weft's share of the trim's colour: in the rib's hollows, and per unit of the warp's streaks.
WEFT = (0.1, 0.035)
# How much paler a worn seam or folded edge is (the trim's share) and over how far from it (metres).
WEAR, WEAR_WIDTH = 0.3, 0.009


# What reads as denim: a blue (CIELAB hue, degrees: whole within the first range, none outside the second) of some
# colour (chroma: none under the first, whole from the second), the indigo warp's; the streaks' share on any other
# cloth, and at most on a skirt (its flared panels: streaks fanning down a skirt read as grain whatever its colour).
BLUE = ((240.0, 295.0), (215.0, 315.0))
CHROMA = (5.0, 12.0)
PLAIN, SKIRT = 0.12, 0.5


def _ramp(a: float, b: float, x: float) -> float:
    t = min(max((x - a) / (b - a), 0.0), 1.0)
    return t * t * (3 - 2 * t)


def streaked(color: str, style: str) -> float:
    """The share (:data:`PLAIN` to 1) of the warp's streaks :func:`~workbench.body.outfit.cloth.shading` draws on a
    twill garment of ``style`` in ``color`` ('#RRGGBB'): 1 on indigo and blue, :data:`PLAIN` off blue or on a grey,
    a skirt at most :data:`SKIRT`."""
    from ..tone import lab

    c = color.lstrip("#")
    _, a, b = lab(np.array([int(c[i:i + 2], 16) for i in (0, 2, 4)], np.float64) / 255)
    hue, chroma = float(np.degrees(np.arctan2(b, a)) % 360), float(np.hypot(a, b))
    (full_lo, full_hi), (none_lo, none_hi) = BLUE
    blue = min(_ramp(none_lo, full_lo, hue), 1 - _ramp(full_hi, none_hi, hue)) * _ramp(*CHROMA, chroma)
    share = PLAIN + (1 - PLAIN) * blue
    return min(share, SKIRT) if style == "skirt" else share


def _grid(n: int) -> tuple[np.ndarray, np.ndarray]:
    return np.arange(n, dtype=np.float32)[:, None], np.arange(n, dtype=np.float32)[None, :]


def twill(n: int) -> dict[str, np.ndarray]:
    """The weave's light and shade (about 1) and its relief (0 to 1), (n, n) float32."""
    y, x = _grid(n)
    rib = np.cos(2 * np.pi * (x + y) / TWILL).astype(np.float32)
    return {"shade": (0.93 + 0.035 * rib).astype(np.float32), "height": (0.5 + 0.5 * rib).astype(np.float32)}


def streaks(fall: np.ndarray) -> np.ndarray:
    """The warp's streaks, (n, n) float32 of spread 1 (clipped at :data:`WARP_CLIP`), on a texture whose texels are
    ``fall`` metres down the cloth from its waist: white noise smeared along the gradient of ``fall`` (on a flared
    skirt's island it fans out: drawn straight down the texture, its sides' streaks ran across the skirt). Fixed noise:
    the same streaks for the same field."""
    n = len(fall)
    # (The field's slope averaged over some 3 cm: its wiggles from triangle to triangle bent the streaks into a swirl.)
    gy, gx = (gaussian_filter(g, 12.0, mode="nearest") for g in np.gradient(fall))
    norm = np.hypot(gx, gy)
    ok = norm > 1e-9
    down = np.where(ok, gy / np.maximum(norm, 1e-9), 1.0)
    across = np.where(ok, gx / np.maximum(norm, 1e-9), 0.0)
    noise = gaussian_filter(np.random.default_rng(47).random((n, n)).astype(np.float32), WARP_THREAD / 3, mode="wrap")
    rows, cols = np.mgrid[0:n, 0:n].astype(np.float32)
    total = noise.astype(np.float64)
    # (A line integral: each texel the mean of the noise along the fall, half the length either way.)
    for sign in (1.0, -1.0):
        r, c = rows.copy(), cols.copy()
        for _ in range(WARP_LENGTH // 2):
            i, j = np.clip(np.rint(r), 0, n - 1).astype(np.intp), np.clip(np.rint(c), 0, n - 1).astype(np.intp)
            r += sign * down[i, j]
            c += sign * across[i, j]
            total += map_coordinates(noise, [r, c], order=1, mode="grid-wrap")
    return np.clip((total - total.mean()) / total.std(), -WARP_CLIP, WARP_CLIP).astype(np.float32)


def weft(warp: np.ndarray, undyed: float = 1.0) -> np.ndarray:
    """The undyed weft's share of the trim's colour per texel (0 to 1), beside the warp's ``warp`` (:func:`streaks`);
    ``undyed``: how much of the weft is left undyed (a denim's 1; a piece-dyed twill, a chino, dyes its weft with its
    warp: 0, and its rib's hollows are its own colour, not paler lines that a browser's mipmaps beat into stripes)."""
    y, x = _grid(len(warp))
    hollow = 0.5 - 0.5 * np.cos(2 * np.pi * (x + y) / TWILL)
    return np.clip(undyed * WEFT[0] * hollow + WEFT[1] * warp, 0, 1).astype(np.float32)


def wear(near: np.ndarray, warp: np.ndarray, covered: np.ndarray) -> np.ndarray:
    """How much paler the cloth is worn (0 to :data:`WEAR`) ``near`` metres from a seam or a folded edge, broken along
    the warp's streaks; none off the garment's ``covered`` texels."""
    worn = WEAR * np.exp(-((near / WEAR_WIDTH) ** 2)) * np.clip(0.7 + 0.3 * warp, 0, 1)
    return np.where(covered, worn, 0.0).astype(np.float32)
