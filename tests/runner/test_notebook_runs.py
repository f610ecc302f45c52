"""The notebook runner of ``workbench tour`` and ``check`` on a busy machine: no stall, a stall never
a pass, and a check that blames the right side (the setup or the deployment, not conformance).

The CPU is made busy the way a shared 2-core machine is: as many spinning processes as cores.
"""

from __future__ import annotations

import os
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import nbformat
import pytest
from conftest import ROOT, ServerProcess
from helpers import busy_cpu, explorer_cells, notebook_of

from workbench.runner.tour import run_notebook

pytestmark = pytest.mark.slow  # each test runs notebooks through kernels (the tour's and check's runner), one with the CPU busy

def notebook(folder: Path, name: str, cells: list[str]) -> Path:
    """A notebook of code cells, each under a heading of its own (a group in the reports), written to ``folder``."""
    folder.mkdir(parents=True, exist_ok=True)
    nbformat.write(notebook_of(cells), folder / name)
    return folder / name


def cli(*args: str, timeout: float = 300) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "workbench.cli", *args], capture_output=True, text=True,
                          timeout=timeout, env={**os.environ, "PYTHONPATH": str(ROOT)})


def main(capsys, *args: str) -> subprocess.CompletedProcess:
    """``workbench ARGS`` in this process (the command's own ``main``, as its console script calls it): what
    it prints and its status, without a new interpreter importing the package (seconds each on a busy
    machine) for commands that end before any notebook runs."""
    from workbench.cli import main as workbench_main

    capsys.readouterr()
    try:
        status = workbench_main(list(args))
    except SystemExit as e:  # --help, and argparse's own errors
        status = e.code
    out, err = capsys.readouterr()
    return subprocess.CompletedProcess(["workbench", *args], status, out, err)


def test_an_output_widget_filled_in_its_own_cell_never_stalls_the_run(tmp_path):
    """nbclient waited on the shell socket for a cell's reply while its Output widget mimic sent on
    it; when the reply came in as it sent, the wait slept until the cell's timeout. Forty such cells
    with the CPU busy stalled several times; none may now take half its timeout. (A stall is the whole
    timeout; a cell here takes well under a second quiet and a few seconds on a loaded CI machine with
    the suite's other worker and spinning processes beside it, where a quarter, 5 s, was within reach.)"""
    path = notebook(tmp_path / "nb", "explorer.ipynb", explorer_cells(40)
                    + ["print(len(e0.out.outputs))"])
    with busy_cpu():
        run = run_notebook(path, tmp_path / "out", {}, timeout=20)
    assert run.ok, run.error
    slowest = max(run.groups, key=lambda g: g.seconds)
    assert slowest.seconds < 10, f"{slowest.name} took {slowest.seconds:.1f} s of its 20 s"
    # the widget's outputs still reach the kernel, as a front end would sync them
    ran = nbformat.read(tmp_path / "out" / "explorer.ipynb", 4)
    assert ran.cells[-1].outputs[0]["text"] == "1\n"


def test_a_cell_at_its_timeout_fails_its_notebook_in_the_report_junit_and_exit_status(tmp_path):
    notebook(tmp_path / "nb", "slow.ipynb", ["x = 1", "import time\ntime.sleep(120)", "print('never')"])
    done = cli("tour", "--notebooks", str(tmp_path / "nb"), "--out", str(tmp_path / "out"), "--timeout", "3")
    assert done.returncode == 1, done.stdout + done.stderr
    assert "FAIL  slow.ipynb" in done.stdout and "cell 3: ran 3." in done.stdout
    assert "stopped at its timeout (3 s)" in done.stdout and "Traceback" not in done.stdout + done.stderr
    suite = ET.parse(tmp_path / "out" / "junit.xml").getroot().find("testsuite[@name='slow']")
    cases = {c.get("name"): c for c in suite.findall("testcase")}
    assert cases["step 0"].find("failure") is None
    assert "cell 3: ran 3." in cases["step 1"].find("failure").get("message")
    assert float(cases["step 1"].get("time")) >= 3  # the runner's clock: how long the cell held the run
    assert cases["step 2"].find("skipped").get("message").startswith("not run: cell 3 ran 3.")
    index = (tmp_path / "out" / "index.html").read_text()
    assert "FAIL" in index and "stopped at its timeout (3 s)" in index


def test_the_timeout_has_a_documented_default_shorter_than_ten_minutes(capsys):
    from workbench.runner.execute import CELL_TIMEOUT

    assert CELL_TIMEOUT < 600
    assert f"(default {CELL_TIMEOUT})" in " ".join(main(capsys, "tour", "--help").stdout.split())
    assert f"(default {CELL_TIMEOUT})" in " ".join(main(capsys, "check", "--help").stdout.split())


