"""Writing small valid glTF 2.0 binaries: the one builder the generated viewers' models share.

Buffers are 4-byte aligned (vertex data to its component size), POSITION
accessors carry min/max, and the JSON is written with sorted keys and no
spaces, so the same calls give the same bytes.

>>> b = GlbBuilder()
>>> mat = b.material("red", (1, 0, 0, 1))
>>> mesh = b.mesh("tri", [b.primitive(positions=[[0, 0, 0], [1, 0, 0], [0, 1, 0]], indices=[0, 1, 2], material=mat)])
>>> b.node("tri", mesh=mesh) == 0
True
>>> b.to_bytes()[:4]
b'glTF'
"""

from __future__ import annotations

import io

import numpy as np
from PIL import Image

from workbench.gltf._glb import pack_glb as _pack

__all__ = ["GlbBuilder", "pack_glb", "png_bytes"]

_ARRAY_BUFFER = 34962
_ELEMENT_ARRAY_BUFFER = 34963


def pack_glb(doc: dict, binary: bytes) -> bytes:
    """A GLB container of ``doc`` and ``binary`` (sorted keys, so the same document gives the same bytes)."""
    return _pack(doc, binary, sort_keys=True)


def png_bytes(rgb: np.ndarray) -> bytes:
    """PNG bytes of an (H, W, 3 or 4) uint8 array, written the same way every time."""
    buf = io.BytesIO()
    Image.fromarray(np.ascontiguousarray(rgb)).save(buf, format="PNG", compress_level=6)
    return buf.getvalue()


