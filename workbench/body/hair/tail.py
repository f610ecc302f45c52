"""The ponytail's tail: a few clumps of cards leaving a tie at the back of the head, and the tie (an elastic band
round the gathered hair, in the hair's colour much darkened: :data:`TIE_SHADE`); :func:`.styles.groom` combs the
rest of the hair to the tie.

The centreline goes out and down from the tie and soon turns to hang, :data:`GAP` off the body (:func:`tail_line`),
swaying to one side as it goes (:data:`SWAY`); the tail flares out just after the tie, is fullest a fifth of the way
down and thins to the clumps' soft ends. Blind review J saw a tail standing 4 to 6 cm off the neck, straight down the
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
>>> line.shape, bool(radius[-1] < radius.max() / 3), bool(line[-1, 0] - line[0, 0] > 0.015)
((60, 3), True, True)
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from ..lod import Piece
from .groom import LEFT, UP, Strands, arc, clump_columns
from .head import Head, directions, smoothstep
from .texture import shell_u

# Where it is tied (degrees: azimuth from the face, polar from the crown: at 84 it was tied at the nape, and the tail
# lay down the neck; at 68 and 70 the neck showed between the clumps seen from behind, test_hair_sleek_review_j's
# holes 0.15 % and 0.1 %, against 0.02 % here), the tail's length (metres), its radius at the tie, at its fullest and at its end, and where it
# is fullest (a share of its length: it flares out of the tie).
TIE_AT = (180.0, 66.0)
TAIL = 0.3
TAIL_RADIUS = (0.011, 0.03, 0.005)
FULL_AT = 0.2
# The tail's cards fanned round its own line in layers (blind review R saw the clumps, each a ring of cards round its
# own line, as "one flat, wide ribbon" at 3/4 and from behind: the clumps' cards faced every way, so the tail shaded as
# one flat strip): per level of detail, each layer's share of the tail's radius and its cards round it. Each card
# faces out from the tail's line (its normal the tail's own round), so the tail shades as one round bundle; the
# layers' cards turned between one another, the inner ones fill the outer ones' gaps.
LAYERS = (((1.0, 11), (0.7, 8), (0.42, 5)), ((1.0, 8), (0.6, 5)))
# ...each card as wide as this share of its layer's round over its count (a polygon round it, closed at its corners),
# and its rows along the tail (rows closer where it turns out of the tie, rows ** 1.4, drew the cards' flat sides there
# as boxes).
CARD_WIDTH = (1.8, 1.6)
ROWS = (np.linspace(0, 1, 16), np.linspace(0, 1, 11))
# ...each card's own length (a share of the tail's: layered ends, not one cut), the most it stands off its layer (a
# share of its radius, changing slowly along it: locks, not a smooth tube) and the turn it makes round the tail's line
# over its length (radians).
LENGTH = (0.72, 1.0)
LOCK = 0.06
TWIST = 0.35
# Cards through the middle per level of detail (so the tail seen edge on to a layer's card has hair across its width).
CROSSED = (2, 1)
# ...at the tie, the layers gathered into one bundle that fills it, their radii that share of their own (at a third of
# it, the tie was a ring round a thin tail, the combed hair showing through it).
TIED = 0.75
# ...and towards the tips drawing in, by this share of their radius (the layers as far out to the end, the tail ended
# as wide as it was at its fullest: test_hair_sleek_review_j).
CLOSE = 0.6
# How far (metres) the tail's end sways to the figure's left of where it would hang, growing from a fifth of the
# way down (straight down the middle of the back, it hung as a rod).
SWAY = 0.025
# The share of its length over which it turns from going out of the tie to hanging (0.35: it stood 4 to 6 cm off the
# neck, a stick held out; 0.22 with 0.7 out per unit down from the tie, the bend an elbow), how far in (towards the
# body, per unit down) it then goes, and how far (metres) its outside stays off the body at least (a centimetre, it
# lay along the neck: review L's "glued to the nape").
TURN, IN, GAP = 0.2, 0.12, 0.025
# ...pushed out where it needs to be, with the points round it less by this much per square metre along it (tail_line).
ROUND = 8.0
# Loose strands off the tail per level of detail: narrow cards leaving a clump's outside from a quarter of the way
# down, drifting up to LOOSE_OUT metres out from it (2 cm out, they were the tail's outside in occlusion.tube, and the
# rest lay "deep" under them: test_hair_caps_review_h's median light 0.53; 8 mm out, off the gathered tail, strands
# of their own seen from behind).
LOOSE = (5, 3)
LOOSE_OUT = 0.004
# The tie: its width along the tail (metres), its points round it, and its shade (its vertex colour: the hair's colour
# times this, so a dark band in any hair colour, never a colour of its own over the user's).
TIE_WIDTH = 0.012
TIE_POINTS = 20
TIE_SHADE = 0.3


def tie(head: Head) -> tuple[np.ndarray, np.ndarray]:
    """The ponytail's tie: its direction from the skull's centre and its point (on the hair there)."""
    d = directions(np.array([TIE_AT[0]]), np.array([TIE_AT[1]]))[0]
    return d, head.centre + d * (head.envelope(d[None])[0] + 0.008)


def tail_line(head: Head, points: int) -> tuple[np.ndarray, np.ndarray]:
    """The tail's centreline (points, 3) from the tie, and its radius there: out from the head and down,
    turning to hang and swaying aside, its outside kept :data:`GAP` off the body envelope."""
    d, at = tie(head)
    u = np.linspace(0, 1, points)
    lo, full, end = TAIL_RADIUS
    radius = lo + (full - lo) * smoothstep(0.0, FULL_AT, u) - (full - end) * smoothstep(FULL_AT + 0.1, 1.0, u) ** 1.3
    step = TAIL / (points - 1)
    line = [at]
    out = d - UP * (d @ UP)
    out /= np.linalg.norm(out)
    for k in range(1, points):
        # From out and a little down at the tie to down and a little in within TURN of the length.
        bend = smoothstep(0.0, TURN, u[k])
        heading = out * (0.6 * (1 - bend) - IN * bend) - UP * (0.5 + 0.5 * bend)
        heading = heading / np.linalg.norm(heading)
        sway = SWAY * (smoothstep(0.2, 1.0, u[k]) - smoothstep(0.2, 1.0, u[k - 1]))
        line.append(line[-1] + step * heading + LEFT * sway)
    # Kept off the body: each point below the skull's centre pushed out (from the vertical through it) to what it
    # needs, and the points round it with it, less by ROUND per square metre along the line (pushed out one point at a
    # time, the line turned 30 degrees at once where it first needed it: an elbow, the clumps' frames turning over).
    pts = np.array(line)
    rel = pts - head.centre
    az = np.arctan2(rel[:, 0], rel[:, 2])
    rho = np.hypot(rel[:, 0], rel[:, 2])
    need = head.reach(np.degrees(az), pts[:, 1]) + radius + GAP
    short = np.where(pts[:, 1] < head.centre[1], np.maximum(need - rho, 0.0), 0.0)
    arc_at = np.arange(points) * step
    push = (short[None, :] - ROUND * (arc_at[:, None] - arc_at[None, :]) ** 2).max(1).clip(0.0)
    push *= smoothstep(0.0, 0.1, u)         # (not at the tie: from it)
    return pts + push[:, None] * np.stack([np.sin(az), np.zeros(points), np.cos(az)], 1), radius


def frames(line: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Along ``line`` (N, 3): its direction and two unit vectors square to it (the first in the plane of the figure's
    left-right axis)."""
    t = np.gradient(line, axis=0)
    t /= np.linalg.norm(t, axis=1, keepdims=True)
    e1 = np.cross(t, LEFT)
    e1 /= np.linalg.norm(e1, axis=1, keepdims=True)
    return t, e1, np.cross(t, e1)


