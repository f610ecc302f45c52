"""The hair's material as the GLB carries it: its texture, roughness and anisotropic highlight.

Strands reflect light in a band across them (a fibre's normals turn round it, not along it), which
glTF asks for with ``KHR_materials_anisotropy``: the roughness is stretched along the cards' ``u``
(across the strands), so the highlight runs round the head as a band. Curls scatter light every way:
theirs is weaker and rougher.

>>> m = material("#2B1B10", "short", None, 0)
>>> m["image"].shape, m["anisotropy"]
((1024, 1024, 4), (0.75, 0.0))
"""

from __future__ import annotations

from .texture import hair_texture, tint

ROUGHNESS = {"short": 0.5, "long": 0.45, "bun": 0.45, "curly": 0.7}
# (strength, rotation): the direction of stretched roughness is the cards' u, across the strands.
ANISOTROPY = {"short": (0.75, 0.0), "long": (0.8, 0.0), "bun": (0.8, 0.0), "curly": (0.4, 0.0)}


def material(color: str, style: str, mesh, lod: int) -> dict:
    """``image`` (RGBA), ``roughness`` and ``anisotropy`` for ``style`` in ``color`` at ``lod`` (LOD 2's
    texture is the cards baked for this body, ``mesh``)."""
    image = hair_texture(color, style) if lod < 2 else _baked_texture(mesh, style, color)
    return dict(image=image, roughness=ROUGHNESS[style], anisotropy=ANISOTROPY[style])


_tinted: dict = {}


def _baked_texture(mesh, style: str, color: str):
    from .bake import baked

    key = (id(mesh), style, color)
    if key not in _tinted or _tinted[key][0] is not mesh:
        if len(_tinted) > 32:
            _tinted.clear()
        _tinted[key] = (mesh, tint(baked(mesh, style)[1], color))
    return _tinted[key][1]
