"""One notebook, run headless: its parameters injected, every cell executed (errors do not stop it), its
pictures compared with the saved ones, and what happened, per group of cells and per operation.

A *group* is the code cells under one heading of the notebook (a ``#`` line in a Markdown cell):
what ``workbench tour`` and ``check`` report to CI as one test case. Each kernel gets its
environment (the service to talk to) as its own, so several notebooks can run at once.

>>> groups_of({"cells": [{"cell_type": "markdown", "source": "## Register", "metadata": {}},
...                      {"cell_type": "code", "source": "x = 1", "metadata": {}, "outputs": []}]})
[('Register', [1])]
"""

from __future__ import annotations

import copy
import os
import subprocess
from dataclasses import replace
import time
from dataclasses import dataclass, field
from pathlib import Path

from workbench.nbcheck.cells import Mismatch, cell_tolerance, compare_cell, is_checked
from workbench.nbcheck.images import Tolerance
from workbench.nbcheck.params import inject

__all__ = ["NotebookRun", "Group", "run_notebook", "groups_of", "operations_of", "purpose_of", "thumbnail_of"]

SKIP_MARK = "[skipped: "


def operations_of(cell: dict) -> list[str]:
    """The interface operations a cell exercises (its ``op:NAME`` tags).

    >>> operations_of({"metadata": {"tags": ["op:avatars.model", "other"]}})
    ['avatars.model']
    """
    return [t[3:] for t in cell.get("metadata", {}).get("tags", []) if t.startswith("op:")]


@dataclass
class Group:
    """The code cells under one heading: ``error`` (the first, with its cell), ``skipped`` (every cell said
    so), ``images`` (the pictures that differ from the saved ones)."""

    name: str
    cells: list[int]
    seconds: float = 0.0
    error: str | None = None
    skipped: bool = False
    images: list[Mismatch] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.error is None and not self.images


@dataclass
class NotebookRun:
    name: str
    ok: bool
    seconds: float
    cells: int
    error: str | None = None
    html_path: Path | None = None
    op_results: dict = field(default_factory=dict)  # operation -> per tagged cell: True, False, or None (skipped)
    skipped_local: int = 0
    purpose: str = ""      # the notebook's first heading, what it shows
    thumbnail: str = ""    # a data: URL of its most telling picture (the last image it shows), or ""
    groups: list[Group] = field(default_factory=list)
    params: dict = field(default_factory=dict)  # the parameters injected into it

    @property
    def image_diffs(self) -> list[Mismatch]:
        """The pictures that differ from the saved ones, over all groups."""
        return [m for g in self.groups for m in g.images]


def groups_of(nb) -> list[tuple[str, list[int]]]:
    """(heading, indexes of its code cells) for each heading with code cells under it; cells before the first
    heading are the group "setup"."""
    out: list[tuple[str, list[int]]] = []
    name = "setup"
    for i, cell in enumerate(nb["cells"]):
        if cell["cell_type"] == "markdown":
            text = "".join(cell["source"])
            heading = next((line.lstrip("#").strip() for line in text.splitlines() if line.startswith("#")), None)
            if heading:
                name = heading
        elif cell["cell_type"] == "code":
            if out and out[-1][0] == name:
                out[-1][1].append(i)
            else:
                out.append((name, [i]))
    return out


def _seconds(cell) -> float:
    """How long a cell ran, from nbclient's timing metadata (0 when it has none)."""
    from datetime import datetime

    timing = cell.get("metadata", {}).get("execution", {})
    start, end = timing.get("iopub.execute_input"), timing.get("shell.execute_reply")
    if not (start and end):
        return 0.0
    return max(0.0, (datetime.fromisoformat(end.replace("Z", "+00:00"))
                     - datetime.fromisoformat(start.replace("Z", "+00:00"))).total_seconds())


