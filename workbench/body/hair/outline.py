"""How a hair card ends: the outline of its clump in the atlas's alpha, or a point its triangles make.

A clump column's alpha is its outline alone (:func:`clump_outline`), its strands in its colour only; most styles'
clumps narrow to their points in that outline. Long hair's do not (:data:`CARD_POINT`): its cards narrow to their
points in their own triangles (:func:`pointed`, read by :func:`.cards.ribbons`) and its clumps keep their width to the
column's end. An alpha cut keeps its shape only where a texel is under a pixel: a browser draws a card seen whole
(a full figure, a portrait from behind) from a mipmap level two or four texels across a column, whose alpha stays
over the cut at the clump's full width until, a level's row later, it falls under it at once. Each long card ended
bluntly there, a block, the hem a stair of them (blind review K's blocky "drips" at the tips). Triangles keep their
point at every level, and a browser's multisampling smooths their edges (it does not smooth an alpha cut's).

>>> import numpy as np
>>> v = (np.arange(64) + 0.5) / 64
>>> a = clump_outline(np.random.default_rng(0), v, 32, (0.38, 0.45))
>>> a.shape, float(a[32].sum()) > 25, float(a[-1].sum()) < 1
((64, 32), True, True)
"""

from __future__ import annotations

import numpy as np

from .head import smoothstep

# How far (in v) a clump's outline narrows to its point, where not its spread's (:func:`clump_outline`): a bob's
# over its last few millimetres (over its last 16 %, 3 cm of a bob's card, every card ended in a tooth: a comb; over
# 4 %, 8 mm, still a row of teeth under the hem: blind review Q's "straw-like" ends, test_bob_hem_review_q; over 2 %
# its last rows were no point in the atlas, test_hair_review's clump outlines).
POINT = {"bob": 0.03}
# Where (in v) a clump's outline ends, each column at its own place between the two figures: a bob is cut to a line, so
# its columns end within 1.5 % of their cards' lengths (over long hair's 7 %, 1.3 cm of a bob's card, its cards' tips
# hung at their own lengths: with its end strands, blind review Q's "straw-like, ragged ends"; test_bob_hem_review_q).
# (Ending at 0.99 to 1.0, their points drawn out to the cards' tips, the tucked ends' points hung side by side:
# test_hair_review_e's teeth 0.117 against 0.1.) From 0.985 to 0.995, within 2 mm of one another (at 0.975 to 0.99, with
# the end strands, blind review S's "frayed ends"; tests/render/test_bob_ends_review_s.py).
END = {"bob": (0.985, 0.995)}
# How far (in v, before where its outline ends) a clump's alpha fades out to its tip, where given: a bob's ends drawn
# blended (:data:`.pieces.SOFT_TIPS`) thin out over their last 5 to 6 mm (0.03 of a 17 cm card) instead of stopping at an alpha cut. Cut at 0.5,
# its clumps' points hung as a row of hard black teeth under the hem, each card's its own (blind review W's "sawtoothed,
# shredded card ends (alpha-test edges)"; tests/render/test_bob_tips_review_w.py).
FADE = {"bob": 0.03}
# The styles whose cards narrow to their points in their triangles instead (:func:`pointed`): over how much of their
# length (from the tip) and to what share of their width at the tip (the alpha's outline narrowed over 0.31 of long
# hair's cards: 0.08 plus 0.6 of its spread's 0.38). Their clumps keep their width to the column's end (POINT 0).
CARD_POINT = {"long": (0.31, 0.08)}
POINT.update({style: 0.0 for style in CARD_POINT})
# How far (in v) a clump card widens from its root (:func:`clump_outline`).
ROOT_TAPER = 0.08


def narrowing(u: np.ndarray) -> np.ndarray:
    """A clump's width (a share of it) ``u`` of the way along the stretch where it narrows to its point (0 to 1).

    >>> narrowing(np.array([0.0, 0.5, 1.0])).round(2).tolist()
    [1.0, 0.73, 0.0]
    """
    return (1 - u ** 1.6) ** 0.8


def clump_outline(rng, v: np.ndarray, cw: int, spread: tuple[float, float], point: float | None = None,
                  end_at: tuple[float, float] = (0.93, 1.0), fade: float = 0.0) -> np.ndarray:
    """A clump's alpha (rows, cw): its outline alone, opaque inside, a texel's soft edge, narrowing to a point
    over its last stretch (``point`` of ``v``, else by its ``spread``; a bob's short: cut nearly blunt; none at 0, the
    card's triangles narrowing instead), ending at its own ``v`` within ``end_at`` (:data:`END`), its alpha fading out
    over the last ``fade`` of ``v`` before that (:data:`FADE`); its strands are in its colour only.

    Strands drawn in the alpha (a texel or two wide, gaps between) alias wherever a texel is under a pixel:
    cut at 0.5 by a renderer without mipmaps they broke into scattered pixels, and averaged by mipmaps
    then cut, each card's strands vanished at a different row (comb teeth; a bob's blunt ends a barcode).
    An outline keeps its shape under both down to a level a few texels across a column (see the module's text)."""
    mid = cw / 2
    end = rng.uniform(*end_at)
    start = end - (0.08 + 0.6 * spread[0] if point is None else point)
    u = np.clip((v - start) / (end - start), 0.0, 1.0) if end > start else np.zeros_like(v)
    half = (mid - 1.5) * narrowing(u) * (1 - 0.06 * (1 + np.sin(v * 23.0 + rng.random() * 6.3)) * u)
    # ...and narrow at its root: a card's root end lying over others is a point, not a straight step.
    half = half * (0.25 + 0.75 * smoothstep(0.0, ROOT_TAPER, v))
    x = mid + 0.8 * np.sin(v * 9.0 + rng.random() * 6.3) * u
    cols = np.arange(cw) + 0.5
    out = np.clip(half[:, None] + 0.5 - np.abs(cols[None, :] - x[:, None]), 0.0, 1.0)
    if fade > 0:
        out = out * (1 - smoothstep(end - fade, end, v))[:, None]
    return out.astype(np.float32)


def pointed(s: np.ndarray, length: float, tip: float) -> np.ndarray:
    """The share of a card's width left at ``s`` along it (0 root, 1 tip) as it narrows to a point over its last
    ``length`` (a share of its length), to ``tip`` at the tip, on the curve of the clumps' outlines (:func:`narrowing`).

    >>> pointed(np.array([0.5, 0.8, 0.9, 1.0]), 0.3, 0.1).round(2).tolist()
    [1.0, 0.87, 0.6, 0.1]
    """
    u = np.clip((s - (1 - length)) / length, 0.0, 1.0)
    return tip + (1 - tip) * narrowing(u)
