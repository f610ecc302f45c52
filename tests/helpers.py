"""Helpers the tests share: reading the contract's error envelope, a Bearer header, making a viewer,
waiting for a condition with a bound (a bound, never a measured time), and a busy CPU.

>>> auth(type("S", (), {"token": "wb_x"})())
{'Authorization': 'Bearer wb_x'}
"""

from __future__ import annotations

import contextlib
import functools
import os
import subprocess
import sys
import time

import httpx


def auth(server, token: str | None = None) -> dict:
    """The Authorization header of ``token`` (default: the server's development token)."""
    return {"Authorization": f"Bearer {token or server.token}"}


def error_of(resp: httpx.Response, status: int, code: str, field: str | None = None) -> dict:
    """The ``error`` of an answer in the contract's envelope, after checking its status and code
    (and that ``field`` is named by a detail); a message and X-Request-Id are always there."""
    assert resp.status_code == status, (resp.status_code, resp.text)
    body = resp.json()
    assert body["status"] == "error" and body["error"]["code"] == code, body
    assert isinstance(body["error"]["message"], str) and body["error"]["message"]
    assert resp.headers.get("x-request-id")
    if field is not None:
        assert field in [d["field"] for d in body["error"]["details"]], body
    return body["error"]


def new_viewer(server, kind: str = "product") -> str:
    """A new viewer's token, made through the control API."""
    r = httpx.post(server.local_url + "/viewers", json={"kind": kind}, timeout=60)
    assert r.status_code == 201, r.text
    return r.json()["data"]["viewerToken"]


def new_avatar(server, settings: dict | None = None) -> dict:
    """A registered avatar's data (modelId, modelUrl, previewUrl)."""
    r = httpx.post(server.avatar_base_url + "/avatar", json=settings or {"gender": "feminine"}, headers=auth(server),
                   timeout=60)
    assert r.status_code == 201, r.text
    return r.json()["data"]


def wait_for(predicate, timeout: float = 20.0, every: float = 0.05):
    """Poll ``predicate`` until it gives a true value or ``timeout`` seconds pass; its last value."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(every)
    return predicate()


@contextlib.contextmanager
def busy_cpu():
    """As many processes spinning as the machine has cores, for the length of the block: a shared
    machine while other work runs."""
    spinners = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(os.cpu_count() or 2)]
    try:
        yield
    finally:
        for p in spinners:
            p.kill()
        for p in spinners:
            p.wait()


@functools.lru_cache(maxsize=None)
def body_of(gender: str = "feminine", shape: str = "average", height: float | None = None):
    """The MakeHuman body for these settings, made once per test process (the body and hair tests share it)."""
    from workbench.body.mesh import body_mesh
    from workbench.options import normalize_avatar_settings

    settings = {"gender": gender, "bodyShape": shape}
    if height:
        settings["height"] = height
    return body_mesh(normalize_avatar_settings(settings))
