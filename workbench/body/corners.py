"""The mouth's corners unfolded: MakeHuman's targets turn over some of the tiny triangles where the lips meet.

At each corner of the mouth MakeHuman's base mesh packs triangles of a tenth of a square millimetre. The base lays
them flat, but the macro targets (a feminine build at any weight, a slim masculine one) and the face's modifiers move
neighbouring vertices there by different amounts, and a few turn over: a triangle whose normal faces into the head
among skin facing out, lit from behind and pulling its vertices' normals inwards (issue 46; not the 1-px specks
reviews H and I saw on the chin and cheeks: those stay, drawn the same without these folds). :func:`unfolded` finds
the turned triangles (:func:`turned`) within :data:`RADIUS` of each corner and moves their vertices towards their
skin neighbours' mean until none is left: a fraction of a millimetre, where the lips meet.

>>> round(RADIUS * 100, 1)  # millimetres (base.obj is in decimetres)
6.0
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from .lining import island
from .topology import topology

__all__ = ["turned", "unfolded"]

# How far from each mouth corner (decimetres, base.obj's unit) triangles are checked: the turned ones sat up to
# 4.3 mm from the corner on the builds and faces measured (tests/body/test_mouth_corners.py).
RADIUS = 0.06
# At most this many passes (each moves the turned triangles' vertices, and their neighbours', half way to the mean
# of their own neighbours).
PASSES = 40


@lru_cache(maxsize=1)
def _region() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The skin's triangles near the corners (the lining's left out: a pouch behind the lips, unseen), for each its
    edge neighbours among them (-1 for none), and the skin's edges (vertex pairs, both ways) near the corners:
    MakeHuman's topology and base, one answer for every body."""
    from . import compile as cc

    base = cc.compiled()["base"].astype(np.float64)
    tris_all, _, _, _, face_groups = topology()
    tris = tris_all[face_groups["body"]]
    lining = np.zeros(len(tris), bool)
    lining[island()[0]] = True
    # The corners: the two ends of the lips' inner edge (where the lining meets the skin).
    edge = np.intersect1d(np.unique(tris[lining]), np.unique(tris[~lining]))
    corners = base[edge[[np.argmin(base[edge, 0]), np.argmax(base[edge, 0])]]]
    centre = base[tris].mean(1)
    near = ~lining & (np.linalg.norm(centre[:, None, :] - corners[None], axis=2).min(1) < RADIUS)
    skin = tris[near].astype(np.int64)
    sides = np.sort(np.concatenate([skin[:, [0, 1]], skin[:, [1, 2]], skin[:, [2, 0]]]), axis=1)
    owner = np.tile(np.arange(len(skin)), 3)
    _, side_id = np.unique(sides, axis=0, return_inverse=True)
    side_id = side_id.reshape(-1)
    neighbours = np.full((len(skin), 3), -1, np.int64)
    for k in range(3):   # the other triangle on each side (a manifold skin: at most one)
        mine = side_id[k * len(skin):(k + 1) * len(skin)]
        for j in range(3):
            if j != k:
                theirs = side_id[j * len(skin):(j + 1) * len(skin)]
                order = np.argsort(theirs, kind="stable")
                at = np.clip(np.searchsorted(theirs[order], mine), 0, len(skin) - 1)
                hit = theirs[order][at] == mine
                neighbours[hit, k] = owner[order][at][hit]
        same = np.flatnonzero(np.bincount(side_id, minlength=side_id.max() + 1)[mine] > 1)
        for t in same[neighbours[same, k] < 0]:   # a side shared within the same column (rare): brute force
            others = np.flatnonzero((side_id == mine[t]) & (owner != t))
            neighbours[t, k] = owner[others[0]] if len(others) else -1
    # A vertex moves towards all its neighbours, the lining's too: on the lips' inner edge the skin's alone lie to one
    # side, and their mean holds a turned triangle turned.
    ring = tris[np.isin(tris, skin).any(1)]
    pairs = np.unique(np.sort(np.concatenate([ring[:, [0, 1]], ring[:, [1, 2]], ring[:, [2, 0]]]), axis=1), axis=0)
    return skin, neighbours, np.concatenate([pairs, pairs[:, ::-1]])


def turned(verts: np.ndarray) -> np.ndarray:
    """The skin triangles near the mouth's corners (rows of :func:`_region`'s first answer) turned over: the normal
    points against the area-weighted mean of their neighbours' normals."""
    skin, neighbours, _ = _region()
    n = np.cross(verts[skin[:, 1]] - verts[skin[:, 0]], verts[skin[:, 2]] - verts[skin[:, 0]])
    n = np.concatenate([n, np.zeros((1, 3))])   # row -1: no neighbour
    return np.flatnonzero((n[:-1] * n[neighbours].sum(1)).sum(1) < 0)


def unfolded(verts: np.ndarray) -> np.ndarray:
    """``verts`` (a shaped body, decimetres) with no skin triangle turned over round the mouth's corners.

    >>> from workbench.body import compile as cc
    >>> base = cc.compiled()["base"].astype(np.float64)
    >>> bool(np.array_equal(unfolded(base), base))  # MakeHuman's own base: nothing turned, nothing moved
    True
    """
    skin, neighbours, pairs = _region()
    verts = verts.copy()
    count = np.bincount(pairs[:, 0], minlength=len(verts))
    for _ in range(PASSES):
        bad = turned(verts)
        if not len(bad):
            break
        # The turned triangles and those round them: a vertex pinned between two turned ones moves with its ring.
        ring = neighbours[bad].ravel()
        moved = np.unique(skin[np.concatenate([bad, ring[ring >= 0]])])
        total = np.zeros((len(verts), 3))
        np.add.at(total, pairs[:, 0], verts[pairs[:, 1]])
        verts[moved] += 0.5 * (total[moved] / count[moved, None] - verts[moved])
    return verts
