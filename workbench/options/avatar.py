"""Avatar settings (contract section 4): checked, with the defaults filled in.

>>> normalize_avatar_settings({"gender": "feminine"})["height"]
166.0
"""

from __future__ import annotations

import math
from typing import Any

from .limits import (BODY_SHAPES, BOTTOM_STYLES, DEFAULT_HAIR, DEFAULT_HEIGHT, DEFAULT_OUTFIT, DEFAULT_SKIN, GENDERS, GLASSES,
                     HAIR_STYLES, HEIGHT_CM, NAME_CHARS, TOP_STYLES)
from .problems import InvalidOptions, Problem, check_color, check_enum, check_object, check_text, json_type, show_number


def normalize_avatar_settings(body: Any) -> dict:
    """Check avatar settings (contract section 4) and return them with defaults filled in.

    >>> normalize_avatar_settings({"gender": "feminine"})["height"]
    166.0
    >>> normalize_avatar_settings({"gender": "feminine", "outfit": {"bottomStyle": "skirt"}})["outfit"]["topStyle"]
    'tee'
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
        gender = check_enum(problems, "gender", body["gender"], GENDERS)

    body_shape = check_enum(problems, "bodyShape", body.get("bodyShape", "average"), BODY_SHAPES)

    height = body.get("height")
    if height is not None or "height" in body:
        if isinstance(height, bool) or not isinstance(height, (int, float)):
            problems.append(Problem("height", "wrong_type", f"must be a number of centimetres; got {json_type(height)}"))
            height = None
        elif (isinstance(height, float) and not math.isfinite(height)) or not HEIGHT_CM[0] <= height <= HEIGHT_CM[1]:
            # (ints are finite: math.isfinite overflows on a 400-digit one)
            problems.append(Problem("height", "out_of_range", f"must be between {HEIGHT_CM[0]} and {HEIGHT_CM[1]} cm; got {show_number(height)}"))
            height = None
        else:
            height = float(height)
    if height is None and gender:
        height = DEFAULT_HEIGHT[gender]

    skin = check_color(problems, "skinTone", body.get("skinTone", DEFAULT_SKIN))

    hair = dict(DEFAULT_HAIR)
    if "hair" in body:
        h = check_object(problems, "hair", body["hair"], ("style", "color"))
        if h is not None:
            if "style" in h:
                hair["style"] = check_enum(problems, "hair.style", h["style"], HAIR_STYLES)
            if "color" in h:
                hair["color"] = check_color(problems, "hair.color", h["color"])

    outfit = dict(DEFAULT_OUTFIT)
    if "outfit" in body:
        o = check_object(problems, "outfit", body["outfit"], ("top", "bottom", "shoes", "topStyle", "bottomStyle"))
        if o is not None:
            for part in ("top", "bottom", "shoes"):
                if part in o:
                    outfit[part] = check_color(problems, f"outfit.{part}", o[part])
            for part, styles in (("topStyle", TOP_STYLES), ("bottomStyle", BOTTOM_STYLES)):
                if part in o:
                    outfit[part] = check_enum(problems, f"outfit.{part}", o[part], styles)

    glasses = check_enum(problems, "glasses", body.get("glasses", "none"), GLASSES)

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
        "hair": hair,
        "outfit": outfit,
        "glasses": glasses,
        "name": name,
    }
