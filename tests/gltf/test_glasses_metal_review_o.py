"""The new glasses styles in the GLB (blind review O, defect 8: more glasses styles): ``round`` and ``aviator`` pass the
Khronos validator with 0 errors (their own material, and an atlas's merged one), their metal frames metallic (the
material's ``metallicFactor`` 1, the metalness in its metallic-roughness texture's blue: 255 over the frame, 0 over
the lenses, within JPEG's error) while the first styles' stay dielectric; the aviator's lenses graded (alpha from dark at the top to
light at the bottom) and blended like a clear lens, the sunglasses still alpha-tested. On main neither value is
accepted (``normalize_avatar_settings`` refuses it)."""

from __future__ import annotations

import io

import numpy as np
import pytest
from PIL import Image

from workbench.gltf import build_avatar, validate_many, validator_available
from workbench.gltf.glb import read_glb
from workbench.options import ModelOptions, normalize_avatar_settings

SETTINGS = {"gender": "feminine", "bodyShape": "heavy", "hair": {"style": "bob"}}
OPTIONS = {"own": ModelOptions(), "atlas": ModelOptions(lod=1, merge_mesh=True, texture_atlas_size=256,
                                                        texture_format="webp")}


def model(glasses: str, options: str = "own") -> bytes:
    return build_avatar(normalize_avatar_settings({**SETTINGS, "glasses": glasses}), OPTIONS[options])


def glasses_material(glb: bytes) -> tuple[dict, dict, bytes]:
    """(the document, the ``Glasses`` material, the GLB's binary chunk)."""
    doc, binary = read_glb(glb)
    return doc, next(m for m in doc["materials"] if m["name"] == "Glasses"), binary


def image(doc: dict, binary: bytes, texture: int) -> np.ndarray:
    tex = doc["textures"][texture]
    source = tex.get("source", tex.get("extensions", {}).get("EXT_texture_webp", {}).get("source"))
    view = doc["bufferViews"][doc["images"][source]["bufferView"]]
    data = binary[view.get("byteOffset", 0):view.get("byteOffset", 0) + view["byteLength"]]
    return np.asarray(Image.open(io.BytesIO(data)).convert("RGBA"))


@pytest.mark.skipif(not validator_available(), reason="the Khronos glTF-Validator is not installed")
def test_the_new_styles_validate_with_no_errors():
    files = [model(kind, options) for kind in ("round", "aviator") for options in OPTIONS]
    reports = validate_many(files)
    assert [r.errors for r in reports] == [0] * len(files), [r.messages[:3] for r in reports if r.errors]


@pytest.mark.parametrize("kind", ["round", "aviator", "clear", "sunglasses"])
def test_metal_frames_are_metallic_and_the_lenses_are_not(kind):
    doc, mat, binary = glasses_material(model(kind))
    pbr = mat["pbrMetallicRoughness"]
    metal = kind in ("round", "aviator")
    assert pbr["metallicFactor"] == (1.0 if metal else 0.0), (kind, pbr)
    mr = image(doc, binary, pbr["metallicRoughnessTexture"]["index"])
    h, w = mr.shape[:2]
    # (The frame's half on the left, the lens's on the right: workbench.body.glasses.glasses_texture's layout.)
    # (Within JPEG's error: the maps are written as JPEG.)
    assert abs(int(mr[h // 2, w // 4, 2]) - (255 if metal else 0)) <= 4 and int(mr[h // 2, 3 * w // 4, 2]) <= 4, kind
    assert mat.get("alphaMode", "OPAQUE") == ("MASK" if kind == "sunglasses" else "BLEND"), kind
    colour = image(doc, binary, pbr["baseColorTexture"]["index"])
    lens = colour[:, 3 * w // 4, 3].astype(int)
    # The aviator's lens dark at its top (alpha over 0.85) fading to light at its bottom (under 0.5); the others even.
    if kind == "aviator":
        assert lens[h // 8] > 217 and lens[7 * h // 8] < 128 and np.all(np.diff(lens[h // 8: 7 * h // 8]) <= 0), lens
    else:
        assert np.ptp(lens) < 26, (kind, np.ptp(lens))


def test_an_atlas_with_a_metal_frame_is_metallic_only_where_the_frame_is():
    """Merged into an atlas, the blended class's one material is metallic (factor 1) and its texture's blue is 0 but
    over the frame: the lashes, brows and fringe sharing it stay dielectric."""
    doc, binary = read_glb(model("round", "atlas"))
    mats = [m for m in doc["materials"] if m.get("alphaMode") == "BLEND"]
    assert len(mats) == 1 and mats[0]["pbrMetallicRoughness"]["metallicFactor"] == 1.0
    blue = image(doc, binary, mats[0]["pbrMetallicRoughness"]["metallicRoughnessTexture"]["index"])[..., 2]
    share = float(np.mean(blue > 127))
    assert 0.0 < share < 0.1, share
