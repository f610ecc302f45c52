"""The outfit's cuts over HTTP (contract section 4): ``outfit.topStyle`` and ``outfit.bottomStyle`` are
accepted, defaulted, described in /openapi.json and change the model; a bad value is answered 400 naming
the field and the allowed values, and registers nothing."""

from __future__ import annotations

import httpx
import pytest

from workbench.gltf.glb import read_glb
from workbench.options import BOTTOM_STYLES, TOP_STYLES

from helpers import assert_error, auth


def health_counts(server):
    return httpx.get(server.local_url + "/health").json()["data"]["counts"]


def register(server, settings: dict) -> dict:
    r = httpx.post(server.avatar_base_url + "/avatar", json=settings, headers=auth(server), timeout=120)
    assert r.status_code == 201, r.text
    return r.json()["data"]


BAD = [
    ({"topStyle": "tank"}, "outfit.topStyle", TOP_STYLES),
    ({"topStyle": "Tee"}, "outfit.topStyle", TOP_STYLES),
    ({"topStyle": 1}, "outfit.topStyle", TOP_STYLES),
    ({"bottomStyle": "kilt"}, "outfit.bottomStyle", BOTTOM_STYLES),
    ({"bottomStyle": None}, "outfit.bottomStyle", BOTTOM_STYLES),
    ({"bottomStyle": ["skirt"]}, "outfit.bottomStyle", BOTTOM_STYLES),
]


@pytest.mark.parametrize("outfit,field,allowed", BAD)
def test_a_bad_style_is_400_naming_the_field_and_registers_nothing(server, outfit, field, allowed):
    before = health_counts(server)["avatars"]
    body = assert_error(httpx.post(server.avatar_base_url + "/avatar", json={"gender": "feminine", "outfit": outfit},
                                   headers=auth(server)), 400, "invalid_settings", field)
    detail = next(d for d in body["error"]["details"] if d["field"] == field)
    assert all(style in detail["message"] for style in allowed), detail
    assert health_counts(server)["avatars"] == before


def test_openapi_describes_the_styles_and_their_defaults(server):
    spec = httpx.get(server.root + "/openapi.json").json()
    outfit = spec["components"]["schemas"]["AvatarSettings"]["properties"]["outfit"]["properties"]
    assert outfit["topStyle"] == {"enum": list(TOP_STYLES), "default": "tee"}
    assert outfit["bottomStyle"] == {"enum": list(BOTTOM_STYLES), "default": "trousers"}


def _mesh_sizes(glb: bytes) -> dict[str, int]:
    doc, _ = read_glb(glb)
    return {n["name"]: sum(doc["accessors"][p["indices"]]["count"] for p in doc["meshes"][n["mesh"]]["primitives"])
            for n in doc["nodes"] if "mesh" in n}


def test_styles_change_the_clothes_and_the_defaults_are_tee_and_trousers(server):
    """A hoodie and a skirt give other clothes than the defaults; naming the defaults gives the default's
    model byte for byte."""
    default = register(server, {"gender": "masculine", "height": 181})
    named = register(server, {"gender": "masculine", "height": 181,
                              "outfit": {"topStyle": "tee", "bottomStyle": "trousers"}})
    other = register(server, {"gender": "masculine", "height": 181,
                              "outfit": {"topStyle": "hoodie", "bottomStyle": "skirt"}})
    glbs = [httpx.get(d["modelUrl"] + "?lod=2", timeout=300).content for d in (default, named, other)]
    assert glbs[0] == glbs[1]
    a, c = _mesh_sizes(glbs[0]), _mesh_sizes(glbs[2])
    assert a["Outfit_Top"] != c["Outfit_Top"] and a["Outfit_Bottom"] != c["Outfit_Bottom"]
