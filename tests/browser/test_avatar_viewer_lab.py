"""The AvatarViewer in JupyterLab and Notebook 7, drawn by three.js and driven by a person's mouse
and keyboard in headless Chromium (software WebGL).

A notebook makes two viewers: an avatar with its walk (LOD 1), and a small GLB whose morph targets carry
ARKit names (tests/helpers.py: arkit_glb; avatars will carry the 52 shapes). The test drags on the canvas
(orbit), shift-drags (pan), scrolls (zoom), picks a clip and checks the pose moves frame after
frame, changes the speed, steps a frame, moves a morph slider and plays a preset, toggles the
ground shadow, presses keys in the viewer and checks the notebook did not change (JupyterLab's
``r`` would make the cell raw, ``d d`` delete it), and reads back in the kernel what the page
did. Chromium's performance log records every request and WebSocket: all go to the Jupyter
server, none to any other host (three.js is in the bundle, the GLB comes over the kernel's
WebSocket).

Screenshots go under the test's tmp folder (and to ``$WORKBENCH_BROWSER_ARTIFACTS``).
"""

from __future__ import annotations

import base64
import json
from urllib.parse import urlsplit

import pytest
from helpers import wait_for

from .conftest import save_artifact, start_chrome, wait
from .viewer_page import (
    avatar_glb,
    canvas_pixels,
    changed,
    kernel,
    notebook_cells,
    notebook_server,
    notebook_url,
    poll_kernel,
    until,
)

DRAG_PX = 80
# An element wholly inside the window (arguments[0]): where a scroll put it, before a picture is taken of it.
IN_VIEW = ("const r = arguments[0].getBoundingClientRect();"
           "return r.height > 0 && r.top >= 0 && r.bottom <= window.innerHeight;")

# The masculine avatar at LOD 1 with its walk (viewer_page.avatar_glb: built once per run, written beside the notebook),
# the keys and touch tests' (test_avatar_viewer_keys.py, test_avatar_viewer_touch.py): one build for the three. What this
# test proves (three.js drawing the viewer, the mouse, keys, sliders, clips, the shadow, compare(), code moving the
# page, no other host asked) is the viewer's, whatever the model: LOD 1 has half LOD 0's vertices and morph deltas,
# which the software GPU skins and shades frame after frame while the walk plays and the camera settles, and its
# bones, clips and ground shadow are LOD 0's (suite28a; the feminine LOD 0 with a wave never shown before). LOD 0 in
# a viewer: test_avatar_viewer_close.py (six opened and closed), test_avatar_viewer_touch.py, test_viewer_layout.py.
AVATAR_CELL = """\
from pathlib import Path
from workbench.widgets import AvatarViewer

viewer = AvatarViewer(Path("avatar.glb").read_bytes(), size=420)
viewer"""
MORPH_CELL = """\
faces = AvatarViewer("arkit.glb", size=300, label="ARKit morph targets")
faces"""
COMPARE_CELL = """\
pair = AvatarViewer.compare("arkit.glb", "arkit.glb", labels=("left side", "right side"), size=200)
pair"""

@pytest.fixture(scope="module", params=["lab", "notebook"])
def app(request, notebook_apps):
    from helpers import arkit_glb

    with notebook_server(notebook_apps, request.param, "viewer.ipynb", [AVATAR_CELL, MORPH_CELL, COMPARE_CELL],
                         files={"arkit.glb": arkit_glb(),
                                "avatar.glb": avatar_glb("masculine", lod=1, animations=("walk",))}) as server:
        yield server


@pytest.fixture(scope="module")
def logged_browser(tmp_path_factory):
    """A Chromium of its own whose performance log records the page's network traffic."""
    with start_chrome(tmp_path_factory.mktemp("viewer-profile"), performance_log=True) as driver:
        driver.set_window_size(1280, 1000)
        driver.set_script_timeout(120)
        yield driver


def shot(browser, tmp_path, app, name: str):
    return save_artifact(tmp_path, f"viewer_{app}_{name}.png", base64.b64decode(browser.get_screenshot_as_base64()))


