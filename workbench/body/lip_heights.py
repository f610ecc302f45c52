"""How tall a face's lips are, from its geometry: the skin texture paints the vermilion to these heights
(:mod:`.skin`), so the paint ends where the lips' roll turns back, not at fixed heights (blind review H: "overfilled"
lips; the painted upper lip reached 2 mm above the shape's on the feminine face, which read as fuller lips than the
shape has).

>>> import numpy as np
>>> ys = np.arange(-0.02, 0.02, 0.00025)
>>> z = np.where(ys > 0, -((ys - 0.004) / 0.004) ** 2, -((ys + 0.005) / 0.005) ** 2) * 0.003
>>> [round(v * 1000, 2) for v in borders(ys, z)]
[7.0, -8.75]
"""

from __future__ import annotations

import numpy as np

__all__ = ["TURN", "borders", "front", "lip_borders"]

# A lip's border: where its front has turned this far back (metres) from its most forward point, above the upper lip's
# front and below the lower's (the vermilion's roll meets the skin there; at 1 mm the faceted lips' front itself).
TURN = 0.0015


def front(positions: np.ndarray, triangles: np.ndarray, x0: float, ys: np.ndarray) -> np.ndarray:
    """The most forward z at each height in ``ys`` where the plane x = ``x0`` cuts ``triangles`` (NaN where none):
    each cut triangle gives a segment, so the profile is continuous between vertices centimetres apart."""
    # (Only the triangles with a corner either side of the plane can be cut: the rest, nine in ten of the skin's, are
    # left out before their corners are gathered.)
    x = positions[:, 0].astype(np.float64)[triangles] - x0
    p = positions.astype(np.float64)[triangles[(x.min(1) < 0) & (x.max(1) > 0)]]
    d = p[..., 0] - x0
    ends = []
    for a, b in ((0, 1), (1, 2), (2, 0)):
        s = d[:, a] * d[:, b] < 0
        f = np.where(s, d[:, a] / np.where(s, d[:, a] - d[:, b], 1.0), 0.0)[:, None]
        ends.append(np.where(s[:, None], p[:, a] + f * (p[:, b] - p[:, a]), np.nan)[:, 1:])
    cut = np.stack(ends, 1)
    cut = cut[(~np.isnan(cut[..., 0])).sum(1) == 2]
    seg = np.take_along_axis(cut, np.argsort(np.isnan(cut[..., 0]), axis=1, kind="stable")[..., None], 1)[:, :2]
    y0, y1, z0, z1 = seg[:, 0, 0], seg[:, 1, 0], seg[:, 0, 1], seg[:, 1, 1]
    # Every height against every segment at once (a few hundred heights, tens of segments; a loop over the heights
    # was 12 ms of a new avatar's face shapes).
    y = np.asarray(ys, np.float64)[:, None]
    s = (np.minimum(y0, y1) <= y) & (np.maximum(y0, y1) > y)
    with np.errstate(divide="ignore", invalid="ignore"):
        z = np.where(s, z0 + (y - y0) / (y1 - y0) * (z1 - z0), -np.inf)
    return np.where(s.any(1), z.max(1, initial=-np.inf), np.nan)


def borders(ys: np.ndarray, z: np.ndarray) -> tuple[float, float]:
    """(the upper lip's border's height, the lower lip's) on a profile ``z`` over heights ``ys`` (from the mouth's
    corners, metres): the first height above the upper lip's front (the most forward point 0 to 12 mm up) where the
    profile has turned :data:`TURN` back, and below the lower lip's (0 to 16 mm down). Where the profile does not turn
    back after that point (a nose low over a short upper lip: its base, within 12 mm of the corners, stands further
    forward than the lip, and a random avatar of review W's draw failed to build on it), the first height from the
    corners out where it has turned back from its most forward point so far; failing that too, the window's end.

    >>> ys = np.arange(-0.02, 0.02, 0.00025)
    >>> z = np.where(ys > 0, -((ys - 0.004) / 0.004) ** 2, -((ys + 0.005) / 0.005) ** 2) * 0.003
    >>> [round(v * 1000, 2) for v in borders(ys, z)]
    [7.0, -8.75]
    >>> z[ys > 0.0115] = 0.003              # a nose's base 11.5 mm over the corners, 3 mm before the lip's front
    >>> [round(v * 1000, 2) for v in borders(ys, z)]
    [7.0, -8.75]
    """
    def turned(part: np.ndarray, window: int) -> int:
        """The index in ``part`` (ordered from the corners outwards) of its lip's border."""
        front = int(np.nanargmax(part[:window]))
        back = np.flatnonzero(part[front:] <= part[front] - TURN)
        if back.size:
            return front + int(back[0])
        back = np.flatnonzero(part <= np.fmax.accumulate(part) - TURN)
        return int(back[0]) if back.size else window - 1

    up, down = np.flatnonzero(ys > 0), np.flatnonzero(ys < 0)[::-1]
    return (float(ys[up[turned(z[up], int((ys[up] < 0.012).sum()))]]),
            float(ys[down[turned(z[down], int((ys[down] > -0.016).sum()))]]))


def lip_borders(positions: np.ndarray, skin_triangles: np.ndarray, corners: tuple[np.ndarray, np.ndarray]
                ) -> tuple[float, float]:
    """(metres the upper lip's border lies above the mouth's corners, metres the lower lip's lies below) on the face's
    middle (0.7 mm beside it: its own vertices lie on the plane)."""
    mid = (np.asarray(corners[0], np.float64) + corners[1]) / 2
    ys = np.arange(-0.02, 0.02, 0.00025)
    top, bottom = borders(ys, front(positions, skin_triangles, float(mid[0]) + 0.0007, ys + mid[1]))
    return top, -bottom
