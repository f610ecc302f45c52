"""The smile's fold without dark blots a vertex wide (blind review Z, the smile 2.5/10, its worst: "dark brown smudges
either side of the nostrils like a dirty moustache ... a '<' facet at the mouth corner", seed 4636's #1, #3, #8 and
#10 as data/make_review_sheets.py draws them, in all three renderers: so in the model's normals).

Measured in the sheets' own mouthSmile close-up (``Avatar.cameras``, drawn at SIZE px, lit as the sheets light it), the
model in its idle clip's first frame at rest and with mouthSmile at full weight. Per skin vertex of the Body mesh
along the nasolabial fold's line (test_smile_fold_review_x's line from the nose's wing to LINE_END beside the mouth's
corner, from ALONG[0] to ALONG[1] of its length, ACROSS mm either side of it, for eyes 58.5 mm apart: below the wing,
whose nostril's rim, and above the corner, whose lip's border, the smile moves under the ring) facing forward in
both: its picture's lightness (CIE L*) less the mean on a ring RING mm round it (a vertex's spacing on the base mesh:
a shade as narrow as one vertex stands out of its ring, a fold's soft band a centimetre wide hardly does), smiling less
at rest (the skin's own marks cancel). A blot, per side, is the mean of the DARKEST vertices'."""

from __future__ import annotations

import sys
from functools import cache
from pathlib import Path

import numpy as np
import pytest
from test_smile_fold_review_x import LINE_END, SIZE, corner_vertices, eye_frame, lightness, pixels

from workbench.body.fold_shade import fold_line
from workbench.render.raster import draw
from workbench.render.scene import Model, load_clip

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "data"))
import make_review_sheets as sheets  # noqa: E402

pytestmark = pytest.mark.usefixtures("sheets_built_once")

#: Review Z's #1, #3, #8 and #10 (seed 4636, as the sheets draw them): the smudges the reviewer named.
FACES = {f"#{k}": sheets.review_settings(12, 4636)[k - 1] for k in (1, 3, 8, 10)}
SMILE = [v[0] for v in sheets.VIEWS].index("mouthSmile")
#: The stretch of the fold's line (shares of its length from the wing), mm either side of it, the ring's radius (mm
#: for eyes 58.5 mm apart) and how many of the most darkened vertices make a blot.
ALONG, ACROSS, RING, DARKEST = (0.2, 0.65), 6.0, 4.0, 1
#: Points on the ring.
AROUND = 16


def contrast(light: np.ndarray, at: np.ndarray, ring_px: float) -> np.ndarray:
    """Per point ``at`` (N, 2 pixels), the picture's L* there less its mean on a ring ``ring_px`` round it."""
    angles = np.linspace(0, 2 * np.pi, AROUND, endpoint=False)
    ring = at[:, None, :] + ring_px * np.stack([np.cos(angles), np.sin(angles)], axis=1)[None]
    ij = np.clip(np.rint(ring).astype(int), 0, SIZE - 1)
    here = np.clip(np.rint(at).astype(int), 0, SIZE - 1)
    return light[here[:, 1], here[:, 0]] - light[ij[..., 1], ij[..., 0]].mean(1)


@cache
def blots(name: str) -> list[float]:
    """Per side (the face's right, then its left), the blot (L*, darker is negative; see the module's docstring)."""
    avatar = sheets.Avatar(FACES[name])
    cam = avatar.cameras[SMILE][1]
    seen = {}
    for state, glb in (("rest", avatar.glb), ("smile", avatar.files[SMILE])):
        posed = Model(glb, max_texture=SIZE).posed(load_clip(glb), 0.0)
        light = lightness(draw(posed, cam, SIZE, background=sheets.BACKGROUND)[..., :3])
        body = [d for d in posed.draws if d.mesh_name == "Body"]
        p, n = np.concatenate([d.positions for d in body]), np.concatenate([d.normals for d in body])
        if state == "rest":
            mid, eye_pair, unit = eye_frame(sheets._mesh(posed, "Eyes"))
            # (the ring's radius in pixels at the face's depth: the close-up looks straight at the mouth)
            ends = pixels(cam, np.array([eye_pair[0], eye_pair[0] + [RING * 0.001 * unit, 0.0, 0.0]]))
            ring_px = float(np.linalg.norm(ends[1] - ends[0]))
        seen[state] = p, n[:, 2], contrast(light, pixels(cam, p), ring_px)
    p, rest_z, rest_c = seen["rest"]
    _, smile_z, smile_c = seen["smile"]
    at, count = corner_vertices(FACES[name])
    assert len(p) == count
    corners = p[at]
    out = []
    for eye in eye_pair:
        corner = corners[int(np.argmin(np.abs(corners[:, 0] - eye[0])))]
        t, across = fold_line(p, eye, mid, unit, corner, LINE_END)
        mm = across / unit * 1000
        patch = (t > ALONG[0]) & (t < ALONG[1]) & (np.abs(mm) < ACROSS) & (rest_z > 0.5) & (smile_z > 0.5) \
            & (p[:, 2] > eye[2])
        out.append(float(np.sort(smile_c[patch] - rest_c[patch])[:DARKEST].mean()))
    return out


@pytest.mark.parametrize("name", list(FACES))
def test_the_smiles_fold_has_no_blots(name):
    """Along each fold the smile leaves no vertex more than 6.5 L* darker than its ring beyond what it was at rest.
    On main (d509ab51) -9.72 and -11.52 on #1, -7.70 and -13.09 on #3, -4.54 and -5.79 on #8, -10.77 and -5.87 on #10
    (the face's right, left): mouthSmile's normals, the base mesh's own (4 to 6 mm between vertices), and
    workbench.body.fold_shade's groove turned into one row of them; with the smile's normals evened over the skin it
    moves (workbench.body.smile_smooth) and the groove turned in after, wider on the lip's side, -5.65 and -4.62,
    -3.31 and -5.46, -5.03 and -4.44, -3.98 and -2.71. (#8 passed on main: kept as a guard, the reviewer named it.)"""
    right, left = blots(name)
    assert min(right, left) >= -6.5, (round(right, 2), round(left, 2))
