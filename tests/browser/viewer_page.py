"""What the viewer's browser tests share: a notebook of viewer cells served by JupyterLab or Notebook 7,
opened in Chromium, and the page's viewers read through the data attributes their front-end writes
(js/viewer/): ``until`` waits for one, ``kernel`` runs code in the notebook's kernel without a cell.
"""

from __future__ import annotations

import base64
import contextlib
import io
import json
import tempfile
import time
from pathlib import Path

import nbformat
import numpy as np
import pytest
from PIL import Image

from workbench.widgets.frontend import bundle_path

from .conftest import run_async, shut_kernels, start_chrome, wait

# The viewers' state as the page shows it.
VIEWERS = "return Array.from(document.querySelectorAll('.wb-avatar-viewer')).map(v => ({...v.dataset}));"
KERNEL_IDLE = ("const nb = window.jupyterapp && window.jupyterapp.shell.currentWidget;"
               "return nb && nb.sessionContext && nb.sessionContext.session && nb.sessionContext.session.kernel"
               " && nb.sessionContext.session.kernel.status === 'idle';")


# The two apps a viewer test opens. Notebook 7 is JupyterLab's own notebook, output area and widget manager in
# another shell: what the viewer does inside an output (closing, redrawing, fetching, saving its picture) is the
# same code in both and is proven once, in JupyterLab (``IN_LAB``); what the shells do differently is proven in
# both: the viewer drawing and answering a person, keys kept from the shortcuts (Notebook 7 checks them in the
# capture phase), where the parts sit in the page, and the outputs extension loading in each.
APPS = ["lab", "notebook"]
IN_LAB = pytest.mark.parametrize("page", ["lab"], indirect=True)  # on a test of a module whose ``page`` takes APPS


def avatar_glb(gender: str, **options) -> bytes:
    """The GLB of the ``gender``'s default avatar with ``ModelOptions(**options)``, built once per run in the test
    process and written beside a module's notebook (``notebook_server``'s ``files``): the viewer tests are of the
    viewer, not of the build, and a kernel building it cold cost about 6 s of CPU each time (imports, the body's
    shaping, textures), seven kernels a session. ``built.built``: one build a run, shared by its workers (a file on
    another worker reads what the first built; suite28a), where ``functools.cache`` made one a worker. The same bytes
    as a kernel's build (builds are deterministic: tests/gltf)."""
    from built import built

    from workbench.options import ModelOptions, normalize_avatar_settings

    return built(normalize_avatar_settings({"gender": gender}), ModelOptions(**options))


def write_notebook(root, name: str, cells: list[str]) -> None:
    """``root/name`` with ``cells`` as its code cells, for the python3 kernel."""
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(c) for c in cells])
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nbformat.write(nb, root / name)


@contextlib.contextmanager
def notebook_server(notebook_apps, app: str, name: str, cells: list[str], files: dict | None = None):
    """The session's JupyterLab (``app="lab"``) or Notebook 7 (``"notebook"``, conftest.notebook_apps) serving
    the notebook ``name`` of ``cells`` and ``files`` ({name: bytes}) beside it, in a folder of the caller's own;
    yields the server with ``root`` that folder and ``dir`` its path in the server (``notebook_url``). The
    notebook's kernels are shut down on leaving. Skips where the viewer's bundle is not built."""
    if bundle_path() is None:
        pytest.skip("the viewer's three.js bundle is not built (npm ci && npm run build, or pip install -e .)")
    server = notebook_apps(app)
    folder = Path(tempfile.mkdtemp(prefix=f"{Path(name).stem}-", dir=server["root"]))
    for file, data in (files or {}).items():
        (folder / file).write_bytes(data)
    write_notebook(folder, name, cells)
    try:
        yield {**server, "root": folder, "dir": folder.name}
    finally:
        shut_kernels(server, folder.name)


def notebook_url(server: dict, name: str) -> str:
    """The page of notebook ``name`` of a ``notebook_server`` folder (or of a server's root) in its app. In
    JupyterLab a workspace of the folder's own: a workspace restores the notebooks an earlier module left open."""
    where = f"{server['dir']}/{name}" if server.get("dir") else name
    path = (f"lab/workspaces/{server['dir']}/tree" if server.get("dir") else "lab/tree") if server["app"] == "lab" else "notebooks"
    return f"{server['url']}/{path}/{where}?token={server['token']}"


@contextlib.contextmanager
def borrowed(browser, width: int, height: int, script_timeout: float):
    """The session's Chromium (conftest.browser) at this window size and script timeout, given back on a blank
    page at its own: a module or test that needs no Chromium of its own (a performance log, flags) borrows it.
    The console's log is read empty first, so the borrower's ``get_log("browser")`` holds its own pages' only."""
    size, timeout = browser.get_window_size(), browser.timeouts.script
    browser.get_log("browser")
    browser.set_window_size(width, height)
    browser.set_script_timeout(script_timeout)
    try:
        yield browser
    finally:
        browser.get("about:blank")
        browser.set_window_size(size["width"], size["height"])
        browser.set_script_timeout(timeout)


