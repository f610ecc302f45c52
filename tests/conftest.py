"""Shared fixtures: a real service on a loopback port (subprocess), an in-process one (ASGI), clients; and how
the suite is marked and ordered for pytest-xdist (docs/testing.md).

The marker ``slow`` (registered in pyproject.toml) is on every test that drives a browser, runs notebooks
through a kernel or puts a load on the machine; ``pytest -m "not slow"`` is the quick loop. A module says it
with ``pytestmark = pytest.mark.slow`` (or marks its slow tests one by one); here the kinds the quick loop leaves
to the whole suite get it too (:func:`whole_suite_only`: browser tests, nbval's notebooks, past blind reviews'
regression renders, the attacks of tests/hostile/), so a test of those kinds added later is slow without being
told.
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import os
import re
import shutil
import signal
import socket
import stat
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import built
import httpx
import httpx._transports.default as httpx_transports
import pytest
import suite_order

import workbench
from workbench.client._base import tls_context
from workbench.service import Backend, create_app

ROOT = Path(__file__).resolve().parent.parent


# Where the shell sets PYTHONDONTWRITEBYTECODE (this machine's does), every pytest process compiled the package and
# rewrote the tests' asserts again (collection 15.8 s a process against 9.2 s with compiled files, pass 49), and so did
# every service, CLI and kernel the tests start. Here the compiled files go to a folder of this user's own in the
# temporary directory (made private to them; another's, or one others may write, is not used: a compiled file is
# trusted by its source's time and size), for this process and the ones it starts, not beside the sources: the tree
# stays as such a shell wants it and the next process reads them. (Only the variable: ``python -B`` is left as asked;
# .ci/run compiles and unsets the variable itself.)
def _pycache_folder() -> Path | None:
    """This user's folder for compiled files in the temporary directory, made if missing; None where it is not
    theirs alone (or the system has no user ids)."""
    if not hasattr(os, "getuid"):
        return None
    folder = Path(tempfile.gettempdir()) / f"workbench-pycache-{os.getuid()}"
    try:
        folder.mkdir(mode=0o700, exist_ok=True)
        st = folder.lstat()
    except OSError:
        return None
    return folder if st.st_uid == os.getuid() and stat.S_ISDIR(st.st_mode) and not st.st_mode & 0o077 else None


if os.environ.get("PYTHONDONTWRITEBYTECODE") and not sys.pycache_prefix and (_pycache := _pycache_folder()):
    sys.pycache_prefix = os.environ["PYTHONPYCACHEPREFIX"] = str(_pycache)
    sys.dont_write_bytecode = False
    del os.environ["PYTHONDONTWRITEBYTECODE"]


def _shared_default_tls(verify=True, cert=None, trust_env=True):
    """httpx's ``create_ssl_context`` for every client this process opens: its default (``verify=True``) is the
    workbench clients' shared context (``workbench.client._base.tls_context``), anything else made as httpx makes
    it. The suite's module-level ``httpx.get``/``post``/... calls (some 280 in the tests, each a client of its own,
    and the servers' health polls) read the whole certificate bundle each time: 27 ms of CPU a call, some 35 s of a
    quick loop's 420 (a py-spy profile, pass 49). Every request here is plain HTTP to loopback; no test's answer
    depends on the context being new.

    >>> _shared_default_tls() is _shared_default_tls(), _shared_default_tls(verify=False) is _shared_default_tls()
    (True, False)
    """
    if verify is True and cert is None and trust_env:
        return tls_context()
    return _httpx_tls(verify=verify, cert=cert, trust_env=trust_env)


# (httpx's transport looks the function up by this name: were it moved, the suite would only be slower again, so it
# is checked to be httpx's own first.)
assert httpx_transports.create_ssl_context is httpx.create_ssl_context, "httpx moved create_ssl_context"
_httpx_tls = httpx_transports.create_ssl_context
httpx_transports.create_ssl_context = _shared_default_tls


# The npm packages the tests use (the Khronos glTF-Validator, the browser pages' three and
# model-viewer) are installed once per CI run by tools/install_test_tools.py (.ci/run calls it), never
# by pytest: tests that need them skip, saying so, where they are missing.
DATA = ROOT / "data"
BROWSER_TESTS = ROOT / "tests" / "browser"


def pytest_configure(config):
    # pytest-xdist hands out whole files (--dist loadfile, workbench.runner.nbcheck: a notebook's cells stay
    # on one worker; the long browser files in parts, suite_order.unit), by default the files with the most tests first. Here the order of the items is kept instead,
    # and tests/suite_order.py (the one place for the suite's order) sorts the files by their recorded cost, the
    # costliest first: the long units start at once, the hundreds of short ones fill the workers' ends, and no
    # 100 s file is handed out last to run alone while the other workers idle.
    if hasattr(config.option, "loadscopereorder"):
        config.option.loadscopereorder = False
    config.pluginmanager.register(suite_order.Plugin(), "workbench-suite-order")
    # The run's shared builds (tests/built.py): one folder, made by the first pytest process (xdist's controller,
    # before it starts the workers, which inherit the variable) and removed by it at the end.
    if built.FOLDER_VAR not in os.environ:
        # A run killed before its end (SIGKILL, a CI timeout) leaves its folder: those a day old go here.
        for old in Path(tempfile.gettempdir()).glob("workbench-glbs-*"):
            try:
                if time.time() - old.stat().st_mtime > 86400:
                    shutil.rmtree(old, ignore_errors=True)
            except OSError:   # (another run's, removed meanwhile)
                pass
        _made_glbs.append(tempfile.mkdtemp(prefix="workbench-glbs-"))
        os.environ[built.FOLDER_VAR] = _made_glbs[0]
    if not hasattr(config, "workerinput") and (getattr(config.option, "numprocesses", 0) or 0) > 0:
        warm_compiled_loops()


# The renderer's and the body's numba loops, compiled into numba's cache by one interpreter before xdist starts its
# workers: with the cache empty (a fresh clone, or a loop's source changed) each worker and the session's service
# compiled the same loops at once, 13.5 s of CPU each. In its own interpreter, so the controller does not hold
# numba and the body's data through the run; with the cache full it costs 1.4 s (docs/testing.md, pass 47: the quick
# loop from an empty cache 326 -> 292 s, its CPU 629 -> 553 s).
WARM = "import workbench.render; workbench.render.warm_up()"


def warm_compiled_loops() -> None:
    """Fill numba's cache for the workers (see :data:`WARM`); a failure here is left to the tests that meet it."""
    with contextlib.suppress(subprocess.TimeoutExpired):
        subprocess.run([sys.executable, "-c", WARM], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False,
                       timeout=600)


