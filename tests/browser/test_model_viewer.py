"""model-viewer and plain fetch/img on a page of another origin: the service's files are readable.

Fails without CORS: model-viewer reports a load error, fetch rejects, and a preview drawn into a
canvas taints it (getImageData throws).
"""

from __future__ import annotations

import base64

import httpx
import pytest

from workbench.gltf.glb import read_glb

from .conftest import data_url_image, open_page, run_async, save_artifact


@pytest.fixture(scope="module")
def avatar(server):
    r = httpx.post(server.avatar_base_url + "/avatar", json={"gender": "masculine", "hair": {"style": "curly"}},
                   headers={"Authorization": f"Bearer {server.token}"})
    assert r.status_code == 201
    return r.json()["data"]


@pytest.fixture(scope="module")
def page(browser, pages):
    open_page(browser, pages + "/model-viewer.html")
    return browser


def test_model_viewer_loads_a_model_and_lists_its_animations(page, avatar, tmp_path):
    url = avatar["modelUrl"] + "?lod=1&animations=wave,walk,idle"
    doc, _ = read_glb(httpx.get(url, timeout=300).content)
    seen = run_async(page, "window.loadModel", url)
    assert seen["loaded"] is True
    assert sorted(seen["animations"]) == sorted(a["name"] for a in doc["animations"]) == ["idle", "walk", "wave"]
    played = run_async(page, "window.playAnimation", "wave")
    assert played["name"] == "wave" and played["paused"] is False and played["time"] > 0
    path = save_artifact(tmp_path, "model_viewer.png", base64.b64decode(page.get_screenshot_as_base64()))
    shot = data_url_image("data:image/png;base64," + base64.b64encode(path.read_bytes()).decode())
    # The figure is drawn: a good share of the 512 px viewer differs from the white page.
    assert (shot[:512, :512, :3].min(axis=2) < 200).mean() > 0.03
    # The clip has shown it plays: paused, so the page stops drawing 512 px frames on the software GPU through the
    # module's next test, which reads files beside it (suite39).
    page.execute_script("document.getElementById('viewer').pause()")


def test_page_reads_model_headers_list_and_draws_the_preview(page, server, avatar, tmp_path):
    out = run_async(page, "window.readFiles", avatar["modelUrl"] + "?lod=2", avatar["previewUrl"] + "?size=128&camera=full",
                    server.avatar_base_url + "/animations")
    assert out["status"] == 200 and out["etag"].startswith('"') and int(out["length"]) == out["bytes"]
    assert out["requestId"]
    assert out["list"]["feminine"] == out["list"]["masculine"] and "wave" in out["list"]["feminine"]
    assert out["size"] == [128, 128] and out["opaque"] > 1000
    save_artifact(tmp_path, "preview_from_canvas.png", base64.b64decode(out["dataUrl"].split(",", 1)[1]))
