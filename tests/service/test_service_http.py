"""The local service's rules over raw HTTP (a real `workbench serve` on a loopback port)."""

from __future__ import annotations

import re

import httpx
import pytest
from conftest import DATA, ServerProcess
from helpers import assert_error, auth, finish, make_space, space_state


def health_counts(server):
    return httpx.get(server.local_url + "/health").json()["data"]["counts"]


# ---------------------------------------------------------------- envelope, ids, openapi

def test_unknown_route_and_method_use_the_envelope(server):
    assert_error(httpx.get(server.root + "/api/nothing/here"), 404, "route_not_found")
    assert_error(httpx.delete(server.avatar_base_url + "/animations"), 405, "method_not_allowed")


def test_request_id_is_echoed_or_made(server):
    r = httpx.get(server.avatar_base_url + "/animations", headers={"X-Request-Id": "abc-123"})
    assert r.headers["x-request-id"] == "abc-123"
    r = httpx.get(server.avatar_base_url + "/animations", headers={"X-Request-Id": "bad id with spaces"})
    assert re.fullmatch(r"[0-9a-f]{16}", r.headers["x-request-id"])


def test_openapi_describes_every_operation(server):
    doc = httpx.get(server.root + "/openapi.json").json()
    from openapi_spec_validator import validate

    validate(doc)  # a valid OpenAPI 3.1 document, so generators and fuzzers can read it
    ops = {op["operationId"] for path in doc["paths"].values() for op in path.values()}
    assert {"avatars.register", "avatars.model", "avatars.preview", "animations.list", "animations.download",
            "viewers.regenerate.post", "viewers.regenerate.put", "tracking.send_batch", "spaces.finish_upload"} <= ops
    reg = doc["paths"]["/avatars/avatar"]["post"]
    assert set(reg["responses"]) >= {"201", "400", "401"}
    params = {(p["in"], p["name"]) for p in doc["paths"]["/avatars/model/{modelId}.glb"]["get"]["parameters"]}
    assert params == {("path", "modelId"), ("header", "If-None-Match")} | {
        ("query", q) for q in ("lod", "animations", "textureFormat", "mergeMesh", "textureAtlasSize")}
    # every answer of every operation is listed with the X-Request-Id it carries
    for path, methods in doc["paths"].items():
        for method, op in methods.items():
            for status, answer in op["responses"].items():
                assert "X-Request-Id" in answer.get("headers", {}), (method, path, status)


# ---------------------------------------------------------------- POST /avatar

def test_register_returns_201_with_absolute_urls(server):
    r = httpx.post(server.avatar_base_url + "/avatar", json={"gender": "masculine"}, headers=auth(server))
    assert r.status_code == 201
    d = r.json()["data"]
    assert re.fullmatch(r"[0-9a-f]{24}", d["modelId"])
    assert d["modelUrl"] == f"{server.avatar_base_url}/model/{d['modelId']}.glb"
    assert d["previewUrl"] == f"{server.avatar_base_url}/preview/{d['modelId']}.png"


BAD_SETTINGS = [
    ({}, "gender"),
    ({"gender": "robot"}, "gender"),
    ({"gender": 3}, "gender"),
    ({"gender": "feminine", "height": 139.9}, "height"),
    ({"gender": "feminine", "height": "tall"}, "height"),
    ({"gender": "feminine", "height": True}, "height"),
    ({"gender": "feminine", "bodyShape": "round"}, "bodyShape"),
    ({"gender": "feminine", "skinTone": "brown"}, "skinTone"),
    ({"gender": "feminine", "skinTone": "#12345"}, "skinTone"),
    ({"gender": "feminine", "hair": {"style": "mohawk"}}, "hair.style"),
    ({"gender": "feminine", "hair": {"color": "#GG0000"}}, "hair.color"),
    ({"gender": "feminine", "hair": "short"}, "hair"),
    ({"gender": "feminine", "hair": {"length": 3}}, "hair.length"),
    ({"gender": "feminine", "outfit": {"hat": "#000000"}}, "outfit.hat"),
    ({"gender": "feminine", "outfit": {"top": 123}}, "outfit.top"),
    ({"gender": "feminine", "glasses": "monocle"}, "glasses"),
    ({"gender": "feminine", "name": ""}, "name"),
    ({"gender": "feminine", "name": "x" * 65}, "name"),
    ({"gender": "feminine", "name": 5}, "name"),
    ({"gender": "feminine", "shoeSize": 42}, "shoeSize"),
]


