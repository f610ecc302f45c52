"""The command line against bad invocations: every one ends in one or two lines and a non-zero status, never a hang
or a traceback (export's hang and broken answer: test_hostile_export.py)."""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys

import httpx
import pytest
from conftest import DATA, ROOT, free_port
from helpers import cli_in_process


def run_cli(*args, timeout=120, **env):
    return subprocess.run([sys.executable, "-m", "workbench.cli", *args], capture_output=True, text=True, timeout=timeout,
                          env={**os.environ, "PYTHONPATH": str(ROOT), **env})


def short_failure(done, status=None):
    assert done.returncode != 0 and (status is None or done.returncode == status), (done.returncode, done.stderr)
    lines = done.stderr.strip().splitlines()
    assert 1 <= len(lines) <= 2 and "Traceback" not in done.stderr and "bug of the workbench" not in done.stderr, done.stderr
    return done.stderr


@pytest.mark.parametrize("address, words", [("tcp://127.0.0.1:{dead}", "cannot be reached"),
                                            ("nonsense::x", "is not a Dask scheduler address"),
                                            ("tcp://127.0.0.1:{mute}", "is not a Dask scheduler")],
                         ids=["dead-port", "bad-address", "port-that-never-answers"])
def test_analyze_with_a_bad_or_dead_scheduler(address, words):
    with socket.socket() as mute:
        mute.bind(("127.0.0.1", 0))
        mute.listen(4)  # accepts, never speaks Dask
        address = address.format(dead=free_port(), mute=mute.getsockname()[1])
        done = run_cli("analyze", str(DATA / "sample_events.jsonl"), "--scheduler", address,
                       WORKBENCH_DASK_CONNECT_TIMEOUT="2")
    assert words in short_failure(done, 2)


def test_analyze_names_the_file_and_line_that_is_not_json_lines(tmp_path, capsys):
    bad = tmp_path / "events.jsonl"
    bad.write_text('{"sessionId": "s", "key": "heartbeat", "timestamp": 1790000000000}\n[1, 2]\n')
    err = short_failure(cli_in_process(capsys, "analyze", str(bad), "--scheduler", "threads"), 2)
    assert f"{bad}: line 2 is not a JSON object" in err and "Expecting" not in err


def test_a_corrupt_database_is_named_not_called_a_bug(tmp_path):
    (tmp_path / "workbench.db").write_bytes(b"this is not sqlite " * 400)
    for args in (("serve", "--port", "0", "--data-dir", str(tmp_path)), ("token", "create", "--data-dir", str(tmp_path))):
        err = short_failure(run_cli(*args, timeout=60), 1)
        assert f"{tmp_path / 'workbench.db'} is not a database SQLite can read" in err


@pytest.mark.parametrize("option, value", [("--read-timeout", "0"), ("--read-timeout", "nan"), ("--read-timeout", "inf"),
                                           ("--body-timeout", "-1"), ("--keep-alive-timeout", "nan"),
                                           ("--max-connections", "0"), ("--max-connections", "-5")])
def test_serve_refuses_limits_that_make_no_sense(tmp_path, capsys, option, value):
    # in process: refused before anything starts (a server started by mistake would hang the test until its timeout)
    err = short_failure(cli_in_process(capsys, "serve", "--port", "0", "--data-dir", str(tmp_path / "d"), option, value), 2)
    assert option in err
    assert not (tmp_path / "d").exists()  # refused before anything was made


def test_serve_on_ipv6_loopback_prints_urls_with_brackets(tmp_path):
    try:
        socket.socket(socket.AF_INET6).bind(("::1", 0))
    except OSError:
        pytest.skip("no IPv6 loopback here")
    proc = subprocess.Popen([sys.executable, "-m", "workbench.cli", "serve", "--host", "::1", "--port", "0",
                             "--data-dir", str(tmp_path / "d")], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            text=True, env={**os.environ, "PYTHONPATH": str(ROOT)})
    try:
        lines = []
        for line in proc.stdout:
            lines.append(line)
            if "base_url " in line:
                break
        url = re.search(r"base_url\s+(\S+)", "".join(lines)).group(1)
        assert re.fullmatch(r"http://\[::1\]:[1-9][0-9]*/api", url), url  # the port it got, not 0
        assert httpx.get(url.removesuffix("/api") + "/_local/health", timeout=30).status_code == 200
    finally:
        proc.terminate()
        proc.wait(30)
