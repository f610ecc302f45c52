"""The OpenAPI 3.1 description of the local service (``GET /openapi.json``).

Built from the same constants the checks use (``workbench.options``, the event
catalog), so the document cannot promise other limits than the service keeps.
It lists every answer each operation gives, with its envelope, content type and
headers (``tests/service/test_openapi_fuzz.py`` holds it to that with schemathesis), and links
that let a stateful fuzzer carry real ids from one call to the next.

>>> doc = build_openapi("http://127.0.0.1:8080")
>>> sorted(doc["paths"])[:2]
['/api/resources/spaces/{spaceTemplateId}/finish-upload', '/api/viewers/{viewerToken}/regenerate/all']
>>> sorted(doc["paths"]["/avatars/avatar"]["post"]["responses"])
['201', '400', '401', '413', '415', '501', '503', '507']
"""

from __future__ import annotations

from workbench import options as opts
from workbench.__version__ import __version__
from workbench.service import spec
from workbench.service.cors import token_path
from workbench.tracking import catalog
from workbench.tracking.fields import kind_of

_REF = "#/components/"

# Answers every operation can give. A fault armed through the local control API
# (POST /_local/faults) answers 503 by default; it may name any status from 400 to
# 599, which only a caller who armed it will see, so those are not listed.
_UNAVAILABLE = "503"


# --------------------------------------------------------------------------
# building blocks
# --------------------------------------------------------------------------

def _headers(*names: str) -> dict:
    """Response headers by component name; X-Request-Id is on every answer, and the ignored parameters' names on any."""
    return {n: {"$ref": f"{_REF}headers/{n}"} for n in ("X-Request-Id", opts.IGNORED_PARAMS_HEADER, *names)}


def _error(description: str, codes: list[str] | None = None, headers: tuple[str, ...] = ()) -> dict:
    """An error answer in the envelope; ``codes`` pins ``error.code`` where the set is closed."""
    schema: dict = {"$ref": f"{_REF}schemas/Error"}
    if codes:
        schema = {"allOf": [schema, {"properties": {"error": {"properties": {"code": {"enum": codes}}}}}]}
    return {"description": description, "headers": _headers(*headers), "content": {"application/json": {"schema": schema}}}


def _err(description: str) -> dict:
    """An error answer whose code is left open."""
    return _error(description)


def _ok(description: str, data_ref: str, links: dict | None = None) -> dict:
    answer = {"description": description, "headers": _headers(), "content": {"application/json": {"schema": {
        "type": "object", "required": ["status", "data"],
        "properties": {"status": {"const": "ok"}, "data": {"$ref": f"{_REF}schemas/{data_ref}"}}}}}}
    if links:
        answer["links"] = links
    return answer


def _binary(description: str, media: str, links: dict | None = None) -> dict:
    answer = {"description": description, "headers": _headers("ETag", "Cache-Control"),
              "content": {media: {"schema": {"type": "string", "format": "binary"}}}}
    if links:
        answer["links"] = links
    return answer


_NOT_MODIFIED = {"description": "not modified: If-None-Match named the current ETag (or *); no body",
                 "headers": _headers("ETag", "Cache-Control")}


def _unauthorized() -> dict:
    return _error("missing, malformed, unknown or revoked token, or a token without the scope",
                  ["unauthorized", "insufficient_scope"], ("WWW-Authenticate",))


def _unavailable() -> dict:
    return _error("temporarily unavailable; wait Retry-After seconds when given (the local service answers it "
                  "when the control API armed a fault)", ["injected_fault"], ("Retry-After",))


def _storage_full() -> dict:
    return _error("the service's disk is full: nothing of the request was stored; try again after Retry-After seconds "
                  "(reads keep working)", ["insufficient_storage"], ("Retry-After",))


def _too_large(limit: str) -> dict:
    return _error(f"body over {limit}", ["payload_too_large", "body_too_large"])


def _unsupported(allowed: str) -> dict:
    return _error(f"Content-Type other than {allowed}", ["unsupported_media_type"])


def _link(operation_id: str, description: str, **parameters: str) -> dict:
    return {"operationId": operation_id, "description": description, "parameters": parameters}


def _qp(name: str, schema: dict, description: str) -> dict:
    return {"name": name, "in": "query", "required": False, "schema": schema, "description": description}


def _pp(name: str, description: str, schema: dict | None = None) -> dict:
    return {"name": name, "in": "path", "required": True, "schema": schema or {"type": "string"}, "description": description}


