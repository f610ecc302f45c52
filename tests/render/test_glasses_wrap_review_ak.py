"""The far side of the glasses tucked round the face at three quarters (issue 46, blind review AK, defect 2: "the
glasses don't fit the head in 3/4: the far temple arm sticks out into the air", #4, #5, #7 and #12's portrait 3/4;
review AJ's #10; seed 4655 as data/make_review_sheets.py draws it).

The front wrapped 15 degrees round the face (each lens turned about its centre's vertical, its outer side back), so
at three quarters the far lens, its rim and its end piece stood out past the cheek. Now 20 degrees, each lens widened
so that seen from the front it spans what it spanned at 15 (``workbench.body.glasses.WRAP``, ``FITTED_WRAP``: review
U's span and the fits from the front hold, tests/body/test_glasses_*).

Measured in the sheets' portrait at three quarters (yaw 35 degrees, 512 px, the idle clip's first frame): the
glasses' pixels that stand against the backdrop, the glasses drawn alone over what the rest of the avatar covers."""

from __future__ import annotations

import sys
from dataclasses import replace
from functools import cache
from pathlib import Path

import pytest

from workbench.render.framing import frame
from workbench.render.pictures import _max_texture, _model, _pivot, _posed, _turned
from workbench.render.raster import draw

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "data"))
import make_review_sheets as sheets  # noqa: E402

pytestmark = pytest.mark.usefixtures("sheets_built_once")

SIZE, YAW = 512, 35.0
#: Review AK's avatars whose far lens the review named (#4 clear, #5 round, #7 sunglasses) and its other aviator (#1).
GLASSES = {k: sheets.review_settings(12, 4655)[k - 1] for k in (1, 4, 5, 7)}
#: The most pixels of the glasses against the backdrop: 0.9 of main's at 15 degrees (`b1d4bb24`: #1 1,269, #4 1,800,
#: #5 725, #7 623); at 20 degrees 932, 1,512, 552, 481.
#: **Bound moved, knowingly** for #7 (pass 63): sunglasses are cut larger since review AW ("too small for the face",
#: workbench.body.glasses_frames.SIZED): the far lens's outer side, its end piece and hinge stand 3 to 8 mm further out
#: with the wider front, 594 px against 481 (0.95 of the defect's 623 at 15 degrees; their taller lens keeps its plane,
#: glasses.SIZED_FORWARD). Drawn before and after at 512 px (docs/avatars.md, pass 63): a real pair's far side.
#: **And for the frame** (pass 67): #7 wears the crop, whose sides now come down to the ear; its top's outline stands
#: lower, so the portrait's square (``framing.portrait_box``) is smaller and the head drawn larger: the glasses' own
#: pixels 5,420 against 4,946 (1.096), those against the backdrop 651 against 594 (1.096), the same 0.12 of them.
#: The bound is scaled by that ratio (1.1). **And again** (pass 70): the portrait lowers the eyes before it grows the
#: square for hair over the crown (``framing.TOP_MARGIN``), so the head is drawn larger still: the glasses' own pixels
#: 5,684 against 5,420 (1.049), those against the backdrop 679 against 651 (1.043), the same 0.12 of them (1.05).
BOUND = {1: 0.9 * 1269, 4: 0.9 * 1800, 5: 0.9 * 725, 7: 0.96 * 623 * 1.1 * 1.05}


@cache
def standing_out(k: int) -> int:
    """How many pixels of #``k``'s glasses stand against the backdrop in its portrait at three quarters."""
    glb = sheets._glb(GLASSES[k])
    model = _model(glb, _max_texture(SIZE), None)
    posed = _posed(model, (glb, 0.0), None)
    posed = _turned(posed, YAW, _pivot(posed), 0.0)
    cam = frame(posed, "portrait")
    rest = draw(replace(posed, draws=[d for d in posed.draws if d.mesh_name != "Glasses"]), cam, SIZE)[..., 3] > 0
    glasses = draw(replace(posed, draws=[d for d in posed.draws if d.mesh_name == "Glasses"]), cam, SIZE)[..., 3] > 0
    return int((glasses & ~rest).sum())


def test_the_avatars_are_the_reviews_own():
    """The settings drawn are review AK's (its key: #1 aviator, #4 clear, #5 round, #7 sunglasses)."""
    assert [GLASSES[k]["glasses"] for k in (1, 4, 5, 7)] == ["aviator", "clear", "round", "sunglasses"]


@pytest.mark.parametrize("k", list(GLASSES))
def test_the_far_lens_keeps_to_the_face_at_three_quarters(k):
    """At most 0.9 of main's pixels of the glasses against the backdrop at three quarters (main: 1,269 / 1,800 / 725
    / 623 on #1 / #4 / #5 / #7; now 932 / 1,512 / 552 / 594), the sunglasses' (#7) 0.96 since they are cut larger."""
    assert standing_out(k) <= BOUND[k], (k, standing_out(k))
