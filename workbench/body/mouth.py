"""The inside of the mouth: which of the body's triangles line it, and the teeth, gums and tongue.

MakeHuman's body is closed at the lips by a pouch of skin that lines the mouth (its own island of the
UV layout); ``jawOpen`` and the visemes open the lips onto it. An open mouth showed a grey slab (the tongue
and the lining reflecting the room), a black void, no upper teeth and a flat pink tongue filling the
opening, so:

- :func:`lining_triangles` finds the pouch (the UV island behind the lips, the same for every body) and
  :func:`lining_depth` how far behind the lips each of its vertices lies; the skin texture paints it red,
  darker towards the back (:mod:`.skin`), and its baked occlusion halves the room's light from a few
  millimetres in (:mod:`.ao`), so no viewer's room light or reflection greys it, and a viewer lit by its room
  alone (three.js with RoomEnvironment) still shows a dark red, not a black hole;
- the Teeth mesh (teeth and tongue) is fitted to the mouth (:func:`fitted_teeth`): MakeHuman's arch is
  wider than the lips, so it narrows towards the back; the upper teeth sit lower, so an open mouth shows
  their edges under the upper lip; the tongue, which stood above the lower teeth and filled the opening, is
  as wide as the lower arch, flatter and set low behind the lower front teeth;
- it gets UVs of its own into a small texture (:func:`mouth_texture`, with :func:`mouth_occlusion` and
  :func:`mouth_roughness` on the same layout): the teeth tooth by tooth along their arch (u) from the biting
  edge to a scalloped gum line (v), their inner faces apart and dark; the tongue across (u) and from its tip
  back (v); everything darker the deeper in the mouth it lies.

>>> img = mouth_texture()
>>> img.shape, img.dtype.name
((256, 256, 3), 'uint8')
>>> gum, tooth, inner = img[0, 10], img[40, 10], img[56, 10]   # (the gum line higher since review P)
>>> bool(gum[0] > 1.3 * gum[1]), bool(tooth.min() > 180), bool(inner.max() < 80)
(True, True, True)
"""

from __future__ import annotations

from dataclasses import replace
from functools import lru_cache

import numpy as np

from .lining import island as _island
from .lod import Piece
from .mesh import BodyMesh
from .teeth_arch import ARCH_UV, along, arched, from_edge, from_middle
from .teeth_crowns import EMBRASURE, NECK, NECK_SHADE, NECK_TO, faint, neck, tints
from .teeth_crowns import corner as _corner
from .teeth_walls import throat, walled
from .tongue import painted as tongue_painted
from .tongue import shaped as tongue_shaped

__all__ = ["lining_triangles", "lining_depth", "mouth_texture", "mouth_occlusion", "mouth_roughness", "mouth_specular",
           "fitted_teeth", "MOUTH_SIZE", "painted_at", "tooth_edges"]

