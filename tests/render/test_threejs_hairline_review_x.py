"""Blind review X's defect 8 in three.js (issue 46; seed 4634's #10, the pixie crop, the sheets' typical page: ACES
filmic, RoomEnvironment, 288 px cells): "the hairline turns into scratchy black stubble lines on the forehead".

**The hairline's wisps as hairs, not strokes.** The blended fringe's fine strands lying out over the forehead are cards
two or three pixels wide in the portrait; the browser's isotropic mip selection took the hair texture's coarse levels
for them, where a card's strands average into one grey stroke with the card's hard edges (our previews sample the full
image: a soft hairline). The fringe (``Hair_Fringe``) now samples the hair's image without mipmaps (a texture of its own
on the same image, ``minFilter`` LINEAR); the cards keep the smaller levels. Measured on the portrait: the dark
vertical strokes (pixels STROKE levels under their 9x9 median, in runs at least RUN tall and twice as tall as wide)
in the band from BAND[0] to BAND[1] pixels over the brows' top, across the brows: their total height, main 71.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest
from scipy import ndimage

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(Path(__file__).resolve().parent), str(ROOT / "data")]
import make_review_sheets as sheets  # noqa: E402
from test_threejs_aces_review_r import mesh_masks  # noqa: E402
from test_threejs_lashes_review_x import min_filters  # noqa: E402

# The worker's one three.js page and the run's shared builds, as the other three.js look files (suite34b).
pytestmark = pytest.mark.usefixtures("sheets_built_once", "sheets_page_once")

LUMA = np.array([0.2126, 0.7152, 0.0722])
CELL = 288
# Review X's #10 (sheet 3, row 2).
INDEX = 9
# Strokes: STROKE levels darker than the 9x9 median, RUN pixels tall or more, in the band BAND px over the brows.
STROKE, RUN, BAND = 8, 4, (50, 15)
# The most strokes' total height (main 71).
MOST = 45


def strokes(shot: np.ndarray, brows: np.ndarray) -> int:
    """The total height (pixels) of the dark vertical strokes in the band over ``brows`` (a mask) of ``shot`` (RGB)."""
    lum = shot @ LUMA
    dark = lum < ndimage.median_filter(lum, 9) - STROKE
    rows, cols = np.nonzero(brows)
    band = np.zeros_like(dark)
    band[rows.min() - BAND[0]: rows.min() - BAND[1], cols.min(): cols.max() + 1] = True
    labels, _ = ndimage.label(dark & band)
    tall = [s[0].stop - s[0].start for s in ndimage.find_objects(labels)]
    wide = [s[1].stop - s[1].start for s in ndimage.find_objects(labels)]
    return int(sum(h for h, w in zip(tall, wide, strict=True) if h >= RUN and h >= 2 * w))


@pytest.mark.slow
def test_the_hairline_reads_as_hairs_in_threejs(monkeypatch):
    monkeypatch.setattr(sheets, "VIEWS", (("portrait", "portrait", 0.0, None),))
    s = sheets.review_settings(12, 4634)[INDEX]
    assert (s["skinTone"], s["hair"]) == ("#F0C4B1", {"style": "short", "color": "#503E34"}), s
    avatar = sheets.Avatar(s)
    glb, (_, cam, _) = avatar.files[0], avatar.cameras[0]
    brows = mesh_masks(glb, cam, CELL)["Eyebrows"]
    assert brows.sum() > 200, int(brows.sum())
    shot = np.asarray(sheets.shoot_threejs([avatar], CELL, "typical")[0][0].convert("RGB"), float)
    drawn = strokes(shot, brows)
    assert drawn <= MOST, drawn
    # The fringe's strands from the full-size image, the cards' from the smaller levels too.
    filters = min_filters(avatar.glb)
    assert (filters["Hair"], filters["Hair_Fringe"]) == (9987, 9729), filters
