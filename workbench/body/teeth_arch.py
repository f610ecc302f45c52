"""The upper teeth's arch: its front bent (:func:`arched`), each vertex's place along it (:func:`along`) and from its
biting edge to its gum (:func:`from_edge`), for :func:`workbench.body.mouth.fitted_teeth`.

MakeHuman's upper row is coarse: its front is one flat face from the middle line to the lateral incisors (a
vertex at the middle, the next 9 mm out), its biting edge level, so a smile showed "one flat slab of upper teeth"
(blind review I). Bent, each of its vertices goes back by the square of its distance out from the middle (the
whole of it from :data:`ARCH_HALF` out), and its biting edge rises from the lateral incisors out (:data:`ARC_FROM`;
raised from the middle, the incisors' edges left too little enamel under the lip of an open mouth, tests/render/
test_mouth_renders.py): the canines farther back and higher than the middle incisors, the edge curving up to the
corners with the lower lip (a smile's arc), the gum line where it was (the side teeth shorter, as they are).
Only the front bends (fading out :data:`ARCH_DEEP` behind it): the back teeth keep their place in the lining.

>>> import numpy as np
>>> row = np.array([[0.0, 0.0, 0.0], [0.009, 0.0, 0.0], [0.017, 0.0, -0.007], [0.009, 0.01, 0.0]])
>>> bent = arched(row, mid=0.0, front=0.0)
>>> np.round(bent * 1000, 2).tolist()
[[0.0, 0.0, 0.0], [9.0, 0.0, -0.84], [17.0, 0.6, -8.25], [9.0, 10.0, -0.84]]
"""

from __future__ import annotations

import numpy as np

__all__ = ["ARCH_BACK", "ARCH_UV", "ARC_UP", "along", "arched", "from_edge", "from_middle"]

# Metres: how far out from the middle the bend is whole, how far back and up it takes the biting edge there, where
# out from the middle the edge starts rising, and how deep behind the front the bend fades out. (ARC_UP 2 mm until
# review X: with the lateral incisors' and canines' own shortening, UPPER_ARC, their edges rose behind the open
# mouth's upper lip and only the middle incisors showed, tests/render/test_teeth_arch_review_x.py.)
ARCH_HALF = 0.017
ARCH_BACK = 0.003
ARC_UP = 0.0006
ARC_FROM = 0.009
ARCH_DEEP = 0.012
# Where a row's place along the arch (:func:`along`, 0 to 1) lies on the teeth's texture (u): from the first share,
# over the second. The texture's teeth are drawn on the same map: drawn on u itself, every gap lay up to 0.8 mm off the
# geometry's and the middle line's, at u 0.02, was never sampled: the front incisors read as "one white block" with
# "only faint divisions" (blind review O, tests/render/test_teeth_gaps_review_o.py); now the middle's gap is drawn on
# this map (:func:`from_middle`), the others where they were (the smile's canines are measured there).
ARCH_UV = (0.02, 0.96)


def arched(row: np.ndarray, mid: float, front: float) -> np.ndarray:
    """The upper row's positions ``row`` (metres, facing +z; its middle line at x ``mid``, its front at z ``front``)
    bent into an arch (see the module), a new array."""
    out = np.array(row, np.float64)
    s = np.clip(np.abs(out[:, 0] - mid) / ARCH_HALF, 0.0, 1.0)
    edge, top = float(out[:, 1].min()), float(out[:, 1].max())
    to_gum = np.clip((out[:, 1] - edge) / max(top - edge, 1e-9), 0.0, 1.0)
    rise = np.clip((np.abs(out[:, 0] - mid) - ARC_FROM) / (ARCH_HALF - ARC_FROM), 0.0, 1.0) ** 2
    out[:, 1] += ARC_UP * rise * (1.0 - to_gum)
    out[:, 2] -= ARCH_BACK * s ** 2 * np.clip(1.0 - (front - out[:, 2]) / ARCH_DEEP, 0.0, 1.0)
    return out


def from_middle(u: np.ndarray, length: float) -> np.ndarray:
    """How far (mm) from the row's middle line the arch's place lies at the texture's ``u`` (:data:`ARCH_UV`), for a
    row ``length`` mm long along its half arch: 0 up to the middle line's u.

    >>> from_middle(np.array([0.0, 0.02, 0.116]), 48.0).round(2).tolist()
    [0.0, 0.0, 4.8]
    """
    return np.maximum(u - ARCH_UV[0], 0.0) / ARCH_UV[1] * length


def along(pos: np.ndarray, mid: float, front: float) -> np.ndarray:
    """Each of a tooth row's vertices' place along its arch: 0 between the front teeth, 1 at the back (the outer
    contour's arc length, seen from above, from the middle)."""
    zc = front - 0.035
    phi = np.arctan2(np.abs(pos[:, 0] - mid), pos[:, 2] - zc)
    r = np.hypot(pos[:, 0] - mid, pos[:, 2] - zc)
    bins = np.linspace(0.0, float(phi.max()) + 1e-9, 13)
    at = np.clip(np.digitize(phi, bins) - 1, 0, len(bins) - 2)
    reach = np.array([r[at == k].max() if (at == k).any() else np.nan for k in range(len(bins) - 1)])
    ok = ~np.isnan(reach)
    centres = (bins[:-1] + bins[1:]) / 2
    angles = np.concatenate([[0.0], centres[ok]])
    radii = np.concatenate([[reach[ok][0]], reach[ok]])
    xy = np.column_stack([radii * np.sin(angles), radii * np.cos(angles)])
    length = np.concatenate([[0.0], np.cumsum(np.linalg.norm(np.diff(xy, axis=0), axis=1))])
    return np.clip(np.interp(phi, angles, length) / max(float(length[-1]), 1e-9), 0.0, 1.0)


def from_edge(u: np.ndarray, y: np.ndarray, upper: bool) -> np.ndarray:
    """0 at a tooth row's biting edge to 1 at its gum, by the row's lowest and highest points at each place along
    the arch (the row is not level: its back rises)."""
    b = np.minimum((u * 8).astype(int), 7)
    lo = np.array([y[b == k].min() if (b == k).any() else np.nan for k in range(8)])
    hi = np.array([y[b == k].max() if (b == k).any() else np.nan for k in range(8)])
    ok = ~np.isnan(lo)
    x = (np.arange(8) + 0.5) / 8
    lo, hi = np.interp(u, x[ok], lo[ok]), np.interp(u, x[ok], hi[ok])
    h = (y - lo) / np.maximum(hi - lo, 1e-9)
    return np.clip(h if upper else 1 - h, 0.0, 1.0)
