"""Every import the service makes inside a function is made under ``workbench.service.lazy.importing`` (one lock), so
no two of the service's threads import at once and none can meet another in Python's import locks (the whole suite
under load, pass 46: "writing the animation library failed", ``_DeadlockError`` on ``numpy.random`` between the
library's thread importing numba and another; tests/service/test_graceful_stop.py found it in the service's log).
Read from the source: a function-level import outside a ``with importing():`` block fails here, naming its line."""

from __future__ import annotations

import ast
from pathlib import Path

import workbench.service
from workbench.service import lazy

SERVICE = Path(workbench.service.__file__).parent


def unguarded(tree: ast.AST) -> list[int]:
    """The lines of the imports inside functions of ``tree`` that no enclosing ``with importing():`` holds."""
    out: list[int] = []

    def visit(node: ast.AST, in_function: bool, guarded: bool) -> None:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            in_function = True
        if isinstance(node, ast.With) and any(
                isinstance(item.context_expr, ast.Call) and ast.unparse(item.context_expr.func).endswith("importing")
                for item in node.items):
            guarded = True
        if isinstance(node, (ast.Import, ast.ImportFrom)) and in_function and not guarded:
            out.append(node.lineno)
        for child in ast.iter_child_nodes(node):
            visit(child, in_function, guarded)

    visit(tree, False, False)
    return out


def test_the_rule_sees_an_unguarded_import():
    code = ("def f():\n    import json\n"
            "def g():\n    with importing():\n        import json\n"
            "import os\n")
    assert unguarded(ast.parse(code)) == [2]


def test_every_lazy_import_of_the_service_holds_the_lock():
    found = {f.name: lines for f in sorted(SERVICE.glob("*.py"))
             if (lines := unguarded(ast.parse(f.read_text(encoding="utf-8"))))}
    assert not found, f"imports inside functions without `with importing():` (workbench.service.lazy): {found}"


def test_the_lock_is_one_and_reentrant():
    with lazy.importing(), lazy.importing():
        assert lazy._LOCK._is_owned()  # type: ignore[attr-defined]
