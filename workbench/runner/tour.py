"""``workbench tour`` and ``workbench check``: run the notebooks headless, in parallel if asked, and report.

The tour runs every notebook against a local service: by default each notebook against its own
fresh one (``--shared-service``: one for all), so notebooks share no state and may run in any
order, several at once (``--jobs N``). ``check`` runs the same notebooks against a deployment
and reports, per operation of the interface, whether every cell that exercises it (cells tagged
``op:<operation>``) passed. Both write, in ``--out``:

- each executed notebook and its HTML, and ``index.html`` linking them with pass or fail;
- ``junit.xml`` for CI: a test case per group of cells (the cells under one heading) and per
  operation, each failure with its message and, for a changed picture, the path of its
  expected | actual | difference image in ``image-diffs/``;

and exit 0 when everything passed. ``--param NAME=VALUE`` runs the notebooks with other
parameters (:mod:`workbench.runner.nbcheck.params`). The tour compares the pictures of cells tagged
``image-check`` with the saved ones (the same renderer made both); ``check --compare-images``
does so against a deployment, for a team whose saved notebooks come from that deployment.

>>> [op for op in OPERATIONS if op.startswith("avatars.")]
['avatars.register', 'avatars.model', 'avatars.preview']
"""

from __future__ import annotations

import html
import json
import time
from concurrent.futures import ThreadPoolExecutor, as_completed
from pathlib import Path

from workbench.progress import Progress
from workbench.runner.execute import CELL_TIMEOUT, Abort, NotebookRun, operations_of, run_notebook
from workbench.runner.nbcheck.images import Tolerance
from workbench.runner.nbcheck.junit import Case, Suite, to_junit
from workbench.runner.nbcheck.params import check_declared
from workbench.service.spec import interface_names

__all__ = ["OPERATIONS", "run_tour", "run_check", "run_notebook", "NotebookRun", "conformance", "operations_of",
           "junit_suites", "write_index"]

OPERATIONS = interface_names()  # the interface table's operations, as /openapi.json and the client name them


def default_notebooks() -> Path:
    here = Path(__file__).resolve().parent.parent / "notebooks"
    return here if here.is_dir() else Path.cwd() / "notebooks"


def _thumbnail(run: NotebookRun) -> str:
    """A run's picture in the index, linked to its page when it has one."""
    if not run.thumbnail:
        return ""
    img = f"<img class=thumb src='{run.thumbnail}' alt=output>"
    return f"<a href='{html.escape(run.html_path.name)}'>{img}</a>" if run.html_path else img


def write_index(out_dir: Path, runs: list[NotebookRun], title: str, conformance: dict | None = None,
                setup_problem: str | None = None) -> Path:
    rows = "".join(
        (f"<tr><td><a href='{html.escape(r.html_path.name)}'>{html.escape(r.name)}</a>" if r.html_path else
         f"<tr><td>{html.escape(r.name)}") +
        f"<div class=purpose>{html.escape(r.purpose)}</div></td>"
        f"<td>{_thumbnail(r)}</td>"
        f"<td style='color:{'green' if r.ok else 'crimson'}'><b>{'pass' if r.ok else 'FAIL'}</b></td>"
        f"<td>{r.cells}</td><td class=time>{r.seconds:.1f} s</td><td class=error>{html.escape(r.error or '')}{_diff_links(r, out_dir)}</td></tr>"
        for r in runs)
    conf = ""
    if conformance is not None:
        conf = "<h2>Operations</h2><table border=1 cellpadding=4><tr><th>operation</th><th>verdict</th><th>cells</th></tr>" + "".join(
            f"<tr><td><code>{op}</code></td><td>{v['verdict']}</td><td>{v['passed']} passed, {v['failed']} failed, "
            f"{v['skipped']} skipped</td></tr>"
            for op, v in conformance.items()) + "</table>"
    # A long error (a path, a URL, a traceback's last line) wraps inside its column instead of widening the page.
    style = ("<style>body{font-family:system-ui,sans-serif;margin:2em}table{border-collapse:collapse;max-width:100%}"
             ".error{max-width:36em;overflow-wrap:anywhere;white-space:pre-wrap}.time{white-space:nowrap}.setup{color:crimson;font-weight:bold}"
             "td,th{border:1px solid #ccc;padding:6px 10px;vertical-align:middle}.purpose{color:#444;margin-top:4px}"
             ".thumb{max-width:240px;max-height:160px;background:#f4f6f8}</style>")
    doc = (f"<!doctype html><meta charset=utf-8><title>{html.escape(title)}</title>{style}<h1>{html.escape(title)}</h1>"
           + (f"<p class=setup>{html.escape(setup_problem)}</p>" if setup_problem else "") +
           f"<p>{sum(r.ok for r in runs)} of {len(runs)} notebooks passed. Each notebook's page has every cell and output.</p>"
           "<table><tr><th>notebook: what it shows</th><th>its last picture</th><th>result</th><th>code cells</th>"
           f"<th>time</th><th>first error</th></tr>{rows}</table>{conf}")
    path = out_dir / "index.html"
    path.write_text(doc, encoding="utf-8")
    return path


