"""The service's backend in process, without HTTP (moto's in-process mode): each operation called directly.

The same methods serve the Starlette handlers; here they are called as a notebook or a test would,
with parsed inputs (the Authorization header's value, a decoded body, query parameters).
"""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest
from conftest import DATA

from workbench.service import Backend
from workbench.service.accounts import Accounts
from workbench.service.db import Database
from workbench.service.errors import ServiceError
from workbench.service.faults import Faults
from workbench.service.spaces import Spaces
from workbench.service.tracking_store import TrackingStore

TOKEN = "wb_backend_test_token_0123456789"
AUTH = f"Bearer {TOKEN}"
SERVICE = Path(__file__).resolve().parents[2] / "workbench" / "service"


@pytest.fixture()
def backend(tmp_path):
    b = Backend(tmp_path / "data", dev_token=TOKEN, generate_library=False)
    yield b
    b.close()


def refused(fn, *args) -> ServiceError:
    with pytest.raises(ServiceError) as e:
        fn(*args)
    return e.value


# ---------------------------------------------------------------- accounts and tokens

def test_new_data_folder_makes_the_dev_token_once(tmp_path):
    first = Backend(tmp_path / "d", dev_token=TOKEN, generate_library=False)
    assert first.new_dev_token == TOKEN
    first.close()
    again = Backend(tmp_path / "d", dev_token="wb_other", generate_library=False)
    assert again.new_dev_token is None and again.authenticate(AUTH, "space:write") == "dev"
    again.close()


def test_tokens_scopes_and_revocation(backend):
    assert refused(backend.register_avatar, None, {"gender": "feminine"}).code == "unauthorized"
    assert refused(backend.register_avatar, "Basic abc", {"gender": "feminine"}).status == 401
    viewer_only = backend.create_token({"account": "acme", "scopes": ["viewer:write"]})
    e = refused(backend.register_avatar, f"Bearer {viewer_only['token']}", {"gender": "feminine"})
    assert (e.code, e.headers["WWW-Authenticate"]) == ("insufficient_scope", 'Bearer error="insufficient_scope", scope="avatar:write"')
    assert backend.authenticate(f"Bearer {viewer_only['token']}", "viewer:write") == "acme"
    assert backend.revoke_token({"token": viewer_only["token"]}) == {"revoked": True}
    assert refused(backend.authenticate, f"Bearer {viewer_only['token']}", "viewer:write").code == "unauthorized"
    assert refused(backend.create_token, {"scopes": ["root"]}).code == "invalid_request"
    assert refused(backend.create_token, {"role": "x"}).code == "invalid_token_request"


def test_accounts_stand_alone_on_a_database(tmp_path):
    accounts = Accounts(Database(tmp_path / "a.db"), dev_token=TOKEN)
    made = accounts.create_token("team-7", ["space:write"])
    assert accounts.authenticate(f"Bearer {made['token']}", "space:write") == "team-7"
    # The token itself is never stored, only its hash.
    assert made["token"] not in (tmp_path / "a.db").read_bytes().decode("latin-1")


# ---------------------------------------------------------------- avatars and content

def test_register_normalizes_and_lists_every_problem(backend):
    reg = backend.register_avatar(AUTH, {"gender": "masculine", "name": "Ada"})
    assert reg["settings"]["gender"] == "masculine" and len(reg["modelId"]) == 24
    assert backend.avatar_settings(reg["modelId"]) == reg["settings"]
    e = refused(backend.register_avatar, AUTH, {"gender": "x", "height": 1, "foo": 1})
    assert e.code == "invalid_settings" and {d["field"] for d in e.details} == {"gender", "height", "foo"}


