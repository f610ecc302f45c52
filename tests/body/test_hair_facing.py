"""Hair cards' shading normals (workbench.body.hair.cards): each leans from its card's own facing towards the
hair's volume normal by at most ``cards.LEAN`` degrees, so neighbouring cards, each rising off the head at its
own slope, shade as one surface (their own facings made the hair's highlight a patchwork of flakes), while a
normal stays near enough its triangle that it faces the viewer wherever the triangle's front does but at a
grazing slant. (three.js r182 and r183 draw an anisotropic pixel black where its normal faces away from both
the viewer and a punctual light: three.js issue 33201, fixed in r184 by PR 33205.)"""

import numpy as np
import pytest
from helpers import body_of
from scipy.spatial import cKDTree

from workbench.body import hair
from workbench.body.hair import cards, look
from workbench.body.hair.buzz import PAINTED
from workbench.body.hair.cards import face_normals
from workbench.options import HAIR_STYLES

STYLES = [s for s in HAIR_STYLES if s not in PAINTED]   # (styles with hair cards; a buzz cut is painted: test_buzz_review_o)


def corner_angles(piece) -> np.ndarray:
    """Degrees between each triangle corner's shading normal and the triangle's own (wound) normal."""
    f = face_normals(piece.positions.astype(np.float64), piece.indices)
    n = piece.normals[piece.indices].astype(np.float64)
    n /= np.linalg.norm(n, axis=2, keepdims=True)
    return np.degrees(np.arccos(np.clip(np.einsum("tkc,tc->tk", n, f), -1, 1)))


@pytest.mark.parametrize("style", [s for s in STYLES if look.ANISOTROPY[s] is not None])
def test_hair_normals_lean_little_off_their_triangles(style):
    """(Not curls': their material is not anisotropic, and their coils' normals turn round each coil, a
    quarter turn a quad, so they shade round; tests/body/test_hair_review_c.py.)"""
    p = hair.hair_pieces(body_of(), style, 0)
    for name in ("Hair", "Hair_Fringe"):
        a = corner_angles(p[name])
        # The lean, plus the bend of a card between its rows.
        assert np.median(a) < cards.LEAN, (style, name, np.median(a))
        assert np.percentile(a, 95) < cards.LEAN + 15, (style, name, np.percentile(a, 95))


@pytest.mark.parametrize("style", ["short", "long", "bob"])
def test_neighbouring_cards_shade_as_one_surface(style):
    """Vertices of different cards within 4 mm of each other: their shading normals differ by much less
    than their cards' own facings do (which is what the leaning is for; with LEAN = 0 it fails)."""
    m = body_of()
    piece = hair.hair_pieces(m, style, 0)["Hair"]
    pos = piece.positions.astype(np.float64)
    own = np.zeros_like(pos)
    f = face_normals(pos, piece.indices)
    for k in range(3):
        np.add.at(own, piece.indices[:, k], f)
    own /= np.maximum(np.linalg.norm(own, axis=1, keepdims=True), 1e-12)
    # Cards: connected runs of vertices (two a row); the scalp layer left out (its normals are the skin's).
    card = cards_of(piece)
    pairs = cKDTree(pos).query_pairs(0.004, output_type="ndarray")
    pairs = pairs[(card[pairs[:, 0]] != card[pairs[:, 1]]) & (card[pairs[:, 0]] >= 0) & (card[pairs[:, 1]] >= 0)]
    assert len(pairs) > 1000

    def spread(n):
        return np.degrees(np.arccos(np.clip(np.sum(n[pairs[:, 0]] * n[pairs[:, 1]], axis=1), -1, 1)))

    shading = piece.normals.astype(np.float64)
    assert np.median(spread(shading)) < 0.6 * np.median(spread(own)), (np.median(spread(shading)),
                                                                         np.median(spread(own)))


def cards_of(piece) -> np.ndarray:
    """Each vertex's connected part of the piece (its card), -1 for the scalp layer's (u in the atlas's right half)."""
    import scipy.sparse as sp
    from scipy.sparse.csgraph import connected_components

    t = piece.indices
    n = len(piece.positions)
    g = sp.coo_matrix((np.ones(t.size), (np.repeat(t[:, 0], 3), t.reshape(-1))), shape=(n, n))
    _, label = connected_components(g + g.T, directed=False)
    return np.where(piece.uv[:, 0] > 0.5, -1, label)
