"""Each of the skin's quads split on the diagonal that keeps its two triangles fattest in every face shape.

MakeHuman's quads are split on one fixed diagonal (corners 0-2, :func:`~workbench.body.topology.topology`). Where a
face shape squeezes a quad along that diagonal (mouthOpen's stretch beside the mouth's corners and over the cheeks) the
two triangles become slivers; a GPU shades a sliver that covers one multisample at a pixel's centre with its UVs and
normal extrapolated outside it (three.js has no centroid sampling), which drew single dark pixels on the skin in
three.js (blind review X, defect 8: "dark specks at the mouth corners and cheeks"). :func:`split_quads` turns such a
quad's diagonal (1-3) where that split's smallest angle, the worst over the rest and every shape at full weight, is
larger by :data:`GAIN` degrees or more; every other quad keeps MakeHuman's. The vertices, normals and UVs stay as
they are: only the piece's index list changes.

>>> import numpy as np
>>> from workbench.body.lod import Piece
>>> pts = np.float32([[0, 0, 0], [2, 0, 0], [2, 2, 0], [0, 2, 0]])   # a square a shape stretches along 0-2
>>> p = Piece(pts, pts, pts[:, :2], np.array([[0, 1, 2], [0, 2, 3]]), np.zeros((4, 4), np.uint8),
...           np.zeros((4, 4), np.float32), np.arange(4))
>>> shape = (np.array([0, 2]), np.float32([[-2, -2, 0], [2, 2, 0]]))
>>> split_quads(p, [shape]).indices.tolist()
[[0, 1, 3], [1, 2, 3]]
>>> split_quads(p, []).indices.tolist()   # at rest alone both splits are alike: MakeHuman's kept
[[0, 1, 2], [0, 2, 3]]
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from .lod import Piece

__all__ = ["GAIN", "split_quads"]

#: Degrees by which the other diagonal's smallest angle (the worst over the rest and every shape) must beat
#: MakeHuman's for a quad to be split on it: a quad whose two splits are about as fat keeps MakeHuman's.
GAIN = 3.0


def _smallest_angle(a: np.ndarray, b: np.ndarray, c: np.ndarray) -> np.ndarray:
    """Each triangle's smallest angle (degrees), corners (..., 3)."""
    def angle(p, q, r):
        u, v = q - p, r - p
        cos = np.einsum("...i,...i->...", u, v) / np.maximum(np.linalg.norm(u, axis=-1) * np.linalg.norm(v, axis=-1),
                                                             1e-20)
        return np.degrees(np.arccos(np.clip(cos, -1.0, 1.0)))
    return np.minimum(np.minimum(angle(a, b, c), angle(b, c, a)), angle(c, a, b))


def _quads(indices: np.ndarray) -> np.ndarray:
    """Rows t of ``indices`` whose next triangle completes MakeHuman's quad: (a, b, c) then (a, c, d)."""
    t, u = indices[:-1], indices[1:]
    return np.flatnonzero((t[:, 0] == u[:, 0]) & (t[:, 2] == u[:, 1]) & (t[:, 1] != u[:, 2]))


def split_quads(p: Piece, shapes) -> Piece:
    """``p`` with each quad (two index rows (a, b, c), (a, c, d)) whose vertices a face shape moves split on b-d,
    as (a, b, d), (b, c, d), where that split's smallest angle over the rest and ``shapes`` at full weight (each
    (vertex indices, position deltas), :func:`~workbench.body.face.piece_morphs`'s, normal deltas after ignored) is
    :data:`GAIN` degrees or more above the given split's."""
    idx = np.asarray(p.indices)
    first = _quads(idx)
    first = first[~np.isin(first - 1, first)]     # (a row that both ends one quad and starts another: the first)
    if not len(first):
        return p
    a, b, c = idx[first].T
    d = idx[first + 1, 2]
    moved = np.zeros(len(p.positions), bool)
    for at, *_ in shapes:
        moved[at] = True
    keep = moved[a] | moved[b] | moved[c] | moved[d]
    first, a, b, c, d = first[keep], a[keep], b[keep], c[keep], d[keep]
    rest = p.positions.astype(np.float64)
    corners = np.column_stack([a, b, c, d])

    def fattest(pos: np.ndarray, q: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        pa, pb, pc, pd = (pos[corners[q, k]] for k in range(4))
        return (np.minimum(_smallest_angle(pa, pb, pc), _smallest_angle(pa, pc, pd)),
                np.minimum(_smallest_angle(pa, pb, pd), _smallest_angle(pb, pc, pd)))

    now, other = fattest(rest, np.arange(len(first)))
    for at, delta, *_ in shapes:      # (each shape's quads alone: the rest's angles stand elsewhere)
        touched = np.zeros(len(rest), bool)
        touched[at] = True
        q = np.flatnonzero(touched[corners].any(1))
        pos = rest.copy()
        pos[at] += delta
        n, o = fattest(pos, q)
        now[q], other[q] = np.minimum(now[q], n), np.minimum(other[q], o)
    turn = other >= now + GAIN
    if not turn.any():
        return p
    out = idx.copy()
    t = first[turn]
    out[t] = np.column_stack([a[turn], b[turn], d[turn]])
    out[t + 1] = np.column_stack([b[turn], c[turn], d[turn]])
    return replace(p, indices=out)
