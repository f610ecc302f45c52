"""The crop's sides lie close to the head (blind review BC, both crops rated 3: "flat strips stick out sideways from
the temples").

From the front, the hair's outline at the temples (rows 7, 9 and 11 cm below the crown, above the ears) stood 2.4
to 2.8 cm outside the skin's on every head: the top's strands combed down over the sides kept the top's volume
and tufts' lift all the way down. A short crop's sides lie within about a centimetre of the head. Measured on the
GLB's rest meshes (the hair's and the skin's widest points in each row, either side of the head's middle), on
both genders and the narrowest and widest heads.
"""

import numpy as np
import pytest
from built import built_rest as build_avatar  # one build per run, no face shapes (tests/built.py)

from workbench.options import ModelOptions, normalize_avatar_settings
from workbench.render.scene import Model

ROWS = (0.07, 0.09, 0.11)   # metres below the crown
OVER = 0.013                # the most the hair's outline may stand outside the skin's there (2.4 to 2.8 cm before)


def positions(model, name):
    return np.concatenate([model.accessor(p["attributes"]["POSITION"]) for m in model.doc["meshes"] if m["name"] == name
                           for p in m["primitives"]]).astype(np.float64)


def overhang(settings):
    """The most the hair's outline stands outside the skin's, either side, in the rows at :data:`ROWS`."""
    model = Model(build_avatar(normalize_avatar_settings(settings), ModelOptions(animations=())), max_texture=1)
    hair, skin = positions(model, "Hair"), positions(model, "Body")
    crown = skin[:, 1].max()
    head = skin[skin[:, 1] > crown - 0.2]
    middle = head[:, 0].mean()
    worst = -1.0
    for below in ROWS:
        y = crown - below
        s = head[np.abs(head[:, 1] - y) < 0.005, 0] - middle
        h = hair[np.abs(hair[:, 1] - y) < 0.005, 0] - middle
        worst = max(worst, h.max() - s.max(), s.min() - h.min())
    return worst


@pytest.mark.parametrize("gender", ["feminine", "masculine"])
@pytest.mark.parametrize("width", [-1.0, 1.0])
def test_the_crops_sides_lie_within_a_centimetre_of_the_temples(gender, width):
    over = overhang({"gender": gender, "hair": {"style": "short"}, "face": {"headWidth": width}})
    assert 0.0 < over <= OVER, f"the crop's outline {over * 100:.1f} cm outside the temple (at most {OVER * 100:.1f})"
