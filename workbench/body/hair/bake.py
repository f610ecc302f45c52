"""LOD 2: one shell over the hair, its texture the cards baked into it (MetaHuman's last step of detail).

1. A chart every style fits: azimuth round the head across, and down a parameter ``q`` that runs
   over the skull from the crown (the polar angle times the head's radius) and, below the skull's
   centre, down the height (so long hair hanging to the back is on the same chart).
2. The shell is a grid on that chart; each node stands at the outermost hair over it (the largest
   distance from the skull's centre, or from the vertical through it below the centre), filled in
   where no hair is and smoothed, a millimetre out.
3. Its texture: every card triangle (and the scalp shell's) drawn onto the chart, the outermost
   texel whose alpha passes the cut winning (a compiled loop), its light level and alpha kept; the
   colour is applied as for the cards (:func:`.texture.tint`). Texels no card reaches are clear; the
   alpha is blurred a few texels, so its cut (``MASK``) is a smooth outline, not the cards' steps.

>>> from workbench.options import normalize_avatar_settings
>>> from workbench.body.mesh import body_mesh
>>> m = body_mesh(normalize_avatar_settings({"gender": "feminine"}))
>>> p, pattern = baked(m, "short")
>>> p.triangles < 3000, pattern["light"].shape
(True, (512, 512))
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..lod import Piece, merge
from ..mesh import BodyMesh, vertex_normals
from . import cards
from .canon import TUCK, fitted
from .head import Head, dressed, head_of, per_body
from .outline import CARD_POINT
from .scalp import shell
from .texture import pattern

SIZE = 512
COLUMNS = 40
ROW = 0.013          # metres of q per grid row
# ...and a style's own, finer: curly hair's LOD 0 grew by the temples' coils (blind review Q), its LOD 2 (this shell
# and the body) fell to 0.197 of it, past the contract's quarter within 5 points (tests/gltf/test_avatar.py).
ROWS_OF = {"curly": 0.0095}
BLUR = 5             # texels each side of the alpha's blur


def _chart(head: Head, pts: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(azimuth degrees, q metres, radius metres) of points (N, 3)."""
    rel = pts - head.centre
    az = np.degrees(np.arctan2(rel[:, 0], rel[:, 2]))
    flat = np.hypot(rel[:, 0], rel[:, 2])
    up = rel[:, 1] >= 0
    pol = np.arctan2(flat, rel[:, 1])
    q = np.where(up, head.radius * pol, head.radius * np.pi / 2 - rel[:, 1])
    r = np.where(up, np.linalg.norm(rel, axis=1), flat)
    return az, q, r


def _point(head: Head, az: np.ndarray, q: np.ndarray, r: np.ndarray) -> np.ndarray:
    a = np.radians(az)
    top = q < head.radius * np.pi / 2
    pol = np.minimum(q / head.radius, np.pi / 2)
    y = np.where(top, r * np.cos(pol), -(q - head.radius * np.pi / 2))
    flat = np.where(top, r * np.sin(pol), r)
    return head.centre + np.stack([flat * np.sin(a), y, flat * np.cos(a)], -1)


@njit(cache=True, nogil=True)
def _draw(xy, depth, uv, alpha, light, out_r, out_l, out_a):
    """Each triangle ``t`` (corners ``xy[t]`` in texels, ``depth[t]``, ``uv[t]`` in the card atlas) into the
    chart: a texel takes the triangle's atlas texel where that is opaque enough and the triangle is
    farther out than what the texel holds."""
    H, W = out_r.shape
    ah, aw = alpha.shape
    for t in range(xy.shape[0]):
        x0, y0 = xy[t, 0, 0], xy[t, 0, 1]
        x1, y1 = xy[t, 1, 0], xy[t, 1, 1]
        x2, y2 = xy[t, 2, 0], xy[t, 2, 1]
        area = (x1 - x0) * (y2 - y0) - (x2 - x0) * (y1 - y0)
        if abs(area) < 1e-12:
            continue
        lo_x = max(int(np.floor(min(x0, x1, x2))), 0)
        hi_x = min(int(np.ceil(max(x0, x1, x2))), W - 1)
        lo_y = max(int(np.floor(min(y0, y1, y2))), 0)
        hi_y = min(int(np.ceil(max(y0, y1, y2))), H - 1)
        for y in range(lo_y, hi_y + 1):
            cy = y + 0.5
            for x in range(lo_x, hi_x + 1):
                cx = x + 0.5
                b1 = ((cx - x0) * (y2 - y0) - (x2 - x0) * (cy - y0)) / area
                b2 = ((x1 - x0) * (cy - y0) - (cx - x0) * (y1 - y0)) / area
                b0 = 1.0 - b1 - b2
                if b0 < 0 or b1 < 0 or b2 < 0:
                    continue
                r = b0 * depth[t, 0] + b1 * depth[t, 1] + b2 * depth[t, 2]
                if r <= out_r[y, x]:
                    continue
                u = b0 * uv[t, 0, 0] + b1 * uv[t, 1, 0] + b2 * uv[t, 2, 0]
                v = b0 * uv[t, 0, 1] + b1 * uv[t, 1, 1] + b2 * uv[t, 2, 1]
                i = min(max(int(v * ah), 0), ah - 1)
                j = min(max(int(u * aw), 0), aw - 1)
                if alpha[i, j] < 128:
                    continue
                out_r[y, x] = r
                out_l[y, x] = light[i, j]
                out_a[y, x] = 255


