"""The face's settings over HTTP (contract section 4): ``eyeColor`` colours the iris and each face control
(``face.jawWidth``, ``cheekbones``, ``noseWidth``, ``eyeSize``, ``lipFullness``, ``noseLength``, ``chinLength``,
``browRidge``, ``headWidth``, ``foreheadHeight``, ``eyeSpacing``, ``eyeTilt``, ``noseBridge``) shapes the head the way its name says, in the model and in the
preview; the skeleton stays the body's below the neck; naming the defaults gives the default's bytes; a bad value is 400 naming the field and registers nothing. Two people of one gender and
build with other colours and heights get faces of their own (issue 46: the slim feminine head was the same
woman on four avatars)."""

from __future__ import annotations

import io
from functools import cache

import httpx
import numpy as np
import pytest
from helpers import assert_error, auth
from PIL import Image

from workbench.gltf.glb import read_accessor, read_glb
from workbench.options import FACE_CONTROLS

BASE = {"gender": "feminine", "bodyShape": "slim", "height": 166, "skinTone": "#C68642",
        "hair": {"style": "none", "color": "#2B1B10"}}


def health_counts(server):
    return httpx.get(server.local_url + "/health").json()["data"]["counts"]


@pytest.fixture(scope="module")
def models(server):
    """GLB bytes (LOD 0, no clips) by label, registered and fetched over HTTP once for the module; ``get.preview(label)``
    the preview PNG of one registered, fetched only by the test that looks at previews (the service draws a preview
    when asked: fetching every label's, as before, drew 9 the quick loop's tests never read, 23 in the whole suite)."""
    cache: dict[str, bytes] = {}
    preview_urls: dict[str, str] = {}

    def get(label: str, settings: dict) -> bytes:
        if label not in cache:
            r = httpx.post(server.avatar_base_url + "/avatar", json=settings, headers=auth(server), timeout=120)
            assert r.status_code == 201, r.text
            cache[label] = httpx.get(r.json()["data"]["modelUrl"], timeout=300).content
            preview_urls[label] = r.json()["data"]["previewUrl"]
        return cache[label]

    def preview(label: str) -> bytes:
        r = httpx.get(preview_urls[label], timeout=300)
        assert r.status_code == 200 and r.headers["content-type"] == "image/png", (r.status_code, r.text[:200])
        return r.content

    get.preview = preview
    return get


@cache
def parts(glb: bytes) -> dict:
    doc, binary = read_glb(glb)
    out = {}
    for node in doc["nodes"]:
        if "mesh" in node:
            prim = doc["meshes"][node["mesh"]]["primitives"][0]
            out[node["name"]] = read_accessor(doc, binary, prim["attributes"]["POSITION"]).astype(np.float64)
            if node["name"] == "Body":
                out["Body triangles"] = read_accessor(doc, binary, prim["indices"]).reshape(-1, 3)
    out["joints"] = {n["name"]: np.array(n.get("translation", [0, 0, 0])) for n in doc["nodes"] if "mesh" not in n}
    out["doc"], out["binary"] = doc, binary
    return out


BAD = [({"face": {"jawWidth": 2}}, "face.jawWidth"), ({"face": {"noseWidth": "wide"}}, "face.noseWidth"),
       ({"face": {"noseLength": 1.5}}, "face.noseLength"), ({"face": {"chinLength": None}}, "face.chinLength"),
       ({"face": {"browRidge": "high"}}, "face.browRidge"), ({"face": {"headWidth": 1.5}}, "face.headWidth"),
       ({"face": {"foreheadHeight": "tall"}}, "face.foreheadHeight"),
       ({"face": {"eyeSpacing": -1.2}}, "face.eyeSpacing"), ({"face": {"eyeTilt": "up"}}, "face.eyeTilt"),
       ({"face": {"noseBridge": 3}}, "face.noseBridge"),
       ({"face": {"eyeSize": -1.5}}, "face.eyeSize"), ({"face": {"chin": 1}}, "face.chin"),
       ({"face": [0.5]}, "face"), ({"eyeColor": "blue"}, "eyeColor"), ({"eyeColor": "#12345"}, "eyeColor")]


