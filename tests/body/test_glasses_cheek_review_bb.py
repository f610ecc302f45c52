"""Blind review BB (seed 4790), among what looked outright broken: "#8 mouthSmile, all three renderers: a skin-coloured
spike of cheek pokes through the lower-left rim of the glasses. The cheek raise intersects the frame."

The smile raises the cheeks up to 13 mm and brings them 6 to 8 mm forward under the eyes; a heavy face's full cheek
under a deep clear frame's outer rim (which wraps back round the face) came through it. The skin now stops behind the
frame (workbench.body.glasses_hold). Measured in the GLB: the skin's triangles (each sampled at 28 points) against
the back of the frames' lower half (its triangles sampled alike, on a 0.5 mm grid), with every face shape at full
weight, over the cheeks: on main #8's mouthSmile 5.1 mm in front of the frame's back (319 samples; mouthSmileLeft and
Right 3.2 and 3.1), #2's (aviators) 0.7 mm; now none in front, in any shape (#12's aviators none on main either).
"""

from functools import cache

import numpy as np
import pytest
from helpers import face_model, random_settings, read_accessor

#: Review BB's avatars whose smiles came through their frames, as its sheets drew them
#: (data/make_review_sheets.review_settings(12, 4790)).
REVIEW = random_settings(12, 4790, with_added=True, heads=True, features=True, palettes=True, spread=True, recent=True)
FACES = {f"BB #{i}": REVIEW[i - 1] for i in (2, 8, 12)}
#: How far (metres) the skin may stand in front of the frame's back: a grid cell's slope at most.
THROUGH = 0.0002
#: The cheeks: the skin further than this (metres) to either side of the face's middle. (The nose's sides under the
#: nose pads, which rest on them, are left out: a sneer or a frown moves the skin there under the pads by up to 0.8 mm
#: on #12's aviators, unseen.)
NOSE = 0.012
CELL = 0.0005
WEIGHTS = np.array([(a, b, 1 - a - b) for a in np.linspace(0, 1, 7) for b in np.linspace(0, 1, 7) if a + b <= 1 + 1e-9])


def _triangles(f, mesh: str) -> np.ndarray:
    m = f._mesh(mesh)
    return read_accessor(f.doc, f.binary, m["primitives"][0]["indices"]).reshape(-1, 3)


@cache
def through(name: str) -> dict[str, tuple[int, float]]:
    """Per face shape that brings the skin of the cheeks (:data:`NOSE`) in front of the frames' lower half: (samples in
    front, the most, metres)."""
    f = face_model(FACES[name])
    glasses = f.attribute("Glasses", "POSITION")
    samples = np.einsum("wk,tkc->twc", WEIGHTS, glasses[_triangles(f, "Glasses")]).reshape(-1, 3)
    frame = samples[(samples[:, 2] > f.mid[2] - 0.004) & (samples[:, 1] < f.mid[1] - 0.004)]
    origin = frame[:, :2].min(0)
    cells = np.floor((frame[:, :2] - origin) / CELL).astype(int)
    back = np.full(tuple(cells.max(0) + 1), np.inf)
    np.minimum.at(back, (cells[:, 0], cells[:, 1]), frame[:, 2])
    rest = f.attribute("Body", "POSITION")
    tris = _triangles(f, "Body")
    # (The face's front round the glasses at rest, 3 cm wider and deeper than they reach: no shape moves skin further.)
    centre = rest[tris].mean(1)
    tris = tris[(np.abs(centre[:, 1] - f.mid[1]) < 0.06) & (centre[:, 2] > frame[:, 2].min() - 0.03)]
    names = f._mesh("Body")["extras"]["targetNames"]
    out = {}
    for shape in ["rest"] + names:
        moved = rest if shape == "rest" else rest + f.target("Body", shape, "POSITION")
        skin = np.einsum("wk,tkc->twc", WEIGHTS, moved[tris]).reshape(-1, 3)
        cheeks = np.abs(skin[:, 0] - f.mid[0]) > NOSE
        at = np.floor((skin[:, :2] - origin) / CELL).astype(int)
        inside = (at >= 0).all(1) & (at[:, 0] < back.shape[0]) & (at[:, 1] < back.shape[1]) & cheeks
        depth = skin[inside, 2] - back[at[inside, 0], at[inside, 1]]
        if (depth > 0).any():
            out[shape] = (int((depth > 0).sum()), float(depth.max()))
    return out


@pytest.mark.parametrize("name", list(FACES))
def test_no_face_shape_brings_the_skin_through_the_glasses(name):
    worst = {shape: (n, round(d * 1000, 2)) for shape, (n, d) in through(name).items() if d > THROUGH}
    assert not worst, (name, worst)


def test_a_smile_through_the_rim_would_fail():
    """The measure sees what it is for: #8's smile with its cheek raised 3 mm more comes through the rim."""
    f = face_model(FACES["BB #8"])
    smile = f.target("Body", "mouthSmile", "POSITION")
    raised = np.where(np.linalg.norm(smile, axis=1, keepdims=True) > 0.004, smile + [0.0, 0.0, 0.003], smile)
    original = f.target
    try:
        f.target = lambda mesh, shape, key: raised if (mesh, shape, key) == ("Body", "mouthSmile", "POSITION") \
            else original(mesh, shape, key)
        through.cache_clear()
        assert through("BB #8").get("mouthSmile", (0, 0.0))[1] > 0.001
    finally:
        del f.target
        through.cache_clear()
