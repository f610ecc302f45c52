"""Hair pulled back sleek (the bun's and the ponytail's cards over the head): combed in locks.

Each sleek card lay at its own random height over the head (its layer, ``styles.SLEEK_LAYERS``), and its vertex
colours shade it by its depth under the hair's outer surface (:mod:`.occlusion`): neighbouring cards each in their own
shade, card by card, over one smooth shell: blind review J's "painted helmet" (brush strokes, no combed structure).
Combed hair gathers in locks a few centimetres wide that run the way it is combed, some lying a little higher than
their neighbours: each card here lies at the height of the lock its root is in (slow waves round the head and down
it, :data:`LOCK_WAVES`, so neighbouring cards share it, and a card keeps it all along, so the locks run along the
comb), with a share of its own (:data:`OWN`). Lower locks are deeper in the hair, darker (:mod:`.occlusion`), and
the outline stands a few millimetres in and out with them: relief along the comb.

>>> import numpy as np
>>> from types import SimpleNamespace
>>> roots = np.array([[0.0, 0.5, 1.0], [1.0, 0.5, 0.0], [-1.0, 0.5, 0.0]])
>>> h = heights(roots, SimpleNamespace(centre=np.zeros(3)), np.array([0.0, 0.5, 1.0]))
>>> h.shape, bool(h.min() >= 0.0 and h.max() <= 1.0)
((3,), True)
"""

from __future__ import annotations

import numpy as np

# A card's own share of its height (the rest its lock's): all its own (random), the cards were one shade each; at 0.1
# (0.5 mm) neighbouring cards of a lock lay at one height and cut through each other (a flat card's middle lies 0.4 mm
# under its edges), in patches of either one's strands with straight edges: blind review R's "rectangular dashes"
# (tests/render/test_sleek_dashes_review_r.py). At 0.3, a millimetre of the 3 (styles.SLEEK_LAYERS): 3 % of light.
OWN = 0.3
# The waves (cycles a turn round the head) whose sum is the locks' heights: locks 3 to 6 cm wide at the hairline.
LOCK_WAVES = (5, 8, 13)
SEED = 46


def heights(roots: np.ndarray, head, own: np.ndarray) -> np.ndarray:
    """Each card's height (S,) in its layers, 0 to 1, from its root's point ``roots`` (S, 3): its lock's (by the
    root's azimuth and polar angle about the skull's centre) and, :data:`OWN` of it, its own ``own`` (S,) 0 to 1."""
    rel = roots - head.centre
    az = np.arctan2(rel[:, 0], rel[:, 2])
    pol = np.arccos(np.clip(rel[:, 1] / np.maximum(np.linalg.norm(rel, axis=1), 1e-12), -1, 1))
    phase = np.random.default_rng(SEED).uniform(0, 2 * np.pi, (len(LOCK_WAVES), 2))
    # (the locks leaning with the polar angle too: roots nearer the crown are other locks than those below them)
    wave = sum(np.sin(k * az + 3.0 * pol + p[0]) + 0.5 * np.sin(k * az - 2.0 * pol + p[1])
               for k, p in zip(LOCK_WAVES, phase, strict=True)) / (1.5 * len(LOCK_WAVES) ** 0.5)
    lock = 0.5 + 0.5 * np.clip(wave, -1, 1)
    return (1 - OWN) * lock + OWN * own


# Metres a card rooted at the hairline lies over one rooted furthest back (:func:`stacked`), all along it (risen to
# from its root, each card crossed those it passed over, review H's test_hair_caps_review_h), none where the sides come
# down to the scalp (styles.SLEEK_EDGE: tests/body/test_sleek_flaps_review_p.py). Without it a card rooted at the back
# of the cap lay over the cards combed back over it as often as under them: its root end a blunt stroke on top of them,
# and cards of near one height crossing cut through each other (blind review R's "dashes").
STACK = 0.002


def stacked(at: np.ndarray, start: float, end: float) -> np.ndarray:
    """Each card's extra height (metres) by where its root is ``at`` (a share of its rootline, from ``start`` to
    ``end``): combed back, the hair from the hairline lies over the hair rooted behind it.

    >>> (stacked(np.array([0.5, 0.75, 1.0]), 0.5, 1.0) * 1000).round(2).tolist()
    [0.0, 1.0, 2.0]
    """
    return STACK * np.clip((at - start) / (end - start), 0.0, 1.0)


