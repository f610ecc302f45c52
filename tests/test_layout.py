"""The package's layout: imports between its parts run one way, none loops, no module is long
without a named reason, and no package ``__init__`` holds logic.

Every module's imports are read with ``ast`` (those inside functions too: a lazy import is
still a dependency), resolved to modules of the package, and checked against :data:`LAYERS`,
which says, for each part of the package (a subpackage or a top-level module), which parts it may
use. The README's picture of the layers is drawn from the same imports (:func:`layer_picture`) and
must match. No module imports another part's private module (``_name``).
"""

from __future__ import annotations

import ast
import functools
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent / "workbench"
README = ROOT.parent / "README.md"

# part -> (what it is, the parts it may use). Top first: a part may use only parts listed below it.
LAYERS: dict[str, tuple[str, set[str]]] = {
    "cli": ("the `workbench` command", {"__init__", "__version__", "_connect", "client", "service", "runner",
                                         "tracking", "body", "options"}),
    "__init__": ("the public names: connect, the clients, errors", {"__version__", "_connect", "client"}),
    "_connect": ("connect(): a deployment, or a local service", {"client", "service", "progress"}),
    "runner": ("notebooks run, checked and reported (tour, check)", {"service", "progress"}),
    "client": ("the sync and async HTTP client", {"__version__", "options", "tracking.catalog", "gltf", "widgets",
                                                   "progress"}),
    "service": ("the local reference service", {"__version__", "options", "body", "gltf", "render", "regeneration",
                                                 "tracking", "files"}),
    "widgets": ("the 3D viewer and the explorers in notebooks", {"options", "gltf", "render"}),
    "regeneration": ("what a viewer's regeneration makes", {"options", "gltf", "render"}),
    "render": ("the software renderer", {"options", "skeleton", "gltf", "threads"}),
    "gltf": ("building and reading GLB files", {"options", "skeleton", "body", "threads"}),
    "body": ("bodies on MakeHuman's base mesh", {"options", "skeleton", "progress", "files"}),
    "tracking": ("events, lakes and their analysis", {"options"}),
    "options": ("the interface's rules", set()),
    "skeleton": ("the 65 joints and their proportions", set()),
    "progress": ("a bar for any wait over 2 s", set()),
    "threads": ("helper threads for one request's two halves", set()),
    "files": ("files read only as regular files inside their folder", set()),
    "__version__": ("the version", set()),
}

# Modules longer than LONG_MODULE_LINES, each with why it stays whole.
LONG_MODULE_LINES = 400
LONG_MODULES: dict[str, str] = {
    "workbench/client/_base.py": "everything Client and AsyncClient share (URLs, headers, option checks, parsing, "
                                 "retries) in one base, so the two only send (httpx's _client.py)",
    "workbench/client/_resources.py": "one class per operation group serves Client and AsyncClient, each method with "
                                      "its result's type per mode in overloads, beside ClientCore, which makes them",
    "workbench/client/_batches.py": "the batch sender's one pipeline: check, id, batch, send concurrently, report",
    "workbench/gltf/glb.py": "the one module that knows glTF's binary layout; the writer and the reader share its tables",
    "workbench/gltf/clips.py": "the 18 library clips, one keyframe table each",
    "workbench/render/raster.py": "the rasterizer's seven steps share their arrays and run in order once per frame",
    "workbench/render/scene.py": "a GLB read into the renderer's arrays: accessors, nodes, skins, materials, poses",
    "workbench/render/loops.py": "numba's compiled loops inline each other and share one cache",
    "workbench/body/lip_lift.py": "the smile's lips as one pass over the same lip frame: the upper lip's lift and "
                                  "thinning, the mouth's arc, the lower lip's hold and thinning, applied in order",
    "workbench/body/expressions.py": "the face rig's expression shapes: each shape's fields (the cheek, its apple, "
                                     "the fold, the jaw) summed, evened and added back in one order",
    "workbench/runner/execute.py": "one notebook's run: the kernel, the cell loop, its timeouts and the widget "
                                   "socket are one state",
    "workbench/service/openapi.py": "the OpenAPI document, one table per operation",
    "workbench/cli.py": "every command's arguments and exit statuses, in one parser",
    "workbench/tracking/synth.py": "the synthetic visitors' journey model, its steps in order",
    "workbench/tracking/lake.py": "the lake's writers and reader share its layout and file options",
    "workbench/body/hair/head.py": "one head's scalp grid: read from the body, dressed over a top, and cached per body",
    "workbench/body/glasses.py": "one pair fitted to one head: lenses, rims, bridge and temples share its measures",
    "workbench/body/details.py": "the MakeHuman modifier tables the shapes and faces set, read by the build and by "
                                "the stored morphs' compile: one place for both (pass 32's eye and nose controls)",
    "workbench/body/outfit/cloth.py": "one cloth surface pipeline (weave, bands, seams, folds, roughness) on "
                                     "the garments' UVs, each step reading the one before",
    "workbench/body/skin.py": "one skin texture: the tone's albedo and what the face paints over it (lips and "
                             "their bow, flush, features), each layer placed by the same reference face",
    "workbench/body/hair/groom.py": "guide strands' one pipeline (roots, growth over the head, the fall, resampling, "
                                    "clumps, tucks, flyaways) on the same Strands arrays",
    "workbench/body/mouth.py": "the mouth's one texture layout: teeth, gums, tongue and lining's colour, occlusion, "
                               "roughness and specular read the same rows",
    "workbench/gltf/avatar.py": "one avatar GLB built in order (materials, textures, meshes, morphs, stance, clips) "
                                "into one writer",
    "workbench/widgets/viewer.py": "one widget: its traits, their bounds and its commands are one state with the page",
}


