"""Long hair's groom (:func:`.styles.groom`'s ``long``): a centre parting; from it the hair goes to either side over
the head and ears, falls below them, and parts at the shoulders: what grew in front of the ears falls in front of the
shoulders onto the chest, the rest down the back in a U; in layers (roots nearer the crown lie outside and fall longer).

>>> from workbench.options import normalize_avatar_settings
>>> from workbench.body.mesh import body_mesh
>>> from workbench.body.hair.head import head_of
>>> m = body_mesh(normalize_avatar_settings({"gender": "feminine"}))
>>> g = long_groom(m, head_of(m), 1, 490)
>>> g.cards.pts.shape[1], bool(g.cards.hanging.any())
(12, True)
"""

from __future__ import annotations

import numpy as np

from ..mesh import BodyMesh
from .groom import LEFT, UP, Fall, Groom, Strands, arc, clump_columns, edge_wisps, emerge, grow, scalp_roots, tangent
from .head import Head, directions, smoothstep
from .scalp import dome

# Metres a parted style's strands rise off the head per metre from their roots, to their volume: lying close
# along the parting (rising 0.25 to 0.3, the two sides stood a centimetre up within 3 cm of it, and the top's
# outline dipped between them: a notch at the crown).
RISE = 0.08

# Long hair: extra room (metres) over the shoulders (a little: 2.5 cm held it off them; 6 mm, with narrower cards, left
# it 2.5 cm over them) and beside the face (none: its layers' own depth, 0.6 to 2.2 cm, frames the face; with 1.2 cm
# more the innermost hung 2.1 to 2.5 cm off the cheek, and background showed between hair and cheek, blind review H);
# the azimuth (degrees from the face) within which hair that starts to fall there falls in front of the shoulders.
SHOULDER_ROOM = 0.004
CHEEK_ROOM = 0.0
FRONT = 95.0
# Long hair's cards' widths (metres at the root) per level of detail: narrow strands at LOD 0 (1.4 to 2 cm
# wide, ribbons read as slabs), fewer and wider at LOD 1.
LONG_WIDTH = ((0.0105, 0.015), (0.021, 0.03))
# ...its rows per level of detail (LOD 0 one fewer than 16, paying for :data:`.ends.ENDS`; 14 cut the hairline's fade).
LONG_POINTS = (15, 12)
# ...and how many times closer together its rows are on the head than where it hangs (:func:`.groom._resample`): evenly,
# 6.4 cm apart, their chords cut through the neighbouring cards' over the crown (blind review J's checker patches).
# (No more rows: LOD 1 keeps half of LOD 0's triangles within 5 points, docs/contract.md; with long hair, 0.45.)
LONG_DENSE = (2.5, 1.0)
# The least azimuth (degrees) hair falling down the back turns to: turned less far back (134), the hair behind the
# ears came down over the shoulders' back corners (the body reaches 19 to 25 cm out there) and hung out in wings. At 146
# its outer cards still came down onto the corners' backs (the envelope 18.6 cm out there on review AD's #7), bridged
# there in a straight line from the side of the head: seen at 3/4 the hair's outline ran out from beside the head by
# 6 to 10 cm over 16 cm, a cape (blind review AD's defect 4, #7 and #8; tests/body/test_long_flare_review_ad.py). At
# 152 it falls nearer behind the head (with LONG_NAPE: 3.2 to 4.7 cm on bare backs, 8.5 over a hood, which reaches out
# there itself). (156: 3.0 to 3.7, but from behind the fall narrowed to 14 cm under the shoulders, a V under a wider
# head.)
BACK = 152.0
# Hair falling down the back turns to its azimuth from BACK_TURN skull radii under the skull's centre to BACK_PART
# metres over the shoulders' joints (as the front locks, from 0.9 radii to 1 cm over them, it came down over the
# shoulders' back corners and a hood beside the neck, held out there from the jaw: review G's "wings"). From 0.4 radii
# it swung behind the head from the ear lobe down, hidden behind the neck from the front: the backdrop showed between
# the neck and the front locks, two curtains standing off it (blind review AG's #7 and #12); from 0.7 it hangs on
# beside the nape to under the jaw before it turns, so the front sees hair behind the neck
# (tests/render/test_long44_review_ag.py). (From 0.8 radii, or turned to 10 or 11 cm over the joints, the back lost
# its rounding over the blades, 11.5 mm on review AC's #4 against test_long_back_review_ac's 12, and drew review L's
# bands, 0.048 against test_long_hair_review_l's 0.047; from 0.9 to 9 cm, it came out over the trapezius at three
# quarters, test_long_flare_review_ad's cape 5.2 cm against its 5.)
BACK_TURN, BACK_PART = 0.7, 0.12
# The front locks' azimuths (degrees from the face) where they hang: from the first figure to the first plus the second,
# by the third power of where they start to fall (their azimuth over FRONT: 0.6 to 1 for most, the hair is swept aside
# over the head), each card up to the fourth off it. (16 + 26 times the 1.5th power, 5 off: 30 to 50 degrees at the
# collarbones, two strips 2.5 cm wide beside the neck, blind review R's "two dead-straight flat ribbons", #8; now 10 to
# 50, 1.6 times as wide (11 + 31 times the 4th power, 3 off). Not further out: below the shoulders no hair hangs from 50 to 125 degrees, where the arms hang,
# tests/body/test_hair_cards.py, nor off the shoulders' sides, test_hair_long_review_g.py's wings; out to 64 degrees
# both failed, and review O's strands' shade flattened, 5.44 levels against 5.6. 5 off, the cards' edges drew review L's
# bands down the back at 145 degrees past its bound: 0.0473 against 0.047, main 0.0461, now 0.0462; from 10, one
# point of a lock lay under a hoodie's neckline, tests/body/test_hair_clearance.py.)
LOCKS = (11.0, 31.0, 4.0, 3.0)


