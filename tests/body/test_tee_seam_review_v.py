"""Blind review V's tee seams (defect 8): "dark drawn seam lines on tee sides (sheet-01 #2 three-quarter)"; wanted
"no drawn outlines".

Every garment's seam was drawn as a groove 34 % darker than the cloth beside it, with a groove 1.2 mm deep in its
normals: right for a denim's or a fleece's felled seam, but a tee's jersey is sewn with a fine overlock that shows as
a slight crease, and its sides read as lines drawn in ink. A jersey's seam is now 22 % darker, half as deep and with
no pale topstitch beside it (``SOFT_SEAMS``): still a seam a full figure shows (review F's 20 %,
tests/body/test_clothes_detail.py), no longer an outline. Measured on the tee's texture as every renderer draws it:
its shade on the seams' lines (texels within half a texel of them) over the cloth's 6 to 10 texels off (main 0.662,
34 % darker; now 0.782), and its trim (the paler thread's share beside a seam: main 0.45; now none, only the
heather's 0.06).
"""

from __future__ import annotations

from workbench.body.outfit.cloth import CLOTH_SIZE, seam_distances, shading, trim
from workbench.body.outfit.pattern import pattern

LIGHTEST_INK = 0.75   # a seam's shade over the cloth's: at least this (main: the tee's 0.662)


def seam_ratio(name: str) -> float:
    texel = float(pattern(name)["uv_scale"]) / CLOTH_SIZE
    d = seam_distances(name, CLOTH_SIZE) / texel
    shade = shading(name)
    return float(shade[d < 0.5].mean() / shade[(d > 6) & (d < 10)].mean())


def test_a_tees_side_seams_are_a_crease_not_an_ink_line():
    assert seam_ratio("tee") >= LIGHTEST_INK, round(seam_ratio("tee"), 3)
    assert trim("tee").max() < 0.2, float(trim("tee").max())     # main: a topstitch at 0.45
