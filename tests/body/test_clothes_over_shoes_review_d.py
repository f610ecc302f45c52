"""Trousers over shoes (blind review D, S2#8: the laces and tongue poked up through both trouser legs): every
point of a shoe (its upper, sole, tongue and laces) that stands higher than the trouser leg's hem on its side
stays inside the leg, in the idle pose and in every frame of every clip, as a viewer poses the model.

Measured as tests/body/test_clothes_in_clips.py measures skin under the clothes: at rest, each shoe point more
than 1 cm above its leg's lowest hem point, within 5 cm of the leg's outside, is judged against the tangent
planes of its 3 nearest points of the leg's outside (not its rolled hem and facings), as they move; it must stay
behind one of them (by ``TOLERANCE`` at most in a clip; behind them at rest).
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
import pytest
from built import built_rest as build_avatar  # one build per run, no face shapes (tests/built.py)
from helpers import worst_outside
from scipy.spatial import cKDTree

from workbench.body.outfit.pattern import pattern
from workbench.gltf.clips import DURATIONS
from workbench.options import ANIMATIONS, ModelOptions, normalize_avatar_settings
from workbench.render.scene import Model

TOLERANCE = 0.002
FRAMES = 4
# Review D's S2#8 (feminine, slim, 181.5 cm, boots), and other builds with each shoe.
CASES = [("feminine", "slim", 181.5, "boots"), ("masculine", "slim", 175.0, "sneakers"),
         ("masculine", "heavy", 196.6, "boots"), ("feminine", "average", 160.0, "sneakers")]


@lru_cache(maxsize=1)
def model(gender, shape, height, shoes) -> Model:
    settings = normalize_avatar_settings({"gender": gender, "bodyShape": shape, "height": height, "hair": {"style": "none"},
                                          "outfit": {"topStyle": "tee", "bottomStyle": "trousers", "shoeStyle": shoes}})
    return Model(build_avatar(settings, ModelOptions(animations=ANIMATIONS)))


def under_the_hem(legs, shoe) -> tuple[np.ndarray, np.ndarray]:
    """The shoe's points (a Draw at rest) higher than their side's hem, near the trouser leg (a Draw at rest,
    its outside: its first ``shell`` vertices): their indices and, for each, its 3 nearest leg points."""
    shell = len(pattern("trousers")["vmap"])
    leg, at = legs.positions[:shell].astype(np.float64), shoe.positions.astype(np.float64)
    middle = float(np.median(leg[:, 0]))
    hem = {s: float(leg[np.sign(leg[:, 0] - middle) == s, 1].min()) for s in (-1, 1)}
    high = at[:, 1] > np.where(at[:, 0] > middle, hem[1], hem[-1]) + 0.01
    dist, k = cKDTree(leg).query(at, k=3)
    keep = np.flatnonzero(high & (dist[:, 0] < 0.05))
    return keep, k[keep]


@pytest.mark.parametrize("gender,shape,height,shoes", CASES)
def test_the_shoes_stay_inside_the_trouser_legs_in_every_clip(gender, shape, height, shoes):
    from workbench.render.pictures import _closest_gender_clip

    m = model(gender, shape, height, shoes)
    rest = {d.mesh_name: d for d in m.posed().draws}
    idx, near = under_the_hem(rest["Outfit_Bottom"], rest["Outfit_Footwear"])
    # (Boots rise well above the hem; a sneaker's top may stay under it, and then nothing can poke through.)
    assert len(idx) > (20 if shoes == "boots" else -1), len(idx)
    at_rest = worst_outside(rest["Outfit_Footwear"].positions[idx].astype(np.float64), rest["Outfit_Bottom"], near)
    assert at_rest <= 0.0, at_rest
    bad = []
    for name in ANIMATIONS:
        clip = _closest_gender_clip(m, name)
        for t in DURATIONS[name] * np.arange(FRAMES) / FRAMES:
            draws = {d.mesh_name: d for d in m.posed(clip, float(t)).draws}
            w = worst_outside(draws["Outfit_Footwear"].positions[idx].astype(np.float64), draws["Outfit_Bottom"], near)
            if w > TOLERANCE:
                bad.append((name, round(float(t), 2), round(w, 4)))
    assert not bad, bad