# Long hair's cards over the head rise to their layer's room over the body (``base`` in :func:`_long`, 0.6 to 2.2 cm) from
# the first polar angle (degrees from the top) to the second, where they start to fall: lying 3 to 9 mm over the head down
# to there, each stepped out by the rest at once over the ear, a notch in the outline at ear level from the front
# (blind review O's "rectangular step", #10; tests/body/test_long_hair_review_o.py).
LONG_SWELL = (45.0, 90.0)
# ...and over the top and sides of the head they stand off it: the first figure's metres more, reached the second
# figure's metres from their roots (so the roots and the hairline's fade stay on the scalp layer), from the third
# figure's polar angle (degrees from the top) to the fourth, and gone again from the fifth to the sixth, before they
# start to fall. With only their layer's 3 to 9 mm, the cards lay on the head as if painted on it: the temples 4 mm past
# the ears on the default feminine body, 2 mm inside them on review W's #5 ("two flat curtains"); now 12 and 7 mm
# past them (tests/body/test_long_volume_review_w.py). (From the top on, 0 degrees, the two sides stood apart over the
# parting: a notch of backdrop in the crown. Rising to their room from 25 degrees, LONG_SWELL, as well: review L's back
# bands 0.050 against test_long_hair_review_l's 0.047 and review J's slivers 0.0034 against 0.003.)
# Not behind the ears (the last two figures, azimuths in degrees from the face: all of it in front of the second, none
# behind the first): lifted there, outer cards stood off the back of the crown with backdrop under them (review O's
# #10, 91 pixels of test_long_hair_review_o's flaps in the 3/4 portrait) and a ledge ran round the back where it ended.
LONG_PUFF = (0.012, 0.05, 15.0, 50.0, 100.0, 70.0, 130.0, 100.0)
# ...behind the ears they stand off the head too (the first figure's metres, rising from the second figure's polar angle to
# the third and gone from the fifth to the fourth), down to where they start to fall: lying 8 to 12 mm over the back of
# the skull (the crown's volume, scalp.dome, alone), the hair fell from a tight helmet out to the shoulders' backs in
# a straight line from the temple, a cape at 3/4 (blind review AD's defect 4); now 17 to 18 mm there. (Rising from the
# crown, 0 to 30 degrees, the cards rooted round its whorl stood up in loops over the top; from 15 to 50, as the
# front's, the crown behind the parting dipped under the sides: a notch at the top at 3/4. Gone by 100 degrees, as
# the front's, it ended in a ledge round the back, review O. 1 cm: where the cards cross on the back of the head dark
# blocks, tests/render/test_long_steps_review_z.py's Z#6 0.0202 against 0.018; 1.2 cm: a hoodie's hair 9.39 cm off its
# back, past review C's 9.2, tests/body/test_hair_falls_review_c.py; now 8.45, main 9.04.)
LONG_NAPE = (0.006, 40.0, 80.0, 120.0, 90.0)
# ...and over the shoulders' back corners (azimuths, degrees from the face: in from the first two, out from the last two)
# from the head down to under the shoulders' joints its outer layers lie down on the inner ones: hanging beside the ear, the outer strands (1.2 cm further out) that turn
# down the back came out over the corner alone, a card standing off the hair's mass at the shoulder in the 3/4 portraits
# (blind review O's "stray flap", #7 and #10).
LONG_CORNER = (100.0, 125.0, 170.0, 150.0)
# ...and no card of its outer layers (roots nearer the crown: their share of the outer layer's room over the second figure)
# falls down the back from beside the ear (from FRONT to the first figure, degrees from the face, where it starts to
# fall): each hung beside the neck down to the shoulder and turned down the back late, over the shoulder's back corner,
# alone 1.2 cm over the inner layers there, a card standing off the hair's mass in the 3/4 portraits (blind review O's
# "stray flap", #7 and #10). (Turned down the back from where they fell, those drew the strands' highlight along them
# from behind, tests/render/test_hair_shading.py's band 0.91 flat against at most 0.6.)
LONG_LONE = (112.0, 0.5)

