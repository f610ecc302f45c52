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

import re
from pathlib import Path

TESTS = Path(__file__).resolve().parent
SOURCES = sorted(p for p in TESTS.rglob("*.py") if p.name != "test_suite_rules.py")

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


def imported_elsewhere(path: Path) -> list[str]:
    """The modules of another test folder that the test module at ``path`` imports (by name: the suite's modules
    are imported as top-level names), at the top or inside a function.

    >>> imported_elsewhere(TESTS / "test_suite_rules.py"), imported_elsewhere(TESTS / "render" / "test_brows.py")
    ([], [])
    """
    own = {p.stem for p in path.parent.glob("*.py")} | {p.stem for p in TESTS.glob("*.py")}
    others = {p.stem for p in TESTS.rglob("*.py")} - own
    return [m for m in re.findall(r"^\s*(?:from|import) (\w+)", path.read_text(encoding="utf-8"), re.M) if m in others]


def test_a_test_module_imports_its_own_folders_modules_only():
    found = [f"{p.relative_to(TESTS.parent)} imports {m}" for p in SOURCES for m in imported_elsewhere(p)]
    assert not found, "another folder's test module, importable only after that folder is collected: " + \
        ", ".join(found)
