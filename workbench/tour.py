"""``workbench tour`` and ``workbench check``: run the notebooks headless and report.

The tour starts one local service, runs every notebook against it (each
kernel finds it through the ``WORKBENCH_*`` environment), and writes each
executed notebook as HTML plus an ``index.html`` that links them and says pass
or fail. ``check`` runs the same notebooks against a deployment and reports,
per operation of the interface, whether every cell that exercises it (cells
tagged ``op:<operation>``) passed.

>>> operations_of({"metadata": {"tags": ["op:avatars.model", "other"]}})
['avatars.model']
"""

from __future__ import annotations

import html
import json
import os
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path

from workbench.service.spec import interface_names

OPERATIONS = interface_names()  # the interface table's operations, as /openapi.json and the client name them


def default_notebooks() -> Path:
    here = Path(__file__).resolve().parent.parent / "notebooks"
    return here if here.is_dir() else Path.cwd() / "notebooks"


def operations_of(cell: dict) -> list[str]:
    return [t[3:] for t in cell.get("metadata", {}).get("tags", []) if t.startswith("op:")]


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


def run_notebook(path: Path, out_dir: Path, env: dict, timeout: int = 600) -> NotebookRun:
    """Execute one notebook (errors do not stop it), write its HTML, and say how it went."""
    import nbformat
    from nbclient import NotebookClient
    from nbconvert import HTMLExporter

    nb = nbformat.read(path, as_version=4)
    old = {k: os.environ.get(k) for k in env}
    os.environ.update(env)
    started = time.perf_counter()
    try:
        client = NotebookClient(nb, timeout=timeout, kernel_name="python3", allow_errors=True,
                                resources={"metadata": {"path": str(path.parent)}})
        # The kernel process's own stderr carries only jupyter_client's transport notices; what cells
        # write to stderr still reaches the notebook through the kernel's messages.
        client.execute(stderr=subprocess.DEVNULL)
    finally:
        for k, v in old.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
    seconds = time.perf_counter() - started
    first_error = None
    op_results: dict[str, list[bool]] = {}
    skipped = 0
    code_cells = [c for c in nb.cells if c.cell_type == "code"]
    for c in code_cells:
        errs = [o for o in c.get("outputs", []) if o.get("output_type") == "error"]
        if errs and first_error is None:
            first_error = f"{errs[0].get('ename')}: {errs[0].get('evalue')}"[:300]
        text = "".join(o.get("text", "") for o in c.get("outputs", []) if o.get("output_type") == "stream")
        skipped_here = "[skipped: " in text
        skipped += skipped_here
        for op in operations_of(c):
            # a skipped cell exercised nothing: it is neither a pass nor a failure
            op_results.setdefault(op, []).append(None if skipped_here and not errs else not errs)
    _viewable(nb)
    html_body, _ = HTMLExporter(template_name="lab").from_notebook_node(nb)
    out_dir.mkdir(parents=True, exist_ok=True)
    html_path = out_dir / (path.stem + ".html")
    html_path.write_text(html_body, encoding="utf-8")
    nbformat.write(nb, out_dir / path.name)
    return NotebookRun(path.name, first_error is None, seconds, len(code_cells), first_error, html_path, op_results, skipped,
                       purpose_of(nb), thumbnail_of(nb))


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


def write_index(out_dir: Path, runs: list[NotebookRun], title: str, conformance: dict | None = None) -> Path:
    rows = "".join(
        f"<tr><td><a href='{html.escape(r.html_path.name)}'>{html.escape(r.name)}</a>"
        f"<div class=purpose>{html.escape(r.purpose)}</div></td>"
        f"<td>{f'<a href={chr(39)}{html.escape(r.html_path.name)}{chr(39)}><img class=thumb src={chr(39)}{r.thumbnail}{chr(39)} alt=output></a>' if r.thumbnail else ''}</td>"
        f"<td style='color:{'green' if r.ok else 'crimson'}'><b>{'pass' if r.ok else 'FAIL'}</b></td>"
        f"<td>{r.cells}</td><td>{r.seconds:.1f} s</td><td>{html.escape(r.error or '')}</td></tr>" for r in runs)
    conf = ""
    if conformance is not None:
        conf = "<h2>Operations</h2><table border=1 cellpadding=4><tr><th>operation</th><th>verdict</th><th>cells</th></tr>" + "".join(
            f"<tr><td><code>{op}</code></td><td>{v['verdict']}</td><td>{v['passed']} passed, {v['failed']} failed, "
            f"{v['skipped']} skipped</td></tr>"
            for op, v in conformance.items()) + "</table>"
    style = ("<style>body{font-family:system-ui,sans-serif;margin:2em}table{border-collapse:collapse}"
             "td,th{border:1px solid #ccc;padding:6px 10px;vertical-align:middle}.purpose{color:#444;margin-top:4px}"
             ".thumb{max-width:240px;max-height:160px;background:#f4f6f8}</style>")
    doc = (f"<!doctype html><meta charset=utf-8><title>{html.escape(title)}</title>{style}<h1>{html.escape(title)}</h1>"
           f"<p>{sum(r.ok for r in runs)} of {len(runs)} notebooks passed. Each notebook's page has every cell and output.</p>"
           "<table><tr><th>notebook: what it shows</th><th>its last picture</th><th>result</th><th>code cells</th>"
           f"<th>time</th><th>first error</th></tr>{rows}</table>{conf}")
    path = out_dir / "index.html"
    path.write_text(doc, encoding="utf-8")
    return path


