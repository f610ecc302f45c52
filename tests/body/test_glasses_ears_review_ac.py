"""Glasses that sit on the head (issue 46, blind review AC's tenth defect: "in 3/4 views the temple arms run into the
hair or temple instead of over the ear (sheet 2, #6, col 5; sheet 3, #9, col 5; sheet 1, #1, col 5). The lenses sit
slightly too far out from the face."). Measured on review AC's own bespectacled avatars (seed 4639, the sheets' draw,
``make_review_sheets.review_settings``), on the ``Glasses`` piece (:func:`workbench.body.glasses.glasses_piece`) and the
body's skin, per side:

- the ear: the skin behind the eyes within 7 cm of their height standing out furthest from the head's middle (its
  outermost 8 mm: the helix, as tests/body/test_glasses_fit.py's ``ear_rim``); its top, and its back edge at each
  height;
- over the ear: how far the temple's lowest vertex within :data:`OVER` of the ear's top (front to back) lies above
  that top. A temple rests on the ear's root: on main it ran 4.8 and 6.7 mm over the top on #1 and #6 (3.6 on #3, 2.3
  on #5; at three quarters it ended in the temple above the ear, a hook bending down in the air), now 0.0 to 0.4 (its
  edge on the rim);
- behind the ear: the median gap, along z, from the ear's back edge to the earpiece at the heights 8 mm and more under
  the ear's top: on main 5.1 and 5.7 mm on #1 and #6 (3.6 on #3, 4.2 on #5: a loose loop), now 1.6-2.4;
- the lenses' vertex distance: the lens's middle in front of the cornea. An optician fits 12 to 14 mm; the round
  frames' lenses stood 18.1 and 18.7 mm off on #1 and #6 and 21.3 on #9 (the fit read the skin behind a rim as the
  frontmost vertex within 2.5 mm, proud of the nose's sloping sides), now 14.2, 14.9 and 17.8 (#9's nose's sides).

#9's temple (0.7 and 1.5 mm on main: its arm was hidden by its hair, which this does not change) passes on main; the
other four avatars' temples and #1's and #6's lenses fail there.
"""

from __future__ import annotations

import numpy as np
import pytest
from helpers import random_settings

from workbench.body.glasses import LENS_UV, glasses_piece
from workbench.body.mesh import body_mesh
from workbench.options import normalize_avatar_settings

# The review's draw: make_review_sheets.review_settings(12, 4639).
REVIEW = random_settings(12, 4639, with_added=True, heads=True, features=True, palettes=True, spread=True)
OVER = 0.003
# The bounds: the temple's edge within ON of the ear's top, the earpiece within BEHIND of its back, the lenses'
# middles within FAR of the corneas (the round frames on #1 and #6, their noses' sides no nearer than the brows).
ON, BEHIND, FAR = 0.0015, 0.003, 0.0155


def measures(index: int) -> dict[str, list[float]]:
    """Review AC's avatar ``index`` (1-based): per side, the temple's height over the ear's top, the earpiece's gap
    behind the ear's back edge, and the lens's middle in front of the cornea (metres)."""
    s = normalize_avatar_settings(REVIEW[index - 1])
    m = body_mesh(s)
    g = glasses_piece(m, s["gender"], s["glasses"])
    p = g.positions.astype(np.float64)
    lens = np.all(np.isclose(g.uv, LENS_UV), axis=1)
    body = m.positions[m.groups["body"]].astype(np.float64)
    eyes = {s: m.positions[m.groups[f"helper-{s}-eye"]].astype(np.float64) for s in "lr"}
    mid = (eyes["l"].mean(0) + eyes["r"].mean(0)) / 2
    out: dict[str, list[float]] = {"over": [], "behind": [], "distance": []}
    for eye in eyes.values():
        side = np.sign(eye.mean(0)[0] - mid[0])
        near = body[(np.abs(body[:, 1] - mid[1]) < 0.07) & (side * (body[:, 0] - mid[0]) > 0.04)
                    & (body[:, 2] < mid[2] - 0.04)]
        lat = side * (near[:, 0] - mid[0])
        ear = near[lat > lat.max() - 0.008]
        top = ear[np.argmax(ear[:, 1])]
        temple = p[~lens & (side * (p[:, 0] - mid[0]) > 0.04) & (p[:, 2] < mid[2] - 0.04)]
        over = temple[np.abs(temple[:, 2] - top[2]) < OVER]
        out["over"].append(float(over[:, 1].min() - top[1]))
        gaps = [ear[np.abs(ear[:, 1] - q[1]) < 0.003, 2].min() - q[2] for q in temple[temple[:, 1] < top[1] - 0.008]
                if (np.abs(ear[:, 1] - q[1]) < 0.003).any()]
        out["behind"].append(float(np.median(gaps)))
        mine = p[lens & (side * (p[:, 0] - mid[0]) > 0)]
        middle = mine[np.argmin(np.linalg.norm(mine[:, :2] - mine[:, :2].mean(0), axis=1))]
        out["distance"].append(float(middle[2] - eye[:, 2].max()))
    return out


def test_the_draw_is_review_acs():
    """#1, #6 and #9 wear the round gold frames (the key's), #1 bald, #6 the crop, #9 a bun."""
    assert [(REVIEW[i - 1]["glasses"], REVIEW[i - 1]["hair"]["style"]) for i in (1, 6, 9)] == [
        ("round", "none"), ("round", "short"), ("round", "bun")]


@pytest.mark.parametrize("index", [1, 3, 5, 6, 9])
def test_the_temple_rests_on_the_ear_and_bends_down_close_behind_it(index):
    """Over the ear's top the temple's edge within 1.5 mm of it (main 2.3-6.7 mm over it on #1, #3, #5, #6), behind it
    the earpiece within 3 mm of its back edge (main 3.6-5.7 mm)."""
    m = measures(index)
    assert max(abs(v) for v in m["over"]) <= ON, m
    assert max(m["behind"]) <= BEHIND, m


@pytest.mark.parametrize("index", [1, 6])
def test_the_round_lenses_stand_an_opticians_distance_off_the_eyes(index):
    """The round frames' lenses' middles within 15.5 mm of the corneas (main 18.1 and 18.7 mm on #1 and #6)."""
    m = measures(index)
    assert max(m["distance"]) <= FAR, m
