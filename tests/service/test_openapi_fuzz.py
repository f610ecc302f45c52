"""Schemathesis against a real `workbench serve`: no 5xx, and every answer as `/openapi.json` documents it.

The served document describes the real service only, so the local control API
(`/_local`, contract section 9) is not in it. Instead this module makes a small
world through `/_local` first (tokens of several scopes and accounts, product
and space viewers, space templates in each upload state, an avatar) and a
schema hook puts those real ids and tokens into most of the generated
cases, so the fuzzer gets past the 404s and 401s into every operation's own
rules. The document's links carry the ids the service hands out during a
stateful run (POST /avatar's modelId into model and preview, a regenerated
viewer into its tracking batch, a finished template into the next finish).

Runs are deterministic (``derandomize=True``) and bounded; set
``WORKBENCH_FUZZ_SCALE=20`` for a long run of thousands of cases.
"""

from __future__ import annotations

import json
import os
import re
import struct
from collections import Counter, defaultdict
from dataclasses import dataclass

import httpx
import hypothesis
import pytest
import schemathesis
from conftest import ServerProcess
from hypothesis import strategies as st
from schemathesis.generation import GenerationMode

from workbench.service.openapi import build_openapi
from workbench.tracking import catalog
from workbench.tracking.fields import kind_of

SCALE = int(os.environ.get("WORKBENCH_FUZZ_SCALE", "1"))
SETTINGS = hypothesis.settings(max_examples=40 * SCALE, deadline=None, derandomize=True, database=None,
                               suppress_health_check=list(hypothesis.HealthCheck))
STATEFUL_SETTINGS = hypothesis.settings(SETTINGS, max_examples=15 * SCALE, stateful_step_count=6)

# The quick loop fuzzes every operation with the same checks on its first 10 cases (and the stateful run on 4
# sequences); the whole suite adds the rest, drawn from a seed of their own, for the 40 cases an operation and 15
# sequences it always ran. Every operation, answer check and "past the refusals to a 2xx" is still proven in the
# quick loop, at a quarter of the cases: a model or preview built for most cases that get past the refusals made
# this module the quick loop's largest (37.8 s of CPU).
REST_SEED = 20261129
FUZZ_PARTS = [pytest.param(10, None, id="first"),
              pytest.param(30, REST_SEED, id="rest", marks=pytest.mark.slow(reason="the first part runs every check on every operation"))]
STATEFUL_PARTS = [pytest.param(4, None, id="first"),
                  pytest.param(11, REST_SEED, id="rest", marks=pytest.mark.slow(reason="the first part follows the links"))]


def seeded(examples: int, seed: int | None):
    """SETTINGS for ``examples`` times SCALE cases, and hypothesis's seed when given (else its derandomized one)."""
    def apply(test):
        test = hypothesis.settings(SETTINGS, max_examples=examples * SCALE)(test)
        return test if seed is None else hypothesis.seed(seed)(test)
    return apply


FINISH_UPLOAD = "POST /api/resources/spaces/{spaceTemplateId}/finish-upload"
REGENERATE_POST = "POST /api/viewers/{viewerToken}/regenerate/all"
TRACKING_POST = "POST /api/viewers/{viewerToken}/tracking-event/batch"
# The form of the ids the service hands out, by path parameter.
LINKED_ID = {"modelId": re.compile(r"[0-9a-f]{24}"), "viewerToken": re.compile(r"vw_[0-9a-f]{20}"),
             "spaceTemplateId": re.compile(r"sp_[0-9a-f]{20}")}


def nested_text(opener: str, closer: str, depth: int, inner: str = "1") -> str:
    return opener * depth + inner + closer * depth


