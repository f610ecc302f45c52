"""The one error hierarchy of the workbench client.

::

    WorkbenchError                    anything the workbench raises on purpose
    ├── OptionError (ValueError)      an option failed the interface's rules; nothing was sent
    ├── ConfigurationError            no base URL or token where one is needed
    ├── TransportError                the request did not get an answer
    │   └── RequestTimeoutError       ... because a timeout ran out (also a builtin TimeoutError)
    ├── UnexpectedAnswerError         an answer that is not what the interface promises (a proxy's or
    │   │                             captive portal's page, a body past its size bound, a redirect
    │   │                             that would take a credential to another origin)
    │   └── AnswerTooLargeError       ... because the body passed the client's bound for its kind
    └── APIError                      the service answered with a status >= 400
        ├── BadRequestError           400
        ├── UnauthorizedError         401
        ├── ForbiddenError            403
        ├── NotFoundError             404
        ├── ConflictError             409
        ├── PayloadTooLargeError      413
        ├── UnsupportedMediaTypeError 415
        ├── RateLimitError            429
        └── ServerError               5xx

``TimeoutError`` stays importable from here as an alias of ``RequestTimeoutError`` for code
written before, but is no longer exported by ``*`` or by ``workbench``: it would shadow
Python's own. ``except TimeoutError`` with the builtin catches ours too.

Every ``APIError`` carries ``status``, ``code``, ``message``, ``details``, the
``request_id`` and the ``response`` itself, whatever the deployment's error body
looked like: the message is read from the JSON envelope when there is one, from
any ``message``/``error``/``detail`` field otherwise, and from the raw text last.

>>> err = error_from_status(404, {"status": "error", "error": {"code": "not_found", "message": "No such avatar."}}, "")
>>> type(err).__name__, err.code, str(err)
('NotFoundError', 'not_found', '404 not_found: No such avatar.')
"""

from __future__ import annotations

import builtins
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import httpx

if TYPE_CHECKING:
    import pandas as pd

    from workbench.options import Problem


class WorkbenchError(Exception):
    """Base of every error the workbench raises on purpose."""


class OptionError(WorkbenchError, ValueError):
    """An option broke the interface's rules; the request was not sent.

    ``problems`` lists each broken rule with its ``field``, ``code`` and ``message``.
    """

    def __init__(self, operation: str, problems: Sequence[Problem]):
        self.operation = operation
        self.problems = list(problems)
        text = "; ".join(f"{p.field}: {p.message}" for p in self.problems)
        super().__init__(f"{operation}: {text}")

    @property
    def details(self) -> list[dict[str, str]]:
        return [p.to_dict() for p in self.problems]


class ConfigurationError(WorkbenchError):
    """The client lacks a setting it needs (a base URL, a token)."""


class TransportError(WorkbenchError):
    """No answer came back: connection refused, reset, DNS, protocol error."""


class RequestTimeoutError(TransportError, builtins.TimeoutError):
    """A connect, read, write or pool timeout ran out (``except TimeoutError`` catches it too)."""


class UnexpectedAnswerError(WorkbenchError):
    """The answer is not what the interface promises for the operation: ``url``, ``status``,
    ``content_type`` and the ``first_bytes`` of the body say what came instead.

    >>> e = UnexpectedAnswerError("avatars.register", "http://h/avatars/avatar", 200, "text/html",
    ...                           b"<html>Sign in to the Wi-Fi</html>", "no modelId")
    >>> print(e)
    avatars.register: the answer of http://h/avatars/avatar is not what the interface promises (no modelId): HTTP 200, text/html, b'<html>Sign in to the Wi-Fi</html>'
    """

    def __init__(self, operation: str, url: str, status: int | None, content_type: str | None, first_bytes: bytes,
                 why: str):
        self.operation, self.url, self.status, self.content_type = operation, url, status, content_type
        self.first_bytes, self.why = first_bytes[:120], why
        what = f"HTTP {status}, {content_type or 'no Content-Type'}, {self.first_bytes!r}" if status is not None \
            else "an answer the client could not read"   # (httpx refused it before handing it over)
        super().__init__(f"{operation}: the answer of {url} is not what the interface promises ({why}): {what}")


class AnswerTooLargeError(UnexpectedAnswerError):
    """The answer's body (counted after decompression) passed the client's bound for its kind
    (``ClientConfig.max_bytes``); reading stopped there."""


