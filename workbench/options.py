"""The interface's limits, checked in one place for the client and the service.

Long on purpose: this is the one place for every rule of settings, model and preview options,
query parameters, finish-upload forms and text, so that the client, the service and
``/openapi.json`` read the same table; the rules are short and many.

Both sides call the same functions: the client before it sends, the local
service when a request arrives, so the two can never disagree about a rule.
Every check raises :class:`InvalidOptions` with one :class:`Problem` per
broken rule, each naming the field (a dotted path) and the rule.

>>> parse_model_options({"lod": "1", "animations": "walk,wave"}).animations
('walk', 'wave')
>>> try:
...     parse_preview_options({"size": "9"})
... except InvalidOptions as e:
...     print(e.problems[0].field, e.problems[0].code)
size out_of_range
"""

from __future__ import annotations

import math
import re
from dataclasses import asdict, dataclass
from typing import Any, Mapping

__all__ = [
    "json_type",
    "GENDERS",
    "BODY_SHAPES",
    "HAIR_STYLES",
    "GLASSES",
    "LOCOMOTION",
    "GESTURES",
    "ANIMATIONS",
    "CYCLIC_ANIMATIONS",
    "TEXTURE_FORMATS",
    "CAMERAS",
    "SCOPES",
    "HEIGHT_CM",
    "NAME_CHARS",
    "LODS",
    "MERGE_MESH",
    "ATLAS_SIZES",
    "PREVIEW_SIZES",
    "PREVIEW_SIZE_DEFAULT",
    "PREVIEW_CAMERA_DEFAULT",
    "FINISH_UPLOAD_FIELDS",
    "FINISH_MESSAGE_CHARS",
    "FINISH_BODY_MAX_BYTES",
    "Problem",
    "InvalidOptions",
    "ModelOptions",
    "PreviewOptions",
    "normalize_avatar_settings",
    "parse_model_options",
    "parse_preview_options",
    "resolve_animations",
    "round_preview_size",
    "check_animation_path",
    "check_finish_upload",
    "finish_upload_form",
    "parse_finish_upload_form",
]

GENDERS = ("masculine", "feminine")
BODY_SHAPES = ("slim", "average", "athletic", "heavy")
HAIR_STYLES = ("none", "short", "long", "bun", "curly")
GLASSES = ("none", "clear", "sunglasses")
LOCOMOTION = ("idle", "walk", "run", "jump", "strafe_left", "strafe_right", "turn_left", "turn_right")
GESTURES = ("wave", "clap", "nod", "head_shake", "point", "thumbs_up", "shrug", "talk", "bow", "dance")
ANIMATIONS = tuple(sorted(LOCOMOTION + GESTURES))
CYCLIC_ANIMATIONS = ("idle", "walk", "run", "strafe_left", "strafe_right", "talk", "dance")
TEXTURE_FORMATS = ("webp", "png")
CAMERAS = ("full", "portrait")
SCOPES = ("avatar:write", "viewer:write", "space:write")

DEFAULT_HEIGHT = {"masculine": 178.0, "feminine": 166.0}
DEFAULT_SKIN = "#C68642"
DEFAULT_HAIR = {"style": "short", "color": "#2B1B10"}
DEFAULT_OUTFIT = {"top": "#3B5B8C", "bottom": "#2F2F36", "shoes": "#1E1E1E"}
SETTINGS_MAX_BYTES = 64 * 1024

# Bounds of the interface's tables: the checks below, the widgets and /openapi.json read these.
HEIGHT_CM = (140, 210)               # avatar height, inclusive
NAME_CHARS = (1, 64)                 # avatar name length, inclusive
LODS = (0, 1, 2)                     # full, 50 % and 25 % of the triangles
MERGE_MESH = (0, 1)
ATLAS_SIZES = tuple(1 << n for n in range(6, 12))  # powers of two, 64 to 2048
PREVIEW_SIZES = (32, 512)            # requested preview size, inclusive, before rounding
PREVIEW_SIZE_DEFAULT = 512
PREVIEW_CAMERA_DEFAULT = "portrait"
# finish-upload (a multipart form): exactly these fields, each once.
FINISH_UPLOAD_FIELDS = ("success", "message")
FINISH_MESSAGE_CHARS = (1, 1000)
FINISH_BODY_MAX_BYTES = 64 * 1024

