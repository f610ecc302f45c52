"""three.js in headless Chromium loads the service's models from another origin and plays their clips.

The page (pages/threejs.js) uses GLTFLoader and AnimationMixer as any web page would; what it
reports is compared with the workbench's own reading of the same bytes: meshes, skins, bones and
clips from the GLB's JSON, and bone world positions from :func:`workbench.gltf.bone_positions`
evaluated at the same time. The models cover every level of detail, every texture format, merged
and atlased meshes, clips by group and by list; every library clip of each gender is also played
on an avatar of that gender; the face's morph targets are found by name and move the teeth.
A second test draws the model with the camera of a workbench preview and compares silhouettes with
the preview the service renders.
"""

from __future__ import annotations

import io

import httpx
import numpy as np
import pytest
from PIL import Image

from workbench.gltf import bone_positions
from workbench.gltf.glb import read_glb

from .conftest import data_url_image, open_page, run_async, save_artifact

# Bone positions: three.js computes in float32 and we in float64 from the same float32 keys, so they
# agree far below a millimetre; a wrong binding, interpolation or bone order is off by centimetres.
TOLERANCE_M = 0.001
IOU_MIN = 0.99
SIZE = 256

AVATARS = {
    "feminine": {"gender": "feminine", "hair": {"style": "long"}, "glasses": "clear"},
    "masculine": {"gender": "masculine", "bodyShape": "athletic", "height": 190},
}
MATRIX = [  # (avatar, query): each LOD, each texture format, merged, atlased, clips by group, list, all, none
    ("feminine", "lod=0&animations=all"),
    ("masculine", "lod=1&textureFormat=png&animations=locomotion"),
    ("feminine", "lod=2&textureFormat=webp&animations=gestures"),
    ("masculine", "mergeMesh=1&animations=wave,walk"),
    ("feminine", "lod=1&textureAtlasSize=512&animations=gesture"),
    ("masculine", "lod=2&mergeMesh=1&textureAtlasSize=256&textureFormat=webp&animations=locomotions"),
    ("feminine", "mergeMesh=1&textureFormat=png"),
    ("masculine", ""),
]


@pytest.fixture(scope="module")
def avatars(server):
    out = {}
    for gender, settings in AVATARS.items():
        r = httpx.post(server.avatar_base_url + "/avatar", json=settings,
                       headers={"Authorization": f"Bearer {server.token}"})
        assert r.status_code == 201, r.text
        out[gender] = r.json()["data"]
    return out


@pytest.fixture(scope="module")
def page(browser, pages):
    open_page(browser, pages + "/threejs.html")
    return browser


def fetch(url: str) -> bytes:
    r = httpx.get(url, timeout=300)
    assert r.status_code == 200, (url, r.text[:300])
    return r.content


def durations(glb: bytes) -> dict[str, float]:
    doc, _ = read_glb(glb)
    return {a["name"]: max(doc["accessors"][s["input"]]["max"][0] for s in a["samplers"]) for a in doc.get("animations", [])}


def times_for(d: float) -> list[float]:
    # Between keys (30 fps), inside the clip, so neither side may round to a key or wrap around.
    return [round(min(0.517, 0.4 * d), 4), round(0.77 * d, 4)]


def expected_counts(glb: bytes) -> dict:
    doc, _ = read_glb(glb)
    nodes = doc["nodes"]
    mesh_nodes = [n for n in nodes if "mesh" in n]
    return {
        "meshes": sum(len(doc["meshes"][n["mesh"]]["primitives"]) for n in mesh_nodes),
        "skinned": sum(len(doc["meshes"][n["mesh"]]["primitives"]) for n in mesh_nodes if "skin" in n),
        "skeletons": len({tuple(s["joints"]) for s in doc.get("skins", [])}),
        "bones": [nodes[j]["name"] for j in doc["skins"][0]["joints"]],
        "clips": [a["name"] for a in doc.get("animations", [])],
        "mesh_names": sorted(n["name"] for n in mesh_nodes),
    }


def check_morphs(seen: list[dict], glb: bytes, url: str) -> None:
    """three.js finds the face's 72 shapes (the 52 ARKit shapes, the visemes, the extras) by name on the
    face's meshes (LOD 0 and 1, merged or not), and jawOpen drops the teeth; LOD 2 carries none."""
    from workbench.body.face import SHAPES

    doc, _ = read_glb(glb)
    morphed = {m["name"] for m in doc["meshes"] if m.get("extras", {}).get("targetNames")}
    assert {m["mesh"] for m in seen} == morphed, url
    if "lod=2" in url:
        assert not morphed, url
        return
    assert morphed in ({"Body", "Eyes", "Eyelashes", "Eyebrows", "Teeth"}, {"Avatar"}), (url, morphed)
    for m in seen:
        assert m["names"] == list(SHAPES), (url, m["mesh"])
    drops = {m["mesh"]: m["jawDrop"] for m in seen}
    if "Teeth" in drops:
        assert 0.01 < drops["Teeth"] < 0.05 and drops["Eyes"] == 0, (url, drops)
    else:
        assert max(m["jawDrop"] for m in seen) < 0.05, (url, drops)   # the body's lowest point is a sole


