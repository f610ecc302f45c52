"""Domain errors of the local service; ``app.py`` turns them into HTTP answers in one place.

>>> e = ServiceError.not_found("avatar", "abc")
>>> e.status, e.code
(404, 'avatar_not_found')
"""

from __future__ import annotations

from workbench.body.assets import FAILURE_KEPT_S


class ServiceError(Exception):
    """A refusal with an HTTP status, a snake_case code, one sentence and optional details."""

    def __init__(self, status: int, code: str, message: str, details: list | None = None,
                 headers: dict | None = None):
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.details = details
        self.headers = headers or {}

    @classmethod
    def bad_request(cls, code: str, message: str, details: list | None = None) -> ServiceError:
        return cls(400, code, message, details)

    @classmethod
    def invalid(cls, problems, what: str = "request") -> ServiceError:
        """400 from a list of options.Problem, one details entry each."""
        first = problems[0]
        more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
        return cls(400, "invalid_" + what, f"{first.field}: {first.message}{more}.",
                   [p.to_dict() for p in problems])

    @classmethod
    def not_found(cls, what: str, ident: str) -> ServiceError:
        return cls(404, f"{what}_not_found", f"No {what.replace('_', ' ')} {ident!r} exists.")

    @classmethod
    def unless_owned(cls, row, account: str | None, what: str, ident: str):
        """``row`` when it exists and belongs to ``account`` (None: to any); else 404 ``{what}_not_found``.
        Another account's record is answered exactly like a missing one, so no answer tells that it exists.

        >>> ServiceError.unless_owned({"account": "a"}, "a", "viewer", "vw_1")["account"]
        'a'
        >>> ServiceError.unless_owned({"account": "b"}, "a", "viewer", "vw_1")
        Traceback (most recent call last):
        workbench.service.errors.ServiceError: No viewer 'vw_1' exists.
        """
        if row is None or (account is not None and row["account"] != account):
            raise cls.not_found(what, ident)
        return row

    @classmethod
    def unauthorized(cls, message: str, *, credentials_given: bool = True) -> ServiceError:
        """401; the challenge carries ``error="invalid_token"`` only when a Bearer token was sent: RFC 6750
        section 3.1 asks for no error code when a request has no credentials (or another scheme's)."""
        challenge = 'Bearer error="invalid_token"' if credentials_given else "Bearer"
        return cls(401, "unauthorized", message, headers={"WWW-Authenticate": challenge})

    @classmethod
    def insufficient_scope(cls, scope: str) -> ServiceError:
        return cls(401, "insufficient_scope", f"This token lacks the scope {scope}.",
                   headers={"WWW-Authenticate": f'Bearer error="insufficient_scope", scope="{scope}"'})

    @classmethod
    def too_large(cls, limit: int) -> ServiceError:
        return cls(413, "payload_too_large", f"The body is larger than this endpoint's limit of {limit} bytes.")

    @classmethod
    def assets_missing(cls, message: str, retry_after: int = 0) -> ServiceError:
        """503: the body assets (contract section 15) are not cached and could not be fetched (or are being
        fetched now); ``retry_after`` seconds until asking again can change the answer (default
        :data:`ASSETS_RETRY_AFTER_S`)."""
        return cls(503, "assets_missing", message, headers={"Retry-After": str(retry_after or ASSETS_RETRY_AFTER_S)})

    @classmethod
    def insufficient_storage(cls) -> ServiceError:
        """507: the data folder's disk is full; nothing of this request was kept (contract section 14)."""
        return cls(507, "insufficient_storage",
                   f"The service's disk is full, so nothing of this request was stored; try again in "
                   f"{STORAGE_RETRY_AFTER_S} seconds (reads keep working meanwhile).",
                   headers={"Retry-After": str(STORAGE_RETRY_AFTER_S)})


# How long a client should wait after a 507 before trying again: space usually returns by someone's hand.
STORAGE_RETRY_AFTER_S = 10
# After a 503 assets_missing: someone has to run `workbench assets fetch`, which takes a minute or so; the
# body's assets module remembers a failed first use as long, and answers from that memory meanwhile.
ASSETS_RETRY_AFTER_S = FAILURE_KEPT_S
