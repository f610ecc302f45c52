"""Fixtures of the browser tests: headless Chromium driven by selenium, a page server on another
origin than the service, and the npm packages the pages load (three, model-viewer).

Every test here skips with its reason where no browser, driver, node or npm exists (``.ci/run``
installs Chromium where it can). One browser serves the whole session; each test loads its page.
"""

from __future__ import annotations

import base64
import contextlib
import functools
import http.server
import importlib.util
import io
import json
import os
import secrets
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import httpx
import numpy as np
import pytest

PAGES = Path(__file__).resolve().parent / "pages"
# Pinned together: model-viewer 4.4 declares three ^0.183 as its peer.
NPM_PACKAGES = ["three@0.183.2", "@google/model-viewer@4.4.0"]
NPM_HOME = Path(os.environ.get("WORKBENCH_BROWSER_HOME") or Path.home() / ".cache" / "workbench-browser")
ARTIFACTS = os.environ.get("WORKBENCH_BROWSER_ARTIFACTS")  # a folder to copy screenshots to, besides tmp_path
# The folder holding labextensions/workbench-viewer-outputs (its static/remoteEntry.js says what it does), as a Jupyter path.
LAB_EXTENSIONS = Path(__file__).resolve().parents[2] / "js" / "viewer" / "jupyter"


def find_browser() -> tuple[str | None, str | None]:
    """(chromium, chromedriver) paths, or None for each one missing."""
    chromium = next((shutil.which(n) for n in ("chromium", "chromium-browser", "google-chrome") if shutil.which(n)), None)
    return chromium, shutil.which("chromedriver")


def chrome_options(chromium: str, profile: str, extra: tuple[str, ...] = ()):
    from selenium import webdriver

    o = webdriver.ChromeOptions()
    o.binary_location = chromium
    args = ["--headless=new", "--window-size=900,900", f"--user-data-dir={profile}",
            # WebGL without a GPU: ANGLE on SwiftShader, a software GPU (it works with or without
            # --disable-gpu on Chromium 156; left out, it changes nothing here).
            "--use-angle=swiftshader", "--enable-unsafe-swiftshader",
            # ...but the page's compositing in software, as Chrome does on a machine without a GPU: left
            # to SwiftShader too it cost 19 ms of CPU per frame of an empty canvas, 9 ms without
            # (bench/RESULTS.md, issue 26 round three).
            "--disable-gpu-compositing",
            "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run",
            "--disable-dev-shm-usage", "--force-device-scale-factor=1",
            # The HTTP cache bounded: the models a test loads (GLBs of megabytes, loaded once) filled a session's
            # profile with 100 MB a worker; 64 MB keeps JupyterLab's and the pages' scripts, which are loaded again.
            "--disk-cache-size=67108864", *extra]
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        args.append("--no-sandbox")  # Chromium refuses to start its sandbox as root
    for a in args:
        o.add_argument(a)
    o.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return o


# The pages' animation frames at most this many a second (:data:`FRAME_CAP`): a viewer playing a clip and model-viewer
# playing one draw a frame every vsync, 60 a second, each drawn by SwiftShader on the CPU (the three.js test pages draw
# on demand). On this 2-core machine test_avatar_viewer_close (six viewers playing the walk) took 52.7 s of the
# machine's CPU (by /proc/stat) where ``time`` counted 15.2 s for pytest and its children: Chromium's processes are not
# theirs, and the other workers wait for them. What the browser tests prove is behaviour (keys, layout, closing, colour,
# a clip's pose), none of it a frame rate; bench/viewer.py, which measures the frame rate, starts its Chromium uncapped
# (``frame_cap=None``), and a test of a mechanism that follows the frames' pace (the viewer's lighter moving frames)
# lifts the cap in its page (:func:`uncapped`).
FRAME_CAP_FPS = 15
# ...as a script run in every page before its own: ``requestAnimationFrame`` callbacks gathered and run together in
# one of the browser's frames, the next at least 1/FRAME_CAP_FPS s after the last (12 to 15 a second: the timer, then the
# browser's next frame), each with that frame's time; a callback cancelled before its turn does not run, even by one
# before it in the same frame (as the HTML standard's frames); a callback's error reported at once (``reportError``) and
# the rest run. It caps every page's frames, JupyterLab's own (its editors' measures, its cells' rendering) as well as
# the viewers'. ``window.wbFrameCap`` (frames a second, 0 none), read at each frame, changes it in that page.
FRAME_CAP = """(() => {
  window.wbFrameCap = %s;
  const native = window.requestAnimationFrame.bind(window);
  const waiting = new Map();
  let next = 1, scheduled = false, last = -Infinity;
  const run = (t) => {
    scheduled = false;
    last = performance.now();
    for (const id of [...waiting.keys()]) {
      const cb = waiting.get(id);
      if (cb === undefined) continue;           // cancelled by a callback run before it
      waiting.delete(id);
      try { cb(t); } catch (e) { reportError(e); }
    }
  };
  window.requestAnimationFrame = function (cb) {
    if (typeof cb !== 'function') return native(cb);          // (the browser's own TypeError)
    const id = next++;
    waiting.set(id, cb);
    if (!scheduled) {
      scheduled = true;
      const wait = window.wbFrameCap > 0 ? last + 1000 / window.wbFrameCap - performance.now() : 0;
      if (wait > 1) setTimeout(() => native(run), wait); else native(run);
    }
    return id;
  };
  window.cancelAnimationFrame = function (id) { waiting.delete(id); };
})();"""


