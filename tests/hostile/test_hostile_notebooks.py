"""Notebooks that break the runner's report, flood it, or leave processes behind, and servers whose words would
drive the terminal, all through the command line (issue 40, items 6 and 9)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import xml.etree.ElementTree as ET

import nbformat
import psutil
import pytest
from conftest import ROOT
from helpers import cli_in_process, wait_for
from hostile_server import HostileServer, response

pytestmark = pytest.mark.slow  # hostile notebooks run through the tour and check (kernels)

BAD_PICTURE = '''from IPython.display import display
display({"image/png": "bm90IGEgcG5n", "text/plain": "a picture"}, raw=True)   # "not a png"'''


def notebook(folder, name: str, *sources: str):
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_markdown_cell(f"# {name}")] + [nbformat.v4.new_code_cell(s) for s in sources]
    nbformat.write(nb, folder / f"{name}.ipynb")


def workbench(*args, timeout=600, **env) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "workbench.cli", *args], capture_output=True, text=True,
                          timeout=timeout, env={**os.environ, "PYTHONPATH": str(ROOT), **env})


def failures(junit) -> dict[str, str]:
    """Each JUnit suite's failure messages, joined."""
    root = ET.parse(junit).getroot()
    return {s.get("name"): " ".join(f.get("message", "") + (f.text or "") for f in s.iter("failure"))
            for s in root.iter("testsuite")}


@pytest.fixture()
def broken_picture_notebooks(tmp_path):
    folder = tmp_path / "notebooks"
    folder.mkdir()
    notebook(folder, "a_bad_picture", "x = 1", BAD_PICTURE)
    notebook(folder, "b_fine", "print('fine')")
    return folder


def _reported(out, done):
    assert done.returncode == 1, (done.returncode, done.stdout[-2000:], done.stderr[-2000:])
    assert "bug of the workbench" not in done.stderr and "Traceback" not in done.stderr
    index = (out / "index.html").read_text()
    assert "a_bad_picture" in index and "b_fine" in index and "1 of 2 notebooks passed" in index
    assert "not a picture that can be decoded" in index
    failed = failures(out / "junit.xml")
    assert "not a picture that can be decoded" in failed["a_bad_picture"] and not failed["b_fine"]


# (the command's main in this process, helpers.cli_in_process: the same top-level handling of what goes wrong, and
# what it prints on the same stdout and stderr, without a new interpreter importing the package, a second or more)
def test_a_notebook_whose_last_picture_cannot_be_decoded_fails_alone_in_the_tour(broken_picture_notebooks, tmp_path,
                                                                                 capsys):
    out = tmp_path / "tour"
    _reported(out, cli_in_process(capsys, "tour", "--notebooks", str(broken_picture_notebooks), "--out", str(out)))


def test_a_notebook_whose_last_picture_cannot_be_decoded_fails_alone_in_check(broken_picture_notebooks, tmp_path,
                                                                              server, capsys):
    out = tmp_path / "check"
    done = cli_in_process(capsys, "check", "--notebooks", str(broken_picture_notebooks), "--out", str(out),
                          "--base-url", server.base_url, "--avatar-base-url", server.avatar_base_url,
                          "--token", server.token)
    _reported(out, done)


def test_a_cells_output_is_capped_and_its_setsid_child_ends_with_the_run(tmp_path):
    folder = tmp_path / "notebooks"
    folder.mkdir()
    pid_file = tmp_path / "child.pid"
    notebook(folder, "c_leftovers",
             "import subprocess\n"
             "# its own session (out of the kernel's process group), holding none of the tour's pipes\n"
             "child = subprocess.Popen(['setsid', 'sleep', '600'], stdin=subprocess.DEVNULL,\n"
             "                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)\n"
             f"open({str(pid_file)!r}, 'w').write(str(child.pid))",
             "for _ in range(40):\n    print('x' * (1 << 20))      # 40 MiB of output",
             "print('after')")
    out = tmp_path / "tour"
    done = workbench("tour", "--notebooks", str(folder), "--out", str(out))
    assert done.returncode == 0, (done.stdout[-2000:], done.stderr[-2000:])
    child = int(pid_file.read_text())
    try:
        assert wait_for(lambda: not psutil.pid_exists(child) or psutil.Process(child).status() == psutil.STATUS_ZOMBIE,
                        timeout=10), "the notebook's setsid child outlived the tour"
    finally:
        if psutil.pid_exists(child) and psutil.Process(child).cmdline()[:1] == ["sleep"]:
            psutil.Process(child).kill()   # (a runner that failed to: not left on the machine)
    ran = nbformat.read(out / "c_leftovers.ipynb", as_version=4)
    flood = ran.cells[2].outputs
    kept = sum(len(o.get("text", "")) for o in flood)
    assert kept < 9 << 20, f"{kept:,} bytes of output kept"
    assert "left out" in flood[-1]["text"] and "after" in ran.cells[3].outputs[0]["text"]
    assert (out / "c_leftovers.html").stat().st_size < 12 << 20


# ---------------------------------------------------------------- a server's words never drive the terminal

ESCAPES = "\x1b]0;owned\x07\x1b[2J\x1b[31m"


# (the command's main in this process, helpers.cli_in_process: it prints what it prints to the same stderr, and each
# command ends at the server's refusal, so a new interpreter, over a second of CPU, proved nothing more)
def test_an_export_refusal_with_terminal_escapes_is_printed_inert(tmp_path, capsys):
    body = json.dumps({"status": "error", "error": {"code": "bad", "message": f"no{ESCAPES}pe"}}).encode()
    with HostileServer(lambda *a: response(400, body)) as srv:
        done = cli_in_process(capsys, "export", "--out", str(tmp_path / "lake"), "--local-url", srv.root + "/_local")
    assert done.returncode == 1 and "\x1b" not in done.stderr and "\x07" not in done.stderr
    assert "no\\x1b]0;owned\\x07" in done.stderr


def test_a_probe_code_with_terminal_escapes_is_printed_inert(tmp_path, capsys):
    folder = tmp_path / "notebooks"
    folder.mkdir()
    notebook(folder, "d_any", "x = 1")
    animations = json.dumps({"status": "ok", "data": {"masculine": [], "feminine": []}}).encode()
    refused = json.dumps({"status": "error", "error": {"code": f"nope{ESCAPES}", "message": "no"}}).encode()

    def answer(method, path, headers, body):
        return response(200, animations) if path.endswith("/animations") else response(401, refused)

    with HostileServer(answer) as srv:
        done = cli_in_process(capsys, "check", "--notebooks", str(folder), "--out", str(tmp_path / "out"), "--base-url",
                              srv.root + "/api", "--avatar-base-url", srv.root + "/avatars", "--token", "wb_x")
    printed = done.stdout + done.stderr
    assert done.returncode == 3 and "nope" in printed and "\x1b" not in printed and "\x07" not in printed
