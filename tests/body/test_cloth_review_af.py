"""Blind review AF, defect 9 (clothes 5, three.js 4.5): "The fabric textures streak. Pants and skirts use a vertical
'brushed wood-grain' noise instead of weave or denim. The knit sweater balloons at the shoulders and arms. #1 (pink
pants and an inflated black sweater), #7 (purple skirt), #11 (grey skirt)." (seed 4642.)

- The warp's streaks (cloth41's denim) are an indigo warp's: a twill garment's texture, its band from 1 to 8 texels
  across the way the cloth falls (the streaks' scale and direction), over its mean brightness, on its plain cloth, is
  on a pink, purple or grey bottom (#1's trousers, #7's and #11's skirts, #8's grey trousers) at most :data:`OFF_BLUE`
  of an indigo pair of trousers' (main, the same streaks in every colour: 0.62, 0.85, 0.69, 0.68; now 0.10, 0.13, 0.09,
  0.11), and the indigo trousers' at least :data:`DENIM` (0.038 on main and now: their streaks kept).
- The sweater's sleeve lies on the arm with a knit's ease: round the arm's axis from 30 to 60 % of the way from the
  shoulder's joint to the wrist (the lower upper arm, the elbow and the forearm's top), the median distance of its
  cloth off the skin's surface at most :data:`SLEEVE_GAP` (the T-pose the drape works in), on review AF's #1
  (athletic masculine) and #2 (slim feminine): main 13.3 and 11.8 mm, now 7.8 and 6.5.

About 6 s: two bodies, the textures, no drawing.
"""

from __future__ import annotations

import numpy as np
import pytest
from helpers import random_settings
from scipy.ndimage import gaussian_filter
from scipy.spatial import cKDTree
from test_clothes_silhouettes import _skin_surface
from test_fabrics_review_ae import brightness, plain

from workbench.body.mesh import body_mesh
from workbench.body.outfit.cloth import CLOTH_SIZE, band_distances
from workbench.body.outfit.drape import Frame
from workbench.body.outfit.garments import dressed
from workbench.body.outfit.pattern import pattern
from workbench.options import normalize_avatar_settings

OFF_BLUE, DENIM = 0.4, 0.02
SLEEVE_GAP = 0.0095
INDIGO = "#243952"                                                  # review AF's #9's shorts
OFF = [("trousers", "#BD898F"), ("skirt", "#683C68"), ("skirt", "#6F7275"), ("trousers", "#76787B")]  # #1 #7 #11 #8
AF = random_settings(12, 4642, with_added=True, heads=True, features=True, palettes=True, spread=True)


def streaks(style: str, colour: str) -> float:
    """The texture's band from 1 to 8 texels across its fall (the slope of the distance from its waist), in mean
    squares over its plain cloth, over its mean brightness."""
    lum = brightness(style, colour)
    gy, gx = np.gradient(gaussian_filter(lum, 1.0) - gaussian_filter(lum, 8.0))
    fy, fx = (gaussian_filter(g, 12.0, mode="nearest") for g in np.gradient(band_distances(style, CLOTH_SIZE)[0][2]))
    norm = np.hypot(fx, fy)
    cloth = plain(style) & (norm > 1e-9)
    across = (gx * fy - gy * fx) / np.maximum(norm, 1e-12)
    return float(np.sqrt((across[cloth] ** 2).mean()) / lum[cloth].mean())


def test_the_af_key_is_the_reviews():
    # (#1's pink trousers and black sweater: the settings these tests name are the ones the reviewer saw.)
    assert AF[0]["outfit"]["bottom"] == "#BD898F" and AF[0]["outfit"]["topStyle"] == "longsleeve"


@pytest.mark.parametrize("style,colour", OFF)
def test_off_blue_twills_are_not_streaked_as_denim(style, colour):
    denim, other = streaks("trousers", INDIGO), streaks(style, colour)
    assert denim >= DENIM, round(denim, 4)
    assert other <= OFF_BLUE * denim, (round(other, 4), round(denim, 4))


def sleeve_gap(settings: dict) -> float:
    """The sweater's median distance off the skin round the left arm, 30 to 60 % of the way down it (metres)."""
    mesh = body_mesh(normalize_avatar_settings(settings))
    pat = pattern("longsleeve")
    q = dressed(mesh, "longsleeve", "trousers").points[:len(pat["shares"])]
    sk = mesh.skeleton
    arm, hand = sk.pos("LeftArm").astype(np.float64), sk.pos("LeftHand").astype(np.float64)
    s, _, _, _ = Frame(arm, hand - arm, [0.0, 0.0, 1.0]).local(q)
    length = float(np.linalg.norm(hand - arm))
    sleeve = (s > 0.3 * length) & (s < 0.6 * length) & (pat["shares"][:, 2] > 0.9)
    assert sleeve.sum() > 20
    return float(np.median(cKDTree(_skin_surface(mesh)).query(q[sleeve])[0]))


@pytest.mark.parametrize("k", [0, 1])
def test_a_sweaters_sleeve_lies_on_the_arm(k):
    gap = sleeve_gap(AF[k])
    assert gap <= SLEEVE_GAP, f"{gap * 1000:.1f} mm off the arm"
