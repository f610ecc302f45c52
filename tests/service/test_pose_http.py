"""The avatar's stance over HTTP (contract section 4, ``pose``): accepted, defaulted to ``relaxed`` (the idle
clip's first frame every preview showed before), described in /openapi.json; each other stance changes the
preview (both cameras) and is carried in the model as its first animation, ``pose`` (contract section 5); a bad
value is answered 400 naming the field and the allowed values, and registers nothing."""

from __future__ import annotations

import io

import httpx
import numpy as np
import pytest
from helpers import assert_refused_value, auth
from PIL import Image

from workbench.gltf.glb import read_glb
from workbench.options import POSES


def register(server, settings: dict) -> dict:
    r = httpx.post(server.avatar_base_url + "/avatar", json=settings, headers=auth(server), timeout=120)
    assert r.status_code == 201, r.text
    return r.json()["data"]


def alpha(url: str, camera: str) -> np.ndarray:
    r = httpx.get(url + f"?size=128&camera={camera}", timeout=300)
    assert r.status_code == 200, r.text
    return np.asarray(Image.open(io.BytesIO(r.content)))[..., 3] > 127


@pytest.mark.parametrize("value", ["power-stance", "Relaxed", 3, None, ["relaxed"]])
def test_a_bad_pose_is_400_naming_the_field_and_the_values_and_registers_nothing(server, value):
    assert_refused_value(server, {"gender": "feminine", "pose": value}, "pose", POSES)


def test_openapi_describes_the_poses_and_the_default(server):
    spec = httpx.get(server.root + "/openapi.json").json()
    assert spec["components"]["schemas"]["AvatarSettings"]["properties"]["pose"] == {
        "enum": list(POSES), "default": "relaxed"}


SETTINGS = {"gender": "feminine", "height": 168, "outfit": {"topStyle": "longsleeve"}}


def test_naming_relaxed_gives_the_defaults_bytes_and_a_model_with_no_clips(server):
    """Naming ``relaxed`` gives the default's preview and model byte for byte, and a model with no clips."""
    default = register(server, SETTINGS)
    named = register(server, {**SETTINGS, "pose": "relaxed"})
    assert (httpx.get(default["previewUrl"] + "?size=64", timeout=300).content
            == httpx.get(named["previewUrl"] + "?size=64", timeout=300).content)
    glb = httpx.get(default["modelUrl"] + "?lod=2", timeout=300).content
    assert glb == httpx.get(named["modelUrl"] + "?lod=2", timeout=300).content
    assert "animations" not in read_glb(glb)[0]


# Every stance in the whole suite; the quick loop keeps the first (each is fitted to the body on its first preview:
# a second or so of the service's CPU; the rest were 8 of the quick loop's worker-seconds, pass 72).
@pytest.mark.parametrize("pose", [pytest.param(p, marks=() if i == 0 else pytest.mark.slow)
                                  for i, p in enumerate(POSES[1:])])
def test_a_stance_changes_the_preview_and_leads_the_models_animations(server, pose):
    """A stance other than ``relaxed`` moves the silhouette in the full-body preview (the arms: a few hundred of 128 x
    128 pixels) and the portrait's (the shoulders: dozens), and its model's first animation is ``pose``, before the
    clips asked for."""
    default = register(server, SETTINGS)
    full, portrait = alpha(default["previewUrl"], "full"), alpha(default["previewUrl"], "portrait")
    d = register(server, {**SETTINGS, "pose": pose})
    moved = int(np.sum(alpha(d["previewUrl"], "full") != full))
    # (200 -> 150, pass 38: pose38 lays the clasped right hand over the left on the belly, inside the body's outline
    # more than before: 192 pixels; the hips' stances move 300 and more.)
    assert moved > 150, (pose, moved)
    assert np.sum(alpha(d["previewUrl"], "portrait") != portrait) > 40, pose
    doc, _ = read_glb(httpx.get(d["modelUrl"] + "?lod=2&animations=wave", timeout=300).content)
    assert [a["name"] for a in doc["animations"]] == ["pose", "wave"], pose