def _diff_links(run: NotebookRun, out_dir: Path) -> str:
    """Links to the expected | actual | difference images of a run's changed pictures."""
    paths = [m.picture for m in run.image_diffs if m.picture is not None]
    return "".join(f"<br><a href='{html.escape(str(p.relative_to(out_dir) if p.is_relative_to(out_dir) else p))}'>"
                   f"changed picture: {html.escape(p.name)}</a>" for p in paths)


def junit_suites(runs: list[NotebookRun], conf: dict, setup_problem: str | None = None) -> list[Suite]:
    """A suite per notebook (a case per group of cells) and a suite ``operations`` (a case per operation;
    every one skipped with ``setup_problem`` when the run could not judge them)."""
    suites = []
    for r in runs:
        cases = [] if r.groups or r.ok else [Case("the run", r.seconds, failure=r.error)]
        for g in r.groups:
            failure = None
            if not g.ok:  # the first line is the message a CI system shows
                failure = "\n".join(filter(None, [g.error, *(line.strip() for m in g.images for line in m.lines())]))
            cases.append(Case(g.name, g.seconds, failure=failure,
                              skipped=g.not_run or ("the cells skipped themselves here" if g.skipped else None),
                              output=f"{r.name}: cells {', '.join(map(str, g.cells))}"))
        suites.append(Suite(Path(r.name).stem, cases))
    ops = []
    for op, v in conf.items():
        detail = f"{v['passed']} of {v['cells']} cells passed, {v['failed']} failed, {v['skipped']} skipped"
        if setup_problem:
            ops.append(Case(op, skipped=f"not judged: {setup_problem}", output=detail))
            continue
        ops.append(Case(op, failure=f"{op} does not conform: {detail}" if v["verdict"] == "does not conform" else None,
                        skipped="no notebook cell exercised it here" if v["verdict"] == "not exercised" else None,
                        output=detail))
    suites.append(Suite("operations", ops))
    return suites


def _report(out: Path, runs: list[NotebookRun], title: str, conf: dict, with_operations: bool,
            setup_problem: str | None = None) -> Path:
    """index.html, junit.xml and conformance.json in ``out``; the index's path."""
    out.mkdir(parents=True, exist_ok=True)
    index = write_index(out, runs, title, conf if with_operations else None, setup_problem)
    (out / "junit.xml").write_text(to_junit(junit_suites(runs, conf, setup_problem), name=title), encoding="utf-8")
    (out / "conformance.json").write_text(json.dumps(conf, indent=2), encoding="utf-8")
    return index


def _run_all(paths: list[Path], run_one, jobs: int, show) -> list[NotebookRun]:
    """Run ``run_one(path)`` for every notebook, ``jobs`` at a time; results in the notebooks' order
    (a notebook whose ``run_one`` gave None, not started because the run was stopped, is left out).
    One notebook that the runner cannot run or report is that notebook's failure, never the whole
    report's (:func:`_guarded`)."""
    run_one = _guarded(run_one)
    if jobs <= 1:
        runs = []
        for p in paths:
            runs.append(run_one(p))
            if runs[-1] is not None:
                show(runs[-1])
        return [r for r in runs if r is not None]
    done: dict[Path, NotebookRun] = {}
    with ThreadPoolExecutor(max_workers=jobs, thread_name_prefix="notebook") as pool:
        futures = {pool.submit(run_one, p): p for p in paths}
        for f in as_completed(futures):
            done[futures[f]] = f.result()
            if done[futures[f]] is not None:
                show(done[futures[f]])
    return [done[p] for p in paths if done[p] is not None]


