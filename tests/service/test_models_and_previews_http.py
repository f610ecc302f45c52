"""Models, previews and the animation library over HTTP through the client, checked by inspection."""

from __future__ import annotations

import io

import httpx
import numpy as np
import pytest
from PIL import Image

import workbench
from workbench import options as opts
from workbench.gltf import inspect, validate_many, validator_available

SETTINGS = {"gender": "masculine", "bodyShape": "heavy", "glasses": "sunglasses", "hair": {"style": "curly", "color": "#AA5522"},
            "outfit": {"top": "#1E8C3A", "bottom": "#222244", "shoes": "#EEEEEE"}}


@pytest.fixture(scope="module")
def avatar(server):
    with server.client() as c:
        return c.avatars.register(SETTINGS).model_id


@pytest.fixture()
def own_avatar(client):
    """An avatar registered through whichever client the test runs with (real HTTP or ASGI)."""
    return client.avatars.register(SETTINGS).model_id


def test_lod_ratios_and_identical_bytes(http_client, avatar):
    tris = [inspect(http_client.avatars.model(avatar, lod=lod)).triangles for lod in (0, 1, 2)]
    assert tris[0] >= 20_000
    assert abs(tris[1] / tris[0] - 0.5) <= 0.05 and abs(tris[2] / tris[0] - 0.25) <= 0.05
    a, b = http_client.avatars.model(avatar, lod=1), http_client.avatars.model(avatar, lod=1)
    assert a.content == b.content and a.etag == b.etag and a.etag.startswith('"')


def test_meshes_materials_and_default_formats(client, own_avatar):
    s = client.avatars.model(own_avatar).inspect()
    assert list(s.meshes["name"]) == ["Body", "Eyes", "Eyelashes", "Eyebrows", "Teeth", "Hair", "Outfit_Top",
                                      "Outfit_Bottom", "Outfit_Footwear", "Glasses"]
    assert len(s.skeleton) == 65 and s.skeleton[0] == "Hips"
    blend = s.materials[s.materials["alphaMode"] == "BLEND"]
    assert len(blend) >= 1
    assert set(s.textures["mimeType"]) == {"image/jpeg", "image/png"}


def test_merge_atlas_webp_and_animations_combined(http_client, avatar):
    m = http_client.avatars.model(avatar, lod=2, merge_mesh=True, texture_atlas_size=256, texture_format="webp",
                                  animations="walk,wave")
    s = m.inspect()
    # Opaque; alpha-tested (hair's cards, lashes); blended (hair's fringe, glasses).
    assert list(s.meshes["name"]) == ["Avatar"] and int(s.meshes.loc[0, "primitives"]) == 3
    assert set(s.textures["mimeType"]) == {"image/webp"} and set(s.textures["width"]) == {256}
    assert "EXT_texture_webp" in s.extensions_used and "EXT_texture_webp" in s.extensions_required
    assert sorted(s.animations["name"]) == ["walk", "wave"]


def test_animation_groups(http_client, avatar):
    s = http_client.avatars.model(avatar, lod=2, animations="gestures").inspect()
    assert sorted(s.animations["name"]) == sorted(opts.GESTURES)
    assert (s.animations["duration_s"] > 0.5).all()


@pytest.mark.parametrize("query,param", [
    ({"lod": "3"}, "lod"), ({"textureAtlasSize": "100"}, "textureAtlasSize"), ({"textureAtlasSize": "4096"}, "textureAtlasSize"),
    ({"mergeMesh": "2"}, "mergeMesh"), ({"animations": "moonwalk"}, "animations"), ({"textureFormat": "gif"}, "textureFormat"),
    ({"lod": "x"}, "lod"), ({"colour": "red", "lod": "9"}, "lod"),  # an unknown name is ignored (tests/service/test_ignored_params.py)
])
def test_model_rejects_values_outside_the_table(server, avatar, query, param):
    r = httpx.get(f"{server.avatar_base_url}/model/{avatar}.glb", params=query)
    assert r.status_code == 400
    assert r.json()["error"]["details"][0]["field"] == param


def test_model_404s_and_304(server, avatar):
    assert httpx.get(f"{server.avatar_base_url}/model/{'0' * 24}.glb").json()["error"]["code"] == "avatar_not_found"
    assert httpx.get(f"{server.avatar_base_url}/model/{avatar}").status_code == 404
    r = httpx.get(f"{server.avatar_base_url}/model/{avatar}.glb", params={"lod": 2})
    assert r.headers["content-type"] == "model/gltf-binary" and "max-age" in r.headers["cache-control"]
    again = httpx.get(f"{server.avatar_base_url}/model/{avatar}.glb", params={"lod": 2}, headers={"If-None-Match": r.headers["etag"]})
    assert again.status_code == 304 and again.content == b""


def test_generation_failure_is_json_500(client, own_avatar):
    client.local.fault("model.generate", count=1)
    with pytest.raises(workbench.ServerError) as e:
        client.with_options(retries=0).avatars.model(own_avatar, lod=1, texture_format="png")
    assert (e.value.status, e.value.code) == (500, "model_generation_failed")
    assert client.avatars.model(own_avatar, lod=1, texture_format="png").content[:4] == b"glTF"


