"""A garment's UVs: each panel unrolled round its own axis, so the weave runs down the body and round it.

MakeHuman's tights carry their own UVs, but their islands are cut for skin and tilt on the legs (the
trousers' twill ran in diagonal bands round the thighs). Here each island is a tube unrolled:

1. Islands: a top's body and each sleeve, each half of a pair of trousers (a leg and its side of the
   seat), a skirt whole, each shoe. Every triangle goes to the island most of its corners belong to;
   a point on triangles of two islands is split into one vertex per island.
2. Each island is cut open where a tailor puts a seam (the back of a top, under each arm, the inside
   of each leg: a bearing round the island's axis, :class:`~workbench.body.outfit.drape.Frame`) and
   flattened by a least-squares conformal map (:func:`lscm`), pinned so the front's middle runs
   straight down the texture: the weave keeps its shape everywhere. (Unrolling each tube round its
   axis, the first way, squeezed the shoulders' tops and the crotch, which face along the axis, to a
   twentieth of their size.)
3. The islands keep their sizes in metres (one texel is as wide on a sleeve as on the chest) and are
   packed on shelves, tallest first, into the smallest square that holds them.

>>> uv, scale = pack([np.array([[0, 0], [0.5, 1.0]]), np.array([[0, 0], [0.2, 0.3]])])
>>> [a.round(3).tolist() for a in uv], round(scale, 3)
([[[0.008, 0.008], [0.5, 0.992]], [[0.516, 0.008], [0.713, 0.303]]], 1.016)
"""

from __future__ import annotations

import numpy as np

from .drape import Frame

__all__ = ["Island", "lscm", "unwrap", "pack", "GUTTER"]

GUTTER = 0.008      # metres between islands (a few texels at 512 px)


class Island:
    """One tube of cloth: its axis (``frame``) and the world direction its seam faces."""

    def __init__(self, frame: Frame, seam):
        self.frame = frame
        seam = np.asarray(seam, np.float64)
        self.seam = float(np.arctan2(seam @ frame.side, seam @ frame.forward))


def lscm(points: np.ndarray, faces: np.ndarray, pins: tuple[int, int], guess: np.ndarray) -> np.ndarray:
    """Least-squares conformal map of one island (Lévy et al. 2002): (N, 2) UVs with ``pins[0]`` at (0, 0)
    and ``pins[1]`` straight below it at their distance apart, every triangle as little sheared as can
    be; then scaled so the island's area in UV is its area in metres. ``guess`` (N, 2), a rough map,
    holds on weakly where the triangles leave a vertex free (one only on triangles with no area)."""
    import scipy.sparse as sp
    from scipy.sparse.linalg import spsolve

    a, b, c = (points[faces[:, k]] for k in range(3))
    e1, e2 = b - a, c - a
    n = np.cross(e1, e2)
    area2 = np.maximum(np.linalg.norm(n, axis=1), 1e-12)
    x_axis = e1 / np.maximum(np.linalg.norm(e1, axis=1, keepdims=True), 1e-12)
    y_axis = np.cross(n / area2[:, None], x_axis)
    xs = np.stack([np.zeros(len(faces)), np.linalg.norm(e1, axis=1), (e2 * x_axis).sum(1)], 1)
    ys = np.stack([np.zeros(len(faces)), np.zeros(len(faces)), (e2 * y_axis).sum(1)], 1)
    root = np.sqrt(area2)[:, None]
    w_re = (np.roll(xs, -2, axis=1) - np.roll(xs, -1, axis=1)) / root
    w_im = (np.roll(ys, -2, axis=1) - np.roll(ys, -1, axis=1)) / root
    m, nv = len(faces), len(points)
    rows = np.repeat(np.arange(m), 3)
    cols = faces.reshape(-1)
    re = sp.csr_matrix((w_re.reshape(-1), (rows, cols)), shape=(m, nv))
    im = sp.csr_matrix((w_im.reshape(-1), (rows, cols)), shape=(m, nv))
    system = sp.vstack([sp.hstack([re, -im]), sp.hstack([im, re])]).tocsc()
    fixed = np.array([pins[0], pins[1], nv + pins[0], nv + pins[1]])
    depth = float(np.linalg.norm(points[pins[1]] - points[pins[0]]))
    values = np.array([0.0, 0.0, 0.0, depth])
    free = np.setdiff1d(np.arange(2 * nv), fixed)
    lhs = system[:, free]
    rhs = -system[:, fixed] @ values
    x = np.zeros(2 * nv)
    x[fixed] = values
    normal = (lhs.T @ lhs).tocsc()
    prior = 1e-6 * normal.diagonal().mean()
    x0 = np.concatenate([guess[:, 0], guess[:, 1]])[free]
    x[free] = spsolve((normal + prior * sp.identity(len(free), format="csc")).tocsc(), lhs.T @ rhs + prior * x0)
    uv = np.column_stack([x[:nv], x[nv:]])
    d1, d2 = uv[faces[:, 1]] - uv[faces[:, 0]], uv[faces[:, 2]] - uv[faces[:, 0]]
    signed = d1[:, 0] * d2[:, 1] - d1[:, 1] * d2[:, 0]
    return uv * np.sqrt(area2.sum() / max(np.abs(signed).sum(), 1e-12))


