"""The ponytail's tail: a few clumps of cards leaving a tie at the back of the head, and the tie (an elastic band
round the gathered hair, in the hair's colour much darkened: :data:`TIE_SHADE`); :func:`.styles.groom` combs the
rest of the hair to the tie.

The centreline leaves the tie along the head's normal there, through the tie's ring (:data:`STALK`), turns out and
down and soon turns to hang, :data:`GAP` off the body (:func:`tail_line`),
down the middle of the back, its end flicking aside (:data:`FLICK`), and comes to rest on the garment (:data:`REST`);
the tail flares out just past the tie, is fullest a fifth of the way down and thins to the clumps' soft ends. Blind review J saw a tail standing 4 to 6 cm off the neck, straight down the
middle of the back and nearly as wide at its end as at its fullest: a rigid tube ("a stiff ponytail"). Blind review L
saw the next one, tied low at the nape, a centimetre off the neck and one ring of cards: "a solid rope glued to the
nape with no hair tie". So it is tied higher (:data:`TIE_AT`), hangs clear of the nape, and is :data:`CLUMPS` clumps,
each its own ring of cards round its own line (:func:`clump_lines`). Parted by grooves a centimetre wide, blind review
Q saw them from behind as "2-3 thin rope strands (reads as braids or dreadlocks)": they lie close and overlap, one
gathered tail with the clumps' rings one over another in it.

>>> from workbench.options import normalize_avatar_settings
>>> from workbench.body.mesh import body_mesh
>>> from .head import head_of
>>> h = head_of(body_mesh(normalize_avatar_settings({"gender": "feminine"})))
>>> line, radius = tail_line(h, 60)
>>> middle, end = line[30, 0] - line[0, 0], line[-1, 0] - line[0, 0]
>>> line.shape, bool(radius[-1] < radius.max() / 3), bool(abs(middle) < 0.002), bool(end > 0.015)
((60, 3), True, True, True)
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from ..lod import Piece
from .cards import NARROWEST, order, twisted
from .groom import LEFT, UP, Strands, arc, clump_columns
from .head import Head, directions, smoothstep
from .texture import shell_u

# Where it is tied (degrees: azimuth from the face, polar from the crown: at 84 it was tied at the nape, and the tail
# lay down the neck; at 68 and 70 the neck showed between the clumps seen from behind, test_hair_sleek_review_j's
# holes 0.15 % and 0.1 %, against 0.02 % here), the tail's length (metres), its radius at the tie, at its fullest and at its end, and where it
# is fullest (a share of its length: it flares out of the tie, from FLARE; flaring from the tie itself, the tail hid the
# tie from behind but for its top edge, and blind review V saw "no tie"). 30 cm long, it ended in the air 6 cm under the
# collar's back, thinned to a point: review V's "a thin, flat rope ... its tip runs into the collar" (seen from behind
# 18 mm across halfway down its drop under the neck; 34 cm long, 29 to 44 mm). Its fullest radius 34 mm, the tail was
# round in section but thin for gathered hair (the mean of its width and depth 3 to 11 cm under the tie 47 to 49.5 mm),
# a band behind the ear at 3/4 and a strip from behind at the sheets' 288 px: blind review AF's "one flat ribbon ...
# no volume"; at 42 mm, 57 to 59 (tests/render/test_ponytail_volume_review_af.py). (Its end 5 -> 6 mm and its tie's
# 11 -> 13 mm with it, so it still thins to a lock's tip, not a thread, and the tie still shows from behind round the
# fuller hair: at 11 or 12 mm, 332 square mm of it from behind on the default, test_ponytail_review_v's 340.)
TIE_AT = (180.0, 66.0)
# (34 cm until pass 76: the stalk, STALK, takes its first 2.5 cm out along the head's normal, and at 34 cm, with the
# stalk over 0.06 to 0.08 of it, the default tail's end rested 83 to 86 mm under the collar's back, against review V's
# 90 at least, test_ponytail_review_v.)
TAIL = 0.355
TAIL_RADIUS = (0.013, 0.042, 0.006)
# (FULL_AT 0.14 until pass 76: full 5 cm along, the tail's radius grew 29 mm over 2.5 cm as its line went out and down
# at 40 degrees, and its top edge ran level out of the tie, "a flat, squared-off ledge jutting from the tie ... like a
# box lid" at three quarters behind (blind review BF's flare pairs: the slower flare 8 of 9); 0.26 took review AF's
# volume under its bound, test_ponytail_volume_review_af.)
FULL_AT = 0.2
FLARE = 0.07
# Where it begins to thin (a share of its length) and how (its radius's thinned share, a smoothstep to this
# power). Thinning from 0.3 of its length (** 1.3), it kept its full width to half its
# length, 5 to 5.4 cm across and straight-sided from 5 to 16 cm under the tie seen from behind and from the side:
# blind review AC's "hangs straight down like a paddle" in the 3/4 portrait, whose frame cuts it off there (12 and 16
# cm under the tie 0.96 to 1.01 and 0.84 to 0.90 of its fullest); a gathered tail tapers from just under its fullest:
# 0.80 to 0.92 and 0.61 to 0.73 (tests/render/test_ponytail_taper_review_ac.py). From 0.14 or 0.16 the cuts 15 cm
# under the tie came out flatter than review S's guard (test_tail_round_review_s, depth over width 0.51 to 0.57).
THINS_FROM = 0.2
TAPER = 0.8
# Where its clumps have parted to their own lines (a share of its length from the tie).
# Full (3 cm) only a fifth of the way down, 7 cm along it, the tail left its tie as a rope, 31 mm across 3 cm under
# the tie seen from behind, and ran down the nape as a strip: blind review X's "a strip glued to the neck", wanting
# "a round, tied mass"; a gathered tail swells out of its tie at once (3.4 cm 4.8 cm along it: 44 mm across 3 cm under
# the tie, test_ponytail_review_x). Parted as soon, the clumps showed as two ropes 4 cm under the tie on seed 4627's
# #11 (test_tail_review_q).
PARTED_AT = 0.2
# The clumps per level of detail; each one's cards round its line per level of detail (and one crossed card through
# it, so a clump seen edge on still has hair across its width); each clump's line that share of the tail's radius off
# its centreline and its own radius that share. Five lines 0.7 to 0.9 of the radius out, each clump 0.56 across, left
# grooves about a centimetre wide where the tail is fullest: 2 to 4 strands with the back showing between them seen from
# behind (test_tail_review_q); 0.3 to 0.45 out and each 1.0 across, they overlap, one tail 4.6 to 7 cm wide. With the
# fuller tail (TAIL_RADIUS, review AF) 0.3 to 0.45 out left a hole in a cut on seed 4627's #6 and #11 and spread them 10
# cm wide: 0.22 to 0.38 out, each 1.1 across, they stay one bundle, 7.5 and 8.3 cm at its widest.
CLUMPS = (5, 4)
CLUMP_CARDS = (5, 3)
CLUMP_OFF = (0.22, 0.38)
CLUMP_RADIUS = 0.55
# ...at the tie, where they are gathered into one bundle that fills it, its radius that share of the tail's (at their
# own radius there, the tie was a ring round a thin tail, the combed hair showing through it).
TIED = 0.6
# ...and towards the tips drawing back in, and thinning, by this share of their distance off the centreline and of
# their radius (their lines as far apart to the end, the tail ended as wide as it was at its fullest:
# test_hair_sleek_review_j; 0.35 of the distance alone, when the clumps lay close, left it 0.64 as wide).
CLOSE = 0.45
# ...the cards round a clump as wide as this share of the clump's round over their count (a polygon round it, closed
# at its corners), and their rows along it (rows closer where it turns out of the tie, rows ** 1.4, drew the cards'
# flat sides there as boxes).
CLUMP_WIDTH = (1.0, 1.2)
ROWS = (np.linspace(0, 1, 16), np.linspace(0, 1, 11))
# The share of its length over which it turns from going out of the tie to hanging (0.35: it stood 4 to 6 cm off the
# neck, a stick held out; 0.22 with 0.7 out per unit down from the tie, the bend an elbow), how far in (towards the
# body, per unit down) it then goes, and how far (metres) its outside stays off the body at least (a centimetre, it
# lay along the neck: review L's "glued to the nape").
# Over REST (shares of its length) that gap comes down to REST_GAP: its lower part rests on the garment's back (it hung
# 3 cm off it to its end, and ended at the collar's height: review V's "its tip runs into the collar").
TURN, IN, GAP = 0.2, 0.12, 0.025
REST, REST_GAP = (0.5, 0.85), 0.004
# The share of the tail's length over which its line turns from the head's normal at the tie (the tie's ring's axis)
# to going out and down (TURN): a stalk through the tie. Leaving the tie 64 degrees off the ring's axis, the tail
# filled only the ring's lower side and the ring's inside showed over it: from behind "a dark ring with a darker
# centre ... reads as a socket" (blind review BF of nine ponytails, pass 76; tests/render/test_ponytail_tie_review_bf.py).
# (The same figure as FLARE, not tied to it: the stalk turns as the tail begins to flare.)
STALK = 0.07
# ...and how far (metres) the cards round each clump's line start under the tie's point (8 mm over the head envelope),
# along the head's normal there, so the stalk's first ring of cards starts in the sleek hair under the tie, not in the
# air over it. (cards.piece lifts whatever lies under the head envelope back to cards.CLEAR over it: the first ring
# ends some 1.5 mm over the envelope, 9.5 mm along the normal under the tie's point, not 12.)
ROOT_SINK = 0.012
# The share of its flare (the radius grown since the tie) by which the line is lowered, square to it: flaring round
# the line as it left the tie out and down, the tail's top rose as fast as the line fell and ran level out of the tie
# for 3 to 4 cm, a square shelf at the top of the tail seen from the side and at 3/4 behind the ear (blind review
# AC's "paddle ... no attachment volume"); lowered so, its top runs on down from the tie's and it swells under it.
SAG = 0.8
# How far (metres) its end flicks to the figure's left, from FLICK_FROM of its length on (straight down the middle, a
# rod: review J's "a stiff ponytail"; swaying so from a fifth of the way down, the whole tail leant 2.6 cm off the
# middle of the back in the preview's pose: review V's "hangs off-centre").
FLICK, FLICK_FROM = 0.025, 0.6
# ...pushed out where it needs to be, with the points round it less by this much per square metre along it (tail_line).
ROUND = 8.0
# Loose strands off the tail per level of detail: narrow cards leaving a clump's outside from a quarter of the way
# down, drifting up to LOOSE_OUT metres out from it (2 cm out, they were the tail's outside in occlusion.tube, and the
# rest lay "deep" under them: test_hair_caps_review_h's median light 0.53; 8 mm out, off the gathered tail, strands
# of their own seen from behind).
LOOSE = (5, 3)
LOOSE_OUT = 0.004
# How far each card's shading normal leans from its own clump's round to the tail's (the share of the tail's): the
# cards of the clumps faced every way round their own lines, so the tail shaded evenly across its width, from behind
# "one flat slab" (blind review S), though it is nearly as deep as it is wide. Leaning out from the tail's line, the
# tail darkens to its sides as a round bundle does. The cards lie where they did, across their clump's line
# (:func:`.cards.twisted` of their own normals, given as their width's direction).
ROUNDED = 0.75
# Each clump drawn to a point over its own last share, LOCK_FROM of its length on, its radius LOCK_THIN less at its tip,
# and its line moved out from the tail's by SPREAD of the radius it lost there (its outside where it was): at the tail's
# radius to its end, each clump ended blunt and against its neighbours, the tail's end one square cut of parallel
# strands, blind review AD's "a single flat slab"; now its locks part and taper. (Thinned in place, not moved out, the
# tail halfway down its drop under the neck was 17 to 20 mm across, review V's "rope", bound 22; the clumps' lengths
# staggered further, 0.68 or 0.8 to 1 of the tail's, its last fifth took the few longest clumps flicked aside beside the
# short ones' tips, 0.67 to 0.7 of its widest against review J's 0.66, tests/body/test_hair_sleek_review_j.py.)
LOCK_FROM, LOCK_THIN = 0.6, 0.8
SPREAD = 1.0
# The tie: an elastic round the gathered hair where it leaves the head, a closed round band (a torus) lying on the hair
# round the head's normal there: its ring's radius and its tube's (metres), how far over the head envelope the tube's
# underside lies (on the sleek hair), its points round the ring, the ribbons round its tube per level of detail, and
# its shade (its vertex colour: the hair's colour times this, so a dark band in any hair colour, never a colour of
# its own over the user's). (A 2 cm wide flat band round the tail's line 1 cm out from the tie, square to the tail,
# which leaves the head 64 degrees off the head's normal: half its ring lay in the head and was pushed out onto the
# hair, and the tail's cards' roots stood out of it towards the head: from the side a black box with notches standing
# off the head, from behind a black arc over the tail's ragged top.)
TIE_RADIUS = 0.012
TIE_TUBE = 0.006
TIE_LIFT = 0.005
TIE_POINTS = (24, 16)
TIE_SIDES = (8, 5)
TIE_SHADE = 0.3


def tie(head: Head) -> tuple[np.ndarray, np.ndarray]:
    """The ponytail's tie: its direction from the skull's centre and its point (on the hair there)."""
    d = directions(np.array([TIE_AT[0]]), np.array([TIE_AT[1]]))[0]
    return d, head.centre + d * (head.envelope(d[None])[0] + 0.008)


def tail_line(head: Head, points: int) -> tuple[np.ndarray, np.ndarray]:
    """The tail's centreline (points, 3) from the tie, and its radius there: out from the head and down,
    turning to hang down the middle of the back, its outside kept :data:`GAP` off the body envelope and its lower
    part come to rest :data:`REST_GAP` off it."""
    d, at = tie(head)
    u = np.linspace(0, 1, points)
    lo, full, end = TAIL_RADIUS
    radius = lo + (full - lo) * smoothstep(FLARE, FULL_AT, u) - (full - end) * smoothstep(THINS_FROM, 1.0, u) ** TAPER
    step = TAIL / (points - 1)
    line = [at]
    out = d - UP * (d @ UP)
    out /= np.linalg.norm(out)
    for k in range(1, points):
        # From out and a little down past the stalk to down and a little in within TURN of the length.
        bend = smoothstep(0.0, TURN, u[k])
        heading = out * (0.6 * (1 - bend) - IN * bend) - UP * (0.5 + 0.5 * bend)
        heading = heading / np.linalg.norm(heading)
        # (first out along the head's normal through the tie's ring: STALK)
        heading = d + (heading - d) * smoothstep(0.0, STALK, u[k])
        heading = heading / np.linalg.norm(heading)
        flick = FLICK * (smoothstep(FLICK_FROM, 1.0, u[k]) - smoothstep(FLICK_FROM, 1.0, u[k - 1]))
        line.append(line[-1] + step * heading + LEFT * flick)
    # Kept off the body: each point below the skull's centre pushed out (from the vertical through it) to what it
    # needs, and the points round it with it, less by ROUND per square metre along the line (pushed out one point at a
    # time, the line turned 30 degrees at once where it first needed it: an elbow, the clumps' frames turning over).
    pts = np.array(line)
    # (its flare swelling under the tie, not over it: SAG; the push is along the part of UP across the line, not
    # normalised, so it is some 0.6 of SAG's share of the flare where the tail leaves the tie and fades as the line
    # turns down: code review 39, left as tuned and measured by sleek39)
    t = np.gradient(pts, axis=0)
    t /= np.linalg.norm(t, axis=1, keepdims=True)
    up = UP - t * (t @ UP)[:, None]
    pts = pts - SAG * (radius - lo)[:, None] * up
    rel = pts - head.centre
    az = np.arctan2(rel[:, 0], rel[:, 2])
    rho = np.hypot(rel[:, 0], rel[:, 2])
    need = head.reach(np.degrees(az), pts[:, 1]) + radius + GAP + (REST_GAP - GAP) * smoothstep(*REST, u)
    short = np.where(pts[:, 1] < head.centre[1], np.maximum(need - rho, 0.0), 0.0)
    arc_at = np.arange(points) * step
    push = (short[None, :] - ROUND * (arc_at[:, None] - arc_at[None, :]) ** 2).max(1).clip(0.0)
    push *= smoothstep(0.0, 0.1, u)         # (not at the tie: from it)
    rests = smoothstep(*REST, u)
    push = push * (1 - rests) + np.where(pts[:, 1] < head.centre[1], need - rho, push) * rests
    return pts + push[:, None] * np.stack([np.sin(az), np.zeros(points), np.cos(az)], 1), radius


def frames(line: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Along ``line`` (N, 3): its direction and two unit vectors square to it (the first in the plane of the figure's
    left-right axis)."""
    t = np.gradient(line, axis=0)
    t /= np.linalg.norm(t, axis=1, keepdims=True)
    e1 = np.cross(t, LEFT)
    e1 /= np.linalg.norm(e1, axis=1, keepdims=True)
    return t, e1, np.cross(t, e1)


