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
