"""The notebooks opened in JupyterLab: `jupyter lab` starts without a yarn error from a virtual
environment inside the clone, and a notebook opened and autosaved is written back byte for byte,
so `git status` stays clean (tools/build_notebooks.py writes what Lab writes).

Lab's save path without a browser: jupytext's contents manager (the class Lab's jupytext extension
derives from jupyter_server's AsyncLargeFileManager, pairing by notebooks/jupytext.toml) reads the
notebook; the notebook panel sets what it always sets once its kernel runs (``kernelspec`` from the
server's kernel specs, ``language_info`` from the kernel's info reply); the page sends it back as
JavaScript reads JSON (whole floats as integers); the contents manager saves it.
tests/browser/test_lab_saves_notebooks.py does the same in JupyterLab itself.
"""

from __future__ import annotations

import asyncio
import difflib
import json
import shutil
import subprocess
from pathlib import Path

import pytest
from conftest import ROOT

NOTEBOOKS = ROOT / "notebooks"
SCRIPTS = sorted(NOTEBOOKS.glob("[0-9][0-9]_*.py"))


@pytest.fixture(scope="module")
def lab_metadata():
    """What Lab's notebook panel writes into every notebook it opens, once its python3 kernel is up."""
    from jupyter_client import KernelManager
    from jupyter_client.kernelspec import KernelSpecManager

    from workbench.runner.kernels import on_sockets

    spec = KernelSpecManager().get_all_specs()["python3"]["spec"]   # what /api/kernelspecs gives the page
    km = on_sockets(KernelManager)(kernel_name="python3")
    km.start_kernel()
    try:
        kc = km.client()
        kc.start_channels()
        kc.wait_for_ready(timeout=300)
        kc.kernel_info()
        reply = kc.get_shell_msg(timeout=300)
        kc.stop_channels()
    finally:
        km.shutdown_kernel(now=True)
    return {"kernelspec": {"name": "python3", "display_name": spec["display_name"], "language": spec["language"]},
            "language_info": reply["content"]["language_info"]}


def through_the_page(content: dict) -> dict:
    """The notebook as Lab's page sends it back to be saved: JSON read by JavaScript, which has one kind of
    number (``2.0`` comes back as ``2``)."""
    def number(text: str):
        value = float(text)
        return int(value) if value.is_integer() else value

    return json.loads(json.dumps(content), parse_float=number)


def _copy(script: Path, folder: Path) -> Path:
    folder.mkdir()
    for path in (script, script.with_suffix(".ipynb"), NOTEBOOKS / "jupytext.toml"):
        shutil.copy2(path, folder / path.name)
    return folder


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: p.stem)
def test_a_notebook_opened_and_saved_in_lab_is_written_back_unchanged(script, tmp_path, lab_metadata):
    from jupytext import AsyncTextFileContentsManager
    from nbformat.sign import NotebookNotary

    folder = _copy(script, tmp_path / "notebooks")
    name = script.with_suffix(".ipynb").name
    cm = AsyncTextFileContentsManager(root_dir=str(folder), notary=NotebookNotary(db_file=":memory:"))

    async def open_and_autosave():
        model = await cm.get(name)
        model["content"]["metadata"].update(json.loads(json.dumps(lab_metadata)))
        await cm.save({"type": "notebook", "content": through_the_page(model["content"])}, name)

    asyncio.run(open_and_autosave())
    for path in (script, script.with_suffix(".ipynb")):
        saved = (folder / path.name).read_text(encoding="utf-8")
        changed = list(difflib.unified_diff(path.read_text(encoding="utf-8").splitlines(), saved.splitlines(),
                                            "committed", "saved by Lab", n=1, lineterm=""))
        assert not changed, (f"saving {name} as JupyterLab does rewrote {path.name} (rebuild it with python "
                             f"tools/build_notebooks.py {script.stem[:2]}):\n" + "\n".join(changed[:40]))


def test_the_package_json_leaves_labs_yarn_as_commonjs(tmp_path):
    """Every `jupyter lab` start runs `node .../jupyter_builder/yarn.js config --json` (to read the yarn
    registry). With the virtual environment inside the clone, as the README makes it, the nearest
    package.json above that file is the project's own: with "type": "module" it made node load yarn's
    CommonJS bundle as an ES module, and Lab printed all 14 KB of its first line and `Dynamic require of
    "util" is not supported` at every start."""
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed: Lab reads no yarn configuration without it, so prints no such error")
    commands = pytest.importorskip("jupyterlab.commands", reason="JupyterLab is not installed (pip install -e '.[lab]')")

    clone = tmp_path / "clone"
    site = clone / ".venv" / "lib" / "python3" / "site-packages" / "jupyter_builder"
    site.mkdir(parents=True)
    shutil.copy(ROOT / "package.json", clone / "package.json")
    shutil.copy(commands.YARN_PATH, site / "yarn.js")
    done = subprocess.run([node, str(site / "yarn.js"), "config", "--json"], cwd=tmp_path, capture_output=True,
                          text=True)
    assert done.returncode == 0 and "Dynamic require" not in done.stderr, done.stderr[-1000:]
    assert any(json.loads(line).get("key") == "npmRegistryServer" for line in done.stdout.splitlines())
