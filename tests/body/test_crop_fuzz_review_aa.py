"""Blind review AA's pale fuzz band (issue 46, seed 4637, defects 1 and 9): #11's short crop, bleached hair #BA9F7C on a
deep skin #6B4C33: "a pale skin-coloured fuzz band between the hair and the dark forehead (s3/r3/c4-5, stronger in
three.js) ... Fix: tint the hairline fuzz to match the hair colour".

The crop's hairline fades in fine hairs painted on the skin (:func:`workbench.body.hair.bald.front_hairs`), in the skin
texture every renderer reads. Measured in the front portrait (512 px, glasses off, as review R's band,
:mod:`test_hairline_band_review_r`) drawn without the hair's meshes (the skin with its fine hairs) against the avatar
drawn bald: over the forehead's middle columns, from the picture's top to over the brows, the **fuzz** is the pixels
where the two differ by more than :data:`TINT` (the sum of the three channels' differences, 0 to 765). Its mean colour's
move from the bald skin's (CIELAB) is set against the move to the hair's (the cards' median colour in the haired
picture, as review R's band takes it): its **lightness share** how far its L* has gone towards the hair's, its **hue
share** how far its a*, b* have. A fine hair of the hair's colour moves both alike; on main each stroke was the skin
lightened towards its own hue (dark hair's rule, :data:`workbench.body.hair.bald.HAIRS_SHARE` of the way to
:data:`~workbench.body.hair.bald.HAIRS_ROOT` of the hair's colour): L* share 0.44, hue share 0.42, the fuzz 5.7 L* over the
skin. Now light hair's strokes are its own colour at about the skin's lightness (:data:`~workbench.body.hair.bald.LIGHTER`):
L* share 0.34, hue share 0.89, 3.9 L* over the skin.
"""

from dataclasses import replace
from functools import cache

import numpy as np
from built import built_rest as built  # one build per run, no face shapes (tests/built.py)
from helpers import random_settings
from test_hairline_band_review_r import COLUMNS, SIZE, drawn, under_the_cards

from workbench.body.tone import lab
from workbench.options import ModelOptions, normalize_avatar_settings
from workbench.render.framing import frame
from workbench.render.pictures import _posed
from workbench.render.raster import draw
from workbench.render.scene import Model

TINT = 12.0
# The fuzz's hue share at least this many times its lightness share (main 0.95: the skin lightened; now 2.6).
LEAST_HUE = 1.5
# ...and its lightness over the skin at most (L*; main 5.7, now 3.9).
MOST_LIGHTER = 4.8


def review_aa(index: int) -> dict:
    """Review AA's #``index`` (its sheets' draw: ``make_review_sheets.py --seed 4637``)."""
    return random_settings(12, 4637, with_added=True, heads=True, features=True, palettes=True, spread=True)[index - 1]


def _lab(pixels: np.ndarray) -> np.ndarray:
    return np.array([lab(c) for c in np.asarray(pixels, float).reshape(-1, 3) / 255.0])


@cache
def fuzz(index: int) -> tuple[float, float, float]:
    """(lightness share, hue share, L* over the skin) of the fine hairs' fuzz over #``index``'s forehead."""
    s = {**review_aa(index), "glasses": "none"}
    bald, haired, cards = drawn(s)
    edges = under_the_cards(cards)
    hair = _lab(np.median(np.concatenate([haired[max(e - 12, 0): e - 2, x] for x, e in edges.items()]), axis=0))[0]
    posed = _posed(Model(built(normalize_avatar_settings(s), ModelOptions(lod=0, animations=("idle",)))), "preview")
    bald_posed = _posed(Model(built(normalize_avatar_settings({**s, "hair": {**s["hair"], "style": "none"}}),
                                    ModelOptions(lod=0, animations=("idle",)))), "preview")
    cam = frame(bald_posed, "portrait")
    skin_only = draw(replace(posed, draws=[d for d in posed.draws if not d.mesh_name.startswith("Hair")]), cam, SIZE,
                     background=(255, 255, 255))[..., :3].astype(float)
    cols = slice(int(SIZE * COLUMNS[0]), int(SIZE * COLUMNS[1]))
    shows = np.abs(skin_only - bald).sum(-1) > TINT
    shows[:, :cols.start] = shows[:, cols.stop:] = False
    shows[SIZE // 3:] = False                          # (the forehead: over the brows)
    assert shows.sum() > 300, shows.sum()
    fuzz_lab, skin_lab = _lab(skin_only[shows]).mean(0), _lab(bald[shows]).mean(0)
    light = (fuzz_lab[0] - skin_lab[0]) / (hair[0] - skin_lab[0])
    towards = hair[1:] - skin_lab[1:]
    hue = float((fuzz_lab[1:] - skin_lab[1:]) @ towards / (towards @ towards))
    return float(light), hue, float(fuzz_lab[0] - skin_lab[0])


def test_review_aa_settings():
    """The avatar measured is the one review AA saw: its light crop on deep skin."""
    s = review_aa(11)
    assert (s["hair"], s["skinTone"]) == ({"style": "short", "color": "#BA9F7C"}, "#6B4C33")


def test_light_hairs_fuzz_takes_the_hairs_colour():
    light, hue, lighter = fuzz(11)
    assert light > 0.0 and hue >= LEAST_HUE * light, (light, hue, lighter)


def test_light_hairs_fuzz_is_not_a_pale_band():
    light, hue, lighter = fuzz(11)
    assert lighter <= MOST_LIGHTER, (light, hue, lighter)