def test_a_deployment_killed_during_check_ends_the_run_with_the_setup_verdict(tmp_path):
    reach = "import workbench\nclient = workbench.connect()\nprint(client.animations.list())"
    sleeping = tmp_path / "sleeping"
    os.mkfifo(sleeping)  # the cell opens it as it starts its long sleep: the moment to kill the deployment
    notebook(tmp_path / "nb", "a.ipynb", [reach, f"import time\nopen({str(sleeping)!r}, 'w').close()\ntime.sleep(90)",
                                          "client.animations.list()"])
    notebook(tmp_path / "nb", "b.ipynb", [reach])
    srv = ServerProcess(tmp_path / "data").start()
    check = subprocess.Popen(
        [sys.executable, "-m", "workbench.cli", "check", "--base-url", srv.base_url, "--avatar-base-url",
         srv.avatar_base_url, "--token", srv.token, "--notebooks", str(tmp_path / "nb"), "--out", str(tmp_path / "out")],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env={**os.environ, "PYTHONPATH": str(ROOT)})
    try:
        with open(sleeping):
            srv.kill9()
        out, _ = check.communicate(timeout=60)  # well before the cell's 90 s sleep would end
    finally:
        srv.stop()
        check.kill()
    assert check.returncode == 3, out
    assert "the deployment stopped answering at " in out and "1 of 2 notebooks ran" in out, out
    assert "does not conform" not in out and "Traceback" not in out
    junit = ET.parse(tmp_path / "out" / "junit.xml").getroot()
    failure = junit.find("testsuite[@name='a']/testcase[@name='step 1']/failure")
    assert "cell 3: ran " in failure.get("message") and "stopped: the deployment stopped answering" in failure.get("message")
    assert junit.find("testsuite[@name='a']/testcase[@name='step 0']/failure") is None
    assert junit.find("testsuite[@name='b']") is None  # never started
    operations = junit.find("testsuite[@name='operations']").findall("testcase")
    assert operations and all(c.find("skipped").get("message").startswith("not judged: ") for c in operations)
    assert "the deployment stopped answering" in (tmp_path / "out" / "index.html").read_text()


def test_check_names_a_missing_notebooks_folder_and_a_url_without_scheme(tmp_path, capsys):
    done = main(capsys, "check", "--base-url", "http://127.0.0.1:9/api", "--avatar-base-url", "http://127.0.0.1:9/avatars",
               "--token", "wb_x", "--notebooks", str(tmp_path / "nowhere"), "--out", str(tmp_path / "out"))
    assert done.returncode == 3
    assert f"--notebooks {tmp_path / 'nowhere'}: no such folder" in done.stdout and "index.html" not in done.stdout
    done = main(capsys, "check", "--base-url", "127.0.0.1:8080/api", "--avatar-base-url", "http://127.0.0.1:8080/avatars",
               "--token", "wb_x", "--out", str(tmp_path / "out"))
    assert done.returncode == 3
    assert "--base-url 127.0.0.1:8080/api: add http:// or https://" in done.stdout
    assert not (tmp_path / "out").exists() and "Traceback" not in done.stdout + done.stderr
    done = main(capsys, "tour", "--notebooks", str(tmp_path / "nowhere"), "--out", str(tmp_path / "out"))
    assert done.returncode == 2 and "no such folder" in done.stdout


def test_version_imports_nothing_heavy():
    """`workbench --version` answers without importing the client, the runner's Jupyter stack or numpy."""
    probe = ("import sys\nfrom workbench.cli import main\ntry:\n    main(['--version'])\nexcept SystemExit:\n    pass\n"
             "print(sorted(m for m in ('httpx', 'nbclient', 'nbformat', 'numpy', 'pandas', 'PIL', 'workbench.client')"
             " if m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=60,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    lines = done.stdout.splitlines()
    assert lines[0].startswith("workbench ") and lines[1:] == ["[]"], done.stdout + done.stderr


@pytest.mark.parametrize("command", ["tour", "check"])
def test_out_help_names_the_junit_file(command, capsys):
    assert "junit.xml" in main(capsys, command, "--help").stdout


def test_a_kernel_that_dies_as_it_starts_fails_its_notebook_with_why_and_no_traceback(tmp_path):
    """A kernel whose Python cannot start (here a PYTHONHOME that does not exist) used to end the whole
    tour with nbclient's RuntimeError, and a second traceback at exit from its clean-up."""
    path = notebook(tmp_path / "nb", "a.ipynb", ["x = 1", "print(x)"])
    script = f'''
from pathlib import Path
from workbench.runner.tour import junit_suites, run_notebook
run = run_notebook(Path({str(path)!r}), Path({str(tmp_path / "out")!r}), {{"PYTHONHOME": "/nonexistent"}}, timeout=30)
print(run.ok, "|", run.error)
for case in junit_suites([run], {{}})[0].cases:
    print(case.name, "|", case.failure, "|", case.skipped)
'''
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr[-2000:]
    why = "its kernel did not start: Kernel died before replying to kernel_info"
    assert done.stdout.splitlines() == [f"False | stopped before its first cell ({why})",
                                        f"step 0 | stopped before its first cell: {why} | None",
                                        f"step 1 | None | not run: {why}"]