@pytest.mark.parametrize("body,field", BAD_SETTINGS)
def test_register_rejects_each_bad_setting_and_changes_nothing(server, body, field):
    before = health_counts(server)["avatars"]
    assert_error(httpx.post(server.avatar_base_url + "/avatar", json=body, headers=auth(server)), 400, "invalid_settings", field)
    assert health_counts(server)["avatars"] == before


def test_register_lists_every_problem(server):
    r = httpx.post(server.avatar_base_url + "/avatar", json={"gender": "x", "height": 1, "foo": 1}, headers=auth(server))
    fields = {d["field"] for d in r.json()["error"]["details"]}
    assert fields == {"gender", "height", "foo"}


def test_register_body_format_rules(server):
    url = server.avatar_base_url + "/avatar"
    assert_error(httpx.post(url, content=b"{not json", headers={**auth(server), "Content-Type": "application/json"}), 400, "invalid_json")
    assert_error(httpx.post(url, json=[1, 2], headers=auth(server)), 400, "invalid_settings", "body")
    assert_error(httpx.post(url, content=b"gender=feminine", headers={**auth(server), "Content-Type": "application/x-www-form-urlencoded"}),
                 415, "unsupported_media_type", "Content-Type")
    big = {"gender": "feminine", "name": "n", "pad": "x" * (70 * 1024)}
    assert_error(httpx.post(url, json=big, headers=auth(server)), 413, "payload_too_large")


@pytest.mark.parametrize("header", [None, "Bearer", "Basic abc", "Bearer not-a-real-token", "bearer x y"])
def test_register_needs_a_valid_token(server, header):
    headers = {"Authorization": header} if header is not None else {}
    r = httpx.post(server.avatar_base_url + "/avatar", json={"gender": "feminine"}, headers=headers)
    assert_error(r, 401, "unauthorized")
    # RFC 6750 section 3.1: no error code when the request carries no Bearer credentials
    sent_a_token = header is not None and header.lower().startswith("bearer ") and header[7:].strip()
    assert r.headers["www-authenticate"] == ('Bearer error="invalid_token"' if sent_a_token else "Bearer")


def test_scope_and_revocation(server):
    tok = httpx.post(server.local_url + "/tokens", json={"scopes": ["viewer:write"]}).json()["data"]["token"]
    r = httpx.post(server.avatar_base_url + "/avatar", json={"gender": "feminine"}, headers=auth(server, tok))
    assert_error(r, 401, "insufficient_scope")
    assert r.headers["www-authenticate"] == 'Bearer error="insufficient_scope", scope="avatar:write"'
    tok2 = httpx.post(server.local_url + "/tokens", json={"scopes": ["avatar:write"]}).json()["data"]["token"]
    assert httpx.post(server.avatar_base_url + "/avatar", json={"gender": "feminine"}, headers=auth(server, tok2)).status_code == 201
    httpx.post(server.local_url + "/tokens/revoke", json={"token": tok2})
    assert_error(httpx.post(server.avatar_base_url + "/avatar", json={"gender": "feminine"}, headers=auth(server, tok2)), 401, "unauthorized")


def test_token_never_appears_in_answers(server):
    r = httpx.post(server.avatar_base_url + "/avatar", json={"gender": "feminine"}, headers=auth(server))
    assert server.token not in r.text
    assert server.token not in httpx.get(server.local_url + "/health").text


# ---------------------------------------------------------------- regenerate

def make_viewer(server, kind="product", account="dev"):
    r = httpx.post(server.local_url + "/viewers", json={"kind": kind, "account": account}, timeout=60)
    assert r.status_code == 201, r.text
    return r.json()["data"]["viewerToken"]


