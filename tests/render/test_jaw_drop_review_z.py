"""viseme_aa's jaw drop against mouthOpen's as blind review Z saw them (issue 46: "mouthOpen and aa nearly the same with
no jaw drop, small lower teeth, a flat tongue"; columns 6 and 7, seed 4636; here #2 and #7, a feminine and a masculine
face as the sheets draw them, without hair or glasses).

Measured on the model the build makes (its Body mesh's morph targets) and through the renderer's own drawing
(tests/helpers.py's close_up_masks: the 384 px front close-up, the opening the Teeth mesh and the mouth's lining): how
far each shape takes the chin down, and how tall the opening is."""

from __future__ import annotations

from functools import cache

import numpy as np
import pytest
from built import built as build_avatar  # one build per run (tests/built.py)
from helpers import close_up_masks, random_settings

from workbench.gltf.glb import read_accessor, read_glb
from workbench.options import ModelOptions, normalize_avatar_settings

#: Review Z's avatars (seed 4636 as data/make_review_sheets.py's review_settings draws them).
FACES = {k: random_settings(12, 4636, with_added=True, heads=True, features=True, palettes=True, spread=True)[k - 1]
         for k in (2, 7)}
#: The chin: the skin on the face's middle line (within MIDDLE metres of the teeth's middle) from CHIN_BAND[0] to
#: CHIN_BAND[1] under the teeth's centre (under the lower lip, over the neck), its CHIN_POINTS most forward vertices.
MIDDLE, CHIN_BAND, CHIN_POINTS = 0.006, (0.02, 0.07), 5
#: The least aa's chin drop may be of mouthOpen's: on main 1.21 (#2, 21.3 mm against 17.6) and 1.22 (#7, 20.4 against
#: 16.7), "no jaw drop"; now 1.36 (23.9 mm) and 1.39 (23.2 mm).
CHIN = 1.3
#: The least aa's opening may be as tall as mouthOpen's (pixel rows of the close-up): on main 1.45 (#2, 120 against 83)
#: and 1.48 (#7, 118 against 80); now 1.73 (144) and 1.80 (144).
HEIGHT = 1.6


@cache
def chin_drop(k: int) -> dict[str, float]:
    """Per shape, how far it takes #k's chin down (mm, the mean of the chin's points; see CHIN_POINTS)."""
    s = normalize_avatar_settings({**FACES[k], "hair": {"style": "none"}, "glasses": "none"})
    doc, binary = read_glb(build_avatar(s, ModelOptions(animations=("idle",))))
    meshes = {m["name"]: m for m in doc["meshes"]}
    teeth = read_accessor(doc, binary, meshes["Teeth"]["primitives"][0]["attributes"]["POSITION"])
    body = meshes["Body"]
    prim = body["primitives"][0]
    rest = read_accessor(doc, binary, prim["attributes"]["POSITION"]).astype(np.float64)
    mouth = teeth.mean(0)
    under = mouth[1] - rest[:, 1]
    line = np.flatnonzero((np.abs(rest[:, 0] - mouth[0]) < MIDDLE) & (under > CHIN_BAND[0]) & (under < CHIN_BAND[1]))
    chin = line[np.argsort(-rest[line, 2], kind="stable")[:CHIN_POINTS]]
    out = {}
    for shape in ("mouthOpen", "viseme_aa"):
        t = prim["targets"][body["extras"]["targetNames"].index(shape)]["POSITION"]
        out[shape] = float(-read_accessor(doc, binary, t)[chin, 1].mean() * 1000)
    return out


@cache
def opening_height(k: int) -> dict[str, int]:
    """Per shape, #k's opening's height in the close-up (pixel rows)."""
    masks = close_up_masks(FACES[k], {s: {s: 1.0} for s in ("mouthOpen", "viseme_aa")})
    return {shape: int(m["open"].any(1).sum()) for shape, m in masks.items()}


@pytest.mark.parametrize("k", sorted(FACES))
def test_aa_drops_the_jaw_past_mouth_open(k):
    """aa takes the chin down at least CHIN times as far as mouthOpen does, and opens the mouth at least HEIGHT times
    as tall (workbench.body.face.COMBINED's viseme_aa: the jaw 0.85, not 0.7, the lower lip carried down by it)."""
    chin, height = chin_drop(k), opening_height(k)
    assert chin["mouthOpen"] > 8.0, chin        # (mouthOpen is a jaw drop too, not the lips parted alone)
    assert chin["viseme_aa"] > CHIN * chin["mouthOpen"] and height["viseme_aa"] > HEIGHT * height["mouthOpen"], \
        (chin, height)
