"""A notebook saved with a viewer and opened again with no kernel holding its widgets, in JupyterLab and Notebook 7:
the viewer's output shows the picture the page drew (the output's ``image/png``), not "Error displaying
widget: model not found"; running its cell again gives a live viewer.

The session's Notebook 7 (conftest.notebook_apps) runs the notebook, waits until the page has sent its picture (the
output then holds it, ``workbench/widgets/still.py``), saves it and shuts its kernel down, once for the module:
running and saving are the notebook's and the widget's code, the same in JupyterLab (whose saving of a viewer's
picture test_avatar_viewer_service.py shows). Each app then opens a copy of that folder, in a folder of its own,
without running anything: a page loaded afresh and a kernel started afresh, so no widget model exists anywhere, as
when a person opens a saved notebook on another day (the session's one server serves both apps, suite37, with the
user's notebook signatures, so the notebook is trusted, as it is for the person who saved it). What differs by app is the Lab
extension in ``js/viewer/jupyter/labextensions/`` loading in each shell and drawing the picture
(``conftest.jupyter_lab`` puts it on the Jupyter path, as the package's install does). (Until 29 November each
opening started a Jupyter server of its own, three a module: a server costs about 3 s of CPU to start, and a server
keeps nothing of a notebook's widgets that its kernel does not.)
"""

from __future__ import annotations

import base64
import io
import json
import shutil
import tempfile
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from workbench.widgets.frontend import bundle_path

from .conftest import save_artifact, shut_kernels, wait
from .viewer_page import APPS, KERNEL_IDLE, borrowed, notebook_url, until, write_notebook

pytestmark = pytest.mark.slow

CELLS = ["""\
from workbench.widgets import AvatarViewer

v = AvatarViewer("arkit.glb", size=240, yaw=30)
v"""]
NAME = "reopened.ipynb"
# What the viewer's output holds in the page: a live viewer, the saved picture, or jupyterlab-manager's text.
OUTPUT = """const out = document.querySelector('.jp-Cell .jp-OutputArea-output');
if (!out) return null;
const img = out.querySelector('img[data-widget-picture], .jp-RenderedImage img');
return {text: out.textContent.trim(), viewer: !!out.querySelector('.wb-avatar-viewer'),
        picture: img ? img.src : null, loading: /Loading widget/.test(out.textContent)};"""


def open_in(browser, server, folder: str, run: bool) -> None:
    browser.get(notebook_url({**server, "dir": folder}, NAME))
    wait(browser, KERNEL_IDLE, 120, "the notebook's kernel")
    if run:
        browser.execute_script("window.jupyterapp.commands.execute('notebook:run-all-cells')")


@pytest.fixture(scope="module")
def chrome(browser):
    with borrowed(browser, 1280, 1000, 120):
        yield browser


@pytest.fixture(scope="module")
def saved(chrome, notebook_apps):
    """The folder of the notebook run in Notebook 7 until its page sent its picture, saved, its kernel shut down."""
    from helpers import arkit_glb

    if bundle_path() is None:
        pytest.skip("the viewer's three.js bundle is not built (npm ci && npm run build)")
    server = notebook_apps("notebook")
    root = Path(tempfile.mkdtemp(prefix="reopen-first-", dir=server["root"]))
    (root / "arkit.glb").write_bytes(arkit_glb())
    write_notebook(root, NAME, CELLS)
    browser = chrome
    try:
        open_in(browser, server, root.name, run=True)
        until(browser, 0, "parseInt(d.pictureSent || 0) > 0", "the page's picture sent to the kernel", 120)
        # The kernel puts it in the output (update_display_data): the saved notebook holds what the page drew.
        wait(browser, "const m = window.jupyterapp.shell.currentWidget.content.model.cells.get(0);"
                      "const o = m.outputs.get(0); return o && o.data['image/png'] && o.data['image/png'].length;",
             60, "the picture in the output")
        wait(browser, KERNEL_IDLE, 120, "the kernel idle")  # 120 s for a loaded CI machine (60 before suite19)
        browser.execute_script("window.jupyterapp.commands.execute('docmanager:save')")
        wait(browser, "return !window.jupyterapp.shell.currentWidget.context.model.dirty", 120, "the notebook saved")
        browser.get("about:blank")
    finally:
        shut_kernels(server, root.name)
    return root


@pytest.mark.parametrize("app", APPS)
def test_a_reopened_notebook_shows_the_viewers_picture_and_a_live_viewer_when_run_again(app, chrome, saved, notebook_apps,
                                                                                       tmp_path):
    browser = chrome
    server = notebook_apps(app)
    root = Path(tempfile.mkdtemp(prefix=f"reopen-{app}-", dir=server["root"]))
    shutil.copytree(saved, root, dirs_exist_ok=True)  # a copy of its own: this test runs the cell again, and Lab saves on its own
    saved_nb = json.loads((root / NAME).read_text(encoding="utf-8"))
    output = saved_nb["cells"][0]["outputs"][0]
    assert "application/vnd.jupyter.widget-view+json" in output["data"], output["data"].keys()
    png = base64.b64decode(output["data"]["image/png"])
    picture = np.asarray(Image.open(io.BytesIO(png)).convert("RGB")).astype(int)
    assert picture.std() > 5, "the saved picture is blank"

    # -- the notebook opened as it was saved, in a fresh page with a fresh kernel -----------------------
    try:
        open_in(browser, server, root.name, run=False)
        shown = wait(browser, f"const o = (() => {{ {OUTPUT} }})(); return o && !o.loading && (o.picture || o.text) && o;",
                     60, "the saved output drawn")
        save_artifact(tmp_path, f"reopened_{app}.png", base64.b64decode(browser.get_screenshot_as_base64()))
        assert "Error displaying widget" not in shown["text"], shown["text"]
        assert shown["picture"] and base64.b64decode(shown["picture"].split(",", 1)[1]) == png, \
            "the output does not show the saved picture"
        errors = [e["message"] for e in browser.get_log("browser") if "model not found" in e["message"]]
        # -- its cell run again: a live viewer in its place ---------------------------------------------
        browser.execute_script("window.jupyterapp.shell.currentWidget.content.activeCellIndex = 0;"
                               "window.jupyterapp.commands.execute('notebook:run-cell')")
        until(browser, 0, "d.ready === '1' && parseInt(d.frames) > 0", "the live viewer's first frame", 120)
        live = browser.execute_script(f"return (() => {{ {OUTPUT} }})()")
        assert live["viewer"] and not live["picture"], live
        assert len(browser.find_elements("css selector", ".wb-avatar-viewer")) == 1
    finally:
        browser.get("about:blank")
        shut_kernels(server, root.name)
    # jupyterlab-manager still logs that it found no model (console.error); the page shows no error.
    print(f"\n{app}: reopened output {shown['text'][:60]!r}; console: {errors[:1]}")
