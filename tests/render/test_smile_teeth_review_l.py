"""The smile's upper teeth as blind review L saw them (defect 5: "every mouthSmile: the teeth one white bar with a pink
fringe"), in our renderer's front close-up of the mouth (test_mouth_renders.closeup's camera) with mouthSmile at full
weight, on seed 4622's faces the reviewer saw (#5, light skin, and #7, dark).

A smile shows the upper row from its gum about half way down to its biting edge (the lower lip covers the rest, with
the biting edge's embrasures): within that window, each gap between two front teeth must show as a dark mark, not a
hairline, so the row reads as teeth (workbench.body.teeth_crowns.neck). Which pixels show which part of the teeth is
read from test_teeth_review_k.uv_map (u along the arch from the middle line, v from the gum down to the biting
edge)."""

from __future__ import annotations

import numpy as np
import pytest
from helpers import random_settings
from test_mouth_renders import closeup
from test_teeth_review_k import LUMA, uv_map

from workbench.body import mouth
from workbench.gltf import build_avatar
from workbench.options import ModelOptions, normalize_avatar_settings

FACES = {k: random_settings(12, 4622)[k - 1] for k in (5, 7)}
# The rows looked at: v from the gum line between two teeth (e = 0.82 of the row's height from its edge, mouth.UPPER_GUM)
# to 0.07 (e 0.65): the upper third of what the smile shows of the row.
ROWS = ((1 - mouth.UPPER_GUM[0]) * mouth.UPPER_EDGE, 0.07)


@pytest.fixture(scope="module", params=sorted(FACES), ids=lambda k: f"avatar{k}")
def gaps(request) -> list[float]:
    """For one face: at each of the middle line and the next two gaps out (central to lateral incisor, lateral
    incisor to canine; both sides pooled, the layout being mirrored), the median luminance of the pixels within 0.006
    of the gap's u in ROWS, as a share of the median of the pixels on the faces beside it (within 0.02 of each
    neighbouring tooth's middle, same rows)."""
    s = {**FACES[request.param], "hair": {"style": "none"}, "glasses": "none"}
    glb = build_avatar(normalize_avatar_settings(s), ModelOptions(lod=0, animations=("idle",)))
    morphs = {"mouthSmile": 1.0}
    lit, _ = closeup(glb, s["gender"], morphs)
    u, v = uv_map(glb, morphs)
    lum = lit @ LUMA
    rows = (v >= ROWS[0]) & (v <= ROWS[1])
    w = np.asarray(mouth.UPPER_TEETH)
    ends = np.concatenate([[0.0], np.cumsum(w) / w.sum()])
    middles = (ends[:-1] + ends[1:]) / 2
    out = []
    for k in range(3):
        gap = rows & (np.abs(u - ends[k]) < 0.006)
        face = rows & np.any([np.abs(u - middles[j]) < 0.02 for j in (k - 1, k) if j >= 0], axis=0)
        out.append(float(np.median(lum[gap]) / np.median(lum[face])))
    return out


def test_the_smiles_upper_teeth_are_parted_by_dark_gaps(gaps):
    """Each of the three gaps under 0.7 of the faces beside it. On main 0.77 to 0.97 (a hairline of the enamel's
    grey: one white bar); now ..."""
    assert max(gaps) < 0.7, gaps