# Text the service takes holds no control characters (C0, DEL, C1): options.text_problem (docs/contract.md section 2).
_NO_CONTROL = "^[^\\u0000-\\u001f\\u007f-\\u009f]*$"

_IF_NONE_MATCH = {"name": "If-None-Match", "in": "header", "required": False, "schema": {"type": "string"},
                  "description": "an ETag from an earlier answer (or *): 304 without a body when it still matches"}


# --------------------------------------------------------------------------
# schemas
# --------------------------------------------------------------------------

def _payload_schema(spec: catalog.EventSpec) -> dict:
    if spec.free_form:
        return {"type": "object", "description": f"any JSON object of at most {catalog.MAX_PAYLOAD_BYTES} bytes"}
    props = {f.name: kind_of(f).json_schema(f) for f in spec.fields}
    return {"type": "object", "additionalProperties": False, "properties": props,
            "required": [f.name for f in spec.fields if f.required]}


def _tracking_event_schema() -> dict:
    """One event of the catalog: a key and the payload that key takes (contract section 7)."""
    # null at the top level of an event means absent (catalog module docstring).
    common = {
        # RFC 3339 as Python reads it: upper-case T and Z, no leap second.
        "timestamp": {"oneOf": [{"type": "string", "format": "date-time",
                                 "pattern": r"^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-5][0-9]:[0-5][0-9](\.[0-9]+)?(Z|[+-][0-9]{2}:[0-9]{2})$"},
                                {"type": "integer", "minimum": 946_684_800_000}, {"type": "null"}],
                      "description": "ISO 8601 with a zone, or epoch milliseconds; from 2000-01-01 to 24 h ahead "
                                     "of the server clock; default: the time received"},
        "id": {"type": ["string", "null"], "minLength": 1, "maxLength": catalog.MAX_ID_CHARS,
               "description": "unique per event: a repeated id is a duplicate, stored once"},
    }
    variants = []
    for event in catalog.CATALOG.values():
        key = ({"type": "string", "pattern": r"^custom\.[a-z][a-z0-9_]{0,63}$"} if event.free_form else {"const": event.key})
        payload = _payload_schema(event)
        required = ["key", "payload"] if any(f.required for f in event.fields) else ["key"]
        if "payload" not in required:
            payload = {"anyOf": [payload, {"type": "null"}]}
        variants.append({"type": "object", "additionalProperties": False, "required": required,
                         "properties": {"key": key, "payload": payload, **common}})
    return {"oneOf": variants, "description": "An event the service logs. Any other event in a batch is rejected on "
                                              "its own (207 or 400 all_events_invalid, with per-event errors)."}