# (128 until review Y: with the upper front teeth painted at their width (:func:`painted_at`) a gap between two of them
# got too few texels to stay dark, tests/body/test_mouth.py's parted teeth and tests/body/test_teeth_shading.py.)
MOUTH_SIZE = 256
# The texture's rows (v). Upper teeth: the outer face from the gum (0) down to the biting edge (UPPER_EDGE), then
# the inner face up towards the palate (UPPER_EDGE + INNER). Lower teeth: the inner face (LOWER_EDGE - INNER) down
# to the biting edge (LOWER_EDGE), then the outer face to the gum (LOWER_EDGE + OUTER). The tongue: its tip
# (TONGUE_V) to its root (1). Along u: the teeth's place along the arch (0 between the front teeth, 1 at the back
# of the last molar), the tongue's distance from its middle line (0) to its side (1).
UPPER_EDGE, LOWER_EDGE, TONGUE_V = 0.2, 0.44, 0.7
OUTER, INNER = 0.2, 0.1
# Each half arch's teeth, front to back, by width (mm): incisors, canine, premolars, molars; the lower incisors
# are narrower than the upper ones.
UPPER_TEETH = (8.5, 6.5, 7.5, 7.0, 6.5, 10.0, 9.5)
LOWER_TEETH = (5.5, 6.0, 7.0, 7.0, 7.0, 11.0, 10.5)
# The upper row's biting edges as a smile shows them: the middle incisors longest, each tooth back shorter by this share
# of the row's height, the canine pointed (CANINE_POINT more at its sides): the edge curves up to the corners with the
# lower lip (one straight edge read as "an identical white strip", a grimace, in blind review G). The lateral incisors
# a little shorter, the canines' tips level with the middle incisors' edges (at 0.1 and 0.08, 1.7 and 1.4 mm, with the
# arch's rise, teeth_arch.ARC_UP, their edges lay behind an open mouth's upper lip: "only two big incisors", blind
# review X, tests/render/test_teeth_arch_review_x.py).
UPPER_ARC = (0.0, 0.04, 0.0, 0.12, 0.15, 0.2, 0.2)
CANINE_POINT = 0.08
# Colours (sRGB albedo): enamel warm white, a little warmer at the gum (not yellow: a smile, which shows the
# upper teeth up to the gum, read as yellow teeth beside the open mouth's white in blind review D) and greyer
# (thin, translucent) at the biting edge; gums pink; the tongue a deeper pink, a groove down its middle.
# (b* 4 and 6: at (0.93, 0.90, 0.84), b* 8, model-viewer's neutral studio showed the teeth cream, blind review F.)
# (At (0.90, 0.885, 0.85) the open mouth's incisors drew 229 / 225 / 219 in our close-ups, "flat pure white", blind
# review X: a little darker, the same hue; at (0.87, 0.855, 0.82) a gap's column of a smile fell under
# tests/body/test_smile_teeth_row.py's white, 0.598 against 0.6, and at (0.88, 0.865, 0.83) with the texture at 256 px,
# whose gaps stay darker, on its 4683's second body.)
ENAMEL = (0.89, 0.875, 0.84)
# Towards the gum (from ROOT_FROM's first share of the row's height, e, to its second) the enamel thins over the
# dentine: darker and warmer, as real teeth are at their necks. (At (0.89, 0.87, 0.83), hardly apart from the
# enamel, the upper row read as "a flat row of identical pure-white teeth, a denture strip" in blind review U; the
# biting half stays as white as before, tests/gltf/test_viewer_materials.py's b* 6, and the neck no yellower than
# saturation 0.15, tests/body/test_mouth.py: at (0.80, 0.73, 0.63) a smile's teeth read as yellow, blind review D.)
ENAMEL_ROOT = (0.83, 0.78, 0.72)
ROOT_FROM = (0.35, 0.95)
# The biting edge's translucent enamel, greyer and cooler, over EDGE_CLEAR of the row's height (e): at 0.06, a
# hairline no close-up drew (blind review X: "flat pure white").
ENAMEL_EDGE = (0.80, 0.815, 0.83)
EDGE_CLEAR = 0.1
GUM = (0.70, 0.36, 0.37)
# Between two teeth: the enamel in its own shadow, a warm grey (not the mouth's red, nor black: (0.30, 0.25, 0.22) drew
# "piano keys" in blind review H), over GAP_SOFT mm of each tooth's side.
GAP = (0.42, 0.37, 0.34)
GAP_SOFT = 0.45
# The V between two teeth at their biting edge: the dark behind them, near black (DEEP's red read as red gaps).
GAP_EDGE = (0.1, 0.06, 0.06)
# The back of the mouth, in its own shadow: what the teeth and tongue turn to towards the throat: the lining's
# :data:`workbench.body.skin.THROAT` a little darker, its hue (at (0.24, 0.11, 0.10), dark panels beside the lining, review N; at (0.13, 0.06, 0.06), under half of it, the back teeth's walls and
# the tongue's back drew black wedges on the lining's dark red, blind review L: tests/render/test_cavity_wedges_review_l.py;
# not the (0.15, 0.03, 0.035) called blood red; no lighter, or the back teeth show as a speck at a closed mouth's corner,
# tests/render/test_mouth_renders.py; with their least occlusion, OCC_LEAST, a dark red in a room-lit viewer).
DEEP = (0.28, 0.145, 0.135)
# Each row's gum line (e from the biting edge, 0, to the gum, 1): between two teeth, and how much higher over a
# tooth's middle. The upper row's gum shows only at the top (at 0.66 between teeth, a smile's parted lips showed the
# pink points between the teeth and the gum over their tops as red gaps in blind review F; at 0.72, gum on the smile's
# canines; at 0.82, a pink band over a smile's teeth, blind review P, tests/render/test_smile_gaps_review_p.py). The
# lower row's from 0.42 (0.5 showed none under aa's lower teeth, "no gums" in blind review M). The upper row's gum from
# 0.88 since its roots are no longer shortened (UPPER_ROOTS): the crown a fifth taller (7.2 mm at the middle incisors
# was less than a social smile shows), the gum over it where a smile's lifted lip stops (review U: "upper teeth showing with a hint of gum";
# from 0.8, 1 to 1.3 mm of gum showed over the smile's teeth, a pink band, tests/render/test_smile_gaps_review_p.py).
UPPER_GUM = (0.88, 0.05)
LOWER_GUM = (0.42, 0.14)
# Where along the arch (u) each row's outer face turns to the mouth's shadow (DEEP, the least occlusion, rough
# enamel), from the first share to the second: the upper row's from the first premolar (a smile shows the upper
# teeth to there, the canines' and premolars' faces turned forward by the corners drawn back; dark from the lateral
# incisor, as the lower row is, the canines showed as dark gaps beside two or four white teeth, "missing teeth" in
# blind review F); the lower row's, in the lower lip's shade and seen in an open mouth only, from the lateral incisor.
# (The upper row's from 0.34 until review X: with its front teeth painted at their width, UPPER_SPAN, :func:`painted_at`,
# the first premolar's front is at 0.29 (:func:`tooth_edges`), about 22.5 mm along the arch from the middle line, and the
# shadow starts 0.31, some 1.7 mm into it, where 0.34 had been 26 mm; the second share 44 mm, main's 0.52 42 mm. Both
# on the texture's u, the place along the arch.)
SHADOW_FROM = {"upper": (0.31, 0.55), "lower": (0.2, 0.55)}
# The least of the room's light the teeth and tongue get (their baked occlusion), at the back and on the teeth's
# inner faces: a tenth drew them black in three.js; the colour (DEEP) keeps them dark.
OCC_LEAST = 0.4
# The lower teeth in the upper lip's and teeth's shadow (colour, occlusion scaled): at full white, a glowing crescent.
# Their colour a warm shade of the enamel's, their occlusion LOWER_OCC: at 0.78 of the enamel in every channel, and
# the key's light cut by an occlusion of 0.78 too, they drew L* 50 to 59 at C* 3 to 4 in blind review U's aa close-ups,
# "small, grey, floating". (No warmer: tests/body/test_mouth.py's saturation 0.15 of the texture's bright texels.)
LOWER_SHADE = (0.80, 0.78, 0.75)
LOWER_OCC = 1.0
# The upper row in the upper lip's shade towards its gum (from LIP_COVER's first share of the row's height, e, to the
# gum): its colour times the second, its baked occlusion times the third. Lit alike from the biting edge to the gum,
# the row read as a "denture strip ... no teeth AO" (blind review U, tests/render/test_teeth_review_u.py). Mostly in
# the occlusion: a smile shows the row from the gum half way down, and darker there in colour (0.85, 0.93) its white
# row narrowed or broke (tests/body/test_smile_teeth_row.py: 0.46 to 0.53 of the mouth's width, a canine at 0.58 of
# white). (The corners' shade is the mouth's own, SHADOW_FROM's: darker from the canines as well, the gap after the
# lateral incisor fell under tests/body/test_teeth_shading.py's 0.39 of the teeth's light.)
LIP_COVER = (0.1, 0.97, 0.35)
# Roughness: wet enamel, gums, tongue, and the teeth's unlit inner faces.
# (A tongue at 0.5 mirrored the browsers' room as a grey sheen over its pink: the lit floor of a box.)
ROUGH_ENAMEL, ROUGH_GUM, ROUGH_TONGUE, ROUGH_INNER = 0.25, 0.4, 0.75, 0.85
# The arch narrowed towards its back (at TEETH_DEPTH behind the front teeth, by TEETH_NARROW of its width; the
# front teeth stay). The upper teeth lowered, so an open mouth shows their edges under the upper lip as a
# relaxed open mouth does (2 to 3 mm) and the closed lips still cover them, the upper incisors a little in front
# of the lower ones (an overbite).
TEETH_NARROW, TEETH_DEPTH, UPPER_DOWN = 0.35, 0.02, 0.0065
# The share of each row's height kept from its biting edge (the roots and gums shortened; the upper row's whole since
# review U: its gum is what a smile's lifted upper lip shows, workbench.body.lip_lift.UPPER_MIDDLE).
LOWER_ROOTS = 0.65
UPPER_ROOTS = 1.0
# The upper row's front teeth (the incisors and canines) drawn at this share of the width they had when the texture's
# teeth (UPPER_TEETH, 55.5 mm) ran over all of MakeHuman's row, about 80 mm along its arch (:func:`.teeth_arch.along`)
# from the middle line to its back: each was 1.4 times its width (the middle incisors 12 mm along the arch, 10 mm of
# the open mouth's width, the lateral incisors on the row's turn and the canines on its side, seen edge on: "only two
# big incisors", blind review X, tests/render/test_teeth_arch_review_x.py). The back teeth take the rest of the row
# (all of it at this share, a smile's corner showed the last molar's shade where a premolar was,
# tests/body/test_smile_teeth_row.py). So painted in the texture (:func:`painted_at`), the mesh's u left the place
# along the arch.
UPPER_SPAN = 0.7
# How far behind the front teeth the arch's front curve is centred (metres).
ARCH_BEND = 0.02
# MakeHuman's tongue stands above the lower teeth: it is made flatter, its back lowered, and set down behind the lower
# front teeth (its top TONGUE_BELOW under their edges, its tip TONGUE_BEHIND behind their front). Its width: TONGUE_WIDE's
# first share of it at the back, the second at its tip, over its third (m) from the tip, so its sides lie against the
# lower teeth (narrowed to 0.86, the lining's floor showed beside it as two red struts, blind review J).
TONGUE_WIDE = (1.16, 1.3, 0.025)
TONGUE_FLAT = 0.6
TONGUE_BELOW = 0.0025
TONGUE_BEHIND = 0.005
TONGUE_LENGTH = 0.055
# Its top domed across (m): its sides this much under its middle line, by the square of the distance out (MakeHuman's,
# made flatter, rose 0.9 mm from its sides to its middle: "a flat pink slab", blind review K).
TONGUE_DOME = 0.003