def clump_lines(line: np.ndarray, radius: np.ndarray, rng: np.random.Generator, count: int
                ) -> tuple[np.ndarray, np.ndarray]:
    """``count`` clumps' lines (count, N, 3) round the tail's centreline ``line`` and their radii (count, N): spread
    round a ring, each its own share of the tail's radius off it (:data:`CLUMP_OFF`) and turning a little round it as
    it goes down, so they leave the tie together, part just after it and run apart in grooves."""
    _, e1, e2 = frames(line)
    u = np.linspace(0, 1, len(line))
    phase = rng.uniform(0, 2 * np.pi)
    lines, radii = [], []
    for c in range(count):
        phi = phase + 2 * np.pi * (c + rng.uniform(-0.12, 0.12)) / count + 0.5 * u
        parted = smoothstep(0.0, PARTED_AT, u)
        off = rng.uniform(*CLUMP_OFF) * radius * (0.35 + 0.65 * parted) * (1 - CLOSE * smoothstep(0.5, 1.0, u))
        ring = np.cos(phi)[:, None] * e1 + np.sin(phi)[:, None] * e2
        lines.append(line + off[:, None] * ring)
        radii.append(radius * (TIED + (CLUMP_RADIUS - TIED) * parted) * (1 - CLOSE * smoothstep(0.5, 1.0, u))
                     * rng.uniform(0.9, 1.15))
    return np.array(lines), np.array(radii)