# Bodies that nest past the depth rule in each place of a batch (the whole body, the events list, an
# event, a payload, an unknown field) and past the point where a decoder's own recursion gives up
# (msgspec's at 1,000 levels): the rule must answer 400 before any decoder runs. Sent as the beacon
# form (text/plain), whose body goes out byte for byte.
DEEP_BATCHES = st.builds(
    lambda where, kind, depth: where.replace("@", nested_text(*kind, depth)),
    st.sampled_from(['@', '{"sessionId": "s", "events": [@]}', '{"sessionId": "s", "events": @}',
                     '{"sessionId": "s", "events": [{"key": "heartbeat", "payload": @}]}',
                     '{"sessionId": "s", "events": [{"key": "custom.x", "payload": {"a": @}}]}',
                     '{"sessionId": "s", "events": [{"key": "heartbeat", "payload": {"visible": true}, "x": @}]}',
                     '{"sessionId": @, "events": []}']),
    st.sampled_from([("[", "]"), ('{"a": ', "}")]),
    st.integers(120, 3000))


# Batches that once broke the service after its commit or the lake after it (issue 27): lone surrogates
# (JSON's \ud800 escapes) in names at each place of an event, and numbers past the range of every
# numeric column of the catalog, each in an otherwise valid event beside a good one (so the good one is
# committed before the answer is written). Sent as the beacon form, byte for byte.
GOOD_EVENT = '{"key": "heartbeat", "payload": {"visible": true}}'
_VALID_BY_KIND = {"number": "1", "boolean": "true", "string": '"x"'}


def _catalog_event(key: str, override: str | None = None, value: str | None = None) -> str:
    """An event of ``key`` with every payload field at a valid value, ``override`` set to ``value``."""
    spec = catalog.CATALOG[key]
    fields = {}
    for f in spec.fields:
        kind = kind_of(f).name
        fields[f.name] = json.dumps(f.allowed[0]) if kind == "choice" else _VALID_BY_KIND[kind]
    if override is not None:
        fields[override] = value
    return '{"key": "%s", "payload": {%s}}' % (key, ", ".join(f'"{n}": {v}' for n, v in fields.items()))


NUMBER_FIELDS = [(spec.key, f.name) for spec in catalog.CATALOG.values() if not spec.free_form
                 for f in spec.fields if kind_of(f).name == "number"]
PAST_RANGE = st.builds(lambda sign, digits, tail: sign + "9" * digits + tail, st.sampled_from(["", "-"]),
                       st.integers(309, 1500), st.sampled_from(["", "", ".5", "e3"]))
SURROGATE = st.sampled_from(["\\ud800", "\\udfff", "a\\udc00b", "\\ud83d", "x\\ud83d\\ud83d"])
HOSTILE_EVENTS = st.one_of(
    st.builds(lambda kf, n: _catalog_event(kf[0], kf[1], n), st.sampled_from(NUMBER_FIELDS), PAST_RANGE),
    st.builds(lambda n: '{"key": "custom.cart", "payload": {"items": [{"qty": %s}]}}' % n, PAST_RANGE),
    st.builds(lambda name: '{"key": "heartbeat", "payload": {"visible": true}, "%s": 1}' % name, SURROGATE),
    st.builds(lambda name: '{"key": "heartbeat", "payload": {"%s": true}}' % name, SURROGATE),
    st.builds(lambda name: '{"key": "custom.cart", "payload": {"a": {"%s": 1}}}' % name, SURROGATE),
    st.builds(lambda name: '{"key": "%s"}' % name, SURROGATE),
)
HOSTILE_BATCHES = st.builds(lambda event, first: '{"sessionId": "s", "events": [%s]}' % (
    f"{GOOD_EVENT}, {event}" if first else event), HOSTILE_EVENTS, st.booleans())


# ---------------------------------------------------------------- the checks

def _error_code(response) -> str | None:
    try:
        return response.json()["error"]["code"]
    except (ValueError, KeyError, TypeError):
        return None


def server_error_only_where_documented(ctx, response, case):
    """No 5xx, except the interface's own: finish-upload of a missing or bad file is 500 finalization_failed,
    and a Transfer-Encoding other than chunked is 501 not_implemented (RFC 9112 section 6.1, contract section 14)."""
    if response.status_code < 500:
        return None
    if response.status_code == 501 and _error_code(response) == "not_implemented":
        codings = [v for k, v in (case.headers or {}).items() if k.lower() == "transfer-encoding"]
        if codings and all(v.strip().lower() != "chunked" for v in codings):
            return None
    if case.operation.label == FINISH_UPLOAD and response.status_code == 500 and \
            _error_code(response) == "finalization_failed":
        return None
    raise AssertionError(f"{case.operation.label} answered {response.status_code}: {response.text[:300]}")