@contextlib.contextmanager
def notebook_browser(server: dict, name: str, run_all: bool = True, shared=None, first_script: str | None = None,
                     **chrome):
    """A Chromium with the notebook open, its cells run: ``shared`` (the session's, conftest.browser) where the
    module needs nothing of its own, else one of its own (``chrome``: start_chrome's options, a performance log
    say). A shared one is left on a blank page at its window size and script
    timeout again (a Chromium start cost a module about 2 s of CPU and tens of MB of profile). ``first_script``
    runs in every page of its own Chromium before the page's own scripts, from the notebook's first load on."""
    if shared is not None and not chrome and first_script is None:
        with borrowed(shared, 1280, 1000, 180):
            open_notebook(shared, server, name, run_all=run_all)
            yield shared
        return
    folder = Path(server["root"])  # a profile beside the server's root, not in it
    with start_chrome(folder.parent.parent / f"profile-{folder.name}", **chrome) as browser:
        browser.set_window_size(1280, 1000)
        browser.set_script_timeout(180)
        if first_script:
            browser.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": first_script})
        open_notebook(browser, server, name, run_all=run_all)
        yield browser


def open_notebook(browser, server: dict, name: str, run_all: bool = True) -> None:
    """Open ``name`` in the server's app (JupyterLab or Notebook 7), wait for its kernel, run every cell."""
    browser.get(notebook_url(server, name))
    wait(browser, KERNEL_IDLE, 120, "the notebook's kernel")
    if run_all:
        browser.execute_script("window.jupyterapp.commands.execute('notebook:run-all-cells')")


def viewers(browser):
    return browser.execute_script(VIEWERS)


def until(browser, index: int, cond: str, what: str, timeout: float = 120):
    """The data attributes of viewer ``index`` once ``cond`` (JS over ``d``) holds. The bound is for a loaded CI
    machine (two workers and four spinning processes on two cores: a software GPU's frame can take seconds);
    a condition that holds returns at once."""
    return wait(browser, f"const v = document.querySelectorAll('.wb-avatar-viewer')[{index}];"
                         f"const d = v && v.dataset; return d && ({cond}) && {{...d}};", timeout, what)


def canvas_pixels(browser, index: int) -> np.ndarray:
    """What viewer ``index``'s canvas shows, from a screenshot of the element (what a person sees)."""
    canvas = browser.find_elements("css selector", ".wb-avatar-viewer canvas")[index]
    return np.asarray(Image.open(io.BytesIO(canvas.screenshot_as_png)).convert("RGB")).astype(int)


def changed(a: np.ndarray, b: np.ndarray) -> float:
    """The share of pixels that differ visibly."""
    h, w = min(a.shape[0], b.shape[0]), min(a.shape[1], b.shape[1])
    return float((np.abs(a[:h, :w] - b[:h, :w]).sum(-1) > 30).mean())


def kernel(browser, code: str) -> str:
    """Run ``code`` in the notebook's kernel (not in a cell: the notebook stays as it is); its stdout."""
    return run_async(browser, """(code => new Promise((ok, no) => {
        const nb = window.jupyterapp.shell.currentWidget;
        const future = nb.sessionContext.session.kernel.requestExecute({code, store_history: false});
        let out = '';
        future.onIOPub = m => { if (m.header.msg_type === 'stream') out += m.content.text;
                                if (m.header.msg_type === 'error') no(new Error(m.content.evalue)); };
        future.done.then(() => ok(out), no);
    }))""", code).strip()


def poll_kernel(browser, code: str, ok, timeout: float = 60.0) -> str:
    """``kernel(code)`` until ``ok(output)``: the page sends slider values a moment after they stop. Bounded by
    time, not by a count of tries: 20 tries a quarter second apart (5 s and the round trips) were a guess at how
    late a busy machine's kernel hears the page; 60 s is for a loaded CI machine, and an answer that comes
    returns at once."""
    deadline = time.monotonic() + timeout
    while True:
        out = kernel(browser, code)
        if ok(out):
            return out
        if time.monotonic() >= deadline:
            raise AssertionError(f"the kernel never printed what was expected for {code!r} in {timeout:.0f} s: {out!r}")
        time.sleep(0.25)


def notebook_cells(browser):
    """The open notebook's cells: [type, source] each."""
    return browser.execute_script(
        "const m = window.jupyterapp.shell.currentWidget.content.model;"
        "return Array.from({length: m.cells.length}, (_, i) => [m.cells.get(i).type, m.cells.get(i).sharedModel.getSource()]);")


def received_bytes(browser) -> int:
    """The bytes of every WebSocket frame the page received since the last call (Chromium's performance
    log: the browser started with ``performance_log=True``)."""
    total = 0
    for entry in browser.get_log("performance"):
        msg = json.loads(entry["message"])["message"]
        if msg["method"] == "Network.webSocketFrameReceived":
            frame = msg["params"]["response"]
            data = frame["payloadData"]
            total += len(base64.b64decode(data)) if frame.get("opcode") == 2 else len(data.encode())
    return total