def _schemas() -> dict:
    color = {"type": "string", "pattern": "^#[0-9A-Fa-f]{6}$"}
    return {
        "Error": {"type": "object", "additionalProperties": False, "required": ["status", "error"], "properties": {
            "status": {"const": "error"},
            "error": {"type": "object", "additionalProperties": False, "required": ["code", "message"], "properties": {
                "code": {"type": "string", "pattern": "^[a-z][a-z0-9_]*$"},
                "message": {"type": "string", "minLength": 1, "description": "one sentence for people"},
                "details": {"type": "array", "items": {"$ref": f"{_REF}schemas/Problem"}}}}}},
        "Problem": {"type": "object", "required": ["code", "message"], "properties": {
            "field": {"type": ["string", "null"], "description": "dotted path of the field, header or parameter"},
            "code": {"type": "string"}, "message": {"type": "string"},
            "index": {"type": "integer", "minimum": 0, "description": "the event's position (tracking batch)"}}},
        "AvatarSettings": {"type": "object", "additionalProperties": False, "required": ["gender"], "properties": {
            "gender": {"enum": list(opts.GENDERS)},
            "bodyShape": {"enum": list(opts.BODY_SHAPES), "default": "average"},
            "height": {"type": "number", "minimum": opts.HEIGHT_CM[0], "maximum": opts.HEIGHT_CM[1], "description": "cm; default 178 masculine, 166 feminine"},
            "skinTone": {**color, "default": opts.DEFAULT_SKIN},
            "eyeColor": {**color, "default": opts.DEFAULT_EYE},
            "face": {"type": "object", "additionalProperties": False, "properties": {
                k: {"type": "number", "minimum": opts.FACE_RANGE[0], "maximum": opts.FACE_RANGE[1], "default": 0}
                for k in opts.FACE_CONTROLS}},
            "hair": {"type": "object", "additionalProperties": False, "properties": {
                "style": {"enum": list(opts.HAIR_STYLES)}, "color": color}},
            "outfit": {"type": "object", "additionalProperties": False, "properties": {
                "top": color, "bottom": color, "shoes": color,
                "topStyle": {"enum": list(opts.TOP_STYLES), "default": opts.DEFAULT_OUTFIT["topStyle"]},
                "bottomStyle": {"enum": list(opts.BOTTOM_STYLES), "default": opts.DEFAULT_OUTFIT["bottomStyle"]},
                "shoeStyle": {"enum": list(opts.SHOE_STYLES), "default": opts.DEFAULT_OUTFIT["shoeStyle"]}}},
            "glasses": {"enum": list(opts.GLASSES), "default": "none"},
            "pose": {"enum": list(opts.POSES), "default": opts.DEFAULT_POSE},
            "name": {"type": "string", "minLength": opts.NAME_CHARS[0], "maxLength": opts.NAME_CHARS[1],
                     "pattern": _NO_CONTROL}}},
        "Registration": {"type": "object", "required": ["modelId", "modelUrl", "previewUrl"], "properties": {
            "modelId": {"type": "string", "pattern": "^[0-9a-f]{24}$"},
            "modelUrl": {"type": "string", "format": "uri"}, "previewUrl": {"type": "string", "format": "uri"}}},
        "AnimationList": {"type": "object", "required": list(opts.GENDERS), "properties": {
            g: {"type": "array", "items": {"enum": list(opts.ANIMATIONS)}} for g in opts.GENDERS}},
        "RegenerateJob": {"type": "object", "required": ["viewerToken", "kind", "jobId", "state", "outputs"], "properties": {
            "viewerToken": {"type": "string"}, "kind": {"enum": ["product", "space"]}, "jobId": {"type": "string"},
            "state": {"enum": ["started", "running"]},
            "outputs": {"type": "array", "items": {"enum": ["glb", "usdz", "preview", "bundle"]}}}},
        "TrackingBatch": {"type": "object", "additionalProperties": False, "required": ["sessionId", "events"], "properties": {
            "sessionId": {"type": "string", "minLength": 1, "maxLength": catalog.MAX_SESSION_ID_CHARS},
            "events": {"type": "array", "minItems": 1, "maxItems": catalog.MAX_EVENTS,
                       "items": {"$ref": f"{_REF}schemas/TrackingEvent"}}}},
        "TrackingEvent": _tracking_event_schema(),
        "BatchResult": {"type": "object", "required": ["accepted", "rejected", "duplicates", "errors"], "properties": {
            "accepted": {"type": "integer", "minimum": 0}, "rejected": {"type": "integer", "minimum": 0},
            "duplicates": {"type": "integer", "minimum": 0},
            "errors": {"type": "array", "items": {"type": "object", "required": ["index", "code", "message", "field"], "properties": {
                "index": {"type": "integer", "minimum": 0}, "code": {"enum": list(catalog.EVENT_ERROR_CODES)},
                "message": {"type": "string"}, "field": {"type": ["string", "null"]}}}}}},
        "SpaceTemplate": {"type": "object", "required": ["spaceTemplateId", "state"], "properties": {
            "spaceTemplateId": {"type": "string"}, "kind": {"enum": ["glb", "splat"]},
            "state": {"enum": ["awaiting_upload", "uploaded", "finalized", "cancelled", "failed"]}}},
    }


def _response_headers() -> dict:
    return {
        "X-Request-Id": {"required": True, "description": "echoes a request's X-Request-Id of 1 to 128 letters, digits, "
                                                          "'.', '_' or '-'; otherwise a new one. Quote it when reporting a fault.",
                         "schema": {"type": "string", "pattern": "^[A-Za-z0-9._-]{1,128}$"}},
        "ETag": {"required": True, "description": "strong validator of the bytes", "schema": {"type": "string", "pattern": '^"[^"]+"$'}},
        "Cache-Control": {"required": True, "schema": {"type": "string"}},
        "WWW-Authenticate": {"required": True, "description": 'Bearer (no credentials sent), Bearer error="invalid_token", or error="insufficient_scope" with the scope',
                             "schema": {"type": "string", "pattern": "^Bearer( |$)"}},
        opts.IGNORED_PARAMS_HEADER: {
            "required": False,
            "description": "present when the request had query parameters the operation does not know (a page's cache "
                           "buster such as ?v=3): their names, comma separated. They were ignored and are never part of "
                           "a cache key; a known parameter with a bad value is 400 instead.",
            "schema": {"type": "string"}},
        "Retry-After": {"required": False, "description": "seconds to wait before trying again",
                        "schema": {"type": "string", "pattern": r"^[0-9]+(\.[0-9]+)?$"}},
    }