def lining_triangles(mesh: BodyMesh) -> np.ndarray:
    """Indices into ``mesh.face_groups["body"]`` of the triangles that line the mouth (one UV island)."""
    return _lining(mesh)[0]


def lining_depth(mesh: BodyMesh) -> np.ndarray:
    """Per vertex of ``mesh``, metres from the lips' inner edge (0 for vertices off the lining and at
    the lips, growing to about 11 cm at the back of the mouth)."""
    return _lining(mesh)[1]


def _lining(mesh: BodyMesh) -> tuple[np.ndarray, np.ndarray]:
    from scipy.spatial import cKDTree
    lining, verts = _island()
    depth = np.zeros(len(mesh.positions), np.float32)
    # From the lips' inner edge, not the depth behind the lips' front: the corners lie 15 mm behind the middle, so the
    # lining met the lips there already dark (the corners' black polygons in blind review G).
    p = mesh.positions[verts].astype(np.float64)
    depth[verts] = cKDTree(p[np.isin(verts, _edge())]).query(p)[0]
    depth.setflags(write=False)
    return lining, depth


@lru_cache(maxsize=1)
def _edge() -> np.ndarray:
    """The lining's vertices on the lips' inner edge (shared with the skin's triangles): MakeHuman's topology."""
    from .topology import topology
    tris_all, _, _, _, face_groups = topology()
    tris = tris_all[face_groups["body"]]
    inside = np.zeros(len(tris), bool)
    inside[_island()[0]] = True
    return np.intersect1d(tris[inside], tris[~inside])


