"""The tongue's shape for :func:`workbench.body.mouth.fitted_teeth` (a groove down its middle and a rounded tip) and
its paint on :func:`workbench.body.mouth.mouth_texture`'s layout (:func:`painted`).

MakeHuman's tongue, made flatter and set low behind the lower teeth (:mod:`.mouth`), had a straight, blunt front as
wide as the lower arch and a top with no groove: "a flat pink tongue disc" (blind review M,
tests/body/test_tongue_review_m.py). Its top is pressed down along its middle line (:data:`GROOVE`), the groove
fading out towards the back, and its front narrowed into a round (:data:`TIP_ROUND`).

>>> import numpy as np
>>> q = np.array([[0.0, 0.01, 0.0], [0.01, 0.01, 0.0], [0.0, 0.01, -0.04], [0.0, 0.0, -0.04]])
>>> np.round(shaped(q, mid=0.0) * 1000, 2).tolist()
[[0.0, 8.8, 0.0], [7.0, 10.0, 0.0], [0.0, 10.0, -40.0], [0.0, 0.0, -40.0]]
"""

from __future__ import annotations

import numpy as np

from .eyes import _smoothstep

__all__ = ["BACK_DARK", "GROOVE", "LIT_REACH", "TIP_OCC", "TIP_ROUND", "TONGUE", "TONGUE_GROOVE", "painted", "shaped"]

#: Its colour (sRGB albedo), a deeper pink than the gums.
TONGUE = (0.66, 0.32, 0.34)
#: How much darker the groove down the tongue's middle is (0.22 drew "a line down its middle", blind review K).
TONGUE_GROOVE = 0.07
#: How far the mouth's shadow leaves the tongue lit: it turns dark from LIT_REACH[0] to LIT_REACH[1] of its length
#: from the tip's middle, the distance out from the middle line counted LIT_REACH[2] times its share of the length
#: (the half width over the length, about 0.3, made rounder). Counted back along the middle alone, its pink front
#: ended on one straight line across, level to its rounded ends: "a rectangular slab tongue with square corners",
#: blind review P (tests/render/test_tongue_review_p.py).
LIT_REACH = (0.05, 0.6, 0.6)
#: Its back darker than the mouth's shadow (:data:`workbench.body.mouth.DEEP`): from BACK_DARK[0] to BACK_DARK[1] of its
#: length from the tip, its colour to BACK_DARK[2] of that shadow's. Its back faces up into the key light: painted the
#: shadow alone it drew 26 to 28 of luminance beside the lining's 17 to 22 in viseme_aa, a lit box over the lit front
#: (blind review P's "rectangular slab", tests/render/test_tongue_review_p.py).
BACK_DARK = (0.3, 0.6, 0.7)
#: Its baked occlusion at its tip, falling to the mouth's least (``least``) half way back: the tongue lies under the upper
#: teeth and lip, which hide it from the light above (a studio's ceiling, our key). At 0.9, as open as the front teeth,
#: its pink front drew 0.43 to 0.48 of the upper front teeth's L* in our viseme_aa close-ups (three.js 0.41 to 0.44,
#: model-viewer 0.37 to 0.44), the one part of the mouth's inside ours drew lighter than the browsers: "the inside of
#: the mouth is too bright ... the tongue a flat pink slab", blind review AC (tests/render/test_mouth_depth_review_ac.py).
TIP_OCC = 0.6

#: The groove (metres): its depth at the middle line of the tongue's top, its half width (a Gaussian's), and how far
#: back from the tip it fades out.
GROOVE = (0.0012, 0.003, 0.035)
#: The tip's round: the share of its width kept at the very tip, widening as a quarter circle to the whole over this
#: length (metres) back from it.
TIP_ROUND = (0.7, 0.008)


def shaped(q: np.ndarray, mid: float) -> np.ndarray:
    """The tongue's vertices ``q`` (metres, its tip towards +z, its middle line at x ``mid``) grooved and rounded, a new
    array (see the module)."""
    out = np.array(q, np.float64)
    back = float(out[:, 2].max()) - out[:, 2]
    dx = out[:, 0] - mid
    bottom, top = float(out[:, 1].min()), float(out[:, 1].max())
    upper = np.clip((out[:, 1] - bottom) / max(top - bottom, 1e-9), 0.0, 1.0)      # 1 on its top, 0 underneath
    out[:, 1] -= GROOVE[0] * np.exp(-(dx / GROOVE[1]) ** 2) * np.clip(1 - back / GROOVE[2], 0.0, 1.0) * upper
    round_ = np.sqrt(1 - (1 - np.clip(back / TIP_ROUND[1], 0.0, 1.0)) ** 2)
    out[:, 0] = mid + dx * (TIP_ROUND[0] + (1 - TIP_ROUND[0]) * round_)
    return out


def painted(u: np.ndarray, depth: np.ndarray, least: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The tongue's texels at ``u`` (0 on its middle line to 1 at its side) and ``depth`` (0 at its tip to 1 at its
    root): (sRGB colour (..., 3), baked occlusion down to ``least`` at the back, how deep in the mouth's shadow each
    lies, 0 to 1): a groove down its middle, darker at its sides, fine papillae; from its tip's middle out, the
    mouth's shadow (:data:`LIT_REACH`)."""
    speck = 1 + 0.08 * (np.random.default_rng(3).random(u.shape).astype(np.float32) - 0.5)
    shade = (1 - TONGUE_GROOVE * np.exp(-(u / 0.12) ** 2)) * (1 - 0.3 * _smoothstep(0.55, 1.0, u)) * speck
    colour = np.array(TONGUE, np.float32) * shade[..., None]
    occ = (TIP_OCC - least) * (1 - _smoothstep(0.0, 0.5, depth)) + least
    deep = 0.35 + 0.65 * _smoothstep(LIT_REACH[0], LIT_REACH[1], np.hypot(depth, LIT_REACH[2] * u))
    # (The texture mixes the colour with the shadow by ``deep``: a black colour under ``deep`` BACK_DARK[2] leaves that
    # share of the shadow; ``deep`` stays over 0.7, where the back's reflections are none: mouth.mouth_specular.)
    back = _smoothstep(BACK_DARK[0], BACK_DARK[1], depth)
    return colour * (1 - back)[..., None], occ, deep * (1 - back) + BACK_DARK[2] * back
