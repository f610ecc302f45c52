"""Finished edges: every cut of a garment (a neckline, a cuff, a hem, a waistband) turned as a tailor turns
it, so the cloth shows its thickness there instead of ending in a raw single sheet.

At each rim, on any body (:func:`finished`):

1. The band along the cut (its width from the style's ``bands``) stands ``edge`` metres proud of the cloth
   above it (a ribbed collar or cuff, a turned-up hem, a waistband: two or three layers of cloth), rising
   over a few millimetres where the band's stitching runs.
2. The rim rolls over: a half-round of that thickness from the band's face round the edge and back in,
   to the level of the cloth under the band.
3. A facing runs from there back inside the garment, a centimetre or so, under the band: looking into a
   neckline or up a sleeve shows the turned cloth's inside, not the body through a gap.

So a garment's open edges are its facings' inner edges, inside it; every cut ends in a rounded band.

What no body changes is made once with the pattern (:func:`rolls`): the rims chained into loops (each
oriented as its triangles wind, so the cloth lies to the loop's left seen from outside), the roll's new
vertices (each a copy of a rim vertex of the pattern's split vertices: its UV and skin weights) and
their triangles, wound as the cloth's own so the roll continues its outside round the edge.

>>> import numpy as np
>>> faces = np.array([[0, 1, 2], [0, 2, 3]])                     # a square: every edge a rim
>>> r = rolls(faces, faces, np.zeros(4, np.int64), 4)
>>> len(r["edge_src"]) == 4 * RINGS, len(r["edge_faces"]) == 4 * 2 * RINGS
(True, True)
"""

from __future__ import annotations

import numpy as np

from .drape import smoothstep

__all__ = ["RINGS", "ROLL", "rolls", "loops", "finished", "facing_binding", "smooth_rim"]

# The half-round's steps (its first ring is the rim itself, its last would lie at the cloth's level under the
# band: the facing starts there, so that ring is left out) and the facing's one row after them: ROLL - 1
# rings round the edge, then the facing's end. (Two, the edge and the facing's end: a finer roll, four
# steps and a ring at the cloth's level, doubled the garments' meshes, over the size budget.)
ROLL = 2
RINGS = ROLL
# How far the facing reaches inside (metres; under the band where it stands fully proud).
FACING = (0.004, 0.014)
# How far under the cloth's level the facing's end lies, as a share of the edge's thickness.
SINK = 0.35
# Rounds of smoothing each rim point's normal along its rim.
SMOOTH = 4
# How far a round of :func:`smooth_rim` moves a rim point in towards the skin at most (metres).
CLOSER = 0.0002
# Over how far the band rises to its thickness where its stitching runs (metres either side of its width).
RISE = 0.004


