"""The HTTP client for every operation of the interface, sync and async."""

from workbench.client._async import AsyncClient
from workbench.client._base import ENV_AVATAR_BASE_URL, ENV_BASE_URL, ENV_LOCAL_URL, ENV_TOKEN, ClientConfig
from workbench.client._sync import Client
from workbench.client.errors import *  # noqa: F401,F403
from workbench.client.errors import __all__ as _errors_all
from workbench.client.results import *  # noqa: F401,F403
from workbench.client.results import __all__ as _results_all

__all__ = ["Client", "AsyncClient", "ClientConfig", "SendReport", "ENV_BASE_URL", "ENV_AVATAR_BASE_URL", "ENV_TOKEN",
           "ENV_LOCAL_URL", *_errors_all, *_results_all]


def __getattr__(name: str):
    # The batch sender needs pandas; load it only when its report class is asked for.
    if name == "SendReport":
        from workbench.client._batches import SendReport

        return SendReport
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
