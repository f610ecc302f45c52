"""The generated space scene, its bundle and the regeneration outputs of both viewer kinds."""

import io
import json
import zipfile

import numpy as np
import pytest
from PIL import Image

from workbench.gltf import validate, validator_available
from workbench.gltf.glb import read_glb
from workbench.regeneration.bundle import build_space_bundle
from workbench.regeneration.product import build_product_glb
from workbench.regeneration.regenerate import regenerate_product, regenerate_space, repack_glb
from workbench.regeneration.space import build_space_scene
from workbench.regeneration.zipstore import local_entries
from workbench.render.scene import Model


def _valid(glb):
    if not validator_available():
        pytest.skip("node or the gltf-validator package is not installed")
    report = validate(glb)
    assert report.errors == 0, str(report)


def test_space_scene_is_valid_textured_and_deterministic():
    glb = build_space_scene("room")
    assert glb == build_space_scene("room") and glb != build_space_scene("other")
    doc, _ = read_glb(glb)
    names = {n.get("name") for n in doc["nodes"]}
    assert {"Floor", "BackWall", "LeftWall", "RightWall", "Plinth0", "Object0"} <= names
    assert len(doc["textures"]) >= 2
    _valid(glb)


def test_bundle_has_scene_and_effects_with_values():
    scene = build_space_scene("b")
    data = build_space_bundle(scene, "b")
    assert data == build_space_bundle(scene, "b")
    z = zipfile.ZipFile(io.BytesIO(data))
    assert z.namelist() == ["scene.glb", "effects.json"]
    assert z.read("scene.glb") == scene
    for info in z.infolist():
        assert info.date_time == (1980, 1, 1, 0, 0, 0)
    fx = json.loads(z.read("effects.json"))
    sun = fx["lighting"]["sun"]
    assert abs(np.linalg.norm(sun["direction"]) - 1) < 1e-3 and sun["direction"][1] < 0
    assert len(sun["color"]) == 3 and sun["intensity"] > 0
    assert fx["lighting"]["ambient"]["intensity"] > 0
    assert fx["lighting"]["environment"]["type"] == "gradient"
    post = fx["postEffects"]
    assert post["bloom"]["intensity"] > 0 and 0 < post["bloom"]["threshold"] <= 1
    assert post["toneMapping"]["operator"] in ("ACES", "AgX") and post["toneMapping"]["exposure"] > 0
    assert {"enabled", "offset", "darkness"} <= set(post["vignette"])
    assert build_space_bundle(scene, "c") != data


def test_regenerate_product_outputs():
    src = build_product_glb("regen")
    out = regenerate_product(src)
    assert sorted(out) == ["glb", "preview", "usdz"]
    _valid(out["glb"])
    assert Model(out["glb"]).posed().points().shape == Model(src).posed().points().shape
    entries = local_entries(out["usdz"])
    assert entries[0]["name"].endswith(".usda") and all(e["offset"] % 64 == 0 for e in entries)
    im = Image.open(io.BytesIO(out["preview"]))
    assert im.format == "PNG" and im.size == (512, 512) and im.mode == "RGBA"
    a = np.asarray(im)[..., 3]
    assert a[0, 0] == 0 and a.max() == 255
    assert regenerate_product(src) == out


def test_repack_drops_trailing_bytes_and_stays_valid():
    src = build_product_glb("pack")
    packed = repack_glb(src + b"\x00" * 7)
    assert packed == repack_glb(src)
    _valid(packed)


def test_regenerate_space_outputs():
    scene = build_space_scene("sp")
    out = regenerate_space(scene, "sp")
    assert sorted(out) == ["bundle", "preview"]
    im = Image.open(io.BytesIO(out["preview"]))
    assert im.format == "PNG" and im.size == (512, 512)
    a = np.asarray(im)[..., 3]
    assert (a == 255).mean() > 0.2  # the room fills a good part of the frame
    z = zipfile.ZipFile(io.BytesIO(out["bundle"]))
    assert z.read("scene.glb") == scene and "effects.json" in z.namelist()
