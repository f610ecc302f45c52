"""A notebook with 3D viewers, executed and exported to HTML with nbconvert's plain command, shows each
viewer's picture, offline.

nbconvert's HTML draws a widget from its saved state through the jupyter-widgets HTML manager, which
it loads from a CDN (offline: a blank); where a widget's state is not saved it shows the output's other
data. A viewer's output carries its still (``image/png``) beside the widget view, and in a kernel that
``jupyter nbconvert --execute`` started (no page will ever draw: workbench/widgets/still.py, no_page)
the viewer opens no comm, so no state is saved and the page shows the stills, embedded: no host is
asked to show them. Run by nbclient itself (tools/build_notebooks.py, JupyterLab's kernels), a viewer
is a widget: the saved state keeps a small loader as its module, no copy of three.js, and no copy of
the picture the output keeps.
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
from conftest import ROOT
from PIL import Image

from workbench.runner import kernels

pytestmark = pytest.mark.slow  # notebooks run by nbconvert and nbclient (kernels)

pytest.importorskip("anywidget")

CELL = """\
from workbench.render.testing import tiny_rig_glb
from workbench.widgets import AvatarViewer
AvatarViewer(tiny_rig_glb(), size=96, yaw=30)"""
MORE_CELLS = ["""\
viewer = AvatarViewer(tiny_rig_glb(), size=64, yaw=-60)
viewer""", """\
viewer.yaw = 90
print(viewer.snapshot().size)""", """\
AvatarViewer.compare(tiny_rig_glb(), tiny_rig_glb(), size=48)"""]


def figure_share(png: bytes) -> float:
    """The share of a picture that differs from its corner: a drawn figure, not a blank."""
    still = np.asarray(Image.open(io.BytesIO(png)).convert("RGBA")).astype(int)
    return float((np.abs(still - still[0, 0]).sum(-1) > 60).mean())


def test_a_plain_nbconvert_export_shows_every_viewers_picture_offline(tmp_path):
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(c) for c in [CELL, *MORE_CELLS]])
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nbformat.write(nb, tmp_path / "viewer.ipynb")
    runtime = tempfile.mkdtemp(prefix="wbk-")  # short: the kernel's sockets go there (workbench.runner.kernels)
    done = subprocess.run([sys.executable, "-m", "jupyter", "nbconvert", "--to", "html", "--execute",
                           *kernels.options(), "viewer.ipynb"],
                          cwd=tmp_path, capture_output=True, text=True, timeout=300,
                          env={**{k: v for k, v in os.environ.items() if not k.startswith("WORKBENCH_")},
                               "PYTHONPATH": str(ROOT), "JUPYTER_RUNTIME_DIR": runtime})
    shutil.rmtree(runtime, ignore_errors=True)
    assert done.returncode == 0, done.stderr[-2000:]
    html = (tmp_path / "viewer.html").read_text()
    # No widget to draw, so no widget manager from a CDN: the pictures are in the page.
    assert "application/vnd.jupyter.widget-view+json" not in html and "widget-state+json" not in html
    assert "unpkg.com" not in html and "embed-amd.js" not in html
    pictures = re.findall(r'<img[^>]+src="data:image/png;base64,([^"]+)"', html)
    sizes = [Image.open(io.BytesIO(base64.b64decode(p))).size for p in pictures]
    assert sizes == [(96, 96), (64, 64), (96, 48)], "each viewer's output is one embedded picture"
    for p in pictures:
        assert 0.02 < figure_share(base64.b64decode(p)) < 0.9, "a blank picture"
    assert "(64, 64)" in html  # the viewer works in code as ever: its snapshot()
    # Each picture says in words what it shows, for whoever cannot see it (nbconvert warned of three without).
    assert "Alternative text is missing" not in done.stderr, done.stderr[-1000:]
    alts = [re.search(r'\salt="([^"]*)"', tag).group(1) for tag in re.findall(r'<img[^>]+data:image/png[^>]*>', html)]
    assert alts[0] == "The avatar in the 3D viewer, turned 30°, looked at from 0° above, zoom 1", alts
    assert alts[2].startswith("Two views side by side. Left: The avatar in the 3D viewer"), alts


def test_a_notebook_run_by_nbclient_keeps_the_widget_a_loader_and_one_picture(tmp_path):
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
    assert not [b for b in viewer.get("buffers", []) if b["data"]], "the state holds a copy of the picture"
    output, = nb.cells[0].outputs
    assert output["data"]["application/vnd.jupyter.widget-view+json"]["model_id"] in states
    still = base64.b64decode(output["data"]["image/png"])
    assert Image.open(io.BytesIO(still)).size == (96, 96) and 0.02 < figure_share(still) < 0.9
    assert (tmp_path / "saved.ipynb").stat().st_size < 200_000
