"""Hair cards' shading normals follow the cards' own facing (workbench.body.hair.cards.facing): a normal
that leans off its triangle faces away from a viewer who sees the triangle's front at a slant, and
three.js 0.183's anisotropic highlight draws such pixels black where they also face away from its
directional light (docs/looks_random_threejs.png showed it on curls and card edges)."""

import numpy as np
import pytest

from workbench.body import hair
from workbench.body.hair.cards import face_normals
from workbench.options import HAIR_STYLES

from helpers import body_of

STYLES = [s for s in HAIR_STYLES if s != "none"]


def corner_angles(piece) -> np.ndarray:
    """Degrees between each triangle corner's shading normal and the triangle's own (wound) normal."""
    f = face_normals(piece.positions.astype(np.float64), piece.indices)
    n = piece.normals[piece.indices].astype(np.float64)
    n /= np.linalg.norm(n, axis=2, keepdims=True)
    return np.degrees(np.arccos(np.clip(np.einsum("tkc,tc->tk", n, f), -1, 1)))


@pytest.mark.parametrize("style", STYLES)
def test_hair_normals_face_the_way_their_triangles_do(style):
    p = hair.hair_pieces(body_of(), style, 0)
    for name in ("Hair", "Hair_Fringe"):
        a = corner_angles(p[name])
        # Within a few degrees of it (the curve of a card between its rows); the volume normals the cards
        # had were 17 to 55 degrees off at the median, 27 to 83 at the 90th percentile.
        assert np.median(a) < 10, (style, name, np.median(a))
        assert np.percentile(a, 90) < 20, (style, name, np.percentile(a, 90))