def _smoothstep(e0, e1, x):
    t = np.clip((x - e0) / (e1 - e0), 0.0, 1.0)
    return t * t * (3 - 2 * t)


def _row_knots(upper: bool) -> tuple[tuple[float, ...], tuple[float, ...]]:
    """The map between the texture's u (the place along the arch) and a row's painted teeth (its widths over 0 to 1)
    as knots (texture u, painted share) of a line drawn piecewise; straight through for the lower row."""
    if not upper:
        return (0.0, 1.0), (0.0, 1.0)
    knee = sum(UPPER_TEETH[:3]) / sum(UPPER_TEETH)
    end = ARCH_UV[0] + ARCH_UV[1]
    return (0.0, ARCH_UV[0], ARCH_UV[0] + UPPER_SPAN * (knee - ARCH_UV[0]), end, 1.0), (0.0, ARCH_UV[0], knee, end, 1.0)


def painted_at(u: np.ndarray, upper: bool = True) -> np.ndarray:
    """Where on a row's painted teeth (its widths, :data:`UPPER_TEETH` or :data:`LOWER_TEETH`, over 0 to 1) the
    texture's ``u`` (the place along the arch, :data:`.teeth_arch.ARCH_UV`) lies: on the upper row the front teeth
    (incisors and canines) at :data:`UPPER_SPAN` of their width over the whole row, the back teeth over the rest.
    (Painted so, not by moving the mesh's texture coordinates: the texture's u stays the place along the arch, as the
    lower row's and SHADOW_FROM's, and the canines, remapped to 0.28 to 0.41 of the texture at the arch's 0.195 to
    0.29 (:func:`tooth_edges`), counted with the cavity in tests/render/test_mouth_interior_review_m.py and with the walls in
    tests/render/test_mouth_walls_review_n.py.) The one map the painter and every reader of the texture use
    (:func:`tooth_edges`).

    >>> painted_at(np.array([0.02, 0.29, 0.98])).round(3).tolist()
    [0.02, 0.406, 0.98]
    """
    us, shares = _row_knots(upper)
    return np.interp(u, us, shares)


