"""tests/built.py's shared drawings (suite30): :func:`built.rendered` gives render's own pixels, draws each picture once
per run (in this process, then from the run's folder in another worker), and never keeps what it cannot name."""

import built
import numpy as np
import pytest

import workbench.render
from workbench.regeneration.product import build_product_glb


@pytest.fixture()
def counted(monkeypatch, tmp_path):
    """render's calls counted, a fresh run's folder and memory."""
    calls = []
    render = workbench.render.render

    def counting(glb, **kw):
        calls.append(kw)
        return render(glb, **kw)

    monkeypatch.setattr(workbench.render, "render", counting)
    monkeypatch.setenv(built.FOLDER_VAR, str(tmp_path))
    monkeypatch.setattr(built, "_pictures", type(built._pictures)())
    return calls


def test_a_picture_is_drawn_once_per_run_with_renders_own_pixels(counted, tmp_path):
    glb = build_product_glb("vase")
    own = np.asarray(workbench.render.render(glb, size=48, camera="full", background=(236, 238, 242), yaw_deg=35.0))
    counted.clear()
    first = built.rendered(glb, size=48, camera="full", background=(236, 238, 242), yaw_deg=35.0)
    np.asarray(first).copy()[:] = 0                       # (a test's own copy: changing it changes no other's)
    again = built.rendered(glb, size=48, camera="full", background=(236, 238, 242), yaw_deg=35.0)
    assert len(counted) == 1 and first.mode == again.mode == "RGBA"
    assert (np.asarray(again) == own).all() and (np.asarray(first) == own).all()
    built._pictures.clear()                               # another worker of the run: the folder's copy, not drawn again
    assert (np.asarray(built.rendered(glb, size=48, camera="full", background=(236, 238, 242), yaw_deg=35.0)) == own).all()
    assert len(counted) == 1 and len(list(tmp_path.glob("*.png"))) == 1
    built.rendered(glb, size=48, camera="full", background=(236, 238, 242), yaw_deg=0.0)     # another view: drawn
    built.rendered(build_product_glb("lamp"), size=48, camera="full", background=(236, 238, 242), yaw_deg=35.0)
    assert len(counted) == 3


def test_what_it_cannot_name_is_drawn_each_time(counted):
    glb = build_product_glb("vase")
    images = {0: np.zeros((4, 4, 3), np.uint8)}
    for _ in range(2):
        built.rendered(glb, size=32, camera="full", images=images)
    assert len(counted) == 2 and not built._pictures