def rounded(pts: np.ndarray, nrm: np.ndarray, line: np.ndarray, radius: np.ndarray) -> np.ndarray:
    """The cards' shading normals: their own (``nrm``, (S, K, 3), round each clump's line) leant :data:`ROUNDED` of
    the way to the direction out from the tail's ``line`` (N, 3; ``radius`` (N,) its radius), by less within a third
    of its radius of that line (where that direction turns quickly), at points ``pts`` (S, K, 3).

    >>> line = np.stack([np.zeros(5), -np.linspace(0, 0.2, 5), np.zeros(5)], 1)
    >>> pts = (line + [0.03, 0, 0])[None]
    >>> n = rounded(pts, np.tile([0.0, 0.0, 1.0], (1, 5, 1)), line, np.full(5, 0.03))
    >>> bool(n[0, 2, 0] > 0.9), np.linalg.norm(n, axis=-1).round(6).tolist()
    (True, [[1.0, 1.0, 1.0, 1.0, 1.0]])
    """
    t = frames(line)[0]
    j = np.linalg.norm(pts[:, :, None] - line[None, None], axis=-1).argmin(2)      # (S, K) the nearest point
    rel = pts - line[j]
    rel -= t[j] * np.sum(rel * t[j], axis=-1, keepdims=True)
    out = rel / np.maximum(np.linalg.norm(rel, axis=-1, keepdims=True), radius[j][..., None] / 3)
    n = (1 - ROUNDED) * nrm + ROUNDED * out
    return n / np.maximum(np.linalg.norm(n, axis=-1, keepdims=True), 1e-12)


