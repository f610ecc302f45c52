"""Creases a face shape bends into the skin, smoothed out (:func:`soften`).

The smile's shapes (:mod:`.expressions`) sum fields drawn at different radii on a coarse mesh (the base mesh's
cheek is 4 to 6 mm between vertices): the units' smile draws the corner 8 mm out and 15 mm up and leaves the skin
beyond it, the cheek's raise lifts 6.5 mm under a lid that stays, the nasolabial fold pushes the cheek forward
beside a lip that does not. Where two such fields meet, a single edge took the difference: two triangles bent
50 to 140 degrees more than at rest, drawn as a hard line ("hard creases from the nostrils to the jaw; lumpy
pillow cheek edges up to the eyes", blind review J). :func:`soften` finds the edges a shape bends by more than
:data:`CREASE` beyond their rest bend and evens the shape's deltas (not the face's own form) over the skin round
them, a round at a time, so each field's step becomes a ramp over a few rings: the fold stays a valley, soft.
Given the skin of the cheeks' turn (:func:`cheek_turn`), there a shape's bend past :data:`SIDE_CREASE` is a crease too.

>>> CREASE, SIDE_CREASE, SOFTEN_ROUNDS
(25.0, 15.0, 60)
"""

from __future__ import annotations

import math
from functools import lru_cache

import numpy as np
from numba import njit

from . import sets

__all__ = ["CREASE", "SIDE_CREASE", "SOFTEN_ROUNDS", "cheek_turn", "cross_at", "lip_edge", "ring_sum", "ring_touches",
           "rings", "soften", "still_skin"]

# An edge a shape bends by more than this (degrees, its two triangles' angle in the shape less at rest) is a crease.
CREASE = 25.0
# ... and where the cheek turns from the front to the side beside the mouth and jaw (:func:`cheek_turn`: skin facing
# forward by more than TURN_FACING but no more than FRONT, from TURN_BELOW under the eyes' middles down and
# TURN_CLEAR or more from the lips' inner edge; metres for the reference face), by more than SIDE_CREASE. Only the
# front was evened before blind review O (#5: "a vertical light seam runs down the cheek" of s2 #8's smile, also
# #1 and #9): the units' smile bent the edges where a narrow face's cheek turns (facing 0.01 to 0.35 forward, 45 to
# 78 mm under the eye) 20 to 35 degrees past their rest on #8 (up to 94 on #1), one vertex facing the ear between two
# facing forward, a bright line from the cheekbone to the jaw, seen at a slant and grazed by the key light. (Evened
# from the eyes down, the gaunt cheek's bulge under the eye lost a little of its 1.2 mm forward, test_smile_review_m;
# evened up to the lips, the lining beside the corners came through, test_smile_surface.)
# tests/body/test_cheek_seam_review_o.py.
FRONT = 0.3
SIDE_CREASE = 15.0
TURN_FACING = 0.1
TURN_BELOW = 0.04
TURN_CLEAR = 0.010
# At most this many rounds of evening a shape's deltas round its creases.
SOFTEN_ROUNDS = 60
# The rings round a crease's triangles evened with them.
SPREAD = 2
# What :func:`still_skin` leaves as drawn (metres for the reference face): the lips, within LIPS_STILL of their inner
# edge (evened, the smile's parted lips closed over the teeth: tests/body/test_smile_surface.py), and the lower lids,
# within an ellipse LIDS_STILL (across, down) round each eye's middle (evened, the squint's lids rose 0.2 mm less:
# tests/body/test_smile_and_rest_lips.py).
LIPS_STILL = 0.006
LIDS_STILL = (0.014, 0.012)
MIDDLE_STILL = 0.014


