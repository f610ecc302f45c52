"""Checks of uploaded space template files: a GLB bundle, or a splat (.ply or .splat).

Each check reads the file's structure for real and returns the problems found
(an empty list means the file is good).

>>> check_upload("splat", "x.splat", b"\\0" * 64)
[]
>>> check_upload("glb", "x.glb", b"nope")
['the file is 4 bytes, shorter than a GLB header (12 bytes) and one chunk header']
"""

from __future__ import annotations

import re

from workbench.service.upload_glb import check_glb

__all__ = ["check_upload", "check_glb", "check_ply", "check_splat", "SPLAT_PLY_PROPERTIES"]

SPLAT_PLY_PROPERTIES = ("x", "y", "z", "opacity", "scale_0", "scale_1", "scale_2",
                        "rot_0", "rot_1", "rot_2", "rot_3", "f_dc_0", "f_dc_1", "f_dc_2")
_PLY_TYPES = {"char": 1, "uchar": 1, "int8": 1, "uint8": 1, "short": 2, "ushort": 2, "int16": 2, "uint16": 2,
              "int": 4, "uint": 4, "int32": 4, "uint32": 4, "float": 4, "float32": 4, "double": 8, "float64": 8}


_PLY_COUNT = re.compile(r"[0-9]{1,15}")  # more elements than any file could hold is still a number we can read


def check_ply(data: bytes) -> list[str]:
    """Problems of a Gaussian-splat PLY: the header's vertex element and its properties, and the body's size."""
    end = data.find(b"end_header")
    if not data.startswith(b"ply") or end < 0:
        return ["the file is not a PLY (no 'ply' magic or no end_header)"]
    nl = data.find(b"\n", end)
    body = data[nl + 1:] if nl >= 0 else b""
    try:
        header = data[:end].decode("ascii").splitlines()
    except UnicodeDecodeError:
        return ["the PLY header is not ASCII"]
    fmt = None
    elements: list[tuple[str, int, list[tuple[str, str]]]] = []
    for line in header[1:]:
        parts = line.split()
        if not parts or parts[0] in ("comment", "obj_info"):
            continue
        if parts[0] == "format" and len(parts) >= 2:
            fmt = parts[1]
        elif parts[0] == "element" and len(parts) == 3 and parts[2].isdigit():
            if not _PLY_COUNT.fullmatch(parts[2]):  # str.isdigit takes '²' and numbers int() refuses to convert
                return [f"the PLY element {parts[1]!r} has a count that is not a whole number of at most 15 digits"]
            elements.append((parts[1], int(parts[2]), []))
        elif parts[0] == "property" and elements:
            if parts[1] == "list":
                elements[-1][2].append(("list", parts[-1]))
            elif len(parts) == 3:
                elements[-1][2].append((parts[1], parts[2]))
    if fmt not in ("binary_little_endian", "binary_big_endian", "ascii"):
        return [f"the PLY format is {fmt!r}, not binary_little_endian, binary_big_endian or ascii"]
    vertex = next((e for e in elements if e[0] == "vertex"), None)
    if vertex is None:
        return ["the PLY has no vertex element"]
    names = [n for _, n in vertex[2]]
    missing = [p for p in SPLAT_PLY_PROPERTIES if p not in names]
    if missing:
        return [f"the vertex element lacks the splat properties {', '.join(missing)}"]
    if vertex[1] == 0:
        return ["the vertex element has 0 splats"]
    if fmt == "ascii":
        rows = [r for r in body.decode("ascii", "replace").splitlines() if r.strip()]
        if len(rows) < vertex[1]:
            return [f"the header promises {vertex[1]} vertices but the body has {len(rows)} rows"]
        return []
    if any(t == "list" for t, _ in vertex[2]) or any(t not in _PLY_TYPES for t, _ in vertex[2]):
        return ["the vertex element has list or unknown property types"]
    stride = sum(_PLY_TYPES[t] for t, _ in vertex[2])
    before = 0
    for name, count, props in elements:
        if name == "vertex":
            break
        before += count * sum(_PLY_TYPES.get(t, 0) for t, _ in props)
    if len(body) < before + stride * vertex[1]:
        return [f"the body has {len(body)} bytes, fewer than {vertex[1]} vertices of {stride} bytes need"]
    return []


def check_splat(data: bytes) -> list[str]:
    """Problems of a .splat file: a whole number of 32-byte records, at least one."""
    if not data:
        return ["the .splat file is empty"]
    if len(data) % 32:
        return [f"the .splat file has {len(data)} bytes, not a whole number of 32-byte records"]
    return []


def check_upload(kind: str, filename: str | None, data: bytes | None) -> list[str]:
    """Problems of a template's uploaded file for its kind (glb or splat)."""
    if data is None or filename is None:
        return ["no file was uploaded for this template"]
    name = filename.lower()
    if kind == "glb":
        if not name.endswith(".glb"):
            return [f"a GLB bundle template needs a .glb file; got {filename!r}"]
        return check_glb(data)
    if name.endswith(".ply"):
        return check_ply(data)
    if name.endswith(".splat"):
        return check_splat(data)
    return [f"a splat template needs a .ply or .splat file; got {filename!r}"]