def test_model_is_cached_by_options_with_a_strong_etag(backend):
    mid = backend.register_avatar(AUTH, {"gender": "feminine"})["modelId"]
    glb, etag = backend.model(mid, {"lod": "2"})
    assert glb[:4] == b"glTF" and etag.startswith('"')
    assert backend.model(mid, {"lod": "2"}) == (glb, etag)
    e = refused(backend.model, mid, {"lod": "3"})
    assert (e.status, e.code, e.details[0]["field"]) == (400, "invalid_parameter", "lod")
    assert refused(backend.model, "0" * 24, {}).code == "avatar_not_found"


def test_animation_names_are_checked_before_any_file(backend):
    assert set(backend.animation_list()) == {"masculine", "feminine"}
    assert refused(backend.animation_file, "feminine", "../../workbench").code == "invalid_animation"


# ---------------------------------------------------------------- faults

def test_an_armed_fault_answers_once_then_the_operation_works(backend):
    armed = backend.arm_fault({"operation": "animations.list", "count": 1, "status": 429, "retryAfter": 2})
    assert armed == {"operation": "animations.list", "count": 1, "status": 429, "retryAfter": 2}
    e = refused(backend.animation_list)
    assert (e.status, e.code, e.headers) == (429, "injected_fault", {"Retry-After": "2"})
    assert backend.animation_list()["feminine"]
    assert refused(backend.arm_fault, {"operation": "nope"}).details[0]["field"] == "operation"
    assert refused(backend.arm_fault, {"operation": "animations.list", "colour": 1}).code == "invalid_fault"


def test_faults_stand_alone():
    f = Faults()
    f.arm({"operation": "model.generate"})
    assert f.take("model.generate").status == 500 and f.take("model.generate") is None


# ---------------------------------------------------------------- viewers and jobs

def test_regeneration_job_makes_the_files(backend):
    vt = backend.create_viewer({"kind": "product", "seed": "vase-1"})["viewerToken"]
    started = backend.regenerate(AUTH, vt)
    assert started["state"] == "started" and started["outputs"] == ["glb", "usdz", "preview"]
    backend.wait_for_jobs()
    rec = backend.viewer_record(vt)
    assert rec["job"]["state"] == "succeeded" and set(rec["files"]) == {"glb", "usdz", "preview"}
    glb, media = backend.viewer_file(vt, "glb")
    assert glb[:4] == b"glTF" and media == "model/gltf-binary"


def test_another_accounts_viewer_is_not_found(backend):
    vt = backend.create_viewer({"kind": "product", "account": "someone-else"})["viewerToken"]
    assert refused(backend.regenerate, AUTH, vt).code == "viewer_not_found"
    assert refused(backend.regenerate, AUTH, vt, TOKEN).code == "invalid_request"  # header and beacon token both


def test_a_failed_job_is_recorded_and_keeps_nothing_half_made(backend):
    vt = backend.create_viewer({"kind": "product"})["viewerToken"]
    backend.arm_fault({"operation": "viewers.job"})
    backend.regenerate(AUTH, vt)
    backend.wait_for_jobs()
    rec = backend.viewer_record(vt)
    assert rec["job"]["state"] == "failed" and rec["files"] == {}


# ---------------------------------------------------------------- spaces

def test_finish_upload_rules_and_states(backend):
    sid = backend.create_space({"kind": "glb"})["spaceTemplateId"]
    backend.upload_space(sid, "scene.glb", (DATA / "sample_space.glb").read_bytes())
    e = refused(backend.finish_upload, AUTH, sid, [("success", "yes"), ("message", "m"), ("extra", "x")])
    assert e.code == "invalid_payload" and {d["field"] for d in e.details} == {"success", "extra"}
    assert backend.space_record(sid)["state"] == "uploaded"
    status, rec = backend.finish_upload(AUTH, sid, [("success", "true"), ("message", "done")])
    assert (status, rec["state"], rec["message"]) == (201, "finalized", "done")
    assert backend.finish_upload(AUTH, sid, [("success", "true"), ("message", "again")])[0] == 201
    assert refused(backend.finish_upload, AUTH, sid, [("success", "false"), ("message", "m")]).code == "space_template_ended"
    assert refused(backend.finish_upload, AUTH, "sp_missing", [("success", "true"), ("message", "m")]).status == 404


