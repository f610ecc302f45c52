"""Jupyter kernels that talk to their runner over Unix sockets, where the system has them.

A kernel on TCP gets its five ports from its manager, which finds free ones by binding and
releasing them; the kernel binds them again a moment later. Anything else starting meanwhile can
take one of them: a second kernel, or a server asking the system for any free port, as the tests
and a tour start dozens of each at once. The kernel then dies at its start ("Address already in
use") and its runner waits a minute for an answer that never comes. A Unix socket is a file the
kernel creates under a private directory of its own, so nothing else can take it.

Every kernel the workbench starts (``workbench tour`` and ``check``, ``tools/build_notebooks.py``,
and nbval's under the pytest plugin's ``--nbimages``) uses these managers; Jupyter applications
the tests start get :func:`options`. Windows has no Unix sockets for ZeroMQ; there kernels stay
on TCP.

>>> manager = on_sockets(__import__("jupyter_client").KernelManager)(kernel_name="python3")
>>> manager.start_kernel(); manager.transport == ("ipc" if os.name == "posix" else "tcp")
True
>>> manager.shutdown_kernel(now=True)
"""

from __future__ import annotations

import functools
import os
import tempfile

__all__ = ["on_sockets", "async_manager", "options"]


@functools.cache
def on_sockets(base: type) -> type:
    """``base`` (a jupyter_client ``KernelManager`` class) with its kernel on Unix sockets."""
    if os.name != "posix" or getattr(base, "on_sockets", False):
        return base

    class OnSockets(base):
        on_sockets = True
        _socket_dir = None

        async def _async_pre_start_kernel(self, **kwargs):
            if self._socket_dir is None:
                self.transport = "ipc"
                # A socket's path may not pass 107 bytes: a short directory of the kernel's own, not the
                # Jupyter runtime directory under a home that may be deep. Its sockets are "<dir>/k-<n>".
                self._socket_dir = tempfile.mkdtemp(prefix="wbk-")
                self.ip = os.path.join(self._socket_dir, "k")
            return await super()._async_pre_start_kernel(**kwargs)

        async def _async_cleanup_resources(self, restart: bool = False) -> None:  # sync and async managers' shutdown
            await super()._async_cleanup_resources(restart=restart)
            if not restart and self._socket_dir is not None:
                _remove_dir(self._socket_dir)
                self._socket_dir = None

    OnSockets.__name__ = OnSockets.__qualname__ = f"{base.__name__}OnSockets"
    return OnSockets


def async_manager() -> type:
    """jupyter_client's ``AsyncKernelManager`` on Unix sockets: nbclient's ``kernel_manager_class``."""
    from jupyter_client import AsyncKernelManager

    return on_sockets(AsyncKernelManager)


def options() -> list[str]:
    """Command-line options that put a Jupyter application's kernels (``jupyter nbconvert --execute``,
    ``jupyter lab``) on Unix sockets. Their sockets go beside their connection files: give the
    application a short ``JUPYTER_RUNTIME_DIR`` (a socket's path may not pass 107 bytes).

    >>> options() == (["--KernelManager.transport=ipc"] if os.name == "posix" else [])
    True
    """
    return ["--KernelManager.transport=ipc"] if os.name == "posix" else []


def _remove_dir(path: str) -> None:
    try:
        for name in os.listdir(path):
            os.remove(os.path.join(path, name))
        os.rmdir(path)
    except OSError:  # already gone, or a socket still held by a kernel that outlived its manager
        pass
