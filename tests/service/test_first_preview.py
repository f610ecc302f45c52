"""A first preview is drawn from the avatar's textures as arrays, not from a GLB whose textures were
encoded only to be decoded again: the same picture, less work."""

from __future__ import annotations

import io

import numpy as np
from PIL import Image

from workbench.gltf import build_avatar, textures
from workbench.gltf.avatar import build_avatar_unencoded
from workbench.options import ModelOptions, PreviewOptions, normalize_avatar_settings
from workbench.render import render_preview

SETTINGS = {"gender": "feminine", "glasses": "clear", "hair": {"style": "long", "color": "#3B2A1E"}}


def rgba(png: bytes) -> np.ndarray:
    return np.asarray(Image.open(io.BytesIO(png)).convert("RGBA")).astype(np.int16)


def assert_same_picture(a: np.ndarray, b: np.ndarray) -> None:
    """The same silhouette to the pixel, and colours apart only by the JPEG textures' loss (q 88)."""
    assert a.shape == b.shape
    assert np.array_equal(a[..., 3] > 127, b[..., 3] > 127)
    lit = a[..., 3] > 0
    diff = np.abs(a[..., :3] - b[..., :3])[lit]
    assert diff.mean() < 1.5, diff.mean()           # measured 0.3 levels on a 512 px portrait
    assert np.percentile(diff, 99) <= 12


def test_unencoded_avatar_draws_the_glb_path_picture():
    settings = normalize_avatar_settings(SETTINGS)
    options = PreviewOptions(size=192, camera="portrait")
    from_file = render_preview(build_avatar(settings, ModelOptions()), options, pose="preview")
    glb, images = build_avatar_unencoded(settings, ModelOptions())
    from_arrays = render_preview(glb, options, pose="preview", images=images)
    assert_same_picture(rgba(from_file), rgba(from_arrays))
    # Deterministic: the same bytes again.
    glb, images = build_avatar_unencoded(settings, ModelOptions())
    assert render_preview(glb, options, pose="preview", images=images) == from_arrays


def test_unencoded_avatar_keeps_every_image_as_pixels():
    settings = normalize_avatar_settings(SETTINGS)
    glb, images = build_avatar_unencoded(settings, ModelOptions())
    from workbench.gltf.glb import read_glb

    doc, _ = read_glb(glb)
    assert sorted(images) == list(range(len(doc["images"])))
    assert all(doc["bufferViews"][im["bufferView"]]["byteLength"] == 0 for im in doc["images"])
    # Hair (MASK) and glasses (BLEND) keep their alpha; opaque textures are RGB as in the file.
    by_name = {im["name"]: images[i] for i, im in enumerate(doc["images"])}
    assert by_name["Hair"].shape[2] == 4 and by_name["Glasses"].shape[2] == 4 and by_name["Skin"].shape[2] == 3
    # No morph targets: a preview shows the neutral face.
    assert not any("targets" in p for m in doc["meshes"] for p in m["primitives"])


def test_service_first_preview_encodes_no_texture(asgi_client, monkeypatch):
    """Over the service (in process, so the encoder can be watched): a first preview encodes no
    texture, and its picture is the one the model the service then serves gives."""
    mid = asgi_client.avatars.register(SETTINGS).model_id

    def refuse(*a, **kw):
        raise AssertionError("a texture was encoded for a preview")

    with monkeypatch.context() as m:
        m.setattr(textures, "encode", refuse)
        preview = asgi_client.avatars.preview(mid, size=256)
    glb = asgi_client.avatars.model(mid).content
    local = render_preview(glb, PreviewOptions(size=256), pose="preview")
    assert_same_picture(rgba(local), rgba(preview.content))
