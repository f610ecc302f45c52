"""Where Dask work runs: a named cluster, the caller's client, or an embedded LocalCluster sized to the machine.

Resolution order for every analysis call on a Dask DataFrame (first match wins):

1. a ``client=`` argument (a ``distributed.Client``);
2. ``WORKBENCH_DASK_SCHEDULER``: ``tcp://HOST:8786`` (a real cluster's scheduler), or
   ``threads`` / ``sync`` for Dask's local schedulers without ``distributed``;
3. the default ``distributed`` client, if the caller already made one;
4. this process's threads (Dask's ``"threads"`` scheduler: the same kernels per partition,
   no worker processes) when the frame is small (``rows`` <= :data:`IN_PROCESS_ROWS`, the
   dispatcher's count from the files' footers, or a frame made from pandas): a cluster's
   start and the moves of partial answers between processes cost more than they save on a
   lake that size (``bench/scale.py``, ``bench/RESULTS.md``). On a machine of at most
   :data:`THREADS_ONLY_CORES` cores, frames of every size: there a cluster has no more cores
   to use than the threads have, and was slower at every size measured. Also when the program is a
   plain script without ``if __name__ == "__main__":``, whose worker processes would each
   re-run the script (a warning says how to get them);
5. an embedded ``LocalCluster`` started on first use: one single-threaded worker
   process per core, the machine's memory shared between them (pandas holds the GIL
   in much of the analysis, so processes beat threads on large lakes). It stays up until
   the interpreter exits, and :func:`close_embedded` stops it (and closes the clients of
   named schedulers).

In a notebook, :func:`compute` shows Dask's progress bar while it waits.

>>> os.environ["WORKBENCH_DASK_SCHEDULER"] = "sync"
>>> import dask.dataframe as dd, pandas as pd
>>> compute(dd.from_pandas(pd.Series([1, 2, 3]), npartitions=2).sum())
(np.int64(6),)
>>> del os.environ["WORKBENCH_DASK_SCHEDULER"]
"""

from __future__ import annotations

import asyncio
import importlib
import os
import sys
import threading
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import distributed

    #: Where an analysis computes: a local scheduler's name ("threads", "sync") or a ``distributed.Client``.
    Scheduler = str | distributed.Client

__all__ = ["get_client", "compute", "close_embedded", "ENV", "IN_PROCESS_ROWS", "THREADS_ONLY_CORES"]

ENV = "WORKBENCH_DASK_SCHEDULER"
#: Frames of at most this many rows run on this process's threads (measured: bench/RESULTS.md).
IN_PROCESS_ROWS = 30_000_000
#: On a machine of at most this many cores every frame runs on this process's threads: at 100 million
#: events on 2 cores the threads took 0.55, 0.51 and 0.71 of the 2-process cluster's time on retention, paths
#: and funnel, bucket by bucket in under 1.3 GB (bench/RESULTS.md). More cores: not measured, the cluster stays.
THREADS_ONLY_CORES = 2
_LOCAL_SCHEDULERS = ("threads", "sync", "synchronous", "processes")
_lock = threading.Lock()
_embedded: dict[str, Any] = {}
_named: dict[str, Any] = {}


def get_client(client=None, rows: int | None = None):
    """The ``distributed.Client`` to use, or a local scheduler's name (``"threads"``, ``"sync"``), for work on a
    frame of ``rows`` rows (None: unknown).

    >>> get_client("threads")
    'threads'
    >>> get_client(rows=1_000)
    'threads'
    """
    if client is not None:
        return client
    address = os.environ.get(ENV, "").strip()
    if address:
        if address in _LOCAL_SCHEDULERS:
            return address
        with _lock:
            if address not in _named:
                _named[address] = _connect(address)
            return _named[address]
    # A caller's default client exists only if the caller imported distributed to make it: importing it here
    # just to ask cost a first small question about 0.4 s of its 0.9 s (bench/RESULTS.md, issue 28 item 15)
    if "distributed" in sys.modules:
        from distributed import default_client

        try:
            return default_client()
        except ValueError:  # no client made by the caller
            pass
    if (rows is not None and rows <= IN_PROCESS_ROWS) or (os.cpu_count() or 1) <= THREADS_ONLY_CORES:
        return "threads"
    if _unguarded_script():
        import warnings

        warnings.warn("this script has no `if __name__ == \"__main__\":`, so worker processes would each run it "
                      "again: the analysis runs on this process's threads. Put the work under that line to use "
                      "a cluster of worker processes", UserWarning, stacklevel=4)
        return "threads"
    with _lock:
        if "client" not in _embedded:
            import logging

            from distributed import Client, LocalCluster

            # the cluster's own start-up chatter is not the user's business
            logging.getLogger("distributed").setLevel(logging.WARNING)
            cores = os.cpu_count() or 1
            cluster = LocalCluster(n_workers=cores, threads_per_worker=1, processes=True,
                                   dashboard_address=None, silence_logs=logging.WARNING)
            client = Client(cluster, set_as_default=False)
            # load the analysis on the workers now, not inside the first computation's time
            client.run(importlib.import_module, "workbench.tracking.analysis")
            _embedded["cluster"] = cluster
            _embedded["client"] = client
        return _embedded["client"]


