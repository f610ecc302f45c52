"""The hairline as a person sees it (issue 36: "every hairline is a row of triangle notches with skin
showing through"), measured on renders through the GLB, and the portrait's margin over the hair.

The hair is the difference between the avatar drawn with its hair and without it, with one camera
(so brows, which follow the hair's colour, and skin cancel out): ``h`` per pixel, 0 skin to 1 hair.
Across the forehead, each column's hairline is the lowest row with ten rows of hair (mean ``h`` at
least 0.8) above it. Then:

- **no notch**: the hairline's row is above the median of the seven columns round it by at most
  :data:`NOTCH` pixels (a notch is a few columns wide; a parting's V, or a curve, is kept by the
  median; a lock falling lower over the forehead is no notch);
- **no gap**: in the band just above the hairline, no more than :data:`GAP` of the pixels are skin;
- **a fade**: the hair's edge is not a cut: in the eight rows under the line, more than :data:`FADE` pixels a column
  partly hair, on average.
"""

import itertools
from functools import cache
from unittest.mock import patch

import numpy as np
import pytest
from built import built_rest as built  # one build per run, no face shapes (tests/built.py)
from helpers import sweep

from workbench.body.hair import bald as bald_scalp
from workbench.body.hair.buzz import PAINTED
from workbench.gltf import build_avatar
from workbench.options import HAIR_STYLES, ModelOptions, normalize_avatar_settings
from workbench.render import render
from workbench.render.framing import frame
from workbench.render.pictures import _posed
from workbench.render.raster import draw
from workbench.render.scene import Model

STYLES = [s for s in HAIR_STYLES if s not in PAINTED]   # (styles with hair cards; a buzz cut is painted: test_buzz_review_o)
SIZE = 512
NOTCH = 4
GAP = 0.12
FADE = 0.7
GREEN = "#1FBF3A"


def settings(style, gender):
    return normalize_avatar_settings({"gender": gender, "hair": {"style": style, "color": GREEN}, "skinTone": "#E0AC8A"})


@cache
def bald_portrait(gender, lod):
    """(the front portrait's camera of the bald avatar, its picture): one per body and level, whichever style is
    drawn against it."""
    # (Without its stubble (bald.STUBBLE 0): the hair against the bare skin under it. Against a stubble drawn half in the
    # green hair's colour, as before blind review R (bald.GREY 0.5), the stubble's own fade below the crop's line stood
    # in for the hair's: hair pulled back sleek, whose line is the crop's over the forehead, read 1.0 to 2.7 there and
    # 0.12 to 0.34 against the bare skin (a cut's edge, blind review AP's "painted helmet"; its fine hairs, bald.SLEEK_HAIRS,
    # 0.82 to 2.0 now), and moving the line a few degrees moved its figure more than the edge changed.)
    with patch.object(bald_scalp, "STUBBLE", 0.0):
        bald_scalp.shaved.cache_clear()
        glb = build_avatar(settings("none", gender), ModelOptions(lod=lod))   # under a patch: its own build
    bald_scalp.shaved.cache_clear()
    bald = _posed(Model(glb), "preview")
    # Framed on the bald head: the hairline at the scale of a face, however much room the hair's volume
    # takes in its own portrait.
    cam = frame(bald, "portrait")
    return cam, draw(bald, cam, SIZE, background=(255, 255, 255))[..., :3].astype(float)


@cache
def hairness(style, gender, lod):
    """(h, the row of the brows' top) for the front portrait's camera of the bald avatar."""
    haired = _posed(Model(built(settings(style, gender), ModelOptions(lod=lod))), "preview")
    cam, b = bald_portrait(gender, lod)
    a = draw(haired, cam, SIZE, background=(255, 255, 255))[..., :3].astype(float)
    brows = np.nonzero(((b[..., 1] - b[..., 0]) > 20).any(1))[0]          # the green brows of the bald head
    return np.clip(np.abs(a - b).sum(-1) / 120, 0, 1), int(brows.min())


def hairline(h, start):
    rows, gaps, fades = [], [], []
    for x in range(int(SIZE * 0.34), int(SIZE * 0.66)):                   # the forehead, temple to temple
        col = h[:start, x]
        window = np.convolve(col, np.ones(10) / 10, "valid")
        full = np.nonzero(window >= 0.8)[0]
        y = full.max() + 10 if len(full) else 0
        rows.append(y)
        gaps.append(float((col[max(y - 12, 0): max(y - 2, 0)] < 0.2).mean()) if y > 2 else 0.0)
        fades.append(int(((col[y: y + 8] > 0.05) & (col[y: y + 8] < 0.95)).sum()))
    rows = np.array(rows)
    # (A single column is a strand's width, not a notch: each row is first its column's and its
    # neighbours' median.)
    line = np.median(np.lib.stride_tricks.sliding_window_view(np.pad(rows, 1, mode="edge"), 3), axis=1)
    median = np.median(np.lib.stride_tricks.sliding_window_view(np.pad(line, 3, mode="edge"), 7), axis=1)
    # A notch is skin reaching up into the hair (the line higher than round it); a lock falling lower
    # over the forehead is not one.
    return rows, (median - line).max(), np.array(gaps), np.array(fades)


# Every style, body and level of detail in the quick loop, their every pairing in the whole suite (helpers.sweep).
@pytest.mark.parametrize("style,gender,lod", sweep(itertools.product(STYLES, ["feminine", "masculine"], [0, 1, 2])))
def test_the_hairline_has_no_notch_and_no_gap(style, gender, lod):
    h, brows = hairness(style, gender, lod)
    rows, notch, gaps, fades = hairline(h, brows - 4)
    assert (rows > 0).all(), "a column of the forehead with no hair above it"
    assert notch <= NOTCH, (style, gender, lod, notch)
    assert gaps.max() <= 2 * GAP and gaps.mean() <= GAP / 2, (style, gender, lod, gaps.max(), gaps.mean())
    # (LOD 2's edge is its baked texture's cut.) Against the bare skin (bald_portrait): every style but those pulled
    # back 3.9 to 6.7, the sleek bun's and ponytail's 0.82 to 2.0 (their edge a cut on main, 0.12 to 0.34).
    if lod < 2:
        assert fades.mean() > FADE, (style, gender, lod, fades.mean())


def test_a_cut_edge_would_fail():
    """The measure sees what it is for: a hairline cut into triangle notches fails it."""
    h, brows = hairness("short", "feminine", 0)
    notched = h.copy()
    rows, *_ = hairline(h, brows - 4)
    for k, x in enumerate(range(int(SIZE * 0.34), int(SIZE * 0.66))):
        depth = 8 - abs(k % 12 - 6) * 4                # triangular teeth 12 columns apart, 8 px deep
        if depth > 0:
            notched[rows[k] - 10 - depth: rows[k], x] = 0
    assert hairline(notched, brows - 4)[1] > NOTCH


@pytest.mark.parametrize("style", STYLES)
def test_portraits_keep_a_margin_over_the_hair(style):
    """Front and back portraits leave the top rows clear: the hair, curls and bun included, is framed
    with a margin."""
    glb = built(settings(style, "masculine"), ModelOptions())
    for yaw in (0, 180):
        alpha = np.asarray(render(glb, size=256, camera="portrait", yaw_deg=yaw))[..., 3]
        assert (alpha[: int(256 * 0.02)] == 0).all(), (style, yaw)
        # Not framed far too wide (0.12 until the portrait kept framing.TOP_MARGIN, 0.10, over the hair: a bun's top
        # 0.12 to 0.13 under the edge now, curls' from behind too).
        assert (alpha[: int(256 * 0.16)] > 0).any(), (style, yaw)
