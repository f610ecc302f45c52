"""``workbench.connect()``: a client for the deployment the environment names, or for a local service.

With ``WORKBENCH_BASE_URL`` and ``WORKBENCH_AVATAR_BASE_URL`` set (or the
arguments given), the client talks to that deployment, once both halves have
answered (:func:`check_answers`); when one does not, :class:`~workbench.TransportError`
or :class:`~workbench.ConfigurationError` says which and how to fix it. Otherwise a local
service starts in a background thread on a free loopback port with a
temporary data folder, and the client carries its development token. Either
way one line says which it did; a wait over two seconds shows a progress bar
(:mod:`workbench.progress`); ``quiet=True`` shows neither.

>>> client = connect(quiet=True)          # doctest: +SKIP
>>> client.local.available                # doctest: +SKIP
True
"""

from __future__ import annotations

import atexit
import os
from typing import TYPE_CHECKING, Any, Literal, overload

from workbench.progress import Progress

if TYPE_CHECKING:
    import httpx

    from workbench.client import AsyncClient, Client
    from workbench.service.server import LocalService

_started: list[LocalService] = []


def _stop_all() -> None:
    while _started:
        try:
            _started.pop().stop()
        except Exception:
            pass


atexit.register(_stop_all)


def probe_local(base_url: str, timeout: float = 2.0) -> str | None:
    """The control API's URL when ``base_url`` is a local workbench service, else None."""
    import httpx

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


_ENV = {"base_url": "WORKBENCH_BASE_URL", "avatar_base_url": "WORKBENCH_AVATAR_BASE_URL"}


def _ask(http: httpx.Client, name: str, url: str, named_by: str) -> httpx.Response:
    """``GET url`` (of the half called ``name``); nothing answering there is a TransportError saying so."""
    import httpx

    from workbench.client import TransportError

    try:
        return http.get(url)
    except httpx.TransportError as e:
        why = f"{type(e).__name__}, {e}" if str(e) else type(e).__name__
        where = f"{name} ({_ENV[name]})" if named_by == "the environment" else name
        raise TransportError(
            f"nothing answers at {url} ({why}): check {where} and that the deployment is up; "
            "for a local one, start `workbench serve` and pass the two URLs it prints, or call "
            "workbench.connect() with no URLs to start one in this process") from None


def check_answers(base_url: str, avatar_base_url: str, *, timeout: float = 30.0, named_by: str = "the arguments",
                  progress: Progress | None = None) -> str:
    """Ask both halves of a deployment whether they answer, changing nothing there: the avatar half
    must list its animations (``GET /animations``, public), the platform half must give any HTTP
    answer (``GET`` of its base URL; it has no public read). Returns what they said, in words;
    raises TransportError when one does not answer, ConfigurationError when the avatar half's
    answer is not the animation list (a wrong or swapped URL), each naming the fix.

    >>> check_answers("http://127.0.0.1:9/api", "http://127.0.0.1:9/avatars", timeout=2)
    Traceback (most recent call last):
    ...
    workbench.client.errors.TransportError: nothing answers at http://127.0.0.1:9/avatars/animations (ConnectError, ...): check avatar_base_url and that the deployment is up; ...
    """
    import httpx

    from workbench.client import ConfigurationError

    def ask(name: str, url: str, path: str) -> httpx.Response:
        return _ask(http, name, url + path, named_by)

    base_url, avatar_base_url = base_url.rstrip("/"), avatar_base_url.rstrip("/")
    with httpx.Client(timeout=timeout, follow_redirects=False) as http:
        r = ask("avatar_base_url", avatar_base_url, "/animations")
        try:
            names = r.json()["data"]
            count = len(set(names["masculine"]) | set(names["feminine"])) if r.status_code == 200 else None
        except (ValueError, KeyError, TypeError):
            count = None
        if count is None:
            root = avatar_base_url.rsplit("/", 1)[0] if avatar_base_url.count("/") > 2 else avatar_base_url
            raise ConfigurationError(
                f"{avatar_base_url}/animations answered {r.status_code} {r.headers.get('content-type', '')}".rstrip()
                + ", not the interface's animation list: avatar_base_url should be the avatar half of the service and "
                f"base_url its platform half (a local service's are {root}/avatars and {root}/api), and nothing else "
                "may answer there")
        if progress is not None:
            progress.step(f"asking {base_url}")
        r = ask("base_url", base_url, "")
    return f"both answer (the avatar half lists {count} animations)"


