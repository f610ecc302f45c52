"""Hair wound round itself: curly hair's coils, and the bun's wraps.

- **Curly**: clumps rooted over the scalp; each clump's axis is grown like any strand, leaving the head
  steeply at its root and bending over along it by its weight (:data:`DROOP`; rising at one slope to the
  tip, every clump stood straight out, a fright wig: blind review K), so the hair's volume stands off the
  head and falls, and round it two coils wind half a turn apart (a clump of two spirals). A coil's card
  lies along the axis (a ribbon wound like a spring), narrower than the coil's pitch, so the coils behind
  and the dark roots show between its turns; its normals lean out with the coil, so each turn shades
  round. In front the clumps stand up and go back over the head, parting a little to either side (no curl
  falls over the forehead), the steeper the nearer the hairline; at the sides and back they fall down the
  head. Under them (LOD 0) a layer of short tight coils over the whole scalp, more along the front's
  hairline, where they lie up, back and along it (grown out over the forehead, one there shone as a white
  dot under grey curls: review K); every root stops at its own share of the hairline (a broken one). The
  clumps root inside :func:`~.head.rootline`; curly hair's hairline comes lower, over the temples and round the
  ears, and the band between grows the temples' own clumps (:func:`temple_coils`), falling down the head over them.
- **The bun**: at the back of the crown, where the sleek strands of the ``bun`` style end
  (:func:`bun_axis`, :func:`bun_base_angle`), the gathered hair twisted into a rope and wound on
  itself (:func:`bun_coil`): a spiral from the bun's rim in to its top, each turn higher than the
  one outside it, the rope made of cards twisting round it. Its turns, its twist and the grooves
  between them read as gathered hair (the wraps round a ball it replaced read as a swim cap).

>>> from workbench.options import normalize_avatar_settings
>>> from workbench.body.mesh import body_mesh
>>> from .head import head_of
>>> m = body_mesh(normalize_avatar_settings({"gender": "masculine"}))
>>> g = curly(m, head_of(m), 1)
>>> g.cards.pts.shape[1], g.cards.across is not None
(14, True)
"""

from __future__ import annotations

import numpy as np

from ..mesh import BodyMesh
from .groom import UP, Groom, Strands, clump_columns, edge_wisps, fibonacci, grow, scalp_roots, tangent
from .head import Head, directions, hairline, rootline, smoothstep

# The bun: its axis (degrees: azimuth from the face, polar from the crown), its radius (of the head's)
# and the turns its rope makes. (At 0.36 of the head's radius it was "a small ball": blind review H.)
# (38 degrees from 60 since pass 66: at 60 the bun sat behind the head, hidden from the front, and a bun read as
# slicked-back short hair; judged blind, the higher preferred 6 of 6, docs/avatars.md "Pass 65".)
BUN_AT = (180.0, 38.0)
# ...and the hair low on the head swept back before it rises to it: from the second figure's polar degrees (from the
# crown) down, more and more, fully from the third's, it is combed towards the back of the head at the first figure's
# polar angle (the bun's old place) before it turns up to the bun. Combed straight up to the higher bun, the cards over
# the ears rose from their roots and left a band of skin over the ear (tests/body/test_hair_review_g.py's ear gap, 8.1
# to 8.6 degrees against 7.5).
BUN_SWEEP = (60.0, 60.0, 90.0)
BUN_RADIUS = 0.42
BUN_TURNS = 2.3
# The bun's shade over the sleek cards round its base (it hides them from the light above and behind it): their light
# falls by the first figure at the base, less and less to none the second figure's radians (about the skull's centre)
# out from it. Unshaded there, the cards rising to the bun's base faced the light and were the lightest hair on the
# head: a pale smooth band under the bun, 10 % of the cap's pixels in three.js's room light 1.3 times its median and
# more, #4's back (blind review P's "light, patchy 'bald' spots"; tests/render/test_bun_light_review_p.py). (Shaded
# as deep hair under the bun's outer surface, the same cards drew a dark ring: pieces.py shades them apart. Its reach
# 0.2 rad, not 0.3: at 0.3 the sleek cards as a whole fell under review G's least light, median 0.717 against 0.75.)
BUN_SHADE = (0.3, 0.2)
# Curly: roots over the sphere per level of detail, coils per clump and points per coil per level,
# pitch and radius (metres).
CURLY_ROOTS = (720, 330)
COIL_POINTS = (16, 14)
PITCH = (0.013, 0.019)
COIL = (0.0045, 0.0075)
# ...and the inner layer's roots (none at LOD 1: its budget), pitch and radius. 220 over the scalp (480 before review K's
# pass) beside FRONT_ROOTS' 100 along the hairline: with 480 a heavy masculine curly avatar's LOD 0 grew to 53,194
# triangles, its LOD 1 (22,770) 0.43 of it, past the contract's 50 % within 5 points; with 220, 0.45 and no look lost
# at a portrait's size (the outer clumps cover the scalp's inner coils; test_curls_review_k's figures hold).
INNER_ROOTS = (170, 0)
INNER_PITCH = (0.008, 0.011)
INNER_COIL = (0.003, 0.0045)
# How much each clump's slope off the head falls from its root to its tip (1: the tip lies along the head), and its
# tip's height over the head against a clump that rises straight (its volume's share).
DROOP = 0.9
DROOP_VOLUME = 1.05
# How far the front's clumps turn aside (to the side of the face they root on) for each metre back.
PARTED = 0.2
# ...and at the crown, how much less they bend over (standing there, they break the top's outline into curls: bent
# over as much as at the sides, it was a smooth round arc, review E's helmet; tests/render/test_hair_volume_review_e.py).
TOP_STANDS = 0.7
# ...and the inner layer's extra roots along the front's hairline (LOD 0): how many, and over which azimuths
# (degrees either side of the face).
FRONT_ROOTS = (100, 70.0)
# The inner layer's coils open over so many turns from the root (see _coils).
OPENS = 0.4
# The share of the style's hairline each root is kept inside, drawn per root from this range.
HAIRLINE_REACH = (0.9, 1.06)
# The temples' curls (:func:`temple_coils`): roots over the sphere per level of detail (those in the band between the
# clumps' rootline and the hairline kept), the azimuths (degrees from the face) they root over, and their length.
TEMPLE_ROOTS = (1300, 1500)
TEMPLE_POINTS = (12, 14)
TEMPLE_AZ = (48.0, 125.0)
TEMPLE_LENGTH = (0.03, 0.045)


