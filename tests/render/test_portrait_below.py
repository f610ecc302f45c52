"""A portrait's first preview is drawn from a model made without the meshes below the waist
(:data:`workbench.gltf.meshes.BELOW`: the bottom and the shoes), which no portrait shows: the very bytes the whole
model's portrait gives, for every bottom, shoe and stance, a short and a tall body; the service asks for that model
for its portraits only (a full-figure preview shows the legs)."""

from __future__ import annotations

import pytest

from workbench.gltf.avatar import build_avatar_unencoded
from workbench.gltf.glb import read_glb
from workbench.gltf.meshes import BELOW
from workbench.options import DEFAULT_POSE, ModelOptions, PreviewOptions, normalize_avatar_settings
from workbench.render import render_preview

# Every bottom with every shoe, each in another stance and body; the shortest and tallest bodies; long hair, which
# reaches lowest of the hair styles, and a hand raised into the frame (wave).
CASES = [
    {"gender": "masculine", "bodyShape": "heavy", "height": 210, "hair": {"style": "long"},
     "outfit": {"topStyle": "longsleeve", "bottomStyle": "trousers", "shoeStyle": "boots"}, "glasses": "sunglasses"},
    {"gender": "feminine", "bodyShape": "slim", "height": 140, "hair": {"style": "bob"},
     "outfit": {"topStyle": "tee", "bottomStyle": "skirt", "shoeStyle": "sneakers"}, "pose": "wave"},
    {"gender": "feminine", "bodyShape": "average", "hair": {"style": "long"},
     "outfit": {"topStyle": "hoodie", "bottomStyle": "shorts", "shoeStyle": "boots"}, "pose": "hands_clasped"},
    {"gender": "masculine", "bodyShape": "athletic", "hair": {"style": "ponytail"},
     "outfit": {"topStyle": "tee", "bottomStyle": "trousers", "shoeStyle": "sneakers"}, "pose": "hand_on_hip"},
    {"gender": "feminine", "bodyShape": "heavy", "hair": {"style": "curly"},
     "outfit": {"topStyle": "longsleeve", "bottomStyle": "skirt", "shoeStyle": "boots"}, "pose": "hands_on_hips"},
    {"gender": "masculine", "bodyShape": "slim", "hair": {"style": "none"},
     "outfit": {"topStyle": "hoodie", "bottomStyle": "shorts", "shoeStyle": "sneakers"}},
]


def mesh_names(glb: bytes) -> set[str]:
    doc, _ = read_glb(glb)
    return {m["name"] for m in doc["meshes"]}


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c['outfit']['bottomStyle']}-{c['outfit']['shoeStyle']}"
                                                      f"-{c.get('pose', DEFAULT_POSE)}")
def test_a_portrait_without_the_meshes_below_the_waist_is_the_same_picture(case):
    settings = normalize_avatar_settings(case)
    # The pose the service's previews stand in (workbench.service.content: idle's, or the avatar's stance).
    pose = (f"{settings['gender']}/idle", 0.0) if settings["pose"] == DEFAULT_POSE else "preview"
    options = PreviewOptions(size=256, camera="portrait")
    whole, images = build_avatar_unencoded(settings, ModelOptions())
    upper, upper_images = build_avatar_unencoded(settings, ModelOptions(), below=False)
    assert set(BELOW) <= mesh_names(whole) and not set(BELOW) & mesh_names(upper)
    assert mesh_names(whole) - mesh_names(upper) == set(BELOW)
    assert render_preview(upper, options, pose=pose, images=upper_images) == render_preview(
        whole, options, pose=pose, images=images)


def test_the_service_leaves_them_out_of_a_portraits_model_only(asgi_client, monkeypatch):
    """Over the service (in process, to see what it asks the generator for): a portrait's first preview asks for the
    model without the meshes below the waist, a full figure's for the whole."""
    asked = []

    def watched(settings, options, *, below=True):
        asked.append(below)
        return build_avatar_unencoded(settings, options, below=below)

    monkeypatch.setattr("workbench.gltf.avatar.build_avatar_unencoded", watched)
    mid = asgi_client.avatars.register({"gender": "feminine"}).model_id
    asgi_client.avatars.preview(mid, size=64, camera="portrait")
    asgi_client.avatars.preview(mid, size=64, camera="full")
    assert asked == [False, True]
