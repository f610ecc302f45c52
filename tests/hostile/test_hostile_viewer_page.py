"""The AvatarViewer does not trust its page (issue 40 item 7): what a page sends reaches the kernel as
the widget's comm messages, and a page (a script in the notebook's page, a forged message) must not
make the kernel draw frames it did not ask for, nor at any size.

Each attack goes through the widget's public message interface, as JupyterLab's would: an ipywidgets
``update`` with a state, or a custom message, handed to the widget's comm. The page may set what a
person sets with the mouse and keys (the camera, the clip, the look), each checked as code's values
are; the renderer, the sizes, the rules and the rest are the kernel's. Code's own sizes are bounded.
"""

from __future__ import annotations

import pytest

pytest.importorskip("anywidget")

from workbench.render.testing import tiny_rig_glb  # noqa: E402
from workbench.widgets import view_rules  # noqa: E402
from workbench.widgets.viewer import AvatarViewer  # noqa: E402


def page_sets(viewer, **state):
    """What a page's update message does: ``state`` as the front-end would send it."""
    viewer.comm.handle_msg({"content": {"comm_id": viewer.comm.comm_id,
                                        "data": {"method": "update", "state": state, "buffer_paths": []}},
                            "buffers": []})


def page_sends(viewer, content, buffers=()):
    viewer.comm.handle_msg({"content": {"comm_id": viewer.comm.comm_id, "data": {"method": "custom", "content": content}},
                            "buffers": list(buffers)})


@pytest.fixture()
def viewer():
    return AvatarViewer(tiny_rig_glb(), size=32, renderer="webgl")


def test_the_page_cannot_make_the_kernel_draw_its_frames(viewer):
    page_sets(viewer, renderer="kernel")
    assert viewer.renderer == "webgl"
    assert viewer.frame == b"" and viewer.frame_id == 0, "the kernel drew a frame for the page"


def test_the_page_cannot_ask_for_any_size(viewer):
    page_sets(viewer, size=20_000, interactive_size=30_000, lod=7, interactive_lod=-3, format="webp")
    assert (viewer.size, viewer.interactive_size, viewer.lod, viewer.interactive_lod, viewer.format) == \
        (32, 256, 0, 2, "png")


def test_the_page_cannot_change_the_kernels_own_traitlets(viewer):
    rules, key = dict(viewer.rules), viewer.model_key
    page_sets(viewer, rules={"zoom": [0, 1e9]}, model_key="x", clips=["evil"], morph_targets=["x"], duration=1e9,
              notice="<script>", bundle_id="x", frame=b"\x89PNG", frame_quality="canvas", link_group="other")
    assert (dict(viewer.rules), viewer.model_key, viewer.clips, viewer.morph_targets, viewer.duration) == \
        (rules, key, [], [], 0.0)
    assert (viewer.notice, viewer.bundle_id != "x", viewer.frame, viewer.frame_quality, viewer.link_group) == \
        ("", True, b"", "still", "")


def test_what_the_page_may_set_is_checked_as_code_is(viewer):
    page_sets(viewer, yaw=45.0, zoom=1e12, elevation=-1e9, speed=0.5, weights={}, background="#112233")
    assert (viewer.yaw, viewer.zoom, viewer.elevation, viewer.speed, viewer.background) == \
        (45.0, view_rules.ZOOM_RANGE[1], view_rules.ELEVATION_RANGE[0], 0.5, "#112233")
    # A bad value is dropped, and the good ones in the same message are kept.
    page_sets(viewer, yaw=90.0, speed=1e9, clip="moonwalk", background="red", weights={"nothing": 1.0},
              zoom=float("nan"), target=[1, 2])
    assert (viewer.yaw, viewer.speed, viewer.clip, viewer.background, viewer.weights, viewer.target) == \
        (90.0, 0.5, "", "#112233", {}, [])
    assert viewer.zoom == view_rules.ZOOM_RANGE[1]


def test_code_cannot_ask_for_any_size_either(viewer):
    # Set on a viewer that draws nothing itself: a kernel asked for 20,000 px would try 6 GiB.
    with pytest.raises(Exception, match=r"size is 32 to 2048 px; got 20000"):
        viewer.size = 20_000
    with pytest.raises(Exception, match=r"interactive_size is 32 to 512 px; got 30000"):
        viewer.interactive_size = 30_000
    assert (viewer.size, viewer.interactive_size) == (32, 256)


def test_a_picture_from_the_page_is_a_bounded_png(viewer):
    import struct

    header = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR"
    page_sends(viewer, {"type": "picture"}, [header + struct.pack(">II", 100_000, 100_000) + b"\0" * 64])
    page_sends(viewer, {"type": "picture"}, [b"GIF89a" + b"\0" * 64])
    page_sends(viewer, {"type": "picture"}, [])
    assert viewer.frame_quality == "still" and viewer._picture is None
    assert viewer.snapshot().size == (32, 32)  # the kernel's still, not the page's claim


# Each state made when its test runs: made at collection, they cost every pytest-xdist worker half a second of CPU
# and a hundred megabytes, held all the run, in runs that leave them out too.
HUGE_STATES = {"a-million-weights": lambda: {"weights": {f"shape{i}": 0.5 for i in range(1_000_000)}},
               "a-million-numbers": lambda: {"target": [0.0] * 1_000_000},
               "ten-million-characters": lambda: {"clip": "x" * 10_000_000},
               "a-list-for-a-colour": lambda: {"background": ["#000000"] * 1_000_000}}


@pytest.mark.timeout(60)   # a million weights held the kernel past 60 s before they were refused
@pytest.mark.parametrize("huge", HUGE_STATES)
def test_every_trait_the_page_sets_is_bounded_and_the_page_told(viewer, huge, monkeypatch):
    """Issue 45, item 5: each refused at its size, before traitlets walks it, with a message to the page naming it;
    the rest of the message is taken."""
    state = HUGE_STATES[huge]()
    said = []
    monkeypatch.setattr(viewer, "send", lambda content, buffers=None: said.append(content))
    [(name, value)] = state.items()
    before = getattr(viewer, name)
    page_sets(viewer, yaw=30.0, **state)
    assert getattr(viewer, name) == before and viewer.yaw == 30.0
    assert [m["name"] for m in said if m["type"] == "error" and m["request"] == "state"] == [name]
    assert said[-1]["message"].startswith(f"AvatarViewer: {name} ")
