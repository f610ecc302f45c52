"""JupyterLab in headless Chromium: notebooks run in the browser (00_quickstart, and a small one of the kinds of
output 03_previews shows), their previews show, and the preview explorer widget answers a click with a new image (a
live round trip through the kernel).

The session's JupyterLab (``notebook_apps``: headless on a free port with token auth) serves copies of
the notebooks in a folder of the module's own; its kernels import the workbench from this tree and start their own local
service (``workbench.connect()`` with no deployment named). Screenshots are written under the
test's tmp folder (and to ``$WORKBENCH_BROWSER_ARTIFACTS`` when set) for a person to look at.
"""

from __future__ import annotations

import base64
import shutil
import tempfile
from pathlib import Path

import pytest
from conftest import ROOT

from .conftest import save_artifact, shut_kernels, wait
from .viewer_page import write_notebook

NOTEBOOKS = ROOT / "notebooks"


@pytest.fixture(scope="module")
def lab(notebook_apps):
    """The session's JupyterLab (conftest.notebook_apps) serving copies of the notebooks in a folder of the module's
    own, with ``data`` beside them as in the repository (they read ../data: samples, the looks grid); the
    notebooks' kernels shut down when the module ends."""
    server = notebook_apps("lab")
    folder = Path(tempfile.mkdtemp(prefix="notebooks-", dir=server["root"]))
    (folder / "notebooks").mkdir()
    shutil.copy(NOTEBOOKS / "00_quickstart.ipynb", folder / "notebooks" / "00_quickstart.ipynb")
    write_notebook(folder / "notebooks", "previews.ipynb", PREVIEW_CELLS)
    (folder / "data").symlink_to(ROOT / "data", target_is_directory=True)
    try:
        yield {**server, "dir": f"{folder.name}/notebooks", "workspace": folder.name}
    finally:
        shut_kernels(server, folder.name)


# The kinds of output notebooks/03_previews.ipynb shows, small: a preview (PNG), a table (HTML), a grid of
# previews, a turntable GIF and the preview explorer's widget. 03 itself runs whole under nbval (every cell's
# output compared); running it again here for its display in JupyterLab cost its kernel's renders a second time (the
# cast sheet, the looks grid, turntables, pose sequences: this test was 121 s of a worker at load 15). Its 3D viewer
# (model.view) in JupyterLab is test_avatar_viewer_lab.py's.
PREVIEW_CELLS = [
    """import pandas as pd
from IPython.display import Image as Show

import workbench
from workbench.render import grid, turntable
from workbench.widgets import PreviewExplorer

client = workbench.connect()
avatar = client.avatars.register({"gender": "feminine", "hair": {"style": "bun"}, "glasses": "clear"}).model_id""",
    "default = client.avatars.preview(avatar, size=128)\ndefault",
    "pd.DataFrame({'asked': [47, 100], 'got': [client.avatars.preview(avatar, size=s).size[0] for s in (47, 100)]})",
    "grid([[client.avatars.preview(avatar, size=64, camera=c).image for c in ('portrait', 'full')]], col_labels=['portrait', 'full'])",
    "Show(data=turntable(client.avatars.model(avatar, lod=2).content, frames=4, size=64, camera='full', fmt='gif'), format='gif')",
    "explorer = PreviewExplorer(client, avatar, size=256, camera=\"full\")\nexplorer",
]


def shot(browser, tmp_path, name: str) -> Path:
    return save_artifact(tmp_path, name, base64.b64decode(browser.get_screenshot_as_base64()))


# Cells of the open notebook: how many code cells, how many have run, how many are running or failed.
CELL_STATE = """
const nb = window.jupyterapp && window.jupyterapp.shell.currentWidget;
if (!nb || !nb.content || !nb.sessionContext) return null;
const cells = nb.content.widgets.filter(c => c.model.type === 'code');
const kernel = nb.sessionContext.session && nb.sessionContext.session.kernel;
return {code: cells.length, ran: cells.filter(c => c.model.executionCount !== null).length,
        running: [...nb.node.querySelectorAll('.jp-InputArea-prompt')].filter(p => p.textContent.includes('*')).length,
        // from the cells' models, not the page: a notebook this long is drawn in part (windowing)
        errors: cells.filter(c => c.model.outputs.toJSON().some(o => o.output_type === 'error')).length,
        kernel: kernel ? kernel.status : 'none', path: nb.context.path};
"""

# The images the outputs show, with their drawn sizes (0 when an image failed to decode).
IMAGES = """
const nb = window.jupyterapp.shell.currentWidget;
return [...nb.node.querySelectorAll('.jp-OutputArea-output img')].map(i => [i.naturalWidth, i.naturalHeight, i.complete]);
"""