def position_error(page_positions: dict, ours) -> float:
    ours = ours.set_index("joint")
    assert sorted(page_positions) == sorted(ours.index), "the page and the workbench see different bones"
    got = np.array([page_positions[j] for j in ours.index])
    return float(np.abs(got - ours[["x", "y", "z"]].to_numpy()).max())


def test_models_and_clips_match_the_workbench(page, server, avatars):
    """Every model of the matrix, and the 36 library clips on an avatar of their gender, in one page visit."""
    cases, models = [], []
    for gender, query in MATRIX:
        url = avatars[gender]["modelUrl"] + ("?" + query if query else "")
        glb = fetch(url)
        models.append((url, glb, None))
        cases.append({"model": url, "clips": [{"name": n, "times": times_for(d)} for n, d in durations(glb).items()]})
    library = httpx.get(server.avatar_base_url + "/animations").json()["data"]
    clip_files = {}
    for gender in AVATARS:
        url = avatars[gender]["modelUrl"] + "?lod=2"
        glb = fetch(url)
        clips = []
        for name in library[gender]:
            file_url = f"{server.avatar_base_url}/animations/{gender}/{name}.glb"
            clip_files[file_url] = fetch(file_url)
            clips.append({"file": file_url, "name": name, "times": times_for(durations(clip_files[file_url])[name])})
        models.append((url, glb, gender))
        cases.append({"model": url, "clips": clips})
    assert sum(len(c["clips"]) for c in cases[-2:]) == 36

    reports = run_async(page, "window.workbench.inspectModels", cases)

    worst, compared = 0.0, 0
    for (url, glb, _library_gender), case, seen in zip(models, cases, reports, strict=True):
        want = expected_counts(glb)
        assert seen["meshes"] == want["meshes"] and seen["skinnedMeshes"] == want["skinned"], url
        assert seen["skeletons"] == want["skeletons"] == 1, url
        assert seen["bones"] == want["bones"] and len(seen["bones"]) == 65, url
        assert seen["clips"] == want["clips"], url
        assert sorted(seen["meshNames"]) == want["mesh_names"], url
        assert seen["texturesWithImages"] > 0, url
        check_morphs(seen["morphs"], glb, url)
        worst = max(worst, position_error(seen["rest"], bone_positions(glb, None)))
        assert len(seen["posed"]) == sum(len(c["times"]) for c in case["clips"])
        for p in seen["posed"]:
            if p["file"]:
                ours = bone_positions(glb, p["time"], clip=clip_files[p["file"]])
            else:
                ours = bone_positions(glb, p["time"], animation=p["name"])
            err = position_error(p["positions"], ours)
            assert err <= TOLERANCE_M, (url, p["name"], p["time"], err)
            # Not a rest pose compared with a rest pose: each clip moves some bone by centimetres.
            moved = position_error(seen["rest"], ours)
            assert moved > 0.02, (url, p["name"], p["time"], moved)
            worst, compared = max(worst, err), compared + 1
    print(f"\nthree.js against workbench.gltf.bone_positions: {compared} poses x 65 bones, "
          f"max position error {worst * 1e6:.3f} um (tolerance {TOLERANCE_M * 1000:.1f} mm)")
    assert compared >= 2 * 36


SILHOUETTES = [("feminine", "full"), ("feminine", "portrait"), ("masculine", "full"), ("masculine", "portrait")]


def mask_iou(a: np.ndarray, b: np.ndarray) -> float:
    """Intersection over union of two RGBA images' silhouettes (alpha at least half)."""
    a, b = a[..., 3] >= 128, b[..., 3] >= 128
    return float((a & b).sum() / max((a | b).sum(), 1))


@pytest.mark.parametrize("gender,camera", SILHOUETTES)
def test_silhouette_matches_the_preview(page, server, avatars, gender, camera, tmp_path):
    """three.js with the preview's camera and sample grid draws the same figure as the workbench
    renderer (IoU >= 0.99, the issue's bound)."""
    silhouettes_agree(page, avatars[gender], f"{server.avatar_base_url}/animations/{gender}/idle.glb", camera,
                      tmp_path, f"{gender}_{camera}")