def test_regenerate_auth_404_and_start(server):
    vt = make_viewer(server)
    url = f"{server.base_url}/viewers/{vt}/regenerate/all"
    assert_error(httpx.post(url), 401, "unauthorized")
    scoped = httpx.post(server.local_url + "/tokens", json={"scopes": ["space:write"]}).json()["data"]["token"]
    assert_error(httpx.put(url, headers=auth(server, scoped)), 401, "insufficient_scope")
    assert_error(httpx.post(f"{server.base_url}/viewers/vw_missing/regenerate/all", headers=auth(server)), 404, "viewer_not_found")
    r = httpx.put(url, headers=auth(server))
    assert r.status_code == 200, r.text
    d = r.json()["data"]
    assert d["viewerToken"] == vt and d["kind"] == "product" and d["state"] in ("started", "running")
    assert d["outputs"] == ["glb", "usdz", "preview"]
    again = httpx.post(url, headers=auth(server)).json()["data"]
    rec = httpx.get(f"{server.local_url}/viewers/{vt}").json()["data"]
    # While the job runs a second request returns it; once it ended (its files written) a new one starts.
    # (The record's job is the newest: on a busy machine the first can end and the second start before it is read,
    # and the second end too, its files then named by it: a viewer's jobs run one at a time, so the files of a
    # later job say the first had ended. Seen beside four CPU-bound processes.)
    ended = {f["jobId"] for f in rec["files"].values()}
    assert again["jobId"] == d["jobId"] or d["jobId"] in ended or again["jobId"] in ended, (again, rec)


def test_other_accounts_viewer_is_404(server):
    vt = make_viewer(server, account="someone-else")
    assert_error(httpx.post(f"{server.base_url}/viewers/{vt}/regenerate/all", headers=auth(server)), 404, "viewer_not_found")


@pytest.mark.parametrize("ctype", ["text/plain;charset=UTF-8", "application/x-www-form-urlencoded"])
def test_regenerate_beacon_form(server, ctype):
    vt = make_viewer(server)
    url = f"{server.base_url}/viewers/{vt}/regenerate/all"
    r = httpx.post(url, content=f"access_token={server.token}", headers={"Content-Type": ctype})
    assert r.status_code == 200, r.text
    assert_error(httpx.post(url, content="access_token=wrong", headers={"Content-Type": ctype}), 401, "unauthorized")
    r = httpx.post(url, content=f"access_token={server.token}", headers={"Content-Type": ctype, **auth(server)})
    assert_error(r, 400, "invalid_request")


def test_token_in_query_string_is_not_accepted(server):
    vt = make_viewer(server)
    assert_error(httpx.post(f"{server.base_url}/viewers/{vt}/regenerate/all", params={"access_token": server.token}),
                 401, "unauthorized")


# ---------------------------------------------------------------- finish-upload

@pytest.mark.parametrize("kind,filename", [("glb", "sample_space.glb"), ("splat", "sample_splat.ply")])
def test_finish_good_upload_is_201_and_repeat_is_safe(server, kind, filename):
    sid = make_space(server, kind, filename, (DATA / filename).read_bytes())
    r = finish(server, sid)
    assert r.status_code == 201, r.text
    assert r.json()["data"]["state"] == "finalized"
    assert finish(server, sid).status_code == 201
    assert_error(finish(server, sid, success="false"), 409, "space_template_ended")


def test_finish_splat_records_file(server):
    sid = make_space(server, "splat", "s.splat", bytes(32 * 10))
    assert finish(server, sid).status_code == 201


def test_cancel_is_200_and_repeat_is_safe(server):
    sid = make_space(server, "glb")
    r = finish(server, sid, success="false", message="user cancelled")
    assert r.status_code == 200 and r.json()["data"]["state"] == "cancelled"
    assert finish(server, sid, success="false", message="again").status_code == 200
    assert_error(finish(server, sid), 409, "space_template_ended")


@pytest.mark.parametrize("kind,filename,data", [
    ("glb", None, None),
    ("glb", "broken.glb", b"glTF" + b"\x02\x00\x00\x00" + b"\x00" * 40),
    ("glb", "scene.ply", (DATA / "sample_splat.ply").read_bytes()),
    ("splat", "bad.ply", b"ply\nformat binary_little_endian 1.0\nelement vertex 3\nproperty float x\nend_header\n" + b"\0" * 12),
    ("splat", "cut.ply", (DATA / "sample_splat.ply").read_bytes()[:-100]),
    ("splat", "bad.splat", b"\0" * 33),
])
def test_bad_or_missing_file_is_500_and_failed(server, kind, filename, data):
    sid = make_space(server, kind, filename, data)
    assert_error(finish(server, sid), 500, "finalization_failed")
    assert space_state(server, sid) == "failed"


