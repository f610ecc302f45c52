"""Blind review AA's pulled-back styles (issue 46, seed 4637; its costliest defect, the "helmet hairline"): "bare
temples between the hair and the ear, and no sideburns ... a huge bald forehead and a receding look" (the ponytails #3
and #7, the bun #9, portraits). Hair pulled back covers the temple's corner and comes down in front of the ear.

Measured in the 3/4 portrait (yaw 35, 512 px, the idle clip's first frame as the previews draw it; glasses off, the
hair dark on a light skin, the same shapes), each avatar against the same head drawn bald and drawn with the short
crop: in the temple's box on the side turned to the camera (across, from the brows' outer end to the head's outline at
the brows' height; down, from :data:`UP` over the brows' height to :data:`DOWN` under it), the **bare area**: the
pixels within :data:`SHOWS` of the bald skin's colour (the channels' differences summed, 0 to 765), in square
millimetres (the brows' centimetre in the picture), and its ratio to the crop's on the same head. The crop's cards
hang over the temples and in front of the ears; the pulled-back line ran bare from the temple's corner back over the
ear. Main (AA#7, AA#9, Z#2, Z#10): 1.03, 1.07, 1.08, 1.07 of the crop's; now 0.85, 0.83, 0.87, 0.85: the bun's and
the ponytail's hairline (the scalp layer's edge and its wisps) comes down over the temples and in front of the ears
(:data:`workbench.body.hair.head.HAIRLINE`). docs/avatars.md, temples37. (Since pass 67 the crop's own temples and
sides come lower, its bare area a sixth less, and these lines stand at 0.99 to 1.03 of it: :data:`MOST_OF_CROP`.)
"""

from functools import cache

import numpy as np
import pytest
from built import built_rest as built  # one build per run, no face shapes (tests/built.py)
from helpers import random_settings

from workbench.options import ModelOptions, normalize_avatar_settings
from workbench.render.framing import frame
from workbench.render.pictures import _pivot, _posed, _turned
from workbench.render.raster import draw
from workbench.render.scene import Model
from workbench.render.stage import project

SIZE, YAW = 512, 35.0
SHOWS = 60.0
UP, DOWN = 0.035, 0.015
SEEDS = {"AA": 4637, "Z": 4636}
# The avatars (review, number) and their styles: review AA's ponytail #7 and bun #9, review Z's ponytail #2, bun #10.
SLEEK = {("AA", 7): "ponytail", ("AA", 9): "bun", ("Z", 2): "ponytail", ("Z", 10): "bun"}
LIGHT, DARK = "#F2D3BE", "#2A1A10"
# The bare area at the temple at most this share of the crop's on the same head. Main before temples37: 1.03 to 1.08 of
# the crop's of the day; after it 0.81 to 0.86. Pass 67 brought the crop's own temples and sides down (blind A/Bs of
# random crops: head.HAIRLINE): its bare area here 0.82 to 0.85 of what it was (AA#7 1,951 -> 1,617 mm2), the
# pulled-back lines' unchanged (1,087 to 1,667), 0.99 to 1.03 of the new crop's; temples37's defect would stand at 1.25
# to 1.31 of it.
MOST_OF_CROP = 1.1


def settings(review: str, index: int) -> dict:
    """The review's #``index`` (its sheets' draw, ``make_review_sheets.py --seed SEED``), glasses off, its hair
    :data:`DARK` on a :data:`LIGHT` skin."""
    s = random_settings(12, SEEDS[review], with_added=True, heads=True, features=True, palettes=True,
                        spread=True)[index - 1]
    return {**s, "glasses": "none", "skinTone": LIGHT, "hair": {**s["hair"], "color": DARK}}


@cache
def at_three_quarters(review: str, index: int) -> tuple[dict[str, np.ndarray], tuple[slice, slice], float]:
    """The avatar's 3/4 portraits by hair style (``none``, ``short`` and its own), framed on the bald one; the
    temple's box (rows, columns) and the picture's pixels a centimetre at the brows."""
    s = settings(review, index)
    out, cam, box, px_cm = {}, None, None, 0.0
    for style in ("none", "short", s["hair"]["style"]):
        posed = _posed(Model(built(normalize_avatar_settings({**s, "hair": {**s["hair"], "style": style}}),
                                   ModelOptions(lod=0, animations=("idle",)))), "preview")
        posed = _turned(posed, YAW, _pivot(posed))
        if cam is None:
            cam = frame(posed, "portrait")
            brows = np.concatenate([d.positions for d in posed.draws if d.mesh_name.startswith("Eyebrow")])
            c = brows.mean(0)
            body = np.concatenate([d.positions for d in posed.draws if d.mesh_name == "Body"])
            at = project(np.concatenate([brows, body, [c, c + [0, 0.01, 0]]]), cam, SIZE)[0]
            (cx, cy), (_, up) = at[-2], at[-1]
            px_cm = float(cy - up)
            # (the brows' outer end furthest from their middle in the picture: the side turned to the camera; the
            # head's outline on that side, at the brows' height)
            outer = at[:len(brows)][np.abs(at[:len(brows), 0] - cx).argmax()]
            side = np.sign(outer[0] - cx)
            near = (np.abs(body[:, 1] - c[1]) < 0.01) & (np.linalg.norm(body - c, axis=1) < 0.15)
            xs = at[len(brows):-2][near, 0]
            edge = xs[np.argmax(side * xs)]
            cols = sorted((int(round(outer[0])), int(round(edge))))
            box = (slice(int(round(cy - UP * 100 * px_cm)), int(round(cy + DOWN * 100 * px_cm))),
                   slice(cols[0], cols[1]))
        out[style] = draw(posed, cam, SIZE, background=(255, 255, 255))[..., :3].astype(float)
    assert box is not None
    return out, box, px_cm


def bare_mm2(review: str, index: int, style: str) -> float:
    """Square millimetres of the temple's box that ``style`` leaves at the bald skin's colour (see the module)."""
    pictures, box, px_cm = at_three_quarters(review, index)
    bare = np.abs(pictures[style][box] - pictures["none"][box]).sum(-1) <= SHOWS
    return float(bare.sum() * (10.0 / px_cm) ** 2)


def test_the_reviews_settings():
    """The avatars measured are the ones the reviews saw: their ponytails and buns."""
    assert {k: settings(*k)["hair"]["style"] for k in SLEEK} == SLEEK


@pytest.mark.parametrize("key", sorted(SLEEK))
def test_pulled_back_hair_leaves_the_temple_no_barer_than_a_crop(key):
    crop, own = bare_mm2(*key, "short"), bare_mm2(*key, SLEEK[key])
    assert crop > 500, crop              # (the box is on the temple: the crop leaves skin there too)
    assert own <= MOST_OF_CROP * crop, (key, SLEEK[key], round(own), round(crop), round(own / crop, 3))
