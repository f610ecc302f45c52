"""The notebooks against a deployment: a `workbench serve` started here on a free loopback port.

nbval runs every notebook against a service it starts in the kernel (the default target, over loopback HTTP); these
tests run two small notebooks that tag every operation of the interface through `workbench check` against the
deployment, read the report it writes (the tour's pages), and run one project notebook against a deployment without
the control API. No cell may come near its timeout.
"""

from __future__ import annotations

import json

import nbformat
import pytest
from conftest import ROOT, ServerProcess
from helpers import tagged_notebook

from workbench.runner.execute import CELL_TIMEOUT
from workbench.runner.tour import OPERATIONS, run_check, run_notebook

pytestmark = pytest.mark.slow  # notebooks run through `workbench check` and the tour


def slowest_cell(out) -> tuple[float, str]:
    """(seconds, which) of the slowest cell of the notebooks executed into ``out``, on the runner's clock
    (a stall included)."""
    cells = [(c.metadata["workbench"]["seconds"], f"{p.name} cell {i}") for p in out.glob("*.ipynb")
             for i, c in enumerate(nbformat.read(p, 4).cells) if "workbench" in c.metadata]
    assert cells, f"no cell times in {out}"
    return max(cells)


@pytest.fixture(scope="module")
def deployment(tmp_path_factory):
    srv = ServerProcess(tmp_path_factory.mktemp("deploy") / "data").start()
    yield srv
    srv.stop()


# Two small notebooks that tag every operation of the interface (op:NAME) once or more, as the project's do, and show
# what the report must carry: a purpose, a last picture, a turntable GIF, a widget with a still (the preview
# explorer) and one without (the model explorer), and fault cells that skip against a deployment. The runner's own
# behaviour (every notebook run over HTTP against the deployment the URLs name, the operations judged from the
# tagged cells, JUnit, the index and pages) is the same for two notebooks as for six. The project's notebooks
# themselves each run once, under nbval: `workbench.connect()` there starts the service on a loopback port and every
# operation goes over real HTTP (01 to 06: register, model, preview, animations, regenerate, finish-upload,
# tracking batches); tests/client and tests/service hold each operation to the interface over HTTP as well.
SETUP = "import workbench\nclient = workbench.connect()\nLOCAL = client.local.available"
FAULT_SKIP = ("elif LOCAL:\n    print('[skipped: faults are armed only in a service this run started (WORKBENCH_FAULTS=off)]')\n"
              "else:\n    print('[skipped: needs the local control API]')")
CHECKED = {
    "a_avatars": [
        ("md", "# A · Avatars\n\n**What this shows:** every avatar operation of a deployment. Then more.", []),
        ("code", SETUP, []),
        ("code", "mid = client.avatars.register({'gender': 'feminine', 'height': 164}).model_id", ["op:avatars.register"]),
        ("code", "model = client.avatars.model(mid, lod=2)\nprint(model.content[:4])", ["op:avatars.model"]),
        ("code", "if client.local.can_inject_faults:\n    client.local.fault('model.generate', count=1)\n"
                 "    client.with_options(retries=0).avatars.model(mid, lod=1)\n" + FAULT_SKIP, ["op:avatars.model"]),
        ("code", "library = client.animations.list()\nclip = client.animations.download('feminine', library.feminine[0])\n"
                 "print(clip.content[:4])", ["op:animations.list", "op:animations.download"]),
        ("code", "from workbench.widgets import ModelExplorer\nModelExplorer(client, mid)", ["op:avatars.model"]),
        ("code", "from IPython.display import Image as Show\nfrom workbench.render import turntable\n"
                 "Show(data=turntable(model.content, frames=2, size=48, camera='full', fmt='gif'), format='gif')", []),
        ("code", "from workbench.widgets import PreviewExplorer\nPreviewExplorer(client, mid, size=64, camera='full')",
         ["op:avatars.preview"]),
    ],
    "b_viewers_spaces_tracking": [
        ("md", "# B · Viewers, spaces and tracking\n\n**What this shows:** the other operations.", []),
        ("code", SETUP, []),
        ("code", "viewer = client.local.create_viewer('product')['viewerToken']\njob = client.viewers.regenerate(viewer)\n"
                 "print(job.state)", ["op:viewers.regenerate"]),
        ("code", "if client.local.can_inject_faults:\n    client.local.fault('viewers.job', count=1)\n" + FAULT_SKIP,
         ["op:viewers.regenerate"]),
        ("code", "space = client.local.create_space('glb')['spaceTemplateId']\n"
                 "print(client.spaces.finish_upload(space, success=False, message='closed').state)", ["op:spaces.finish_upload"]),
        ("code", "sent = client.tracking.send_batch(viewer, 'visit-1', [{'key': 'heartbeat', 'payload': {'visible': True}}])\n"
                 "assert sent.accepted == 1", ["op:tracking.send_batch"]),
    ],
}


def _write_notebook(path, cells) -> None:
    nb = tagged_notebook(cells)
    nbformat.write(nb, path)