_COLOR = re.compile(r"^#[0-9A-Fa-f]{6}$")

# Text that comes in as a name, a session id, an event id or a message is stored, exported and
# printed: it must encode as UTF-8 (a lone surrogate such as "\ud800" does not) and hold no
# control characters (C0, DEL, C1), which would corrupt CSV, logs and terminals.
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")


def utf8_problem(value: str) -> str | None:
    r"""Why ``value`` cannot be stored as UTF-8 text (a lone surrogate), or None.

    >>> utf8_problem("tab\there") is None, utf8_problem("\udc00")
    (True, 'must be text that UTF-8 can encode (a lone surrogate U+DC00 at position 0)')
    """
    try:
        value.encode("utf-8")
    except UnicodeEncodeError as e:
        return f"must be text that UTF-8 can encode (a lone surrogate U+{ord(value[e.start]):04X} at position {e.start})"
    return None


def text_problem(value: str) -> str | None:
    r"""Why ``value`` cannot be taken as text (a phrase that follows a field name), or None.

    >>> text_problem("Ada Lovelace") is None
    True
    >>> text_problem("a\x00b")
    'must not contain control characters (U+0000 at position 1)'
    >>> text_problem("x\ud800")
    'must be text that UTF-8 can encode (a lone surrogate U+D800 at position 1)'
    """
    why = utf8_problem(value)
    if why:
        return why
    m = _CONTROL.search(value)
    if m:
        return f"must not contain control characters (U+{ord(m.group()):04X} at position {m.start()})"
    return None


def _check_text(problems: list, field: str, value: str) -> bool:
    """Add a problem when ``value`` is not acceptable text; True when it is."""
    why = text_problem(value)
    if why:
        problems.append(Problem(field, "invalid_text", why))
    return why is None


def _empty_values(problems: list, query: Mapping[str, Any], known: tuple[str, ...]) -> dict:
    """The query without its empty values, each reported: one rule for every parameter.

    An empty value (``?lod=``) is refused rather than read as "the default", so a URL
    built with a missing value fails loudly instead of silently meaning something else.
    """
    out = {}
    for k, v in query.items():
        if k in known and isinstance(v, str) and not v.strip():
            problems.append(Problem(k, "empty_value", "is empty; give a value or leave the parameter out"))
        else:
            out[k] = v
    return out


# The query parameters each operation knows (contract sections 5, 6, 9 and 14). Any other is ignored
# by the service, never part of a cache key, and named in X-Workbench-Ignored-Params; the client
# warns before sending one. Operations not listed take no query parameters.
QUERY_PARAMETERS: dict[str, tuple[str, ...]] = {
    "avatars.model": ("lod", "animations", "textureFormat", "mergeMesh", "textureAtlasSize"),
    "avatars.preview": ("size", "camera", "background"),
    "local.upload_space": ("filename",),
    "local.events": ("viewerToken", "since", "until", "format"),
}
IGNORED_PARAMS_HEADER = "X-Workbench-Ignored-Params"


def split_query(query: Mapping[str, Any], operation: str) -> tuple[dict, list[str]]:
    """(the parameters ``operation`` knows, the names of the others, which are ignored).

    >>> split_query({"lod": "1", "v": "3"}, "avatars.model")
    ({'lod': '1'}, ['v'])
    """
    known = QUERY_PARAMETERS.get(operation, ())
    return {k: v for k, v in query.items() if k in known}, [k for k in query if k not in known]


@dataclass(frozen=True)
class Problem:
    """One broken rule: which field, a stable code and a sentence for people."""

    field: str
    code: str
    message: str

    def to_dict(self) -> dict:
        return asdict(self)


