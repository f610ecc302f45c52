"""Blind review J's "grey inner cap under a white bob" (issue 46, defect 6): the hair's under-layers (the scalp layer
and the inner cards, darkened by their depth in the hair: the texture's roots' shade and the vertex colours of
:mod:`workbench.body.hair.occlusion`) were darkened alike in every colour; in white hair that shade is a mid grey, a
grey cap showing inside the bob's outline and between its cards. Light hair scatters light through itself
(:func:`workbench.body.hair.texture.scatter`), so its inside stays near its colour.

Measured on the GLB (seed 4620's #1, a white bob, as the reviewer saw it): every ``Hair`` vertex whose texel is
opaque, shown as its texel times its vertex colour (linear), and the share of them darker (sRGB luma) than
:data:`GREY` of the hair's own colour. Main: 0.15 (bob) and 0.46 (long), now 0.0; at most :data:`GREY_SHARE`. Dark hair's vertices keep their
colours (the default avatar's look).
"""

from functools import cache

import numpy as np
import pytest
from built import built_rest as build_avatar  # one build per run, no face shapes (tests/built.py)
from helpers import random_settings

from workbench.body.hair import hair_texture
from workbench.options import ModelOptions, normalize_avatar_settings
from workbench.render.scene import Model

LUMA = np.array([0.2126, 0.7152, 0.0722])
GREY = 0.6
GREY_SHARE = 0.05


def srgb(c: np.ndarray) -> np.ndarray:
    return np.where(c <= 0.0031308, 12.92 * c, 1.055 * np.clip(c, 0.0031308, None) ** (1 / 2.4) - 0.055)


def linear(c: np.ndarray) -> np.ndarray:
    return np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)


@cache
def hair(color: str, style: str) -> tuple[np.ndarray, np.ndarray]:
    """The ``Hair`` mesh's shown colours (sRGB, its vertices over opaque texels) and vertex colours, on review J's
    #1 in ``color`` and ``style``."""
    s = dict(random_settings(12, 4620)[1])
    s["hair"] = {"style": style, "color": color}
    model = Model(build_avatar(normalize_avatar_settings(s), ModelOptions(animations=())), max_texture=1)
    d = next(d for d in model.posed().draws if d.mesh_name == "Hair" and d.colors is not None)
    image = hair_texture(color, style)
    h, w = image.shape[:2]
    texel = image[np.clip((d.uv[:, 1] * h).astype(int), 0, h - 1), np.clip((d.uv[:, 0] * w).astype(int), 0, w - 1)]
    opaque = texel[:, 3] >= 128
    shown = srgb(linear(texel[opaque, :3] / 255.0) * d.colors[opaque, :3])
    return shown, d.colors[:, :3]


def grey_share(color: str, style: str) -> float:
    """The share of the hair's opaque vertices shown darker than :data:`GREY` of ``color`` (sRGB luma)."""
    shown, _ = hair(color, style)
    base = np.array([int(color[i:i + 2], 16) for i in (1, 3, 5)]) / 255.0
    return float(np.mean(shown @ LUMA < GREY * (base @ LUMA)))


@pytest.mark.parametrize("style", ["bob", "long"])
def test_light_hair_has_no_grey_inside(style):
    assert grey_share("#D4D1CE", style) <= GREY_SHARE, round(grey_share("#D4D1CE", style), 3)


def test_dark_hair_keeps_its_depth():
    # (Black hair's under-layers stay dark: the same vertex colours as the cards' depth gives.)
    _, colors = hair("#282524", "bob")
    assert float(colors.min()) < 0.6, float(colors.min())