@pytest.mark.parametrize("bad,field", BAD)
def test_a_bad_face_setting_is_400_naming_the_field_and_registers_nothing(server, bad, field):
    before = health_counts(server)["avatars"]
    assert_error(httpx.post(server.avatar_base_url + "/avatar", json={"gender": "feminine", **bad},
                            headers=auth(server)), 400, "invalid_settings", field)
    assert health_counts(server)["avatars"] == before


def test_naming_the_defaults_gives_the_defaults_bytes(models):
    a = models("base", BASE)
    b = models("named", {**BASE, "eyeColor": "#5B3A1E", "face": {k: 0 for k in FACE_CONTROLS}})
    assert a == b


def _moved(label: str, models, settings: dict):
    """The Body's rest positions of ``settings`` and of BASE, and the head's frame (the eyes' centres)."""
    new, old = parts(models(label, settings)), parts(models("base", BASE))
    assert new["Body"].shape == old["Body"].shape      # the same topology: vertex k is the same point of the body
    eyes = old["Eyes"]
    mid = (eyes[:, 0].min() + eyes[:, 0].max()) / 2
    return new["Body"], old["Body"], mid, eyes


def _swept(new: np.ndarray, old: np.ndarray, triangles: np.ndarray, moved: np.ndarray) -> float:
    """The volume (m^3) the ``moved`` vertices sweep from ``old`` to ``new``: the signed tetrahedra from the origin of
    the triangles touching them, new less old (their outer edges stay put, so the origin cancels), outward positive.

    >>> tri = np.array([[0, 1, 2]])
    >>> old = np.array([[0.0, 0.0, 1.0], [1.0, 0.0, 1.0], [0.0, 1.0, 1.0]])
    >>> round(_swept(old * 2, old, tri, np.ones(3, bool)), 3)
    1.167
    """
    t = triangles[moved[triangles].any(1)]

    def volume(p: np.ndarray) -> float:
        return float(np.einsum("ij,ij->i", p[t[:, 0]], np.cross(p[t[:, 1]], p[t[:, 2]])).sum() / 6)

    return volume(new) - volume(old)


def _outward(p, d, mid):
    return np.sign(p[:, 0] - mid) * d[:, 0]



# The quick loop shapes one control over HTTP (jawWidth, the skeleton's test builds it too); the whole suite each
# of them, two avatars apiece (FACE_CONTROLS' other seven were 14 of the file's 25 avatars, 31 s of a worker's 813
# in the quick loop, docs/testing.md): every control takes the same way from the request to the face rig.
@pytest.mark.parametrize("control", [pytest.param(c, marks=() if c == "jawWidth" else pytest.mark.slow)
                                     for c in FACE_CONTROLS])