def tooth_edges(upper: bool = True) -> np.ndarray:
    """The texture's u of each of a row's teeth's sides, front to back (the first 0, the front of the middle incisor;
    then the back of each tooth): tooth k lies between ``edges[k]`` and ``edges[k + 1]``, its middle half way.

    >>> edges = tooth_edges()
    >>> len(edges), edges.round(3).tolist()[:4], round(float(edges[-1]), 3)
    (8, [0.0, 0.113, 0.195, 0.29], 1.0)
    >>> tooth_edges(upper=False).round(3).tolist()[:3]
    [0.0, 0.102, 0.213]
    """
    widths = np.asarray(UPPER_TEETH if upper else LOWER_TEETH, np.float64)
    us, shares = _row_knots(upper)
    return np.interp(np.concatenate([[0.0], np.cumsum(widths) / widths.sum()]), shares, us)


def _teeth(widths, u: np.ndarray, e: np.ndarray, seed: int, gum_at: tuple[float, float], arc=None):
    """The outer face of a tooth row on (u along the arch, e from the edge to the gum): colour, gum share, how
    deep in the gap between two teeth each texel lies (0 on a tooth's face, 1 in the gap; 1 too below a tooth's
    edge where ``arc``, per tooth, shortens it: see :data:`UPPER_ARC`), and the upper incisors' necks (where the gap's
    shade is :data:`NECK_SHADE`; 0 on a row without ``arc``)."""
    edges = np.cumsum(widths) / sum(widths)
    k = np.minimum(np.searchsorted(edges, u), len(widths) - 1)
    start = np.concatenate([[0.0], edges[:-1]])[k]
    t = (u - start) / (edges[k] - start)                        # across the tooth, 0 to 1
    mm = np.minimum(t, 1 - t) * np.asarray(widths, np.float32)[k]   # from the tooth's nearer side
    mm = np.where((k == 0) & (t < 0.5), from_middle(u, sum(widths)), mm)
    # The gaps: a soft line along the tooth, opening into a V towards the biting edge (rounded corners). Dark
    # enough to part the teeth in a 512 px close-up (hairlines merged them into one white slab), narrow enough to
    # keep them one row (1.6 mm of dark red between two teeth read as pegs with red gaps in blind review B).
    corner = _corner(e)
    nk = neck(e, gum_at[0]) * _smoothstep(NECK_TO[1], NECK_TO[0], u) if arc is not None else 0.0 * e   # (upper necks)
    inset = EMBRASURE[1] * corner + NECK[1] * nk
    gap = _smoothstep(GAP_SOFT + inset, -0.1 + inset, mm) * (0.75 + 0.25 * np.maximum(corner, nk))
    if arc is not None:
        cut = np.asarray(arc, np.float32)[k] + CANINE_POINT * (k == 2) * np.abs(2 * t - 1)
        gap = np.maximum(gap * faint(e), _smoothstep(cut + 0.015, cut - 0.01, e) * (cut > 0))   # (a smile's band)
    # The gum line: scalloped, higher over each tooth's middle than between two teeth; the lower row's lower on
    # the tooth (its gums show under the lower teeth in an open mouth).
    gum = _smoothstep(0.0, 0.06, e - (gum_at[0] + gum_at[1] * np.sin(np.pi * t)))
    # Each tooth rounded (darker towards its sides, as a curved face turns from the light: flat to its gap line, a row
    # read as one white block, blind review H) and its own shade of white.
    shade = tints(seed, len(widths))[k] * (1 - 0.35 * (1 - np.sin(np.pi * t)) ** 1.5)[..., None]
    enamel = np.array(ENAMEL, np.float32)
    root = _smoothstep(*ROOT_FROM, e)[..., None]
    tip = _smoothstep(EDGE_CLEAR, 0.0, e)[..., None]
    colour = (enamel * (1 - root) + np.array(ENAMEL_ROOT, np.float32) * root) * (1 - tip) \
        + np.array(ENAMEL_EDGE, np.float32) * tip
    return colour * shade, gum, gap, nk


