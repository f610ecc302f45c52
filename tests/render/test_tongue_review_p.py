"""The tongue in viseme_aa's opening (blind review P, worst defect 1: "the tongue is a rectangular slab with sharp
corners", seed 4626's #4, also #2, #5, #8 and #10, in every renderer).

Its lit front: our renderer's mouth close-up of viseme_aa (the review sheets' camera, data/make_review_sheets.py) on
review P's #4 and #10 (their bodies, faces and tones) and the default feminine face. The tongue's pixels are the Teeth
mesh's rows from TONGUE_V (workbench.body.mouth's layout) through the renderer's own drawing; its lit part (the pink;
deeper in, the texture turns it to the mouth's dark) those over LIT_SHARE of its brightest. Column by column, the top
of the lit part's outline: a slab's runs level to its ends, an arc's falls away from its middle. Its fall 0.75 of the
way out from the middle to either end, as a share of the half width (a circle's: 0.34), the lesser of the two sides."""

from __future__ import annotations

import sys
from functools import cache
from pathlib import Path

import numpy as np
import pytest
from helpers import random_settings
from scipy.ndimage import label
from test_mouth_renders import SIZE, painted

from workbench.body.mouth import TONGUE_V
from workbench.options.colour import LUMA
from workbench.render.pictures import SUPERSAMPLE
from workbench.render.raster import draw
from workbench.render.scene import Model, load_clip

ROOT = Path(__file__).resolve().parents[2]
#: Review P's #4 and #10 (seed 4626, as the sheets drew them; their hair, glasses and stance left out: none of them
#: reaches the mouth's inside) and the default feminine face.
FACES = {**{f"p{k}": random_settings(12, 4626, with_added=True)[k - 1] for k in (4, 10)}, "fem": {"gender": "feminine"}}
#: The least fall of the lit part's top outline 0.75 of the way out, as a share of the tongue's half width.
LIT = 0.105
#: Where the tongue counts as lit: over this share of its brightest (99th percentile) luminance.
LIT_SHARE = 0.5


@cache
def tongue(name: str) -> tuple[np.ndarray, np.ndarray]:
    """viseme_aa's close-up of face ``name``: the tongue's mask and the picture's luminance (0..255)."""
    sys.path[:0] = [str(ROOT / "data")]
    import make_review_sheets as sheets

    s = {**FACES[name], "hair": {"style": "none"}, "glasses": "none", "pose": "relaxed"}
    glb = sheets.with_weights(sheets._glb(s), {"viseme_aa": 1.0})
    _, cam = sheets.mouth_camera(glb)
    posed = Model(glb).posed(load_clip(glb), 0.0)
    lit = draw(posed, cam, SIZE, ss=SUPERSAMPLE)[..., :3].astype(float)

    def paint(d, colors):
        if d.mesh_name == "Teeth":
            colors[:, 0] = d.uv[:, 1] >= TONGUE_V

    return painted(posed, cam, paint)[..., 0] > 127, lit @ np.asarray(LUMA)


def fall(mask: np.ndarray, at: float = 0.5) -> float:
    """The lesser fall of ``mask``'s top outline 0.75 of the way out to either side, over its half width (pixels)."""
    labels, n = label(mask)
    mask = labels == 1 + int(np.argmax(np.bincount(labels[mask], minlength=n + 1)[1:]))
    cols = np.flatnonzero(mask.sum(0) > 3)
    left, right = int(cols.min()), int(cols.max())
    half, mid = (right - left) / 2, (left + right) / 2
    top = np.array([np.flatnonzero(mask[:, c])[0] if mask[:, c].any() else SIZE for c in range(SIZE)], float)
    centre = top[int(mid - 0.1 * half):int(mid + 0.1 * half) + 1].min()
    sides = [top[int(round(mid + k * at * half)) - 2:int(round(mid + k * at * half)) + 3].mean() for k in (-1, 1)]
    return float((min(sides) - centre) / half)


def lit_fall(name: str) -> float:
    """The fall of the top outline of the tongue's lit part (see the module)."""
    mask, lum = tongue(name)
    return fall(mask & (lum > LIT_SHARE * np.percentile(lum[mask], 99)), 0.75)


@pytest.mark.parametrize("name", FACES)
def test_the_tongue_lit_front_is_an_arc(name):
    """The fall over LIT. On main 0.082 to 0.093 (a level top edge to its rounded ends: the pink of a slab's front,
    turning dark at one distance behind the tip across the whole width); now 0.112 to 0.144 (dark from the tip's middle
    out, workbench.body.tongue.LIT_REACH)."""
    assert lit_fall(name) > LIT, lit_fall(name)
