"""The fingers of a hand rested on the hip fanned open (:func:`fan`), after its palm is rested with them together.

Blind review AC (defect 9, #1, #3, #7, #8, #9, #11 of seed 4639: "the mitten-like hands ... with no finger
articulation"): hands37's open hand lay on the hip with its fingers closed together (their fan 7, 4 and 10 degrees
between neighbours at the knuckles, the T-pose's 16, 10 and 9; the thumb along the index), its middle and ring
fingertips 5 to 7 mm apart: at the sheets' sizes one flat paddle. Its palm is still rested with them together (rested
with the fan open, the solve settled some hands 17.5 mm off the hip or the wrist bent 19 degrees, past review V's
bounds); then each finger is fanned out to the open hand's spread, or as much of it as keeps it out of the hip (the
hand rests on its index edge: fanned whole, the thumb went 4 to 14 mm into the hip on AC's #3 and #11). Then
neighbours are kept from closing up (:func:`kept_apart`), which only takes shares back towards the closed fan.
"""

from __future__ import annotations

from itertools import pairwise

import numpy as np

from ..body.rig import skin
from ..skeleton import FINGERS, Skeleton
from .clips import Pose
from .reach import NEAR, Surface, frames, tree

# The share of each finger's change of spread tried, most first (the fan's whole change, then less of it).
SHARES = (1.0, 0.75, 0.5, 0.25, 0.0)
# The fingers from the index outwards, each two neighbours kept apart (:func:`kept_apart`). Fanned each as far as it
# could on its own, a ring finger held back by the hip at a quarter of its change, its middle neighbour fanned whole,
# lay 19 degrees from it where both fans put them 16 and 4: their tips 3.2 mm apart (blind review AC's #11, pass 62).
OUTWARD = ("Index", "Middle", "Ring", "Pinky")
# A fanned finger may lie no deeper behind the hip's surface than this (metres), or than it lay before, if deeper.
IN = 0.001


def fan(p: Pose, side: str, rig: Skeleton, pieces, surface: Surface, spread: dict[str, float]) -> dict[str, float]:
    """Set ``side``'s fingers' spread at the knuckle (``y``, written for the left side as ``stances`` writes it) to
    ``spread``'s, each finger as much of the change as keeps its skin (the body's vertices it moves most, skinned as
    a viewer skins them) no deeper behind ``surface`` (the posed hip the palm rests on; read on the nearest sample's
    normal within :data:`~workbench.gltf.reach.NEAR`, on all its surfaces together and on each) than :data:`IN` or
    than before, then no more of it than keeps its neighbours apart (:func:`kept_apart`: a share taken back there is
    not read again; on AU's and AC's 20 hip hands none went deeper); return each finger's share."""
    body = pieces["Body"]
    rest = np.asarray(body.positions, np.float64)
    joints, weights = np.asarray(body.joints), np.asarray(body.weights)
    top = joints[np.arange(len(joints)), np.argmax(weights, axis=1)]
    own = {f: np.flatnonzero(np.isin(top, [rig.index[f"{side}Hand{f}{k}"] for k in (1, 2, 3, 4)])) for f in FINGERS}
    sign = 1.0 if side == "Left" else -1.0
    was = {f: float(p.angles[f"{side}Hand{f}1"][0, 1]) for f in FINGERS}
    wrist = frames(p, rig)[1][rig.index[side + "Hand"]]
    # The hip within a hand's reach: all surfaces together and each on its own (a finger by a tee's hem read on the
    # trousers' nearer samples can lie behind the tee; tests/body/test_stances reads each).
    hips = [(tree(a[m]), a[m], b[m]) for a, b in [(surface.points, surface.normals), *surface.each]
            for m in [np.linalg.norm(a - wrist, axis=1) < 0.3] if m.any()]

    change = {f: sign * spread[f] - was[f] for f in FINGERS}

    def set_to(f: str, share: float) -> None:
        p.angles[f"{side}Hand{f}1"][:, 1] = was[f] + share * change[f]

    def depths(shares: dict[str, float]) -> dict[str, float]:
        """Each finger of ``shares`` set to its share (the fingers apart: one posing for all), its depth."""
        for f, share in shares.items():
            set_to(f, share)
        rot, pos = frames(p, rig)
        out = {}
        for f in shares:
            at = skin(rest[own[f]], rig.world, pos, rot, joints[own[f]], weights[own[f]])
            out[f] = 0.0
            for hip, pts, normals in hips:
                d, k = hip.query(at, distance_upper_bound=NEAR)
                hit = np.isfinite(d)
                behind = -float(np.einsum("nc,nc->n", at[hit] - pts[k[hit]], normals[k[hit]]).min(initial=0.0))
                out[f] = max(out[f], behind)
        return out

    took = {f: SHARES[0] for f, d in depths(dict.fromkeys(FINGERS, SHARES[0])).items() if d <= IN}
    left = [f for f in FINGERS if f not in took]              # (most fingers fan whole: one posing, no more)
    if left:
        before = depths(dict.fromkeys(left, 0.0))
        for share in SHARES[1:-1]:
            for f, d in depths(dict.fromkeys(left, share)).items():
                if d <= max(IN, before[f]):
                    took[f] = share
            left = [f for f in left if f not in took]
            if not left:
                break
    took = kept_apart({f: took.get(f, 0.0) for f in FINGERS}, was, change)
    for f in FINGERS:
        set_to(f, took[f])
    return took


def kept_apart(shares: dict[str, float], was: dict[str, float], change: dict[str, float]) -> dict[str, float]:
    """``shares`` (each finger's share of its ``change`` of spread from ``was``) with each two neighbours of
    :data:`OUTWARD` spread no further apart or closer than both their fans (their spreads' difference between its
    value at ``was`` and at the whole ``change``; the T-pose's fan, which these add to, opens as that difference
    falls): where a pair is not, the one taking more of its change takes less, until every pair is. Shares are in
    [0, 1] and stay there (a pair with its shares equal is between its fans).

    >>> was = {"Thumb": 0.0, "Index": 22.0, "Middle": 6.0, "Ring": -10.0, "Pinky": -28.0}
    >>> change = {"Thumb": 0.0, "Index": 0.0, "Middle": 8.0, "Ring": 20.0, "Pinky": 24.0}
    >>> kept = kept_apart({"Thumb": 1.0, "Index": 1.0, "Middle": 1.0, "Ring": 0.25, "Pinky": 1.0}, was, change)
    >>> kept["Middle"], kept["Ring"], kept["Pinky"]
    (0.625, 0.25, 0.375)
    """
    assert all(0.0 <= v <= 1.0 for v in shares.values()), shares
    out = dict(shares)
    moved = True
    while moved:
        moved = False
        for i, o in pairwise(OUTWARD):
            closed = was[i] - was[o]
            lo, hi = sorted((closed, closed + change[i] - change[o]))
            now = closed + out[i] * change[i] - out[o] * change[o]
            if lo - 1e-9 <= now <= hi + 1e-9:
                continue
            bound = hi if now > hi else lo
            if out[i] > out[o]:
                out[i] = (bound - closed + out[o] * change[o]) / change[i]
            else:
                out[o] = (closed + out[i] * change[i] - bound) / change[o]
            moved = True
    return out
