"""The AvatarViewer widget driven from Python, as the front-end drives it.

With kernel frames (``renderer="kernel"``, as without the three.js bundle or WebGL): the camera
traitlets, the drag state, clips and time change the frame the kernel sends; two viewers share a
camera; snapshots and the mimebundle carry a PNG for notebooks without a kernel. With three.js
(the default): the page's messages get the model's and clips' GLB bytes as binary buffers, the
kernel draws nothing per change, checks what the page and code set (speed, weights, background),
and ``snapshot()`` is the picture the page sent. tests/browser/test_avatar_viewer_*.py drive the
page itself.

Times are never asserted here (bench/viewer.py measures them); frame sizes and bytes are."""

from __future__ import annotations

import base64
import io
import subprocess
import sys

import numpy as np
import pytest
from conftest import ROOT
from PIL import Image

pytest.importorskip("anywidget")

from workbench.gltf import build_avatar  # noqa: E402
from workbench.options import ModelOptions, normalize_avatar_settings  # noqa: E402
from workbench.widgets.viewer import AvatarViewer  # noqa: E402

SIZE = 192
SMALL = 96


@pytest.fixture(scope="module")
def glbs():
    settings = normalize_avatar_settings({"gender": "feminine"})
    return {"lod0": build_avatar(settings, ModelOptions(lod=0, animations=("walk", "wave"))),
            "lod2": build_avatar(settings, ModelOptions(lod=2))}


@pytest.fixture()
def viewer(glbs):
    return AvatarViewer(glbs["lod0"], lods={2: glbs["lod2"]}, size=SIZE, interactive_size=SMALL, renderer="kernel")


def pixels(png: bytes) -> np.ndarray:
    return np.asarray(Image.open(io.BytesIO(png)).convert("RGBA")).astype(int)


def test_the_first_frame_is_a_full_png_and_the_clips_are_the_avatars(viewer):
    assert viewer.frame.startswith(b"\x89PNG") and viewer.frame_size == SIZE and viewer.frame_quality == "full"
    assert pixels(viewer.frame).shape == (SIZE, SIZE, 4)
    assert viewer.clips == ["walk", "wave"] and viewer.clip == "" and viewer.duration == 0


def test_turning_the_camera_changes_the_frame_and_back_gives_the_same_bytes(viewer):
    first = viewer.frame
    viewer.yaw = 40.0
    turned = viewer.frame
    assert turned != first
    viewer.elevation = 20.0
    assert viewer.frame != turned
    viewer.zoom = 2.0
    zoomed = viewer.frame
    # Closer: the figure covers more of the picture.
    assert (pixels(zoomed)[..., :3] != pixels(turned)[0, 0, :3]).any(-1).sum() > \
        (pixels(turned)[..., :3] != pixels(turned)[0, 0, :3]).any(-1).sum()
    viewer.zoom, viewer.elevation, viewer.yaw = 1.0, 0.0, 0.0
    assert viewer.frame == first, "the same view must draw the same bytes"


def test_a_drag_draws_small_frames_and_the_release_the_full_one(viewer):
    count = viewer.frame_id
    viewer.dragging = True
    viewer.yaw = 25.0
    assert (viewer.frame_size, viewer.frame_quality) == (SMALL, "interactive")
    assert pixels(viewer.frame).shape[:2] == (SMALL, SMALL)
    viewer.yaw = 50.0
    assert pixels(viewer.frame).shape[:2] == (SMALL, SMALL)
    viewer.dragging = False
    assert (viewer.frame_size, viewer.frame_quality) == (SIZE, "full")
    assert pixels(viewer.frame).shape[:2] == (SIZE, SIZE)
    assert viewer.frame_id == count + 4  # the press, two moves, the release
    # The interactive frames come from the LOD 2 model the viewer was given.
    assert viewer.view_now(full=False).lod == 2 and viewer.stage.lods == [0, 2]


def test_several_traitlets_in_one_message_draw_once(viewer):
    count = viewer.frame_id
    with viewer.hold_trait_notifications():  # as ipywidgets applies a front-end message
        viewer.yaw, viewer.elevation = 10.0, 5.0
    assert viewer.frame_id == count + 1


def test_a_clip_and_its_time_change_the_pose(viewer):
    rest = viewer.frame
    viewer.clip = "walk"
    assert viewer.duration == pytest.approx(1.1)
    at0 = viewer.frame
    viewer.time = 0.4
    at4 = viewer.frame
    assert len({rest, at0, at4}) == 3
    viewer.time = 99  # held to the clip's end
    assert viewer.time == pytest.approx(1.1)
    with pytest.raises(Exception, match="no clip"):
        viewer.clip = "moonwalk"