def rings(tris: np.ndarray, n: int):
    """Each of ``n`` vertices' neighbours along ``tris``' edges (a 0/1 sparse matrix) and how many it has."""
    from scipy.sparse import coo_matrix

    rows = tris[:, [0, 1, 2, 1, 2, 0]].reshape(-1)
    cols = tris[:, [1, 2, 0, 0, 1, 2]].reshape(-1)
    ring = coo_matrix((np.ones(len(rows)), (rows, cols)), shape=(n, n)).tocsr()
    ring.data[:] = 1.0
    return ring, np.asarray(ring.sum(1)).ravel()


def lip_edge(triangles: np.ndarray) -> np.ndarray:
    """The vertices of the lips' inner edge, where the mouth's lining (``triangles`` being the body's face group)
    meets the outer skin (read-only: kept for the next call with the same triangles, seven a body's face shapes).

    >>> from workbench.body.mesh import body_mesh
    >>> from workbench.options import normalize_avatar_settings
    >>> m = body_mesh(normalize_avatar_settings({"gender": "feminine"}))
    >>> edge = lip_edge(m.triangles[m.face_groups["body"]])
    >>> len(edge) > 20, edge.flags.writeable
    (True, False)
    """
    t = np.ascontiguousarray(triangles)
    return _lip_edge(t.tobytes(), t.dtype.str, t.shape)


@lru_cache(maxsize=4)
def _lip_edge(data: bytes, dtype: str, shape: tuple[int, ...]) -> np.ndarray:
    from .lining import island

    triangles = np.frombuffer(data, dtype).reshape(shape)
    inside = np.zeros(len(triangles), bool)
    inside[island()[0]] = True
    edge = np.intersect1d(triangles[inside].ravel(), triangles[~inside].ravel())
    edge.setflags(write=False)
    return edge


def still_skin(positions: np.ndarray, triangles: np.ndarray, eyes: list[np.ndarray], unit: float) -> np.ndarray:
    """Per vertex of ``positions``, whether :func:`soften` leaves it as a shape draws it (see :data:`LIPS_STILL`),
    for a face whose eyes' middles are ``eyes`` and whose size is ``unit`` times the reference face's."""
    from scipy.spatial import cKDTree

    p = positions.astype(np.float64)
    lips = cKDTree(p[lip_edge(triangles)]).query(p)[0] < LIPS_STILL * unit
    lids = np.min([np.linalg.norm((p[:, :2] - e[:2]) / LIDS_STILL, axis=1) for e in eyes], axis=0) < unit
    middle = np.abs(p[:, 0] - (eyes[0][0] + eyes[1][0]) / 2) < MIDDLE_STILL * unit
    return lips | lids | middle


def cheek_turn(positions: np.ndarray, triangles: np.ndarray, eyes: list[np.ndarray], unit: float) -> np.ndarray:
    """Per vertex of ``positions``, whether it lies where :func:`soften` evens the cheek's turn (see
    :data:`SIDE_CREASE`; the facing is looked at there), for a face whose eyes' middles are ``eyes`` and whose size
    is ``unit`` times the reference face's."""
    from scipy.spatial import cKDTree

    p = positions.astype(np.float64)
    below = p[:, 1] < (eyes[0][1] + eyes[1][1]) / 2 - TURN_BELOW * unit
    return below & (cKDTree(p[lip_edge(triangles)]).query(p)[0] > TURN_CLEAR * unit)


