"""The body assets' download with its progress shown: ``pip download`` run with its output captured (a
service's log stays readable) and its bytes shown as a bar (:mod:`workbench.progress`) once the wait
passes two seconds, in the cell, terminal or log where the first model request waits for it.

pip 24.1 and later print ``Progress <bytes> of <total>`` lines with ``--progress-bar raw``; an older
pip (a fresh ``python -m venv`` of Python 3.11 brings pip 23) gets the bar without its bytes, which
still says what is being waited for and for how long.

>>> raw_progress("Progress 1048576 of 50331648")
(1048576, 50331648)
>>> raw_progress("Collecting anny==0.6.2") is None
True
"""

from __future__ import annotations

import re
import subprocess
from importlib.metadata import PackageNotFoundError, version

from workbench.progress import Progress

__all__ = ["pip_has_raw_progress", "raw_progress", "run_pip"]

RAW_PROGRESS_SINCE = (24, 1)  # the pip release that added --progress-bar raw
_RAW = re.compile(r"Progress (\d+) of (\d+)")


def pip_has_raw_progress() -> bool:
    """Whether this environment's pip prints its download progress as lines (``--progress-bar raw``)."""
    try:
        found = tuple(int(x) for x in re.findall(r"\d+", version("pip"))[:2])
    except (PackageNotFoundError, ValueError):
        return False
    return found >= RAW_PROGRESS_SINCE


def raw_progress(line: str) -> tuple[int, int] | None:
    """(bytes so far, total bytes) from one of pip's raw progress lines, else None."""
    m = _RAW.fullmatch(line.strip())
    return (int(m[1]), int(m[2])) if m else None


def run_pip(command: list[str], what: str, size: int | None = None) -> tuple[int, str]:
    """Run ``command`` (``python -m pip download ...``) with a bar for ``what`` (about ``size`` bytes);
    its exit status and its output, stdout and stderr together, without the progress lines."""
    if pip_has_raw_progress():
        command = [*command, "--progress-bar", "raw"]
    kept = []
    with Progress(what, total=size, unit="B") as bar:
        with subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              text=True, errors="replace") as proc:
            for line in proc.stdout:  # type: ignore[union-attr]  # stdout=PIPE: a pipe, never None
                got = raw_progress(line)
                if got:
                    bar.update(got[0], got[1] or None)
                else:
                    kept.append(line)
    return proc.returncode, "".join(kept)
