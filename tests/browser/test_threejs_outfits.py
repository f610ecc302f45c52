"""Every cut of clothes in three.js: an avatar in each top with each bottom, fetched from the service by
three.js's GLTFLoader in headless Chromium, has its skinned meshes on the one skeleton and plays every
library clip as the workbench poses it (bone positions within a millimetre at a time inside each clip)."""

from __future__ import annotations

import httpx
import pytest

from workbench.gltf import bone_positions
from workbench.options import BOTTOM_STYLES, TOP_STYLES

from .conftest import open_page, run_async
from .test_threejs import TOLERANCE_M, durations, expected_counts, fetch, position_error, times_for

BUILDS = [("feminine", "slim"), ("masculine", "heavy"), ("feminine", "heavy"), ("masculine", "average")]


@pytest.fixture(scope="module")
def outfits(server):
    out = {}
    for i, top in enumerate(TOP_STYLES):
        for j, bottom in enumerate(BOTTOM_STYLES):
            gender, shape = BUILDS[(i + j) % len(BUILDS)]
            r = httpx.post(server.avatar_base_url + "/avatar", headers={"Authorization": f"Bearer {server.token}"},
                           json={"gender": gender, "bodyShape": shape, "outfit": {"topStyle": top, "bottomStyle": bottom}})
            assert r.status_code == 201, r.text
            out[(top, bottom)] = r.json()["data"]
    return out


@pytest.fixture(scope="module")
def page(browser, pages):
    open_page(browser, pages + "/threejs.html")
    return browser


def test_every_cut_plays_every_clip_in_threejs(page, outfits):
    cases, models = [], []
    for (_top, _bottom), data in outfits.items():
        url = data["modelUrl"] + "?lod=1&animations=all"
        glb = fetch(url)
        models.append((url, glb))
        # Every clip, at one time inside it (the clips all play on each; two times each on the matrix of
        # test_threejs.py).
        cases.append({"model": url, "clips": [{"name": n, "times": times_for(d)[:1]} for n, d in durations(glb).items()]})
    reports = run_async(page, "window.workbench.inspectModels", cases)
    compared = 0
    for (url, glb), _case, seen in zip(models, cases, reports, strict=True):
        want = expected_counts(glb)
        assert seen["meshes"] == want["meshes"] and seen["skinnedMeshes"] == want["skinned"], url
        assert seen["skeletons"] == 1 and sorted(seen["meshNames"]) == want["mesh_names"], url
        assert {"Outfit_Top", "Outfit_Bottom", "Outfit_Footwear"} <= set(seen["meshNames"]), url
        assert len(seen["clips"]) == 18, url
        for p in seen["posed"]:
            err = position_error(p["positions"], bone_positions(glb, p["time"], animation=p["name"]))
            assert err <= TOLERANCE_M, (url, p["name"], err)
            compared += 1
    assert compared == 18 * len(TOP_STYLES) * len(BOTTOM_STYLES)
