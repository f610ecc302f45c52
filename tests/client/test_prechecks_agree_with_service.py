"""The client's pre-checks and the service's validation agree, on random options and settings (hypothesis).

For each generated input the client is asked first, over a transport that keeps
the request instead of sending it: either its pre-check refuses (OptionError,
naming fields), or it builds a request. Then the service at a real `workbench
serve` is asked: the request the client built is replayed byte for byte, and a
refused input is sent as the client would have sent it (raw httpx). Both must
accept, or both refuse naming the same fields.
"""

from __future__ import annotations

import json
import os
import string
import urllib.parse

import httpx
import hypothesis
import pytest
from conftest import ServerProcess
from hypothesis import strategies as st

import workbench
from workbench import options as opts
from workbench.client import OptionError
from workbench.client._base import _query_value
from workbench.client.errors import APIError

SCALE = int(os.environ.get("WORKBENCH_FUZZ_SCALE", "1"))  # 20 for a long run
SETTINGS = hypothesis.settings(max_examples=100 * SCALE, deadline=None, derandomize=True, database=None,
                               suppress_health_check=[hypothesis.HealthCheck.too_slow])
# No avatar has this id: the service checks the options before it looks the avatar up, so an accepted
# query is answered 404 avatar_not_found without generating a model.
UNKNOWN_ID = "0" * 24


# ---------------------------------------------------------------- the harness

def precheck(server: ServerProcess, call) -> tuple[frozenset | None, httpx.Request | None]:
    """(fields the client refused, None) or (None, the request it would send): its transport keeps the
    request and answers 599, which the client raises as an APIError (it does not retry: retries=0)."""
    kept = []

    def keep(request: httpx.Request) -> httpx.Response:
        request.read()
        kept.append(request)
        return httpx.Response(599, json={"status": "error", "error": {"code": "kept", "message": "kept"}})

    with workbench.Client(server.base_url, server.avatar_base_url, server.token, transport=httpx.MockTransport(keep),
                          retries=0) as client:
        try:
            call(client)
        except OptionError as e:
            assert not kept, "the client sent a request it refused"
            return frozenset(p.field for p in e.problems), None
        except APIError:
            pass
    assert len(kept) == 1, kept
    return None, kept[0]


def replay(server: ServerProcess, request: httpx.Request) -> httpx.Response:
    url = server.root + request.url.raw_path.decode("ascii")
    headers = {k: v for k, v in request.headers.items() if k.lower() in ("content-type", "authorization")}
    return httpx.request(request.method, url, headers=headers, content=request.content, timeout=60)


def refused_fields(response: httpx.Response, codes=("invalid_parameter", "invalid_settings", "invalid_animation",
                                                    "invalid_query", "invalid_payload", "invalid_json")) -> frozenset | None:
    """The fields a 400 of the service's validation names, or None when it did not refuse the input."""
    if response.status_code != 400:
        return None
    error = response.json()["error"]
    if error["code"] not in codes:
        return None
    return frozenset(d["field"] for d in error.get("details") or [])


def agree(server, call, send_refused, accepted_statuses):
    """The property: the client's pre-check and the service refuse the same fields, or neither refuses."""
    client_fields, request = precheck(server, call)
    if client_fields is None:
        response = replay(server, request)
        assert response.status_code in accepted_statuses, (response.status_code, response.text[:300], request.url)
    else:
        response = send_refused()
        service_fields = refused_fields(response)
        assert service_fields == client_fields, (client_fields, response.status_code, response.text[:300], response.url)


@pytest.fixture(scope="module")
def prop_server(tmp_path_factory):
    srv = ServerProcess(tmp_path_factory.mktemp("props") / "data").start()
    yield srv
    srv.stop()


# ---------------------------------------------------------------- strategies