@pytest.mark.parametrize("files,field", [
    ({"message": (None, "m")}, "success"),
    ({"success": (None, "yes"), "message": (None, "m")}, "success"),
    ({"success": (None, "True"), "message": (None, "m")}, "success"),
    ({"success": (None, "true")}, "message"),
    ({"success": (None, "true"), "message": (None, "")}, "message"),
    ({"success": (None, "true"), "message": (None, "m" * 1001)}, "message"),
    ({"success": (None, "true"), "message": (None, "m"), "extra": (None, "x")}, "extra"),
])
def test_finish_payload_rules_change_nothing(server, files, field):
    sid = make_space(server, "glb", "sample_space.glb", (DATA / "sample_space.glb").read_bytes())
    assert_error(finish(server, sid, files=files), 400, "invalid_payload", field)
    assert space_state(server, sid) == "uploaded"


def test_finish_wrong_content_type_is_400(server):
    sid = make_space(server, "glb")
    r = httpx.post(f"{server.base_url}/resources/spaces/{sid}/finish-upload", json={"success": "true", "message": "m"}, headers=auth(server))
    assert_error(r, 400, "invalid_payload", "Content-Type")
    r = httpx.post(f"{server.base_url}/resources/spaces/{sid}/finish-upload", data={"success": "true", "message": "m"}, headers=auth(server))
    assert_error(r, 400, "invalid_payload", "Content-Type")


def test_finish_auth_and_404(server):
    sid = make_space(server, "glb")
    assert_error(finish(server, sid, token=""), 401, "unauthorized")
    scoped = httpx.post(server.local_url + "/tokens", json={"scopes": ["viewer:write"]}).json()["data"]["token"]
    assert_error(finish(server, sid, token=scoped), 401, "insufficient_scope")
    assert_error(finish(server, "sp_missing"), 404, "space_template_not_found")
    other = make_space(server, "glb", account="other-co")
    assert_error(finish(server, other), 404, "space_template_not_found")


# ---------------------------------------------------------------- control API faults

def test_fault_injection_answers_with_status_and_retry_after(server):
    r = httpx.post(server.local_url + "/faults", json={"operation": "animations.list", "count": 1, "status": 429, "retryAfter": 2})
    assert r.status_code == 201
    r = httpx.get(server.avatar_base_url + "/animations")
    assert_error(r, 429, "injected_fault")
    assert r.headers["retry-after"] == "2"
    assert httpx.get(server.avatar_base_url + "/animations").status_code == 200
    assert_error(httpx.post(server.local_url + "/faults", json={"operation": "nope"}), 400, "invalid_fault", "operation")


# ---------------------------------------------------------------- durability

@pytest.mark.slow  # a service of its own, killed and restarted: the whole suite's (docs/testing.md)
def test_kill9_and_restart_lose_nothing(tmp_path):
    srv = ServerProcess(tmp_path / "data").start()
    try:
        reg = httpx.post(srv.avatar_base_url + "/avatar", json={"gender": "feminine", "name": "Kim"}, headers=auth(srv)).json()["data"]
        tok = httpx.post(srv.local_url + "/tokens", json={"scopes": ["space:write"], "account": "acme"}).json()["data"]["token"]
        vt = make_viewer(srv)
        sid = make_space(srv, "glb", "sample_space.glb", (DATA / "sample_space.glb").read_bytes(), account="acme")
        srv.kill9()
        srv.start()
        assert httpx.get(f"{srv.local_url}/viewers/{vt}").status_code == 200
        assert space_state(srv, sid) == "uploaded"
        assert finish(srv, sid, token=tok).status_code == 201
        assert httpx.post(srv.avatar_base_url + "/avatar", json={"gender": "feminine"}, headers=auth(srv)).status_code == 201
        assert httpx.get(srv.local_url + "/health").json()["data"]["counts"]["avatars"] == 2
        assert reg["modelId"]
    finally:
        srv.stop()
