"""The smile's corners shaded as a soft fold, not a knife cut (issue 46, blind review P's defect 5: "the corners end in
hard, dark, knife-cut creases").

``mouthSmile`` keeps the lips closed at each corner (:data:`workbench.body.expressions.CORNER_SEAL`) while it draws the
corner 8 mm out and up: the lips' meeting line there is pulled into a fold a fraction of a millimetre across, and the
smile's normals (:data:`workbench.body.face.SHADED`), recomputed from that fold, turn from facing up to facing down within
a vertex or two. Every viewer then drew it as a line one or two pixels wide, as dark as the mouth's inside, running out
to each corner. :func:`soft_corners` evens those normals along the lips' meeting line near each corner
(:func:`seam_share`), each towards the mean of the skin's within a 3 mm ball, so the fold's shade spreads over the
millimetres a real one does; the shape's positions stay as they are (tests/render/test_smile_corners_review_p.py).

>>> round(SOFT_RADIUS * 1000, 1), SOFT_ROUNDS
(14.0, 3)
"""

from __future__ import annotations

from functools import lru_cache
from itertools import chain

import numpy as np
from scipy.spatial import cKDTree

from . import sets

__all__ = ["REST_SHARE", "SEAM", "SOFT_BALL", "SOFT_RADIUS", "SOFT_ROUNDS", "rest_normals", "rest_normals_of", "seam_share",
           "soft_corners"]

# The radius (metres on the reference face) round each mouth corner over which the smile's normals are evened: all of
# the evening to half of it, none from SOFT_RADIUS on (a smooth falloff between).
SOFT_RADIUS = 0.014
# How many rounds of evening, and the radius (metres on the reference face) of the ball each normal is evened over.
SOFT_ROUNDS = 3
SOFT_BALL = 0.003
# How far from the lips' inner edge (metres on the reference face) the normals are evened: the lips' meeting line and
# the skin folded into it, not the corner's cheek (whose light follows its shape: tests/body/test_smile_shading.py).
SEAM = 0.006
# The rest face's corners too (blind review AA's defect 4, lips38: "hard pointed corners" on all twelve faces at rest):
# MakeHuman's lips meet at each corner in a fin of tiny triangles, lit as a bright wedge under a dark line one or two
# pixels wide that ran out to a knife point in every portrait. The rest's normals there are evened as the smile's are,
# by this share of :func:`seam_share`, so the corner reads as a soft shaded tuck (tests/render/test_lip_corners_review_aa.py).
REST_SHARE = 1.0


def seam_share(m) -> np.ndarray:
    """Per vertex of body ``m`` (a BodyMesh, rest places), how much of :func:`soft_corners`' evening it gets: 1 along
    the lips' inner edge (within SEAM of it) to half of SOFT_RADIUS from a corner (the edge's ends across), falling to
    0 at SOFT_RADIUS; 0 elsewhere. Both distances scale with the face (the eyes' distance apart)."""
    from .expressions import EYES_APART
    from .mouth import lining_triangles

    tris = m.triangles[m.face_groups["body"]]
    lining = np.zeros(len(tris), bool)
    lining[lining_triangles(m)] = True
    edge = m.positions[sets.intersection(tris[lining], tris[~lining])].astype(np.float64)
    unit = np.linalg.norm(m.positions[m.groups["helper-l-eye"]].mean(0) - m.positions[m.groups["helper-r-eye"]].mean(0)) \
        / EYES_APART
    corners = edge[[np.argmin(edge[:, 0]), np.argmax(edge[:, 0])]]
    p = m.positions.astype(np.float64)
    d = np.min(np.linalg.norm(p[:, None, :] - corners[None, :, :], axis=2), axis=1) / (SOFT_RADIUS * unit)
    t = np.clip(2.0 - 2.0 * d, 0.0, 1.0)
    share = t * t * (3 - 2 * t)
    some = np.flatnonzero(share > 0)     # (the rest are 0 whatever their distance from the edge)
    share[some[cKDTree(edge).query(p[some])[0] > SEAM * unit]] = 0.0
    return share


