"""inspect and compare: what a GLB holds, as pandas tables that show themselves in Jupyter.

``inspect(source)`` reads bytes, a path, or anything with a ``.content`` bytes attribute
(an HTTP response) and returns a :class:`GlbSummary`; ``compare`` puts several summaries
side by side. Image sizes are read from the embedded image headers with Pillow (no
decoding of pixels). Errors raise ``ValueError`` prefixed with ``inspect:``.

>>> from workbench.gltf import build_animation
>>> s = inspect(build_animation("masculine", "nod"))
>>> len(s.skeleton), list(s.animations["name"])
(65, ['nod'])
"""

from __future__ import annotations

import html
import io
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
from PIL import Image

from .glb import image_bytes, read_accessor, read_glb

if TYPE_CHECKING:
    import pandas as pd


@dataclass
class GlbSummary:
    """Tables and totals of one GLB file (made by :func:`inspect`).

    >>> from workbench.gltf import build_animation
    >>> repr(inspect(build_animation("masculine", "nod"))).splitlines()[0].split(",")[1]
    ' 0 triangles'
    """

    nodes: pd.DataFrame
    meshes: pd.DataFrame
    materials: pd.DataFrame
    textures: pd.DataFrame
    animations: pd.DataFrame
    skeleton: list[str]
    extensions_used: list[str]
    triangles: int
    byte_length: int
    extensions_required: list[str] = field(default_factory=list)

    def __repr__(self) -> str:
        lines = [f"GlbSummary: {self.byte_length} bytes, {self.triangles} triangles, "
                 f"{len(self.meshes)} meshes, {len(self.materials)} materials, {len(self.textures)} textures, "
                 f"{len(self.animations)} animations, {len(self.skeleton)} joints"]
        if self.extensions_used:
            lines.append("extensions: " + ", ".join(self.extensions_used))
        for title, df in (("meshes", self.meshes), ("materials", self.materials),
                          ("textures", self.textures), ("animations", self.animations)):
            if len(df):
                lines.append(f"{title}:")
                lines.append(df.to_string(index=False))
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        parts = [f"<p><b>GLB</b>: {self.byte_length:,} bytes, {self.triangles:,} triangles, "
                 f"{len(self.skeleton)} joints"
                 + (f", extensions {html.escape(', '.join(self.extensions_used))}" if self.extensions_used else "")
                 + "</p>"]
        for title, df in (("Meshes", self.meshes), ("Materials", self.materials),
                          ("Textures", self.textures), ("Animations", self.animations)):
            if len(df):
                parts.append(f"<h4>{title}</h4>" + df.to_html(index=False))
        return "\n".join(parts)


def _load(source) -> bytes:
    if isinstance(source, (bytes, bytearray, memoryview)):
        return bytes(source)
    if isinstance(source, (str, Path)):
        return Path(source).read_bytes()
    content = getattr(source, "content", None)
    if isinstance(content, (bytes, bytearray)):
        return bytes(content)
    raise ValueError(f"inspect: expected GLB bytes, a path or an object with .content bytes; got {type(source).__name__}")


