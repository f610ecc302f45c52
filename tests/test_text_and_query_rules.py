"""Issue 12, items 2, 6, 8 and the client half of 10, over HTTP: text that cannot be stored or
printed is refused where it comes in, an empty query value is refused the same way for every
parameter, a finish-upload message must be UTF-8, and the client takes an id copied with its suffix.
"""

from __future__ import annotations

import httpx
import pytest

import workbench
from conftest import DATA
from test_service_http import assert_error, auth, finish, make_space, space_state

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
    assert httpx.get(f"{server.avatar_base_url}/preview/{model_id}.png", params={"size": 32}).status_code == 200


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
