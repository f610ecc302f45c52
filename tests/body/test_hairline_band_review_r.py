"""Blind review R's hairline band (issue 46, seed 4628): #2's bob, "a green band of dyed 'scalp' shows on the forehead
below the fringe in every renderer"; #3's crop, "a flat grey band runs across the forehead at the hairline (the scalp
cap shows through)". On a head the skin under the hair's edge is skin: the hairline thins out in single fine hairs,
not in a band of the hair's colour.

Measured on each avatar's front portrait (512 px, the review's settings without glasses, :func:`workbench.render.render`'s
drawing), against the same avatar drawn bald (the skin there) and drawn with its cards alone (the ``Hair`` mesh's
triangles in the atlas's cards half, ``u`` under 0.5: not the scalp layer, :mod:`workbench.body.hair.texture`). In each column of the forehead's middle,
the band is the :data:`ROWS` rows just under the cards' lowest pixel; each pixel's **hair share** is how far its colour
has gone from the bald skin's towards the hair's (the cards' median colour over the forehead), 0 to 1. The band's mean
hair share was 0.52 (#2) and 0.46 (#3) on main: a tinted band of the hair's colour, half the way to the hair.

Fine hairs there must read as a hairline thinning out at a preview's size, not as dots: on the default avatars'
portraits (short dark brown hair on a medium skin), in the same rows, a **speck** is a pixel darker than its 5 x 5
neighbourhood's median by more than :data:`SPECK` levels of luma (0 to 255). The first fine hairs (short dashes from a
grain in space, 0.7 of the way from the skin to the hair's roots' colour) drew 103 and 83 specks there (feminine, masculine), a
stipple of dark dots like a hair transplant's or stubble; main's soft gradient none; single hairs combed down, fainter
further down, 3 and 2 (:func:`workbench.body.hair.bald.strokes`).
"""

from dataclasses import replace
from functools import cache

import numpy as np
import pytest
from built import built_rest as built  # one build per run, no face shapes (tests/built.py)
from helpers import random_settings
from scipy.ndimage import median_filter

from workbench.options import ModelOptions, normalize_avatar_settings
from workbench.options.colour import LUMA
from workbench.render.framing import frame
from workbench.render.pictures import _posed
from workbench.render.raster import draw
from workbench.render.scene import Model
from workbench.render.stage import project

SIZE = 512
COLUMNS = (0.42, 0.58)      # the forehead's middle, share of the picture's width
ROWS = 10                   # the band under the cards, rows of the 512 px portrait (2 mm or so)
SPAN = 6
# The band's mean hair share at most (main: #2 0.52, #3 0.46; the first fine hairs 0.24 and 0.18; now 0.28 and 0.28).
MOST = 0.3
SPECK = 20
MOST_SPECKS = 20        # (the first fine hairs 103 and 83, main 0 and 0, now 3 and 2)