def _guarded(run_one):
    """``run_one`` with an unforeseen failure made the notebook's own: a failed run saying what failed, so the
    other notebooks are still run and reported (a notebook whose last picture could not be decoded took
    the whole tour down with exit 70 and no report: issue 40, item 6)."""
    def run(path: Path) -> NotebookRun | None:
        started = time.perf_counter()
        try:
            return run_one(path)
        except Exception as e:
            why = str(e).splitlines()[0][:300] if str(e).strip() else ""
            return NotebookRun(path.name, False, time.perf_counter() - started, 0,
                               f"the runner could not run or report this notebook ({type(e).__name__}{': ' + why if why else ''})")
    return run


def _code_cells(path: Path) -> int:
    """The cells a run executes (nbclient skips empty ones)."""
    import nbformat

    return sum(c.cell_type == "code" and bool(c.source.strip()) for c in nbformat.read(path, as_version=4).cells)


def _at_cell(bar: Progress):
    """The hook that moves the tour's ``bar`` as each cell starts: the cells before it done, its first
    line of code said."""
    started: list[int] = []

    def at(cell, cell_index):
        first = next((line for line in cell.source.splitlines() if line.strip() and not line.startswith("#")), "")
        if started:
            bar.step(f"cell {cell_index + 1}: {first[:50]}")
        else:
            bar.say(f"cell {cell_index + 1}: {first[:50]}")
        started.append(cell_index)

    return at


def _load_checked(paths: list[Path], params: dict) -> None:
    import nbformat

    check_declared(params, [nbformat.read(p, as_version=4) for p in paths])


class NoNotebooks(ValueError):
    """``--notebooks`` names no folder, or a folder without notebooks."""


def _notebooks(folder: str | Path | None) -> list[Path]:
    """The notebooks to run: ``folder``'s ``*.ipynb`` (the project's by default), in name order.

    >>> _notebooks("/nonexistent")
    Traceback (most recent call last):
    ...
    workbench.runner.tour.NoNotebooks: --notebooks /nonexistent: no such folder
    """
    where = Path(folder) if folder else default_notebooks()
    if not where.is_dir():
        raise NoNotebooks(f"--notebooks {where}: {'not a folder' if where.exists() else 'no such folder'}")
    paths = sorted(p for p in where.glob("*.ipynb") if not p.name.startswith("."))
    if not paths:
        raise NoNotebooks(f"--notebooks {where}: no notebooks (*.ipynb) in this folder")
    return paths


