"""Regeneration jobs run in worker processes, each bounded in time and memory whatever it is given.

A job is the renderer and the GLB readers working on a file someone uploaded: a hostile one (issue 45, item 2:
a node that was its own child) made a job that never ended, grew about 5 MB/s, kept the later jobs waiting for
good and SIGTERM from stopping the service. A thread cannot be stopped from outside; a process can. Every job
runs in a worker process (:mod:`workbench.regeneration.worker`, at most one per job thread, started on the first
job and kept: starting one costs about a second, a product's job then 0.3 s):

- one that runs past ``JobLimits.seconds`` is stopped (its worker killed) and its job fails saying so;
- a worker's data is bounded to ``JobLimits.memory_mib`` (``RLIMIT_DATA``), so an allocation past it fails its
  job with a MemoryError, saying so, instead of taking the machine's memory (that worker then ends);
- a worker that dies under a job (killed by the system) fails that job; the next job starts a new worker;
- stopping the service kills its workers: a job running then fails, saying the service stopped.

>>> JobLimits(seconds=0)
Traceback (most recent call last):
...
ValueError: --job-timeout must be a finite number of seconds above 0; got 0
"""

from __future__ import annotations

import math
import os
import pickle
import select
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from workbench.regeneration import worker

__all__ = ["JobLimits", "JobFailed", "JobRunner"]

# A worker's start (an interpreter, numpy, the renderer) may take this long on a busy machine; it is not part of
# any job's time.
_START_SECONDS = 120.0
_PACKAGE_ROOT = str(Path(__file__).resolve().parents[2])   # the folder holding this workbench package


@dataclass(frozen=True)
class JobLimits:
    """How long one regeneration job may run (seconds) and how much memory its worker may hold (MiB)."""

    seconds: float = 300.0
    memory_mib: int = 2048

    def __post_init__(self):
        if isinstance(self.seconds, bool) or not isinstance(self.seconds, (int, float)) or not 0 < self.seconds < math.inf:
            raise ValueError(f"--job-timeout must be a finite number of seconds above 0; got {self.seconds}")
        # Below 256 MiB a worker cannot even import numpy and the renderer.
        if isinstance(self.memory_mib, bool) or not isinstance(self.memory_mib, int) or self.memory_mib < 256:
            raise ValueError(f"--job-memory must be a whole number of MiB of at least 256; got {self.memory_mib}")


class JobFailed(RuntimeError):
    """A job that did not give its outputs: its own error, or a bound it reached; the message says which, in the
    words the job's state shows (``error``)."""


class _Ended(Exception):
    """The worker's answer did not come: ``why`` is "time" (the bound passed) or "gone" (its output ended)."""

    def __init__(self, why: str):
        super().__init__(why)
        self.why = why


class _Worker:
    """One worker process and its two pipes."""

    def __init__(self, limits: JobLimits):
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [_PACKAGE_ROOT, os.environ.get("PYTHONPATH")]))}
        # A session of its own: Ctrl-C in the service's terminal is the service's to handle (it kills its workers).
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "workbench.regeneration.worker", str(limits.memory_mib << 20), str(limits.seconds)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env, start_new_session=True)
        assert self.proc.stdout is not None, "stdout=PIPE gives the worker's output a pipe"
        self.fd = self.proc.stdout.fileno()
        if self.read(time.monotonic() + _START_SECONDS) != ("ready",):
            raise _Ended("gone")

    def read(self, deadline: float):
        """The next message, or :class:`_Ended` when the deadline passes or the worker's output ends."""
        head = self._bytes(8, deadline)
        return pickle.loads(self._bytes(int.from_bytes(head, "little"), deadline))

    def _bytes(self, n: int, deadline: float) -> bytes:
        out = bytearray()
        while len(out) < n:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self.fd], [], [], left)[0]:
                raise _Ended("time")
            chunk = os.read(self.fd, min(n - len(out), 1 << 20))
            if not chunk:
                raise _Ended("gone")
            out += chunk
        return bytes(out)

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()
        for stream in (self.proc.stdin, self.proc.stdout):
            try:
                if stream is not None:  # never, with both piped
                    stream.close()
            except OSError:
                pass


class JobRunner:
    """Runs :func:`workbench.regeneration.worker.run` in worker processes within ``limits``."""

    def __init__(self, limits: JobLimits):
        self.limits = limits
        self._idle: list[_Worker] = []
        self._busy: set[_Worker] = set()
        self._lock = threading.Lock()
        self._closed = False

    def run(self, kind: str, source: bytes, seed: str) -> dict[str, bytes]:
        """The job's outputs; :class:`JobFailed` for its own error or a bound it reached."""
        w = self._take()
        keep = False
        try:
            try:
                worker.send(w.proc.stdin, (kind, source, seed))
                outcome = w.read(time.monotonic() + self.limits.seconds)
            except (_Ended, OSError) as e:
                if self._closed:
                    raise JobFailed("the service stopped before the job ended; regenerate again") from None
                if isinstance(e, _Ended) and e.why == "time":
                    raise JobFailed(f"the job ran past its bound of {self.limits.seconds:g} s and was stopped "
                                    "(a scene too heavy to draw in that time, or one the renderer cannot finish)") from None
                raise JobFailed("the job's worker process ended under it (stopped by the system); the next job "
                                "runs in a new one") from None
            if outcome[0] == "ok":
                keep = True
                return outcome[1]
            if outcome[1] == "memory":   # (the worker ends after saying so)
                raise JobFailed(f"the job needed more memory than its bound of {self.limits.memory_mib} MiB "
                                "and was stopped")
            keep = True
            raise JobFailed(f"{outcome[1]}: {outcome[2] or outcome[1]}")
        finally:
            self._give_back(w, keep)

    def _take(self) -> _Worker:
        with self._lock:
            if self._closed:
                raise JobFailed("the service stopped before the job ended; regenerate again")
            w = self._idle.pop() if self._idle else None
        if w is None:
            try:
                w = _Worker(self.limits)
            except (_Ended, OSError) as e:
                raise JobFailed(f"the job's worker process did not start ({e})") from None
        with self._lock:
            self._busy.add(w)
            closed = self._closed
        if closed:
            self._give_back(w)
            raise JobFailed("the service stopped before the job ended; regenerate again")
        return w

    def _give_back(self, w: _Worker, keep: bool = True) -> None:
        """``w`` idle again when ``keep`` and it can serve another job; else killed."""
        with self._lock:
            self._busy.discard(w)
            if keep and not self._closed and w.proc.poll() is None:
                self._idle.append(w)
                return
        w.kill()

    def close(self) -> None:
        """Kill the workers (a job running then fails, saying the service stopped)."""
        with self._lock:
            self._closed = True
            workers = self._idle + list(self._busy)
            self._idle = []
        for w in workers:
            if w.proc.poll() is None:
                w.proc.kill()   # its job's thread sees the end of its output, and closes its pipes
        for w in workers:
            w.proc.wait()
