"""Texture atlas packing: several textures into one N x N image, with the UV transform of each.

Steps: (1) sort the textures by height, tallest first; (2) find the largest common scale
(1, 1/2, 1/4, ...) at which a shelf packer fits them all in N x N, with a 2-texel gutter
around each; (3) paste the resized textures and extend their edges into the gutter so
mip-mapping and bilinear filtering do not bleed neighbours in; (4) return, per texture,
the rectangle its UVs must be mapped into (inset by half a texel).
A skyline packer was the alternative; with at most five textures of power-of-two sizes the
shelf packer wastes no more space and is simpler to check.

>>> import numpy as np
>>> atlas, rects = pack([np.zeros((512, 512, 3), np.uint8), np.zeros((256, 256, 3), np.uint8)], 512)
>>> atlas.shape, [tuple(round(v, 3) for v in r) for r in rects]
((512, 512, 3), [(0.005, 0.005, 0.503, 0.503), (0.513, 0.005, 0.761, 0.253)])
"""

from __future__ import annotations

import numpy as np

from .textures import resize

GUTTER = 2


def _shelf(sizes: list[tuple[int, int]], n: int) -> list[tuple[int, int]] | None:
    """Place (w, h) boxes (already sorted tallest first) on shelves; None if they do not fit."""
    x = y = shelf_h = 0
    out = []
    for w, h in sizes:
        bw, bh = w + 2 * GUTTER, h + 2 * GUTTER
        if x + bw > n:
            x, y, shelf_h = 0, y + shelf_h, 0
        if bw > n or y + bh > n:
            return None
        out.append((x + GUTTER, y + GUTTER))
        x += bw
        shelf_h = max(shelf_h, bh)
    return out


def pack(images: list[np.ndarray], n: int) -> tuple[np.ndarray, list[tuple[float, float, float, float]]]:
    """Pack ``images`` (H, W, C uint8, all with the same C) into one n x n image.

    Returns the atlas and, per input image in order, its UV rectangle (u0, v0, u1, v1).
    """
    if not images:
        raise ValueError("pack: no images to pack")
    channels = images[0].shape[2]
    order = sorted(range(len(images)), key=lambda i: (-images[i].shape[0], -images[i].shape[1], i))
    scale = 1.0
    while True:
        sizes = [(max(1, int(images[i].shape[1] * scale)), max(1, int(images[i].shape[0] * scale))) for i in order]
        # Each box must fit with its gutter, so nothing larger than n - 2*GUTTER.
        sizes = [(min(w, n - 2 * GUTTER), min(h, n - 2 * GUTTER)) for w, h in sizes]
        spots = _shelf(sizes, n)
        if spots is not None:
            break
        if scale < 1e-3:
            raise ValueError(f"pack: {len(images)} textures do not fit in {n} x {n}")
        scale /= 2
    atlas = np.zeros((n, n, channels), np.uint8)
    rects: list = [None] * len(images)
    for (w, h), (x, y), i in zip(sizes, spots, order, strict=True):
        img = resize(images[i], (w, h))
        atlas[y:y + h, x:x + w] = img
        # Gutter: repeat the edge texels outward.
        atlas[y:y + h, x - GUTTER:x] = img[:, :1]
        atlas[y:y + h, x + w:x + w + GUTTER] = img[:, -1:]
        atlas[y - GUTTER:y, x - GUTTER:x + w + GUTTER] = atlas[y:y + 1, x - GUTTER:x + w + GUTTER]
        atlas[y + h:y + h + GUTTER, x - GUTTER:x + w + GUTTER] = atlas[y + h - 1:y + h, x - GUTTER:x + w + GUTTER]
        rects[i] = ((x + 0.5) / n, (y + 0.5) / n, (x + w - 0.5) / n, (y + h - 0.5) / n)
    return atlas, rects
