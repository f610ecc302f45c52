"""Write the notebooks from their cell lists (tools/notebooks/*.py) and execute them, saving real outputs.

Usage: python tools/build_notebooks.py [NAME ...]     (default: all)

Each tools/notebooks/NN_name.py defines CELLS, a list of ("md", text) or
("code", source, [tags]). The notebook is executed top to bottom in a fresh
kernel against a fresh local service, so every saved output is what the code
printed; nothing is pasted in.
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
import time
from pathlib import Path

import nbformat
from nbclient import NotebookClient

ROOT = Path(__file__).resolve().parent.parent
SRC = Path(__file__).resolve().parent / "notebooks"
OUT = ROOT / "notebooks"


def load_cells(path: Path):
    spec = importlib.util.spec_from_file_location(path.stem, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod.CELLS


def build(path: Path) -> Path:
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nb.metadata["language_info"] = {"name": "python"}
    for cell in load_cells(path):
        kind, source = cell[0], cell[1].strip("\n")
        tags = list(cell[2]) if len(cell) > 2 else []
        if source.startswith("# NBVAL_CHECK_OUTPUT\n"):
            # A tag rather than a comment keeps the code a reader sees clean; nbval reads both.
            source = source.split("\n", 1)[1]
            tags.append("nbval-check-output")
        c = nbformat.v4.new_markdown_cell(source) if kind == "md" else nbformat.v4.new_code_cell(source)
        if tags:
            c.metadata["tags"] = tags
        nb.cells.append(c)
    env_keys = ("WORKBENCH_BASE_URL", "WORKBENCH_AVATAR_BASE_URL", "WORKBENCH_TOKEN", "WORKBENCH_LOCAL_URL")
    for k in env_keys:
        os.environ.pop(k, None)
    t = time.perf_counter()
    NotebookClient(nb, timeout=600, kernel_name="python3", resources={"metadata": {"path": str(OUT)}}).execute(
        stderr=subprocess.DEVNULL)
    # Execution counts and timings vary run to run; keep outputs, drop the noise.
    for c in nb.cells:
        c.metadata.pop("execution", None)
    out = OUT / (path.stem + ".ipynb")
    nbformat.write(nb, out)
    print(f"built {out.name} in {time.perf_counter() - t:.1f} s")
    return out


if __name__ == "__main__":
    names = sys.argv[1:]
    for p in sorted(SRC.glob("[0-9]*.py")):
        if not names or any(n in p.stem for n in names):
            build(p)
