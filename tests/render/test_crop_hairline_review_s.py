"""Blind review S's short crops (issue 46, seed 4629, #1 #463A33 on #D4A689 and #9 #A38E70 on #DCB59E), 4.5/10: "a
receding, see-through hairline with scalp showing at the temples ... read as thinning hair". The crop's cards rooted
inside 0.92 of its hairline, the scalp layer's fill (the roots' shade) was held back 0.09 hairlines (wandering by 0.08)
under them, and past them fine hairs were painted on the skin over some 1.7 cm (band28, after review R's "flat band of
dye"): the skin showed through the outer tenth of the hairline and the temples, under a long band of sparse hairs.

Measured in the 3/4 portrait (35 degrees, 512 px, the review's settings without glasses, the review sheets' drawing):
the **zone** is the skin from 0.8 to 1.0 of the crop's hairline as it was on main (:data:`LINE`, pinned here: a line
drawn higher again cannot pass), within :data:`FRONT` degrees of the face (the forehead and temples), found by drawing
the avatar without its hair with each skin vertex coloured by whether it lies in the zone. A zone pixel **shows the
scalp** where the hair's meshes bring its colour less than half the way from the skin's (the avatar drawn without them)
towards the hair's (the zone's median where the hair changes it). Main: #1 0.37, #9 0.46; now 0.09 and 0.13.
"""

from dataclasses import replace
from functools import cache

import numpy as np
import pytest
from built import built as build_avatar  # one build per run (tests/built.py)
from helpers import random_settings

from workbench.body.hair.head import head_of
from workbench.body.mesh import body_mesh
from workbench.options import ModelOptions, normalize_avatar_settings
from workbench.render.framing import frame
from workbench.render.pictures import _pivot, _posed, _turned
from workbench.render.raster import draw
from workbench.render.scene import Model

SEED = 4629
SIZE = 512
YAW = 35.0
# The short crop's hairline on main (polar degrees from the crown at these azimuths from the face).
LINE_AT = (0, 10, 22, 36, 50, 62, 72, 80, 86, 94, 104, 114, 126, 150, 165, 180)
LINE = (48, 47, 45, 43, 46, 56, 78, 90, 84, 74, 74, 84, 102, 117, 123, 126)
ZONE = (0.8, 1.0)
FRONT = 80.0
# The share of the zone showing the scalp at most (main: #1 0.37, #9 0.46; now 0.09 and 0.13).
MOST = 0.2


@cache
def scalp_showing(index: int) -> float:
    """The share of the zone's pixels showing the scalp in review S's #``index``'s 3/4 portrait (the module's text)."""
    s = {**random_settings(12, SEED, with_added=True)[index - 1], "glasses": "none"}
    assert s["hair"]["style"] == "short", s["hair"]
    settings = normalize_avatar_settings(s)
    model = Model(build_avatar(settings, ModelOptions(lod=0, animations=("idle",))))
    head = head_of(body_mesh(settings))
    zone = {}
    for i, d in enumerate(model.posed().draws):          # (the bind pose: the skin where the head's angles are made)
        if d.mesh_name == "Body":
            az, pol = head.angles(d.positions.astype(np.float64))
            v = pol / np.interp(np.abs(az), LINE_AT, LINE)
            zone[i] = ((v >= ZONE[0]) & (v <= ZONE[1]) & (np.abs(az) <= FRONT)).astype(np.float32)
    posed = _posed(model, "preview")
    posed = _turned(posed, YAW, _pivot(posed))
    cam = frame(posed, "portrait")
    bare = [i for i, d in enumerate(posed.draws) if not d.mesh_name.startswith("Hair")]

    def drawn(draws) -> np.ndarray:
        return draw(replace(posed, draws=draws), cam, SIZE, background=(255, 0, 255))[..., :3].astype(float)

    def flagged(value: float | None) -> np.ndarray:
        """The hairless avatar in white where the zone is (``value`` None), else everywhere ``value`` on the skin."""
        draws = []
        for i in bare:
            d = posed.draws[i]
            n = len(d.positions)
            flag = np.zeros(n, np.float32) if i not in zone else zone[i] if value is None else np.full(n, value, np.float32)
            colors = np.column_stack([flag, flag, flag, np.ones(n, np.float32)])
            material = replace(d.material, texture=None, color=np.ones(4, np.float32), normal=None, occlusion=None)
            draws.append(replace(d, material=material, colors=colors))
        return draw(replace(posed, draws=draws), cam, SIZE, background=(0, 0, 0))[..., :3].astype(float).sum(-1)

    black = flagged(0.0)
    white = flagged(1.0) - black
    region = ((flagged(None) - black) > 0.5 * white) & (white > 60)
    haired, skin = drawn(posed.draws), drawn([posed.draws[i] for i in bare])
    hair = np.median(haired[region & (np.abs(haired - skin).sum(-1) > 60)], axis=0)
    assert np.isfinite(hair).all(), "no hair drawn in the zone (a hairline risen out of it)"
    towards = hair - skin
    share = ((haired - skin) * towards).sum(-1) / np.maximum((towards ** 2).sum(-1), 1.0)
    assert region.sum() > 2000, region.sum()
    return float((region & (share < 0.5)).sum() / region.sum())


@pytest.mark.parametrize("index", [1, 9])
def test_the_crop_is_full_at_the_front_and_temples(index):
    share = scalp_showing(index)
    assert share <= MOST, (index, share)