# Long hair's hem: how far (metres) its slow wave over the azimuth carries the ends up and down, and how far each
# card's end lies off it (drawn anew per card).
HEM_WAVE, HEM_JITTER = 0.06, 0.012
# ...laid out over the back as it hung when its hair spread from this azimuth (degrees from the face) to 180 (BACK's
# old value: with the fall narrowed the U over 152 (156) to 180 degrees was shallower, the back's tips 1.7 (1.5) cm apart
# in height (sd) against tests/body/test_hair_cards.py's staggered 2).
HEM_BACK = 146.0


def hem(rng: np.random.Generator):
    """A smooth wave (0 to 1) over the azimuth (degrees) where long hair ends: three slow harmonics (one to three
    waves round the body) at phases drawn from ``rng``, so neighbouring cards end near each other.

    >>> w = hem(np.random.default_rng(0))
    >>> v = w(np.linspace(-180.0, 180.0, 361))
    >>> bool(v.min() >= 0.0 and v.max() <= 1.0), bool(np.abs(np.diff(v)).max() < 0.05)
    (True, True)
    """
    phase = rng.uniform(0, 2 * np.pi, 3)

    def wave(az: np.ndarray) -> np.ndarray:
        a = np.radians(az)
        return 0.5 + sum(np.sin(k * a + phase[k - 1]) for k in (1, 2, 3)) / 6.0

    return wave