@contextlib.contextmanager
def uncapped(browser):
    """The page's frames at the browser's own rate for the block (FRAME_CAP's switch, ``window.wbFrameCap``), its cap as
    it was after it: for a test of what follows the frames' pace, whose frames the cap would make the pace."""
    was = browser.execute_script("const was = window.wbFrameCap; window.wbFrameCap = 0; return was;")
    try:
        yield
    finally:
        browser.execute_script("window.wbFrameCap = arguments[0];", was)


@contextlib.contextmanager
def start_chrome(profile: Path, *, performance_log: bool = False, extra_args: tuple[str, ...] = (),
                 frame_cap: int | None = FRAME_CAP_FPS):
    """A headless Chromium with its own profile folder, quit on leaving and its profile removed (a failed run keeps
    its tests' folders, and a profile says nothing of why it failed; the test skips where there is no Chromium);
    ``performance_log`` also records the page's network traffic; ``extra_args`` are more command-line flags;
    ``frame_cap``: its pages' animation frames at most this many a second (:data:`FRAME_CAP`), None for the
    browser's own rate."""
    chromium, driver_path = find_browser()
    if chromium is None or driver_path is None:
        pytest.skip("no Chromium and chromedriver here (apt-get install chromium chromium-driver); browser tests skipped")
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = chrome_options(chromium, str(profile), extra_args)
    if performance_log:
        options.set_capability("goog:loggingPrefs", {"browser": "ALL", "performance": "ALL"})
    try:
        driver = webdriver.Chrome(service=Service(driver_path), options=options)
        try:
            driver.set_page_load_timeout(60)
            if frame_cap:
                driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": FRAME_CAP % frame_cap})
            yield driver
        finally:
            driver.quit()
    finally:
        shutil.rmtree(profile, ignore_errors=True)


_SESSION_BROWSER: list = []  # the session's Chromium once started (``browser``), for ``blank_after_module``


@pytest.fixture(scope="session")
def browser(tmp_path_factory):
    with start_chrome(tmp_path_factory.mktemp("chromium-profile")) as driver:
        driver.set_script_timeout(240)
        _SESSION_BROWSER.append(driver)
        try:
            yield driver
        finally:
            _SESSION_BROWSER.clear()


@pytest.fixture(scope="module", autouse=True)
def blank_after_module():
    """The session's Chromium left on ``about:blank`` when a module's tests are done, not on the module's page for
    the rest of the worker's run: a page left drawing (test_model_viewer's playing clip, model-viewer at 512 px)
    kept SwiftShader drawing it frame after frame on the CPU, unseen, through whatever files the worker ran next
    (suite24: docs/testing.md). Each module loads its own page, so none reads what an earlier one left."""
    yield
    for driver in _SESSION_BROWSER:
        driver.get("about:blank")


@pytest.fixture(scope="session")
def node_modules():
    from workbench.gltf.validator import npm_present

    if not npm_present(NPM_PACKAGES, NPM_HOME):
        pytest.skip(f"{', '.join(NPM_PACKAGES)} are not installed in {NPM_HOME}: run `python tools/install_test_tools.py` "
                    "(.ci/run does) for the browser pages")
    return NPM_HOME / "node_modules"


class _PageHandler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map,
                      ".js": "text/javascript", ".mjs": "text/javascript", ".html": "text/html"}

    def __init__(self, *a, modules: Path, **kw):
        self.modules = modules
        super().__init__(*a, directory=str(PAGES), **kw)

    def translate_path(self, path):
        clean = path.split("?", 1)[0].split("#", 1)[0]
        if clean.startswith("/node_modules/"):
            target = (self.modules / clean[len("/node_modules/"):]).resolve()
            return str(target) if self.modules.resolve() in target.parents else str(PAGES / "missing")
        return super().translate_path(path)

    def log_message(self, *args):
        pass  # quiet: the test output shows what matters


@pytest.fixture(scope="session")
def pages(node_modules):
    """The test pages and node_modules on a second loopback port: another origin than the service."""
    handler = functools.partial(_PageHandler, modules=node_modules)
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, name="browser-test-pages", daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()
    httpd.server_close()


