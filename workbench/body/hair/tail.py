"""The ponytail's tail: cards in two rings round a centreline from the tie, crossed cards through its middle, a few
loose strands off it, and a lock wound round the tie (:func:`.styles.groom` combs the rest of the hair to the tie).

The centreline goes out from the tie and soon turns down, back in towards the neck, to hang a centimetre off
the body (:func:`tail_line`), swaying to one side as it goes (:data:`SWAY`); the tail is fullest a third of the way
down and thins to a point of single strands. As blind review J saw it, a tail standing 4 to 6 cm off the
neck, straight down the middle of the back and nearly as wide at its end as at its fullest, was a rigid tube
("a stiff ponytail").

>>> from workbench.options import normalize_avatar_settings
>>> from workbench.body.mesh import body_mesh
>>> from .head import head_of
>>> h = head_of(body_mesh(normalize_avatar_settings({"gender": "feminine"})))
>>> line, radius = tail_line(h, 60)
>>> line.shape, bool(radius[-1] < radius.max() / 3), bool(line[-1, 0] - line[0, 0] > 0.015)
((60, 3), True, True)
"""

from __future__ import annotations

import numpy as np

from .groom import LEFT, UP, Strands, clump_columns
from .head import Head, directions, smoothstep

# Where it is tied (degrees: azimuth from the face, polar from the crown), the tail's length (metres), its radius at
# the tie, at its fullest and at its end (at 13 mm its end was nearly as wide as its middle: a blunt tube), and how
# far below the tie it is fullest (a share of its length).
TIE_AT = (180.0, 84.0)
TAIL = 0.3
TAIL_RADIUS = (0.012, 0.032, 0.004)
# The tail's crossed cards through its middle.
CROSSED = 3
# How far (metres) the tail's end sways to the figure's left of where it would hang, growing from a fifth of the
# way down (straight down the middle of the back, it hung as a rod).
SWAY = 0.025
# The share of its length over which it turns from going out of the tie to hanging (0.35: it stood 4 to 6 cm off the
# neck, a stick held out), and how far in (towards the body, per unit down) it then goes, to lie a centimetre off it.
TURN, IN = 0.22, 0.2
# Loose strands off the tail per level of detail: narrow cards leaving its outside from a quarter of the way down,
# drifting up to LOOSE_OUT metres out from it (2 cm out, they were the tail's outside in occlusion.tube, and the
# rest lay "deep" under them: test_hair_caps_review_h's median light 0.53).
LOOSE = (5, 3)
LOOSE_OUT = 0.008


def tie(head: Head) -> tuple[np.ndarray, np.ndarray]:
    """The ponytail's tie: its direction from the skull's centre and its point (on the hair there)."""
    d = directions(np.array([TIE_AT[0]]), np.array([TIE_AT[1]]))[0]
    return d, head.centre + d * (head.envelope(d[None])[0] + 0.008)


def tail_line(head: Head, points: int) -> tuple[np.ndarray, np.ndarray]:
    """The tail's centreline (points, 3) from the tie, and its radius there: out from the head and down,
    turning to hang and swaying aside, kept off the body envelope by its radius and a centimetre."""
    d, at = tie(head)
    u = np.linspace(0, 1, points)
    lo, full, end = TAIL_RADIUS
    radius = lo + (full - lo) * smoothstep(0.0, 0.3, u) - (full - end) * smoothstep(0.4, 1.0, u) ** 0.8
    step = TAIL / (points - 1)
    line = [at]
    out = d - UP * (d @ UP)
    out /= np.linalg.norm(out)
    for k in range(1, points):
        # From out and a little down at the tie to down and a little in within TURN of the length.
        bend = smoothstep(0.0, TURN, u[k])
        heading = out * (0.7 * (1 - bend) - IN * bend) - UP * (0.6 + 0.4 * bend)
        heading = heading / np.linalg.norm(heading)
        sway = SWAY * (smoothstep(0.2, 1.0, u[k]) - smoothstep(0.2, 1.0, u[k - 1]))
        p = line[-1] + step * heading + LEFT * sway
        rel = p - head.centre
        az = np.degrees(np.arctan2(rel[0], rel[2]))
        rho = np.hypot(rel[0], rel[2])
        need = float(head.reach(np.array([az]), np.array([p[1]]))[0]) + radius[k] + 0.01
        if rho < need and p[1] < head.centre[1]:
            p = head.centre + np.array([need * np.sin(np.radians(az)), rel[1], need * np.cos(np.radians(az))])
        line.append(p)
    return np.array(line), radius


