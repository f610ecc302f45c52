"""Keys typed in the AvatarViewer stay in it, in JupyterLab and in Notebook 7, whatever has focus inside
it: the notebook's command-mode shortcuts (``r`` raw, ``m`` markdown, ``a``/``b`` insert a cell, ``1`` a
heading, Escape) never see them.

Each kind of control in the viewer (the root, the canvas, a menu, a button, a checkbox, a time slider,
a morph slider, the colour input, the morph targets' summary) and the kernel-frame viewer's controls
get focus in turn; keys are pressed as a person does (WebDriver's key events to the focused element);
after each, the notebook has the same cells, of the same types, and its mode and active cell are
unchanged. Every key on each viewer's root and on the canvas; on each other control two of them, in
turn, so each key meets most kinds of control: what keeps a key in the viewer is the focused element's
own (dom.js, keepKeys: the attribute the notebook's shortcuts look for on it, and the root that stops
the event), the same for every key, so each control is proven by a key and each key by the controls.

Focus is given as a click or Tab gives it, then waited for as a person would see it settle: when the
view settles the kernel updates the output's still, and the notebook draws the output again (a new
widget view, which takes the viewer over, core.js ``adopt``); the control that had focus gets it
back at once. The last test shows that redraw keeping focus and the next key reaching the viewer.
"""

from __future__ import annotations

import pytest
from helpers import wait_for
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.keys import Keys

from .conftest import wait
from .viewer_page import (
    APPS,
    IN_LAB,
    avatar_glb,
    kernel,
    notebook_browser,
    notebook_cells,
    notebook_server,
    poll_kernel,
    until,
)

# The masculine avatar at LOD 1 with its walk (viewer_page.avatar_glb: built once per session, beside the notebook).
CELLS = ["""\
from pathlib import Path
from workbench.widgets import AvatarViewer

viewer = AvatarViewer(Path("avatar.glb").read_bytes(), size=260, clip="walk")
viewer""", """\
from workbench.render.testing import tiny_rig_glb
kernel_frames = AvatarViewer(tiny_rig_glb(), size=96, renderer="kernel")
kernel_frames""", "1 + 1"]

KEYS = ["r", "m", "a", "b", "1", Keys.ESCAPE]
# Every kind of control a viewer has: CSS selectors inside the viewer, with what it is.
WEBGL_CONTROLS = {
    "the viewer": None, "the canvas": "canvas", "a menu": ".wb-av-clip", "a button": ".wb-av-reset",
    "the play button": ".wb-av-play", "a checkbox": ".wb-av-shadow", "the time slider": ".wb-av-time",
    "a morph slider": ".wb-av-morph", "the colour input": ".wb-av-background", "the morph summary": "summary",
}
KERNEL_CONTROLS = {"the kernel viewer": None, "its menu": ".wb-av-clip", "its checkbox": ".wb-av-loop"}
NOTEBOOK_STATE = """const nb = window.jupyterapp.shell.currentWidget.content;
return [nb.mode, nb.activeCellIndex, document.querySelectorAll('.wb-avatar-viewer').length];"""
# The notebook's cells ([type, source] each) and its state, read in one call after each key.
NOTEBOOK_AFTER = """const m = window.jupyterapp.shell.currentWidget.content.model;
const cells = Array.from({length: m.cells.length}, (_, i) => [m.cells.get(i).type, m.cells.get(i).sharedModel.getSource()]);
return [cells, (() => {%s})()];""" % NOTEBOOK_STATE
# "a" is the viewer's auto-rotate as well as the notebook's "insert a cell above": a view left turning by itself draws
# frame after frame on the software GPU through every key after it (about half the file's keys until suite39, the
# most of its Chromium's CPU), and what keeps a key from the notebook is the focused element's own, turning or not.
# So the turn a key started is stopped at once, page-side, as a second "a" would (the kernel hears both, in order).
STOP_TURNING = """const v = document.querySelector('.wb-av-webgl').wbViewer;
if (v.model.get('auto_rotate')) v.set({auto_rotate: false});"""


@pytest.fixture(scope="module", params=APPS)
def page(request, notebook_apps, browser):
    with notebook_server(notebook_apps, request.param, "keys.ipynb", CELLS,
                         files={"avatar.glb": avatar_glb("masculine", lod=1, animations=("walk",))}) as server, \
            notebook_browser(server, "keys.ipynb", shared=browser) as page_browser:
        until(page_browser, 0, "d.ready === '1' && parseInt(d.frames) > 0 && d.clip === 'walk'", "the avatar drawn", 180)
        until(page_browser, 1, "d.ready === '1' && d.frameId", "the kernel-frame viewer", 120)
        yield page_browser, request.param


def focus_on(browser, viewer, selector):
    """Give focus to ``selector`` inside ``viewer`` (the viewer itself for None), as a click or Tab does;
    the notebook's state once it has focus."""
    target = viewer if selector is None else viewer.find_element("css selector", selector)
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'}); arguments[0].focus();", target)
    if selector == "canvas":  # a canvas takes no focus: a click on it gives the viewer focus
        ActionChains(browser).move_to_element(target).click().perform()
        target = viewer
    # A redraw of the output in between gives focus back a moment later (core.js, adopt): not a failure. (The bound
    # 10 s before suite19; 60 s for a loaded CI machine, where a redraw waits behind the software GPU's frames.)
    state = wait_for(lambda: browser.execute_script(
        f"if (document.activeElement === arguments[0]) {{ {NOTEBOOK_STATE} }}", target), timeout=60.0, every=0.1)
    if state:
        return state
    where = browser.execute_script("const a = document.activeElement; return a && `${a.tagName}.${a.className}`")
    raise AssertionError(f"{selector or 'the viewer'} could not take focus: {where} has it")