def soft_corners(positions: np.ndarray, tris: np.ndarray, normals: np.ndarray, share: np.ndarray,
                 ball: float = SOFT_BALL) -> np.ndarray:
    """``normals`` (V, 3, unit length, of a shape of the skin ``tris`` whose rest places are ``positions``) evened
    where ``share`` (V,: :func:`seam_share`) is over 0: moved towards the mean of the skin's normals within ``ball``
    (metres) by that share, SOFT_ROUNDS times; unit length again.

    >>> p = np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0], [1, 1, 0]], float) * 0.001
    >>> n = np.array([[0, 0, 1], [0, 1, 0], [0, 0, 1], [0, 0, 1]], float)
    >>> out = soft_corners(p, np.array([[0, 1, 2], [1, 3, 2]]), n, np.array([0.0, 1.0, 0.0, 0.0]))
    >>> bool(out[1, 2] > 0.5), bool(np.allclose(np.linalg.norm(out, axis=1), 1))   # the odd normal turned back
    (True, True)
    """
    near = sets.intersection(np.flatnonzero(share > 0), tris)
    out = normals.astype(np.float64).copy()
    if not len(near):
        return out
    # The mean over a ball of the skin round each vertex (by place, not by the mesh's rings: the corners' triangles
    # are a tenth of a square millimetre, and rings of them reach too short a way).
    # (The balls are the rest's, the same each round: looked up once. Their means are summed a member at a time over
    # all the balls together, in each ball's order, as ``ndarray.mean(0)`` sums one ball's rows: the same bits as the
    # mean per vertex, which was 0.1 s of a build in Python.)
    skin = sets.unique(tris)
    # (The skin within a ball of the evened vertices' box only: the tree over it finds the same members, in the same
    # order, the indices' as the whole skin's tree sorts them.)
    lo, hi = positions[near].min(0) - 1.01 * ball, positions[near].max(0) + 1.01 * ball
    skin = skin[np.all((positions[skin] >= lo) & (positions[skin] <= hi), axis=1)]
    rows = cKDTree(positions[skin]).query_ball_point(positions[near], ball)
    count = np.fromiter(map(len, rows), np.intp, len(rows))
    member = skin[np.fromiter(chain.from_iterable(rows), np.intp, int(count.sum()))]
    start = np.cumsum(count) - count
    for _ in range(SOFT_ROUNDS):
        mean = out[member[start]]
        for k in range(1, int(count.max())):
            more = np.flatnonzero(count > k)
            mean[more] += out[member[start[more] + k]]
        mean /= count[:, None]
        out[near] += share[near][:, None] * (mean - out[near])
        out[near] /= np.maximum(np.linalg.norm(out[near], axis=1, keepdims=True), 1e-12)
    return out


def rest_normals(m) -> np.ndarray:
    """Body ``m``'s own normals (a BodyMesh's, V x 3) with the corners' evened (:func:`soft_corners` by
    :data:`REST_SHARE` of :func:`seam_share`): the rest face's, which the expressions' normal deltas start from
    (workbench.body.face) and the GLB's Body carries (workbench.gltf.meshes)."""
    from .expressions import EYES_APART
    from .mouth import lining_triangles

    tris = m.triangles[m.face_groups["body"]]
    lining = np.zeros(len(tris), bool)
    lining[lining_triangles(m)] = True
    unit = float(np.linalg.norm(m.positions[m.groups["helper-l-eye"]].mean(0)
                                - m.positions[m.groups["helper-r-eye"]].mean(0))) / EYES_APART
    out = soft_corners(m.positions, tris[~lining], m.normals, REST_SHARE * seam_share(m), SOFT_BALL * unit)
    return out.astype(np.float32)


@lru_cache(maxsize=4)
def rest_normals_of(key: tuple) -> np.ndarray:
    """:func:`rest_normals` of the body keyed ``key`` (:func:`workbench.body.mesh.body_key`), read-only, made once for the
    model's Body piece (workbench.gltf.meshes) and its shapes' normal deltas (workbench.body.face) alike."""
    from .mesh import body_of

    out = rest_normals(body_of(key))
    out.setflags(write=False)
    return out
