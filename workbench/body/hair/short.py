"""The ``short`` style's groom: a crop combed from a crown whorl, the top combed back and over to the figure's left,
the sides and back down; longer and fuller on top, ending at the hairline in front, in tufts (:func:`short_groom`,
which :func:`.styles.groom` calls).
"""

from __future__ import annotations

import numpy as np

from ..mesh import BodyMesh
from .groom import (
    LEFT,
    UP,
    Groom,
    Strands,
    clump_columns,
    edge_wisps,
    emerge,
    fibonacci,
    grow,
    scalp_roots,
    whorl_field,
)
from .head import Head, directions, hairline, smoothstep

# Short: the whorl, where the top's side parting runs (x from the skull's centre, metres), the
# lengths (top, sides) and the heights over the head (top, sides) in metres.
SHORT_WHORL = (180.0, 28.0)
SHORT_PART = -0.035
SHORT_LENGTH = (0.075, 0.035)
SHORT_VOLUME = (0.010, 0.004)
# Its tufts per level of detail, the most a tuft's tips lift (metres), and the range of the share of the
# hairline each strand stops at.
SHORT_TUFTS = (60, 45)
SHORT_TUFT_LIFT = 0.013
SHORT_HAIRLINE = (0.96, 1.04)
# The tufts' own lifts and turns are drawn from their own stream, so that how many roots the hairline holds does not
# redraw them. Which draw it is decides the top's outline on every crop (every head shares it): over seeds 62 to 66
# the outline's roughness (tests/render/test_hair_volume_review_e.py, twelve random heads) had medians 0.07 to 0.95 per
# mille; 65 is the most broken up, as the main stream's draw before pass 67 was (0.72; 1.21 with pass 67's line).
SHORT_TUFT_SEED = 65
# The sides lie close: the volume and the tufts' lift, on the temples and over the ears (from polar SHORT_SIDE_POLAR
# down, between 40 and 145 degrees from the face), cut by SHORT_SIDE_FLAT. At full height the top's strands combed
# down over the side stood 2 to 3 cm off the temple, wider than the head from the front: "flat strips stick out
# sideways from the temples" (blind review BC; tests/body/test_crop_sides_review_bc.py).
SHORT_SIDE_POLAR = (42.0, 62.0)
SHORT_SIDE_FLAT = 0.85
# Behind the crown (polar angle from the first figure to the second, and facing back) the tufts' lift fades out: the
# top's strands, combed back over the crown, lifted their tips as they lay down the back of the head, and where they
# ended they stood off the shorter hair under them, a ledge and its shadow, "a hard horizontal band across the back of
# the head, where the upper layer of hair meets the lower one" (the blind judge of pass 75's crown change;
# tests/render/test_crop_back_band_review_be.py). Judged blind against the lift all the way down: 9 of 9.
SHORT_BACK_POLAR = (40.0, 70.0)
# At the back (from 110 to 140 degrees round from the face, and beyond) each strand stops at this share of its own
# share of the hairline: stopped at the hairline itself, at the nape the cards' tapered tips hung a centimetre and more
# past it over the neck, "an even sawtooth fringe instead of a clean tapered cut" (the blind judge of pass 75's back
# change); stopped sooner, the painted hairline under them is the fade (tests/body/test_crop_nape_review_be.py). Judged
# blind against the cards reaching the hairline: 9 of 9.
SHORT_NAPE_REACH = 0.93


def _short_field(head: Head):
    whorl = directions(np.array([SHORT_WHORL[0]]), np.array([SHORT_WHORL[1]]))[0]
    back = np.array([0.0, 0.0, -1.0])

    def field(s, d, p, i=None):
        pol = np.degrees(np.arccos(np.clip(d[:, 1], -1, 1)))
        top = smoothstep(62.0, 40.0, pol)[:, None]
        ahead = smoothstep(-0.3, 0.2, d[:, 2])[:, None]                     # in front of the crown
        side = np.where(p[:, :1] - head.centre[0] > SHORT_PART, 1.0, -1.0)
        sweep = 0.55 * side * LEFT + back                                  # the top combed back and over
        down = -UP + 0.5 * back                                            # the sides combed down and back
        base = whorl_field(whorl, d)
        return base * (1 - top * ahead) * 0.6 + sweep * top * ahead + down * (1 - top)
    return field


