"""workbench tour / check as regression tests a CI system reads: parameters injected, a changed picture
caught with its difference image, JUnit XML, and notebooks run several at once with no shared state."""

from __future__ import annotations

import base64
import io
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import nbformat
import pytest
from conftest import ROOT
from helpers import cli_in_process, tagged_notebook
from PIL import Image

from workbench.runner.nbcheck.params import ParameterError, declared, parse_params
from workbench.runner.tour import run_tour

pytestmark = pytest.mark.slow  # each test runs notebooks through kernels (the tour), one a pytest -n 2 of nbval

CHART = '''
import io
from PIL import Image
from IPython.display import Image as Show
im = Image.new("RGB", (64, 48), {colour})
buf = io.BytesIO(); im.save(buf, "PNG")
Show(buf.getvalue())
'''


def _notebook(folder: Path, name: str, cells: list[tuple[str, str, list[str]]], *, executed: bool = False) -> Path:
    """A notebook of (kind, source, tags) cells; ``executed``: run once, so its saved outputs are real (the tour
    compares the pictures of cells tagged image-check with them; a notebook without such a cell needs no kernel)."""
    from nbclient import NotebookClient

    from workbench.runner.kernels import async_manager

    nb = tagged_notebook(cells)
    if executed:
        NotebookClient(nb, kernel_name="python3", allow_errors=True, kernel_manager_class=async_manager()).execute()
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    nbformat.write(nb, path)
    return path


def _png_of(cell) -> Image.Image:
    data = next(o["data"]["image/png"] for o in cell["outputs"] if "image/png" in o.get("data", {}))
    return Image.open(io.BytesIO(base64.b64decode(data)))


def test_params_are_parsed_as_literals_and_a_name_no_notebook_declares_is_refused(tmp_path, capsys):
    assert parse_params(["size=128", "who='Ada'", "ids=[1, 2]", "name=plain text"]) == {
        "size": 128, "who": "Ada", "ids": [1, 2], "name": "plain text"}
    with pytest.raises(ParameterError, match="NAME=VALUE"):
        parse_params(["no equals sign"])
    _notebook(tmp_path / "nb", "p.ipynb", [("code", "size = 64\ncolour = 'red'", ["parameters"]),
                                          ("code", "print(size, colour)", [])])
    assert declared(nbformat.read(tmp_path / "nb" / "p.ipynb", 4)) == ["size", "colour"]
    # refused before any notebook runs: the command's main in process, no new interpreter
    done = cli_in_process(capsys, "tour", "--notebooks", str(tmp_path / "nb"), "--out", str(tmp_path / "out"),
                          "--param", "sise=3")
    assert done.returncode == 2
    assert "sise is not a parameter of these notebooks; their parameters are colour, size" in done.stderr
    assert "Traceback" not in done.stderr


def test_a_param_runs_the_same_notebook_with_another_value(tmp_path):
    _notebook(tmp_path / "nb", "p.ipynb", [("code", "size = 64", ["parameters"]),
                                          ("md", "## Show", []),
                                          ("code", "print('size is', size)", [])])
    assert run_tour(tmp_path / "out", notebooks=tmp_path / "nb", params={"size": 512}) == 0
    ran = nbformat.read(tmp_path / "out" / "p.ipynb", 4)
    assert "injected-parameters" in ran.cells[1].metadata["tags"]
    assert ran.cells[-1].outputs[0]["text"] == "size is 512\n"
    assert "size is 512" in (tmp_path / "out" / "p.html").read_text()
    # The report's index: the notebook passed, linked to its page.
    index = (tmp_path / "out" / "index.html").read_text()
    assert "p.html" in index and "pass" in index and "1 of 1 notebooks passed" in index


def test_a_changed_picture_fails_with_its_difference_image_in_the_junit_report(tmp_path):
    nb_path = _notebook(tmp_path / "nb", "chart.ipynb", [
        ("md", "# A chart", []),
        ("code", CHART.format(colour="(40, 120, 200)"), ["image-check"]),
        ("md", "## Unchecked picture", []),
        ("code", CHART.format(colour="(0, 0, 0)"), []),
        ("md", "## Text", []),
        ("code", "print('fine')", [])], executed=True)
    assert run_tour(tmp_path / "same", notebooks=tmp_path / "nb") == 0  # an unchanged run passes
    # the saved notebook now holds another picture: as if the renderer had turned every avatar green
    nb = nbformat.read(nb_path, 4)
    nb.cells[1].outputs = nbformat.read(nb_path, 4).cells[1].outputs
    green = io.BytesIO()
    Image.new("RGB", (64, 48), (40, 200, 60)).save(green, "PNG")
    next(o for o in nb.cells[1].outputs if "image/png" in o.get("data", {}))["data"]["image/png"] = \
        base64.b64encode(green.getvalue()).decode()
    nbformat.write(nb, nb_path)
    out = tmp_path / "changed"
    assert run_tour(out, notebooks=tmp_path / "nb") == 1
    root = ET.parse(out / "junit.xml").getroot()
    assert root.tag == "testsuites" and root.get("failures") == "1"
    suite = root.find("testsuite[@name='chart']")
    cases = {c.get("name"): c for c in suite.findall("testcase")}
    assert set(cases) == {"A chart", "Unchecked picture", "Text"}
    failure = cases["A chart"].find("failure")
    assert failure is not None and cases["Text"].find("failure") is None
    assert cases["Unchecked picture"].find("failure") is None  # not tagged: not compared
    diff_path = Path(failure.text.split("expected | actual | difference: ")[1].splitlines()[0])
    assert diff_path.exists() and diff_path.parent == out / "image-diffs"
    with Image.open(diff_path) as im:
        assert im.width > 3 * 64  # expected, actual and difference side by side
    assert "100.00% of pixels differ" in failure.text
    index = (out / "index.html").read_text()
    assert "FAIL" in index and f"image-diffs/{diff_path.name}" in index
    operations = root.find("testsuite[@name='operations']")
    assert operations is not None and len(operations.findall("testcase")) > 5


