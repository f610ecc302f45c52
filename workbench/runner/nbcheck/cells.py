"""One notebook cell's pictures against the saved ones: which cells are compared, their limits, the verdict.

Shared by the pytest plugin (nbval's runs) and ``workbench tour`` / ``check`` (their reports),
so a cell is judged the same way wherever it runs.

>>> import base64
>>> from workbench.runner.nbcheck.images import png
>>> black = base64.b64encode(png((4, 4), (0, 0, 0))).decode()  # as a notebook stores it
>>> saved = {"metadata": {"tags": ["image-check"]}, "outputs": [{"data": {"image/png": black}}]}
>>> compare_cell(saved, saved["outputs"], Tolerance(), None, "x")
[]
"""

from __future__ import annotations

import base64
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from workbench.runner.nbcheck.images import Tolerance, compare_png

__all__ = ["PNG", "CHECK_TAGS", "LIMIT_TAGS", "Mismatch", "is_checked", "cell_tolerance", "png_of", "compare_cell"]

PNG = "image/png"
CHECK_TAGS = {"image-check", "nbval-check-output"}
# tag name -> Tolerance field; a tag reads "image-tolerance=0.01"
LIMIT_TAGS = {"image-tolerance": "max_fraction", "image-max-rms": "max_rms", "image-threshold": "threshold"}


def is_checked(cell: dict) -> bool:
    """Whether a cell's pictures are compared: tagged ``image-check`` or ``nbval-check-output``."""
    return bool(set(cell.get("metadata", {}).get("tags", []) or []) & CHECK_TAGS)


def cell_tolerance(metadata: dict[str, Any], run: Tolerance) -> Tolerance:
    """The run's tolerance with a cell's own limits applied: its tags, then its ``workbench.image`` metadata."""
    from_tags = {}
    for tag in metadata.get("tags", []) or []:
        name, sep, value = tag.partition("=")
        if name in LIMIT_TAGS:
            if not sep:
                raise ValueError(f"tag {tag!r} needs a value, as in {name}=0.01")
            from_tags[LIMIT_TAGS[name]] = number(value, f"tag {tag!r}")
    own = (metadata.get("workbench") or {}).get("image") or {}
    if not isinstance(own, dict):
        raise ValueError(f"cell metadata workbench.image must be an object, got {own!r}")
    return run.with_(**from_tags).with_(**own)



def png_of(output: Any) -> bytes | None:
    data = (output.get("data") or {}).get(PNG) if hasattr(output, "get") else None
    if data is None:
        return None
    return base64.b64decode("".join(data) if isinstance(data, list) else data)



def number(value: str, where: str) -> float:
    try:
        return float(value)
    except ValueError:
        raise ValueError(f"{where}: {value!r} is not a number") from None



@dataclass(frozen=True)
class Mismatch:
    """How one picture (or a cell's count of pictures) differs from the saved one, and where its
    expected | actual | difference image was written (None when it was not)."""

    text: str
    picture: Path | None = None

    def lines(self) -> list[str]:
        """The report's lines: the figures, then the picture's path."""
        return [f"  {self.text}"] + ([f"    expected | actual | difference: {self.picture}"] if self.picture else [])


def compare_cell(saved_cell: dict, new_outputs: list, tolerance: Tolerance, out_dir: Path | None,
                 stem: str) -> list[Mismatch]:
    """How each new ``image/png`` output differs from the saved cell's (empty: all within limits).

    A failing picture's expected, actual and difference are written side by side to
    ``out_dir/{stem}-image{n}.png``.
    """
    saved = [png for png in map(png_of, saved_cell.get("outputs", [])) if png is not None]
    new = [png for png in map(png_of, new_outputs) if png is not None]
    if len(saved) != len(new):
        return [Mismatch(f"the cell showed {len(new)} image/png output(s), the saved notebook has {len(saved)}")]
    found = []
    for n, (expected, actual) in enumerate(zip(saved, new, strict=True), 1):
        diff = compare_png(expected, actual, tolerance=tolerance)
        if diff.passed:
            continue
        path = None
        if out_dir is not None:
            out_dir.mkdir(parents=True, exist_ok=True)
            path = Path(out_dir) / f"{stem}-image{n}.png"
            diff.side_by_side().save(path)
        found.append(Mismatch(f"image {n}: {diff.summary()}", path))
    return found
