"""The open mouth's side walls darken towards the throat (blind review Q, defect 5: "the mouth interior is a boxy dark-red
cavity with flat lighter wall panels ... Should be: ... a darker graded throat", mouthOpen and viseme_aa on every sheet,
seed 4627's #1, #3, #6, #10 and #11; here #1, #3 and #11).

Measured as the reviewer saw them: our renderer's mouth close-up framed as a review sheet frames it
(data/make_review_sheets.py's mouth_camera: 12 cm across at the mouth, supersampled), drawn at 512 px. The side walls
are the Teeth mesh's back teeth (u past BACK_U along the arch on the teeth's texture, both rows, not the tongue), which
an open jaw tilts up on each side of the tongue, told apart by their texture coordinates through the renderer's own
drawing (tests/render/test_mouth_renders.painted); their mean luminance (0..255) where they are nearest the front teeth
(u to MID_U) and at the back (u from MID_U): a throat darkens with depth, one flat panel does not."""

from __future__ import annotations

from functools import cache

import numpy as np
import pytest
from built import built as build_avatar  # one build per run (tests/built.py)
from helpers import random_settings
from test_mouth_renders import painted
from test_smile_gaps_review_p import mouth_camera, with_weights

from workbench.body.mouth import TONGUE_V
from workbench.options import ModelOptions, normalize_avatar_settings
from workbench.options.colour import LUMA
from workbench.render.pictures import SUPERSAMPLE
from workbench.render.raster import draw
from workbench.render.scene import Model, load_clip

#: Review Q's avatars the reviewer named (seed 4627 as the sheets draw it), without hair or glasses (not in the view).
FACES = {k: random_settings(12, 4627, with_added=True)[k - 1] for k in (1, 3, 11)}
SIZE = 512
#: Where the back teeth begin along the arch (the texture's u), and where their front half ends.
BACK_U, MID_U = 0.4, 0.7
#: The most of the side walls' luminance at the back (0..255), and the most they may keep there of their front's
#: (mouthOpen's since review U's relaxed jaw drop: its upper lip no longer lifted, the walls' front is lit less).
#: (DARK 13 -> 15 since review V: the walls take the lining's greyer light, workbench.render.loops.LINED_UP, and a
#: grey dark red weighs more in this luminance (green 0.72) than the pure red it was at the same L*.)
DARK, GRADE, GRADE_OPEN = 15.0, 0.7, 0.76


@cache
def glb(k: int) -> bytes:
    s = {**FACES[k], "hair": {"style": "none"}, "glasses": "none"}
    return build_avatar(normalize_avatar_settings(s), ModelOptions(lod=0, animations=("idle",)))


def parts(uv: np.ndarray) -> dict[str, np.ndarray]:
    """Per Teeth vertex (its UVs), which part of the side walls it is: their front or their back."""
    u, v = uv[:, 0], uv[:, 1]
    teeth = v < TONGUE_V
    return {"wall front": teeth & (u > BACK_U) & (u <= MID_U), "wall back": teeth & (u > MID_U)}


@cache
def closeup(k: int, shape: str) -> tuple[np.ndarray, dict[str, np.ndarray]]:
    """#k's ``shape`` close-up: (its sRGB colour (SIZE, SIZE, 3) float, masks of the side walls' parts in it)."""
    _, cam = mouth_camera(glb(k))
    g = with_weights(glb(k), {shape: 1.0})
    posed = Model(g, max_texture=2 * SIZE).posed(load_clip(g), 0.0)
    lit = draw(posed, cam, SIZE, ss=SUPERSAMPLE)[..., :3].astype(float)
    masks = {}
    for name in ("wall front", "wall back"):
        def paint(d, colors, name=name):
            if d.mesh_name == "Teeth":
                colors[:, :3] = parts(d.uv)[name][:, None]
        masks[name] = painted(posed, cam, paint)[..., 0] > 127
    return lit, masks


def wall_grade(k: int, shape: str) -> tuple[float, float]:
    """The side walls' mean luminance at the back and at the front (see the module)."""
    lit, masks = closeup(k, shape)
    lum = lit @ np.asarray(LUMA)
    return float(lum[masks["wall back"]].mean()), float(lum[masks["wall front"]].mean())


@pytest.mark.parametrize("k", sorted(FACES))
@pytest.mark.parametrize("shape", ["viseme_aa", "mouthOpen"])
def test_the_side_walls_darken_towards_the_throat(k, shape):
    """The side walls' back under DARK luminance and under GRADE of their front's. On main (one DEEP over the whole
    back) 15.5 to 21.3, 0.50 to 0.92 of the front (the lining beside them about 22): lighter flat panels; now
    (workbench.body.teeth_walls.THROAT_GRADE, the lining past 3 cm with them, workbench.body.skin.GULLET) 9.6 to 12.3,
    0.35 to 0.63. mouthOpen, a relaxed jaw drop since review U (open31: the upper lip left where it is, not lifted
    0.9), lights the walls' front less (16.1 to 16.9, was 24.9 to 28.6) and their back as before (9.9 to 11.9, was
    9.9 to 12.4): 0.59 to 0.74 of the front, the back still under DARK. Since review V (the walls lit as the lining,
    a soft dark red, no longer a pure one: tests/render/test_mouth_walls_review_v.py) the back 12.6 to 14.6, 0.41 to
    0.74 of the front."""
    back, front = wall_grade(k, shape)
    assert back < DARK, (back, front)
    assert back < (GRADE_OPEN if shape == "mouthOpen" else GRADE) * front, (back, front)

