"""What a service's start prepares (workbench.render.warm_up) is all a first preview and model share: after
it, a new avatar's first preview and its model with every clip load no compiled loop and compile nothing,
and drawing on two threads gives the very pixels one thread gives."""

from __future__ import annotations

import subprocess
import sys

import numpy as np

from workbench.gltf.avatar import build_avatar_unencoded
from workbench.options import ModelOptions, normalize_avatar_settings
from workbench.render import raster
from workbench.render.framing import frame
from workbench.render.pictures import SUPERSAMPLE, _max_texture, _posed, _shadow
from workbench.render.scene import Model

CHECK = """
import sys, numba
from workbench.render import warm_up
warm_up()
def loaded():
    return {(name, k): len(v.signatures) for name, m in list(sys.modules.items()) if name.startswith("workbench")
            for k, v in vars(m).items() if isinstance(v, numba.core.registry.CPUDispatcher)}
before = loaded()
from workbench.gltf import build_avatar
from workbench.gltf.avatar import build_avatar_unencoded
from workbench.options import ANIMATIONS, ModelOptions, PreviewOptions, normalize_avatar_settings
from workbench.render import render_preview
for s in ({"gender": "feminine", "glasses": "clear"}, {"gender": "masculine", "hair": {"style": "long"}}):
    s = normalize_avatar_settings(s)
    glb, images = build_avatar_unencoded(s, ModelOptions())
    render_preview(glb, PreviewOptions(size=512), pose=(s["gender"] + "/idle", 0.0), images=images)
    build_avatar(s, ModelOptions(animations=ANIMATIONS))
after = loaded()
print(sorted(k for k in after if after[k] != before.get(k, 0)))
"""


def test_after_the_warm_up_a_first_preview_and_model_load_no_compiled_loop():
    done = subprocess.run([sys.executable, "-c", CHECK], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip().splitlines()[-1] == "[]"


def test_two_threads_draw_the_pixels_one_draws(monkeypatch):
    settings = normalize_avatar_settings({"gender": "feminine", "hair": {"style": "curly"}, "glasses": "sunglasses"})
    glb, images = build_avatar_unencoded(settings, ModelOptions())
    model = Model(glb, max_texture=_max_texture(256), images=images)
    posed = _posed(model, ("feminine/idle", 0.0))
    cam = frame(posed, "portrait")
    two = raster.draw(posed, cam, 256, ss=SUPERSAMPLE, shadow=_shadow(model, posed, "auto"))
    monkeypatch.setattr(raster, "SPLIT_TRIANGLES", 10**9)
    monkeypatch.setattr(raster, "SPLIT_SAMPLES", 10**9)
    one = raster.draw(posed, cam, 256, ss=SUPERSAMPLE, shadow=_shadow(model, posed, "auto"))
    assert np.array_equal(one, two)
    assert (two[..., 3] > 0).mean() > 0.3      # (a figure, not an empty frame)
