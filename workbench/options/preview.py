"""Options of ``GET /preview/:id.png``: size (rounded to a power of two), camera and background.

>>> parse_preview_options({"size": "100", "background": "255,255,255"})
PreviewOptions(size=128, camera='portrait', background=(255, 255, 255))
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .limits import CAMERAS, PREVIEW_CAMERA_DEFAULT, PREVIEW_SIZE_DEFAULT, PREVIEW_SIZES
from .problems import InvalidOptions, Problem
from .query import QUERY_PARAMETERS, as_int, choice, empty_values, split_query


@dataclass(frozen=True)
class PreviewOptions:
    """Options of ``GET /preview/:id.png``, parsed and checked.

    size: the requested size rounded to the nearest power of two (ties round up), 32 to 512.
    camera: "portrait" (default, head and shoulders) or "full" (head to toe).
    background: (R, G, B) opaque, or None for transparent.
    """

    size: int = PREVIEW_SIZE_DEFAULT
    camera: str = PREVIEW_CAMERA_DEFAULT
    background: tuple[int, int, int] | None = None

    def cache_key(self) -> str:
        bg = "t" if self.background is None else "%02x%02x%02x" % self.background
        return f"s{self.size}_{self.camera}_{bg}"

    def to_query(self) -> dict[str, str]:
        q = {"size": str(self.size), "camera": self.camera}
        if self.background is not None:
            q["background"] = ",".join(str(c) for c in self.background)
        return q


def round_preview_size(n: int) -> int:
    """Round to the nearest power of two; a tie (equally near both) rounds up.

    >>> [round_preview_size(n) for n in (32, 48, 47, 100, 384, 512)]
    [32, 64, 32, 128, 512, 512]
    """
    lo = 1 << (n.bit_length() - 1)
    hi = lo if lo == n else lo * 2
    return hi if (hi - n) <= (n - lo) else lo


def parse_preview_options(query: Mapping[str, Any]) -> PreviewOptions:
    """Check the preview query and return PreviewOptions.

    >>> parse_preview_options({"size": "100", "background": "255,255,255"})
    PreviewOptions(size=128, camera='portrait', background=(255, 255, 255))
    """
    problems: list[Problem] = []
    known = QUERY_PARAMETERS["avatars.preview"]
    query = empty_values(problems, split_query(query, "avatars.preview")[0], known)
    size = PREVIEW_SIZE_DEFAULT
    lo, hi = PREVIEW_SIZES
    if query.get("size") is not None:
        v = as_int(problems, "size", query["size"], f"an integer from {lo} to {hi}")
        if v is not None:
            if not lo <= v <= hi:
                problems.append(Problem("size", "out_of_range", f"must be an integer from {lo} to {hi}; got {v}"))
            else:
                size = round_preview_size(v)
    camera = choice(problems, query, "camera", CAMERAS, "must be full or portrait", PREVIEW_CAMERA_DEFAULT)
    background: tuple[int, int, int] | None = None
    if query.get("background") is not None:
        raw = query["background"]
        if isinstance(raw, (list, tuple)):
            parts = [str(x) for x in raw]
        else:
            parts = str(raw).split(",")
        ok = len(parts) == 3 and all(re.fullmatch(r"\s*[0-9]{1,3}\s*", p) for p in parts)
        vals = tuple(int(p) for p in parts) if ok else ()
        if not ok or any(c > 255 for c in vals):
            problems.append(Problem("background", "invalid_color",
                                    f"must be R,G,B: three integers 0 to 255 separated by commas; got {raw!r}"))
        else:
            r, g, b = vals
            background = (r, g, b)
    if problems:
        raise InvalidOptions(problems)
    return PreviewOptions(size=size, camera=camera, background=background)
