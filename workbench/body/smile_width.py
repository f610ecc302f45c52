"""The smile's corners drawn out less: mouthSmile's mouth some 10 % wider than at rest, not 14 to 27 %.

The face units' ``mouthSmileLeft`` and ``Right`` draw each corner about 8 mm out (sideways) as well as up; in
``smileOpen`` (:mod:`.expressions`) they stretched the mouth 14 to 27 % wider than at rest on review AC's faces,
against a smile's ~10 %: the lips drawn thin into a flat wedge with pointed corners, "a grimace ... the lip corners
should go up and back, not just out". :func:`less_sideways` keeps only the share of the units' sideways travel that
leaves each corner :data:`SIDEWAYS` of the mouth's rest width further out, whatever else in the sum moves it
sideways (the lips' setting back at rest taken off, ``lipsUnrolled``, draws the corners of a full-lipped face 1 to 3
mm in); their lift and their drawing back are kept whole.

>>> round(SIDEWAYS * 2 * 100)   # per cent wider, both corners, before the rest of the sum takes ~0.5 mm a side off
12
"""

from __future__ import annotations

import numpy as np

__all__ = ["SIDEWAYS", "less_sideways"]

# How far each corner goes out in the smile, as a share of the mouth's width at rest (its inner edge's ends). (0.05
# left review AC's faces 7.6 to 8.0 % wider: the corners' seal and unfolding take some 0.5 mm a side more off;
# at 0.06 9.6 to 10.1 %, tests/body/test_smile_width_review_ac.py.)
SIDEWAYS = 0.06
# The least share of the units' sideways travel kept (a face whose set-back lips draw its corners in by more than the
# smile's own share keeps this much of the smile's outward pull, the lips still stretched a little over the teeth).
LEAST = 0.35


def less_sideways(parts: list, weights: list, corners: np.ndarray, positions: np.ndarray,
                  rest: np.ndarray | None) -> list:
    """``parts`` (shapes: sorted vertex indices, deltas; ``weights`` theirs in the sum) with the sideways (x) deltas
    of all of them scaled by one share, so the summed parts move the mouth's ``corners`` (vertex indices, the one at
    the least x first) out by :data:`SIDEWAYS` of the mouth's width in ``rest`` (the body without its lips set back;
    ``positions`` when None) together with what the set-back's taking off moves them (``rest`` less ``positions``
    undone: the sum adds ``positions`` less ``rest`` back). The same share on both sides, so a symmetric face stays
    symmetric.

    >>> idx = np.array([0, 1], np.int32)
    >>> d = np.array([[-0.006, 0.01, 0.0], [0.006, 0.01, 0.0]], np.float32)
    >>> p = np.array([[-0.025, 0.0, 0.0], [0.025, 0.0, 0.0]])
    >>> [(i.tolist(), np.round(x[:, 0] * 1000, 2).tolist()) for i, x in less_sideways([(idx, d)], [1.0], idx, p, None)]
    [([0, 1], [-3.0, 3.0])]
    """
    base = positions if rest is None else rest
    out_x = np.array([-1.0, 1.0])
    travel = np.zeros(2)
    for (idx, delta), w in zip(parts, weights, strict=True):
        at = np.searchsorted(idx, corners)
        hit = (at < len(idx)) & (idx[np.minimum(at, len(idx) - 1)] == corners)
        travel[hit] += w * delta[at[hit], 0].astype(np.float64) * out_x[hit]
    unrolled = (positions[corners, 0] - base[corners, 0]).astype(np.float64) * out_x
    width = float(base[corners[1], 0] - base[corners[0], 0])
    pull = float(travel.mean())
    if pull <= 0:
        return parts
    keep = float(np.clip((SIDEWAYS * width - unrolled.mean()) / pull, LEAST, 1.0))
    scaled = []
    for idx, delta in parts:
        d = delta.copy()
        d[:, 0] *= np.float32(keep)
        scaled.append((idx, d))
    return scaled
