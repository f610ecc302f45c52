"""A tinted lens tints a deep skin's eyes in our close-ups, as the browsers draw it (issue 46, blind review AM, defect 4:
"dark-skin close-ups ... eyes vanish behind clear lenses: #11 and #12 ... threejs shows these faces can read better";
seed 4657 as data/make_review_sheets.py draws it).

Pass 50 took the lens's mirror of the studio down to its file's ``KHR_materials_specular`` texture (0.3 on a lens,
``workbench.body.glasses.LENS_SPECULAR``), but not the rest of its reflection: the key light's highlight and the room's
sheen stayed at full strength, a grey film as light as a deep skin, so the aviators' brown lenses neither darkened nor
tinted #11's eyes in the close-ups. Now every reflection of a lens is at its file's strength, as three.js and
model-viewer read it (``workbench.render.loops.shade``).

Measured in the sheets' mouthOpen close-up (``make_review_sheets.open_camera``, 288 px, the sheets' supersampling): over
the lens's inside (its pixels of alpha 0.3 to 0.995 in the glasses drawn alone, three pixels in from the rims), the
close-up's mean colour against the same close-up without the glasses, per channel. Before: #11 red / green / blue
0.953 / 1.035 / 0.984, #12 0.852 / 0.895 / 0.85 (a grey film); now 0.881 / 0.884 / 0.697 and 0.787 / 0.765 / 0.604
(the mean through #11's lens (61.8, 44.4, 32.0) -> (57.1, 37.9, 22.7); three.js's sheet cell over it (55.3, 38.8, 28.8),
model-viewer's (58.4, 40.6, 25.6))."""

from __future__ import annotations

import sys
from dataclasses import replace
from functools import cache
from pathlib import Path

import numpy as np
import pytest
from scipy.ndimage import binary_erosion

from workbench.render.pictures import SUPERSAMPLE
from workbench.render.raster import draw
from workbench.render.scene import Model, load_clip

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "data"))
import make_review_sheets as sheets  # noqa: E402

pytestmark = pytest.mark.usefixtures("sheets_built_once")

SIZE = 288
#: Review AM's aviators on deep skin, the lenses it named.
AVIATORS = {k: sheets.review_settings(12, 4657)[k - 1] for k in (11, 12)}
#: Blue keeps at most BLUE of what red keeps (a brown tint), and no channel keeps LIGHT or more (the lens darkens).
BLUE, LIGHT = 0.9, 0.95


@cache
def kept(k: int) -> np.ndarray:
    """Per channel (R, G, B): how much of #``k``'s close-up shows through its lenses (the mean over the lenses' inside
    over the same without the glasses)."""
    glb = sheets._glb(AVIATORS[k])
    _, cam = sheets.open_camera(glb)
    shaped = sheets.with_weights(glb, {"mouthOpen": 1.0})
    posed = Model(shaped, max_texture=2 * SIZE).posed(load_clip(shaped), 0.0)

    def drawn(draws, **kw) -> np.ndarray:
        return draw(replace(posed, draws=draws), cam, SIZE, ss=SUPERSAMPLE, **kw).astype(float)

    alone = drawn([d for d in posed.draws if d.mesh_name == "Glasses"])[..., 3] / 255
    inside = binary_erosion((alone > 0.3) & (alone < 0.995), iterations=3)
    bare = drawn([d for d in posed.draws if d.mesh_name != "Glasses"], background=sheets.BACKGROUND)[..., :3]
    worn = drawn(posed.draws, background=sheets.BACKGROUND)[..., :3]
    assert inside.sum() > 2000, inside.sum()
    return worn[inside].mean(0) / bare[inside].mean(0)


def test_the_avatars_are_the_reviews_own():
    """The settings drawn are review AM's (its key: #11 and #12 in aviators, deep skin)."""
    assert [AVIATORS[k]["glasses"] for k in (11, 12)] == ["aviator", "aviator"]
    assert [AVIATORS[k]["skinTone"] for k in (11, 12)] == ["#452E25", "#50372A"]


@pytest.mark.parametrize("k", list(AVIATORS))
def test_a_brown_lens_darkens_and_tints_a_deep_skins_eyes(k):
    r, g, b = kept(k)
    assert b <= BLUE * r and max(r, g, b) < LIGHT, (k, kept(k).round(3))
