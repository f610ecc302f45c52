"""The hair in the GLB (issue 36, item 1): alpha-tested cards and a blended fringe as two primitives of
``Hair`` (inner cards first in the fringe's index buffer, since three.js sorts objects, not
triangles), its highlight through ``KHR_materials_anisotropy`` and ``KHR_materials_specular`` (which
the pinned three.js reads), lashes of their own dark colour, validator-clean in every combination of
options, and the same bytes every time.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import numpy as np
import pytest

from workbench.body.hair.buzz import PAINTED
from workbench.body.hair.pieces import TWO_SIDED
from workbench.body.hair.texture import SLEEK
from workbench.gltf import build_avatar, validate_many, validator_available
from workbench.gltf.glb import read_accessor, read_glb
from workbench.options import HAIR_STYLES, ModelOptions, normalize_avatar_settings

STYLES = [s for s in HAIR_STYLES if s not in PAINTED]   # (styles with hair cards; a buzz cut is painted: test_buzz_review_o)
ROOT = Path(__file__).resolve().parents[2]


def avatar(style, color="#2B1B10", gender="feminine", **options):
    """The GLB of a style, built once for the module (the tests here only read its bytes; ``fresh`` builds
    afresh, as test_same_settings_same_bytes does to compare with the module's first build)."""
    return _built(style, color, gender, ModelOptions(**options))


def fresh(style, color="#2B1B10", gender="feminine", **options):
    return _build(style, color, gender, ModelOptions(**options))


def _build(style, color, gender, options):
    return build_avatar(normalize_avatar_settings({"gender": gender, "hair": {"style": style, "color": color}}), options)


_built = cache(_build)


@pytest.fixture(scope="module", autouse=True)
def _forget_builds():
    """The module's builds (about 4 MB each) are let go when its last test ends."""
    yield
    _built.cache_clear()


def hair_mesh(doc):
    return next(m for m in doc["meshes"] if m["name"] == "Hair")


@pytest.mark.parametrize("style", STYLES)
def test_cards_alpha_tested_and_a_blended_fringe_ordered_inside_out(style):
    doc, binary = read_glb(avatar(style))
    prims = hair_mesh(doc)["primitives"]
    modes = [doc["materials"][p["material"]].get("alphaMode") for p in prims]
    # (Hair pulled back has its cards lying on the scalp apart, single-sided, between: tests/render/
    # test_hair_sleek_outline.py; the bob's cards over the head too, wound both ways since review Q's pass:
    # hair.pieces.TWO_SIDED, tests/render/test_bob_crown_review_q.py.)
    assert modes == (["MASK", "MASK", "BLEND"] if style in SLEEK or style in TWO_SIDED else ["MASK", "BLEND"])
    cards, fringe = (doc["materials"][p["material"]] for p in (prims[0], prims[-1]))
    prims = [prims[0], prims[-1]]
    assert cards["alphaCutoff"] == 0.5 and cards["doubleSided"] and fringe["doubleSided"]
    # One image for both, with alpha: strands cut out of clear texels (the fringe's texture samples it without
    # mipmaps: tests/render/test_threejs_hairline_review_x.py).
    textures = [doc["textures"][m["pbrMetallicRoughness"]["baseColorTexture"]["index"]] for m in (cards, fringe)]
    assert textures[0]["source"] == textures[1]["source"]
    assert [doc["samplers"][t["sampler"]]["minFilter"] for t in textures] == [9987, 9729]
    # The fringe's triangles come inner first: the scalp shell (the atlas's right half) before every
    # wisp (its card columns, the left half), and the wisps among themselves inner first
    # (tests/body/test_hair_cards.py): its blended layers are drawn from the scalp out.
    uv = read_accessor(doc, binary, prims[1]["attributes"]["TEXCOORD_0"])
    tris = read_accessor(doc, binary, prims[1]["indices"]).reshape(-1, 3)
    shell = uv[tris, 0].mean(1) > 0.5
    assert shell.any() and (~shell).any()
    assert np.flatnonzero(shell).max() < np.flatnonzero(~shell).min()
    # At LOD 2 the hair is one shell, its cards baked into its texture: one alpha-tested primitive.
    doc2, _ = read_glb(avatar(style, lod=2))
    prims2 = hair_mesh(doc2)["primitives"]
    assert [doc2["materials"][p["material"]].get("alphaMode") for p in prims2] == ["MASK"]


def test_the_highlight_runs_across_the_strands_in_three_js_terms():
    """Hair's materials ask for an anisotropic highlight (strength over 0, along the cards' u, which
    runs across the strands) and a dimmer specular than a smooth dielectric's; both extensions are
    optional (a viewer without them draws plain hair) and the pinned three.js reads both."""
    doc, binary = read_glb(avatar("long"))
    for p in hair_mesh(doc)["primitives"]:
        ext = doc["materials"][p["material"]]["extensions"]
        assert 0 < ext["KHR_materials_anisotropy"]["anisotropyStrength"] <= 1
        assert ext["KHR_materials_anisotropy"].get("anisotropyRotation", 0) == 0
        assert 0 < ext["KHR_materials_specular"]["specularFactor"] < 1
    # (and the eyes' clear coat and index of refraction, KHR_materials_ior: no reflection head-on under the clear
    # coat, and the soft cloths' sheen, KHR_materials_sheen, the outfit's)
    assert set(doc["extensionsUsed"]) == {"KHR_materials_anisotropy", "KHR_materials_specular", "KHR_materials_clearcoat",
                                         "KHR_materials_sheen", "KHR_materials_ior"}
    assert "extensionsRequired" not in doc
    # u runs across a card: along a card (its first rows, after the scalp shell) u stays, v grows.
    uv = read_accessor(doc, binary, hair_mesh(doc)["primitives"][0]["attributes"]["TEXCOORD_0"])
    k = int(np.flatnonzero(uv[:, 0] < 0.5)[0])
    assert uv[k, 0] == uv[k + 2, 0] and uv[k, 0] != uv[k + 1, 0] and uv[k + 2, 1] > uv[k, 1]
    loader = ROOT / "node_modules" / "three" / "examples" / "jsm" / "loaders" / "GLTFLoader.js"
    if loader.exists():
        text = loader.read_text()
        assert "KHR_materials_anisotropy" in text and "KHR_materials_specular" in text


def test_lashes_are_thin_dark_cards_of_their_own_colour():
    """The eyelashes are a texture of lashes blended by its alpha (soft, tapered tips: cut out at a threshold
    they were jagged spikes), near black whatever the hair's colour (blond and blue hair give the same
    lashes)."""
    import io

    from PIL import Image

    def lashes(color):
        doc, binary = read_glb(avatar("short", color))
        mat = next(m for m in doc["materials"] if m["name"] == "Eyelashes")
        img = doc["images"][doc["textures"][mat["pbrMetallicRoughness"]["baseColorTexture"]["index"]]["source"]]
        view = doc["bufferViews"][img["bufferView"]]
        return mat, np.asarray(Image.open(io.BytesIO(binary[view.get("byteOffset", 0):
                                                           view.get("byteOffset", 0) + view["byteLength"]])))

    mat, a = lashes("#E8D080")
    _, b = lashes("#2040FF")
    assert mat["alphaMode"] == "BLEND" and a.shape[2] == 4 and (a == b).all()
    drawn = a[..., 3] > 127
    assert 0.05 < drawn.mean() < 0.5                     # thin lashes, not a ribbon
    assert a[drawn][:, :3].mean() < 40                   # dark


# slow: an avatar per style and option through the Node validator; the quick loop validates one avatar over HTTP
# (tests/service/test_models_and_previews_http.py::test_validator_clean_over_http).
@pytest.mark.slow
@pytest.mark.skipif(not validator_available(), reason="the gltf-validator npm package is missing "
                    "(shared/tools/validate-glb installs it)")
def test_every_style_and_option_validates():
    """Every style at every level of detail, apart and merged, and every option of the textures. The two merged
    LOD 0 files differ only in how the textures are written (an atlas of 1024, or PNG), the same code whatever the
    hair: each style validates one of them, in turn (each option on three styles), where each style validated both
    (42 files, 30 of them the validator's 1 to 3 s each; now 36 and 24: suite19)."""
    O = ModelOptions
    merged_lod0 = (O(merge_mesh=True, texture_atlas_size=1024), O(texture_format="png", merge_mesh=True))
    files, labels = [], []
    for i, style in enumerate(STYLES):
        for options in (O(), O(lod=1), O(lod=2), merged_lod0[i % 2],
                        O(lod=1, texture_format="webp", texture_atlas_size=256, merge_mesh=True),
                        O(lod=2, texture_atlas_size=64)):
            files.append(build_avatar(normalize_avatar_settings(
                {"gender": "masculine", "hair": {"style": style, "color": "#D8B060"}, "glasses": "clear"}), options))
            labels.append(f"{style} {options.cache_key()}")
    assert {label.split()[1] for label in labels} >= {o.cache_key() for o in merged_lod0}  # both written
    reports = validate_many(files)
    bad = [(label, r.errors) for label, r in zip(labels, reports, strict=True) if r.errors]
    assert not bad, bad[:3]


# slow: 12 avatars built afresh (24 where the cards' test has not built them first); the quick loop keeps the same bytes of one avatar with every option in
# tests/gltf/test_avatar.py::test_deterministic_bytes.
@pytest.mark.slow
def test_same_settings_same_bytes():
    for style in STYLES:
        for lod in (0, 2):
            # a fresh build against the module's first one (the cards' test built it, other builds between)
            assert fresh(style, lod=lod) == avatar(style, lod=lod)
