"""Hair pulled back sleek (the bun's and the ponytail's cards over the head): combed structure in its shade.

Every sleek card lay in one light but for its depth (:mod:`.occlusion`, a few millimetres of layers) and its atlas
column's tone (:data:`.texture.TONE`, a few hundredths): over the crown, seen from the front, the hair was one
smooth shell of a single shade, blind review J's "painted helmet". Combed hair gathers in locks a few centimetres
wide, each a little lighter or darker than its neighbours, running the way it is combed: each card here takes the
light of the lock its root lies in (slow waves round the head, :data:`LOCK_WAVES`, so neighbouring cards share
it), times a card's own (:data:`CARD`), the same all along the card, so the locks run along the comb direction.

>>> import numpy as np
>>> from types import SimpleNamespace
>>> roots = np.array([[0.0, 0.5, 1.0], [1.0, 0.5, 0.0], [-1.0, 0.5, 0.0]])
>>> t = tones(roots, SimpleNamespace(centre=np.zeros(3)))
>>> t.shape, bool(t.min() >= 1 - LOCK - CARD and t.max() <= 1 + LOCK + CARD)
((3,), True)
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from ..lod import Piece

# A lock's light about the hair's (a share either way), and a card's own within its lock: a spread of 0.05 (the
# atlas's tones) drew one shade; at 0.2 a lock at its lightest beside one at its darkest read as stripes.
LOCK = 0.11
CARD = 0.035
# The waves round the head (cycles a turn) whose sum is the locks' light: a lock 3 to 6 cm wide at the hairline.
LOCK_WAVES = (5, 8, 13)
SEED = 46


def tones(roots: np.ndarray, head) -> np.ndarray:
    """Each card's light (S,) from its root's point ``roots`` (S, 3): its lock's (by the root's azimuth and polar
    angle about the skull's centre) times its own."""
    rel = roots - head.centre
    az = np.arctan2(rel[:, 0], rel[:, 2])
    pol = np.arccos(np.clip(rel[:, 1] / np.maximum(np.linalg.norm(rel, axis=1), 1e-12), -1, 1))
    rng = np.random.default_rng(SEED)
    phase = rng.uniform(0, 2 * np.pi, (len(LOCK_WAVES), 2))
    # (a lock's light leaning with the polar angle too: roots nearer the crown are other locks than those below)
    wave = sum(np.sin(k * az + 3.0 * pol + p[0]) + 0.5 * np.sin(k * az - 2.0 * pol + p[1])
               for k, p in zip(LOCK_WAVES, phase, strict=True)) / (1.5 * len(LOCK_WAVES) ** 0.5)
    own = np.random.default_rng(SEED + 1).uniform(-1, 1, len(roots))
    return 1 + LOCK * np.clip(wave, -1, 1) + CARD * own


def combed(piece: Piece, roots: np.ndarray, head) -> Piece:
    """The sleek cards' ``piece`` (its vertices two a row of each strand, strands in the order of ``roots`` (S, 3),
    their root points) with its vertex colours times each card's :func:`tones`."""
    t = tones(roots, head)
    per = len(piece.positions) // len(roots)
    assert per * len(roots) == len(piece.positions)
    colors = piece.colors if piece.colors is not None else np.ones((len(piece.positions), 3), np.float32)
    return replace(piece, colors=(colors * np.repeat(t, per)[:, None]).astype(np.float32))
