"""Who may talk to a local service (contract section 14), over a real server and over ASGI.

- Host: loopback names and addresses and the names of ``--allowed-hosts`` are answered; any other
  (a page on a name that re-resolves to 127.0.0.1) is 400 ``host_not_allowed``, nothing changed.
- ``/_local`` changes state only for JSON sent as ``application/json`` with no foreign ``Origin``;
  anything a page could forge (a form, a ``text/plain`` fetch, another origin) is 403
  ``cross_site_request`` and changes nothing. ``GET /_local/health`` stays open.
- The client, which sends JSON and no Origin, keeps working.
"""

from __future__ import annotations

import asyncio

import httpx
import pytest
from conftest import ServerProcess
from helpers import cli_in_process

from workbench.service import Backend, create_app

FORGED = [
    ("text/plain", None, "Content-Type"),
    ("application/x-www-form-urlencoded", None, "Content-Type"),
    ("multipart/form-data; boundary=x", None, "Content-Type"),
    (None, None, "Content-Type"),
    ("application/json", "http://evil.example", "Origin"),
    ("application/json", "null", "Origin"),
    ("application/json", "http://127.0.0.1:1", "Origin"),  # another port of this machine is another site's page
]


class Target:
    """One way to reach a service: ``request(method, path, **kw)`` -> httpx.Response; ``counts()``."""

    def __init__(self, name, request, root):
        self.name, self.request, self.root = name, request, root

    def counts(self) -> dict:
        return self.request("GET", "/_local/health").json()["data"]["counts"]

    def seed(self) -> str:
        """A viewer with one event; its token."""
        r = self.request("POST", "/_local/viewers", json={"kind": "product"})
        assert r.status_code == 201, r.text
        vt = r.json()["data"]["viewerToken"]
        r = self.request("POST", f"/api/viewers/{vt}/tracking-event/batch",
                         json={"sessionId": "s", "events": [{"key": "heartbeat", "payload": {"visible": True}}]})
        assert r.status_code == 200, r.text
        return vt


@pytest.fixture(scope="module", params=["http", "asgi"])
def target(request, tmp_path_factory):
    if request.param == "http":
        srv = ServerProcess(tmp_path_factory.mktemp("sec") / "data").start()
        with httpx.Client(base_url=srv.root, timeout=30) as http:
            yield Target("http", http.request, srv.root)
        srv.stop()
    else:
        backend = Backend(tmp_path_factory.mktemp("sec-asgi") / "data", generate_library=False)
        loop = asyncio.new_event_loop()
        ac = httpx.AsyncClient(transport=httpx.ASGITransport(app=create_app(backend)), base_url="http://127.0.0.1:8080")
        yield Target("asgi", lambda *a, **kw: loop.run_until_complete(ac.request(*a, **kw)), "http://127.0.0.1:8080")
        loop.run_until_complete(ac.aclose())
        loop.close()
        backend.close()


def error_of(r: httpx.Response, status: int, code: str) -> dict:
    assert r.status_code == status, (r.status_code, r.text)
    body = r.json()
    assert body["status"] == "error" and body["error"]["code"] == code, body
    return body["error"]


# ---------------------------------------------------------------- the Host header

@pytest.mark.parametrize("host", ["evil.example", "evil.example:8080", "attacker.localhost.evil.example", "10.0.0.5",
                                  "127.0.0.1.evil.example"])
def test_a_foreign_host_is_refused_and_changes_nothing(target, host):
    target.seed()
    before = target.counts()
    for method, path, kw in [("POST", "/_local/reset", {"json": {}}), ("GET", "/_local/tokens", {}),
                             ("POST", "/_local/tokens", {"json": {"scopes": ["avatar:write"]}}),
                             ("GET", "/_local/health", {}), ("GET", "/avatars/animations", {}), ("GET", "/openapi.json", {})]:
        err = error_of(target.request(method, path, headers={"Host": host}, **kw), 400, "host_not_allowed")
        assert err["details"][0]["field"] == "Host" and "--allowed-hosts" in err["message"], err
    assert target.counts() == before


@pytest.mark.parametrize("host", ["localhost", "localhost:9999", "127.0.0.1", "127.0.0.1:8080", "127.1.2.3", "[::1]:8080",
                                  "LOCALHOST.", "[::1]"])
def test_loopback_hosts_are_answered(target, host):
    r = target.request("GET", "/_local/health", headers={"Host": host})
    assert r.status_code == 200, r.text


