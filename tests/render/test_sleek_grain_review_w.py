"""Blind review W's slicked-back buns (issue 46, defect 2, 3/10, seed 4633's low bun #6 and high bun #8: "looks like
carved wood grain (tan stripes outlined in brown)", sheet-02's portrait 3/4; wanted "fine strand texture").

Each card of the sleek cap lies flat over the cards rooted behind it, and where it comes out from under the card
combed over it its root end shows: a rounded end, narrow at the root and widening (``outline.ROOT_TAPER``), where
the card's strands have not begun yet (staggered over its first hundredths) and its dark core (0.6 of the light)
showed, with the core again at its edges where the strands gathered in towards its tip: a brown rim round each
card's end and along its sides at a portrait's size (/tmp/slick33's pictures). Now the sleek cards' strands cover
them to their outline and do not gather in, over a core at 0.85 of the light
(:data:`workbench.body.hair.clumps.COVER`), and the strands' own spread of shades makes the fine texture (a third of
them dark, their light 0.7 to 1.22, darker gaps: ``clumps.STRANDS``), so review M's strands-over-slabs measure holds
without the rims' help (tests/body/test_sleek_strands_review_m.py) and review G's locks still survive mipmaps.

Measured on the model as the service builds it (LOD 0): the sleek cards' material (``Hair_Sleek``), its base colour
texture's card columns (the atlas's left half, :data:`COLUMNS` columns, the first :data:`CLUMPS` the cards'
clumps): the darkest tenth (10th percentile) of the luma of the opaque texels (alpha at least half: the renderers'
cut) over the root end (the first :data:`ROOT` of the column) over the median over the middle (:data:`MIDDLE`), the
mean over the columns, at least :data:`LEAST_ROOT`: on main 0.675 / 0.669 (#6 / #8: one atlas, two colours), now
0.841 / 0.825.
"""

import io
from functools import cache

import numpy as np
import pytest
from built import built_rest as build_avatar  # one build per run, no face shapes (tests/built.py)
from helpers import random_settings
from PIL import Image

from workbench.gltf.glb import read_glb
from workbench.options import ModelOptions, normalize_avatar_settings

SEED = 4633
BUNS = (6, 8)
COLUMNS, CLUMPS = 8, 6
ROOT = 0.08
MIDDLE = (0.3, 0.7)
LEAST_ROOT = 0.8
LUMA = np.array([0.2126, 0.7152, 0.0722])


def settings(index: int) -> dict:
    """Avatar ``index`` (1-based) of review W's draw, as ``data/make_review_sheets.py`` draws it."""
    raw = random_settings(12, SEED, with_added=True, heads=True, features=True, palettes=True)[index - 1]
    assert raw["hair"]["style"] == "bun", raw["hair"]
    return normalize_avatar_settings(raw)


@cache
def sleek_texture(index: int) -> np.ndarray:
    """RGBA floats 0..1 of the base colour texture of avatar ``index``'s sleek cards, as its GLB carries it."""
    doc, binary = read_glb(build_avatar(settings(index), ModelOptions(lod=0, animations=("idle",))))
    mat = next(m for m in doc["materials"] if m.get("name") == "Hair_Sleek")
    texture = doc["textures"][mat["pbrMetallicRoughness"]["baseColorTexture"]["index"]]
    view = doc["bufferViews"][doc["images"][texture["source"]]["bufferView"]]
    start = view.get("byteOffset", 0)
    im = Image.open(io.BytesIO(binary[start:start + view["byteLength"]])).convert("RGBA")
    return np.asarray(im, float) / 255


def root_light(index: int) -> float:
    """The darkest tenth of the cards' root ends' luma over their middles' median (see the module's text), the mean
    over the clump columns."""
    tex = sleek_texture(index)
    h, w = tex.shape[:2]
    cw = w // 2 // COLUMNS
    ratios = []
    for c in range(CLUMPS):
        col = tex[:, c * cw:(c + 1) * cw]
        luma, opaque = col[..., :3] @ LUMA, col[..., 3] >= 0.5
        root, middle = slice(0, int(h * ROOT)), slice(int(h * MIDDLE[0]), int(h * MIDDLE[1]))
        ratios.append(np.percentile(luma[root][opaque[root]], 10) / np.median(luma[middle][opaque[middle]]))
    return float(np.mean(ratios))


@pytest.mark.parametrize("index", BUNS)
def test_sleek_cards_root_ends_are_not_outlined(index):
    ratio = root_light(index)
    assert ratio >= LEAST_ROOT, round(ratio, 3)
