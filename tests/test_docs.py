"""The docs as a reader meets them: every relative link of README.md and docs/*.md leads to a file of the
repository, and every Python block runs as written, in order, against a local service.

A file's blocks run one after another in one namespace (as a reader pastes them into one notebook), in
a fresh process with no ``WORKBENCH_*`` variable (so ``workbench.connect()`` starts a local service) and
in an empty folder. HTML comments before a block, invisible on the rendered page, say what it needs:

- ``<!-- docs: needs a deployment -->``: not run (it names a deployment's URLs or tokens);
- ``<!-- docs: first `workbench synth --out lake/ --events 20000` -->``: that command runs first, in the
  same folder (a smaller version of the shell step the page shows before the block).

Top-level ``await`` runs as in Jupyter.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
BLOCK = re.compile(r"^```python\n(.*?)^```$", re.S | re.M)
NEEDS_DEPLOYMENT = "<!-- docs: needs a deployment -->"
FIRST = re.compile(r"<!-- docs: first `([^`]+)` -->")
# [text](target), ![alt](target) and <img src="target">; targets with a scheme are the web's.
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)|<img[^>]*\bsrc=\"([^\"]+)\"")

# Runs one file's blocks: argv = the file, then (line, command or "", code) triples as the test found them.
RUNNER = textwrap.dedent('''
    import ast, asyncio, inspect, shlex, subprocess, sys
    path, blocks = sys.argv[1], sys.argv[2:]
    namespace = {"__name__": "__main__"}
    for line, first, code in zip(blocks[0::3], blocks[1::3], blocks[2::3]):
        if first:
            subprocess.run(shlex.split(first), check=True)
        compiled = compile(code, f"{path}, the block at line {line}", "exec", flags=ast.PyCF_ALLOW_TOP_LEVEL_AWAIT)
        result = eval(compiled, namespace)
        if inspect.iscoroutine(result):
            asyncio.run(result)
        print(f"ran the block at line {line}", flush=True)
''')


def blocks(path: Path) -> list[tuple[int, str | None, str]]:
    """(line, what it needs first or None, code) of each Python block of ``path`` that runs without a deployment."""
    text = path.read_text(encoding="utf-8")
    out = []
    for m in BLOCK.finditer(text):
        line = text.count("\n", 0, m.start()) + 1
        before = text[:m.start()].rstrip("\n").rsplit("\n", 1)[-1]
        if before.strip() == NEEDS_DEPLOYMENT:
            continue
        first = FIRST.fullmatch(before.strip())
        out.append((line, first.group(1) if first else None, m.group(1)))
    return out


def links(path: Path) -> list[str]:
    """The relative targets ``path`` links to (anchors dropped), outside its code blocks."""
    text = re.sub(r"^```.*?^```$", "", path.read_text(encoding="utf-8"), flags=re.S | re.M)
    targets = [a or b for a, b in LINK.findall(text)]
    return [t.split("#", 1)[0] for t in targets if t.split("#", 1)[0] and not re.match(r"^[a-z][a-z0-9+.-]*:", t)]


@pytest.mark.parametrize("path", DOCS, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_relative_link_leads_to_a_file(path):
    broken = [t for t in links(path) if not (path.parent / t).exists()]
    assert not broken, f"{path.relative_to(ROOT)} links to what is not there: {broken}"


RUNNABLE = [p for p in DOCS if blocks(p)]


@pytest.mark.slow
@pytest.mark.parametrize("path", RUNNABLE, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_python_block_runs_as_written(path, tmp_path):
    found = blocks(path)
    args = [str(path.relative_to(ROOT))]
    for line, first, code in found:
        args += [str(line), first or "", code]
    env = {k: v for k, v in os.environ.items() if not k.startswith("WORKBENCH_")}
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    # A command a block needs first (`workbench synth`) is the environment's, as in a shell with it activated.
    env["PATH"] = str(Path(sys.executable).parent) + os.pathsep + env.get("PATH", "")
    run = subprocess.run([sys.executable, "-c", RUNNER, *args], cwd=tmp_path, env=env, capture_output=True,
                         text=True, timeout=900)
    assert run.returncode == 0, f"{path.relative_to(ROOT)}:\n{run.stdout[-2000:]}\n{run.stderr[-4000:]}"
    assert run.stdout.count("ran the block") == len(found)


def test_the_checks_find_what_they_look_for(tmp_path):
    page = tmp_path / "page.md"
    page.write_text("See [a](a.md), ![b](b.png \"B\"), <img src=\"c.png\">, [web](https://x.org/y) and [top](#top).\n\n"
                    "<!-- docs: needs a deployment -->\n```python\nskipped()\n```\n\n"
                    "<!-- docs: first `workbench --help` -->\n```python\nx = 1\n```\n\n```python\nprint(x)\n```\n",
                    encoding="utf-8")
    assert links(page) == ["a.md", "b.png", "c.png"]
    assert blocks(page) == [(9, "workbench --help", "x = 1\n"), (13, None, "print(x)\n")]