_made_glbs: list[str] = []   # the shared builds' folder, where this process made it


def pytest_unconfigure(config):
    for folder in _made_glbs:
        shutil.rmtree(folder, ignore_errors=True)
        os.environ.pop(built.FOLDER_VAR, None)


def pytest_xdist_auto_num_workers(config):
    """``-n auto``'s workers: one more than the machine's cores. A worker waits as well as computes (a browser
    drawing, a service in a subprocess starting, a kernel answering, a socket's reply): with one worker a core,
    the whole suite kept the two cores of the project's machine 70 % busy (1,006 s of CPU in 723 s, docs/testing.md);
    a third worker fills those waits."""
    return (os.cpu_count() or 1) + 1


HOSTILE_TESTS = ROOT / "tests" / "hostile"
# A past blind review's regression renders, e.g. test_bob_review_n.py, test_clasp_review_aa.py (reviews after Z have two
# letters: the one-letter pattern let 33 files of reviews AA to AC into the quick loop, about 114 worker-seconds).
REVIEW_FILE = re.compile(r"^test_\w+_review_[a-z]{1,2}\.py$")
def whole_suite_only(item) -> bool:
    """The kinds of test the quick loop leaves to the whole suite (one rule, docs/testing.md "The quick loop"):
    browser tests and nbval's notebooks; the regression renders of past blind reviews (``*_review_<letters>.py``,
    one file per review and defect); the attacks on the service (tests/hostile/). What each area's basics need
    stays in the quick loop (docs/testing.md); tests that start a service of their own mark their costly parts
    slow one by one, as the fuzzer's and the pre-checks' parts do.

    >>> class Item:
    ...     def __init__(self, path): self.path = path
    >>> [whole_suite_only(Item(ROOT / p)) for p in ("tests/body/test_bob_review_n.py", "tests/test_review_x.py",
    ...                                               "tests/hostile/test_hostile_http.py", "tests/body/test_body.py",
    ...                                               "tests/body/test_clasp_review_aa.py")]
    [True, False, True, False, True]
    """
    path = Path(str(item.path))
    return (path.suffix == ".ipynb" or BROWSER_TESTS in path.parents or HOSTILE_TESTS in path.parents
            or REVIEW_FILE.search(path.name) is not None)