def bun_axis(head: Head) -> np.ndarray:
    """The unit direction from the skull's centre to the bun."""
    return directions(np.array([BUN_AT[0]]), np.array([BUN_AT[1]]))[0]


def bun_swept() -> tuple[np.ndarray, float, float]:
    """Where the bun's sleek hair low on the head is combed first (:data:`BUN_SWEEP`): the direction, and the polar
    angles (degrees from the crown) from which and by which it is (the same on every head: directions about the
    skull's centre).

    >>> aim, start, full = bun_swept()
    >>> aim.round(3).tolist(), start, full
    ([0.0, 0.5, -0.866], 60.0, 90.0)
    """
    return directions(np.array([BUN_AT[0]]), np.array([BUN_SWEEP[0]]))[0], BUN_SWEEP[1], BUN_SWEEP[2]


def bun_base_angle(head: Head) -> float:
    """The angle (radians, about the skull's centre) of the bun's base, where the sleek strands end."""
    b = bun_axis(head)
    return float(np.arcsin(min(0.95, 0.7 * BUN_RADIUS * head.radius / head.envelope(b[None])[0])))


def bun_shade(head: Head, points: np.ndarray) -> np.ndarray:
    """The light (N,), 1 - :data:`BUN_SHADE`'s first figure to 1, left on the sleek cards' ``points`` (N, 3) by the
    bun's shade round its base."""
    rel = points - head.centre
    ang = np.arccos(np.clip(rel @ bun_axis(head) / np.maximum(np.linalg.norm(rel, axis=1), 1e-12), -1, 1))
    base = bun_base_angle(head)
    return 1.0 - BUN_SHADE[0] * smoothstep(base + BUN_SHADE[1], base, ang)


