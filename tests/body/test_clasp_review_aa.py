"""Blind review AA, defect 6 (``make_review_sheets.py OUT --count 12 --seed 4637``): "'clasped' hands hover next to
each other without interlocking (#2 s1/r2/c1, #9 s3/r1/c1, #10 s3/r2/c1)"; wanted: "fingers actually interlace" or
one hand holding the other. Review AB (seed 4638, main after pass 37) showed the same on #7 (s2/r3/c1).

Measured on the GLB as a viewer poses it (its ``pose`` animation at 0 s), on the skin past each wrist: the hands'
touch, the least distance between the two hands; the right hand's depth, the deepest one of its vertices lies
behind the left hand's skin (along the nearest sampled triangle's normal, within ``test_stances.NEAR``); the palm's
rest, the least distance from the right hand's palm and knuckles (the wrist to the middle finger's middle joint) to
the left hand; and the left hand's knuckles' gap to the belly (``test_hands_review_v``). On main (pass 32's rest:
the hands side by side, each on the belly 0.05 hip heights either side of the middle): #2 17.4 mm apart, #9's and
#10's right fingers 3.9 and 8.7 mm into the left hand, AB's #7 37.5 mm apart; now (``workbench.gltf.clasp``: the
right hand laid over the left) 1.9 to 3.1 mm apart, none inside.
"""

from __future__ import annotations

import numpy as np
import pytest
from built import built
from helpers import random_settings
from scipy.spatial import cKDTree
from test_hands_review_v import GAP, knuckles_and_wrists
from test_stances import NEAR, _samples

from workbench.options import ModelOptions, normalize_avatar_settings
from workbench.render.pictures import preview_pose
from workbench.render.scene import Model

REVIEWS = {4637: random_settings(12, 4637, with_added=True, heads=True, features=True, palettes=True, spread=True),
           4638: random_settings(12, 4638, with_added=True, heads=True, features=True, palettes=True, spread=True)}
CASES = [(4637, 2), (4637, 9), (4637, 10), (4638, 7)]
# The hands touch: this close at least (metres); the right hand no deeper than this into the left; its palm and
# knuckles this close to the left hand.
TOUCH, INSIDE, PALM = 0.006, 0.001, 0.02


def clasp(m: Model) -> tuple[float, float, float]:
    """(the hands' least distance, the right hand's depth inside the left, the right palm's least distance to the
    left hand) in the preview pose, metres."""
    rest, posed = m.posed(), m.posed(*preview_pose(m))
    r = next(d for d in rest.draws if d.mesh_name == "Body")
    p = next(d for d in posed.draws if d.mesh_name == "Body")
    x = r.positions[:, 0]
    left = x > float(rest.joints["LeftHand"][0])
    right = x < float(rest.joints["RightHand"][0])
    palm = right & (x > float(rest.joints["RightHandMiddle2"][0]))
    at = p.positions.astype(np.float64)
    near = cKDTree(at[left])
    touch = float(near.query(at[right])[0].min())
    pts, normals = _samples(p, left)
    d, k = cKDTree(pts).query(at[right], distance_upper_bound=NEAR)
    hit = np.isfinite(d)
    depth = -np.einsum("nc,nc->n", at[right][hit] - pts[k[hit]], normals[k[hit]])
    return round(touch, 4), round(float(max(depth.max(initial=0.0), 0.0)), 4), round(float(near.query(at[palm])[0].min()), 4)


@pytest.mark.parametrize("seed,k", CASES)
def test_the_clasped_hands_hold_each_other(seed, k):
    s = normalize_avatar_settings({**REVIEWS[seed][k - 1], "hair": {"style": "none"}})
    assert s["pose"] == "hands_clasped"
    m = Model(built(s, ModelOptions()))
    touch, depth, palm = clasp(m)
    assert touch <= TOUCH and depth <= INSIDE and palm <= PALM, (touch, depth, palm)
    left = knuckles_and_wrists(m, s["outfit"]["topStyle"], s["outfit"]["bottomStyle"], ("Left",))["Left"]
    assert left[0] <= GAP, left
