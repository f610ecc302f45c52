"""Query strings: which parameters each operation knows (any other is ignored and named), and how a
value from a URL is read (empty values refused, integers in ASCII digits, one of a list).

>>> split_query({"lod": "1", "v": "3"}, "avatars.model")
({'lod': '1'}, ['v'])
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping
from typing import Any, TypeVar

from .problems import Problem

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

D = TypeVar("D", str, None)


def split_query(query: Mapping[str, Any], operation: str) -> tuple[dict[str, Any], list[str]]:
    """(the parameters ``operation`` knows, the names of the others, which are ignored).

    >>> split_query({"lod": "1", "v": "3"}, "avatars.model")
    ({'lod': '1'}, ['v'])
    """
    known = QUERY_PARAMETERS.get(operation, ())
    return {k: v for k, v in query.items() if k in known}, [k for k in query if k not in known]


def empty_values(problems: list[Problem], query: Mapping[str, Any], known: tuple[str, ...]) -> dict[str, Any]:
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


def choice(problems: list[Problem], query: Mapping[str, Any], name: str, allowed: Collection[str], rule: str,
           default: D) -> str | D:
    """``query[name]`` when it is one of ``allowed``, else ``default`` and a problem saying ``rule``."""
    if query.get(name) is None:
        return default
    value = str(query[name])
    if value in allowed:
        return value
    problems.append(Problem(name, "not_allowed", f"{rule}; got {value!r}"))
    return default


def as_int(problems: list[Problem], name: str, raw: Any, allowed_text: str) -> int | None:
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