def _edges(tris: np.ndarray, n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The edges ``tris`` share two at a time: (first triangle, second triangle, the edge's two vertices)."""
    e = np.sort(np.concatenate([tris[:, [0, 1]], tris[:, [1, 2]], tris[:, [2, 0]]]), axis=1)
    face = np.tile(np.arange(len(tris)), 3)
    key = e[:, 0].astype(np.int64) * n + e[:, 1]
    order = np.argsort(key, kind="stable")
    key, face, e = key[order], face[order], e[order]
    pair = np.flatnonzero(key[1:] == key[:-1])
    return face[pair], face[pair + 1], e[pair]


def _cosines(p: np.ndarray, tris: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The cosines of the angles between the facings of triangles ``a`` and ``b`` (indices into ``tris``) at places
    ``p``. (Compared as cosines, not as angles: numpy's vectorised arccos rounds by the CPU it runs on, and a model
    must be the same bytes on every CPU, contract section 14.)"""
    f = np.cross(p[tris[:, 1]] - p[tris[:, 0]], p[tris[:, 2]] - p[tris[:, 0]])
    f /= np.maximum(np.linalg.norm(f, axis=1, keepdims=True), 1e-20)
    return np.clip(np.einsum("nc,nc->n", f[a], f[b]), -1.0, 1.0)


@njit(cache=True, nogil=True, inline="always")
def cross_at(p, i, j, k):
    """``(p[j] - p[i]) x (p[k] - p[i])`` as numpy's ``cross`` forms it (its three components)."""
    ux, uy, uz = p[j, 0] - p[i, 0], p[j, 1] - p[i, 1], p[j, 2] - p[i, 2]
    vx, vy, vz = p[k, 0] - p[i, 0], p[k, 1] - p[i, 1], p[k, 2] - p[i, 2]
    return uy * vz - uz * vy, uz * vx - ux * vz, ux * vy - uy * vx


@njit(cache=True, nogil=True, inline="always")
def ring_touches(region, v, indptr, indices):
    """Whether vertex ``v`` or one of its neighbours (a :func:`rings` matrix's ``indptr`` and ``indices``) is in
    ``region``: ``(ring @ region) > 0``, or ``region`` itself. (One exit: with a return inside the loop, numba's
    inlined copy made soften's rounds four times slower.)"""
    hit = region[v]
    r = indptr[v]
    while not hit and r < indptr[v + 1]:
        hit = region[indices[r]]
        r += 1
    return hit


@njit(cache=True, nogil=True, inline="always")
def ring_sum(values, v, c, indptr, indices):
    """Column ``c`` of vertex ``v``'s neighbours' ``values`` summed as ``ring @ values`` sums it (from 0, in the ring's
    column order)."""
    s = 0.0
    for r in range(indptr[v], indptr[v + 1]):
        s += values[indices[r], c]
    return s


@njit(cache=True, nogil=True)
def _facings(p: np.ndarray, tris: np.ndarray) -> np.ndarray:
    """Each triangle's unit facing, in :func:`_cosines`' arithmetic (numpy's ``cross``, then ``norm``'s sum of
    squares in its order, tests/body/test_soften_compiled.py)."""
    f = np.empty((tris.shape[0], 3))
    for t in range(tris.shape[0]):
        x, y, z = cross_at(p, tris[t, 0], tris[t, 1], tris[t, 2])
        n = max(np.sqrt((x * x + y * y) + z * z), 1e-20)
        f[t, 0], f[t, 1], f[t, 2] = x / n, y / n, z / n
    return f


@njit(cache=True, nogil=True)
def _even(pos, full, shared, ua, ub, limit, tri_a, tri_b, indptr, indices, count, free, rounds):
    """:func:`soften`'s rounds, in place on ``full`` (compiled: up to 60 rounds of a dozen numpy calls on a few
    thousand vertices each, 12 to 18 ms a shape, were a fifth of a model's face shapes). Each round as numpy's
    version made it: the creased edges (their triangles' facings in the shape, :func:`_facings`; the cosine as
    ``einsum`` sums it), the region their triangles' vertices and :data:`SPREAD` rings round them, and there each free
    vertex's delta the mean of its own and its neighbours' (:func:`ring_sum`)."""
    n = pos.shape[0]
    region = np.zeros(n, np.bool_)
    grown = np.zeros(n, np.bool_)
    for _ in range(rounds):
        f = _facings(pos + full, shared)
        region[:] = False
        any_creased = False
        for e in range(ua.shape[0]):
            g, h = ua[e], ub[e]
            cos = min(max((f[g, 0] * f[h, 0] + f[g, 2] * f[h, 2]) + f[g, 1] * f[h, 1], -1.0), 1.0)   # (einsum's order)
            if cos < limit[e]:
                any_creased = True
                for c in range(3):
                    region[tri_a[e, c]] = True
                    region[tri_b[e, c]] = True
        if not any_creased:
            break
        for _ in range(SPREAD):
            for v in range(n):
                grown[v] = ring_touches(region, v, indptr, indices)
            region[:] = grown
        was = full.copy()
        for v in range(n):
            if region[v] and free[v]:
                for c in range(3):
                    full[v, c] = (was[v, c] + ring_sum(was, v, c, indptr, indices)) / (1 + count[v])


def soften(positions: np.ndarray, triangles: np.ndarray, idx: np.ndarray, delta: np.ndarray, still: np.ndarray,
           rounds: int = SOFTEN_ROUNDS, turn: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """A shape (sorted ``idx``, ``delta``) with its creases (see :data:`CREASE`) on the skin one sees (facing
    forward at rest) evened out: each round, the deltas of the creased edges' triangles' vertices and a ring round
    them each become the mean of their own and their neighbours', until no crease is left or ``rounds`` are done.
    The vertices ``still`` marks (a bool per vertex of ``positions``: the lips, whose shape is drawn as it is)
    keep their deltas. Given ``turn`` (:func:`cheek_turn`), the edges of the cheek's turn between its vertices are
    creased past :data:`SIDE_CREASE`."""
    moved = np.zeros(len(positions), bool)
    moved[idx] = True
    near = triangles[moved[triangles].any(1)]
    verts = sets.union(near, idx)
    tris = np.searchsorted(verts, near)
    pos = positions[verts].astype(np.float64)
    full = np.zeros((len(verts), 3), np.float64)
    full[np.searchsorted(verts, idx)] = delta
    face = np.cross(pos[tris[:, 1]] - pos[tris[:, 0]], pos[tris[:, 2]] - pos[tris[:, 0]])
    size = np.linalg.norm(face, axis=1)
    shown = face[:, 2] > FRONT * size
    a, b, _ = _edges(tris, len(verts))
    free = ~still[verts]
    side = np.zeros(len(a), bool)
    if turn is not None:     # (the cheek's turn: its triangles facing forward, at a slant, all their corners in it)
        slant = (face[:, 2] > TURN_FACING * size) & turn[verts][tris].all(1)
        side = slant[a] & slant[b] & ~(shown[a] & shown[b])
    keep = ((shown[a] & shown[b]) | side) & free[tris[a]].all(1) & free[tris[b]].all(1)
    a, b, side = a[keep], b[keep], side[keep]
    # An edge is creased where its cosine in the shape is below that of its rest angle plus CREASE (SIDE_CREASE on the
    # cheek's turn; never, for a rest angle within that of a half turn). (math's cosines and sines of the two angles:
    # numpy's vectorised ones may round by the CPU, and a model is the same bytes on every CPU.)
    # (The facings of the triangles these edges join only: the others' were worked out each round and never read.)
    used, at_used = np.unique(np.concatenate([a, b]), return_inverse=True)
    shared, ua, ub = tris[used], at_used[:len(a)], at_used[len(a):]
    rest = _cosines(pos, shared, ua, ub)
    c = np.where(side, math.cos(math.radians(SIDE_CREASE)), math.cos(math.radians(CREASE)))
    s = np.where(side, math.sin(math.radians(SIDE_CREASE)), math.sin(math.radians(CREASE)))
    limit = np.where(rest > -c, rest * c - np.sqrt(1.0 - rest * rest) * s, -2.0)
    ring, count = rings(tris, len(verts))
    _even(pos, full, shared, ua, ub, limit, tris[a], tris[b], ring.indptr, ring.indices, count, free, rounds)
    keep = np.flatnonzero(np.abs(full).max(1) > 0)
    return verts[keep].astype(np.int32), full[keep].astype(np.float32)
