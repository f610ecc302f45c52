"""The skin held behind the glasses in the face's shapes: a raised cheek meets the rim and stops.

``mouthSmile`` raises the cheeks 3 to 6 mm under the eyes (its squint, :mod:`.smile_rise`'s raise). Where a frame's
lower rim sits low over the cheek (a full face behind a deep clear or round lens), the raised cheek came out through
the rim (blind review BB's #8: "a skin-coloured spike of cheek pokes through the lower-left rim of the glasses"; its
skin 5.1 mm in front of the rim's back). Glasses rest on the nose and the ears, so each shape's move of a skin vertex
is cut short where it would bring the vertex nearer the frame's back than :data:`CLEAR`, under the frame's front and
:data:`REACH` round it (the skin's triangles there are 2 to 3 mm across and the rim's bar 2 to 3 mm tall: a vertex
kept behind the bar alone still let the triangles between vertices pass through it), and the cut spread over the
vertex's neighbours (:data:`ROUNDS`), so the cheek flattens under the rim instead of folding at it. The bridge and the
nose pads, which rest on the nose, are left out, and the frame's top half (:data:`MIDDLE`), and so is skin not behind
the frame at rest (beside its ends); a shape that brings no skin to the frame keeps its bytes.

>>> import numpy as np
>>> from workbench.body.lod import Piece
>>> def piece(pos, tris, source):
...     n = len(pos)
...     return Piece(np.asarray(pos, np.float32), np.zeros((n, 3), np.float32), np.zeros((n, 2), np.float32),
...                  np.asarray(tris), np.zeros((n, 4), np.uint8), np.zeros((n, 4), np.float32), np.asarray(source))
>>> bar = piece([[-0.03, -0.002, 0], [0.03, -0.002, 0], [0.03, 0.002, 0], [-0.03, 0.002, 0]], [[0, 1, 2], [0, 2, 3]],
...             [-1] * 4)
>>> skin = piece([[0.02, 0.0, -0.005], [0.05, 0.03, -0.005], [0.06, 0.03, -0.005]], [[0, 1, 2]], [0, 1, 2])
>>> targets = [(np.array([0, 1]), np.array([[0.0, 0.0, 0.006], [0.0, 0.0, 0.006]], np.float32))]
>>> (held(skin, targets, bar)[0][1][:, 2].astype(float) * 1000).round(1).tolist()   # (the far one: spread)
[4.1, 5.2]
"""

from __future__ import annotations

import numpy as np
from scipy import ndimage

from .lod import Piece
from .soften import rings

__all__ = ["CLEAR", "REACH", "held"]

# How near the frame's back a moved skin vertex may come (metres), and how far round the frame's front (in the picture
# plane) the rule holds.
CLEAR = 0.0008
REACH = 0.003
# The frame's front: its points no more than FRONT behind its hinges (its points furthest out to either side, the
# rims' ends): the rims, the lenses, the bridge, not the temples running back to the ears. (Its points within 12 mm of
# its foremost left out the rims' outer ends, which wrap back round the face, where #8's cheek came through.)
FRONT = 0.003
HINGE = 0.97
# The frame's middle left out (metres either side of its centre): the bridge and the nose pads rest on the nose, whose
# skin stands in front of the pads' backs at rest and moves under them in a frown or a sneer, unseen. And its top half:
# the brows and the lids move close behind the top bar and the lenses (by a fraction of a millimetre in a frown or a
# blink), where no shape brought them through.
MIDDLE = 0.012
# The grid the frame's back is kept on (metres a cell), the barycentric samples of each of its triangles, the steps of
# a move tried, and the rounds its cut is spread over the skin's neighbours.
CELL = 0.0005
SAMPLES = 6
STEPS = 16
ROUNDS = 2


