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
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import nbformat
from nbclient import NotebookClient
from shared import ROOT

from workbench.runner.execute import run_notebook

sys.path.insert(0, str(ROOT / "tests"))
from helpers import busy_cpu, explorer_cells, notebook_of  # noqa: E402  (the explorer cells the runner's tests run)


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
    with busy_cpu() as spinners, tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "explorer.ipynb"
        nbformat.write(notebook_of(explorer_cells(args.cells)), path)
        base_s, base_held = baseline(nbformat.read(path, 4), args.timeout)
        our_s, our_held, error = ours(path, Path(tmp) / "out", args.timeout)
    print(f"{args.cells} explorer cells, timeout {args.timeout} s, {spinners} spinning processes")
    for name, seconds, held in (("nbclient (baseline)", base_s, base_held), ("workbench runner", our_s, our_held)):
        stalls = sum(h >= args.timeout for h in held)
        print(f"  {name:<20} {seconds:6.1f} s  cells held to their timeout: {stalls:2d}  slowest cell {max(held):5.2f} s")
    print(f"  the runner's verdict: {'pass' if error is None else error}")
    print(f"  ratio runner / baseline: {our_s / base_s:.2f}")


if __name__ == "__main__":
    main()
