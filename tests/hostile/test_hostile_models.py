"""Models built at the same time: concurrent requests get the bytes a one-at-a-time build gives (issue 40, 1)."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import httpx
import pytest
from conftest import ServerProcess
from helpers import auth, new_avatar

from workbench.gltf import build_avatar
from workbench.options import ModelOptions, normalize_avatar_settings

# Bodies that share nothing the service caches in memory, so every request decimates afresh.
# Every hair style and cut of clothes among them: the hair's fit and bake, the cloth's fit and its
# compiled tinting run on request threads too.
SETTINGS = [{"gender": "feminine", "height": 151, "hair": {"style": "curly"},
             "outfit": {"topStyle": "hoodie", "bottomStyle": "skirt"}},
            {"gender": "masculine", "height": 187, "hair": {"style": "long"},
             "outfit": {"topStyle": "longsleeve", "bottomStyle": "shorts"}},
            {"gender": "feminine", "height": 173, "hair": {"style": "bun"}, "glasses": "clear"}]


@pytest.fixture(scope="module")
def fresh_server(tmp_path_factory):
    srv = ServerProcess(tmp_path_factory.mktemp("models") / "data").start()
    yield srv
    srv.stop()


def test_level_of_detail_models_requested_at_once_are_the_one_at_a_time_bytes(fresh_server):
    srv = fresh_server
    asks = [(new_avatar(srv, s)["modelId"], s, lod) for s in SETTINGS for lod in (1, 2)]

    def get(ask):
        model_id, _, lod = ask
        return httpx.get(f"{srv.avatar_base_url}/model/{model_id}.glb", params={"lod": lod}, headers=auth(srv),
                         timeout=300)

    with ThreadPoolExecutor(len(asks)) as pool:
        answers = list(pool.map(get, asks))
    assert [a.status_code for a in answers] == [200] * len(asks), [a.text[:200] for a in answers if a.status_code != 200]
    for (_model_id, settings, lod), answer in zip(asks, answers, strict=True):
        alone = build_avatar(normalize_avatar_settings(settings), ModelOptions(lod=lod))
        assert answer.content == alone, f"{settings} LOD {lod}: {len(answer.content):,} bytes, alone {len(alone):,}"
    # And what the service cached is what it answered: asked again, the same bytes.
    again = get(asks[0])
    assert again.status_code == 200 and again.content == answers[0].content


def test_previews_and_full_models_requested_at_once_are_the_one_at_a_time_bytes(fresh_server):
    # A first preview draws on two threads (its materials, its textures' packing, its rows, its pixels and its
    # PNG each in two parts on the helper pool) and a full model makes its materials and PNG textures there too: six
    # such requests at once share the pool and every compiled loop, and must not touch each other's work.
    from workbench.gltf.avatar import build_avatar_unencoded
    from workbench.options import PreviewOptions
    from workbench.render import render_preview

    srv = fresh_server
    asks = [(new_avatar(srv, s)["modelId"], s, what) for s in SETTINGS for what in ("preview", "model")]

    def get(ask):
        model_id, _, what = ask
        path = f"preview/{model_id}.png" if what == "preview" else f"model/{model_id}.glb"
        return httpx.get(f"{srv.avatar_base_url}/{path}", headers=auth(srv), timeout=300)

    with ThreadPoolExecutor(len(asks)) as pool:
        answers = list(pool.map(get, asks))
    assert [a.status_code for a in answers] == [200] * len(asks), [a.text[:200] for a in answers if a.status_code != 200]
    for (_model_id, settings, what), answer in zip(asks, answers, strict=True):
        s = normalize_avatar_settings(settings)
        if what == "preview":
            glb, images = build_avatar_unencoded(s, ModelOptions())
            alone = render_preview(glb, PreviewOptions(), pose=(f"{s['gender']}/idle", 0.0), images=images)
        else:
            alone = build_avatar(s, ModelOptions())
        assert answer.content == alone, f"{settings} {what}: {len(answer.content):,} bytes, alone {len(alone):,}"