def test_the_cli_exits_1_and_names_the_junit_file(tmp_path):
    _notebook(tmp_path / "nb", "boom.ipynb", [("md", "## Fails", []), ("code", "1 / 0", [])])
    done = subprocess.run([sys.executable, "-m", "workbench.cli", "tour", "--notebooks", str(tmp_path / "nb"),
                           "--out", str(tmp_path / "out")], capture_output=True, text=True, timeout=120,
                          env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})
    assert done.returncode == 1
    assert "junit.xml" in done.stdout
    failure = ET.parse(tmp_path / "out" / "junit.xml").getroot().find(".//testcase[@name='Fails']/failure")
    assert "ZeroDivisionError" in failure.get("message")


STATE = """
import time
import workbench
client = workbench.connect()
viewer = client.local.create_viewer("product")["viewerToken"]
client.tracking.send_batch(viewer, "s", [{"key": "heartbeat", "payload": {"visible": True}}])
time.sleep(1.5)   # long enough for the other notebooks to run meanwhile
stored = len(client.local.events())
print(stored)
assert stored == 1, stored
"""


def test_jobs_run_notebooks_at_once_each_on_its_own_service(tmp_path):
    # two notebooks at once show what three did: each sees only its own service's viewer, and sharing one fails
    for name in ("a.ipynb", "b.ipynb"):
        _notebook(tmp_path / "nb", name, [("code", "x = 1", [])])
        nb = nbformat.read(tmp_path / "nb" / name, 4)
        nb.cells.append(nbformat.v4.new_code_cell(STATE))
        nbformat.write(nb, tmp_path / "nb" / name)
    assert run_tour(tmp_path / "out", notebooks=tmp_path / "nb", jobs=2) == 0
    runs = {p.name: nbformat.read(p, 4) for p in (tmp_path / "out").glob("*.ipynb")}
    printed = ["".join(o.get("text", "") for o in nb.cells[-1].outputs if o.get("name") == "stdout")
               for nb in runs.values()]
    assert len(runs) == 2 and all(text.endswith("\n1\n") or text == "1\n" for text in printed), printed
    # one shared service: the notebooks see each other's viewers, so the same check fails
    assert run_tour(tmp_path / "shared", notebooks=tmp_path / "nb", jobs=2, shared_service=True) == 1


def test_pytest_n_keeps_each_notebooks_cells_on_one_worker(tmp_path):
    pytest.importorskip("xdist")
    # Every cell needs the one before it, in the same kernel; saved unexecuted (--nbval-lax compares no outputs
    # here), so no kernel starts before the run under test. One notebook is enough: xdist's "load" hands its four
    # cells out two to each worker (the third then finds no x); a second notebook cost a kernel and proved no more.
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(s) for s in
                                         ("x = 1", "x += 1", "x += 1", "assert x == 3")])
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nbformat.write(nb, tmp_path / "one.ipynb")
    (tmp_path / "pytest.ini").write_text("[pytest]\n", encoding="utf-8")
    # On a busy machine (the whole suite under -n auto on 2 cores) this run took minutes, nearly all of it
    # the controller and its two workers importing every installed pytest plugin (schemathesis, hypothesis,
    # ...), and its kernels sat on TCP ports that anything starting meanwhile could take. So: only the
    # plugins the run needs, nbval's kernels on Unix sockets as the project's own runs have them
    # (--nbimages, pyproject's addopts), and no bound of its own but pytest's timeout for this test.
    plugins = ["-p", "xdist.plugin", "-p", "nbval.plugin", "-p", "workbench.runner.nbcheck.pytest_plugin"]
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *plugins,
                           "--nbval-lax", "--nbimages", "-n", "2", str(tmp_path)],
                          cwd=tmp_path, capture_output=True, text=True,
                          env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin", "HOME": str(tmp_path),
                               "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"})
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    assert "4 passed" in done.stdout
