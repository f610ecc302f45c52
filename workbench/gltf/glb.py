"""The GLB container: the one module that knows glTF's binary layout (writer, reader, component types).

Everything in the project that writes or reads GLB bytes goes through here: the avatar and
animation builders, the viewers' product and space scenes and the renderer's test rigs, the
renderer, ``inspect`` and ``tracks``; the service's upload check reads its constants and tables.

- :class:`GlbWriter` collects a glTF document and its one binary buffer: typed numpy arrays
  become accessors in 4-byte aligned buffer views (``min``/``max`` where the validator wants
  them), plus helpers for textures, materials, primitives, meshes, nodes, skins, animations
  and scenes. ``to_bytes`` packs it.
- :func:`pack_glb` and :func:`read_glb` write and split the container; :func:`read_accessor`
  reads any accessor back (interleaved views with ``byteStride``, sparse accessors,
  ``normalized`` integers as floats); :func:`image_bytes` gives an embedded image's bytes.
- :data:`COMPONENT_DTYPES` and :data:`TYPE_WIDTHS` are the tables of glTF 2.0 (section 3.6.2).

The same calls give the same bytes: the JSON keys keep their order of insertion (or are sorted
with ``sort_keys=True``, as the viewers' files always were), and nothing depends on time.

Notes. Our packer stays (rather than pygltflib's ``GLTF2.save_to_bytes``) because it is
measurably faster on the same document (``bench/glb.py``, figures in ``bench/RESULTS.md``):
pygltflib takes 8 to 56 times as long from a document already held as its objects, and 200 to
940 times as long from the dict our builders make (its ``from_dict``); and ours keeps our key
order, so the bytes stay what they were. pygltflib serves users instead: ``Model.gltf`` on the
client's results, and the round-trip tests (``tests/gltf/test_glb.py``) that load our files
with it and read its files with ours.

>>> w = GlbWriter()
>>> w.accessor(np.zeros((3, 3), np.float32), "VEC3", target=ARRAY_BUFFER, minmax=True)
0
>>> doc, binary = read_glb(w.to_bytes())
>>> doc["accessors"][0]["count"], len(binary), read_accessor(doc, binary, 0).shape
(3, 36, (3, 3))
"""

from __future__ import annotations

import base64
import json
import struct

import numpy as np

__all__ = [
    "GlbWriter",
    "pack_glb",
    "read_glb",
    "GlbError",
    "read_accessor",
    "image_bytes",
    "COMPONENT_DTYPES",
    "COMPONENT_TYPE_OF",
    "TYPE_WIDTHS",
    "ARRAY_BUFFER",
    "ELEMENT_ARRAY_BUFFER",
    "GLB_MAGIC",
    "CHUNK_JSON",
    "CHUNK_BIN",
    "EXT_TEXTURE_WEBP",
]

# glTF 2.0, 3.6.2: accessor component types (all little-endian) and the width of each element type.
COMPONENT_DTYPES: dict[int, np.dtype] = {
    5120: np.dtype("<i1"),
    5121: np.dtype("<u1"),
    5122: np.dtype("<i2"),
    5123: np.dtype("<u2"),
    5125: np.dtype("<u4"),
    5126: np.dtype("<f4"),
}
COMPONENT_TYPE_OF: dict[np.dtype, int] = {dtype: ctype for ctype, dtype in COMPONENT_DTYPES.items()}
TYPE_WIDTHS = {"SCALAR": 1, "VEC2": 2, "VEC3": 3, "VEC4": 4, "MAT2": 4, "MAT3": 9, "MAT4": 16}
_TYPE_OF_WIDTH = {1: "SCALAR", 2: "VEC2", 3: "VEC3", 4: "VEC4", 9: "MAT3", 16: "MAT4"}

