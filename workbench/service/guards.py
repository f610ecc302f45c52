"""Who may talk to a local service (contract section 14): the Host allow-list and the ``/_local`` rule.

The local service runs on laptops beside a browser, so any page the person opens can send it
requests. Two rules, in the spirit of Jupyter Server's own, keep pages out:

- **Host.** A page on a name that re-resolves to 127.0.0.1 (DNS rebinding) talks to the service
  with its own name in ``Host``. Only loopback names and addresses (``localhost``, 127.0.0.0/8,
  ``[::1]``, any port) and the names given to ``workbench serve --allowed-hosts`` are answered;
  any other is 400 ``host_not_allowed`` before the request reaches a handler.
- **/_local changes state only for requests no page can forge.** A form post or a ``text/plain``
  fetch needs no preflight; ``application/json`` does, and ``/_local`` grants none. So a POST
  must carry ``Content-Type: application/json``, and no request that changes state may come
  with an ``Origin`` other than the service's own (nor ``Sec-Fetch-Site: cross-site`` or
  ``same-site``); otherwise 403 ``cross_site_request``, nothing read or changed. A PUT (the
  template upload, raw bytes) always needs a preflight from a page, so only the Origin rule
  applies to it. Reads (GET, HEAD) stay open: ``/_local`` sends no CORS headers, so no page on
  another origin can read them, and the Host rule stops rebinding.

Both run as a pure ASGI middleware outside everything else, so a refusal costs no body read.

>>> host_allowed("localhost:8080"), host_allowed("127.0.0.2"), host_allowed("[::1]:9"), host_allowed("evil.example")
(True, True, True, False)
>>> host_allowed("wb.lan:8080", parse_allowed_hosts("wb.lan, .corp.example")), host_allowed("a.corp.example", (".corp.example",))
(True, True)
"""

from __future__ import annotations

import ipaddress
import re

from workbench.service.http import error_message

__all__ = ["LocalGuard", "host_allowed", "parse_allowed_hosts", "LOOPBACK_HOSTS"]

LOOPBACK_HOSTS = ("localhost", "127.0.0.1", "::1")
_NAME = re.compile(r"^\.?(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$")
_SAFE_METHODS = (b"GET", b"HEAD", b"OPTIONS")


def parse_allowed_hosts(text: str) -> tuple[str, ...]:
    """The names of a comma list for ``--allowed-hosts``: host names or IP addresses, ``.example.com``
    for that name and every name under it, or ``*`` alone for any (a service on a trusted network);
    ValueError naming the bad entry.

    >>> parse_allowed_hosts("WB.lan., 10.0.0.5, [fd00::1]")
    ('wb.lan', '10.0.0.5', 'fd00::1')
    >>> parse_allowed_hosts("http://wb.lan")
    Traceback (most recent call last):
    ...
    ValueError: --allowed-hosts: 'http://wb.lan' is not a host name; give names such as wb.lan or .example.com, IP addresses, or * alone
    """
    entries = [e.strip() for e in str(text).split(",") if e.strip()]
    if not entries:
        raise ValueError("--allowed-hosts: give at least one host name, or * alone")
    out = []
    for e in entries:
        if e == "*":
            out.append(e)
            continue
        name = e.lower().rstrip(".").removeprefix("[").removesuffix("]")
        if not (_is_ip(name) or _NAME.match(name)):
            raise ValueError(f"--allowed-hosts: {e!r} is not a host name; give names such as wb.lan or .example.com, "
                             "IP addresses, or * alone")
        out.append(name)
    if "*" in out and len(out) > 1:
        raise ValueError("--allowed-hosts: * already allows every host; give it alone")
    return tuple(out)


def _is_ip(name: str) -> bool:
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


def host_name(host_header: str) -> str:
    """The name of a ``Host`` value, without its port, brackets or final dot, in lower case."""
    h = host_header.strip().lower()
    if h.startswith("["):
        return h[1:h.find("]")] if "]" in h else h
    if h.count(":") == 1:
        h = h.split(":", 1)[0]
    return h.rstrip(".")


def host_allowed(host_header: str, allowed: tuple[str, ...] = ()) -> bool:
    """Whether a request sent with this ``Host`` is answered: loopback, or a name of ``allowed``."""
    name = host_name(host_header)
    if name == "localhost" or "*" in allowed:
        return True
    try:
        if ipaddress.ip_address(name).is_loopback:
            return True
    except ValueError:
        pass
    return any(name == a or (a.startswith(".") and (name.endswith(a) or name == a[1:])) for a in allowed)


class LocalGuard:
    """Pure ASGI middleware applying both rules of the module; ``allowed_hosts`` adds to loopback."""

    def __init__(self, app, allowed_hosts: tuple[str, ...] = ()):
        self.app = app
        self.allowed_hosts = tuple(allowed_hosts)

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        headers = scope.get("headers") or []
        hosts = [v.decode("latin-1") for k, v in headers if k == b"host"]
        if len(hosts) > 1:
            return await _refuse(send, 400, "host_not_allowed", f"Send one Host header; this request has {len(hosts)}.",
                                 "Host", "repeated_header", "must be sent once")
        # No Host at all is a client of HTTP/1.0 or a test transport, never a browser's page.
        if hosts and not host_allowed(hosts[0], self.allowed_hosts):
            name = host_name(hosts[0])
            return await _refuse(
                send, 400, "host_not_allowed",
                f"This local service answers only to loopback names and addresses, not {name!r}; start it with "
                f"`workbench serve --allowed-hosts {name}` to allow that name.",
                "Host", "not_allowed", "must be localhost, a loopback address or a name given to --allowed-hosts")
        path = scope.get("path", "")
        if (path == "/_local" or path.startswith("/_local/")) and scope["method"].encode() not in _SAFE_METHODS:
            why = _forgeable(scope, headers, hosts[0] if hosts else None)
            if why:
                field, rule = why
                return await _refuse(send, 403, "cross_site_request",
                                     f"The control API changes nothing for a request another site could have sent "
                                     f"({field} {rule}); send JSON as application/json from a program, not a page.",
                                     field, "cross_site_request", rule)
        await self.app(scope, receive, send)


def _forgeable(scope, headers, host: str | None) -> tuple[str, str] | None:
    """(field, rule) when a state-changing ``/_local`` request could have come from another site's page."""
    values: dict[bytes, str] = {}
    for k, v in headers:
        values.setdefault(k, v.decode("latin-1"))
    origin = values.get(b"origin")
    if origin is not None:
        own = f"{scope.get('scheme', 'http')}://{host}" if host else None
        if origin.strip().lower() != (own or "").lower():
            return "Origin", f"must be this service's own ({own}) or absent; got {origin!r}"
    site = values.get(b"sec-fetch-site")
    if site is not None and site.strip().lower() in ("cross-site", "same-site"):
        return "Sec-Fetch-Site", f"must not be {site.strip()}"
    if scope["method"] == "POST":
        media = values.get(b"content-type", "").split(";")[0].strip().lower()
        if media != "application/json":
            return "Content-Type", f"must be application/json; got {media or 'none'}"
    return None


async def _refuse(send, status: int, code: str, message: str, field: str, detail_code: str, rule: str) -> None:
    start, body = error_message(status, code, message, [{"field": field, "code": detail_code, "message": rule}])
    await send(start)
    await send({"type": "http.response.body", "body": body})
