"""Eyelashes as thin dark cards: MakeHuman's lash bands given UVs of their own and a texture of lashes.

The ``Eyelashes`` mesh is the base mesh's helper geometry (four bands, upper and lower lid of each
eye), which the face's shapes move (a blink closes them with the lids). Drawn in one colour they
were ribbons; here each band's vertices get ``u`` along the lid (inner corner to outer) and ``v``
from the lid's edge (the band's side nearest the eye's centre) to its outer edge, and the texture
draws single lashes on that: a dark lash line at the root, then lashes curving out towards the outer
corner, clumped in twos and threes, shorter at the corners, each tapering to a point; alpha cuts the
rest away (``MASK``). The lower lids' lashes (the left half of the texture) are shorter and fewer.
Their colour is their own, near-black brown, whatever the hair's.

>>> t = lash_texture()
>>> t.shape, int(t[..., 3].max()), int(t[-1, :, 3].max())
((128, 256, 4), 255, 0)
"""

from __future__ import annotations

import math
from dataclasses import replace
from functools import lru_cache

import numpy as np

from ..lod import Piece
from ..mesh import BodyMesh

LASH_COLOR = (0.09, 0.065, 0.05)
# (group, eye, upper lid): the lash bands of base.obj.
BANDS = (("helper-l-eyelashes-1", "helper-l-eye", False), ("helper-l-eyelashes-2", "helper-l-eye", True),
         ("helper-r-eyelashes-1", "helper-r-eye", False), ("helper-r-eyelashes-2", "helper-r-eye", True))
BINS = 10


def with_lash_uvs(mesh: BodyMesh, p: Piece) -> Piece:
    """The ``Eyelashes`` piece with UVs on :func:`lash_texture` (see the module's text)."""
    uv = np.zeros((len(p.positions), 2), np.float32)
    for group, eye, upper in BANDS:
        on = np.isin(p.source, mesh.groups[group])
        if not on.any():
            continue
        centre = mesh.positions[mesh.groups[eye]].mean(0)
        rel = p.positions[on, :2] - centre[:2]
        side = np.sign(centre[0] - mesh.positions[mesh.groups["body"], 0].mean()) or 1.0
        # Round the eye in the face's plane: from the inner corner (towards the nose) to the outer one.
        # Python's atan2 (the C library's, correctly rounded) rather than numpy's: numpy's float32 arctan2 is
        # vectorised differently with and without AVX-512 and gave other bits on other machines (issue 45, item 6).
        angle = np.array([math.atan2(y, x) for y, x in zip(rel[:, 1].tolist(), (rel[:, 0] * side).tolist())])
        angle = angle if upper else -angle
        u = (np.pi - angle) / np.pi if upper else (np.pi - angle) / np.pi
        u = (u - u.min()) / max(float(np.ptp(u)), 1e-9)
        r = np.hypot(rel[:, 0], rel[:, 1])
        b = np.minimum((u * BINS).astype(int), BINS - 1)
        lo = np.array([r[b == k].min() if (b == k).any() else np.nan for k in range(BINS)])
        hi = np.array([r[b == k].max() if (b == k).any() else np.nan for k in range(BINS)])
        ok = ~np.isnan(lo)
        x = (np.arange(BINS) + 0.5) / BINS
        r_in = np.interp(u, x[ok], lo[ok])
        r_out = np.interp(u, x[ok], hi[ok])
        v = np.clip((r - r_in) / np.maximum(r_out - r_in, 1e-6), 0, 1)
        half = 0.5 if upper else 0.0
        uv[on, 0] = half + 0.01 + u * 0.48
        uv[on, 1] = 0.02 + v * 0.96
    return replace(p, uv=uv)


@lru_cache(maxsize=1)
def lash_texture() -> np.ndarray:
    """RGBA (128, 256, 4) uint8: lower lids' lashes on the left half, upper lids' on the right
    (``u`` along the lid, ``v`` from the root down the texture to the tips)."""
    h, w = 128, 256
    rng = np.random.default_rng(71)
    alpha = np.zeros((h, w), np.float32)
    shade = np.ones((h, w), np.float32)
    v = (np.arange(h) + 0.5) / h
    for half, count, reach in ((0, 34, 0.55), (1, 64, 0.95)):
        x0 = half * w // 2
        hw = w // 2
        # The lash line: dark and solid along the lid's edge.
        alpha[: int(0.12 * h), x0 + 2: x0 + hw - 2] = 1.0
        for k in range(count):
            u = (k + 0.5 + 0.6 * (rng.random() - 0.5)) / count
            corner = np.sin(np.pi * np.clip(u, 0, 1)) ** 0.6
            length = reach * (0.55 + 0.45 * corner) * rng.uniform(0.8, 1.05)
            lean = (u - 0.3) * 8 + rng.normal(0, 0.7)           # towards the outer corner
            x = x0 + 2 + u * (hw - 4) + lean * v ** 1.6 * 6
            width = rng.uniform(1.4, 2.0) * np.clip(1 - v / length, 0, 1) ** 0.7
            for dx in range(-2, 3):
                col = np.clip(np.round(x).astype(int) + dx, x0, x0 + hw - 1)
                cover = np.clip(width / 2 + 0.5 - np.abs(col + 0.5 - x), 0, 1) * (v < length)
                rows = np.arange(h)
                alpha[rows, col] = np.maximum(alpha[rows, col], cover)
                shade[rows, col] = np.minimum(shade[rows, col], 0.8 + 0.4 * rng.random())
    out = np.zeros((h, w, 4), np.uint8)
    out[..., :3] = np.clip(np.asarray(LASH_COLOR)[None, None, :] * shade[..., None] * 255 + 0.5, 0, 255)
    out[..., 3] = np.clip(alpha * 255 + 0.5, 0, 255)
    out[-1, :, 3] = 0
    out.setflags(write=False)
    return out
