"""workbench.progress in a notebook: the bar of a wait over two seconds is a widget shown while the wait
lasts, and the cell keeps no trace of it after (an output nbval compares, or a saved notebook opened
again, would otherwise differ by a bar that comes only on a busy machine)."""

from __future__ import annotations

import nbformat
import pytest

pytestmark = pytest.mark.slow

CELL = """\
import time
from workbench.progress import Progress
with Progress("Waiting for something slow", total=3, after=0.2) as p:
    for _ in range(3):
        time.sleep(0.5)
        p.step()
print("shown:", p.shown)"""


def test_a_notebook_bar_shows_while_the_wait_lasts_and_leaves_no_output(tmp_path):
    from nbclient import NotebookClient

    from workbench.runner.kernels import async_manager

    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(CELL)])
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    shown = []
    client = NotebookClient(nb, kernel_name="python3", kernel_manager_class=async_manager())
    original = client.output

    def output(outs, msg, display_id, cell_index):  # every output message, as nbval records them
        if msg["header"]["msg_type"] == "display_data":
            shown.append(msg["content"]["data"])
        return original(outs, msg, display_id, cell_index)

    client.output = output
    client.execute()
    outputs = nb.cells[0].outputs
    assert [o.get("text") for o in outputs if o.output_type == "stream"] == ["shown: True\n"]
    # While it lasted: the bar's widget, with no text an output comparison would count.
    assert shown and all(set(data) == {"application/vnd.jupyter.widget-view+json"} for data in shown), shown
    # After: the bar's output emptied.
    assert [o.data for o in outputs if o.output_type == "display_data"] == [{}]
