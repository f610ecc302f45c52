"""No notch at the upper lip's border's middle in the smile (issue 46, blind review N's mouthSmile note: "Three.js and
model-viewer show a V-notch highlight in the middle of the upper lip", seed 4624's #12, and #1 and #5 beside it).

Measured on the body mesh (metres, facing +z) at rest and with mouthSmile's sum of shapes at full weight
(tests/helpers.smile_mouth), by the skin's vertex normals (the triangles' normals weighted by area, as glTF viewers
and the GLB's normals shade the surface). On the face's middle, from 3 mm over the lips' meeting line to 3 mm over
the upper lip's border (workbench.body.lip_heights.lip_borders), each vertex's normal's up component less the mean
of its neighbours' 1.2 to 2.8 mm either side at its height: the jump across the middle. The smile's crease along
the border left the middle vertex facing up between sides facing forward, a strip lit from above (on main c194428:
#12 0.57 against 0.08, a jump of 0.49; #1 0.64, #5 0.46; at rest 0.12, 0.22, 0.14; with lip_lift.border_even 0.06,
0.29, 0.14)."""

from __future__ import annotations

import numpy as np
import pytest
from helpers import random_settings, smile_mouth

from workbench.body.lip_heights import lip_borders

# Review N's faces (seed 4624, drawn as data/make_review_sheets.py --count 12 draws them).
FACES = {f"n{k}": random_settings(12, 4624)[k - 1] for k in (12, 1, 5)}
# The most the middle may face up past its sides, smiling (main 0.46 to 0.64; with the border evened 0.06 to 0.29).
MAX_JUMP = 0.35


def _normals(p: np.ndarray, tris: np.ndarray) -> np.ndarray:
    """Area-weighted vertex normals of ``tris`` over positions ``p``."""
    f = np.cross(p[tris[:, 1]] - p[tris[:, 0]], p[tris[:, 2]] - p[tris[:, 0]])
    n = np.zeros_like(p)
    for j in range(3):
        np.add.at(n, tris[:, j], f)
    return n / np.maximum(np.linalg.norm(n, axis=1, keepdims=True), 1e-12)


def _jumps(p: np.ndarray, q: np.ndarray, tris: np.ndarray, corners: np.ndarray) -> list[float]:
    """The jumps (see the module's text) of positions ``q`` on the mesh whose rest positions are ``p``."""
    mid, line, back = p[corners].mean(0)
    top = line + lip_borders(p, tris, (p[corners[0]], p[corners[1]]))[0]
    up = _normals(q, tris)[:, 1]
    skin = np.unique(tris)
    skin = skin[p[skin, 2] > back + 0.002]
    off = np.abs(p[skin, 0] - mid)
    middle = skin[(off < 0.0005) & (p[skin, 1] > line + 0.003) & (p[skin, 1] < top + 0.003)]
    sides = skin[(off > 0.0012) & (off < 0.0028)]
    out = []
    for v in middle:
        near = sides[(np.abs(p[sides, 1] - p[v, 1]) < 0.001) & (np.abs(p[sides, 2] - p[v, 2]) < 0.003)]
        if len(near):
            out.append(float(up[v] - up[near].mean()))
    return out


@pytest.fixture(scope="module", params=list(FACES), ids=str)
def jumps(request) -> tuple[list[float], list[float]]:
    """(at rest, smiling) the jumps across the face's middle on one face."""
    _, rest, smiling, tris, _, corners = smile_mouth(FACES[request.param])
    return _jumps(rest, rest, tris, corners), _jumps(rest, smiling, tris, corners)


def test_the_border_is_measured(jumps):
    """The band holds the border's middle: at least one vertex with neighbours either side."""
    assert jumps[0] and len(jumps[0]) == len(jumps[1])


def test_no_notch_at_the_upper_lips_middle_in_the_smile(jumps):
    """Smiling, no vertex on the face's middle faces up more than MAX_JUMP past its sides."""
    assert max(jumps[1]) <= MAX_JUMP, (np.round(jumps[0], 2).tolist(), np.round(jumps[1], 2).tolist())