def test_the_viewer_draws_with_three_js_and_answers_mouse_keys_and_sliders(logged_browser, app, tmp_path):
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import Select

    browser, name = logged_browser, app["app"]
    # What the viewer does with its own controls, a slider and code's changes (a clip's play, speed and frame step, the
    # shadow's toggle, its own keys, the morph viewer, compare()'s shared camera, the kernel moving the page, a joint's
    # name on hover) is the same code in both shells: proven once, in JupyterLab (viewer_page.APPS). Notebook 7 draws,
    # takes the mouse (drag, shift-drag, wheel, double-click: events its shell could take first) and asks no other
    # host; its keys kept from the shortcuts are test_avatar_viewer_keys.py's [notebook] (every key on every control),
    # compare() in its output area test_viewer_layout.py's [notebook] (suite37: this part was 35 s of a worker).
    in_lab = name == "lab"
    browser.get("about:blank")
    browser.get_log("performance")  # Chromium's own start page: not the notebook's traffic
    browser.get(notebook_url(app, "viewer.ipynb"))
    wait(browser, "const nb = window.jupyterapp && window.jupyterapp.shell.currentWidget;"
                  "return nb && nb.sessionContext && nb.sessionContext.session && nb.sessionContext.session.kernel"
                  " && nb.sessionContext.session.kernel.status === 'idle';", 120, "the notebook's kernel")
    browser.execute_script("window.jupyterapp.commands.execute('notebook:run-all-cells')")
    first = until(browser, 0, "d.ready === '1' && parseInt(d.frames) > 0", "the avatar's first WebGL frame", 180)
    assert first["renderer"] == "webgl" and first["clip"] == ""
    until(browser, 1, "d.ready === '1' && d.morphTargets === '14'", "the morph GLB's viewer with its 14 targets", 120)
    before_cells = notebook_cells(browser)
    canvas = browser.find_elements("css selector", ".wb-avatar-viewer canvas")[0]
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", canvas)
    wait(browser, IN_VIEW, 30, "the canvas scrolled into view", every=0.05, args=(canvas,))
    shot(browser, tmp_path, name, "start")
    start = canvas_pixels(browser, 0)

    # -- orbit: a drag to the right turns the avatar; the kernel learns the yaw at the release ------
    sent = int(first.get("pictureSent") or 0)
    ActionChains(browser).move_to_element(canvas).click_and_hold().move_by_offset(DRAG_PX // 2, 0).pause(0.1) \
        .move_by_offset(DRAG_PX // 2, 0).pause(0.1).release().perform()
    turned = until(browser, 0, "Math.abs(parseFloat(d.yaw)) > 10", "the drag's orbit")
    assert abs(float(turned["elevation"])) < 3, turned  # a horizontal drag does not tip the camera
    assert changed(start, canvas_pixels(browser, 0)) > 0.01, "the picture did not change after the drag"
    # OrbitControls' damping settles, the camera goes to the kernel, then the settled picture.
    yaw = float(until(browser, 0, f"parseInt(d.pictureSent || 0) > {sent}", "the settled view")["yaw"])
    assert abs(float(kernel(browser, "print(viewer.yaw)")) - yaw) < 1.0
    # snapshot() in the kernel is the canvas's own picture, at the canvas's size.
    width, height = (int(x) for x in first["canvas"].split("@")[0].split("x"))
    assert kernel(browser, "print(viewer.frame_quality, *viewer.snapshot().size)") == f"canvas {width} {height}"

    # -- pan (shift drag) moves the target; the wheel zooms in ------------------------------------------
    target0 = until(browser, 0, "d.target", "a target")["target"]
    ActionChains(browser).move_to_element(canvas).key_down(Keys.SHIFT).click_and_hold().move_by_offset(0, 40) \
        .pause(0.1).release().key_up(Keys.SHIFT).perform()
    panned = until(browser, 0, f"d.target !== {json.dumps(target0)}", "the pan")
    # The wheel over the upper third (the head): zoom goes toward the pointer, so the target rises.
    browser.execute_script("""const c = arguments[0], r = c.getBoundingClientRect();
        for (let i = 0; i < 3; i++) c.dispatchEvent(new WheelEvent('wheel', {deltaY: -120, deltaMode: 0,
            clientX: r.left + r.width / 2, clientY: r.top + r.height * 0.25, bubbles: true, cancelable: true}));""", canvas)
    zoomed = until(browser, 0, f"parseFloat(d.zoom) > {float(panned['zoom']) * 1.2}", "the wheel's zoom")
    assert float(zoomed["target"].split(",")[1]) > float(panned["target"].split(",")[1]), "the zoom did not head for the pointer"
    shot(browser, tmp_path, name, "zoomed")
    browser.execute_script("arguments[0].dispatchEvent(new MouseEvent('dblclick', {bubbles: true}))", canvas)
    until(browser, 0, "Math.abs(parseFloat(d.zoom) - 1) < 0.01 && Math.abs(parseFloat(d.yaw)) < 0.5", "the double-click's reset")
    assert float(zoomed["zoom"]) > 1.2

    # Notebook 7 stops here: the rest is the viewer's own code (above).
    if in_lab:
        # -- a clip plays: a new pose frame after frame; speed and a frame step --------------------------
        Select(browser.find_element("css selector", ".wb-avatar-viewer .wb-av-clip")).select_by_value("walk")
        until(browser, 0, "d.clip === 'walk' && d.playing === 'true' && parseFloat(d.time) > 0.2", "the walk playing")
        a = canvas_pixels(browser, 0)
        t0 = float(until(browser, 0, "d.time", "the walk's time")["time"])
        # A quarter of the 1.1 s walk later (either way round its loop): two frames next to each other can
        # differ by less than the bound on a fast machine, near the stride's turn, so wait for a real step on.
        until(browser, 0, f"(t => t > 0.3 && t < 0.8)((parseFloat(d.time) - {t0} + 1.1) % 1.1)", "a later pose")
        # (Polled, not read once: on a loaded machine the screenshot of ``a`` can take most of a second, so ``t0``, read
        # after it, was up to a whole stride later than the pose it shows, and "a quarter later" the same pose again: 0.0002
        # of the pixels changed in a whole-suite run at load 4. The walk keeps playing, so a later pose comes round.)
        assert wait_for(lambda: changed(a, canvas_pixels(browser, 0)) > 0.002, timeout=60), "the walk's pose did not move"
        Select(browser.find_element("css selector", ".wb-avatar-viewer .wb-av-speed")).select_by_value("2")
        until(browser, 0, "d.speed === '2'", "speed 2x")
        # The clip's clock against the page's (frame times): at 2x the clip runs twice as fast.
        c0 = until(browser, 0, "d.clipClock", "the clip's clock")
        c1 = until(browser, 0, f"parseFloat(d.clipClockAt) > {float(c0['clipClockAt'])} + 500", "half a second of play")
        rate = (float(c1["clipClock"]) - float(c0["clipClock"])) / ((float(c1["clipClockAt"]) - float(c0["clipClockAt"])) / 1000)
        assert 1.8 < rate < 2.2, f"clip seconds per second at 2x: {rate:.2f}"
        shot(browser, tmp_path, name, "walk")
        browser.find_element("css selector", ".wb-avatar-viewer .wb-av-play").click()
        paused = until(browser, 0, "d.playing === 'false'", "the pause")
        browser.find_element("css selector", ".wb-avatar-viewer .wb-av-step").click()
        stepped = until(browser, 0, f"d.time !== '{paused['time']}'", "a frame step")
        step = (float(stepped["time"]) - float(paused["time"])) % 1.1  # the walk loops: a step at its end wraps
        assert abs(step - 1 / 30) < 0.02, step
        # (the page's state reaches the kernel as a comm message after the page shows it: waited for, a busy machine
        # delivers it later; a whole-suite run at load 9 read the kernel before the pause had arrived)
        state = "print(viewer.clip, viewer.speed, viewer.playing)"
        assert wait_for(lambda: kernel(browser, state) == "walk 2.0 False", timeout=60), kernel(browser, state)
        # A step past the end of the looping walk comes round to its start.
        kernel(browser, "viewer.time = 1.09")
        until(browser, 0, "d.time === '1.090'", "the time set from code")
        browser.find_element("css selector", ".wb-avatar-viewer .wb-av-step").click()
        wrapped = until(browser, 0, "d.time !== '1.090'", "a step past the end")
        assert float(wrapped["time"]) < 0.05, wrapped["time"]

        # -- the ground shadow's toggle ------------------------------------------------------------------
        with_shadow = canvas_pixels(browser, 0)
        drawn = until(browser, 0, "true", "the frame count")["frames"]
        browser.find_element("css selector", ".wb-avatar-viewer .wb-av-shadow").click()
        until(browser, 0, f"d.shadow === 'false' && parseInt(d.frames) > {drawn}", "a frame drawn with the shadow off")
        assert changed(with_shadow, canvas_pixels(browser, 0)) > 0.001, "the ground shadow did not go"
        poll_kernel(browser, "print(viewer.shadow)", lambda out: out == "False")
        browser.find_element("css selector", ".wb-avatar-viewer .wb-av-shadow").click()
        until(browser, 0, "d.shadow === 'true'", "the shadow back")

        # -- keys typed in the viewer are the viewer's; the notebook does not change ---------------------
        browser.execute_script("arguments[0].focus()", browser.find_elements("css selector", ".wb-avatar-viewer")[0])
        for keys in ("r", "m", "y", "a", "b", "x", "c", "v", "z", "d", "d", Keys.ENTER, Keys.ESCAPE, "a", "w", "w"):
            ActionChains(browser).send_keys(keys).perform()
        until(browser, 0, "d.lastKey === 'w' && d.wireframe === 'false'", "the viewer's own keys (w twice: wireframe on, off)")
        # "a" twice: auto-rotate on, off; the second change reaches the kernel a moment after the page shows it
        poll_kernel(browser, "print(viewer.auto_rotate)", lambda out: out == "False")
        # The page showed the last key and the kernel has answered since: a shortcut that had run would show.
        assert notebook_cells(browser) == before_cells, "a key typed in the viewer changed the notebook"

        # -- the morph viewer: a slider and a preset ------------------------------------------------------------
        faces = browser.find_elements("css selector", ".wb-avatar-viewer")[1]
        browser.execute_script("arguments[0].scrollIntoView({block: 'center'}); arguments[0].querySelector('details').open = true;", faces)
        jaw = faces.find_element("css selector", "input.wb-av-morph[data-name='jawOpen']")
        wait(browser, "return arguments[0].getBoundingClientRect().width > 0", 30, "the open morph sliders", every=0.05,
             args=(jaw,))
        rest = canvas_pixels(browser, 1)
        drawn = until(browser, 1, "true", "the frame count")["frames"]
        ActionChains(browser).move_to_element_with_offset(jaw, int(jaw.size["width"] * 0.4), 0).click().perform()
        until(browser, 1, f"JSON.parse(d.morphs || '{{}}').jawOpen > 0.5 && parseInt(d.frames) > {drawn}",
              "a frame drawn with the jawOpen slider moved")
        assert changed(rest, canvas_pixels(browser, 1)) > 0.002, "moving jawOpen did not change the picture"
        weights = poll_kernel(browser, "import json; print(json.dumps(faces.weights))", lambda out: "jawOpen" in out)
        weights = json.loads(weights)
        assert set(weights) == {"jawOpen"} and weights["jawOpen"] > 0.5
        shot(browser, tmp_path, name, "morph")
        faces.find_element("css selector", ".wb-av-preset-smile").click()
        until(browser, 1, "JSON.parse(d.morphs || '{}').mouthSmileLeft > 0.7", "the smile preset")
        assert not faces.find_element("css selector", ".wb-av-preset-blink").get_attribute("disabled")

        # -- compare(): two labelled views in the cell's width, one camera in the page ----------------------
        left, right = browser.find_elements("css selector", ".wb-avatar-viewer")[2:4]
        browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", left)
        until(browser, 3, "d.ready === '1' && parseInt(d.frames) > 0", "the comparison's second view")
        labels = [v.find_element("css selector", ".wb-av-label").text for v in (left, right)]
        assert labels == ["left side", "right side"]
        boxes = browser.execute_script("return [...arguments].map(e => e.getBoundingClientRect().toJSON())", left, right,
                                       left.find_element("xpath", "ancestor::*[contains(@class, 'jp-OutputArea-output')][1]"))
        assert boxes[0]["right"] <= boxes[1]["left"] and boxes[1]["right"] <= boxes[2]["right"] + 1, boxes  # side by side, no overflow
        ActionChains(browser).move_to_element(left.find_element("css selector", "canvas")).click_and_hold() \
            .move_by_offset(60, 0).pause(0.1).release().perform()
        led = until(browser, 2, "Math.abs(parseFloat(d.yaw)) > 10", "the left view turned")
        until(browser, 3, "Math.abs(parseFloat(d.yaw) - parseFloat(document.querySelectorAll('.wb-avatar-viewer')[2].dataset.yaw)) < 0.5"
                          " && Math.abs(parseFloat(d.yaw)) > 10", "the right view following the left")
        assert float(led["yaw"]) != 0

        # -- code moves the page: a three-quarter view mid-stride, and the skeleton (README's screenshot) -------
        main = browser.find_elements("css selector", ".wb-avatar-viewer")[0]
        browser.execute_script("arguments[0].scrollIntoView({block: 'start'})", main)
        kernel(browser, "viewer.yaw, viewer.elevation, viewer.time = -35.0, 8.0, 0.4")
        until(browser, 0, "Math.abs(parseFloat(d.yaw) + 35) < 0.5 && Math.abs(parseFloat(d.elevation) - 8) < 0.5"
                          " && Math.abs(parseFloat(d.time) - 0.4) < 0.01", "the page following the kernel's camera and time")
        # The pictures sent when the click reaches the viewer (a capture listener on its root runs before the
        # button's own): the skeleton's settled picture is the next. (Read once the page showed the skeleton, as before,
        # the count could already hold that picture, sent while the click's answer came back at load 20, and the wait
        # for one more never ended: seen once in three runs with LOD 1's quicker frames, suite28a.)
        browser.execute_script("const r = arguments[0]; r.addEventListener('click', () => {"
                               " window.__wbSentAtClick = parseInt(r.dataset.pictureSent || 0); }, {capture: true, once: true});",
                               main)
        main.find_element("css selector", ".wb-av-skeleton").click()
        until(browser, 0, "d.skeleton === 'true'", "the skeleton")
        until(browser, 0, "parseInt(d.pictureSent || 0) > window.__wbSentAtClick", "the settled, full-resolution view")
        # Hovering a joint names it: the pointer goes where the page projects the LeftHand bone.
        x, y = browser.execute_script("""const v = arguments[0].wbViewer, r = v.canvas.getBoundingClientRect();
            const p = v.bones.find(b => b.name === 'LeftHand').getWorldPosition(v.camera.position.clone()).project(v.camera);
            return [(p.x + 1) / 2 * r.width - r.width / 2, (1 - p.y) / 2 * r.height - r.height / 2];""", main)
        ActionChains(browser).move_to_element_with_offset(main.find_element("css selector", "canvas"), int(x), int(y)).perform()
        until(browser, 0, "d.hoverBone === 'LeftHand'", "the bone's name on hover")
        assert main.find_element("css selector", ".wb-av-tip").text == "LeftHand"
        shot(browser, tmp_path, name, "skeleton")

    # -- every request went to the Jupyter server -----------------------------------------------------
    host = urlsplit(app["url"]).netloc
    urls = []
    for entry in browser.get_log("performance"):
        msg = json.loads(entry["message"])["message"]
        if msg["method"] == "Network.requestWillBeSent":
            urls.append(msg["params"]["request"]["url"])
        elif msg["method"] == "Network.webSocketCreated":
            urls.append(msg["params"]["url"])
    network = [u for u in urls if urlsplit(u).scheme in ("http", "https", "ws", "wss")]
    assert network, "the performance log recorded no request"
    elsewhere = sorted({u for u in network if urlsplit(u).netloc != host})
    assert not elsewhere, f"the page asked hosts other than the Jupyter server: {elsewhere}"
    assert not [u for u in urls if urlsplit(u).scheme not in ("http", "https", "ws", "wss", "data", "blob")], urls
