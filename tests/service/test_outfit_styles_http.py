"""The outfit's cuts over HTTP (contract section 4): ``outfit.topStyle``, ``outfit.bottomStyle`` and
``outfit.shoeStyle`` are accepted, defaulted, described in /openapi.json and change the model; a bad value is
answered 400 naming the field and the allowed values, and registers nothing."""

from __future__ import annotations

import httpx
import pytest
from helpers import assert_error, auth

from workbench.gltf.glb import read_glb
from workbench.options import BOTTOM_STYLES, SHOE_STYLES, TOP_STYLES


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
    ({"shoeStyle": "sandals"}, "outfit.shoeStyle", SHOE_STYLES),
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
    assert outfit["shoeStyle"] == {"enum": list(SHOE_STYLES), "default": "sneakers"}


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


def _bounds(glb: bytes, name: str) -> tuple[list[float], list[float]]:
    doc, _ = read_glb(glb)
    node = next(n for n in doc["nodes"] if n.get("name") == name)
    acc = [doc["accessors"][p["attributes"]["POSITION"]] for p in doc["meshes"][node["mesh"]]["primitives"]]
    return ([min(a["min"][k] for a in acc) for k in range(3)], [max(a["max"][k] for a in acc) for k in range(3)])


def test_shoe_style_changes_the_shoes_and_the_default_is_sneakers(server):
    """Boots reach far higher up the leg than sneakers (a shaft to mid-calf against a collar under the ankle)
    and carry more of the model; naming sneakers gives the default's model byte for byte; the shoes'
    colour is on both."""
    settings = {"gender": "feminine", "height": 170, "outfit": {"shoes": "#A03020", "bottomStyle": "shorts"}}
    default = register(server, settings)
    named = register(server, {**settings, "outfit": {**settings["outfit"], "shoeStyle": "sneakers"}})
    boots = register(server, {**settings, "outfit": {**settings["outfit"], "shoeStyle": "boots"}})
    glbs = [httpx.get(d["modelUrl"] + "?lod=1", timeout=300).content for d in (default, named, boots)]
    assert glbs[0] == glbs[1]
    sneaker_top, boot_top = _bounds(glbs[0], "Outfit_Footwear")[1][1], _bounds(glbs[2], "Outfit_Footwear")[1][1]
    assert sneaker_top < 0.11 < 0.16 < boot_top, (sneaker_top, boot_top)
    assert _mesh_sizes(glbs[0])["Outfit_Footwear"] != _mesh_sizes(glbs[2])["Outfit_Footwear"]
