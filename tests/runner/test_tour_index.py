"""The tour's index page (write_index) from the runs' records, without running a notebook."""

from __future__ import annotations

from workbench.runner.tour import NotebookRun, write_index


def test_a_run_with_a_picture_but_no_page_of_its_own_shows_the_picture_unlinked(tmp_path):
    """A run's record may carry its picture without a page written for it (``html_path`` None): the index shows
    the picture, linked to nothing (it raised AttributeError on ``None.name``, found by mypy)."""
    run = NotebookRun("00_quickstart.ipynb", False, 1.5, 3, "the kernel died", None, purpose="00 · Quick start",
                      thumbnail="data:image/png;base64,AAAA")
    text = write_index(tmp_path, [run], "workbench check").read_text(encoding="utf-8")
    assert "<img class=thumb src='data:image/png;base64,AAAA' alt=output>" in text
    assert "href='None'" not in text and "00_quickstart.ipynb" in text