class InvalidOptions(ValueError):
    """Raised with every problem found, not just the first."""

    def __init__(self, problems: list[Problem]):
        self.problems = list(problems)
        super().__init__("; ".join(f"{p.field}: {p.message}" for p in self.problems))


# --------------------------------------------------------------------------
# Avatar settings (contract section 4)
# --------------------------------------------------------------------------

def json_type(value: Any) -> str:
    """The JSON name of a decoded value's type, for messages ("got an array").

    >>> [json_type(v) for v in (None, True, 1.5, "x", [], {})]
    ['null', 'boolean', 'number', 'string', 'array', 'object']
    """
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float)):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    if isinstance(value, dict):
        return "object"
    return type(value).__name__


def _show_number(value: int | float) -> str:
    """A number as a message shows it: a huge integer by its size, not by thousands of digits
    (which Python also refuses to print past 4,300).

    >>> _show_number(300), _show_number(10**400)
    ('300', 'a number of about 401 digits')
    """
    if isinstance(value, int) and abs(value) >= 10**12:
        return f"a number of about {int(value.bit_length() * 0.30103) + 1} digits"
    return repr(value)


def _check_enum(problems, path, value, allowed):
    if not isinstance(value, str):
        problems.append(Problem(path, "wrong_type", f"must be a string, one of {', '.join(allowed)}; got {json_type(value)}"))
        return None
    if value not in allowed:
        problems.append(Problem(path, "not_allowed", f"must be one of {', '.join(allowed)}; got {value!r}"))
        return None
    return value


def _check_color(problems, path, value):
    if not isinstance(value, str):
        problems.append(Problem(path, "wrong_type", f"must be a string #RRGGBB; got {json_type(value)}"))
        return None
    if not _COLOR.match(value):
        problems.append(Problem(path, "invalid_color", f"must be a colour written #RRGGBB; got {value!r}"))
        return None
    return value.upper()


def _check_object(problems, path, value, keys):
    if not isinstance(value, dict):
        problems.append(Problem(path, "wrong_type", f"must be an object; got {json_type(value)}"))
        return None
    for k in value:
        if k not in keys:
            problems.append(Problem(f"{path}.{k}", "unknown_field", f"is not a field of {path}; allowed: {', '.join(keys)}"))
    return value


