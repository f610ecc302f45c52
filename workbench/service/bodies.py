"""The one JSON reader of the service: strict UTF-8 JSON, bounded nesting, refusals in the contract's words.

Every JSON body the service takes (avatar settings, tracking batches, the
control API) is decoded here, so each gets the same 400 ``invalid_json`` with a
message of our own: never the decoder's or the interpreter's text. NaN and
Infinity are refused (they are not JSON), and so are numbers that would become infinite; nesting deeper than
:data:`MAX_DEPTH` is refused by :func:`check_nesting`, on the bytes, before any decoder
runs (the tracking fast path's msgspec decoders included), so no decoder and no later step
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

import numpy as np

from workbench.options import utf8_problem
from workbench.service.errors import ServiceError
from workbench.tracking.fields import escaped

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


# Every byte but the quote and the four brackets, deleted before the brackets are counted.
_NOT_STRUCTURE = bytes(c for c in range(256) if c not in b'"[]{}')
_STEP = np.zeros(256, np.int8)
_STEP[[ord("["), ord("{")]] = 1
_STEP[[ord("]"), ord("}")]] = -1


def nesting_depth(raw: bytes) -> int:
    r"""How deep arrays and objects nest in the JSON text ``raw``, read from its bytes without decoding
    (0 when there are too few brackets to pass :data:`MAX_DEPTH` at all).

    Escaped backslashes and quotes are dropped first, so every quote left opens or closes a string,
    and brackets inside strings are not counted: JSON decoders split the text into strings the
    same way, so a text that decodes nests exactly this deep. A 100-event tracking batch costs
    about 45 us (numpy's running sum over the brackets left).

    >>> nesting_depth(b"[" * 300 + b"]" * 300)
    300
    >>> nesting_depth(b'["]]]]\\"", "\\\\", ' + b"[" * 200 + b"]" * 200 + b"]")   # escapes and brackets in strings
    201
    """
    if raw.count(b"[") + raw.count(b"{") <= MAX_DEPTH:
        return 0
    structure = raw.replace(b"\\\\", b"").replace(b'\\"', b"").translate(None, _NOT_STRUCTURE)
    brackets = b"".join(structure.split(b'"')[::2])  # what lies outside strings
    if not brackets:
        return 0
    return int(np.cumsum(_STEP[np.frombuffer(brackets, np.uint8)], dtype=np.int32).max())


def check_nesting(raw: bytes) -> None:
    """400 ``invalid_json`` when ``raw`` nests deeper than :data:`MAX_DEPTH`: run before any decoder."""
    if nesting_depth(raw) > MAX_DEPTH:
        raise _invalid(f"The body nests arrays and objects more than {MAX_DEPTH} levels deep.")


def decode_json(raw: bytes) -> Any:
    """The value of a JSON body, or :class:`ServiceError` 400 ``invalid_json`` saying what is wrong."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise _invalid(f"The body is not UTF-8 (byte {e.start} cannot be decoded).") from None
    check_nesting(raw)
    try:
        value = json.loads(text, parse_constant=_refuse_constant, parse_float=_finite_float)
    except json.JSONDecodeError as e:
        where = "is empty" if not text.strip() else f"is not valid JSON at line {e.lineno}, column {e.colno}"
        raise _invalid(f"The body {where}.") from None
    except _NotJson:
        raise _invalid("The body holds NaN, Infinity or a number beyond the range of a double, which JSON cannot carry.") from None
    except ValueError:
        # The only other refusal of the decoder: an integer longer than Python converts (4300 digits).
        raise _invalid("The body holds a number with too many digits.") from None
    return value


def check_text(value: Any, refusal: str = "request") -> None:
    r"""400 ``invalid_text`` naming the first name or string of a decoded body that UTF-8 cannot write
    (JSON's ``\ud800`` escape decodes to a lone surrogate): nothing could store or echo it.

    ``refusal``: the answer's code is ``invalid_<refusal>`` (``settings`` for avatar settings, as their
    other rules answer); each detail's code is ``invalid_text``. The tracking endpoint does not use
    this: there such text is a per-event error of the catalog.

    >>> try:
    ...     check_text({"kind": "glb", "tags": ["a", "\ud800"]})
    ... except ServiceError as e:
    ...     print(e.status, e.details[0]["field"], "|", e.details[0]["message"])
    400 tags[1] | must be text that UTF-8 can encode (a lone surrogate U+D800 at position 0)
    >>> try:
    ...     check_text({"\ud800": 1}, "settings")
    ... except ServiceError as e:
    ...     print(e.code, e.details[0]["code"], e.details[0]["field"])
    invalid_settings invalid_text \ud800
    """
    stack = [("", value)]
    while stack:
        path, v = stack.pop()
        if isinstance(v, str):
            problem = utf8_problem(v)
            if problem:
                raise _text_error(path or "body", problem, refusal)
        elif isinstance(v, dict):
            for k in v:
                problem = utf8_problem(k)
                if problem:
                    raise _text_error(f"{path}.{escaped(k)}" if path else escaped(k), "this name " + problem, refusal)
            stack.extend((f"{path}.{k}" if path else k, item) for k, item in reversed(list(v.items())))
        elif isinstance(v, list):
            stack.extend((f"{path}[{i}]", item) for i, item in reversed(list(enumerate(v))))


def _text_error(field: str, problem: str, refusal: str) -> ServiceError:
    return ServiceError(400, f"invalid_{refusal}", f"{field}: {problem}.",
                        [{"field": field, "code": "invalid_text", "message": problem}])
