"""One notebook, run headless: its parameters injected, every cell executed (errors do not stop it), its
pictures compared with the saved ones, and what happened, per group of cells and per operation.

A *group* is the code cells under one heading of the notebook (a ``#`` line in a Markdown cell):
what ``workbench tour`` and ``check`` report to CI as one test case. Each kernel gets its
environment (the service to talk to) as its own, so several notebooks can run at once.

A cell may run for ``timeout`` seconds (:data:`CELL_TIMEOUT` unless told). One that runs that long
is stopped and ends its notebook: the notebook fails, naming the cell and how long it ran, and the
cells after it are reported as not run. Each cell's time is the runner's own clock, from sending
the cell to holding its reply, so a wait anywhere on the way shows where it happened; the executed
notebook keeps it in the cell's metadata (``workbench.seconds``). A kernel that dies as it starts
fails its notebook the same way: its first group says why, the others were not run. Kernels talk
to the runner over Unix sockets where there are some (:mod:`workbench.runner.kernels`).

>>> groups_of({"cells": [{"cell_type": "markdown", "source": "## Register", "metadata": {}},
...                      {"cell_type": "code", "source": "x = 1", "metadata": {}, "outputs": []}]})
[('Register', [1])]
"""

from __future__ import annotations

import atexit
import copy
import functools
import os
import subprocess
import threading
import time
from dataclasses import dataclass, field, replace
from pathlib import Path

from workbench.runner.kernels import async_manager
from workbench.runner.leftovers import MARK, MAX_CELL_OUTPUT, end_marked, new_mark, output_size
from workbench.runner.nbcheck.cells import Mismatch, cell_tolerance, compare_cell, is_checked
from workbench.runner.nbcheck.images import Tolerance
from workbench.runner.nbcheck.params import inject

__all__ = ["CELL_TIMEOUT", "Abort", "NotebookRun", "Group", "run_notebook", "groups_of", "operations_of", "purpose_of",
           "thumbnail_of"]

SKIP_MARK = "[skipped: "

# Seconds a cell may run. The slowest group of cells of the project's notebooks (09's funnels) took
# 45 s in a tour with both cores of a 2-core machine busy (bench/RESULTS.md); 180 s leaves room for a
# slower machine, and a stall is reported in three minutes, not ten.
CELL_TIMEOUT = 180


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
    not_run: str | None = None  # why its cells never ran (an earlier cell hit its timeout)

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


class Abort:
    """Ends runs from another thread: :meth:`now` stops the kernel of every run given this object
    (its current cell ends with ``reason``), and :attr:`reason` tells a caller not to start more.

    >>> a = Abort(); a.now("the deployment stopped answering"); a.reason
    'the deployment stopped answering'
    """

    def __init__(self):
        self.reason: str | None = None
        self._lock = threading.RLock()
        self._kernels: set = set()

    def now(self, reason: str) -> None:
        with self._lock:
            self.reason = self.reason or reason
            for km in self._kernels:
                process = getattr(km.provisioner, "process", None)
                if process is not None:
                    process.kill()  # nbclient notices a dead kernel within a second and ends the cell

    def _watch(self, km) -> None:
        with self._lock:
            self._kernels.add(km)
            if self.reason:
                self.now(self.reason)

    def _forget(self, km) -> None:
        with self._lock:
            self._kernels.discard(km)


class _Stopped(Exception):
    """The run ended at ``cell``, after it ran ``seconds``: ``message`` says why."""

    def __init__(self, cell, seconds: float | None, why: str):
        self.cell, self.seconds = cell, seconds
        self.message = why if seconds is None else f"ran {seconds:.1f} s, {why}"
        super().__init__(self.message)


