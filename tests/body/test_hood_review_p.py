"""Blind review P, defect 3: "sheet 2 #8 back, sheet 3 #9 back: the hood is only painted onto a flat back (no
volume)" ("it should be modelled hoods"). A lying hood is a folded bag of fleece 3 to 6 cm thick behind the neck,
thinning down the back to a rounded fold, its opening's rim a curved edge round the neck with the hood's inside
in shade. Measured on review P's hoodie wearers (seed 4626's #8, #9):

- relief (the hood's mesh on the fitted hoodie): the bag's points' 95th percentile distance off the hoodie (its
  points and triangles' centres) at least :data:`RELIEF` (main's 2.9 cm: a pad; now 3.9 cm), and its
  lower edge a fold, not a slope: at the back's middle, :data:`EDGE_UP` above its edge, the bag stands at least
  :data:`EDGE_STAND` off the hoodie (main's 0.7 cm: its edge sloped away over 5 cm; now 1.8 to 1.9 cm);
- shading in the back view (our renderer, 512 px, the whole figure; #8 with neither hair nor glasses, so only
  the hoodie is in the upper back's box): of the hoodie's pixels in the box from 15 % to 29 % of the figure's
  height down and over its middle 60 %, at least :data:`DARK` are darker than 0.8 times their median (the hood's
  shadowed fold, the shadow it casts and its opening; main's 2.8 %, its seams only; now 11.6 %).
"""

from __future__ import annotations

import numpy as np
import pytest
from built import built_rest as build_avatar  # one build per run, no face shapes (tests/built.py)
from scipy.spatial import cKDTree

from workbench.body.mesh import body_mesh
from workbench.body.outfit.garments import dressed
from workbench.body.outfit.hood import BAG, ROLL, STEPS
from workbench.body.outfit.pattern import pattern
from workbench.options import ModelOptions, normalize_avatar_settings
from workbench.render.pictures import render

RELIEF, EDGE_UP, EDGE_STAND, DARK = 0.036, 0.01, 0.012, 0.07
# Review P's hoodie wearers (seed 4626): what shapes the body and the hoodie.
BODIES = {8: {"gender": "feminine", "bodyShape": "average", "height": 184.7},
          9: {"gender": "feminine", "bodyShape": "slim", "height": 175.1}}
TOP = "#5FF47F"
BACKGROUND = (230, 232, 236)


def hood_stand(k: int) -> tuple[np.ndarray, np.ndarray]:
    """How far each of the hood's bag's points stands off the hoodie (metres), and its height (metres), each
    (BAG rows, STEPS)."""
    mesh = body_mesh(normalize_avatar_settings(BODIES[k]))
    pat = pattern("hoodie")
    q = dressed(mesh, "hoodie", "shorts").points
    n = len(pat["rim"])
    bag = q[n + len(ROLL) * STEPS:n + (len(ROLL) + len(BAG)) * STEPS]
    panel = q[:n]
    stand = cKDTree(np.concatenate([panel, panel[pat["faces"]].mean(1)])).query(bag)[0]
    return stand.reshape(len(BAG), STEPS), bag[:, 1].reshape(len(BAG), STEPS)


@pytest.mark.parametrize("k", sorted(BODIES))
def test_the_lying_hood_stands_off_the_back_as_a_bag(k):
    stand, height = hood_stand(k)
    middle, up = stand[:, STEPS // 2], height[:, STEPS // 2] - height[-1, STEPS // 2]
    relief, edge = float(np.percentile(stand, 95)), float(np.interp(EDGE_UP, up[::-1], middle[::-1]))
    assert relief >= RELIEF, f"#{k}: the hood's bag stands {relief * 100:.1f} cm off the hoodie"
    assert edge >= EDGE_STAND, f"#{k}: its fold 1 cm above its edge stands {edge * 100:.1f} cm off"


@pytest.fixture(scope="module")
def back_view() -> np.ndarray:
    settings = {**BODIES[8], "skinTone": "#8C6843", "hair": {"style": "none"}, "glasses": "none", "pose": "relaxed",
                "outfit": {"top": TOP, "bottom": "#500A8C", "shoes": "#D4C0BE", "topStyle": "hoodie",
                           "bottomStyle": "shorts", "shoeStyle": "boots"}}
    glb = build_avatar(normalize_avatar_settings(settings), ModelOptions())
    return np.asarray(render(glb, size=512, camera="full", yaw_deg=180.0, background=BACKGROUND).convert("RGB"),
                      np.float64)


def shaded_share(a: np.ndarray) -> float:
    """Of the hoodie's pixels in the upper back's box of the back view ``a``, the share darker than 0.8 times
    their median (see the module's notes)."""
    figure = np.abs(a - BACKGROUND).sum(-1) > 12
    rows = np.flatnonzero(figure.any(1))
    height = rows[-1] - rows[0]
    r0, r1 = rows[0] + int(0.15 * height), rows[0] + int(0.29 * height)
    cols = np.flatnonzero(figure[r0:r1].any(0))
    mid, half = (cols[0] + cols[-1]) // 2, int(0.3 * (cols[-1] - cols[0]))
    box = a[r0:r1, mid - half:mid + half]
    # The hoodie's pixels: its colour's chromaticity, whatever the light (not the neck's skin).
    top = np.array([int(TOP[i:i + 2], 16) for i in (1, 3, 5)], np.float64)
    chroma = box / np.maximum(box.sum(-1, keepdims=True), 1)
    cloth = np.abs(chroma - top / top.sum()).sum(-1) < 0.08
    lum = (box @ [0.2126, 0.7152, 0.0722])[cloth]
    assert cloth.sum() > 2000, cloth.sum()
    return float((lum < 0.8 * np.median(lum)).mean())


def test_the_hood_is_shaded_in_the_back_view(back_view):
    dark = shaded_share(back_view)
    assert dark >= DARK, f"{dark:.3f} of the upper back's hoodie in shade"