def test_library_clips_of_the_avatars_gender(glbs):
    v = AvatarViewer(glbs["lod2"], library_clips=True, size=SMALL, renderer="kernel")
    assert "library/dance" in v.clips
    before = v.frame
    v.clip, v.time = "library/dance", 1.0
    assert v.frame != before


def test_the_skeleton_overlay_draws_over_the_frame(viewer):
    plain = pixels(viewer.frame)
    viewer.skeleton = True
    over = pixels(viewer.frame)
    changed = (plain != over).any(-1)
    assert 50 < changed.sum() < 0.2 * SIZE * SIZE
    # Joint dots are the overlay's blue.
    assert ((over[..., 0] < 60) & (over[..., 2] > 180)).sum() > 20


def test_compare_links_the_two_cameras(glbs):
    pair = AvatarViewer.compare(glbs["lod0"], glbs["lod2"], size=SMALL, renderer="kernel")
    assert len(pair.children) == 2 and pair.children[0] is pair.a
    before = pair.b.frame
    pair.a.yaw = 70.0
    pair.b.zoom = 1.5
    pair.a.dragging = True
    assert (pair.b.yaw, pair.a.zoom, pair.b.dragging) == (70.0, 1.5, True)
    pair.a.dragging = False
    assert pair.b.frame != before and pair.b.frame_quality == "full"
    assert pair._repr_mimebundle_()["image/png"].startswith(b"\x89PNG")


def test_snapshot_and_mimebundle_carry_the_frame_as_png(viewer):
    viewer.yaw = 15.0
    snap = viewer.snapshot()
    assert snap._repr_png_().startswith(b"\x89PNG") and snap.size == (SIZE, SIZE)
    assert np.array_equal(np.asarray(snap).astype(int), pixels(viewer.frame))
    bundle = viewer._repr_mimebundle_()
    assert "application/vnd.jupyter.widget-view+json" in bundle
    assert np.array_equal(pixels(bundle["image/png"]), pixels(viewer.frame))
    # Mid-drag, the still is still the full frame.
    viewer.dragging = True
    assert viewer.snapshot().size == (SIZE, SIZE)


def test_inputs_bytes_path_and_client_model(glbs, tmp_path):
    path = tmp_path / "a.glb"
    path.write_bytes(glbs["lod2"])
    a = AvatarViewer(glbs["lod2"], size=SMALL, renderer="kernel")
    b = AvatarViewer(path, size=SMALL, renderer="kernel")
    c = AvatarViewer(str(path), size=SMALL, renderer="kernel")
    assert a.frame == b.frame == c.frame
    with pytest.raises(TypeError, match="GLB bytes"):
        AvatarViewer(42)


def test_view_on_a_model_fetched_through_the_client(http_client, model_id):
    model = http_client.avatars.model(model_id, lod=2, animations="walk")
    v = model.view(size=SMALL, renderer="kernel")
    assert isinstance(v, AvatarViewer) and v.clips == ["walk"]
    assert v.frame_size == SMALL and v.frame.startswith(b"\x89PNG")
    v.clip, v.time = "walk", 0.5
    assert v._repr_mimebundle_()["image/png"].startswith(b"\x89PNG")


def test_view_of_a_model_from_the_service_fetches_its_lighter_level_when_a_page_needs_it(http_client, model_id):
    import threading

    from workbench.widgets.page_link import glb_key

    model = http_client.avatars.model(model_id, lod=1, animations="walk")
    v = model.view(size=SMALL, renderer="webgl")
    assert v._levels.levels() == [2] and v._levels.known == {}  # nothing fetched before a page asks
    got, done = [], threading.Event()
    v.send = lambda content, buffers=None: (got.append((content, [bytes(b) for b in buffers or []])), done.set())
    v._handle_custom_msg({"type": "lod"}, [])  # what a software GPU's page asks when the model arrives
    assert done.wait(120), "no answer"
    lod2 = http_client.avatars.model(model_id, lod=2, animations=[]).content
    assert got == [({"type": "lod", "level": 2, "key": glb_key(lod2)}, [lod2])]
    # The lightest level has no lighter one; a model from an async client, or lods= given, fetches nothing.
    assert http_client.avatars.model(model_id, lod=2).view(size=SMALL)._levels.levels() == []
    assert model.view(size=SMALL, lods={})._levels.levels() == []


