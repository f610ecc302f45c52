"""A user's type checker on a script that uses the package: the package ships ``py.typed`` and its public names
carry their real types (issue 50).

mypy is run in process (``mypy.api``) on a script written to a temporary folder, with no configuration of ours,
the package found on its search path, as an installed package with ``py.typed`` is found.
"""

import os
import sys
import textwrap
from pathlib import Path

import pytest

import workbench

mypy_api = pytest.importorskip("mypy.api", reason="mypy comes with the dev extra: pip install -e '.[dev]'")
mypy_version = pytest.importorskip("mypy.version").__version__

PACKAGE = Path(workbench.__file__).parent

SCRIPT = '''
import workbench
import workbench.tracking

client = workbench.connect()
registration = client.avatars.register({"gender": "feminine"})
reveal_type(registration)
reveal_type(registration.model_id)
model = client.avatars.model(registration.model_id, lod=1)
reveal_type(model)
reveal_type(client.avatars.model(registration.model_id, to_file="m.glb"))
table = workbench.tracking.funnel(workbench.tracking.events_frame([]), ["viewer_loaded", "ar_requested"])
reveal_type(table)
viewer = client.local.create_viewer("product")
reveal_type(viewer)
reveal_type(client.local.viewer_file(viewer["viewerToken"], "glb"))
reveal_type(client.local.events())
reveal_type(client.local.events(fmt="csv"))


async def main() -> None:
    async_client = workbench.connect(asynchronous=True)
    reveal_type(await async_client.avatars.register({"gender": "masculine"}))
    reveal_type(await async_client.local.health())
'''

BROKEN = '''
import workbench

client = workbench.connect()
client.avatars.register("feminine")
client.avatars.model(42)
workbench.connect().avatars.registr({})
'''


@pytest.fixture(scope="module")
def mypy_cache() -> Path:
    """One mypy cache for these runs, kept between test runs as a user's own cache is kept between theirs (in
    ``$XDG_CACHE_HOME`` or ``~/.cache``, per mypy and Python version, about 60 MB): the first run on a machine
    analyses the package and what it imports (pandas, httpx, numpy: 15 s of CPU, minutes of a busy machine's
    wall), a later one reads what has not changed and checks its own script, which is new each time (a test's
    ``tmp_path``), so its findings are always made afresh: mypy's cache is keyed by each module's path, content and
    the options, and keeps each module's findings to report them again, so a warm run finds what a cold one does. A
    cache a run in its temporary folder (before suite28a) made every run a first one: the file 23.2 s of CPU against 6.3 s."""
    home = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    folder = home / "workbench-tests" / f"mypy-files-{mypy_version}-py{sys.version_info[0]}.{sys.version_info[1]}"
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def run_mypy(tmp_path: Path, source: str, cache: Path) -> tuple[str, int]:
    script = tmp_path / "user_script.py"
    script.write_text(textwrap.dedent(source), encoding="utf-8")
    # --config-file= (empty): a user's defaults, not this project's pyproject.toml; --strict as a careful user runs it
    # --no-sqlite-cache: the cache as files, each written whole (a temporary file renamed), so two runs at once or a run
    # killed midway leave it readable; mypy's SQLite cache is written with synchronous=OFF ("we may get corrupt cache
    # after e.g. Ctrl + C", its source says), and the cache outlives the run (mypy_cache). Where it is, not what it finds.
    stdout, stderr, status = mypy_api.run([str(script), "--strict", "--config-file=", "--cache-dir",
                                           str(cache), "--no-sqlite-cache", "--no-error-summary"])
    assert not stderr, stderr
    return stdout, status


def test_the_package_ships_py_typed():
    assert (PACKAGE / "py.typed").is_file()


# slow: mypy --strict analysing the package and what it imports (pandas, numpy, httpx) costs about 30 s of CPU, the
# quick loop's largest single test; the whole suite runs both. In the inner cycle `ruff check && mypy` (the README,
# .ci/run before the tests) checks the same annotations over the package; this test adds that a user's checker sees them.
@pytest.mark.slow
def test_a_users_script_sees_the_real_types(tmp_path, mypy_cache):
    out, status = run_mypy(tmp_path, SCRIPT, mypy_cache)
    revealed = [line.split("Revealed type is ", 1)[1].strip('"') for line in out.splitlines() if "Revealed type" in line]
    assert revealed == [
        "workbench.client.results.Registration",
        "str",
        "workbench.client.results.Model",
        "pathlib.Path",
        "pandas.core.frame.DataFrame",
        "dict[str, Any]",
        "bytes",
        "list[dict[str, Any]]",
        "str",
        "workbench.client.results.Registration",
        "dict[str, Any]",
    ], out
    errors = [line for line in out.splitlines() if ": error:" in line]
    assert not errors, out


@pytest.mark.slow  # the same mypy run's second half (above)
def test_a_users_wrong_calls_are_found(tmp_path, mypy_cache):
    out, status = run_mypy(tmp_path, BROKEN, mypy_cache)
    errors = [line for line in out.splitlines() if ": error:" in line]
    assert status == 1 and len(errors) == 3, out
    assert '"register" of "Avatars"' in errors[0] and '"model" of "Avatars"' in errors[1], out
    assert 'has no attribute "registr"' in errors[2], out


def test_no_module_is_excepted_and_every_ignore_says_its_code_and_why():
    import re
    import tomllib

    config = tomllib.loads((PACKAGE.parent / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["mypy"]
    excepted = [o["module"] for o in config.get("overrides", []) if o.get("ignore_errors")]
    assert not excepted, f"mypy skips the findings of {excepted}: fix them instead"
    bare = []
    for path in sorted(PACKAGE.rglob("*.py")):
        lines = path.read_text(encoding="utf-8").splitlines()
        for i, line in enumerate(lines):
            if "# type: ignore" not in line:
                continue
            # a code in brackets, and a reason: a comment after it, or a comment line just above
            coded = re.search(r"# type: ignore\[[a-z-]+(, [a-z-]+)*\]", line)
            said = re.search(r"# type: ignore\[[^\]]+\]\s+#\s*\S", line) or lines[i - 1].strip().startswith("#")
            if not (coded and said):
                bare.append(f"{path.relative_to(PACKAGE.parent)}:{i + 1}: {line.strip()}")
    assert not bare, "type: ignore without its error code and why:\n" + "\n".join(bare)
