"""The CPU a command spends, every process it starts counted, Chromium's GPU and renderer processes included.

``/usr/bin/time`` counts a process and the children it waited for; Chromium's GPU process (SwiftShader, the
software GPU) and renderers are reaped by Chromium, which chromedriver starts and selenium stops, and much of
their CPU never reaches pytest's figures (docs/testing.md, suite37). Here the command runs in a cgroup of its
own (cgroup v1 ``cpuacct``: every process it starts is in it, and ``cpuacct.usage`` is their CPU however
they end), and the group's processes are sampled with psutil every second for a split by kind (the last
reading of each process: a process that lives under a second is counted in the total only).

    python bench/browser_cpu.py [--label NAME] [--json FILE] -- COMMAND...

prints one line: total CPU, user and system (cgroup), wall, and the split; with ``--json`` appends it as a
JSON line. Linux only, as root (it makes the group under /sys/fs/cgroup/cpuacct).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import psutil

GROUPS = Path("/sys/fs/cgroup/cpuacct")


def kind(proc: psutil.Process) -> str:
    """What a process is, for the split: Chromium's GPU process, its renderers, its others, the driver, pytest,
    the Jupyter server, a kernel, or other."""
    try:
        cmd = " ".join(proc.cmdline())
    except psutil.Error:
        return "gone"
    if "chrom" in cmd and "--type=" in cmd:
        if "--type=gpu-process" in cmd:
            return "chromium-gpu"
        if "--type=renderer" in cmd:
            return "chromium-renderer"
        return "chromium-other"
    if "chromedriver" in cmd:
        return "chromedriver"
    if "chrom" in cmd:
        return "chromium-other"
    if "ipykernel" in cmd:
        return "kernel"
    if "-m jupyterlab" in cmd or "-m notebook" in cmd or "jupyter-" in cmd:
        return "jupyter-server"
    if "pytest" in cmd:
        return "pytest"
    return "other"


def usage(group: Path) -> tuple[float, float, float]:
    """(total, user, system) seconds of CPU the group has used."""
    total = int((group / "cpuacct.usage").read_text()) / 1e9
    ticks = dict(line.split() for line in (group / "cpuacct.stat").read_text().splitlines())
    hz = os.sysconf("SC_CLK_TCK")
    return total, int(ticks["user"]) / hz, int(ticks["system"]) / hz


def run(command: list[str], label: str) -> dict:
    group = GROUPS / f"bench-browser-cpu-{os.getpid()}"
    group.mkdir()
    try:
        # The child joins the group before it runs the command, so nothing it starts is outside it.
        proc = subprocess.Popen(["sh", "-c", f'echo $$ > {group}/tasks && exec "$@"', "sh", *command])
        start, load0 = time.monotonic(), os.getloadavg()[0]
        seen: dict[int, tuple[str, float]] = {}
        while True:
            for pid in map(int, (group / "cgroup.procs").read_text().split()):
                try:
                    p = psutil.Process(pid)
                    t = p.cpu_times()
                    # Its kind read again each time: a process forked by pytest shows pytest's command line until it
                    # execs (the Jupyter server), a zygote's child its parent's until it says its --type.
                    key, now = (pid, p.create_time()), kind(p)
                    seen[key] = (seen[key][0] if now == "gone" and key in seen else now, t.user + t.system)
                except psutil.Error:
                    pass
            if proc.poll() is not None and not (group / "cgroup.procs").read_text().split():
                break  # the command and every straggler it left are gone
            time.sleep(1.0)
        wall = time.monotonic() - start
        total, user, system = usage(group)
    finally:
        for _ in range(50):
            try:
                group.rmdir()
                break
            except OSError:
                time.sleep(0.1)
    split: dict[str, float] = {}
    for k, cpu in seen.values():
        split[k] = round(split.get(k, 0.0) + cpu, 1)
    return {"label": label, "cpu": round(total, 1), "user": round(user, 1), "system": round(system, 1),
            "wall": round(wall, 1), "load_at_start": round(load0, 1), "end_load": round(os.getloadavg()[0], 1),
            "rc": proc.returncode, "split": dict(sorted(split.items(), key=lambda kv: -kv[1]))}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--label", default="")
    parser.add_argument("--json", type=Path)
    parser.add_argument("command", nargs=argparse.REMAINDER)
    args = parser.parse_args(argv)
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not command:
        parser.error("no command")
    out = run(command, args.label)
    print(json.dumps(out), flush=True)
    if args.json:
        with args.json.open("a") as f:
            f.write(json.dumps(out) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
