"""workbench: a notebook toolkit, client and local reference service for the Avatar, Viewer and
Space Template service.

>>> import workbench
>>> sorted(n for n in workbench.__all__ if n.endswith("Client"))
['AsyncClient', 'Client']
"""

from typing import TYPE_CHECKING

from workbench.__version__ import __version__ as __version__

if TYPE_CHECKING:
    # What a type checker and an editor see: the names __getattr__ loads on first use, with their types.
    from workbench._connect import connect
    from workbench.client import (
        AnswerTooLargeError,
        APIError,
        AsyncClient,
        BadRequestError,
        Client,
        ConfigurationError,
        ConflictError,
        ForbiddenError,
        NotFoundError,
        OptionError,
        PayloadTooLargeError,
        RateLimitError,
        RequestTimeoutError,
        ServerError,
        TransportError,
        UnauthorizedError,
        UnexpectedAnswerError,
        UnsupportedMediaTypeError,
        WorkbenchError,
    )


def __getattr__(name: str) -> object:
    # The public names load on first use: the `workbench` command imports this package, and
    # `workbench --version` or `--help` should not pay for httpx and the client (a second on a busy machine).
    value: object
    if name == "connect":
        # from a module of another name: a submodule called ``connect`` would be set here in the function's place
        # whenever anyone imported it (tests/test_public_names.py)
        from workbench._connect import connect

        value = connect
    elif name in __all__ or name == "TimeoutError":
        import workbench.client as client

        # ``workbench.TimeoutError`` of earlier releases; kept out of __all__ so ``from workbench import *``
        # cannot shadow Python's own TimeoutError.
        value = client.RequestTimeoutError if name == "TimeoutError" else getattr(client, name)
    else:
        raise AttributeError(f"module 'workbench' has no attribute {name!r}")
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *__all__])

__all__ = [
    "connect",
    "Client",
    "AsyncClient",
    "WorkbenchError",
    "OptionError",
    "ConfigurationError",
    "TransportError",
    "RequestTimeoutError",
    "UnexpectedAnswerError",
    "AnswerTooLargeError",
    "APIError",
    "BadRequestError",
    "UnauthorizedError",
    "ForbiddenError",
    "NotFoundError",
    "ConflictError",
    "PayloadTooLargeError",
    "UnsupportedMediaTypeError",
    "RateLimitError",
    "ServerError",
]
