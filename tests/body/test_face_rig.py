"""The face rig beyond ARKit (issue 36): the 15 Oculus visemes and mouthOpen, mouthSmile, eyesClosed,
eyesLookUp, eyesLookDown, each a real shape in the GLB that moves what it should: the mouth for the
visemes (and the lower teeth and tongue with the jaw), the eyelids for eyesClosed, the eyes for the looks;
made as docs/face_rig.md says."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import numpy as np
import pytest
from built import built as build_avatar  # one build per run (tests/built.py)

from workbench.body.face import ARKIT, COMBINED, EXTRA, SHAPES, VISEMES, combination
from workbench.gltf.glb import read_accessor, read_glb
from workbench.options import ModelOptions, normalize_avatar_settings

DOC = Path(__file__).resolve().parents[2] / "docs" / "face_rig.md"


@cache
def model(gender="feminine", lod=0):
    # With the idle clip, as the look tests build this body (the shapes read here are the same): one build per run
    # shared with them (suite42).
    glb = build_avatar(normalize_avatar_settings({"gender": gender, "hair": {"style": "none"}}),
                       ModelOptions(lod=lod, animations=("idle",)))
    return read_glb(glb)


def shape(doc, binary, mesh: str, name: str):
    """(rest positions, deltas) of a mesh's shape, read back from the GLB."""
    m = next(m for m in doc["meshes"] if m["name"] == mesh)
    prim = m["primitives"][0]
    assert m["extras"]["targetNames"] == list(SHAPES)
    return (read_accessor(doc, binary, prim["attributes"]["POSITION"]),
            read_accessor(doc, binary, prim["targets"][SHAPES.index(name)]["POSITION"]))


def mouth_centre(doc, binary):
    body, smile_l = shape(doc, binary, "Body", "mouthSmileLeft")
    _, smile_r = shape(doc, binary, "Body", "mouthSmileRight")
    corners = [body[np.argmax(np.linalg.norm(d, axis=1))] for d in (smile_l, smile_r)]
    return (corners[0] + corners[1]) / 2, float(np.linalg.norm(corners[0] - corners[1]))


def test_names_and_order():
    assert SHAPES[:52] == ARKIT and len(VISEMES) == 15 and len(EXTRA) == 5
    assert VISEMES == tuple(f"viseme_{v}" for v in "sil PP FF TH DD kk CH SS nn RR aa E I O U".split())
    assert EXTRA == ("mouthOpen", "mouthSmile", "eyesClosed", "eyesLookUp", "eyesLookDown")
    for lod in (0, 1):
        doc, _ = model(lod=lod)
        morphed = {m["name"] for m in doc["meshes"] if m.get("extras", {}).get("targetNames") == list(SHAPES)}
        assert morphed == {"Body", "Eyes", "Eyelashes", "Eyebrows", "Teeth"}, lod


@pytest.mark.parametrize("gender", ["feminine", "masculine"])
@pytest.mark.parametrize("name", [v for v in VISEMES if v != "viseme_sil"] + ["mouthOpen", "mouthSmile"])
def test_visemes_move_the_mouth(gender, name):
    """At least 2 mm somewhere; nine tenths of the movement in the lower face (below the eyes, within two
    mouth widths of the mouth: lips, cheeks, jaw and chin), the most of it on the lips (the smile, which
    narrows the eyes too, three quarters)."""
    doc, binary = model(gender)
    centre, width = mouth_centre(doc, binary)
    body, d = shape(doc, binary, "Body", name)
    eyes, _ = shape(doc, binary, "Eyes", name)
    size = np.linalg.norm(d, axis=1)
    assert size.max() > 0.002, size.max()
    lower_face = (np.linalg.norm(body - centre, axis=1) < 2 * width) & (body[:, 1] < eyes[:, 1].min())
    assert size[lower_face].sum() > (0.75 if name == "mouthSmile" else 0.9) * size.sum()
    lips = np.linalg.norm(body - centre, axis=1) < 0.6 * width
    assert size[lips].max() > 0.7 * size.max()
    # The eyes stay: no viseme reaches them.
    _, eyes = shape(doc, binary, "Eyes", name)
    assert not eyes.any()


