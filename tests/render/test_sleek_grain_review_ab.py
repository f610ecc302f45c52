"""Blind review AB's blond bun (issue 46, defect 3; seed 4638's #1, #B39879 on a masculine head, sheet 1 row 1, the
portrait 3/4): "the blond hair looks like wood grain or crumpled paper"; review AA said it of the sleek styles too
("coarse parallel streaks with stair-step banding, like wood veneer"). Drawn as the review's sheets draw it
(``data/make_review_sheets.py``, our renderer, the portrait at 35 degrees, the sheets' 288 px cell).

**Fine strands, not broad streaks.** Each sleek card's strands keep their places down the card and its locks their
shades, so a card drew streaks a few pixels apart, and where two cards cross, each a little askew of the other, one's
streaks met the other's along a jagged line. Measured over the sleek hair (our ``Hair_Sleek`` material on the same camera,
3 pixels in from its edge and from every other primitive's): CIE L* at the streaks' scale (its blur over the hair's pixels
alone by a Gaussian of 1 pixel, less its blur by one of 5), its standard deviation. On main 2854555c: #1 3.72, AA's
light brown ponytail #3 (#866D55) 2.64; the dark buns the reviews liked, AB's #8 (#2E2521) 0.90 and AA's #9 (#823B37)
1.97. With light sleek hair's locks evened across its cards to 0.4 of their spread
(:data:`workbench.body.hair.texture.LIGHT_EVEN`, :func:`workbench.body.hair.clumps.even_locks`): 3.32 and 2.12, the
dark ones unchanged. Their finer strands stay (review M's strands over slabs, tests/body/test_sleek_strands_review_m.py).
"""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from scipy import ndimage

from workbench.render.raster import draw
from workbench.render.scene import Material, Model, load_clip

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(Path(__file__).resolve().parent), str(ROOT / "data")]
import make_review_sheets as sheets  # noqa: E402
from test_hair_underlayer_review_l import lightness  # noqa: E402
from test_threejs_look import UNLIT  # noqa: E402

# The sheets' avatars from the run's shared builds (conftest.py's sheets_built_once).
pytestmark = pytest.mark.usefixtures("sheets_built_once")

SIZE = 288
FINE, STREAK = 1.0, 5.0
# The most spread of L* at the streaks' scale: review AB's blond bun #1 (main 3.72, now 3.32) and review AA's light brown
# ponytail #3 (main 2.64, now 2.12).
MOST = {(4638, 1): 3.5, (4637, 3): 2.2}


def _blur(x: np.ndarray, mask: np.ndarray, sigma: float) -> np.ndarray:
    """``x`` blurred over ``mask``'s pixels alone (a normalised convolution: no skin or backdrop bleeds in)."""
    return ndimage.gaussian_filter(x * mask, sigma) / np.maximum(ndimage.gaussian_filter(mask * 1.0, sigma), 1e-6)


def material_mask(glb: bytes, cam, size: int, name: str) -> tuple[np.ndarray, np.ndarray]:
    """(the pixels of material ``name``'s primitives, every other primitive's) in our renderer's drawing with ``cam``
    (the idle clip's first frame; whole cards, not cut by their alpha)."""
    posed = Model(glb).posed(load_clip(glb), 0.0)
    out = []
    for mine in (True, False):
        draws = [replace(d, uv=None, material=Material(
            color=np.array([1, 1, 1, 1] if (d.material.name == name) == mine else [0, 0, 0, 1], np.float32),
            specular=0.0, double_sided=d.material.double_sided)) for d in posed.draws]
        out.append(draw(replace(posed, draws=draws), cam, size, lights=UNLIT)[..., 0] > 127)
    return out[0], out[1]


def streaks(settings: dict) -> float:
    """L*'s standard deviation at the streaks' scale over the sleek hair in the portrait 3/4 (see the module's text)."""
    avatar = sheets.Avatar(settings)
    _, cam, _ = avatar.cameras[0]
    sleek, others = material_mask(avatar.glb, cam, SIZE, "Hair_Sleek")
    sleek &= ~others
    core = ndimage.binary_erosion(sleek, iterations=3)
    assert core.sum() > 500, int(core.sum())
    light = lightness(np.asarray(sheets.shoot_ours([avatar], SIZE, "")[0][0].convert("RGB")))
    detail = _blur(light, sleek, FINE) - _blur(light, sleek, STREAK)
    return float(detail[core].std())


@pytest.mark.parametrize("seed, index, hair", [(4638, 1, {"style": "bun", "color": "#B39879"}),
                                               (4637, 3, {"style": "ponytail", "color": "#866D55"})])
def test_light_sleek_hair_reads_as_fine_strands_not_wood_grain(monkeypatch, seed, index, hair):
    monkeypatch.setattr(sheets, "VIEWS", (("portrait 3/4", "portrait", 35.0, None),))
    s = sheets.review_settings(12, seed)[index - 1]
    assert s["hair"] == hair
    spread = streaks(s)
    assert spread <= MOST[seed, index], round(spread, 2)