class GlbBuilder:
    """Collects buffer views, accessors, images, materials, meshes and nodes; ``to_bytes`` writes the GLB."""

    def __init__(self, generator: str = "workbench.viewers"):
        self.doc: dict = {"asset": {"version": "2.0", "generator": generator},
                          "buffers": [], "bufferViews": [], "accessors": []}
        self.blob = bytearray()

    def _list(self, key: str) -> list:
        return self.doc.setdefault(key, [])

    def _view(self, data: bytes, target: int | None = None, align: int = 4) -> int:
        self.blob += b"\x00" * (-len(self.blob) % align)
        view = {"buffer": 0, "byteOffset": len(self.blob), "byteLength": len(data)}
        if target is not None:
            view["target"] = target
        self.blob += data
        self.doc["bufferViews"].append(view)
        return len(self.doc["bufferViews"]) - 1

    def accessor(self, array, *, indices: bool = False, bounds: bool = False) -> int:
        a = np.asarray(array)
        if indices:
            a = a.reshape(-1).astype(np.uint16 if a.max(initial=0) < 65535 else np.uint32)
            ctype = 5123 if a.dtype == np.uint16 else 5125
            kind = "SCALAR"
        else:
            a = a.astype(np.float32)
            if a.ndim == 1:
                a = a[:, None]
            ctype = 5126
            kind = {1: "SCALAR", 2: "VEC2", 3: "VEC3", 4: "VEC4", 16: "MAT4"}[a.shape[1]]
        view = self._view(np.ascontiguousarray(a).tobytes(), _ELEMENT_ARRAY_BUFFER if indices else None)
        acc = {"bufferView": view, "componentType": ctype, "count": int(a.shape[0]), "type": kind}
        if bounds:
            acc["min"] = [float(v) for v in a.min(0)]
            acc["max"] = [float(v) for v in a.max(0)]
        self.doc["accessors"].append(acc)
        return len(self.doc["accessors"]) - 1

    def _vertex_accessor(self, array, bounds=False) -> int:
        idx = self.accessor(array, bounds=bounds)
        self.doc["bufferViews"][self.doc["accessors"][idx]["bufferView"]]["target"] = _ARRAY_BUFFER
        return idx

    def image(self, data: bytes, mime: str = "image/png") -> int:
        view = self._view(data)
        self._list("images").append({"bufferView": view, "mimeType": mime})
        return len(self.doc["images"]) - 1

    def texture(self, png: bytes, *, repeat: bool = True) -> int:
        img = self.image(png)
        samplers = self._list("samplers")
        wrap = 10497 if repeat else 33071
        sampler = {"magFilter": 9729, "minFilter": 9987, "wrapS": wrap, "wrapT": wrap}
        if sampler not in samplers:
            samplers.append(sampler)
        self._list("textures").append({"sampler": samplers.index(sampler), "source": img})
        return len(self.doc["textures"]) - 1

    def material(self, name: str, color=(1, 1, 1, 1), *, texture: int | None = None, metallic: float = 0.0,
                 roughness: float = 0.7, blend: bool = False, double_sided: bool = False,
                 emissive=None) -> int:
        pbr = {"baseColorFactor": [float(c) for c in color], "metallicFactor": float(metallic),
               "roughnessFactor": float(roughness)}
        if texture is not None:
            pbr["baseColorTexture"] = {"index": texture}
        m = {"name": name, "pbrMetallicRoughness": pbr}
        if blend:
            m["alphaMode"] = "BLEND"
        if double_sided:
            m["doubleSided"] = True
        if emissive is not None:
            m["emissiveFactor"] = [float(c) for c in emissive]
        self._list("materials").append(m)
        return len(self.doc["materials"]) - 1

    def primitive(self, *, positions, indices, normals=None, uv=None, material=None,
                  joints=None, weights=None) -> dict:
        attrs = {"POSITION": self._vertex_accessor(positions, bounds=True)}
        if normals is not None:
            attrs["NORMAL"] = self._vertex_accessor(normals)
        if uv is not None:
            attrs["TEXCOORD_0"] = self._vertex_accessor(uv)
        if joints is not None:
            j = np.asarray(joints, np.uint8)
            view = self._view(j.tobytes(), _ARRAY_BUFFER)
            self.doc["accessors"].append({"bufferView": view, "componentType": 5121, "count": len(j), "type": "VEC4"})
            attrs["JOINTS_0"] = len(self.doc["accessors"]) - 1
            attrs["WEIGHTS_0"] = self._vertex_accessor(weights)
        prim = {"attributes": attrs, "indices": self.accessor(indices, indices=True), "mode": 4}
        if material is not None:
            prim["material"] = material
        return prim

    def mesh(self, name: str, primitives: list[dict]) -> int:
        self._list("meshes").append({"name": name, "primitives": primitives})
        return len(self.doc["meshes"]) - 1

    def node(self, name: str, *, mesh: int | None = None, children=None, translation=None,
             rotation=None, scale=None, skin: int | None = None) -> int:
        n: dict = {"name": name}
        if mesh is not None:
            n["mesh"] = mesh
        if skin is not None:
            n["skin"] = skin
        if children:
            n["children"] = list(children)
        if translation is not None:
            n["translation"] = [float(v) for v in translation]
        if rotation is not None:
            n["rotation"] = [float(v) for v in rotation]
        if scale is not None:
            n["scale"] = [float(v) for v in scale]
        self._list("nodes").append(n)
        return len(self.doc["nodes"]) - 1

    def scene(self, roots: list[int], name: str = "Scene") -> None:
        self.doc["scenes"] = [{"name": name, "nodes": list(roots)}]
        self.doc["scene"] = 0

    def to_bytes(self) -> bytes:
        doc = dict(self.doc)
        if self.blob:
            doc["buffers"] = [{"byteLength": len(self.blob) + (-len(self.blob) % 4)}]
        else:
            for k in ("buffers", "bufferViews", "accessors"):
                if not doc.get(k):
                    doc.pop(k, None)
        if "scenes" not in doc and doc.get("nodes"):
            doc["scenes"] = [{"nodes": [i for i in range(len(doc["nodes"]))
                                        if not any(i in n.get("children", []) for n in doc["nodes"])]}]
            doc["scene"] = 0
        return pack_glb(doc, bytes(self.blob))
