"""The one JSON reader of the service: strict UTF-8 JSON, bounded nesting, refusals in the contract's words.

Every JSON body the service takes (avatar settings, tracking batches, the
control API) is decoded here, so each gets the same 400 ``invalid_json`` with a
message of our own: never the decoder's or the interpreter's text. NaN and
Infinity are refused (they are not JSON), and so are numbers that would become infinite; nesting deeper than
:data:`MAX_DEPTH` is refused before any rule walks the value, so no later step
can run out of stack.

>>> decode_json(b'{"gender": "feminine"}')
{'gender': 'feminine'}
>>> try:
...     decode_json(b"[" * 1000 + b"]" * 1000)
... except ServiceError as e:
...     print(e.status, e.code, e.message)
400 invalid_json The body nests arrays and objects more than 128 levels deep.
"""

from __future__ import annotations

import json
import math
from typing import Any

from workbench.service.errors import ServiceError

# Deep enough for any body of the interface (avatar settings nest 2 levels, tracking payloads a few),
# shallow enough that every recursive step after decoding stays far from Python's stack limit.
MAX_DEPTH = 128


class _NotJson(ValueError):
    pass


def _refuse_constant(name: str):
    raise _NotJson(f"{name} is not a JSON value")


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):  # 1e999 would otherwise become infinity
        raise _NotJson("out of range")
    return value


def _invalid(message: str) -> ServiceError:
    return ServiceError(400, "invalid_json", message, [{"field": "body", "code": "invalid_json", "message": message}])


def _deeper_than(value: Any, limit: int) -> bool:
    """Whether arrays and objects nest more than ``limit`` levels (iterative: no recursion)."""
    stack = [(value, 1)]
    while stack:
        node, depth = stack.pop()
        if depth > limit:
            return True
        for child in (node.values() if type(node) is dict else node):
            if type(child) is dict or type(child) is list:
                stack.append((child, depth + 1))
    return False


def decode_json(raw: bytes) -> Any:
    """The value of a JSON body, or :class:`ServiceError` 400 ``invalid_json`` saying what is wrong."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise _invalid(f"The body is not UTF-8 (byte {e.start} cannot be decoded).") from None
    # Counting brackets is cheap and bounds the depth from above, so most bodies skip the walk.
    might_nest = raw.count(b"[") + raw.count(b"{") > MAX_DEPTH
    try:
        value = json.loads(text, parse_constant=_refuse_constant, parse_float=_finite_float)
    except json.JSONDecodeError as e:
        where = "is empty" if not text.strip() else f"is not valid JSON at line {e.lineno}, column {e.colno}"
        raise _invalid(f"The body {where}.") from None
    except _NotJson:
        raise _invalid("The body holds NaN, Infinity or a number beyond the range of a double, which JSON cannot carry.") from None
    except RecursionError:
        raise _invalid(f"The body nests arrays and objects more than {MAX_DEPTH} levels deep.") from None
    except ValueError:
        # The only other refusal of the decoder: an integer longer than Python converts (4300 digits).
        raise _invalid("The body holds a number with too many digits.") from None
    if might_nest and (type(value) is dict or type(value) is list) and _deeper_than(value, MAX_DEPTH):
        raise _invalid(f"The body nests arrays and objects more than {MAX_DEPTH} levels deep.")
    return value