# The answer is as /openapi.json documents it: status, content type, headers, body.
DOCUMENTED = [schemathesis.checks.status_code_conformance, schemathesis.checks.content_type_conformance,
              schemathesis.checks.response_headers_conformance, schemathesis.checks.response_schema_conformance]
CHECKS = [server_error_only_where_documented, *DOCUMENTED]


# ---------------------------------------------------------------- the world the fuzzer works in

@dataclass
class World:
    """Real ids and tokens, made through the local control API before fuzzing."""

    dev: str                   # all scopes, account dev (owns the viewers and templates below but one each)
    viewer_only: str           # scope viewer:write only
    other: str                 # all scopes, account other
    revoked: str
    ids: dict[str, list[str]]  # path parameter name -> real ids of that kind

    @property
    def bearers(self) -> list[str]:
        """Authorization values to draw from: mostly the one that works."""
        return [f"Bearer {t}" for t in (*[self.dev] * 6, self.viewer_only, self.other, self.revoked)]


def _glb_bytes(server: ServerProcess) -> bytes:
    return httpx.get(server.avatar_base_url + "/animations/feminine/wave.glb", timeout=60).content


def make_world(server: ServerProcess) -> World:
    local = httpx.Client(base_url=server.local_url, timeout=60)

    def made(path, body, key, status=201):
        r = local.post(path, json=body)
        assert r.status_code == status, r.text
        return r.json()["data"][key]

    def space(kind, account="dev", upload=None):
        sid = made("/spaces", {"kind": kind, "account": account}, "spaceTemplateId")
        if upload is not None:
            filename, data = upload
            assert local.put(f"/spaces/{sid}/upload", params={"filename": filename}, content=data).status_code == 200
        return sid

    dev = server.token
    viewer_only = made("/tokens", {"account": "dev", "scopes": ["viewer:write"]}, "token")
    other = made("/tokens", {"account": "other", "scopes": ["avatar:write", "viewer:write", "space:write"]}, "token")
    revoked = made("/tokens", {"account": "dev", "scopes": ["avatar:write"]}, "token")
    assert local.post("/tokens/revoke", json={"token": revoked}).status_code == 200
    glb = _glb_bytes(server)
    splat = b"".join(struct.pack("<3f3f4B4B", i, 0, 0, 1, 1, 1, 255, 255, 255, 255, 128, 128, 128, 128) for i in range(4))
    spaces = [space("glb"), space("glb", upload=("bundle.glb", glb)), space("glb", upload=("bad.glb", b"not a glb")),
              space("splat", upload=("scene.splat", splat)), space("splat", upload=("scene.ply", b"ply\nnonsense\n")),
              space("glb", account="other", upload=("bundle.glb", glb))]
    viewers = [made("/viewers", {"kind": "product"}, "viewerToken"), made("/viewers", {"kind": "space"}, "viewerToken"),
               made("/viewers", {"kind": "product", "account": "other"}, "viewerToken")]
    r = httpx.post(server.avatar_base_url + "/avatar", json={"gender": "feminine", "glasses": "clear"},
                   headers={"Authorization": f"Bearer {dev}"})
    assert r.status_code == 201, r.text
    local.close()
    return World(dev, viewer_only, other, revoked,
                 {"modelId": [r.json()["data"]["modelId"]], "viewerToken": viewers, "spaceTemplateId": spaces})


