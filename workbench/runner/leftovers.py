"""What a notebook's run leaves behind: the processes its cells started, ended with the run, and the cap on
what a cell's output may keep.

Stopping a kernel stops its process group; a child that left it (``setsid``, a double fork) ran on
after the tour said pass (issue 40, item 9). Every kernel the runner starts carries a mark in its
environment (:data:`MARK` = a token of its run), which its children inherit wherever they move in
the process tree; when the run ends, :func:`end_marked` ends every process of this user that carries
the run's mark (psutil reads the environments: ``/proc`` on Linux, the system's calls elsewhere).

>>> mark = new_mark(); end_marked(mark)    # nothing carries a new mark
0
"""

from __future__ import annotations

import os
import secrets

import psutil

__all__ = ["MARK", "MAX_CELL_OUTPUT", "new_mark", "end_marked", "output_size"]

MARK = "WORKBENCH_NOTEBOOK_RUN"

# The most bytes of output a cell keeps, in memory and in the report (text, and the data of pictures and
# tables as sent): the project's largest cell shows 0.7 MB; a cell printing 100 MB kept all of it twice.
MAX_CELL_OUTPUT = 8 << 20


def new_mark() -> str:
    """A new run's mark, the value of :data:`MARK` in its kernel's environment."""
    return secrets.token_hex(12)


def end_marked(mark: str) -> int:
    """Kill every process of this user whose environment carries ``MARK=mark`` (never this one); how many."""
    found = []
    for p in psutil.process_iter(["environ"]):
        env = p.info.get("environ") or {}
        if env.get(MARK) == mark and p.pid != os.getpid():
            try:
                p.kill()
                found.append(p)
            except psutil.Error:  # gone meanwhile, or not ours
                pass
    psutil.wait_procs(found, timeout=5)
    return len(found)


def output_size(content: dict) -> int:
    """The bytes an output message's content would keep: its text, or the data it carries, or its traceback.

    >>> output_size({"name": "stdout", "text": "abc"}), output_size({"data": {"text/plain": "x", "image/png": "AAAA"}})
    (3, 5)
    """
    if "text" in content:
        return len(content["text"])
    if "data" in content:
        return sum(len(v) if isinstance(v, str) else len(str(v)) for v in content["data"].values())
    return sum(map(len, content.get("traceback") or ())) + len(str(content.get("evalue", "")))
