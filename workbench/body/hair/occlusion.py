"""How deep in the hair each card vertex lies: the shade light that reaches it has (its vertex colour).

Hair is lit from outside: the strands under other strands, and the undersides of long hair (towards
the body), get less light. Cards alone shade every card alike, and the hair reads as flat flakes of
one colour; a vertex colour darkening each card vertex by its depth below the hair's outer surface
gives the volume back in every viewer (three.js multiplies the base colour by ``COLOR_0``).

The outer surface: on the head, over directions from the skull's centre (:data:`CELL` degree cells),
the highest card vertex over the head envelope; hanging past the head, over (azimuth, height) cells,
the farthest from the vertical through the centre; each grid spread to its neighbours (a cell's farthest takes its
neighbours' farthest, so a gap between locks does not make a cell shallow). A vertex's depth is that
surface's distance less its own; its colour ``1 - DARK * smoothstep(0, DEPTH, depth)``.

>>> import numpy as np
>>> from workbench.options import normalize_avatar_settings
>>> from workbench.body.mesh import body_mesh
>>> from .head import head_of
>>> h = head_of(body_mesh(normalize_avatar_settings({"gender": "feminine"})))
>>> d = np.array([[0.0, 1.0, 0.0], [0.0, 1.0, 0.0]])
>>> pts = h.centre + d * (h.envelope(d) + np.array([0.012, 0.002]))[:, None]
>>> shade(h, pts, np.zeros(2, bool), 0.008).round(2).tolist()
[1.0, 0.45]
"""

from __future__ import annotations

import numpy as np

from .head import Head, smoothstep

CELL = 6.0          # degrees per cell on the head and round the body
ROW = 0.015         # metres per row of hanging hair
DARK = 0.55         # the share of light the deepest vertices lose
# Metres under the skull's centre over which hanging hair's outermost layer in the full light (``flat`` of
# :func:`shade`) comes in: none at the skull's centre, all of it 4 cm under it. From the centre at once, the back of the
# head's lower half lit so too, the brightest hair there spread down it instead of lying in the strands' highlight, a
# band across them (tests/render/test_hair_shading.py's flatness 0.77, at most 0.6; now 0.54); coming in from 5 to 11 cm
# under it, the dark bands stayed over the upper back (tests/body/test_long_hair_review_l.py 0.068 and 0.051).
FLAT_BELOW = (0.0, 0.04)


def _spread(grid: np.ndarray, periodic_cols: bool = True) -> np.ndarray:
    """Each cell the largest of itself and its eight neighbours (columns wrap round)."""
    p = np.pad(grid, ((1, 1), (0, 0)), mode="edge")
    out = grid.copy()
    for dy in (-1, 0, 1):
        for dx in (-1, 0, 1):
            out = np.maximum(out, np.roll(p[1 + dy: 1 + dy + len(grid)], dx, 1))
    return out


def shade(head: Head, positions: np.ndarray, hanging: np.ndarray, depth: float, flat: float = 0.0) -> np.ndarray:
    """Per vertex (N,) the light left at ``positions`` (N, 3): 1 on the hair's outer surface, down to
    ``1 - DARK`` at ``depth`` metres under it or deeper; ``hanging`` (N,) marks vertices past the head, whose outermost
    ``flat`` metres are all in the full light (their darkening starts under those) where they hang past the nape
    (:data:`FLAT_BELOW`).

    >>> from types import SimpleNamespace
    >>> h = SimpleNamespace(centre=np.zeros(3))
    >>> pts = np.array([[0.1, -0.2, 0.0], [0.095, -0.2, 0.0], [0.08, -0.2, 0.0]])
    >>> hang = np.ones(3, bool)
    >>> shade(h, pts, hang, 0.01).round(2).tolist(), shade(h, pts, hang, 0.01, 0.006).round(2).tolist()
    ([1.0, 0.72, 0.45], [1.0, 1.0, 0.45])
    """
    rel = positions.astype(np.float64) - head.centre
    out = np.ones(len(rel))
    cols = int(360 / CELL)
    az = np.degrees(np.arctan2(rel[:, 0], rel[:, 2]))
    col = np.floor((az + 180) / CELL).astype(np.int64) % cols
    on = ~hanging
    if on.any():
        r = np.linalg.norm(rel[on], axis=1)
        pol = np.degrees(np.arccos(np.clip(rel[on, 1] / np.maximum(r, 1e-12), -1, 1)))
        # Heights over the head envelope, not radii: over the cells a spread reaches (30 degrees) the head's own
        # radius changes by a centimetre, and every card of sleek hair on the side of the head read as a
        # centimetre under the hair nearer the crown: all in their darkest shade, dark brushstrokes.
        r = r - head.envelope(rel[on] / np.maximum(r, 1e-12)[:, None])
        row = np.minimum((pol / CELL).astype(np.int64), int(180 / CELL) - 1)
        grid = np.full((int(180 / CELL), cols), -np.inf)
        np.maximum.at(grid, (row, col[on]), r)
        grid = _spread(_spread(grid))
        out[on] = 1 - DARK * smoothstep(0.0, depth, grid[row, col[on]] - r)
    if hanging.any():
        rho = np.hypot(rel[hanging, 0], rel[hanging, 2])
        y = rel[hanging, 1]
        row = np.floor((y.max() - y) / ROW).astype(np.int64)
        grid = np.full((int(row.max()) + 1, cols), -np.inf)
        np.maximum.at(grid, (row, col[hanging]), rho)
        grid = _spread(_spread(grid))
        top = flat * smoothstep(FLAT_BELOW[0], FLAT_BELOW[1], -y)
        out[hanging] = 1 - DARK * smoothstep(top, top + depth, grid[row, col[hanging]] - rho)
    return out


