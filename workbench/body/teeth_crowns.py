"""The shape of each tooth's crown on the teeth's texture (:func:`workbench.body.mouth.mouth_texture`): its corners
rounded into a V at the biting edge (:func:`corner`, the embrasures) and, on the upper row, its neck narrowed at the
gum into a dark triangle between two crowns (:func:`neck`).

A smile shows the upper row from the gum to about half way down (the lower lip covers the rest, and the biting
edge's embrasures with it: tests/body/test_smile_review_l.py measures the window): with the crowns as wide at the gum
as at their middle, only a hairline of the gap's grey parted them there and the row read as "one white bar with a
pink fringe" (blind review L). A crown narrows towards its neck, and the gap between two of them opens into a
triangle in the gum's shade under the lip (the gingival embrasure).

>>> [round(float(x), 2) for x in corner(np.array([0.0, 0.1, EMBRASURE[0]]))]
[1.0, 0.3, 0.0]
>>> [round(float(x), 2) for x in neck(np.array([0.82, 0.75, 0.6, 0.4]), 0.82)]
[1.0, 0.8, 0.42, 0.03]
"""

from __future__ import annotations

import numpy as np

__all__ = ["EMBRASURE", "GAP_FAINT", "NECK", "NECK_SHADE", "NECK_TO", "TOOTH_SHADE", "TOOTH_WARM", "corner", "faint", "neck",
           "tints"]

# The embrasures: that V, over this share of a row's height from its biting edge, as wide as this at the edge (mm) on
# each tooth's side; each crown's corners rounded into it (over 0.12 of the height and 0.8 mm, at 128 texels, the
# row's edge read as one straight white band with faint lines, blind review K).
EMBRASURE = (0.35, 1.5)
# The upper crowns' necks: narrowed over this share of the row's height below the gum line (e, from the biting edge,
# 0, to the gum, 1), by as much as this (mm) on each tooth's side at the gum line, tapering to a wedge; the triangle
# between two necks the gum's colour in the lip's shadow (NECK_SHADE, sRGB albedo: darker than the enamel's gap,
# not black, not the open mouth's red).
NECK = (0.45, 0.2)
# Only the incisors' necks (on the row's painted share, :func:`.mouth.painted_at`, from the middle line: whole to the first
# share, none from the second; on the texture's u about 0.146 to 0.174):
# beyond, the lower lip covers all but the top of the canines' crowns, and a wedge at the lateral incisor's and the
# canine's gap left a 2 mm column of the row with no white (tests/body/test_smile_teeth_row.py).
NECK_TO = (0.2, 0.24)
NECK_SHADE = (0.42, 0.33, 0.31)
# The upper row's gaps fainter from the first share of its height (e, 0 at the biting edge, 1 at the gum) to the
# second, by the third: a smile shows the row from its gum half way down, and at a sheet's size its gaps (with the
# necks', :data:`NECK`) read as near-black bars, "a picket-fence of teeth" (blind review P,
# tests/render/test_smile_gaps_review_p.py). An open mouth shows the part below, where the gaps keep their depth
# (tests/render/test_teeth_gaps_review_o.py). (Fainter still, by half, the smile's row read as one white bar at a
# 6 cm close-up, blind review L's measure, tests/render/test_smile_teeth_review_l.py.)
GAP_FAINT = (0.4, 0.6, 0.4)
# Each tooth's own off-white: its brightness up to this share apart from another's, and its warmth (green and blue
# moved by up to these shares, half cooler and half warmer than the enamel). At 0.08 of brightness alone, the rows read as "uniform white blocks" (blind review M);
# darker, the canines at the smile's ends fell under tests/body/test_smile_teeth_row.py's white.
TOOTH_SHADE = 0.1
TOOTH_WARM = (0.015, 0.05)


def corner(e: np.ndarray) -> np.ndarray:
    """A tooth's rounded corner at the biting edge: at ``e`` (0 at the edge, 1 at the gum) the share of
    :data:`EMBRASURE`'s width its side lies in from the gap's line, a quarter ellipse (1 at the edge, 0 at its height)."""
    t = np.clip(e / EMBRASURE[0], 0, 1)
    return 1 - np.sqrt(1 - (1 - t) ** 2)


def faint(e: np.ndarray) -> np.ndarray:
    """How much of an upper gap's depth is kept at ``e`` (0 at the biting edge, 1 at the gum): see :data:`GAP_FAINT`.

    >>> faint(np.array([0.0, 0.4, 0.5, 0.6, 1.0])).round(2).tolist()
    [1.0, 1.0, 0.8, 0.6, 0.6]
    """
    t = np.clip((e - GAP_FAINT[0]) / (GAP_FAINT[1] - GAP_FAINT[0]), 0, 1)
    return 1 - GAP_FAINT[2] * t * t * (3 - 2 * t)


def neck(e: np.ndarray, gum: float) -> np.ndarray:
    """An upper crown's neck: at ``e`` (0 at the biting edge, 1 at the gum) the share of :data:`NECK`'s width its side
    lies in from the gap's line, 1 at the gum line ``gum`` (and above it), 0 from NECK's height
    below it."""
    t = np.clip((gum - e) / NECK[0], 0, 1)
    return (1 - t) ** 1.3


def tints(seed: int, n: int) -> np.ndarray:
    """``n`` teeth's own shades of off-white (n, 3), RGB factors on the enamel's colour, from ``seed`` (see
    :data:`TOOTH_SHADE`). Each within :data:`TOOTH_SHADE` / 2 of the enamel's brightness, its blue within
    ``TOOTH_WARM[1]`` / 2 of its red (some warmer, some cooler than the enamel); the same ``seed`` gives the same shades.

    >>> t = tints(1, 3)
    >>> t.shape, t.dtype, bool(np.all(np.abs(t[:, 0] - 1) <= TOOTH_SHADE / 2)), bool(np.all(np.abs(t[:, 2] / t[:, 0] - 1) <= TOOTH_WARM[1] / 2))
    ((3, 3), dtype('float32'), True, True)
    >>> bool(np.array_equal(tints(1, 3), t)), bool(np.array_equal(tints(2, 3), t))
    (True, False)
    """
    rng = np.random.default_rng(seed)
    # (warmth about the enamel's own: the front teeth's median stays as white as the enamel, tests/gltf's b* 6)
    bright, warm = 1 + TOOTH_SHADE * (rng.random(n) - 0.5), rng.random(n) - 0.5
    return (bright[:, None] * np.column_stack([np.ones(n), 1 - TOOTH_WARM[0] * warm, 1 - TOOTH_WARM[1] * warm])
            ).astype(np.float32)
