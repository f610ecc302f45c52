"""inspect and compare: sources accepted, tables, totals and a stable text form."""

from __future__ import annotations

import re
from types import SimpleNamespace

import pytest

from workbench.gltf import GlbSummary, build_animation, build_avatar, compare, inspect
from workbench.options import ModelOptions, normalize_avatar_settings

AVATAR = normalize_avatar_settings({"gender": "feminine", "glasses": "clear"})


@pytest.fixture(scope="module")
def glb():
    return build_avatar(AVATAR, ModelOptions(lod=2, animations=("walk", "nod")))


def test_sources_bytes_path_and_response(glb, tmp_path):
    path = tmp_path / "a.glb"
    path.write_bytes(glb)
    a, b, c, d = inspect(glb), inspect(path), inspect(str(path)), inspect(SimpleNamespace(content=glb))
    assert repr(a) == repr(b) == repr(c) == repr(d)
    with pytest.raises(ValueError, match="^inspect:"):
        inspect(123)
    with pytest.raises(ValueError, match="^inspect:"):
        inspect(b"not a glb file at all")


def test_tables_and_totals(glb):
    s = inspect(glb)
    assert isinstance(s, GlbSummary)
    assert list(s.meshes.columns) == ["name", "primitives", "triangles", "vertices", "skinned"]
    assert s.triangles == s.meshes["triangles"].sum() > 0
    assert list(s.materials.columns) == ["name", "alphaMode", "baseColorTexture"]
    assert list(s.textures.columns) == ["name", "image", "mimeType", "width", "height", "bytes"]
    assert (s.textures["bytes"] > 0).all()
    assert list(s.animations.columns) == ["name", "duration_s", "channels", "frames"]
    assert list(s.animations["name"]) == ["walk", "nod"]
    assert s.animations.set_index("name").loc["walk", "duration_s"] == pytest.approx(1.1)
    assert len(s.skeleton) == 65 and s.skeleton[0] == "Hips"
    assert s.byte_length == len(glb)
    # the eyes' wet film and their index of refraction, the hair's highlight, the skin's and hair's reflectance, the soft cloths' sheen
    assert sorted(s.extensions_used) == ["KHR_materials_anisotropy", "KHR_materials_clearcoat", "KHR_materials_ior",
                                         "KHR_materials_sheen", "KHR_materials_specular"]
    assert "Armature" in list(s.nodes["name"])


def test_repr_is_stable_and_html_has_tables(glb):
    s = inspect(glb)
    text = repr(s)
    assert text == repr(inspect(glb))
    assert not re.search(r"0x[0-9a-f]{6,}", text)
    assert text.startswith(f"GlbSummary: {len(glb)} bytes")
    html = s._repr_html_()
    assert html.count("<table") == 4


def test_compare_one_row_per_label(glb):
    table = compare({"avatar": inspect(glb), "clip": inspect(build_animation("masculine", "wave"))})
    assert list(table.index) == ["avatar", "clip"]
    assert list(table.columns) == ["triangles", "meshes", "materials", "textures", "animations", "bytes"]
    assert table.loc["clip", "triangles"] == 0 and table.loc["clip", "animations"] == 1
    # skin (colour, occlusion, normal, roughness), eyes, lashes, brows, teeth (colour, occlusion, roughness), hair,
    # top, bottom, shoes (colour and folds' normal map each: LOD 2 has no weave or roughness map), glasses
    # (colour, roughness), and the skin's, the teeth's and the glasses' specular maps (the mouth's inside reflects no
    # room in a glTF viewer: KHR_materials_specular's specularTexture; the see-through lenses reflect 0.3 of it)
    assert table.loc["avatar", "textures"] == 22
