"""GLB to USDZ for AR viewers: meshes, normals, UVs and UsdPreviewSurface materials in a text layer.

The ``.usda`` text is written here directly (usd-core is only used by the
tests, to prove Pixar's reader accepts it). The archive follows contract
section 8: stored, every file's data 64-byte aligned, the layer first.

1. Read the GLB with the renderer's reader, in bind pose, in world space
   (skinning applied, node transforms baked in; metres, Y up as in glTF).
2. For each primitive write a ``Mesh``: points, triangle counts and indices,
   vertex normals and ``primvars:st`` (V flipped: USD's st has V going up).
3. For each glTF material write a ``Material`` with a ``UsdPreviewSurface``;
   a base colour texture becomes a ``UsdUVTexture`` fed by a
   ``UsdPrimvarReader_float2`` reading ``st``, its factor in ``inputs:scale``.
   The image is copied as it was (PNG or JPEG); WebP, which AR Quick Look
   cannot read, is converted to PNG.

>>> from workbench.regeneration.product import build_product_glb
>>> usdz = glb_to_usdz(build_product_glb("demo"))
>>> usdz[:2]
b'PK'
"""

from __future__ import annotations

import io
import re

import numpy as np
from PIL import Image

from workbench.gltf.glb import image_bytes
from workbench.render.scene import Model

from .zipstore import stored_zip

__all__ = ["glb_to_usdz", "glb_to_usda"]


def _ident(name: str, used: set[str], fallback: str) -> str:
    s = re.sub(r"[^A-Za-z0-9_]", "_", name or fallback)
    if not s or s[0].isdigit():
        s = f"{fallback}_{s}"
    base, k = s, 1
    while s in used:
        s = f"{base}_{k}"
        k += 1
    used.add(s)
    return s


def _fmt(a: np.ndarray, width: int) -> str:
    """USD array text of (n, width) floats: [(x, y, z), ...] with 6 significant digits."""
    flat = np.asarray(a, np.float64).reshape(-1, width)
    if len(flat) == 0:
        return "[]"
    cells = np.char.mod("%.6g", flat)
    rows = [", ".join(r) for r in cells.tolist()]
    return "[" + ", ".join(f"({r})" for r in rows) + "]"


def _ints(a: np.ndarray) -> str:
    return "[" + ", ".join(map(str, np.asarray(a).reshape(-1).tolist())) + "]"


def _texture_file(model: Model, mat_index: int) -> tuple[str, bytes] | None:
    """The base colour image of a material as (extension, bytes), PNG or JPEG."""
    mat = model.doc["materials"][mat_index]
    ref = mat.get("pbrMetallicRoughness", {}).get("baseColorTexture")
    if ref is None:
        return None
    tex = model.doc["textures"][ref["index"]]
    source = tex.get("source")
    if "EXT_texture_webp" in tex.get("extensions", {}):
        source = tex["extensions"]["EXT_texture_webp"].get("source", source)
    data = image_bytes(model.doc, model.bin, source) if source is not None else None
    if data is None:
        return None
    if data[:8] == b"\x89PNG\r\n\x1a\n":
        return "png", data
    if data[:3] == b"\xff\xd8\xff":
        return "jpg", data
    im = Image.open(io.BytesIO(data))
    buf = io.BytesIO()
    im.save(buf, format="PNG", compress_level=6)
    return "png", buf.getvalue()