# --------------------------------------------------------------------------
# the document
# --------------------------------------------------------------------------

# The paths and operation ids come from the interface table (workbench.service.spec).
_OP = {o.name: o for o in spec.INTERFACE}


def _avatar_download(name: str, summary: str, ok: dict, failure: tuple[str, str]) -> dict:
    """The GET of an avatar's model or preview: the id in the path, the operation's query table and If-None-Match;
    200 ``ok`` or 304, 400 for the table, 404 for an unknown avatar, 500 (``failure``: description, code)."""
    return {"get": {
        "operationId": _OP[name].operation_id, "tags": ["avatar"], "summary": summary,
        "parameters": [_pp("modelId", "the registered avatar's id"),
                       *[_qp(*q) for q in opts.query_parameter_schemas(name)],
                       _IF_NONE_MATCH],
        "responses": {"200": ok, "304": _NOT_MODIFIED,
                      "400": _err("a parameter's value outside the table, or a parameter repeated (details name it)"),
                      "404": _error("unknown avatar", ["avatar_not_found", "route_not_found"]),
                      "500": _error(failure[0], [failure[1]]),
                      _UNAVAILABLE: _unavailable()}}}


def build_openapi(root_url: str) -> dict:
    auth: list[dict[str, list[str]]] = [{"bearer": []}]
    viewer_links = {
        "trackingBatch": _link("tracking.send_batch", "send events to the viewer just regenerated",
                               viewerToken="$response.body#/data/viewerToken"),
        "regenerateAgain": _link("viewers.regenerate.put", "regenerate again (answers the running job)",
                                 viewerToken="$response.body#/data/viewerToken"),
    }
    avatar_links = {
        "model": _link("avatars.model", "the registered avatar's GLB", modelId="$response.body#/data/modelId"),
        "preview": _link("avatars.preview", "the registered avatar's preview", modelId="$response.body#/data/modelId"),
    }
    finish_again = {"finishAgain": _link("spaces.finish_upload", "repeat (same answer) or the opposite finish (409)",
                                         spaceTemplateId="$response.body#/data/spaceTemplateId")}
    paths = {
        _OP["avatars.register"].path: {"post": {
            "operationId": _OP["avatars.register"].operation_id, "tags": ["avatar"], "security": auth,
            "summary": "Register an avatar configuration (scope avatar:write)",
            "requestBody": {"required": True, "content": {"application/json": {"schema": {"$ref": f"{_REF}schemas/AvatarSettings"}}}},
            "responses": {"201": _ok("registered", "Registration", avatar_links),
                          "400": _err("body not UTF-8 JSON (invalid_json), invalid settings (invalid_settings, one detail "
                                        "per problem; a name or string UTF-8 cannot write, such as a lone surrogate's "
                                        "escape, is a detail invalid_text naming the field), or a malformed request such "
                                        "as two Authorization headers"),
                          "401": _unauthorized(), "413": _too_large(f"{opts.SETTINGS_MAX_BYTES // 1024} KiB"),
                          "415": _unsupported("application/json"),
                          "507": _storage_full(), _UNAVAILABLE: _unavailable()}}},
        _OP["avatars.model"].path: _avatar_download(
            "avatars.model", "Download the avatar's GLB",
            _binary("the GLB", "model/gltf-binary", {
                "preview": _link("avatars.preview", "the same avatar's preview", modelId="$request.path.modelId")}),
            ("the model could not be generated", "model_generation_failed")),
        _OP["avatars.preview"].path: _avatar_download(
            "avatars.preview", "Download a preview image", _binary("the PNG", "image/png"),
            ("the preview could not be rendered", "preview_generation_failed")),
        _OP["animations.list"].path: {"get": {
            "operationId": _OP["animations.list"].operation_id, "tags": ["avatar"], "summary": "List the animation library",
            "responses": {"200": _ok("names per gender", "AnimationList"),
                          "400": _error("a malformed request, or a Host header the service does not answer",
                                        ["host_not_allowed"]),
                          _UNAVAILABLE: _unavailable()}}},
        _OP["animations.download"].path: {"get": {
            "operationId": _OP["animations.download"].operation_id, "tags": ["avatar"], "summary": "Download one animation GLB",
            "parameters": [_pp("gender", "masculine or feminine", {"enum": list(opts.GENDERS)}),
                           _pp("name", "a name from GET /animations", {"enum": list(opts.ANIMATIONS)}),
                           _IF_NONE_MATCH],
            "responses": {"200": _binary("the clip", "model/gltf-binary"), "304": _NOT_MODIFIED,
                          "400": _error("unknown gender or name", ["invalid_animation"]),
                          "404": _error("the file is missing on the server", ["animation_file_missing", "route_not_found"]),
                          _UNAVAILABLE: _unavailable()}}},
        _OP["viewers.regenerate"].path: {m: {
            "operationId": spec.op("viewers.regenerate", m).operation_id, "tags": ["viewer"], "security": auth,
            "summary": "Start regenerating a viewer's preview and AR files (scope viewer:write)"
                       + ("; also takes access_token in a text/plain or form body (sendBeacon)" if m == "post" else ""),
            "parameters": [_pp("viewerToken", "the viewer")],
            **({"requestBody": {"required": False, "content": {
                "text/plain": {"schema": {"type": "string", "maxLength": 4096, "example": "access_token=TOKEN"}},
                "application/x-www-form-urlencoded": {"schema": {
                    "type": "object", "properties": {"access_token": {"type": "string"}},
                    "additionalProperties": {"type": "string"}}}}}}
               if m == "post" else {}),
            "responses": {"200": _ok("process started (or the running job)", "RegenerateJob", viewer_links),
                          "400": _error("the token both in the Authorization header and in the body, access_token twice, "
                                        "or two Authorization headers" if m == "post" else "two Authorization headers",
                                        ["invalid_request"]),
                          **({"413": _too_large("4 KiB")} if m == "post" else {}),
                          "401": _unauthorized(),
                          "404": _error("viewer not found (or another account's)", ["viewer_not_found", "route_not_found"]),
                          "507": _storage_full(), _UNAVAILABLE: _unavailable()}} for m in ("post", "put")},
        _OP["tracking.send_batch"].path: {"post": {
            "operationId": _OP["tracking.send_batch"].operation_id, "tags": ["tracking"], "summary": f"Send up to {catalog.MAX_EVENTS} tracking events (public)",
            "parameters": [_pp("viewerToken", "the viewer")],
            "requestBody": {"required": True, "content": {
                "application/json": {"schema": {"$ref": f"{_REF}schemas/TrackingBatch"}},
                "text/plain": {"schema": {"type": "string", "contentMediaType": "application/json",
                                          "contentSchema": {"$ref": f"{_REF}schemas/TrackingBatch"},
                                          "description": "the same JSON batch, as navigator.sendBeacon sends it"}}}},
            "responses": {"200": _ok("all events logged", "BatchResult", {
                              "regenerate": _link("viewers.regenerate.post", "regenerate the viewer the events went to",
                                                  viewerToken="$request.path.viewerToken")}),
                          "207": _ok("some logged, some failed (data.errors: per-event errors)", "BatchResult"),
                          "400": _err("not JSON, a request-level rule broken (details name the field), or all events "
                                        "invalid (all_events_invalid; details: per-event errors)"),
                          "404": _error("no such viewer", ["viewer_not_found", "route_not_found"]),
                          "413": _too_large(f"{catalog.MAX_BODY_BYTES // 1024} KiB"), "415": _unsupported("application/json or text/plain"),
                          "507": _storage_full(), _UNAVAILABLE: _unavailable()}}},
        _OP["spaces.finish_upload"].path: {"post": {
            "operationId": _OP["spaces.finish_upload"].operation_id, "tags": ["space"], "security": auth,
            "summary": "Finalize (success=true) or cancel (success=false) a space template upload (scope space:write)",
            "parameters": [_pp("spaceTemplateId", "the space definition id")],
            "requestBody": {"required": True, "content": {"multipart/form-data": {"schema": {
                "type": "object", "additionalProperties": False, "required": list(opts.FINISH_UPLOAD_FIELDS),
                "properties": {"success": {"enum": ["true", "false"]},
                               "message": {"type": "string", "minLength": opts.FINISH_MESSAGE_CHARS[0],
                                           "maxLength": opts.FINISH_MESSAGE_CHARS[1], "pattern": _NO_CONTROL}}}}}},
            "responses": {"200": _ok("finalization cancelled", "SpaceTemplate", finish_again),
                          "201": _ok("upload finalized", "SpaceTemplate", finish_again),
                          "400": _err("not multipart/form-data, or success or message missing or invalid (details name "
                                        "the field), or a malformed request such as two Authorization headers"),
                          "401": _unauthorized(),
                          "404": _error("template does not exist or is not accessible", ["space_template_not_found", "route_not_found"]),
                          "409": _error("the opposite finish on an ended template", ["space_template_ended"]),
                          "413": _too_large(f"{opts.FINISH_BODY_MAX_BYTES // 1024} KiB"),
                          "500": _error("finalization failed: the uploaded file is missing or invalid (details: each problem); "
                                        "the template is now failed", ["finalization_failed"]),
                          "507": _storage_full(), _UNAVAILABLE: _unavailable()}}},
    }
    _add_preflights(paths)
    _add_transport_refusals(paths)
    return {
        "openapi": "3.1.0",
        "info": {"title": "Avatar, Viewer and Space Template service (workbench local reference)", "version": __version__,
                 "description": "Avatar endpoints under /avatars ({avatar_base_url}); viewer and resource endpoints under /api "
                                "({base_url}); the local control API under /_local is not part of the real service. Every "
                                "JSON answer uses the envelope {status, data} or {status, error}; every answer carries "
                                "X-Request-Id. A fault armed through POST /_local/faults answers injected_fault with the "
                                "status it names (503 unless told otherwise). Query parameters an operation does not "
                                f"list are ignored, as CDNs and the public web do, and named in {opts.IGNORED_PARAMS_HEADER}."},
        "servers": [{"url": root_url}],
        "paths": paths,
        "components": {"schemas": _schemas(), "headers": _response_headers(),
                       "securitySchemes": {"bearer": {"type": "http", "scheme": "bearer"}}},
    }