def normalize_avatar_settings(body: Any) -> dict:
    """Check avatar settings (contract section 4) and return them with defaults filled in.

    >>> normalize_avatar_settings({"gender": "feminine"})["height"]
    166.0
    """
    problems: list[Problem] = []
    if not isinstance(body, dict):
        raise InvalidOptions([Problem("body", "wrong_type", f"must be a JSON object; got {json_type(body)}")])
    allowed = ("gender", "bodyShape", "height", "skinTone", "hair", "outfit", "glasses", "name")
    for k in body:
        if k not in allowed:
            problems.append(Problem(k, "unknown_field", f"is not an avatar setting; allowed: {', '.join(allowed)}"))

    gender = None
    if "gender" not in body:
        problems.append(Problem("gender", "required", "is required: masculine or feminine"))
    else:
        gender = _check_enum(problems, "gender", body["gender"], GENDERS)

    body_shape = _check_enum(problems, "bodyShape", body.get("bodyShape", "average"), BODY_SHAPES)

    height = body.get("height")
    if height is not None or "height" in body:
        if isinstance(height, bool) or not isinstance(height, (int, float)):
            problems.append(Problem("height", "wrong_type", f"must be a number of centimetres; got {json_type(height)}"))
            height = None
        elif (isinstance(height, float) and not math.isfinite(height)) or not HEIGHT_CM[0] <= height <= HEIGHT_CM[1]:
            # (ints are finite: math.isfinite overflows on a 400-digit one)
            problems.append(Problem("height", "out_of_range", f"must be between {HEIGHT_CM[0]} and {HEIGHT_CM[1]} cm; got {_show_number(height)}"))
            height = None
        else:
            height = float(height)
    if height is None and gender:
        height = DEFAULT_HEIGHT[gender]

    skin = _check_color(problems, "skinTone", body.get("skinTone", DEFAULT_SKIN))

    hair = dict(DEFAULT_HAIR)
    if "hair" in body:
        h = _check_object(problems, "hair", body["hair"], ("style", "color"))
        if h is not None:
            if "style" in h:
                hair["style"] = _check_enum(problems, "hair.style", h["style"], HAIR_STYLES)
            if "color" in h:
                hair["color"] = _check_color(problems, "hair.color", h["color"])

    outfit = dict(DEFAULT_OUTFIT)
    if "outfit" in body:
        o = _check_object(problems, "outfit", body["outfit"], ("top", "bottom", "shoes"))
        if o is not None:
            for part in ("top", "bottom", "shoes"):
                if part in o:
                    outfit[part] = _check_color(problems, f"outfit.{part}", o[part])

    glasses = _check_enum(problems, "glasses", body.get("glasses", "none"), GLASSES)

    name = None
    if "name" in body:
        name = body["name"]
        if not isinstance(name, str):
            problems.append(Problem("name", "wrong_type", f"must be a string; got {json_type(name)}"))
        elif not NAME_CHARS[0] <= len(name) <= NAME_CHARS[1]:
            problems.append(Problem("name", "out_of_range", f"must be {NAME_CHARS[0]} to {NAME_CHARS[1]} characters; got {len(name)}"))
        else:
            _check_text(problems, "name", name)

    if problems:
        raise InvalidOptions(problems)
    return {
        "gender": gender,
        "bodyShape": body_shape,
        "height": height,
        "skinTone": skin,
        "hair": hair,
        "outfit": outfit,
        "glasses": glasses,
        "name": name,
    }


# --------------------------------------------------------------------------
# Model options (interface table, contract section 5)
# --------------------------------------------------------------------------

@dataclass(frozen=True)
class ModelOptions:
    """Options of ``GET /model/:id.glb``, parsed and checked.

    lod: 0 (full), 1 (50% of triangles), 2 (25%). Default 0.
    animations: resolved clip names, sorted as in ANIMATIONS. Default none.
    texture_format: None (JPEG opaque, PNG transparent), "png" or "webp".
    merge_mesh: one mesh ``Avatar`` when True. Default False.
    texture_atlas_size: None, or a power of two from 64 to 2048.
    """

    lod: int = 0
    animations: tuple[str, ...] = ()
    texture_format: str | None = None
    merge_mesh: bool = False
    texture_atlas_size: int | None = None

    def cache_key(self) -> str:
        """A stable file-name-safe key for this set of options."""
        anims = "-".join(self.animations) if self.animations else "none"
        return (f"lod{self.lod}_a{anims}_t{self.texture_format or 'default'}"
                f"_m{int(self.merge_mesh)}_s{self.texture_atlas_size or 0}")

    def to_query(self) -> dict[str, str]:
        """The query parameters that ask for exactly these options."""
        q: dict[str, str] = {}
        if self.lod:
            q["lod"] = str(self.lod)
        if self.animations:
            q["animations"] = ",".join(self.animations)
        if self.texture_format:
            q["textureFormat"] = self.texture_format
        if self.merge_mesh:
            q["mergeMesh"] = "1"
        if self.texture_atlas_size:
            q["textureAtlasSize"] = str(self.texture_atlas_size)
        return q