def module_name(path: Path) -> str:
    parts = ["workbench", *path.relative_to(ROOT).with_suffix("").parts]
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules() -> dict[str, Path]:
    return {module_name(p): p for p in sorted(ROOT.rglob("*.py"))}


@functools.cache
def parsed(path: Path) -> tuple[str, ast.Module]:
    """A module's text and syntax tree, read once a process: five checks here read every module of the package,
    and each parsing them again cost 1.3 s of CPU (docs/testing.md)."""
    text = path.read_text(encoding="utf-8")
    return text, ast.parse(text, str(path))


def imports(name: str, path: Path, known: set[str]) -> list[tuple[int, str]]:
    """(line, module) for every import of a workbench module in ``path``, relative ones resolved."""
    is_package = path.name == "__init__.py"
    out = []
    for node in ast.walk(parsed(path)[1]):
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
    rel = module.split(".", 1)[1] if "." in module else "__init__"
    return any(rel == n or rel.startswith(n + ".") for n in names)


def violations() -> list[str]:
    found = []
    mods = modules()
    known = set(mods)
    for name, path in mods.items():
        src = part(name)
        rel_path = path.relative_to(ROOT.parent)
        if src not in LAYERS:
            found.append(f"{rel_path}: {src} is not in LAYERS: say where it stands")
            continue
        allowed = LAYERS[src][1]
        for line, target in sorted(set(imports(name, path, known))):
            dst = part(target)
            if dst == src:
                continue
            where = f"{rel_path}:{line} imports {target}"
            private = [p for p in target.split(".")[2:] if p.startswith("_") and not p.startswith("__")]
            if private:
                found.append(f"{where}: {'.'.join(private)} is private to {dst}")
            if not within(target, allowed):
                found.append(f"{where}: {src} may use only {', '.join(sorted(allowed)) or 'nothing of the package'}")
    return found


def part_graph() -> dict[str, set[str]]:
    """Which parts import which, from the modules' imports."""
    graph: dict[str, set[str]] = {}
    for m, targets in import_graph().items():
        graph.setdefault(part(m), set()).update(part(t) for t in targets if part(t) != part(m))
    return graph


def layer_picture() -> str:
    """The README's picture of the layers, drawn from the imports: each part (top first), what it is,
    and the parts it uses."""
    graph = part_graph()
    rows = [f"{'part':<14}{'what it is':<54}uses", ""]
    for name, (what, _) in LAYERS.items():
        uses = [p for p in LAYERS if p in graph.get(name, set())]
        rows.append(f"{name:<14}{what:<54}{', '.join(uses)}".rstrip())
    return "\n".join(rows)


def test_the_readme_draws_the_layers_as_the_imports_are():
    assert layer_picture() in README.read_text(encoding="utf-8"), (
        "the README's picture of the layers is not what the imports say; put this in it:\n" + layer_picture())


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

@functools.cache
def import_graph() -> dict[str, set[str]]:
    """Which module of the package imports which (made once a process; the checks only read it)."""
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


def test_no_circles_of_imports_between_modules():
    """Lazy imports count: a module that imports another inside a function still depends on it."""
    found = circles(import_graph())
    assert not found, "circles of imports: " + "; ".join(" <-> ".join(sorted(c)) for c in found)


def test_no_part_imports_a_part_that_imports_it_back():
    found = circles(part_graph())
    assert not found, "parts that import each other: " + "; ".join(" <-> ".join(sorted(c)) for c in found)