def _notebooks(folder: str | Path | None) -> list[Path]:
    folder = Path(folder) if folder else default_notebooks()
    return sorted(p for p in folder.glob("*.ipynb") if not p.name.startswith("."))


def run_tour(out: Path, notebooks: str | Path | None = None, timeout: int = 600) -> int:
    """Run every notebook against one local service; 0 when all pass."""
    from workbench.service.server import LocalService

    paths = _notebooks(notebooks)
    if not paths:
        print(f"no notebooks found in {notebooks or default_notebooks()}")
        return 1
    svc = LocalService.start()
    env = {"WORKBENCH_BASE_URL": svc.base_url, "WORKBENCH_AVATAR_BASE_URL": svc.avatar_base_url,
           "WORKBENCH_TOKEN": svc.dev_token or "", "WORKBENCH_LOCAL_URL": svc.local_url}
    print(f"tour: {len(paths)} notebooks against a local service at {svc.root_url}; report in {out}/")
    runs = []
    try:
        for p in paths:
            r = run_notebook(p, out, env, timeout)
            runs.append(r)
            print(f"  {'pass' if r.ok else 'FAIL'}  {r.name:<32} {r.cells:3d} cells {r.seconds:6.1f} s"
                  + (f"  {r.error}" if r.error else ""))
    finally:
        svc.stop()
    index = write_index(out, runs, "workbench tour")
    print(f"tour: {sum(r.ok for r in runs)}/{len(runs)} notebooks passed; open {index}")
    return 0 if all(r.ok for r in runs) else 1


def conformance(runs: list[NotebookRun]) -> dict:
    merged: dict[str, list[bool]] = {op: [] for op in OPERATIONS}
    for r in runs:
        for op, results in r.op_results.items():
            merged.setdefault(op, []).extend(results)
    out = {}
    for op, results in merged.items():
        ran = [r for r in results if r is not None]
        verdict = "not exercised" if not ran else ("conforms" if all(ran) else "does not conform")
        out[op] = {"verdict": verdict, "cells": len(results), "passed": sum(r is True for r in results),
                   "failed": sum(r is False for r in results), "skipped": sum(r is None for r in results)}
    return out


def run_check(out: Path, *, base_url: str, avatar_base_url: str, token: str | None,
              notebooks: str | Path | None = None, timeout: int = 600) -> int:
    """Run the notebooks against a deployment; print and write which operations conform. 0 when all
    do, 1 when one does not, :data:`workbench.probe.SETUP_PROBLEM` (3) when the deployment cannot be
    used at all (unreachable, a wrong address, a token it refuses): said in seconds, before any notebook."""
    from workbench.probe import SETUP_PROBLEM, probe

    found = probe(base_url, avatar_base_url, token)
    if not found.ok:
        for problem in found.problems:
            print(f"check: {problem}")
        print("check: stopped before running the notebooks: the setup, not the deployment, is the problem")
        return SETUP_PROBLEM
    # A deployment the run did not start is someone's: no fault is armed in it (notebooks skip those cells).
    env = {"WORKBENCH_BASE_URL": base_url, "WORKBENCH_AVATAR_BASE_URL": avatar_base_url, "WORKBENCH_TOKEN": token or "",
           "WORKBENCH_FAULTS": "off"}
    paths = _notebooks(notebooks)
    print(f"check: {len(paths)} notebooks against {base_url} and {avatar_base_url}")
    runs = []
    for p in paths:
        r = run_notebook(p, out, env, timeout)
        runs.append(r)
        print(f"  {'pass' if r.ok else 'FAIL'}  {r.name:<32} {r.seconds:6.1f} s" + (f"  {r.error}" if r.error else ""))
    conf = conformance(runs)
    write_index(out, runs, f"workbench check of {base_url}", conf)
    (out / "conformance.json").write_text(json.dumps(conf, indent=2), encoding="utf-8")
    print("operations:")
    for op, v in conf.items():
        skipped = f", {v['skipped']} skipped" if v["skipped"] else ""
        print(f"  {v['verdict']:<17} {op}  ({v['passed']} of {v['cells']} cells passed{skipped})")
    return 0 if all(v["verdict"] == "conforms" for v in conf.values()) else 1