def short_groom(mesh: BodyMesh, head: Head, lod: int, roots_count: int) -> Groom:
    """The ``short`` style's groom at level of detail ``lod`` from ``roots_count`` roots over the sphere."""
    rng = np.random.default_rng(61)
    roots = scalp_roots(head, "short", roots_count, 61)
    S = len(roots)
    root_pol = np.degrees(np.arccos(np.clip(roots[:, 1], -1, 1)))
    top = smoothstep(65.0, 35.0, root_pol)
    field = _short_field(head)
    # The sideburns (in front of the ears, low on the head) lie flatter to the temple: lifted as the sides, their
    # tips stood off the cheek's outline and the backdrop showed between them (white flecks at the temples).
    root_az = np.abs(np.degrees(np.arctan2(roots[:, 0], roots[:, 2])))
    burn = smoothstep(55.0, 70.0, root_az) * smoothstep(105.0, 92.0, root_az) * smoothstep(62.0, 76.0, root_pol)
    length = (SHORT_LENGTH[1] + (SHORT_LENGTH[0] - SHORT_LENGTH[1]) * top) * rng.uniform(0.8, 1.2, S)
    lift = rng.uniform(0.0, 0.003, S) * (1 - burn)
    full = (SHORT_VOLUME[1] + (SHORT_VOLUME[0] - SHORT_VOLUME[1]) * top) * (1 - 0.7 * burn)
    # Tufts: neighbouring strands share a tuft's own lift of their tips and its own turn off the comb, so the top
    # is piecey and its outline breaks up (every strand lying back down at one height drew a smooth helmet).
    centres = fibonacci(SHORT_TUFTS[lod], 67)
    tuft = np.argmax(roots @ centres.T, axis=1)
    tufts = np.random.default_rng(SHORT_TUFT_SEED)
    # A strand's tips lift with its tuft's alone. Each strand had a lift of its own besides (up to 0.6 of the tuft's
    # most, "single pieces standing out of a tuft"): over the crown they stood above the outline as thin arcs with the
    # backdrop between them and the hair, "stray hair strips stick up off the crown with white/light fringes" (blind
    # review BE's #11; BD's "flyaway cards show light halo edges on the crown"). Without them the tufts still break the
    # outline up (tests/render/test_hair_volume_review_e.py's roughness 0.71 to 0.75 per mille, at least 0.45; 1.07
    # to 1.38 with them) and the crown's strands standing out of it are a third as many
    # (tests/render/test_crop_crown_review_be.py). Their draw stays in the stream, so its later draws keep their values.
    rng.uniform(0.0, 1.0, S)
    up = tufts.uniform(0.0, 1.0, len(centres))[tuft] ** 1.5 * SHORT_TUFT_LIFT * top * (1 - burn)
    turn = tufts.normal(size=(len(centres), 3))[tuft] * 0.35 * top[:, None]

    def height(s, d, i):
        # Rising off the scalp over the first 2 cm, the tips lying back down towards it (but a tuft's lifting).
        rise = 1 - (1 - np.minimum(s / 0.02, 1)) ** 2
        along = np.minimum(s / length[i], 1)
        pol_p = np.degrees(np.arccos(np.clip(d[:, 1], -1, 1)))
        az_p = np.abs(np.degrees(np.arctan2(d[:, 0], d[:, 2])))
        temple = smoothstep(*SHORT_SIDE_POLAR, pol_p) * smoothstep(40.0, 65.0, az_p) * smoothstep(145.0, 120.0, az_p)
        behind = smoothstep(*SHORT_BACK_POLAR, pol_p) * smoothstep(-0.1, -0.5, d[:, 2])
        return (emerge(s, 0.0025 + lift[i]) + (full[i] * rise * (1 - 0.6 * along ** 2)
                + up[i] * smoothstep(0.3, 1.0, along) * (1 - behind)) * (1 - SHORT_SIDE_FLAT * temple))

    comb = field

    def tufted(s, d, p, i):
        return comb(s, d, p, i) + turn[i]

    # Each strand stops at its own share of the hairline: a broken hairline, not one cut.
    reach = rng.uniform(*SHORT_HAIRLINE, S)

    def limit(d, i):
        az = np.degrees(np.arctan2(d[:, 0], d[:, 2]))
        k = 1 - (1 - SHORT_NAPE_REACH) * smoothstep(110.0, 140.0, np.abs(az))   # (the nape's stop, sooner)
        return np.degrees(np.arccos(np.clip(d[:, 1], -1, 1))) > hairline("short", az) * reach[i] * k

    pts, nrm, hang = grow(head, roots, tufted, length, height=height, points=7, limit=limit)
    cards = Strands(pts, nrm, hang, rng.uniform(0.011, 0.016, S) * (1 + 0.2 * top) * (1.4 if lod else 1.0),
                    clump_columns(rng, S), 0.35)
    wisps = edge_wisps(head, "short", rng, 160 if lod == 0 else 100, 0.012)
    # ...none at the sideburns: there they stood past the cheek's outline, fine strands seen edge-on that the
    # browsers' studio lit white (flecks at the temples).
    rel = wisps.pts[:, 0] - head.centre
    burn_az = np.abs(np.degrees(np.arctan2(rel[:, 0], rel[:, 2])))
    wisps = wisps.take(~((burn_az > 60.0) & (burn_az < 100.0)))
    return Groom(cards, wisps, [])
