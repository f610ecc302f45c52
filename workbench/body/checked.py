"""What the compiled body arrays (``workbench.body.compile``) must be before anything uses them.

The compiled folder sits in a user's cache, where a full disk, a crash, another version or a person can
leave anything; a wrong array there gave a 500 on every model and preview for good (issue 40, item 8).
:func:`check` holds the arrays to their layout, so the loader compiles them again instead.
"""

from __future__ import annotations

import json

import numpy as np

from ..skeleton import JOINT_NAMES


class BadCache(ValueError):
    """The compiled arrays break the layout :func:`check` holds them to; the message says where."""


# Every array kept, with its dtype kind (b bool, i signed, u unsigned, f float, U text) and how many axes.
LAYOUT = {"base": ("f", 2), "uv": ("f", 2), "quads": ("i", 2), "quad_uvs": ("i", 2), "quad_group": ("i", 1),
          "face_group_names": ("U", 1), "group_names": ("U", 1), "group_offsets": ("i", 1), "group_index": ("i", 1),
          "target_names": ("U", 1), "target_offsets": ("i", 1), "target_index": ("i", 1), "target_delta": ("f", 2),
          "rig": ("U", 0), "skin_joints": ("u", 2), "skin_weights": ("f", 2)}
KEYS = tuple(LAYOUT)
# MakeHuman's face units: one per ARKit shape (workbench.body.face.ARKIT).
FACE_UNITS_KEPT = 52


def check(data: dict[str, np.ndarray], targets: list[str]) -> None:
    """Raise :class:`BadCache` unless ``data`` has the layout of ``workbench.body.compile``: the keys, kinds
    and shapes, indices in range, finite numbers, offsets that cut their tables, the ``targets`` named and
    the face units, a rig on existing vertices.

    >>> from workbench.body import compile as cc
    >>> bad = dict(cc.compiled()); bad["quads"] = bad["quads"] + 100_000
    >>> try:
    ...     cc.check(bad)
    ... except BadCache as e:
    ...     print(e)
    quads holds indices outside 0..19157
    """
    if sorted(data) != sorted(KEYS):
        raise BadCache(f"its arrays are {sorted(data)}, not {sorted(KEYS)}")
    for name, (kind, axes) in LAYOUT.items():
        a = data[name]
        if a.dtype.kind != kind or a.ndim != axes:
            raise BadCache(f"{name} is {a.dtype} with {a.ndim} axes, not kind {kind!r} with {axes}")
        if kind == "f" and not np.isfinite(a).all():
            raise BadCache(f"{name} holds numbers that are not finite")
    vertices, uvs, quads = len(data["base"]), len(data["uv"]), len(data["quads"])
    _shape(data, "base", (vertices, 3))
    _shape(data, "uv", (uvs, 2))
    for name, columns in (("quads", 4), ("quad_uvs", 4), ("skin_joints", 4), ("skin_weights", 4)):
        _shape(data, name, (quads if name.startswith("quad") else vertices, columns))
    _shape(data, "quad_group", (quads,))
    _in_range(data, "quads", vertices)
    _in_range(data, "quad_uvs", uvs)
    _in_range(data, "quad_group", len(data["face_group_names"]))
    _in_range(data, "skin_joints", len(JOINT_NAMES))
    if (data["skin_weights"] < 0).any() or not np.allclose(data["skin_weights"].sum(axis=1), 1, atol=1e-3):
        raise BadCache("skin_weights has rows that are negative or do not sum to 1")
    for table in ("group", "target"):
        _ragged_check(data, table, vertices)
    names = [str(n) for n in data["target_names"]]
    missing = sorted(set(targets) - set(names))
    face = [n for n in names if n.startswith("face/")]
    if missing or len(face) != FACE_UNITS_KEPT or len(set(names)) != len(names):
        raise BadCache(f"target_names lacks {missing[:3]} or has {len(face)} face units, not {FACE_UNITS_KEPT}")
    _rig_check(str(data["rig"]), vertices)


def _shape(data: dict, name: str, shape: tuple) -> None:
    if data[name].shape != shape:
        raise BadCache(f"{name} has the shape {data[name].shape}, not {shape}")


def _in_range(data: dict, name: str, size: int) -> None:
    a = data[name]
    if a.size and (int(a.min()) < 0 or int(a.max()) >= size):
        raise BadCache(f"{name} holds indices outside 0..{size - 1}")


def _ragged_check(data: dict, table: str, vertices: int) -> None:
    names, offsets, index = data[f"{table}_names"], data[f"{table}_offsets"], data[f"{table}_index"]
    if (len(offsets) != len(names) + 1 or offsets[0] != 0 or offsets[-1] != len(index)
            or (np.diff(offsets) < 0).any()):
        raise BadCache(f"{table}_offsets do not cut {table}_index into its {len(names)} entries")
    _in_range(data, f"{table}_index", vertices)
    if table == "target":
        _shape(data, "target_delta", (len(index), 3))


def _rig_check(text: str, vertices: int) -> None:
    try:
        bones = json.loads(text)
        ends = [v for b in bones.values() for v in (b["head"], b["tail"])]
        parents = {b["parent"] for b in bones.values()}
    except (ValueError, TypeError, KeyError, AttributeError):
        raise BadCache("rig is not a table of bones with a parent, a head and a tail") from None
    if not set(bones) <= set(JOINT_NAMES) or not parents <= set(bones) | {""}:
        raise BadCache("rig names bones the skeleton lacks")
    if not all(isinstance(e, list) and e and all(isinstance(i, int) and 0 <= i < vertices for i in e) for e in ends):
        raise BadCache(f"rig places a bone on vertices outside 0..{vertices - 1}")
