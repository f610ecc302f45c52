"""tests/suite_order.py in a throw-away project of four tests, run by a pytest of its own (code review 21, H1 and M1).

H1: under ``--sw`` the files were sorted by cost after pytest's stepwise plugin had dropped the tests before the last
failure in the order collected, so a second ``--sw`` run skipped tests that never ran as "already passed". Main: of
the four tests, two (``test_a.py``'s) never passed across the two runs; now all four pass once.

M1: recording costs from part of the suite overwrote each file's figure with what that part cost. Main: after a
``-m "not slow"`` run, ``test_b.py``'s recorded [50.0, 40.0] became [0.6, 0.0] (its slow 40 s gone); now the slow
share is kept, and a ``-k`` run records nothing.
"""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import suite_order

TESTS = Path(__file__).resolve().parent

CONFTEST = """
from pathlib import Path
import suite_order

def pytest_configure(config):
    config.pluginmanager.register(suite_order.Plugin(Path(__file__).parent / "costs.json"), "order")
"""
TEST_A = """
from pathlib import Path

def passed(name):
    with open(Path(__file__).parent / "passed.txt", "a") as f:
        f.write(name + "\\n")

def test_a1():
    passed("a1")

def test_a2():
    passed("a2")
"""
TEST_B = """
import time
from pathlib import Path

import pytest
import suite_order
from test_a import passed

def test_b1():
    time.sleep(0.6)   # a quick part of 0.6 s or more, over suite_order.KEEP
    passed("b1")

def test_b2():
    assert (Path(__file__).parent / "fixed").exists()
    passed("b2")

@pytest.mark.slow
def test_b3():
    passed("b3")
"""


@pytest.fixture
def project(tmp_path):
    """The throw-away project: test_a.py (two tests, no cost recorded), test_b.py (recorded at 50 s, 40 of them slow;
    its test_b2 fails until the file ``fixed`` exists)."""
    (tmp_path / "pytest.ini").write_text("[pytest]\nmarkers =\n    slow: slow\n")
    (tmp_path / "conftest.py").write_text(CONFTEST)
    (tmp_path / "test_a.py").write_text(TEST_A)
    (tmp_path / "test_b.py").write_text(TEST_B)
    (tmp_path / "costs.json").write_text(json.dumps({"test_b.py": [50.0, 40.0]}))
    return tmp_path


def pytest_run(project: Path, *args: str, record: bool = False, timeout: float = 120) -> str:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(TESTS), os.environ.get("PYTHONPATH", "")]),
           "PYTEST_ADDOPTS": "", "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1", "WORKBENCH_RECORD_COSTS": "1" if record else "0"}
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", *args],
                          cwd=project, env=env, capture_output=True, text=True, timeout=timeout)
    return done.stdout + done.stderr


def test_stepwise_runs_every_test(project):
    """``--sw`` until b2 fails, b2 fixed, ``--sw`` again: every test has passed once (none skipped unrun)."""
    first = pytest_run(project, "--sw", "-m", "not slow")
    assert "1 failed" in first, first
    (project / "fixed").touch()
    second = pytest_run(project, "--sw", "-m", "not slow")
    assert "failed" not in second, second
    passed = (project / "passed.txt").read_text().split()
    assert sorted(passed) == ["a1", "a2", "b1", "b2"], f"passed across the two --sw runs: {passed}\n{first}\n{second}"


def test_recording_part_keeps_the_rest(project):
    """A ``-m "not slow"`` run replaces test_b.py's quick share and keeps its slow 40 s; a ``-k`` run writes nothing."""
    (project / "fixed").touch()
    pytest_run(project, "-k", "b1", record=True)
    assert json.loads((project / "costs.json").read_text()) == {"test_b.py": [50.0, 40.0]}, "a -k run recorded"
    out = pytest_run(project, "-m", "not slow", record=True)
    whole, slow = json.loads((project / "costs.json").read_text())["test_b.py"]
    assert slow == 40.0 and whole >= 40.6, f"test_b.py recorded [{whole}, {slow}] from a quick run\n{out}"


def test_a_long_browser_file_is_spread_over_the_workers(project):
    """Under ``-n 2 --dist loadfile`` the two tests of a browser file split by test (suite_order.BY_TEST) run on two
    workers, and a browser file's ``[lab]`` and ``[notebook]`` tests on two: each file was one unit, one worker's
    (suite34a). xdist hands each worker one unit, then one more, in the order collected (no costs recorded for these):
    models and silhouette first, then lab and notebook. (Ten minutes' bound: three Pythons start at a loaded CI
    machine's pace.)"""
    browser = project / "tests" / "browser"
    browser.mkdir(parents=True)
    record = ("import os\nfrom pathlib import Path\n\n"
              "def ran(name):\n    with open(Path(__file__).parent / 'workers.txt', 'a') as f:\n"
              "        f.write(f\"{name} {os.environ['PYTEST_XDIST_WORKER']}\\n\")\n")
    (browser / "test_threejs.py").write_text(record + "\ndef test_models():\n    ran('models')\n\n"
                                             "def test_silhouette():\n    ran('silhouette')\n")
    (browser / "test_viewer_layout.py").write_text(
        record + "\nimport pytest\n\n@pytest.mark.parametrize('page', ['lab', 'notebook'])\n"
                 "def test_face(page):\n    ran(page)\n")
    out = pytest_run(project, "-p", "xdist.plugin", "-n", "2", "--dist", "loadfile", "tests/browser", timeout=600)
    assert "4 passed" in out, out
    ran = dict(line.split() for line in (browser / "workers.txt").read_text().splitlines())
    assert set(ran) == {"models", "silhouette", "lab", "notebook"}, ran
    assert ran["models"] != ran["silhouette"] and ran["lab"] != ran["notebook"], f"each test's worker: {ran}\n{out}"


def test_the_split_browser_files_are_what_the_split_assumes():
    """suite_order's APPS is tests/browser/viewer_page.py's (copied, not imported: that module loads the browser
    helpers), and every file it splits exists; test_viewer_reopened.py, whose tests take the app as their own
    parameter beside an app-blind module fixture, is handed out whole (the code review of pass 34, finding 1)."""
    tree = ast.parse((suite_order.ROOT / "tests" / "browser" / "viewer_page.py").read_text())
    apps = next(ast.literal_eval(node.value) for node in tree.body if isinstance(node, ast.Assign)
                and any(getattr(t, "id", None) == "APPS" for t in node.targets))
    assert tuple(apps) == suite_order.APPS
    assert all((suite_order.ROOT / f).is_file() for f in suite_order.BY_APP | suite_order.BY_TEST)
    reopened = "tests/browser/test_viewer_reopened.py"
    assert suite_order.unit(f"{reopened}::test_x[lab]") == suite_order.unit(f"{reopened}::test_x[notebook]") == reopened