ARRAY_BUFFER = 34962             # bufferView.target of vertex attributes
ELEMENT_ARRAY_BUFFER = 34963     # ... and of indices
_LINEAR, _LINEAR_MIPMAP_LINEAR = 9729, 9987
_REPEAT, _CLAMP_TO_EDGE = 10497, 33071
_RESTART_U16 = 65535             # the largest uint16 is the primitive restart value, never an index

GLB_MAGIC = b"glTF"
CHUNK_JSON = 0x4E4F534A
CHUNK_BIN = 0x004E4942
EXT_TEXTURE_WEBP = "EXT_texture_webp"


# --------------------------------------------------------------------------
# Writing
# --------------------------------------------------------------------------

class GlbWriter:
    """Collects a glTF JSON document and its one binary buffer; ``to_bytes`` writes the GLB.

    Every ``add``-style method returns the new item's index in its top-level array.
    ``sort_keys`` writes the JSON with sorted keys (the viewers' files); otherwise keys stay in
    the order they were first set.

    >>> w = GlbWriter("example")
    >>> red = w.material("red", (1, 0, 0, 1))
    >>> tri = w.mesh("tri", [w.primitive(positions=[[0, 0, 0], [1, 0, 0], [0, 1, 0]], indices=[0, 1, 2], material=red)])
    >>> w.scene([w.node("tri", mesh=tri)])
    0
    >>> glb = w.to_bytes()
    >>> glb[:4], read_glb(glb)[0]["meshes"][0]["primitives"][0]["attributes"]
    (b'glTF', {'POSITION': 0})
    """

    def __init__(self, generator: str = "workbench.gltf", *, sort_keys: bool = False) -> None:
        self.doc: dict = {"asset": {"version": "2.0", "generator": generator}}
        self.sort_keys = sort_keys
        self._chunks: list[bytes] = []
        self._length = 0

    def add(self, key: str, item: dict) -> int:
        """Append ``item`` to the top-level array ``key`` and return its index."""
        items = self.doc.setdefault(key, [])
        items.append(item)
        return len(items) - 1

    def view(self, data: bytes, target: int | None = None) -> int:
        """Append ``data`` as a buffer view starting on a 4-byte boundary; return its index."""
        pad = (-self._length) % 4
        if pad:
            self._chunks.append(b"\0" * pad)
            self._length += pad
        view = {"buffer": 0, "byteOffset": self._length, "byteLength": len(data)}
        if target is not None:
            view["target"] = target
        self._chunks.append(bytes(data))
        self._length += len(data)
        return self.add("bufferViews", view)

    def accessor(self, array, type_: str | None = None, target: int | None = None, *,
                 minmax: bool = False, normalized: bool = False) -> int:
        """Store ``array`` (one row per element) in its own buffer view; return the accessor index.

        ``type_`` defaults from the row width (1 SCALAR, 2 VEC2, 3 VEC3, 4 VEC4, 9 MAT3, 16 MAT4).
        float64 is stored as float32 (glTF has no doubles); other dtypes must be a component type.

        >>> w = GlbWriter()
        >>> w.accessor(np.arange(4, dtype=np.uint16), minmax=True), w.doc["accessors"][0]["max"]
        (0, [3])
        """
        array = np.asarray(array)
        if array.dtype == np.float64:
            array = array.astype(np.float32)
        if array.ndim == 1:
            array = array[:, None]
        array = np.ascontiguousarray(array.reshape(len(array), -1))
        ctype = COMPONENT_TYPE_OF.get(array.dtype)
        if ctype is None:
            raise ValueError(f"GlbWriter.accessor: dtype {array.dtype} is not a glTF component type "
                             "(int8, uint8, int16, uint16, uint32, float32)")
        count, width = array.shape
        acc = {"bufferView": self.view(array.tobytes(), target), "componentType": ctype, "count": int(count),
               "type": type_ or _TYPE_OF_WIDTH[width]}
        if normalized:
            acc["normalized"] = True
        if minmax:
            number = float if array.dtype.kind == "f" else int
            acc["min"] = [number(v) for v in array.min(axis=0)]
            acc["max"] = [number(v) for v in array.max(axis=0)]
        return self.add("accessors", acc)

    def sparse_accessor(self, count: int, rows, values, type_: str = "VEC3") -> int:
        """A float accessor of ``count`` elements, zero but for ``values`` at ``rows`` (glTF 3.6.2.3,
        sparse accessors: no base buffer view, the indices and the values each in a view of their own);
        with no rows, an accessor with neither (all zeros). Always with ``min``/``max`` of the whole
        array, as a morph target's POSITION needs.

        >>> w = GlbWriter()
        >>> a = w.sparse_accessor(4, [2], np.array([[0.0, 1.0, -1.0]], np.float32))
        >>> doc, binary = read_glb(w.to_bytes())
        >>> read_accessor(doc, binary, a)[2].tolist(), doc["accessors"][a]["min"]
        ([0.0, 1.0, -1.0], [0.0, 0.0, -1.0])
        """
        rows = np.asarray(rows).reshape(-1)
        width = TYPE_WIDTHS[type_]
        values = np.asarray(values, np.float32).reshape(len(rows), width)
        acc: dict = {"componentType": COMPONENT_TYPE_OF[np.dtype("<f4")], "count": int(count), "type": type_}
        low = np.minimum(values.min(axis=0), 0.0) if len(rows) else np.zeros(width)
        high = np.maximum(values.max(axis=0), 0.0) if len(rows) else np.zeros(width)
        if len(rows) and len(rows) == count:   # every element set: the zeros never show
            low, high = values.min(axis=0), values.max(axis=0)
        if len(rows):
            order = np.argsort(rows, kind="stable")   # sparse indices must strictly increase
            index_type = np.uint16 if count <= 65535 else np.uint32
            acc["sparse"] = {
                "count": int(len(rows)),
                "indices": {"bufferView": self.view(rows[order].astype(index_type).tobytes()),
                            "componentType": COMPONENT_TYPE_OF[np.dtype(index_type).newbyteorder("<")]},
                "values": {"bufferView": self.view(np.ascontiguousarray(values[order]).tobytes())},
            }
        acc["min"] = [float(v) for v in low]
        acc["max"] = [float(v) for v in high]
        return self.add("accessors", acc)

    def indices(self, indices, vertex_count: int | None = None) -> int:
        """Triangle indices as one SCALAR accessor: uint16 when every vertex fits below 65535
        (``vertex_count``, by default the largest index + 1), else uint32."""
        flat = np.asarray(indices).reshape(-1)
        if vertex_count is None:
            vertex_count = int(flat.max(initial=-1)) + 1
        dtype = np.uint16 if vertex_count < _RESTART_U16 else np.uint32
        return self.accessor(flat.astype(dtype), "SCALAR", ELEMENT_ARRAY_BUFFER)

    def image(self, data: bytes, mime: str = "image/png", name: str | None = None) -> int:
        """An image embedded in a buffer view."""
        img = {"bufferView": self.view(data), "mimeType": mime}
        if name:
            img["name"] = name
        return self.add("images", img)

    def sampler(self, *, repeat: bool = True, mipmaps: bool = True) -> int:
        """The (shared) trilinear sampler that repeats or clamps to the edge; without ``mipmaps``, bilinear from
        the full-size image alone (a viewer then makes no smaller levels for it)."""
        wrap = _REPEAT if repeat else _CLAMP_TO_EDGE
        sampler = {"magFilter": _LINEAR, "minFilter": _LINEAR_MIPMAP_LINEAR if mipmaps else _LINEAR,
                   "wrapS": wrap, "wrapT": wrap}
        samplers = self.doc.get("samplers", [])
        if sampler in samplers:
            return samplers.index(sampler)
        return self.add("samplers", sampler)

    def texture(self, data: bytes, mime: str = "image/png", *, name: str | None = None, repeat: bool = True,
                mipmaps: bool = True) -> int:
        """A texture of one embedded image (PNG, JPEG, or WebP through ``EXT_texture_webp``,
        which becomes a required extension) and the shared sampler (:meth:`sampler`'s ``repeat`` and ``mipmaps``)."""
        sampler = self.sampler(repeat=repeat, mipmaps=mipmaps)
        image = self.image(data, mime, name)
        tex: dict = {"sampler": sampler}
        webp = mime == "image/webp"
        if webp:
            tex["extensions"] = {EXT_TEXTURE_WEBP: {"source": image}}
        else:
            tex["source"] = image
        if name:
            tex["name"] = name
        index = self.add("textures", tex)
        if webp:
            self.use_extension(EXT_TEXTURE_WEBP, required=True)
        return index

    def use_extension(self, name: str, *, required: bool = False) -> None:
        """List an extension as used (and required) by the document."""
        for key in ("extensionsUsed", "extensionsRequired") if required else ("extensionsUsed",):
            names = self.doc.setdefault(key, [])
            if name not in names:
                names.append(name)

    def material(self, name: str, color=(1, 1, 1, 1), *, texture: int | None = None, metallic: float = 0.0,
                 roughness: float = 0.7, blend: bool = False, double_sided: bool = False, emissive=None) -> int:
        """A metallic-roughness material; ``color=None`` leaves the base colour factor out (white)."""
        pbr: dict = {}
        if color is not None:
            pbr["baseColorFactor"] = [float(c) for c in color]
        if texture is not None:
            pbr["baseColorTexture"] = {"index": texture}
        pbr["metallicFactor"] = float(metallic)
        pbr["roughnessFactor"] = float(roughness)
        m: dict[str, object] = {"name": name, "pbrMetallicRoughness": pbr}
        if blend:
            m["alphaMode"] = "BLEND"
        if double_sided:
            m["doubleSided"] = True
        if emissive is not None:
            m["emissiveFactor"] = [float(c) for c in emissive]
        return self.add("materials", m)

    def primitive(self, *, positions, indices, normals=None, uv=None, joints=None, weights=None,
                  material: int | None = None, targets=None, colors=None) -> dict:
        """Write a triangle list's vertex attributes and indices; return the primitive (for :meth:`mesh`).

        Floats are stored as float32, ``joints`` as uint8 (up to 256 joints), POSITION with min/max.
        ``targets``: morph targets, each (vertex rows, position deltas), stored sparse, or (vertex rows, position
        deltas, rows, normal deltas) for a target that turns normals too. ``colors``
        (N, 3) 0..1: COLOR_0 as normalized bytes, RGBA with alpha 1 (a vertex attribute's elements are
        4-byte aligned).
        """
        positions = np.asarray(positions, np.float32)
        attrs = {"POSITION": self.accessor(positions, "VEC3", ARRAY_BUFFER, minmax=True)}
        for key, values, type_ in (("NORMAL", normals, "VEC3"), ("TEXCOORD_0", uv, "VEC2")):
            if values is not None:
                attrs[key] = self.accessor(np.asarray(values, np.float32), type_, ARRAY_BUFFER)
        if colors is not None:
            rgba = np.full((len(positions), 4), 255, np.uint8)
            rgba[:, :3] = np.clip(np.asarray(colors, np.float64) * 255 + 0.5, 0, 255)
            attrs["COLOR_0"] = self.accessor(rgba, "VEC4", ARRAY_BUFFER, normalized=True)
        if joints is not None:
            attrs["JOINTS_0"] = self.accessor(np.asarray(joints, np.uint8), "VEC4", ARRAY_BUFFER)
            attrs["WEIGHTS_0"] = self.accessor(np.asarray(weights, np.float32), "VEC4", ARRAY_BUFFER)
        prim = {"attributes": attrs, "indices": self.indices(indices, len(positions))}
        if material is not None:
            prim["material"] = material
        prim["mode"] = 4
        if targets is not None:
            prim["targets"] = [self._target(len(positions), *t) for t in targets]
        return prim

    def _target(self, count: int, rows, values, normal_rows=None, normals=None) -> dict:
        """A morph target: its POSITION deltas, and NORMAL deltas where given (``normal_rows``, ``normals``)."""
        target = {"POSITION": self.sparse_accessor(count, rows, values)}
        if normal_rows is not None:
            target["NORMAL"] = self.sparse_accessor(count, normal_rows, normals)
        return target

    def mesh(self, name: str, primitives: list[dict], *, target_names=None) -> int:
        """A mesh; with ``target_names`` (its primitives' morph targets, in order) their default
        weights (all 0) and ``extras.targetNames``, which three.js reads into ``morphTargetDictionary``."""
        mesh: dict = {"name": name, "primitives": primitives}
        if target_names:
            mesh["weights"] = [0.0] * len(target_names)
            mesh["extras"] = {"targetNames": list(target_names)}
        return self.add("meshes", mesh)

    def node(self, name: str, *, mesh: int | None = None, skin: int | None = None, children=None,
             translation=None, rotation=None, scale=None) -> int:
        n: dict = {"name": name}
        if mesh is not None:
            n["mesh"] = mesh
        if skin is not None:
            n["skin"] = skin
        if children:
            n["children"] = list(children)
        for key, values in (("translation", translation), ("rotation", rotation), ("scale", scale)):
            if values is not None:
                n[key] = [float(v) for v in values]
        return self.add("nodes", n)

    def skin(self, joints: list[int], inverse_bind_matrices, *, name: str | None = None,
             skeleton: int | None = None) -> int:
        """A skin; ``inverse_bind_matrices`` (N, 4, 4) as written in maths (stored column-major)."""
        ibm = np.asarray(inverse_bind_matrices, np.float32).transpose(0, 2, 1).reshape(-1, 16)
        accessor = self.accessor(ibm, "MAT4")
        s: dict = {"name": name} if name else {}
        s["joints"] = list(joints)
        if skeleton is not None:
            s["skeleton"] = skeleton
        s["inverseBindMatrices"] = accessor
        return self.add("skins", s)

    def animation(self, name: str, channels) -> int:
        """An animation of ``channels``: (node, path, input accessor, output accessor, interpolation)."""
        samplers = [{"input": i, "output": o, "interpolation": interp} for _, _, i, o, interp in channels]
        targets = [{"sampler": k, "target": {"node": node, "path": path}}
                   for k, (node, path, *_) in enumerate(channels)]
        return self.add("animations", {"name": name, "channels": targets, "samplers": samplers})

    def scene(self, roots: list[int], name: str = "Scene") -> int:
        """A scene of ``roots``, made the default scene."""
        self.doc["scene"] = self.add("scenes", {"name": name, "nodes": list(roots)})
        return self.doc["scene"]

    def to_bytes(self) -> bytes:
        binary = b"".join(self._chunks)
        binary += b"\0" * ((-len(binary)) % 4)
        doc = dict(self.doc)
        if binary:
            doc["buffers"] = [{"byteLength": len(binary)}]
        return pack_glb(doc, binary, sort_keys=self.sort_keys)


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
    out = [struct.pack("<4sII", GLB_MAGIC, 2, total), struct.pack("<II", len(text), CHUNK_JSON), text]
    if binary:
        out += [struct.pack("<II", len(binary), CHUNK_BIN), binary]
    return b"".join(out)


