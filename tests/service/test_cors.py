"""Cross-origin rules over raw HTTP (contract section 12): preflights, CORS headers on every kind of
answer (200, 304, 4xx, 5xx), per-origin rules of ``workbench serve --cors-origins``, and none on /_local.

The browser tests (tests/browser/) show the same rules working in Chromium; these pin the headers.
"""

from __future__ import annotations

import httpx
import pytest
from conftest import ServerProcess
from helpers import auth, cli_in_process

PAGE = "http://127.0.0.1:5173"          # a page's origin: another port than the service's
SHOP = "https://shop.example"


def preflight(url, origin=PAGE, method="POST", headers=None):
    h = {"Origin": origin, "Access-Control-Request-Method": method}
    if headers:
        h["Access-Control-Request-Headers"] = headers
    return httpx.options(url, headers=h)


def listed(value: str | None) -> set[str]:
    return {v.strip().lower() for v in (value or "").split(",") if v.strip()}


def assert_public(r):
    assert r.headers.get("access-control-allow-origin") == "*", (r.status_code, dict(r.headers))
    assert {"etag", "content-length", "x-request-id"} <= listed(r.headers.get("access-control-expose-headers"))
    assert "access-control-allow-credentials" not in r.headers   # no cookies, ever


@pytest.fixture(scope="module")
def avatar(server):
    r = httpx.post(server.avatar_base_url + "/avatar", json={"gender": "feminine"}, headers=auth(server))
    return r.json()["data"]


# ---------------------------------------------------------------- public files: any origin

def test_files_answer_any_origin_with_exposed_headers_on_200_and_304(server, avatar):
    urls = [avatar["modelUrl"] + "?lod=2", avatar["previewUrl"] + "?size=64",
            server.avatar_base_url + "/animations", server.avatar_base_url + "/animations/feminine/wave.glb"]
    for url in urls:
        r = httpx.get(url, headers={"Origin": PAGE}, timeout=120)
        assert r.status_code == 200, url
        assert_public(r)
        if "etag" in r.headers:
            again = httpx.get(url, headers={"Origin": SHOP, "If-None-Match": r.headers["etag"]})
            assert again.status_code == 304
            assert_public(again)


def test_file_preflight_allows_if_none_match(server, avatar):
    r = preflight(avatar["modelUrl"], method="GET", headers="if-none-match")
    assert r.status_code == 204 and r.content == b""
    assert r.headers["access-control-allow-origin"] == "*"
    assert "if-none-match" in listed(r.headers["access-control-allow-headers"])
    assert r.headers.get("x-request-id")


# ---------------------------------------------------------------- tracking: any origin, JSON preflight, beacon

def test_tracking_preflight_and_json_post_from_any_origin(server, viewer):
    url = f"{server.base_url}/viewers/{viewer}/tracking-event/batch"
    for origin in (PAGE, SHOP):
        r = preflight(url, origin=origin, headers="content-type")
        assert r.status_code == 204, r.text
        assert r.headers["access-control-allow-origin"] == "*"
        assert "post" in listed(r.headers["access-control-allow-methods"])
        assert "content-type" in listed(r.headers["access-control-allow-headers"])
        assert r.headers.get("x-request-id")
    # A page on a public site calling this machine: Chromium's private-network preflight is granted.
    r = httpx.options(url, headers={"Origin": SHOP, "Access-Control-Request-Method": "POST",
                                    "Access-Control-Request-Private-Network": "true"})
    assert r.status_code == 204 and r.headers["access-control-allow-private-network"] == "true"
    r = httpx.post(url, json={"sessionId": "s1", "events": [{"key": "heartbeat", "payload": {"visible": True}}]},
                   headers={"Origin": PAGE})
    assert r.status_code == 200 and r.json()["data"]["accepted"] == 1
    assert_public(r)
    # The beacon form: text/plain, a simple request with no preflight.
    r = httpx.post(url, content='{"sessionId": "s1", "events": [{"key": "heartbeat", "payload": {"visible": false}}]}',
                   headers={"Origin": SHOP, "Content-Type": "text/plain;charset=UTF-8"})
    assert r.status_code == 200
    assert_public(r)