def _backs(frame: Piece) -> tuple[np.ndarray, np.ndarray]:
    """The frame's front as a grid over x and y: (origin (2,), least z per cell, less CLEAR, spread REACH round;
    ``inf`` where there is no frame)."""
    a, b = np.meshgrid(np.linspace(0, 1, SAMPLES + 1), np.linspace(0, 1, SAMPLES + 1))
    keep = a + b <= 1 + 1e-9
    w = np.stack([a[keep], b[keep], 1 - a[keep] - b[keep]], 1)
    pos = frame.positions.astype(np.float64)
    centre = float(pos[:, 0].mean())
    out = np.abs(pos[:, 0] - centre)
    front = pos[:, 2] > float(np.median(pos[out >= HINGE * out.max(), 2])) - FRONT
    tris = frame.indices[front[frame.indices].all(1)]
    pts = np.einsum("wk,tkc->twc", w, pos[tris]).reshape(-1, 3)
    pts = pts[(np.abs(pts[:, 0] - centre) > MIDDLE) & (pts[:, 1] < pts[:, 1].mean())]
    reach = int(np.ceil(REACH / CELL))
    origin = pts[:, :2].min(0) - (reach + 1) * CELL
    ij = np.floor((pts[:, :2] - origin) / CELL).astype(np.int64)
    grid = np.full(tuple(ij.max(0) + reach + 2), np.inf)
    np.minimum.at(grid, (ij[:, 0], ij[:, 1]), pts[:, 2] - CLEAR)
    return origin, ndimage.minimum_filter(grid, size=2 * reach + 1, mode="constant", cval=np.inf)


def _limit(origin: np.ndarray, grid: np.ndarray, pts: np.ndarray) -> np.ndarray:
    """The frame's back (less CLEAR) over each of ``pts`` (N, 3); ``inf`` off the frame."""
    ij = np.floor((pts[:, :2] - origin) / CELL).astype(np.int64)
    inside = (ij >= 0).all(1) & (ij[:, 0] < grid.shape[0]) & (ij[:, 1] < grid.shape[1])
    out = np.full(len(pts), np.inf)
    out[inside] = grid[ij[inside, 0], ij[inside, 1]]
    return out


def held(body: Piece, targets: list[tuple], frame: Piece) -> list[tuple]:
    """``targets`` (per shape: vertex indices into ``body``, position deltas, then any normals' (indices, deltas)) with
    every move that would bring a vertex of ``body`` through ``frame``'s front cut short (see the module's text)."""
    origin, grid = _backs(frame)
    lo, hi = origin, origin + np.array(grid.shape) * CELL
    nearest = float(grid[np.isfinite(grid)].min(initial=np.inf))
    pos = body.positions.astype(np.float64)
    # The skin's rings by source (split vertices as one), over which a cut is spread.
    size = int(max(body.source.max(), 0)) + 1
    by_source = body.source[body.indices]
    ring, count = rings(by_source[(by_source >= 0).all(1)], size)
    count = np.maximum(count, 1)
    steps = np.linspace(0, 1, STEPS + 1)[1:, None, None]
    out = []
    for entry in targets:
        idx, delta = entry[0], entry[1]
        p, d = pos[idx], delta.astype(np.float64)
        e = p + d
        # (Only moves that pass over the frame and come as far forward as its back's nearest point can meet it.)
        near = np.flatnonzero(((np.minimum(p[:, :2], e[:, :2]) < hi) & (np.maximum(p[:, :2], e[:, :2]) > lo)).all(1)
                              & (np.maximum(p[:, 2], e[:, 2]) > nearest))
        if not len(near):
            out.append(entry)
            continue
        # Each move's share kept: up to the last step at which the vertex is still behind the frame (skin that is
        # not behind it at rest, beside the frame's ends, goes where it went).
        q = p[near] + steps * d[near]                                          # (STEPS, n, 3)
        behind = p[near, 2] <= _limit(origin, grid, p[near])
        over = (q[..., 2] > _limit(origin, grid, q.reshape(-1, 3)).reshape(q.shape[:2])) & behind
        if not over.any():
            out.append(entry)
            continue
        t = np.ones(len(idx))
        t[near] = np.where(over.any(0), over.argmax(0) / STEPS, 1.0)
        # The cut by source (split vertices alike), spread over the neighbours and never less than at the vertex.
        src = body.source[idx]
        cut = np.zeros(size)
        np.maximum.at(cut, src[src >= 0], 1 - t[src >= 0])
        for _ in range(ROUNDS):
            cut = np.maximum(cut, 0.5 * (cut + ring @ cut / count))
        keep = np.where(src >= 0, 1 - cut[np.maximum(src, 0)], t)
        out.append((idx, (d * keep[:, None]).astype(delta.dtype), *entry[2:]))
    return out