def tail(head: Head, rng: np.random.Generator, lod: int) -> tuple[Strands, Strands]:
    """The tail's cards (see the module's text) and its tie."""
    K = len(ROWS[lod])
    d = tie(head)[0]
    line, radius = tail_line(head, 60)
    pts, nrm, widths = [], [], []

    def rows(u):
        return np.minimum(np.round(u * (len(line) - 1)).astype(np.int64), len(line) - 1)

    clumps, clump_r = clump_lines(line, radius, rng, CLUMPS[lod])
    m = CLUMP_CARDS[lod]
    for cl, cr in zip(clumps, clump_r, strict=True):
        _, f1, f2 = frames(cl)
        length = rng.uniform(0.82, 1.0)

        def thinned(j, length=length, cr=cr):
            # (the clump's radius along rows j, drawn to a point over its own last share: a lock's tip)
            return cr[j] * (1 - LOCK_THIN * smoothstep(LOCK_FROM, 1.0, j / (len(line) - 1) / length))

        # (...its line moved out from the tail's by the radius it lost, so its outside stays where it was: the tail
        # as wide, its locks parting as they thin)
        away = cl - line
        away /= np.maximum(np.linalg.norm(away, axis=1, keepdims=True), 1e-9)

        def parted(j, cl=cl, cr=cr, away=away):
            return cl[j] + ((cr[j] - thinned(j)) * SPREAD)[:, None] * away[j]

        # Cards round the clump's line, each twisting a little and ending at its own length...
        for k in range(m):
            j = rows(length * rng.uniform(0.9, 1.0) * ROWS[lod])
            phi = 2 * np.pi * (k + rng.uniform(-0.2, 0.2)) / m + 0.8 * np.linspace(0, 1, K)
            ring = np.cos(phi)[:, None] * f1[j] + np.sin(phi)[:, None] * f2[j]
            card = parted(j) + thinned(j)[:, None] * ring
            card[0] -= d * ROOT_SINK        # (its first row in the hair under the tie)
            pts.append(card)
            nrm.append(ring)
            widths.append(2 * np.pi * thinned(j) / m * CLUMP_WIDTH[lod])
        # ...and one through its middle.
        j = rows(0.03 + (length - 0.03) * ROWS[lod])
        phi = rng.uniform(0, np.pi) + 0.5 * np.linspace(0, 1, K)
        pts.append(parted(j))
        nrm.append(np.cos(phi)[:, None] * f1[j] + np.sin(phi)[:, None] * f2[j])
        widths.append(1.6 * thinned(j))
    _, e1, e2 = frames(line)
    # ...and a few loose strands leaving a clump's outside and drifting off it.
    for _ in range(LOOSE[lod]):
        u = np.linspace(rng.uniform(0.2, 0.4), rng.uniform(0.6, 0.85), K)
        j = rows(u)
        phi = rng.uniform(0, 2 * np.pi) + 0.5 * u
        ring = np.cos(phi)[:, None] * e1[j] + np.sin(phi)[:, None] * e2[j]
        drift = LOOSE_OUT * rng.uniform(0.5, 1.0) * np.linspace(0, 1, K) ** 1.5
        out = radius[j] * (CLUMP_OFF[0] + CLUMP_RADIUS) * (1 - CLOSE * smoothstep(0.5, 1.0, u))
        pts.append(line[j] + (out + drift)[:, None] * ring)
        nrm.append(ring)
        widths.append(np.full(K, rng.uniform(0.005, 0.008)))
    tails, normals = np.array(pts), np.array(nrm)
    below = tails[..., 1] < head.centre[1]
    # (each card twisted by its place among the cards sorted inner first, as cards.piece twists them once sorted)
    inner = order(tails, head)
    across = np.empty_like(tails)
    across[inner] = twisted(tails[inner], normals[inner], below[inner])
    cards = Strands(tails, rounded(tails, normals, line, radius), below, np.array(widths) * (1.2 if lod else 1.0),
                    clump_columns(rng, len(tails)), 0.3, across, arc(tails))
    # The tie: ribbons round the torus's tube, each a closed ring round the head's normal at the tie (TIE_RADIUS).
    a1 = np.cross(d, LEFT)
    a1 /= np.linalg.norm(a1)
    turns = np.linspace(0, 2 * np.pi, TIE_POINTS[lod])[:, None]
    ring = np.cos(turns) * a1 + np.sin(turns) * np.cross(d, a1)
    middle = head.centre + d * (head.envelope(d[None])[0] + TIE_LIFT + TIE_TUBE)
    sides = TIE_SIDES[lod]
    theta = 2 * np.pi * (np.arange(sides) + 0.5) / sides
    out = np.cos(theta)[:, None, None] * ring[None] + np.sin(theta)[:, None, None] * d
    wrap = middle + TIE_RADIUS * ring[None] + TIE_TUBE * out
    across = -np.sin(theta)[:, None, None] * ring[None] + np.cos(theta)[:, None, None] * d
    # (each ribbon the chord between its neighbours' middles at its narrowest, cards.NARROWEST: closed; all of them in
    # one atlas column, one draw from ``rng`` as the one band's was, so the wisps drawn after it are the same)
    width = np.full(sides, 2 * TIE_TUBE * np.sin(np.pi / sides) / NARROWEST)
    band = Strands(wrap, out, np.zeros(wrap.shape[:2], bool), width, np.repeat(clump_columns(rng, 1), sides), 0.0,
                   np.broadcast_to(across, wrap.shape).copy())
    return cards, band


def tied(band: Piece) -> Piece:
    """The tie's piece (``band``, the cards of :func:`tail`'s band) as an elastic: its texture coordinates on the
    atlas's opaque scalp fill (no strands' cut-outs: a solid band; ``u`` round it, ``v`` across it) and its vertex
    colour :data:`TIE_SHADE`, the hair's own colour much darkened."""
    n = len(band.positions)
    uv = np.empty((n, 2), np.float32)
    uv[:, 0] = shell_u(np.repeat(np.linspace(0.3, 0.7, n // 2), 2))
    uv[:, 1] = np.tile([0.28, 0.32], n // 2)
    return replace(band, uv=uv, colors=np.full((n, 3), TIE_SHADE, np.float32))
