"""Every ``Client`` and ``AsyncClient`` of a process shares one TLS context (``workbench.client._base.tls_context``):
making one reads the whole certificate bundle, 27 ms of CPU, which a notebook or a suite opening many clients paid for
each (pass 49). A changed ``SSL_CERT_FILE`` or ``SSL_CERT_DIR`` is still read by the next client, as httpx reads it."""

from __future__ import annotations

import asyncio
import ssl

import certifi
import pytest

import workbench
from workbench.client._base import tls_context

BASE, AVATARS = "http://127.0.0.1:9/api", "http://127.0.0.1:9/avatars"


def context(client) -> object:
    """The TLS context ``client``'s connections would use (httpx's transport keeps it in its httpcore pool)."""
    return client._http._transport._pool._ssl_context


def test_the_sync_and_async_clients_share_one_context():
    with workbench.Client(BASE, AVATARS) as a, workbench.Client(BASE, AVATARS) as b:
        made = workbench.AsyncClient(BASE, AVATARS)
        try:
            assert context(a) is context(b) is context(made) is tls_context()
        finally:
            asyncio.run(made.aclose())


def test_a_changed_certificate_file_is_read_by_the_next_client(monkeypatch):
    monkeypatch.delenv("SSL_CERT_DIR", raising=False)
    monkeypatch.setenv("SSL_CERT_FILE", certifi.where())
    with workbench.Client(BASE, AVATARS) as a:
        first = context(a)
    monkeypatch.setenv("SSL_CERT_FILE", str(workbench.__file__))   # not a bundle: read, and refused as httpx does
    with pytest.raises(ssl.SSLError):
        workbench.Client(BASE, AVATARS)
    monkeypatch.setenv("SSL_CERT_FILE", certifi.where())
    with workbench.Client(BASE, AVATARS) as b:
        assert context(b) is first