def _texture(head: Head, p: Piece, style: str, q_max: float) -> dict[str, np.ndarray]:
    az, q, r = _chart(head, p.positions.astype(np.float64))
    x = (az + 180.0) / 360.0 * SIZE
    y = q / q_max * SIZE
    tri = p.indices
    xy = np.stack([x[tri], y[tri]], -1)                                     # (T, 3, 2)
    # A triangle across the back seam drawn twice, once on each side.
    wide = xy[..., 0].max(1) - xy[..., 0].min(1) > SIZE / 2
    low = xy.copy()
    low[..., 0] = np.where(low[..., 0] > SIZE / 2, low[..., 0] - SIZE, low[..., 0])
    high = low[wide].copy()
    high[..., 0] += SIZE
    xy = np.concatenate([np.where(wide[:, None, None], low, xy), high])
    tri = np.concatenate([tri, tri[wide]])
    atlas = pattern(style)
    alpha = (atlas["alpha"] >> 24).astype(np.uint8)
    # (the light level and the tip's step, as one number a texel takes whole)
    level = atlas["tip"].astype(np.uint16) * 256 + atlas["light"]
    out_r = np.full((SIZE, SIZE), -1.0)
    out_l = np.zeros((SIZE, SIZE), np.uint16)
    out_a = np.zeros((SIZE, SIZE), np.uint8)
    _draw(xy.astype(np.float64), r[tri].astype(np.float64), p.uv[tri].astype(np.float64), alpha, level,
          out_r, out_l, out_a)
    # Clear texels take their neighbours' light and tip, so filtering at the hair's edge does not darken it.
    filled = out_a > 0
    light = (out_l & 255).astype(np.float64)
    tip = (out_l >> 8).astype(np.float64)
    for _ in range(4):
        grown = np.zeros_like(light)
        grown_tip = np.zeros_like(light)
        count = np.zeros_like(light)
        for dy, dx in ((0, 1), (0, -1), (1, 0), (-1, 0)):
            grown += np.roll(np.roll(np.where(filled, light, 0), dy, 0), dx, 1)
            grown_tip += np.roll(np.roll(np.where(filled, tip, 0), dy, 0), dx, 1)
            count += np.roll(np.roll(filled, dy, 0), dx, 1)
        take = ~filled & (count > 0)
        light[take] = grown[take] / count[take]
        tip[take] = grown_tip[take] / count[take]
        filled |= take
    # The alpha blurred (two box passes each way), so its cut at one half follows a smooth outline:
    # card tips a few texels apart merge, and the hairline has no steps.
    a = out_a.astype(np.float64)
    for axis in (0, 1, 0, 1):
        # (a sum of arrays is an array: the checker counts sum's start, 0, as a float)
        a = sum(np.roll(a, k, axis) for k in range(-BLUR, BLUR + 1)) / (2 * BLUR + 1)  # type: ignore[assignment]
    return {"light": np.round(light).astype(np.uint8), "tip": np.round(tip).astype(np.uint8),
            "alpha": np.round(a).astype("<u4") << 24}


def hair_head(mesh: BodyMesh, top: str | None, bottom: str = "trousers") -> Head:
    """The body's :class:`~.head.Head` as hair is fitted to it: over the top of style ``top`` (worn over
    ``bottom``) where one is given (:func:`.head.dressed`)."""
    if top is None:
        return head_of(mesh)
    from ..outfit.garments import dressed as worn

    return dressed(head_of(mesh), mesh, worn(mesh, top, bottom).piece)


