"""Execute the notebook sources (notebooks/NN_name.py) into their notebooks (notebooks/NN_name.ipynb).

Usage: python tools/build_notebooks.py [NN ...]     (default: all; NN, NN_name or a path)
       python tools/build_notebooks.py --force NN   (overwrite a notebook edited apart from its script)

Each notebooks/NN_name.py is a jupytext percent-format script: `# %% [markdown]` and `# %%` cells,
tags as `# %% tags=["nbval-check-output", "op:avatars.model"]`. JupyterLab with jupytext pairs it
with the .ipynb (notebooks/jupytext.toml), so either can be edited. The notebook is executed top to
bottom in a fresh kernel against a fresh local service, so every saved output is what the code
printed; nothing is pasted in.

Both files are written as JupyterLab writes them when a person opens the notebook and it autosaves,
so that opening one leaves ``git status`` clean: read and saved through jupytext's contents manager
(the one Lab's jupytext extension uses, with notebooks/jupytext.toml), which keeps the cell ids and
writes the config's metadata filter into the notebook, with the ``kernelspec`` Lab's notebook panel
writes (the name, display name and language of the kernel the notebook ran on) and numbers as its
page sends them back (a whole float is written as an integer).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import jupytext
import nbformat
from jupyter_client.kernelspec import KernelSpecManager
from jupyter_server.services.contents.filecheckpoints import FileCheckpoints
from jupytext import TextFileContentsManager
from nbformat.sign import NotebookNotary

from workbench.runner.execute import client_class

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "notebooks"
STATE, WIDGET_VIEW = "application/vnd.jupyter.widget-state+json", "application/vnd.jupyter.widget-view+json"
SCRIPT_FORMAT = "py:percent"
KERNEL = "python3"
ENV_KEYS = ("WORKBENCH_BASE_URL", "WORKBENCH_AVATAR_BASE_URL", "WORKBENCH_TOKEN", "WORKBENCH_LOCAL_URL")


def scripts(folder: Path = NOTEBOOKS) -> list[Path]:
    """The notebook sources: NN_name.py (conftest.py and other helpers are not notebooks)."""
    return sorted(folder.glob("[0-9][0-9]_*.py"))


def cells_of(nb) -> list[tuple[str, str, list[str]]]:
    """What a script and its notebook must agree on: each cell's type, source and tags (not outputs)."""
    return [(c.cell_type, c.source, list(c.get("metadata", {}).get("tags", []))) for c in nb.cells]


def read_script(script: Path):
    """A percent-format script as a notebook (no outputs)."""
    return jupytext.read(script, fmt=SCRIPT_FORMAT)


def disagreements(script: Path, notebook: Path) -> list[str]:
    """Where a script and its notebook differ, one line per cell; empty when they agree."""
    want, have = cells_of(read_script(script)), cells_of(nbformat.read(notebook, as_version=4))
    problems = []
    for i, (a, b) in enumerate(zip(want, have, strict=False)):
        for part, x, y in zip(("type", "source", "tags"), a, b, strict=True):
            if part == "source" and x != y:
                # Name the first line that differs: the start of a long cell is usually the same.
                n, x, y = next((n, u, v) for n, (u, v) in enumerate(
                    zip(x.split("\n") + [""], y.split("\n") + [""], strict=False), 1) if u != v)
                part = f"source line {n}"
            if x != y:
                problems.append(f"cell {i}, {part}: {script.name} has {x!r}, {notebook.name} has {y!r}")
    if len(want) != len(have):
        problems.append(f"{script.name} has {len(want)} cells, {notebook.name} has {len(have)}")
    return problems


def contents_manager(folder: Path, checkpoints: str) -> TextFileContentsManager:
    """jupytext's contents manager over ``folder``, as JupyterLab's jupytext extension serves it (pairing
    by the folder's jupytext.toml); its checkpoints under ``checkpoints``, not beside the notebooks, and
    trust signatures in memory, not in the user's Jupyter folder."""
    cm = TextFileContentsManager(root_dir=str(folder), notary=NotebookNotary(db_file=":memory:"))
    cm.checkpoints = FileCheckpoints(parent=cm, root_dir=checkpoints)
    return cm


def kernelspec(name: str = KERNEL) -> dict:
    """The ``kernelspec`` metadata JupyterLab's notebook panel writes once the kernel ``name`` runs: its
    name, and the display name and language of its spec (``Python 3 (ipykernel)`` for ipykernel's own)."""
    spec = KernelSpecManager().get_kernel_spec(name)
    return {"name": name, "display_name": spec.display_name, "language": spec.language}


def open_as_lab(cm: TextFileContentsManager, path: str):
    """The notebook at ``path`` (the script or its notebook) as Lab opens it: the script's cells with the
    notebook's ids and outputs, jupytext's metadata, and the kernelspec Lab writes when the kernel starts."""
    nb = nbformat.from_dict(cm.get(path)["content"])
    nb.metadata["kernelspec"] = kernelspec(nb.metadata.get("kernelspec", {}).get("name", KERNEL))
    return nb


