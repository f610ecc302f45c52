"""What the benchmarks share: the repository's root, code of an earlier commit read from git to run beside
today's (the baseline of a ratio), and a free loopback port.

Each benchmark runs as ``python bench/NAME.py``, so this folder is first on ``sys.path`` and ``import shared``
finds this module.
"""

from __future__ import annotations

import importlib
import socket
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def git_show(commit: str, path: str) -> str:
    """The text of ``path`` (from the repository's root) at ``commit``."""
    return subprocess.run(["git", "-C", str(ROOT), "show", f"{commit}:{path}"], capture_output=True, text=True,
                          check=True).stdout


def render_at(commit: str, files: tuple[str, ...], tmp: Path):
    """The render package of ``commit`` (its modules ``files``) written to ``tmp`` and imported as ``render_base``."""
    pkg = tmp / "render_base"
    pkg.mkdir()
    for name in files:
        (pkg / name).write_text(git_show(commit, f"workbench/render/{name}"))
    sys.path.insert(0, str(tmp))
    return importlib.import_module("render_base")


def free_port() -> int:
    """A loopback port nothing listens on now (for a server started in another process)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]
