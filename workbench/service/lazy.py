"""One lazy import at a time in the service's threads.

The service starts fast by importing the avatar generator (numba, scipy, the body's data), the lake's writer
(pyarrow) and the viewers' regeneration only when first needed, in whichever thread needs them first: the start's
two background threads (the renderer's warm-up and the animation library, :mod:`.content`) and the threads that
serve requests. Python's import locks are per module: two threads importing overlapping graphs of modules in
different orders can each wait for a module the other holds, and Python then raises ``_DeadlockError`` in one of
them. Seen in the whole suite under load (pass 46): the library's thread importing numba, which imports
``numpy.random``, while a request thread held ``numpy.random``'s lock: "writing the animation library failed", a
traceback in the service's log (tests/service/test_graceful_stop.py). Every import this package makes inside a
function is made under :func:`importing` (tests/service/test_lazy_imports.py holds the rule), so those imports
happen one after another; :func:`ready` imports what both sides of that deadlock reached for before the start's
threads begin.

>>> with importing():
...     import json
>>> json.dumps([1])
'[1]'
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["importing", "ready"]

_LOCK = threading.RLock()


@contextmanager
def importing() -> Iterator[None]:
    """Hold the service's one lock for lazy imports while the ``with`` block's imports run (re-entrant: an import
    that runs code making another lazy import of this package's waits for nothing)."""
    with _LOCK:
        yield


def ready() -> None:
    """Import, in the calling thread, the modules the start's background threads and the first requests all reach
    (``numpy.random``: numba's import and the viewers' seeded scenes both need it), before those threads begin."""
    with importing():
        import numpy.random  # noqa: F401
