"""Blind review BF of nine bobs and nine ponytails (pass 76, the review sheets' draws of seeds 4813 to 4818; ponytail 5/10): "The hair
tie looks like a hole. From the back it is a dark ring with a darker centre, so it reads as a socket." The tie is a ring
round the head's normal at the tie (:data:`workbench.body.hair.tail.TIE_RADIUS`); the tail left it 64 degrees off that
axis, going out and down at once, and filled only the ring's lower side: over it the ring's inside showed, the tie's own
dark inner wall and the shaded hair in it. Now the tail comes out along the ring's axis first, a stalk through the tie
(:data:`workbench.body.hair.tail.STALK`, ``ROOT_SINK``), and turns down past it.

Measured in the portrait from behind, as the review sheets' back view turns the figure (the service's portrait camera,
512 px, LOD 0, the idle clip's first frame; the default feminine ponytail and review AT's #11, light hair): the tie's
vertices (by their vertex colour, :data:`workbench.body.hair.tail.TIE_SHADE`) projected into the picture; within their
outline (the ring and its hole), the share of pixels darker than :data:`DARK` of the hair's median round it (from
:data:`ROUND` of the ring's radius about its middle). The tie itself is dark: the share is the ring's band and any hole
it shows. On main 0.53 and 0.54, the whole disc dark but the tail's first strands; with the stalk 0.32 and 0.38, the
tail over the ring's hole and its lower side; with its slower flare too (``FULL_AT``, the tail's top sloping out of the
tie, tests/body/test_ponytail_ledge_review_bf.py) 0.41 and 0.45, narrower where it leaves the ring. At most
:data:`MOST`.
"""

from functools import cache

import numpy as np
import pytest
from built import built_rest as built  # one build per run, no face shapes (tests/built.py)
from helpers import in_frame_of, review
from scipy.spatial import Delaunay

from workbench.body.hair.tail import TIE_SHADE
from workbench.options import ModelOptions, normalize_avatar_settings
from workbench.render.pictures import _posed
from workbench.render.raster import draw
from workbench.render.scene import Model
from workbench.render.stage import project

SIZE = 512
HAIR = "#C8A270"
DARK = 0.6
ROUND = (1.3, 2.0)
MOST = 0.49
# The tie's vertex colour as the model stores it (a byte).
TIE = int(TIE_SHADE * 255 + 0.5) / 255
LUMA = np.array([0.2126, 0.7152, 0.0722])


def settings(name: str) -> dict:
    s = review(4681, 11) if name == "AT#11" else {"gender": "feminine"}
    return {**s, "glasses": "none", "hair": {"style": "ponytail", "color": HAIR}}


@cache
def dark_share(name: str) -> float:
    """The share of dark pixels within the tie's outline, the figure seen from behind (see the module's text)."""
    posed = _posed(Model(built(normalize_avatar_settings(settings(name)), ModelOptions(lod=0, animations=("idle",)))),
                   "preview")
    posed, cam = in_frame_of(posed, posed, 180.0)
    tie = np.concatenate([d.positions[np.abs(d.colors[:, 0] - TIE) < 1e-4] for d in posed.draws
                          if d.mesh_name == "Hair" and d.colors is not None])
    assert len(tie), name
    xy = project(tie, cam, SIZE)[0]
    lum = draw(posed, cam, SIZE, background=(255, 255, 255))[..., :3].astype(float) @ LUMA
    rows, cols = np.mgrid[:SIZE, :SIZE]
    inside = Delaunay(xy).find_simplex(np.c_[cols.ravel() + 0.5, rows.ravel() + 0.5]).reshape(SIZE, SIZE) >= 0
    middle = xy.mean(0)
    r = np.hypot(cols + 0.5 - middle[0], rows + 0.5 - middle[1]) / np.linalg.norm(xy - middle, axis=1).max()
    hair = lum[(r >= ROUND[0]) & (r <= ROUND[1]) & (lum < 250)]
    assert inside.sum() > 100 and len(hair) > 100, (name, inside.sum(), len(hair))
    return float((lum[inside] < DARK * np.median(hair)).mean())


@pytest.mark.parametrize("name", ("default", "AT#11"))
def test_the_tail_fills_its_tie_seen_from_behind(name):
    assert dark_share(name) <= MOST, (name, dark_share(name))