def test_a_bad_file_fails_finalization(backend):
    sid = backend.create_space({"kind": "splat"})["spaceTemplateId"]
    backend.upload_space(sid, "bad.splat", b"\0" * 33)
    e = refused(backend.finish_upload, AUTH, sid, [("success", "true"), ("message", "m")])
    assert (e.status, e.code) == (500, "finalization_failed") and "32-byte records" in e.message
    assert backend.space_record(sid)["state"] == "failed"


def test_spaces_stand_alone(tmp_path):
    db = Database(tmp_path / "s.db")
    spaces = Spaces(db, tmp_path, Accounts(db), Faults())
    sid = spaces.create({"kind": "splat", "account": "acme"})["spaceTemplateId"]
    assert refused(spaces.finish, "dev", sid, [("success", "true"), ("message", "m")]).status == 404  # acme's, not dev's
    assert spaces.finish("acme", sid, [("success", "false"), ("message", "m")])[1]["state"] == "cancelled"


# ---------------------------------------------------------------- tracking

def test_tracking_batch_stores_once_and_exports(backend):
    vt = backend.create_viewer({"kind": "product"})["viewerToken"]
    hb = {"id": "e1", "key": "heartbeat", "payload": {"visible": True}}
    batch = {"sessionId": "s1", "events": [hb, {"key": "teleported"}]}
    status, data = backend.tracking_batch(vt, batch)
    assert (status, data["accepted"], data["rejected"]) == (207, 1, 1)
    assert backend.tracking_batch(vt, {"sessionId": "s1", "events": [hb]})[1]["duplicates"] == 1
    assert refused(backend.tracking_batch, "vw_nobody", batch).code == "viewer_not_found"
    assert refused(backend.tracking_batch, vt, {"sessionId": "s1", "events": []}).code == "empty_events"
    text, media = backend.export_events({"viewerToken": vt})
    rows = [json.loads(line) for line in text.splitlines()]
    assert media == "application/x-ndjson" and [(r["id"], r["sessionId"]) for r in rows] == [("e1", "s1")]
    assert refused(backend.export_events, {"format": "xml"}).code == "invalid_query"


def test_tracking_store_stands_alone(tmp_path):
    store = TrackingStore(Database(tmp_path / "t.db"))
    assert store.ingest("vw_x", {"sessionId": "s", "events": [{"key": "heartbeat", "payload": {"visible": False}}]})[0] == 200
    assert store.count("vw_x") == 1


# ---------------------------------------------------------------- control

def test_health_and_reset(backend):
    backend.register_avatar(AUTH, {"gender": "feminine"})
    vt = backend.create_viewer({"kind": "product"})["viewerToken"]
    assert backend.health()["counts"]["avatars"] == 1
    assert backend.reset() == {"reset": True}
    assert backend.health()["counts"] == {"avatars": 0, "viewers": 0, "spaces": 0, "events": 0}
    assert refused(backend.tracking_batch, vt, {"sessionId": "s", "events": [{"key": "heartbeat"}]}).code == "viewer_not_found"
    assert backend.authenticate(AUTH, "avatar:write") == "dev"  # accounts and tokens survive a reset


# ---------------------------------------------------------------- layout

def _imports(path: Path) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
    return names


def test_backend_parts_know_nothing_of_http_nor_of_the_facade():
    http_side = {"app.py", "server.py", "protocol.py", "openapi.py", "cors.py", "http.py", "guards.py", "__init__.py"}
    for path in SERVICE.glob("*.py"):
        if path.name in http_side:
            continue
        imported = _imports(path)
        assert not any(m.split(".")[0] in ("starlette", "uvicorn", "httpx") for m in imported), path.name
        if path.name != "backend.py":
            assert "workbench.service.backend" not in imported, f"{path.name} points back at the facade"
