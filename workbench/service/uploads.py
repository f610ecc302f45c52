"""Checks of uploaded space template files: a GLB bundle, or a splat (.ply or .splat).

Each check reads the file's structure for real and returns the problems found
(an empty list means the file is good).

>>> check_upload("splat", "x.splat", b"\\0" * 64)
[]
>>> check_upload("glb", "x.glb", b"nope")
['the file is 4 bytes, shorter than a GLB header (12 bytes) and one chunk header']
"""

from __future__ import annotations

import json
import struct

GLB_MAGIC = b"glTF"
CHUNK_JSON = 0x4E4F534A
CHUNK_BIN = 0x004E4942
_COMPONENT_SIZE = {5120: 1, 5121: 1, 5122: 2, 5123: 2, 5125: 4, 5126: 4}
_TYPE_COUNT = {"SCALAR": 1, "VEC2": 2, "VEC3": 3, "VEC4": 4, "MAT2": 4, "MAT3": 9, "MAT4": 16}

SPLAT_PLY_PROPERTIES = ("x", "y", "z", "opacity", "scale_0", "scale_1", "scale_2",
                        "rot_0", "rot_1", "rot_2", "rot_3", "f_dc_0", "f_dc_1", "f_dc_2")
_PLY_TYPES = {"char": 1, "uchar": 1, "int8": 1, "uint8": 1, "short": 2, "ushort": 2, "int16": 2, "uint16": 2,
              "int": 4, "uint": 4, "int32": 4, "uint32": 4, "float": 4, "float32": 4, "double": 8, "float64": 8}


def check_glb(data: bytes) -> list[str]:
    """Problems of a glTF 2.0 binary: header, chunks, JSON, and every view and accessor inside its buffer."""
    if len(data) < 20:
        return [f"the file is {len(data)} bytes, shorter than a GLB header (12 bytes) and one chunk header"]
    magic, version, length = struct.unpack_from("<4sII", data, 0)
    if magic != GLB_MAGIC:
        return ["the file does not start with the GLB magic 'glTF'"]
    if version != 2:
        return [f"the GLB version is {version}, not 2"]
    if length != len(data):
        return [f"the GLB header says {length} bytes but the file has {len(data)}"]
    chunks = []
    offset = 12
    while offset < len(data):
        if offset + 8 > len(data):
            return ["a chunk header is cut off at the end of the file"]
        clen, ctype = struct.unpack_from("<II", data, offset)
        if clen % 4:
            return [f"chunk {len(chunks)} has length {clen}, not a multiple of 4"]
        if offset + 8 + clen > len(data):
            return [f"chunk {len(chunks)} runs past the end of the file"]
        chunks.append((ctype, data[offset + 8: offset + 8 + clen]))
        offset += 8 + clen
    if not chunks or chunks[0][0] != CHUNK_JSON:
        return ["the first chunk is not the JSON chunk"]
    try:
        doc = json.loads(chunks[0][1].decode("utf-8"))
    except UnicodeDecodeError as e:
        return [f"the JSON chunk is not UTF-8 (byte {e.start})"]
    except (ValueError, RecursionError) as e:
        where = f" at line {e.lineno}, column {e.colno}" if isinstance(e, json.JSONDecodeError) else ""
        return [f"the JSON chunk is not valid JSON{where}"]
    if not isinstance(doc, dict):
        return ["the JSON chunk is not an object"]
    problems = []
    if (doc.get("asset") or {}).get("version") != "2.0":
        problems.append("asset.version is not '2.0'")
    bin_chunk = chunks[1][1] if len(chunks) > 1 and chunks[1][0] == CHUNK_BIN else None
    buffers = doc.get("buffers") or []
    sizes = []
    for i, b in enumerate(buffers):
        n = b.get("byteLength", 0) if isinstance(b, dict) else 0
        if i == 0 and "uri" not in b:
            if bin_chunk is None:
                problems.append("buffers[0] has no uri but the file has no BIN chunk")
            elif n > len(bin_chunk):
                problems.append(f"buffers[0].byteLength {n} is larger than the BIN chunk ({len(bin_chunk)})")
        sizes.append(n)
    views = doc.get("bufferViews") or []
    for i, v in enumerate(views):
        b = v.get("buffer", -1)
        if not 0 <= b < len(sizes):
            problems.append(f"bufferViews[{i}].buffer {b} does not exist")
        elif v.get("byteOffset", 0) + v.get("byteLength", 0) > sizes[b]:
            problems.append(f"bufferViews[{i}] runs past the end of buffers[{b}]")
    for i, a in enumerate(doc.get("accessors") or []):
        if "bufferView" not in a:
            continue
        v = a["bufferView"]
        if not 0 <= v < len(views):
            problems.append(f"accessors[{i}].bufferView {v} does not exist")
            continue
        elem = _COMPONENT_SIZE.get(a.get("componentType"), 0) * _TYPE_COUNT.get(a.get("type"), 0)
        if not elem:
            problems.append(f"accessors[{i}] has an unknown componentType or type")
            continue
        stride = views[v].get("byteStride") or elem
        need = a.get("byteOffset", 0) + stride * (a.get("count", 0) - 1) + elem if a.get("count", 0) else 0
        if need > views[v].get("byteLength", 0):
            problems.append(f"accessors[{i}] runs past the end of bufferViews[{v}]")
    for i, node in enumerate(doc.get("nodes") or []):
        if "mesh" in node and not 0 <= node["mesh"] < len(doc.get("meshes") or []):
            problems.append(f"nodes[{i}].mesh does not exist")
    return problems[:20]


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