def test_the_client_does_not_import_anywidget():
    code = ("import sys, workbench, workbench.client.results, workbench.widgets; "
            "print('anywidget' in sys.modules, 'workbench.widgets.viewer' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT,
                         env={"PYTHONPATH": str(ROOT)}, timeout=120)
    assert out.stdout.split() == ["False", "False"], out.stderr


# -- three.js in the page (renderer="webgl"): what the kernel does for it ---------------------------

class Page:
    """What the front-end sends and gets: custom messages to the kernel, and the kernel's answers."""

    def __init__(self, viewer):
        self.viewer, self.got = viewer, []
        viewer.send = lambda content, buffers=None: self.got.append((content, [bytes(b) for b in buffers or []]))

    def ask(self, **content):
        self.got.clear()
        self.viewer._handle_custom_msg(content, [])
        return self.got


def test_the_page_gets_the_glb_and_its_clips_as_binary_buffers(glbs):
    from workbench.render.testing import tiny_clip_glb
    from workbench.widgets.page_link import glb_key

    v = AvatarViewer(glbs["lod2"], clips={"bend": tiny_clip_glb()}, library_clips=True, size=SMALL, renderer="webgl")
    page = Page(v)
    key = glb_key(glbs["lod2"])
    assert v.model_key == key
    assert page.ask(type="model") == [({"type": "model", "key": key}, [glbs["lod2"]])]
    # A page that holds the bytes (another viewer of the same model) gets their name only.
    assert page.ask(type="model", have=[key]) == [({"type": "model", "key": key}, [])]
    bend = {"type": "clip", "name": "bend", "key": glb_key(tiny_clip_glb())}
    assert page.ask(type="clip", name="bend") == [(bend, [tiny_clip_glb()])]
    (content, [dance]), = page.ask(type="clip", name="library/dance")
    assert content["name"] == "library/dance" and dance[:4] == b"glTF"
    (content, buffers), = page.ask(type="clip", name="moonwalk")
    assert content["type"] == "error" and "no clip 'moonwalk'" in content["message"] and not buffers
    assert (content["request"], content["name"]) == ("clip", "moonwalk")  # the page knows which request failed
    assert page.ask(type="model", have="not a list") == [({"type": "model", "key": key}, [glbs["lod2"]])]


def test_a_software_gpu_page_gets_the_next_lighter_level_to_draw_while_moving(glbs):
    from workbench.widgets.page_link import glb_key

    # LOD 1, not the lightest: LOD 2 has no morph targets (js/viewer/features/lod.js draws it in motion).
    lod1 = build_avatar(normalize_avatar_settings({"gender": "feminine"}), ModelOptions(lod=1))
    v = AvatarViewer(glbs["lod0"], lods={2: glbs["lod2"], 1: lod1}, size=SMALL, renderer="webgl")
    assert Page(v).ask(type="lod") == [({"type": "lod", "level": 1, "key": glb_key(lod1)}, [lod1])]
    none = Page(AvatarViewer(glbs["lod0"], size=SMALL, renderer="webgl")).ask(type="lod")
    assert none == [({"type": "lod", "level": None}, [])]  # none to give


def test_a_lighter_level_given_as_a_fetch_is_fetched_once_when_a_page_first_asks(glbs):
    import threading

    from workbench.widgets.page_link import glb_key

    calls, done = [], threading.Event()

    def fetch():
        calls.append(1)
        return glbs["lod2"]

    v = AvatarViewer(glbs["lod0"], lods={2: fetch}, size=SMALL, renderer="webgl")
    assert calls == []  # nothing fetched until a page needs it
    page = Page(v)
    page.viewer.send = lambda content, buffers=None: (page.got.append((content, [bytes(b) for b in buffers or []])),
                                                      done.set())
    v._handle_custom_msg({"type": "lod"}, [])
    assert done.wait(60)
    assert page.got == [({"type": "lod", "level": 2, "key": glb_key(glbs["lod2"])}, [glbs["lod2"]])]
    assert page.ask(type="lod", have=[glb_key(glbs["lod2"])]) == [({"type": "lod", "level": 2, "key": glb_key(glbs["lod2"])}, [])]
    assert calls == [1]


def test_a_failed_fetch_tells_the_page_and_the_viewer_keeps_its_model(glbs):
    import threading

    done = threading.Event()

    def fetch():
        raise ConnectionError("the service is gone")

    v = AvatarViewer(glbs["lod2"], lods={3: fetch}, lod=2, size=SMALL, renderer="webgl")
    got = []
    v.send = lambda content, buffers=None: (got.append(content), done.set())
    v._handle_custom_msg({"type": "lod"}, [])
    assert done.wait(60)
    assert got[0]["type"] == "error" and got[0]["request"] == "lod" and "the service is gone" in got[0]["message"]


