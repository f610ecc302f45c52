"""A style's hair for one body at a level of detail, as the avatar's pieces (MetaHuman's chain).

- LOD 0: alpha-tested, ``Hair``: the scalp shell (:mod:`.scalp`: the roots' shade under the cards)
  inside the hairline and the cards (:mod:`.cards`), each card vertex coloured by its depth in the
  hair (:mod:`.occlusion`, ``COLOR_0``); blended, ``Hair_Fringe``: the shell's band at the hairline (a
  soft edge of alpha) and over it the wisps past the hairline.
- Hanging hair is fitted over the avatar's top where the settings give one (:func:`.bake.hair_head`),
  so a sweater's shoulders and a hood do not poke through it.
- LOD 1: the same with about half the cards, each wider (at most :data:`LOD1_BUDGET` triangles
  in all, Ready Player Me's hair budget).
- LOD 2: one shell over the hair with the cards baked into its texture (:mod:`.bake`), ``Hair``
  alone.

>>> from workbench.options import normalize_avatar_settings
>>> from workbench.body.mesh import body_mesh
>>> m = body_mesh(normalize_avatar_settings({"gender": "feminine"}))
>>> p = hair_pieces(m, "short", 1)
>>> sorted(p), p["Hair"].triangles + p["Hair_Fringe"].triangles <= LOD1_BUDGET
(['Hair', 'Hair_Fringe'], True)
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from ..lod import Piece, merge
from ..mesh import BodyMesh
from . import cards, coils
from .bake import baked, hair_head
from .buzz import PAINTED
from .canon import TUCK, fitted
from .ends import V_RANGE, end_wisps
from .head import Head, smoothstep
from .occlusion import hull, shade, tube
from .outline import CARD_POINT
from .scalp import shell, split, underlay
from .styles import STYLES
from .tail import tied
from .texture import SLEEK, V_END, WISP_ROWS

# Metres under the hair's outer surface at which a card is in its deepest shade (:mod:`.occlusion`): about
# the hair's thickness.
DEPTH = {"short": 0.008, "long": 0.012, "bun": 0.007, "curly": 0.02, "ponytail": 0.01, "bob": 0.012}
# ...and the outermost metres of hanging hair left in the full light, its darkening starting under them (0 where not
# given): long hair hangs in layers 6 to 22 mm out from the body, its cards a few millimetres apart, and shaded from its
# outer surface down each card under the outermost was its own shade, darker the deeper: seen from behind, the inner
# cards between the outer ones drew dark bands a card wide all down the back (blind review L's "striping"; each card's
# edge a hard line between two shades, its "flat strips"). The deepest, towards the body, keep their shade.
FLAT = {"long": 0.01}
# ...and under a ponytail's tail's own outside (occlusion.tube): about its radius and a half (its clumps, tail.CLUMPS,
# stand apart round it with grooves between them, their inner sides open to the light through those; at its radius,
# 0.03, the tail's median light fell to 0.52, test_hair_caps_review_h's 0.58).
TUBE_DEPTH = 0.045

LOD1_BUDGET = 5000
# ...but a style's own where its LOD 0 is so much more that LOD 1 at RPM's budget is less than the contract's half of
# the avatar within 5 points (docs/contract.md): curly hair's coils (the temples' since blind review Q) made LOD 0's hair
# 17,400 triangles; at 5,000, a curly avatar's LOD 1 was 0.43 of its LOD 0 (tests/gltf/test_avatar.py); 7,800, 0.479 (its hair 7,400-7,480).
LOD1_BUDGETS = {"curly": 7800}


def lod1_budget(style: str) -> int:
    """The triangles ``style``'s hair may have at LOD 1 (cards and fringe).

    >>> lod1_budget("short"), lod1_budget("curly")
    (5000, 7800)
    """
    return LOD1_BUDGETS.get(style, LOD1_BUDGET)

# The scalp layer's vertex colour deep inside the hairline (what shows between cards is in their shade).
SCALP_SHADE = 0.8
# ...under curls, its share of that: the depth between the coils (at 0.6, in grey hair, the layer showed in
# the curls' gaps and at the hairline as a smooth pale band, a cap).
CURLY_SHADE = 0.6
# ...under hair pulled back sleek (texture.SLEEK), whose cards lie flat side by side, inside its hairline: the
# cards' own light (in
# their shade the layer drew a dark stripe where the cards of either side part, dark wedges between their points).
SLEEK_SHADE = 0.97
# The styles whose cards lie on the head all over, the nape's too, shaded by their heights over it (:func:`_shaded`);
# the others' cards under the skull's centre are shaded as hanging past it.
LYING = (*SLEEK, "short")
# Metres over the head's envelope within which a sleek style's card triangle lies on the scalp (its cards lie within
# 8 mm; the bun's wraps stand 4 cm over it, the tail hangs clear): those go in a single-sided part, ``Hair_Sleek``.
LIE = 0.01
# Where a sleek style's single-sided cards are backed (:func:`backed`): between these azimuths (degrees from the face,
# either side; the outline of views from the front, from behind and at 35 degrees from either) and within this polar
# angle of the crown (the outline over the top). All backed, the cards took a bun's LOD 1 over its budget (LOD1_BUDGET).
BACKED = (45.0, 135.0, 35.0)
# Styles whose cards over the head are drawn with both faces lit as the front (:func:`over_head`): the bob's cards
# root all over the scalp, each at its own height, and where a view ray grazing the head's outline passed between
# the outermost cards near it, it met an outer card's back beyond the outline. Double-sided, that back was drawn with
# its normal turned into the head, unlit (and in three.js): a dark flap standing over the crown's outline at three
# quarters (blind review Q's defect 6; tests/render/test_bob_crown_review_q.py). Wound both ways in a single-sided
# part (``Hair_Sleek``), the back is lit as the front, with the same outward normals.
TWO_SIDED = ("bob",)
# Styles whose cards' tips are blended, not alpha-tested: from how far along its card (``v``) a card triangle goes to the
# blended part (``Hair_Fringe``): a bob's last row of quads (from 0.909 of its card at LOD 0, 0.875 at LOD 1), where its
# clumps' alpha fades out to their tips (:data:`.outline.FADE`). Cut at 0.5 there, each card ended in a hard pointed
# tooth, the hem a saw in every renderer (blind review W's "sawtoothed, shredded card ends (alpha-test edges)";
# tests/render/test_bob_tips_review_w.py).
SOFT_TIPS = {"bob": 0.86}
# Where (in hairlines from the crown) the layer goes from that shade to the hair's own light: over the single
# hairs past its opaque fill (texture.FILL_END), where they fade into the skin.
EDGE = (0.94, 1.04)


def hair_pieces(mesh: BodyMesh, style: str, lod: int, top: str | None = None,
                bottom: str = "trousers", sleek: bool = False) -> dict[str, Piece]:
    """``{"Hair": ..., "Hair_Fringe": ...}`` for ``style`` at ``lod`` (empty for a style painted on the scalp, :data:`.buzz.PAINTED`), hanging over the
    top of style ``top`` (worn over ``bottom``) where one is given; with ``sleek``, a style pulled back
    (texture.SLEEK) below LOD 2 has its cards that lie on the scalp apart in ``Hair_Sleek`` (:func:`lying`)."""
    if style in PAINTED:
        return {}
    if style not in STYLES:
        raise ValueError(f"hair: unknown style {style!r}")
    if lod >= 2:
        return {"Hair": baked(mesh, style, top, bottom)[0]}
    head = hair_head(mesh, top, bottom)
    g = fitted(mesh, style, lod, head)
    inside, band = (_scalp_shade(p, style) for p in split(shell(mesh, head, style)))
    # Alpha-tested, inner first: the scalp shell inside the hairline (opaque), then the cards, each
    # vertex shaded by its depth in the hair (:mod:`.occlusion`).
    crown = (style, cards.CROWN[style]) if style in cards.CROWN else None
    # (A sleek style's cards, lying on the head, curve across with it: cards.hugged.)
    parts = [cards.piece(mesh, head, s, sort=False, spread=cards.SPREAD.get(style, 1.0), crown=crown,
                         hug=style in SLEEK and s is g.cards, point=CARD_POINT.get(style) if s is g.cards else None,
                         under=style in TUCK and s is g.cards)
             for s in [g.cards, *g.extra]]
    # Hair pulled back is shaded apart from its bun or tail: under the outer surface they made (a bun stands
    # 4 cm over the head), the sleek cards round them lay "deep", a dark ring where the cards meet the bun.
    groups = [[p] for p in parts] if style in SLEEK else [parts]
    if style == "ponytail":
        # (The tail shaded in the tail's own round: occlusion.tube.)
        # (...and its tie a dark band round it: tail.tied)
        light = tube(merge(parts[1:]).positions, TUBE_DEPTH).astype(np.float32)[:len(parts[1].positions)]
        groups, tail = groups[:1], merge([replace(parts[1], colors=np.repeat(light[:, None], 3, 1)), tied(parts[2])])
    # (The bun's coil, the second group, shaded in its own round, under its own outside: occlusion.hull. A bun's groom
    # is its sleek cards and one extra, the coil: styles._bun.)
    assert style != "bun" or len(groups) == 2, "a bun's groups: its sleek cards and its coil"
    shaded = [_shaded(head, merge(group), style, bun=style == "bun" and k == 0, coil=style == "bun" and k == 1)
              for k, group in enumerate(groups)]
    hair = merge(shaded + ([tail] if style == "ponytail" else []))
    hair, soft = _soft_tips(hair, style)
    # (...and under the blended band of hair pulled back an alpha-tested copy of its opaque part, scalp.underlay: last,
    # as alpha-tested triangles draw in any order)
    out = {"Hair": merge([inside, hair] + ([underlay(band)] if style in SLEEK else []))}
    # Blended, inner first: the shell's band at the hairline (a soft edge of alpha), then the wisps.
    fringe = [band] + ([soft] if soft.triangles else [])
    if g.fringe is not None and len(g.fringe.pts):
        wisps = cards.piece(mesh, head, g.fringe, sort=False)
        wisps.uv[:, 1] /= WISP_ROWS        # (the wisp columns' first rows: texture.WISP_ROWS)
        fringe.append(wisps)
    # ...and past hanging cards' tips, fine strands that thin the ends out (:mod:`.ends`), in the hair's shade there.
    ends = end_wisps(g.cards, head, style, lod)
    if len(ends.pts):
        tips = cards.piece(mesh, head, ends)
        tips.uv[:, 1] = V_RANGE[0] + (V_RANGE[1] - V_RANGE[0]) * tips.uv[:, 1]
        # (Shaded with the cards they leave, in their depth there: shaded on their own, each was the outermost hair in
        # its cell, in the full light under the cards' tucked ends in their shade: a row of light spikes, blind review
        # O's "spiky glitchy tips" on the silver bob.)
        at = np.concatenate([parts[0].positions, tips.positions])
        light = shade(head, at, at[:, 1] < head.centre[1], DEPTH[style],
                      FLAT.get(style, 0.0))[len(parts[0].positions):].astype(np.float32)
        fringe.append(replace(tips, colors=np.repeat(light[:, None], 3, 1)))
    out["Hair_Fringe"] = merge(fringe)
    if sleek and style in SLEEK:
        out["Hair"], lie = lying(out["Hair"], head)
        out["Hair_Sleek"] = backed(lie, head)
    elif sleek and style in TWO_SIDED:
        out["Hair"], over = over_head(out["Hair"], head)
        out["Hair_Sleek"] = replace(over, indices=np.concatenate([over.indices, over.indices[:, ::-1]]))
    return out


def over_head(hair: Piece, head: Head) -> tuple[Piece, Piece]:
    """``hair`` without, then with only, its cards' triangles over the head (every vertex higher than the skull's
    centre) where the previews' views see the head's outline (:data:`BACKED`): a GLB draws those single-sided, each
    wound both ways (:data:`TWO_SIDED`).

    >>> from workbench.options import normalize_avatar_settings
    >>> from workbench.body.mesh import body_mesh
    >>> from .head import head_of
    >>> m = body_mesh(normalize_avatar_settings({"gender": "feminine"}))
    >>> rest, over = over_head(hair_pieces(m, "bob", 0)["Hair"], head_of(m))
    >>> 1000 < over.triangles < rest.triangles
    True
    """
    pos = hair.positions.astype(np.float64)
    tris = hair.indices
    rel = pos[tris].mean(1) - head.centre
    az = np.abs(np.degrees(np.arctan2(rel[:, 0], rel[:, 2])))
    polar = np.degrees(np.arccos(np.clip(rel[:, 1] / np.maximum(np.linalg.norm(rel, axis=1), 1e-12), -1, 1)))
    seen = ((az >= BACKED[0]) & (az <= BACKED[1])) | (polar <= BACKED[2])
    card = (hair.uv[tris, 0] < 0.5).all(1)      # the cards (the atlas's left half), not the scalp shell
    on = card & seen & (pos[tris, 1] > head.centre[1]).all(1)
    return _subset(hair, ~on), _subset(hair, on)


def backed(lie: Piece, head: Head) -> Piece:
    """``lie`` (a sleek style's single-sided cards on the scalp) and after it a copy, wound the other way, of its
    triangles where the previews' views see the head's outline (:data:`BACKED`): the cards' backs, lit as their fronts
    (the same outward normals).

    A view ray grazing the head at the outline passes over the cards twice, going in and coming out. Single-sided, only
    the first crossing drew, and where it passed over a lower lock (the locks lie a few millimetres in and out,
    :mod:`.sleek`) it drew nothing: the backdrop showed between the cards along the outline, white lines at the temples
    in front views (blind review K). Double-sided, the second crossing drew their backs with the normals reversed
    (into the head, unlit): a dark stripe there (caps10). A back wound of its own is drawn as a front, its normals as
    they are."""
    rel = lie.positions[lie.indices].mean(1).astype(np.float64) - head.centre
    az = np.abs(np.degrees(np.arctan2(rel[:, 0], rel[:, 2])))
    polar = np.degrees(np.arccos(np.clip(rel[:, 1] / np.maximum(np.linalg.norm(rel, axis=1), 1e-12), -1, 1)))
    seen = ((az >= BACKED[0]) & (az <= BACKED[1])) | (polar <= BACKED[2])
    return replace(lie, indices=np.concatenate([lie.indices, lie.indices[seen][:, ::-1]]))


def lying(hair: Piece, head: Head) -> tuple[Piece, Piece]:
    """``hair`` without, then with only, its cards' triangles that lie on the scalp (all three vertices within
    :data:`LIE` of ``head``'s envelope, facing out of it): a GLB draws those single-sided. Double-sided, where
    the sleek cards turn over the head's outline in a three-quarter view from behind, their backs (normals into
    the head, unlit) showed as a dark stripe along it (caps10; every renderer, three.js's and ours).

    >>> from workbench.options import normalize_avatar_settings
    >>> from workbench.body.mesh import body_mesh
    >>> m = body_mesh(normalize_avatar_settings({"gender": "feminine"}))
    >>> rest, lie = hair_pieces(m, "bun", 0, sleek=True)["Hair"], hair_pieces(m, "bun", 0, sleek=True)["Hair_Sleek"]
    >>> backed = rest.triangles + lie.triangles - hair_pieces(m, "bun", 0)["Hair"].triangles   # copies (:func:`backed`)
    >>> 0 < backed < lie.triangles - backed, lie.triangles > rest.triangles
    (True, True)
    """
    pos = hair.positions.astype(np.float64)
    tris = hair.indices
    rel = pos - head.centre
    r = np.linalg.norm(rel, axis=1)
    height = r - head.envelope(rel / r[:, None])
    p0, p1, p2 = (pos[tris[:, k]] for k in range(3))
    out = np.einsum("ij,ij->i", np.cross(p1 - p0, p2 - p0), (p0 + p1 + p2) / 3 - head.centre) > 0
    card = (hair.uv[tris, 0] < 0.5).all(1)      # the cards (the atlas's left half), not the scalp shell
    on = card & out & (height[tris].max(1) < LIE)
    return _subset(hair, ~on), _subset(hair, on)


def _soft_tips(hair: Piece, style: str) -> tuple[Piece, Piece]:
    """``hair`` (the cards) without (its vertices kept), then with only, its cards' triangles past :data:`SOFT_TIPS` of their length (none
    for a style not there)."""
    tris = hair.indices
    on = ((hair.uv[tris, 0] < 0.5) & (hair.uv[tris, 1] >= SOFT_TIPS.get(style, np.inf))).all(1)
    # (Hair keeps every vertex, in its order: two a row of each card, its cards first, as the cards were made.)
    return replace(hair, indices=hair.indices[~on]), _subset(hair, on)


def _subset(p: Piece, keep: np.ndarray) -> Piece:
    """``p`` with only its triangles ``keep`` (a mask) and the vertices they use, in their order."""
    used = np.unique(p.indices[keep])
    at = np.full(len(p.positions), -1, np.int64)
    at[used] = np.arange(len(used))
    return replace(p, positions=p.positions[used], normals=p.normals[used], uv=p.uv[used], indices=at[p.indices[keep]],
                   joints=p.joints[used], weights=p.weights[used], source=p.source[used],
                   colors=None if p.colors is None else p.colors[used])


def _shaded(head, hair: Piece, style: str, bun: bool = False, coil: bool = False) -> Piece:
    """``hair`` with each vertex coloured by its depth in it (:mod:`.occlusion`), and (``bun``: the sleek cards
    round a bun) by the bun's shade round its base (:func:`.coils.bun_shade`); ``coil``: a bun's coil, by its depth
    under its own outside (:func:`.occlusion.hull`)."""
    if coil:
        light = hull(hair.positions, DEPTH[style])
    else:
        # (Hair pulled back lies on the head all over, the nape's too: shaded as hanging under the skull's centre, by
        # distances from the vertical through it, the hair curving in to the nape lay "under" the back of the head's
        # and drew a dark band across it from the ears down, its top a hard line. The crop's likewise, since pass 67:
        # tests/body/test_sleek_nape_shade.py.)
        hanging = np.zeros(len(hair.positions), bool) if style in LYING else hair.positions[:, 1] < head.centre[1]
        light = shade(head, hair.positions, hanging, DEPTH[style], FLAT.get(style, 0.0))
    if bun:
        light = light * coils.bun_shade(head, hair.positions)
    light = light.astype(np.float32)
    return replace(hair, colors=np.repeat(light[:, None], 3, 1))


def edge(style: str) -> tuple[float, float]:
    """Where (in hairlines) the scalp layer of ``style`` goes from its shade to the hair's light: :data:`EDGE`;
    under curls from further in (their hairline is soft only where its strands are light over the skin).

    >>> edge("short"), edge("curly")
    ((0.94, 1.04), (0.82, 1.0))
    """
    return EDGE if style != "curly" else (round(EDGE[0] - 0.12, 2), round(EDGE[1] - 0.04, 2))


def _scalp_shade(p: Piece, style: str) -> Piece:
    """The scalp layer's vertex colours: the hair's inside shade under the cards, to the hairline (its last
    hairs past it lighter). Under
    curls, which leave it in view between them, darker: the depth between the coils (in light hair, in
    the hair's colour, it read as scalp)."""
    deep = SCALP_SHADE * (CURLY_SHADE if style == "curly" else 1.0)
    at = p.uv[:, 1] * V_END
    if style in SLEEK:
        # (...from a little inside the hairline: in the cards' light to it, it was a pale strip at the temple.)
        deep = deep + (SLEEK_SHADE - deep) * smoothstep(edge(style)[0] - 0.06, edge(style)[0] - 0.16, at)
    # To its hairline in the shade of the cards' roots over it, only its last single hairs fading into the
    # skin past it in the hair's own light (lit so from well inside the hairline, it showed between the
    # cards as a flat pale strip at the temple, and under light curls as a smooth white band, a cap).
    light = deep + (1 - deep) * smoothstep(*edge(style), at)
    return replace(p, colors=np.repeat(light[:, None], 3, 1).astype(np.float32))