def open_page(browser, url: str, ready: str = "window.pageReady === true", timeout: float = 60):
    """Load ``url`` and wait until the page says it is ready (its modules loaded)."""
    from selenium.webdriver.support.ui import WebDriverWait

    browser.get(url)
    WebDriverWait(browser, timeout).until(lambda d: d.execute_script(f"return {ready} || window.pageError || null"))
    err = browser.execute_script("return window.pageError || null")
    assert err is None, f"the page failed to start: {err}"


def run_async(browser, call: str, *args):
    """Await ``call`` (a page function returning a promise) with ``args``; page errors raise with their text."""
    out = browser.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        f"Promise.resolve().then(() => {call}(...Array.from(arguments).slice(0, -1)))"
        ".then(v => done({ok: v}), e => done({error: String(e && e.stack || e)}));", *args)
    assert "error" not in out, out.get("error")
    return out["ok"]


def data_url_image(url: str) -> np.ndarray:
    from PIL import Image

    raw = base64.b64decode(url.split(",", 1)[1])
    return np.asarray(Image.open(io.BytesIO(raw)).convert("RGBA"))


# ``wait``'s loop in the page: the check (a function body, as execute_script takes) every ``every`` ms until it gives a
# truthy value or the call's time (ms) passes; {value}, {error} (the check threw) or null (not yet).
_WAIT_IN_PAGE = """const done = arguments[arguments.length - 1], every = arguments[arguments.length - 3];
const args = Array.from(arguments).slice(0, -3), end = performance.now() + arguments[arguments.length - 2];
const check = function () { %s
};
const step = () => {
  let value;
  try { value = check.apply(null, args); } catch (e) { return done({error: String(e && e.stack || e)}); }
  if (value) return done({value});
  if (performance.now() >= end) return done(null);
  setTimeout(step, every);
};
step();"""
# How long one call waits in the page before Python asks again: well under every script timeout set here (30 s at least).
WAIT_CALL_S = 5.0


class WaitTimeout(AssertionError):
    """:func:`wait`'s condition not met within its time (a page whose check throws fails with a plain
    AssertionError, so a caller that tolerates a timeout still sees a broken check)."""


def wait(browser, script: str, timeout: float, what: str, every: float = 0.1, args: tuple = ()):
    """The first truthy value ``script`` returns in the page (``args`` its ``arguments``), checked every ``every``
    s; fails after ``timeout``. The checks run in the page (a timer there), a call of WebDriver every few seconds:
    a WebDriver call per check cost about 5 ms of CPU (Python, chromedriver, the page), half a second of CPU a
    minute at ten a second, and a loaded machine's waits last minutes."""
    deadline = time.monotonic() + timeout
    while True:
        remaining = deadline - time.monotonic()
        out = browser.execute_async_script(_WAIT_IN_PAGE % script, *args, every * 1000,
                                           max(0.0, min(remaining, WAIT_CALL_S)) * 1000)
        if out and "error" in out:
            raise AssertionError(f"waiting for {what}, the page's check failed: {out['error']}")
        if out:
            return out["value"]
        if time.monotonic() >= deadline:
            raise WaitTimeout(f"timed out after {timeout:.0f} s waiting for {what}")


def save_artifact(tmp_path: Path, name: str, png: bytes) -> Path:
    """Write a screenshot under the test's tmp folder (and to $WORKBENCH_BROWSER_ARTIFACTS when set)."""
    path = tmp_path / name
    path.write_bytes(png)
    if ARTIFACTS:
        Path(ARTIFACTS).mkdir(parents=True, exist_ok=True)
        (Path(ARTIFACTS) / name).write_bytes(png)
    return path


@pytest.fixture(scope="session")
def notebook_apps(tmp_path_factory):
    """``notebook_apps(app)``: the session's Jupyter server as JupyterLab (``"lab"``) or Notebook 7 (``"notebook"``),
    started when a module first asks for either and stopped at the session's end (``jupyter_lab``). One server a
    worker serves both apps and every module, each in a folder of its own (``viewer_page.notebook_server``), its
    kernels shut down when the module ends. (Until suite37 each app had a server of its own: a start is about 4 s of
    CPU and 10 to 25 s of a worker at load 10. ``jupyter lab`` loads Notebook 7's server extension too, and its
    ``/notebooks/`` pages are the ones ``jupyter notebook`` serves: the same page config but for the server's paths
    and token, compared by hand.)"""
    with contextlib.ExitStack() as stack:
        started: list[dict] = []

        def get(app: str) -> dict:
            assert app in ("lab", "notebook"), app
            if app == "notebook" and importlib.util.find_spec("notebook") is None:
                pytest.skip("Notebook 7 is not installed here (pip install -e '.[dev]'); the notebook test skipped")
            if not started:
                work = tmp_path_factory.mktemp("jupyter")
                (work / "notebooks").mkdir()
                started.append(stack.enter_context(jupyter_lab(work, work / "notebooks")))
            return {**started[0], "app": app}

        yield get


