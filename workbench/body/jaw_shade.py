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

# The jaw's underside: skin facing down by more than UNDER (its normal's y), from BELOW_EYES under the eyes' middle
# (under the lower lip's roll, whose underside also faces down) to as far as the chin reaches, no nearer the mouth's
# middle than MOUTH_CLEAR, no wider than JAW_HALF either side of the face's middle (not the ear lobes), and in front of
# the ears (FRONT_OF_EARS before the eyes' depth: not the skull's base over the nape). Metres on the reference face.
UNDER = 0.5
BELOW_EYES = (0.06, 0.16)
MOUTH_CLEAR = 0.03
JAW_HALF = 0.06
FRONT_OF_EARS = 0.09
# All of the evening within JAW_BAND / 2 of the underside, none from JAW_BAND on; each normal evened over a ball of
# JAW_BALL (metres on the reference face).
JAW_BAND = 0.02
JAW_BALL = 0.02


def under_jaw(m: BodyMesh) -> np.ndarray:
    """Per vertex of body ``m`` (rest places), how much of :func:`soft_jaw`'s evening it gets: 1 on the jaw's
    underside (see the module's constants) and within half of :data:`JAW_BAND` of it, falling to 0 at JAW_BAND; 0
    elsewhere. Every distance scales with the face (the eyes' distance apart)."""
    p = m.positions.astype(np.float64)
    right, left = (p[m.groups[f"helper-{s}-eye"]].mean(0) for s in "rl")
    unit = float(np.linalg.norm(left - right)) / EYES_APART
    eyes = (left + right) / 2
    skin = m.groups["body"]
    q = p[skin] - eyes
    mouth = p[inner_corners(p, m.triangles[m.face_groups["body"]])].mean(0) - eyes
    under = ((m.normals[skin, 1] < -UNDER) & (q[:, 1] < -BELOW_EYES[0] * unit) & (q[:, 1] > -BELOW_EYES[1] * unit)
             & (np.abs(q[:, 0]) < JAW_HALF * unit) & (q[:, 2] > -FRONT_OF_EARS * unit)
             & (np.linalg.norm(q - mouth, axis=1) > MOUTH_CLEAR * unit) & (lining_depth(m)[skin] == 0))
    share = np.zeros(len(p))
    if under.any():
        d = cKDTree(p[skin[under]]).query(p[skin])[0] / (JAW_BAND * unit)
        share[skin] = (1.0 - smoothstep(0.0, 1.0, d)) * smoothstep(0.5, 1.0, np.linalg.norm(q - mouth, axis=1)
                                                                   / (MOUTH_CLEAR * unit))
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