def tail(head: Head, rng: np.random.Generator, lod: int) -> tuple[Strands, Strands]:
    """The tail's cards (see the module's text) and the lock wound round its tie."""
    K = 16 if lod == 0 else 11
    line, radius = tail_line(head, 60)
    t = np.gradient(line, axis=0)
    t /= np.linalg.norm(t, axis=1, keepdims=True)
    e1 = np.cross(t, LEFT)
    e1 /= np.linalg.norm(e1, axis=1, keepdims=True)
    e2 = np.cross(t, e1)
    pts, nrm, widths = [], [], []

    def rows(u):
        return np.minimum(np.round(u * (len(line) - 1)).astype(np.int64), len(line) - 1)

    # Rings of cards round its centreline, each twisting a little and ending at its own length.
    for depth, count in ((0.55, 8 if lod == 0 else 5), (1.0, 18 if lod == 0 else 11)):
        for k in range(count):
            u = np.linspace(0, rng.uniform(0.85, 1.0) if depth == 1.0 else rng.uniform(0.65, 0.9), K)
            j = rows(u)
            phi = 2 * np.pi * (k + rng.uniform(-0.3, 0.3)) / count + 0.6 * u
            ring = np.cos(phi)[:, None] * e1[j] + np.sin(phi)[:, None] * e2[j]
            pts.append(line[j] + (radius[j] * depth)[:, None] * ring)
            nrm.append(ring)
            widths.append(2 * np.pi * TAIL_RADIUS[1] * depth / count * 1.6)
    # ...through its middle crossed cards, planes through the centreline at even angles: a tail seen from any
    # side has hair across its whole width, not a tube's two walls (review H: "one flat strip").
    for k in range(CROSSED):
        u = np.linspace(0.1, rng.uniform(0.85, 0.95), K)
        j = rows(u)
        phi = np.pi * (k + 0.5) / CROSSED + 0.4 * u
        ring = np.cos(phi)[:, None] * e1[j] + np.sin(phi)[:, None] * e2[j]
        pts.append(line[j])
        nrm.append(ring)
        widths.append(1.6 * TAIL_RADIUS[1])
    # ...and a few loose strands leaving its outside and drifting off it.
    for _ in range(LOOSE[lod]):
        u = np.linspace(rng.uniform(0.2, 0.4), rng.uniform(0.6, 0.85), K)
        j = rows(u)
        phi = rng.uniform(0, 2 * np.pi) + 0.5 * u
        ring = np.cos(phi)[:, None] * e1[j] + np.sin(phi)[:, None] * e2[j]
        drift = LOOSE_OUT * rng.uniform(0.5, 1.0) * np.linspace(0, 1, K) ** 1.5
        pts.append(line[j] + (radius[j] + drift)[:, None] * ring)
        nrm.append(ring)
        widths.append(rng.uniform(0.005, 0.008))
    tails, normals = np.array(pts), np.array(nrm)
    below = tails[..., 1] < head.centre[1]
    cards = Strands(tails, normals, below, np.array(widths) * (1.2 if lod else 1.0), clump_columns(rng, len(tails)), 0.3)
    # A lock wound round the tie, hiding it.
    turns = np.linspace(0, 2 * np.pi * 1.1, 18)
    ring = np.cos(turns)[:, None] * e1[1] + np.sin(turns)[:, None] * e2[1]
    wrap = line[1] + (radius[1] + 0.002) * ring
    band = Strands(wrap[None], ring[None], (wrap[None, :, 1] < head.centre[1]), np.array([0.012]),
                   clump_columns(rng, 1), 0.1, np.repeat(t[1][None, None], 18, 1))
    return cards, band
