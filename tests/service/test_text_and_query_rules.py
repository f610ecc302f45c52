"""Text that cannot be stored or
printed is refused where it comes in, an empty query value is refused the same way for every
parameter, a finish-upload message must be UTF-8, and the client takes an id copied with its suffix.
"""

from __future__ import annotations

from datetime import UTC

import httpx
import pytest
from conftest import DATA
from helpers import assert_error, auth, finish, make_space, space_state

import workbench

# JSON text with escapes that decode to strings UTF-8 cannot encode or a terminal would act on.
LONE_SURROGATE = b'"\\ud800"'
NUL = b'"a\\u0000b"'
ESCAPE = b'"a\\u001b[31mb"'


def register_raw(server, body: bytes):
    return httpx.post(server.avatar_base_url + "/avatar", content=body,
                      headers={**auth(server), "Content-Type": "application/json"})


@pytest.mark.parametrize("name", [LONE_SURROGATE, NUL, ESCAPE, b'"tab\\there"', b'"\\u0085"'])
def test_avatar_name_that_is_not_text_is_refused_and_changes_nothing(server, name):
    before = httpx.get(server.local_url + "/health").json()["data"]["counts"]
    body = assert_error(register_raw(server, b'{"gender":"masculine","name":' + name + b"}"), 400, "invalid_settings", "name")
    assert [d["code"] for d in body["error"]["details"]] == ["invalid_text"]
    assert httpx.get(server.local_url + "/health").json()["data"]["counts"] == before


def test_avatar_with_a_plain_unicode_name_still_works_end_to_end(server):
    r = register_raw(server, '{"gender":"feminine","name":"Zoë 李 🙂"}'.encode())
    assert r.status_code == 201, r.text
    model_id = r.json()["data"]["modelId"]
    assert httpx.get(f"{server.avatar_base_url}/preview/{model_id}.png", params={"size": 32}, timeout=120).status_code == 200


@pytest.mark.parametrize("message", ["a\x00b", "line\x1bone", "\x7f"])
def test_finish_message_with_control_characters_is_refused(server, message):
    sid = make_space(server, "glb", "sample_space.glb", (DATA / "sample_space.glb").read_bytes())
    body = assert_error(finish(server, sid, message=message), 400, "invalid_payload", "message")
    assert "control characters" in body["error"]["message"]
    assert space_state(server, sid) == "uploaded"


def test_finish_message_that_is_not_utf8_is_refused(server):
    sid = make_space(server, "glb", "sample_space.glb", (DATA / "sample_space.glb").read_bytes())
    files = {"success": (None, b"true"), "message": (None, "café".encode("latin-1"))}
    body = assert_error(finish(server, sid, files=files), 400, "invalid_payload", "message")
    assert "UTF-8" in body["error"]["message"]
    assert space_state(server, sid) == "uploaded"
    assert finish(server, sid, message="café").status_code == 201


@pytest.mark.parametrize("path,param", [
    ("model/{id}.glb", "lod"), ("model/{id}.glb", "animations"), ("model/{id}.glb", "textureFormat"),
    ("model/{id}.glb", "mergeMesh"), ("model/{id}.glb", "textureAtlasSize"),
    ("preview/{id}.png", "size"), ("preview/{id}.png", "camera"), ("preview/{id}.png", "background"),
])
def test_an_empty_query_value_is_refused_for_every_parameter(server, path, param):
    model_id = workbench.Client(base_url=server.base_url, avatar_base_url=server.avatar_base_url,
                                token=server.token).avatars.register({"gender": "feminine"}).model_id
    r = httpx.get(f"{server.avatar_base_url}/{path.format(id=model_id)}?{param}=")
    assert r.status_code == 400, r.text
    details = r.json()["error"]["details"]
    assert [(d["field"], d["code"]) for d in details] == [(param, "empty_value")]


def test_client_refuses_empty_values_before_sending_and_takes_empty_clip_lists():
    client = workbench.Client(base_url="http://127.0.0.1:9/api", avatar_base_url="http://127.0.0.1:9/avatars", token="t")
    with pytest.raises(workbench.OptionError) as e:
        client.avatars.model("abc", animations="")
    assert "animations" in str(e.value)


