"""The notebook image plugin (workbench/runner/nbcheck, ``--nbimages``) on small generated notebooks run by nbval.

Each notebook is written with nbformat: a code cell draws a PNG with PIL and shows it through
IPython.display, and the "saved" output beside it is made here, so a test chooses how the saved
picture differs from the one the kernel will draw without running the notebook twice. Each run
starts one kernel (about 2 s), so each test runs one or two small notebooks.
"""

from __future__ import annotations

import base64
import os
import re
import tomllib
from pathlib import Path

import nbformat
import pytest

from workbench.runner.nbcheck import Tolerance, compare_png, mask
from workbench.runner.nbcheck.images import png
from workbench.runner.nbcheck.pytest_plugin import Settings, check_images

pytestmark = pytest.mark.slow  # nbval runs each test's notebooks in a kernel

pytest_plugins = ["pytester"]

ROOT = Path(__file__).resolve().parents[2]
PLUGIN = "workbench.runner.nbcheck.pytest_plugin"
WHITE, BLUE = (255, 255, 255), (40, 70, 200)
SIZE = (100, 100)

DRAW = """import io
from PIL import Image as PILImage
from IPython.display import Image, display
buf = io.BytesIO()
PILImage.new("RGB", {size}, {color}).save(buf, "PNG")
display(Image(buf.getvalue()))"""


def picture_cell(saved: bytes, color=WHITE, tags=(), metadata=None) -> nbformat.NotebookNode:
    """A cell that draws ``color`` when run, saved with ``saved`` as its output."""
    cell = nbformat.v4.new_code_cell(DRAW.format(size=SIZE, color=color), execution_count=1)
    cell.metadata.tags = ["nbval-check-output", *tags]
    cell.metadata.update(metadata or {})
    cell.outputs = [nbformat.v4.new_output("display_data", data={
        "image/png": base64.b64encode(saved).decode(), "text/plain": "<IPython.core.display.Image object>"})]
    return cell


def notebook(pytester: pytest.Pytester, *cells: nbformat.NotebookNode, name: str = "pictures") -> Path:
    nb = nbformat.v4.new_notebook(cells=list(cells))
    nb.metadata.kernelspec = {"name": "python3", "display_name": "Python 3", "language": "python"}
    path = pytester.path / f"{name}.ipynb"
    nbformat.write(nb, path)
    return path


def run(pytester: pytest.Pytester, *args: str) -> pytest.RunResult:
    return pytester.runpytest("-p", PLUGIN, "-p", "no:cacheprovider", "--nbval-lax", "--nbval-current-env", *args)


# ---------------------------------------------------------------- through nbval

def test_an_unchanged_picture_passes_even_encoded_otherwise(pytester):
    # Saved as RGBA at another compression: other bytes, the same pixels (a byte comparison fails here).
    saved = png(SIZE, WHITE + (255,))
    assert saved != png(SIZE, WHITE)
    notebook(pytester, picture_cell(saved))
    result = run(pytester, "--nbimages")
    result.assert_outcomes(passed=1)
    result.stdout.fnmatch_lines(["nbimages: threshold 16, max_fraction 0.002, max_rms 2; failures to *"])


def test_another_background_fails_and_names_its_picture(pytester):
    notebook(pytester, picture_cell(png(SIZE, BLUE)))
    result = run(pytester, "--nbimages")
    result.assert_outcomes(failed=1)
    text = result.stdout.str()
    assert "100.00% of pixels differ by more than 16/255 (max 0.20%), RMS " in text
    path = Path(re.search(r"expected \| actual \| difference: (\S+\.png)", text).group(1))
    assert path.parent == pytester.path / ".nbimages" and path.exists()
    from PIL import Image

    with Image.open(path) as im:
        im = im.convert("RGB")
        # three panels of 100 px with 4 px between them, under a 16 px row of labels
        assert im.size == (3 * 100 + 2 * 4, 16 + 100)
        expected, actual, difference = (im.getpixel((x + 50, 16 + 50)) for x in (0, 104, 208))
    assert expected == BLUE and actual == WHITE and difference == (255, 0, 255)


def test_one_pixel_under_the_tolerance_passes_and_fails_without_it(pytester):
    notebook(pytester, picture_cell(png(SIZE, WHITE, dot=(128, 128, 128))))
    run(pytester, "--nbimages").assert_outcomes(passed=1)
    run(pytester, "--nbimages", "--nbimages-max-fraction", "0").assert_outcomes(failed=1)


def test_a_cells_own_limits_win_over_the_runs(pytester):
    dotted = png(SIZE, WHITE, dot=(128, 128, 128))
    notebook(pytester,
             picture_cell(dotted, metadata={"workbench": {"image": {"max_fraction": 0.01}}}),
             picture_cell(dotted, tags=["image-tolerance=0.01"]),
             picture_cell(dotted))
    result = run(pytester, "--nbimages", "--nbimages-max-fraction", "0", "-v")
    result.assert_outcomes(passed=2, failed=1)
    result.stdout.fnmatch_lines(["*Cell 0 PASSED*", "*Cell 1 PASSED*", "*Cell 2 FAILED*"])


