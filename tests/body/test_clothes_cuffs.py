"""The skin left out under a sleeve stays well inside it in the idle pose (blind review D: jagged cuffs; the
wrist turns in the cuff and the cut skin's edge showed below the cuff as a notch, the sleeve's inside seen
through it).

Measured as a viewer poses the model (the previews' idle pose): for every point of the body's cut (the body's
open edges) within 3 cm of the top's outside, the cloth point nearest it is at least ``DEPTH`` from the
sleeve's end along the cloth (the pattern's distance from that cut).
"""

from __future__ import annotations

import numpy as np
import pytest
from built import built_rest as build_avatar  # one build per run, no face shapes (tests/built.py)
from scipy.spatial import cKDTree

from workbench.body.outfit.pattern import SLEEVE_CUT, pattern
from workbench.options import ModelOptions, normalize_avatar_settings
from workbench.render.pictures import preview_pose
from workbench.render.scene import Model

DEPTH = 0.03
# (One build: on others the nearest cloth to the skin's cut at the wrist is the gathered cuff's edge, which hugs
# the wrist while the sleeve above it balloons out, or a cuff beside the hem where the hands hang by the hips:
# the measure cannot tell those from a cut showing below the cuff.)
CASES = [("feminine", "slim", "hoodie")]


def open_edge_points(draw) -> np.ndarray:
    _, first, weld = np.unique(np.round(draw.positions, 5), axis=0, return_index=True, return_inverse=True)
    t = first[weld.reshape(-1)][draw.tris]
    edges = np.sort(np.concatenate([t[:, [0, 1]], t[:, [1, 2]], t[:, [2, 0]]]), axis=1)
    pairs, count = np.unique(edges, axis=0, return_counts=True)
    return draw.positions[np.unique(pairs[count == 1])].astype(np.float64)


@pytest.mark.parametrize("gender,shape,top", CASES)
def test_the_skins_cut_stays_deep_in_each_sleeve_in_the_idle_pose(gender, shape, top):
    settings = normalize_avatar_settings({"gender": gender, "bodyShape": shape, "hair": {"style": "none"},
                                          "outfit": {"topStyle": top, "bottomStyle": "trousers"}})
    m = Model(build_avatar(settings, ModelOptions()))
    draws = {d.mesh_name: d for d in m.posed(*preview_pose(m)).draws}
    pat = pattern(top)
    shell = len(pat["vmap"])
    from_end = np.full(shell, np.inf)
    panel = pat["vmap"] < len(pat["from_cut"])
    from_end[panel] = pat["from_cut"][pat["vmap"][panel], SLEEVE_CUT]
    cut = open_edge_points(draws["Body"])
    dist, k = cKDTree(draws["Outfit_Top"].positions[:shell]).query(cut)
    under = k[dist < 0.03]
    assert len(under) > 20, len(under)
    assert from_end[under].min() >= DEPTH, round(float(from_end[under].min()), 4)
