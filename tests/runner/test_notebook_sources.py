"""The notebook sources (notebooks/NN_name.py, jupytext percent format) and the notebooks built from them agree.

An edit made to one side only (a script not rebuilt, a notebook edited without jupytext) fails here:
same cells, same sources, same tags; outputs are not compared (nbval checks those).
"""

from __future__ import annotations

import re
import shutil
import sys

import jupytext
import nbformat
import pytest
from conftest import ROOT

sys.path.insert(0, str(ROOT / "tools"))
from build_notebooks import NOTEBOOKS, STATE, disagreements, read_script, scripts, without_bar_traces  # noqa: E402

SCRIPTS = scripts()
NOTEBOOK_FILES = sorted(NOTEBOOKS.glob("*.ipynb"))


def test_every_script_has_a_notebook_and_every_notebook_a_script():
    assert SCRIPTS, "no notebook sources found in notebooks/"
    assert sorted(p.stem for p in SCRIPTS) == sorted(p.stem for p in NOTEBOOK_FILES), (
        "a notebook without its script, or a script never built: run python tools/build_notebooks.py NN")


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: p.stem)
def test_script_and_notebook_agree(script):
    notebook = script.with_suffix(".ipynb")
    assert notebook.exists(), f"{notebook.name} is missing: run python tools/build_notebooks.py {script.stem[:2]}"
    problems = disagreements(script, notebook)
    assert not problems, (
        f"{script.name} and {notebook.name} differ (rebuild with python tools/build_notebooks.py {script.stem[:2]}, "
        f"or jupytext --sync {notebook.relative_to(ROOT)} if the notebook holds the edit):\n" + "\n".join(problems))


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: p.stem)
def test_first_cell_says_where_to_edit(script):
    first = nbformat.read(script.with_suffix(".ipynb"), as_version=4).cells[0]
    assert first.cell_type == "markdown"
    assert f"`notebooks/{script.name}`" in first.source
    assert f"`python tools/build_notebooks.py {script.stem[:2]}`" in first.source


@pytest.mark.parametrize("notebook", NOTEBOOK_FILES, ids=lambda p: p.stem)
def test_no_progress_bar_left_in_a_notebook(notebook):
    """A wait that passed two seconds while the notebook was built showed a progress bar (workbench.progress),
    emptied when the wait ended: the build drops what it leaves (an empty output, its widgets' state), so the
    same notebook built on a busy machine and a quiet one is the same file (before: notebook 01 kept 3 empty
    outputs and 33 widgets' state, 03 2 and 22, 00 1 and 11, from a build on a busy machine)."""
    nb = nbformat.read(notebook, as_version=4)
    before = (sum(len(c.get("outputs", [])) for c in nb.cells), nb.metadata.get("widgets", {}).get(STATE, {}))
    without_bar_traces(nb)
    after = (sum(len(c.get("outputs", [])) for c in nb.cells), nb.metadata.get("widgets", {}).get(STATE, {}))
    assert after[0] == before[0], f"{before[0] - after[0]} empty outputs: rebuild with tools/build_notebooks.py"
    assert len(after[1].get("state", {})) == len(before[1].get("state", {})), "a progress bar's widgets' state"


def test_a_change_on_either_side_is_found(tmp_path):
    script = tmp_path / SCRIPTS[0].name
    notebook = script.with_suffix(".ipynb")
    shutil.copy(SCRIPTS[0], script)
    shutil.copy(SCRIPTS[0].with_suffix(".ipynb"), notebook)
    assert disagreements(script, notebook) == []

    nb = nbformat.read(notebook, as_version=4)
    tagged = next(i for i, c in enumerate(nb.cells) if "nbval-check-output" in c.metadata.get("tags", []))
    nb.cells[tagged].metadata["tags"].remove("nbval-check-output")
    nbformat.write(nb, notebook)
    problems = disagreements(script, notebook)
    assert len(problems) == 1 and problems[0].startswith(f"cell {tagged}, tags:"), problems

    shutil.copy(SCRIPTS[0].with_suffix(".ipynb"), notebook)
    edited = read_script(script)
    code = next(i for i, c in enumerate(edited.cells) if c.cell_type == "code")
    edited.cells[code].source += "\nprint('edited')"
    jupytext.write(edited, script, fmt="py:percent")
    problems = disagreements(script, notebook)
    assert len(problems) == 1 and problems[0].startswith(f"cell {code}, source line "), problems
    assert "print('edited')" in problems[0]

    edited.cells.append(nbformat.v4.new_code_cell("print('one more cell')"))
    jupytext.write(edited, script, fmt="py:percent")
    assert disagreements(script, notebook)[-1] == (
        f"{script.name} has {len(nb.cells) + 1} cells, {notebook.name} has {len(nb.cells)}")


def test_the_readme_lists_every_notebook_and_no_other():
    listed = re.findall(r"^\| `(\d\d_[a-z_]+)` \|", (ROOT / "README.md").read_text(encoding="utf-8"), re.M)
    assert sorted(listed) == sorted(p.stem for p in SCRIPTS), "README's notebook table and notebooks/ differ"