def _connect(address: str):
    """A client of the scheduler at ``address``, or ValueError naming it within the connect timeout
    (``WORKBENCH_DASK_CONNECT_TIMEOUT`` seconds, default 10): a bad or dead address must not hang a command."""
    import socket

    from distributed import Client
    from distributed.comm.addressing import get_address_host_port, parse_address

    seconds = float(os.environ.get("WORKBENCH_DASK_CONNECT_TIMEOUT", "10"))
    hint = "give a running scheduler as tcp://HOST:8786, or 'threads' for no cluster"
    # Checked before a Client exists: a Client that failed to connect still tries to close when collected,
    # and prints a traceback of its own.
    if parse_address(address, strict=False)[0] not in ("tcp", "tls"):  # inproc:// and the like: nothing to probe
        return Client(address, set_as_default=False, timeout=seconds)
    try:
        host, port = get_address_host_port(address)
    except (ValueError, TypeError):
        raise ValueError(f"{address!r} is not a Dask scheduler address; {hint}") from None
    try:
        socket.create_connection((host, port), timeout=seconds).close()
    except OSError as e:
        why = f"did not answer within {seconds:g} s" if isinstance(e, TimeoutError) else f"cannot be reached ({e.strerror or e})"
        raise ValueError(f"the Dask scheduler at {address} {why}; {hint}") from None
    try:  # something answers there: is it a Dask scheduler (its handshake)?
        asyncio.run(asyncio.wait_for(_handshake(address, seconds), seconds))  # a mute peer: connect's own timeout stops at TCP
    except Exception:  # a garbled answer can fail anywhere in distributed's decoding
        raise ValueError(f"what answers at {address} is not a Dask scheduler (no handshake within {seconds:g} s); "
                         f"{hint}") from None
    return Client(address, set_as_default=False, timeout=seconds)


async def _handshake(address: str, seconds: float) -> None:
    from distributed.comm import connect

    comm = await connect(address, timeout=seconds)
    await comm.close()


def _unguarded_script() -> bool:
    """Whether the program is a plain ``python script.py`` whose top level has no ``if __name__ == "__main__":``
    (worker processes start by importing the main script again, Python's "spawn")."""
    import ast

    main = sys.modules.get("__main__")
    path = getattr(main, "__file__", None)
    if path is None or getattr(main, "__spec__", None) is not None or not str(path).endswith(".py"):
        return False  # interactive, a notebook, or `python -m` (pytest, a module)
    try:
        tree = ast.parse(open(path, encoding="utf-8").read())
    except (OSError, SyntaxError, ValueError):
        return False
    for node in tree.body:
        if isinstance(node, ast.If) and isinstance(node.test, ast.Compare) and "__main__" in ast.unparse(node.test):
            return False
    return True


def close_embedded() -> None:
    """Stop the embedded LocalCluster and close the clients opened for named schedulers (a later call starts anew).

    >>> close_embedded()
    """
    with _lock:
        client, cluster = _embedded.pop("client", None), _embedded.pop("cluster", None)
        named = list(_named.values())
        _named.clear()
    for c in [client, *named]:
        if c is not None:
            c.close()
    if cluster is not None:
        cluster.close()


def _in_notebook() -> bool:
    try:
        from IPython import get_ipython
    except ImportError:
        return False
    shell = get_ipython()
    return shell is not None and type(shell).__name__ == "ZMQInteractiveShell"


def compute(*collections, client=None) -> tuple:
    """Compute Dask collections where :func:`get_client` says; a tuple of results, in order."""
    import dask

    target = get_client(client)
    if isinstance(target, str):
        from dask.base import named_schedulers

        # given by name, Dask imports distributed to look for a client (0.4 s); given as a function, it does not
        return dask.compute(*collections, scheduler=named_schedulers.get(target, target))
    futures = target.compute(list(collections))
    if _in_notebook():
        from distributed.diagnostics.progressbar import ProgressWidget
        from IPython.display import display

        # Dask's widget listens on the kernel's event loop, which is blocked while this cell
        # waits; here it listens on the client's own loop (its own thread) until the work is
        # finished or failed, so the bar that stays in the notebook shows the end
        bar = ProgressWidget(futures, scheduler=target.scheduler.address, complete=True)
        display(bar.widget)
        target.sync(bar.listen)
    return tuple(target.gather(futures))
