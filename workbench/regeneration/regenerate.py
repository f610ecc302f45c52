"""What a regeneration job produces (contract section 8): a product's glb/usdz/preview, a space's preview/bundle.

Pure functions of their input bytes: the service's job runner stores what
they return; the same input gives the same bytes.

>>> from workbench.regeneration.product import build_product_glb
>>> sorted(regenerate_product(build_product_glb("demo")))
['glb', 'preview', 'usdz']
"""

from __future__ import annotations

import io

from workbench.gltf.glb import pack_glb, read_glb
from workbench.options import PreviewOptions
from workbench.render import render, render_preview

from .bundle import build_space_bundle
from .usdz import glb_to_usdz

__all__ = ["regenerate_product", "regenerate_space", "repack_glb", "PRODUCT_PREVIEW", "SPACE_PREVIEW_SIZE"]

PRODUCT_PREVIEW = PreviewOptions(size=512, camera="full", background=None)
SPACE_PREVIEW_SIZE = 512


def repack_glb(glb: bytes) -> bytes:
    """The GLB rewritten: its JSON and binary chunk only (stray chunks and trailing bytes dropped),
    chunks padded, the buffer's length matching the binary chunk.

    >>> from workbench.regeneration.product import build_product_glb
    >>> g = build_product_glb("a")
    >>> repack_glb(g + b"junk")[:4]
    b'glTF'
    """
    doc, binary = read_glb(glb)
    if binary and doc.get("buffers"):
        doc["buffers"][0]["byteLength"] = max(int(doc["buffers"][0].get("byteLength", 0)), 0)
        # The chunk may carry up to 3 bytes of padding past the declared length; keep the declared
        # length when it fits, as the validator checks it against the chunk.
        if doc["buffers"][0]["byteLength"] > len(binary):
            raise ValueError("regenerate: the GLB's buffer is longer than its binary chunk")
    return pack_glb(doc, binary, sort_keys=True)  # sorted, as the viewers' files are written


def regenerate_product(source_glb: bytes) -> dict[str, bytes]:
    """A product viewer's outputs from its source model: ``glb``, ``usdz`` and a 512 px ``preview`` PNG.

    >>> from workbench.regeneration.product import build_product_glb
    >>> regenerate_product(build_product_glb("x"))["usdz"][:2]
    b'PK'
    """
    glb = repack_glb(source_glb)
    return {"glb": glb, "usdz": glb_to_usdz(glb), "preview": render_preview(glb, PRODUCT_PREVIEW)}


def regenerate_space(scene_glb: bytes, seed: str) -> dict[str, bytes]:
    """A space viewer's outputs: a ``preview`` PNG of the room seen from the front and above, and the ``bundle``.

    >>> from workbench.regeneration.space import build_space_scene
    >>> out = regenerate_space(build_space_scene("s"), "s")
    >>> sorted(out), out["preview"][:4]
    (['bundle', 'preview'], b'\\x89PNG')
    """
    im = render(scene_glb, size=SPACE_PREVIEW_SIZE, camera="full", background=None, elevation_deg=22.0)
    buf = io.BytesIO()
    im.save(buf, format="PNG", compress_level=6)
    return {"preview": buf.getvalue(), "bundle": build_space_bundle(scene_glb, seed)}
