"""Eyelashes as thin dark cards: MakeHuman's lash bands given UVs of their own and a texture of lashes.

The ``Eyelashes`` mesh is the base mesh's helper geometry (four bands, upper and lower lid of each
eye), which the face's shapes move (a blink closes them with the lids). Drawn in one colour they
were ribbons; here each band's vertices get ``u`` along the lid (inner corner to outer) and ``v``
from the lid's edge (the band's side nearest the eye's centre) to its outer edge, and the texture
draws single lashes on that (:mod:`workbench.body.strokes`): a dark lash line at the root, then lashes
curling out towards the outer corner, shorter at the corners, each tapering to a fine tip that fades out
(its alpha the share of a texel it covers). The material blends them (``BLEND``): cut out at an alpha
threshold (``MASK``) they were hard black spikes, jagged in model-viewer. The lower lids' lashes (the left
half of the texture) are shorter and fewer, with the lid's wet rim (:data:`WET`) between them and the eye.
Their colour is their own, near-black brown, whatever the hair's.

>>> t = lash_texture()
>>> t.shape, int(t[..., 3].max()), int(t[-1, :, 3].max())
((128, 256, 4), 255, 0)
>>> tip = t[75:100, 128:, 3]                      # the upper lashes' tips: soft, not cut
>>> bool(((tip > 0) & (tip < 128)).sum() > (tip >= 128).sum())
True
"""

from __future__ import annotations

import math
from dataclasses import replace
from functools import lru_cache

import numpy as np

from .. import keep
from ..lod import Piece
from ..mesh import BodyMesh
from ..strokes import draw

LASH_COLOR = (0.06, 0.045, 0.035)
# Where the lashes' roots sit down the band (v), and the lower lid's wet rim: its middle, half width (in v) and
# alpha, and its colour (sRGB: a moist pink-beige, lighter than any skin's shade round it at its size).
LINE = 0.06
RIM = (0.025, 0.035, 0.7)
WET = (0.86, 0.68, 0.64)
# (group, eye, upper lid): the lash bands of base.obj.
BANDS = (("helper-l-eyelashes-1", "helper-l-eye", False), ("helper-l-eyelashes-2", "helper-l-eye", True),
         ("helper-r-eyelashes-1", "helper-r-eye", False), ("helper-r-eyelashes-2", "helper-r-eye", True))
BINS = 10
# The upper lash line: solid from the roots (LINE) over UPPER_LINE[0] of the band at the inner corner, UPPER_LINE[1]
# more at the outer (a smoothstep along the lid: a lid's line is widest at the outer corner), fading out over
# UPPER_LINE[2]. The band's roots lie under the lid's skin: from the front it shows from about v 0.3 (the least v seen
# per column, median 0.30 to 0.35 on review AC's faces), so the line drawn to v 0.2 before never showed, and what read
# as the lid's edge at a 288 px portrait was the lashes' thin strokes, a broken grey hairline (blind review AC, "the
# lashes can barely be seen": tests/render/test_lash_line_review_ac.py). To 0.42 thickening by 0.06 over 0.06, not to
# 0.4 thickening by 0.2 over 0.1: that drew a black wing three to four pixels deep over the outer third of the eye at
# 288 px, "a thick black smear like liner" (blind review AF's sixth defect, tests/render/test_eye_alive_review_af.py);
# the line over the lid's edge (review AC's) is as dark.
UPPER_LINE = (0.42, 0.06, 0.06)
# The texture's size (rows, columns): lashes a few texels wide at their roots, so their taper shows.
LASH_SIZE = (128, 256)


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
        angle = np.array([math.atan2(y, x) for y, x in zip(rel[:, 1].tolist(), (rel[:, 0] * side).tolist(), strict=True)])
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
    """RGBA (LASH_SIZE + (4,)) uint8: lower lids' lashes on the left half, upper lids' on the right
    (``u`` along the lid, ``v`` from the root down the texture to the tips). Drawn once per machine and kept."""
    out = keep.kept("lashes", lambda: {"rgba": _draw_lashes()}, {"rgba": LASH_SIZE + (4,)})["rgba"]
    out.setflags(write=False)
    return out


