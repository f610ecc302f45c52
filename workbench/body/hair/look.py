"""The hair's material as the GLB carries it: its texture, roughness and anisotropic highlight.

Strands reflect light in a band across them (a fibre's normals turn round it, not along it), which
glTF asks for with ``KHR_materials_anisotropy``: the roughness is stretched along the cards' ``u``
(across the strands), so the highlight runs round the head as a band; ``KHR_materials_specular`` dims
the reflection (a fibre reflects less than a smooth surface: dark hair would otherwise mirror a room's
lights in grey). Curls scatter light every way: theirs is rougher and not anisotropic.

>>> m = material("#2B1B10", "short", None, 0)
>>> m["image"].shape, m["anisotropy"], m["specular"]
((1024, 512, 4), (0.45, 0.0), 0.3)
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from ..lod import Piece
from .head import per_body
from .texture import hair_texture, scatter, tint

ROUGHNESS = {"short": 0.65, "long": 0.6, "bun": 0.6, "curly": 0.75, "ponytail": 0.6, "bob": 0.6}
# (strength, rotation): the direction of stretched roughness is the cards' u, across the strands (their TANGENT,
# smoothed over the hair: workbench.gltf.maps.strand_tangents). Half strength: in three.js's studio a stronger
# stretch spread the room's reflection over dark hair as a grey wash.
# Curls have none: their strands turn every way within a pixel, and scatter light so (no band; their coils shade
# round by their shared normals, workbench.body.hair.cards).
ANISOTROPY = {"short": (0.45, 0.0), "long": (0.5, 0.0), "bun": (0.5, 0.0), "curly": None, "ponytail": (0.5, 0.0),
              "bob": (0.5, 0.0)}
# KHR_materials_specular's factor: a fibre's reflection is weaker than a smooth dielectric's.
SPECULAR = 0.3
# ...but the bob's: its cards hang in one smooth surface, and the room's reflection lay over it as one grey sheet, its
# black hair 51 levels of 255 lighter than its colour in three.js's typical page (41 now) (blind review U's "glossy grey-black
# plastic", #5's #262121; tests/render/test_bob_threejs_review_u.py).
SPECULAR_OF = {"bob": 0.12}


def material(color: str, style: str, mesh, lod: int, top: str | None = None, bottom: str = "trousers") -> dict:
    """``image`` (RGBA), ``roughness`` and ``anisotropy`` for ``style`` in ``color`` at ``lod`` (LOD 2's
    texture is the cards baked for this body, ``mesh``, over the top ``top``; below LOD 2 ``mesh`` is not
    read and may be None)."""
    image = hair_texture(color, style) if lod < 2 else _baked_texture(mesh, style, color, top, bottom)
    return dict(image=image, roughness=ROUGHNESS[style], anisotropy=ANISOTROPY[style],
                specular=SPECULAR_OF.get(style, SPECULAR))


@per_body
def _baked_texture(mesh, style: str, color: str, top: str | None, bottom: str):
    from .bake import baked

    return tint(baked(mesh, style, top, bottom)[1], color)


def lit(piece: Piece, color: str, style: str) -> Piece:
    """A hair part (``Hair``, ``Hair_Sleek``, ``Hair_Fringe``) of ``style`` in ``color``: its vertex colours (each
    vertex's depth in the hair, :mod:`.occlusion`, and the scalp layer's shade) darkening less in light hair
    (:func:`.texture.scatter`).

    >>> import numpy as np
    >>> p = Piece(np.zeros((2, 3)), np.zeros((2, 3)), np.zeros((2, 2)), np.zeros((0, 3), np.int64), np.zeros((2, 4)),
    ...           np.zeros((2, 4)), np.zeros(2, np.int64), colors=np.full((2, 3), 0.5, np.float32))
    >>> lit(p, "#2B1B10", "long") is p, round(float(lit(p, "#FFFFFF", "long").colors[0, 0]), 2)
    (True, 0.85)
    """
    lift = scatter(color, style)
    if piece.colors is None or lift <= 0:
        return piece
    return replace(piece, colors=(1 - (1 - piece.colors) * (1 - lift)).astype(np.float32))
