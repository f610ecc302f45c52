"""The query parameters as ``/openapi.json`` describes them, made from the same tables and defaults as the
checks, so the document cannot drift from the rules.
"""

from __future__ import annotations

from typing import Any

from .limits import ANIMATIONS, ATLAS_SIZES, CAMERAS, LODS, MERGE_MESH, PREVIEW_SIZES, TEXTURE_FORMATS
from .model import ModelOptions
from .preview import PreviewOptions
from .query import QUERY_PARAMETERS


def query_parameter_schemas(operation: str) -> list[tuple[str, dict[str, Any], str]]:
    """(name, JSON Schema, description) of each query parameter of ``operation``, for ``/openapi.json``:
    defaults from :class:`ModelOptions` and :class:`PreviewOptions`, values from the tables above,
    so the document cannot drift from the rules.

    >>> [n for n, *_ in query_parameter_schemas("avatars.model")] == list(QUERY_PARAMETERS["avatars.model"])
    True
    >>> dict((n, s.get("default")) for n, s, _ in query_parameter_schemas("avatars.preview"))
    {'size': 512, 'camera': 'portrait', 'background': None}
    """
    table: dict[str, tuple[dict[str, Any], str]]
    if operation == "avatars.model":
        m = ModelOptions()
        name = "(?:" + "|".join(ANIMATIONS) + ")"
        table = {
            "lod": ({"type": "integer", "enum": list(LODS), "default": m.lod},
                    "level of detail: " + ", ".join(f"{lod} ({100 >> lod}% of the triangles)" for lod in LODS)),
            "animations": ({"type": "string", "default": ",".join(m.animations) or "none",
                            "pattern": f"^(?:all|none|locomotions?|gestures?|{name}(?:,{name})*)$"},
                           "all, none, locomotion, locomotions, gesture, gestures, or a comma list of " + ", ".join(ANIMATIONS)),
            "textureFormat": ({"enum": list(TEXTURE_FORMATS)}, "omitted: JPEG opaque, PNG transparent"),
            "mergeMesh": ({"type": "integer", "enum": list(MERGE_MESH), "default": int(m.merge_mesh)},
                          "1 merges all meshes into one"),
            "textureAtlasSize": ({"type": "integer", "enum": list(ATLAS_SIZES)}, "atlas size in pixels"),
        }
    elif operation == "avatars.preview":
        p = PreviewOptions()
        lo, hi = PREVIEW_SIZES
        byte = "(?:[01]?[0-9]?[0-9]|2[0-4][0-9]|25[0-5])"
        table = {
            "size": ({"type": "integer", "minimum": lo, "maximum": hi, "default": p.size},
                     "rounded to the nearest power of 2, ties up"),
            "camera": ({"enum": list(CAMERAS), "default": p.camera},
                       "framing: " + ", ".join(CAMERAS)),
            "background": ({"type": "string", "pattern": f"^{byte},{byte},{byte}$"},
                           "R,G,B, each 0 to 255; omitted: transparent"),
        }
    else:
        table = {}
    return [(n, *table[n]) for n in QUERY_PARAMETERS.get(operation, ())]
