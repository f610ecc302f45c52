"""The inside of an open mouth as every viewer lights it (blind review H, defect 2: "the cavity is pure black in three.js,
saturated blood red in model-viewer; it should be dark but lit in any renderer, through a dark albedo plus an
occlusion term rather than relying on the renderer"). A viewer that lights a mouth by its room alone (three.js with
RoomEnvironment, model-viewer) scales the lining's colour by the baked occlusion and by about the same light
everywhere, so what it draws at the back of the mouth follows albedo x occlusion (linear): read from the model's own
skin and occlusion textures, where the lining is deepest."""

from __future__ import annotations

import numpy as np
import pytest

from workbench.body import ao, skin
from workbench.body.mesh import body_mesh
from workbench.options import normalize_avatar_settings


def _linear(srgb: np.ndarray) -> np.ndarray:
    c = srgb / 255.0
    return np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)


@pytest.mark.parametrize("gender,tone", [("feminine", "#FFE0C4"), ("masculine", "#5E3F2B")])
def test_the_back_of_the_mouth_is_dark_red_brown_not_black_nor_pure_red(gender, tone):
    """Where the lining is deepest (its throat mask at full), albedo x occlusion: its luminance over 0.008 (a room-lit
    viewer draws it as a dark red-brown, not black) and its green over a fifth of its red (not a pure red, which
    model-viewer drew blood red). On main 0.0036 to 0.0040 and 0.14 (THROAT (0.23, 0.07, 0.08) at 0.4 of the light:
    the lining drawn (20, 1, 2) of 255 in three.js's mouthOpen close-ups, (38, 0, 1) in model-viewer's); now 0.0103 to
    0.0114 and 0.29 ((43, 13, 12) and (54, 9, 3))."""
    s = normalize_avatar_settings({"gender": gender, "skinTone": tone, "hair": {"style": "none"}})
    colour = skin.skin_texture(s["skinTone"], gender).reshape(-1, 3)
    occ = ao.occlusion_texture(body_mesh(s))[..., 0]
    at, w = skin.features(gender)["throat"]
    deep = at[w > 0.99]
    assert len(deep) > 500
    row, col = np.divmod(deep, skin.SKIN_SIZE)
    scale = occ.shape[0] / skin.SKIN_SIZE
    lit = _linear(colour[deep].astype(float)) * (occ[(row * scale).astype(int), (col * scale).astype(int)] / 255.0)[:, None]
    r, g, b = lit.mean(0)
    lum = 0.2126 * r + 0.7152 * g + 0.0722 * b
    assert lum > 0.008 and g > 0.2 * r, (lum, r, g, b)