@pytest.hookimpl(tryfirst=True)  # before -m "not slow" deselects by the marks added here
def pytest_collection_modifyitems(config, items):
    """The kinds of :func:`whole_suite_only` marked slow (their order: tests/suite_order.py, after -m deselects)."""
    for item in items:
        if whole_suite_only(item):
            item.add_marker(pytest.mark.slow)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class ServerProcess:
    """``workbench serve`` in a subprocess on a free loopback port (real HTTP, real uvicorn): the one
    server factory of the tests (the ``server`` fixture is one of these for the whole session)."""

    def __init__(self, data_dir: Path, token: str = "wb_test_dev_token_0123456789", args: tuple[str, ...] = (),
                 switch_interval: float | None = None):
        self.data_dir = Path(data_dir)
        self.token = token
        self.args = tuple(args)  # more options of workbench serve, e.g. ("--read-timeout", "1")
        # sys.setswitchinterval in the service's process: threads handed the GIL every few microseconds, as
        # a busy machine's scheduler interleaves them (races between a request's threads show at once).
        self.switch_interval = switch_interval
        self.port = free_port()
        self.root = f"http://127.0.0.1:{self.port}"
        self.base_url, self.avatar_base_url, self.local_url = self.root + "/api", self.root + "/avatars", self.root + "/_local"
        self.proc: subprocess.Popen | None = None

    def start(self) -> ServerProcess:
        env = {**os.environ, "WORKBENCH_DEV_TOKEN": self.token, "PYTHONPATH": str(ROOT)}
        self.log = open(self.data_dir.parent / f"serve-{self.port}.log", "ab")
        run = ["-m", "workbench.cli"] if self.switch_interval is None else [
            "-c", f"import sys; sys.setswitchinterval({self.switch_interval!r}); from workbench.cli import main; sys.exit(main())"]
        self.proc = subprocess.Popen([sys.executable, *run, "serve", "--port", str(self.port),
                                      "--data-dir", str(self.data_dir), *self.args], env=env, stdout=self.log, stderr=subprocess.STDOUT)
        # 120 s: a start takes 2 s quiet; at load 33 (the whole suite beside other work on two cores) one took
        # past the 30 s this was, and a module's every test erred. A service that exits fails at once.
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and self.proc.poll() is None:
            try:
                if httpx.get(self.local_url + "/health", timeout=5).status_code == 200:
                    return self
            except httpx.HTTPError:
                time.sleep(0.05)
        self.proc.kill()
        self.proc.wait(10)
        self.log.close()
        raise RuntimeError("workbench serve did not come up: "
                           + (self.data_dir.parent / f"serve-{self.port}.log").read_text(errors="replace")[-2000:])

    def kill9(self) -> None:
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.kill9()

    def client(self, **kw) -> workbench.Client:
        kw.setdefault("token", self.token)
        return workbench.Client(self.base_url, self.avatar_base_url, local_url=self.local_url, **kw)


@pytest.fixture(scope="module")
def tuned_framing():
    """The portrait framed as it was when a module's pixel measures were tuned (pass 69 and before: the eyes 40 % down
    the picture, the square grown to keep 6 % over the hair; workbench.render.framing now lowers the eyes first and
    keeps 10 %). For modules that measure a style's hair or the lashes at fixed places of the picture (the neck at 73 %
    of its height, the forehead at 40 %) and in pixels: what they guard is the hair's and the lashes' own, not the
    framing, which tests/render/test_random_sheet_framing.py guards."""
    from workbench.render import framing

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(framing, "EYES_LOWEST", framing.EYES_FROM_TOP)
        mp.setattr(framing, "TOP_MARGIN", framing.PORTRAIT_MARGIN)
        yield


@pytest.fixture(scope="session")
def server(tmp_path_factory):
    srv = ServerProcess(tmp_path_factory.mktemp("serve") / "data").start()
    yield srv
    srv.stop()


@pytest.fixture()
def http_client(server):
    with server.client(backoff=0.01) as c:
        yield c


class _Blocking:
    """Runs an AsyncClient's coroutines to completion, so one test body serves both clients."""

    def __init__(self, target, loop):
        self._t, self._loop = target, loop

    def __getattr__(self, name):
        v = getattr(self._t, name)
        if callable(v):
            def call(*a, **kw):
                r = v(*a, **kw)
                return self._loop.run_until_complete(r) if inspect.isawaitable(r) else _wrap(r, self._loop)
            return call
        return _wrap(v, self._loop)


