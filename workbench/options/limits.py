"""The interface's enumerations, ranges and defaults: the values every other rule is checked against.

>>> ANIMATIONS[:3], LODS
(('bow', 'clap', 'dance'), (0, 1, 2))
"""

GENDERS = ("masculine", "feminine")
BODY_SHAPES = ("slim", "average", "athletic", "heavy")
HAIR_STYLES = ("none", "short", "long", "bun", "curly", "ponytail", "bob", "buzz")
# (Styles added after the first three go last: tests/helpers.random_settings keeps earlier draws.)
GLASSES = ("none", "clear", "sunglasses", "round", "aviator")
TOP_STYLES = ("tee", "longsleeve", "hoodie")
BOTTOM_STYLES = ("trousers", "shorts", "skirt")
SHOE_STYLES = ("sneakers", "boots")
# The stance a preview shows (contract section 4): the first the relaxed idle stance every avatar had before.
POSES = ("relaxed", "hand_on_hip", "hands_on_hips", "hands_clasped", "wave", "hands_behind_back")
# The face shape controls (contract section 4): each from -1 to 1, 0 the neutral face of the body. (The head's own
# shape, added for blind review S's "one base head", then the eyes' placement and the nose's bridge, review V's "eye spacing and tilt" and
# "nose bridge", last:
# tests/helpers.random_settings keeps earlier draws.)
FACE_CONTROLS = ("jawWidth", "cheekbones", "noseWidth", "eyeSize", "lipFullness", "noseLength", "chinLength",
                 "browRidge", "headWidth", "foreheadHeight", "eyeSpacing", "eyeTilt",
                 "noseBridge")
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
DEFAULT_OUTFIT = {"top": "#3B5B8C", "bottom": "#2F2F36", "shoes": "#1E1E1E", "topStyle": "tee", "bottomStyle": "trousers",
                  "shoeStyle": "sneakers"}
DEFAULT_POSE = "relaxed"
DEFAULT_EYE = "#5B3A1E"              # a mid brown iris
DEFAULT_FACE = {k: 0.0 for k in FACE_CONTROLS}
SETTINGS_MAX_BYTES = 64 * 1024

# Bounds of the interface's tables: the checks below, the widgets and /openapi.json read these.
HEIGHT_CM = (140, 210)               # avatar height, inclusive
NAME_CHARS = (1, 64)                 # avatar name length, inclusive
FACE_RANGE = (-1, 1)                 # each face control, inclusive
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