@functools.cache
def client_class():
    """nbclient's ``NotebookClient`` with two changes for runs nobody watches (a class made on first
    use, so that importing this module, as every ``workbench`` command does, imports no Jupyter)."""
    from jupyter_client.blocking import BlockingKernelClient
    from nbclient import NotebookClient
    from nbclient.output_widget import OutputWidget

    class Client(NotebookClient):
        """1. An ``Output`` widget's state goes back to the kernel on a shell socket of its own.
        nbclient mimics the front end of an ``Output`` widget and sends its outputs back on the
        shell socket while it waits on that same socket for the cell's reply; when the reply
        arrives as it sends, the wait does not wake until its timeout, then finds the reply and
        calls the cell done (jupyter/nbclient#312). A notebook whose widget clears and fills its
        ``Output`` while its cell runs (``ModelExplorer``) sat there for the whole timeout and
        still passed. Only the ``Output`` mimic sends on the shell socket; the cells' own
        requests keep nbclient's.

        2. The runner's clock: ``seconds[index]`` is how long it waited for each cell, and a cell
        that took its whole timeout is a stop (:class:`_Stopped`), never a pass, even when its
        reply was found at the deadline.

        3. A cell's output is kept up to ``leftovers.MAX_CELL_OUTPUT`` bytes (:meth:`output`).
        """

        def __init__(self, *args, abort: Abort | None = None, **kwargs):
            kwargs.setdefault("kernel_manager_class", async_manager())  # no TCP port to lose: workbench.runner.kernels
            super().__init__(*args, **kwargs)
            self.seconds: dict[int, float] = {}
            self.kept: dict[int, int] = {}          # bytes of output each cell keeps (leftovers.MAX_CELL_OUTPUT)
            self.cut: dict[int, list] = {}          # per cell cut short: its note and the bytes left out
            self.abort, self.watched = abort, None
            self.current, self._started = None, 0.0
            self._widget_client: BlockingKernelClient | None = None
            self.on_cell_execute = self._cell_sent
            self.on_cell_executed = self._cell_answered

        def _cell_sent(self, cell, cell_index):
            if self.abort is not None and self.watched is None:  # the kernel runs from here on
                self.watched = self.km
                self.abort._watch(self.km)
            self.current, self._started = cell, time.perf_counter()

        def _cell_answered(self, cell, cell_index, execute_reply):
            took = self.seconds[cell_index] = time.perf_counter() - self._started
            limit = self._get_timeout(cell)
            if limit and took >= limit:
                self.shutdown_kernel = "immediate"
                raise _Stopped(cell, took, f"stopped at its timeout ({limit} s)")

        async def _async_handle_timeout(self, timeout, cell=None):
            if cell is None:  # the kernel's first answer, before any cell
                return await super()._async_handle_timeout(timeout, cell)
            self.shutdown_kernel = "immediate"  # it is busy with the cell: it would not answer a request to stop
            raise _Stopped(cell, self.running(), f"stopped at its timeout ({timeout} s)")

        def running(self) -> float:
            """Seconds since the current cell was sent."""
            return time.perf_counter() - self._started

        def output(self, outs, msg, display_id, cell_index):
            """3. A cell keeps at most MAX_CELL_OUTPUT bytes of output: past it, what comes is counted and
            dropped (a stream's text is cut at the bound), and a note in the cell says how much."""
            hooked = self.output_hook_stack[msg["parent_header"].get("msg_id")]
            if hooked or msg["msg_type"] not in ("stream", "display_data", "execute_result"):
                return super().output(outs, msg, display_id, cell_index)
            size, kept = output_size(msg["content"]), self.kept.get(cell_index, 0)
            room = MAX_CELL_OUTPUT - kept
            if size > room:
                if msg["msg_type"] == "stream" and room > 0:
                    msg = {**msg, "content": {**msg["content"], "text": msg["content"]["text"][:room]}}
                    super().output(outs, msg, display_id, cell_index)
                self.kept[cell_index] = MAX_CELL_OUTPUT
                self._left_out(outs, cell_index, size - max(room, 0) if msg["msg_type"] == "stream" else size)
                return None
            self.kept[cell_index] = kept + size
            return super().output(outs, msg, display_id, cell_index)

        def _left_out(self, outs, cell_index: int, size: int) -> None:
            from nbformat.v4 import new_output

            if cell_index not in self.cut:
                self.cut[cell_index] = [new_output("stream", name="stderr", text=""), 0]
                outs.append(self.cut[cell_index][0])
            note = self.cut[cell_index]
            note[1] += size
            note[0].text = (f"\n[workbench: this cell's output passed {MAX_CELL_OUTPUT >> 20} MiB; the {note[1]:,} bytes "
                            "after that were left out of the run and its report]\n")

        def clear_output(self, outs, msg, cell_index):
            self.kept[cell_index] = 0
            self.cut.pop(cell_index, None)
            return super().clear_output(outs, msg, cell_index)

        def on_comm_open_jupyter_widget(self, msg):
            widget = super().on_comm_open_jupyter_widget(msg)
            if isinstance(widget, OutputWidget):
                widget.kernel_client = self._widget_sender()
            return widget

        def _widget_sender(self) -> BlockingKernelClient:
            if self._widget_client is None:
                kc = BlockingKernelClient()
                assert self.km is not None, "a widget's comm opens once the kernel runs"
                kc.load_connection_info(self.km.get_connection_info())
                kc.start_channels(shell=True, iopub=False, stdin=False, hb=False, control=False)
                self._widget_client = kc
            return self._widget_client

        def close_widget_sender(self) -> None:
            if self._widget_client is not None:
                self._widget_client.stop_channels()
                self._widget_client = None

    return Client


