"""Payload checks: a validator per catalog key compiled once from the catalog, the 8 KiB size rule's
measure, and what a free-form ``custom.NAME`` payload may hold.

>>> VALIDATORS["heartbeat"]({"visible": "yes"})[0]
'invalid_payload'
>>> payload_size({"a": "é"})
10
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from workbench.options import utf8_problem
from workbench.tracking.fields import escaped, kind_of, number_problem

from .table import CATALOG, MAX_PAYLOAD_BYTES, EventSpec

# A validator takes a payload dict and returns None or (code, message, field).
_Validator = Callable[[dict], "tuple[str, str, str] | None"]


def _compile(spec: EventSpec) -> _Validator:
    checks = tuple((f.name, f.required, kind_of(f).check(f)) for f in spec.fields)
    names = frozenset(spec.fields_by_name)
    required = tuple(f.name for f in spec.fields if f.required)
    key = spec.key

    def validate(payload: dict):
        for name in payload:
            if name not in names:
                name = escaped(name)  # echoed in the answer, which must be encodable
                return ("unknown_field", f"payload.{name} is not a field of {key}.", f"payload.{name}")
        for name, is_required, check in checks:
            if name in payload:
                problem = check(payload[name])
                if problem is not None:
                    return ("invalid_payload", f"payload.{name} of {key} {problem}.", f"payload.{name}")
            elif is_required:
                return ("invalid_payload", f"payload.{name} is required for {key}.", f"payload.{name}")
        return None

    validate.required = required  # type: ignore[attr-defined]  # a function carries its required names as an attribute
    return validate


VALIDATORS: dict[str, _Validator] = {k: _compile(s) for k, s in CATALOG.items() if not s.free_form}


def payload_size(payload: Any) -> int:
    """Bytes of the compact UTF-8 JSON encoding of ``payload`` (the 8 KiB rule's measure).

    Raises ValueError for values JSON cannot encode (NaN, infinities, other types).

    >>> payload_size({"a": "é"})
    10
    """
    return len(json.dumps(payload, separators=(",", ":"), ensure_ascii=False, allow_nan=False).encode("utf-8"))


def unwritable(payload: Any) -> tuple[str, str]:
    """(message, field) for a payload JSON cannot write: the path of a string UTF-8 cannot encode, or the whole payload."""
    stack = [("payload", payload)]
    while stack:
        path, value = stack.pop()
        if isinstance(value, dict):
            bad_name = next((problem for k in value if isinstance(k, str) and (problem := utf8_problem(k))), None)
            if bad_name:
                return f"{path} has a field name that {bad_name[5:]}.", path
            stack.extend((f"{path}.{k}", v) for k, v in reversed(list(value.items())))
        elif isinstance(value, list):
            stack.extend((f"{path}[{i}]", v) for i, v in reversed(list(enumerate(value))))
        elif isinstance(value, str) and utf8_problem(value):
            return f"{path} {utf8_problem(value)}.", path
    return "payload must hold only JSON values (no NaN or infinity).", "payload"


# Digits of the shortest integer past a double's range (fields.NUMBER_LIMIT is about 1.8e308).
LONGEST_NUMBER = 309


def number_out_of_range(payload: Any) -> tuple[str, str] | None:
    """(message, field) of the first number of a free-form payload, nested ones too, that the lake
    could not hold (:func:`workbench.tracking.fields.number_problem`), or None."""
    stack = [("payload", payload)]
    while stack:
        path, value = stack.pop()
        if isinstance(value, dict):
            stack.extend((f"{path}.{k}", v) for k, v in reversed(list(value.items())))
        elif isinstance(value, list):
            stack.extend((f"{path}[{i}]", v) for i, v in reversed(list(enumerate(value))))
        elif isinstance(value, (int, float)) and not isinstance(value, bool):
            problem = number_problem(value)
            if problem is not None:
                return f"{path} {problem}.", path
    return None


def may_be_too_large(payload: dict) -> bool:
    """Cheap upper bound on :func:`payload_size` for flat payloads, so the common small
    event never pays for a JSON encoding (that encoding was a third of check_event's time)."""
    bound = 2
    for name, v in payload.items():
        if isinstance(v, str):
            # a character costs at most 6 bytes in JSON (a \\u00XX escape)
            size = 6 * len(v) + 2
        elif isinstance(v, (float, bool)) or v is None:
            size = 32
        elif isinstance(v, int):
            # decimal digits <= bits / 3 (log10 2 < 1/3); huge ints are legal JSON
            size = v.bit_length() // 3 + 2
        else:
            return True
        bound += 6 * len(str(name)) + 4 + size
    return bound > MAX_PAYLOAD_BYTES
