"""The smiling eyes: a crease under each lower lid (blind review AF, defect 2, the smile 4/10: "The smile is a
mouth-only grimace ... no cheek lift, no nasolabial deepening and no eye squint", seed 4642's #1 and #5, the two of its
named faces without glasses, as data/make_review_sheets.py draws them, sheet 1 row 1 and sheet 2 row 1, col 8).

Measured in the sheets' own mouthSmile close-up (``Avatar.cameras``, brows to chin, drawn at the sheets' SIZE px, lit
as the sheets light it), the model in its idle clip's first frame with mouthSmile at full weight: per eye, the skin's
lightness (CIE L*) down a strip under the eye's middle (ACROSS mm either side, averaged; from 2 mm under the middle to
DOWN mm, 1 mm a step; on the plane FRONT mm in front of the eye's middle, where the lid's skin lies; mm for eyes 58.5
mm apart), and the deepest valley in it from VALLEY mm down: how far a point lies under the lighter of the brightest
skin within ABOVE mm over it and within BELOW mm under it. A crease is a dark line between a lit roll and a lit cheek;
the lashes over it, dark too, lie above the valley's reach."""

from __future__ import annotations

import sys
from functools import cache
from pathlib import Path

import numpy as np
import pytest
from test_smile_fold_review_x import SIZE as FOLD_SIZE
from test_smile_fold_review_x import eye_frame, lightness, pixels

from workbench.render.raster import draw
from workbench.render.scene import Model, load_clip

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "data"))
import make_review_sheets as sheets  # noqa: E402

pytestmark = pytest.mark.usefixtures("sheets_built_once")

#: Review AF's #1 and #5 (seed 4642, as the sheets draw them).
FACES = {f"#{k}": sheets.review_settings(12, 4642)[k - 1] for k in (1, 5)}
SMILE = [v[0] for v in sheets.VIEWS].index("mouthSmile")
#: The sheets' cell (pixels); the strip (mm, see the module's docstring).
SIZE, ACROSS, DOWN, FRONT = 288, (-3.0, -1.5, 0.0, 1.5, 3.0), 19, 13.0
VALLEY, ABOVE, BELOW = (4, 12), 4, 6


@cache
def strips(name: str) -> list[np.ndarray]:
    """Per eye, the strip's L* (2 mm under the eye's middle first) in the smile."""
    avatar = sheets.Avatar(FACES[name])
    glb = avatar.files[SMILE]
    cam = avatar.cameras[SMILE][1]
    posed = Model(glb, max_texture=2 * SIZE).posed(load_clip(glb), 0.0)
    light = lightness(draw(posed, cam, SIZE, background=sheets.BACKGROUND)[..., :3])
    _, eyes, unit = eye_frame(sheets._mesh(posed, "Eyes"))
    out = []
    for eye in eyes:
        down = np.arange(2, DOWN + 1)
        gx, gy = np.meshgrid(np.asarray(ACROSS), down)
        points = np.c_[eye[0] + gx.ravel() * 0.001 * unit, eye[1] - gy.ravel() * 0.001 * unit,
                       np.full(gx.size, eye[2] + FRONT * 0.001 * unit)]
        at = (pixels(cam, points) * SIZE / FOLD_SIZE).astype(int)
        out.append(light[at[:, 1], at[:, 0]].reshape(gx.shape).mean(1))
    return out


def valley(strip: np.ndarray) -> float:
    """The strip's deepest valley (L*) from VALLEY[0] to VALLEY[1] mm down (the strip starts 2 mm down)."""
    depth = []
    for i in range(VALLEY[0] - 2, VALLEY[1] - 1):
        over, under = strip[max(0, i - ABOVE):i].max(), strip[i + 1:i + 1 + BELOW].max()
        depth.append(min(over, under) - strip[i])
    return float(max(depth))


@pytest.mark.parametrize("name", list(FACES))
def test_the_smiling_eyes_have_a_crease_under_them(name):
    """Under each eye the smile draws a crease 22 L* or more under the roll over it and the cheek under it. On main
    (7c86964b; the face's right / left) #1 11.19 / 13.96, #5 14.79 / 18.53: the squint lifts the lid's skin with the
    cheek as one sheet, lit as at rest, with only the faint shade of the squint's own bunching; now 27.57 / 29.51 and
    31.51 / 33.1, the lower lids' crease turned into the smile's normals (workbench.body.lid_crease)."""
    got = [round(valley(s), 1) for s in strips(name)]
    assert min(got) >= 22.0, got
