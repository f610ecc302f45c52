"""Faces of their own, and necks for their bodies (issue 46, blind review Y, defect 2: "every avatar has the same stiff,
mannequin face": #3, #4 and #6 "the same man with three wigs"; #8 "gaunt, pencil neck, long narrow jaw"; wanted:
"distinct face presets (nose, eye shape, brow ridge, lip shape, cheekbones) ... and neck thickness scaled to the body").

Review Y's own twelve avatars (``make_review_sheets.py --seed 4635``), measured on the models' bodies
(:func:`workbench.body.mesh.body_mesh`) at review V's fixed landmarks (the eyes' corners and centres, the brows, the
nose's root, tip, base and wings, the mouth's corners and lips, the chin, the jaw's angles, the cheekbones' and the
head's sides), in three dimensions (the nose's projection and the brow ridge are seen in the 3/4 portrait), each pair of
one gender brought onto each other by a turn, a shift and one scale. On main their landmarks lay 5.67 % of the face's size
apart on average, 4.29 % with every face control at 0 (what each person's own features give,
:data:`workbench.body.details.FACE_VARIETY` and ``MORE_VARIETY``); the features now add ``SHAPE_VARIETY`` (the nose's
projection, the eyelid's fold, the inner cheeks). The neck: its narrowest
girth between the Neck and Head joints over the head's girth a centimetre over the brows (people's some 0.58 for a
woman, 32 over 55 cm, 0.68 for a man); #8, slim and feminine, took the slim build's thinner neck and the feminine
face's on top (0.6 of MakeHuman's neck girth off) on top of what the slim macro targets take: 0.489 on main, a pencil
under the head; the slim build's share is gone now (its macro targets still thin the neck).
"""

from __future__ import annotations

from functools import cache

import numpy as np
import pytest
from helpers import random_settings
from test_eye_variety_review_v import landmarks, procrustes

from workbench.body.mesh import _tape, body_mesh, cut
from workbench.options import normalize_avatar_settings

REVIEW_Y = [normalize_avatar_settings(s) for s in
            random_settings(12, seed=4635, with_added=True, heads=True, features=True, palettes=True)]


@cache
def points(controls: bool) -> list[tuple[str, np.ndarray]]:
    """Each of review Y's faces' landmarks (mm, 3D), with its face controls or with them all at 0."""
    names = sorted(landmarks())
    out = []
    for s in REVIEW_Y:
        p = body_mesh(s if controls else {**s, "face": {}}).positions.astype(np.float64) * 1000
        out.append((s["gender"], np.array([p[landmarks()[k]] for k in names])))
    return out


def spread(controls: bool) -> float:
    """The mean distance of the pairs of one gender (%, review V's Procrustes fit, in 3D)."""
    pts = points(controls)
    pairs = [procrustes(a, b) for i, (ga, a) in enumerate(pts) for gb, b in pts[i + 1:] if ga == gb]
    assert len(pairs) == 30
    return float(np.mean(pairs))


@pytest.mark.xfail(strict=True, reason="face36's SHAPE_VARIETY (the nose's projection, base, nostrils, volume, the brow "
                   "ridge, the eyelid's fold, the inner cheeks; 5.97 / 4.61) taken out in its last minutes: it moved review "
                   "N's default cheeks, review P's masculine lip profile, test_lip_profile's nose-tip lines, review X's #2 "
                   "smile fold and test_hair_cards' bun on a 200 cm masculine head")
def test_review_y_faces_differ_more():
    """Review Y's pairs of one gender lie 5.75 % of the face's size apart or more on average (main: 5.67; now 5.79)."""
    assert spread(True) >= 5.75, round(spread(True), 3)


@pytest.mark.xfail(strict=True, reason="face36's SHAPE_VARIETY (the nose's projection, base, nostrils, volume, the brow "
                   "ridge, the eyelid's fold, the inner cheeks; 5.97 / 4.61) taken out in its last minutes: it moved review "
                   "N's default cheeks, review P's masculine lip profile, test_lip_profile's nose-tip lines, review X's #2 "
                   "smile fold and test_hair_cards' bun on a 200 cm masculine head")
def test_review_y_own_features_differ_more():
    """With every face control at 0 (each person's own features alone) 4.35 % or more (main: 4.29; now 4.41)."""
    assert spread(False) >= 4.35, round(spread(False), 3)


def neck_to_head(settings: dict) -> float:
    """The neck's narrowest girth between the Neck and Head joints over the head's girth 1 cm over the brows."""
    m = body_mesh(settings)
    p = m.positions.astype(np.float64)
    tris = m.triangles[m.face_groups["body"]]
    neck, head = m.skeleton.pos("Neck"), m.skeleton.pos("Head")
    girths = []
    for t in np.linspace(0.1, 0.9, 9):
        at = neck + t * (head - neck)
        q = cut(p, tris, 1, at[1])
        girths.append(_tape(q[(np.abs(q[:, 0] - at[0]) < 0.075) & (np.abs(q[:, 2] - at[2]) < 0.085)][:, [0, 2]]))
    q = cut(p, tris, 1, p[landmarks()["browl"], 1] + 0.01)
    return min(girths) / _tape(q[np.abs(q[:, 0] - neck[0]) < 0.12][:, [0, 2]])


@pytest.mark.xfail(strict=True, reason="face36's slim neck (the slim build's 0.3 of MakeHuman's neck girth off gone: 0.510) "
                   "taken out in its last minutes: review E's bob #2 then showed the backdrop between its ends "
                   "(tests/body/test_hair_review_e.py::test_a_bob_shows_no_backdrop_between_its_ends[2-0.0])")
def test_review_y_slim_neck_is_no_pencil():
    """#8 (slim, feminine, 143 cm): its neck 0.505 of its head's girth or more (main: 0.489; now 0.514); and a slim
    build's neck still thinner than an average build's of the same gender and height (0.536)."""
    s = REVIEW_Y[7]
    assert (s["gender"], s["bodyShape"]) == ("feminine", "slim")
    ratio = neck_to_head(s)
    assert ratio >= 0.505, round(ratio, 3)
    assert ratio < neck_to_head({**s, "bodyShape": "average"})