def long_groom(mesh: BodyMesh, head: Head, lod: int, count: int) -> Groom:
    """Long hair's groom at ``lod`` from ``count`` roots over the whole sphere (see :mod:`.styles`)."""
    rng = np.random.default_rng(62)
    roots = scalp_roots(head, "long", count, 62)
    roots = roots[~((smoothstep(0.3, 0.6, roots[:, 2]) > 0.5) & (np.arange(len(roots)) % 6 == 0))] if lod == 0 else roots
    S = len(roots)
    c = head.centre
    crown = directions(np.array([180.0]), np.array([14.0]))[0]
    side = np.where(roots[:, 0] > 0, 1.0, -1.0)
    root_pol = np.degrees(np.arccos(np.clip(roots[:, 1], -1, 1)))
    ahead = smoothstep(-0.15, 0.1, roots[:, 2])                 # in front of the crown: the parting's side
    outer = smoothstep(80.0, 10.0, root_pol)                    # roots near the crown lie outside

    def field(s, d, p, i):
        pol = np.degrees(np.arccos(np.clip(d[:, 1], -1, 1)))
        # Over the forehead the hair is swept aside and back from the face, not let fall on it.
        face = (smoothstep(0.35, 0.65, d[:, 2]) * smoothstep(30.0, 50.0, pol))[:, None]
        down = smoothstep(35.0, 85.0, pol)[:, None] * (1 - face)
        part = (side[i] * ahead[i])[:, None] * LEFT * (1 - down)
        aside = side[i][:, None] * LEFT * 2.0 - np.array([0.0, 0.0, 0.6])
        return part * 1.4 + tangent(d, d - crown) * (1 - down) * 0.6 - UP * (0.2 + down) + aside * face

    lift = rng.uniform(0.0, 0.003, S)
    # (Over the forehead as steeply as before: lying lower there, the cards' edges cut the hairline's fade.)
    brow = smoothstep(0.3, 0.6, roots[:, 2])
    rise = RISE + (0.25 - RISE) * brow

    def height(s, d, i):
        # (Over the crown the cards stand higher, from their roots on, as the scalp layer under them: scalp.dome.)
        pol = np.degrees(np.arccos(np.clip(d[:, 1], -1, 1)))
        h = (emerge(s, 0.003 + lift[i]) + np.minimum(rise[i] * s, 0.003 + (0.004 + 0.002 * brow[i]) * outer[i])
             + dome("long", pol))
        # ...and down the sides they stand out to their layer's room where they start to fall (LONG_SWELL).
        sides = d[:, 0] ** 2 / np.maximum(1 - d[:, 1] ** 2, 1e-9)
        az = np.abs(np.degrees(np.arctan2(d[:, 0], d[:, 2])))
        # (...and behind the ears, LONG_NAPE, on down to where they fall.)
        behind = smoothstep(*LONG_PUFF[7:5:-1], az)
        h = h + smoothstep(0.0, LONG_PUFF[1], s) * (
            LONG_PUFF[0] * smoothstep(*LONG_PUFF[2:4], pol) * smoothstep(*LONG_PUFF[4:6], pol) * (1 - behind)
            + LONG_NAPE[0] * smoothstep(*LONG_NAPE[1:3], pol) * smoothstep(*LONG_NAPE[3:], pol) * behind)
        return h + np.maximum(base[i] - h, 0.0) * smoothstep(*LONG_SWELL, pol) * sides

    sk = mesh.skeleton
    shoulder = float((sk.pos("LeftArm")[1] + sk.pos("RightArm")[1]) / 2)
    ends = rng.uniform(0, 1, S)
    spread = rng.uniform(-1, 1, S)

    def target(az, i):
        a = np.abs(az)
        front = a < FRONT
        goal = np.where(front, LOCKS[0] + LOCKS[1] * np.clip(a / FRONT, 0, 1) ** LOCKS[2] + LOCKS[3] * spread[i],
                        BACK + (180.0 - BACK) * np.clip((a - FRONT) / (180.0 - FRONT), 0, 1))
        return np.sign(az + 1e-9) * goal

    # The hem: a curve round the body (a U down the back) that wanders slowly over the azimuth the hair ends at
    # (:func:`hem`), each card a little off it (HEM_JITTER). (Each card's end drawn anew over 11 cm, neighbours ended
    # up to 11 cm apart: the hem a sawtooth of card-wide teeth, blind review M.)
    wave = hem(np.random.default_rng(63))

    def end(az, i):
        goal = target(az, i)
        # (Where the hair down the back would hang were it spread from HEM_BACK on, as before BACK narrowed it: each
        # card ends where it did, the hem's U and its staggered lengths as they were.)
        a = np.abs(goal)
        a = np.where(a > FRONT, HEM_BACK + (180.0 - HEM_BACK) * np.clip((a - BACK) / (180.0 - BACK), 0, 1), a)
        back = smoothstep(100.0, 180.0, a)
        return (shoulder - 0.07 - 0.15 * back ** 1.5 - HEM_WAVE * wave(np.sign(goal) * a) - HEM_JITTER * ends[i]
                + 0.03 * outer[i])

    # (Layers 2.7 cm deep, seen edge-on beside the face, were a fan of slabs: 2.2 cm, the inner one nearer.)
    base = 0.006 + 0.012 * outer + rng.uniform(0, 0.004, S)

    def clearance(az, y, i):
        # More room over the shoulders, which rise into the hair when an arm is raised; and beside the
        # face, where the hair frames it with some volume (not a ribbon lying on the cheek).
        a = np.abs(az)
        side = smoothstep(20.0, 45.0, a) * smoothstep(150.0, 130.0, a)
        near = smoothstep(shoulder - 0.12, shoulder - 0.02, y) * smoothstep(shoulder + 0.14, shoulder + 0.04, y)
        cheek = smoothstep(30.0, 60.0, a) * smoothstep(130.0, 100.0, a) * smoothstep(shoulder + 0.02, shoulder + 0.1, y)
        # (Over the shoulders' back corners the outer layers lie down on the inner: LONG_CORNER.)
        corner = smoothstep(*LONG_CORNER[:2], a) * smoothstep(*LONG_CORNER[2:], a) * smoothstep(shoulder - 0.12, shoulder - 0.04, y)
        return base[i] - (base[i] - 0.006) * corner + SHOULDER_ROOM * side * near + CHEEK_ROOM * cheek

    # The front locks part down to a centimetre over the shoulders' joints, lying on them as they part (parted 5 cm
    # over them, they left the shoulders' tops bare, 3 to 5 cm under the hair); the back's higher (BACK_PART).
    def part_at(az, i):
        back = np.abs(target(az, i)) > FRONT
        return c[1] - np.where(back, BACK_TURN, 0.9) * head.radius, shoulder + np.where(back, BACK_PART, 0.01)

    fall = Fall(end, target, c[1] - 0.9 * head.radius, shoulder + 0.01, clearance, rng.uniform(0.004, 0.012, S), part_at)
    pts, nrm, hang = grow(head, roots, field, np.full(S, 0.9), height=height, fall=fall, points=LONG_POINTS[lod],
                          dense=LONG_DENSE[lod])
    # What falls in front of the shoulders comes from few roots: those cards are wider.
    end_az = np.degrees(np.arctan2(pts[:, -1, 0] - c[0], pts[:, -1, 2] - c[2]))
    wide = 1 + 0.4 * smoothstep(80.0, 60.0, np.abs(end_az))
    # ...and those over the forehead as wide and as few as before (each card's edge crossing the hairline's fade
    # cuts it).
    wide = wide * (1 + 0.2 * brow) if lod == 0 else wide
    cards = Strands(pts, nrm, hang, rng.uniform(*LONG_WIDTH[lod], S) * wide, clump_columns(rng, S), 0.4,
                    along=arc(pts) if LONG_DENSE[lod] != 1.0 else None)
    # (...but none of the outer layers falling down the back from beside the ear: LONG_LONE)
    first = pts[np.arange(S), np.argmax(hang, axis=1)] - c
    fell_at = np.abs(np.degrees(np.arctan2(first[:, 0], first[:, 2])))
    cards = cards.take(~((fell_at > FRONT) & (fell_at < LONG_LONE[0]) & (outer > LONG_LONE[1]) & hang.any(1)))
    # The hairline's fine strands: short, at the face lying out over the forehead and a little aside (3 cm, swept
    # sideways, they drew an arc of strokes on the skin under the hair's edge: a drawn-on hairline); else down, out.
    def wisp(s, d, p, i):
        face, out = smoothstep(0.2, 0.5, d[:, 2])[:, None], LEFT * np.where(d[:, :1] > 0, 1.0, -1.0)
        return (out - UP * 0.5) * (1 - face) + (out * 0.6 - UP) * face

    return Groom(cards, edge_wisps(head, "long", rng, 70 if lod == 0 else 30, 0.014, wisp), [])