def run_tour(out: Path, notebooks: str | Path | None = None, timeout: int = CELL_TIMEOUT, *, jobs: int = 1,
             shared_service: bool = False, params: dict | None = None, compare_images: bool = True,
             tolerance: Tolerance | None = None) -> int:
    """Run every notebook against a local service (its own each, or one shared); 0 when all pass, 1
    when one fails (an error, a changed picture, a cell stopped at its ``timeout``), 2 when
    ``notebooks`` names no folder of notebooks."""
    from workbench.service.server import LocalService

    try:
        paths = _notebooks(notebooks)
    except NoNotebooks as e:
        print(f"tour: {e}")
        return 2
    params = params or {}
    _load_checked(paths, params)
    shared = LocalService.start() if shared_service else None

    def env_of(svc) -> dict:
        return {"WORKBENCH_BASE_URL": svc.base_url, "WORKBENCH_AVATAR_BASE_URL": svc.avatar_base_url,
                "WORKBENCH_TOKEN": svc.dev_token or "", "WORKBENCH_LOCAL_URL": svc.local_url}

    def run_one(path: Path) -> NotebookRun:
        # A notebook runs for minutes: its bar (after 2 s) says which cell it is at.
        with Progress(f"tour: {path.name}", total=_code_cells(path), unit="cell", doing="starting") as bar:
            svc = shared or LocalService.start()
            try:
                return run_notebook(path, out, env_of(svc), timeout, params=params, compare_images=compare_images,
                                    tolerance=tolerance, on_cell=_at_cell(bar))
            finally:
                if svc is not shared:
                    svc.stop()

    def show(r: NotebookRun) -> None:
        print(f"  {'pass' if r.ok else 'FAIL'}  {r.name:<32} {r.cells:3d} cells {r.seconds:6.1f} s"
              + (f"  {r.error}" if r.error else ""), flush=True)

    where = f"a shared local service at {shared.root_url}" if shared else "a local service each"
    print(f"tour: {len(paths)} notebooks, {jobs} at a time, against {where}; a cell may run {timeout} s; "
          f"report in {out}/")
    try:
        runs = _run_all(paths, run_one, jobs, show)
    finally:
        if shared is not None:
            shared.stop()
    index = _report(out, runs, "workbench tour", conformance(runs), with_operations=False)
    print(f"tour: {sum(r.ok for r in runs)}/{len(runs)} notebooks passed; open {index} (JUnit: {out / 'junit.xml'})")
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
              notebooks: str | Path | None = None, timeout: int = CELL_TIMEOUT, jobs: int = 1,
              params: dict | None = None, compare_images: bool = False, tolerance: Tolerance | None = None,
              watch_every: float = 2.0) -> int:
    """Run the notebooks against a deployment; print and write which operations conform. 0 when all
    do (and, with ``compare_images``, every picture matches), 1 when one does not,
    :data:`workbench.runner.probe.SETUP_PROBLEM` (3) when the setup, not the deployment's conformance, is
    the problem: no notebooks there, or a deployment that cannot be used (unreachable, a wrong
    address, a token it refuses), said in seconds before any notebook runs, or one that stops
    answering during the run (asked every ``watch_every`` seconds), which ends the run at once."""
    from workbench.runner.probe import SETUP_PROBLEM, Watch, probe

    try:
        paths = _notebooks(notebooks)
    except NoNotebooks as e:
        print(f"check: {e}")
        print("check: stopped before running the notebooks: the setup, not the deployment, is the problem")
        return SETUP_PROBLEM
    params = params or {}
    _load_checked(paths, params)
    found = probe(base_url, avatar_base_url, token)
    if not found.ok:
        for problem in found.problems:
            print(f"check: {problem}")
        print("check: stopped before running the notebooks: the setup, not the deployment, is the problem")
        return SETUP_PROBLEM
    # A deployment the run did not start is someone's: no fault is armed in it (notebooks skip those cells).
    env = {"WORKBENCH_BASE_URL": base_url, "WORKBENCH_AVATAR_BASE_URL": avatar_base_url, "WORKBENCH_TOKEN": token or "",
           "WORKBENCH_FAULTS": "off"}
    print(f"check: {len(paths)} notebooks, {jobs} at a time, against {base_url} and {avatar_base_url}; "
          f"a cell may run {timeout} s")

    def show(r: NotebookRun) -> None:
        print(f"  {'pass' if r.ok else 'FAIL'}  {r.name:<32} {r.seconds:6.1f} s" + (f"  {r.error}" if r.error else ""),
              flush=True)

    abort = Abort()

    def run_one(path: Path) -> NotebookRun | None:
        if abort.reason:
            return None
        return run_notebook(path, out, env, timeout, params=params, compare_images=compare_images, tolerance=tolerance,
                            abort=abort)

    with Watch(avatar_base_url, every=watch_every, on_down=abort.now):
        runs = _run_all(paths, run_one, jobs, show)
    conf = conformance(runs)
    if abort.reason:
        conf = {op: {**v, "verdict": "not judged"} for op, v in conf.items()}
        problem = (f"{abort.reason}; {len(runs)} of {len(paths)} notebooks ran, and no operation is judged: "
                   "the deployment, not its conformance, is the problem")
        _report(out, runs, f"workbench check of {base_url}", conf, with_operations=True, setup_problem=problem)
        print(f"check: {problem}")
        print(f"check: report {out / 'index.html'}, JUnit {out / 'junit.xml'}")
        return SETUP_PROBLEM
    _report(out, runs, f"workbench check of {base_url}", conf, with_operations=True)
    print("operations:")
    for op, v in conf.items():
        skipped = f", {v['skipped']} skipped" if v["skipped"] else ""
        print(f"  {v['verdict']:<17} {op}  ({v['passed']} of {v['cells']} cells passed{skipped})")
    print(f"check: report {out / 'index.html'}, JUnit {out / 'junit.xml'}")
    conforms = all(v["verdict"] == "conforms" for v in conf.values())
    return 0 if conforms and all(not r.image_diffs for r in runs) else 1
