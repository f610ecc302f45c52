"""Keys typed in the AvatarViewer stay in it, in JupyterLab and in Notebook 7, whatever has focus inside
it: the notebook's command-mode shortcuts (``r`` raw, ``m`` markdown, ``a``/``b`` insert a cell, ``1`` a
heading, Escape) never see them.

Each kind of control in the viewer (the root, the canvas, a menu, a button, a checkbox, a time slider,
a morph slider, the colour input, the morph targets' summary) and the kernel-frame viewer's controls
get focus in turn; each key is pressed as a person does (WebDriver's key events to the focused
element); after each, the notebook has the same cells, of the same types, and its mode and active
cell are unchanged.
"""

from __future__ import annotations

import pytest
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.keys import Keys

from .viewer_page import notebook_browser, notebook_cells, notebook_server, until

CELLS = ["""\
from workbench.gltf import build_avatar
from workbench.options import ModelOptions, normalize_avatar_settings
from workbench.widgets import AvatarViewer

viewer = AvatarViewer(build_avatar(normalize_avatar_settings({"gender": "masculine"}),
                                   ModelOptions(lod=1, animations=("walk",))), size=260, clip="walk")
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


@pytest.fixture(scope="module", params=["lab", "notebook"])
def page(request, tmp_path_factory):
    with notebook_server(tmp_path_factory, request.param, "keys.ipynb", CELLS) as server, \
            notebook_browser(server, "keys.ipynb") as browser:
        until(browser, 0, "d.ready === '1' && parseInt(d.frames) > 0 && d.clip === 'walk'", "the avatar drawn", 180)
        until(browser, 1, "d.ready === '1' && d.frameId", "the kernel-frame viewer", 120)
        yield browser, request.param


def focus_on(browser, viewer, selector):
    """Give focus to ``selector`` inside ``viewer`` (the viewer itself for None), as a click or Tab does."""
    target = viewer if selector is None else viewer.find_element("css selector", selector)
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'}); arguments[0].focus();", target)
    if selector == "canvas":  # a canvas takes no focus: a click on it gives the viewer focus
        ActionChains(browser).move_to_element(target).click().perform()
        target = viewer
    focused = browser.execute_script("return document.activeElement === arguments[0]", target)
    assert focused, f"{selector or 'the viewer'} could not take focus"


def test_no_key_typed_in_a_viewer_reaches_the_notebook(page):
    browser, app = page
    viewers = browser.find_elements("css selector", ".wb-avatar-viewer")
    browser.execute_script("arguments[0].open = true", viewers[0].find_element("css selector", "details"))
    # Command mode, as after running the cells and clicking an output.
    browser.execute_script("window.jupyterapp.shell.currentWidget.content.mode = 'command';")
    cells = notebook_cells(browser)
    assert browser.execute_script(NOTEBOOK_STATE)[2] == 2
    for viewer, controls in ((viewers[0], WEBGL_CONTROLS), (viewers[1], KERNEL_CONTROLS)):
        for what, selector in controls.items():
            for key in KEYS:
                focus_on(browser, viewer, selector)  # focus in an output makes its cell the active one
                state = browser.execute_script(NOTEBOOK_STATE)
                ActionChains(browser).send_keys(key).perform()
                after = (notebook_cells(browser), browser.execute_script(NOTEBOOK_STATE))
                assert after == (cells, state), f"{app}: {key!r} typed on {what} reached the notebook: {after}"
    # The viewer answered its own keys on the canvas: "1" is the front view, "a" toggled auto-rotate.
    until(browser, 0, "d.lastKey", "the viewer's keys")