def test_each_face_control_shapes_the_head_as_its_name_says(models, control):
    """At +1 and at -1 each control moves the head's vertices at least a millimetre and a half, only above
    the neck, and the way its name says, opposite ways for opposite signs: the jaw's angles, the
    cheekbones and the head's sides out to the sides, the nose's wings out, the eyes' lids apart (the upper up, the
    lower down), the lips' volume larger (the skin they move sweeps out; contract section 4: "the lips' volume"), the nose's top and bottom apart, the chin down, the brows forward, the
    crown up over the eyes, the eyes' corners and lids out from the middle, the outer corners up and the inner down.
    (A control that raises or lowers the crown, the head's own two, changes the stature, which
    the height's exact scale takes back: below the neck the body moves by that one scale and nothing else.)"""
    results = {}
    for sign in (1, -1):
        new, old, mid, eyes = _moved(f"{control}{sign:+d}", models, {**BASE, "face": {control: sign}})
        eye_y = eyes[:, 1].mean()
        below = old[:, 1] < eye_y - 0.3                             # the shoulders down
        fit = np.linalg.lstsq(np.c_[old[below], np.ones(below.sum())], new[below], rcond=None)[0]
        rescaled = np.c_[old, np.ones(len(old))] @ fit                 # the body's one scale (the identity if none)
        assert np.allclose(fit[:3], np.eye(3) * np.trace(fit[:3]) / 3, atol=1e-4), (control, fit)   # a scale, no more
        if control not in ("headWidth", "foreheadHeight"):         # the face's own controls: not even a scale
            assert np.allclose(fit, np.r_[np.eye(3), np.zeros((1, 3))], atol=1e-5), (control, fit)
        d = new - rescaled
        size = np.linalg.norm(d, axis=1)
        moved = size > 2e-4
        # (lipFullness at -1 a millimetre and a fifth: 1.31 mm since every face's upper lip is 0.15 thinner at rest
        # (blind review G's pout), while the thinnest lips stay where viseme_O folds them (details.LIP_CAP), so -1
        # has that much less room; +1 moves them as before)
        # (eyeTilt's eye corners a millimetre and a quarter to a half, the two corners opposite ways: the eyes' axis
        # some 4 to 7 degrees turned, 1.26 mm at -1)
        least = 0.0012 if (control, sign) == ("lipFullness", -1) or control == "eyeTilt" else 0.0015
        assert size.max() > least, (control, sign, size.max())
        # nothing below the neck moves (a longer chin draws the skin under it down to the neck's top, 16.3 cm)
        assert old[moved, 1].min() > eye_y - (0.17 if control == "chinLength" else 0.16), control
        p, dm = old[moved], d[moved]
        if control in ("jawWidth", "cheekbones", "noseWidth", "headWidth", "eyeSpacing"):
            along = _outward(p, dm, mid)
        elif control == "eyeTilt":                                   # outside the eyes' centres up, inside them down
            centre = np.abs(eyes[:, 0] - mid).mean()
            along = np.sign(np.abs(p[:, 0] - mid) - centre) * dm[:, 1]
        elif control == "foreheadHeight":                           # the crown up (the body's scale taken off)
            along = dm[p[:, 1] > p[:, 1].max() - 0.02, 1]
        elif control == "eyeSize":
            near = np.abs(p[:, 1] - eye_y) < 0.02
            along = np.sign(p[near, 1] - eye_y) * dm[near, 1]
        elif control == "noseLength":                                # the nose's root and base apart
            along = np.sign(p[:, 1] - p[:, 1].mean()) * dm[:, 1]
        elif control == "chinLength":                                # the chin down
            along = -dm[:, 1]
        elif control == "lipFullness":                               # the lips' volume: what the moved skin sweeps
            along = np.array([_swept(new, old, parts(models("base", BASE))["Body triangles"], moved)])
        else:                                                        # lips, brows and the nose's bridge: forward
            along = dm[:, 2]
        results[sign] = float(np.mean(along))
    assert results[1] > 0 > results[-1], (control, results)


def test_the_skeleton_stays_the_bodys_below_the_neck(models):
    """A face control moves no joint below the head (the clothes and clips fit as before) and the head's own
    joints by a millimetre at most."""
    a = parts(models("base", BASE))["joints"]
    b = parts(models("jawWidth+1", {**BASE, "face": {"jawWidth": 1}}))["joints"]
    assert a.keys() == b.keys()
    for name in a:
        limit = 1e-3 if name in ("Head", "HeadTop_End", "Neck") else 1e-6
        assert np.abs(a[name] - b[name]).max() <= limit, name