def test_the_widget_state_holds_a_loader_and_the_page_gets_the_bundle_as_a_buffer(glbs):
    from workbench.widgets.frontend import BUNDLE, bundle_path

    if bundle_path() is None:
        pytest.skip("the three.js bundle is not built here (npm ci && npm run build)")
    v = AvatarViewer(glbs["lod2"], size=SMALL, renderer="webgl")
    assert len(v._esm) < 4000 and "bundle" in v._esm, "the saved state would carry three.js"
    (content, [code]), = Page(v).ask(type="bundle")
    assert content == {"type": "bundle"} and code == BUNDLE.read_bytes()
    assert v.bundle_id and v.bundle_id == AvatarViewer(glbs["lod2"], size=SMALL).bundle_id


def test_with_three_js_the_kernel_draws_no_frame_and_a_still_only_for_the_output(glbs):
    v = AvatarViewer(glbs["lod2"], size=SMALL, renderer="webgl")
    assert v.frame == b"" and v.frame_quality == "still", "the widget's state holds no picture"
    v.yaw, v.zoom, v.skeleton = 90.0, 2.0, True
    assert v.frame == b"" and v.frame_id == 0, "the page draws: no kernel frame per camera change"
    # Until a page has drawn, the output's still and snapshot() are the kernel's still of the current view.
    still = v._repr_mimebundle_()["image/png"]
    assert pixels(still).shape[:2] == (SMALL, SMALL)
    assert np.array_equal(np.asarray(v.snapshot()), pixels(still))


def png_of(size, colour) -> bytes:
    buf = io.BytesIO()
    Image.new("RGBA", size, colour).save(buf, format="PNG")
    return buf.getvalue()


def test_the_pages_picture_is_the_snapshot_and_the_outputs_still(glbs):
    v = AvatarViewer(glbs["lod2"], size=SMALL, renderer="webgl")
    shown = []
    v._follow_still(lambda: shown.append(v._repr_mimebundle_()["image/png"]))
    canvas = png_of((300, 200), (10, 200, 30, 255))
    # As the page's message arrives: the picture as a binary buffer (a memoryview).
    v._handle_custom_msg({"type": "picture"}, [memoryview(canvas)])
    assert v.snapshot().size == (300, 200) and v.snapshot().getpixel((5, 5)) == (10, 200, 30, 255)
    assert v._repr_mimebundle_()["image/png"] == canvas and shown == [canvas]
    assert (v.frame_quality, v.frame_size, v.frame) == ("canvas", 300, b"")  # the state holds no copy
    v._handle_custom_msg({"type": "picture"}, [memoryview(canvas)])
    assert shown == [canvas], "the same picture again changes nothing"
    for bad in (b"", b"GIF89a...", png_of((9000, 4), (0, 0, 0, 255))):
        v._handle_custom_msg({"type": "picture"}, [memoryview(bad)])
    assert v._repr_mimebundle_()["image/png"] == canvas, "a picture that is no PNG, or too large, is refused"


def test_an_output_showing_the_viewer_keeps_the_pages_picture(glbs, monkeypatch):
    import IPython.display

    from workbench.widgets.comparison import AvatarComparison

    published = []

    class Handle:
        def update(self, data, metadata, raw):
            assert metadata["image/png"]["alt"].startswith(("The avatar in the 3D viewer", "Two views side by side"))
            published.append(("update", data))

    def display(data, metadata, raw, display_id):
        assert metadata["image/png"]["alt"].startswith(("The avatar in the 3D viewer", "Two views side by side"))
        published.append(("display", data))
        return Handle()

    monkeypatch.setattr(IPython.display, "display", display)
    v = AvatarViewer(glbs["lod2"], size=SMALL, renderer="webgl")
    v._ipython_display_()
    (kind, first), = published
    assert kind == "display" and "application/vnd.jupyter.widget-view+json" in first
    canvas = png_of((120, 80), (200, 10, 30, 255))
    v.take_picture(canvas)
    kind, now = published[-1]
    assert kind == "update" and base64.b64decode(now["image/png"]) == canvas
    assert now["application/vnd.jupyter.widget-view+json"] == first["application/vnd.jupyter.widget-view+json"]
    pair = AvatarComparison(AvatarViewer(glbs["lod2"], size=SMALL), AvatarViewer(glbs["lod2"], size=SMALL))
    pair._ipython_display_()
    pair.b.take_picture(canvas)
    kind, both = published[-1]
    assert kind == "update" and Image.open(io.BytesIO(base64.b64decode(both["image/png"]))).size == (SMALL + 120, SMALL)


