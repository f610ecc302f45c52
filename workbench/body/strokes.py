"""Hairs drawn into a texture: tapered, anti-aliased strokes (the brows' and the lashes' textures).

A stroke is a curve (a quadratic Bézier from its root through a bend to its tip) whose width runs from
``root`` to ``tip`` texels; each texel's cover is how much of it the stroke's width covers (a stroke thinner
than a texel covers it partly, so a tapering hair fades out at its tip rather than ending in a hard step,
which alpha-tested cut-outs showed as jagged spikes). :func:`draw` keeps, per texel, the greatest cover and
the shade of the stroke that gave it.

>>> cover, shade = draw((8, 16), [((2.0, 4.5), (8.0, 4.5), (14.0, 4.5), 2.0, 0.2, 0.5)])
>>> [round(float(cover[4, x]), 2) for x in (3, 13)], round(float(cover[3, 3]), 2), float(shade[4, 3])
([1.0, 0.18], 0.39, 0.5)
"""

from __future__ import annotations

import numpy as np
from numba import njit

__all__ = ["draw"]


def draw(shape: tuple[int, int], strokes, samples: int = 12) -> tuple[np.ndarray, np.ndarray]:
    """(cover, shade), each float32 ``shape`` (rows, columns): strokes ``(root, bend, tip, root width, tip width,
    shade)`` with points as (x, y) texel coordinates (x along columns). Later strokes draw over earlier ones
    where they cover more."""
    cover = np.zeros(shape, np.float32)
    shade = np.ones(shape, np.float32)
    if not strokes:
        return cover, shade
    t = np.linspace(0.0, 1.0, samples)[None, :, None]
    p0, p1, p2 = (np.array([q[i] for q in strokes], np.float64)[:, None, :] for i in range(3))
    pts = (1 - t) ** 2 * p0 + 2 * (1 - t) * t * p1 + t ** 2 * p2                  # (strokes, samples, 2)
    w = np.array([(q[3], q[4]) for q in strokes], np.float64)
    widths = w[:, :1] + (w[:, 1:] - w[:, :1]) * t[..., 0]                           # (strokes, samples)
    _draw(cover, shade, np.ascontiguousarray(pts), np.ascontiguousarray(widths),
          np.array([q[5] for q in strokes], np.float32))
    return cover, shade


@njit(cache=True, nogil=True)
def _draw(cover, shade, pts, widths, shades):
    # Compiled: a brow's 500 strokes over their boxes took 0.8 s in numpy, the lashes' 1.2 s.
    h, w = cover.shape
    for s in range(pts.shape[0]):
        reach = widths[s].max() + 1.0
        x0 = max(int(np.floor(pts[s, :, 0].min() - reach)), 0)
        x1 = min(int(np.ceil(pts[s, :, 0].max() + reach)), w - 1)
        y0 = max(int(np.floor(pts[s, :, 1].min() - reach)), 0)
        y1 = min(int(np.ceil(pts[s, :, 1].max() + reach)), h - 1)
        for y in range(y0, y1 + 1):
            for x in range(x0, x1 + 1):
                cx, cy = x + 0.5, y + 0.5
                best, width = 1e30, 0.0
                for i in range(pts.shape[1] - 1):
                    ax, ay = pts[s, i, 0], pts[s, i, 1]
                    bx, by = pts[s, i + 1, 0] - ax, pts[s, i + 1, 1] - ay
                    k = ((cx - ax) * bx + (cy - ay) * by) / max(bx * bx + by * by, 1e-12)
                    k = min(max(k, 0.0), 1.0)
                    dx, dy = cx - (ax + k * bx), cy - (ay + k * by)
                    d = np.sqrt(dx * dx + dy * dy)
                    if d < best:
                        best = d
                        width = widths[s, i] + (widths[s, i + 1] - widths[s, i]) * k
                # A texel's cover: the stroke's width over it (as a box filter of one texel), never more than 1.
                got = min(max(width / 2 + 0.5 - best, 0.0), 1.0) * min(width, 1.0)
                if got > cover[y, x]:
                    cover[y, x] = got
                    shade[y, x] = shades[s]
