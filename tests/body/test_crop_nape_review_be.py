"""The short crop's nape a tapered cut (issue 46: the blind judge of pass 75's back change, what still looked worst:
"the nape ends in an even sawtooth fringe instead of a clean tapered cut"). Measured on the crop's cards (the model's
``Hair`` piece at LOD 0) over the back of the head (more than 150 degrees round from the face): how far past the
style's hairline (polar degrees from the crown, :func:`workbench.body.hair.head.hairline`) they reach.

Each strand stopped at its own share of the hairline, 0.96 to 1.04 of it, all round the head: at the nape its card's
tapered tip hung a centimetre and more past the hairline over the neck, a row of points. On the judged crops (the nine
short crops of the review sheets' seeds 4813 to 4819) the cards reached 10.4 to 11.0 degrees past it; with the back's
strands stopped sooner (workbench/body/hair/short.py's ``SHORT_NAPE_REACH``), 0.3 to 0.6, the painted hairline under
them the fade. Judged blind: 9 of 9."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

from workbench.body.hair.head import hairline, head_of
from workbench.body.mesh import body_mesh
from workbench.gltf.meshes import parts
from workbench.options import normalize_avatar_settings

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "data"))
from make_review_sheets import review_settings  # noqa: E402

#: The review sheets' draws of these seeds (data/make_review_sheets.py), their short crops.
CROPS = [s for seed in range(4813, 4820) for s in review_settings(12, seed) if s["hair"]["style"] == "short"][:9]
#: At most this many degrees past the hairline at the nape.
PAST = 2.0


@pytest.mark.parametrize("k", range(len(CROPS)))
def test_the_nape_ends_at_the_hairline(k):
    s = normalize_avatar_settings(CROPS[k])
    cards = parts(s, 0)["Hair"].positions.astype(np.float64)
    d = cards - np.asarray(head_of(body_mesh(s)).centre, np.float64)
    polar = np.degrees(np.arccos(np.clip(d[:, 1] / np.linalg.norm(d, axis=1), -1, 1)))
    round_from_face = np.degrees(np.arctan2(d[:, 0], d[:, 2]))
    back = np.abs(round_from_face) > 150
    past = polar[back] - hairline("short", round_from_face[back])
    assert past.max() <= PAST, round(float(past.max()), 2)
