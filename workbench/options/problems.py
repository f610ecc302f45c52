"""A broken rule as a value (:class:`Problem`), the error that carries them all
(:class:`InvalidOptions`), and the small checks every rule is made of: text, enumerations, colours,
objects, and how a value is shown in a message.

>>> problems = []
>>> check_enum(problems, "gender", "robot", ("masculine", "feminine"))
>>> print(InvalidOptions(problems))
gender: must be one of masculine, feminine; got 'robot'
"""

from __future__ import annotations

import re
from collections.abc import Collection
from dataclasses import asdict, dataclass
from typing import Any

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


@dataclass(frozen=True)
class Problem:
    """One broken rule: which field, a stable code and a sentence for people."""

    field: str
    code: str
    message: str

    def to_dict(self) -> dict[str, str]:
        return asdict(self)


class InvalidOptions(ValueError):
    """Raised with every problem found, not just the first."""

    def __init__(self, problems: list[Problem]):
        self.problems = list(problems)
        super().__init__("; ".join(f"{p.field}: {p.message}" for p in self.problems))


def check_text(problems: list[Problem], field: str, value: str) -> bool:
    """Add a problem when ``value`` is not acceptable text; True when it is."""
    why = text_problem(value)
    if why:
        problems.append(Problem(field, "invalid_text", why))
    return why is None


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

def show_number(value: int | float) -> str:
    """A number as a message shows it: a huge integer by its size, not by thousands of digits
    (which Python also refuses to print past 4,300).

    >>> show_number(300), show_number(10**400)
    ('300', 'a number of about 401 digits')
    """
    if isinstance(value, int) and abs(value) >= 10**12:
        return f"a number of about {int(value.bit_length() * 0.30103) + 1} digits"
    return repr(value)


def check_enum(problems: list[Problem], path: str, value: Any, allowed: Collection[str]) -> str | None:
    if not isinstance(value, str):
        problems.append(Problem(path, "wrong_type", f"must be a string, one of {', '.join(allowed)}; got {json_type(value)}"))
        return None
    if value not in allowed:
        problems.append(Problem(path, "not_allowed", f"must be one of {', '.join(allowed)}; got {value!r}"))
        return None
    return value


def check_color(problems: list[Problem], path: str, value: Any) -> str | None:
    if not isinstance(value, str):
        problems.append(Problem(path, "wrong_type", f"must be a string #RRGGBB; got {json_type(value)}"))
        return None
    if not _COLOR.match(value):
        problems.append(Problem(path, "invalid_color", f"must be a colour written #RRGGBB; got {value!r}"))
        return None
    return value.upper()


def check_object(problems: list[Problem], path: str, value: Any, keys: Collection[str]) -> dict[str, Any] | None:
    if not isinstance(value, dict):
        problems.append(Problem(path, "wrong_type", f"must be an object; got {json_type(value)}"))
        return None
    for k in value:
        if k not in keys:
            problems.append(Problem(f"{path}.{k}", "unknown_field", f"is not a field of {path}; allowed: {', '.join(keys)}"))
    return value