# Cards deep the sleek hair lies at most where it converges on the bun or the tie (:func:`converging`): the cards,
# each as wide there as at its root, lay 8 to 10 deep round a bun's base (19 at a tie), 1.5 to 2.5 elsewhere; at those
# depths the locks' heights could not part them (5 mm over 10 cards) and their flat middles (2 vertices a row: 0.4 mm
# under their edges), so crossing cards cut through each other: the zigzags on the crown and dark patches at the nape
# that sleek28 left of blind review R's "dashes" (tests/render/test_sleek_crown_review_r.py).
DEEP = 3.0
# ...the rings (degrees about the way the hair is combed) over which their depth is counted.
RING = 2.0


def converging(pts: np.ndarray, centre: np.ndarray, toward: np.ndarray, width: np.ndarray,
               taper: float) -> np.ndarray:
    """Widths (S, K) of sleek cards along strands ``pts`` (S, K, 3) combed towards ``toward`` (a unit direction from the
    skull's ``centre``), ``width`` (S,) at their roots and narrowing by ``taper`` at their tips: each narrowed where the
    cards converge, so that they lie at most :data:`DEEP` deep there (their widths round each ring about ``toward`` over
    its circumference).

    >>> t = np.radians(np.linspace(90, 10, 9))                       # 60 strands down the meridians to a pole
    >>> a = np.radians(np.arange(60) * 6.0)[:, None]
    >>> pts = 0.1 * np.stack([np.sin(t) * np.cos(a), np.sin(t) * np.sin(a), np.cos(t) + 0 * a], 2)
    >>> w = converging(pts, np.zeros(3), np.array([0.0, 0.0, 1.0]), np.full(60, 0.02), 0.0)
    >>> (w[0] * 1000).round(1).tolist()        # 1.9 deep at the equator, 3.8 at 30 degrees from the pole, 10 at 11
    [20.0, 20.0, 20.0, 20.0, 20.0, 20.0, 15.7, 10.7, 6.0]
    """
    rel = pts - centre
    r = np.linalg.norm(rel, axis=2)
    cos = np.clip(np.einsum("skc,c->sk", rel, toward) / np.maximum(r, 1e-12), -1, 1)
    theta = np.degrees(np.arccos(cos))
    along = 1 - taper * np.linspace(0, 1, theta.shape[1])[None] ** 1.5
    w = width[:, None] * along
    rho = r * np.sqrt(1 - cos ** 2)                                 # (metres from the axis)
    rings = np.arange(RING / 2, 180.0, RING)
    # (each card's segments crossing each ring: the strands run down the rings, or across them)
    a, b = theta[:, :-1, None], theta[:, 1:, None]
    f = np.clip((rings - a) / np.where(b == a, 1e-9, b - a), 0, 1)
    cross = ((a - rings) * (b - rings) < 0) | (a == rings)
    across = ((w[:, :-1, None] * (1 - f) + w[:, 1:, None] * f) * cross).sum((0, 1))
    around = ((rho[:, :-1, None] * (1 - f) + rho[:, 1:, None] * f) * cross).sum((0, 1))
    n = cross.sum((0, 1))
    on = n > 0
    deep = across[on] / np.maximum(2 * np.pi * around[on] / n[on], 1e-9)
    return width[:, None] * np.clip(DEEP / np.maximum(np.interp(theta, rings[on], deep), 1e-9), 0.0, 1.0)


def narrowed(uv: np.ndarray, width: np.ndarray) -> np.ndarray:
    """Card UVs ``uv`` (S*K*2, 2; two a row, :func:`.cards.ribbons`) of cards ``width`` (S, K) wide along their strands,
    each row taking the middle of its card's atlas column in the share of the card's widest it is: a card narrowed
    where the hair converges (:func:`converging`) keeps its strands' width, where all its column squeezed into it drew
    them a third as fine, finer than a pixel at 512 px, a grain across the hair round the bun.

    >>> uv = np.array([[0.0, 0.0], [0.06, 0.0], [0.0, 1.0], [0.06, 1.0]])
    >>> narrowed(uv, np.array([[0.02, 0.01]]))[:, 0].round(3).tolist()
    [0.0, 0.06, 0.015, 0.045]
    """
    S, K = width.shape
    u = uv[:, 0].reshape(S, K, 2)
    mid = u.mean(2, keepdims=True)
    share = (width / np.maximum(width.max(1, keepdims=True), 1e-12))[..., None]
    out = uv.copy()
    out[:, 0] = (mid + (u - mid) * share).reshape(-1)
    return out