# --------------------------------------------------------------------------
# Reading
# --------------------------------------------------------------------------

class GlbError(ValueError):
    """A file :func:`read_glb` cannot read; ``problem`` is the sentence without the function's name."""

    def __init__(self, problem: str):
        super().__init__(f"read_glb: {problem}")
        self.problem = problem


def read_glb(data: bytes, *, strict: bool = False) -> tuple[dict, bytes]:
    """Split GLB bytes into the JSON document and the binary chunk (empty if none): the one GLB reader
    of the project (the renderer, the widget and regeneration read through it too).

    Any file it cannot read raises :class:`GlbError` (a ValueError) naming why. Lenient by default past the first two chunks: trailing bytes and further chunks are ignored.
    ``strict=True`` reads an untrusted file (an upload) as the glTF 2.0 spec lays it out: the
    header's length is the file's, every chunk is whole and 4-byte aligned, the JSON chunk is
    UTF-8 and holds an object; anything else raises :class:`GlbError` saying which rule broke.

    >>> read_glb(pack_glb({"asset": {"version": "2.0"}}, b"\\1"))
    ({'asset': {'version': '2.0'}}, b'\\x01\\x00\\x00\\x00')
    >>> try:
    ...     read_glb(pack_glb({"asset": {"version": "2.0"}}, b"") + b"xx", strict=True)
    ... except GlbError as e:
    ...     print(e.problem)
    the GLB header says 48 bytes but the file has 50
    """
    if len(data) < 20:
        raise GlbError(f"the file is {len(data)} bytes, shorter than a GLB header (12 bytes) and one chunk header"
                       if strict else "too short to be a GLB file")
    magic, version, total = struct.unpack_from("<4sII", data, 0)
    if magic != GLB_MAGIC:
        raise GlbError("the file does not start with the GLB magic 'glTF'" if strict else "not a GLB file (bad magic)")
    if version != 2:
        raise GlbError(f"the GLB version is {version}, not 2" if strict else f"GLB version {version} is not 2")
    if strict:
        return _read_strict(data, total)
    json_len, json_type = struct.unpack_from("<II", data, 12)
    if json_type != CHUNK_JSON:
        raise GlbError("the first chunk is not JSON")
    try:
        doc = json.loads(bytes(data[20:20 + json_len]).decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise GlbError("the JSON chunk is not JSON text in UTF-8") from None
    binary = b""
    pos = 20 + json_len
    if pos + 8 <= min(total, len(data)):
        bin_len, bin_type = struct.unpack_from("<II", data, pos)
        if bin_type == CHUNK_BIN:
            binary = bytes(data[pos + 8:pos + 8 + bin_len])
    return doc, binary


def _read_strict(data: bytes, total: int) -> tuple[dict, bytes]:
    if total != len(data):
        raise GlbError(f"the GLB header says {total} bytes but the file has {len(data)}")
    chunks: list[tuple[int, bytes]] = []
    offset = 12
    while offset < len(data):
        if offset + 8 > len(data):
            raise GlbError("a chunk header is cut off at the end of the file")
        length, kind = struct.unpack_from("<II", data, offset)
        if length % 4:
            raise GlbError(f"chunk {len(chunks)} has length {length}, not a multiple of 4")
        if offset + 8 + length > len(data):
            raise GlbError(f"chunk {len(chunks)} runs past the end of the file")
        chunks.append((kind, data[offset + 8:offset + 8 + length]))
        offset += 8 + length
    if not chunks or chunks[0][0] != CHUNK_JSON:
        raise GlbError("the first chunk is not the JSON chunk")
    try:
        doc = json.loads(chunks[0][1].decode("utf-8"))
    except UnicodeDecodeError as e:
        raise GlbError(f"the JSON chunk is not UTF-8 (byte {e.start})") from None
    except (ValueError, RecursionError) as e:
        where = f" at line {e.lineno}, column {e.colno}" if isinstance(e, json.JSONDecodeError) else ""
        raise GlbError(f"the JSON chunk is not valid JSON{where}") from None
    if not isinstance(doc, dict):
        raise GlbError("the JSON chunk is not an object")
    return doc, chunks[1][1] if len(chunks) > 1 and chunks[1][0] == CHUNK_BIN else b""


def _view_start(doc: dict, view_index: int) -> int | None:
    """Where buffer view ``view_index`` starts in the binary chunk; None when it lies in another buffer."""
    view = doc["bufferViews"][view_index]
    return view.get("byteOffset", 0) if view.get("buffer", 0) == 0 else None


def _accessor_start(doc: dict, view_index: int, byte_offset: int) -> int:
    start = _view_start(doc, view_index)
    if start is None:
        raise ValueError("read_accessor: only the GLB's own binary buffer (buffers[0]) is read")
    return start + byte_offset


def read_accessor(doc: dict, binary: bytes, index: int) -> np.ndarray:
    """An accessor's elements as an array (count, width): interleaved views (``byteStride``),
    sparse substitutions and no-view (all zero) accessors read as glTF 2.0 defines them;
    ``normalized`` integers become float32 in [0, 1] (or [-1, 1] for signed types).

    >>> w = GlbWriter()
    >>> i = w.accessor(np.array([[0, 255], [51, 102]], np.uint8), "VEC2", normalized=True)
    >>> doc, binary = read_glb(w.to_bytes())
    >>> read_accessor(doc, binary, i).tolist()
    [[0.0, 1.0], [0.20000000298023224, 0.4000000059604645]]
    """
    acc = doc["accessors"][index]
    ctype, width, count = acc["componentType"], TYPE_WIDTHS[acc["type"]], acc["count"]
    dtype = COMPONENT_DTYPES[ctype]
    if "bufferView" in acc:
        start = _accessor_start(doc, acc["bufferView"], acc.get("byteOffset", 0))
        stride = doc["bufferViews"][acc["bufferView"]].get("byteStride") or dtype.itemsize * width
        if stride == dtype.itemsize * width:
            arr = np.frombuffer(binary, dtype, count * width, start).reshape(count, width)
        else:
            rows = np.lib.stride_tricks.as_strided(
                np.frombuffer(binary, np.uint8, len(binary) - start, start),
                shape=(count, width * dtype.itemsize), strides=(stride, 1))
            arr = np.ascontiguousarray(rows).view(dtype).reshape(count, width)
    else:
        arr = np.zeros((count, width), dtype)
    if "sparse" in acc:
        sp = acc["sparse"]
        arr = arr.copy()
        ind, val = sp["indices"], sp["values"]
        idx = np.frombuffer(binary, COMPONENT_DTYPES[ind["componentType"]], sp["count"],
                            _accessor_start(doc, ind["bufferView"], ind.get("byteOffset", 0)))
        vals = np.frombuffer(binary, dtype, sp["count"] * width,
                             _accessor_start(doc, val["bufferView"], val.get("byteOffset", 0)))
        arr[idx.astype(np.int64)] = vals.reshape(-1, width)
    if acc.get("normalized") and dtype.kind in "iu" and dtype.itemsize < 4:
        arr = np.maximum(arr.astype(np.float32) / np.iinfo(dtype).max, -1.0)
    return arr


def image_bytes(doc: dict, binary: bytes, index: int) -> bytes | None:
    """The encoded bytes of image ``index``: from its buffer view or a base64 ``data:`` URI;
    None for an image outside the file (a plain URI, or another buffer).

    >>> w = GlbWriter()
    >>> w.image(b"\\x89PNG...")
    0
    >>> doc, binary = read_glb(w.to_bytes())
    >>> image_bytes(doc, binary, 0)
    b'\\x89PNG...'
    """
    img = doc["images"][index]
    if "bufferView" in img:
        start = _view_start(doc, img["bufferView"])
        if start is None:
            return None
        return bytes(binary[start:start + doc["bufferViews"][img["bufferView"]]["byteLength"]])
    uri = str(img.get("uri", ""))
    if uri.startswith("data:") and ";base64," in uri:
        return base64.b64decode(uri.split(";base64,", 1)[1])
    return None
