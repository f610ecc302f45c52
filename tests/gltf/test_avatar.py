"""build_avatar: skeleton, triangle budgets, mesh/material layout per option, textures, skinning, determinism."""

from __future__ import annotations

import io
from functools import cache

import numpy as np
import pytest
from PIL import Image

from workbench.gltf import build_avatar, inspect
from workbench.gltf.glb import read_accessor, read_glb
from workbench.options import ANIMATIONS, BODY_SHAPES, GESTURES, ModelOptions, normalize_avatar_settings
from workbench.skeleton import JOINT_NAMES

EXPECTED_JOINTS = ["Hips", "Spine", "Spine1", "Spine2", "Neck", "Head", "HeadTop_End"] + [
    f"{side}{part}"
    for side in ("Left", "Right")
    for part in (["Shoulder", "Arm", "ForeArm", "Hand"]
                 + [f"Hand{f}{k}" for f in ("Thumb", "Index", "Middle", "Ring", "Pinky") for k in (1, 2, 3, 4)]
                 + ["UpLeg", "Leg", "Foot", "ToeBase", "Toe_End"])
]

DEFAULT = normalize_avatar_settings({"gender": "masculine"})
GLASSES = normalize_avatar_settings({"gender": "feminine", "glasses": "sunglasses", "hair": {"style": "long"}})
NO_HAIR = normalize_avatar_settings({"gender": "feminine", "hair": {"style": "none"}})
BALD = normalize_avatar_settings({"gender": "masculine", "hair": {"style": "none"}, "glasses": "clear"})
# Curly hair on a heavy body (blind review Q's #3): its LOD 1 was 0.434 of its LOD 0 (curly hair's cards at LOD 1 a
# quarter of LOD 0's), past the contract's 50 % within 5 points, and no case here had curls.
CURLY = normalize_avatar_settings({"gender": "feminine", "bodyShape": "heavy", "hair": {"style": "curly"}})


SETTINGS = {"DEFAULT": DEFAULT, "GLASSES": GLASSES, "NO_HAIR": NO_HAIR, "BALD": BALD, "CURLY": CURLY}


@cache
def built(name: str, options: ModelOptions) -> bytes:
    """The GLB of ``SETTINGS[name]`` under ``options``, built once for the module: build_avatar is pure (same
    settings and options, same bytes: test_deterministic_bytes builds afresh to prove it), and the tests here
    only read the bytes, so the default avatar built for its layout is the one its elbow, glasses and size are
    read from, not eight builds of it."""
    return build_avatar(SETTINGS[name], options)


@pytest.fixture(scope="module", autouse=True)
def _forget_builds():
    """The module's builds (about 4 MB each) are let go when its last test ends."""
    yield
    built.cache_clear()


def doc_of(glb: bytes) -> tuple[dict, bytes]:
    return read_glb(glb)


def test_skeleton_has_the_65_mixamo_joints_under_armature():
    doc, _ = doc_of(built("DEFAULT", ModelOptions(lod=2)))
    names = [doc["nodes"][j]["name"] for j in doc["skins"][0]["joints"]]
    assert len(names) == 65
    assert sorted(names) == sorted(EXPECTED_JOINTS)
    assert list(JOINT_NAMES) == names
    scene_roots = [doc["nodes"][i]["name"] for i in doc["scenes"][doc["scene"]]["nodes"]]
    assert scene_roots[0] == "Armature"
    assert doc["nodes"][doc["nodes"][0]["children"][0]]["name"] == "Hips"


def _world_positions(doc) -> dict[str, np.ndarray]:
    out = {}

    def walk(i, base):
        n = doc["nodes"][i]
        p = base + np.array(n.get("translation", [0, 0, 0]))
        out[n["name"]] = p
        for c in n.get("children", []):
            walk(c, p)
    walk(0, np.zeros(3))
    return out


