"""Cutting a garment's panel out of a helper surface along smooth lines, as linear maps of its vertices.

A garment is cut once, on the reference body, from MakeHuman's ``helper-tights`` or ``helper-skirt``
surface; every vertex the cut makes lies on an edge of the helper, so it is a fixed blend of helper
vertices. :func:`clip` returns that blend as a sparse matrix, so the same panel is rebuilt on any
body by one product with that body's vertices (``workbench.body.outfit.pattern``).

1. A field (a function of positions, positive on the garment's side) is read at every vertex. A
   vertex within ``snap`` of the line counts as on it: the cut then passes through that vertex
   instead of leaving a sliver a fraction of a millimetre wide beside it.
2. Triangles wholly on the garment's side stay; those across the line are split there, with one
   new vertex per crossed edge (shared by both triangles on that edge), so the cut edge is the
   field's zero line, a smooth curve on the surface with no sawtooth of whole triangles and no
   triangle squeezed (snapping the corners of kept triangles onto the line, the previous way,
   left squeezed triangles whose normals flipped at the hems).
3. Triangles that collapsed, and flaps lying in the line, go; unused vertices are dropped.

>>> import numpy as np
>>> pos = np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0]], float)
>>> S, faces = clip(pos, np.array([[0, 1, 2]]), pos[:, 1] - 0.5)
>>> len(faces), sorted(np.round((S @ pos)[:, 1], 3).tolist())
(1, [0.5, 0.5, 1.0])
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

__all__ = ["clip", "keep_inside", "open_edges", "refine"]


def clip(positions: np.ndarray, faces: np.ndarray, f: np.ndarray, snap: float = 1e-6):
    """(S, faces'): the triangles ``faces`` over ``positions`` cut along the zero line of the field values
    ``f`` (one per vertex, positive inside); ``S`` (new vertices x old, sparse) gives each new vertex as
    a blend of old ones, ``faces'`` index the new vertices."""
    n = len(positions)
    f = np.asarray(f, np.float64)
    on = np.abs(f) < snap
    f = np.where(on, snap, f)
    inside = f >= 0
    n_in = inside[faces].sum(1)
    # Each crossed triangle turned so its odd corner (the one inside of 1, the one outside of 2) comes
    # first: a rotation keeps the winding.
    split = (n_in == 1) | (n_in == 2)
    t = faces[split]
    odd = inside[t] == (n_in[split] == 1)[:, None]
    first = np.argmax(odd, axis=1)
    t = np.take_along_axis(t, (first[:, None] + np.arange(3)) % 3, axis=1)
    a, b, c = t.T
    ends = np.sort(np.concatenate([np.column_stack([a, b]), np.column_stack([a, c])]), axis=1)
    keys, where = np.unique(ends[:, 0] * n + ends[:, 1], return_inverse=True)
    u, v = keys // n, keys % n
    w = f[u] / (f[u] - f[v])
    near = np.where(inside[u], u, v)
    # An edge whose inside end is on the line crosses it there: that vertex, not a new one beside it.
    index = np.where(on[near], near, n + np.arange(len(keys)))
    ab, ac = index[where[:len(a)]], index[where[len(a):]]
    one = n_in[split] == 1
    out = np.concatenate([faces[n_in == 3], np.column_stack([a, ab, ac])[one],
                          np.column_stack([ab, b, c])[~one], np.column_stack([ab, c, ac])[~one]])
    out = out[(out[:, 0] != out[:, 1]) & (out[:, 1] != out[:, 2]) & (out[:, 2] != out[:, 0])
              & ~np.append(on, np.ones(len(keys), bool))[out].all(1)]
    rows = np.concatenate([np.arange(n), n + np.arange(len(keys)), n + np.arange(len(keys))])
    cols = np.concatenate([np.arange(n), u, v])
    vals = np.concatenate([np.ones(n), 1 - w, w])
    grown = sp.csr_matrix((vals, (rows, cols)), shape=(n + len(keys), n))
    used = np.unique(out)
    remap = np.full(n + len(keys), -1, np.int64)
    remap[used] = np.arange(len(used))
    return grown[used], remap[out]


def keep_inside(faces: np.ndarray, fields: list[np.ndarray]) -> np.ndarray:
    """The triangles with a corner on the inside of every field (so each edge's triangles straddle it).

    >>> keep_inside(np.array([[0, 1, 2], [1, 2, 3]]), [np.array([1.0, -1.0, -1.0, -1.0])]).tolist()
    [[0, 1, 2]]
    """
    keep = np.ones(len(faces), bool)
    for f in fields:
        keep &= np.asarray(f)[faces].max(1) >= 0
    return faces[keep]


def open_edges(faces: np.ndarray) -> np.ndarray:
    """(E, 2) the edges used by one triangle only (the panel's rims), each sorted.

    >>> open_edges(np.array([[0, 1, 2], [0, 2, 3]])).tolist()
    [[0, 1], [0, 3], [1, 2], [2, 3]]
    """
    edges = np.sort(np.concatenate([faces[:, [0, 1]], faces[:, [1, 2]], faces[:, [2, 0]]]), axis=1)
    pairs, count = np.unique(edges, axis=0, return_counts=True)
    return pairs[count == 1]


def refine(n: int, faces: np.ndarray, marked: np.ndarray):
    """(S, faces'): the ``marked`` triangles split in four at their edges' middles, and their neighbours
    in two or three along the edges they share, so no vertex sits on another triangle's edge; ``S`` gives
    each new vertex as a blend of the ``n`` old ones (a middle is half of each end). A cut through the
    finer triangles near its line follows the line more closely (a neckline's curve, not a few chords).

    >>> S, f = refine(4, np.array([[0, 1, 2], [0, 2, 3]]), np.array([True, False]))
    >>> S.shape, len(f)
    ((7, 4), 6)
    """
    edges = np.sort(np.stack([faces[:, [0, 1]], faces[:, [1, 2]], faces[:, [2, 0]]], 1), axis=2)   # (F, 3, 2)
    key = edges[..., 0] * n + edges[..., 1]
    split_keys = np.unique(key[marked])
    mid = np.full(key.shape, -1, np.int64)
    hit = np.isin(key, split_keys)
    mid[hit] = n + np.searchsorted(split_keys, key[hit])
    out = []
    for f, m in zip(faces, mid, strict=True):
        a, b, c = f
        ab, bc, ca = m
        count = (m >= 0).sum()
        if count == 0:
            out.append((a, b, c))
        elif count == 3:
            out += [(a, ab, ca), (ab, b, bc), (ca, bc, c), (ab, bc, ca)]
        else:
            # Rotate so the split edges come first: (a, b) split, then maybe (b, c).
            for _ in range(3):
                if m[0] >= 0 and (count == 1 or m[1] >= 0):
                    break
                a, b, c = b, c, a
                m = np.roll(m, -1)
            ab, bc, ca = m
            if count == 1:
                out += [(a, ab, c), (ab, b, c)]
            else:
                out += [(a, ab, c), (ab, b, bc), (ab, bc, c)]
    rows = np.concatenate([np.arange(n), np.repeat(n + np.arange(len(split_keys)), 2)])
    cols = np.concatenate([np.arange(n), np.stack([split_keys // n, split_keys % n], 1).reshape(-1)])
    vals = np.concatenate([np.ones(n), np.full(2 * len(split_keys), 0.5)])
    S = sp.csr_matrix((vals, (rows, cols)), shape=(n + len(split_keys), n))
    return S, np.array(out, np.int64)
