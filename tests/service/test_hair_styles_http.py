"""The hair styles over HTTP (contract section 4): ``ponytail`` and ``bob`` are accepted and each gives its own
hair in the model, unlike every other style's; a style not in the list is a 400 naming ``hair.style``."""

from __future__ import annotations

import hashlib

import httpx
from helpers import assert_error, auth

from workbench.body.hair.buzz import PAINTED
from workbench.gltf.glb import read_accessor, read_glb
from workbench.options import HAIR_STYLES


def register(server, settings: dict) -> dict:
    r = httpx.post(server.avatar_base_url + "/avatar", json=settings, headers=auth(server), timeout=120)
    assert r.status_code == 201, r.text
    return r.json()["data"]


def hair_of(glb: bytes) -> str | None:
    """A digest of the model's hair (its meshes' positions), None without hair."""
    doc, binary = read_glb(glb)
    mesh = next((m for m in doc["meshes"] if m["name"] == "Hair"), None)
    if mesh is None:
        return None
    h = hashlib.sha256()
    for p in mesh["primitives"]:
        h.update(read_accessor(doc, binary, p["attributes"]["POSITION"]).tobytes())
    return h.hexdigest()


def test_every_style_gives_its_own_hair(server):
    hair = {}
    for style in HAIR_STYLES:
        data = register(server, {"gender": "feminine", "hair": {"style": style, "color": "#6B4A2B"}})
        r = httpx.get(data["modelUrl"] + "?lod=1", timeout=300)
        assert r.status_code == 200
        hair[style] = hair_of(r.content)
    # (Styles painted on the scalp, a shaved head's stubble and a buzz cut, have no Hair mesh.)
    assert all(hair[s] is None for s in PAINTED), hair
    styled = [hair[s] for s in HAIR_STYLES if s not in PAINTED]
    assert None not in styled and len(set(styled)) == len(styled), hair


def test_a_style_not_in_the_list_is_400(server):
    body = assert_error(httpx.post(server.avatar_base_url + "/avatar", json={"hair": {"style": "mohawk"}},
                                   headers=auth(server)), 400, "invalid_settings", "hair.style")
    detail = next(d for d in body["error"]["details"] if d["field"] == "hair.style")
    assert "ponytail" in detail["message"] and "bob" in detail["message"], detail
