"""The walls of an open mouth in our renderer (blind review N, worst defect 1: "the inside of the mouth is a boxy,
low-poly dark-red shell with hard facets ... hard trapezoid panels", every viseme_aa, clearest on seed 4624's #9 and
#5; here review N's #9, #5 and #2, their faces and tones, in tests/render/test_mouth_renders.py's close-up).

The mouth's lining (the body's pouch behind the lips, workbench.body.mouth.lining_triangles) is a few coarse panels;
with their own normals each took the key light at its own angle, a palate and side walls lit brighter than the back
teeth's walls beside them (which workbench.body.teeth_walls turns to one normal). The lining seen in the opening,
eroded by two pixels so no lip or tooth edge counts, is measured by the spread of its luminance (its 95th less its
5th percentile): one smooth surface has little; and by its mean: lit by the key it read as the reviewer's lit red
shell, brighter than the back teeth's walls beside it."""

from __future__ import annotations

from functools import cache

import numpy as np
import pytest
from built import built as build_avatar  # one build per run (tests/built.py)
from scipy.ndimage import binary_erosion
from test_mouth_renders import closeup

from workbench.options import ModelOptions, normalize_avatar_settings
from workbench.options.colour import LUMA

#: Review N's avatars (seed 4624): gender, body shape, skin tone and face settings, as its key drew them.
FACES = {
    "n9": ("masculine", "heavy", "#E6BAA2", {"jawWidth": 1.0, "cheekbones": 0.2, "noseWidth": -0.5, "eyeSize": 0.3,
                                              "lipFullness": 0.4, "noseLength": -0.2, "chinLength": 0.7, "browRidge": 1.0}),
    "n5": ("feminine", "heavy", "#4E3526", {"jawWidth": -0.5, "cheekbones": -0.1, "noseWidth": -0.5, "eyeSize": 0.5,
                                             "lipFullness": 0.4, "noseLength": 0.7, "chinLength": -0.5, "browRidge": -0.2}),
    "n2": ("masculine", "slim", "#442F26", {"jawWidth": 0.0, "cheekbones": 0.2, "noseWidth": -0.8, "eyeSize": 0.1,
                                             "lipFullness": -0.8, "noseLength": -0.5, "chinLength": -0.8, "browRidge": 0.6}),
}
#: The most spread of the lining's luminance (0..255) in the opening, and the most of its mean.
SPREAD, MEAN = 7.0, 23.5


@cache
def glb(name: str) -> bytes:
    gender, shape, tone, face = FACES[name]
    s = {"gender": gender, "bodyShape": shape, "skinTone": tone, "face": face, "hair": {"style": "none"}}
    return build_avatar(normalize_avatar_settings(s), ModelOptions(animations=("idle",)))


@cache
def lining(name: str, shape: str) -> tuple[np.ndarray, np.ndarray]:
    """The luminance (0..255) of the lining's pixels in ``shape``'s close-up of face ``name``, and the magnitude of its
    gradient (per pixel) there (for a look; the test bounds the luminance)."""
    lit, masks = closeup(glb(name), FACES[name][0], {shape: 1.0})
    seen = binary_erosion(masks["lining"] & ~masks["teeth"], iterations=2)
    lum = lit @ np.asarray(LUMA)
    gy, gx = np.gradient(lum)
    return lum[seen], np.hypot(gx, gy)[seen]


@pytest.mark.parametrize("name", FACES)
@pytest.mark.parametrize("shape", ["viseme_aa", "mouthOpen"])
def test_the_lining_is_one_smooth_surface(name, shape):
    """The lining's luminance spread under SPREAD and its mean under MEAN. On main 7.5 to 11.0 and 24.2 to 29.0 (review
    N's #2 in mouthOpen 1.3 and 24.7); now (its normals turned out of the mouth, workbench.body.teeth_walls.lined) 1.2
    to 6.4 and 18.1 to 22.2."""
    lum = lining(name, shape)[0]
    assert len(lum) > 1000, len(lum)
    spread = float(np.percentile(lum, 95) - np.percentile(lum, 5))
    assert spread < SPREAD and lum.mean() < MEAN, (spread, float(lum.mean()), float(lum.max()))