@pytest.mark.slow  # a service started with other options: the whole suite's; the quick loop keeps the default's hosts
def test_allowed_hosts_adds_names_and_the_cli_checks_them(tmp_path, capsys):
    srv = ServerProcess(tmp_path / "data", args=("--allowed-hosts", "wb.lan,.corp.example")).start()
    try:
        for host, status in [("wb.lan", 200), ("wb.lan:8080", 200), ("a.corp.example", 200), ("corp.example", 200),
                             ("evil.example", 400), ("wb.lan.evil.example", 400)]:
            assert httpx.get(srv.local_url + "/health", headers={"Host": host}).status_code == status, host
    finally:
        srv.stop()
    out = cli_in_process(capsys, "serve", "--allowed-hosts", "http://wb.lan")   # refused before anything starts
    assert out.returncode == 2 and "--allowed-hosts" in out.stderr and "Traceback" not in out.stderr, out.stderr


def test_two_host_headers_are_refused(target):
    if target.name == "http":
        pytest.skip("h11 refuses two Host headers itself, before the app")
    r = target.request("GET", "/_local/health", headers=[("Host", "localhost"), ("Host", "evil.example")])
    error_of(r, 400, "host_not_allowed")


# ---------------------------------------------------------------- /_local: only what no page can forge

@pytest.mark.parametrize("ctype,origin,field", FORGED, ids=[f"{c}-{o}" for c, o, _ in FORGED])
def test_forgeable_control_requests_are_refused_and_change_nothing(target, ctype, origin, field):
    target.seed()
    before = target.counts()
    headers = {**({"Content-Type": ctype} if ctype else {}), **({"Origin": origin} if origin else {})}
    for path, body in [("/_local/reset", b"{}"), ("/_local/tokens", b'{"scopes": ["avatar:write"]}'),
                       ("/_local/viewers", b'{"kind": "product"}'), ("/_local/spaces", b'{"kind": "glb"}'),
                       ("/_local/faults", b'{"operation": "animations.list", "count": 5}'),
                       ("/_local/tokens/revoke", b'{"token": "wb_x"}')]:
        err = error_of(target.request("POST", path, content=body, headers=headers), 403, "cross_site_request")
        assert err["details"][0]["field"] == field, err
    assert target.counts() == before
    # No fault was armed by the refused /faults call.
    assert target.request("GET", "/avatars/animations").status_code == 200


def test_cross_site_fetch_metadata_is_refused(target):
    r = target.request("POST", "/_local/reset", json={}, headers={"Sec-Fetch-Site": "cross-site"})
    assert error_of(r, 403, "cross_site_request")["details"][0]["field"] == "Sec-Fetch-Site"


def test_an_upload_from_another_origin_is_refused(target):
    sid = target.request("POST", "/_local/spaces", json={"kind": "glb"}).json()["data"]["spaceTemplateId"]
    r = target.request("PUT", f"/_local/spaces/{sid}/upload", params={"filename": "a.glb"}, content=b"glTF",
                       headers={"Origin": "http://evil.example", "Content-Type": "application/octet-stream"})
    error_of(r, 403, "cross_site_request")
    assert target.request("GET", f"/_local/spaces/{sid}").json()["data"]["state"] == "awaiting_upload"


def test_json_without_origin_or_with_the_services_own_is_taken(target):
    vt = target.seed()
    own = target.root
    r = target.request("POST", "/_local/viewers", json={"kind": "product"}, headers={"Origin": own})
    assert r.status_code == 201, r.text
    r = target.request("POST", "/_local/reset", json={})
    assert r.status_code == 200 and target.counts()["viewers"] == 0, r.text
    assert target.request("GET", f"/_local/viewers/{vt}").status_code == 404


def test_reads_stay_open_from_any_origin(target):
    r = target.request("GET", "/_local/health", headers={"Origin": "http://evil.example"})
    assert r.status_code == 200
    # ... but a page cannot read them: /_local sends no CORS headers.
    assert "access-control-allow-origin" not in r.headers


def test_the_client_keeps_working(tmp_path):
    # a service of its own: reset wipes every test's state, and the session's server is shared
    server = ServerProcess(tmp_path / "data").start()
    try:
        with server.client() as client:
            vt = client.local.create_viewer()["viewerToken"]
            client.local.create_token(["avatar:write"])
            client.local.fault("animations.list", count=1)
            client.local.reset()
            assert client.local.health()["counts"]["viewers"] == 0
            assert vt not in str(client.local.health())
    finally:
        server.stop()
