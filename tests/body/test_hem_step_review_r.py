"""A top's hem and a skirt move as one piece in the idle stance, not in two halves (blind review R, seed 4628's #9:
a longsleeve over a skirt, relaxed stance: "back view: the sweater's back hem has a visible step or notch, and the
skirt has an offset vertical seam below it. Should be: a continuous hem with the garments nested without gaps").

Over the seat's cleft the skin's weights turn from one thigh to the other within a centimetre, and a garment's
points took their nearest skin's: the stance, which sets the thighs apart, moved the two halves of the back apart
(#9's sweater's hem 0.6 cm up on one side of the back's middle and 1.8 cm down on the other, within a few
millimetres; its skirt's hem 1.6 cm up and 2.4 cm down, 3 cm apart). Behind the hips the cloth's left and right leg
weights are now evened out towards the middle (``Style.across``, ``workbench.body.outfit.pattern.across_the_middle``).

Measured on the review sheets' avatars (tests/built.sheet_glb: the idle clip's first frame against the bind pose):
the steepest rise or fall the stance gives the hem, between hem points up to 4 cm apart (:func:`hem_slope`, metres
a metre; figures at :data:`SLOPE`)."""

from __future__ import annotations

from functools import cache

import numpy as np
import pytest
from built import sheet_glb
from helpers import random_settings
from scipy.spatial import cKDTree

from workbench.body.outfit.pattern import pattern
from workbench.render.scene import Model, load_clip

# Review R's avatars in skirts (tests/helpers.random_settings(12, 4628, with_added=True)): #9, a longsleeve
# (relaxed stance), and #3, a hoodie (hands clasped).
AVATARS = {"R9": random_settings(12, 4628, with_added=True)[8], "R3": random_settings(12, 4628, with_added=True)[2]}
# The steepest the hem may rise or fall in the stance (metres a metre along it; main: tops 0.75 and 2.05, skirts 0.85
# and 1.27; now 0.28 and 0.22, 0.57 and 0.40), between points NEAR of each other and counted at least SHORTEST apart
# (metres: the skirt's hem points lie some 3 cm apart at the back).
SLOPE = {"Outfit_Top": 0.4, "Outfit_Bottom": 0.65}
NEAR = 0.04
SHORTEST = 0.01


def test_the_avatars_are_reviews_own():
    r9, r3 = AVATARS["R9"]["outfit"], AVATARS["R3"]["outfit"]
    assert (r9["topStyle"], r9["bottomStyle"], r9["top"], AVATARS["R9"]["pose"]) == ("longsleeve", "skirt", "#96803C",
                                                                                      "relaxed")
    assert (r3["topStyle"], r3["bottomStyle"]) == ("hoodie", "skirt")


@cache
def moved(name: str) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """Per garment piece, its pattern's points in the bind pose and how far the stance moved each up (metres; NaN
    off the piece)."""
    glb = sheet_glb(AVATARS[name])
    model = Model(glb)
    rest, posed = model.posed(), model.posed(load_clip(glb), 0.0)
    out = {}
    for piece in ("Outfit_Top", "Outfit_Bottom"):
        vmap = pattern(style_of(name, piece))["vmap"]
        a, b = ([d for d in p.draws if d.mesh_name == piece][0].positions[:len(vmap)] for p in (rest, posed))
        at, up = np.full((int(vmap.max()) + 1, 3), np.nan), np.full(int(vmap.max()) + 1, np.nan)
        at[vmap], up[vmap] = a, b[:, 1] - a[:, 1]
        out[piece] = at, up
    return out


def style_of(name: str, piece: str) -> str:
    return AVATARS[name]["outfit"]["topStyle" if piece == "Outfit_Top" else "bottomStyle"]


def hem_slope(name: str, piece: str) -> float:
    """The steepest rise or fall the stance gives the hem: of two hem points within :data:`NEAR` of each other in the
    bind pose, the largest difference in how far it moved them up over their distance (at least :data:`SHORTEST`:
    a step of 2 cm over a few points a millimetre apart counts as over a centimetre)."""
    pat = pattern(style_of(name, piece))
    hem = np.flatnonzero(pat["from_cut"][:, 0 if piece == "Outfit_Top" else -1] < 1e-6)
    at, up = moved(name)[piece]
    assert len(hem) > 40 and not np.isnan(up[hem]).any(), len(hem)
    pairs = cKDTree(at[hem]).query_pairs(NEAR, output_type="ndarray")
    i, j = hem[pairs[:, 0]], hem[pairs[:, 1]]
    return float((np.abs(up[i] - up[j]) / np.maximum(np.linalg.norm(at[i] - at[j], axis=1), SHORTEST)).max())


@pytest.mark.parametrize("piece", ["Outfit_Top", "Outfit_Bottom"])
@pytest.mark.parametrize("name", sorted(AVATARS))
def test_a_hem_moves_in_one_piece_in_the_stance(name, piece):
    slope = hem_slope(name, piece)
    assert slope <= SLOPE[piece], f"{name}'s {piece}: its hem rises {slope:.2f} m a metre along it"
