"""A notebook with a 3D viewer, executed and exported to HTML as README says, shows the viewer's picture.

nbconvert's HTML shows a widget from its saved state through the jupyter-widgets HTML manager,
which it loads from a CDN: offline, a blank. Exported without the widget state
(``--ExecutePreprocessor.store_widget_state=False``, README's command), each viewer's output is
its still (the ``image/png`` beside the widget view), embedded in the page: no host is asked.
The tour's report does the same for its pages (workbench/runner/execute.py). Saved with its widget
state (as nbclient and JupyterLab's "save widget state" do), a viewer keeps its last picture there
and a small loader as its module, not a copy of three.js.
"""

from __future__ import annotations

import base64
import io
import os
import re
import shutil
import subprocess
import sys
import tempfile

import nbformat
import numpy as np
import pytest
from PIL import Image

from conftest import ROOT
from workbench.runner import kernels

pytest.importorskip("anywidget")

CELL = """\
from workbench.render.testing import tiny_rig_glb
from workbench.widgets import AvatarViewer
AvatarViewer(tiny_rig_glb(), size=96, yaw=30)"""


def test_the_exported_html_shows_the_viewers_picture_offline(tmp_path):
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(CELL)])
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nbformat.write(nb, tmp_path / "viewer.ipynb")
    runtime = tempfile.mkdtemp(prefix="wbk-")  # short: the kernel's sockets go there (workbench.runner.kernels)
    done = subprocess.run([sys.executable, "-m", "jupyter", "nbconvert", "--to", "html", "--execute",
                           "--ExecutePreprocessor.store_widget_state=False", *kernels.options(), "viewer.ipynb"],
                          cwd=tmp_path, capture_output=True, text=True, timeout=300,
                          env={**{k: v for k, v in os.environ.items() if not k.startswith("WORKBENCH_")},
                               "PYTHONPATH": str(ROOT), "JUPYTER_RUNTIME_DIR": runtime})
    shutil.rmtree(runtime, ignore_errors=True)
    assert done.returncode == 0, done.stderr[-2000:]
    html = (tmp_path / "viewer.html").read_text()
    assert "application/vnd.jupyter.widget-view+json" not in html and "embed-amd.js" not in html
    pictures = re.findall(r'<img[^>]+src="data:image/png;base64,([^"]+)"', html)
    assert len(pictures) == 1, "the viewer's output is not one embedded picture"
    still = np.asarray(Image.open(io.BytesIO(base64.b64decode(pictures[0]))).convert("RGBA"))
    assert still.shape == (96, 96, 4)
    figure = (np.abs(still.astype(int) - still[0, 0]).sum(-1) > 60).mean()
    assert 0.02 < figure < 0.9, f"a blank picture ({figure:.1%} of it differs from its corner)"


def test_a_notebook_saved_with_widget_state_keeps_a_picture_and_no_copy_of_three_js(tmp_path):
    from nbclient import NotebookClient

    from workbench.widgets.viewer import bundle_path

    if bundle_path() is None:
        pytest.skip("the three.js bundle is not built here (npm ci && npm run build)")
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(CELL)])
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    NotebookClient(nb, timeout=300, kernel_name="python3", kernel_manager_class=kernels.async_manager()).execute()  # stores the widget state, as tools/build_notebooks.py
    nbformat.write(nb, tmp_path / "saved.ipynb")
    states = nb.metadata["widgets"]["application/vnd.jupyter.widget-state+json"]["state"]
    viewer, = [s for s in states.values() if s["state"].get("_anywidget_id", "").endswith("AvatarViewer")]
    assert len(viewer["state"]["_esm"]) < 4000, "the saved state holds the three.js bundle"
    frame, = [b for b in viewer.get("buffers", []) if b["path"] == ["frame"]]
    still = Image.open(io.BytesIO(base64.b64decode(frame["data"])))
    assert still.size == (96, 96)  # the picture a page shows without a kernel (js/viewer/loader.js)
    assert (tmp_path / "saved.ipynb").stat().st_size < 200_000
