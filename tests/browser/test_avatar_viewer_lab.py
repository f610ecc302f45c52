"""The AvatarViewer in JupyterLab, driven by a person's mouse in headless Chromium.

A notebook makes a viewer; the test drags on its picture (selenium's ActionChains: press, move,
release), checks the picture changes, that the drag's frames are the small interactive ones
and the release's the full one, and that the yaw the widget reports (the ``data-yaw`` its
front-end writes) moved the way the mouse did; then picks a clip in the menu and moves the
time slider, and checks the pose changes. Chromium's performance log records every request
and WebSocket the page opened: all go to the Jupyter server, none to any other host (the
viewer's front-end is ours; nothing comes from a CDN).

Screenshots go under the test's tmp folder (and to ``$WORKBENCH_BROWSER_ARTIFACTS``).
"""

from __future__ import annotations

import base64
import json
import time
from urllib.parse import urlsplit

import nbformat
import pytest

from .conftest import jupyter_lab, save_artifact, start_chrome, wait

SIZE = 384
SMALL = 192
DRAG_PX = 80  # the front-end turns 0.5 degree per pixel

NOTEBOOK = """\
from workbench.gltf import build_avatar
from workbench.options import ModelOptions, normalize_avatar_settings
from workbench.widgets import AvatarViewer

settings = normalize_avatar_settings({"gender": "feminine"})
viewer = AvatarViewer(build_avatar(settings, ModelOptions(animations=("walk", "wave"))),
                      lods={2: build_avatar(settings, ModelOptions(lod=2))},
                      size=%d, interactive_size=%d)
viewer""" % (SIZE, SMALL)


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    work = tmp_path_factory.mktemp("viewer-lab")
    root = work / "notebooks"
    root.mkdir()
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(NOTEBOOK)])
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nbformat.write(nb, root / "viewer.ipynb")
    with jupyter_lab(work, root) as lab:
        yield lab


@pytest.fixture(scope="module")
def logged_browser(tmp_path_factory):
    """A Chromium of its own whose performance log records the page's network traffic."""
    with start_chrome(tmp_path_factory.mktemp("viewer-profile"), performance_log=True) as driver:
        yield driver


# What the viewer shows and reports: its data attributes and the picture's pixels (a blob: URL,
# same origin, so a canvas may read it).
STATE = """
const root = document.querySelector('.wb-avatar-viewer');
const img = root && root.querySelector('img.wb-av-frame');
if (!root || !img || !img.complete || !img.naturalWidth) return null;
const c = document.createElement('canvas');
c.width = img.naturalWidth; c.height = img.naturalHeight;
c.getContext('2d').drawImage(img, 0, 0);
return {...root.dataset, w: img.naturalWidth, src: img.src, pixels: c.toDataURL()};
"""


def state(browser, cond: str = "true", timeout: float = 60, what: str = "the viewer"):
    return wait(browser, f"const s = (function(){{{STATE}}})(); return s && ({cond}) && s;", timeout, what)


def shot(browser, tmp_path, name: str):
    return save_artifact(tmp_path, name, base64.b64decode(browser.get_screenshot_as_base64()))


def test_drag_orbits_and_clip_and_slider_pose_the_avatar(logged_browser, lab, tmp_path):
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.support.ui import Select

    browser = logged_browser
    browser.get("about:blank")
    browser.get_log("performance")  # Chromium's own start page: not the notebook's traffic
    browser.get(f"{lab['url']}/lab/tree/viewer.ipynb?token={lab['token']}")
    wait(browser, "const nb = window.jupyterapp && window.jupyterapp.shell.currentWidget;"
                  "return nb && nb.sessionContext && nb.sessionContext.session && nb.sessionContext.session.kernel"
                  " && nb.sessionContext.session.kernel.status === 'idle';", 120, "the notebook's kernel")
    browser.execute_script("window.jupyterapp.commands.execute('notebook:run-all-cells')")
    first = state(browser, f"s.ready === '1' && s.w === {SIZE}", 180, "the viewer's first frame")
    assert float(first["yaw"]) == 0 and first["quality"] == "full"
    browser.execute_script("document.querySelector('.wb-avatar-viewer').scrollIntoView({block: 'center'})")
    time.sleep(0.3)
    shot(browser, tmp_path, "viewer_lab_start.png")

    # -- drag: small frames while the button is down, the full one on release -------------------
    img = browser.find_element("css selector", ".wb-avatar-viewer img.wb-av-frame")
    ActionChains(browser).move_to_element(img).click_and_hold().move_by_offset(DRAG_PX // 4, 0).perform()
    held = state(browser, f"s.quality === 'interactive' && s.w === {SMALL}", 60, "an interactive frame mid-drag")
    assert float(held["yaw"]) > 0
    shot(browser, tmp_path, "viewer_lab_dragging.png")
    chain = ActionChains(browser)
    for _ in range(3):
        chain.move_by_offset(DRAG_PX // 4, 0).pause(0.05)
    chain.release().perform()
    turned = state(browser, f"s.quality === 'full' && s.w === {SIZE} && Math.abs(parseFloat(s.yaw) - {DRAG_PX * 0.5}) < 1",
                   60, "the full frame after the release, at the dragged yaw")
    assert turned["pixels"] != first["pixels"], "the picture did not change after the drag"
    assert abs(float(turned["elevation"])) < 1  # a horizontal drag does not tip the camera
    shot(browser, tmp_path, "viewer_lab_turned.png")

    # -- the clip menu and the time slider ----------------------------------------------------------
    Select(browser.find_element("css selector", ".wb-av-clip")).select_by_value("walk")
    walking = state(browser, f"s.clip === 'walk' && s.quality === 'full' && s.pixels !== {json.dumps(turned['pixels'])}",
                    60, "the walk clip's first pose")
    slider = browser.find_element("css selector", ".wb-av-time")
    width = slider.size["width"]
    ActionChains(browser).move_to_element_with_offset(slider, int(width * 0.1), 0).click().perform()
    later = state(browser, f"parseFloat(s.time) > 0.2 && s.pixels !== {json.dumps(walking['pixels'])}", 60,
                  "a new pose after the slider moved")
    assert later["clip"] == "walk"
    shot(browser, tmp_path, "viewer_lab_walk.png")

    # -- the skeleton overlay, for the screenshot a person looks at ---------------------------------
    browser.find_element("css selector", ".wb-av-skeleton").click()
    state(browser, f"s.pixels !== {json.dumps(later['pixels'])}", 60, "the skeleton overlay")
    time.sleep(0.3)
    shot(browser, tmp_path, "viewer_lab_skeleton.png")

    # -- every request went to the Jupyter server ---------------------------------------------------
    lab_host = urlsplit(lab["url"]).netloc
    urls = []
    for entry in browser.get_log("performance"):
        msg = json.loads(entry["message"])["message"]
        if msg["method"] == "Network.requestWillBeSent":
            urls.append(msg["params"]["request"]["url"])
        elif msg["method"] == "Network.webSocketCreated":
            urls.append(msg["params"]["url"])
    network = [u for u in urls if urlsplit(u).scheme in ("http", "https", "ws", "wss")]
    assert network, "the performance log recorded no request"
    elsewhere = sorted({u for u in network if urlsplit(u).netloc != lab_host})
    assert not elsewhere, f"the page asked hosts other than the Jupyter server: {elsewhere}"
    assert not [u for u in urls if urlsplit(u).scheme not in ("http", "https", "ws", "wss", "data", "blob")], urls