def text_like(*good: str) -> st.SearchStrategy[str]:
    """Strings near the allowed ones (case, spaces, signs, digits of other scripts) and random text."""
    near = st.sampled_from(good).flatmap(lambda g: st.sampled_from(
        [g, g.upper(), f" {g}", f"{g} ", f"+{g}", f"0{g}", f"{g}.0", f"{g},", g[:-1] or "-", g + g]))
    return st.one_of(st.sampled_from(good), near, st.text(max_size=12),
                     st.text(string.digits + "+-., ", max_size=6), st.sampled_from(["", " ", "\x00", "١", "1e2", "0x10"]))


def number_like(*good: int) -> st.SearchStrategy:
    return st.one_of(st.sampled_from(good), st.integers(-10, 5000), st.booleans(), st.floats(allow_nan=True),
                     text_like(*(str(g) for g in good)))


MODEL_OPTIONS = st.fixed_dictionaries({}, optional={
    "lod": number_like(0, 1, 2),
    "animations": st.one_of(text_like("all", "none", "locomotion", "gestures", "walk,wave", "walk"),
                            st.lists(st.sampled_from(opts.ANIMATIONS + ("", "Walk", "fly")), max_size=4)),
    "texture_format": text_like(*opts.TEXTURE_FORMATS, "jpeg"),
    "merge_mesh": number_like(0, 1),
    "texture_atlas_size": number_like(64, 128, 256, 512, 1024, 2048, 100, 4096),
})
PREVIEW_OPTIONS = st.fixed_dictionaries({}, optional={
    "size": number_like(32, 100, 512, 31, 513),
    "camera": text_like(*opts.CAMERAS),
    "background": st.one_of(text_like("0,0,0", "255,255,255", "1, 2, 3", "256,0,0", "1,2"),
                            st.lists(st.integers(-1, 300), max_size=4).map(tuple)),
})
WIRE_NAMES = {"texture_format": "textureFormat", "merge_mesh": "mergeMesh", "texture_atlas_size": "textureAtlasSize"}


def wire_query(server: ServerProcess, download, options: dict) -> dict:
    """The query the client puts on the wire for these keyword arguments: each option as the client
    writes it when it sends that option alone, or, when it refuses even that, as it writes any value."""
    query = {}
    for k, v in options.items():
        if v is None:
            continue
        _, request = precheck(server, lambda c, k=k, v=v: download(c)(UNKNOWN_ID, **{k: v}))
        query.update(request.url.params if request is not None else {WIRE_NAMES.get(k, k): _query_value(v)})
    return query


color = st.one_of(st.from_regex(r"#[0-9A-Fa-f]{6}", fullmatch=True), text_like("#FFFFFF", "#c68642"), st.integers())
# Names: any text, control characters included (the client cannot carry what UTF-8 cannot: see below).
name = st.one_of(st.text(max_size=70), st.text(st.characters(codec="utf-8"), min_size=60, max_size=66), st.integers())
AVATAR_SETTINGS = st.one_of(
    st.fixed_dictionaries({}, optional={
        "gender": st.one_of(st.sampled_from(opts.GENDERS), text_like(*opts.GENDERS), st.none()),
        "bodyShape": st.one_of(st.sampled_from(opts.BODY_SHAPES), text_like("slim")),
        "height": st.one_of(st.floats(130, 220), st.integers(100, 250), st.floats(), st.booleans(), text_like("170")),
        "skinTone": color,
        "hair": st.one_of(st.fixed_dictionaries({}, optional={"style": text_like(*opts.HAIR_STYLES), "color": color}),
                          st.lists(st.integers(), max_size=1)),
        "outfit": st.fixed_dictionaries({}, optional={"top": color, "bottom": color, "shoes": color, "hat": color,
                                                      "topStyle": text_like(*opts.TOP_STYLES),
                                                      "bottomStyle": text_like(*opts.BOTTOM_STYLES)}),
        "glasses": text_like(*opts.GLASSES),
        "name": name,
        "nickname": st.text(max_size=3),
    }),
    st.lists(st.integers(), max_size=2), st.text(max_size=5), st.none())


