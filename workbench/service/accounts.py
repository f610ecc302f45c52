"""Accounts and tokens of the local service (contract section 3): hashed tokens with scopes, checked in constant time.

>>> import tempfile, pathlib
>>> from workbench.service.db import Database
>>> accounts = Accounts(Database(pathlib.Path(tempfile.mkdtemp()) / "t.db"), dev_token="wb_doc_token")
>>> accounts.authenticate("Bearer wb_doc_token", "avatar:write")
'dev'
"""

from __future__ import annotations

import hashlib
import hmac
import os
import secrets
from typing import Any

from workbench import options as opts
from workbench.service.db import Database
from workbench.service.errors import ServiceError
from workbench.service.storage import now_ms


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def ensure_account(c, account: Any) -> str:
    """Create ``account`` inside the open transaction ``c`` if it is new; 400 for a bad name."""
    if not isinstance(account, str) or not 1 <= len(account) <= 64 or not account.replace("-", "").replace("_", "").isalnum():
        raise ServiceError.invalid([opts.Problem("account", "invalid_account",
                                                 "must be 1 to 64 letters, digits, '-' or '_'")])
    c.execute("INSERT OR IGNORE INTO accounts VALUES (?, ?)", (account, now_ms()))
    return account


class Accounts:
    """Accounts and their tokens in ``db``; a new database gets the development account and its token.

    dev_token: the development token for a new database (else ``WORKBENCH_DEV_TOKEN``, else random);
    ``new_dev_token`` holds it when it was just made, so it can be shown once.
    """

    def __init__(self, db: Database, dev_token: str | None = None):
        self.db = db
        self.new_dev_token: str | None = None
        if self.db.one("SELECT 1 FROM accounts WHERE id = 'dev'"):
            return
        token = dev_token or os.environ.get("WORKBENCH_DEV_TOKEN") or ("wb_" + secrets.token_urlsafe(32))
        with self.db.transaction() as c:
            c.execute("INSERT INTO accounts VALUES ('dev', ?)", (now_ms(),))
            c.execute("INSERT INTO tokens (token_hash, account, scopes, created_at) VALUES (?, 'dev', ?, ?)",
                      (hash_token(token), " ".join(opts.SCOPES), now_ms()))
        self.new_dev_token = token

    def ensure(self, account: Any) -> str:
        with self.db.transaction() as c:
            return ensure_account(c, account)

    def create_token(self, account: Any = "dev", scopes: Any = None) -> dict:
        scopes = list(opts.SCOPES) if scopes is None else scopes
        if not isinstance(scopes, list) or not scopes or any(s not in opts.SCOPES for s in scopes):
            raise ServiceError.invalid([opts.Problem("scopes", "not_allowed",
                                                     f"must be a non-empty list of {', '.join(opts.SCOPES)}")])
        token = "wb_" + secrets.token_urlsafe(32)
        with self.db.transaction() as c:
            account = ensure_account(c, account)
            c.execute("INSERT INTO tokens (token_hash, account, scopes, created_at) VALUES (?, ?, ?, ?)",
                      (hash_token(token), account, " ".join(sorted(set(scopes))), now_ms()))
        return {"token": token, "account": account, "scopes": sorted(set(scopes))}

    def revoke_token(self, token: Any) -> dict:
        if not isinstance(token, str):
            raise ServiceError.invalid([opts.Problem("token", "wrong_type", "must be a string")])
        with self.db.transaction() as c:
            n = c.execute("UPDATE tokens SET revoked = 1 WHERE token_hash = ?", (hash_token(token),)).rowcount
        if not n:
            raise ServiceError.not_found("token", "(given)")
        return {"revoked": True}

    def authenticate(self, authorization: str | None, scope: str, body_token: str | None = None) -> str:
        """The account of a valid token with ``scope``, else 401 (contract section 3)."""
        if authorization and body_token:
            raise ServiceError(400, "invalid_request", "Send the token in one place only: the Authorization header or the access_token field.")
        token = body_token
        if authorization is not None:
            scheme, _, value = authorization.partition(" ")
            if scheme.lower() != "bearer" or not value.strip():
                raise ServiceError.unauthorized("The Authorization header must be 'Bearer <token>'.", credentials_given=False)
            token = value.strip()
        if not token:
            raise ServiceError.unauthorized("This endpoint needs a token: send 'Authorization: Bearer <token>'.",
                                            credentials_given=False)
        digest = hash_token(token)
        row = self.db.one("SELECT token_hash, account, scopes, revoked FROM tokens WHERE token_hash = ?", (digest,))
        # The lookup is by hash; compare again in constant time so timing says nothing about near misses.
        if row is None or not hmac.compare_digest(row["token_hash"], digest) or row["revoked"]:
            raise ServiceError.unauthorized("The token is unknown or revoked.")
        if scope not in row["scopes"].split():
            raise ServiceError.insufficient_scope(scope)
        return row["account"]