def inspect(source) -> GlbSummary:
    """Summarize a GLB: nodes, meshes, materials, textures, animations, skeleton, totals.

    >>> from workbench.gltf import build_animation
    >>> int(inspect(build_animation("feminine", "walk")).animations.loc[0, "channels"]) > 10
    True
    """
    import pandas as pd  # when asked for, as in pose.bone_positions (a service's start pays nothing for it)

    data = _load(source)
    try:
        doc, binary = read_glb(data)
    except ValueError as e:
        raise ValueError(f"inspect: {e}") from e
    accessors = doc.get("accessors", [])

    nodes = pd.DataFrame([{"name": n.get("name", ""), "mesh": n.get("mesh"), "skin": n.get("skin"),
                           "children": len(n.get("children", []))} for n in doc.get("nodes", [])],
                         columns=["name", "mesh", "skin", "children"])

    skinned_meshes = {n["mesh"] for n in doc.get("nodes", []) if "mesh" in n and "skin" in n}
    mesh_rows = []
    total = 0
    for i, m in enumerate(doc.get("meshes", [])):
        tris = verts = 0
        skinned = i in skinned_meshes
        for p in m.get("primitives", []):
            verts += accessors[p["attributes"]["POSITION"]]["count"]
            mode = p.get("mode", 4)
            count = accessors[p["indices"]]["count"] if "indices" in p else accessors[p["attributes"]["POSITION"]]["count"]
            tris += count // 3 if mode == 4 else max(count - 2, 0) if mode in (5, 6) else 0
            skinned = skinned and "JOINTS_0" in p["attributes"] and "WEIGHTS_0" in p["attributes"]
        total += tris
        mesh_rows.append({"name": m.get("name", ""), "primitives": len(m.get("primitives", [])),
                          "triangles": tris, "vertices": verts, "skinned": skinned})
    meshes = pd.DataFrame(mesh_rows, columns=["name", "primitives", "triangles", "vertices", "skinned"])

    mats = []
    for m in doc.get("materials", []):
        tex = m.get("pbrMetallicRoughness", {}).get("baseColorTexture", {}).get("index")
        mats.append({"name": m.get("name", ""), "alphaMode": m.get("alphaMode", "OPAQUE"), "baseColorTexture": tex})
    materials = pd.DataFrame(mats, columns=["name", "alphaMode", "baseColorTexture"])

    images = doc.get("images", [])
    tex_rows = []
    for t in doc.get("textures", []):
        src = t.get("source")
        for ext in ("EXT_texture_webp", "KHR_texture_basisu", "EXT_texture_avif"):
            if src is None and ext in t.get("extensions", {}):
                src = t["extensions"][ext]["source"]
        img = images[src] if src is not None else {}
        raw = (image_bytes(doc, binary, src) or b"") if img else b""
        width = height = None
        mime = img.get("mimeType")
        if raw:
            with Image.open(io.BytesIO(raw)) as im:
                width, height = im.size
                mime = mime or Image.MIME.get(im.format)  # type: ignore[arg-type]  # no format: no MIME type, get gives None
        tex_rows.append({"name": t.get("name", ""), "image": src, "mimeType": mime, "width": width,
                         "height": height, "bytes": len(raw)})
    textures = pd.DataFrame(tex_rows, columns=["name", "image", "mimeType", "width", "height", "bytes"])

    anim_rows = []
    for a in doc.get("animations", []):
        inputs = {s["input"] for s in a.get("samplers", [])}
        duration = max((accessors[i].get("max", [0.0])[0] if "max" in accessors[i]
                        else float(read_accessor(doc, binary, i).max()) for i in inputs), default=0.0)
        frames = max((accessors[i]["count"] for i in inputs), default=0)
        anim_rows.append({"name": a.get("name", ""), "duration_s": round(float(duration), 4),
                          "channels": len(a.get("channels", [])), "frames": frames})
    animations = pd.DataFrame(anim_rows, columns=["name", "duration_s", "channels", "frames"])

    skeleton: list[str] = []
    if doc.get("skins"):
        skeleton = [doc["nodes"][j].get("name", "") for j in doc["skins"][0]["joints"]]
    else:
        # A skeleton-only file (an animation clip): the joints are the nodes under the root joint.
        names = [n.get("name", "") for n in doc.get("nodes", [])]
        if "Hips" in names:
            order, seen, stack = [], set(), [names.index("Hips")]
            while stack:
                k = stack.pop(0)
                if k in seen:   # a cycle or a second parent (glTF forbids both): each joint once
                    continue
                seen.add(k)
                order.append(k)
                stack[:0] = doc["nodes"][k].get("children", [])
            skeleton = [names[k] for k in order]

    return GlbSummary(nodes=nodes, meshes=meshes, materials=materials, textures=textures,
                      animations=animations, skeleton=skeleton,
                      extensions_used=list(doc.get("extensionsUsed", [])), triangles=int(total),
                      byte_length=len(data), extensions_required=list(doc.get("extensionsRequired", [])))


def compare(summaries: dict[str, GlbSummary]) -> pd.DataFrame:
    """One row per label: triangles, meshes, materials, textures, animations, bytes.

    >>> from workbench.gltf import build_animation
    >>> int(compare({"nod": inspect(build_animation("masculine", "nod"))}).loc["nod", "animations"])
    1
    """
    rows = {label: {"triangles": s.triangles, "meshes": len(s.meshes), "materials": len(s.materials),
                    "textures": len(s.textures), "animations": len(s.animations), "bytes": s.byte_length}
            for label, s in summaries.items()}
    import pandas as pd  # when asked for, as in inspect

    return pd.DataFrame.from_dict(rows, orient="index",
                                  columns=["triangles", "meshes", "materials", "textures", "animations", "bytes"])


def read_attribute(source, mesh: str, attribute: str) -> np.ndarray:
    """All primitives' values of one vertex attribute of a mesh, stacked (for checks and tests)."""
    doc, binary = read_glb(_load(source))
    for m in doc.get("meshes", []):
        if m.get("name") == mesh:
            return np.concatenate([read_accessor(doc, binary, p["attributes"][attribute]) for p in m["primitives"]])
    raise ValueError(f"inspect: no mesh named {mesh!r}")
