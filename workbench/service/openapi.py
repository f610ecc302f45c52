"""The OpenAPI 3.1 description of the local service (``GET /openapi.json``).

Built from the same constants the checks use (``workbench.options``, the event
catalog), so the document cannot promise other limits than the service keeps.

>>> doc = build_openapi("http://127.0.0.1:8080")
>>> sorted(doc["paths"])[:2]
['/api/resources/spaces/{spaceTemplateId}/finish-upload', '/api/viewers/{viewerToken}/regenerate/all']
"""

from __future__ import annotations

from workbench import options as opts
from workbench.tracking import catalog


def _err(description: str) -> dict:
    return {"description": description, "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}


def _ok(description: str, data_ref: str, status_code_ok: bool = True) -> dict:
    return {"description": description, "content": {"application/json": {"schema": {
        "type": "object", "required": ["status", "data"],
        "properties": {"status": {"const": "ok"}, "data": {"$ref": f"#/components/schemas/{data_ref}"}}}}}}


def _binary(description: str, media: str) -> dict:
    return {"description": description, "headers": {"ETag": {"schema": {"type": "string"}}},
            "content": {media: {"schema": {"type": "string", "format": "binary"}}}}


def _qp(name: str, schema: dict, description: str) -> dict:
    return {"name": name, "in": "query", "required": False, "schema": schema, "description": description}


def _pp(name: str, description: str, schema: dict | None = None) -> dict:
    return {"name": name, "in": "path", "required": True, "schema": schema or {"type": "string"}, "description": description}


def build_openapi(root_url: str) -> dict:
    color = {"type": "string", "pattern": "^#[0-9A-Fa-f]{6}$"}
    anim_values = "all, none, locomotion, locomotions, gesture, gestures, or a comma list of " + ", ".join(opts.ANIMATIONS)
    name = "(?:" + "|".join(opts.ANIMATIONS) + ")"
    anim_pattern = f"^(?:all|none|locomotions?|gestures?|{name}(?:,{name})*)$"
    byte = "(?:[01]?[0-9]?[0-9]|2[0-4][0-9]|25[0-5])"
    auth = [{"bearer": []}]
    schemas = {
        "Error": {"type": "object", "required": ["status", "error"], "properties": {
            "status": {"const": "error"},
            "error": {"type": "object", "required": ["code", "message"], "properties": {
                "code": {"type": "string"}, "message": {"type": "string"},
                "details": {"type": "array", "items": {"type": "object"}}}}}},
        "AvatarSettings": {"type": "object", "additionalProperties": False, "required": ["gender"], "properties": {
            "gender": {"enum": list(opts.GENDERS)},
            "bodyShape": {"enum": list(opts.BODY_SHAPES), "default": "average"},
            "height": {"type": "number", "minimum": opts.HEIGHT_CM[0], "maximum": opts.HEIGHT_CM[1], "description": "cm; default 178 masculine, 166 feminine"},
            "skinTone": {**color, "default": opts.DEFAULT_SKIN},
            "hair": {"type": "object", "additionalProperties": False, "properties": {
                "style": {"enum": list(opts.HAIR_STYLES)}, "color": color}},
            "outfit": {"type": "object", "additionalProperties": False, "properties": {
                "top": color, "bottom": color, "shoes": color}},
            "glasses": {"enum": list(opts.GLASSES), "default": "none"},
            "name": {"type": "string", "minLength": opts.NAME_CHARS[0], "maxLength": opts.NAME_CHARS[1]}}},
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
            "events": {"type": "array", "minItems": 1, "maxItems": catalog.MAX_EVENTS, "items": {"$ref": "#/components/schemas/TrackingEvent"}}}},
        "TrackingEvent": {"type": "object", "additionalProperties": False, "required": ["key"], "properties": {
            "key": {"type": "string", "description": "a catalog key, or custom.NAME"},
            "payload": {"type": "object", "description": f"fields by key; at most {catalog.MAX_PAYLOAD_BYTES // 1024} KiB"},
            "timestamp": {"oneOf": [{"type": "string", "format": "date-time"}, {"type": "integer"}]},
            "id": {"type": "string", "minLength": 1, "maxLength": catalog.MAX_ID_CHARS}}},
        "BatchResult": {"type": "object", "required": ["accepted", "rejected", "duplicates", "errors"], "properties": {
            "accepted": {"type": "integer"}, "rejected": {"type": "integer"}, "duplicates": {"type": "integer"},
            "errors": {"type": "array", "items": {"type": "object", "properties": {
                "index": {"type": "integer"}, "code": {"type": "string"}, "message": {"type": "string"},
                "field": {"type": ["string", "null"]}}}}}},
        "SpaceTemplate": {"type": "object", "required": ["spaceTemplateId", "state"], "properties": {
            "spaceTemplateId": {"type": "string"}, "kind": {"enum": ["glb", "splat"]},
            "state": {"enum": ["awaiting_upload", "uploaded", "finalized", "cancelled", "failed"]}}},
    }
    paths = {
        "/avatars/avatar": {"post": {
            "operationId": "avatars.register", "tags": ["avatar"], "security": auth,
            "summary": "Register an avatar configuration (scope avatar:write)",
            "requestBody": {"required": True, "content": {"application/json": {"schema": {"$ref": "#/components/schemas/AvatarSettings"}}}},
            "responses": {"201": _ok("registered", "Registration"), "400": _err("invalid settings; one detail per problem"),
                          "401": _err("missing or invalid token, or scope missing"), "413": _err(f"body over {opts.SETTINGS_MAX_BYTES // 1024} KiB"),
                          "415": _err("not application/json")}}},
        "/avatars/model/{modelId}.glb": {"get": {
            "operationId": "avatars.model", "tags": ["avatar"], "summary": "Download the avatar's GLB",
            "parameters": [_pp("modelId", "the registered avatar's id"),
                           _qp("lod", {"type": "integer", "enum": list(opts.LODS), "default": 0}, "level of detail"),
                           _qp("animations", {"type": "string", "default": "none", "pattern": anim_pattern}, anim_values),
                           _qp("textureFormat", {"enum": list(opts.TEXTURE_FORMATS)}, "omitted: JPEG opaque, PNG transparent"),
                           _qp("mergeMesh", {"type": "integer", "enum": list(opts.MERGE_MESH), "default": 0}, "1 merges all meshes into one"),
                           _qp("textureAtlasSize", {"type": "integer", "enum": list(opts.ATLAS_SIZES)}, "atlas size in pixels")],
            "responses": {"200": _binary("the GLB", "model/gltf-binary"), "304": {"description": "not modified (If-None-Match)"},
                          "400": _err("a parameter outside the table"), "404": _err("unknown avatar"),
                          "500": _err("model_generation_failed")}}},
        "/avatars/preview/{modelId}.png": {"get": {
            "operationId": "avatars.preview", "tags": ["avatar"], "summary": "Download a preview image",
            "parameters": [_pp("modelId", "the registered avatar's id"),
                           _qp("size", {"type": "integer", "minimum": opts.PREVIEW_SIZES[0], "maximum": opts.PREVIEW_SIZES[1], "default": opts.PREVIEW_SIZE_DEFAULT}, "rounded to the nearest power of 2, ties up"),
                           _qp("camera", {"enum": list(opts.CAMERAS), "default": opts.PREVIEW_CAMERA_DEFAULT}, "framing"),
                           _qp("background", {"type": "string", "pattern": f"^{byte},{byte},{byte}$"}, "R,G,B, each 0 to 255; omitted: transparent")],
            "responses": {"200": _binary("the PNG", "image/png"), "304": {"description": "not modified"},
                          "400": _err("a parameter outside the table"), "404": _err("unknown avatar"),
                          "500": _err("preview_generation_failed")}}},
        "/avatars/animations": {"get": {
            "operationId": "animations.list", "tags": ["avatar"], "summary": "List the animation library",
            "responses": {"200": _ok("names per gender", "AnimationList")}}},
        "/avatars/animations/{gender}/{name}.glb": {"get": {
            "operationId": "animations.download", "tags": ["avatar"], "summary": "Download one animation GLB",
            "parameters": [_pp("gender", "masculine or feminine", {"enum": list(opts.GENDERS)}),
                           _pp("name", "a name from GET /animations", {"enum": list(opts.ANIMATIONS)})],
            "responses": {"200": _binary("the clip", "model/gltf-binary"), "400": _err("unknown gender or name"),
                          "404": _err("file missing on the server")}}},
        "/api/viewers/{viewerToken}/regenerate/all": {m: {
            "operationId": f"viewers.regenerate.{m}", "tags": ["viewer"], "security": auth,
            "summary": "Start regenerating a viewer's preview and AR files (scope viewer:write)"
                       + ("; also takes access_token in a text/plain or form body (sendBeacon)" if m == "post" else ""),
            "parameters": [_pp("viewerToken", "the viewer")],
            **({"requestBody": {"required": False, "content": {
                "text/plain": {"schema": {"type": "string", "example": "access_token=TOKEN"}},
                "application/x-www-form-urlencoded": {"schema": {"type": "object", "properties": {"access_token": {"type": "string"}}}}}}}
               if m == "post" else {}),
            "responses": {"200": _ok("process started (or the running job)", "RegenerateJob"),
                          **({"400": _err("the token sent both in the header and in the body"),
                              "413": _err("beacon body over 4 KiB")} if m == "post" else {}),
                          "401": _err("unauthorized"), "404": _err("viewer not found")}} for m in ("post", "put")},
        "/api/viewers/{viewerToken}/tracking-event/batch": {"post": {
            "operationId": "tracking.send_batch", "tags": ["tracking"], "summary": f"Send up to {catalog.MAX_EVENTS} tracking events (public)",
            "parameters": [_pp("viewerToken", "the viewer")],
            "requestBody": {"required": True, "content": {m: {"schema": {"$ref": "#/components/schemas/TrackingBatch"}}
                                                          for m in ("application/json", "text/plain")}},
            "responses": {"200": _ok("all events logged", "BatchResult"), "207": _ok("some logged, some failed", "BatchResult"),
                          "400": _err("invalid request, empty events, or all events invalid (details: per-event errors)"),
                          "404": _err("viewer_not_found"), "413": _err(f"body over {catalog.MAX_BODY_BYTES // 1024} KiB")}}},
        "/api/resources/spaces/{spaceTemplateId}/finish-upload": {"post": {
            "operationId": "spaces.finish_upload", "tags": ["space"], "security": auth,
            "summary": "Finalize (success=true) or cancel (success=false) a space template upload (scope space:write)",
            "parameters": [_pp("spaceTemplateId", "the space definition id")],
            "requestBody": {"required": True, "content": {"multipart/form-data": {"schema": {
                "type": "object", "additionalProperties": False, "required": list(opts.FINISH_UPLOAD_FIELDS),
                "properties": {"success": {"enum": ["true", "false"]}, "message": {
                    "type": "string", "minLength": opts.FINISH_MESSAGE_CHARS[0], "maxLength": opts.FINISH_MESSAGE_CHARS[1]}}}}}},
            "responses": {"200": _ok("finalization cancelled", "SpaceTemplate"), "201": _ok("upload finalized", "SpaceTemplate"),
                          "400": _err("invalid payload"), "401": _err("unauthorized"),
                          "404": _err("template does not exist or is not accessible"),
                          "409": _err("the opposite finish on an ended template"), "500": _err("finalization_failed")}}},
    }
    return {
        "openapi": "3.1.0",
        "info": {"title": "Avatar, Viewer and Space Template service (workbench local reference)", "version": "0.1.0",
                 "description": "Avatar endpoints under /avatars ({avatar_base_url}); viewer and resource endpoints under /api "
                                "({base_url}); the local control API under /_local is not part of the real service."},
        "servers": [{"url": root_url}],
        "paths": paths,
        "components": {"schemas": schemas, "securitySchemes": {"bearer": {"type": "http", "scheme": "bearer"}}},
    }
