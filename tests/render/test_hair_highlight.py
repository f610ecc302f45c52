"""Blind review B's grey band at the hairline (issue 46, third pass): over mid-brown hair at the temple, seen at
three quarters, the strand highlight was a smooth white haze (white added over the strands' colour, smooth
over the cards) that read as a grey band where the hair meets the forehead. The highlight keeps the hair's
hue now: where it shows, the hair is nearly as saturated as without it (it was a quarter less)."""

import numpy as np
from built import built_rest as build_avatar  # one build per run, no face shapes (tests/built.py)
from helpers import random_settings
from test_hair_shading import strip

from workbench.options import ModelOptions, normalize_avatar_settings
from workbench.render import render


def test_the_strand_highlight_keeps_the_hairs_hue():
    s = normalize_avatar_settings(random_settings(12, 4632)[5])          # long, mid-brown, deep skin
    assert s["hair"]["style"] == "long"
    glb = build_avatar(s, ModelOptions())
    shot = lambda g: np.asarray(render(g, size=384, camera="portrait", yaw_deg=35))[..., :3].astype(float)  # noqa: E731
    lit, plain = shot(glb), shot(strip(glb, "KHR_materials_anisotropy"))
    where = np.abs(lit - plain).sum(-1) > 6                                 # the highlight's footprint
    assert where.sum() > 5000
    sat = lambda x: ((x.max(-1) - x.min(-1)) / np.maximum(x.max(-1), 1))[where].mean()  # noqa: E731
    assert sat(lit) > 0.9 * sat(plain), (sat(lit), sat(plain))
