"""Soft ends for hanging hair: fine blended strands running on past the tips of a style's hanging cards.

Alpha-tested cards end where their alpha crosses the cut: one hard edge, the same in every renderer. A bob's
cards, cut nearly blunt (pointed, side by side, they read as a comb), drew its hem as one chopped, stepped
line, and the whole bob as a shell (blind review F: "one rigid shell ... with chopped, stepped ends"). Real
ends thin out: past the last of the hair's mass a few fine hairs go on, the farther the fewer. So from
cards whose tips hang, a share of them (:data:`ENDS`) send a strand from inside their last centimetres (its
root hidden under the card's opaque middle) on past their tips by up to two or three centimetres, each its own
length, narrowing nearly to a point, in a clump column's solid body (:data:`V_RANGE`) and drawn blended with the
fringe (soft edges; no cut): the hem goes from hair to none over a centimetre or two of tapered ends of their own
lengths instead of at one cut. (Long hair's; a bob sends none since blind review S, which saw them as "frayed
ends": a bob's ends are thick and blunt, :data:`ENDS`.)

The strands go on the way the card's tip points, turned down (a bob's ends turned under point in towards
the neck: followed, they entered it in a nod), and never in nearer the body's axis than the tip.

>>> from workbench.options import normalize_avatar_settings
>>> from workbench.body.mesh import body_mesh
>>> from .canon import fitted
>>> from .head import head_of
>>> m = body_mesh(normalize_avatar_settings({"gender": "feminine"}))
>>> w = end_wisps(fitted(m, "long", 0).cards, head_of(m), "long", 0)
>>> w.pts.shape[1:], bool(w.hanging.all()), bool(len(w.pts) > 20)
((4, 3), True, True)
>>> len(end_wisps(fitted(m, "bob", 1).cards, head_of(m), "bob", 1).pts)
0
"""

from __future__ import annotations

import numpy as np

from .groom import UP, Strands, clump_columns
from .head import Head

# Per style: the share of its hanging cards that send a strand on past their tips at LOD 0 and at LOD 1, how far
# past (metres, the longest), and from how far inside the tip it starts (metres along the card). (Long hair's LOD 1
# is at its triangle budget, pieces.LOD1_BUDGET: its ends at LOD 0 alone, paid for by fewer rows along its cards
# there (a row fewer, long.LONG_POINTS). Its cards' tips, each cut where its alpha crosses, drew its hem as a row of hard points;
# blind review G: "hard straight cut edges ... Should be: tapered alpha strands".)
# A bob's: many, short and fine (from 0.6 and 0.3 of its cards, 2.2 cm past from 1.8 cm inside, 6 to 10 mm wide,
# they hung below its hem as a few dark teeth: blind review L's "spiky tips"; 1 cm past, 3 to 5 mm wide, light icicles
# in silver hair, blind review O's "spiky glitchy tips": 2 to 3.5 mm wide, tests/render/test_bob_review_o.py; 1 cm
# past, fanned apart, thin spikes of their own lengths with the neck between them, straw: blind review Q's "straw-like,
# ragged ends", 6 mm past, tests/render/test_bob_hem_review_q.py). None now: from nine cards in ten, 6 mm past, they
# still hung under the hem as a comb of see-through tips, blind review S's "frayed ends" on its lowest-rated style (a
# bob's ends are thick and blunt; tests/render/test_bob_ends_review_s.py).
ENDS = {"bob": (0.0, 0.0, 0.006, 0.008), "long": (0.35, 0.0, 0.035, 0.02)}
# The strands' widths (metres at their roots), how much they narrow to their tips (nearly to a point: the clump
# columns they show are cut nearly blunt in a bob's atlas), their points (rows) and the stretch of a clump
# column they show (``v``, before its own tip: its body, solid, the strands in its colour). (The atlas's wisp
# columns, a few strands under a texel wide, drew grey dust under the hem in ours: fine strands under a pixel.)
WIDTH = {"bob": (0.002, 0.0035), "long": (0.006, 0.01)}
TAPER = 0.95
# How far aside (a share of the way down) each strand may turn off its card: a bob's hardly (at 0.25, its strands fanned
# apart past the hem, straw: blind review Q's "straw-like, ragged ends"; test_bob_hem_review_q).
FAN = {"bob": 0.08, "long": 0.25}
POINTS = 4
V_RANGE = (0.5, 0.95)


