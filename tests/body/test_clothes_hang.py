"""Garments that hang (review C: "sweater hems are hard-edged tubes, and the skirt is a rigid cone").

Measured on the garment as it is fitted to a body, round the torso's vertical axis: the radius of a hem's
rim at 128 bearings, less its shape over the body (its first four harmonics: a round or oval section, a
belly, the seat); what is left is the cloth's own folds, their crests counted where they stand 3 mm or more
proud. A knit top's hem is a ribbed band (its rib map, what every renderer draws, over the band).
"""

from __future__ import annotations

from functools import cache

import numpy as np
import pytest

from workbench.body.mesh import body_mesh
from workbench.body.outfit import garments
from workbench.body.outfit.cloth import _band_maps
from workbench.body.outfit.pattern import pattern
from workbench.options import normalize_avatar_settings

BODIES = [("feminine", "slim"), ("feminine", "heavy"), ("masculine", "average")]
BEARINGS = 128


@cache
def folds(gender: str, shape: str, style: str, under: str | None, cut: int) -> tuple[np.ndarray, np.ndarray]:
    """(the hem's radius at each bearing, its folds: that less its first four harmonics), metres."""
    mesh = body_mesh(normalize_avatar_settings({"gender": gender, "bodyShape": shape}))
    pat = pattern(style)
    q = garments.dressed(mesh, style, under).points[:len(pat["from_cut"])]
    return ring_waves(q[pat["from_cut"][:, cut] < 1e-6], mesh.skeleton.pos("Hips"))


def ring_waves(points: np.ndarray, hips: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """A ring of ``points``' radius round the vertical axis 2 cm in front of ``hips`` (the skirt's drape's) at
    :data:`BEARINGS` bearings, and that less its first four harmonics (the body's round, oval, belly and seat)."""
    phi = np.arctan2(points[:, 0] - hips[0], points[:, 2] - hips[2] - 0.02)
    r = np.hypot(points[:, 0] - hips[0], points[:, 2] - hips[2] - 0.02)
    order = np.argsort(phi)
    radius = np.interp(np.linspace(-np.pi, np.pi, BEARINGS, endpoint=False), phi[order], r[order], period=2 * np.pi)
    f = np.fft.rfft(radius)
    f[:5] = 0
    return radius, np.fft.irfft(f, BEARINGS)


def crests(wave: np.ndarray, proud: float = 0.003) -> int:
    """The folds' crests: local maxima of ``wave`` (round the hem) at least ``proud`` out."""
    return int(((wave > np.roll(wave, 1)) & (wave >= np.roll(wave, -1)) & (wave > proud)).sum())


@pytest.mark.parametrize("gender,shape", BODIES)
def test_a_skirt_hangs_in_a_few_deep_folds(gender, shape):
    """A skirt falls from the waist in 5 to 9 folds, their crests and troughs 6 cm or more apart in radius
    round the hem (before: 10 shallow ripples, under 4 cm, on a cone)."""
    _, wave = folds(gender, shape, "skirt", None, 1)
    seen = (crests(wave), round(float(np.ptp(wave)), 3))
    assert 5 <= seen[0] <= 9 and seen[1] >= 0.06, seen


@pytest.mark.parametrize("style", ["longsleeve", "hoodie"])
def test_a_knit_tops_hem_is_a_ribbed_band(style):
    """A sweater's and a hoodie's hem end in a ribbed band: the rib map covers the texels of the cloth
    within 2 cm of the hem (before, the sweater's hem was a plain turned edge)."""
    pat = pattern(style)
    rib, _ = _band_maps(style)
    near = pat["from_cut"][:, 0] < 0.02
    uv = pat["uv"][np.flatnonzero(np.isin(pat["vmap"], np.flatnonzero(near)))]
    n = len(rib)
    at = rib[np.clip((uv[:, 1] * n).astype(int), 0, n - 1), np.clip((uv[:, 0] * n).astype(int), 0, n - 1)]
    assert np.median(at) > 0.5, np.round(np.percentile(at, [10, 50, 90]), 2).tolist()
