"""nbval's kernels for these notebooks on Unix sockets (:mod:`workbench.kernels`): the suite runs them
beside dozens of servers and other kernels at once, and a kernel on TCP can lose a port it was
given to one of them and die at its start. nbval has no option for a kernel's transport; its
``start_new_kernel`` makes its manager from the module's ``KernelManager``, which this replaces."""

import nbval.kernel

from workbench.kernels import on_sockets

nbval.kernel.KernelManager = on_sockets(nbval.kernel.KernelManager)
