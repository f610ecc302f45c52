"""Hostile values in the service: numbers the lake cannot hold, text UTF-8 cannot write, and the
Bearer challenge of a request without credentials, over real HTTP against the session's server."""

from __future__ import annotations

import httpx
import pytest
from helpers import auth, error_of

SURROGATE_NAME = rb'"\ud800"'  # JSON's escape of a lone surrogate: valid JSON text, unwritable as UTF-8


def batch_url(server, viewer):
    return f"{server.base_url}/viewers/{viewer}/tracking-event/batch"


def stored(server, viewer) -> int:
    r = httpx.get(server.local_url + "/tracking/events", params={"viewerToken": viewer})
    return len(r.text.splitlines())


# ---------------------------------------------------------------- 1. numbers past a double's range

@pytest.mark.parametrize("payload", [
    b'{"key": "viewer_loaded", "payload": {"loadTimeMs": ' + b"9" * 400 + b"}}",
    b'{"key": "viewer_loaded", "payload": {"loadTimeMs": -' + b"9" * 309 + b"}}",
    b'{"key": "custom.cart", "payload": {"items": [{"qty": ' + b"1" * 320 + b"}]}}",
], ids=["catalog-field", "negative", "nested-custom"])
def test_a_number_past_the_lakes_column_is_a_per_event_400_detail(server, viewer, payload):
    good = b'{"key": "heartbeat", "payload": {"visible": true}}'
    before = stored(server, viewer)
    r = httpx.post(batch_url(server, viewer), content=b'{"sessionId": "s", "events": [' + good + b", " + payload + b"]}",
                   headers={"Content-Type": "text/plain"})
    assert r.status_code == 207, r.text
    (err,) = r.json()["data"]["errors"]
    assert err["index"] == 1 and err["code"] == "invalid_payload" and "64-bit float" in err["message"], err
    assert err["field"] in ("payload.loadTimeMs", "payload.items[0].qty")
    assert stored(server, viewer) == before + 1


def test_the_largest_double_still_fits(server, viewer):
    body = b'{"sessionId": "s", "events": [{"key": "viewer_loaded", "payload": {"loadTimeMs": 1.7976931348623157e308}}]}'
    assert httpx.post(batch_url(server, viewer), content=body, headers={"Content-Type": "application/json"}).status_code == 200


# ---------------------------------------------------------------- 2. lone surrogates in names

def test_a_surrogate_field_name_in_a_batch_is_answered_once_and_stored_once(server, viewer):
    events = (b'[{"key": "heartbeat", "payload": {"visible": true}}, {"key": "heartbeat", ' + SURROGATE_NAME + b': 1},'
              b' {"key": "heartbeat", "payload": {' + SURROGATE_NAME + b": true}}]")
    before = stored(server, viewer)
    r = httpx.post(batch_url(server, viewer), content=b'{"sessionId": "s", "events": ' + events + b"}",
                   headers={"Content-Type": "text/plain"})
    assert r.status_code == 207, r.text
    errors = r.json()["data"]["errors"]
    assert [(e["index"], e["code"], e["field"]) for e in errors] == [
        (1, "unknown_field", "\\ud800"), (2, "unknown_field", "payload.\\ud800")]
    assert stored(server, viewer) == before + 1


@pytest.mark.parametrize("where", ["name", "value", "nested"])
def test_unwritable_text_in_a_control_or_avatar_body_is_a_400_naming_the_field(server, viewer, where):
    body = {"name": rb'{"\ud800": 1}', "value": rb'{"kind": "\udc00"}', "nested": rb'{"a": [1, {"b\ud83d": 2}]}'}[where]
    field = {"name": "\\ud800", "value": "kind", "nested": "a[1].b\\ud83d"}[where]
    before = httpx.get(server.local_url + "/health").json()["data"]["counts"]
    faults_before = httpx.get(server.local_url + "/faults").json()["data"]
    for url, headers in [(server.avatar_base_url + "/avatar", auth(server)), (server.local_url + "/viewers", {}),
                         (server.local_url + "/spaces", {}), (server.local_url + "/faults", {}),
                         (server.local_url + "/tokens/revoke", {}), (server.local_url + "/tokens", {})]:
        r = httpx.post(url, content=body, headers={**headers, "Content-Type": "application/json"})
        err = error_of(r, 400, "invalid_settings" if url.endswith("/avatar") else "invalid_request", field)
        assert err["details"][0]["code"] == "invalid_text" and "lone surrogate" in err["details"][0]["message"], (url, err)
    assert httpx.get(server.local_url + "/health").json()["data"]["counts"] == before
    assert httpx.get(server.local_url + "/faults").json()["data"] == faults_before


# ---------------------------------------------------------------- 9. RFC 6750 challenge

@pytest.mark.parametrize("header, challenge", [(None, "Bearer"), ("Basic dXNlcjpwdw==", "Bearer"),
                                               ("Bearer wb_not_a_token", 'Bearer error="invalid_token"')])
def test_a_request_without_credentials_gets_a_challenge_without_an_error_code(server, header, challenge):
    r = httpx.post(server.avatar_base_url + "/avatar", json={"gender": "feminine"},
                   headers={"Authorization": header} if header else {})
    error_of(r, 401, "unauthorized")
    assert r.headers["www-authenticate"] == challenge