def resolve_animations(value: str) -> tuple[str, ...]:
    """Turn an ``animations`` value into clip names, or raise naming the bad name.

    >>> resolve_animations("gestures")[:2]
    ('bow', 'clap')
    """
    v = value.strip()
    if v == "all":
        return ANIMATIONS
    if v in ("", "none"):
        return ()
    if v in ("locomotion", "locomotions"):
        return tuple(sorted(LOCOMOTION))
    if v in ("gesture", "gestures"):
        return tuple(sorted(GESTURES))
    names = [n.strip() for n in v.split(",")]
    problems = []
    for n in names:
        if n not in ANIMATIONS:
            problems.append(Problem("animations", "unknown_animation",
                                    f"{n!r} is not an animation; use all, none, locomotion(s), gesture(s) or a comma list of {', '.join(ANIMATIONS)}"))
    if problems:
        raise InvalidOptions(problems)
    return tuple(sorted(set(names), key=ANIMATIONS.index))


def _choice(problems: list, query: Mapping[str, Any], name: str, allowed, rule: str, default):
    """``query[name]`` when it is one of ``allowed``, else ``default`` and a problem saying ``rule``."""
    if query.get(name) is None:
        return default
    value = str(query[name])
    if value in allowed:
        return value
    problems.append(Problem(name, "not_allowed", f"{rule}; got {value!r}"))
    return default


def _as_int(problems, name, raw, allowed_text) -> int | None:
    if isinstance(raw, bool):
        problems.append(Problem(name, "not_an_integer", f"must be {allowed_text}; got {raw!r}"))
        return None
    if isinstance(raw, int):
        return raw
    s = str(raw).strip()
    if not re.fullmatch(r"[+-]?[0-9]{1,9}", s):  # ASCII digits only: "١" is not a 1 in a URL
        problems.append(Problem(name, "not_an_integer", f"must be {allowed_text}; got {raw!r}"))
        return None
    return int(s)


_LOD_TEXT = ", ".join(map(str, LODS[:-1])) + f" or {LODS[-1]}"
_ATLAS_TEXT = f"a power of 2 from {ATLAS_SIZES[0]} to {ATLAS_SIZES[-1]}"


def parse_model_options(query: Mapping[str, Any]) -> ModelOptions:
    """Check the model query (strings from a URL, or Python values) and return ModelOptions.

    >>> parse_model_options({"mergeMesh": "1", "textureAtlasSize": 512}).texture_atlas_size
    512
    >>> try:
    ...     parse_model_options({"lod": "", "animations": ""})
    ... except InvalidOptions as e:
    ...     print([(p.field, p.code) for p in e.problems])
    [('lod', 'empty_value'), ('animations', 'empty_value')]
    """
    problems: list[Problem] = []
    known = QUERY_PARAMETERS["avatars.model"]
    query = _empty_values(problems, split_query(query, "avatars.model")[0], known)
    lod = 0
    if query.get("lod") is not None:
        v = _as_int(problems, "lod", query["lod"], _LOD_TEXT)
        if v is not None and v not in LODS:
            problems.append(Problem("lod", "out_of_range", f"must be {_LOD_TEXT}; got {v}"))
        elif v is not None:
            lod = v
    animations: tuple[str, ...] = ()
    if query.get("animations") is not None:
        raw = query["animations"]
        if isinstance(raw, (list, tuple)):
            raw = ",".join(raw)
        try:
            animations = resolve_animations(str(raw))
        except InvalidOptions as e:
            problems.extend(e.problems)
    texture_format = _choice(problems, query, "textureFormat", TEXTURE_FORMATS,
                             "must be webp or png (omit it for JPEG/PNG by material)", None)
    merge = False
    if query.get("mergeMesh") is not None:
        raw = query["mergeMesh"]
        if isinstance(raw, bool):
            merge = raw
        else:
            v = _as_int(problems, "mergeMesh", raw, "0 or 1")
            if v is not None and v not in MERGE_MESH:
                problems.append(Problem("mergeMesh", "out_of_range", f"must be 0 or 1; got {v}"))
            elif v is not None:
                merge = bool(v)
    atlas = None
    if query.get("textureAtlasSize") is not None:
        v = _as_int(problems, "textureAtlasSize", query["textureAtlasSize"], _ATLAS_TEXT)
        if v is not None:
            if v not in ATLAS_SIZES:
                problems.append(Problem("textureAtlasSize", "out_of_range", f"must be {_ATLAS_TEXT}; got {v}"))
            else:
                atlas = v
    if problems:
        raise InvalidOptions(problems)
    return ModelOptions(lod=lod, animations=animations, texture_format=texture_format,
                        merge_mesh=merge, texture_atlas_size=atlas)


