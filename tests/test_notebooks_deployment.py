"""The notebooks against a deployment: a `workbench serve` started here on a free loopback port.

nbval runs them in-process (the default target); these tests run the same notebooks through
`workbench check` against real HTTP, and once as a deployment without the control API.
"""

from __future__ import annotations

import json
import shutil

import pytest

from conftest import ROOT, ServerProcess
from workbench.tour import OPERATIONS, run_check, run_notebook, run_tour


@pytest.fixture(scope="module")
def deployment(tmp_path_factory):
    srv = ServerProcess(tmp_path_factory.mktemp("deploy") / "data").start()
    yield srv
    srv.stop()


def test_check_runs_every_notebook_and_every_operation_conforms(deployment, tmp_path):
    out = tmp_path / "check"
    rc = run_check(out, base_url=deployment.base_url, avatar_base_url=deployment.avatar_base_url, token=deployment.token)
    conf = json.loads((out / "conformance.json").read_text())
    assert {op: v["verdict"] for op, v in conf.items()} == {op: "conforms" for op in OPERATIONS}
    assert rc == 0
    index = (out / "index.html").read_text()
    assert "FAIL" not in index and len(list(out.glob("*.html"))) == len(list((ROOT / "notebooks").glob("*.ipynb"))) + 1


def test_without_control_api_cells_skip_visibly(deployment, tmp_path, monkeypatch):
    env = {"WORKBENCH_BASE_URL": deployment.base_url, "WORKBENCH_AVATAR_BASE_URL": deployment.avatar_base_url,
           "WORKBENCH_TOKEN": deployment.token, "WORKBENCH_LOCAL_URL": "none"}
    run = run_notebook(ROOT / "notebooks" / "05_space_templates.ipynb", tmp_path, env)
    assert run.ok, run.error
    assert run.skipped_local >= 3


def test_tour_writes_a_report(tmp_path):
    nb_dir = tmp_path / "nb"
    nb_dir.mkdir()
    shutil.copy(ROOT / "notebooks" / "00_quickstart.ipynb", nb_dir)
    (tmp_path / "data").mkdir()
    assert run_tour(tmp_path / "tour", notebooks=nb_dir) == 0
    index = (tmp_path / "tour" / "index.html").read_text()
    assert "00_quickstart.html" in index and "pass" in index and "1 of 1 notebooks passed" in index
