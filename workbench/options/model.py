"""Options of ``GET /model/:id.glb`` (the interface's table, contract section 5), and an animation
download's path.

>>> parse_model_options({"lod": "1", "animations": "walk,wave"}).animations
('walk', 'wave')
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .limits import ANIMATIONS, ATLAS_SIZES, GENDERS, GESTURES, LOCOMOTION, LODS, MERGE_MESH, TEXTURE_FORMATS
from .problems import InvalidOptions, Problem
from .query import QUERY_PARAMETERS, as_int, choice, empty_values, split_query


@dataclass(frozen=True)
class ModelOptions:
    """Options of ``GET /model/:id.glb``, parsed and checked.

    lod: 0 (full), 1 (50% of triangles), 2 (25%). Default 0.
    animations: resolved clip names, sorted as in ANIMATIONS. Default none.
    texture_format: None (JPEG opaque, PNG transparent), "png" or "webp".
    merge_mesh: one mesh ``Avatar`` when True. Default False.
    texture_atlas_size: None, or a power of two from 64 to 2048.
    """

    lod: int = 0
    animations: tuple[str, ...] = ()
    texture_format: str | None = None
    merge_mesh: bool = False
    texture_atlas_size: int | None = None

    def cache_key(self) -> str:
        """A stable file-name-safe key for this set of options."""
        anims = "-".join(self.animations) if self.animations else "none"
        return (f"lod{self.lod}_a{anims}_t{self.texture_format or 'default'}"
                f"_m{int(self.merge_mesh)}_s{self.texture_atlas_size or 0}")

    def to_query(self) -> dict[str, str]:
        """The query parameters that ask for exactly these options."""
        q: dict[str, str] = {}
        if self.lod:
            q["lod"] = str(self.lod)
        if self.animations:
            q["animations"] = ",".join(self.animations)
        if self.texture_format:
            q["textureFormat"] = self.texture_format
        if self.merge_mesh:
            q["mergeMesh"] = "1"
        if self.texture_atlas_size:
            q["textureAtlasSize"] = str(self.texture_atlas_size)
        return q


def resolve_animations(value: str) -> tuple[str, ...]:
    """Turn an ``animations`` value into clip names, or raise naming the bad name.

    >>> resolve_animations("gestures")[:2]
    ('bow', 'clap')
    """
    v = value.strip()
    if v == "all":
        return ANIMATIONS
    if v in ("", "none"):
        return ()
    if v in ("locomotion", "locomotions"):
        return tuple(sorted(LOCOMOTION))
    if v in ("gesture", "gestures"):
        return tuple(sorted(GESTURES))
    names = [n.strip() for n in v.split(",")]
    problems = []
    for n in names:
        if n not in ANIMATIONS:
            problems.append(Problem("animations", "unknown_animation",
                                    f"{n!r} is not an animation; use all, none, locomotion(s), gesture(s) or a comma list of {', '.join(ANIMATIONS)}"))
    if problems:
        raise InvalidOptions(problems)
    return tuple(sorted(set(names), key=ANIMATIONS.index))


_LOD_TEXT = ", ".join(map(str, LODS[:-1])) + f" or {LODS[-1]}"
_ATLAS_TEXT = f"a power of 2 from {ATLAS_SIZES[0]} to {ATLAS_SIZES[-1]}"


def parse_model_options(query: Mapping[str, Any]) -> ModelOptions:
    """Check the model query (strings from a URL, or Python values) and return ModelOptions.

    >>> parse_model_options({"mergeMesh": "1", "textureAtlasSize": 512}).texture_atlas_size
    512
    >>> try:
    ...     parse_model_options({"lod": "", "animations": ""})
    ... except InvalidOptions as e:
    ...     print([(p.field, p.code) for p in e.problems])
    [('lod', 'empty_value'), ('animations', 'empty_value')]
    """
    problems: list[Problem] = []
    known = QUERY_PARAMETERS["avatars.model"]
    query = empty_values(problems, split_query(query, "avatars.model")[0], known)
    lod = 0
    if query.get("lod") is not None:
        v = as_int(problems, "lod", query["lod"], _LOD_TEXT)
        if v is not None and v not in LODS:
            problems.append(Problem("lod", "out_of_range", f"must be {_LOD_TEXT}; got {v}"))
        elif v is not None:
            lod = v
    animations: tuple[str, ...] = ()
    if query.get("animations") is not None:
        raw = query["animations"]
        if isinstance(raw, (list, tuple)):
            raw = ",".join(raw)
        try:
            animations = resolve_animations(str(raw))
        except InvalidOptions as e:
            problems.extend(e.problems)
    texture_format = choice(problems, query, "textureFormat", TEXTURE_FORMATS,
                             "must be webp or png (omit it for JPEG/PNG by material)", None)
    merge = False
    if query.get("mergeMesh") is not None:
        raw = query["mergeMesh"]
        if isinstance(raw, bool):
            merge = raw
        else:
            v = as_int(problems, "mergeMesh", raw, "0 or 1")
            if v is not None and v not in MERGE_MESH:
                problems.append(Problem("mergeMesh", "out_of_range", f"must be 0 or 1; got {v}"))
            elif v is not None:
                merge = bool(v)
    atlas = None
    if query.get("textureAtlasSize") is not None:
        v = as_int(problems, "textureAtlasSize", query["textureAtlasSize"], _ATLAS_TEXT)
        if v is not None:
            if v not in ATLAS_SIZES:
                problems.append(Problem("textureAtlasSize", "out_of_range", f"must be {_ATLAS_TEXT}; got {v}"))
            else:
                atlas = v
    if problems:
        raise InvalidOptions(problems)
    return ModelOptions(lod=lod, animations=animations, texture_format=texture_format,
                        merge_mesh=merge, texture_atlas_size=atlas)


def check_animation_path(gender: str, name: str) -> None:
    """Check an animation download's path before any file is touched (400 on failure).

    >>> check_animation_path("feminine", "walk")
    """
    problems = []
    if gender not in GENDERS:
        problems.append(Problem("gender", "unknown_gender", f"must be masculine or feminine; got {gender!r}"))
    if name not in ANIMATIONS:
        problems.append(Problem("name", "unknown_animation", f"{name!r} is not in the animation list (GET /animations)"))
    if problems:
        raise InvalidOptions(problems)
