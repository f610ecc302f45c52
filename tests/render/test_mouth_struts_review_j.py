"""The open mouth's floor (blind review J, defect 5: "flat slabs and red struts" in the cavity, "lower teeth that
look like they float"). MakeHuman's tongue, narrowed to 0.86 of its width, left a strip of the lining's floor on
each side between it and the lower teeth: in ``mouthOpen`` and ``viseme_aa`` two lit red bars ran up from the lower
lip beside the tongue (three.js drew them bright red), with black between the lower teeth and the tongue. The tongue
now fills the lower arch (:data:`workbench.body.mouth.TONGUE_WIDE`), its sides against the lower teeth.

Measured in a close-up of the mouth (tests/render/test_mouth_renders.py's camera) drawn as a map of what each pixel
shows: the Teeth mesh's parts by their texture's rows (upper teeth, lower teeth, tongue) and the body's lining."""

from __future__ import annotations

from dataclasses import replace
from functools import cache

import numpy as np
import pytest
from helpers import UNLIT
from test_mouth_renders import avatar, lining_texture

from workbench.body.mouth import LOWER_EDGE, OUTER, TONGUE_V, UPPER_EDGE
from workbench.render.framing import look_at
from workbench.render.raster import Camera, draw
from workbench.render.scene import Clip, Material, Model, Texture

SIZE = 384
# The map's colours: the upper teeth (their rows of the mouth's texture), the lower teeth, the tongue, the lining.
UPPER, LOWER, TONGUE, LINING = (0, 0, 255), (0, 255, 0), (255, 255, 0), (255, 0, 0)


def _parts_texture() -> Texture:
    n = 128
    v = (np.arange(n) + 0.5) / n
    rows = np.zeros((n, 4), np.uint8)
    rows[:, 3] = 255
    rows[v < (UPPER_EDGE + LOWER_EDGE - OUTER / 2) / 2, :3] = UPPER
    rows[(v >= (UPPER_EDGE + LOWER_EDGE - OUTER / 2) / 2) & (v < TONGUE_V - 0.02), :3] = LOWER
    rows[v >= TONGUE_V - 0.02, :3] = TONGUE
    img = np.ascontiguousarray(np.broadcast_to(rows[:, None], (n, n, 4)))
    return Texture(img.reshape(-1, 4).view(np.uint32).reshape(-1), n, n, False, 33071, 33071)


@cache
def parts_map(gender: str, shape: str) -> dict[str, np.ndarray]:
    """Masks of the upper teeth, lower teeth, tongue and lining in a front close-up of ``shape`` at full weight."""
    glb = avatar(gender)
    model = Model(glb)
    rest = model.posed(Clip(model), 0.0)
    posed = model.posed(Clip(model), 0.0, morphs={shape: 1.0})
    teeth = np.concatenate([d.positions for d in rest.draws if d.mesh_name == "Teeth"])
    c = np.array([teeth[:, 0].mean(), teeth[:, 1].mean() - 0.005, teeth[:, 2].max() + 0.01])
    cam = Camera(view=look_at(c + [0, 0, 0.28], c), fov_deg=10.0, near=0.01)
    flat = Material(color=np.ones(4, np.float32))
    parts = _parts_texture()
    draws = []
    for d in posed.draws:
        if d.mesh_name == "Teeth":
            m = replace(flat, texture=parts)
        elif d.mesh_name == "Body":
            m = replace(flat, texture=lining_texture(gender))
        else:
            m = replace(flat, color=np.array([0, 0, 0, 1], np.float32))
        draws.append(replace(d, material=replace(m, double_sided=d.material.double_sided)))
    img = draw(replace(posed, draws=draws), cam, SIZE, lights=UNLIT)[..., :3].astype(int)
    near = {name: np.abs(img - np.array(col)).max(2) < 60 for name, col in
            (("upper", UPPER), ("lower", LOWER), ("tongue", TONGUE))}
    # (The lining texture is white on the lining: the Teeth mesh's colours are never all three channels high.)
    near["lining"] = img.min(2) > 195
    return near


def struts(masks: dict[str, np.ndarray]) -> float:
    """The lining's pixels seen between the Teeth mesh's leftmost and rightmost pixels in the rows the tongue shows in
    (the mouth's floor beside the tongue), as a share of the tongue's pixels."""
    teeth = masks["upper"] | masks["lower"] | masks["tongue"]
    n = 0
    for y in np.flatnonzero(masks["tongue"].any(1)):
        xs = np.flatnonzero(teeth[y])
        n += int(masks["lining"][y, xs.min():xs.max() + 1].sum())
    return n / max(int(masks["tongue"].sum()), 1)


@pytest.mark.parametrize("shape", ["mouthOpen", "viseme_aa"])
@pytest.mark.parametrize("gender", ["feminine", "masculine"])
def test_no_lining_shows_between_the_tongue_and_the_lower_teeth(gender, shape):
    """The lining beside the tongue (see :func:`struts`) under 8 % of the tongue's pixels: on main 17 to 41 % (two
    red bars from the lower lip up beside the tongue; 28 and 41 % on the feminine body), now 0.3 to 5.5 %. (Over
    review J's twelve random avatars, seed 4620: on main 20 % in mouthOpen and 34 % in viseme_aa on average, up to 48 %;
    now 2.8 and 3.9 %, up to 11 %.)"""
    masks = parts_map(gender, shape)
    assert masks["tongue"].sum() > 2000
    assert struts(masks) < 0.08, struts(masks)