def test_client_given_an_id_with_its_suffix_finds_the_avatar(server):
    client = workbench.Client(base_url=server.base_url, avatar_base_url=server.avatar_base_url, token=server.token)
    model_id = client.avatars.register({"gender": "masculine"}).model_id
    assert client.avatars.model(model_id + ".glb", lod=2).inspect() is not None
    assert client.avatars.preview(model_id + ".png", size=32).image.size == (32, 32)
    assert client.avatars.model(model_id, animations=[]).model_id == model_id


# ---------------------------------------------------------------- tracking: session ids, event ids, payload text

def tracking_url(server):
    vt = httpx.post(server.local_url + "/viewers", json={"account": "dev"}).json()["data"]["viewerToken"]
    return vt, f"{server.base_url}/viewers/{vt}/tracking-event/batch"


HEARTBEAT = b'{"key":"heartbeat","payload":{"visible":true}}'


@pytest.mark.parametrize("sid", [LONE_SURROGATE, NUL, ESCAPE])
def test_session_id_that_is_not_text_is_refused_and_stores_nothing(server, sid):
    vt, url = tracking_url(server)
    r = httpx.post(url, content=b'{"sessionId":' + sid + b',"events":[' + HEARTBEAT + b"]}",
                   headers={"Content-Type": "application/json"})
    assert_error(r, 400, "invalid_session_id", "sessionId")
    export = httpx.get(server.local_url + "/tracking/events", params={"viewerToken": vt})
    assert export.status_code == 200 and export.text.strip() == ""


@pytest.mark.parametrize("event,field", [
    (b'{"key":"heartbeat","id":"a\\u0001","payload":{"visible":true}}', "id"),
    (b'{"key":"heartbeat","id":"\\ud800","payload":{"visible":true}}', "id"),
    (b'{"key":"load_error","payload":{"reason":"\\ud800"}}', "payload.reason"),
    (b'{"key":"custom.cart","payload":{"items":[{"sku":"\\udc00"}]}}', "payload.items[0].sku"),
])
def test_event_text_that_is_not_text_rejects_that_event_only(server, event, field):
    vt, url = tracking_url(server)
    r = httpx.post(url, content=b'{"sessionId":"s1","events":[' + event + b"," + HEARTBEAT + b"]}",
                   headers={"Content-Type": "text/plain"})
    assert r.status_code == 207, r.text
    data = r.json()["data"]
    assert (data["accepted"], [(e["index"], e["field"]) for e in data["errors"]]) == (1, [(0, field)])
    assert "Error" not in data["errors"][0]["message"]
    export = httpx.get(server.local_url + "/tracking/events", params={"viewerToken": vt})
    assert len(export.text.strip().splitlines()) == 1


def test_client_precheck_names_the_same_event_fields():
    from datetime import datetime

    from workbench.tracking.catalog import check_events
    now = datetime(2026, 11, 1, tzinfo=UTC)
    errors = check_events([{"key": "heartbeat", "id": "a\x01", "payload": {"visible": True}},
                           {"key": "load_error", "payload": {"reason": "\ud800"}},
                           {"key": "heartbeat", "payload": {"visible": True}}], now=now)
    assert [e and e["field"] for e in errors] == ["id", "payload.reason", None]


def test_a_huge_height_and_foreign_digits_are_refused_in_our_words(server):
    r = register_raw(server, b'{"gender":"feminine","height":1' + b"0" * 400 + b"}")
    body = assert_error(r, 400, "invalid_settings", "height")
    assert "about 401 digits" in body["error"]["message"]
    model_id = register_raw(server, b'{"gender":"feminine"}').json()["data"]["modelId"]
    r = httpx.get(f"{server.avatar_base_url}/model/{model_id}.glb", params={"lod": "\u0661"})
    assert_error(r, 400, r.json()["error"]["code"], "lod")


def test_a_newline_in_an_animation_name_reaches_its_rule(server):
    r = httpx.get(f"{server.avatar_base_url}/animations/masculine/wave%0A.glb")
    assert r.status_code == 400 and [d["field"] for d in r.json()["error"]["details"]] == ["name"], r.text