def layer_radius(radius: np.ndarray, share: float) -> np.ndarray:
    """A layer's radius (N,) along the tail whose own radius is ``radius`` (N,): ``share`` of it, gathered at the
    tie (:data:`TIED`) and drawn in towards the tips (:data:`CLOSE`).

    >>> r = layer_radius(np.full(5, 0.03), 1.0)
    >>> bool(r[0] < r[1]), bool(r[-1] < r[2])
    (True, True)
    """
    u = np.linspace(0, 1, len(radius))
    parted = smoothstep(0.0, FULL_AT, u)
    return radius * share * (TIED + (1 - TIED) * parted) * (1 - CLOSE * smoothstep(0.5, 1.0, u))


def tail(head: Head, rng: np.random.Generator, lod: int) -> tuple[Strands, Strands]:
    """The tail's cards (see the module's text) and its tie."""
    K = len(ROWS[lod])
    line, radius = tail_line(head, 60)
    t, e1, e2 = frames(line)
    pts, nrm, widths = [], [], []

    def rows(u):
        return np.minimum(np.round(u * (len(line) - 1)).astype(np.int64), len(line) - 1)

    # Layers of cards round the tail's line, outer first, each card facing out from it, turning a little round it,
    # standing off its layer in a slowly changing lock and ending at its own length...
    phase = rng.uniform(0, 2 * np.pi)
    for n, (share, count) in enumerate(LAYERS[lod]):
        r = layer_radius(radius, share)
        twist = TWIST * rng.uniform(0.8, 1.0)          # (one per layer: cards turning apart opened gaps)
        for k in range(count):
            j = rows(rng.uniform(*LENGTH) * ROWS[lod])
            s = ROWS[lod]
            phi = (phase + 2 * np.pi * (k + 0.5 * n + rng.uniform(-0.15, 0.15)) / count
                   + twist * s)
            lock = 1 - LOCK * np.cos(rng.uniform(0, 2 * np.pi) + rng.uniform(2.0, 4.0) * s) * smoothstep(0.0, 0.3, s)
            ring = np.cos(phi)[:, None] * e1[j] + np.sin(phi)[:, None] * e2[j]
            pts.append(line[j] + (r[j] * lock)[:, None] * ring)
            nrm.append(ring)
            widths.append(2 * np.pi * r[j] / count * CARD_WIDTH[lod])
    # ...cards through its middle...
    for k in range(CROSSED[lod]):
        j = rows(0.03 + (rng.uniform(0.85, 1.0) - 0.03) * ROWS[lod])
        phi = np.pi * (k + rng.uniform(0, 1)) / CROSSED[lod] + 0.5 * ROWS[lod]
        pts.append(line[j])
        nrm.append(np.cos(phi)[:, None] * e1[j] + np.sin(phi)[:, None] * e2[j])
        widths.append(1.6 * radius[j] * LAYERS[lod][-1][0])
    # ...and a few loose strands leaving its outside and drifting off it.
    outer = layer_radius(radius, 0.85 * LAYERS[lod][0][0])      # (drifting out to the outer layer)
    for _ in range(LOOSE[lod]):
        u = np.linspace(rng.uniform(0.2, 0.4), rng.uniform(0.6, 0.85), K)
        j = rows(u)
        phi = rng.uniform(0, 2 * np.pi) + 0.5 * u
        ring = np.cos(phi)[:, None] * e1[j] + np.sin(phi)[:, None] * e2[j]
        drift = LOOSE_OUT * rng.uniform(0.5, 1.0) * np.linspace(0, 1, K) ** 1.5
        pts.append(line[j] + (outer[j] + drift)[:, None] * ring)
        nrm.append(ring)
        widths.append(np.full(K, rng.uniform(0.005, 0.008)))
    tails, normals = np.array(pts), np.array(nrm)
    below = tails[..., 1] < head.centre[1]
    cards = Strands(tails, normals, below, np.array(widths), clump_columns(rng, len(tails)), 0.3, along=arc(tails))
    # The tie: a band round the gathered hair just past where the combed hair meets it.
    turns = np.linspace(0, 2 * np.pi, TIE_POINTS)
    ring = np.cos(turns)[:, None] * e1[1] + np.sin(turns)[:, None] * e2[1]
    wrap = line[1] + (radius[1] + 0.003) * ring
    band = Strands(wrap[None], ring[None], (wrap[None, :, 1] < head.centre[1]), np.array([TIE_WIDTH]),
                   clump_columns(rng, 1), 0.0, np.repeat(t[1][None, None], TIE_POINTS, 1))
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