def glb_to_usda(glb: bytes) -> tuple[str, dict[str, bytes]]:
    """The ``.usda`` text of a GLB and the texture files it refers to (archive path to bytes)."""
    model = Model(glb, max_texture=1)  # textures are copied as files, never decoded for drawing here
    posed = model.posed()
    lines = ['#usda 1.0', '(', '    defaultPrim = "Root"', '    metersPerUnit = 1', '    upAxis = "Y"', ')', '',
             'def Xform "Root" (', '    kind = "component"', ')', '{']
    files: dict[str, bytes] = {}
    used_mats: dict[int | None, str] = {}
    mat_names: set[str] = set()
    mat_lines: list[str] = []

    def material_path(index: int | None) -> str:
        if index in used_mats:
            return used_mats[index]
        doc_mat = model.doc["materials"][index] if index is not None else {}
        name = _ident(doc_mat.get("name", ""), mat_names, f"Material{index if index is not None else 'Default'}")
        path = f"/Root/Materials/{name}"
        used_mats[index] = path
        pbr = doc_mat.get("pbrMetallicRoughness", {})
        factor = [float(c) for c in pbr.get("baseColorFactor", [1, 1, 1, 1])]
        tex = _texture_file(model, index) if index is not None else None
        blend = doc_mat.get("alphaMode") == "BLEND"
        m = [f'        def Material "{name}"', '        {',
             f'            token outputs:surface.connect = <{path}/Surface.outputs:surface>',
             '            def Shader "Surface"', '            {',
             '                uniform token info:id = "UsdPreviewSurface"']
        if tex is not None:
            fname = f"textures/{name}.{tex[0]}"
            files[fname] = tex[1]
            m.append(f'                color3f inputs:diffuseColor.connect = <{path}/BaseColor.outputs:rgb>')
            if blend:
                m.append(f'                float inputs:opacity.connect = <{path}/BaseColor.outputs:a>')
        else:
            m.append('                color3f inputs:diffuseColor = (%.6g, %.6g, %.6g)' % tuple(factor[:3]))
            m.append('                float inputs:opacity = %.6g' % (factor[3] if blend else 1.0))
        em = doc_mat.get("emissiveFactor")
        if em and any(em):
            m.append('                color3f inputs:emissiveColor = (%.6g, %.6g, %.6g)' % tuple(em))
        m += ['                float inputs:metallic = %.6g' % float(pbr.get("metallicFactor", 1.0)),
              '                float inputs:roughness = %.6g' % float(pbr.get("roughnessFactor", 1.0)),
              '                token outputs:surface', '            }']
        if tex is not None:
            m += ['            def Shader "BaseColor"', '            {',
                  '                uniform token info:id = "UsdUVTexture"',
                  f'                asset inputs:file = @{fname}@',
                  '                token inputs:sourceColorSpace = "sRGB"',
                  '                float4 inputs:scale = (%.6g, %.6g, %.6g, %.6g)' % tuple(factor),
                  f'                float2 inputs:st.connect = <{path}/Primvar.outputs:result>',
                  '                token inputs:wrapS = "repeat"', '                token inputs:wrapT = "repeat"',
                  '                float3 outputs:rgb', '                float outputs:a', '            }',
                  '            def Shader "Primvar"', '            {',
                  '                uniform token info:id = "UsdPrimvarReader_float2"',
                  '                string inputs:varname = "st"', '                float2 outputs:result',
                  '            }']
        m.append('        }')
        mat_lines.extend(m)
        return path

    mesh_names: set[str] = set()
    for k, d in enumerate(posed.draws):
        name = _ident(d.mesh_name, mesh_names, f"Mesh{k}")
        mpath = material_path(d.material_index)
        lo, hi = d.positions.min(0), d.positions.max(0)
        lines += [f'    def Mesh "{name}" (', '        prepend apiSchemas = ["MaterialBindingAPI"]', '    )', '    {',
                  '        uniform bool doubleSided = %d' % int(d.material.double_sided),
                  '        float3[] extent = [(%.6g, %.6g, %.6g), (%.6g, %.6g, %.6g)]' % (*lo, *hi),
                  f'        int[] faceVertexCounts = {_ints(np.full(len(d.tris), 3))}',
                  f'        int[] faceVertexIndices = {_ints(d.tris)}',
                  f'        rel material:binding = <{mpath}>',
                  f'        normal3f[] normals = {_fmt(d.normals, 3)} (', '            interpolation = "vertex"', '        )',
                  f'        point3f[] points = {_fmt(d.positions, 3)}']
        if d.uv is not None:
            st = np.stack([d.uv[:, 0], 1.0 - d.uv[:, 1]], 1)
            lines += [f'        texCoord2f[] primvars:st = {_fmt(st, 2)} (', '            interpolation = "vertex"', '        )']
        lines += ['        uniform token subdivisionScheme = "none"', '    }', '']
    lines += ['    def Scope "Materials"', '    {'] + mat_lines + ['    }', '}', '']
    return "\n".join(lines), files


def glb_to_usdz(glb: bytes) -> bytes:
    """A USDZ archive of the GLB: ``model.usda`` first, then its textures; same input, same bytes.

    >>> from workbench.regeneration.zipstore import local_entries
    >>> from workbench.regeneration.product import build_product_glb
    >>> [e["name"] for e in local_entries(glb_to_usdz(build_product_glb("demo")))][0]
    'model.usda'
    """
    text, files = glb_to_usda(glb)
    return stored_zip([("model.usda", text.encode("utf-8"))] + sorted(files.items()))
