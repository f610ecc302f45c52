"""Review R's ponytail (issue 46, defect 2: "The ponytail is one flat, wide ribbon (see the 3/4 portrait and the
back view). Should be: a round, layered ponytail"; ponytail 3.5 of 10), measured on the tail's own cards
(:func:`workbench.body.hair.canon.fitted`'s extra piece, as the avatar fits them) of seed 4628's #4 (a heavy
feminine body) and seed 4627's #6 and #11 (review Q's ponytails), in the tail's own frame: across its line
(:func:`workbench.body.hair.tail.tail_line`, :func:`~workbench.body.hair.tail.frames`) from :data:`ROWS`\\ [0] to
:data:`ROWS`\\ [1] of its 60 points (its length past the tie's turn and before its tips).

- *Round, not a sheet*: the cards' facing about the tail's line. Each clump of the old tail was a ring of cards round
  its own line, off the tail's middle, so a card faced any way (out of its clump: as often sideways or in towards the
  tail's middle as out of the tail), and the tail shaded as one flat strip of mixed facings. A round tail's cards face
  out from its line, fanned round it in layers. The share of the card area off its middle (further than
  :data:`OFF_MIDDLE` of its radius from the line) facing within :data:`WITHIN` degrees of straight out from the line
  is at least :data:`LEAST_FACING` (main: 0.445-0.481 at LOD 0, 0.486 at LOD 1; now 0.709-0.827 and 0.835).
- *As deep as it is wide*: the spread of its cards across the line side to side and front to back (their 3rd to 97th
  percentile, every :data:`STEP` metres along it): the narrower at least :data:`LEAST_ROUND` of the wider, so it is
  never a ribbon seen from one side and a rope from the other. Main's mesh was not flat where the tail is full (0.8 to
  1.0 over its first 12 cm) but drew in front to back lower down, near the back (#6: 0.59 at its least; #4 0.72, #11
  0.68); now 0.63 (#6), 0.85 (#4), 0.80 (#11): a guard that main misses by a little, not the defect's measure.
"""

from functools import cache

import numpy as np
import pytest
from helpers import random_settings

from workbench.body.hair import cards
from workbench.body.hair.bake import hair_head
from workbench.body.hair.canon import fitted
from workbench.body.hair.tail import frames, tail_line
from workbench.body.mesh import body_mesh
from workbench.options import normalize_avatar_settings

CASES = ((4628, 4, 0), (4628, 4, 1), (4627, 6, 0), (4627, 11, 0))
ROWS = (7, 50)
OFF_MIDDLE = 0.4
WITHIN = 30.0
LEAST_FACING = 0.65
STEP = 0.03
LEAST_ROUND = 0.6


@cache
def tail_cards(seed: int, index: int, lod: int):
    """Seed ``seed``'s avatar ``index`` (1-based) at ``lod``: its tail's triangles (T, 3, 3), its line (60, 3), the
    line's radius (60,) and frames."""
    s = normalize_avatar_settings(random_settings(12, seed, with_added=True)[index - 1])
    assert s["hair"]["style"] == "ponytail"
    mesh = body_mesh(s)
    o = s["outfit"]
    head = hair_head(mesh, o["topStyle"], o["bottomStyle"])
    tail = cards.piece(mesh, head, fitted(mesh, "ponytail", lod, head).extra[0], sort=False)
    line, radius = tail_line(head, 60)
    return tail.positions.astype(np.float64)[tail.indices], line, radius, frames(line)


def facing_out(seed: int, index: int, lod: int) -> float:
    """The share of the tail's card area off its middle facing within WITHIN degrees of out from its line."""
    tris, line, radius, (t, _, _) = tail_cards(seed, index, lod)
    mid = tris.mean(1)
    n = np.cross(tris[:, 1] - tris[:, 0], tris[:, 2] - tris[:, 0])
    area = np.linalg.norm(n, axis=1)
    n /= np.maximum(area, 1e-20)[:, None]
    k = np.linalg.norm(mid[:, None] - line[None], axis=2).argmin(1)
    out = mid - line[k]
    out -= np.sum(out * t[k], 1)[:, None] * t[k]
    dist = np.linalg.norm(out, axis=1)
    keep = (dist > OFF_MIDDLE * radius[k]) & (k >= ROWS[0]) & (k <= ROWS[1])
    facing = np.abs(np.sum(n * out, 1)) / np.maximum(dist, 1e-12) >= np.cos(np.radians(WITHIN))
    return float(np.average(facing[keep], weights=area[keep]))


def roundness(seed: int, index: int, lod: int) -> list[float]:
    """Every STEP metres along the tail: its cards' spread front to back over side to side (the narrower over the
    wider), from points over each triangle."""
    tris, line, _, (_, e1, e2) = tail_cards(seed, index, lod)
    w = np.array([(a, b, 1 - a - b) for a in np.linspace(0, 1, 7) for b in np.linspace(0, 1, 7) if a + b <= 1])
    p = np.einsum("kj,tjc->tkc", w, tris).reshape(-1, 3)
    k = np.linalg.norm(p[:, None] - line[None], axis=2).argmin(1)
    arc = np.r_[0.0, np.cumsum(np.linalg.norm(np.diff(line, axis=0), axis=1))]
    rel = p - line[k]
    a, b = np.sum(rel * e1[k], 1), np.sum(rel * e2[k], 1)
    out = []
    for at in np.arange(arc[ROWS[0]], arc[ROWS[1]], STEP):
        near = np.abs(arc[k] - at) < STEP / 3
        wa, wb = (np.ptp(np.percentile(v[near], [3, 97])) for v in (a, b))
        out.append(min(wa, wb) / max(wa, wb))
    return out


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c[0]}-{c[1]}-lod{c[2]}")
def test_the_tails_cards_face_out_round_it(case):
    share = facing_out(*case)
    assert share >= LEAST_FACING, f"{case}: {share:.3f} of the tail's card area faces out from its line"


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c[0]}-{c[1]}-lod{c[2]}")
def test_the_tail_is_as_deep_as_it_is_wide(case):
    ratios = roundness(*case)
    assert min(ratios) >= LEAST_ROUND, f"{case}: depth against width along the tail {np.round(ratios, 2).tolist()}"
