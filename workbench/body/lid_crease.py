"""The smile's lower lids shaded as the bunched roll a smile makes of them (issue 46, blind review AF's defect 2, the
smile 4/10: "a mouth-only grimace ... no cheek lift, no nasolabial deepening and no eye squint"; seed 4642's #1, #5,
#7, #9).

``mouthSmile``'s squint lifts the lower lids 4 to 4.5 mm (workbench.body.expressions.SMILE_EYES) and its cheek raise
the skin under them as far, so the lid's skin rises as one sheet with the cheek: lit as at rest, a narrower eye over
an even cheek, which no reviewer has seen as a smiling eye. In a smile the ring muscle round the eye bunches the lower
lid into a roll under the lashes, and the raised cheek meets that roll in a crease: the arc under each eye a smiling
face is read by. The base mesh holds neither (its skin there 2 to 4 mm between vertices, the squint moving it whole):
:func:`lid_crease` turns mouthSmile's normals on an arc under each eye (an ellipse round the eye's middle,
:data:`CREASE_ACROSS` wide, :data:`CREASE_DOWN` under it at its middle) as a crease's are: the roll's underside just
inside it turned down and back (dark under the key light above), the cheek's top just outside it turned up (lit), as
a normal map draws a crease finer than its mesh (tests/render/test_smile_eyes_review_af.py).

>>> round(CREASE_DOWN * 1000, 1), round(CREASE_ACROSS * 1000, 1)
(8.0, 15.0)
"""

from __future__ import annotations

import numpy as np

from .expressions import EYES_APART, smoothstep

__all__ = ["CREASE_ACROSS", "CREASE_DOWN", "CREASE_TILT", "ROLL_TILT", "lid_crease"]

# The crease's ellipse round each eye's middle (metres on the reference face): its half-width across and how far under
# the middle it runs at the middle (the smiling lower lid's lashes sit 0 to 2 mm under it, the roll 4 to 5 mm under
# those). Its ends fade out from FADE_ENDS of the half-width (the eye's corners, where the crow's feet would be).
CREASE_ACROSS = 0.015
CREASE_DOWN = 0.008
FADE_ENDS = (1.0, 0.6)
# The roll's underside (inside the ellipse, radii INSIDE from it, a Gaussian's half-width WIDTH) turned down and back by
# CREASE_TILT, the cheek's top outside it (OUTSIDE) up by ROLL_TILT: lengths added to a unit normal before it is made
# unit again (1.0 about 45 degrees off a forward-facing normal).
INSIDE, OUTSIDE, WIDTH = 0.9, 1.22, 0.13
CREASE_TILT = (0.0, -0.55, -0.4)
ROLL_TILT = (0.0, 0.5, 0.0)
# How far the smile moves a vertex (metres) for none of the turn to all of it: skin it leaves in place keeps its light.
MOVED = (0.001, 0.003)


def lid_crease(moved: np.ndarray, normals: np.ndarray, delta: np.ndarray, skin: np.ndarray, eyes: np.ndarray,
               rest_normals: np.ndarray) -> np.ndarray:
    """``normals`` (V, 3, unit) of a smile whose vertices are at ``moved`` (V, 3, metres, facing +z), moved by ``delta``
    from rest, with the lower lids' crease turned into them (see :data:`CREASE_DOWN`) on the ``skin`` vertices (V,
    bool) that face forward at rest (``rest_normals``); ``eyes`` (2, 3) the eyes' middles. Unit length again.

    >>> p = np.array([[0.029, -0.0072, 0.0], [0.029, -0.0098, 0.0], [0.029, 0.004, 0.0]])   # the roll, the cheek, the lid
    >>> n = np.tile([0.0, 0.0, 1.0], (len(p), 1))
    >>> out = lid_crease(p, n, np.full_like(p, 0.004), np.ones(len(p), bool), np.array([[-0.029, 0.0, 0.0],
    ...                  [0.029, 0.0, 0.0]]), n)
    >>> (out.round(2) + 0.0).tolist(), bool(np.allclose(np.linalg.norm(out, axis=1), 1))
    ([[0.0, -0.67, 0.74], [0.0, 0.44, 0.9], [0.0, 0.0, 1.0]], True)
    """
    unit = float(np.linalg.norm(eyes[0] - eyes[1])) / EYES_APART
    p = moved[:, :2].astype(np.float64)
    down = np.zeros(len(moved))
    up = np.zeros(len(moved))
    for eye in eyes:
        dx = (p[:, 0] - eye[0]) / (CREASE_ACROSS * unit)
        dy = (p[:, 1] - eye[1]) / (CREASE_DOWN * unit)
        r = np.hypot(dx, dy)
        # (the lower half only, and not towards the eye's corners)
        w = (dy < 0) * smoothstep(0.0, 0.5, -dy) * smoothstep(FADE_ENDS[0], FADE_ENDS[1], np.abs(dx))
        down = np.maximum(down, w * np.exp(-(((r - INSIDE) / WIDTH) ** 2)))
        up = np.maximum(up, w * np.exp(-(((r - OUTSIDE) / WIDTH) ** 2)))
    keep = skin * smoothstep(0.3, 0.6, rest_normals[:, 2]) * smoothstep(MOVED[0], MOVED[1], np.linalg.norm(delta, axis=1))
    out = normals.astype(np.float64) + (down * keep)[:, None] * CREASE_TILT + (up * keep)[:, None] * ROLL_TILT
    return out / np.maximum(np.linalg.norm(out, axis=1, keepdims=True), 1e-12)
