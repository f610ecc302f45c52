"""No seam down the chin (blind review G #9: "the chin's left half darker and warmer than its right, with a hard
vertical line in the viseme and smile close-ups", S1#4, S3#10, S3#11, S3#12, strongest in our renderer).

A body is symmetric (every face target acts on both sides), its normals too; the baked occlusion was not: its voxel
grid looked each point up half a cell to the avatar's left, so the left half of the face came out lighter than the
right and the two met at the midline. Read through each vertex's UVs as a viewer reads them, the occlusion texture
over the lower face (chin, jaw, cheeks below the nose) matches at each vertex and its mirror image (MakeHuman's base
mesh is symmetric: the vertex at -x of each), on review G's four faces and random ones."""

from __future__ import annotations

from functools import cache

import numpy as np
import pytest
from helpers import random_settings
from scipy.spatial import cKDTree
from test_face_hollows import texels_at

from workbench.body import ao
from workbench.body import compile as cc
from workbench.body.mesh import body_mesh
from workbench.options import normalize_avatar_settings

# Review G's S1#4, S3#10, S3#11 (seed 4608: indices 3, 9, 10) and two random faces of the tests' own.
DRAWN = [random_settings(12, 4608)[k] for k in (3, 9, 10)] + random_settings(2, 5471)


@cache
def lower_face() -> tuple[np.ndarray, np.ndarray]:
    """The lower face's vertices on the avatar's left (x > 0 in the base mesh: below the nose, in front of the jaw's
    angles) and each one's mirror image."""
    d = cc.compiled()
    base, body = d["base"].astype(np.float64), cc.group(d, "body")
    _, j = cKDTree(base[body]).query(base[body] * [-1, 1, 1])
    left = (base[body, 0] > 0.005) & (base[body, 1] > 6.0) & (base[body, 1] < 6.7) & (base[body, 2] > 0.9)
    return body[left], body[j][left]


def _read(mesh, img: np.ndarray, ids: np.ndarray) -> np.ndarray:
    """The texture's red channel at the vertices ``ids``, 0..1."""
    return texels_at(mesh, img, ids)[:, 0] / 255.0


@pytest.fixture(scope="module")
def sides():
    """Per face, (left, right): the occlusion texture at the lower face's vertices and at their mirror images."""
    left, right = lower_face()
    out = []
    for s in DRAWN:
        m = body_mesh(normalize_avatar_settings(s))
        img = ao.occlusion_texture(m)
        out.append((_read(m, img, left), _read(m, img, right)))
    return out


def test_the_lower_face_is_as_open_on_both_sides(sides):
    """The left side no lighter nor darker than the right on average: within 0.006 (1.5 of 255 levels) on every face
    (now 0.002 at most; main 0.045 to 0.053 lighter on the left, a step a viewer's room light shows at the chin)."""
    means = [float(np.mean(a - b)) for a, b in sides]
    assert max(abs(v) for v in means) <= 0.006, np.round(means, 4)


def test_no_vertex_differs_much_from_its_mirror_image(sides):
    """At most a fifth of the lower face's vertices differ from their mirror images by over 0.03 (now 9 to 13 %: the
    texels nearest a vertex and its mirror image lie differently on the UVs; main 60 to 68 %)."""
    shares = [float(np.mean(np.abs(a - b) > 0.03)) for a, b in sides]
    assert max(shares) <= 0.2, np.round(shares, 3)

