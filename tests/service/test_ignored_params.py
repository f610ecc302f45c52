"""Query parameters an operation does not know (contract section 14), over a real server and ASGI.

A page's cache buster (``?v=3``) is ignored, as CDNs and the public web do: the answer is the one
without it (same bytes, same ETag, no new cache entry), and names it in
``X-Workbench-Ignored-Params``. A known parameter with a bad value is still 400. The client warns
when asked to send a parameter the operation does not know, and when an answer says one was ignored.
"""

from __future__ import annotations

import warnings

import httpx
import pytest

from workbench import options as opts

HEADER = opts.IGNORED_PARAMS_HEADER


@pytest.fixture(scope="module")
def avatar(server):
    with server.client() as c:
        return c.avatars.register({"gender": "masculine", "outfit": {"top": "#2E86C1"}}).model_id


def cached_files(server, avatar) -> set[str]:
    return {p.name for sub in ("models", "previews") for p in (server.data_dir / sub / avatar).glob("*")}


def test_a_cache_buster_is_ignored_named_and_never_cached_under(server, avatar):
    url = f"{server.avatar_base_url}/preview/{avatar}.png"
    plain = httpx.get(url, params={"size": 128}, timeout=60)
    assert plain.status_code == 200 and HEADER.lower() not in plain.headers
    files = cached_files(server, avatar)
    busted = httpx.get(url, params={"size": 128, "v": "3", "utm_source": "shop"}, timeout=60)
    assert busted.status_code == 200, busted.text
    assert busted.headers[HEADER] == "v, utm_source"
    assert busted.content == plain.content and busted.headers["etag"] == plain.headers["etag"]
    assert cached_files(server, avatar) == files  # no entry made for the busted URL
    model = httpx.get(f"{server.avatar_base_url}/model/{avatar}.glb", params={"lod": 2, "_": "1700000000"}, timeout=120)
    assert model.status_code == 200 and model.headers[HEADER] == "_"


def test_names_that_cannot_go_in_a_header_are_percent_encoded(server, avatar):
    # found by the fuzzer: ?%0D=null put a bare CR in the header and the connection was dropped
    r = httpx.get(f"{server.avatar_base_url}/preview/{avatar}.png?size=64&%0D=1&%0A%0AX-Evil:%201=2&caf%C3%A9=3&a%20b=4")
    assert r.status_code == 200, r.text
    assert r.headers[HEADER] == "%0D, %0A%0AX-Evil%3A%201, caf%C3%A9, a%20b" and "x-evil" not in r.headers


def test_an_empty_name_is_named_too(server, avatar):
    # found by the fuzzer: ?0=null&=null made the header "0, " (a trailing space), and h11 closed the
    # connection without an answer
    r = httpx.get(f"{server.avatar_base_url}/preview/{avatar}.png?size=64&0=null&=null", timeout=60)
    assert r.status_code == 200, r.text
    assert r.headers[HEADER] == '0, ""'


def test_a_known_parameter_with_a_bad_value_is_still_400_and_names_the_ignored(server, avatar):
    r = httpx.get(f"{server.avatar_base_url}/preview/{avatar}.png", params={"size": "huge", "v": "3"})
    assert r.status_code == 400 and r.json()["error"]["details"][0]["field"] == "size"
    assert r.headers[HEADER] == "v"


@pytest.mark.parametrize("method,path", [("GET", "/avatars/animations"), ("GET", "/_local/health"), ("GET", "/openapi.json")])
def test_operations_without_parameters_ignore_any(server, method, path):
    r = httpx.request(method, server.root + path, params={"v": "3"})
    assert r.status_code == 200 and r.headers[HEADER] == "v"


def test_tracking_and_the_export_ignore_unknown_parameters(server):
    vt = httpx.post(server.local_url + "/viewers", json={"kind": "product"}, timeout=60).json()["data"]["viewerToken"]
    r = httpx.post(f"{server.base_url}/viewers/{vt}/tracking-event/batch", params={"cb": "1"},
                   json={"sessionId": "s", "events": [{"key": "heartbeat", "payload": {"visible": True}}]})
    assert r.status_code == 200 and r.headers[HEADER] == "cb"
    r = httpx.get(server.local_url + "/tracking/events", params={"viewerToken": vt, "format": "jsonl", "limit": "5"})
    assert r.status_code == 200 and r.headers[HEADER] == "limit" and len(r.text.splitlines()) == 1


def test_over_asgi_too(asgi_client):
    # the in-process app answers the same; the client's warning is the one of any answer
    with pytest.warns(UserWarning, match="ignored the query parameter"):
        asgi_client.local._call("health", "GET", "/health", params={"v": "3"})


def test_the_client_warns_before_sending_an_unknown_parameter(server, avatar):
    with server.client() as c:
        with pytest.warns(UserWarning, match=r"avatars.preview: 'szie' is not a parameter"):
            p = c.avatars.preview(avatar, params={"szie": 64})
        assert p.size == (opts.PREVIEW_SIZE_DEFAULT, opts.PREVIEW_SIZE_DEFAULT)  # the typo did not change the size
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # a known one in params is no surprise: no warning
            c.avatars.preview(avatar, params={"size": 64})
        with pytest.raises(ValueError, match="given twice"):
            c.avatars.preview(avatar, size=64, params={"size": 64})


def test_the_openapi_document_says_so(server):
    doc = httpx.get(server.root + "/openapi.json").json()
    assert HEADER in doc["components"]["headers"] and "ignored" in doc["info"]["description"]
    answer = doc["paths"]["/avatars/preview/{modelId}.png"]["get"]["responses"]["200"]
    assert HEADER in answer["headers"]
