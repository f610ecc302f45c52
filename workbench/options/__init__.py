"""The interface's limits, checked in one place for the client and the service.

One module per kind of input: ``limits`` (the enumerations, ranges and defaults), ``problems``
(:class:`Problem`, :class:`InvalidOptions` and the small checks), ``query`` (which parameters an
operation knows, how URL values are read), ``avatar`` (settings), ``model`` and ``preview`` (the two
queries), ``uploads`` (the finish-upload form), ``schemas`` (the same rules for ``/openapi.json``).

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

from .avatar import normalize_avatar_settings, stored_avatar_settings
from .limits import (
                     ANIMATIONS,
                     ATLAS_SIZES,
                     BODY_SHAPES,
                     BOTTOM_STYLES,
                     CAMERAS,
                     CYCLIC_ANIMATIONS,
                     DEFAULT_EYE,
                     DEFAULT_FACE,
                     DEFAULT_HAIR,
                     DEFAULT_HEIGHT,
                     DEFAULT_OUTFIT,
                     DEFAULT_POSE,
                     DEFAULT_SKIN,
                     FACE_CONTROLS,
                     FACE_RANGE,
                     FINISH_BODY_MAX_BYTES,
                     FINISH_MESSAGE_CHARS,
                     FINISH_UPLOAD_FIELDS,
                     GENDERS,
                     GESTURES,
                     GLASSES,
                     HAIR_STYLES,
                     HEIGHT_CM,
                     LOCOMOTION,
                     LODS,
                     MERGE_MESH,
                     NAME_CHARS,
                     POSES,
                     PREVIEW_CAMERA_DEFAULT,
                     PREVIEW_SIZE_DEFAULT,
                     PREVIEW_SIZES,
                     SCOPES,
                     SETTINGS_MAX_BYTES,
                     SHOE_STYLES,
                     TEXTURE_FORMATS,
                     TOP_STYLES,
)
from .model import ModelOptions, check_animation_path, parse_model_options, resolve_animations
from .preview import PreviewOptions, parse_preview_options, round_preview_size
from .problems import InvalidOptions, Problem, json_type, text_problem, utf8_problem
from .query import IGNORED_PARAMS_HEADER, QUERY_PARAMETERS, split_query
from .schemas import query_parameter_schemas
from .uploads import check_finish_upload, finish_upload_form, parse_finish_upload_form

__all__ = [
    "stored_avatar_settings",
    "json_type",
    "GENDERS",
    "BODY_SHAPES",
    "HAIR_STYLES",
    "GLASSES",
    "TOP_STYLES",
    "SHOE_STYLES",
    "POSES",
    "DEFAULT_POSE",
    "FACE_CONTROLS",
    "FACE_RANGE",
    "DEFAULT_EYE",
    "DEFAULT_FACE",
    "BOTTOM_STYLES",
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
    "DEFAULT_HEIGHT",
    "DEFAULT_SKIN",
    "DEFAULT_HAIR",
    "DEFAULT_OUTFIT",
    "SETTINGS_MAX_BYTES",
    "QUERY_PARAMETERS",
    "IGNORED_PARAMS_HEADER",
    "split_query",
    "query_parameter_schemas",
    "text_problem",
    "utf8_problem",
]
