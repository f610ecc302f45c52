"""Long hair's ends as our renderer draws them from behind (blind review A: "the last third of the hair
dissolves into scattered pixels"): the hair's pixels (the avatar drawn with green hair less the same
avatar bald, one camera) below the shoulders, split into 8-connected pieces; a speck is a piece of at most
:data:`SPECK` pixels. Cards whose alpha held their strands broke up under the alpha test wherever a texel
was under a pixel; cards cut as outlines end in points.
"""

import numpy as np
import pytest
from built import built_rest as build_avatar  # one build per run, no face shapes (tests/built.py)
from scipy import ndimage

from workbench.options import ModelOptions, normalize_avatar_settings
from workbench.render import render

SIZE = 512
GREEN = "#1FBF3A"
SPECK = 3
# Specks per thousand pixels of hair below the shoulders, at most (main before the outlines: 8.2; now 1.8).
MOST = 3.0


def _back(style, hair_style):
    s = normalize_avatar_settings({"gender": "masculine", "bodyShape": "heavy", "hair": {"style": hair_style,
                                   "color": GREEN}, "skinTone": "#956E4B",
                                   "outfit": {"topStyle": style, "top": "#FFFFFF"}})
    glb = build_avatar(s, ModelOptions(lod=0, animations=("idle",)))
    return np.asarray(render(glb, size=SIZE, camera="full", background=(255, 255, 255), pose=(glb, 0.0),
                             yaw_deg=180.0, shadow=False))[..., :3].astype(float)


@pytest.fixture(scope="module")
def hair_mask():
    haired, bald = _back("tee", "long"), _back("tee", "none")
    diff = np.abs(haired - bald).sum(-1)
    green = (haired[..., 1] - np.maximum(haired[..., 0], haired[..., 2])) > 25
    return (diff > 60) & green


def test_long_hair_ends_are_not_scattered_pixels(hair_mask):
    rows = np.flatnonzero(hair_mask.any(1))
    # Below the shoulders: the lower two thirds of the hair's height from behind.
    low = hair_mask.copy()
    low[: rows.min() + (rows.max() - rows.min()) // 3] = False
    labels, _ = ndimage.label(low, structure=np.ones((3, 3)))
    sizes = np.bincount(labels.ravel())[1:]
    specks = int((sizes <= SPECK).sum())
    per_thousand = 1000.0 * specks / max(int(low.sum()), 1)
    assert low.sum() > 500, int(low.sum())                     # the hair is there to judge
    assert per_thousand <= MOST, (specks, int(low.sum()), per_thousand)