def tube(positions: np.ndarray, depth: float) -> np.ndarray:
    """Per vertex (N,) the light left at ``positions`` (N, 3) of a tail of hair hanging on its own (a ponytail): its
    depth under the tail's outside in its own round, row by row (:data:`ROW` metres down), about the row's middle.
    Shaded as hair hanging round the body (:func:`shade`: distances from the vertical through the skull), a tail a
    few centimetres across behind the head was all "under" its own farthest side: in its darkest shade, one flat
    dark strip (blind review H).

    >>> import numpy as np
    >>> a = np.linspace(0, 2 * np.pi, 8, endpoint=False)
    >>> ring = np.column_stack([np.cos(a), np.zeros(8), np.sin(a)])
    >>> tube(np.concatenate([0.03 * ring, 0.01 * ring]), 0.01).round(2).tolist()[::8]
    [1.0, 0.45]
    """
    p = positions.astype(np.float64)
    row = np.floor((p[:, 1].max() - p[:, 1]) / ROW).astype(np.int64)
    rows = int(row.max()) + 1
    count = np.maximum(np.bincount(row, minlength=rows), 1)
    middle = np.stack([np.bincount(row, p[:, k], rows) / count for k in range(3)], 1)
    # (across the tail: square to its line through the rows' middles, where it slants out from the tie)
    along = np.gradient(middle, axis=0) if rows > 1 else np.array([[0.0, 1.0, 0.0]])
    along /= np.maximum(np.linalg.norm(along, axis=1, keepdims=True), 1e-12)
    off = p - middle[row]
    dist = np.linalg.norm(off - np.sum(off * along[row], axis=1, keepdims=True) * along[row], axis=1)
    outer = np.full(rows, -np.inf)
    np.maximum.at(outer, row, dist)
    # (each row's outside the largest of its own and its neighbours': a row where few cards reach is not shallow)
    outer = np.maximum(outer, np.maximum(np.r_[outer[1:], -np.inf], np.r_[-np.inf, outer[:-1]]))
    return 1 - DARK * smoothstep(0.0, depth, outer[row] - dist)


def hull(positions: np.ndarray, depth: float) -> np.ndarray:
    """Per vertex (N,) the light left at ``positions`` (N, 3) of hair wound on itself (a bun's coil): its depth under
    the coil's own outside, the convex hull of its vertices (the least distance in from the hull's faces). Shaded as
    hair on the head (:func:`shade`: heights over the head's envelope, cell by cell), a coil standing 4 cm over the
    head was all under its own top: 0.45, its darkest, on nine vertices in ten, a dark blob the cap's colour darkened
    (blind review AW's "olive cap"; a blind A/B of pass 65's higher bun: "a separate blob ... in a darker or greyer
    shade"). Its turns' outsides lie on the hull; the grooves between them and its inner layer under it. (The hull needs
    at least four points not all in one plane, as scipy's qhull does: a coil's 600 to 1,700 spread in three
    dimensions.)

    >>> import numpy as np
    >>> import itertools
    >>> corners = np.array(list(itertools.product((0.0, 0.02), repeat=3)))    # a 2 cm cube, its centre 1 cm in
    >>> hull(np.vstack([corners, [[0.01, 0.01, 0.01], [0.01, 0.01, 0.015]]]), 0.01).round(2).tolist()[-3:]
    [1.0, 0.45, 0.72]
    """
    from scipy.spatial import ConvexHull

    p = positions.astype(np.float64)
    faces = ConvexHull(p).equations                       # (F, 4): outward unit normals and offsets, n . x + d <= 0
    inside = -(p @ faces[:, :3].T + faces[:, 3])          # each vertex's distance in from each face's plane
    return 1 - DARK * smoothstep(0.0, depth, np.maximum(inside.min(1), 0.0))
