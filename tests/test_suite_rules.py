"""Rules the test suite keeps so that it cannot lie (checked by reading the tests' own source).

- no test skips on an import of our own package (``importorskip("workbench...")``): a broken
  import must fail, not turn into a skip;
- no test asserts elapsed wall-clock time (``assert time.monotonic() - t ...``): inject the clock;
- pytest installs nothing with npm (``tools/install_test_tools.py`` does, once per run);
- a browser test waits for a condition, never for a fixed time: no ``time.sleep`` in ``tests/browser/test_*.py``
  (``conftest.wait`` and ``viewer_page.until`` poll a condition with a bound);
- a test module imports the test modules of its own folder only (or those of ``tests/``): pytest puts a test file's
  folder on ``sys.path`` when it collects it, so another folder's module imports only when that folder happened to
  be collected first, and ``pytest tests/render/test_x.py`` alone, the inner loop's command, fails to import (pass
  65: ``tests/render/test_ponytail_threejs_review_at.py`` took ``review`` from ``tests/body``).
"""

from __future__ import annotations

import ast
import functools
import re
from pathlib import Path

TESTS = Path(__file__).resolve().parent
SOURCES = sorted(p for p in TESTS.rglob("*.py") if p.name != "test_suite_rules.py")
STEMS = frozenset(p.stem for p in TESTS.rglob("*.py"))

RULES = {
    "skips on an import of our own package": re.compile(r"importorskip\(\s*[\"']workbench"),
    "asserts elapsed wall-clock time": re.compile(r"assert[^\n#]*(?:monotonic|perf_counter|time\.time)\(\)\s*-"),
    "installs npm packages from pytest": re.compile(r"\b(?:npm_install|install_validator)\("),
}


def test_the_rules_see_what_they_forbid():
    assert RULES["asserts elapsed wall-clock time"].search("    assert time.monotonic() - t >= 0.9")
    assert RULES["skips on an import of our own package"].search('pytest.importorskip("workbench.gltf")')
    assert not RULES["asserts elapsed wall-clock time"].search("    assert time.monotonic() < deadline")


def test_the_suite_keeps_its_rules():
    found = [f"{p.relative_to(TESTS.parent)}:{n}: {rule}" for p in SOURCES
             for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
             for rule, pattern in RULES.items() if pattern.search(line)]
    assert not found, "\n".join(found)


def test_browser_tests_wait_for_conditions():
    sleeping = re.compile(r"\btime\.sleep\(|^\s*sleep\(")
    found = [f"{p.relative_to(TESTS.parent)}:{n}" for p in sorted((TESTS / "browser").glob("test_*.py"))
             for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1) if sleeping.search(line)]
    assert not found, "a fixed wait in a browser test (wait for a condition instead): " + ", ".join(found)


def imports(source: str) -> list[str]:
    r"""The top-level names of the modules ``source`` imports, at its top or inside a function (read as Python, so
    a docstring's text is not an import, and ``import os, x`` names both).

    >>> imports('import os, test_x\nfrom test_y import z\nfrom . import w\ndef f():\n    "import no"\n    import test_v as v')
    ['os', 'test_x', 'test_y', 'test_v']
    """
    found: list[str] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [a.name.split(".")[0] for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            found.append(node.module.split(".")[0])
    return found


def imported_elsewhere(path: Path, source: str | None = None) -> list[str]:
    """The modules of another test folder that the test module at ``path`` (its text, or ``source`` read as if it were
    there) imports (by name: the suite's modules are imported as top-level names), at the top or inside a function.

    >>> imported_elsewhere(TESTS / "test_suite_rules.py"), imported_elsewhere(TESTS / "render" / "test_brows.py")
    ([], [])
    """
    others = STEMS - _stems(path.parent) - _stems(TESTS)
    return [m for m in imports(path.read_text(encoding="utf-8") if source is None else source) if m in others]


@functools.cache
def _stems(folder: Path) -> frozenset[str]:
    """The names of the Python modules in ``folder`` (read once a run: the rule asks for each test module's folder)."""
    return frozenset(p.stem for p in folder.glob("*.py"))


def test_the_import_rule_sees_another_folders_module():
    """Pass 65's case: a module in tests/render importing, inside a test, a module only tests/body has."""
    path = TESTS / "render" / "test_brows.py"
    body_only = sorted({p.stem for p in (TESTS / "body").glob("test_*.py")} - {p.stem for p in path.parent.glob("*.py")})
    source = f"import numpy as np\n\n\ndef test_x():\n    from {body_only[0]} import review\n"
    assert imported_elsewhere(path, source) == [body_only[0]]


def test_a_test_module_imports_its_own_folders_modules_only():
    found = [f"{p.relative_to(TESTS.parent)} imports {m}" for p in SOURCES for m in imported_elsewhere(p)]
    assert not found, "another folder's test module, importable only after that folder is collected: " + \
        ", ".join(found)


def test_no_two_folders_hold_a_test_module_of_one_name():
    """The suite's modules are imported by their names alone (each folder without an ``__init__.py`` put on
    ``sys.path``, rootdir-relative): two ``test_x.py`` in two folders collide when both are collected, and one name
    could be imported from either."""
    seen: dict[str, list[str]] = {}
    for p in TESTS.rglob("test_*.py"):
        seen.setdefault(p.stem, []).append(str(p.parent.relative_to(TESTS.parent)))
    assert not {k: v for k, v in seen.items() if len(v) > 1}
