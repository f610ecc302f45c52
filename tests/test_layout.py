"""Imports between the packages of ``workbench`` run one way (README, "Map of the package").

Every module's imports are read with ``ast`` (those inside functions too: a lazy import is
still a dependency), resolved to modules of the package, and checked against the layout:

- ``client`` uses only ``options`` and the tracking catalog (``tracking.catalog``), and
  ``gltf`` for results that inspect themselves (``Model.inspect()``; gltf knows no client),
  and ``viewer3d`` for ``Model.view()`` (imported in the method: the client loads no widget);
- ``viewer3d`` (the notebook's avatar viewer) draws with ``render`` and uses nothing else;
- ``service`` uses ``gltf``, ``render``, ``viewers``, ``tracking`` and ``options``;
- ``tracking`` uses nothing of ``client`` or ``service``;
- ``gltf``, ``render`` and ``viewers`` use nothing of ``client``, ``service`` or ``tracking``;
- ``options`` uses nothing of the package;
- no module imports another package's private module (``_name``).

The application modules (``__init__``, ``connect``, ``cli``, ``tour``, ``widgets``) sit on top
and may use any package's public modules.
"""

from __future__ import annotations

import re

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent / "workbench"

# package -> ("only", packages it may use) or ("not", packages it must not use)
RULES = {
    "options": ("only", set()),
    "client": ("only", {"options", "tracking.catalog", "gltf", "viewer3d"}),
    "viewer3d": ("only", {"render"}),
    "service": ("only", {"body", "gltf", "render", "viewers", "tracking", "options"}),
    "tracking": ("not", {"client", "service"}),
    "gltf": ("not", {"client", "service", "tracking"}),
    "body": ("not", {"client", "service", "tracking", "viewer3d"}),
    "render": ("not", {"client", "service", "tracking"}),
    "viewers": ("not", {"client", "service", "tracking"}),
}


def module_name(path: Path) -> str:
    parts = ["workbench", *path.relative_to(ROOT).with_suffix("").parts]
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules() -> dict[str, Path]:
    return {module_name(p): p for p in sorted(ROOT.rglob("*.py"))}