# ---------------------------------------------------------------- errors carry the headers

def test_errors_carry_cors_headers(server, avatar, viewer):
    bad = [
        (httpx.get(avatar["modelUrl"] + "?lod=3", headers={"Origin": PAGE}), 400, "invalid_parameter"),
        (httpx.get(server.avatar_base_url + "/model/" + "0" * 24 + ".glb", headers={"Origin": PAGE}), 404, "avatar_not_found"),
        (httpx.get(server.avatar_base_url + "/nowhere", headers={"Origin": PAGE}), 404, "route_not_found"),
        (httpx.delete(server.avatar_base_url + "/animations", headers={"Origin": PAGE}), 405, "method_not_allowed"),
        (httpx.post(f"{server.base_url}/viewers/vw_nobody/tracking-event/batch", json={}, headers={"Origin": PAGE}),
         404, "viewer_not_found"),
        (httpx.post(f"{server.base_url}/viewers/{viewer}/tracking-event/batch", content="{", headers={"Origin": PAGE,
         "Content-Type": "application/json"}), 400, None),
        (httpx.post(server.avatar_base_url + "/avatar", json={"gender": "robot"}, headers={"Origin": PAGE, **auth(server)}),
         400, None),
        (httpx.post(server.avatar_base_url + "/avatar", json={"gender": "feminine"}, headers={"Origin": PAGE}),
         401, "unauthorized"),
    ]
    for r, status, code in bad:
        assert r.status_code == status, (r.request.url, r.text)
        if code:
            assert r.json()["error"]["code"] == code
        assert r.headers.get("access-control-allow-origin") in ("*", PAGE), (r.request.url, dict(r.headers))
    # 5xx: faults injected through the control API, on a file and on the tracking endpoint.
    for op, url in (("avatars.model", avatar["modelUrl"]), ("tracking.send_batch", f"{server.base_url}/viewers/{viewer}/tracking-event/batch")):
        assert httpx.post(server.local_url + "/faults", json={"operation": op, "count": 1, "status": 503, "retryAfter": 1}).status_code == 201
        r = httpx.request("GET" if op == "avatars.model" else "POST", url, headers={"Origin": PAGE}, json=None if op == "avatars.model" else {})
        assert r.status_code == 503 and r.json()["error"]["code"] == "injected_fault"
        assert_public(r)
        assert "retry-after" in listed(r.headers["access-control-expose-headers"])


# ---------------------------------------------------------------- token endpoints: --cors-origins

TOKEN_URLS = ("/avatars/avatar", "/api/viewers/vw_x/regenerate/all", "/api/resources/spaces/sp_x/finish-upload")


def test_token_endpoints_allow_authorization_from_any_origin_by_default(server):
    for path in TOKEN_URLS:
        r = preflight(server.root + path, origin=SHOP, headers="authorization, content-type")
        assert r.status_code == 204, (path, r.text)
        assert r.headers["access-control-allow-origin"] == "*"
        assert "authorization" in listed(r.headers["access-control-allow-headers"])
    r = preflight(server.root + TOKEN_URLS[1], origin=SHOP, method="PUT", headers="authorization")
    assert r.status_code == 204


@pytest.fixture(scope="module")
def strict_server(tmp_path_factory):
    srv = ServerProcess(tmp_path_factory.mktemp("cors") / "data", args=("--cors-origins", f"{PAGE},{SHOP}")).start()
    yield srv
    srv.stop()