def covered(e: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The upper row's shade under the lip at ``e`` (from the biting edge, 0, to the gum, 1): (times its colour, times
    its baked occlusion), 1 at the biting edge (see :data:`LIP_COVER`).

    >>> colour, occ = covered(np.array([0.1, 0.6, 1.0]))
    >>> colour.round(2).tolist(), occ.round(2).tolist()
    ([1.0, 0.98, 0.97], [1.0, 0.62, 0.35])
    """
    lip = _smoothstep(LIP_COVER[0], 1.0, e)
    return 1 - (1 - LIP_COVER[1]) * lip, 1 - (1 - LIP_COVER[2]) * lip


@lru_cache(maxsize=1)
def _layout():
    """The texture's texels as (u, v) and what each is: the colour (before the mouth's shadow), roughness,
    occlusion and how deep in the mouth it lies (0 lit, 1 in its shadow); read-only, made once (each new skin
    tone's :func:`mouth_texture` made it again: 40 ms of a new avatar's model, bench/RESULTS.md pass 74)."""
    n = MOUTH_SIZE
    v = np.broadcast_to((np.arange(n) + 0.5)[:, None] / n, (n, n)).astype(np.float32)
    u = np.broadcast_to((np.arange(n) + 0.5)[None, :] / n, (n, n)).astype(np.float32)
    colour = np.zeros((n, n, 3), np.float32)
    rough = np.full((n, n), ROUGH_INNER, np.float32)
    occ = np.ones((n, n), np.float32)
    deep = np.zeros((n, n), np.float32)
    gum_c = np.array(GUM, np.float32)
    for widths, lo, hi, edge, seed, gum_at, lit, (s0, s1), arc in (
            (UPPER_TEETH, 0.0, UPPER_EDGE, UPPER_EDGE, 1, UPPER_GUM, (1.0, 1.0), SHADOW_FROM["upper"], UPPER_ARC),
            (LOWER_TEETH, LOWER_EDGE, LOWER_EDGE + OUTER, LOWER_EDGE, 2, LOWER_GUM, (LOWER_SHADE, LOWER_OCC),
             SHADOW_FROM["lower"], None)):
        outer = (v >= lo) & (v < hi)
        e = np.abs(v - edge) / OUTER
        c, gum, gap, nk = _teeth(widths, painted_at(u, arc is not None), e, seed, gum_at, arc)
        c = c * (1 - gum[..., None]) + gum_c * (0.92 + 0.08 * np.sin(np.pi * u * 40))[..., None] * gum[..., None]
        # (The gap's shade: the enamel's own in shadow along the teeth, the mouth's dark only in the V at the edge.)
        corner = _corner(np.abs(v - edge) / OUTER)[..., None]
        shade = np.array(GAP, np.float32) * (1 - corner) + np.array(GAP_EDGE, np.float32) * corner
        if arc is not None:
            shade = shade * (1 - nk[..., None]) + np.array(NECK_SHADE, np.float32) * nk[..., None]
        c = c * (1 - gap[..., None]) + shade * gap[..., None]
        cover = covered(e) if arc is not None else (1.0, 1.0)
        c = c * np.asarray(lit[0], np.float32) * np.asarray(cover[0])[..., None]
        colour[outer] = c[outer]
        # (Rough towards the back: the molars' smooth enamel, seen edge-on at the mouth's sides, mirrored the room as
        # the grey walls of a lit box in the browsers, blind review B.)
        back = _smoothstep(s0, s1 - 0.05, u)
        rough[outer] = ((ROUGH_ENAMEL * (1 - gum) + ROUGH_GUM * gum) * (1 - back) + ROUGH_INNER * back)[outer]
        # The back teeth in the mouth's shadow; the front teeth's gaps and gum line a little occluded (not the back's: stripes).
        occ[outer] = (lit[1] * cover[1] * (1 - (1 - OCC_LEAST) * _smoothstep(s0 - 0.05, s1 - 0.05, u)) * (1 - (0.25 * gap + 0.15 * gum) * (1 - back)))[outer]
        deep[outer] = (0.92 * _smoothstep(s0, s1, u))[outer]
        # The inner faces, which look into the mouth: lit a little at the edge, dark towards the palate.
        inner = (v >= edge - INNER) & (v < edge) if edge == LOWER_EDGE else (v >= edge) & (v < edge + INNER)
        e_in = np.abs(v - edge) / INNER
        colour[inner] = (c * 0.25)[inner]
        occ[inner] = (0.2 * (1 - e_in) + OCC_LEAST)[inner]
        deep[inner] = np.maximum(0.7 + 0.3 * _smoothstep(0.0, 0.6, e_in), 0.92 * _smoothstep(0.2, 0.55, u))[inner]
    # The tongue (:func:`.tongue.painted`): a groove down its middle, darker at its sides; deeper in, the mouth's shadow.
    tongue = v >= TONGUE_V
    t_colour, t_occ, t_deep = tongue_painted(u, np.clip((v - TONGUE_V) / (1 - TONGUE_V), 0, 1), OCC_LEAST)
    colour[tongue], occ[tongue], deep[tongue] = t_colour[tongue], t_occ[tongue], t_deep[tongue]
    rough[tongue] = ROUGH_TONGUE
    for a in (colour, rough, occ, deep):
        a.setflags(write=False)
    return colour, rough, occ, deep


@lru_cache(maxsize=8)
def mouth_texture(exposure: float = 1.0) -> np.ndarray:
    """The teeth, gums and tongue's texture (MOUTH_SIZE, MOUTH_SIZE, 3) uint8 for :func:`fitted_teeth`: the colour
    turned to the mouth's dark red as deep in it as each texel lies (a viewer's direct light reaches into an
    open mouth; only the baked colour keeps its back dark); the teeth and gums' times ``exposure`` in linear light
    (:func:`workbench.body.tone.teeth_exposure`: under 1 beside a deep skin)."""
    from ..options.colour import linear_to_srgb, srgb_to_linear

    colour, _, _, deep = _layout()
    teeth = slice(0, int(TONGUE_V * MOUTH_SIZE))
    colour = colour.copy()
    colour[teeth] = linear_to_srgb(srgb_to_linear(colour[teeth]) * exposure)
    shadow = np.ones((MOUTH_SIZE, MOUTH_SIZE, 3), np.float32)
    shadow[teeth] = throat((np.arange(MOUTH_SIZE) + 0.5) / MOUTH_SIZE)       # (the teeth's rows, not the tongue's)
    img = colour * (1 - deep[..., None]) + shadow * np.array(DEEP, np.float32) * deep[..., None]
    out = np.clip(img * 255 + 0.5, 0, 255).astype(np.uint8)
    out.setflags(write=False)
    return out


@lru_cache(maxsize=1)
def mouth_occlusion() -> np.ndarray:
    """The teeth and tongue's baked occlusion on :func:`mouth_texture`'s layout (glTF reads the red channel): open
    at the front teeth, :data:`OCC_LEAST` of the light on the inner faces and at the back, so the studio's light
    and its reflections (which three.js and model-viewer scale by it) do not grey the inside of an open mouth, nor
    black it out.

    >>> occ = mouth_occlusion()
    >>> int(occ[36, 16, 0]) > 200, 90 < int(occ[-2, 128, 0]) < 120
    (True, True)
    """
    occ = _layout()[2]
    out = np.ascontiguousarray(np.repeat(np.round(occ * 255).astype(np.uint8)[..., None], 3, axis=2))
    out.setflags(write=False)
    return out


@lru_cache(maxsize=1)
def mouth_roughness() -> np.ndarray:
    """The teeth and tongue's roughness (0..255) on the same layout: wet enamel, the gums and the tongue rougher,
    the inner faces rough (no mirror of the room inside a mouth)."""
    out = np.round(_layout()[1] * 255).astype(np.uint8)
    out.setflags(write=False)
    return out


@lru_cache(maxsize=1)
def mouth_specular() -> np.ndarray:
    """How strong the teeth and tongue's reflections are (0..255, ``KHR_materials_specular``'s texture) on the same
    layout: full on the front teeth, none as deep in the mouth as each texel lies (the back teeth, the teeth's inner
    faces, the tongue's back). three.js and model-viewer light an open mouth's inside with their whole room: its
    reflection there, brightest at the grazing angles a mouth's inside is seen at, was a grey haze over the tongue
    and the back of the mouth (blind review F); the baked occlusion scales it, but not to nothing.

    >>> spec = mouth_specular()
    >>> int(spec[5, 2]), int(spec[-2, 64]) < 20
    (255, True)
    """
    deep = _layout()[3]
    edge = int(LOWER_EDGE * MOUTH_SIZE)
    if (edge + 0.5) / MOUTH_SIZE < LOWER_EDGE:
        # The row a lower tooth's biting edge falls in is painted as its inner face (at 256 px), but the vertices on
        # the edge sample it: it reflects as the front's next to it, or a viewer drew the front teeth's edge dull.
        deep = deep.copy()
        deep[edge] = deep[edge + 1]
    out = np.round((1 - _smoothstep(0.2, 0.7, deep)) * 255).astype(np.uint8)
    out.setflags(write=False)
    return out


def prepare() -> None:
    """Make what every mouth shares (the lining's triangles, the textures) before a first avatar needs them
    (:mod:`workbench.body.warm`)."""
    _island()
    mouth_texture()
    mouth_occlusion()
    mouth_roughness()
    mouth_specular()


def fitted_teeth(mesh: BodyMesh, p: Piece) -> Piece:
    """The ``Teeth`` piece (teeth and tongue, cut from ``mesh``) fitted to the mouth (see the constants) with UVs
    into :func:`mouth_texture`: for the teeth u along the arch and v from the biting edge to the gum, outer and
    inner faces apart; for the tongue u across it and v from its tip back. The morph targets' deltas move it
    from there (the lower teeth and the tongue with the jaw)."""
    pos = p.positions.astype(np.float64)
    rows = {g: np.isin(p.source, mesh.groups[g]) for g in ("helper-upper-teeth", "helper-lower-teeth", "helper-tongue")}
    upper, lower, tongue = rows.values()
    teeth = upper | lower
    front = float(pos[teeth, 2].max())
    mid = (pos[teeth, 0].min() + pos[teeth, 0].max()) / 2
    back = np.clip((front - pos[:, 2]) / TEETH_DEPTH, 0, 1)
    pos[:, 0] = mid + (1 - TEETH_NARROW * back) * (pos[:, 0] - mid)
    pos[upper] += (0.0, -UPPER_DOWN, 0.0)
    # Each row's roots drawn towards its biting edge: MakeHuman's lower row reached below the mouth's floor,
    # where an open jaw pushed it through the lining into the chin, and its upper row's top met the upper lip's
    # inside where the lip rises (viseme_I).
    edge = float(pos[lower, 1].max())
    pos[lower, 1] = edge - LOWER_ROOTS * (edge - pos[lower, 1])
    edge = float(pos[upper, 1].min())
    pos[upper, 1] = edge + UPPER_ROOTS * (pos[upper, 1] - edge)
    pos[upper] = arched(pos[upper], mid, front)          # (its flat front bent: the canines back and higher)
    q = pos[tongue]
    tip = float(q[:, 2].max())
    q[:, 0] = mid + np.interp(tip - q[:, 2], (0.0, TONGUE_WIDE[2]), TONGUE_WIDE[1::-1]) * (q[:, 0] - mid)
    # Flatter, and its back lowered: from its tip's height at the tip to 0.3 of it at TONGUE_LENGTH back.
    bottom = float(q[:, 1].min())
    flat = TONGUE_FLAT * (1 - 0.7 * np.clip((tip - q[:, 2]) / TONGUE_LENGTH, 0, 1))
    q[:, 1] = bottom + flat * (q[:, 1] - bottom)
    q[:, 1] -= TONGUE_DOME * ((q[:, 0] - mid) / max(float(np.abs(q[:, 0] - mid).max()), 1e-9)) ** 2
    q = tongue_shaped(q, mid)
    q += (0.0, float(pos[lower, 1].max()) - TONGUE_BELOW - float(q[:, 1].max()),
          float(pos[lower, 2].max()) - TONGUE_BEHIND - tip)
    pos[tongue] = q

    uv = np.zeros((len(pos), 2), np.float32)
    outward, wall = np.zeros((len(pos), 3)), np.zeros(len(pos))     # (wall: how far in the mouth's shadow, teeth_walls)
    for mine, up in ((upper, True), (lower, False)):
        r = pos[mine]
        u = along(r, mid, front)
        e = from_edge(u, r[:, 1], up)
        # The inner faces: those whose normal points back into the arch, not the biting edges (which face down or
        # up). Out of the arch is, seen from above, away from its front's centre of curve (ARCH_BEND behind the
        # front teeth) round the front, and straight out to the side along the back teeth.
        centre = front - ARCH_BEND
        radial = np.column_stack([r[:, 0] - mid, np.maximum(r[:, 2] - centre, 0.0)])
        radial /= np.maximum(np.linalg.norm(radial, axis=1, keepdims=True), 1e-9)
        n = p.normals[mine]
        inner = ((n[:, [0, 2]] * radial).sum(1) < -0.2) & (np.abs(n[:, 1]) < 0.8)
        if up:
            v = np.where(inner, UPPER_EDGE + INNER * e, UPPER_EDGE - OUTER * e)
        else:
            v = np.where(inner, LOWER_EDGE - INNER * e, LOWER_EDGE + OUTER * e)
        uv[mine] = np.column_stack([ARCH_UV[0] + ARCH_UV[1] * u, v])
        wall[mine] = np.where(inner, 1.0, _smoothstep(*SHADOW_FROM["upper" if up else "lower"], u))
        outward[np.flatnonzero(mine)[~inner]] = np.column_stack([radial[~inner, 0], np.zeros((~inner).sum()),
                                                                 radial[~inner, 1]])
    q = pos[tongue]
    side = np.abs(q[:, 0] - mid) / max(float(np.abs(q[:, 0] - mid).max()), 1e-9)
    depth = np.clip((float(q[:, 2].max()) - q[:, 2]) / TONGUE_LENGTH, 0, 1)
    uv[tongue] = np.column_stack([side, TONGUE_V + (1 - TONGUE_V) * depth * 0.98 + 0.005])
    uv = np.clip(uv, 0.002, 0.998)
    # The normals of every tooth vertex not on an inner face (the outer faces, the biting edges and the rows' tops) straight
    # out of the arch: MakeHuman's coarse rows' normals, bent down over the biting edge, drew the upper teeth white at the
    # top over a grey band of facets (blind review K).
    out = replace(p, uv=uv).moved(pos)
    flat = np.linalg.norm(outward, axis=1) > 0.5
    return replace(out, normals=walled(np.where(flat[:, None], outward, out.normals), wall))