def run_notebook(path: Path, out_dir: Path, env: dict, timeout: int = 600, *, params: dict | None = None,
                 compare_images: bool = False, tolerance: Tolerance | None = None) -> NotebookRun:
    """Execute one notebook with ``env`` added to its kernel's environment, write its HTML, and say how it went.

    ``params`` are injected after its ``parameters`` cell (the names it declares). With
    ``compare_images``, each cell tagged ``image-check`` or ``nbval-check-output`` must show the
    pictures saved in ``path`` within ``tolerance`` (the cell's own limits first); a notebook
    run with other parameters is not compared, as its pictures may rightly differ. A failing
    picture's expected | actual | difference image goes to ``out_dir/image-diffs/``.
    """
    import nbformat
    from nbclient import NotebookClient
    from nbconvert import HTMLExporter

    saved = nbformat.read(path, as_version=4)
    nb = inject(copy.deepcopy(saved), params or {})  # the run fills its copy's outputs; the saved ones stay
    injected = any("injected-parameters" in c.get("metadata", {}).get("tags", []) for c in nb.cells)
    started = time.perf_counter()
    client = NotebookClient(nb, timeout=timeout, kernel_name="python3", allow_errors=True,
                            resources={"metadata": {"path": str(path.parent)}})
    # The kernel process's own stderr carries only jupyter_client's transport notices; what cells
    # write to stderr still reaches the notebook through the kernel's messages.
    client.execute(stderr=subprocess.DEVNULL, env={**os.environ, **env})
    seconds = time.perf_counter() - started
    # the run's cells without the injected one line up with the saved notebook's
    ran = [c for c in nb.cells if "injected-parameters" not in c.get("metadata", {}).get("tags", [])]
    first_error = None
    op_results: dict[str, list] = {}
    skipped = 0
    groups = []
    tol = tolerance or Tolerance()
    for name, indexes in groups_of(saved):
        group = Group(name, indexes)
        said_skip = []
        for i in indexes:
            c = ran[i]
            group.seconds += _seconds(c)
            errs = [o for o in c.get("outputs", []) if o.get("output_type") == "error"]
            if errs and group.error is None:
                group.error = f"cell {i}: {errs[0].get('ename')}: {errs[0].get('evalue')}"[:500]
            if errs and first_error is None:
                first_error = f"{errs[0].get('ename')}: {errs[0].get('evalue')}"[:300]
            text = "".join(o.get("text", "") for o in c.get("outputs", []) if o.get("output_type") == "stream")
            skipped_here = SKIP_MARK in text
            said_skip.append(skipped_here)
            skipped += skipped_here
            for op in operations_of(c):
                # a skipped cell exercised nothing: it is neither a pass nor a failure
                op_results.setdefault(op, []).append(None if skipped_here and not errs else not errs)
            if compare_images and not injected and not errs and is_checked(saved.cells[i]):
                try:
                    limits = cell_tolerance(saved.cells[i].get("metadata", {}), tol)
                except ValueError as e:
                    group.images.append(Mismatch(f"cell {i}: {e}"))
                    continue
                group.images += [replace(m, text=f"cell {i}: {m.text}") for m in compare_cell(
                    saved.cells[i], c.get("outputs", []), limits, out_dir / "image-diffs", f"{path.stem}-cell{i}")]
        group.skipped = bool(said_skip) and all(said_skip) and group.error is None
        groups.append(group)
    _viewable(nb)
    html_body, _ = HTMLExporter(template_name="lab").from_notebook_node(nb)
    out_dir.mkdir(parents=True, exist_ok=True)
    html_path = out_dir / (path.stem + ".html")
    html_path.write_text(html_body, encoding="utf-8")
    nbformat.write(nb, out_dir / path.name)
    code_cells = sum(c.cell_type == "code" for c in ran)
    pictures = [m for g in groups for m in g.images]
    return NotebookRun(path.name, first_error is None and not pictures, seconds, code_cells,
                       first_error or (pictures[0].text if pictures else None), html_path, op_results, skipped,
                       purpose_of(nb), thumbnail_of(nb), groups, dict(params or {}) if injected else {})


_WIDGET = "application/vnd.jupyter.widget-view+json"


def _viewable(nb) -> None:
    """Outputs a converted page can show: a GIF (a turntable) as an HTML image, since nbconvert drops
    ``image/gif``; a widget that also carries a still (``image/png``) as that still, since a page
    without a kernel cannot draw the widget."""
    for cell in nb.cells:
        for out in cell.get("outputs", []):
            data = out.get("data")
            if not data:
                continue
            if "image/gif" in data and "text/html" not in data:
                data["text/html"] = f'<img src="data:image/gif;base64,{_b64(data["image/gif"])}" alt="animation">'
            if _WIDGET in data and "image/png" in data:
                del data[_WIDGET]


def _b64(value) -> str:
    return "".join(value) if isinstance(value, list) else str(value).replace("\n", "")


def purpose_of(nb) -> str:
    """What the notebook shows, in one line: its first heading, and the first sentence of its
    "What this shows" paragraph (without Markdown's marks).

    >>> purpose_of({"cells": [{"cell_type": "markdown", "source": "# 03 Previews\\n\\n**What this shows:** every "
    ...                        "`size`, and a turntable. Then more.\\n\\n**What it needs:** a token."}]})
    '03 Previews: every size, and a turntable.'
    """
    for cell in nb["cells"]:
        if cell["cell_type"] != "markdown":
            continue
        text = "".join(cell["source"])
        heading = next((line.lstrip("#").strip() for line in text.splitlines() if line.startswith("#")), "")
        shows = ""
        if "**What this shows:**" in text:
            paragraph = text.split("**What this shows:**", 1)[1].split("\n\n", 1)[0]
            paragraph = " ".join(paragraph.replace("`", "").replace("*", "").split())
            shows = paragraph.split(". ", 1)[0].rstrip(".") + "."
        return f"{heading}: {shows}" if heading and shows else heading or shows
    return ""


def thumbnail_of(nb, size: int = 240) -> str:
    """A data URL of a ``size`` px thumbnail of the last picture the notebook shows (its charts and
    previews come last), or "" when it shows none."""
    import base64
    import io

    from PIL import Image

    last = None
    for cell in nb["cells"]:
        for out in cell.get("outputs", []):
            data = out.get("data") or {}
            for kind in ("image/png", "image/gif"):
                if kind in data:
                    last = data[kind]
    if last is None:
        return ""
    im = Image.open(io.BytesIO(base64.b64decode(_b64(last))))
    im.seek(0)
    im = im.convert("RGBA")
    im.thumbnail((size, size))
    buf = io.BytesIO()
    im.save(buf, "PNG")
    return "data:image/png;base64," + base64.b64encode(buf.getvalue()).decode()