@per_body
def baked(mesh: BodyMesh, style: str, top: str | None = None,
          bottom: str = "trousers") -> tuple[Piece, dict[str, np.ndarray]]:
    """The LOD 2 shell of ``style`` for this body (over the top ``top``, if any) and its texture's pattern
    (light levels, tip steps and alpha, as :func:`.texture.pattern`)."""
    head = hair_head(mesh, top, bottom)
    g = fitted(mesh, style, 0, head)
    hair = merge([shell(mesh, head, style)] + [cards.piece(mesh, head, s, sort=False, spread=cards.SPREAD.get(style, 1.0),
                                                           point=CARD_POINT.get(style) if s is g.cards else None,
                                                           under=style in TUCK and s is g.cards)
                                               for s in [g.cards, *g.extra]])
    az, q, r = _chart(head, hair.positions.astype(np.float64))
    q_max = float(q.max()) + 0.005
    rows = int(np.clip(np.ceil(q_max / ROWS_OF.get(style, ROW)), 8, 48))
    grid_r = np.full((rows + 1, COLUMNS), np.nan)
    i = np.clip(np.round(q / q_max * rows).astype(np.int64), 0, rows)
    j = np.round((az + 180.0) / 360.0 * COLUMNS).astype(np.int64) % COLUMNS
    flat = np.full(grid_r.size, -np.inf)
    np.maximum.at(flat, i * COLUMNS + j, r)
    grid_r = flat.reshape(grid_r.shape)
    have = np.isfinite(grid_r)
    grid_r = _smooth(np.where(have, grid_r, np.nan)) + 0.002
    qq = np.linspace(0, q_max, rows + 1)
    aa = np.linspace(-180.0, 180.0, COLUMNS + 1)
    A, Q = np.meshgrid(aa, qq)
    R = np.concatenate([grid_r, grid_r[:, :1]], 1)
    pos = _point(head, A.reshape(-1), Q.reshape(-1), R.reshape(-1)).astype(np.float32)
    C = COLUMNS + 1
    a = (np.arange(rows)[:, None] * C + np.arange(COLUMNS)[None, :]).reshape(-1)
    tris = np.concatenate([np.stack([a, a + C, a + 1], 1), np.stack([a + 1, a + C, a + C + 1], 1)]).astype(np.int64)
    # Only cells some hair reaches (with a cell's margin), so the shell does not close under the chin.
    near = _grow(have)
    cell_i, cell_j = a // C, a % C
    keep = np.tile(near[cell_i, cell_j % COLUMNS] | near[np.minimum(cell_i + 1, rows), cell_j % COLUMNS], 2)
    tris = tris[keep]
    used, inv = np.unique(tris, return_inverse=True)
    tris = inv.reshape(-1, 3).astype(np.int64)
    pos = pos[used]
    uv = np.column_stack([(A.reshape(-1)[used] + 180.0) / 360.0, Q.reshape(-1)[used] / q_max]).astype(np.float32)
    hanging = Q.reshape(-1)[used] > head.radius * np.pi / 2
    # Smoothed, the grid draws in over hollows: its hanging nodes are kept out of the body envelope (and
    # the garment's), as the cards are.
    rel = pos.astype(np.float64) - head.centre
    rho = np.hypot(rel[:, 0], rel[:, 2])
    need = head.reach(np.degrees(np.arctan2(rel[:, 0], rel[:, 2])), pos[:, 1].astype(np.float64)) + 2 * cards.CLEAR
    push = hanging & (rho < need)
    scale = np.where(push, need / np.maximum(rho, 1e-9), 1.0)
    pos = np.column_stack([head.centre[0] + rel[:, 0] * scale, pos[:, 1],
                           head.centre[2] + rel[:, 2] * scale]).astype(np.float32)
    joints, weights = cards.skin(mesh, head, pos.astype(np.float64), hanging)
    piece = Piece(pos, vertex_normals(pos, tris), uv, tris, joints, weights, np.full(len(pos), -1, np.int64))
    return piece, _texture(head, hair, style, q_max)


def _smooth(g: np.ndarray) -> np.ndarray:
    """NaN cells filled from their row (periodic) or the nearest filled row, then a 3 x 3 mean twice."""
    g = g.copy()
    rows, cols = g.shape
    x = np.arange(cols)
    for r in range(rows):
        ok = ~np.isnan(g[r])
        if ok.any() and not ok.all():
            g[r, ~ok] = np.interp(x[~ok], x[ok], g[r, ok], period=cols)
    full = np.flatnonzero(~np.isnan(g).any(1))
    g = g[full[np.abs(np.arange(rows)[:, None] - full[None, :]).argmin(1)]] if len(full) < rows else g
    for _ in range(2):
        p = np.pad(g, ((1, 1), (0, 0)), mode="edge")
        # (a sum of arrays is an array: the checker counts sum's start, 0, as a float)
        g = sum(np.roll(p[1 + dy: rows + 1 + dy], dx, 1) for dy in (-1, 0, 1) for dx in (-1, 0, 1)) / 9  # type: ignore[assignment]
    return g


def _grow(mask: np.ndarray) -> np.ndarray:
    out = mask.copy()
    out[1:] |= mask[:-1]
    out[:-1] |= mask[1:]
    return out | np.roll(out, 1, 1) | np.roll(out, -1, 1)