@cache
def pictures(index: int | str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(bald, haired, where the cards are) in review R's #``index``'s front portrait (a gender: that default avatar's),
    framed on the bald head."""
    s: dict = random_settings(12, 4628, with_added=True)[index - 1] if isinstance(index, int) else {"gender": index}
    return drawn(s)


def brows_at(s: dict) -> tuple[float, float, np.ndarray]:
    """In the front portrait of settings ``s`` as :func:`drawn` frames it (the avatar bald, without glasses): the
    brows' mean row, the row a centimetre over it at the brows' depth, and each brow vertex's column."""
    bald = normalize_avatar_settings({**s, "glasses": "none", "hair": {**s["hair"], "style": "none"}})
    posed = _posed(Model(built(bald, ModelOptions(lod=0, animations=("idle",)))), "preview")
    cam = frame(posed, "portrait")
    brows = np.concatenate([d.positions for d in posed.draws if d.mesh_name.startswith("Eyebrow")])
    centre = brows.mean(0)
    (_, brow_row), (_, cm_up) = project(np.array([centre, centre + [0.0, 0.01, 0.0]]), cam, SIZE)[0]
    return brow_row, cm_up, project(brows, cam, SIZE)[0][:, 0]


def hair_edge(shows: np.ndarray, top: int, x: int) -> int:
    """The hair's lower edge in column ``x`` of ``shows`` (where the hair shows): going up from row ``top`` - 1 over
    the rows where it does not."""
    run = top - 1
    while run - 1 >= 0 and not shows[run - 1, x]:
        run -= 1
    return run


def drawn(s: dict) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(bald, haired, where the cards are) in the front portrait of settings ``s`` without glasses (as
    :func:`pictures`)."""
    s = {**s, "glasses": "none"}
    bald = normalize_avatar_settings({**s, "hair": {**s.get("hair", {}), "style": "none"}})
    out, cam = [], None
    for settings in (bald, normalize_avatar_settings(s)):
        posed = _posed(Model(built(settings, ModelOptions(lod=0, animations=("idle",)))), "preview")
        cam = cam or frame(posed, "portrait")
        out.append(draw(posed, cam, SIZE, background=(255, 255, 255))[..., :3].astype(float))
    assert cam is not None
    # The cards: where the avatar drawn with its cards alone differs from it drawn without any hair mesh.
    others = [d for d in posed.draws if not d.mesh_name.startswith("Hair")]
    cards = [replace(d, tris=d.tris[(d.uv[d.tris, 0] < 0.5).all(1)]) for d in posed.draws
             if d.mesh_name.startswith("Hair") and d.mesh_name != "Hair_Fringe" and d.uv is not None]
    with_cards, without = (draw(replace(posed, draws=ds), cam, SIZE, background=(255, 255, 255))[..., :3].astype(float)
                           for ds in (others + cards, others))
    return out[0], out[1], np.abs(with_cards - without).sum(-1) > 30


def under_the_cards(cards: np.ndarray) -> dict[int, int]:
    """Per column of the forehead's middle, the row of the cards' lower outline (``cards``: where they are)."""
    cols = range(int(SIZE * COLUMNS[0]), int(SIZE * COLUMNS[1]))
    lowest = np.array([int(np.nonzero(cards[: SIZE // 2, x])[0].max(initial=0)) for x in range(SIZE)])
    # (The cards' lower outline: the lowest card pixel within SPAN columns either side, so a gap between two spikes'
    # roots, where the scalp layer shows as the hair between them, is not taken for the band.)
    edges = {x: int(lowest[x - SPAN: x + SPAN + 1].max()) for x in cols}
    # (no column without cards: its band would be the picture's top rows, backdrop in both drawings, and pass unmeasured)
    assert min(edges.values()) > 20, min(edges.values())
    return edges


def band_share(index: int) -> float:
    """The mean hair share of the band under the cards across the forehead's middle (see the module's text)."""
    return share_under(*pictures(index))


def share_under(bald: np.ndarray, haired: np.ndarray, cards: np.ndarray) -> float:
    """:func:`band_share` of the pictures :func:`drawn` makes (bald, haired, where the cards are)."""
    edges = under_the_cards(cards)
    hair = np.median(np.concatenate([haired[max(e - 12, 0): e - 2, x] for x, e in edges.items()]), axis=0)
    shares = []
    for x, e in edges.items():
        skin = bald[e + 1: e + 1 + ROWS, x]
        towards = hair - skin
        shares.append(((haired[e + 1: e + 1 + ROWS, x] - skin) * towards).sum(-1) / np.maximum((towards ** 2).sum(-1), 1.0))
    return float(np.clip(np.concatenate(shares), 0, 1).mean())


# #2 bob (#5E9975 green on #A87D5B), #3 short crop (#919191 grey on #8F6744).
@pytest.mark.parametrize("index", [2, 3])
def test_no_band_of_the_hairs_colour_under_the_hair(index):
    share = band_share(index)
    assert share <= MOST, (index, share)


def specks(index: int | str) -> int:
    """The specks (see the module's text) in the band under the cards across the forehead's middle."""
    _, haired, cards = pictures(index)
    luma = haired @ LUMA
    dark = median_filter(luma, size=5) - luma
    return sum(int((dark[e + 1: e + 1 + ROWS, x] > SPECK).sum()) for x, e in under_the_cards(cards).items())


# The default avatars: short #2B1B10 hair on #C68642 skin.
@pytest.mark.parametrize("gender", ["feminine", "masculine"])
def test_the_default_avatars_fine_hairs_are_not_dots(gender):
    count = specks(gender)
    assert count <= MOST_SPECKS, (gender, count)
