"""The order pytest-xdist hands out the suite's files in: the costliest first, by each file's recorded cost; and
the few long browser files it hands out in parts (:func:`unit`).

pytest-xdist (``--dist loadfile``) gives each worker a file at a time, in the order collected, a worker taking the
next file as it finishes one. A file that costs 100 s handed out last keeps one worker busy while the others idle:
the run ends 100 s after the others would. Handed out longest first (the longest-processing-time rule), the long
files run beside each other at the start and the hundreds of short ones even out the workers' ends.

Each file's cost is read from ``tests/costs.json`` (seconds of a worker's time, its tests' setup, call and
teardown summed: ``[the whole file, its slow tests]``, so the quick loop ``-m "not slow"`` is ordered by what it runs
of each file). ``WORKBENCH_RECORD_COSTS=1 pytest`` writes that file again from the run (the controller sums the
reports its workers send): record it from a whole-suite run when the costs move. A run of ``-m "not slow"`` or
``-m slow`` replaces only that part of each file's figure, a run of some files only theirs; a run that may leave out
part of a file (``-k``, ``--deselect``, ``--lf``, ``--sw``, ``-x``, a test's nodeid, another ``-m``, one stopped
early) records nothing, saying so. A file not recorded yet (a new module) counts as ``NEW_SLOW`` seconds if it has a slow test selected (it starts among the long ones, as every slow
file did before costs were recorded), as nothing otherwise.
"""

from __future__ import annotations

import json
import os
import warnings
from collections import defaultdict
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent  # the keys of COSTS are relative to it
COSTS = ROOT / "tests" / "costs.json"
RECORD = "WORKBENCH_RECORD_COSTS"  # set to 1 to write COSTS from this run
NEW_SLOW = 30.0  # seconds assumed for a slow file not yet recorded (a browser module takes 10 to 60 s of a worker)
KEEP = 0.5  # a file under this many seconds is left out of COSTS (counts as nothing)


def scope(nodeid: str) -> str:
    """The file of a nodeid, or of a :func:`unit` (what pytest-xdist's ``loadfile`` hands out).

    >>> scope("tests/body/test_body.py::test_height[feminine-140.0]"), scope("notebooks/01_avatars.ipynb::Cell 21")
    ('tests/body/test_body.py', 'notebooks/01_avatars.ipynb')
    >>> scope("tests/browser/test_viewer_layout.py[lab]")
    'tests/browser/test_viewer_layout.py'
    """
    file = nodeid.split("::", 1)[0]
    return file[:file.index("[")] if file.endswith("]") and "[" in file else file


# The browser files whose tests xdist may hand to different workers (issue 49: "a file too long for one worker split
# so xdist can spread it"). Each ran whole on one worker, and one file's length bounded the run from below: the
# studio's colour tests 460 s of a loaded worker's wall, the JupyterLab viewer's [lab] and [notebook] 390 s.
BROWSER = "tests/browser/"
#: Browser files each of whose tests is a unit of its own: what they share at module scope is a page opened and
#: avatars posted to the worker's service (each test fetches the GLBs it draws; test_threejs.py's two share one, the
#: masculine default, which each worker's service builds where they run apart).
BY_TEST = frozenset({BROWSER + "test_studio_colour.py", BROWSER + "test_threejs.py"})
#: The apps a browser test's module fixture is parametrized with: tests/browser/viewer_page.py's APPS (not imported:
#: that module loads the browser helpers; test_suite_order checks the two are equal).
APPS = ("lab", "notebook")
#: Browser files whose MODULE fixture is parametrized with the app, so a file's tests of one app are a unit that sets
#: up that app's notebook only. Not a file whose tests take the app as their own parameter (test_viewer_reopened.py's
#: module fixture saves a Notebook 7 picture whichever app a test runs in: split, each part would do it again).
#: What must stay true of a file named here: its module fixtures read the app from their param and share nothing else.
BY_APP = frozenset({BROWSER + "test_viewer_layout.py", BROWSER + "test_avatar_viewer_keys.py",
                    BROWSER + "test_avatar_viewer_lab.py", BROWSER + "test_explorer_lab.py"})


