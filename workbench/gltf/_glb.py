"""The GLB container: a small deterministic writer and a reader, shared by every GLB operation.

The writer appends typed numpy arrays to one binary buffer (4-byte aligned, as glTF
requires for vertex data) and records accessors with the ``min``/``max`` the
validator wants; ``to_bytes`` emits the JSON chunk with a fixed key order, so the
same document always gives the same bytes.

>>> w = GlbWriter()
>>> w.accessor(np.zeros((3, 3), np.float32), "VEC3", target=ARRAY_BUFFER, minmax=True)
0
>>> doc, binary = read_glb(w.to_bytes())
>>> doc["accessors"][0]["count"], len(binary)
(3, 36)
"""

from __future__ import annotations

import json
import struct

import numpy as np

ARRAY_BUFFER = 34962
ELEMENT_ARRAY_BUFFER = 34963

_COMPONENT = {
    np.dtype(np.int8): 5120,
    np.dtype(np.uint8): 5121,
    np.dtype(np.int16): 5122,
    np.dtype(np.uint16): 5123,
    np.dtype(np.uint32): 5125,
    np.dtype(np.float32): 5126,
}
_GLB_MAGIC = 0x46546C67
_JSON_CHUNK = 0x4E4F534A
_BIN_CHUNK = 0x004E4942


class GlbWriter:
    """Collects a glTF JSON document and its one binary buffer."""

    def __init__(self) -> None:
        self.doc: dict = {"asset": {"version": "2.0", "generator": "workbench.gltf"}}
        self._chunks: list[bytes] = []
        self._length = 0

    def _list(self, key: str) -> list:
        return self.doc.setdefault(key, [])

    def add(self, key: str, item: dict) -> int:
        """Append ``item`` to the top-level array ``key`` and return its index."""
        items = self._list(key)
        items.append(item)
        return len(items) - 1

    def buffer_view(self, data: bytes, target: int | None = None) -> int:
        pad = (-self._length) % 4
        if pad:
            self._chunks.append(b"\0" * pad)
            self._length += pad
        view = {"buffer": 0, "byteOffset": self._length, "byteLength": len(data)}
        if target is not None:
            view["target"] = target
        self._chunks.append(data)
        self._length += len(data)
        return self.add("bufferViews", view)

    def accessor(self, array: np.ndarray, type_: str, target: int | None = None,
                 minmax: bool = False, normalized: bool = False) -> int:
        """Store ``array`` (rows are elements) in its own buffer view; return the accessor index."""
        array = np.ascontiguousarray(array)
        view = self.buffer_view(array.tobytes(), target)
        count = array.shape[0]
        acc = {"bufferView": view, "componentType": _COMPONENT[array.dtype], "count": int(count), "type": type_}
        if normalized:
            acc["normalized"] = True
        if minmax:
            flat = array.reshape(count, -1)
            if array.dtype.kind == "f":
                acc["min"] = [float(v) for v in flat.min(axis=0)]
                acc["max"] = [float(v) for v in flat.max(axis=0)]
            else:
                acc["min"] = [int(v) for v in flat.min(axis=0)]
                acc["max"] = [int(v) for v in flat.max(axis=0)]
        return self.add("accessors", acc)

    def image(self, data: bytes, mime: str, name: str | None = None) -> int:
        view = self.buffer_view(data)
        img = {"bufferView": view, "mimeType": mime}
        if name:
            img["name"] = name
        return self.add("images", img)

    def to_bytes(self) -> bytes:
        binary = b"".join(self._chunks)
        binary += b"\0" * ((-len(binary)) % 4)
        if binary:
            self.doc["buffers"] = [{"byteLength": len(binary)}]
        return pack_glb(self.doc, binary)


def pack_glb(doc: dict, binary: bytes, *, sort_keys: bool = False) -> bytes:
    """The GLB container of ``doc`` and ``binary``: compact JSON padded with spaces, the binary
    chunk padded with zeros, both to 4 bytes as the spec requires. The one GLB packer of the project.

    >>> pack_glb({"asset": {"version": "2.0"}}, b"")[:4]
    b'glTF'
    """
    text = json.dumps(doc, separators=(",", ":"), ensure_ascii=False, sort_keys=sort_keys).encode("utf-8")
    text += b" " * ((-len(text)) % 4)
    binary = bytes(binary) + b"\0" * ((-len(binary)) % 4)
    total = 12 + 8 + len(text) + (8 + len(binary) if binary else 0)
    out = [struct.pack("<III", _GLB_MAGIC, 2, total), struct.pack("<II", len(text), _JSON_CHUNK), text]
    if binary:
        out += [struct.pack("<II", len(binary), _BIN_CHUNK), binary]
    return b"".join(out)


def read_glb(data: bytes) -> tuple[dict, bytes]:
    """Split GLB bytes into the JSON document and the binary chunk (empty if none)."""
    if len(data) < 20:
        raise ValueError("read_glb: too short to be a GLB file")
    magic, version, total = struct.unpack_from("<III", data, 0)
    if magic != _GLB_MAGIC:
        raise ValueError("read_glb: not a GLB file (bad magic)")
    if version != 2:
        raise ValueError(f"read_glb: GLB version {version} is not 2")
    json_len, json_type = struct.unpack_from("<II", data, 12)
    if json_type != _JSON_CHUNK:
        raise ValueError("read_glb: the first chunk is not JSON")
    doc = json.loads(data[20:20 + json_len].decode("utf-8"))
    binary = b""
    pos = 20 + json_len
    if pos + 8 <= min(total, len(data)):
        bin_len, bin_type = struct.unpack_from("<II", data, pos)
        if bin_type == _BIN_CHUNK:
            binary = data[pos + 8:pos + 8 + bin_len]
    return doc, binary


def read_accessor(doc: dict, binary: bytes, index: int) -> np.ndarray:
    """Read a (tightly packed) accessor back as a numpy array of shape (count, components)."""
    acc = doc["accessors"][index]
    view = doc["bufferViews"][acc["bufferView"]]
    dtype = {v: k for k, v in _COMPONENT.items()}[acc["componentType"]]
    ncomp = {"SCALAR": 1, "VEC2": 2, "VEC3": 3, "VEC4": 4, "MAT4": 16}[acc["type"]]
    start = view.get("byteOffset", 0) + acc.get("byteOffset", 0)
    arr = np.frombuffer(binary, dtype=dtype, count=acc["count"] * ncomp, offset=start)
    return arr.reshape(acc["count"], ncomp)
