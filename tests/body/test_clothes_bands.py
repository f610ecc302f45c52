"""A band's end on the cloth's texture (a tee's and a hoodie's hem, a cuff, a crew neck's collar: the ribbing's edge and the
line of stitches drawn there) is a smooth line, not a sawtooth (blind review D: "a sawtooth line at the top of
the hem band", jagged cuffs).

The line is the level line of the band's distance from its cut at the band's width, on each top's texture
(``cloth.band_distances``, as ``cloth.shading`` draws it), over the texels its UV islands cover. Each piece of
it 40 texels or longer, walked at one texel a step, is at most 4 % longer than a copy smoothed along it (a
Gaussian of 6 texels; its ends left out): a zigzag from triangle to triangle is much longer than its smoothed
copy, a smooth curve barely longer.
"""

from __future__ import annotations

import numpy as np
import pytest
from contourpy import contour_generator
from scipy.ndimage import gaussian_filter1d

from workbench.body.outfit.cloth import CLOTH_SIZE, NECKLINE_CUT, band_distances
from workbench.body.outfit.pattern import pattern
from workbench.body.texels import texel_map

SLACK = 1.04


def _resampled(line: np.ndarray) -> np.ndarray:
    seg = np.linalg.norm(np.diff(line, axis=0), axis=1)
    s = np.r_[0.0, np.cumsum(seg)]
    at = np.arange(0.0, s[-1], 1.0)
    return np.column_stack([np.interp(at, s, line[:, k]) for k in range(2)])


def wiggle(line: np.ndarray, sigma: float = 6.0) -> float:
    """How much longer ``line`` (texels) is than its smoothed copy, over its middle (ends ``3 sigma`` off)."""
    pts = _resampled(line)
    smooth = gaussian_filter1d(pts, sigma, axis=0, mode="nearest")
    cut = int(3 * sigma)
    mid = slice(cut, len(pts) - cut)

    def length(p):
        return float(np.linalg.norm(np.diff(p[mid], axis=0), axis=1).sum())

    return length(pts) / max(length(smooth), 1e-9)


@pytest.mark.parametrize("top", ["tee", "longsleeve", "hoodie"])
def test_every_bands_end_is_a_smooth_line_on_the_texture(top):
    pat = pattern(top)
    uv = pat["uv"]
    covered = texel_map(np.column_stack([uv[:, 0], 1 - uv[:, 1]])[pat["vfaces"]], CLOTH_SIZE).covered
    seen, bad = 0, []
    for k, (width, _tight, d) in enumerate(band_distances(top, CLOTH_SIZE)):
        if top == "hoodie" and k == NECKLINE_CUT:
            continue            # (its band is the hood's roll, a strip of its own: its end is the strip's edge)
        z = np.ma.array(d.astype(np.float64), mask=~covered)
        for line in contour_generator(z=z).lines(width):
            if len(line) < 2 or np.linalg.norm(np.diff(line, axis=0), axis=1).sum() < 40:
                continue
            seen += 1
            w = wiggle(line)
            if w > SLACK:
                bad.append((k, len(line), round(w, 3)))
    assert seen >= 2, seen
    assert not bad, bad
