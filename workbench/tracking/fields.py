"""The kinds of payload field the tracking catalog knows, each with everything that depends on it.

A catalog field (:class:`workbench.tracking.catalog.FieldSpec`) is a number, a boolean, a string
from a closed set (a choice) or free text. What each kind means is written here once, side by
side: the reference check of a value, the msgspec type of the service's fast path, the Arrow type
of the event lake, the JSON Schema of ``/openapi.json`` and the most bytes a value of it may take
in JSON (the bound the fast path derives string lengths from). Adding a kind is one class here.

>>> from workbench.tracking.catalog import FieldSpec
>>> f = FieldSpec("platform", "string", allowed=("ios", "android"))
>>> kind_of(f).name, kind_of(f).json_schema(f), kind_of(f).check(f)("web")
('choice', {'enum': ['ios', 'android']}, "must be one of ios, android, got 'web'")
"""

from __future__ import annotations

import math
import sys
from collections.abc import Callable
from typing import Any

from workbench.options import json_type, utf8_problem

# Integers past this take the reference way (the general decoder has its own limit).
INT_BOUND = 2**63 - 1

# The largest magnitude a number of a payload may have: the lake keeps numbers as 64-bit floats
# (Number.arrow_type), and I-JSON (RFC 7493) calls a JSON number past a double's range not
# interoperable. An integer of 400 digits is valid JSON, but no Parquet export could hold it.
NUMBER_LIMIT = sys.float_info.max


def number_problem(v: int | float) -> str | None:
    """Why the JSON number ``v`` cannot be kept (NaN, an infinity, or past a double's range), or None.

    >>> number_problem(1e308) is None, number_problem(10**400)
    (True, 'must be within the range of a 64-bit float (±1.8e308), got an integer of 401 digits')
    """
    if type(v) is float or isinstance(v, float):
        return None if math.isfinite(v) else f"must be a finite number, got {show(v)}"
    if -NUMBER_LIMIT <= v <= NUMBER_LIMIT:  # exact: Python compares an int with a float without rounding
        return None
    digits = len(str(abs(v))) if v.bit_length() < 14_000 else "thousands of"  # str() refuses past 4300 digits
    return f"must be within the range of a 64-bit float (±1.8e308), got an integer of {digits} digits"


def escaped(name: str) -> str:
    r"""``name`` with what UTF-8 cannot write (a lone surrogate) as a visible ``\uXXXX``: a name echoed in a
    message or a ``field`` of an answer must be encodable.

    >>> escaped("ok"), escaped("a\ud800")
    ('ok', 'a\\ud800')
    """
    try:
        name.encode("utf-8")
        return name
    except UnicodeEncodeError:
        return name.encode("utf-8", "backslashreplace").decode("utf-8")


def show(value: Any) -> str:
    """A short, safe rendering of a bad value for a message (values can be huge)."""
    text = repr(value)
    return text if len(text) <= 40 else text[:39] + "…"


def type_name(value: Any) -> str:
    """:func:`workbench.options.json_type` with its article, as the catalog's sentences read ("got an array")."""
    name = json_type(value)
    return _ARTICLED.get(name, name)


_ARTICLED = {"boolean": "a boolean", "number": "a number", "string": "a string", "array": "an array", "object": "an object"}


class Kind:
    """One kind of field. ``check(f)`` returns a function giving None for a good value, else the end
    of an error sentence; ``msgspec_type(f, string_bound)``, ``arrow_type(f)``, ``json_schema(f)``;
    ``json_bytes(f)``: the most bytes a value takes in JSON (None: unbounded, free text)."""

    name = ""

    def check(self, f) -> Callable[[Any], str | None]:
        raise NotImplementedError

    def msgspec_type(self, f, string_bound: int):
        raise NotImplementedError

    def arrow_type(self, f):
        raise NotImplementedError

    def json_schema(self, f) -> dict:
        raise NotImplementedError

    def json_bytes(self, f) -> int | None:
        raise NotImplementedError


class Number(Kind):
    name = "number"

    def check(self, f):
        minimum = f.minimum

        def check(v):
            t = type(v)
            if t is not int and t is not float and (isinstance(v, bool) or not isinstance(v, (int, float))):
                return f"must be a number, got {type_name(v)}"
            problem = number_problem(v)
            if problem is not None:
                return problem
            if minimum is not None and v < minimum:
                return f"must be >= {minimum:g}, got {show(v)}"
            return None
        return check

    def msgspec_type(self, f, string_bound):
        from typing import Annotated, Union

        import msgspec

        M, lo = msgspec.Meta, f.minimum
        as_int = Annotated[int, M(ge=math.ceil(lo) if lo is not None else -INT_BOUND, le=INT_BOUND)]
        # bounds on both sides also refuse NaN and infinities (every comparison with NaN fails)
        as_float = Annotated[float, M(ge=lo if lo is not None else -sys.float_info.max, le=sys.float_info.max)]
        return Union[as_int, as_float]

    def arrow_type(self, f):
        import pyarrow as pa

        return pa.float64()

    def json_schema(self, f):
        return {"type": "number", "minimum": f.minimum if f.minimum is not None else -NUMBER_LIMIT, "maximum": NUMBER_LIMIT}

    def json_bytes(self, f):
        return 24  # the longest float repr: -2.2250738585072014e-308


class Boolean(Kind):
    name = "boolean"

    def check(self, f):
        return lambda v: None if v is True or v is False else f"must be a boolean, got {type_name(v)}"

    def msgspec_type(self, f, string_bound):
        return bool

    def arrow_type(self, f):
        import pyarrow as pa

        return pa.bool_()

    def json_schema(self, f):
        return {"type": "boolean"}

    def json_bytes(self, f):
        return 5


class Choice(Kind):
    name = "choice"

    def check(self, f):
        allowed, listing = frozenset(f.allowed), ", ".join(f.allowed)

        def check(v):
            if type(v) is not str and not isinstance(v, str):
                return f"must be a string, one of {listing}; got {type_name(v)}"
            return None if v in allowed else f"must be one of {listing}, got {show(v)}"
        return check

    def msgspec_type(self, f, string_bound):
        from typing import Literal

        return Literal[f.allowed]

    def arrow_type(self, f):
        import pyarrow as pa

        return pa.dictionary(pa.int32(), pa.string())  # a closed set compresses to a few codes

    def json_schema(self, f):
        return {"enum": list(f.allowed)}

    def json_bytes(self, f):
        return 2 + 6 * max(map(len, f.allowed))  # quotes, and at most 6 bytes a character


class Text(Kind):
    name = "string"

    def check(self, f):
        return lambda v: f"must be a string, got {type_name(v)}" if not isinstance(v, str) else utf8_problem(v)

    def msgspec_type(self, f, string_bound):
        from typing import Annotated

        import msgspec

        return Annotated[str, msgspec.Meta(max_length=string_bound)]

    def arrow_type(self, f):
        import pyarrow as pa

        return pa.string()

    def json_schema(self, f):
        return {"type": "string"}

    def json_bytes(self, f):
        return None


KINDS = {k.name: k for k in (Number(), Boolean(), Choice(), Text())}


def kind_of(f) -> Kind:
    """The kind of a catalog field: its ``type``, a string with ``allowed`` values being a choice."""
    if f.type == "string" and f.allowed is not None:
        return KINDS["choice"]
    try:
        return KINDS[f.type]
    except KeyError:
        raise ValueError(f"payload field {f.name}: unknown type {f.type!r}; the kinds are number, boolean, string") from None
