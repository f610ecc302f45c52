"""Blind review Q's hairlines (issue 46, seed 4627): #5's long hair, "a hard line on the forehead"; #1's crop, "a
hard hairline at the temples"; #9's bun, "a little low and flat". The issue asks for a hairline that fades into the
skin: fine hairs thinning over a few millimetres, along a line that is not ruled straight across the forehead.

Measured on each avatar's front portrait (512 px, the review's settings, :func:`workbench.render.render`'s
drawing): the hair per pixel is the difference from the same avatar drawn without hair (same camera, same
brows), over the column's full hair just above its hairline (0 skin, 1 hair). Across the forehead's columns:

- **the fade** (#1, #5): rows from the last with 90 % hair to the first with 10 % (median over the columns);
- **the line's shape**: the row where the hair falls under half, its spread over the columns (the 90th percentile
  less the 10th): a line ruled straight across the forehead spreads over a pixel or two.
"""

from functools import cache

import numpy as np
import pytest
from built import built_rest as build_avatar  # one build per run, no face shapes (tests/built.py)
from helpers import random_settings

from workbench.options import ModelOptions, normalize_avatar_settings
from workbench.render.framing import frame
from workbench.render.pictures import _posed
from workbench.render.raster import draw
from workbench.render.scene import Model

SIZE = 512
COLUMNS = (0.40, 0.60)          # the forehead's middle, between the brows' outer ends, share of the picture
# Rows, the fade's median (#1, #5; main 6 and 8, now 12 and 12) and the line's spread (#1, #5, #9; main 4, 3 and 3,
# now 9.8, 7 and 8). The bun's fade is not held longer (main 3, now 4): sleek hair's fade is review N's halo
# (tests/body/test_sleek_hairline_review_n.py, at most 5 rows; drawn out 1.25 times it measured 6 at 3/4).
# After blind review R (its "flat band of the hair's colour" under the crop and bob,
# tests/body/test_hairline_band_review_r.py): the scalp layer's forehead line is held back under the cards' roots and
# the fade past them is fine hairs on the skin (scalp.FRONT_HOLD, bald.front_hairs); a column between two of those
# hairs fades at once, and #1's median fade measured 9 (12 before, 6 before hairline27), its spread 7 (#5, long hair, is
# not held: as before). Drawn as single combed hairs, fainter further down (bald.strokes), #1's fade measures 15, its
# spread 7: the bound back at 10 (band28 had moved it to 9 for its dots).
LEAST_FADE = {1: 10.0, 5: 10.0}
LEAST_SPREAD = 6.0


@cache
def hair_of(index: int) -> np.ndarray:
    """(rows, columns) the hair's share per pixel in review Q's #``index``'s front portrait."""
    s = random_settings(12, 4627, with_added=True)[index - 1]
    bald = normalize_avatar_settings({**s, "hair": {**s["hair"], "style": "none"}})
    pictures = []
    cam = None
    # (Over a backdrop of the skin's colour: hair against the backdrop above the head differs from it as hair
    # against the forehead does.)
    skin = tuple(int(s["skinTone"][i: i + 2], 16) for i in (1, 3, 5))
    for settings in (bald, normalize_avatar_settings(s)):
        posed = _posed(Model(build_avatar(settings, ModelOptions(lod=0, animations=("idle",)))), "preview")
        cam = cam or frame(posed, "portrait")      # (framed on the bald head: the forehead where the face is)
        pictures.append(draw(posed, cam, SIZE, background=skin)[..., :3].astype(float))
    return np.abs(pictures[1] - pictures[0]).sum(-1)


def hairline(d: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(the fade's rows, the half-hair row) per forehead column of the difference ``d``."""
    fades, rows = [], []
    for x in range(int(SIZE * COLUMNS[0]), int(SIZE * COLUMNS[1])):
        col = d[: SIZE // 2, x]
        window = np.convolve(col > 0.5 * np.percentile(col, 90), np.ones(10) / 10, "valid")
        top = int(np.nonzero(window >= 0.9)[0].max()) + 10       # under the lowest ten rows of hair
        full = np.median(col[top - 10: top])
        h = np.clip(col / full, 0, 1)
        below = h[top - 4:]
        y90 = int(np.nonzero(below < 0.9)[0][0])
        y10 = int(np.nonzero(below < 0.1)[0][0])
        fades.append(y10 - y90)
        rows.append(top - 4 + int(np.nonzero(below < 0.5)[0][0]))
    return np.array(fades), np.array(rows)


# #1 short crop, #5 long, #9 bun.
@pytest.mark.parametrize("index", [1, 5, 9])
def test_the_hairline_fades_along_a_shaped_line(index):
    fades, rows = hairline(hair_of(index))
    fade = float(np.median(fades))
    spread = float(np.percentile(rows, 90) - np.percentile(rows, 10))
    assert fade >= LEAST_FADE.get(index, 0.0), (index, fade)
    assert spread >= LEAST_SPREAD, (index, spread)