def _wrap(v, loop):
    return _Blocking(v, loop) if hasattr(v, "_client") or isinstance(v, workbench.AsyncClient) else v


@pytest.fixture(scope="session")
def asgi_backend(tmp_path_factory):
    b = Backend(tmp_path_factory.mktemp("asgi") / "data", dev_token="wb_asgi_dev_token_0123456789", generate_library=False)
    yield b
    b.close()


@pytest.fixture()
def asgi_client(asgi_backend):
    """The async client over httpx.ASGITransport on an in-process backend, driven synchronously."""
    loop = asyncio.new_event_loop()
    transport = httpx.ASGITransport(app=create_app(asgi_backend), raise_app_exceptions=False)
    ac = workbench.AsyncClient("http://localhost/api", "http://localhost/avatars", "wb_asgi_dev_token_0123456789",
                               local_url="http://localhost/_local", transport=transport, backoff=0.01)
    yield _Blocking(ac, loop)
    loop.run_until_complete(ac.aclose())
    loop.close()


@pytest.fixture(params=["http", "asgi"])
def client(request):
    """Each client test runs twice: sync client over real HTTP, async client in-process."""
    return request.getfixturevalue("http_client" if request.param == "http" else "asgi_client")


MACHINE_TESTS = "WORKBENCH_MACHINE_TESTS"  # set to 1 to run the tests that change the machine (.ci/run does)


@pytest.fixture()
def small_disk(tmp_path):
    """A data folder on a 32 MB tmpfs of its own, for tests of a full disk (the server's log stays outside it).
    Mounting changes the machine: only as root, and only when asked with WORKBENCH_MACHINE_TESTS=1."""
    if os.environ.get(MACHINE_TESTS) != "1":
        pytest.skip(f"mounts a tmpfs, which changes the machine: run it as root with {MACHINE_TESTS}=1")
    if not hasattr(os, "geteuid") or os.geteuid() != 0:
        pytest.skip("a full disk is tested on a small tmpfs, and mounting one needs root")
    if shutil.which("mount") is None:
        pytest.skip("no mount command here to make a small tmpfs")
    folder = tmp_path / "logs-here" / "data"
    folder.mkdir(parents=True)
    made = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=32m", "tmpfs", str(folder)], capture_output=True, text=True)
    if made.returncode != 0:
        pytest.skip(f"cannot mount a small tmpfs here: {made.stderr.strip()}")
    yield folder
    subprocess.run(["umount", "-l", str(folder)], capture_output=True)


@pytest.fixture(scope="module")
def sheets_built_once(request):
    """For a module that draws data/make_review_sheets' avatars (its ``sheets``): their GLBs from
    :func:`built.sheet_glb` while its tests run, the same bytes as the sheets' ``_glb``, built once per run and shared
    with the review files that build the same avatars."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(request.module.sheets, "_glb", built.sheet_glb)
        yield


class _LookPage:
    """data/make_review_sheets' look.html in one headless Chromium, opened by the first module that draws with it."""

    def __init__(self):
        self._stack = contextlib.ExitStack()
        self.page = None

    def open(self, threejs_look_page):
        if self.page is None:
            self.page = self._stack.enter_context(threejs_look_page())
        return self.page


@pytest.fixture(scope="session")
def _look_page():
    kept = _LookPage()
    with kept._stack:
        yield kept


@pytest.fixture(scope="module")
def sheets_page_once(request, _look_page):
    """For a module that draws with data/make_review_sheets' three.js (its ``sheets``): its ``threejs_look_page``
    (the one :func:`~make_review_sheets.shoot_threejs` opens when given no page) is the worker's one page, opened at its
    first use and kept for the run, where each such module started a Chromium, served look.html and compiled its
    shaders again. Each shot names its model by its bytes and sets its look, size and camera (look.html's ``shot``),
    so a shot on the kept page is the shot on a page of its own."""
    original = request.module.sheets.threejs_look_page

    @contextlib.contextmanager
    def kept():
        yield _look_page.open(original)

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(request.module.sheets, "threejs_look_page", kept)
        yield


@pytest.fixture(scope="module")
def viewer(server):
    """A product viewer of the session's server, one per test module."""
    from helpers import new_viewer

    return new_viewer(server)


@pytest.fixture(scope="module")
def model_id(server):
    """A registered feminine avatar of the session's server, one per test module."""
    from helpers import new_avatar

    return new_avatar(server)["modelId"]