@overload
def connect(base_url: str | None = None, avatar_base_url: str | None = None, token: str | None = None, *,
            asynchronous: Literal[False] = False, data_dir: str | None = None, quiet: bool = False,
            **client_options: Any) -> Client: ...
@overload
def connect(base_url: str | None = None, avatar_base_url: str | None = None, token: str | None = None, *,
            asynchronous: Literal[True], data_dir: str | None = None, quiet: bool = False,
            **client_options: Any) -> AsyncClient: ...
def connect(base_url: str | None = None, avatar_base_url: str | None = None, token: str | None = None, *,
            asynchronous: bool = False, data_dir: str | None = None, quiet: bool = False,
            **client_options: Any) -> Client | AsyncClient:
    """A Client (or AsyncClient) for the named deployment, else for a new local service.

    Arguments win over ``WORKBENCH_BASE_URL``, ``WORKBENCH_AVATAR_BASE_URL`` and
    ``WORKBENCH_TOKEN``. A named deployment must answer first (:func:`check_answers`). The control
    API of a local service is found by probing ``{root}/_local/health``; ``WORKBENCH_LOCAL_URL``
    names it, or ``none`` turns it off. ``client.service`` is the LocalService when one was started.
    """
    from workbench.client import ENV_AVATAR_BASE_URL, ENV_BASE_URL, ENV_LOCAL_URL

    base = base_url or os.environ.get(ENV_BASE_URL)
    avatar = avatar_base_url or os.environ.get(ENV_AVATAR_BASE_URL)
    first = avatar or base
    if first:
        named_by = "the arguments" if base_url or avatar_base_url else "the environment"
        with Progress(f"Asking {first}", total=2, quiet=quiet) as progress:
            cls = _client_class(asynchronous)
            # WORKBENCH_LOCAL_URL=none reaches ClientConfig.resolve, which turns the control API off.
            if not (base and avatar):  # one URL: a dead port there is the news, before the missing other half
                import httpx

                with httpx.Client(timeout=client_options.get("timeout", 30.0), follow_redirects=False) as http:
                    _ask(http, "base_url" if base else "avatar_base_url", first.rstrip("/"), named_by)
            local = client_options.pop("local_url", None) or os.environ.get(ENV_LOCAL_URL) or (probe_local(base) if base else None)
            client = cls(base, avatar, token, local_url=local, **client_options)  # a missing URL fails here, named
            said = check_answers(client.config.base_url, client.config.avatar_base_url, timeout=client.config.timeout,
                                 named_by=named_by, progress=progress)
            progress.step()
        if not quiet:
            kind = "a local workbench service" if client.config.local_url else "a deployment"
            print(f"Connected to {kind} named by {named_by}: {client.config.base_url} and "
                  f"{client.config.avatar_base_url}; {said}.")
        return client
    with Progress("Starting a local workbench service", total=2, doing="loading its code", quiet=quiet) as progress:
        cls = _client_class(asynchronous)
        from workbench.service.server import LocalService

        progress.step("opening its data folder and port")
        svc = LocalService.start(data_dir)
        _started.append(svc)
        client = cls(svc.base_url, svc.avatar_base_url, token or svc.dev_token, local_url=svc.local_url, **client_options)
        client.service = svc
        progress.step()
    if not quiet:
        print("No deployment named (WORKBENCH_BASE_URL is not set): started a local workbench service "
              "in this process, on a free loopback port, with a temporary data folder.")
    return client


def _client_class(asynchronous: bool) -> type[Client] | type[AsyncClient]:
    from workbench.client import AsyncClient, Client

    return AsyncClient if asynchronous else Client
