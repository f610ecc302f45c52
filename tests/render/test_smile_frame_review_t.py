"""The review sheets' smile close-up shows the face above the mouth (blind review T, defect 2: "the lips flatten into a
wavy line ... the cheeks and eyes do not change"; seed 4630's #8, #10 and #12 as data/make_review_sheets.py draws
them, and the default faces).

The mouthSmile column's camera (the sheet's ``Avatar.cameras``) was the mouth close-up's: 12 cm across centred on the
mouth, so its top edge ran through the eyes (under their centres on #12 and the default masculine face), and what the
smile does to the lids (the squint lifts the lower lid 3.5 mm) and the cheeks under them was at or past its edge.
Measured in that camera's own picture of the model at rest, first frame of its idle clip, independently of the camera's
code (data/make_review_sheets.smile_camera finds the eyes by their mesh's mean and the chin by ``chin_bottom``): drawn
unlit, each vertex coloured by its depth, the eyes where their mesh shows and the chin's lower edge where the skin
down the picture's middle steps back to the neck or stops showing; as a share of the picture's height from its top."""

from __future__ import annotations

import sys
from dataclasses import replace
from functools import cache
from pathlib import Path

import numpy as np
import pytest
from helpers import UNLIT, random_settings

from workbench.render.raster import draw
from workbench.render.scene import Material, Model, load_clip

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "data"))
import make_review_sheets as sheets  # noqa: E402

pytestmark = pytest.mark.usefixtures("sheets_built_once")

#: Review T's #8, #10 and #12 (seed 4630, as the sheets draw them) and the default faces.
FACES = {**{f"#{k}": random_settings(12, 4630, with_added=True, heads=True)[k - 1] for k in (8, 10, 12)},
         "default feminine": {"gender": "feminine"}, "default masculine": {"gender": "masculine"},
         **{f"AM #{k}": sheets.review_settings(12, 4657)[k - 1] for k in (6, 7)}}
#: Review AM's #7 (sunglasses, the frames' tops 17 mm over the eyes' centres) and #6 (round frames, 19 mm): blind
#: review AM's third defect, "sunglasses become huge opaque slabs covering the upper face in close-ups".
GLASSES = ("AM #6", "AM #7")
#: The close-ups' columns (each its own face shape at full weight): the smile's since review T, the open mouths' since
#: review AM (blind review AL, defect 8: "eyes and glasses cut at top of mouth close-ups (all)").
CLOSE_UPS = ("mouthSmile", "mouthOpen", "viseme_aa")
#: The eyes' centres at least EYES under the picture's top (the whole eye, its lower lid and the skin under it in the
#: picture), the chin's bottom at least CHIN over its bottom (shares of the picture's height).
EYES, CHIN = 0.08, 0.03
#: The brows' middle (their mesh's mean row) and the glasses' top at least BROWS under the picture's top.
BROWS = 0.08


#: The picture's side (pixels) the eyes and the chin are found in; DEPTH: the depths drawn (metres behind the nearest
#: point); DROP: the least step back (metres) from one row to the next at the chin's lower edge, where the surface
#: turns from facing the camera to facing down (#8's 7 mm in a row half a millimetre high; elsewhere on the face
#: under 1 mm).
SIZE, DEPTH, DROP = 256, 0.25, 0.004
#: Rows (of SIZE: about 5 mm at 12 cm across) of no skin under the chin that end it.
GAP = 10


@cache
def avatar(name: str) -> sheets.Avatar:
    return sheets.Avatar(FACES[name])


def pictures(name: str, column: str):
    """``picture(which, without=())`` for the ``column`` close-up of avatar ``name``: each pixel's depth (0 at ``far`` ..
    1 at ``near``) where mesh ``which`` shows, -1 elsewhere (the black of the others draws as up to 0.03 unlit; the face
    is 0.5 or more)."""
    a = avatar(name)
    k = [v[0] for v in sheets.VIEWS].index(column)
    cam, glb = a.cameras[k][1], a.files[k]
    posed = Model(glb, max_texture=1).posed(load_clip(glb), 0.0)
    # The depths from a little in front of the eyes (the nose's tip is 2 to 3 cm ahead of them), not from the whole
    # model's nearest point: a hand hanging forward of the face would push the face out of the range.
    eyes_z = max(float(d.positions[:, 2].max()) for d in posed.draws if d.mesh_name == "Eyes")
    near, far = eyes_z + 0.05, eyes_z + 0.05 - DEPTH

    def picture(which: str, without: tuple[str, ...] = ()) -> np.ndarray:
        draws = []
        for d in (d for d in posed.draws if d.mesh_name not in without):
            colors = np.zeros((len(d.positions), 4), np.float32)
            colors[:, 3] = 1
            if d.mesh_name == which:
                colors[:, :3] = np.clip((d.positions[:, 2:3] - far) / (near - far), 0, 1)
            mat = Material(color=np.ones(4, np.float32), double_sided=d.material.double_sided)
            draws.append(replace(d, colors=colors, uv=None, material=mat))
        rgba = draw(replace(posed, draws=draws), cam, SIZE, ss=1, background=(0, 0, 0), lights=UNLIT).astype(float)
        return np.where(rgba[..., 1] > 0.1 * 255, rgba[..., 1] / 255, -1.0)

    return picture


