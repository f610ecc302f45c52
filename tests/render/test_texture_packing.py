"""A model's textures made from pixels are packed into one buffer on a helper thread while the model is
posed (workbench.render.scene.Model): whichever thread wins, the picture is the one-thread picture.

Issue 45 item 1: the packing job read each texture's offset while the request's thread was still setting
them; when the helper ran first (a busy machine) it packed every texture at offset 0 and left the rest of
the buffer as freed memory, another avatar's textures. A model made on a helper thread runs that job
inline, before the offsets are set: the old order's worst case, every time, on any machine.
"""

from __future__ import annotations

import numpy as np

from workbench import threads
from workbench.gltf.avatar import build_avatar_unencoded
from workbench.options import ModelOptions, normalize_avatar_settings
from workbench.render import render
from workbench.render.scene import Model


def _avatar():
    s = normalize_avatar_settings({"gender": "feminine", "glasses": "clear", "hair": {"style": "long"},
                                   "outfit": {"top": "#3366CC", "topStyle": "hoodie", "bottomStyle": "skirt"}})
    return build_avatar_unencoded(s, ModelOptions(lod=2))


def test_texels_are_the_pixels_whichever_thread_packs_them():
    glb, images = _avatar()

    def texels_of(model: Model) -> list[np.ndarray]:
        return [t.texels.copy() for t in (model.texture(i) for i in range(len(model.doc["textures"]))) if t is not None]

    here = texels_of(Model(glb, images=images))
    on_helper = threads.start(lambda: texels_of(Model(glb, images=images))).result()
    assert len(here) == len(on_helper) > 3
    for a, b in zip(here, on_helper, strict=True):
        assert np.array_equal(a, b)
    # and they are the images' own pixels (RGB with an opaque alpha, RGBA as they are)
    first = Model(glb, images=images)
    for i, pixels in images.items():
        tex = first.texture(next(k for k, t in enumerate(first.doc["textures"]) if t.get("source") == i))
        rgba = pixels if pixels.shape[2] == 4 else np.dstack([pixels, np.full(pixels.shape[:2], 255, np.uint8)])
        if max(pixels.shape[:2]) <= first.max_texture:
            assert np.array_equal(tex.texels, np.ascontiguousarray(rgba).view(np.uint32).reshape(-1))


def test_a_picture_drawn_on_a_helper_thread_is_the_one_drawn_here():
    glb, images = _avatar()
    here = np.asarray(render(glb, size=96, camera="full", images=images))
    there = np.asarray(threads.start(lambda: render(glb, size=96, camera="full", images=images)).result())
    assert np.array_equal(here, there)