# --------------------------------------------------------------------------
# Preview options (interface table, contract section 8 of the previews issue)
# --------------------------------------------------------------------------

@dataclass(frozen=True)
class PreviewOptions:
    """Options of ``GET /preview/:id.png``, parsed and checked.

    size: the requested size rounded to the nearest power of two (ties round up), 32 to 512.
    camera: "portrait" (default, head and shoulders) or "full" (head to toe).
    background: (R, G, B) opaque, or None for transparent.
    """

    size: int = PREVIEW_SIZE_DEFAULT
    camera: str = PREVIEW_CAMERA_DEFAULT
    background: tuple[int, int, int] | None = None

    def cache_key(self) -> str:
        bg = "t" if self.background is None else "%02x%02x%02x" % self.background
        return f"s{self.size}_{self.camera}_{bg}"

    def to_query(self) -> dict[str, str]:
        q = {"size": str(self.size), "camera": self.camera}
        if self.background is not None:
            q["background"] = ",".join(str(c) for c in self.background)
        return q


def query_parameter_schemas(operation: str) -> list[tuple[str, dict, str]]:
    """(name, JSON Schema, description) of each query parameter of ``operation``, for ``/openapi.json``:
    defaults from :class:`ModelOptions` and :class:`PreviewOptions`, values from the tables above,
    so the document cannot drift from the rules.

    >>> [n for n, *_ in query_parameter_schemas("avatars.model")] == list(QUERY_PARAMETERS["avatars.model"])
    True
    >>> dict((n, s.get("default")) for n, s, _ in query_parameter_schemas("avatars.preview"))
    {'size': 512, 'camera': 'portrait', 'background': None}
    """
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


def round_preview_size(n: int) -> int:
    """Round to the nearest power of two; a tie (equally near both) rounds up.

    >>> [round_preview_size(n) for n in (32, 48, 47, 100, 384, 512)]
    [32, 64, 32, 128, 512, 512]
    """
    lo = 1 << (n.bit_length() - 1)
    hi = lo if lo == n else lo * 2
    return hi if (hi - n) <= (n - lo) else lo


def parse_preview_options(query: Mapping[str, Any]) -> PreviewOptions:
    """Check the preview query and return PreviewOptions.

    >>> parse_preview_options({"size": "100", "background": "255,255,255"})
    PreviewOptions(size=128, camera='portrait', background=(255, 255, 255))
    """
    problems: list[Problem] = []
    known = QUERY_PARAMETERS["avatars.preview"]
    query = _empty_values(problems, split_query(query, "avatars.preview")[0], known)
    size = PREVIEW_SIZE_DEFAULT
    lo, hi = PREVIEW_SIZES
    if query.get("size") is not None:
        v = _as_int(problems, "size", query["size"], f"an integer from {lo} to {hi}")
        if v is not None:
            if not lo <= v <= hi:
                problems.append(Problem("size", "out_of_range", f"must be an integer from {lo} to {hi}; got {v}"))
            else:
                size = round_preview_size(v)
    camera = _choice(problems, query, "camera", CAMERAS, "must be full or portrait", PREVIEW_CAMERA_DEFAULT)
    background = None
    if query.get("background") is not None:
        raw = query["background"]
        if isinstance(raw, (list, tuple)):
            parts = [str(x) for x in raw]
        else:
            parts = str(raw).split(",")
        ok = len(parts) == 3 and all(re.fullmatch(r"\s*[0-9]{1,3}\s*", p) for p in parts)
        vals = tuple(int(p) for p in parts) if ok else ()
        if not ok or any(c > 255 for c in vals):
            problems.append(Problem("background", "invalid_color",
                                    f"must be R,G,B: three integers 0 to 255 separated by commas; got {raw!r}"))
        else:
            background = vals  # type: ignore[assignment]
    if problems:
        raise InvalidOptions(problems)
    return PreviewOptions(size=size, camera=camera, background=background)


