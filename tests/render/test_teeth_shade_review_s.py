"""The open mouth's and the smile's teeth are shaded, not one white block (blind review S: "the teeth one unshaded white
block that glows on deep skin", mouthOpen, viseme_aa and mouthSmile on seed 4629's deep-toned #5 and #8, #412F25 and
#402E26).

Measured as the reviewer saw them: our renderer's mouth close-up at a review sheet's cell (data/make_review_sheets.py:
288 px, 12 cm across at the mouth, supersampled). The front teeth are the Teeth mesh's outer faces of both rows from the
middle line to the canines (the texture's u under FRONT_U), told apart by their texture coordinates through the
renderer's own drawing (as tests/render/test_mouth_renders.painted does). Two figures: the front teeth's mean luminance
(0..255) over the face's lit skin (the 87.5th percentile of the Body's pixels in the view), and the spread over the
upper front teeth: their luminance's 25th percentile over its 90th (1 for one flat white block)."""

from __future__ import annotations

from dataclasses import replace
from functools import cache

import numpy as np
import pytest
from built import built as build_avatar  # one build per run (tests/built.py)
from helpers import random_settings
from test_mouth_renders import UNLIT
from test_smile_gaps_review_p import CELL, mouth_camera, with_weights

from workbench.body.mouth import LOWER_EDGE, TONGUE_V, UPPER_EDGE
from workbench.options import ModelOptions, normalize_avatar_settings
from workbench.options.colour import LUMA
from workbench.render.pictures import SUPERSAMPLE
from workbench.render.raster import draw
from workbench.render.scene import Material, Model, load_clip

#: Review S's deep-toned avatars (seed 4629 as the sheets draw it), without hair or glasses (not in the view).
FACES = {k: random_settings(12, 4629, with_added=True)[k - 1] for k in (5, 8)}
#: The front teeth along the arch (the texture's u).
FRONT_U = 0.3
#: The most the front teeth may be of the lit skin's luminance, and the most of the upper teeth's spread (see the module).
GLOW, FLAT = 2.85, 0.79


@cache
def glb(k: int) -> bytes:
    s = {**FACES[k], "hair": {"style": "none"}, "glasses": "none"}
    return build_avatar(normalize_avatar_settings(s), ModelOptions(lod=0, animations=("idle",)))


def _painted(posed, cam, paint) -> np.ndarray:
    """The close-up unlit in flat vertex colours, 0..1: ``paint(d, colors)`` fills draw ``d``'s (n, 4) RGBA (black
    unless it paints); interpolated across each triangle, so a channel can carry a texture coordinate."""
    flat = Material(color=np.ones(4, np.float32))
    draws = []
    for d in posed.draws:
        colors = np.zeros((len(d.positions), 4), np.float32)
        colors[:, 3] = 1
        paint(d, colors)
        draws.append(replace(d, colors=colors, uv=None, material=replace(flat, double_sided=d.material.double_sided)))
    return draw(replace(posed, draws=draws), cam, CELL, lights=UNLIT)[..., :3].astype(float) / 255


def _parts(d, colors) -> None:
    """Red: the front teeth's outer faces; blue: the upper row's."""
    if d.mesh_name != "Teeth":
        return
    u, v = d.uv[:, 0], d.uv[:, 1]
    upper = (v <= UPPER_EDGE + 1e-4) & (u < FRONT_U)
    colors[:, 0] = upper | ((v >= LOWER_EDGE - 1e-4) & (v < TONGUE_V) & (u < FRONT_U))
    colors[:, 2] = np.where(upper, 1.0, 0.0)


def _body(d, colors) -> None:
    """The Body white (the face's skin; the mouth's lining too, a few pixels of the view's percentile)."""
    if d.mesh_name == "Body":
        colors[:, :3] = 1


@cache
def figures(k: int, shape: str) -> tuple[float, float]:
    """#k's ``shape`` close-up: (the front teeth's luminance over the lit skin's, the upper front teeth's spread)."""
    _, cam = mouth_camera(glb(k))
    g = with_weights(glb(k), {shape: 1.0})
    posed = Model(g, max_texture=2 * CELL).posed(load_clip(g), 0.0)
    lum = draw(posed, cam, CELL, ss=SUPERSAMPLE)[..., :3].astype(float) @ np.asarray(LUMA)
    part = _painted(posed, cam, _parts)
    front = part[..., 0] > 0.5
    upper = front & (part[..., 2] > 0.9)
    skin = _painted(posed, cam, _body)[..., 0] > 0.5
    whole = upper & (part[..., 0] > 0.9)
    return (float(lum[front].mean() / np.percentile(lum[skin], 87.5)),
            float(np.percentile(lum[whole], 25) / np.percentile(lum[whole], 90)))


@pytest.mark.parametrize("k", sorted(FACES))
@pytest.mark.parametrize("shape", ["mouthOpen", "mouthSmile"])
def test_the_teeth_are_shaded_not_a_glowing_block(k, shape):
    """The front teeth under GLOW of the lit skin's luminance, the upper ones' spread under FLAT. On main 2.89 to 3.50
    of the skin, a spread of 0.81 to 0.83 (0.62 on #8's mouthOpen, whose row shows a few pixels high): a glowing
    white block; now (the lips' shade in the teeth's occlusion, workbench.body.teeth_shade; a translucent grey biting
    edge, mouth.EDGE_BAND; the lower row darker, mouth.LOWER_SHADE; the enamel beside the deepest skins at L* 76,
    tone.TEETH_L) 2.51 to 2.74 of the skin, a spread of 0.58 to 0.77."""
    glow, flat = figures(k, shape)
    assert glow < GLOW and flat < FLAT, (round(glow, 2), round(flat, 2))