@pytest.mark.slow  # a service started with other options: the whole suite's; the quick loop keeps the default's CORS
def test_token_endpoints_follow_cors_origins(strict_server):
    srv = strict_server
    vt = httpx.post(srv.local_url + "/viewers", json={"kind": "product"}, timeout=60).json()["data"]["viewerToken"]
    url = f"{srv.base_url}/viewers/{vt}/regenerate/all"
    for origin in (PAGE, SHOP):
        r = preflight(url, origin=origin, headers="authorization")
        assert r.status_code == 204
        assert r.headers["access-control-allow-origin"] == origin and "origin" in listed(r.headers.get("vary"))
    r = preflight(url, origin="https://evil.example", headers="authorization")
    assert r.status_code == 400
    err = r.json()["error"]
    assert err["code"] == "cors_preflight_refused" and err["details"][0]["field"] == "Origin"
    assert "access-control-allow-origin" not in r.headers
    # A real request from a listed origin can read the answer; from another, it runs but the page cannot read it.
    r = httpx.post(url, headers={"Origin": SHOP, **auth(srv)})
    assert r.status_code == 200 and r.headers["access-control-allow-origin"] == SHOP
    r = httpx.post(srv.avatar_base_url + "/avatar", json={"gender": "feminine"}, headers={"Origin": "https://evil.example", **auth(srv)})
    assert r.status_code == 201 and "access-control-allow-origin" not in r.headers
    # The beacon form of regenerate needs no preflight, from any origin.
    r = httpx.post(url, content=f"access_token={srv.token}", headers={"Origin": "https://evil.example",
                                                                       "Content-Type": "text/plain;charset=UTF-8"})
    assert r.status_code == 200
    # Files and tracking still answer any origin; a header the policy does not list is refused.
    assert_public(httpx.get(srv.avatar_base_url + "/animations", headers={"Origin": "https://evil.example"}))
    r = preflight(f"{srv.base_url}/viewers/{vt}/tracking-event/batch", origin="https://evil.example", headers="content-type")
    assert r.status_code == 204 and r.headers["access-control-allow-origin"] == "*"
    r = preflight(f"{srv.base_url}/viewers/{vt}/tracking-event/batch", headers="authorization")
    assert r.status_code == 400 and r.json()["error"]["details"][0]["field"] == "Access-Control-Request-Headers"
    # The control API stays closed to pages: no CORS headers at all.
    r = httpx.get(srv.local_url + "/health", headers={"Origin": PAGE})
    assert r.status_code == 200 and "access-control-allow-origin" not in r.headers
    r = preflight(srv.local_url + "/reset")
    assert r.status_code == 405 and "access-control-allow-origin" not in r.headers


def test_cors_origins_are_checked_by_the_command(capsys):
    r = cli_in_process(capsys, "serve", "--cors-origins", "shop.example")   # refused before anything starts
    assert r.returncode == 2
    assert "--cors-origins: 'shop.example' is not an origin" in r.stderr


def test_openapi_documents_the_preflights(server):
    doc = httpx.get(server.root + "/openapi.json", headers={"Origin": PAGE})
    assert doc.headers["access-control-allow-origin"] == "*"
    paths = doc.json()["paths"]
    for path, ops in paths.items():
        # 501: a Transfer-Encoding other than chunked, refused below the app on every operation
        assert set(ops["options"]["responses"]) == {"204", "400", "405", "501"}, path
    assert "Authorization" in paths["/avatars/avatar"]["options"]["summary"]


def test_an_unexpected_fault_carries_the_headers(tmp_path, monkeypatch):
    """A fault no handler expected: RequestContext's 500 envelope still reaches the page (in-process app)."""
    import asyncio

    from workbench.service import Backend, create_app

    backend = Backend(tmp_path / "data", generate_library=False)

    def broken():
        raise RuntimeError("a bug with /secret/path in its text")

    monkeypatch.setattr(backend, "animation_list", broken)

    async def ask():
        transport = httpx.ASGITransport(app=create_app(backend), raise_app_exceptions=False)
        async with httpx.AsyncClient(transport=transport, base_url="http://localhost") as c:
            return await c.get("/avatars/animations", headers={"Origin": PAGE})

    try:
        r = asyncio.run(ask())
    finally:
        backend.close()
    assert r.status_code == 500 and r.json()["error"]["code"] == "internal_error"
    assert "/secret/path" not in r.text
    assert_public(r)
