"""The styles' grooms: where each style's strands root, which way they are combed, how long they grow
and how high they stand, as guide strands (:mod:`.groom`) ready to be swept into cards.

- ``short``: a crop combed from a crown whorl, the top combed back and over to the figure's left,
  the sides and back down; longer and fuller on top, ending at the hairline in front.
- ``long``: :mod:`.long`, a centre parting; from it the hair goes to either side over the head and
  ears, falls below them, and parts at the shoulders (the front locks onto the chest, the rest down
  the back in a U), in layers.
- ``bun``: every strand combed sleek towards the bun at the back of the crown (:mod:`.coils` winds
  the bun itself, a rope of hair coiled on itself).
- ``curly``: :mod:`.coils`.
- ``ponytail``: every strand combed sleek to a tie at the back of the head; from it a tail (:mod:`.tail`)
  that turns down to hang over the upper back, swaying aside, fullest a third of the way down and thinning
  to a point; a dark elastic round its base lying on the head (:data:`.tail.TIE_RADIUS`).
- ``bob``: a side parting; the hair falls round the head to the jaw in front and a little shorter at the
  nape, with volume at the sides, its ends cut nearly blunt and turned under towards the neck.

Every card's root starts under the scalp layer and comes out of it over its first centimetres
(:func:`emerge`), so no root end stands as a step along the hairline.

Every style also sends wisps past its edge (the blended fringe): short fine strands at the
hairline and a few loose ones over the outer layer.

>>> from workbench.options import normalize_avatar_settings
>>> from workbench.body.mesh import body_mesh
>>> g = groom(body_mesh(normalize_avatar_settings({"gender": "feminine"})), "short", 0)
>>> g.cards.pts.shape[1:], bool(g.cards.pts.shape[0] > 200)
((7, 3), True)
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from ..mesh import BodyMesh
from . import coils, sleek, tail
from .groom import (
    LEFT,
    UP,
    Fall,
    Groom,
    Strands,
    clump_columns,
    edge_wisps,
    emerge,
    flyaways,
    grow,
    scalp_roots,
    tangent,
)
from .head import HAIRLINE_AT, Head, directions, head_of, rootline, smoothstep
from .long import RISE, long_groom
from .scalp import FRONT, dome, loft
from .short import short_groom

# Hair pulled back sleek roots to this share of its hairline (groom.scalp_roots): from 0.92, its cards began a
# centimetre and more behind the hairline, and the scalp layer showed in front of them as a smooth rim, a cap's.
SLEEK_ROOTS = 0.96
# ...and sends no wisps out over the ears nor behind them (azimuths, degrees from the face, either side): over the ear's
# rim they drew white flecks in a browser's room light (rooted from 66 degrees); over the nape, combed up over the scalp
# layer's band two crossed, and ours (two blended layers a pixel) dropped the band: skin flecks (review J; was 118).
EAR_WISPS = (66.0, 181.0)
# ...from this share of it out (none nearer the crown, which the cards from the hairline cover on their way back):
# rooted all over the cap, a card's pointed root end and the cards ending short of the gathered part were short
# strokes of their own shades all over it (blind review H's "blocky brush-stroke texture").
SLEEK_FROM = 0.55
# ...and the depth (metres) their cards' layers spread over, from 2 mm over the head: 5 mm (was 3), the locks'
# heights (sleek.heights) a few millimetres apart, so their shade under the hair's outside (occlusion) tells them apart;
# 3 mm since the cards also stack by their roots (sleek.stacked, 2 mm more), the hair's depth as before: at 5 mm with
# 3 more the hair stood a pixel further out of the temples (tests/body/test_sleek_temples_review_n.py's #12, 11 against
# its 10.5), the temples' cards over review H's 6.2 mm and the cards' median light under review G's 0.75.
SLEEK_LAYERS = 0.003
# ...but at the sides they come down to the scalp layer (to the first figure's metres over the head) at the rootline,
# from the second figure's degrees over it, between the azimuths (degrees from the face) of the third and fourth and of
# the sixth and fifth figures: at their layers' height to their lower edge, the flaps over the temples ended 5 to 7 mm
# off the skin, and the front portrait showed the backdrop under them, above the ears (blind review P's #4, "hair
# flaps stand off the temples with a light sliver of background"; tests/body/test_sleek_flaps_review_p.py).
SLEEK_EDGE = (0.0015, 24.0, 45.0, 65.0, 125.0, 145.0)
# ...their rows per level of detail.
SLEEK_POINTS = (16, 12)
# Over the nape hair pulled back roots down to the crop's hairline (head.HAIRLINE): it stopped 10 degrees higher (116
# from the crown behind, where the crop's is 126), and from behind the skin showed from the ears' level up to the bun
# or the tie (blind review Z's "bare nape", #2 and #10; tests/render/test_sleek_nape_review_z.py). The cards rooted
# above the line they stopped at before (NAPE_LINE, polar degrees at head.HAIRLINE_AT) keep their random draws, and so
# does all drawn after them (the bun's coil, the tail): the nape's cards below it draw from a stream of their own
# (NAPE_SEED). (Drawn from the one stream, the added roots drew every tail again: review Q's #11 parted into two pieces
# 15 cm under the tie, tests/body/test_tail_review_q.py, a draw's chance, as any other tail's.)
NAPE_LINE = np.array([48, 47, 45, 43, 46, 56, 78, 90, 86, 86, 86, 86, 100, 112, 115, 116], float)
NAPE_SEED = 64
# Roots over the whole sphere (those inside a style's hairline are kept), per level of detail.
# (Pulled back: fewer over the sphere since their roots reach SLEEK_ROOTS of a hairline that comes down to the
# ears: the same cards' triangles as before over the larger area.)
# (The bob's LOD 1 445, was 460: its cards rooted nearer its lower hairline over the forehead, BOB_ROOTS, took its
# cards wound both ways to 5,027 triangles against test_hair_cards' 5,000; now 4,914.)
# (The bun's LOD 1 315, was 395, the ponytail's 380, was 420: the scalp layer's band brought down over the temples
# (head.HAIRLINE) took their blended part 721 -> 1,169 triangles, the nape's cards (NAPE_LINE) 110 more, and backed
# as the model builds them the bun was 5,519, the ponytail 5,105; now 4,809 and 4,873 on the feminine average.)
# (The ponytail's 345, was 380: its hairline over the forehead brought down and rounded (head.HAIRLINE) took it to
# 5,053 backed; now 4,834. Not monotonic in the roots: at 370, 5,042.)
ROOTS = {"short": (1500, 640), "long": (1450, 490), "bun": (975, 315), "ponytail": (970, 345), "bob": (1100, 445)}


def _gathered(head: Head, roots: np.ndarray, rng: np.random.Generator, lod: int, toward: np.ndarray,
              reach: float, style: str, line=None, swept: tuple[np.ndarray, float, float] | None = None) -> Strands:
    """Hair pulled back sleek towards the direction ``toward`` from the head's centre (a bun's base, a ponytail's
    tie), lying close over the scalp and stopping where it meets the gathered part (``d @ toward > reach``); stacked
    by its roots' place under ``line`` (polar degrees by azimuth; the style's rootline by default). With ``swept`` (a
    direction and two polar angles, degrees from the crown), hair low on the head is combed towards that direction
    first, more and more from the first angle down, fully from the second (:func:`~.coils.bun_swept`): back before it
    rises."""
    S = len(roots)

    def field(s, d, p, i):
        if swept is None:
            return tangent(d, toward - d)
        aim, start, full = swept
        low = smoothstep(start, full, np.degrees(np.arccos(np.clip(d[:, 1], -1, 1))))
        return tangent(d, toward + low[:, None] * (aim - toward) - d)

    # Each card at its own height all along (its layer): rising off the head along its first centimetres, as other
    # styles' cards do, each crossed those it passed over, and the two cut through each other in triangles of either
    # one's shade (blocky patches all over the cap; with a card's edges at its middle's height, cards.hugged, two
    # cards at their own heights never meet).
    # (...each at its lock's height, mostly: sleek.heights)
    lift = SLEEK_LAYERS * sleek.heights(head.centre + roots * head.envelope(roots)[:, None], head, rng.uniform(0, 1, S))
    # (...over those rooted behind them: sleek.stacked)
    az0, pol0 = np.degrees(np.arctan2(roots[:, 0], roots[:, 2])), np.degrees(np.arccos(np.clip(roots[:, 1], -1, 1)))
    stack = sleek.stacked(pol0 / (line or (lambda a: rootline(style, a)))(az0), SLEEK_FROM, SLEEK_ROOTS)

    def height(s, d, i):
        # (...down to the scalp layer at the sides' rootline: SLEEK_EDGE)
        az, pol = np.degrees(np.arctan2(d[:, 0], d[:, 2])), np.degrees(np.arccos(np.clip(d[:, 1], -1, 1)))
        a = np.abs(az)
        flush = (smoothstep(SLEEK_EDGE[1], 0.0, rootline(style, az) - pol)
                 * smoothstep(SLEEK_EDGE[2], SLEEK_EDGE[3], a) * smoothstep(SLEEK_EDGE[5], SLEEK_EDGE[4], a))
        # (...its stack, sleek.stacked, gone where the sides lie on the scalp)
        h = 0.002 + lift[i] + stack[i] * (1 - flush) + 0.0 * s
        return h - (h - SLEEK_EDGE[0]) * flush

    # (Rows 1.5 cm apart: 2.5 cm apart, each quad's chord dipped 0.8 mm under the head's curve, through the card
    # under it.)
    pts, nrm, hang = grow(head, roots, field, np.full(S, 0.3), height=height, points=SLEEK_POINTS[lod],
                          limit=lambda d, i: d @ toward > reach)
    # (...their widths at the root: :func:`_sleek_cards` narrows them where they converge)
    width = rng.uniform(0.014, 0.02, S) * (1.3 if lod else 1.0)
    return Strands(pts, nrm, hang, width, clump_columns(rng, S), 0.3)


def _nape_line(az: np.ndarray) -> np.ndarray:
    return np.interp(np.abs(az), HAIRLINE_AT, NAPE_LINE)


def _sleek_roots(head: Head, style: str, lod: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """The roots of hair pulled back, in a band inside the hairline from :data:`SLEEK_FROM` of :data:`NAPE_LINE` to
    :data:`SLEEK_ROOTS` of its rootline: (those above SLEEK_ROOTS of NAPE_LINE, those below it over the nape)."""
    d = scalp_roots(head, style, ROOTS[style][lod], seed, SLEEK_ROOTS)
    az, pol = np.degrees(np.arctan2(d[:, 0], d[:, 2])), np.degrees(np.arccos(np.clip(d[:, 1], -1, 1)))
    line = _nape_line(az)
    kept, above = pol >= SLEEK_FROM * line, pol < SLEEK_ROOTS * line
    return d[kept & above], d[kept & ~above]


def _sleek_cards(head: Head, style: str, lod: int, seed: int, rng: np.random.Generator, toward: np.ndarray,
                 reach: float, swept: tuple[np.ndarray, float, float] | None = None) -> Strands:
    """The sleek cards of ``style`` combed towards ``toward`` (:func:`_gathered`, low on the head towards ``swept``
    first, if given): those rooted above :data:`NAPE_LINE` drawn from ``rng``, the nape's below it from their own
    stream (:data:`NAPE_SEED`)."""
    above, nape = _sleek_roots(head, style, lod, seed)
    top = _gathered(head, above, rng, lod, toward, reach, style, _nape_line, swept=swept)
    if not len(nape):
        return replace(top, width=sleek.converging(top.pts, head.centre, toward, top.width, 0.3))
    low = _gathered(head, nape, np.random.default_rng(NAPE_SEED), lod, toward, reach, style, swept=swept)
    pts = np.concatenate([top.pts, low.pts])
    # (...all narrowing where they converge on the bun or the tie, the nape's with the rest: sleek.converging)
    return Strands(pts, np.concatenate([top.nrm, low.nrm]), np.concatenate([top.hanging, low.hanging]),
                   sleek.converging(pts, head.centre, toward, np.concatenate([top.width, low.width]), 0.3),
                   np.concatenate([top.column, low.column]), top.taper)


def _combed(toward: np.ndarray):
    """The field of a pulled-back style's wisps at its hairline: back over its edge towards ``toward`` with the rest.
    Lying out over the forehead, away from the crown, they were stray strokes on the skin under the hair's edge,
    lit lighter than the hair (blind review H's "stray hair-coloured blobs along the hairline")."""
    return lambda s, d, p, i: tangent(d, toward - d)


def _bun(mesh: BodyMesh, head: Head, lod: int) -> Groom:
    rng = np.random.default_rng(63)
    cards = _sleek_cards(head, "bun", lod, 63, rng, coils.bun_axis(head), np.cos(coils.bun_base_angle(head)),
                         coils.bun_swept())
    # (The coil at 30 points a card at LOD 1, not 40: with the bun over the crown, coils.BUN_AT, more of its sleek cards
    # cross the outline and are backed there, pieces.backed, and a short, heavy, wide-headed body's LOD 1 came to 5,109
    # triangles, past the 5,000 of pieces.LOD1_BUDGET; 4,949 at most over 80 random heads and 40 bodies now.)
    wraps = coils.bun_coil(head, rng, 8 if lod == 0 else 5, 72 if lod == 0 else 30)
    # Short baby hairs at the hairline, combed back with the rest (:func:`_combed`).
    wisps = edge_wisps(head, "bun", rng, 110 if lod == 0 else 50, 0.012, _combed(coils.bun_axis(head)), skip=EAR_WISPS)
    return Groom(cards, wisps, [wraps])


def _ponytail(mesh: BodyMesh, head: Head, lod: int) -> Groom:
    rng = np.random.default_rng(65)
    tie_d = tail.tie(head)[0]
    reach = np.cos(np.arctan2(tail.TAIL_RADIUS[0] * 0.9, head.envelope(tie_d[None])[0]))
    sleek = _sleek_cards(head, "ponytail", lod, 65, rng, tie_d, reach)
    cards, band = tail.tail(head, rng, lod)
    wisps = edge_wisps(head, "ponytail", rng, 110 if lod == 0 else 50, 0.012, _combed(tie_d), skip=EAR_WISPS)
    return Groom(sleek, wisps, [cards, band])


# The bob: its parting (metres to the figure's left of the skull's centre), where it ends (metres below the
# skull's centre: at the jaw in front, shorter at the nape) and its volume (metres over the head and body).
BOB_PART = 0.025
# (The nape 3.5 cm shorter than the sides, 0.07: from behind, the neck between two flaps, blind review M's "hollow nape
# between two flaps"; 1.5 cm shorter, the hem a shallow curve. 1.25 cm since its end strands went, blind review S's
# "frayed ends": they had hung 6 mm past the nape's cards, and without them the nape stood 29 pixels over the sides from
# behind, test_bob_review_m's 26; now 25. At 1 cm, 23, but the hem's curve flatter: test_hair_review_e's teeth 0.103.)
# (1 cm longer, 0.105 and 0.0925 before, since its ends curl under, canon.TUCK: the curl takes 1.2 cm up at the tip.)
BOB_END = (0.115, 0.1025)
BOB_VOLUME = (0.01, 0.012)
# ...its volume over the forehead and the temples (a share of BOB_VOLUME[0] taken off there, and the cards' own lift):
# swept aside from the parting along the hairline at its full volume, the front cards stood 9 to 14 mm off the skin, a
# lid whose underside (the inner cards, the scalp layer) showed under it: blind review H's "slab at the parting is
# stepped and shows a darker layer underneath". (Only over the forehead, within 0.35 of the face's direction, a lid
# still stood over the temple.)
# 0.6, not 0.8: at 0.8 the front band's cards lay so flat that, at LOD 1 on the masculine head, the swept side's hairline
# was a hard card edge with no fading row (tests/body/test_hair_hairline.py, fades 1.0 against more than 1); at 0.6
# the forehead's lid stays within test_hair_review_h's 8 mm.
BOB_BROW = 0.6
# ...its sides rounded: metres more over the body at the sides (``sin(az)**2``: none at the face and the nape) from
# :data:`BOB_ROUND`'s second figure under the skull's centre down (none as far over it). Over the head envelope alone,
# the sides hung straight down from the temples, a plane each side but for the ear's bump (blind review L's "slab
# sides"); bulged over the ear they round into the front and the back (and the ends, turned under more,
# canon.TUCK, curve in under the jaw).
BOB_ROUND = (0.009, 0.03)
# ...and no edge wisps rooted within so many degrees of the face on the parting's side (the figure's left): there,
# where the cards part over the scalp layer's blended band, wisps crossing the band drew it dropped in ours (two
# blended layers a pixel): skin-white streaks in the dark hair at the parting (blind review L's "white speck on #10's
# crown"). At LOD 0 (the previews'): dropped at LOD 1 too, its fewer cards' masculine hairline lost its fade
# (tests/body/test_hair_hairline.py, 0.98 against more than 1).
BOB_FRONT = 25.0
# ...and its end heights' spread (metres either side): at 6 mm each card ended at its own height, a stair of tips.
BOB_JITTER = 0.003
# ...its strands falling at the sides turned this many degrees towards the face as they fall (none at the face and the
# nape, all from 75 to 105 degrees): falling where they left the head, the sides hung behind the ear's front, which
# showed between the flaps and the cheek (blind review M's "the ears poke out between the flaps").
BOB_FORWARD = 20.0
# ...but none of them ends up further forward than this azimuth (degrees from the face): those falling in front of it
# (the temples', the swept front band's) turn back to it as they fall, so the front locks hang behind the jaw's angle
# along the jaw line. Turned 20 degrees forward, strands falling by the ear hung at 55 to 60 degrees, over the cheek's
# back third, the jaw and, curled under, towards the mouth at 3/4 (blind review AF's "in the 3/4 view the front lock
# slices across the cheek and jaw", #10 and #3; tests/render/test_bob_lock_review_af.py).
BOB_BEHIND = 80.0
# ...and metres more over the head at the sides (``sin(az)**2``) from 50 degrees under the crown to the skull's centre,
# where the strands start to fall: lying close to the skull down to there, they stood out at once to clear the ear, a
# notch of backdrop over each flap in the front and 3/4 portraits (blind review M's "gap between the cheek and the
# hair"); swollen over the ear they round down into the flaps.
BOB_SWELL = 0.012
# ...its sides drawn in to the jaw under the ear: metres less over the envelope (held at the ear's width down there) at the
# sides (``sin(az)**2``; none behind 140 degrees, or the nape stood hollow) from the second figure under the skull's centre to
# the third: they hung a vertical plane 3 cm off the jaw (blind review N's "hard vertical side plane"; test_bob_review_n).
BOB_JAW = (0.016, 0.035, 0.085)
# ...and how hard its front cards are pushed aside from the parting (``LEFT`` to either side): on the small side (the
# figure's left) none from the parting to the first figure past it (metres), all as far as the second; the second
# figure on either side. Pushed alike, the small side's front cards by the parting dropped at once down to the temple,
# facing aside in the shade, beside the large side's swept band facing up in the light: a light flat plate with a
# straight edge down the parting (blind review O's worst defect; test_bob_parting_review_o). Not pushed, they come
# forward from the parting first, lit like the band, and turn aside over the forehead (the field's ``face``).
BOB_PUSH = ((0.005, 0.03), 1.4)
# ...and locks lifted off it (:func:`.groom.flyaways`): so many per level of detail, off any card over the share of its
# length in the second figure, drifting up to the third figure's metres off it, the fourth figure's metres wide: with
# none, its outline was one smooth curve from every side, the cards' shell (blind review U's "solid black helmet ... no
# strand breakup, flyaways"; tests/render/test_bob_strands_review_u.py).
BOB_FLYAWAYS = ((120, 20), (0.05, 0.7), 0.006, (0.003, 0.006))
# ...and its cards root to this share of its hairline over the forehead (scalp.FRONT's azimuths; groom.scalp_roots' 0.92
# past them): rooted inside 0.92 and swept aside, its front cards began a centimetre behind the hairline, over the fine
# hairs and the held-back layer (blind review AA's "hair starts far back on the skull"). (At 0.96 all round, the nape's
# cards rooted lower and review M's #6 nape stood hollow, 27 pixels against test_bob_review_m's 26.)
BOB_ROOTS = 0.96
# ...and in front of the ear (azimuths from the face, degrees: all from the second figure to the third, none nearer the
# face than the first nor behind the fourth) its sides keep only the rest of this share of their clearance over the
# body: at their full clearance (6 to 22 mm, and BOB_ROUND's swell, which is for the ear) the sides hung 11 to 18 mm off
# the cheek and the jaw, a helmet with the backdrop between it and the cheek at 3/4 (blind review AB's #11: "standing a
# finger's width off the cheek"; tests/body/test_bob_cheek_review_ab.py).
# (All to 78, none from 94, was 72 and 88: since the front locks hang at 80 degrees, BOB_BEHIND, held out at their
# full clearance there the bob's hem flared out wide under the jaw from the front. To 85 and 100, the sides' ends,
# drawn in further, hung as points at the hem's corners from behind: review O's light hem 57 against its 42.)
BOB_CHEEK = (0.8, (20.0, 35.0, 78.0, 94.0))
# ...and over how many metres of each card from its root it reaches its volume over the crown (:func:`.scalp.loft`):
# cards rooted under the lofted hair rise to it at a slant, as hair lifted at the root, not at once (a row of
# shingles standing on end).
LOFT_REACH = 0.03
# ...and its cards' layers, in order from the crown out: metres over the head (the first figure) and over the body where
# they fall (the second) at the top of the order, none at its foot, the order by each root's angle from the top, ties
# broken by up to the third figure's degrees. At random heights (as much, each card its own draw) the cards crossed one
# another all over the back and sides, each crossing a straight edge where the card in front changed: a mosaic of
# blocks with horizontal edges, the bob "a helmet with painted grooves" (blind review AO, #12 and #6). In order, the
# hair from the crown lies over the hair rooted under it, as it does on a head, and the back reads as strands falling
# (tests/render/test_bob_layers_review_ao.py).
BOB_LAYERS = (0.003, 0.004, 3.0)


def _ranked(key: np.ndarray) -> np.ndarray:
    """Each entry's place in ``key``'s order, from 0 (the least) to 1 (the greatest).

    >>> _ranked(np.array([3.0, -1.0, 7.0])).tolist()
    [0.5, 0.0, 1.0]
    """
    return np.argsort(np.argsort(key, kind="stable"), kind="stable") / max(len(key) - 1, 1)


def _bob(mesh: BodyMesh, head: Head, lod: int) -> Groom:
    rng = np.random.default_rng(66)
    roots = scalp_roots(head, "bob", ROOTS["bob"][lod], 66, BOB_ROOTS)
    root_az = np.abs(np.degrees(np.arctan2(roots[:, 0], roots[:, 2])))
    inside = 0.92 + (BOB_ROOTS - 0.92) * smoothstep(FRONT[1], FRONT[0], root_az)
    roots = roots[np.degrees(np.arccos(np.clip(roots[:, 1], -1, 1))) < rootline("bob", root_az) * inside]
    S = len(roots)
    c = head.centre
    crown = directions(np.array([180.0]), np.array([14.0]))[0]
    side = np.where(roots[:, 0] * head.radius > BOB_PART, 1.0, -1.0)
    root_pol = np.degrees(np.arccos(np.clip(roots[:, 1], -1, 1)))
    ahead = smoothstep(-0.15, 0.1, roots[:, 2])
    outer = smoothstep(80.0, 10.0, root_pol)

    def field(s, d, p, i):
        pol = np.degrees(np.arccos(np.clip(d[:, 1], -1, 1)))
        face = (smoothstep(0.35, 0.65, d[:, 2]) * smoothstep(30.0, 50.0, pol))[:, None]
        down = smoothstep(35.0, 80.0, pol)[:, None] * (1 - face)
        part = (side[i] * ahead[i])[:, None] * LEFT * (1 - down)
        aside = side[i][:, None] * LEFT * 2.0 - np.array([0.0, 0.0, 0.5])
        return part * push[i][:, None] + tangent(d, d - crown) * (1 - down) * 0.6 - UP * (0.2 + down) + aside * face

    push = np.where(side > 0, smoothstep(*BOB_PUSH[0], roots[:, 0] * head.radius - BOB_PART), 1.0) * BOB_PUSH[1]
    # Its layers in order from the crown out (:data:`BOB_LAYERS`): each card's rank, the crown's 1, by its root's angle
    # from the top (a few degrees of each card's own draw breaking the ties of a ring of roots).
    rank = _ranked(-root_pol + BOB_LAYERS[2] * rng.uniform(-1.0, 1.0, S))
    lift = BOB_LAYERS[0] * rank

    def height(s, d, i):
        pol = np.degrees(np.arccos(np.clip(d[:, 1], -1, 1)))
        front = smoothstep(0.1, 0.4, d[:, 2]) * smoothstep(30.0, 50.0, pol)
        swell = BOB_SWELL * (d[:, 0] ** 2 / np.maximum(1 - d[:, 1] ** 2, 1e-9)) * smoothstep(50.0, 90.0, pol)
        # (...and its volume over the crown, the sides and the back: scalp.loft, reached over LOFT_REACH of each card)
        lofted = loft("bob", d) * smoothstep(0.0, LOFT_REACH, s)
        # (...and over the crown higher, from their roots on, as the scalp layer under them: scalp.dome; over the
        # forehead no higher than the rest of the front band, test_hair_review_h's 8 mm.)
        return (emerge(s, 0.003 + lift[i] * (1 - front) + swell) + lofted
                + (np.minimum(RISE * s, BOB_VOLUME[0] * (0.4 + 0.6 * outer[i])) + dome("bob", pol))
                * (1 - BOB_BROW * front))

    jitter = rng.uniform(-BOB_JITTER, BOB_JITTER, S)

    def end(az, i):
        back = smoothstep(60.0, 160.0, np.abs(az))
        return c[1] - BOB_END[0] + (BOB_END[0] - BOB_END[1]) * back + jitter[i] + 0.01 * (1 - outer[i])

    rng.uniform(0, 0.004, S)   # (drawn as before, so every later draw, the cards' widths and columns, is the same)
    base = 0.006 + BOB_VOLUME[1] * outer + BOB_LAYERS[1] * rank

    def clearance(az, y, i):
        below = smoothstep(c[1] + BOB_ROUND[1], c[1] - BOB_ROUND[1], y)
        jaw = BOB_JAW[0] * smoothstep(c[1] - BOB_JAW[1], c[1] - BOB_JAW[2], y) * smoothstep(140.0, 100.0, np.abs(az))
        a, (a0, a1, a2, a3) = np.abs(az), BOB_CHEEK[1]
        cheek = 1 - BOB_CHEEK[0] * smoothstep(a0, a1, a) * smoothstep(a3, a2, a)
        return np.maximum((base[i] + (BOB_ROUND[0] * below - jaw) * np.sin(np.radians(az)) ** 2) * cheek, 0.003)

    def target(az, i):
        a = np.abs(az)
        # (...but none further forward than BOB_BEHIND: the front locks fall behind the jaw's line)
        return np.sign(az) * np.maximum(a - BOB_FORWARD * smoothstep(30.0, 75.0, a) * smoothstep(150.0, 105.0, a),
                                        BOB_BEHIND)

    fall = Fall(end, target, c[1], c[1] - 0.05, clearance, rng.uniform(0.0, 0.003, S))
    pts, nrm, hang = grow(head, roots, field, np.full(S, 0.4), height=height, fall=fall, points=12 if lod == 0 else 9)
    # (A bob's ends are cut nearly blunt: its cards narrow little at the tip.)
    cards = Strands(pts, nrm, hang, rng.uniform(0.014, 0.02, S) * (1.5 if lod else 1.0), clump_columns(rng, S), 0.15)
    wisps = edge_wisps(head, "bob", rng, 80 if lod == 0 else 50, 0.025,
                       lambda s, d, p, i: LEFT * np.where(d[:, :1] > 0, 1.0, -1.0) - UP * 0.5)
    root = wisps.pts[:, 0] - c
    az = np.degrees(np.arctan2(root[:, 0], root[:, 2]))
    wisps = wisps.take((az < 0.0) | (az > BOB_FRONT) | (lod > 0))
    # Locks lifted off the cards (:data:`BOB_FLYAWAYS`).
    count, span, out, width = BOB_FLYAWAYS
    return Groom(cards, wisps, [flyaways(cards, rng, count[lod], span, out, width)])


STYLES = ("short", "long", "bun", "curly", "ponytail", "bob")


def groom(mesh: BodyMesh, style: str, lod: int) -> Groom:
    """The guide strands of ``style`` for this body at ``lod`` (0: full, 1: about half the cards)."""
    head = head_of(mesh)
    if style == "curly":
        return coils.curly(mesh, head, lod)
    if style == "short":
        return short_groom(mesh, head, lod, ROOTS["short"][lod])
    if style in STYLES:
        if style == "long":
            return long_groom(mesh, head, lod, ROOTS["long"][lod])
        return {"bun": _bun, "ponytail": _ponytail, "bob": _bob}[style](mesh, head, lod)
    raise ValueError(f"hair: unknown style {style!r}")
