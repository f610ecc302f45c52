"""Blind review AC's defect 6, "plastic skin ... On dark skin the forehead and nose get a grey-lilac specular film
(sheet 1, #4, col 4; sheet 2, #8, col 4)", in our previews.

The skin's reflections were white, and white laid over a deep brown lifts its light but takes its b* down about twice
as fast as its a*: the highlight on forehead and nose turned towards magenta and lost a third of the skin's chroma, a
grey-lilac film. They are warm-white now (:data:`workbench.options.colour.GLINT`, the skin's ``specularColorFactor``,
which three.js and model-viewer read too), the albedo solved with it so the tone shown is the one asked for (contract
section 5). Review AC's #4 (#40281D) and #8 (#573B29), bald and without glasses (#8's blond buzz is painted on the
scalp's skin, over the T-zone's top; the film is the skin's), in the sheets' portrait (c4) at the sheets' 288 px; the
T-zone (forehead and nose: the skin's ``tzone`` mask, less the scalp's) found by our renderer's drawing of the same
camera (``helpers.through``). Its brightest tenth (by L*) against its median: the hue may not turn more than
:data:`TURN` degrees towards magenta, and the chroma keep at least :data:`KEEP` of the median's."""

from __future__ import annotations

import sys
from functools import cache
from pathlib import Path

import numpy as np
import pytest
from helpers import through

from workbench.body.tone import lab
from workbench.render.scene import Model, load_clip

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(Path(__file__).resolve().parent), str(ROOT / "data")]
import make_review_sheets as sheets  # noqa: E402
from test_lip_colour_review_q import _mask  # noqa: E402

AC = sheets.review_settings(12, 4639)
DEEP = (4, 8)        # the reviewer's numbers (#N is AC[N - 1])
SIZE = 288           # the sheets' cell
PORTRAIT = next(v for v in sheets.VIEWS if v[0] == "portrait")
# The most the highlight's hue may turn from the T-zone's median towards magenta (degrees), and the least of the median's
# chroma it keeps. On main #4 -4.2 and 0.70, #8 -3.6 and 0.73 (white over brown); now -0.8 and 0.80, -1.6 and 0.83.
TURN, KEEP = 3.0, 0.77

pytestmark = pytest.mark.usefixtures("sheets_built_once")


def _hue(c: np.ndarray) -> float:
    return float(np.degrees(np.arctan2(c[2], c[1])))


@cache
def highlight(n: int) -> tuple[float, float]:
    """(hue turn in degrees, chroma kept) of #``n``'s T-zone's brightest tenth against its median, in our portrait."""
    s = {**AC[n - 1], "hair": {**AC[n - 1]["hair"], "style": "none"}, "glasses": "none"}
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(sheets, "VIEWS", (PORTRAIT,))
        avatar = sheets.Avatar(s)
        shot = np.asarray(sheets.shoot_ours([avatar], SIZE, "typical")[0][0].convert("RGB"), float) / 255
    glb = avatar.files[0]
    _, cam, _ = avatar.cameras[0]
    posed = Model(glb).posed(load_clip(glb), 0.0)
    tzone = through(posed, cam, SIZE, _mask(s["gender"], ("scalp",), keep="tzone"))
    colours = np.array([lab(p) for p in shot[tzone]])
    median = np.median(colours, axis=0)
    top = colours[colours[:, 0] >= np.percentile(colours[:, 0], 90)].mean(axis=0)
    return _hue(top) - _hue(median), float(np.hypot(*top[1:]) / np.hypot(*median[1:]))


def test_the_avatars_are_the_reviews():
    """#4 and #8 are review AC's deep tones (its sheets' seed 4639, data/make_review_sheets.review_settings)."""
    assert [AC[n - 1]["skinTone"] for n in DEEP] == ["#40281D", "#573B29"]


@pytest.mark.parametrize("n", DEEP)
def test_a_deep_forehead_has_no_grey_lilac_film(n):
    """The T-zone's highlight keeps the skin's hue (within TURN degrees towards magenta) and most of its chroma (KEEP):
    a warm-white reflection over brown skin, not a grey-lilac film."""
    turn, kept = highlight(n)
    assert turn >= -TURN and kept >= KEEP, (round(turn, 2), round(kept, 3))
