"""Everything derived from the interface table (``workbench/service/spec.py``) agrees with it.

The route table, ``/openapi.json`` (paths, methods, operation ids, security, body media types,
answers), the CORS policy's token paths, the fault names and the operation names the client gives its requests and errors: one table, so
adding or renaming an operation is one row.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from workbench.service import app as service_app
from workbench.service import faults, spec
from workbench.service.cors import token_path
from workbench.service.openapi import build_openapi

ROOT = Path(__file__).resolve().parents[2]
DOC = build_openapi("http://127.0.0.1:8080")


def example_path(route: str) -> str:
    return route.replace("{file}", "x.png" if "/preview/" in route else "x.glb").replace("{token}", "vw_1").replace("{id}", "sp_1").replace(
        "{gender}", "feminine").replace("{output}", "glb")


def test_the_route_table_is_the_interface_table():
    routes = {(r.path, m) for r in service_app.ROUTES for m in (r.methods or ()) if m != "HEAD"}
    rows = {(o.route, o.method) for o in spec.ALL}
    assert rows <= routes and routes - rows == {("/", "GET"), ("/openapi.json", "GET")}


def test_openapi_paths_methods_and_operation_ids_are_the_table():
    documented = {(path, method.upper(), op["operationId"]) for path, methods in DOC["paths"].items()
                  for method, op in methods.items() if method != "options"}
    assert documented == {(o.path, o.method, o.operation_id) for o in spec.INTERFACE}


@pytest.mark.parametrize("o", spec.INTERFACE, ids=lambda o: f"{o.method} {o.name}")
def test_openapi_says_what_the_table_says(o):
    doc = DOC["paths"][o.path][o.method.lower()]
    assert bool(doc.get("security")) == bool(o.scope)
    if o.scope:
        assert o.scope in doc["summary"]
    assert set((doc.get("requestBody") or {}).get("content", {})) == set(o.media_types)
    answered = {int(s) for s in doc["responses"] if s.isdigit()}
    assert set(o.errors) | set(spec.COMMON_ERRORS) <= answered, sorted(answered)


def test_the_token_endpoints_of_cors_are_the_rows_with_a_scope():
    for o in spec.ALL:
        assert token_path(example_path(o.route)) == bool(o.scope), o.name


def test_every_interface_operation_answers_a_fault_armed_by_its_name(server):
    """The names faults are armed by are the table's: each operation's route, sent a valid request,
    answers the fault armed under its name, and the next call is its own again. (The worker's service: each
    fault armed answers once and is spent here; should a check fail with one still armed, it is spent before
    the test ends, so no other test's request meets it.)"""
    import httpx

    assert "tracking.send_batch" in faults.HTTP_FAULT_OPERATIONS
    srv = server
    ask: dict = {}
    try:
        for o in spec.INTERFACE:
            ask = dict(method=o.method, url=srv.root + example_path(o.route),
                       headers={"Authorization": f"Bearer {srv.token}"}, timeout=60, **VALID.get(o.name, {}))
            armed = httpx.post(srv.local_url + "/faults", json={"operation": o.name, "count": 1, "status": 418})
            assert armed.status_code == 201, (o.name, armed.text)
            r = httpx.request(**ask)
            assert r.status_code == 418 and r.json()["error"]["code"] == "injected_fault", (o.name, r.status_code, r.text)
            assert httpx.request(**ask).status_code != 418, o.name
    except BaseException:
        for _ in range(2):   # a fault left armed by a failed check answers its operation's next request
            if not ask or httpx.request(**ask).status_code != 418:
                break
        raise


def client_operation_names() -> set[str]:
    """The operation names the client gives its requests (``Request("name", ...)`` and ``build_local``)."""
    tree = ast.parse((ROOT / "workbench" / "client" / "_base.py").read_text())
    names = {node.args[0].value for node in ast.walk(tree) if isinstance(node, ast.Call)
             and getattr(node.func, "id", None) == "Request" and node.args and isinstance(node.args[0], ast.Constant)}
    tree = ast.parse((ROOT / "workbench" / "client" / "_resources.py").read_text())
    names |= {"local." + node.args[0].value for node in ast.walk(tree) if isinstance(node, ast.Call)
              and getattr(node.func, "attr", None) in ("_call", "build_local") and node.args
              and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)
              and not node.args[0].value.startswith("/")}
    return names


def test_the_clients_operation_names_are_the_tables():
    names = client_operation_names()
    assert set(spec.interface_names()) <= names, "an operation of the interface the client does not name"
    assert names <= {o.name for o in spec.ALL}, names - {o.name for o in spec.ALL}


# Valid bodies: the body's rules are checked before the token's, and before a fault.
BODIES = {"avatars.register": {"json": {"gender": "feminine"}},
          "spaces.finish_upload": {"files": {"success": (None, "false"), "message": (None, "m")}}}
VALID = {**BODIES, "tracking.send_batch": {"json": {"sessionId": "s1", "events": [{"key": "heartbeat",
                                                                                      "payload": {"visible": True}}]}}}


def test_the_scopes_the_service_checks_are_the_tables(server):
    import httpx

    with server.client() as c:
        for o in spec.INTERFACE:
            if not o.scope:
                continue
            others = [s for s in ("avatar:write", "viewer:write", "space:write") if s != o.scope]
            token = c.local.create_token(others)["token"]
            r = httpx.request(o.method, server.root + example_path(o.route).replace("x.glb", "x"),
                              headers={"Authorization": f"Bearer {token}"},
                              **BODIES.get(o.name, {}))
            assert r.status_code == 401 and r.json()["error"]["code"] == "insufficient_scope", (o, r.text)