# A bound on the whole on a machine others share (a stall shows as a cell near its timeout, checked below). The
# CPU is not made busier here: a stall of an Output widget filled in its own cell (the explorers of 01 and 03,
# issue 29) is shown with the CPU busy by tests/runner/test_notebook_runs.py over forty such cells.
@pytest.mark.timeout(900)
def test_check_runs_the_notebooks_every_operation_conforms_and_the_report_is_a_page_a_newcomer_opens(deployment, tmp_path):
    """Every operation conforms over real HTTP; the report: each notebook's purpose and a thumbnail of its last
    picture on the index, a turntable GIF and the preview explorer's still on the notebook's page (nbconvert
    drops GIFs and widgets), a widget without a still kept as the widget."""
    nb_dir = tmp_path / "nb"
    nb_dir.mkdir()
    for name, cells in CHECKED.items():
        _write_notebook(nb_dir / f"{name}.ipynb", cells)
    out = tmp_path / "check"
    rc = run_check(out, base_url=deployment.base_url, avatar_base_url=deployment.avatar_base_url,
                   token=deployment.token, notebooks=nb_dir)
    seconds, where = slowest_cell(out)
    assert seconds < CELL_TIMEOUT / 2, f"{where} took {seconds:.0f} s of a {CELL_TIMEOUT} s timeout"
    conf = json.loads((out / "conformance.json").read_text())
    assert {op: v["verdict"] for op, v in conf.items()} == {op: "conforms" for op in OPERATIONS}, conf
    assert rc == 0
    # the same verdicts for CI: a passing case per operation, a case per group of cells of every notebook
    import xml.etree.ElementTree as ET

    junit = ET.parse(out / "junit.xml").getroot()
    assert junit.get("failures") == "0"
    operations = {c.get("name") for c in junit.find("testsuite[@name='operations']").findall("testcase")}
    assert operations == set(OPERATIONS)
    assert {s.get("name") for s in junit.findall("testsuite")} >= set(CHECKED)
    index = (out / "index.html").read_text()
    assert "FAIL" not in index and len(list(out.glob("*.html"))) == len(CHECKED) + 1
    # The fault cells skipped (counted as skipped), so the person's own service logged no injected failure.
    assert conf["avatars.model"]["skipped"] >= 1 and conf["viewers.regenerate"]["skipped"] >= 1
    log = (deployment.data_dir.parent / f"serve-{deployment.port}.log").read_text()
    assert "Traceback" not in log and "injected fault" not in log, log[-2000:]
    # The report a newcomer opens (write_index and the pages are the tour's as well as the check's).
    assert "A · Avatars: every avatar operation of a deployment." in index
    assert "<img class=thumb src='data:image/png;base64," in index
    page = (out / "a_avatars.html").read_text()
    assert "data:image/gif;base64,R0lGOD" in page  # the turntable, as an image the page shows
    assert "IPython.core.display.Image object" not in page
    ran = json.loads((out / "a_avatars.ipynb").read_text())
    explorer = [o for c in ran["cells"] if "PreviewExplorer(client" in "".join(c["source"]) for o in c.get("outputs", [])]
    assert explorer and all("image/png" in o["data"] and "application/vnd.jupyter.widget-view+json" not in o["data"]
                            for o in explorer if "data" in o)  # the widget's still, drawn on the page
    # the model explorer ran, its cell answered with the widget (it has no still of its own)
    assert [o for c in ran["cells"] if "ModelExplorer(client" in "".join(c["source"]) for o in c.get("outputs", [])
            if "application/vnd.jupyter.widget-view+json" in o.get("data", {})]


def test_without_control_api_cells_skip_visibly(deployment, tmp_path, monkeypatch):
    env = {"WORKBENCH_BASE_URL": deployment.base_url, "WORKBENCH_AVATAR_BASE_URL": deployment.avatar_base_url,
           "WORKBENCH_TOKEN": deployment.token, "WORKBENCH_LOCAL_URL": "none"}
    run = run_notebook(ROOT / "notebooks" / "05_space_templates.ipynb", tmp_path, env)
    assert run.ok, run.error
    assert run.skipped_local >= 3


def test_check_stops_in_seconds_on_a_setup_problem(deployment, tmp_path, capsys):
    from conftest import free_port

    nowhere = f"http://127.0.0.1:{free_port()}"
    assert run_check(tmp_path / "a", base_url=nowhere + "/api", avatar_base_url=nowhere + "/avatars", token="wb_x") == 3
    assert "cannot reach" in capsys.readouterr().out
    assert run_check(tmp_path / "b", base_url=deployment.base_url, avatar_base_url=deployment.avatar_base_url,
                     token="wb_bogus") == 3
    assert "does not accept the token" in capsys.readouterr().out
    assert run_check(tmp_path / "c", base_url=deployment.avatar_base_url, avatar_base_url=deployment.avatar_base_url,
                     token=deployment.token) == 3
    assert "--base-url" in capsys.readouterr().out
    assert not (tmp_path / "a").exists() and not (tmp_path / "b").exists()  # no notebook ran


def test_a_scope_the_token_lacks_is_named(deployment):
    import httpx

    from workbench.runner.probe import probe

    token = httpx.post(deployment.local_url + "/tokens", json={"scopes": ["avatar:write", "space:write"]}).json()["data"]["token"]
    found = probe(deployment.base_url, deployment.avatar_base_url, token)
    assert found.scopes == {"viewer:write": False, "space:write": True}
    assert any("lacks the scope viewer:write" in p for p in found.problems)
    assert probe(deployment.base_url, deployment.avatar_base_url, deployment.token).ok


def test_skipped_cells_are_not_counted_as_passes():
    from workbench.runner.tour import NotebookRun, conformance

    runs = [NotebookRun("a", True, 1.0, 3, op_results={"viewers.regenerate": [True, None], "tracking.send_batch": [None]})]
    conf = conformance(runs)
    assert conf["viewers.regenerate"] == {"verdict": "conforms", "cells": 2, "passed": 1, "failed": 0, "skipped": 1}
    assert conf["tracking.send_batch"]["verdict"] == "not exercised"