def test_users_notebooks_are_not_compared_unless_asked(pytester):
    notebook(pytester, picture_cell(png(SIZE, BLUE)))
    run(pytester).assert_outcomes(passed=1)
    pytester.makeini("[pytest]\nnbimages = true\n")
    run(pytester).assert_outcomes(failed=1)


WIDGET = """import datetime, time
import ipywidgets as W
t0 = time.perf_counter()
s = W.IntSlider(value=3, description="size")
display(s)
print(s.get_state()["layout"], {"model_id": s.model_id})
print("at", datetime.datetime.now().isoformat(), f"in {time.perf_counter() - t0 + 1:.4f} s")"""


def test_a_live_widget_compares_cleanly_run_after_run(pytester):
    cell = nbformat.v4.new_code_cell(WIDGET, execution_count=1)
    cell.metadata.tags = ["nbval-check-output"]
    cell.outputs = [
        nbformat.v4.new_output("display_data", data={
            "application/vnd.jupyter.widget-view+json": {"model_id": "0" * 32, "version_major": 2, "version_minor": 0},
            "text/plain": "IntSlider(value=3, description='size')"}),
        nbformat.v4.new_output("stream", name="stdout", text=(
            "IPY_MODEL_" + "1" * 32 + " {'model_id': '" + "2" * 32 + "'}\n"
            "at 2026-01-02T03:04:05.678901 in 1.2345 s\n")),
    ]
    notebook(pytester, cell)
    run(pytester).assert_outcomes(failed=1)  # nbval alone: the ids, the time and the duration differ
    run(pytester, "--nbimages").assert_outcomes(passed=1)


# ---------------------------------------------------------------- the pieces

def test_nbvals_kernels_talk_over_unix_sockets(pytester):
    """Under --nbimages nbval's kernels take no TCP port another process could take first
    (workbench.runner.kernels); the cell's saved output is what it prints on a Unix socket."""
    cell = nbformat.v4.new_code_cell("import json, ipykernel.connect as c\n"
                                     "print(json.load(open(c.get_connection_file()))['transport'])", execution_count=1)
    cell.metadata.tags = ["nbval-check-output"]
    cell.outputs = [nbformat.v4.new_output("stream", name="stdout", text="ipc\n" if os.name == "posix" else "tcp\n")]
    notebook(pytester, cell, name="transport")
    run(pytester, "--nbimages").assert_outcomes(passed=1)


def test_compare_png_reports_a_size_change_and_transparency():
    d = compare_png(png((10, 10), WHITE), png((10, 12), WHITE))
    assert not d.passed and d.fraction is None and d.size_mismatch == "size differs: expected 10x10, got 10x12"
    assert d.side_by_side().size == (10 + 10 + 10 + 8, 16 + 12)
    clear = compare_png(png((10, 10), WHITE + (255,)), png((10, 10), WHITE + (0,)))
    assert clear.fraction == 1.0 and not clear.passed


def test_limits_are_checked():
    with pytest.raises(ValueError, match="max_fraction is a share of pixels"):
        Tolerance(max_fraction=2)
    with pytest.raises(ValueError, match="unknown setting"):
        Tolerance().with_(max_rsm=1)


def test_an_nbval_without_what_the_plugin_reads_is_named(tmp_path):
    class NotNbvalsCell:
        name = "Cell 0"

    with pytest.raises(RuntimeError, match=r"IPyNbCell\.cell, IPyNbCell\.test_outputs, IPyNbCell\.options of "
                                           r"nbval's notebook items, which nbval \S+ does not have"):
        check_images(NotNbvalsCell(), Settings(Tolerance(), tmp_path))


def test_nbval_has_what_the_plugin_reads():
    import inspect

    from nbval.plugin import IPyNbCell, IPyNbFile

    init, run_cell = inspect.getsource(IPyNbCell.__init__), inspect.getsource(IPyNbCell.runtest)
    assert "self.cell = cell" in init and "self.options = options" in init
    assert "self.test_outputs = outs" in run_cell
    assert "self.skip_compare" in inspect.getsource(IPyNbFile.__init__)


def test_the_project_turns_the_plugin_on_and_keeps_each_mask_in_one_place():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    addopts = project["tool"]["pytest"]["ini_options"]["addopts"].split()
    plugins = [addopts[i + 1] for i, opt in enumerate(addopts[:-1]) if opt == "-p"]   # (the IRI plugin loads first)
    assert "--nbimages" in addopts and PLUGIN in plugins
    assert project["project"]["entry-points"]["pytest11"] == {PLUGIN: PLUGIN}
    # notebooks/sanitize.cfg keeps what only this project prints; none of its rules is one of the masks.
    own = re.findall(r"^regex: (.*)$", (ROOT / "notebooks" / "sanitize.cfg").read_text(), re.MULTILINE)
    from workbench.runner.nbcheck import MASKS

    assert not set(own) & {regex for _, regex, _ in MASKS}
    assert mask("took 12 ms") == "took DURATION"
