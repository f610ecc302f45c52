"""Avatar settings (contract section 4): checked, with the defaults filled in.

>>> normalize_avatar_settings({"gender": "feminine"})["height"]
166.0
"""

from __future__ import annotations

import math
from typing import Any

from .limits import (
    BODY_SHAPES,
    BOTTOM_STYLES,
    DEFAULT_EYE,
    DEFAULT_FACE,
    DEFAULT_HAIR,
    DEFAULT_HEIGHT,
    DEFAULT_OUTFIT,
    DEFAULT_POSE,
    DEFAULT_SKIN,
    FACE_CONTROLS,
    FACE_RANGE,
    GENDERS,
    GLASSES,
    HAIR_STYLES,
    HEIGHT_CM,
    NAME_CHARS,
    POSES,
    SHOE_STYLES,
    TOP_STYLES,
)
from .problems import InvalidOptions, Problem, check_color, check_enum, check_object, check_text, json_type, show_number


def normalize_avatar_settings(body: Any) -> dict[str, Any]:
    """Check avatar settings (contract section 4) and return them with defaults filled in.

    >>> normalize_avatar_settings({"gender": "feminine"})["height"]
    166.0
    >>> normalize_avatar_settings({"gender": "feminine", "outfit": {"bottomStyle": "skirt"}})["outfit"]["topStyle"]
    'tee'
    """
    problems: list[Problem] = []
    if not isinstance(body, dict):
        raise InvalidOptions([Problem("body", "wrong_type", f"must be a JSON object; got {json_type(body)}")])
    allowed = ("gender", "bodyShape", "height", "skinTone", "eyeColor", "face", "hair", "outfit", "glasses", "pose", "name")
    for k in body:
        if k not in allowed:
            problems.append(Problem(k, "unknown_field", f"is not an avatar setting; allowed: {', '.join(allowed)}"))

    gender = None
    if "gender" not in body:
        problems.append(Problem("gender", "required", "is required: masculine or feminine"))
    else:
        gender = check_enum(problems, "gender", body["gender"], GENDERS)

    body_shape = check_enum(problems, "bodyShape", body.get("bodyShape", "average"), BODY_SHAPES)

    height = _number(problems, "height", body["height"], HEIGHT_CM, "a number of centimetres", " cm") if "height" in body else None
    if height is None and gender:
        height = DEFAULT_HEIGHT[gender]

    skin = check_color(problems, "skinTone", body.get("skinTone", DEFAULT_SKIN))
    eye = check_color(problems, "eyeColor", body.get("eyeColor", DEFAULT_EYE))

    # None where a value is refused (a problem, so the settings are never returned)
    face: dict[str, float | None] = dict(DEFAULT_FACE)
    if "face" in body:
        f = check_object(problems, "face", body["face"], FACE_CONTROLS)
        if f is not None:
            for k in FACE_CONTROLS:
                if k in f:
                    face[k] = _number(problems, f"face.{k}", f[k], FACE_RANGE, "a number")

    hair: dict[str, str | None] = dict(DEFAULT_HAIR)
    if "hair" in body:
        h = check_object(problems, "hair", body["hair"], ("style", "color"))
        if h is not None:
            if "style" in h:
                hair["style"] = check_enum(problems, "hair.style", h["style"], HAIR_STYLES)
            if "color" in h:
                hair["color"] = check_color(problems, "hair.color", h["color"])

    outfit: dict[str, str | None] = dict(DEFAULT_OUTFIT)
    if "outfit" in body:
        o = check_object(problems, "outfit", body["outfit"], ("top", "bottom", "shoes", "topStyle", "bottomStyle", "shoeStyle"))
        if o is not None:
            for part in ("top", "bottom", "shoes"):
                if part in o:
                    outfit[part] = check_color(problems, f"outfit.{part}", o[part])
            for part, styles in (("topStyle", TOP_STYLES), ("bottomStyle", BOTTOM_STYLES), ("shoeStyle", SHOE_STYLES)):
                if part in o:
                    outfit[part] = check_enum(problems, f"outfit.{part}", o[part], styles)

    glasses = check_enum(problems, "glasses", body.get("glasses", "none"), GLASSES)
    pose = check_enum(problems, "pose", body.get("pose", DEFAULT_POSE), POSES)

    name = None
    if "name" in body:
        name = body["name"]
        if not isinstance(name, str):
            problems.append(Problem("name", "wrong_type", f"must be a string; got {json_type(name)}"))
        elif not NAME_CHARS[0] <= len(name) <= NAME_CHARS[1]:
            problems.append(Problem("name", "out_of_range", f"must be {NAME_CHARS[0]} to {NAME_CHARS[1]} characters; got {len(name)}"))
        else:
            check_text(problems, "name", name)

    if problems:
        raise InvalidOptions(problems)
    return {
        "gender": gender,
        "bodyShape": body_shape,
        "height": height,
        "skinTone": skin,
        "eyeColor": eye,
        "face": face,
        "hair": hair,
        "outfit": outfit,
        "glasses": glasses,
        "pose": pose,
        "name": name,
    }


def stored_avatar_settings(stored: dict[str, Any]) -> dict[str, Any]:
    """Settings normalized when they were registered, normalized again: the defaults of settings added since
    filled in (a registration kept from an earlier version reads as the same avatar with today's fields).

    >>> old = {"gender": "feminine", "height": 160.0, "name": None}
    >>> stored_avatar_settings(old)["outfit"]["shoeStyle"], stored_avatar_settings(old)["height"]
    ('sneakers', 160.0)
    """
    return normalize_avatar_settings({k: v for k, v in stored.items() if v is not None})


def _number(problems: list[Problem], path: str, value: Any, bounds: tuple[int, int], what: str,
            unit: str = "") -> float | None:
    """A JSON number within ``bounds`` (inclusive) as a float; else one problem naming ``path``, and None.

    >>> p = []; _number(p, "face.jawWidth", 2, (-1, 1), "a number"), p[0].message
    (None, 'must be between -1 and 1; got 2')
    """
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        problems.append(Problem(path, "wrong_type", f"must be {what}; got {json_type(value)}"))
        return None
    # (ints are finite: math.isfinite overflows on a 400-digit one)
    if (isinstance(value, float) and not math.isfinite(value)) or not bounds[0] <= value <= bounds[1]:
        problems.append(Problem(path, "out_of_range", f"must be between {bounds[0]} and {bounds[1]}{unit}; got {show_number(value)}"))
        return None
    return float(value)
