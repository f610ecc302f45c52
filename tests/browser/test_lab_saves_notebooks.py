"""JupyterLab itself opens a notebook (jupytext pairs it with its script, notebooks/jupytext.toml),
starts its kernel and saves it, as its autosave does: both files stay byte for byte what is committed,
so opening a notebook leaves ``git status`` clean.

tests/runner/test_notebooks_in_lab.py takes the same save path without a browser for every notebook; here
JupyterLab saves the few notebooks that together carry everything the eleven carry (every metadata key and
kind of value, output type and MIME type: `covering`), which shows that path is Lab's on each kind of
content. Eleven notebooks each took a kernel and a page of their own (about 170 s of a worker) and proved no
more than their cover does."""

from __future__ import annotations

import difflib
import json
import shutil
import tempfile
from pathlib import Path

import pytest
from conftest import ROOT

from .conftest import shut_kernels, wait
from .viewer_page import notebook_url

NOTEBOOKS = ROOT / "notebooks"


def kinds(notebook: dict) -> set[tuple]:
    """What a notebook's JSON carries that a save could treat differently: each key path, four keys deep (deeper
    come the widgets' ids), with the type of its value; each cell type; each output type with its MIME types.

    >>> sorted(kinds({"nbformat": 4, "cells": [{"cell_type": "code", "outputs": [{"output_type": "stream"}]}]}))
    [('cell', 'code'), ('cells', 'cell_type', 'str'), ('cells', 'outputs', 'output_type', 'str'), ('nbformat', 'int'), ('output', 'stream')]
    """
    found: set[tuple] = set()

    def walk(value, path: tuple) -> None:
        if isinstance(value, dict):
            for key, item in value.items():
                walk(item, path + (key,))
        elif isinstance(value, list):
            for item in value:
                walk(item, path)
        else:
            found.add(path[:4] + (type(value).__name__,))

    walk(notebook, ())
    for cell in notebook["cells"]:
        found.add(("cell", cell["cell_type"]))
        for output in cell.get("outputs", []):
            found.add(("output", output["output_type"], *sorted(output.get("data", {}))))
    return found


def covering(scripts: list[Path]) -> list[Path]:
    """A few notebooks (chosen greedily, the one carrying most of what is left first) that together carry every
    kind (`kinds`) the given ones carry."""
    carried = {s: kinds(json.loads(s.with_suffix(".ipynb").read_text(encoding="utf-8"))) for s in scripts}
    left, chosen = set().union(*carried.values()), []
    while left:
        best = max(scripts, key=lambda s: len(carried[s] & left))
        chosen.append(best)
        left -= carried[best]
    return sorted(chosen)


SCRIPTS = covering(sorted(NOTEBOOKS.glob("[0-9][0-9]_*.py")))

# Once the kernel is up, wait until the panel has written what it writes (the kernelspec from the kernel's
# spec, language_info from its info reply: @jupyterlab/notebook's _updateSpec and _updateLanguage), save as
# the autosave does, then shut the kernel down. Keys compared in order, as the saved file has them.
OPEN_AND_SAVE = """
const done = arguments[arguments.length - 1];
(async () => {
  const nb = window.jupyterapp.shell.currentWidget;
  const kernel = nb.sessionContext.session.kernel;
  const info = await kernel.info, spec = await kernel.spec;
  const sorted = v => v && typeof v === 'object' && !Array.isArray(v)
    ? Object.fromEntries(Object.keys(v).sort().map(k => [k, sorted(v[k])])) : v;
  const same = (a, b) => JSON.stringify(sorted(a)) === JSON.stringify(sorted(b));
  const written = () => same(nb.model.getMetadata('language_info'), info.language_info)
    && same(nb.model.getMetadata('kernelspec'), {name: kernel.name, display_name: spec.display_name, language: spec.language});
  for (const end = Date.now() + 60000; !written(); await new Promise(r => setTimeout(r, 50))) {
    if (Date.now() > end) throw new Error('the panel never wrote the kernelspec and language_info of its kernel: '
      + JSON.stringify([nb.model.getMetadata('kernelspec'), nb.model.getMetadata('language_info')]));
  }
  await window.jupyterapp.commands.execute('docmanager:save');
  const dirty = nb.context.model.dirty;
  await nb.sessionContext.shutdown();
  nb.dispose();
  return {dirty};
})().then(v => done(v), e => done({error: String(e && e.stack || e)}));
"""


@pytest.fixture(scope="module")
def lab(notebook_apps):
    """The session's JupyterLab serving copies of the notebooks, their scripts and jupytext.toml in a folder of this
    module's own (jupytext reads the configuration from a notebook's folder up)."""
    server = notebook_apps("lab")
    root = Path(tempfile.mkdtemp(prefix="lab-save-", dir=server["root"]))
    for script in SCRIPTS:
        for path in (script, script.with_suffix(".ipynb")):
            shutil.copy2(path, root / path.name)
    shutil.copy2(NOTEBOOKS / "jupytext.toml", root / "jupytext.toml")
    try:
        yield {**server, "root": root, "dir": root.name}
    finally:
        shut_kernels(server, root.name)


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: p.stem)
def test_a_notebook_opened_and_saved_in_jupyterlab_is_unchanged(browser, lab, script):
    name = script.with_suffix(".ipynb").name
    browser.get(notebook_url(lab, name))
    wait(browser, "const nb = window.jupyterapp && window.jupyterapp.shell.currentWidget;"
                  "const k = nb && nb.sessionContext && nb.sessionContext.session && nb.sessionContext.session.kernel;"
                  f"return k && k.status === 'idle' && nb.context.path === {lab['dir'] + '/' + name!r};", 180, f"{name} with an idle kernel")
    out = browser.execute_async_script(OPEN_AND_SAVE)
    assert "error" not in out, out.get("error")
    assert out["dirty"] is False
    for path in (script, script.with_suffix(".ipynb")):
        saved = (lab["root"] / path.name).read_text(encoding="utf-8")
        changed = list(difflib.unified_diff(path.read_text(encoding="utf-8").splitlines(), saved.splitlines(),
                                            "committed", "saved by JupyterLab", n=1, lineterm=""))
        assert not changed, f"JupyterLab rewrote {path.name}:\n" + "\n".join(changed[:40])