def javascript_numbers(value):
    """A notebook's JSON as it comes back from Lab's page: JavaScript has one kind of number, so a whole
    float (a widget's ``2.0``) is saved as ``2``.

    >>> javascript_numbers({"max": 2.0, "duration": 1.1, "n": [3, 0.0]})
    {'max': 2, 'duration': 1.1, 'n': [3, 0]}
    """
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, dict):
        return {k: javascript_numbers(v) for k, v in value.items()}
    if isinstance(value, list):
        return [javascript_numbers(v) for v in value]
    return value


def save_as_lab(cm: TextFileContentsManager, nb, path: str) -> None:
    """Save ``nb`` as Lab's autosave does: its numbers as the page sends them, through jupytext, which
    writes the notebook and its script."""
    cm.save({"type": "notebook", "content": nbformat.from_dict(javascript_numbers(nb))}, path)


def build(script: Path, force: bool = False) -> Path:
    """Execute one script in a fresh kernel and write its notebook beside it, outputs and all."""
    out = script.with_suffix(".ipynb")
    if out.exists() and out.stat().st_mtime > script.stat().st_mtime and disagreements(script, out):
        if not force:
            # The notebook was edited without jupytext pairing it: building would throw that edit away.
            sys.exit(f"{out.name} is newer than {script.name} and their cells differ; keep the notebook's edit with\n"
                     f"  jupytext --sync {out.relative_to(ROOT)}\nor drop it with --force.")
        os.utime(script)  # --force: the script is the newer of the pair, so jupytext reads the cells from it
    checkpoints = tempfile.TemporaryDirectory(prefix="build-notebooks-")
    cm = contents_manager(script.parent, checkpoints.name)
    nb = open_as_lab(cm, script.name)
    nb.metadata.pop("widgets", None)  # the run stores its own widgets' state, if it has widgets
    for k in ENV_KEYS:
        os.environ.pop(k, None)
    started = time.perf_counter()
    # The kernel process's own stderr carries only jupyter_client's transport notices; what cells
    # write to stderr still reaches the notebook through the kernel's messages.
    # The runner's client: an Output widget filled while its own cell runs cannot stall the build
    # (jupyter/nbclient#312), and a cell that reaches its timeout fails the build instead of passing.
    client = client_class()(nb, timeout=600, kernel_name=nb.metadata["kernelspec"]["name"],
                            resources={"metadata": {"path": str(script.parent)}})
    try:
        client.execute(stderr=subprocess.DEVNULL)
    finally:
        # The Output widgets' own shell channel (notebook 01's explorer): left running, the garbage collection
        # that later found it hung on its zmq context, in the middle of the next notebook's save.
        client.close_widget_sender()
    # Execution counts and timings vary run to run; keep outputs, drop the noise.
    for c in nb.cells:
        c.metadata.pop("execution", None)
    without_bar_traces(nb)
    save_as_lab(cm, nb, out.name)
    checkpoints.cleanup()
    print(f"built {out.name} in {time.perf_counter() - started:.1f} s")
    return out


def without_bar_traces(nb) -> None:
    """Drop what a progress bar leaves in a notebook (workbench.progress: a wait that passed two seconds showed
    a tqdm widget, emptied when the wait ended): its empty ``display_data`` output and its widgets' saved state,
    so a notebook built on a busy machine is the one built on a quiet one. The state of widgets an output still
    shows, and of the widgets those name (``IPY_MODEL_...``), is kept.

    >>> import nbformat
    >>> nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("x")])
    >>> nb.cells[0].outputs = [nbformat.v4.new_output("display_data", data={})]
    >>> nb.metadata["widgets"] = {STATE: {"state": {"a1": {"state": {"children": ["IPY_MODEL_b2"]}}}}}
    >>> without_bar_traces(nb); nb.cells[0].outputs, "widgets" in nb.metadata
    ([], False)
    """
    shown: list[str] = []
    for c in nb.cells:
        if c.cell_type != "code":
            continue
        c.outputs = [o for o in c.outputs if o.output_type != "display_data" or o.get("data") or o.get("metadata")]
        shown += [o.data[WIDGET_VIEW]["model_id"] for o in c.outputs if WIDGET_VIEW in o.get("data", {})]
    state = nb.metadata.get("widgets", {}).get(STATE, {}).get("state", {})
    kept: set[str] = set()
    while shown:
        model = shown.pop()
        if model in kept or model not in state:
            continue
        kept.add(model)
        shown += re.findall(r"IPY_MODEL_([0-9a-f]+)", json.dumps(state[model]))
    if kept:
        nb.metadata["widgets"][STATE]["state"] = {k: v for k, v in state.items() if k in kept}
    else:
        nb.metadata.pop("widgets", None)


def selected(names: list[str]) -> list[Path]:
    """The scripts named on the command line (NN, NN_name or a path), or all of them."""
    every = scripts()
    if not names:
        return every
    chosen = []
    for name in names:
        stem = Path(name).stem
        hits = [p for p in every if p.stem == stem or p.stem.startswith(stem + "_")]
        if not hits:
            sys.exit(f"no notebook source matches {name!r}; there are: {', '.join(p.stem for p in every)}")
        chosen += [p for p in hits if p not in chosen]
    return chosen


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("names", nargs="*", help="NN, NN_name or notebooks/NN_name.py (default: all)")
    parser.add_argument("--force", action="store_true", help="overwrite a notebook edited apart from its script")
    args = parser.parse_args(argv)
    for script in selected(args.names):
        build(script, args.force)


if __name__ == "__main__":
    main()
