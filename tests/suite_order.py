"""The order pytest-xdist hands out the suite's files in: the costliest first, by each file's recorded cost.

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
    """The unit pytest-xdist's ``loadfile`` hands out: the nodeid's file part.

    >>> scope("tests/body/test_body.py::test_height[feminine-140.0]"), scope("notebooks/01_avatars.ipynb::Cell 21")
    ('tests/body/test_body.py', 'notebooks/01_avatars.ipynb')
    """
    return nodeid.split("::", 1)[0]


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
    """Sort ``items`` in place: files by their cost of the tests selected, the costliest first, each file's tests
    together and in their order (a stable sort; the same on every worker, as pytest-xdist requires).

    >>> class I:
    ...     def __init__(self, nodeid, slow=False): self.nodeid, self.slow = nodeid, slow
    ...     def get_closest_marker(self, name): return self.slow or None
    ...     def __repr__(self): return self.nodeid
    >>> items = [I("a.py::x"), I("b.py::y"), I("a.py::z"), I("c.py::w", slow=True), I("d.py::v")]
    >>> order(items, {"a.py": [5.0, 0.0], "b.py": [40.0, 39.0], "d.py": [50.0, 0.0]})
    >>> items  # d 50, c new and slow 30, a 5, b 1 (its slow tests not selected)
    [d.py::v, c.py::w, a.py::x, a.py::z, b.py::y]
    """
    slow_files = {scope(i.nodeid) for i in items if i.get_closest_marker("slow") is not None}

    def cost(file: str) -> float:
        if file not in costs:
            return NEW_SLOW if file in slow_files else 0.0
        whole, slow = costs[file]
        return whole if file in slow_files else whole - slow

    first: dict[str, int] = {}
    for n, item in enumerate(items):
        first.setdefault(scope(item.nodeid), n)
    file_cost = {f: cost(f) for f in first}
    items.sort(key=lambda item: (-file_cost[scope(item.nodeid)], first[scope(item.nodeid)]))


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
    as is one whose whole cost falls under :data:`KEEP` without slow tests.

    >>> a, b, c = "tests/conftest.py", "tests/suite_order.py", "tests/helpers.py"
    >>> old = {a: [50.0, 40.0], b: [3.0, 0.0], "tests/test_gone.py": [9.0, 0.0]}
    >>> merged(old, {a: [2.04, 0.0]}, "quick", ROOT)   # a's slow 40 s kept, b (not run) kept, the gone file dropped
    {'tests/conftest.py': [42.0, 40.0], 'tests/suite_order.py': [3.0, 0.0]}
    >>> merged(old, {a: [31.0, 31.0], c: [0.2, 0.0]}, "slow", ROOT)   # a's quick 10 s kept; c under KEEP
    {'tests/conftest.py': [41.0, 31.0], 'tests/suite_order.py': [3.0, 0.0]}
    >>> merged(old, {a: [45.0, 41.0], b: [0.1, 0.0]}, "whole", ROOT)   # b now under KEEP
    {'tests/conftest.py': [45.0, 41.0]}
    """
    out = dict(old)
    for file, (whole, slow) in spent.items():
        was_whole, was_slow = old.get(file, [0.0, 0.0])
        if part == "quick":
            whole, slow = whole + was_slow, was_slow
        elif part == "slow":
            whole, slow = was_whole - was_slow + slow, slow
        out[file] = [round(whole, 1), round(slow, 1)]
    return {f: c for f, c in out.items() if (root / f).exists() and (c[0] >= KEEP or c[1] > 0)}


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

    def pytest_runtest_logreport(self, report):
        if os.environ.get(RECORD) != "1":
            return
        spent = self.spent[scope(report.nodeid)]
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