# ---------------------------------------------------------------- the properties

def download_agrees(server: ServerProcess, operation: str, suffix: str, options: dict) -> None:
    """The client's download ``operation`` (``model``, ``preview``) of :data:`UNKNOWN_ID` with these keyword
    arguments, and a raw GET of its path with the query the client writes, agree."""
    def download(c):
        return getattr(c.avatars, operation)
    agree(server, lambda c: download(c)(UNKNOWN_ID, **options),
          lambda: httpx.get(f"{server.avatar_base_url}/{operation}/{UNKNOWN_ID}.{suffix}",
                            params=wire_query(server, download, options)),
          accepted_statuses={404})


@pytest.mark.slow  # a hundred requests each; the quick loop keeps the preview options' and the examples below
@SETTINGS
@hypothesis.given(options=MODEL_OPTIONS)
def test_model_options_agree(prop_server, options):
    download_agrees(prop_server, "model", "glb", options)


# The quick loop's one property of the kind: its first 25 cases (every option and kind of value drawn, the client's
# and the service's answers compared as in the other 75); the whole suite adds the other 75 from a seed of their own,
# the 100 it always ran.
PREVIEW_PARTS = [pytest.param(25, None, id="first"),
                 pytest.param(75, 20261129, id="rest", marks=pytest.mark.slow(reason="the first part compares the same"))]


@pytest.mark.parametrize("examples,seed", PREVIEW_PARTS)
def test_preview_options_agree(prop_server, examples, seed):
    @hypothesis.settings(SETTINGS, max_examples=examples * SCALE)
    @hypothesis.given(options=PREVIEW_OPTIONS)
    def run(options):
        download_agrees(prop_server, "preview", "png", options)

    (run if seed is None else hypothesis.seed(seed)(run))()


@pytest.mark.slow  # a hundred requests each; the quick loop keeps the preview options' and the examples below
@SETTINGS
@hypothesis.given(gender=text_like(*opts.GENDERS), name=text_like("walk", "strafe_left", "dance"))
def test_animation_paths_agree(prop_server, gender, name):
    # A path segment holding '/' (even quoted), or '.' or '..', never reaches the handler as the segment it was;
    # an empty segment (".glb" without a name, or "//") is a path of no route: 404 route_not_found. A newline
    # is the known disagreement tested below.
    hypothesis.assume("/" not in gender + name and gender not in (".", "..") and gender and name)
    hypothesis.assume("\n" not in gender + name)
    url = f"{prop_server.avatar_base_url}/animations/{urllib.parse.quote(gender, safe='')}/{urllib.parse.quote(name, safe='')}.glb"
    agree(prop_server, lambda c: c.animations.download(gender, name), lambda: httpx.get(url, timeout=60),
          accepted_statuses={200})


@pytest.mark.slow  # a hundred requests each; the quick loop keeps the preview options' and the examples below
@SETTINGS
@hypothesis.given(settings=AVATAR_SETTINGS)
def test_avatar_settings_agree(prop_server, settings):
    agree(prop_server, lambda c: c.avatars.register(settings),
          lambda: httpx.post(f"{prop_server.avatar_base_url}/avatar", content=json.dumps(settings).encode(),
                             headers={"Authorization": f"Bearer {prop_server.token}", "Content-Type": "application/json"}),
          accepted_statuses={201})


@pytest.fixture(scope="module")
def cancelled_space(prop_server):
    """A template cancelled once: a valid cancel answers 200 again, a valid finalize 409, an invalid form 400."""
    local = httpx.Client(base_url=prop_server.local_url)
    sid = local.post("/spaces", json={"kind": "glb"}).json()["data"]["spaceTemplateId"]
    r = httpx.post(f"{prop_server.base_url}/resources/spaces/{sid}/finish-upload", files={"success": (None, "false"), "message": (None, "no")},
                   headers={"Authorization": f"Bearer {prop_server.token}"})
    assert r.status_code == 200, r.text
    return sid