@pytest.mark.parametrize("gender,height", [("masculine", 178.0), ("feminine", 150.0), ("masculine", 205.0)])
def test_proportions_follow_height_units_and_axes(gender, height):
    s = normalize_avatar_settings({"gender": gender, "height": height})
    glb = build_avatar(s, ModelOptions(lod=2))
    doc, binary = doc_of(glb)
    w = _world_positions(doc)
    assert w["HeadTop_End"][1] == pytest.approx(height / 100, rel=1e-6)
    assert w["LeftHand"][0] > 0.5 > -0.5 > w["RightHand"][0]        # left on +X, metres
    assert w["LeftToe_End"][2] > w["LeftFoot"][2]                    # facing +Z
    body = [m for m in doc["meshes"] if m["name"] == "Body"][0]
    pos = read_accessor(doc, binary, body["primitives"][0]["attributes"]["POSITION"])
    shoes = [m for m in doc["meshes"] if m["name"] == "Outfit_Footwear"][0]
    spos = read_accessor(doc, binary, shoes["primitives"][0]["attributes"]["POSITION"])
    assert abs(spos[:, 1].min()) < 0.01                              # feet on the floor
    assert pos[:, 1].max() == pytest.approx(height / 100, abs=0.02)


def test_genders_and_body_shapes_change_proportions_not_names():
    # At LOD 0: a decimated mesh keeps too few vertices in a 4 cm band to measure a width from them. (Default
    # textures, not a small atlas: the textures are cached by colour and these bodies share theirs, while an atlas
    # resizes every texture into it again on every build.)
    shoulders, waists = {}, {}
    # The seven bodies the asserts below compare (a feminine athletic body is compared with none: not built).
    for gender, shape in [(g, b) for g in ("masculine", "feminine") for b in BODY_SHAPES
                          if (g, b) != ("feminine", "athletic")]:
        doc, binary = doc_of(build_avatar(normalize_avatar_settings(
            {"gender": gender, "bodyShape": shape, "height": 170}), ModelOptions(lod=0)))
        w = _world_positions(doc)
        shoulders[gender, shape] = w["LeftArm"][0]
        body = [m for m in doc["meshes"] if m["name"] == "Outfit_Top"][0]
        pos = read_accessor(doc, binary, body["primitives"][0]["attributes"]["POSITION"])
        band = pos[np.abs(pos[:, 1] - 0.62 * 1.7) < 0.02]
        waists[gender, shape] = band[:, 0].max() - band[:, 0].min()
    assert shoulders["masculine", "average"] > shoulders["feminine", "average"]
    assert shoulders["masculine", "athletic"] > shoulders["masculine", "average"]
    assert waists["masculine", "heavy"] > waists["masculine", "average"] > waists["masculine", "slim"]
    assert waists["feminine", "heavy"] > waists["feminine", "slim"]


def test_triangle_budget_and_lod_ratios():
    for settings in ("DEFAULT", "GLASSES", "BALD", "CURLY"):
        t0 = inspect(built(settings, ModelOptions(lod=0))).triangles
        t1 = inspect(built(settings, ModelOptions(lod=1))).triangles
        t2 = inspect(built(settings, ModelOptions(lod=2, merge_mesh=True))).triangles
        assert t0 >= 20_000
        assert abs(t1 / t0 - 0.50) <= 0.05, (t0, t1)
        assert abs(t2 / t0 - 0.25) <= 0.05, (t0, t2)


def test_default_layout_one_skinned_mesh_per_part():
    s = inspect(built("DEFAULT", ModelOptions()))
    assert list(s.meshes["name"]) == ["Body", "Eyes", "Eyelashes", "Eyebrows", "Teeth", "Hair", "Outfit_Top",
                                      "Outfit_Bottom", "Outfit_Footwear"]
    # Hair is two primitives: its cards cut by alpha (MASK) and its fringe blended over them.
    assert s.meshes["skinned"].all() and list(s.meshes["primitives"]) == [1, 1, 1, 1, 1, 2, 1, 1, 1]
    # Hair's cards and fringe share one image (PNG, for its alpha; the fringe's texture samples it without mipmaps,
    # tests/render/test_threejs_hairline_review_x.py), the lashes and brows blend theirs;
    # the skin's baked occlusion, pores (normal map) and roughness, the teeth's occlusion and roughness, and
    # each garment's normal and roughness maps, are textures of their own.
    assert list(s.materials["alphaMode"]) == ["OPAQUE", "OPAQUE", "BLEND", "BLEND", "OPAQUE", "MASK",
                                              "BLEND"] + ["OPAQUE"] * 3
    mimes = dict(zip(s.textures["name"], s.textures["mimeType"], strict=True))
    assert mimes.pop("Hair") == mimes.pop("Hair_Fringe") == "image/png" and mimes.pop("Eyelashes") == "image/png"
    assert mimes.pop("Eyebrows") == "image/png"
    # (The skin's and the teeth's specular strength, in alpha: PNG.)
    assert mimes.pop("Skin_Specular") == "image/png" and mimes.pop("Teeth_Specular") == "image/png"
    assert set(mimes.values()) == {"image/jpeg"} and len(mimes) == 17
    doc, _ = doc_of(built("DEFAULT", ModelOptions()))
    skin = next(m for m in doc["materials"] if m["name"] == "Skin")
    assert doc["textures"][skin["occlusionTexture"]["index"]]["name"] == "Skin_Occlusion"
    assert doc["textures"][skin["normalTexture"]["index"]]["name"] == "Skin_Normal"
    rough = skin["pbrMetallicRoughness"]
    assert doc["textures"][rough["metallicRoughnessTexture"]["index"]]["name"] == "Skin_Roughness"
    assert rough["roughnessFactor"] == 1.0