def unwrap(points: np.ndarray, faces: np.ndarray, island_of: np.ndarray, islands: list[Island]):
    """(vmap, uv in metres per piece before packing, vertex faces, the piece of each vertex: a connected
    part of an island): ``vmap`` gives each vertex's point; steps 1 and 2."""
    n_isl = len(islands)
    votes = np.zeros((len(faces), n_isl), np.int64)
    np.add.at(votes, (np.repeat(np.arange(len(faces)), 3), island_of[faces].reshape(-1)), 1)
    tri_island = votes.argmax(1)
    corner_island = np.repeat(tri_island, 3)
    corner_point = faces.reshape(-1)
    wrapped = np.zeros(len(corner_point), bool)
    for k, isl in enumerate(islands):
        mine = corner_island == k
        _, phi, _, _ = isl.frame.local(points[corner_point[mine]])
        psi = np.mod(phi - isl.seam, 2 * np.pi).reshape(-1, 3)
        # Across the seam: the corners short of it belong to the far side.
        wrapped[mine] = ((psi.max(1) - psi.min(1) > np.pi)[:, None] & (psi < np.pi)).reshape(-1)
    key = (corner_point * n_isl + corner_island) * 2 + wrapped
    keys, first, inverse = np.unique(key, return_index=True, return_inverse=True)
    vmap, vertex_island = corner_point[first], corner_island[first]
    vfaces = inverse.reshape(-1, 3)
    uv = np.zeros((len(vmap), 2))
    # Each connected piece of an island flattened on its own (a triangle the vote gave to the island
    # across a seam is a piece by itself; the map of a piece without pins is undetermined).
    from scipy.sparse import csr_matrix
    from scipy.sparse.csgraph import connected_components

    links = np.concatenate([vfaces[:, [0, 1]], vfaces[:, [1, 2]]])
    _, piece = connected_components(csr_matrix((np.ones(len(links)), (links[:, 0], links[:, 1])),
                                               shape=(len(vmap), len(vmap))), directed=False)
    vertex_piece = piece
    for c in np.unique(piece):
        verts = np.flatnonzero(piece == c)
        isl = islands[vertex_island[verts[0]]]
        local = np.full(len(vmap), -1)
        local[verts] = np.arange(len(verts))
        tris = local[vfaces[piece[vfaces[:, 0]] == c]]
        s, phi, r, _ = isl.frame.local(points[vmap[verts]])
        # Pinned: the top and the bottom of the island's front line (opposite the seam), one above the other.
        off = np.abs(np.angle(np.exp(1j * (phi - isl.seam - np.pi))))
        line = np.flatnonzero(off < np.quantile(off, 0.1) + 0.05)
        pins = (int(line[s[line].argmin()]), int(line[s[line].argmax()]))
        if pins[0] == pins[1]:
            pins = (int(s.argmin()), int(s.argmax()))
        if pins[0] == pins[1] or len(tris) == 0:
            continue
        guess = np.column_stack([np.angle(np.exp(1j * (phi - isl.seam - np.pi))) * r.mean(), s])
        uv[verts] = lscm(points[vmap[verts]], tris, pins, guess - guess[pins[0]])
    return vmap, uv, vfaces, vertex_piece


def pack(islands_uv: list[np.ndarray]) -> tuple[list[np.ndarray], float]:
    """Islands' UVs in metres to one square (step 3): the UVs in 0..1 and the metres one UV unit spans."""
    if not all(np.isfinite(q).all() for q in islands_uv):
        raise ValueError("pack: an island's UVs are not finite")
    lo = [q.min(0) for q in islands_uv]
    size = [q.max(0) - l + 2 * GUTTER for q, l in zip(islands_uv, lo, strict=True)]
    order = sorted(range(len(size)), key=lambda i: (-size[i][1], -size[i][0], i))
    side = max(np.sqrt(sum(w * h for w, h in size)), max(max(w, h) for w, h in size))
    while True:
        x = y = shelf = 0.0
        spot = {}
        for i in order:
            w, h = size[i]
            if x + w > side:
                x, y, shelf = 0.0, y + shelf, 0.0
            spot[i] = (x, y)
            x, shelf = x + w, max(shelf, h)
        if y + shelf <= side and all(spot[i][0] + size[i][0] <= side for i in order):
            break
        side *= 1.02
    out = [(q - l + np.array(spot[i]) + GUTTER) / side for i, (q, l) in enumerate(zip(islands_uv, lo, strict=True))]
    return out, float(side)
