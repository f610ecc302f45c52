"""Visitor numbering as new visitors keep arriving (code review 23, M2): ``VisitorNumbers.of`` fed BATCHES batches of
PER new visitors each (and a seventh of the first batch's again), as ``LakeWriter.write`` numbers an export's
batches. Main's code rebuilt a pandas Index of every known visitor per append (time quadratic in the appends); this
branch grows a dict. Both run in this process, alternately, each on a fresh lake in /tmp: the CPU seconds
(``time.process_time``) after 10, half and all the batches, and the ratio main / branch.

    nice python bench/visitor_numbers_growth.py /tmp/main-copy/workbench/tracking/visitor_numbers.py [BATCHES] [PER]

The first argument is main's ``visitor_numbers.py`` (it imports nothing of workbench, so both load side by side).
"""

from __future__ import annotations

import importlib.util
import sys
import tempfile
import time
from pathlib import Path

import fsspec
import pyarrow as pa


def _load(name: str, path: Path):
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot load {path}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def _run(module, batches: int, per: int) -> dict[int, float]:
    numbers = module.VisitorNumbers(fsspec.filesystem("file"), tempfile.mkdtemp(prefix="numbers-growth-"))
    marks, start = {10, batches // 2, batches}, time.process_time()
    seen = {}
    for b in range(batches):
        ids = [f"visitor-{b}-{i:06d}" for i in range(per)] + [f"visitor-0-{i:06d}" for i in range(0, per, 7)]
        numbers.of(pa.array(ids))
        if b + 1 in marks:
            seen[b + 1] = time.process_time() - start
    return seen


def main() -> None:
    main_path = Path(sys.argv[1])
    batches = int(sys.argv[2]) if len(sys.argv) > 2 else 100
    per = int(sys.argv[3]) if len(sys.argv) > 3 else 10_000
    here = Path(__file__).resolve().parents[1] / "workbench" / "tracking" / "visitor_numbers.py"
    branch, old = _load("numbers_branch", here), _load("numbers_main", main_path)
    _run(branch, 2, 100), _run(old, 2, 100)  # warm: imports, first allocations
    got_main, got_branch = _run(old, batches, per), _run(branch, batches, per)
    for n in sorted(got_main):
        print(f"{n:4d} batches of {per} new visitors: main {got_main[n]:7.2f} s CPU, branch {got_branch[n]:6.2f} s, "
              f"main / branch {got_main[n] / got_branch[n]:5.1f}")


if __name__ == "__main__":
    main()