def bun_coil(head: Head, rng, cards: int = 7, points: int = 72) -> Strands:
    """The bun as a rope of hair wound on itself (see the module's text): ``cards`` cards round the rope,
    each twisting about its centreline, the centreline a spiral of :data:`BUN_TURNS` turns from the
    bun's rim at its base in to its top, inner turns higher (a dome); every card starts and ends at its
    own place along the rope (their ends tucked at the top). Outer cards (the rope's surface) first,
    then a second, inner layer."""
    axis = bun_axis(head)
    rb = BUN_RADIUS * head.radius
    base = head.centre + axis * (head.envelope(axis[None])[0] - 0.1 * rb)
    e1 = np.cross(axis, [1.0, 0.0, 0.0])
    e1 /= np.linalg.norm(e1)
    e2 = np.cross(axis, e1)
    rope = 0.3 * rb                                                        # the rope's radius
    s = np.linspace(0, 1, 400)
    theta = 2 * np.pi * BUN_TURNS * s
    spiral = (rb - rope) * (1 - 0.72 * s)                                  # in from the rim
    rise = rope + 0.9 * rb * np.sqrt(np.clip(1 - ((1 - 0.72 * s) * 0.98) ** 2, 0, 1)) * 0.9
    centre = (base + spiral[:, None] * (np.cos(theta)[:, None] * e1 + np.sin(theta)[:, None] * e2)
              + rise[:, None] * axis)
    tangent = np.gradient(centre, axis=0)
    tangent /= np.linalg.norm(tangent, axis=1, keepdims=True)
    side = centre - base - ((centre - base) @ axis)[:, None] * axis           # out from the bun's axis
    side /= np.maximum(np.linalg.norm(side, axis=1, keepdims=True), 1e-12)
    up = np.cross(tangent, side)
    rope_pts, rope_nrm, rope_widths = [], [], []
    for layer, (count, depth) in enumerate(((cards, 1.0), (max(3, cards // 2), 0.55))):
        for k in range(count):
            # (the inner layer's ends inside the outer's, where the outer covers them)
            a0, a1 = (rng.uniform(0.0, 0.1), rng.uniform(0.88, 1.0)) if layer == 0 else (rng.uniform(0.14, 0.22),
                                                                                           rng.uniform(0.7, 0.8))
            t = np.linspace(a0, a1, points)
            i = np.minimum((t * (len(s) - 1)).astype(np.int64), len(s) - 2)
            f = (t * (len(s) - 1) - i)[:, None]
            c = centre[i] * (1 - f) + centre[i + 1] * f
            # Round the rope, twisting along it (a twist every 6 cm of rope) and thinning at its end.
            phi = 2 * np.pi * (k + rng.uniform(-0.2, 0.2)) / count + t * 2 * np.pi * 3.0
            ring = np.cos(phi)[:, None] * side[i] + np.sin(phi)[:, None] * up[i]
            r = rope * depth * (1 - 0.45 * np.clip((t - 0.8) / 0.2, 0, 1))
            rope_pts.append(c + r[:, None] * ring)
            rope_nrm.append(ring)
            rope_widths.append(2 * np.pi * rope * depth / count * 1.5 * (1.0 if layer == 0 else 1.2))
    pts, nrm = np.array(rope_pts[::-1]), np.array(rope_nrm[::-1])           # inner layer first
    widths = np.array(rope_widths[::-1])
    # Set down on the hair under it (its lowest point a few millimetres over the head), then kept out of it.
    def over(p):
        rel = p.reshape(-1, 3) - head.centre
        dist = np.linalg.norm(rel, axis=1)
        return rel / dist[:, None], dist

    d, dist = over(pts)
    pts = pts - axis * (float((dist - head.envelope(d)).min()) - 0.004)
    d, dist = over(pts)
    floor = head.envelope(d) + 0.006
    pts = (head.centre + d * np.maximum(dist, floor)[:, None]).reshape(pts.shape)
    return Strands(pts, nrm, np.zeros(pts.shape[:2], bool), widths, clump_columns(rng, len(pts)), 0.2)


def _coils(head: Head, roots: np.ndarray, rng, field, length: np.ndarray, rise: np.ndarray, points: int,
           pitch: tuple[float, float], coil: tuple[float, float], width: tuple[float, float],
           droop: np.ndarray | float = 0.0, opens: float = 1.0) -> Strands:
    """A coil round each clump's axis: the axis grown from ``roots`` along ``field`` for ``length`` (S,)
    metres, rising ``rise`` (S,) metres off the head per metre along it at the root, that slope falling by
    ``droop`` (S,) of itself to the tip (1: the tip lies along the head, the clump bent over by its weight);
    the coil's ``pitch``, its radius (``coil``) and its card's ``width`` drawn per clump from those ranges (metres);
    the coil opening to its radius over its first ``opens`` turns."""
    S = len(roots)
    droop = np.broadcast_to(np.asarray(droop, float), (S,))
    axis, nrm, hang = grow(head, roots, field, length, points=points,
                           height=lambda s, d, i: 0.004 + rise[i] * s * (1 - 0.5 * droop[i] * s / length[i]))
    t = np.gradient(axis, axis=1)
    t /= np.maximum(np.linalg.norm(t, axis=2, keepdims=True), 1e-12)
    n1 = nrm - t * np.sum(nrm * t, axis=2, keepdims=True)
    n1 /= np.maximum(np.linalg.norm(n1, axis=2, keepdims=True), 1e-12)
    n2 = np.cross(t, n1)
    turns = length / rng.uniform(*pitch, S)
    s = np.linspace(0, 1, points)
    # The coil opens out of the root over its first turns (so it does not dip into the scalp; while it is closed, its
    # card, whose width lies along the axis, is edge-on and draws nothing).
    radius = (rng.uniform(*coil, S)[:, None] * (1 - 0.3 * s)[None, :]
              * np.clip(s[None, :] * turns[:, None] / opens, 0, 1))
    theta = rng.uniform(0, 2 * np.pi, S)[:, None] + 2 * np.pi * turns[:, None] * s[None, :]
    ring = np.cos(theta)[..., None] * n1 + np.sin(theta)[..., None] * n2
    shade = nrm + 0.6 * ring
    shade /= np.linalg.norm(shade, axis=2, keepdims=True)
    return Strands(axis + radius[..., None] * ring, shade, hang, rng.uniform(*width, S), clump_columns(rng, S), 0.25, t)


def curly(mesh: BodyMesh, head: Head, lod: int) -> Groom:
    """Curly hair's clumps of coils (see the module's text)."""
    rng = np.random.default_rng(64)
    # Each root kept inside its own hairline (the style's, times a share drawn per root): a broken hairline,
    # coils to its edge (kept inside 95 % of it, the curls stood back from a bare band of the scalp layer: a cap).
    roots = scalp_roots(head, "curly", CURLY_ROOTS[lod], 64, inside=HAIRLINE_REACH[1])
    roots = roots[_inside(roots, rng.uniform(*HAIRLINE_REACH, len(roots)))]
    S = len(roots)
    crown = directions(np.array([180.0]), np.array([15.0]))[0]
    az = np.degrees(np.arctan2(roots[:, 0], roots[:, 2]))
    pol = np.degrees(np.arccos(np.clip(roots[:, 1], -1, 1)))
    front = smoothstep(75.0, 40.0, np.abs(az)) * smoothstep(70.0, 40.0, pol)
    low = smoothstep(55.0, 100.0, pol)
    edge = smoothstep(0.75, 0.95, pol / rootline("curly", az))          # near the hairline

    # (in front, parted to either side of the middle as they go back: straight back, they stood in a crest)
    aside = np.column_stack([np.where(roots[:, 0] < 0, -1.0, 1.0), np.zeros(S), np.zeros(S)])
    # Over the sides and back the clumps fall (gravity, along the head), from the crown's top outwards.
    fall = smoothstep(20.0, 60.0, pol) * (1 - front)

    def field(s, d, p, i):
        # Along the head: up and back from the face in front; elsewhere away from the crown, turning down the
        # head as it slopes (the rise lifts them off it at the root, their weight lays them along it: droop).
        back = (tangent(d, crown - d) + UP * 0.2 + PARTED * tangent(d, aside[i])) * (0.4 * front[i])[:, None]
        out = (tangent(d, d - crown) * 0.5 * (1 - fall[i])[:, None] + tangent(d, -UP) * (1.5 * fall[i])[:, None]
               - UP * (0.6 * low[i])[:, None]) * (1 - front[i])[:, None]
        return back + out

    # In front the clumps stand up over the forehead, steeper and shorter the nearer the hairline (lying back
    # flat and cut short there, they left the front of the head a smooth painted cap); a rounded outline.
    stand = front * edge
    # (and fuller at the sides, shorter at the crown: a rounded mass, not a crest)
    crest = smoothstep(35.0, 5.0, pol)
    # Each clump leaves its root at that slope and bends over (DROOP): rising the same slope to the tip, every clump
    # stood straight out of the head, a fright wig (blind review K). Steeper at the root for it, as full at the sides.
    droop = DROOP * (1 - 0.2 * stand) * (1 - TOP_STANDS * smoothstep(45.0, 15.0, pol))
    rise = (rng.uniform(0.85, 1.15, S) * (0.8 * (1 - 0.1 * low) + 0.3 * front + 0.4 * stand)
            / (1 - 0.5 * droop) * DROOP_VOLUME)
    length = rng.uniform(0.045, 0.06, S) * (1 - 0.1 * low) * (1 - 0.45 * stand) * (1 - 0.2 * crest)
    outer = _coils(head, roots, rng, field, length, rise, COIL_POINTS[lod], PITCH, COIL, (0.009, 0.012), droop)
    parts = []
    if INNER_ROOTS[lod]:
        # Under them, short tight coils between their roots over the whole scalp, to its broken edge: the
        # hair's depth (where the scalp layer showed between the clumps, a smooth shell); more along the front's
        # hairline, where the clumps stand up off the head and the layer is seen between them from the front.
        inner = scalp_roots(head, "curly", INNER_ROOTS[lod], 640, inside=HAIRLINE_REACH[1])
        inner = inner[_inside(inner, rng.uniform(*HAIRLINE_REACH, len(inner)))]
        f_az = rng.uniform(-FRONT_ROOTS[1], FRONT_ROOTS[1], FRONT_ROOTS[0])
        inner = np.concatenate([inner, directions(f_az, rootline("curly", f_az) * rng.uniform(0.7, 1.03, len(f_az)))])
        n = len(inner)
        # In front they lie up and back over the scalp layer, those at the hairline lowest (lying out over the
        # hairline onto the forehead, a lone coil there shone as a white dot on grey hair: blind review K); at the
        # sides and back they fall along the head.
        i_az = np.degrees(np.arctan2(inner[:, 0], inner[:, 2]))
        i_pol = np.degrees(np.arccos(np.clip(inner[:, 1], -1, 1)))
        rim = smoothstep(0.82, 0.96, i_pol / rootline("curly", i_az))
        ahead = smoothstep(-0.2, 0.3, inner[:, 2])
        i_fall = smoothstep(20.0, 60.0, i_pol) * (1 - ahead)
        # (those at the front's hairline turned along it, either way: lying back, each left the hairline under its
        # root bare, the scalp layer's edge a smooth band under the curls)
        way = rng.choice([-1.0, 1.0], n)

        def i_field(s, d, p, i):
            falls = tangent(d, d - crown) * (1 - i_fall[i, None]) + tangent(d, -UP) * (1.5 * i_fall[i, None])
            back = (tangent(d, crown - d) + UP) * (1 - 0.7 * rim[i, None]) + np.cross(UP, d) * (way * rim)[i, None]
            return falls * (1 - ahead[i, None]) + back * ahead[i, None]

        parts.append(_coils(head, inner, rng, i_field,
                            rng.uniform(0.016, 0.026, n) * (1 - 0.3 * rim),
                            rng.uniform(0.5, 0.8, n) * (1 + ahead * (1 - rim)) * (1 - 0.5 * rim), COIL_POINTS[lod],
                            INNER_PITCH, INNER_COIL, (0.008, 0.011), DROOP, OPENS))
    wisps = edge_wisps(head, "curly", rng, 60 if lod == 0 else 30, 0.015,
                       lambda s, d, p, i: tangent(d, crown - d) + UP * 0.5)
    return Groom(outer, wisps, parts + [temple_coils(head, lod)])


def temple_coils(head: Head, lod: int) -> Strands:
    """The temples' and the ears' curls: clumps of coils as the outer ones (their pitch, radius and width: the curly
    outline at the sides), rooted in the band between the clumps' :func:`~.head.rootline` and curly hair's hairline,
    brought down over the temples and round the ears, and falling down the head from there. (Without them the
    clumps stood up and back from a hairline set as high at the temples as over the forehead: a tuft on top of the
    head over bare temples, thin curls by the ears: blind review Q's #3 and #10.)"""
    rng = np.random.default_rng(65)
    d = fibonacci(TEMPLE_ROOTS[lod], 65)
    az = np.degrees(np.arctan2(d[:, 0], d[:, 2]))
    pol = np.degrees(np.arccos(np.clip(d[:, 1], -1, 1)))
    line = hairline("curly", az) * rng.uniform(0.97, 1.02, len(d))
    keep = ((np.abs(az) >= TEMPLE_AZ[0]) & (np.abs(az) <= TEMPLE_AZ[1]) & (pol < line)
            & (pol > 0.92 * rootline("curly", az)))
    roots, az = d[keep], az[keep]
    S = len(roots)
    crown = directions(np.array([180.0]), np.array([15.0]))[0]

    def field(s, d, p, i):
        # Down the head, a little back from the face (over the temple, not the brow).
        return tangent(d, -UP) * 1.5 + tangent(d, d - crown) * 0.4

    # (shorter nearer the face: over the temple's front, down to the brow's end and no further)
    length = rng.uniform(*TEMPLE_LENGTH, S) * (0.6 + 0.4 * smoothstep(45.0, 70.0, np.abs(az)))
    rise = rng.uniform(0.85, 1.15, S) * 0.9
    return _coils(head, roots, rng, field, length, rise, TEMPLE_POINTS[lod], PITCH, COIL, (0.009, 0.012), DROOP)


def _inside(d: np.ndarray, share: np.ndarray) -> np.ndarray:
    """Which unit directions ``d`` lie inside ``share`` (per direction) of curly hair's clumps' :func:`~.head.rootline`."""
    az = np.degrees(np.arctan2(d[:, 0], d[:, 2]))
    return np.degrees(np.arccos(np.clip(d[:, 1], -1, 1))) < rootline("curly", az) * share