def test_the_layers_themselves_run_one_way():
    # LAYERS lists the top first: each part may use only parts below it, so no loop can be allowed.
    order = list(LAYERS)
    for name, (_, uses) in LAYERS.items():
        above = [u for u in uses if u.split(".")[0] in order and order.index(u.split(".")[0]) <= order.index(name)]
        assert not above, f"{name} may use {above}, which stand above it in LAYERS"


def test_the_service_http_modules_import_one_way():
    graph = import_graph()
    service = "workbench.service."
    assert service + "app" not in graph[service + "cors"] | graph[service + "openapi"] | graph[service + "http"]
    assert not graph[service + "http"] & {service + n for n in ("app", "cors", "openapi", "guards")}


def module_lines(path: Path) -> int:
    """A module's lines, each import statement counted as one: ruff's import order (pyproject.toml) writes one name a
    line once an import is longer than a line, which is no more code."""
    text, tree = parsed(path)
    folded = sum(node.end_lineno - node.lineno for node in ast.walk(tree)
                 if isinstance(node, (ast.Import, ast.ImportFrom)) and node.end_lineno is not None)
    return text.count("\n") - folded


def test_long_modules_are_named_with_their_reason():
    long = {str(p.relative_to(ROOT.parent)): module_lines(p) for p in modules().values()}
    long = {k: n for k, n in long.items() if n > LONG_MODULE_LINES}
    unnamed = [f"{k} ({n} lines)" for k, n in sorted(long.items()) if k not in LONG_MODULES]
    assert not unnamed, (f"modules over {LONG_MODULE_LINES} lines: split them, or name them in LONG_MODULES with "
                         "why they stay whole: " + ", ".join(unnamed))
    stale = sorted(set(LONG_MODULES) - set(long))
    assert not stale, f"no longer long (or gone): remove them from LONG_MODULES: {stale}"


# What a package's __init__ may hold: its docstring, imports, __all__, and names loaded on first use
# (a table of name -> module, or of names that moved, and the module-level __getattr__ / __dir__ that read it), and
# an ``if TYPE_CHECKING:`` block of imports that shows a type checker the names loaded on first use.
INIT_NAMES = {"__all__", "_LAZY", "_MOVED", "__getattr__", "__dir__"}


def init_logic(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []
    for i, node in enumerate(tree.body):
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            continue
        if i == 0 and isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
            continue
        if (isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING"
                and not node.orelse and all(isinstance(n, (ast.Import, ast.ImportFrom)) for n in node.body)):
            continue
        names = [t.id for t in getattr(node, "targets", [getattr(node, "target", None)]) if isinstance(t, ast.Name)]
        if isinstance(node, (ast.Assign, ast.AnnAssign)) and names and set(names) <= INIT_NAMES:
            continue
        if isinstance(node, ast.FunctionDef) and node.name in INIT_NAMES:
            continue
        where = path.relative_to(ROOT.parent) if path.is_relative_to(ROOT.parent) else path
        found.append(f"{where}:{node.lineno}")
    return found


def test_package_inits_only_hand_names_on():
    found = [line for p in sorted(ROOT.rglob("__init__.py")) for line in init_logic(p)]
    assert not found, "logic in a package's __init__ (move it to a module of its own): " + ", ".join(found)


def test_the_init_check_sees_logic(tmp_path):
    plain = tmp_path / "__init__.py"
    plain.write_text('"""Doc."""\nfrom .a import b\n__all__ = ["b"]\n')
    assert init_logic(plain) == []
    busy = tmp_path / "busy" / "__init__.py"
    busy.parent.mkdir()
    busy.write_text('"""Doc."""\nimport os\nLIMIT = 3\ndef grow(n):\n    return n + LIMIT\n')
    assert len(init_logic(busy)) == 2
    typed = tmp_path / "typed" / "__init__.py"
    typed.parent.mkdir()
    typed.write_text('"""Doc."""\nif TYPE_CHECKING:\n    from .a import b\nif TYPE_CHECKING:\n    b = 1\n')
    assert len(init_logic(typed)) == 1


def test_the_analysis_is_one_module_per_question_none_long_and_one_dispatcher():
    folder = ROOT / "tracking" / "analysis"
    sizes = {p.name: len(p.read_text(encoding="utf-8").splitlines()) for p in folder.glob("*.py")}
    assert {"sessions.py", "funnels.py", "retention.py", "paths.py", "experiments.py", "dispatch.py"} <= set(sizes)
    assert max(sizes.values()) <= 400, sizes
    # only dispatch.py decides between pandas and Dask
    deciding = [p.name for p in folder.glob("*.py") if re.search(r"\bis_dask\(", p.read_text(encoding="utf-8"))
                and p.name != "dispatch.py"]
    assert not deciding
