"""The order pytest-xdist hands out the suite's files in: the costliest first, by each file's recorded cost.

pytest-xdist (``--dist loadfile``) gives each worker a file at a time, in the order collected, a worker taking the
next file as it finishes one. A file that costs 100 s handed out last keeps one worker busy while the others idle:
the run ends 100 s after the others would. Handed out longest first (the longest-processing-time rule), the long
files run beside each other at the start and the hundreds of short ones even out the workers' ends.

Each file's cost is read from ``tests/costs.json`` (seconds of a worker's time, its tests' setup, call and
teardown summed: ``[the whole file, its slow tests]``, so the quick loop ``-m "not slow"`` is ordered by what it runs
of each file). ``WORKBENCH_RECORD_COSTS=1 pytest`` writes that file again from the run (the controller sums the
reports its workers send): record it from a whole-suite run when the costs move. A file not recorded yet (a new
module) counts as ``NEW_SLOW`` seconds if it has a slow test selected (it starts among the long ones, as every slow
file did before costs were recorded), as nothing otherwise.
"""

from __future__ import annotations

import json
import os
from collections import defaultdict
from pathlib import Path

import pytest

COSTS = Path(__file__).resolve().parent / "costs.json"
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

    first = {}
    for n, item in enumerate(items):
        first.setdefault(scope(item.nodeid), n)
    file_cost = {f: cost(f) for f in first}
    items.sort(key=lambda item: (-file_cost[scope(item.nodeid)], first[scope(item.nodeid)]))


class Plugin:
    """Orders the items after ``-m``/``-k`` deselect them, and records the costs where :data:`RECORD` asks."""

    def __init__(self) -> None:
        self.costs = load()
        self.spent: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0])

    @pytest.hookimpl(trylast=True)  # after -m "not slow" and -k deselect: ordered by what runs
    def pytest_collection_modifyitems(self, config, items):
        if getattr(config.option, "failedfirst", False) or getattr(config.option, "newfirst", False):
            return  # --ff, --nf: the order asked for
        order(items, self.costs)

    def pytest_runtest_logreport(self, report):
        if os.environ.get(RECORD) != "1":
            return
        spent = self.spent[scope(report.nodeid)]
        spent[0] += report.duration
        if "slow" in report.keywords:
            spent[1] += report.duration

    def pytest_sessionfinish(self, session):
        if os.environ.get(RECORD) != "1" or hasattr(session.config, "workerinput") or not self.spent:
            return  # only the controller (or a run without workers) writes, once
        # A run of part of the suite updates the files it ran and keeps the others' figures.
        kept = {**load(), **{f: [round(w, 1), round(s, 1)] for f, (w, s) in self.spent.items() if w >= KEEP or s > 0}}
        COSTS.write_text(dumps(kept), encoding="utf-8")
