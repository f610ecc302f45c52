"""Blind reviews AS's and AT's ponytails in three.js (issue 46; "ribbed grey plastic with a flat ribbon tail", AS; "one
solid slab", AT): drawn as the reviews' sheets draw them (``data/make_review_sheets.py``'s three.js on the typical
page, ACES filmic and the RoomEnvironment; the portrait at three quarters, 384 px), seed 4681's #12 (#272727).

**Black hair, not a grey sheen.** The tail is a smooth bundle of cards, and the room's reflection lay down it as a
grey sheen over the black. Measured over the hair (our renderer's ``Hair`` mesh on the same camera, 2 pixels in from
its edge): its mean luminance (sRGB luma, 0 to 255) over the hair colour's own (39.3). At ``KHR_materials_specular``
0.3 (every straight style's, :data:`workbench.body.hair.look.SPECULAR`) 63.1 over it; at the ponytail's own 0.12
(:data:`workbench.body.hair.look.SPECULAR_OF`, as the bob's since review U) 55.6. At most :data:`MOST`.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest
from helpers import random_settings
from scipy import ndimage

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(Path(__file__).resolve().parent), str(ROOT / "data")]
import make_review_sheets as sheets  # noqa: E402
from test_threejs_aces_review_r import mesh_masks  # noqa: E402
from test_threejs_look import SIZE  # noqa: E402

# The sheets' avatars from the run's shared builds and the worker's one three.js page (conftest.py's sheets_built_once,
# sheets_page_once).
pytestmark = pytest.mark.usefixtures("sheets_built_once", "sheets_page_once")

LUMA = np.array([0.2126, 0.7152, 0.0722])
MOST = 59.0


def test_black_ponytail_stays_black_in_threejs(monkeypatch):
    monkeypatch.setattr(sheets, "VIEWS", (("portrait 3/4", "portrait", 35.0, None),))
    s = random_settings(12, 4681, with_added=True, heads=True, features=True, palettes=True, spread=True)[11]
    assert s["hair"] == {"style": "ponytail", "color": "#272727"}
    avatar = sheets.Avatar(s)
    _, cam, _ = avatar.cameras[0]
    hair = ndimage.binary_erosion(mesh_masks(avatar.glb, cam, SIZE)["Hair"], iterations=2)
    assert hair.sum() > 2000, int(hair.sum())
    shot = np.asarray(sheets.shoot_threejs([avatar], SIZE, "typical")[0][0].convert("RGB"), float)
    colour = float(np.array([int(s["hair"]["color"][i:i + 2], 16) for i in (1, 3, 5)]) @ LUMA)
    lift = float((shot @ LUMA)[hair].mean()) - colour
    assert lift <= MOST, round(lift, 1)