def test_no_key_typed_in_a_viewer_reaches_the_notebook(page):
    browser, app = page
    viewers = browser.find_elements("css selector", ".wb-avatar-viewer")
    browser.execute_script("arguments[0].open = true", viewers[0].find_element("css selector", "details"))
    # Command mode, as after running the cells and clicking an output.
    browser.execute_script("window.jupyterapp.shell.currentWidget.content.mode = 'command';")
    cells = notebook_cells(browser)
    assert browser.execute_script(NOTEBOOK_STATE)[2] == 2
    turn = 0
    for viewer, controls in ((viewers[0], WEBGL_CONTROLS), (viewers[1], KERNEL_CONTROLS)):
        for what, selector in controls.items():
            if selector is None or selector == "canvas":
                keys = KEYS
            else:
                keys, turn = [KEYS[turn % len(KEYS)], KEYS[(turn + 1) % len(KEYS)]], turn + 2
            for key in keys:
                state = focus_on(browser, viewer, selector)  # focus in an output makes its cell the active one
                ActionChains(browser).send_keys(key).perform()
                after = tuple(browser.execute_script(NOTEBOOK_AFTER))
                assert after == (cells, state), f"{app}: {key!r} typed on {what} reached the notebook: {after}"
                if key == "a":
                    browser.execute_script(STOP_TURNING)
    # The viewer answered its own keys on the canvas: "1" is the front view, "a" toggled auto-rotate.
    until(browser, 0, "d.lastKey", "the viewer's keys")


# The viewer output's picture (image/png) in the notebook's model.
OUTPUT_PNG = """const m = window.jupyterapp.shell.currentWidget.content.model.cells;
for (let i = 0; i < m.length; i++) {
  const o = m.get(i).outputs, out = o && o.length && o.get(o.length - 1);
  if (out && out.data['application/vnd.jupyter.widget-view+json']) return out.data['image/png'];
}
return null;"""


@IN_LAB  # the output kept and focus given back are the outputs extension's and the viewer's (core.js), as in Notebook 7;
# its key kept from Notebook 7's shortcuts is the test above's
def test_a_control_keeps_focus_when_its_output_is_updated(page):
    """The kernel updates the output's still once the view has turned and settled: the output keeps its
    view (the outputs extension; before it the notebook drew the output again and the viewer moved to
    the new view), the button a person was on keeps focus, and their next key ("w", wireframe) goes to
    the viewer."""
    browser, app = page
    viewer = browser.find_elements("css selector", ".wb-avatar-viewer")[0]
    focus_on(browser, viewer, ".wb-av-reset")
    browser.execute_script(f"window.__wbHost = arguments[0].parentElement; window.__wbPng = (() => {{ {OUTPUT_PNG} }})();",
                           viewer)
    before = int(kernel(browser, "print(viewer.wireframe * 1)"))
    # Still (the keys above may have left it turning by itself: "a" toggles auto-rotate), then turned.
    kernel(browser, "viewer.auto_rotate = False; viewer.yaw = viewer.yaw + 40")
    wait(browser, f"return (() => {{ {OUTPUT_PNG} }})() !== window.__wbPng;", 120, "the output's picture updated")
    assert browser.execute_script("const r = document.querySelector('.wb-avatar-viewer');"
                                  "return r.isConnected && r.parentElement === window.__wbHost;"), "the output was drawn again"
    # A frame of a loaded machine's software GPU, seconds at worst: bound 60 s for a loaded CI machine (10 before suite19).
    wait(browser, "return document.activeElement === document.querySelector('.wb-avatar-viewer .wb-av-reset')", 60,
         f"{app}: the reset button's focus after the output was updated")
    ActionChains(browser).send_keys("w").perform()
    poll_kernel(browser, "print(viewer.wireframe * 1)", lambda out: int(out) == 1 - before)


@IN_LAB  # the frame loop is the viewer's own code (core.js), the same in Notebook 7
def test_a_still_viewer_stops_asking_for_frames_until_the_kernel_plays_its_clip(page):
    """Once its view has settled, the viewer asks for no animation frame (core.js, SLEEP_AFTER_MS: a still viewer's
    loop cost its page about 8 % of a core on a software GPU, docs/testing.md suite39); the kernel starting the walk,
    a change whose handler asks for no frame itself (it only unpauses the clip), wakes it, and the walk plays."""
    browser, _ = page
    kernel(browser, "viewer.auto_rotate = False; viewer.playing = False")
    until(browser, 0, "d.sleeping === '1' && v.wbViewer.raf === null", "the still viewer's loop asleep", 60)
    asleep = until(browser, 0, "true", "the frame count")
    kernel(browser, "viewer.playing = True")
    until(browser, 0, f"d.playing === 'true' && d.time !== {asleep['time']!r} && parseInt(d.frames) > {asleep['frames']} + 2"
                      " && !d.sleeping", "the walk playing after the kernel's change")
    kernel(browser, "viewer.playing = False")
    until(browser, 0, "d.sleeping === '1'", "the viewer asleep again once the walk stopped", 60)