def test_glasses_are_blended_and_hair_none_has_no_hair():
    # Clear glasses blended; sunglasses (BLEND before review M) alpha-tested, so they write depth and a browser draws
    # no blended lash over the lens (tests/render/test_sunglasses_review_m.py).
    s = inspect(built("GLASSES", ModelOptions()))
    assert "Glasses" in list(s.meshes["name"])
    glasses = s.materials.set_index("name").loc["Glasses"]
    assert glasses["alphaMode"] == "MASK"
    tex = s.textures.set_index("name").loc["Glasses"]
    assert tex["mimeType"] == "image/png"
    b = inspect(built("BALD", ModelOptions()))
    assert b.materials.set_index("name").loc["Glasses"]["alphaMode"] == "BLEND"
    assert "Hair" not in list(b.meshes["name"]) and "Glasses" in list(b.meshes["name"])
    assert "Glasses" not in list(inspect(built("DEFAULT", ModelOptions())).meshes["name"])


def test_sunglasses_are_darker_than_clear_glasses():
    def lens_alpha_and_level(settings):
        doc, binary = doc_of(built(settings, ModelOptions()))
        img = [i for i in doc["images"] if i.get("name") == "Glasses"][0]
        view = doc["bufferViews"][img["bufferView"]]
        im = np.asarray(Image.open(io.BytesIO(binary[view["byteOffset"]:view["byteOffset"] + view["byteLength"]])))
        lens = im[:, im.shape[1] * 3 // 4]
        return lens[:, 3].mean(), lens[:, :3].mean()
    sun_a, sun_l = lens_alpha_and_level("GLASSES")
    clear_a, clear_l = lens_alpha_and_level("BALD")
    # Sunglasses stop the light (nearly opaque, dark); a clear lens is a nearly transparent dark film that
    # neither tints nor greys the eyes (a light tint at 16 % had laid a milky film over them).
    assert sun_a > 150 and clear_a < 40
    assert sun_l < 60 and clear_l < 60


def test_merge_mesh_one_node_one_primitive_per_material():
    for settings, materials in (("DEFAULT", 10), ("GLASSES", 11)):
        doc, _ = doc_of(built(settings, ModelOptions(merge_mesh=True)))
        assert [m["name"] for m in doc["meshes"]] == ["Avatar"]
        assert len([n for n in doc["nodes"] if "mesh" in n]) == 1
        prims = doc["meshes"][0]["primitives"]
        assert len(prims) == materials == len(doc["materials"])
        assert sorted(p["material"] for p in prims) == list(range(materials))


@pytest.mark.parametrize("size", [64, 512, pytest.param(2048, marks=pytest.mark.slow)])  # the quick loop keeps 64 and 512
def test_atlas_packs_opaque_and_transparent_separately(size):
    # The default has hair (its cards alpha-tested, MASK, and its fringe blended: two materials on the
    # transparent atlas, which the lashes, brows and glasses join); every atlas also has the detail maps (the
    # body's and teeth's occlusion, the skin's normal and roughness maps, the teeth's roughness) packed like
    # the opaque atlas, and the glasses' roughness map like the transparent one; and the skin's and teeth's
    # specular strength (the opaque atlas's materials' own factors elsewhere).
    for settings, modes, maps in (("DEFAULT", ["OPAQUE", "MASK", "BLEND"], 4), ("GLASSES", ["OPAQUE", "MASK", "BLEND"], 5),
                                  ("NO_HAIR", ["OPAQUE", "BLEND"], 4)):           # (the lashes and brows blend)
        glb = built(settings, ModelOptions(texture_atlas_size=size, merge_mesh=True))
        s = inspect(glb)
        assert len(s.textures) == 2 + maps
        assert (s.textures["width"] == size).all() and (s.textures["height"] == size).all()
        assert list(s.materials["alphaMode"]) == modes
        assert list(s.meshes["primitives"]) == [len(modes)]
        # Every mesh's UVs moved inside the atlas, and the parts do not share a rectangle.
        doc, binary = doc_of(built(settings, ModelOptions(texture_atlas_size=size)))
        boxes = []
        for m in doc["meshes"]:
            uv = read_accessor(doc, binary, m["primitives"][0]["attributes"]["TEXCOORD_0"])
            assert uv.min() >= 0 and uv.max() <= 1
            if doc["materials"][m["primitives"][0]["material"]]["name"] == "Atlas_Opaque":
                boxes.append((uv[:, 0].min(), uv[:, 1].min(), uv[:, 0].max(), uv[:, 1].max()))
        for i, a in enumerate(boxes):
            for b in boxes[i + 1:]:
                overlap = min(a[2], b[2]) > max(a[0], b[0]) and min(a[3], b[3]) > max(a[1], b[1])
                assert not overlap, (a, b)


def test_atlas_holds_the_original_textures():
    """The skin texture's colour (the albedo for the default tone) shows up in the atlas, scaled down, where
    the Body UVs point."""
    from workbench.options.colour import albedo_for, hex_rgb

    doc, binary = doc_of(built("DEFAULT", ModelOptions(texture_atlas_size=1024)))
    view = doc["bufferViews"][doc["images"][0]["bufferView"]]
    atlas = np.asarray(Image.open(io.BytesIO(binary[view["byteOffset"]:view["byteOffset"] + view["byteLength"]])))
    body = [m for m in doc["meshes"] if m["name"] == "Body"][0]
    uv = read_accessor(doc, binary, body["primitives"][0]["attributes"]["TEXCOORD_0"])
    px = atlas[(uv[:, 1] * 1023).astype(int), (uv[:, 0] * 1023).astype(int)].astype(float)
    assert np.abs(px.mean(axis=0) - hex_rgb(albedo_for("#C68642")) * 255).max() < 25


@pytest.mark.parametrize("fmt,opaque,transparent", [(None, "image/jpeg", "image/png"),
                                                     ("png", "image/png", "image/png"),
                                                     ("webp", "image/webp", "image/webp")])
def test_texture_formats(fmt, opaque, transparent):
    glb = built("GLASSES", ModelOptions(texture_format=fmt))
    s = inspect(glb)
    mimes = dict(zip(s.textures["name"], s.textures["mimeType"], strict=True))
    assert mimes.pop("Glasses") == transparent and mimes.pop("Hair") == mimes.pop("Hair_Fringe") == transparent
    assert mimes.pop("Eyelashes") == transparent and mimes.pop("Eyebrows") == transparent
    # (A specular texture's strength is its alpha: KHR_materials_specular's specularTexture.)
    assert mimes.pop("Skin_Specular") == transparent and mimes.pop("Teeth_Specular") == transparent
    assert set(mimes.values()) == {opaque}
    sizes = dict(zip(s.textures["name"], zip(s.textures["width"], s.textures["height"], strict=True), strict=True))
    assert "Skin" in sizes and sizes["Top"] == (512, 512)
    doc, _ = doc_of(glb)
    # The eyes' wet film, the skin's reflectance, hair's highlight and the soft cloths' sheen ask through optional
    # extensions; only WebP is required.
    optional = {"KHR_materials_clearcoat", "KHR_materials_anisotropy", "KHR_materials_specular", "KHR_materials_sheen",
                "KHR_materials_ior"}
    if fmt == "webp":
        assert doc["extensionsUsed"][0] == "EXT_texture_webp" and set(doc["extensionsUsed"][1:]) == optional
        assert doc["extensionsRequired"] == ["EXT_texture_webp"]
        assert all("source" not in t and "EXT_texture_webp" in t["extensions"] for t in doc["textures"])
    else:
        assert set(doc["extensionsUsed"]) == optional and "extensionsRequired" not in doc


def test_weights_normalized_at_most_four_and_blended():
    for opts in (ModelOptions(), ModelOptions(merge_mesh=True, lod=1)):
        doc, binary = doc_of(built("GLASSES", opts))
        for m in doc["meshes"]:
            for p in m["primitives"]:
                w = read_accessor(doc, binary, p["attributes"]["WEIGHTS_0"])
                j = read_accessor(doc, binary, p["attributes"]["JOINTS_0"])
                assert w.shape[1] == 4 and j.shape[1] == 4
                assert np.abs(w.sum(axis=1, dtype=np.float64) - 1).max() < 2e-6
                assert (w >= 0).all() and (j < 65).all()
                assert (j[w == 0] == 0).all()           # unused slots carry no joint
                if doc["materials"][p["material"]]["name"] == "Skin":
                    blended = (w > 0.05).sum(axis=1) >= 2
                    assert blended.mean() > 0.2          # limbs blend across joints


def test_elbow_blends_arm_and_forearm():
    doc, binary = doc_of(built("DEFAULT", ModelOptions()))
    w = _world_positions(doc)
    body = [m for m in doc["meshes"] if m["name"] == "Body"][0]["primitives"][0]["attributes"]
    pos = read_accessor(doc, binary, body["POSITION"])
    jw = read_accessor(doc, binary, body["WEIGHTS_0"])
    jj = read_accessor(doc, binary, body["JOINTS_0"])
    names = list(JOINT_NAMES)
    near = np.linalg.norm(pos - w["LeftForeArm"], axis=1) < 0.07
    arm = ((jj == names.index("LeftArm")) * jw).sum(axis=1)[near]
    fore = ((jj == names.index("LeftForeArm")) * jw).sum(axis=1)[near]
    assert near.sum() > 10 and (arm + fore > 0.9).all() and (arm > 0.1).any() and (fore > 0.1).any()


def test_animations_named_and_on_own_skeleton():
    s = inspect(built("GLASSES", ModelOptions(animations=GESTURES)))
    assert sorted(s.animations["name"]) == sorted(GESTURES)
    tall = build_avatar(normalize_avatar_settings({"gender": "masculine", "height": 200}),
                        ModelOptions(animations=("jump",)))
    short = build_avatar(normalize_avatar_settings({"gender": "masculine", "height": 150}),
                         ModelOptions(animations=("jump",)))
    peaks, hip_heights = [], []
    for glb in (tall, short):
        doc, binary = doc_of(glb)
        ch = [c for c in doc["animations"][0]["channels"] if c["target"]["path"] == "translation"][0]
        hips = read_accessor(doc, binary, doc["animations"][0]["samplers"][ch["sampler"]]["output"])
        assert hips[0][1] == pytest.approx(doc["nodes"][1]["translation"][1], abs=1e-6)
        peaks.append(hips[:, 1].max() - hips[0, 1])
        hip_heights.append(doc["nodes"][1]["translation"][1])
    # Retargeted, not copied: the jump scales with each body's own hip height (a MakeHuman body's
    # legs are not a fixed fraction of its height).
    assert peaks[0] / peaks[1] == pytest.approx(hip_heights[0] / hip_heights[1], rel=0.02)
    assert peaks[0] / peaks[1] > 1.25


# slow: 24 avatars; the quick loop keeps test_deterministic_bytes (webp, a merged mesh, an atlas and every clip at
# LOD 1) and the atlas tests above.
@pytest.mark.slow
def test_every_option_combination_builds():
    for fmt in (None, "png", "webp"):
        for merge in (False, True):
            for atlas in (None, 128):
                for lod in (0, 2):
                    s = inspect(build_avatar(GLASSES, ModelOptions(lod=lod, texture_format=fmt, merge_mesh=merge,
                                                                   texture_atlas_size=atlas, animations=("wave",))))
                    assert s.triangles > 0 and list(s.animations["name"]) == ["wave"]


def test_deterministic_bytes():
    opts = ModelOptions(lod=1, animations=ANIMATIONS, texture_format="webp", merge_mesh=True, texture_atlas_size=512)
    a = build_avatar(GLASSES, opts)
    b = build_avatar(dict(GLASSES), opts)
    assert a == b
    # The module's default avatar (built once for the tests above) against a build afresh from settings of its own.
    assert built("DEFAULT", ModelOptions()) == build_avatar(normalize_avatar_settings({"gender": "masculine"}),
                                                             ModelOptions())
    assert built("DEFAULT", ModelOptions()) != build_avatar(
        normalize_avatar_settings({"gender": "masculine", "skinTone": "#8D5524"}), ModelOptions())


def test_a_build_without_the_face_shapes_is_the_same_rest_avatar():
    """``build_avatar(..., morphs=False)`` (what tests/built.py's ``shapes=False`` builds for the tests that read the
    rest face only): no morph targets, and every mesh's attributes, indices, material, skin and every node, clip and
    image the same as the whole build's."""
    opts = ModelOptions(animations=("idle",))
    whole, bare = doc_of(built("DEFAULT", opts)), doc_of(build_avatar(
        normalize_avatar_settings({"gender": "masculine"}), opts, morphs=False))
    assert any("targets" in p for m in whole[0]["meshes"] for p in m["primitives"])
    assert not any("targets" in p or "weights" in m for m in bare[0]["meshes"] for p in m["primitives"])
    assert [m["name"] for m in bare[0]["meshes"]] == [m["name"] for m in whole[0]["meshes"]]
    for mw, mb in zip(whole[0]["meshes"], bare[0]["meshes"], strict=True):
        for pw, pb in zip(mw["primitives"], mb["primitives"], strict=True):
            assert pw["material"] == pb["material"] and sorted(pw["attributes"]) == sorted(pb["attributes"])
            for k in ("indices", *pw["attributes"]):
                a = pw[k] if k == "indices" else pw["attributes"][k]
                b = pb[k] if k == "indices" else pb["attributes"][k]
                assert np.array_equal(read_accessor(*whole, a), read_accessor(*bare, b)), (mw["name"], k)
    for key in ("nodes", "skins", "materials", "textures"):
        assert bare[0][key] == whole[0][key], key
    for aw, ab in zip(whole[0]["animations"], bare[0]["animations"], strict=True):
        for sw, sb in zip(aw["samplers"], ab["samplers"], strict=True):
            for k in ("input", "output"):
                assert np.array_equal(read_accessor(*whole, sw[k]), read_accessor(*bare, sb[k]))
    def image_bytes(doc, binary):
        views = (doc["bufferViews"][im["bufferView"]] for im in doc["images"])
        return [binary[v.get("byteOffset", 0):v.get("byteOffset", 0) + v["byteLength"]] for v in views]

    assert image_bytes(*bare) == image_bytes(*whole)


def test_default_size_budget():
    # 2.3 MB for issue 25; issue 36's face rig (20 more shapes, 0.5 MB), the skin's pores and roughness
    # (maps and tangents, 0.5 MB) and hair as cards (their texture and geometry) took it to 3.6 MB, the
    # curly cards to 4.1 MB. The budget: LOD 0 with every clip under 6 MB (5.9 MB, curly: its
    # coils are flat shaded, three vertices a triangle, as three.js's anisotropic highlight drew normals
    # leaning off their triangles black). Issue 46's hair (finer short cards, their depth shade in COLOR_0 and
    # their strands' smoothed TANGENT, 0.2 MB more with a smaller texture) took the default to 4.0 MB, 4.9 MB
    # with every clip.
    assert len(built("DEFAULT", ModelOptions())) < 4_200_000
    curly = normalize_avatar_settings({"gender": "feminine", "hair": {"style": "curly"}, "glasses": "clear"})
    assert len(build_avatar(curly, ModelOptions(animations=ANIMATIONS))) < 6_000_000


def test_bad_options_are_rejected_with_the_operation_name():
    with pytest.raises(ValueError, match="^build_avatar:"):
        build_avatar(DEFAULT, ModelOptions(lod=3))
    with pytest.raises(ValueError, match="^build_avatar:"):
        build_avatar({"gender": "masculine"}, ModelOptions())
    with pytest.raises(ValueError, match="^build_avatar:.*moonwalk"):
        build_avatar(DEFAULT, ModelOptions(animations=("walk", "moonwalk")))
