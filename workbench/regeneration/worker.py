"""A regeneration job's worker process: ``python -m workbench.regeneration.worker MEMORY_BYTES SECONDS``.

The service runs every regeneration in a worker process of its own (``workbench.service.jobs``), so that a job
can be stopped whatever it is given (issue 45, item 2: a space whose node was its own child made a job that
never ended, grew 5 MB/s and kept SIGTERM from stopping the service). The worker bounds its own data
(``RLIMIT_DATA``: the heap and every private mapping, numpy's arrays included) so that an allocation past it
fails with MemoryError instead of taking the machine's memory, and arms an alarm a little past the job's time
bound before each job, so it ends by itself even when the service that would stop it is gone. It then reads
jobs from its standard input and writes their outcomes to its standard output, one message each
(:func:`send` and :func:`receive`: an 8-byte length, then a pickle; both ends are this package's code).

A plain interpreter started for the purpose rather than ``multiprocessing``: that imports the program's main
module again in every child, which runs a user's script that has no ``if __name__ == "__main__"`` a second time.

>>> from workbench.regeneration.product import build_product_glb
>>> sorted(run("product", build_product_glb("w"), "w"))
['glb', 'preview', 'usdz']
"""

from __future__ import annotations

import math
import pickle
import signal
import struct
import sys

__all__ = ["run", "send", "receive", "main"]

_LENGTH = struct.Struct("<Q")


def run(kind: str, source: bytes, seed: str) -> dict[str, bytes]:
    """The outputs of one job: a ``product`` viewer's from its source GLB, a ``space`` viewer's from its scene."""
    from .regenerate import regenerate_product, regenerate_space

    return regenerate_product(source) if kind == "product" else regenerate_space(source, seed)


def send(stream, message) -> None:
    """Write ``message`` (anything pickle takes) to the binary ``stream`` as one message."""
    data = pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
    stream.write(_LENGTH.pack(len(data)) + data)
    stream.flush()


def receive(stream):
    """The next message on the binary ``stream``; None at its end."""
    head = stream.read(_LENGTH.size)
    if len(head) < _LENGTH.size:
        return None
    return pickle.loads(stream.read(_LENGTH.unpack(head)[0]))


def main(memory_bytes: int, seconds: float) -> None:
    """Say ``("ready",)``, then serve jobs ``(kind, source, seed)`` until the standard input ends: each answered
    ``("ok", outputs)`` or ``("error", kind of error, message)``; a MemoryError ends the worker after its answer."""
    import resource

    jobs, answers = sys.stdin.buffer, sys.stdout.buffer
    sys.stdout = sys.stderr   # whatever a library prints goes to the service's log, not into the answers
    # Ctrl-C in the service's terminal reaches its whole process group: the service stops its workers itself.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_DATA, (memory_bytes, memory_bytes))
    from . import regenerate  # noqa: F401  (once here, not inside the first job's time)

    alarm = min(math.ceil(seconds) + 5, 2**31 - 1)
    send(answers, ("ready",))   # the jobs' time counts from here
    while (job := receive(jobs)) is not None:
        # SIGALRM's default action ends the process: a job past its bound ends even if nobody is waiting for it.
        signal.alarm(alarm)
        outcome: tuple[object, ...]
        try:
            outcome = ("ok", run(*job))
        except MemoryError:
            outcome = ("error", "memory", "")
        except Exception as e:  # the job's failure is its answer; the worker serves the next one
            outcome = ("error", type(e).__name__, str(e))
        finally:
            signal.alarm(0)
        send(answers, outcome)
        if outcome[1] == "memory":
            return


if __name__ == "__main__":
    main(int(sys.argv[1]), float(sys.argv[2]))