def shut_kernels(server: dict, folder: str) -> None:
    """Shut down the kernels of the notebooks the server has open under ``folder`` (relative to its root): a
    module's kernels end with it, as they did when each module had its own server."""
    headers = {"Authorization": f"token {server['token']}"}
    with contextlib.suppress(httpx.HTTPError):
        for session in httpx.get(f"{server['url']}/api/sessions", headers=headers, timeout=30).json():
            if session.get("path", "").startswith(folder + "/"):
                httpx.delete(f"{server['url']}/api/sessions/{session['id']}", headers=headers, timeout=60)


@contextlib.contextmanager
def jupyter_lab(work: Path, root: Path, app: str = "lab"):
    """``jupyter lab`` (or Notebook 7, ``app="notebook"``) headless on a free loopback port with token
    auth, serving ``root``; yields {url, token, root, log, app}. JupyterLab's server serves Notebook 7's pages as well
    (``/notebooks/``, its app exposed in the page as ``jupyter notebook``'s is). Its kernels import the workbench from
    this tree and start their own local service (no ``WORKBENCH_*`` variable reaches them)."""
    from conftest import ROOT, free_port

    command = {"lab": "jupyter-lab", "notebook": "jupyter-notebook"}[app]
    if shutil.which(command, path=os.path.dirname(sys.executable)) is None and shutil.which(command) is None:
        import pytest

        pytest.skip(f"{command} is not installed here (pip install -e '.[dev]'); the {app} test skipped")
    from workbench.runner import kernels

    token, port = secrets.token_hex(16), free_port()
    runtime = tempfile.mkdtemp(prefix="wbk-")  # short: the kernels' sockets go there (workbench.runner.kernels)
    env = {k: v for k, v in os.environ.items() if not k.startswith("WORKBENCH_")}  # the kernel starts its own service
    # JUPYTER_PATH: the viewer's Lab extension from this tree, where an installed package has it in
    # share/jupyter/labextensions (pyproject.toml's shared-data).
    env.update(PYTHONPATH=str(ROOT), PATH=os.path.dirname(sys.executable) + os.pathsep + env.get("PATH", ""),
               JUPYTER_PATH=os.pathsep.join(filter(None, [str(LAB_EXTENSIONS), env.get("JUPYTER_PATH")])),
               JUPYTER_RUNTIME_DIR=runtime, JUPYTERLAB_WORKSPACES_DIR=str(work / "workspaces"),
               JUPYTERLAB_SETTINGS_DIR=str(work / "settings"), JUPYTER_CONFIG_DIR=str(work / "config"))
    # No news prompt over the notebook (and no call to the network for it).
    (work / "config" / "labconfig").mkdir(parents=True)
    (work / "config" / "labconfig" / "page_config.json").write_text(
        json.dumps({"disabledExtensions": {"@jupyterlab/apputils-extension:announcements": True}}))
    log = open(work / "lab.log", "wb")
    app_args = (["jupyterlab", "--LabApp.expose_app_in_browser=True",  # window.jupyterapp: run commands as the menus do
                 "--LabApp.news_url=", "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
                 "--JupyterNotebookApp.expose_app_in_browser=True"]  # the same server's Notebook 7 pages
                if app == "lab" else ["notebook", "--JupyterNotebookApp.expose_app_in_browser=True"])
    proc = subprocess.Popen(
        [sys.executable, "-m", app_args[0], "--no-browser", "--ip=127.0.0.1", f"--port={port}",
         f"--ServerApp.root_dir={root}", f"--IdentityProvider.token={token}", "--ServerApp.port_retries=0",
         *app_args[1:], "--LabServerApp.extension_manager=readonly", *kernels.options()]
        + (["--allow-root"] if hasattr(os, "geteuid") and os.geteuid() == 0 else []),
        cwd=root, env=env, stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    try:
        # 180 s for a loaded CI machine (90 before suite19): a Jupyter server's start is seconds of CPU, and at load 20
        # a worker's share of two cores is a tenth.
        deadline = time.monotonic() + 180
        while time.monotonic() < deadline:
            if proc.poll() is not None:
                raise RuntimeError(f"jupyter {app} exited: {(work / 'lab.log').read_text()[-2000:]}")
            try:
                if httpx.get(f"{url}/api/status", headers={"Authorization": f"token {token}"}, timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.3)
        else:
            raise RuntimeError(f"jupyter {app} did not come up in 180 s")
        yield {"url": url, "token": token, "root": root, "log": work / "lab.log", "app": app}
    finally:
        proc.terminate()
        try:
            proc.wait(20)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()
        shutil.rmtree(runtime, ignore_errors=True)