def test_morph_weights_speed_and_background_are_checked(tmp_path):
    from helpers import arkit_glb

    v = AvatarViewer(arkit_glb(), size=SMALL, renderer="webgl")
    assert v.morph_targets[:3] == ["eyeBlinkLeft", "eyeBlinkRight", "jawOpen"]
    v.weights = {"jawOpen": 0.5}
    with pytest.raises(Exception, match="no morph target 'jawClose'"):
        v.weights = {"jawClose": 0.5}
    with pytest.raises(Exception, match="a morph weight is 0 to 1"):
        v.weights = {"jawOpen": 1.5}
    assert v.weights == {"jawOpen": 0.5}
    v.speed = 0.25
    with pytest.raises(Exception, match="speed is 0.25 to 2"):
        v.speed = 3
    with pytest.raises(Exception, match="background is a colour #rrggbb"):
        v.background = "red"
    assert v.speed == 0.25


def test_a_picture_that_is_not_a_png_is_refused_by_name_and_changes_nothing(glbs):
    # take_picture is public: bytes without a PNG's header were unpacked as a size (a TypeError of the interpreter's)
    v = AvatarViewer(glbs["lod2"], size=SMALL, renderer="webgl")
    before = (v.frame_id, v.frame_quality, v.frame_size)
    with pytest.raises(ValueError, match="png: not a PNG"):
        v.take_picture(b"GIF89a, not a PNG")
    assert (v.frame_id, v.frame_quality, v.frame_size) == before
    assert v.snapshot() != b"GIF89a, not a PNG"


def test_compare_labels_both_sides_and_links_them_in_the_page(glbs):
    pair = AvatarViewer.compare(glbs["lod0"], glbs["lod2"], labels=("LOD 0", "LOD 2"), size=SMALL, renderer="webgl")
    assert (pair.a.label, pair.b.label) == ("LOD 0", "LOD 2")
    assert pair.a.link_group == pair.b.link_group != ""
    pair.a.clip = "walk"
    assert pair.b.clip == "" or pair.b.clips != pair.a.clips  # lod2 has no clips: nothing to link
    assert "repeat(2" in pair.layout.grid_template_columns


def test_without_the_bundle_the_kernel_draws_and_says_so_once(glbs, monkeypatch):
    import warnings

    import workbench.widgets.frontend as frontend
    import workbench.widgets.viewer as v3d

    monkeypatch.setattr(frontend, "BUNDLE", frontend.STATIC / "absent.js")
    monkeypatch.setattr(v3d, "_said", set())
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        a = AvatarViewer(glbs["lod2"], size=SMALL)
        b = AvatarViewer(glbs["lod2"], size=SMALL)
    assert a.renderer == b.renderer == "kernel" and "built without Node.js" in a.notice
    assert len([w for w in caught if "built without Node.js" in str(w.message)]) == 1
    assert a.frame_quality == "full" and pixels(a.frame).shape[:2] == (SMALL, SMALL)


def test_a_viewer_its_page_no_longer_shows_is_closed_and_opens_again_when_shown(monkeypatch):
    """The page says "gone" once its last view of a viewer has left a notebook still open (the output
    cleared): the kernel closes it, so ipywidgets lets go of it; displayed again it opens under a new id.
    A comparison whose two viewers are gone closes with its own widgets."""
    import IPython.display
    from ipywidgets.widgets.widget import _instances

    from workbench.render.testing import tiny_rig_glb

    monkeypatch.setattr(IPython.display, "display", lambda *a, **kw: None)
    v = AvatarViewer(tiny_rig_glb(), size=32)
    first = v.model_id
    v._on_message(v, {"type": "gone"}, [])
    assert v.comm is None and first not in _instances
    v._ipython_display_()
    assert v.comm is not None and v.model_id != first and v.viewer_id == v.model_id
    pair = AvatarViewer.compare(tiny_rig_glb(), tiny_rig_glb(), size=32)
    pair.a._on_message(pair.a, {"type": "gone"}, [])
    assert pair.comm is not None  # the other side still shows
    pair.b._on_message(pair.b, {"type": "gone"}, [])
    assert pair.comm is None and pair.layout.comm is None and not pair.links