def run_notebook(path: Path, out_dir: Path, env: dict, timeout: int = CELL_TIMEOUT, *, params: dict | None = None,
                 compare_images: bool = False, tolerance: Tolerance | None = None,
                 abort: Abort | None = None, on_cell=None) -> NotebookRun:
    """Execute one notebook with ``env`` added to its kernel's environment, write its HTML, and say how it went.

    ``params`` are injected after its ``parameters`` cell (the names it declares). With
    ``compare_images``, each cell tagged ``image-check`` or ``nbval-check-output`` must show the
    pictures saved in ``path`` within ``tolerance`` (the cell's own limits first); a notebook
    run with other parameters is not compared, as its pictures may rightly differ. A failing
    picture's expected | actual | difference image goes to ``out_dir/image-diffs/``. A cell that
    runs ``timeout`` seconds ends the run (see the module's notes), and so does ``abort``. ``on_cell(cell,
    cell_index)`` is called as each cell starts (the tour's progress bar).
    """
    import nbformat
    from nbclient.exceptions import DeadKernelError
    from nbconvert import HTMLExporter

    saved = nbformat.read(path, as_version=4)
    nb = inject(copy.deepcopy(saved), params or {})  # the run fills its copy's outputs; the saved ones stay
    injected = any("injected-parameters" in c.get("metadata", {}).get("tags", []) for c in nb.cells)
    started = time.perf_counter()
    client = client_class()(nb, timeout=timeout, kernel_name="python3", allow_errors=True, abort=abort,
                             resources={"metadata": {"path": str(path.parent)}}, on_cell_start=on_cell)
    stopped: _Stopped | None = None
    mark = new_mark()  # every process the kernel starts inherits it: what the run leaves behind ends with it
    try:
        # The kernel process's own stderr carries only jupyter_client's transport notices; what cells
        # write to stderr still reaches the notebook through the kernel's messages.
        client.execute(stderr=subprocess.DEVNULL, env={**os.environ, **env, MARK: mark})
    except _Stopped as e:
        stopped = e
    except DeadKernelError:
        why = f"stopped: {abort.reason}" if abort is not None and abort.reason else "then its kernel died"
        stopped = _Stopped(client.current, client.running(), why)
    except RuntimeError as e:
        if client.current is not None:  # not a start that failed: nbclient's own fault, not for this report
            raise
        # Its kernel never answered (it died as it started, e.g. a broken environment). nbclient has
        # shut it down but left that shutdown registered for exit, where it would fail again.
        atexit.unregister(client._cleanup_kernel)
        stopped = _Stopped(None, None, f"its kernel did not start: {e}")
    finally:
        client.close_widget_sender()
        if abort is not None and client.watched is not None:  # watched only when there is an abort
            abort._forget(client.watched)
        end_marked(mark)
    seconds = time.perf_counter() - started
    # the run's cells without the injected one line up with the saved notebook's
    ran = [c for c in nb.cells if "injected-parameters" not in c.get("metadata", {}).get("tags", [])]
    waited = {id(nb.cells[i]): s for i, s in client.seconds.items()}  # by cell: the run's indexes count the injected one
    stop_at, why_stopped = None, ""
    if stopped is not None:
        stop_at, why_stopped = next((i for i, c in enumerate(ran) if c is stopped.cell), len(ran)), stopped.message
        if stopped.cell is not None:
            waited[id(stopped.cell)] = stopped.seconds
    for c in nb.cells:  # each cell's time on the runner's clock, in the executed notebook for whoever looks
        if id(c) in waited:
            c.metadata.setdefault("workbench", {})["seconds"] = round(waited[id(c)], 3)
    first_error = None
    op_results: dict[str, list] = {}
    skipped = 0
    groups: list[Group] = []
    tol = tolerance or Tolerance()
    for name, indexes in groups_of(saved):
        group = Group(name, indexes)
        said_skip = []
        for i in indexes:
            c = ran[i]
            if stop_at == len(ran):  # stopped before its first cell: the first group fails, the rest did not run
                if groups:
                    group.not_run = f"not run: {why_stopped}"
                else:
                    group.error = group.error or f"stopped before its first cell: {why_stopped}"
                continue
            if stop_at is not None and i > stop_at:
                group.not_run = group.not_run or f"not run: cell {stop_at} {why_stopped}"
                continue
            group.seconds += waited.get(id(c), 0.0)
            errs = [o for o in c.get("outputs", []) if o.get("output_type") == "error"]
            if i == stop_at:  # its outputs so far, and the stop as its error: what ended the notebook
                errs = [{"ename": "Stopped", "evalue": why_stopped}]
                group.error = first_error = f"cell {i}: {why_stopped}"
            if errs and group.error is None:
                group.error = f"cell {i}: {errs[0].get('ename')}: {errs[0].get('evalue')}"[:500]
            if errs and first_error is None and (stop_at is None or stop_at == len(ran)):
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
    if stopped is not None and stop_at == len(ran):  # stopped before its first cell
        first_error = f"stopped before its first cell ({stopped.message})"
    try:
        thumbnail = thumbnail_of(nb)
    except UndecodablePicture as e:  # the notebook's own output is broken: it fails, the report goes on
        thumbnail, at = "", next((i for i, c in enumerate(ran) if c is e.cell), None)
        why = f"cell {at}: {e}"
        first_error = first_error or why
        for group in groups:
            if at in group.cells and group.error is None:
                group.error = why
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
                       purpose_of(nb), thumbnail, groups, dict(params or {}) if injected else {})


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


