"""The HTTP client for every operation of the interface, sync and async."""

from workbench.client._async import AsyncClient
from workbench.client._base import ClientConfig
from workbench.client._sync import Client
from workbench.client.errors import *  # noqa: F401,F403
from workbench.client.errors import __all__ as _errors_all
from workbench.client.results import *  # noqa: F401,F403
from workbench.client.results import __all__ as _results_all

__all__ = ["Client", "AsyncClient", "ClientConfig", *_errors_all, *_results_all]