def test_silence_is_the_rest_face():
    doc, binary = model()
    for mesh in ("Body", "Eyes", "Eyelashes", "Eyebrows", "Teeth"):
        assert not shape(doc, binary, mesh, "viseme_sil")[1].any()


@pytest.mark.parametrize("name", [n for n in VISEMES + EXTRA if combination(n).get("jawOpen", 0) >= 0.1])
def test_the_lower_teeth_and_tongue_move_with_the_jaw(name):
    """Where a shape opens the jaw, the lower teeth and the tongue drop with it, as far as the jaw's share
    of the shape says (to a tenth of a millimetre); the upper teeth stay."""
    doc, binary = model()
    teeth, d = shape(doc, binary, "Teeth", name)
    _, jaw = shape(doc, binary, "Teeth", "jawOpen")
    share = combination(name)["jawOpen"]
    lower = jaw[:, 1] < -0.005
    assert lower.sum() > 50
    expected = share * jaw + sum(w * shape(doc, binary, "Teeth", k)[1] for k, w in combination(name).items()
                                 if k in ARKIT and k != "jawOpen")
    # (tongueUp, the tongue's lift, is no target of its own: the tongue alone moves by it.)
    lifted = np.zeros(len(d), bool) if "tongueUp" not in combination(name) else np.abs(d - expected).max(1) > 1e-4
    assert not (lifted & (teeth[:, 1] > teeth[:, 1].mean() + 0.012)).any()
    lower &= ~lifted
    assert np.abs(d[lower] - expected[lower]).max() < 1e-4
    assert d[lower, 1].mean() < 0.8 * share * jaw[lower, 1].mean() < 0   # down, as far as the jaw goes
    upper = np.linalg.norm(jaw, axis=1) == 0
    assert np.abs(d[upper]).max() < 0.001


def test_eyes_closed_shuts_both_upper_lids():
    doc, binary = model()
    body, d = shape(doc, binary, "Body", "eyesClosed")
    eyes, _ = shape(doc, binary, "Eyes", "eyesClosed")
    for sign in (1, -1):
        eye = eyes[np.sign(eyes[:, 0] - eyes[:, 0].mean()) == sign].mean(0)
        around = np.linalg.norm(body - eye, axis=1) < 0.03
        size = np.linalg.norm(d, axis=1)
        lid = around & (size > 0.5 * size[around].max()) & (body[:, 1] > eye[1])
        assert lid.sum() > 5 and d[lid, 1].mean() < -0.004
    # Nothing but the eyes' surroundings moves.
    size = np.linalg.norm(d, axis=1)
    near = np.min([np.linalg.norm(body - eyes[np.sign(eyes[:, 0] - eyes[:, 0].mean()) == s].mean(0), axis=1)
                   for s in (1, -1)], axis=0) < 0.04
    assert size[near].sum() > 0.95 * size.sum()
    _, lashes = shape(doc, binary, "Eyelashes", "eyesClosed")
    assert lashes[:, 1].min() < -0.003                 # the lashes come down with the lids


@pytest.mark.parametrize("name,up", [("eyesLookUp", True), ("eyesLookDown", False)])
def test_the_eyes_look_up_and_down(name, up):
    doc, binary = model()
    eyes, d = shape(doc, binary, "Eyes", name)
    front = eyes[:, 2] > eyes[:, 2].max() - 0.004        # the corneas
    assert (d[front, 1].mean() > 0.001) if up else (d[front, 1].mean() < -0.001)
    assert abs(d[front, 0].mean()) < 0.0005            # both eyes the same way: no squint


def test_the_docs_say_how_each_shape_is_made():
    """docs/face_rig.md's table is the code's: every viseme and extra, with its sum of ARKit shapes."""
    rows = re.findall(r"^\| (\w+) \| ([^|]*) \|", DOC.read_text(), flags=re.M)
    table = {name: cells.strip() for name, cells in rows if name in COMBINED}
    assert set(table) == set(COMBINED)
    for name, cells in table.items():
        documented = {} if cells == "(none)" else {k: float(w) for k, w in re.findall(r"(\w+) ([\d.]+)", cells)}
        assert documented == COMBINED[name], name