def unit(nodeid: str) -> str:
    """The unit pytest-xdist hands a worker whole (``Plugin``'s scheduler): the nodeid's file (:func:`scope`; a
    notebook's cells run in order in one kernel), but a test of a :data:`BY_TEST` file on its own, and a
    :data:`BY_APP` file's tests of one of :data:`APPS` together, apart from its other app's. A test's module-scoped
    fixtures are then set up on each worker that runs one of its units (a page opened, a notebook folder in the worker's
    session server: seconds), each test still in its own notebook or page as before.

    >>> unit("tests/body/test_body.py::test_height[feminine-140.0]"), unit("notebooks/01_avatars.ipynb::Cell 21")
    ('tests/body/test_body.py', 'notebooks/01_avatars.ipynb')
    >>> unit("tests/browser/test_threejs.py::test_silhouette_matches_the_preview[feminine-full]")
    'tests/browser/test_threejs.py::test_silhouette_matches_the_preview'
    >>> unit("tests/browser/test_viewer_layout.py::test_compare_fits_the_output_area[notebook]")
    'tests/browser/test_viewer_layout.py[notebook]'
    >>> unit("tests/browser/test_lab_saves_notebooks.py::test_a_notebook_opened_and_saved_in_jupyterlab_is_unchanged[01_avatars]")
    'tests/browser/test_lab_saves_notebooks.py'
    >>> unit("tests/browser/test_viewer_reopened.py::test_a_reopened_viewer_shows_its_picture[lab]")
    'tests/browser/test_viewer_reopened.py'
    """
    file, _, rest = nodeid.partition("::")
    if not file.startswith(BROWSER) or not rest:
        return file
    name, _, params = rest.partition("[")
    if file in BY_TEST:
        return f"{file}::{name}"
    if file not in BY_APP:
        return file
    app = next((p for p in params.rstrip("]").split("-") if p in APPS), None)
    return f"{file}[{app}]" if app else file


def load(path: Path = COSTS) -> dict[str, list[float]]:
    """The recorded costs at ``path``: ``{file: [whole, slow]}`` (seconds), nothing if there is no such file.

    >>> load(Path("no-such-costs.json"))
    {}
    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as d:
    ...     _ = (Path(d) / "costs.json").write_text('{"tests/a.py": [12.5, 0.0]}', encoding="utf-8")
    ...     load(Path(d) / "costs.json")["tests/a.py"]  # a file without slow tests
    [12.5, 0.0]
    """
    return json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}


def dumps(costs: dict[str, list[float]]) -> str:
    """COSTS's text: a file a line, sorted (a diff shows which files' costs moved).

    >>> print(dumps({"b.py": [2.0, 0.0], "a.py": [40.5, 40.5]}), end="")
    {
    "a.py": [40.5, 40.5],
    "b.py": [2.0, 0.0]
    }
    """
    return "{\n" + ",\n".join(f"{json.dumps(f)}: {json.dumps(c)}" for f, c in sorted(costs.items())) + "\n}\n"


