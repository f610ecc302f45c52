"""The jaw's lower edge shaded as a soft turn into the neck's shade, not a seam (issue 46, blind review X's defect 9: "a
dark line under the chin in sheet-01-ours #1, #2 and sheet-03-ours #12 ... Should be: smooth normals across the
head-neck seam").

The line is neither a seam of the mesh (the skin is one surface, its normals welded across MakeHuman's UV islands),
nor the skin's texture, nor its occlusion map: drawn in one flat colour with neither map, the portrait keeps it. It is
the chin's own turn: from the front the camera sees the last few millimetres of the jaw rounding under (its normals
facing down, away from a key light above), and just under it the front of the neck, facing the light again, as lit as
the face (no viewer casts the jaw's shadow on the neck, and ours casts no shadows at all). A strip a pixel or two high,
darker than the skin on both sides of it, reads as a seam. :func:`under_jaw` marks the skin of the jaw's underside and
a band round it (the chin's rounding above, the neck's top below); :func:`soft_jaw` evens the normals there, each
towards the mean of the skin's within a :data:`JAW_BALL` ball (:func:`workbench.body.corner_shade.soft_corners`), so
the rounding turns a little towards the light and the neck under it a little away: the strip becomes a soft shade
from the jaw's edge down the neck, which is how a jaw shades its throat. The skin's positions, and so the jaw's
outline, stay as they are.

>>> round(JAW_BALL * 1000, 1), round(JAW_BAND * 1000, 1)
(20.0, 20.0)
"""

from __future__ import annotations

import numpy as np
from scipy.spatial import cKDTree

from .corner_shade import soft_corners
from .expressions import EYES_APART, inner_corners, smoothstep
from .mesh import BodyMesh
from .mouth import lining_depth

__all__ = ["JAW_BALL", "JAW_BAND", "soft_jaw", "under_jaw"]

# The jaw's underside: skin facing down by more than UNDER (its normal's y), from BELOW_MOUTH under the mouth's
# corners to BELOW_EYES under the eyes' middle (past any chin), no nearer the lips' meeting line than MOUTH_CLEAR (the
# lower lip's roll and the skin beside the corners also face down; none of the evening within half of it),
# no wider than JAW_HALF either side of the face's middle (not the ear lobes), and in front of the ears (FRONT_OF_EARS
# before the eyes' depth: not the skull's base over the nape). Metres on the reference face.
UNDER = 0.5
BELOW_MOUTH = 0.02
BELOW_EYES = 0.16
MOUTH_CLEAR = 0.03
JAW_HALF = 0.06
FRONT_OF_EARS = 0.09
# The face's skin over the jaw's edge is evened as it turns under: none facing down by FACING[0] or less (its normal's
# y), all from FACING[1] on.
FACING = (0.25, 0.45)
# The evening falls from all of it on the underside to none JAW_BAND from it; each normal evened over a ball of
# JAW_BALL (metres on the reference face).
JAW_BAND = 0.02
JAW_BALL = 0.02


def under_jaw(m: BodyMesh) -> np.ndarray:
    """Per vertex of body ``m`` (rest places), how much of :func:`soft_jaw`'s evening it gets: 1 on the jaw's
    underside (see the module's constants), falling to 0 at :data:`JAW_BAND` from it, on the skin turning under and
    the neck's under it; 0 elsewhere. Every distance scales with the face (the eyes' distance apart)."""
    p = m.positions.astype(np.float64)
    right, left = (p[m.groups[f"helper-{s}-eye"]].mean(0) for s in "rl")
    unit = float(np.linalg.norm(left - right)) / EYES_APART
    eyes = (left + right) / 2
    skin = m.groups["body"]
    q = p[skin] - eyes
    a, b = p[inner_corners(p, m.triangles[m.face_groups["body"]])] - eyes
    # (each vertex's distance from the lips' meeting line, corner to corner, in MOUTH_CLEARs)
    t = np.clip((q - a) @ (b - a) / float((b - a) @ (b - a)), 0.0, 1.0)
    clear = np.linalg.norm(q - a - t[:, None] * (b - a), axis=1) / (MOUTH_CLEAR * unit)
    under = ((m.normals[skin, 1] < -UNDER) & (q[:, 1] < (a[1] + b[1]) / 2 - BELOW_MOUTH * unit)
             & (q[:, 1] > -BELOW_EYES * unit) & (np.abs(q[:, 0]) < JAW_HALF * unit)
             & (q[:, 2] > -FRONT_OF_EARS * unit) & (clear > 1.0) & (lining_depth(m)[skin] == 0))
    share = np.zeros(len(p))
    if under.any():
        d, nearest = cKDTree(p[skin[under]]).query(p[skin])
        # Only the skin that turns under (facing down from FACING on) or lies under the jaw's underside (the neck's top):
        # the face above its edge keeps its light (evened there, a heavy face's lower cheek drew a dark patch beside
        # the mouth at three quarters).
        lower = np.maximum(smoothstep(FACING[0], FACING[1], -m.normals[skin, 1]).astype(np.float64),
                           p[skin, 1] < p[skin[under], 1][nearest])
        share[skin] = ((1.0 - smoothstep(0.0, 1.0, d / (JAW_BAND * unit))) * lower
                       * smoothstep(0.5, 1.0, clear))
    return share


def soft_jaw(m: BodyMesh, normals: np.ndarray) -> np.ndarray:
    """The skin's ``normals`` (V, 3, of body ``m``'s vertices at rest) evened round the jaw's underside
    (:func:`under_jaw`) over a :data:`JAW_BALL` ball of the skin, float32, unit length.

    >>> from workbench.body.mesh import body_mesh
    >>> from workbench.options import normalize_avatar_settings
    >>> m = body_mesh(normalize_avatar_settings({"gender": "masculine"}))
    >>> out = soft_jaw(m, m.normals)
    >>> turned = np.einsum("nc,nc->n", out, m.normals) < np.cos(np.radians(5))
    >>> bool(turned.any()), bool(np.all(m.positions[turned, 1] > 1.4))     # the jaw's, none of the body's
    (True, True)
    """
    share = under_jaw(m)
    right, left = (m.positions[m.groups[f"helper-{s}-eye"]].mean(0) for s in "rl")
    ball = JAW_BALL * float(np.linalg.norm(left - right)) / EYES_APART
    tris = m.triangles[m.face_groups["body"]]
    return soft_corners(m.positions, tris, normals, share, ball).astype(np.float32)