def _iris(glb: bytes) -> np.ndarray:
    p = parts(glb)
    doc, binary = p["doc"], p["binary"]
    mat = next(m for m in doc["materials"] if m["name"] == "Eyes")
    img = doc["images"][doc["textures"][mat["pbrMetallicRoughness"]["baseColorTexture"]["index"]]["source"]]
    view = doc["bufferViews"][img["bufferView"]]
    start = view.get("byteOffset", 0)
    pixels = np.asarray(Image.open(io.BytesIO(binary[start:start + view["byteLength"]])).convert("RGB"), float)
    n = pixels.shape[0]
    return pixels[n // 2 - 4:n // 2 + 4, int(n * 0.62):int(n * 0.66)].reshape(-1, 3).mean(0)   # between pupil and rim


# Four slim feminine people with their own skin, eyes, hair colour and height, every face control at 0 (issue 46).
PEOPLE = [BASE, {**BASE, "skinTone": "#8D5524", "eyeColor": "#3A6EA5", "height": 171},
          {**BASE, "skinTone": "#F1C27D", "hair": {"style": "none", "color": "#D8B070"}, "height": 160},
          {**BASE, "skinTone": "#E0AC8A", "eyeColor": "#4F7A3A", "height": 168}]


def test_eye_color_colours_the_iris(models):
    """The iris takes the eyeColor asked for (blue eyes are blue, green eyes green); the default is brown. The
    blue and the green are two of PEOPLE's (#3A6EA5, #4F7A3A), whose avatars the faces' test fetches too: two
    avatars fewer over HTTP than the blue and green of their own (#2F6DB5, #3E8A3A) this test built before."""
    brown = _iris(models("base", BASE))
    blue = _iris(models("person1", PEOPLE[1]))
    green = _iris(models("person3", PEOPLE[3]))
    assert brown[0] > brown[1] > brown[2]
    assert blue[2] > blue[1] > blue[0] and blue[2] > 1.5 * blue[0]
    assert green[1] > green[0] and green[1] > green[2]


@pytest.mark.parametrize("face", [{"jawWidth": 1, "eyeSize": 1},
                                  {"noseLength": 1, "chinLength": 1, "browRidge": 1}])
def test_the_face_reaches_the_preview(models, face):
    """The previews are drawn from the same body: a wide jaw and big eyes change the portrait, and so do a long
    nose and chin and a forward brow."""
    models("base", BASE)
    label = "preview:" + ",".join(face)
    models(label, {**BASE, "face": face})
    a, b = (np.asarray(Image.open(io.BytesIO(models.preview(k))).convert("RGB"), float) for k in ("base", label))
    assert a.shape == b.shape and (np.abs(a - b).max(2) > 24).sum() > 200


def test_people_of_one_build_have_faces_of_their_own(models):
    """Four slim feminine avatars with their own skin, eyes, hair colour and height, every face control at 0:
    four faces. Their heads, brought to one size and place (by the eyes), differ by millimetres at the nose,
    mouth, chin or eyes (the face's own features); the same settings give the same bytes."""
    people = PEOPLE
    heads = []
    for k, s in enumerate(people):
        p = parts(models(f"person{k}", s))
        body, eyes = p["Body"], p["Eyes"]
        heads.append((body - eyes.mean(0)) / (eyes[:, 0].max() - eyes[:, 0].min()))
    face = (np.abs(heads[0][:, 1]) < 2.5) & (heads[0][:, 2] > -0.5)     # the face's vertices (the same in each)
    heads = [h[face] for h in heads]
    for i in range(len(heads)):
        for j in range(i + 1, len(heads)):
            differ = np.linalg.norm(heads[i] - heads[j], axis=1)
            assert np.percentile(differ, 95) > 0.02, (i, j)             # 2 % of the eyes' span: about 2 mm
    assert models("person0", people[0]) == models("base", BASE)


# Review W's draw's #10 (seed 4633): a long nose low over a short upper lip, whose base stands further forward than
# the lip within 12 mm of the mouth's corners. The lips' border search (workbench.body.lip_heights.borders) took the
# nose's base for the upper lip's front, found no turn after it, and the model failed to build (IndexError): the
# service answered the model and the preview with an error.
LOW_NOSE = {"gender": "feminine", "bodyShape": "average", "height": 151.8, "skinTone": "#896344", "eyeColor": "#4B7D99",
            "face": {"jawWidth": 0.1, "cheekbones": 0.8, "noseWidth": 0.1, "eyeSize": -0.9, "lipFullness": -1.0,
                     "noseLength": 0.5, "chinLength": -0.1, "browRidge": 0.8, "headWidth": -0.4, "foreheadHeight": 0.4,
                     "eyeSpacing": -0.3, "eyeTilt": -0.6, "noseBridge": 0.0},
            "hair": {"style": "ponytail", "color": "#C6C2BE"},
            "outfit": {"top": "#AD3A3D", "bottom": "#383D42", "shoes": "#9C7959", "topStyle": "tee",
                       "bottomStyle": "skirt", "shoeStyle": "boots"}, "glasses": "clear", "pose": "relaxed"}


def test_a_nose_low_over_a_short_upper_lip_builds_and_previews(models):
    glb = models("low nose", LOW_NOSE)
    assert glb[:4] == b"glTF"
    assert Image.open(io.BytesIO(models.preview("low nose"))).size[0] > 0