@pytest.mark.skipif(not validator_available(), reason="node or the gltf-validator package is not installed")
def test_validator_clean_over_http(http_client, avatar):
    fem = http_client.avatars.register({"gender": "feminine", "hair": {"style": "bun"}, "glasses": "clear"}).model_id
    models = [http_client.avatars.model(avatar, lod=2, animations="all"),
              http_client.avatars.model(fem, texture_format="webp", merge_mesh=True),
              http_client.avatars.model(fem, lod=1, texture_atlas_size=512, animations="locomotion")]
    reports = validate_many([m.content for m in models])
    assert [r.errors for r in reports] == [0, 0, 0], [str(r) for r in reports]


# ---------------------------------------------------------------- animations

def test_animation_list_and_download(client):
    lst = client.animations.list()
    assert lst.masculine == lst.feminine == tuple(sorted(opts.ANIMATIONS))
    clip = client.animations.download("feminine", "wave")
    s = clip.inspect()
    assert list(s.animations["name"]) == ["wave"] and len(s.skeleton) == 65


def test_animation_errors(server):
    r = httpx.get(f"{server.avatar_base_url}/animations/robot/walk.glb")
    assert r.status_code == 400 and r.json()["error"]["details"][0]["field"] == "gender"
    r = httpx.get(f"{server.avatar_base_url}/animations/feminine/moonwalk.glb")
    assert r.status_code == 400 and r.json()["error"]["details"][0]["field"] == "name"
    r = httpx.get(f"{server.avatar_base_url}/animations/feminine/walk.glb")
    assert r.status_code == 200 and r.headers["content-type"] == "model/gltf-binary"
    # the file set aside, and put back: the server is shared by the session's other tests (three.js loads every clip)
    shrug = server.data_dir / "animations" / "masculine" / "shrug.glb"
    aside = shrug.with_name("shrug.glb.aside")
    shrug.rename(aside)
    try:
        r = httpx.get(f"{server.avatar_base_url}/animations/masculine/shrug.glb")
        assert r.status_code == 404 and r.json()["error"]["code"] == "animation_file_missing"
    finally:
        aside.rename(shrug)
    assert httpx.get(f"{server.avatar_base_url}/animations/masculine/shrug.glb").status_code == 200


# ---------------------------------------------------------------- previews

def png(preview) -> np.ndarray:
    return np.asarray(Image.open(io.BytesIO(preview.content)).convert("RGBA"))


@pytest.mark.parametrize("size,expected", [(32, 32), (47, 32), (48, 64), (100, 128), (384, 512), (512, 512)])
def test_preview_size_rounding(client, own_avatar, size, expected):
    assert client.avatars.preview(own_avatar, size=size).size == (expected, expected)


def test_preview_background_and_transparency(http_client, avatar):
    clear = png(http_client.avatars.preview(avatar, size=128, camera="full"))
    assert clear[0, 0, 3] == 0 and clear[-1, -1, 3] == 0 and clear[..., 3].max() == 255
    solid = png(http_client.avatars.preview(avatar, size=128, camera="full", background=(10, 200, 30)))
    assert (solid[..., 3] == 255).all() and tuple(solid[0, 0, :3]) == (10, 200, 30)


def test_preview_framing_and_outfit_colour(http_client, avatar):
    full = png(http_client.avatars.preview(avatar, size=256, camera="full"))
    rows = np.where(full[..., 3].max(axis=1) > 0)[0]
    assert rows[0] > 0 and rows[-1] < 255 and (rows[-1] - rows[0]) > 0.7 * 256
    portrait = png(http_client.avatars.preview(avatar, size=256))
    prow = np.where(portrait[..., 3].max(axis=1) > 0)[0]
    assert prow[-1] == 255  # cut below the chest: the figure runs off the bottom edge
    rgb = portrait[..., :3].astype(int)[portrait[..., 3] > 0]
    # The top is #1E8C3A, a green: lit and shaded, its pixels keep green well above red and blue.
    greenish = (rgb[:, 1] > rgb[:, 0] + 30) & (rgb[:, 1] > rgb[:, 2] + 30)
    assert greenish.mean() > 0.1, "the outfit top colour should be visible in a portrait"


def test_preview_cache_etag_and_errors(server, avatar):
    url = f"{server.avatar_base_url}/preview/{avatar}.png"
    a, b = httpx.get(url, params={"size": 64}), httpx.get(url, params={"size": 64})
    assert a.content == b.content and a.headers["content-type"] == "image/png"
    assert httpx.get(url, params={"size": 64}, headers={"If-None-Match": a.headers["etag"]}).status_code == 304
    for q, field in (({"size": "16"}, "size"), ({"size": "1000"}, "size"), ({"camera": "side"}, "camera"),
                     ({"background": "255,0"}, "background"), ({"background": "a,b,c"}, "background")):
        r = httpx.get(url, params=q)
        assert r.status_code == 400 and r.json()["error"]["details"][0]["field"] == field
    assert httpx.get(f"{server.avatar_base_url}/preview/{'0' * 24}.png").status_code == 404
