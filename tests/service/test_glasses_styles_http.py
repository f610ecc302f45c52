"""The glasses styles over HTTP (contract section 4, ``glasses``; blind review O, defect 8: more styles): ``round``
and ``aviator`` are accepted and described in /openapi.json, a model of each carries its ``Glasses`` mesh with a
metallic frame; a value outside the five is answered 400 naming the field and every allowed value, and registers
nothing."""

from __future__ import annotations

import httpx
import pytest
from helpers import assert_refused_value, auth

from workbench.gltf.glb import read_glb
from workbench.options import GLASSES


@pytest.mark.parametrize("value", ["monocle", "Round", "aviators", 2, ["round"]])
def test_a_bad_glasses_value_is_400_naming_the_field_and_the_values_and_registers_nothing(server, value):
    assert_refused_value(server, {"gender": "masculine", "glasses": value}, "glasses", GLASSES)


def test_openapi_lists_the_glasses_styles(server):
    spec = httpx.get(server.root + "/openapi.json").json()
    assert spec["components"]["schemas"]["AvatarSettings"]["properties"]["glasses"] == {
        "enum": ["none", "clear", "sunglasses", "round", "aviator"], "default": "none"}


@pytest.mark.parametrize("kind", ["round", "aviator"])
def test_each_new_style_is_registered_and_its_model_wears_it(server, kind):
    r = httpx.post(server.avatar_base_url + "/avatar", json={"gender": "feminine", "glasses": kind},
                   headers=auth(server), timeout=120)
    assert r.status_code == 201, r.text
    doc, _ = read_glb(httpx.get(r.json()["data"]["modelUrl"] + "?lod=2", timeout=300).content)
    assert "Glasses" in [m["name"] for m in doc["meshes"]]
    assert next(m for m in doc["materials"] if m["name"] == "Glasses")["pbrMetallicRoughness"]["metallicFactor"] == 1.0
