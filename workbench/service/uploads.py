"""Checks of uploaded space template files: a GLB bundle, or a splat (.ply or .splat).

Each check reads the file's structure for real and returns the problems found
(an empty list means the file is good).

>>> check_upload("splat", "x.splat", b"\\0" * 64)
[]
>>> check_upload("glb", "x.glb", b"nope")
['the file is 4 bytes, shorter than a GLB header (12 bytes) and one chunk header']
"""

from __future__ import annotations

import math
import re

SPLAT_PLY_PROPERTIES = ("x", "y", "z", "opacity", "scale_0", "scale_1", "scale_2",
                        "rot_0", "rot_1", "rot_2", "rot_3", "f_dc_0", "f_dc_1", "f_dc_2")
_PLY_TYPES = {"char": 1, "uchar": 1, "int8": 1, "uint8": 1, "short": 2, "ushort": 2, "int16": 2, "uint16": 2,
              "int": 4, "uint": 4, "int32": 4, "uint32": 4, "float": 4, "float32": 4, "double": 8, "float64": 8}


def check_glb(data: bytes) -> list[str]:
    """Problems of a glTF 2.0 binary: header, chunks, JSON, and every view and accessor inside its buffer."""
    # Imported here: the GLB module brings numpy and the gltf package, which the service's start does not need.
    from workbench.gltf.glb import COMPONENT_DTYPES, TYPE_WIDTHS, GlbError, read_glb

    try:
        doc, binary = read_glb(data, strict=True)  # the one reader of the GLB layout, in its strict mode
    except GlbError as e:
        return [e.problem]
    bin_chunk = binary or None
    problems = []
    if _not_finite(doc):  # Python's decoder takes NaN, Infinity and 1e999; JSON (RFC 8259) and glTF do not
        problems.append("the JSON chunk holds NaN or Infinity (or a number past a double's range), which JSON does not allow")
    asset = doc.get("asset")
    if not isinstance(asset, dict) or asset.get("version") != "2.0":
        problems.append("asset.version is not '2.0'")
    # A hostile file can put any JSON value anywhere: every field is read through _objects and
    # _count, so a wrong type is a problem to report, never an exception.
    buffers = _objects(problems, doc, "buffers")
    sizes = []
    for i, b in enumerate(buffers):
        n = _count(problems, b, "byteLength", f"buffers[{i}]")
        if i == 0 and b is not None and "uri" not in b:
            if bin_chunk is None:
                problems.append("buffers[0] has no uri but the file has no BIN chunk")
            elif n > len(bin_chunk):
                problems.append(f"buffers[0].byteLength {n} is larger than the BIN chunk ({len(bin_chunk)})")
        sizes.append(n)
    views = _objects(problems, doc, "bufferViews")
    view_lengths = []
    for i, v in enumerate(views):
        where = f"bufferViews[{i}]"
        b = _count(problems, v, "buffer", where, default=-1)
        length = _count(problems, v, "byteLength", where)
        view_lengths.append(length)
        if not 0 <= b < len(sizes):
            problems.append(f"{where}.buffer does not name one of the {len(sizes)} buffers")
        elif _count(problems, v, "byteOffset", where) + length > sizes[b]:
            problems.append(f"{where} runs past the end of buffers[{b}]")
    for i, a in enumerate(_objects(problems, doc, "accessors")):
        where = f"accessors[{i}]"
        if a is None or "bufferView" not in a:
            continue
        v = _count(problems, a, "bufferView", where, default=-1)
        if not 0 <= v < len(views):
            problems.append(f"{where}.bufferView does not name one of the {len(views)} buffer views")
            continue
        ctype, atype = a.get("componentType"), a.get("type")
        dtype = COMPONENT_DTYPES.get(ctype) if type(ctype) is int else None
        width = TYPE_WIDTHS.get(atype, 0) if isinstance(atype, str) else 0
        if dtype is None or not width:
            problems.append(f"{where} has an unknown componentType or type")
            continue
        elem = dtype.itemsize * width
        stride = _count(problems, views[v], "byteStride", f"bufferViews[{v}]") or elem
        count = _count(problems, a, "count", where)
        need = _count(problems, a, "byteOffset", where) + stride * (count - 1) + elem if count else 0
        if need > view_lengths[v]:
            problems.append(f"{where} runs past the end of bufferViews[{v}]")
    meshes = _objects(problems, doc, "meshes")
    for i, node in enumerate(_objects(problems, doc, "nodes")):
        if node is not None and "mesh" in node and not 0 <= _count(problems, node, "mesh", f"nodes[{i}]", default=-1) < len(meshes):
            problems.append(f"nodes[{i}].mesh does not exist")
    return problems[:20]


def _not_finite(doc) -> bool:
    """Whether some number of the decoded JSON ``doc`` is NaN or infinite."""
    stack = [doc]
    while stack:
        v = stack.pop()
        if isinstance(v, float) and not math.isfinite(v):
            return True
        if isinstance(v, dict):
            stack.extend(v.values())
        elif isinstance(v, list):
            stack.extend(v)
    return False


def _objects(problems: list[str], doc: dict, name: str) -> list[dict | None]:
    """``doc[name]`` as a list whose entries are objects (None where an entry is not one, reported)."""
    value = doc.get(name, [])
    if not isinstance(value, list):
        problems.append(f"{name} is not an array")
        return []
    out = []
    for i, item in enumerate(value):
        if not isinstance(item, dict):
            problems.append(f"{name}[{i}] is not an object")
        out.append(item if isinstance(item, dict) else None)
    return out


def _count(problems: list[str], obj: dict | None, key: str, where: str, default: int = 0) -> int:
    """``obj[key]`` as a non-negative integer, or ``default`` (a wrong type or sign is reported)."""
    value = (obj or {}).get(key, default)
    if type(value) is not int or (value < 0 and value != default):
        problems.append(f"{where}.{key} is not a non-negative integer")
        return default
    return value


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
