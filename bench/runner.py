"""The notebook runner against nbclient's own, with the CPU busy (issue 29: a stall that passed).

A notebook of ``--cells`` cells that each fill an ``Output`` widget while they run (notebook 01's
``ModelExplorer``, reduced) runs twice in this process with a spinning process per core: first by
nbclient's ``NotebookClient`` as it comes (the baseline), then by ``workbench.runner.execute``. For
each: the time of the whole run, the cells that held it for their whole timeout, and the slowest
cell, on the same clock (from sending a cell to holding its answer). Then the ratio of the runs.

    python bench/runner.py [--cells 60] [--timeout 10]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import nbformat
from nbclient import NotebookClient

from workbench.runner.execute import run_notebook

EXPLORER = '''
import ipywidgets as W
from IPython.display import display

class Explorer:
    def __init__(self):
        self.out = W.Output()
        self.widget = W.VBox([W.Checkbox(description="mergeMesh"), self.out])
        self.out.clear_output(wait=True)
        with self.out:
            display("a summary of the model " * 20)

    def _ipython_display_(self):
        display(self.widget)
'''


def notebook(cells: int) -> nbformat.NotebookNode:
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nb.cells = [nbformat.v4.new_code_cell(EXPLORER)]
    for i in range(cells):  # a heading each: the runner reports each cell as a group of its own
        nb.cells += [nbformat.v4.new_markdown_cell(f"## {i}"), nbformat.v4.new_code_cell(f"e{i} = Explorer()\ne{i}")]
    return nb


def baseline(nb, timeout: int) -> tuple[float, list[float]]:
    """nbclient as it comes: (seconds of the run, seconds each cell held it)."""
    held, sent = [], [0.0]
    client = NotebookClient(nb, timeout=timeout, kernel_name="python3", allow_errors=True,
                            on_cell_execute=lambda cell, cell_index: sent.__setitem__(0, time.perf_counter()),
                            on_cell_executed=lambda cell, cell_index, execute_reply: held.append(time.perf_counter() - sent[0]))
    started = time.perf_counter()
    client.execute(stderr=subprocess.DEVNULL)
    return time.perf_counter() - started, held


def ours(path: Path, out: Path, timeout: int) -> tuple[float, list[float], str | None]:
    run = run_notebook(path, out, {}, timeout)
    return run.seconds, [g.seconds for g in run.groups], run.error


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cells", type=int, default=60)
    parser.add_argument("--timeout", type=int, default=10, help="a cell's timeout in both runs (s)")
    args = parser.parse_args()
    spinners = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(os.cpu_count() or 2)]
    try:
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "explorer.ipynb"
            nbformat.write(notebook(args.cells), path)
            base_s, base_held = baseline(nbformat.read(path, 4), args.timeout)
            our_s, our_held, error = ours(path, Path(tmp) / "out", args.timeout)
    finally:
        for p in spinners:
            p.kill()
    print(f"{args.cells} explorer cells, timeout {args.timeout} s, {len(spinners)} spinning processes")
    for name, seconds, held in (("nbclient (baseline)", base_s, base_held), ("workbench runner", our_s, our_held)):
        stalls = sum(h >= args.timeout for h in held)
        print(f"  {name:<20} {seconds:6.1f} s  cells held to their timeout: {stalls:2d}  slowest cell {max(held):5.2f} s")
    print(f"  the runner's verdict: {'pass' if error is None else error}")
    print(f"  ratio runner / baseline: {our_s / base_s:.2f}")


if __name__ == "__main__":
    main()