def imports(name: str, path: Path, known: set[str]) -> list[tuple[int, str]]:
    """(line, module) for every import of a workbench module in ``path``, relative ones resolved."""
    is_package = path.name == "__init__.py"
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            out += [(node.lineno, a.name) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = name.split(".") if is_package else name.split(".")[:-1]
                anchor = anchor[:len(anchor) - (node.level - 1)]
                base = ".".join(anchor + ([base] if base else []))
            for a in node.names:
                # ``from pkg import mod`` depends on pkg.mod; ``from mod import name`` on mod.
                full = f"{base}.{a.name}"
                out.append((node.lineno, full if full in known else base))
    return [(line, m) for line, m in out if m == "workbench" or m.startswith("workbench.")]


def part(module: str) -> str:
    """The top-level part of the package a module belongs to: ``client``, ``options``, ``cli``..."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


def within(module: str, names: set[str]) -> bool:
    rel = module.split(".", 1)[1] if "." in module else ""
    return any(rel == n or rel.startswith(n + ".") for n in names)


def violations() -> list[str]:
    found = []
    mods = modules()
    known = set(mods)
    for name, path in mods.items():
        src = part(name)
        rel_path = path.relative_to(ROOT.parent)
        for line, target in sorted(set(imports(name, path, known))):
            dst = part(target)
            if dst == src:
                continue
            where = f"{rel_path}:{line} imports {target}"
            private = [p for p in target.split(".")[2:] if p.startswith("_") and not p.startswith("__")]
            if private:
                found.append(f"{where}: {'.'.join(private)} is private to {dst}")
            kind, names = RULES.get(src, ("not", set()))
            if kind == "only" and not within(target, names):
                found.append(f"{where}: {src} may use only {', '.join(sorted(names)) or 'nothing of the package'}")
            if kind == "not" and within(target, names):
                found.append(f"{where}: {src} must not use {dst}")
    return found


def test_the_checker_sees_imports():
    # A check that found no imports would pass on anything: make sure it reads them.
    mods = modules()
    got = {t for _, t in imports("workbench.client._sync", mods["workbench.client._sync"], set(mods))}
    assert {"workbench.client._base", "workbench.client._resources"} <= got
    rel = {t for _, t in imports("workbench.tracking", mods["workbench.tracking"], set(mods))}
    assert "workbench.tracking.catalog" in rel


def test_imports_between_packages_run_one_way():
    found = violations()
    assert not found, "imports that run the wrong way:\n" + "\n".join(found)


# ---------------------------------------------------------------- circles, and modules' length

# Circles of imports allowed by name, each with what removes it; any other circle fails, and so
# does an entry here once its circle is gone (so the list cannot go stale).
KNOWN_CIRCLES: dict[frozenset, str] = {}
LONG_MODULE_LINES = 600
LONG_REASON = "Long on purpose:", "Long for now:"


def import_graph() -> dict[str, set[str]]:
    mods = modules()
    known = set(mods)
    return {m: {t for _, t in imports(m, p, known) if t in known and t != m} for m, p in mods.items()}


def circles(graph: dict[str, set[str]]) -> list[frozenset[str]]:
    """The strongly connected sets of more than one module (Tarjan's algorithm, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[frozenset[str]] = []
    counter = 0
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                members = set()
                while True:
                    m = stack.pop()
                    on_stack.discard(m)
                    members.add(m)
                    if m == node:
                        break
                if len(members) > 1:
                    found.append(frozenset(members))
    return found


def test_the_circle_finder_finds_circles():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": set()}
    assert circles(graph) == [frozenset("abc")]
    assert circles({"a": {"b"}, "b": set()}) == []


def test_no_circles_of_imports_inside_any_package():
    """Lazy imports count: a module that imports another inside a function still depends on it."""
    found = set(circles(import_graph()))
    unknown = [sorted(c) for c in found if c not in KNOWN_CIRCLES]
    assert not unknown, "circles of imports: " + "; ".join(" <-> ".join(c) for c in unknown)
    gone = [sorted(c) for c in KNOWN_CIRCLES if c not in found]
    assert not gone, f"these circles are gone: remove them from KNOWN_CIRCLES: {gone}"


def test_the_service_http_modules_import_one_way():
    graph = import_graph()
    service = "workbench.service."
    assert service + "app" not in graph[service + "cors"] | graph[service + "openapi"] | graph[service + "http"]
    assert not graph[service + "http"] & {service + n for n in ("app", "cors", "openapi", "guards")}


def test_long_modules_say_why_at_their_top():
    long = []
    for name, path in modules().items():
        lines = path.read_text(encoding="utf-8").count("\n")
        if lines > LONG_MODULE_LINES:
            doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))) or ""
            if not any(marker in doc for marker in LONG_REASON):
                long.append(f"{path.relative_to(ROOT.parent)} ({lines} lines)")
    assert not long, (f"modules over {LONG_MODULE_LINES} lines with no reason at their top (a docstring paragraph "
                      f"starting {' or '.join(LONG_REASON)}); split them or say why: " + ", ".join(long))


def test_the_analysis_is_one_module_per_question_none_long_and_one_dispatcher():
    folder = ROOT / "tracking" / "analysis"
    sizes = {p.name: len(p.read_text(encoding="utf-8").splitlines()) for p in folder.glob("*.py")}
    assert {"sessions.py", "funnels.py", "retention.py", "paths.py", "experiments.py", "dispatch.py"} <= set(sizes)
    assert max(sizes.values()) <= 400, sizes
    # only dispatch.py decides between pandas and Dask
    deciding = [p.name for p in folder.glob("*.py") if re.search(r"\bis_dask\(", p.read_text(encoding="utf-8"))
                and p.name != "dispatch.py"]
    assert not deciding