def loops(faces: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The open edges of ``faces`` as directed edges (a to b, as their triangle winds: the cloth to the
    left seen from outside): (edges (E, 2), their triangle, the corner of ``a`` in it)."""
    corners = np.array([[0, 1], [1, 2], [2, 0]])
    directed = faces[:, corners].reshape(-1, 2)
    tri = np.repeat(np.arange(len(faces)), 3)
    corner = np.tile(np.arange(3), len(faces))
    key = np.sort(directed, axis=1)
    _, inverse, count = np.unique(key, axis=0, return_inverse=True, return_counts=True)
    one = count[inverse.reshape(-1)] == 1
    return directed[one], tri[one], corner[one]


def rolls(faces: np.ndarray, vfaces: np.ndarray, cut: np.ndarray, n_split: int) -> dict[str, np.ndarray]:
    """The rolls' topology for a panel: ``faces`` its triangles over its points, ``vfaces`` the same
    triangles over its split vertices (``n_split`` of them), ``cut`` per point the cut whose rim it is on.

    Returns per new vertex ``edge_src`` (the split vertex it copies), ``edge_ring`` (1 to :data:`RINGS`, the
    last the facing's end),
    ``edge_point``, ``edge_prev`` and ``edge_next`` (its point and the rim's points before and after it),
    ``edge_cut``; and ``edge_faces``, the new triangles over the split vertices then the new ones
    (numbered from ``n_split``)."""
    edges, tri, corner = loops(faces)
    va = vfaces[tri, corner]
    vb = vfaces[tri, (corner + 1) % 3]
    nxt = np.full(int(faces.max()) + 1 if len(faces) else 0, -1, np.int64)
    prv = nxt.copy()
    nxt[edges[:, 0]] = edges[:, 1]
    prv[edges[:, 1]] = edges[:, 0]
    src = np.unique(np.concatenate([va, vb]))
    # The split vertex's point: from the corners it appears at.
    point_of = np.full(n_split, -1, np.int64)
    point_of[vfaces.reshape(-1)] = faces.reshape(-1)
    index = np.full(n_split, -1, np.int64)
    index[src] = np.arange(len(src))
    count = len(src)
    out = {"edge_src": np.tile(src, RINGS), "edge_ring": np.repeat(np.arange(1, RINGS + 1), count)}
    pts = point_of[src]
    out.update(edge_point=np.tile(pts, RINGS), edge_prev=np.tile(np.where(prv[pts] >= 0, prv[pts], pts), RINGS),
               edge_next=np.tile(np.where(nxt[pts] >= 0, nxt[pts], pts), RINGS), edge_cut=np.tile(cut[pts], RINGS))

    def ring(v, r):          # the split vertex v's copy in ring r (0: itself)
        return v if r == 0 else n_split + (r - 1) * count + index[v]

    quads = []
    for r in range(1, RINGS + 1):
        a0, b0, a1, b1 = ring(va, r - 1), ring(vb, r - 1), ring(va, r), ring(vb, r)
        # The rim edge a -> b is the cloth's; the strip beyond it runs b -> a, as the next triangle would.
        quads += [np.stack([b0, a0, a1], 1), np.stack([b0, a1, b1], 1)]
    out["edge_faces"] = np.concatenate(quads) if quads else np.zeros((0, 3), np.int64)
    return out


def facing_binding(points: np.ndarray, faces: np.ndarray, pat: dict, facing_at: np.ndarray) -> dict[str, np.ndarray]:
    """Each facing end (``facing_at``, laid out on the reference body) bound to the cloth's triangle nearest it
    (of ``faces`` over ``points``): its corners and barycentrics (``edge_tri``, ``edge_bary``), so on every
    body the facing lies under the cloth it was made under."""
    from .hood import _nearest_on

    tri, bary = _nearest_on(points, faces, facing_at)
    return {"edge_tri": tri.astype(np.int32), "edge_bary": bary}


def smooth_rim(points: np.ndarray, normals: np.ndarray, pat: dict, cut: int, rounds: int = 4) -> np.ndarray:
    """``points`` with cut ``cut``'s rim smoothed along itself (``rounds`` of a (1, 2, 1) / 4 filter over each
    rim point and its neighbours on the rim, :func:`rolls`' ``edge_prev`` and ``edge_next``), each round moving a
    point in along its normal (towards the skin) by :data:`CLOSER` at most. Fitted to a body other than the
    pattern's, a neckline's points zigzagged by 2 to 3 mm from one to the next (5 mm apart), and its edge read as
    jagged (review P: "necklines are jagged")."""
    p = pat["edge_point"][(pat["edge_ring"] == 1) & (pat["edge_cut"] == cut)]
    if not len(p):
        return points
    n = len(points)
    prev, nxt = np.arange(n), np.arange(n)
    first = pat["edge_ring"] == 1
    prev[pat["edge_point"][first]], nxt[pat["edge_point"][first]] = pat["edge_prev"][first], pat["edge_next"][first]
    nrm = normals[p] / np.maximum(np.linalg.norm(normals[p], axis=1, keepdims=True), 1e-12)
    q = points.copy()
    for _ in range(rounds):
        move = (q[prev[p]] + q[nxt[p]]) / 4 - q[p] / 2
        # (In towards the skin by no more than CLOSER: out of it as far as the filter asks.)
        into = (move * nrm).sum(1, keepdims=True)
        q[p] += move - np.minimum(into + CLOSER, 0) * nrm
    return q


def finished(points: np.ndarray, normals: np.ndarray, pat: dict, bands: tuple, edge: float,
             from_cut: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(points with their bands standing proud, the new vertices' positions and normals) on one body:
    ``points`` and ``normals`` the fitted garment's points (float64), ``pat`` its pattern (:func:`rolls`'
    arrays), ``bands`` the style's, ``edge`` its thickness, ``from_cut`` (points, cuts) each point's distance
    along the cloth from each cut's rim (the hood's points: inf)."""
    n = len(points)
    # (A cut without a band of its own still ends in a roll: a band of the least width.)
    width = np.maximum(np.array([w for w, _ in bands] or [0.0]), 2 * RISE)
    # 1. The bands proud of the cloth, each by the edge's thickness, rising where its stitching runs.
    proud = np.zeros(n)
    for k, w in enumerate(width[:from_cut.shape[1]]):
        proud = np.maximum(proud, 1 - smoothstep(w - RISE, w + RISE, from_cut[:, k]))
    q = points + (edge * proud)[:, None] * normals
    if not len(pat["edge_src"]):
        return q, np.zeros((0, 3)), np.zeros((0, 3))
    p = pat["edge_point"]
    # Each rim point's frame, smoothed along its rim (the cloth's normals at a rim are noisy, and a facing
    # reaching in along them ended in a ragged line).
    prev, nxt = np.arange(n), np.arange(n)
    prev[p], nxt[p] = pat["edge_prev"], pat["edge_next"]
    nrm = normals.copy()
    for _ in range(SMOOTH):
        nrm = (nrm[prev] + 2 * nrm + nrm[nxt]) / 4
    nrm = nrm[p] / np.maximum(np.linalg.norm(nrm[p], axis=1, keepdims=True), 1e-12)
    along = q[pat["edge_next"]] - q[pat["edge_prev"]]
    along -= (along * nrm).sum(1, keepdims=True) * nrm
    along /= np.maximum(np.linalg.norm(along, axis=1, keepdims=True), 1e-12)
    inward = np.cross(nrm, along)                   # into the cloth, on its surface
    ring = pat["edge_ring"]
    # 2. The half-round from the band's face (ring 0, the rim vertex itself) to the cloth's level under it.
    theta = np.minimum(ring, ROLL) * (np.pi / ROLL)
    radius = edge * proud[p] / 2
    centre = q[p] - radius[:, None] * nrm
    way = np.cos(theta)[:, None] * nrm - np.sin(theta)[:, None] * inward
    pos = centre + radius[:, None] * way
    # 3. The facing: back inside under the band, its last ring.
    reach = np.clip(width[np.minimum(pat["edge_cut"], len(width) - 1)] - RISE, *FACING)
    face = ring == RINGS
    if "edge_tri" in pat:
        # Under the cloth it is bound to (a fixed blend of the cloth's points, made on the reference body by
        # :func:`facing_binding`): the band's face there, in by the band's thickness and a little more, as a
        # turned hem's inner layer lies under its outer one. (Laid in the rim's tangent plane, the facing's
        # end came up through the cloth over a fold's trough and in a crease.)
        tri, bary = pat["edge_tri"], pat["edge_bary"]
        above = np.einsum("mk,mkc->mc", bary, q[tri])
        up = np.einsum("mk,mkc->mc", bary, normals[tri])
        up /= np.maximum(np.linalg.norm(up, axis=1, keepdims=True), 1e-12)
        pos[face] = above - (edge * ((bary * proud[tri]).sum(1) + SINK))[:, None] * up
        way[face] = -up
    else:
        pos[face] += reach[face, None] * inward[face] - (SINK * edge) * nrm[face]
        way[face] = -nrm[face]
    # Its inner edge smoothed along the rim: where a cut left rim points a millimetre apart, their offsets
    # crossed and the edge folded back on itself.
    # Along the cloth only: across a skirt's folds, smoothing moved the ends in the troughs out through it.
    at = np.zeros((n, 3))
    at[p[face]] = pos[face]
    for _ in range(SMOOTH):
        at[p[face]] = (at[prev[p[face]]] + 2 * at[p[face]] + at[nxt[p[face]]]) / 4
    move = at[p[face]] - pos[face]
    move -= (move * way[face]).sum(1, keepdims=True) * way[face]
    pos[face] += move
    return q, pos, way
