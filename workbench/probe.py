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

>>> probe("http://127.0.0.1:9/api", "http://127.0.0.1:9/avatars", "wb_x", timeout=1).ok
False
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field

import httpx

__all__ = ["Probe", "probe", "SETUP_PROBLEM"]

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
