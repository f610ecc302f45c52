"""What the renderer does once per model, not once per view (speed38, issue 49: the avatar review tests and sheets draw
each avatar from two to four sides, and a first preview's cost is every user's).

- :func:`workbench.render.render` keeps the last models it read (``workbench.render.pictures.KEEP_MODELS``): a second
  view of the same GLB decodes none of its textures again, and draws the very pixels a freshly read model draws.
- A clip read from a GLB (``pose=(glb, 0.0)``, the pose the review tests and sheets draw in) decodes no texture: a
  clip is nodes and keyframes; main decoded every image of the avatar a second time for it.
- The shading tables' texture fields are contiguous whatever the count of textures, so numba's raster and shade are
  compiled (and, with a cold cache, compiled again) for one layout, not two.
"""

from __future__ import annotations

from collections import OrderedDict

import numpy as np
import pytest

from workbench.gltf import build_avatar
from workbench.gltf.glb import read_glb
from workbench.options import ModelOptions, normalize_avatar_settings
from workbench.regeneration.product import build_product_glb
from workbench.render import loops, pictures, render, scene
from workbench.render.framing import frame
from workbench.render.pictures import SUPERSAMPLE, _max_texture
from workbench.render.raster import draw, warm_loops
from workbench.render.scene import Model, load_clip

SIZE = 96


@pytest.fixture(scope="module")
def glb() -> bytes:
    s = normalize_avatar_settings({"gender": "feminine", "hair": {"style": "bob"}})
    return build_avatar(s, ModelOptions(lod=2, animations=("idle",)))


@pytest.fixture
def decodes(monkeypatch) -> list[int]:
    """Each image decode, counted (the texture's pixel count)."""
    seen: list[int] = []
    real = Model._decode

    def counted(self, data):
        tex = real(self, data)
        seen.append(tex.width * tex.height)
        return tex

    monkeypatch.setattr(Model, "_decode", counted)
    return seen


def test_a_second_view_of_a_model_decodes_no_texture_and_draws_what_a_fresh_model_draws(glb, decodes, monkeypatch):
    monkeypatch.setattr(pictures, "_models", OrderedDict(), raising=False)    # none kept from other tests
    if hasattr(scene, "_bytes_clip"):
        scene._bytes_clip.cache_clear()
    first = np.asarray(render(glb, size=SIZE, camera="portrait", pose=(glb, 0.0), yaw_deg=180.0))
    images = len(read_glb(glb)[0]["images"])
    assert 0 < len(decodes) <= images          # the model's own textures; the clip's none (main: twice as many)
    once = len(decodes)
    second = np.asarray(render(glb, size=SIZE, camera="portrait", pose=(glb, 0.0), yaw_deg=35.0))
    assert len(decodes) == once                # (main: every texture again, for the model and for the clip)
    # The kept model draws the bytes a model read afresh draws (and so does the first view, drawn again).
    fresh = Model(glb, max_texture=_max_texture(SIZE))
    posed = fresh.posed(load_clip(glb), 0.0)
    pivot = pictures._pivot(posed)
    for yaw, im in ((180.0, first), (35.0, second)):
        turned = pictures._turned(posed, yaw, pivot)
        again = draw(turned, frame(turned, "portrait"), SIZE, ss=SUPERSAMPLE, shadow=pictures._shadow(fresh, turned, "auto"))
        assert np.array_equal(im, again)
    assert np.array_equal(first, np.asarray(render(glb, size=SIZE, camera="portrait", pose=(glb, 0.0), yaw_deg=180.0)))


def test_a_clip_from_a_glb_decodes_no_texture(glb, decodes):
    if hasattr(scene, "_bytes_clip"):
        scene._bytes_clip.cache_clear()          # (read here, not kept from another test)
    clip = load_clip(glb)
    assert clip.channels and clip.duration > 0
    assert decodes == []


def test_the_loops_have_one_compiled_layout_for_any_count_of_textures(glb):
    warm_loops()                                                    # three textures
    render(build_product_glb("lamp"), size=32, camera="full")       # none
    render(glb, size=32, camera="portrait")                         # an avatar's
    assert len(loops.raster.signatures) == 1, loops.raster.signatures
    assert len(loops.shade.signatures) == 1, loops.shade.signatures
