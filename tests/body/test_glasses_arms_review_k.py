"""Blind review K's tenth defect, its glasses note: the arms (temples) left the frame at the middle of the lens's
side and poked forward past the far rim at three quarters (seed 4621 #1 and #9, the portrait at 3/4). They should
leave it at the rims' top outer corners (the end pieces) and run back to the ears.

Measured on the ``Glasses`` piece (:func:`workbench.body.glasses.glasses_piece`) per side: the lens box (the
lens's vertices, those pointing into the texture's lens half); the arm: the frame's vertices further out than the
rim (:data:`OUT` past the lens box). The arm's start (its vertices within :data:`START` of its innermost) lies at the
box's top (:data:`TOP` of its height up); seen at three quarters from the other side (the previews' :data:`YAW`),
no arm vertex stands out past the far side's frame (its rim and end piece) across the picture.
"""

from __future__ import annotations

import numpy as np
import pytest
from helpers import body_of

from workbench.body.glasses import LENS_UV, glasses_piece

OUT, START, YAW = 0.004, 0.003, 35.0
# The arm leaves the rim at its top corner: its start this high up the lens box at least (the rim's round corner
# above it).
TOP = 0.85
BODIES = [("feminine", "average", None), ("masculine", "heavy", 143.5), ("feminine", "heavy", 153.8),
          ("masculine", "slim", 205.0), ("feminine", "slim", 145.0), ("masculine", "average", None)]


def arms(gender: str, shape: str, height: float | None) -> dict[str, tuple[float, float]]:
    """Per side (+1, -1 in x): (the arm's start height as a share of the lens box's height from its bottom, how far
    the arm stands out past that side's frame across a three-quarter view from the other side, metres)."""
    g = glasses_piece(body_of(gender, shape, height), gender)
    pos = g.positions.astype(np.float64)
    lens = np.all(np.isclose(g.uv, LENS_UV), axis=1)
    mid = pos[lens, 0].mean()
    out = {}
    for side in (1.0, -1.0):
        x = side * (pos[:, 0] - mid)
        own = lens & (x > 0)
        lo, hi = pos[own].min(0), pos[own].max(0)
        outer = side * (hi[0] if side > 0 else lo[0]) - side * mid
        arm = ~lens & (x > outer + OUT)
        start = arm & (x < x[arm].min() + START)
        share = float((pos[start, 1].mean() - lo[1]) / (hi[1] - lo[1]))
        # Seen at three quarters from the other side, the screen's rightward direction on this one (further out
        # and further forward: right; further back: left).
        across = np.array([side * np.cos(np.radians(YAW)), 0.0, np.sin(np.radians(YAW))])
        frame = ~lens & ~arm & (x > 0)
        out[side] = (round(share, 3), round(float((pos[arm] @ across).max() - (pos[frame] @ across).max()), 4))
    return out


@pytest.mark.parametrize("gender,shape,height", BODIES)
def test_the_arms_leave_the_frame_at_its_top_corners_and_run_back(gender, shape, height):
    a = arms(gender, shape, height)
    assert all(share >= TOP for share, _ in a.values()), a
    assert all(past <= 0.0 for _, past in a.values()), a