TimeoutError = RequestTimeoutError  # noqa: A001 - the name of earlier releases; not exported, it shadows the builtin


class APIError(WorkbenchError):
    """The service answered with an error status."""

    def __init__(self, status: int, code: str, message: str, details: list[Any] | None = None,
                 response: httpx.Response | None = None, body: Any = None):
        self.status = status
        self.code = code
        self.message = message
        self.details = details or []
        self.response = response
        self.body = body
        self.request_id = response.headers.get("x-request-id") if response is not None else None
        super().__init__(f"{status} {code}: {message}")

    def details_frame(self) -> pd.DataFrame:
        """The ``details`` as a pandas DataFrame (one row per problem)."""
        import pandas as pd

        return pd.DataFrame(self.details)


class BadRequestError(APIError):
    """400: the request broke a rule; ``details`` says which field and which rule."""


class UnauthorizedError(APIError):
    """401: missing, unknown or revoked token, or a token without the needed scope."""


class ForbiddenError(APIError):
    """403: the request was understood and refused (for a local service: a request another site could have sent)."""


class NotFoundError(APIError):
    """404: no such resource (or one of another account)."""


class ConflictError(APIError):
    """409: the resource is in a state that forbids this."""


class PayloadTooLargeError(APIError):
    """413: the body is over the endpoint's size limit."""


class UnsupportedMediaTypeError(APIError):
    """415: the body was sent with a Content-Type the endpoint does not take."""


class RateLimitError(APIError):
    """429: too many requests; ``retry_after`` holds the server's wish in seconds, if any."""

    @property
    def retry_after(self) -> float | None:
        from .retry import parse_retry_after

        return parse_retry_after(self.response.headers.get("retry-after")) if self.response is not None else None


class ServerError(APIError):
    """5xx: the service failed."""


_BY_STATUS = {400: BadRequestError, 401: UnauthorizedError, 403: ForbiddenError, 404: NotFoundError,
              409: ConflictError, 413: PayloadTooLargeError, 415: UnsupportedMediaTypeError, 429: RateLimitError}

_DEFAULT_CODES = {400: "bad_request", 401: "unauthorized", 403: "forbidden", 404: "not_found",
                  405: "method_not_allowed", 409: "conflict", 413: "payload_too_large",
                  415: "unsupported_media_type", 429: "rate_limited", 500: "internal_error",
                  502: "bad_gateway", 503: "service_unavailable", 504: "gateway_timeout"}


def error_from_status(status: int, body: Any, text: str, response: httpx.Response | None = None) -> APIError:
    """Build the right APIError subclass from a status and a decoded body (any shape)."""
    code = _DEFAULT_CODES.get(status, f"http_{status}")
    message = ""
    details: list[Any] = []
    if isinstance(body, dict):
        err = body.get("error")
        if isinstance(err, dict):
            code = str(err.get("code") or code)
            message = str(err.get("message") or "")
            details = err.get("details") or []
        else:
            if isinstance(err, str) and err:
                code = err if err.replace("_", "").isalnum() else code
                message = str(body.get("message") or body.get("error_description") or err)
            for k in ("message", "detail", "error_description", "title"):
                if not message and isinstance(body.get(k), str):
                    message = body[k]
            if isinstance(body.get("code"), str):
                code = body["code"]
            if isinstance(body.get("details"), list):
                details = body["details"]
    if not message:
        message = (text or "").strip()[:500] or (response.reason_phrase if response is not None else "") or "error"
    cls = _BY_STATUS.get(status) or (ServerError if status >= 500 else APIError)
    return cls(status, code, message, details, response, body)


def error_from_response(response: httpx.Response) -> APIError:
    """Build an APIError from an httpx response, keeping the raw body."""
    body: Any = None
    text = ""
    try:
        text = response.text
    except Exception:  # a body that is not text: keep none of it in the message
        text = ""
    if "json" in response.headers.get("content-type", "") or text[:1] in ("{", "["):
        try:
            body = response.json()
        except (ValueError, RecursionError):  # not JSON, or nested past what Python's decoder reads
            body = None
    return error_from_status(response.status_code, body, text, response)


# Every error class in the order defined (the hierarchy drawn above), and the two functions that make them.
__all__ = [name for name, value in list(globals().items())
           if isinstance(value, type) and issubclass(value, WorkbenchError) and value.__name__ == name]
__all__ += ["error_from_response", "error_from_status"]
