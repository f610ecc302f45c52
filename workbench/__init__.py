"""workbench: a notebook toolkit, client and local reference service for the Avatar, Viewer and
Space Template service.

>>> import workbench
>>> sorted(n for n in workbench.__all__ if n.endswith("Client"))
['AsyncClient', 'Client']
"""

from workbench.client import (AnswerTooLargeError, APIError, AsyncClient, BadRequestError, Client, ConfigurationError,
                              ConflictError, ForbiddenError, NotFoundError, OptionError, PayloadTooLargeError,
                              RateLimitError, RequestTimeoutError, ServerError, TransportError, UnauthorizedError,
                              UnexpectedAnswerError, UnsupportedMediaTypeError, WorkbenchError)
from workbench.connect import connect

import logging as _logging

# A library stays quiet unless the application configures logging (``workbench serve`` does);
# without this, a fault inside a local service would print its traceback into the notebook.
_logging.getLogger("workbench").addHandler(_logging.NullHandler())

__version__ = "0.1.0"


def __getattr__(name: str):
    # ``workbench.TimeoutError`` of earlier releases; kept out of __all__ so ``from workbench import *``
    # cannot shadow Python's own TimeoutError.
    if name == "TimeoutError":
        return RequestTimeoutError
    raise AttributeError(f"module 'workbench' has no attribute {name!r}")

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
