"""The HTTP client for every operation of the interface, sync and async."""

from typing import TYPE_CHECKING

from workbench.client._async import AsyncClient
from workbench.client._base import ENV_AVATAR_BASE_URL, ENV_BASE_URL, ENV_LOCAL_URL, ENV_TOKEN, ClientConfig
from workbench.client._sync import Client
from workbench.client.errors import (
    AnswerTooLargeError,
    APIError,
    BadRequestError,
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
    error_from_response,
    error_from_status,
)
from workbench.client.results import (
    Animation,
    AnimationList,
    BatchResult,
    Model,
    Preview,
    RegenerateJob,
    Registration,
    UploadFinish,
)

if TYPE_CHECKING:
    # What a type checker and an editor see: the name __getattr__ loads on first use, with its type.
    from workbench.client._batches import SendReport

__all__ = [
    "Client", "AsyncClient", "ClientConfig", "SendReport", "ENV_BASE_URL", "ENV_AVATAR_BASE_URL", "ENV_TOKEN",
    "ENV_LOCAL_URL",
    # errors
    "WorkbenchError", "OptionError", "ConfigurationError", "TransportError", "RequestTimeoutError",
    "UnexpectedAnswerError", "AnswerTooLargeError", "APIError", "BadRequestError", "UnauthorizedError",
    "ForbiddenError", "NotFoundError", "ConflictError", "PayloadTooLargeError", "UnsupportedMediaTypeError",
    "RateLimitError", "ServerError", "error_from_response", "error_from_status",
    # results
    "Registration", "Model", "Preview", "AnimationList", "Animation", "RegenerateJob", "BatchResult", "UploadFinish",
]


def __getattr__(name: str) -> object:
    # The batch sender needs pandas; load it only when its report class is asked for.
    if name == "SendReport":
        from workbench.client._batches import SendReport

        return SendReport
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
