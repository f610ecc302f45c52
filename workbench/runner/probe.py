"""Is a deployment usable at all? The first seconds of ``workbench check``, before any notebook runs.

A bad token or an address where nothing listens is the user's setup, not the deployment's
conformance, so it is said at once with its fix, and ``check`` stops with its own exit status
(:data:`SETUP_PROBLEM`) instead of running every notebook into the same wall.

Three requests, none of which changes anything on the deployment:

1. ``GET {avatar_base_url}/animations`` (public): is something there, and is it this interface?
2. ``PUT {base_url}/viewers/{a token no viewer has}/regenerate/all`` with the token: 401 says the
   token is unknown or lacks ``viewer:write``; 404 says it is good (and no viewer was touched).
3. ``POST {base_url}/resources/spaces/{an id no template has}/finish-upload`` with a valid form:
   the same for ``space:write``.

(``avatar:write`` cannot be probed without registering an avatar: the body's rules come before
the token's there, and a valid body registers one.)

During the run, :class:`Watch` asks ``GET {avatar_base_url}/animations`` every few seconds: a
deployment that stops answering (three times running) ends ``check`` with the same verdict,
naming when it stopped, instead of every notebook after it failing into its timeouts.

>>> probe("http://127.0.0.1:9/api", "http://127.0.0.1:9/avatars", "wb_x", timeout=1).ok
False
"""

from __future__ import annotations

import secrets
import threading
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime

import httpx

__all__ = ["Probe", "probe", "Watch", "SETUP_PROBLEM"]

SETUP_PROBLEM = 3  # check's exit status when the setup, not the deployment, is the problem


@dataclass
class Probe:
    """What the probe found: ``problems`` (sentences with their fix); ``ok`` when there are none."""

    problems: list[str] = field(default_factory=list)
    scopes: dict[str, bool] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return not self.problems


def probe(base_url: str, avatar_base_url: str, token: str | None, *, timeout: float = 10.0) -> Probe:
    """Probe the deployment named by the two base URLs with ``token``; see the module notes."""
    out = Probe()
    for option, url in (("--base-url", base_url), ("--avatar-base-url", avatar_base_url)):
        if not url.lower().startswith(("http://", "https://")):
            out.problems.append(f"{option} {url}: add http:// or https:// (e.g. http://{url.split('://')[-1]})")
    if out.problems:
        return out
    base_url, avatar_base_url = base_url.rstrip("/"), avatar_base_url.rstrip("/")
    with httpx.Client(timeout=timeout) as http:
        try:
            r = http.get(f"{avatar_base_url}/animations")
        except httpx.TransportError as e:
            out.problems.append(f"cannot reach {avatar_base_url} ({type(e).__name__}): check --avatar-base-url, and that "
                                "the deployment is up (a local one: `workbench serve`)")
            return out
        if r.status_code != 200 or not _is_envelope(r):
            out.problems.append(f"{avatar_base_url}/animations answered {r.status_code}, not the animation list: "
                                "--avatar-base-url should be the avatar half of the service (e.g. http://host/avatars)")
        if not token:
            out.problems.append("no token: pass --token or set WORKBENCH_TOKEN (a token with avatar:write, viewer:write "
                                "and space:write)")
            return out
        auth = {"Authorization": f"Bearer {token}"}
        nobody = "probe_" + secrets.token_hex(6)
        checks = {
            "viewer:write": lambda: http.put(f"{base_url}/viewers/{nobody}/regenerate/all", headers=auth),
            "space:write": lambda: http.post(f"{base_url}/resources/spaces/{nobody}/finish-upload", headers=auth,
                                             files={"success": (None, "false"), "message": (None, "workbench check probe")}),
        }
        for scope, call in checks.items():
            try:
                r = call()
            except httpx.TransportError as e:
                out.problems.append(f"cannot reach {base_url} ({type(e).__name__}): check --base-url")
                return out
            if r.status_code == 401:
                code = _code(r)
                out.scopes[scope] = False
                if code == "insufficient_scope":
                    out.problems.append(f"the token lacks the scope {scope}: make one with every scope the notebooks use")
                else:
                    out.problems.append(f"the deployment does not accept the token ({code or '401'}): check --token")
                    return out
            elif r.status_code == 404 and _is_envelope(r) and _code(r) != "route_not_found":
                out.scopes[scope] = True  # the token passed; only the made-up viewer or template is missing
            else:
                out.problems.append(f"{r.request.method} {r.request.url.path} answered {r.status_code}: --base-url should be "
                                    "the platform half of the service (e.g. http://host/api)")
                return out
    return out


def _is_envelope(r: httpx.Response) -> bool:
    try:
        return r.json().get("status") in ("ok", "error")
    except (ValueError, AttributeError):
        return False


def _code(r: httpx.Response) -> str | None:
    try:
        return r.json()["error"]["code"]
    except (ValueError, KeyError, TypeError):
        return None



class Watch:
    """While in its ``with`` block, asks ``GET {avatar_base_url}/animations`` every ``every`` seconds
    and calls ``on_down(reason)`` once when ``misses`` asks in a row get no answer (refused, reset,
    timed out after ``timeout`` s). An answer of any status counts as an answer: judging it is the
    notebooks' business.

    >>> seen = []
    >>> with Watch("http://127.0.0.1:9/avatars", every=0.05, misses=2, on_down=seen.append) as w:
    ...     _ = w.down.wait(10)
    >>> seen[0].startswith("the deployment stopped answering at ")
    True
    """

    def __init__(self, avatar_base_url: str, *, on_down, every: float = 2.0, misses: int = 3, timeout: float = 10.0):
        self.url = avatar_base_url.rstrip("/") + "/animations"
        self.on_down, self.every, self.misses, self.timeout = on_down, every, misses, timeout
        self.down = threading.Event()
        self._done = threading.Event()
        self._thread = threading.Thread(target=self._run, name="deployment-watch", daemon=True)

    def __enter__(self) -> Watch:
        self._began = time.monotonic()
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._done.set()
        self._thread.join()

    def _run(self) -> None:
        missed, first = 0, None
        with httpx.Client(timeout=self.timeout) as http:
            while not self._done.wait(self.every if missed == 0 else min(self.every, 0.5)):
                try:
                    http.get(self.url)
                    missed, first = 0, None
                except httpx.TransportError as e:
                    if first is None:
                        first = (datetime.now(UTC), time.monotonic() - self._began, type(e).__name__)
                    missed += 1
                    if missed >= self.misses:
                        at, into, error = first
                        self.down.set()
                        self.on_down(f"the deployment stopped answering at {at:%H:%M:%S} UTC, {into:.0f} s into the "
                                     f"run (GET {self.url}: {error})")
                        return