#: An avatar in a stance (contract section 4's ``pose``), which its model carries as its first animation: the wave,
#: whose raised arm the portrait leaves out of its square (workbench.render.framing).
WAVING = {"gender": "feminine", "pose": "wave", "hair": {"style": "bob"}, "outfit": {"topStyle": "hoodie"}}


@pytest.mark.parametrize("camera", ["full", "portrait"])
def test_a_stance_plays_in_three_js_as_the_preview_shows_it(page, server, camera, tmp_path):
    """The model's own first clip (its stance) played at 0 s in three.js draws the figure the preview draws."""
    r = httpx.post(server.avatar_base_url + "/avatar", json=WAVING, headers={"Authorization": f"Bearer {server.token}"})
    assert r.status_code == 201, r.text
    data = r.json()["data"]
    silhouettes_agree(page, data, data["modelUrl"], camera, tmp_path, f"wave_{camera}")


def silhouettes_agree(page, avatar: dict, clip_url: str, camera: str, tmp_path, label: str) -> None:
    """``avatar`` (the service's ``data``: model and preview URLs) in the pose of ``clip_url``'s first clip at 0 s
    (the pose its preview shows) drawn by three.js and by the service's preview with the same camera: the same
    figure."""
    from workbench.render.framing import frame
    from workbench.render.pictures import SUPERSAMPLE
    from workbench.render.scene import Clip, Model

    model_url = avatar["modelUrl"]
    glb, idle = fetch(model_url), fetch(clip_url)
    # The preview stands in the clip's pose at 0 s; its camera is the renderer's framing of that pose.
    model = Model(glb, max_texture=1)
    cam = frame(model.posed(Clip(Model(idle, max_texture=1)), 0.0), camera)
    args = {"model": model_url, "clip": clip_url, "time": 0.0, "size": SIZE,
            "view": [float(v) for v in cam.view.reshape(-1)], "fov": cam.fov_deg, "near": cam.near}
    # The preview averages SUPERSAMPLE x SUPERSAMPLE samples on a regular grid per pixel; the browser
    # draws one sample per cell of that grid and the test averages them the same way, so an edge
    # pixel's coverage is counted from the same points. The browser's 4x MSAA (rotated grid) is
    # measured too: on the full views (a 1-pixel edge around ~9,000 pixels) it disagrees on ~100 edge
    # pixels whose coverage is one or two of four samples, ~0.988 IoU without any geometric difference.
    fine = data_url_image(run_async(page, "window.workbench.silhouette", {**args, "samples": SUPERSAMPLE}))
    browser_rgba = fine.reshape(SIZE, SUPERSAMPLE, SIZE, SUPERSAMPLE, 4).mean(axis=(1, 3)).round().astype(np.uint8)
    msaa_rgba = data_url_image(run_async(page, "window.workbench.silhouette", args))
    preview_png = fetch(f"{avatar['previewUrl']}?size={SIZE}&camera={camera}")
    preview_rgba = np.asarray(Image.open(io.BytesIO(preview_png)).convert("RGBA"))
    a, b = browser_rgba[..., 3] >= 128, preview_rgba[..., 3] >= 128
    iou, iou_msaa = mask_iou(browser_rgba, preview_rgba), mask_iou(msaa_rgba, preview_rgba)
    # Side by side for a person to look at: the browser, the preview, and where they differ (red: browser only,
    # blue: preview only).
    diff = np.zeros((SIZE, SIZE, 4), np.uint8)
    diff[..., 3] = 255
    diff[a & b] = (200, 200, 200, 255)
    diff[a & ~b] = (220, 0, 0, 255)
    diff[~a & b] = (0, 0, 220, 255)
    sheet = Image.new("RGBA", (3 * SIZE, SIZE), (255, 255, 255, 255))
    for k, im in enumerate((browser_rgba, preview_rgba, diff)):
        tile = Image.new("RGBA", (SIZE, SIZE), (255, 255, 255, 255))
        tile.alpha_composite(Image.fromarray(im, "RGBA"))
        sheet.paste(tile, (k * SIZE, 0))
    buf = io.BytesIO()
    sheet.save(buf, format="PNG")
    save_artifact(tmp_path, f"silhouette_{label}.png", buf.getvalue())
    print(f"\nsilhouette {label}: IoU {iou:.4f} at {SIZE} px, same sample grid "
          f"({int(a.sum())} and {int(b.sum())} pixels); with the browser's 4x MSAA {iou_msaa:.4f}")
    assert a.sum() > 0.05 * SIZE * SIZE, "the browser drew (almost) nothing"
    assert iou >= IOU_MIN, iou
