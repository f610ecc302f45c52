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
from .ground import GROUNDED, ground_texture
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
# The ponytail's as well: its tail is a smooth bundle, and at three quarters the room's reflection lay down it as a grey
# sheen over black hair, "ribbed grey plastic" (blind review AS), "one solid slab" (AT): AT's #12 (#272727) 63.1 levels
# over its colour on the sheets' three.js page at 0.3, 55.6 now (tests/render/test_ponytail_threejs_review_at.py).
SPECULAR_OF = {"bob": 0.12, "ponytail": 0.12}
# The bob's light down its mass to its ends: full from the hair's top to the first figure of its height, then falling,
# as the rest's second figure's power, to the third figure of its light at the hem's lowest, where the ends curve under and
# the layers lie over one another. Its depth in the hair (.occlusion) shades its under-layers, not its outer surface,
# and light hair loses most of that (.texture.scatter): a platinum or pale blue bob drew one flat colour from crown to
# hem, "smeared paint ... no root darkening and no AO under the layers" (blind review AA, #4 #CCB18C and #6 #7499D5;
# tests/render/test_bob_mass_review_aa.py). Over the hair's height, not along each card: the cards cross one another
# all over the bob (a shade along them drew blocks, blind review O's mosaic, .clumps.EVEN); kept after the scatter's
# lift, which is for the under-layers. Steep at the ends, not a broad fall from the crown: darkened so (down to 0.6 of
# the light from a quarter of the height), review AA's #4 spread 21 L* instead of 16.5, but the blended tips, half the
# backdrop, stood out lighter than the darkened hair over them, review O's light spikes at the hem 49.8 against 42
# (tests/render/test_bob_review_o.py; now 39.5, 37.6 before). As the fourth power since bob40's loft (.scalp.LOFT): the
# crown 1.5 cm higher took more of the front portrait at full light, and AA's #4 spread 14.4 L* (the sixth power).
FORM = {"bob": (0.3, 4.0, 0.4)}


def material(color: str, style: str, mesh, lod: int, top: str | None = None, bottom: str = "trousers",
             skin: str | None = None) -> dict:
    """``image`` (RGBA), ``roughness`` and ``anisotropy`` for ``style`` in ``color`` at ``lod`` (LOD 2's
    texture is the cards baked for this body, ``mesh``, over the top ``top``; below LOD 2 ``mesh`` is not
    read and may be None); curls lighter than the ``skin`` tone show it at their hairline (:func:`.ground.grounded`)."""
    if lod >= 2:
        image = _baked_texture(mesh, style, color, top, bottom)
    else:
        image = ground_texture(color, skin, style) if style in GROUNDED and skin is not None else hair_texture(color, style)
    return dict(image=image, roughness=ROUGHNESS[style], anisotropy=ANISOTROPY[style],
                specular=SPECULAR_OF.get(style, SPECULAR))


@per_body
def _baked_texture(mesh, style: str, color: str, top: str | None, bottom: str):
    from .bake import baked

    return tint(baked(mesh, style, top, bottom)[1], color)


def lit(piece: Piece, color: str, style: str, span: tuple[float, float] | None = None) -> Piece:
    """A hair part (``Hair``, ``Hair_Sleek``, ``Hair_Fringe``) of ``style`` in ``color``: its vertex colours (each
    vertex's depth in the hair, :mod:`.occlusion`, and the scalp layer's shade) darkening less in light hair
    (:func:`.texture.scatter`); in a style with a shade over its mass (:data:`FORM`), that too, over the hair's
    heights ``span`` (its lowest and highest, of every hair part).

    >>> import numpy as np
    >>> p = Piece(np.zeros((2, 3)), np.zeros((2, 3)), np.zeros((2, 2)), np.zeros((0, 3), np.int64), np.zeros((2, 4)),
    ...           np.zeros((2, 4)), np.zeros(2, np.int64), colors=np.full((2, 3), 0.5, np.float32))
    >>> lit(p, "#2B1B10", "long") is p, round(float(lit(p, "#FFFFFF", "long").colors[0, 0]), 2)
    (True, 0.85)
    """
    lift = scatter(color, style)
    if piece.colors is None or (lift <= 0 and (style not in FORM or span is None)):
        return piece
    colors = 1 - (1 - piece.colors) * (1 - lift)
    if style in FORM and span is not None:
        colors = colors * form(piece.positions[:, 1], span, style)[:, None]
    return replace(piece, colors=colors.astype(np.float32))


def span(parts: dict[str, Piece]) -> tuple[float, float] | None:
    """The lowest and highest of the hair ``parts``' vertices (all of them: its shade over the mass, :data:`FORM`, runs
    from the crown to the hem whichever part they are in), or None without any."""
    heights = [p.positions[:, 1] for p in parts.values() if len(p.positions)]
    return (float(min(h.min() for h in heights)), float(max(h.max() for h in heights))) if heights else None


def form(heights: np.ndarray, span: tuple[float, float], style: str) -> np.ndarray:
    """Per vertex the light :data:`FORM` leaves at ``heights`` over the hair's ``span`` (lowest, highest).

    >>> form(np.array([1.0, 0.1, 0.0]), (0.0, 1.0), "bob").round(2).tolist()
    [1.0, 0.68, 0.4]
    """
    start, power, hem = FORM[style]
    t = (span[1] - np.asarray(heights, np.float64)) / max(span[1] - span[0], 1e-9)
    return 1 - (1 - hem) * np.clip((t - start) / (1 - start), 0, 1) ** power