def _add_transport_refusals(paths: dict) -> None:
    """What the HTTP layer answers below every operation, before the app reads the request: 501 to a
    Transfer-Encoding other than chunked (RFC 9112 section 6.1; contract section 14).

    >>> paths = {"/avatars/animations": {"get": {"responses": {"200": {}}}}}
    >>> _add_transport_refusals(paths)
    >>> sorted(paths["/avatars/animations"]["get"]["responses"])
    ['200', '501']
    """
    for ops in paths.values():
        for op in ops.values():
            op["responses"].setdefault("501", _error(
                "the request's Transfer-Encoding is not chunked (the only coding this service reads); nothing was done",
                ["not_implemented"]))


def _add_preflights(paths: dict) -> None:
    """An OPTIONS operation (the browsers' CORS preflight, contract section 12) on every path.

    >>> paths = {"/avatars/animations": {"get": {}}}
    >>> _add_preflights(paths)
    >>> sorted(paths["/avatars/animations"]["options"]["responses"])
    ['204', '400', '405']
    """
    for path, ops in paths.items():
        token = token_path(path.replace("{", "").replace("}", ""))
        who = "the origins of workbench serve --cors-origins (default any), Authorization allowed" if token \
            else "any origin"
        methods = ", ".join(sorted(m.upper() for m in ops))
        granted = {**_headers(), **{h: {"schema": {"type": "string"}} for h in (
            "Access-Control-Allow-Origin", "Access-Control-Allow-Methods", "Access-Control-Allow-Headers",
            "Access-Control-Max-Age")}}
        # What each policy of workbench.service.cors grants; anything else is refused with 400.
        allowed_methods = ["POST", "PUT"] if token else ["GET", "HEAD", "POST"]
        allowed_headers = (["Authorization", "Content-Type", "X-Request-Id"] if token
                           else ["Content-Type", "If-None-Match", "X-Request-Id"])
        first = ops[next(iter(ops))]
        ops["options"] = {
            "operationId": f"cors.preflight.{first.get('operationId', path)}", "tags": ["cors"],
            "summary": f"CORS preflight for {methods}: {who}",
            "parameters": [p for p in first.get("parameters", []) if p["in"] == "path"] + [
                {"name": "Origin", "in": "header", "required": True, "schema": {"type": "string"}},
                {"name": "Access-Control-Request-Method", "in": "header", "required": True,
                 "schema": {"enum": allowed_methods}},
                {"name": "Access-Control-Request-Headers", "in": "header", "required": False,
                 "schema": {"enum": [*allowed_headers, ", ".join(allowed_headers)]}}],
            "responses": {"204": {"description": "granted", "headers": granted},
                          "400": _error("the origin, method or a header is not allowed", ["cors_preflight_refused"]),
                          "405": _error("an OPTIONS request that is not a preflight", ["method_not_allowed"])}}