def use_world(schema, world: World) -> None:
    """A hook: most cases get real ids in the path and a real token (or none) in Authorization, and a
    beacon body (text/plain) may carry a real token too; the rest keep what schemathesis generated."""

    @schema.hook  # schemathesis knows the hook by this name
    def flatmap_case(context, case):
        # Hypothesis leans towards the first choice of sampled_from (and the first branch of one_of):
        # the real values come first, what schemathesis generated last.
        parts = {}
        for name, value in case.path_parameters.items():
            if name in world.ids:
                real = [*world.ids[name] * (6 // len(world.ids[name]))]
                # A value in the service's own form came from a link (the stateful run: POST /avatar's
                # modelId): it is kept, so the run fetches what it made instead of the world's avatar.
                linked = isinstance(value, str) and LINKED_ID.get(name) is not None and LINKED_ID[name].fullmatch(value)
                parts[name] = st.just(value) if linked else st.sampled_from([*real, value])
        if case.operation.definition.raw.get("security"):
            parts["Authorization"] = st.sampled_from([*world.bearers, None, case.headers.get("Authorization")])
        if case.operation.label == REGENERATE_POST and case.media_type == "text/plain" and isinstance(case.body, str):
            parts["body"] = st.sampled_from([*("access_token=" + t.removeprefix("Bearer ") for t in world.bearers), case.body])
        if case.operation.label == TRACKING_POST and case.media_type == "text/plain" and isinstance(case.body, str):
            parts["body"] = st.one_of(st.just(case.body), DEEP_BATCHES, HOSTILE_BATCHES)

        def apply(drawn):
            for name, value in drawn.items():
                if name in world.ids:
                    case.path_parameters[name] = value
                elif name == "Authorization":
                    if value is None:
                        case.headers.pop("Authorization", None)
                    else:
                        case.headers["Authorization"] = value
                elif name == "body":
                    case.body = value
            return case

        return st.fixed_dictionaries(parts).map(apply)


# ---------------------------------------------------------------- fixtures

@pytest.fixture(scope="module")
def fuzz_server(tmp_path_factory):
    srv = ServerProcess(tmp_path_factory.mktemp("fuzz") / "data").start()
    yield srv
    srv.stop()


@pytest.fixture(scope="module")
def world(fuzz_server):
    return make_world(fuzz_server)


@pytest.fixture(scope="module")
def seen():
    """Status codes answered, per operation, over the whole module; printed at the end."""
    table: dict[str, Counter] = defaultdict(Counter)
    yield table
    print("\nfuzzer reached (operation: status x count):")
    for label in sorted(table):
        print(f"  {label}: " + ", ".join(f"{s} x{n}" for s, n in sorted(table[label].items())))
    print(f"  cases: {sum(sum(c.values()) for c in table.values())}")


@pytest.fixture(scope="module")
def fuzz_schema(fuzz_server, world):
    schema = schemathesis.openapi.from_url(fuzz_server.root + "/openapi.json")
    use_world(schema, world)
    return schema


def operations(schema) -> list:
    return [result.ok() for result in schema.get_all_operations()]


# ---------------------------------------------------------------- the tests

# Every operation of the document is fuzzed, so one added later is fuzzed too.
DOCUMENT = build_openapi("http://127.0.0.1")
OPERATION_LABELS = [f"{method.upper()} {path}" for path, methods in DOCUMENT["paths"].items() for method in methods]


def test_the_served_document_is_the_one_fuzzed(fuzz_schema):
    assert sorted(op.label for op in operations(fuzz_schema)) == sorted(OPERATION_LABELS)


def test_links_name_real_operations_and_parameters():
    by_id = {op["operationId"]: op for methods in DOCUMENT["paths"].values() for op in methods.values()}
    links = [link for op in by_id.values() for answer in op["responses"].values() for link in answer.get("links", {}).values()]
    assert len(links) >= 8
    for link in links:
        target = by_id[link["operationId"]]
        assert set(link["parameters"]) <= {p["name"] for p in target["parameters"]}, link


@pytest.mark.parametrize("examples,seed", FUZZ_PARTS)
@pytest.mark.parametrize("label", OPERATION_LABELS)
def test_fuzz_each_operation(fuzz_schema, seen, label, examples, seed):
    """Positive and negative cases for one operation; it must also get past the 404s to a 2xx."""
    method, path = label.split(" ", 1)
    operation = fuzz_schema[path][method]
    strategy = st.one_of(operation.as_strategy(), operation.as_strategy(generation_mode=GenerationMode.NEGATIVE))
    statuses: Counter = Counter()

    @seeded(examples, seed)
    @hypothesis.given(case=strategy)
    def run(case):
        response = case.call(timeout=60)
        statuses[response.status_code] += 1
        case.validate_response(response, checks=CHECKS)

    run()
    seen[label].update(statuses)
    # Past the refusals in the operation's cases so far: the quick loop's first part alone, the whole suite's first
    # and rest parts together (the rest runs right after the first, on the same worker), as the 40 cases of one
    # run did before the split (finish-upload's rest part alone once answered 401 19 times and 500 three times).
    assert any(200 <= s < 300 for s in seen[label]), f"{label} never got past the refusals: {dict(seen[label])}"


@pytest.mark.parametrize("examples,seed", STATEFUL_PARTS)
def test_fuzz_stateful(fuzz_schema, world, seen, examples, seed):
    """Sequences of calls joined by the document's links, so ids the service hands out are used again."""
    machine = fuzz_schema.as_state_machine()
    fetched = set()  # avatars whose model or preview came back 200

    class Recorded(machine):
        def after_call(self, response, case):
            seen["stateful " + case.operation.label][response.status_code] += 1
            if response.status_code == 200 and "modelId" in case.path_parameters:
                fetched.add(case.path_parameters["modelId"])
            super().after_call(response, case)

        def validate_response(self, response, case, additional_checks=None, **kwargs):
            case.validate_response(response, checks=CHECKS)

        def get_call_kwargs(self, case):
            # The 60 s each case of test_fuzz_each_operation waits, not schemathesis's 10 s: a model built under
            # load 20 took past 10 s, and hypothesis's replay of the timeout then failed the run as flaky.
            return {"timeout": 60}

    if seed is not None:
        hypothesis.seed(seed)(Recorded)  # hypothesis's runner of a state machine takes the seed from its class
    Recorded.run(settings=hypothesis.settings(STATEFUL_SETTINGS, max_examples=examples * SCALE))
    # Avatars registered during the run were fetched: the links carried POST /avatar's modelId on.
    assert fetched - set(world.ids["modelId"]), dict(seen)


# ---------------------------------------------------------------- every answer, once, on purpose

class Answers:
    """Requests made on purpose for the answers random cases rarely reach (413, 415, 409, 500, 503, 304...)."""

    def __init__(self, server: ServerProcess, world: World):
        self.s, self.w = server, world
        self.local = httpx.Client(base_url=server.local_url, timeout=60)
        self.auth = {"Authorization": f"Bearer {server.token}"}

    def fault(self, operation: str, **kw):
        r = self.local.post("/faults", json={"operation": operation, "count": 1, **kw})
        assert r.status_code == 201, r.text

    def avatar(self, **settings) -> str:
        r = httpx.post(self.s.avatar_base_url + "/avatar", json={"gender": "masculine", **settings}, headers=self.auth)
        return r.json()["data"]["modelId"]

    def viewer(self, kind="product") -> str:
        return self.local.post("/viewers", json={"kind": kind}).json()["data"]["viewerToken"]

    def space(self, upload: tuple[str, bytes] | None = None, finish: str | None = None) -> str:
        sid = self.local.post("/spaces", json={"kind": "glb"}).json()["data"]["spaceTemplateId"]
        if upload:
            self.local.put(f"/spaces/{sid}/upload", params={"filename": upload[0]}, content=upload[1])
        if finish:
            self.finish(sid, finish)
        return sid

    def get(self, path, **kw):
        return httpx.get(self.s.root + path, timeout=60, **kw)

    def post(self, path, **kw):
        return httpx.post(self.s.root + path, timeout=60, **kw)

    def finish(self, sid, success="true", message="done", **kw):
        kw.setdefault("headers", self.auth)
        return self.post(f"/api/resources/spaces/{sid}/finish-upload",
                         files={"success": (None, success), "message": (None, message)}, **kw)


def _answers(a: Answers):
    """(operation label, what, response, the status it must be, or None where other engineers are changing it)."""
    reg, model, preview = "POST /avatars/avatar", "GET /avatars/model/{modelId}.glb", "GET /avatars/preview/{modelId}.png"
    anims, clip = "GET /avatars/animations", "GET /avatars/animations/{gender}/{name}.glb"
    regen_post, regen_put = REGENERATE_POST, "PUT /api/viewers/{viewerToken}/regenerate/all"
    batch = "POST /api/viewers/{viewerToken}/tracking-event/batch"
    dev, viewer_only = a.auth, {"Authorization": f"Bearer {a.w.viewer_only}"}
    mid = a.avatar()
    v = a.viewer()
    glb = _glb_bytes(a.s)

    yield reg, "registered", a.post("/avatars/avatar", json={"gender": "feminine"}, headers=dev), 201
    yield reg, "not JSON", a.post("/avatars/avatar", content=b"{", headers={**dev, "Content-Type": "application/json"}), 400
    yield reg, "bad settings", a.post("/avatars/avatar", json={"gender": "robot"}, headers=dev), 400
    yield reg, "no token", a.post("/avatars/avatar", json={"gender": "feminine"}), 401
    yield reg, "scope missing", a.post("/avatars/avatar", json={"gender": "feminine"}, headers=viewer_only), 401
    yield reg, "over 64 KiB", a.post("/avatars/avatar", json={"gender": "feminine", "name": "x" * 70000}, headers=dev), 413
    yield reg, "text/plain", a.post("/avatars/avatar", content=b"{}", headers={**dev, "Content-Type": "text/plain"}), 415
    a.fault("avatars.register", retryAfter=2)
    yield reg, "fault", a.post("/avatars/avatar", json={"gender": "feminine"}, headers=dev), 503
    yield reg, "two Authorization headers", a.post("/avatars/avatar", json={"gender": "feminine"},
                                                   headers=[("Authorization", dev["Authorization"]), ("Authorization", "Bearer x")]), None
    yield reg, "control character in name", a.post("/avatars/avatar", json={"gender": "feminine", "name": "a\x00b"}, headers=dev), None

    first = a.get(f"/avatars/model/{mid}.glb")
    yield model, "model", first, 200
    yield model, "not modified", a.get(f"/avatars/model/{mid}.glb", headers={"If-None-Match": first.headers["etag"]}), 304
    yield model, "lod=3", a.get(f"/avatars/model/{mid}.glb", params={"lod": 3}), 400
    yield model, "lod twice", a.get(f"/avatars/model/{mid}.glb?lod=1&lod=2"), 400
    yield model, "empty lod", a.get(f"/avatars/model/{mid}.glb?lod="), 400
    yield model, "empty animations", a.get(f"/avatars/model/{mid}.glb?animations="), None
    yield model, "unknown", a.get("/avatars/model/ffffffffffffffffffffffff.glb"), 404
    a.fault("model.generate")
    yield model, "generation fails", a.get(f"/avatars/model/{a.avatar()}.glb"), 500
    a.fault("avatars.model", retryAfter=1.5)
    yield model, "fault", a.get(f"/avatars/model/{mid}.glb"), 503

    first = a.get(f"/avatars/preview/{mid}.png", params={"size": 32})
    yield preview, "preview", first, 200
    yield preview, "not modified", a.get(f"/avatars/preview/{mid}.png", params={"size": 32}, headers={"If-None-Match": "*"}), 304
    yield preview, "background 1,2", a.get(f"/avatars/preview/{mid}.png", params={"background": "1,2"}), 400
    yield preview, "unknown", a.get("/avatars/preview/ffffffffffffffffffffffff.png"), 404
    a.fault("preview.render")
    yield preview, "rendering fails", a.get(f"/avatars/preview/{a.avatar()}.png", params={"size": 32}), 500
    a.fault("avatars.preview", status=503)
    yield preview, "fault", a.get(f"/avatars/preview/{mid}.png"), 503

    yield anims, "list", a.get("/avatars/animations"), 200
    a.fault("animations.list")
    yield anims, "fault", a.get("/avatars/animations"), 503
    first = a.get("/avatars/animations/masculine/walk.glb")
    yield clip, "clip", first, 200
    yield clip, "not modified", a.get("/avatars/animations/masculine/walk.glb", headers={"If-None-Match": first.headers["etag"]}), 304
    yield clip, "unknown name", a.get("/avatars/animations/masculine/fly.glb"), 400
    missing = a.s.data_dir / "animations" / "feminine" / "bow.glb"
    kept = missing.read_bytes()
    missing.unlink()
    try:
        yield clip, "file missing", a.get("/avatars/animations/feminine/bow.glb"), 404
    finally:
        missing.write_bytes(kept)
    a.fault("animations.download")
    yield clip, "fault", a.get("/avatars/animations/masculine/walk.glb"), 503

    token = dev["Authorization"].removeprefix("Bearer ")
    yield regen_post, "header token", a.post(f"/api/viewers/{v}/regenerate/all", headers=dev), 200
    yield regen_post, "beacon", a.post(f"/api/viewers/{a.viewer('space')}/regenerate/all", content=f"access_token={token}",
                                       headers={"Content-Type": "text/plain;charset=UTF-8"}), 200
    yield regen_post, "form", a.post(f"/api/viewers/{a.viewer()}/regenerate/all", data={"access_token": token}), 200
    yield regen_post, "header and body token", a.post(f"/api/viewers/{v}/regenerate/all", content=f"access_token={token}",
                                                      headers={**dev, "Content-Type": "text/plain"}), 400
    yield regen_post, "access_token twice", a.post(f"/api/viewers/{v}/regenerate/all", content="access_token=a&access_token=b",
                                                   headers={"Content-Type": "text/plain"}), 400
    yield regen_post, "beacon over 4 KiB", a.post(f"/api/viewers/{v}/regenerate/all", content="x" * 5000,
                                                  headers={"Content-Type": "text/plain"}), 413
    yield regen_post, "no token", a.post(f"/api/viewers/{v}/regenerate/all"), 401
    yield regen_post, "unknown viewer", a.post("/api/viewers/vw_nope/regenerate/all", headers=dev), 404
    yield regen_post, "another account's viewer", a.post(f"/api/viewers/{a.w.ids['viewerToken'][2]}/regenerate/all", headers=dev), 404
    a.fault("viewers.regenerate", retryAfter=0)
    yield regen_post, "fault", a.post(f"/api/viewers/{v}/regenerate/all", headers=dev), 503
    yield regen_put, "header token", httpx.put(f"{a.s.base_url}/viewers/{v}/regenerate/all", headers=dev), 200
    yield regen_put, "revoked token", httpx.put(f"{a.s.base_url}/viewers/{v}/regenerate/all", headers={"Authorization": f"Bearer {a.w.revoked}"}), 401
    yield regen_put, "unknown viewer", httpx.put(f"{a.s.base_url}/viewers/vw_nope/regenerate/all", headers=dev), 404
    yield regen_put, "two Authorization headers", httpx.put(f"{a.s.base_url}/viewers/{v}/regenerate/all",
                                                            headers=[("Authorization", "Bearer x"), ("Authorization", dev["Authorization"])]), None
    a.fault("viewers.regenerate")
    yield regen_put, "fault", httpx.put(f"{a.s.base_url}/viewers/{v}/regenerate/all", headers=dev), 503

    good, bad = {"key": "heartbeat", "payload": {"visible": True}}, {"key": "nope"}
    url = f"/api/viewers/{v}/tracking-event/batch"
    yield batch, "all logged", a.post(url, json={"sessionId": "s", "events": [good]}), 200
    yield batch, "some logged", a.post(url, json={"sessionId": "s", "events": [good, bad]}), 207
    yield batch, "beacon", a.post(url, content=json.dumps({"sessionId": "s", "events": [good]}), headers={"Content-Type": "text/plain"}), 200
    yield batch, "none valid", a.post(url, json={"sessionId": "s", "events": [bad]}), 400
    yield batch, "not JSON", a.post(url, content=b"[" * 1000, headers={"Content-Type": "application/json"}), 400
    yield batch, "NUL in sessionId", a.post(url, json={"sessionId": "a\x00b", "events": [good]}), None
    yield batch, "unknown viewer", a.post("/api/viewers/vw_nope/tracking-event/batch", json={"sessionId": "s", "events": [good]}), 404
    yield batch, "over 512 KiB", a.post(url, content=b" " * (600 * 1024), headers={"Content-Type": "application/json"}), 413
    yield batch, "XML", a.post(url, content=b"<a/>", headers={"Content-Type": "application/xml"}), 415
    a.fault("tracking.send_batch", retryAfter=3)
    yield batch, "fault", a.post(url, json={"sessionId": "s", "events": [good]}), 503

    finish = FINISH_UPLOAD
    yield finish, "finalized", a.finish(a.space(("bundle.glb", glb))), 201
    yield finish, "cancelled", a.finish(a.space(), "false"), 200
    yield finish, "finalized again", a.finish(a.space(("bundle.glb", glb), finish="true")), 201
    yield finish, "cancel a finalized one", a.finish(a.space(("bundle.glb", glb), finish="true"), "false"), 409
    yield finish, "no file", a.finish(a.space()), 500
    yield finish, "bad file", a.finish(a.space(("bad.glb", b"nope"))), 500
    yield finish, "success=yes", a.finish(a.space(), "yes"), 400
    yield finish, "not multipart", a.post(f"/api/resources/spaces/{a.space()}/finish-upload", json={"success": "true"}, headers=dev), 400
    yield finish, "over 64 KiB", a.finish(a.space(), "false", "x" * 70000), 413
    yield finish, "no token", a.finish(a.space(), headers={}), 401
    yield finish, "scope missing", a.finish(a.space(), headers=viewer_only), 401
    yield finish, "unknown template", a.finish("sp_nope"), 404
    yield finish, "message not UTF-8", a.post(f"/api/resources/spaces/{a.space()}/finish-upload", headers=dev,
                                              files={"success": (None, "false"), "message": (None, b"caf\xe9")}), None
    a.fault("spaces.finish_upload", status=503, retryAfter=1)
    yield finish, "fault", a.finish(a.space(), "false"), 503


def test_every_answer_is_documented(fuzz_server, world, fuzz_schema, seen):
    """Each status every handler can answer, made on purpose, matches /openapi.json: status, envelope,
    content type and headers. Answers other engineers are changing (None) must be documented whatever they are."""
    answers = Answers(fuzz_server, world)
    for label, what, response, status in _answers(answers):
        seen["on purpose " + label][response.status_code] += 1
        if status is not None:
            assert response.status_code == status, (label, what, response.status_code, response.text[:300])
        method, path = label.split(" ", 1)
        case = fuzz_schema[path][method].Case()
        response.request.read()  # schemathesis reads the request back; multipart is a stream until read
        try:
            case.validate_response(response, checks=DOCUMENTED)  # 5xx made on purpose here
        except Exception as e:
            raise AssertionError(f"{label}, {what}: answer {response.status_code} not as documented") from e


@hypothesis.settings(SETTINGS, max_examples=60 * SCALE)
@hypothesis.given(body=HOSTILE_BATCHES)
def test_hostile_names_and_numbers_are_refused_per_event_and_stored_once(fuzz_server, world, body):
    """Every draw of HOSTILE_BATCHES: a 207 (the good event stored, the other refused naming its field) or a
    400, never a 5xx, and an answer that is valid JSON whatever the names held."""
    viewer = world.ids["viewerToken"][0]
    url = f"{fuzz_server.base_url}/viewers/{viewer}/tracking-event/batch"
    r = httpx.post(url, content=body.encode("ascii"), headers={"Content-Type": "text/plain"}, timeout=60)
    assert r.status_code in (207, 400), (r.status_code, r.text[:300])
    answer = r.json()
    if r.status_code == 207:
        data = answer["data"]
        assert data["accepted"] == 1 and data["rejected"] == 1, data
        assert data["errors"][0]["field"], data
    else:
        assert answer["error"]["code"] in ("all_events_invalid", "invalid_json"), answer


def test_every_numeric_column_refuses_a_number_past_its_range(fuzz_server, world):
    viewer = world.ids["viewerToken"][0]
    url = f"{fuzz_server.base_url}/viewers/{viewer}/tracking-event/batch"
    assert NUMBER_FIELDS
    for key, name in NUMBER_FIELDS:
        body = '{"sessionId": "s", "events": [%s]}' % _catalog_event(key, name, "1" + "0" * 400)
        r = httpx.post(url, content=body, headers={"Content-Type": "application/json"}, timeout=60)
        assert r.status_code == 400, (key, name, r.text[:300])
        assert r.json()["error"]["details"][0]["field"] == f"payload.{name}", r.text[:300]
