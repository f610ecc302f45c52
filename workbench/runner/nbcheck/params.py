"""Notebook parameters, papermill's convention: a cell tagged ``parameters`` holds defaults, and a run
injects other values after it, so one notebook runs against another avatar, viewer or size unedited.

``workbench tour --param NAME=VALUE`` and ``workbench check --param NAME=VALUE`` parse the values
here (a Python literal, else text) and inject into each notebook only the names its
``parameters`` cell declares; a name no notebook of the run declares is an error that lists them.
The injection itself is papermill's (``parameterize_notebook``), so a notebook parameterised
here is the one papermill would run.

>>> parse_params(["n_events=1_000_000", "avatar_id=64f0c2", "viewer_token=None"])
{'n_events': 1000000, 'avatar_id': '64f0c2', 'viewer_token': None}
"""

from __future__ import annotations

import ast
from collections.abc import Iterable
from typing import Any

__all__ = ["parse_params", "declared", "inject", "ParameterError"]


class ParameterError(ValueError):
    """A ``--param`` that cannot be used: malformed, or declared by no notebook of the run."""


def parse_params(items: Iterable[str]) -> dict[str, Any]:
    """``NAME=VALUE`` strings to a dict; VALUE is a Python literal (number, None, True, a quoted string,
    a list) or else the text itself."""
    out: dict[str, Any] = {}
    for item in items or ():
        name, sep, text = item.partition("=")
        name = name.strip()
        if not sep or not name.isidentifier():
            raise ParameterError(f"--param: {item!r} must be NAME=VALUE with NAME a Python name, e.g. n_events=1000000")
        try:
            out[name] = ast.literal_eval(text.strip())
        except (ValueError, SyntaxError):
            out[name] = text
    return out


def declared(nb) -> list[str]:
    """The names a notebook's ``parameters`` cell assigns, in order (none when it has no such cell)."""
    for cell in nb.cells:
        if cell.cell_type == "code" and "parameters" in cell.get("metadata", {}).get("tags", []):
            names = []
            for node in ast.parse(cell.source).body:
                targets = node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(
                    node, ast.AnnAssign) else []
                names += [t.id for t in targets if isinstance(t, ast.Name)]
            return names
    return []


def check_declared(params: dict[str, Any], notebooks: list) -> None:
    """Refuse a parameter that none of the ``notebooks`` declares, listing what they do declare."""
    known = {name for nb in notebooks for name in declared(nb)}
    unknown = sorted(set(params) - known)
    if unknown:
        raise ParameterError(f"--param: {', '.join(unknown)} is not a parameter of these notebooks; their parameters "
                             f"are {', '.join(sorted(known)) or 'none'}")


def inject(nb, params: dict[str, Any]):
    """The notebook with the values of the names it declares injected after its parameters cell (papermill's
    ``injected-parameters`` cell); the notebook itself when none applies."""
    mine = {k: v for k, v in params.items() if k in declared(nb)}
    if not mine:
        return nb
    from papermill.parameterize import parameterize_notebook

    nb.metadata.setdefault("papermill", {})  # where papermill records what it injected (execute_notebook makes it)
    return parameterize_notebook(nb, mine, kernel_name="python3", language="python")