def order(items: list, costs: dict[str, list[float]]) -> None:
    """Sort ``items`` in place: the units xdist hands out (:func:`unit`: files, and the parts of the browser files it
    splits) by their cost of the tests selected, the costliest first, each unit's tests together and in their order
    (a stable sort; the same on every worker, as pytest-xdist requires). A unit not recorded in ``costs`` but whose
    file is (a file split since the costs were recorded) counts as its share of the file's tests of the file's cost.

    >>> class I:
    ...     def __init__(self, nodeid, slow=False): self.nodeid, self.slow = nodeid, slow
    ...     def get_closest_marker(self, name): return self.slow or None
    ...     def __repr__(self): return self.nodeid
    >>> items = [I("a.py::x"), I("b.py::y"), I("a.py::z"), I("c.py::w", slow=True), I("d.py::v")]
    >>> order(items, {"a.py": [5.0, 0.0], "b.py": [40.0, 39.0], "d.py": [50.0, 0.0]})
    >>> items  # d 50, c new and slow 30, a 5, b 1 (its slow tests not selected)
    [d.py::v, c.py::w, a.py::x, a.py::z, b.py::y]
    >>> s = "tests/browser/test_studio_colour.py"
    >>> items = [I(s + "::t1", True), I(s + "::t2", True), I(s + "::t3", True), I("e.py::u", True)]
    >>> order(items, {s: [90.0, 90.0], s + "::t3": [50.0, 50.0], "e.py": [35.0, 35.0]})
    >>> items  # t3 as recorded, e 35, t1 and t2 a third of the file's 90 each
    [tests/browser/test_studio_colour.py::t3, e.py::u, tests/browser/test_studio_colour.py::t1, tests/browser/test_studio_colour.py::t2]
    """
    slow_units = {unit(i.nodeid) for i in items if i.get_closest_marker("slow") is not None}
    in_file: dict[str, int] = defaultdict(int)
    in_unit: dict[str, int] = defaultdict(int)
    for item in items:
        in_file[scope(item.nodeid)] += 1
        in_unit[unit(item.nodeid)] += 1

    def cost(u: str) -> float:
        key, share = u, 1.0
        if u not in costs and scope(u) in costs:
            key, share = scope(u), in_unit[u] / in_file[scope(u)]
        if key not in costs:
            return NEW_SLOW if u in slow_units else 0.0
        whole, slow = costs[key]
        return share * (whole if u in slow_units else whole - slow)

    first: dict[str, int] = {}
    for n, item in enumerate(items):
        first.setdefault(unit(item.nodeid), n)
    unit_cost = {u: cost(u) for u in first}
    items.sort(key=lambda item: (-unit_cost[unit(item.nodeid)], first[unit(item.nodeid)]))


def part_run(option) -> str | None:
    """Which part of every file it collects a run with pytest's ``option`` runs whole: ``"whole"``, ``"quick"``
    (``-m "not slow"``), ``"slow"`` (``-m slow``), or None where it may leave out part of a file (``-k``, ``--deselect``,
    ``--lf``, ``--sw``, ``-x``/``--maxfail``, a test's nodeid, another ``-m``).

    >>> from types import SimpleNamespace as O
    >>> part_run(O(markexpr="not slow", keyword="", file_or_dir=["tests/body"])), part_run(O(markexpr="slow"))
    ('quick', 'slow')
    >>> part_run(O(markexpr="", keyword="hair")), part_run(O(file_or_dir=["tests/test_x.py::test_y"]))
    (None, None)
    """
    if any(getattr(option, name, None) for name in ("keyword", "deselect", "lf", "stepwise", "stepwise_skip", "maxfail")):
        return None
    if any("::" in str(arg) for arg in getattr(option, "file_or_dir", None) or ()):
        return None
    return {"": "whole", "not slow": "quick", "slow": "slow"}.get(" ".join((getattr(option, "markexpr", "") or "").split()))


