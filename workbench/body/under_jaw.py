"""The crease under the jaw rounded: where the skin under the chin meets the neck's front.

MakeHuman's base mesh turns from the flat skin under the chin to the neck's front at one edge loop (the head's and
the neck's skin weights meet there), a corner of 75 to 90 degrees at a single vertex. Seen at three quarters, the
jaw's line ran back from the chin and kinked into a hard notch where it met the neck (blind review AA: "In 3/4 views
the jaw-to-neck line kinks into a hard notch ... smooth the jaw/submandibular edge loop"), on every face, its own
controls or none. The skin there (weighted to both the head and the neck, in front of the neck's axis, and a ring
round it) is smoothed towards its neighbours' mean, up, down and forward only, so the corner becomes a curve, as a
neck's is (at most 9 to 11 mm moved, at the corner's middle); the chin's front lies outside the band, and no width
moves, so the jaws and chins that the faces' controls and variety shape keep their differences.
tests/body/test_jaw_notch_review_aa.py.
"""

from __future__ import annotations

from functools import cache

import numpy as np

from ..skeleton import JOINT_NAMES
from . import compile as cc

# Rounds of smoothing, and how far (a fraction of the way to the neighbours' mean) each moves a vertex of the band.
ROUNDS = 16
STEP = 0.5
# The band: skin weighted to both the head and the neck, in front of the neck's axis (the base mesh's z, decimetres),
# and one ring of its neighbours at half the step, so that the band's edge does not become a step of its own.
FRONT = 0.3


@cache
def _band() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(the band's vertices, their step, the body's edges as index pairs both ways)."""
    d = cc.compiled()
    q = d["quads"][d["quad_group"] == list(d["face_group_names"]).index("body")]
    pairs = np.concatenate([q[:, [0, 1]], q[:, [1, 2]], q[:, [2, 3]], q[:, [3, 0]]])
    pairs = np.unique(np.sort(pairs, axis=1), axis=0)
    pairs = np.concatenate([pairs, pairs[:, ::-1]])

    def weight(name: str) -> np.ndarray:
        j = JOINT_NAMES.index(name)
        return np.where(d["skin_joints"] == j, d["skin_weights"], 0.0).sum(1)

    body = np.zeros(len(d["base"]), bool)
    body[np.unique(q)] = True
    core = body & (weight("Head") > 0.02) & (weight("Neck") > 0.02) & (d["base"][:, 2] > FRONT)
    ring = np.zeros_like(core)
    ring[pairs[core[pairs[:, 0]], 1]] = True
    ring &= body & ~core & (d["base"][:, 2] > FRONT)
    step = np.where(core, STEP, np.where(ring, STEP / 2, 0.0))
    idx = np.flatnonzero(step)
    return idx, step[idx], pairs


def rounded_under_jaw(verts: np.ndarray) -> np.ndarray:
    """``verts`` (a shaped body, decimetres) with the crease between the skin under the chin and the neck rounded.

    >>> base = cc.compiled()["base"].astype(np.float64)
    >>> moved = np.linalg.norm(rounded_under_jaw(base) - base, axis=1)
    >>> bool(moved.max() < 0.12), int((moved > 0).sum()) < 400, bool((moved[np.abs(base[:, 0]) > 0.9] == 0).all())
    (True, True, True)
    """
    idx, step, pairs = _band()
    verts = verts.copy()
    count = np.bincount(pairs[:, 0], minlength=len(verts))[idx, None]
    for _ in range(ROUNDS):
        total = np.zeros((len(verts), 3))
        np.add.at(total, pairs[:, 0], verts[pairs[:, 1]])
        # (up, down and forward only: smoothed sideways too, the band's sides, out to the jaw's angles, drew the jaw in
        # and pushed the chin's sides out, a feminine chin 0.686 of its jaw's width against 0.661,
        # tests/body/test_feminine_face_review_z.py; the widths the faces' controls give are theirs)
        verts[idx, 1:] += step[:, None] * (total[idx, 1:] / count - verts[idx, 1:])
    return verts
