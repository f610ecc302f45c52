"""Blind review AB, defect 9: "The hood around the neck is a thick glossy inflated ring that dominates the portraits
(#12 S3 r4 portrait; #6 and #7 S2 r2 and r3 portrait)". A hood lying down stands at the back of the neck, where its
opening's rim is; round the sides and front its edges lie on the shoulders and chest, a collar folded over, not a
tube standing round the neck. Measured on the fitted hoodie of review AB's hoodie wearers (seed 4638's #12, #6, #8):

- in front (bearings within :data:`FRONT` degrees of the front), the roll's points stand at most :data:`LYING`
  off the hoodie (main's 25.0-30.5 mm, a ring 2.5 cm tall round the neck; now 10.2-14.1 mm);
- at the back's middle the roll still stands at least :data:`STANDING` off it (its rim round the back of the
  neck, 3.6 cm, kept), so the hood was laid down in front, not flattened everywhere.

And "from behind, the hood is a flat painted triangle (#1 S1 r1 back, #8 S2 r4 back)": a bag of one even
thickness, a dome highest along its centre seam, caught the light evenly. A lying hood's two halves lie in soft
folds either side of the seam: :data:`LOBE` of the way down the bag, the bag 45 degrees either side of the
centre stands at least :data:`FULLER` times as far off the hoodie as on the seam (main's 0.84: the dome;
now 1.22-1.24).
"""

from __future__ import annotations

import numpy as np
import pytest
from scipy.spatial import cKDTree

from workbench.body.mesh import body_mesh
from workbench.body.outfit.garments import dressed
from workbench.body.outfit.hood import BAG, ROLL, STEPS, bearings
from workbench.body.outfit.pattern import pattern
from workbench.options import normalize_avatar_settings

FRONT, LYING, STANDING = 100.0, 0.016, 0.028
LOBE, FULLER = 0.72, 1.12
# Review AB's hoodie wearers (seed 4638): what shapes the body and the hoodie, and what it is worn over.
BODIES = {12: ({"gender": "feminine", "bodyShape": "average", "height": 151.7}, "skirt"),
          6: ({"gender": "feminine", "bodyShape": "athletic", "height": 207.3}, "shorts"),
          8: ({"gender": "masculine", "bodyShape": "athletic", "height": 185.3}, "trousers")}


def hood_stand(k: int) -> np.ndarray:
    """How far each of the hood's points stands off the hoodie's panel (its points and its triangles' centres),
    metres, (ROLL rows then BAG rows, STEPS)."""
    body, under = BODIES[k]
    pat = pattern("hoodie")
    q = dressed(body_mesh(normalize_avatar_settings(body)), "hoodie", under).points
    n = len(pat["rim"])
    panel, hood = q[:n], q[n:n + (len(ROLL) + len(BAG)) * STEPS]
    stand = cKDTree(np.concatenate([panel, panel[pat["faces"]].mean(1)])).query(hood)[0]
    return stand.reshape(len(ROLL) + len(BAG), STEPS)


@pytest.mark.parametrize("k", sorted(BODIES))
def test_the_hood_lies_on_the_chest_in_front_and_stands_behind_the_neck(k):
    stand = hood_stand(k)[:len(ROLL)]
    off_front = np.abs(np.angle(np.exp(1j * bearings())))     # 0 at the front, pi at the back
    front = float(stand[:, off_front < np.radians(FRONT)].max())
    back = float(stand[:, STEPS // 2].max())
    assert front <= LYING, f"#{k}: the hood's roll stands {front * 1000:.1f} mm off the hoodie in front"
    assert back >= STANDING, f"#{k}: at the back of the neck it stands only {back * 1000:.1f} mm off"


@pytest.mark.parametrize("k", sorted(BODIES))
def test_the_hood_lies_on_the_back_in_folds_either_side_of_its_seam(k):
    bag = hood_stand(k)[len(ROLL):]
    row = bag[int(np.argmin(np.abs(BAG[:, 0] - LOBE)))]
    off_back = np.degrees(np.abs(np.angle(np.exp(1j * (bearings() - np.pi)))))
    sides = float(np.interp(45.0, off_back[STEPS // 2:], row[STEPS // 2:]) + np.interp(45.0, off_back[STEPS // 2::-1], row[STEPS // 2::-1])) / 2
    ratio = sides / float(row[STEPS // 2])
    assert ratio >= FULLER, f"#{k}: 45 degrees either side of its seam the bag stands {ratio:.2f} times as far off"
