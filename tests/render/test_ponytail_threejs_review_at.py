"""Blind reviews AS's and AT's ponytails in three.js (issue 46; "ribbed grey plastic with a flat ribbon tail", AS; "one
solid slab", AT): drawn as the reviews' sheets draw them (``data/make_review_sheets.py``'s three.js on the typical
page, ACES filmic and the RoomEnvironment; the portrait at three quarters, 384 px), seed 4681's #12 (#272727).

**Black hair, not a grey sheen.** The tail is a smooth bundle of cards, and the room's reflection lay down it as a
grey sheen over the black. Measured over the hair (our renderer's ``Hair`` mesh on the same camera, 2 pixels in from
its edge): its mean luminance (sRGB luma, 0 to 255) over the hair colour's own (39.3; :func:`test_bob_threejs_review_u.hair_lift`). At ``KHR_materials_specular``
0.3 (every straight style's, :data:`workbench.body.hair.look.SPECULAR`) 63.1 over it; at the ponytail's own 0.12
(:data:`workbench.body.hair.look.SPECULAR_OF`, as the bob's since review U) 55.6. At most :data:`MOST`.
"""

import pytest
from helpers import review
from test_bob_threejs_review_u import hair_lift, sheets  # noqa: F401 (sheets: the fixtures below patch it)

# The sheets' avatars from the run's shared builds and the worker's one three.js page (conftest.py's sheets_built_once,
# sheets_page_once).
pytestmark = pytest.mark.usefixtures("sheets_built_once", "sheets_page_once")

MOST = 59.0


def test_black_ponytail_stays_black_in_threejs(monkeypatch):
    s = review(4681, 12)
    assert s["hair"] == {"style": "ponytail", "color": "#272727"}
    lift = hair_lift(s, monkeypatch)
    assert lift <= MOST, round(lift, 1)