def _draw_lashes() -> np.ndarray:
    h, w = LASH_SIZE
    rng = np.random.default_rng(71)
    strokes = []
    # (half, lashes, reach as a share of the band, root width in texels): the upper lids' many, long and thick
    # enough to show as a dark frame over the eye at portrait size, the lower lids' few and short. (80 upper
    # lashes 1.1 to 1.5 texels wide read as nothing over the eye in a 512 px portrait, blind review E: "no lashes";
    # 150 of 2.3 overlapped into one black sheet over the line, a liner, review AF: 120 of 2.0 part into strokes.)
    for half, count, reach, width in ((0, 44, 0.45, 1.5), (1, 120, 0.95, 2.0)):
        x0, hw = half * w // 2, w // 2
        for k in range(count):
            u = (k + 0.5 + 0.8 * (rng.random() - 0.5)) / count
            # Longest a little past the middle, towards the outer corner, as a lid's lashes grow.
            corner = np.sin(np.pi * np.clip(u, 0, 1) ** 0.8) ** 0.6
            length = reach * (0.45 + 0.55 * corner) * rng.uniform(0.75, 1.05) * h
            lean = ((u - 0.3) * 0.5 + rng.normal(0, 0.06)) * length      # towards the outer corner
            root = np.array([x0 + 2 + u * (hw - 4), LINE * h])
            tip = root + np.array([lean, length])
            # Curled: the middle bends off the straight line, so the lash arcs as it leaves the lid.
            bend = root + 0.5 * (tip - root) + np.array([0.15 * lean, -0.1 * length])
            strokes.append((root, bend, tip, rng.uniform(0.8, 1.2) * width * w / 256, 0.3, 1.0))
    cover, _ = draw((h, w), strokes, samples=16)
    v = (np.arange(h) + 0.5) / h
    alpha = cover
    # The upper lid's lash line: dark and dense along the lid's edge (the roots, packed two and three deep),
    # fading into the lashes, and thickening from the inner corner to the outer (UPPER_LINE); the lower lid's thinner.
    along = ((np.arange(w // 2) + 0.5) / (w // 2))[None, :]
    solid = UPPER_LINE[0] + UPPER_LINE[1] * (3 - 2 * along) * along * along
    upper = np.clip(1 - (v[:, None] - LINE - solid) / UPPER_LINE[2], 0, 1)
    lower = np.clip(1 - (v - LINE) / 0.03, 0, 1)[:, None] * 0.8
    alpha[:, w // 2:] = np.maximum(alpha[:, w // 2:], upper)
    alpha[:, :w // 2] = np.maximum(alpha[:, :w // 2], lower)
    rgb = np.broadcast_to(np.asarray(LASH_COLOR, np.float32), (h, w, 3)).copy()
    # The lower lid's wet rim (the waterline, and the tear film on it catching the light): a thin light line
    # between the eye and the lower lashes, so the lid has an edge, not skin running into the eyeball.
    rim = np.clip(1 - np.abs(v - RIM[0]) / RIM[1], 0, 1)[:, None]
    low = np.s_[:, :w // 2]
    rgb[low] = rgb[low] * (1 - rim[..., None]) + np.asarray(WET, np.float32) * rim[..., None]
    alpha[low] = np.maximum(alpha[low] * (1 - rim), rim * RIM[2])
    alpha[:, [0, 1, w // 2 - 2, w // 2 - 1, w // 2, w // 2 + 1, w - 2, w - 1]] = 0.0
    alpha[-2:, :] = 0.0
    out = np.zeros((h, w, 4), np.uint8)
    out[..., :3] = np.clip(rgb * 255 + 0.5, 0, 255).astype(np.uint8)
    out[..., 3] = np.clip(alpha * 255 + 0.5, 0, 255)
    return out