@cache
def heights(name: str, column: str = "mouthSmile") -> tuple[float, float]:
    """(the eyes' centres, the chin's bottom): each a share of the ``column`` close-up's height from its top, found in
    the picture itself (the model with that column's face shape), not from the camera's inputs: drawn unlit with each
    vertex's colour its depth, the eyes' pixels (the Eyes mesh's, each side's mean row, the lower side's) and, down the
    picture's middle column under its centre, the lowest row of the chin (the first row after which the skin steps back
    DROP or more, or stops showing)."""
    picture = pictures(name, column)
    eyes = picture("Eyes", without=("Glasses",)) >= 0    # (#8's lenses, black here, hid its eyes)
    rows = np.arange(SIZE)[:, None] * np.ones(SIZE)
    sides = [eyes & (np.arange(SIZE) < SIZE // 2), eyes & (np.arange(SIZE) >= SIZE // 2)]
    eye_row = max(float(rows[side].mean()) for side in sides)
    body = picture("Body")
    # (Down from the picture's centre, or from under the teeth where an open mouth shows them lower: its parting
    # shows no skin for more than GAP rows.)
    teeth = np.flatnonzero(picture("Teeth")[:, SIZE // 2] >= 0)
    start = max(SIZE // 2, int(teeth.max()) + 1 if len(teeth) else 0)
    column = body[start:, SIZE // 2]
    # The chin's lower edge: the first row, down from the centre, after which the skin steps back DROP or more to the
    # neck, or stops showing for GAP rows or more (a collar or the backdrop under the chin; the lips' parting, at the
    # centre or just under it, shows no skin for a row or two).
    hidden = np.array([bool((column[k + 1:k + 1 + GAP] < 0).all()) for k in range(len(column) - 1)])
    ends = np.flatnonzero((column[:-1] >= 0) & (hidden | ((column[:-1] - column[1:]) * DEPTH >= DROP)))
    assert len(ends), f"{name}: no lower edge of the chin down the picture's middle"
    return (eye_row + 0.5) / SIZE, (start + int(ends[0]) + 1) / SIZE


@pytest.mark.parametrize("column", CLOSE_UPS)
@pytest.mark.parametrize("name", list(FACES))
def test_the_smile_close_up_holds_the_lower_lids_and_the_chin(name, column):
    """The eyes' centres lie EYES or more under the smile close-up's top, the chin's bottom CHIN or more over its
    bottom. In the mouth's 12 cm close-up (main's camera for this column) the eyes' centres at 0.069 / 0.006 / 0.004
    of the height on #8 / #12 / the default masculine face (#12's lower lids cut, the masculine eyes' centres above the
    picture: what shows of them is their lower edge), the chin at 0.79 to 0.86; now 0.17 / 0.18 / 0.17 / 0.18 / 0.16
    (#8 / #10 / #12 / the default feminine / masculine), the chin at 0.87 to 0.91 (data/make_review_sheets.smile_camera:
    the same 12 cm, 2 cm higher). The open mouths' close-ups likewise since review AM: in the 12 cm mouth camera (main's
    for those columns until then) the eyes' centres at 0.005 to 0.083 of the height (at the picture's top edge; on #8
    0.083), the chins at 0.84 to 0.95; now (data/make_review_sheets.open_camera: down to the chin at its lowest in either
    shape) the eyes at 0.16 to 0.17, the chins at 0.87 to 0.95 (the smile's, measured with its shape since, 0.86 to
    0.89)."""
    eyes, chin = heights(name, column)
    assert eyes >= EYES and chin <= 1 - CHIN, (round(eyes, 3), round(chin, 3))


@pytest.mark.parametrize("column", CLOSE_UPS)
@pytest.mark.parametrize("name", ["default feminine", "default masculine", "#12", *GLASSES])
def test_the_close_ups_hold_the_brows_and_the_glasses_under_skin(name, column):
    """The brows' middle and the glasses' frames' top lie BROWS or more under every close-up's top: the face's upper
    part in the picture, so a frame sits on a face. From 14 mm over the eyes' centres (data/make_review_sheets'
    cameras until review AM) the brows' middle at 0.027 to 0.045 of the height and the frames' tops at 0.043 to 0.047
    (at the picture's edge: "huge opaque slabs covering the upper face", blind review AM); now (``SMILE_ABOVE`` over
    the brows' middle) the brows at 0.099 to 0.145, the frames' tops at 0.137 to 0.156."""
    picture = pictures(name, column)
    rows = np.arange(SIZE)[:, None] * np.ones(SIZE)
    brows = float(rows[picture("Eyebrows", without=("Glasses",)) >= 0].mean() + 0.5) / SIZE
    found = [brows]
    if name in GLASSES:
        found.append(float(np.flatnonzero((picture("Glasses") >= 0).any(axis=1))[0]) / SIZE)
    assert min(found) >= BROWS, [round(v, 3) for v in found]
