"""The smile's corners go up and back, not out into a wedge, and its squint is a smile's (blind review AC, defect 2,
the smile 3.5/10: "mouthSmile pulls the lip corners sideways into a thin, flat wedge ... the lip corners should go up
and back, not just out"; worst #2, #5, #10, seed 4639 as data/make_review_sheets.py draws them).

Measured on the body mesh and mouthSmile's sum of shapes (tests/helpers.smile_mouth): the mouth's corners (the lips'
inner edge's ends) smiling less at rest, in mm for eyes 58.5 mm apart, and the mouth's width (the corners' distance
across) against the rest's; the eyes' opening between the lashes' roots as review R's test measures it. On main the
corners went 3.5 to 6.5 mm out each, the mouth 14 to 27 % wider (#2 24 %, #10 27 %, #5 14 %), against a smile's ~10 %,
and the eyes kept 0.48 to 0.56 of their rest opening (#5 0.48: more squint than a smile's)."""

from __future__ import annotations

import sys
from functools import cache
from pathlib import Path

import numpy as np
import pytest
from helpers import smile_mouth
from test_smile_eyes_review_r import opening

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "data"))
import make_review_sheets as sheets  # noqa: E402

#: Review AC's #2, #5 and #10 (the smiles the reviewer named).
FACES = {f"#{k}": sheets.review_settings(12, 4639)[k - 1] for k in (2, 5, 10)}
#: The mouth's width smiling, as a share of its rest width: a smile's ~10 % wider, its corners still drawn out a
#: little (now 9.8 / 10.1 / 9.8 % on #2 / #5 / #10; main 23.8 / 13.7 / 26.8).
WIDER = (0.06, 0.13)
#: The least the corners rise and go back (mm): the travel that is left is up and back (now and on main 11.5 to 12.3
#: up, 7.4 to 9.5 back).
UP, BACK = 9.0, 6.0
#: The share of its rest opening each face's eyes keep smiling: a smile's squint, not more (now 0.66 / 0.60 / 0.65;
#: main 0.56 / 0.48 / 0.56). Review R's test holds the squint's other end (0.7 at most on its faces).
KEPT = 0.58


@cache
def measured(name: str) -> dict:
    m, p, q, _, _, corners = smile_mouth(FACES[name])
    eyes = [p[m.groups[f"helper-{s}-eye"]].mean(0) for s in "lr"]
    unit = float(np.linalg.norm(eyes[0] - eyes[1])) / 0.0585
    d = (q[corners] - p[corners]) * 1000 / unit
    rest_width = float(p[corners[1], 0] - p[corners[0], 0])
    return {"wider": float(q[corners[1], 0] - q[corners[0], 0]) / rest_width - 1.0,
            "up": float(d[:, 1].min()), "back": float(-d[:, 2].max()), "kept": opening(m, q) / opening(m, p)}


@pytest.mark.parametrize("name", list(FACES))
def test_the_smiles_corners_go_up_and_back_not_out(name):
    """Each face's mouth WIDER than at rest by a smile's share, its corners risen UP and drawn BACK at least."""
    got = measured(name)
    assert WIDER[0] <= got["wider"] <= WIDER[1], round(got["wider"], 3)
    assert got["up"] >= UP and got["back"] >= BACK, (round(got["up"], 1), round(got["back"], 1))


@pytest.mark.parametrize("name", list(FACES))
def test_the_smiles_squint_is_a_smiles(name):
    """Each face's eyes keep KEPT of their rest opening or more smiling (review R's bound, 0.5, let #5's smallest eyes
    squint to 0.48)."""
    assert measured(name)["kept"] >= KEPT, round(measured(name)["kept"], 2)