def run_notebook(browser, lab, name: str, tmp_path) -> dict:
    # In a workspace of the module's own: the session's default workspace would reopen other modules' notebooks.
    path = f"{lab['dir']}/{name}"
    browser.get(f"{lab['url']}/lab/workspaces/{lab['workspace']}/tree/{path}?token={lab['token']}")
    wait(browser, "const s = (function(){" + CELL_STATE + "})(); return s && s.path === '" + path + "' && s.kernel === 'idle';",
         120, f"{name} to open with an idle kernel")
    # Clear the saved outputs first: every image and execution count checked below comes from this run.
    browser.execute_script("return window.jupyterapp.commands.execute('notebook:clear-all-cell-outputs')")
    wait(browser, "const s = (function(){" + CELL_STATE + "})(); return s && s.ran === 0 && s;", 30,
                   f"{name}'s saved outputs to clear")
    assert not browser.execute_script(IMAGES), "images left after clearing the outputs"
    browser.execute_script("window.jupyterapp.commands.execute('notebook:run-all-cells')")
    wait(browser, "const s = (function(){" + CELL_STATE + "})(); return s && (s.running > 0 || s.ran > 0);", 30,
         f"{name}'s cells to start")
    state = wait(browser, "const s = (function(){" + CELL_STATE + "})(); "
                          "return s && s.kernel === 'idle' && s.running === 0 && (s.ran === s.code || s.errors > 0) && s;",
                 420, f"every cell of {name} to run")
    shot(browser, tmp_path, f"lab_{name.removesuffix('.ipynb')}_end.png")
    assert state["errors"] == 0, f"{name}: a cell failed in the browser (see the screenshot in {tmp_path})"
    assert state["ran"] == state["code"] > 0
    return state


def test_quickstart_runs_in_jupyterlab_and_shows_the_preview(browser, lab, tmp_path):
    run_notebook(browser, lab, "00_quickstart.ipynb", tmp_path)
    images = browser.execute_script(IMAGES)
    assert images and all(w > 0 and h > 0 and done for w, h, done in images), images
    browser.execute_script("document.querySelector('.jp-OutputArea-output img').scrollIntoView({block: 'center'})")
    shot(browser, tmp_path, "lab_00_quickstart_preview.png")


def test_previews_run_and_the_explorer_answers_a_click(browser, lab, tmp_path):
    run_notebook(browser, lab, "previews.ipynb", tmp_path)
    images = browser.execute_script(IMAGES)
    assert len(images) >= 4 and all(w > 0 and h > 0 and done for w, h, done in images), images
    # The explorer's image widget and its camera toggle (set to "full" by the notebook).
    explorer = """
    const img = document.querySelector('.widget-image');
    const buttons = [...document.querySelectorAll('.widget-toggle-buttons button')];
    return img && buttons.length ? {src: img.src, w: img.naturalWidth, h: img.naturalHeight,
                                    active: buttons.filter(b => b.classList.contains('mod-active')).map(b => b.textContent.trim())} : null;
    """
    before = wait(browser, f"const e = (function(){{{explorer}}})(); return e && e.w > 0 && e;", 120, "the explorer's image")
    assert before["active"] == ["full"] and (before["w"], before["h"]) == (256, 256)
    browser.execute_script("document.querySelector('.widget-image').scrollIntoView({block: 'center'})")
    shot(browser, tmp_path, "lab_03_explorer_before.png")
    data_before = browser.execute_script(
        "const i = document.querySelector('.widget-image'); const c = document.createElement('canvas');"
        "c.width = i.naturalWidth; c.height = i.naturalHeight; c.getContext('2d').drawImage(i, 0, 0); return c.toDataURL();")
    button = next(b for b in browser.find_elements("css selector", ".widget-toggle-buttons button") if b.text.strip() == "portrait")
    button.click()  # a person's click: the kernel asks the service for the portrait and sends the new image back
    after = wait(browser, f"const e = (function(){{{explorer}}})(); return e && e.src !== {before['src']!r} && e.w > 0 && e;",
                 90, "the explorer's image to change after the click")
    assert after["active"] == ["portrait"]
    data_after = browser.execute_script(
        "const i = document.querySelector('.widget-image'); const c = document.createElement('canvas');"
        "c.width = i.naturalWidth; c.height = i.naturalHeight; c.getContext('2d').drawImage(i, 0, 0); return c.toDataURL();")
    assert data_after != data_before, "the image widget shows the same picture after the camera changed"
    label = browser.execute_script("return [...document.querySelectorAll('.widget-html code')].map(c => c.textContent)")
    assert any("portrait" in t for t in label) and not any("full" in t for t in label), label
    shot(browser, tmp_path, "lab_03_explorer_after.png")
