"""The light the lips take from the teeth, baked into their occlusion (:func:`workbench.body.mouth.mouth_occlusion`) so
that every viewer draws it: none of the three casts a shadow into a mouth. Our renderer dims the key and the room's
light by it (and, where it is deepest, the highlight), three.js and model-viewer their room's light and reflection.

The teeth were painted one enamel from the biting edge to the gum: in an open mouth or a smile the row read as "one
unshaded white block that glows on deep skin" (blind review S, mouthOpen, viseme_aa, mouthSmile, in all three
renderers; tests/render/test_teeth_shade_review_s.py). :func:`shade` darkens each row towards its gum, where the upper
lip hangs over the upper teeth and the lower lip rises over the lower, most over the incisors; the back teeth are in
the mouth's own shadow already (:data:`workbench.body.mouth.SHADOW_FROM`).

>>> import numpy as np
>>> [round(float(x), 2) for x in shade(np.array([0.05, 0.05, 0.4]), np.array([0.1, 1.0, 1.0]), upper=True)]
[1.0, 0.55, 1.0]
"""

from __future__ import annotations

import numpy as np

from .expressions import smoothstep

__all__ = ["LIP_SHADE", "LIP_TO", "shade"]

#: The lip's shade on a row (e, 0 at the biting edge, 1 at the gum): from the first share of the height to the second,
#: darker by the third. In the occlusion, not the colour: the colour is held white (a smile's row, which shows the
#: upper half, white across, tests/body/test_smile_teeth_row.py, "missing teeth" in blind review F; the lower half
#: white as painted, tests/body/test_deep_skin_review_j.py, tests/gltf/test_viewer_materials.py).
LIP_SHADE = {"upper": (0.1, 0.7, 0.45), "lower": (0.15, 0.7, 0.35)}
#: The lip's shade along the arch (the texture's u, :data:`workbench.body.teeth_arch.ARCH_UV`), by the place of each
#: tooth's middle: whole to the first share, none from the second. The lips' middles hang over the incisors; a smile
#: draws the corners back off the canines and shows them up to the gum (shaded there, and along the arch towards the
#: canines, the smile's row ended in grey teeth, "missing teeth" in blind review F: tests/body/test_smile_teeth_row.py).
LIP_TO = (0.2, 0.3)


def shade(u: np.ndarray, e: np.ndarray, upper: bool) -> np.ndarray:
    """The share of the light each texel of a row's outer face keeps, its tooth's middle at arch place ``u`` and the
    texel at height ``e`` (0 at the biting edge, 1 at the gum): see :data:`LIP_SHADE` and :data:`LIP_TO`."""
    lo, hi, dark = LIP_SHADE["upper" if upper else "lower"]
    return (1 - dark * smoothstep(lo, hi, e) * (1 - smoothstep(*LIP_TO, u))).astype(np.float32)
