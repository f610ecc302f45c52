"""The mouth's lining meets the lips' inner edge lip-coloured and lit all round, the corners too (issue 46, blind
review G: "the interior of the open mouth has jagged black polygon edges at the corners", avatars 1 and 5 of seed
4608 in mouthOpen and viseme_aa).

The lining's shading (its red and throat colour, workbench.body.skin; its baked occlusion, workbench.body.ao) ramps
with :func:`workbench.body.mouth.lining_depth`. Measured from the lips' front, the corners, 15 mm behind the middle,
started that ramp part way down: the lining met the lips there already dark, a hard step drawn along the corners'
triangles. Here the ramp's start is read where the lining meets the lips, all along the edge."""

from __future__ import annotations

from functools import cache

import numpy as np
import pytest
from helpers import random_settings

from workbench.body.ao import LINING_DARK, _smoothstep
from workbench.body.mesh import body_mesh
from workbench.body.mouth import lining_depth, lining_triangles
from workbench.options import normalize_avatar_settings

# Review G's avatars 1 and 5 (seed 4608), and the reference faces.
FACES = {"G1": random_settings(12, 4608)[0], "G5": random_settings(12, 4608)[4],
         "feminine": {"gender": "feminine"}, "masculine": {"gender": "masculine", "bodyShape": "heavy"}}


@cache
def edge_depth(face: str) -> tuple[np.ndarray, np.ndarray]:
    """(x of each vertex where the lining meets the lips, its lining depth in metres)."""
    m = body_mesh(normalize_avatar_settings(FACES[face]))
    tris = m.triangles[m.face_groups["body"]]
    inside = np.zeros(len(tris), bool)
    inside[lining_triangles(m)] = True
    edge = np.intersect1d(tris[inside], tris[~inside])
    return m.positions[edge, 0], lining_depth(m)[edge]


@pytest.mark.parametrize("face", FACES)
def test_lining_starts_at_the_lips_all_round(face):
    x, depth = edge_depth(face)
    corners = np.abs(x - np.median(x)) > 0.6 * np.abs(x - np.median(x)).max()
    assert corners.sum() >= 4
    # Not darker at the corners than at the middle: the occlusion's darkening (1 at the lips) is even along the edge.
    lit = 1 - LINING_DARK * _smoothstep(0.003, 0.03, depth)
    assert float(lit.max() - lit.min()) < 0.01, f"{face}: the lining at the corners is {lit[corners].min():.2f} lit"
    assert float(depth.max()) < 5e-4, f"{face}: the lining meets the lips {depth[corners].max() * 1000:.1f} mm in"