def check_animation_path(gender: str, name: str) -> None:
    """Check an animation download's path before any file is touched (400 on failure).

    >>> check_animation_path("feminine", "walk")
    """
    problems = []
    if gender not in GENDERS:
        problems.append(Problem("gender", "unknown_gender", f"must be masculine or feminine; got {gender!r}"))
    if name not in ANIMATIONS:
        problems.append(Problem("name", "unknown_animation", f"{name!r} is not in the animation list (GET /animations)"))
    if problems:
        raise InvalidOptions(problems)


# --------------------------------------------------------------------------
# finish-upload (interface: POST .../resources/spaces/:id/finish-upload)
# --------------------------------------------------------------------------

def _check_finish_message(problems: list[Problem], message: Any) -> None:
    lo, hi = FINISH_MESSAGE_CHARS
    if not isinstance(message, str) or not lo <= len(message) <= hi:
        problems.append(Problem("message", "out_of_range", f"must be a string of {lo} to {hi} characters"))
    else:
        _check_text(problems, "message", message)


def check_finish_upload(success: Any, message: Any) -> None:
    """Check a finish as Python values (the client, before it sends): ``success`` a bool.

    >>> check_finish_upload(True, "done")
    >>> try:
    ...     check_finish_upload("yes", "")
    ... except InvalidOptions as e:
    ...     print([(p.field, p.code) for p in e.problems])
    [('success', 'wrong_type'), ('message', 'out_of_range')]
    """
    problems: list[Problem] = []
    if not isinstance(success, bool):
        problems.append(Problem("success", "wrong_type", f"must be True or False; got {success!r}"))
    _check_finish_message(problems, message)
    if problems:
        raise InvalidOptions(problems)


def finish_upload_form(success: bool, message: str) -> dict[str, str]:
    """The form fields that send a finish (the inverse of :func:`parse_finish_upload_form`).

    >>> finish_upload_form(False, "changed my mind")
    {'success': 'false', 'message': 'changed my mind'}
    """
    return {"success": "true" if success else "false", "message": message}


def parse_finish_upload_form(items: list[tuple[str, Any]]) -> tuple[bool, str]:
    """Check a finish's form fields as received (name, value pairs, strings); return (success, message).

    >>> parse_finish_upload_form([("success", "true"), ("message", "ok")])
    (True, 'ok')
    >>> try:
    ...     parse_finish_upload_form([("success", "True"), ("message", "ok"), ("x", "1")])
    ... except InvalidOptions as e:
    ...     print([(p.field, p.code) for p in e.problems])
    [('x', 'unknown_field'), ('success', 'not_allowed')]
    """
    problems: list[Problem] = []
    names = [k for k, _ in items]
    for k in sorted(set(names)):
        if k not in FINISH_UPLOAD_FIELDS:
            problems.append(Problem(k, "unknown_field", "is not a field; send only success and message"))
        elif names.count(k) > 1:
            problems.append(Problem(k, "repeated_field", "is given more than once"))
    form = dict(items)
    success, message = form.get("success"), form.get("message")
    if success is None:
        problems.append(Problem("success", "required", "is required: true or false"))
    elif not isinstance(success, str) or success not in ("true", "false"):
        problems.append(Problem("success", "not_allowed", f"must be exactly true or false; got {success!r}"))
    if message is None:
        lo, hi = FINISH_MESSAGE_CHARS
        problems.append(Problem("message", "required", f"is required: {lo} to {hi} characters"))
    else:
        _check_finish_message(problems, message)
    if problems:
        raise InvalidOptions(problems)
    return success == "true", message