def end_wisps(cards: Strands, head: Head, style: str, lod: int, seed: int = 0) -> Strands:
    """Fine strands (see the module's text) past the hanging tips of ``cards`` (a fitted style's at ``lod``, final:
    tucked and draped on this body); none if ``style`` has no soft ends or no card's tip hangs."""
    share0, share1, reach, inside = ENDS.get(style, (0.0, 0.0, 0.0, 0.0))
    share = share1 if lod else share0
    hung = np.flatnonzero(cards.hanging[:, -1])
    rng = np.random.default_rng([seed, len(cards.pts)])
    pick = hung[rng.random(len(hung)) < share]
    if not len(pick):
        return Strands(np.zeros((0, POINTS, 3)), np.zeros((0, POINTS, 3)), np.zeros((0, POINTS), bool),
                       np.zeros(0), np.zeros(0, np.int64), 0.3)
    n = len(pick)
    pts, nrm = cards.pts[pick], cards.nrm[pick]
    seg = np.linalg.norm(np.diff(pts, axis=1), axis=2)
    from_tip = np.concatenate([np.cumsum(seg[:, ::-1], axis=1)[:, ::-1], np.zeros((n, 1))], axis=1)
    # The root: ``inside`` metres before the tip along the card, a little to one side of its middle.
    start = inside * rng.uniform(0.7, 1.0, n)
    k = np.clip((from_tip >= start[:, None]).sum(1) - 1, 0, pts.shape[1] - 2)
    f = np.clip((from_tip[np.arange(n), k] - start) / np.maximum(seg[np.arange(n), k], 1e-9), 0, 1)
    root = pts[np.arange(n), k] * (1 - f[:, None]) + pts[np.arange(n), k + 1] * f[:, None]
    t = np.gradient(pts, axis=1)[np.arange(n), k]
    t /= np.maximum(np.linalg.norm(t, axis=1, keepdims=True), 1e-12)
    n_tip = nrm[:, -1] / np.maximum(np.linalg.norm(nrm[:, -1], axis=1, keepdims=True), 1e-12)
    side = np.cross(t, n_tip)
    side /= np.maximum(np.linalg.norm(side, axis=1, keepdims=True), 1e-12)
    root = root + side * (cards.width[pick] * rng.uniform(-0.3, 0.3, n))[:, None]
    # On past the tip, the tip's way turned down, each strand spread a little off it and its own length.
    tip_way = pts[:, -1] - pts[:, -2]
    tip_way /= np.maximum(np.linalg.norm(tip_way, axis=1, keepdims=True), 1e-12)
    way = tip_way * 0.5 - UP + side * rng.uniform(-FAN[style], FAN[style], n)[:, None]
    way /= np.linalg.norm(way, axis=1, keepdims=True)
    length = start + reach * rng.uniform(0.45, 1.0, n)
    s = np.linspace(0, 1, POINTS)[None, :, None] * length[:, None, None]
    # The first stretch along the card (its root under the card), then on along ``way``.
    along = np.minimum(s, start[:, None, None])
    out = root[:, None] + t[:, None] * along + way[:, None] * (s - along)
    # Never in nearer the body's axis than the card's tip (out of the neck under turned-in ends).
    tip = pts[:, -1] - head.centre
    least = np.hypot(tip[:, 0], tip[:, 2])[:, None]
    rel = out - head.centre
    rho = np.hypot(rel[..., 0], rel[..., 2])
    past = s[..., 0] > along[..., 0]
    scale = np.where(past, np.maximum(rho, least) / np.maximum(rho, 1e-9), 1.0)
    out[..., 0] = head.centre[0] + rel[..., 0] * scale
    out[..., 2] = head.centre[2] + rel[..., 2] * scale
    return Strands(out, np.repeat(n_tip[:, None], POINTS, 1), np.ones((n, POINTS), bool),
                   rng.uniform(*WIDTH[style], n), clump_columns(rng, n), TAPER)
