"""Blind review N's bob (issue 46, defect 2, seed 4624's #3: "a rigid black helmet with a hard vertical side plane
... and a gap to the cheek. It should be layered cards that follow the skull and jaw"), measured on that avatar and
two feminine bobs (review M's #6, review L's #10).

**The sides follow the jaw**: the hair's cards (fitted to the body, :func:`~workbench.body.hair.canon.fitted`) cut
at the ear (:data:`EAR` metres under the skull's centre, about where the sides stand out most) and at the jaw
(:data:`JAW`, above the hem's last 2 to 3 cm); at the sides (azimuths 60 to 100 degrees from the face) the
outermost card per :data:`test_bob_review_l.BIN` degrees; the median of how much farther out it is at the ear than
at the jaw, at least :data:`DRAWN_IN` metres. On main 4.9, 8.1 and 3.0 mm (the body envelope the strands fall over, held at the
ear's width down to the shoulders, with the sides' clearance over it: the sides hung 3 cm off the jaw as one vertical
plane from the ear to where the tucked ends bend in); now 13.4, 18.7 and 10.2 mm (the sides drawn in towards the jaw
under the ear, :data:`workbench.body.hair.styles.BOB_JAW`).
"""

from functools import cache

import numpy as np
import pytest
from helpers import random_settings
from test_bob_review_l import BIN

from workbench.body.hair.bake import hair_head
from workbench.body.hair.canon import fitted
from workbench.body.mesh import body_mesh
from workbench.options import normalize_avatar_settings

AVATARS = ((4624, 3), (4623, 6), (4622, 10))
EAR = 0.03
JAW = 0.08
# (9.5 mm until part23: review O's plate at the parting, the small side's front cards by the parting no longer pushed
# aside there, :data:`workbench.body.hair.styles.BOB_PUSH`, come forward and fall by the face, a card farther out at
# the jaw on review L's #10: 10.2 -> 9.3 mm; the other two unchanged, 13.4 and 18.7 mm; L's #10 was 3.0 mm
# before review N's BOB_JAW.)
DRAWN_IN = 0.009


@cache
def cards(seed: int, index: int) -> tuple[np.ndarray, np.ndarray]:
    """Avatar ``index`` (1-based) of seed ``seed``'s draw: its bob's fitted cards' points (S, K, 3) at LOD 0 and the
    hair's head centre."""
    s = normalize_avatar_settings(random_settings(12, seed)[index - 1])
    assert s["hair"]["style"] == "bob"
    mesh = body_mesh(s)
    head = hair_head(mesh, s["outfit"]["topStyle"], s["outfit"]["bottomStyle"])
    return fitted(mesh, "bob", 0, head).cards.pts, head.centre


def outermost(seed: int, index: int, drop: float) -> np.ndarray:
    """Per :data:`BIN` degrees of azimuth at the sides (60 to 100 degrees either side of the face): the outermost
    distance (metres, from the vertical through the skull's centre) of the cards ``drop`` metres under the skull's
    centre (NaN where none)."""
    p, c = cards(seed, index)
    y = c[1] - drop
    a, b = p[:, :-1], p[:, 1:]
    cross = (a[..., 1] - y) * (b[..., 1] - y) <= 0
    dy = a[..., 1] - b[..., 1]
    t = (a[..., 1] - y) / np.where(np.abs(dy) > 1e-9, dy, 1.0)
    q = (a + (b - a) * t[..., None])[cross] - c
    az, rho = np.degrees(np.arctan2(q[:, 0], q[:, 2])), np.hypot(q[:, 0], q[:, 2])
    mids = np.arange(60.0, 100.0, BIN) + BIN / 2
    mids = np.r_[mids, -mids]
    most = np.array([rho[np.abs(az - m) <= BIN / 2].max(initial=-1.0) for m in mids])
    return np.where(most > 0, most, np.nan)


def drawn_in(seed: int, index: int) -> float:
    return float(np.nanmedian(outermost(seed, index, EAR) - outermost(seed, index, JAW)))


@pytest.mark.parametrize("seed,index", AVATARS)
def test_bob_sides_draw_in_towards_the_jaw(seed, index):
    assert drawn_in(seed, index) >= DRAWN_IN, round(drawn_in(seed, index), 4)