def merged(old: dict[str, list[float]], spent: dict[str, list[float]], part: str, root: Path) -> dict[str, list[float]]:
    """``old`` costs with a run's ``spent`` seconds (``{file: [whole, slow]}``) of ``part`` (:func:`part_run`): each file
    run gets that part replaced and keeps the other; a file not run keeps its figure; a file gone from ``root`` is dropped,
    as is one whose whole cost falls under :data:`KEEP` without slow tests. A ``"whole"`` run also drops the units it
    did not run of the files it ran (a file handed out whole before :func:`unit` split it, or split before and whole now).

    >>> a, b, c = "tests/conftest.py", "tests/suite_order.py", "tests/helpers.py"
    >>> old = {a: [50.0, 40.0], b: [3.0, 0.0], "tests/test_gone.py": [9.0, 0.0]}
    >>> merged(old, {a: [2.04, 0.0]}, "quick", ROOT)   # a's slow 40 s kept, b (not run) kept, the gone file dropped
    {'tests/conftest.py': [42.0, 40.0], 'tests/suite_order.py': [3.0, 0.0]}
    >>> merged(old, {a: [31.0, 31.0], c: [0.2, 0.0]}, "slow", ROOT)   # a's quick 10 s kept; c under KEEP
    {'tests/conftest.py': [41.0, 31.0], 'tests/suite_order.py': [3.0, 0.0]}
    >>> merged(old, {a: [45.0, 41.0], b: [0.1, 0.0]}, "whole", ROOT)   # b now under KEEP
    {'tests/conftest.py': [45.0, 41.0]}
    >>> merged({a: [50.0, 40.0], a + "::test_x": [9.0, 9.0]}, {a: [45.0, 41.0]}, "whole", ROOT)   # a's old unit dropped
    {'tests/conftest.py': [45.0, 41.0]}
    """
    out = dict(old)
    if part == "whole":
        ran = {scope(f) for f in spent}
        out = {f: c for f, c in out.items() if f in spent or scope(f) not in ran}
    for file, (whole, slow) in spent.items():  # (a file, or a unit of one: :func:`unit`)
        was_whole, was_slow = old.get(file, [0.0, 0.0])
        if part == "quick":
            whole, slow = whole + was_slow, was_slow
        elif part == "slow":
            whole, slow = was_whole - was_slow + slow, slow
        out[file] = [round(whole, 1), round(slow, 1)]
    return {f: c for f, c in out.items() if (root / scope(f)).exists() and (c[0] >= KEEP or c[1] > 0)}


class Plugin:
    """Orders the items after ``-m``/``-k`` deselect them, and records the costs at ``path`` where :data:`RECORD` asks.

    >>> Plugin(Path("no-such-costs.json")).costs
    {}
    """

    def __init__(self, path: Path = COSTS) -> None:
        self.path = path
        self.costs = load(path)
        self.spent: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0])

    @pytest.hookimpl(trylast=True)  # after -m "not slow" and -k deselect: ordered by what runs
    def pytest_collection_modifyitems(self, config, items):
        if getattr(config.option, "failedfirst", False) or getattr(config.option, "newfirst", False):
            return  # --ff, --nf: the order asked for
        if getattr(config.option, "stepwise", False) or getattr(config.option, "stepwise_skip", False):
            # --sw: pytest's stepwise plugin has already dropped the tests before the last failure, in the order
            # collected; sorted now, the tests dropped would not be those that ran and passed (tests never run
            # would be skipped as passed). The order collected is kept, as the previous --sw run ran it.
            return
        order(items, self.costs)

    @pytest.hookimpl(optionalhook=True, tryfirst=True)  # before xdist's own: ours for --dist loadfile
    def pytest_xdist_make_scheduler(self, config, log):
        """xdist's ``loadfile`` scheduler handing out :func:`unit` s, not whole files (None: xdist's own, another
        ``--dist``)."""
        if config.getvalue("dist") != "loadfile":
            return None
        from xdist.scheduler import LoadFileScheduling

        class Units(LoadFileScheduling):
            def _split_scope(self, nodeid: str) -> str:
                return unit(nodeid)

        return Units(config, log)

    def pytest_runtest_logreport(self, report):
        if os.environ.get(RECORD) != "1":
            return
        spent = self.spent[unit(report.nodeid)]
        spent[0] += report.duration
        if "slow" in report.keywords:
            spent[1] += report.duration

    def pytest_sessionfinish(self, session, exitstatus):
        if os.environ.get(RECORD) != "1" or hasattr(session.config, "workerinput") or not self.spent:
            return  # only the controller (or a run without workers) writes, once
        part = part_run(session.config.option)
        if part is None or session.shouldfail or session.shouldstop or exitstatus == pytest.ExitCode.INTERRUPTED:
            warnings.warn(f"{RECORD}: not recorded; this run may have left out part of a file (-k, --deselect, --lf, "
                          "--sw, -x, a nodeid, an -m other than 'slow' or 'not slow', or stopped early)", stacklevel=1)
            return
        self.path.write_text(dumps(merged(load(self.path), self.spent, part, session.config.rootpath)),
                             encoding="utf-8")
