"""Blind review J's "checker patches on the long crown" (issue 46, defect 6; review H's too): blocks of light and dark,
their edges across the strands, over the crown of long hair.

The cause: long hair's cards had 15 rows spread evenly over 90 cm, 6.4 cm apart. Each row of a card is a straight
chord; over the skull (9 cm radius) a 6.4 cm chord dips up to 6 mm under the curve its points lie on, more than the
millimetres between the cards' layers. Neighbouring cards, whose rows fall at other places along them, so cut
through each other across the strands once a row: seen from behind, a block of one card's shade, then the other's
(taking the depth shading, :mod:`workbench.body.hair.occlusion`, out left the blocks as they were). Now the rows are
2.5 times closer on the head than where it hangs (:data:`workbench.body.hair.long.LONG_DENSE`; as many rows).

Measured two ways, on review J's #10 (seed 4620, long dark hair over a hoodie):

- the cards' rows on the head (long hair fitted to the body, :func:`~workbench.body.hair.canon.fitted`): how far each
  row's middle dips under its two ends' height over the head envelope. On main the 90th percentile 2.9 mm; now 1.1 mm
  (the most 3.4 mm), at most :data:`MOST_DIP`;
- the service's preview (the portrait, :func:`workbench.render.render`) from behind and at three quarters behind:
  the share of the crown's pixels (a band from 3 to 18 % of the picture under the hair's top) on an edge across the
  strands (brightness changing by more than :data:`STEP` levels over two pixels down, and over twice as much as
  across). On main 0.041 and 0.038; now 0.021 and 0.020, at most :data:`MOST_EDGES`.
"""

from functools import cache

import numpy as np
import pytest
from built import built_rest as build_avatar  # one build per run, no face shapes (tests/built.py)
from helpers import random_settings
from scipy import ndimage

from workbench.body.hair.bake import hair_head
from workbench.body.hair.canon import fitted
from workbench.body.mesh import body_mesh
from workbench.options import ModelOptions, normalize_avatar_settings
from workbench.render import render

MOST_DIP = 0.0015
STEP = 6.0
MOST_EDGES = 0.03
BACKGROUND = (236, 238, 242)
SIZE = 512


@cache
def settings() -> dict:
    """Review J's #10: long dark hair, a hoodie."""
    s = normalize_avatar_settings(random_settings(12, 4620)[9])
    assert s["hair"]["style"] == "long"
    return s


def test_long_hair_rows_follow_the_head():
    s = settings()
    mesh = body_mesh(s)
    head = hair_head(mesh, s["outfit"]["topStyle"], s["outfit"]["bottomStyle"])
    c = fitted(mesh, "long", 0, head).cards

    def height(p: np.ndarray) -> np.ndarray:
        rel = p - head.centre
        r = np.linalg.norm(rel, axis=-1)
        return r - head.envelope((rel / r[..., None]).reshape(-1, 3)).reshape(r.shape)

    on = ~c.hanging[:, 1:] & ~c.hanging[:, :-1]
    dip = (height(c.pts[:, 1:]) + height(c.pts[:, :-1])) / 2 - height((c.pts[:, 1:] + c.pts[:, :-1]) / 2)
    assert np.percentile(dip[on], 90) <= MOST_DIP, (round(float(np.percentile(dip[on], 90)), 4), float(dip[on].max()))


@cache
def glb() -> bytes:
    return build_avatar(settings(), ModelOptions(lod=0, animations=("idle",)))


@cache
def crown_edges(yaw: float) -> float:
    """The share of the crown's pixels on an edge across the strands, in the portrait turned ``yaw`` degrees."""
    g = glb()
    im = render(g, size=SIZE, camera="portrait", background=BACKGROUND, pose=(g, 0.0), yaw_deg=yaw)
    rgb = np.asarray(im.convert("RGB")).astype(float)
    drawn = np.abs(rgb - np.array(BACKGROUND)).sum(2) > 30
    top = np.flatnonzero(drawn.any(1))[0]
    band = slice(top + int(0.03 * SIZE), top + int(0.18 * SIZE))
    grey, inside = rgb[band].mean(2), drawn[band]
    inside = ndimage.binary_erosion(inside, iterations=5)[1:-1, 1:-1]
    down = np.abs(grey[2:, 1:-1] - grey[:-2, 1:-1])[inside]
    across = np.abs(grey[1:-1, 2:] - grey[1:-1, :-2])[inside]
    return float(np.mean((down > STEP) & (down > 2 * across)))


@pytest.mark.parametrize("yaw", [180.0, 145.0])
def test_long_crown_has_no_checker_across_its_strands(yaw):
    assert crown_edges(yaw) <= MOST_EDGES, round(crown_edges(yaw), 4)
