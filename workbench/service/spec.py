"""The interface as one table: one row per operation, from which the rest of the service is derived.

Each row names an operation once, with its method, its path (as ``/openapi.json`` writes it and
as the route table matches it), the scope its token needs, its body limit, the media types it
reads and the statuses it may answer besides success. Derived from it:

- the route table (``app.ROUTES``: path, methods and the query parameters each takes);
- the paths and operation ids of ``/openapi.json`` (``openapi.build_openapi``);
- the CORS policy's token endpoints (``cors.token_path``);
- the operations a fault can be armed for (``faults.HTTP_FAULT_OPERATIONS``);
- the operations ``workbench check`` reports on (``tour.OPERATIONS``);
- the scope each endpoint checks (``backend``), and the body limits the handlers read with.

``tests/service/test_spec.py`` shows that all of them, and the client's operation names, agree with it.

>>> op("avatars.model").method, op("avatars.model").path
('GET', '/avatars/model/{modelId}.glb')
>>> [o.name for o in INTERFACE if o.scope]
['avatars.register', 'viewers.regenerate', 'viewers.regenerate', 'spaces.finish_upload']
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from workbench import options as opts
from workbench.tracking import catalog

__all__ = ["Operation", "INTERFACE", "LOCAL", "ALL", "op", "interface_names", "route_regex"]

# Bodies the handlers read at most, where the interface's rules do not already give the number.
BEACON_BODY_LIMIT = 4096
CONTROL_BODY_LIMIT = 64 * 1024
UPLOAD_LIMIT = 256 * 1024 * 1024

# Every operation may answer these (contract sections 2, 14): a malformed request, a foreign Host,
# an armed fault.
COMMON_ERRORS = (400, 503)


@dataclass(frozen=True)
class Operation:
    """One operation of the interface (or of the local control API, ``local=True``).

    path: as ``/openapi.json`` writes it (``{modelId}.glb``); route: as the route table matches it
    (``{file}``, whose suffix the handler checks, so a missing ``.glb`` gets a hint, not a bare 404).
    scope: what the Bearer token needs, None for a public endpoint.
    media_types: the request body's types (empty: no body); body_limit: bytes, None without a body.
    errors: the statuses it may answer besides success and :data:`COMMON_ERRORS`.
    """

    name: str
    method: str
    path: str
    route: str
    scope: str | None = None
    body_limit: int | None = None
    media_types: tuple[str, ...] = ()
    errors: tuple[int, ...] = ()
    local: bool = False

    @property
    def query(self) -> tuple[str, ...]:
        """The query parameters it knows (any other is ignored and named, contract section 14)."""
        return opts.QUERY_PARAMETERS.get(self.name, ())

    @property
    def operation_id(self) -> str:
        """Its ``operationId`` in ``/openapi.json``: the name, and the method where a name has two."""
        return f"{self.name}.{self.method.lower()}" if sum(o.name == self.name for o in ALL) > 1 else self.name


INTERFACE: tuple[Operation, ...] = (
    Operation("avatars.register", "POST", "/avatars/avatar", "/avatars/avatar", "avatar:write",
              opts.SETTINGS_MAX_BYTES, ("application/json",), (401, 413, 415, 507)),
    Operation("avatars.model", "GET", "/avatars/model/{modelId}.glb", "/avatars/model/{file}", errors=(304, 404, 500)),
    Operation("avatars.preview", "GET", "/avatars/preview/{modelId}.png", "/avatars/preview/{file}", errors=(304, 404, 500)),
    Operation("animations.list", "GET", "/avatars/animations", "/avatars/animations"),
    Operation("animations.download", "GET", "/avatars/animations/{gender}/{name}.glb", "/avatars/animations/{gender}/{file}",
              errors=(304, 404)),
    Operation("viewers.regenerate", "POST", "/api/viewers/{viewerToken}/regenerate/all", "/api/viewers/{token}/regenerate/all",
              "viewer:write", BEACON_BODY_LIMIT, ("text/plain", "application/x-www-form-urlencoded"), (401, 404, 413, 507)),
    Operation("viewers.regenerate", "PUT", "/api/viewers/{viewerToken}/regenerate/all", "/api/viewers/{token}/regenerate/all",
              "viewer:write", errors=(401, 404, 507)),
    Operation("tracking.send_batch", "POST", "/api/viewers/{viewerToken}/tracking-event/batch",
              "/api/viewers/{token}/tracking-event/batch", None, catalog.MAX_BODY_BYTES, ("application/json", "text/plain"),
              (404, 413, 415, 507)),
    Operation("spaces.finish_upload", "POST", "/api/resources/spaces/{spaceTemplateId}/finish-upload",
              "/api/resources/spaces/{id}/finish-upload", "space:write", opts.FINISH_BODY_MAX_BYTES, ("multipart/form-data",),
              (401, 404, 409, 413, 500, 507)),
)


def _local(name: str, method: str, route: str, body: bool = False, media: tuple[str, ...] = ("application/json",),
           limit: int = CONTROL_BODY_LIMIT) -> Operation:
    return Operation(f"local.{name}", method, "/_local" + route, "/_local" + route,
                     body_limit=limit if body else None, media_types=media if body else (), errors=(403, 404, 507),
                     local=True)


LOCAL: tuple[Operation, ...] = (
    _local("health", "GET", "/health"),
    _local("reset", "POST", "/reset"),
    _local("create_token", "POST", "/tokens", body=True),
    _local("revoke_token", "POST", "/tokens/revoke", body=True),
    _local("create_viewer", "POST", "/viewers", body=True),
    _local("viewer", "GET", "/viewers/{token}"),
    _local("viewer_file", "GET", "/viewers/{token}/files/{output}"),
    _local("create_space", "POST", "/spaces", body=True),
    _local("space", "GET", "/spaces/{id}"),
    _local("upload_space", "PUT", "/spaces/{id}/upload", body=True, media=("application/octet-stream",), limit=UPLOAD_LIMIT),
    _local("events", "GET", "/tracking/events"),
    _local("faults", "GET", "/faults"),
    _local("fault", "POST", "/faults", body=True),
)

ALL: tuple[Operation, ...] = INTERFACE + LOCAL


def op(name: str, method: str | None = None) -> Operation:
    """The row of ``name`` (and ``method`` where the name has two)."""
    rows = [o for o in ALL if o.name == name and (method is None or o.method == method.upper())]
    if len(rows) != 1:
        raise KeyError(f"{name} {method or ''}: {len(rows)} operations of that name")
    return rows[0]


def body_limit(name: str, method: str | None = None) -> int:
    """The most bytes the body of ``name`` may hold; a KeyError for an operation that takes no body."""
    limit = op(name, method).body_limit
    if limit is None:
        raise KeyError(f"{name} {method or ''}: takes no body")
    return limit


def scope(name: str, method: str | None = None) -> str:
    """The scope a token needs for ``name``; a KeyError for a public operation, which asks for no token."""
    needed = op(name, method).scope
    if needed is None:
        raise KeyError(f"{name} {method or ''}: is public")
    return needed


def interface_names() -> tuple[str, ...]:
    """The interface's operation names, each once, in the table's order."""
    return tuple(dict.fromkeys(o.name for o in INTERFACE))


def route_regex(operations) -> re.Pattern:
    """A pattern matching the routes of ``operations`` (a parameter is one path segment; a trailing slash too)."""
    alternatives = sorted({re.sub(r"\\\{[^/]+?\\\}", "[^/]+", re.escape(o.route)) for o in operations})
    return re.compile("^(?:" + "|".join(alternatives) + ")/?$")