@pytest.mark.slow  # a hundred requests each; the quick loop keeps the preview options' and the examples below
@SETTINGS
@hypothesis.given(success=st.booleans(), message=st.one_of(st.text(max_size=20), st.text(min_size=995, max_size=1005), st.none()))
def test_finish_upload_fields_agree(prop_server, cancelled_space, success, message):
    # The client takes success as a bool; on the wire it is the text true or false (an absent message is left out).
    form = {"success": (None, "true" if success else "false"), **({"message": (None, message)} if message is not None else {})}
    agree(prop_server, lambda c: c.spaces.finish_upload(cancelled_space, success=success, message=message),
          lambda: httpx.post(f"{prop_server.base_url}/resources/spaces/{cancelled_space}/finish-upload", files=form,
                             headers={"Authorization": f"Bearer {prop_server.token}"}),
          accepted_statuses={200, 409})


@pytest.fixture(scope="module")
def viewer(prop_server):
    return httpx.post(prop_server.local_url + "/viewers", json={"kind": "product"}).json()["data"]["viewerToken"]


EVENTS = st.one_of(st.lists(st.fixed_dictionaries({"key": st.sampled_from(["heartbeat", "nope"]),
                                                    "payload": st.just({"visible": True})}), max_size=102),
                   st.text(max_size=3), st.none(), st.integers(), st.dictionaries(st.text(max_size=2), st.integers(), max_size=1))


@pytest.mark.slow  # a hundred requests each; the quick loop keeps the preview options' and the examples below
@SETTINGS
@hypothesis.given(session_id=st.one_of(st.text(max_size=130), st.text(min_size=126, max_size=130), st.integers(), st.none()),
                  events=EVENTS)
def test_tracking_batch_request_rules_agree(prop_server, viewer, session_id, events):
    # The service names the first broken request-level rule only; the client lists them all, in the same order.
    client_fields, request = precheck(prop_server, lambda c: c.tracking.send_batch(viewer, session_id, events))
    if client_fields is None:
        response = replay(prop_server, request)
        assert response.status_code in (200, 207) or response.json()["error"]["code"] == "all_events_invalid", response.text
    else:
        response = httpx.post(f"{prop_server.base_url}/viewers/{viewer}/tracking-event/batch",
                              json={"sessionId": session_id, "events": events})
        assert response.status_code == 400, response.text
        service_fields = [d["field"] for d in response.json()["error"]["details"]]
        first = "sessionId" if "sessionId" in client_fields else "events"
        assert service_fields == [first], (client_fields, response.text)


# ---------------------------------------------------------------- disagreements the fuzzer found (issue 12 items 2 and 5), fixed

@pytest.mark.parametrize("settings, field", [
    pytest.param({"gender": "masculine", "name": "\ud800"}, "name", id="lone-surrogate-name"),
    pytest.param({"gender": "masculine", "height": 10 ** 400}, "height", id="400-digit-height"),
])
def test_settings_utf8_or_a_float_cannot_carry_are_refused_alike(prop_server, settings, field):
    client_fields, _ = precheck(prop_server, lambda c: c.avatars.register(settings))
    response = httpx.post(f"{prop_server.avatar_base_url}/avatar", content=json.dumps(settings).encode(),
                          headers={"Authorization": f"Bearer {prop_server.token}", "Content-Type": "application/json"})
    assert client_fields == {field} and refused_fields(response) == {field}, (client_fields, response.text)


def test_a_newline_in_an_animation_name_is_refused_alike(prop_server):
    client_fields, _ = precheck(prop_server, lambda c: c.animations.download("masculine", "wave\n"))
    response = httpx.get(f"{prop_server.avatar_base_url}/animations/masculine/wave%0A.glb")
    assert client_fields == {"name"} and refused_fields(response) == {"name"}, (client_fields, response.text)
