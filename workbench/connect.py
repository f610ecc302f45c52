"""``workbench.connect()``: a client for the deployment the environment names, or for a local service.

With ``WORKBENCH_BASE_URL`` and ``WORKBENCH_AVATAR_BASE_URL`` set (or the
arguments given), the client talks to that deployment. Otherwise a local
service starts in a background thread on a free loopback port with a
temporary data folder, and the client carries its development token. Either
way one line says which it did.

>>> client = connect(quiet=True)          # doctest: +SKIP
>>> client.local.available                # doctest: +SKIP
True
"""

from __future__ import annotations

import atexit
import os

import httpx

from workbench.client import ENV_AVATAR_BASE_URL, ENV_BASE_URL, ENV_LOCAL_URL, AsyncClient, Client

_started: list = []


def _stop_all() -> None:
    while _started:
        try:
            _started.pop().stop()
        except Exception:
            pass


atexit.register(_stop_all)


def probe_local(base_url: str, timeout: float = 2.0) -> str | None:
    """The control API's URL when ``base_url`` is a local workbench service, else None."""
    if not base_url.rstrip("/").endswith("/api"):
        return None
    local = base_url.rstrip("/")[: -len("/api")] + "/_local"
    try:
        r = httpx.get(local + "/health", timeout=timeout)
        if r.status_code == 200 and r.json().get("data", {}).get("service") == "workbench-local":
            return local
    except (httpx.HTTPError, ValueError, AttributeError):
        pass
    return None


def connect(base_url: str | None = None, avatar_base_url: str | None = None, token: str | None = None, *,
            asynchronous: bool = False, data_dir: str | None = None, quiet: bool = False, **client_options):
    """A Client (or AsyncClient) for the named deployment, else for a new local service.

    Arguments win over ``WORKBENCH_BASE_URL``, ``WORKBENCH_AVATAR_BASE_URL`` and
    ``WORKBENCH_TOKEN``. The control API of a local service is found by probing
    ``{root}/_local/health``; ``WORKBENCH_LOCAL_URL`` names it, or ``none`` turns it off. ``client.service`` is the LocalService when one was started.
    """
    cls = AsyncClient if asynchronous else Client
    base = base_url or os.environ.get(ENV_BASE_URL)
    avatar = avatar_base_url or os.environ.get(ENV_AVATAR_BASE_URL)
    if base or avatar:
        # WORKBENCH_LOCAL_URL=none reaches ClientConfig.resolve, which turns the control API off.
        local = client_options.pop("local_url", None) or os.environ.get(ENV_LOCAL_URL) or (probe_local(base) if base else None)
        client = cls(base, avatar, token, local_url=local, **client_options)
        if not quiet:
            kind = "a local workbench service" if client.config.local_url else "a deployment"
            print(f"Connected to {kind} named by {'the arguments' if base_url else 'the environment'}: "
                  f"{client.config.base_url} and {client.config.avatar_base_url}.")
        return client
    from workbench.service.server import LocalService

    svc = LocalService.start(data_dir)
    _started.append(svc)
    client = cls(svc.base_url, svc.avatar_base_url, token or svc.dev_token, local_url=svc.local_url, **client_options)
    client.service = svc
    if not quiet:
        print("No deployment named (WORKBENCH_BASE_URL is not set): started a local workbench service "
              "in this process, on a free loopback port, with a temporary data folder.")
    return client
