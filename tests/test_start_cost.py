"""What a new interpreter pays to start the service: the suite starts one for every ``workbench serve``, CLI command
and kernel it runs, so an import every start makes is paid a hundred times a run. pandas (0.4 s of CPU an import) is
imported where a table is asked for, never by the modules ``workbench serve`` loads: a service's start took 1.50 s of
CPU with it and 0.96 s without (docs/testing.md, suite17). Read from the source, not by starting an interpreter: the
imports a module makes when it is loaded (its top level), followed through the package; an import inside a function
the start calls is not seen here."""

from __future__ import annotations

import ast
from pathlib import Path

from test_layout import modules

# What a start of `workbench serve` imports: the command and the service.
STARTS = ("workbench.cli", "workbench.service")
LATER = ("pandas",)   # imported inside the functions that return tables
# The avatar build's numerical libraries (numba 0.5 s, scipy's sparse and spatial 0.5 s each of a start's import
# time): imported by the first job or request that builds, not by a start (workbench.regeneration's names load
# when asked for; the job runner imports only its worker). A start of workbench serve: 1.25 s of CPU with them,
# 0.55 s without (suite19, three each).
BUILD = ("numba", "scipy")


def _type_checking(node: ast.stmt) -> bool:
    return isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)


def loaded_at_import(name: str, path: Path, known: set[str]) -> set[str]:
    """The modules ``name`` imports as it is imported: its statements outside functions (and outside ``if
    TYPE_CHECKING``), relative imports resolved, ``from pkg import mod`` as pkg.mod."""
    out: set[str] = set()
    todo = list(ast.parse(path.read_text(encoding="utf-8")).body)
    while todo:
        node = todo.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)) or _type_checking(node):
            continue
        if isinstance(node, ast.Import):
            out |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
                anchor = anchor[:len(anchor) - (node.level - 1)]
                base = ".".join(anchor + ([base] if base else []))
            out.add(base)
            out |= {f"{base}.{a.name}" for a in node.names if f"{base}.{a.name}" in known}
        todo += [c for c in ast.iter_child_nodes(node) if isinstance(c, ast.stmt)]
    return out


def start_imports(starts=STARTS) -> set[str]:
    """Every module a start of ``starts`` imports, with its packages' ``__init__`` modules (third-party by name)."""
    found = modules()
    seen: set[str] = set()
    todo = list(starts)
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        parents = [".".join(name.split(".")[:k]) for k in range(1, name.count(".") + 1)]
        todo += [p for p in parents if p not in seen]
        if name in found:
            todo += sorted(loaded_at_import(name, found[name], set(found)) - seen)
    return seen


def test_a_service_start_imports_no_pandas():
    imported = start_imports()
    assert {"workbench.service.app", "workbench.service.bodies", "numpy"} <= imported  # the walk reaches them
    late = sorted(m for m in imported if m.split(".")[0] in LATER)
    assert not late, f"a start of workbench serve imports {late}: import it inside the function that needs it"


def test_a_service_start_imports_no_numba_or_scipy():
    imported = start_imports()
    assert "workbench.regeneration.worker" in imported  # the job runner's worker, imported at the start
    late = sorted(m for m in imported if m.split(".")[0] in BUILD)
    assert not late, f"a start of workbench serve imports {late}: import it where a body or a picture is built"


def test_the_walk_sees_an_import_at_module_level():
    # workbench.tracking's tables import pandas at module level: the walk finds it there.
    assert "pandas" in start_imports(("workbench.tracking.explorer.data",))
