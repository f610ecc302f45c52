"""Seams and trims on a garment's texture: where the lines of :mod:`.seams` run on its UVs, and how each is drawn
(:func:`sewing`), a trim's colour on a cloth (:func:`trim_colour`) and a knit's heather (:func:`flecks`);
:func:`workbench.body.outfit.cloth.shading` and ``trim`` put them in the cloth's maps.

>>> sorted(sewing("skirt", 64))
['aglet', 'cord', 'cord_shadow', 'ridge', 'sewn', 'topstitch']
"""

from __future__ import annotations

import numpy as np
from scipy.ndimage import gaussian_filter

from ..texels import texel_map
from .pattern import pattern
from .seams import FAR, LINES, TRIMS

__all__ = ["CORD_WIDTH", "HEATHER", "UNDYED", "TRIM_LIFT", "seam_distances", "sewing", "flecks", "trim_colour"]

# A drawstring's width (metres); a trim's colour: the cloth's lifted towards an undyed cotton.
CORD_WIDTH = 0.008
UNDYED, TRIM_LIFT = (0.93, 0.91, 0.86), 0.58
# A knit's heather (the trim's colour in its paler fibres, :func:`_flecks`): a cotton jersey, a sweater's
# and a fleece's yarn spun with a few undyed fibres, so a saturated dye reads as yarn, not as a coat of paint;
# a twill's undyed weft showing between the dyed warp's ribs, as a denim's does (review G: a lime or mint
# twill read as a neon plastic, "close to neon").
HEATHER = {"jersey": 0.05, "sweater": 0.3, "fleece": 0.18, "twill": 0.3}


def seam_distances(name: str, n: int) -> np.ndarray:
    """Per texel of an ``n`` px texture of style ``name``, the distance (metres along the cloth) to the nearest
    of its seams and pockets' lines (:data:`~.seams.FAR` where none runs; its trims left out).

    >>> d = seam_distances("skirt", 64)
    >>> d.shape, bool(d.min() < 0.01)
    ((64, 64), True)
    """
    d = _line_distances(name, n)
    sewn = [k for k, line in enumerate(LINES.get(name, ())) if line not in TRIMS]
    return d[..., sewn].min(-1) if sewn else np.full((n, n), FAR, np.float32)


def _line_distances(name: str, n: int) -> np.ndarray:
    """(n, n, lines): per texel the distance (metres along the cloth: the fields of :mod:`.seams` over their
    slope there) to each of style ``name``'s lines (:data:`~.seams.FAR` where it does not run)."""
    pat = pattern(name)
    if not pat["seams"].shape[1]:
        return np.full((n, n, 1), FAR, np.float32)
    tex = texel_map(np.column_stack([pat["uv"][:, 0], 1 - pat["uv"][:, 1]])[pat["vfaces"]], n)
    painted = tex.paint_vertices(pat["vfaces"], pat["seams"][pat["vmap"]])
    lines = painted.shape[-1] // 2
    f = painted[..., :lines]
    # (Per texel of the texture: where the surface turns away from the field's direction, under the arm, a
    # field of metres changed slowly across the cloth and its line spread into a blot.)
    gy, gx = np.gradient(f, axis=(0, 1))
    slope = np.hypot(gx, gy) / (float(pat["uv_scale"]) / n)
    d = np.where(painted[..., lines:] > 0.5, np.abs(f) / np.clip(slope, 0.3, 3.0), FAR)
    return np.where(tex.covered[..., None], d, FAR).astype(np.float32)


def sewing(name: str, n: int) -> dict[str, np.ndarray]:
    """Per texel of an ``n`` px texture of style ``name`` (0 to 1): ``sewn``, a seam's groove (1 on its line),
    ``ridge`` (its allowance, pressed to one side), ``topstitch`` (its line of stitches); ``cord`` and ``aglet``,
    a drawstring's round (1 on its middle line) and its tip's; ``cord_shadow``, their shadow on the cloth."""
    texel = float(pattern(name)["uv_scale"]) / n            # metres per texel
    d = seam_distances(name, n) / texel
    # (Lines of a few texels, wide enough to read at a full figure's size, 4-5 mm a pixel.)
    out = {"sewn": np.clip(1.6 - d, 0, 1), "ridge": np.clip(1 - np.abs(d - 2.6), 0, 1),
           "topstitch": np.clip(1 - np.abs(d - 4.2) / 0.8, 0, 1)}
    lines = LINES.get(name, ())
    every = _line_distances(name, n)
    for trim in TRIMS:
        d = every[..., lines.index(trim)] if trim in lines else np.full((n, n), np.inf, np.float32)
        out[trim] = np.sqrt(np.clip(1 - (d / (CORD_WIDTH / 2)) ** 2, 0, 1))
    near = np.minimum(out["cord"], 1) + out["aglet"]
    out["cord_shadow"] = np.clip(gaussian_filter(near, 2.0) * 1.5 - near, 0, 1)
    return {k: v.astype(np.float32) for k, v in out.items()}


def flecks(n: int, share: float = 0.13) -> np.ndarray:
    """A heather's paler fibres, 0 to 1: short streaks along the texture's rows (the yarn's run), about
    ``share`` of the texels (fixed noise)."""
    streak = gaussian_filter(np.random.default_rng(45).random((n, n)).astype(np.float32), (0.6, 2.0), mode="wrap")
    return np.clip((streak - np.quantile(streak, 1 - share)) / 0.03, 0, 1)


def trim_colour(color: np.ndarray) -> np.ndarray:
    """A trim's colour (sRGB 0..1) on a cloth of ``color``: the cloth's lifted towards an undyed cotton
    (:data:`UNDYED`) by :data:`TRIM_LIFT`.

    >>> [round(float(c), 3) for c in trim_colour(np.array([0.0, 0.5, 0.0], np.float32))]
    [0.539, 0.738, 0.499]
    """
    return (color * (1 - TRIM_LIFT) + np.asarray(UNDYED, np.float32) * TRIM_LIFT).astype(np.float32)