class UndecodablePicture(ValueError):
    """The picture a notebook shows last cannot be decoded; ``cell`` is the cell that shows it."""

    def __init__(self, cell, message: str):
        super().__init__(message)
        self.cell = cell


def thumbnail_of(nb, size: int = 240) -> str:
    """A data URL of a ``size`` px thumbnail of the last picture the notebook shows (its charts and
    previews come last), or "" when it shows none; :class:`UndecodablePicture` when it cannot be read.

    >>> thumbnail_of({"cells": [{"outputs": [{"data": {"image/png": "bm90IGEgcG5n"}}]}]})
    Traceback (most recent call last):
    ...
    workbench.runner.execute.UndecodablePicture: its image/png output is not a picture that can be decoded (cannot identify image file)
    """
    import base64
    import binascii
    import io

    from PIL import Image

    last = None
    for cell in nb["cells"]:
        for out in cell.get("outputs", []):
            data = out.get("data") or {}
            for kind in ("image/png", "image/gif"):
                if kind in data:
                    last = cell, kind, data[kind]
    if last is None:
        return ""
    cell, kind, value = last
    try:
        im: Image.Image = Image.open(io.BytesIO(base64.b64decode(_b64(value))))
        im.seek(0)
        im = im.convert("RGBA")
    except (OSError, ValueError, binascii.Error, Image.DecompressionBombError) as e:
        why = str(e).split(" <", 1)[0].strip() or type(e).__name__
        raise UndecodablePicture(cell, f"its {kind} output is not a picture that can be decoded ({why})") from None
    im.thumbnail((size, size))
    buf = io.BytesIO()
    im.save(buf, "PNG")
    return "data:image/png;base64," + base64.b64encode(buf.getvalue()).decode()


