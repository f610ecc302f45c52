"""The tongue as blind review K saw it in an open mouth (defect 2: "a flat pink slab with a line down its middle"):
its top domed across, its middle above its sides, and the groove down its middle a faint shade, not a line. Measured
on the avatar's own Teeth mesh (its tongue: the texture's rows from TONGUE_V) and its texture."""

from __future__ import annotations

import numpy as np
import pytest
from test_mouth_renders import avatar

from workbench.body import mouth
from workbench.render.scene import Clip, Model

LUMA = np.array([0.2126, 0.7152, 0.0722])


def dome(gender: str) -> float:
    """Millimetres from the top of the tongue's sides (0.6 to 0.85 of its half width out) up to the top of its middle
    (within a quarter of it), 1 to 3 cm behind its tip, at rest."""
    model = Model(avatar(gender))
    d = next(d for d in model.posed(Clip(model), 0.0).draws if d.mesh_name == "Teeth")
    p = d.positions[d.uv[:, 1] >= mouth.TONGUE_V].astype(float)
    mid, half = (p[:, 0].min() + p[:, 0].max()) / 2, (p[:, 0].max() - p[:, 0].min()) / 2
    behind = p[:, 2].max() - p[:, 2]
    cut = p[(behind > 0.01) & (behind < 0.03)]
    out = np.abs(cut[:, 0] - mid) / half
    return float((cut[out < 0.25, 1].max() - cut[(out > 0.6) & (out < 0.85), 1].max()) * 1000)


@pytest.mark.parametrize("gender", ["feminine", "masculine"])
def test_the_tongue_is_domed(gender):
    """Its middle over 1.5 mm above its sides (main: 0.88 and 0.93, a flat slab; now 2.25 and 2.32)."""
    assert dome(gender) > 1.5, dome(gender)


def test_no_line_down_the_tongue():
    """The texture's tongue at its middle line over 0.9 of its luminance a third of the way out, along its front half
    (main: 0.83, a dark line down its middle; now 0.95)."""
    img = mouth.mouth_texture().astype(float) @ LUMA
    n = mouth.MOUTH_SIZE
    rows = slice(int(mouth.TONGUE_V * n) + 1, int((mouth.TONGUE_V + (1 - mouth.TONGUE_V) / 2) * n))
    ratio = img[rows, 0].mean() / img[rows, n // 3].mean()
    assert ratio > 0.9, ratio
