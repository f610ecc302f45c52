"""``workbench tour`` says what it is doing while a notebook runs: after two seconds, a bar per notebook
with the cells done and the one running (it printed nothing for 191 s while notebook 01 ran, issue 48)."""

from __future__ import annotations

import nbformat
import pytest

from workbench.runner.tour import run_tour

pytestmark = pytest.mark.slow


def test_the_tour_shows_which_cell_a_slow_notebook_is_at(tmp_path, capsys):
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell("# slow"),
                                         nbformat.v4.new_code_cell("import time"),
                                         nbformat.v4.new_code_cell("time.sleep(3)  # a slow cell"),
                                         nbformat.v4.new_code_cell("print('done')")])
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    (tmp_path / "nb").mkdir()
    nbformat.write(nb, tmp_path / "nb" / "slow.ipynb")
    assert run_tour(tmp_path / "out", notebooks=tmp_path / "nb") == 0
    err = capsys.readouterr().err
    assert "tour: slow.ipynb (cell 3: time.sleep(3)  # a slow cell)" in err, err  # counted as the notebook shows them
    assert "/3 [" in err, err  # the cells counted: three to run
