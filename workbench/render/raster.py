"""Turning a posed scene and a camera into RGBA pixels: rasterizing, depth test, shading, anti-aliasing.

Everything is numpy over whole arrays; no loop runs per triangle or per pixel.

1. Project every vertex (view space, then pixels of the supersampled grid);
   drop triangles behind the near plane, off screen, degenerate, or facing
   away (unless their material is double-sided).
2. Expand triangles into the pixel rows their bounding box crosses; on each
   row, intersect the three edge half-planes with the row's centre line to get
   the covered span ``[xl, xr]`` exactly.
3. Expand spans into fragments (one per covered sample: a ``repeat`` of the
   row and a running offset), each with two edge weights and 1/w, all linear
   along the row.
4. Depth test: ``np.maximum.at`` keeps the largest 1/w (the nearest surface)
   per sample; the fragments equal to it win. Alpha-masked materials drop
   their cut-out fragments first.
5. Shade the winners once per output pixel and triangle, as multisampling
   does: in each ``ss x ss`` block, a sample covered by the same triangle as
   an earlier sample of the block takes that sample's colour. Shading uses
   perspective-correct barycentrics (weights times 1/w of each vertex,
   renormalized), interpolated normals, bilinear texture lookups in linear
   light, three lights fixed to the world (not the camera, so a figure turned
   in the viewer shows its other side in shadow): a warm key from the front
   left above, a cooler fill from the right, a rim from behind; a sky/ground
   ambient and the fill and rim darkened by the material's baked ambient
   occlusion (``occlusionTexture``), and a highlight as strong as the material
   is smooth (its roughness). Skin (a material named ``Skin...``) wraps the key
   light past the terminator with a warm tint there, the usual cheap stand-in
   for light scattered under the skin: without it skin reads as grey clay.
6. Blended materials (``alphaMode: BLEND``): the nearest blended fragment in
   front of the opaque surface of each sample is shaded and laid over it.
7. Average each ``ss x ss`` block (premultiplied, in linear light), roll
   off highlights above 0.7 smoothly, convert to sRGB 8-bit (laid over the
   backdrop in sRGB when there is one), and under the figure a soft contact
   shadow (:class:`GroundShadow`) where it stands.

Long on purpose: the seven steps share their arrays (fragments, samples, blocks) and run in order
once per frame; split across modules they would only pass those arrays back and forth. The contact
shadow (:func:`ground_shadow`) is the one part that stands apart and could move out if it grows.

Alternatives measured (default feminine avatar, 31k triangles, 512 px
portrait, 2x supersampling: 5.4k triangles on screen, 0.89 M fragments;
best of 3 to 5 runs, two sessions, on this 2-core machine while other
processes kept the load between 2 and 3.4, hence ranges):

- steps 2-3, edge tests over each triangle's bounding box, triangles
  bucketed by power-of-two box size: 169-211 ms against 19-39 ms for exact
  spans (5-9x; most box samples lie outside the thin triangles);
- step 4, ``lexsort`` by (sample, depth) keeping the first of each sample:
  105-125 ms against 4-11 ms for ``np.maximum.at`` (11-26x);
- step 5, shading every covered sample instead of once per pixel and
  triangle: the whole preview took 0.41 s instead of 0.21 s;
- supersampling: the whole draw takes 52-61 ms at 1x, 136-138 ms at 2x,
  272-401 ms at 3x; 1x shows stair-stepped outlines, 2x and 3x look alike
  at 512 px (compared side by side: hair and jaw outlines), so 2x.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .scene import Material, Posed

__all__ = ["Camera", "Lights", "GroundShadow", "ground_shadow", "draw"]


@dataclass(frozen=True)
class Camera:
    """A perspective camera: ``view`` maps world to view space (looking down -Z), ``fov_deg`` is vertical."""

    view: np.ndarray
    fov_deg: float
    near: float = 0.01


@dataclass(frozen=True)
class Lights:
    """Directions point from the surface towards the light, in world space (glTF: x to the figure's
    left, y up, z towards its front), so the lights stay put when the camera orbits."""

    key_dir: tuple = (-0.62, 0.48, 0.62)
    key: float = 2.6
    fill_dir: tuple = (0.75, 0.1, 0.45)
    fill: float = 0.5
    rim_dir: tuple = (0.3, 0.5, -0.8)
    rim: float = 0.5
    sky: float = 0.24
    ground: float = 0.16
    exposure: float = 1 / 1.9
    key_color: tuple = (1.0, 0.97, 0.92)
    fill_color: tuple = (0.9, 0.94, 1.0)
    # Skin: how far the key light wraps past the terminator (0: Lambert) and the warm colour there.
    skin_wrap: float = 0.4
    skin_scatter: tuple = (1.0, 0.55, 0.45)


@dataclass(frozen=True)
class GroundShadow:
    """A soft shadow on the ground plane ``y``: ``density`` (rows z, columns x) in 0..1 over the
    square of side ``cell * n`` from (``x0``, ``z0``); see :func:`ground_shadow`."""

    y: float
    x0: float
    z0: float
    cell: float
    density: np.ndarray


def ground_shadow(posed: Posed, *, strength: float = 0.5, cells: int = 96) -> GroundShadow | None:
    """The contact shadow of a standing figure: where it touches the ground, and softly around that.

    1. The ground is the lowest vertex's height; the vertices within 2% of the figure's height
       of it are the contact (soles), those within 25% the body near the ground (legs, hems).
    2. Both are splatted into a grid over their footprint on the ground; the contact is blurred
       a little (2.5 cm), the near body widely (12 cm) and weighted down with its height, as
       an ambient occlusion of the ground would be.
    Measured against casting the key light's shadow: the key comes from the front, so its
    shadow falls behind the feet where a front camera cannot see it; an occlusion-like
    shadow grounds the figure from every side.

    >>> from workbench.render.testing import tiny_rig_glb
    >>> from workbench.render.scene import Model
    >>> g = ground_shadow(Model(tiny_rig_glb()).posed())
    >>> g.density.shape, 0 < float(g.density.max()) <= 0.5
    ((96, 96), True)
    """
    pts = posed.points().astype(np.float64)
    if len(pts) < 3:
        return None
    y0 = float(pts[:, 1].min())
    height = float(pts[:, 1].max()) - y0
    if height <= 0:
        return None
    h = pts[:, 1] - y0
    near = pts[h <= 0.25 * height]
    hn = h[h <= 0.25 * height]
    pad = 0.25 * height
    lo = near[:, [0, 2]].min(0) - pad
    side = float((near[:, [0, 2]].max(0) + pad - lo).max())
    cell = side / cells
    ij = np.clip(((near[:, [2, 0]] - lo[::-1]) / cell).astype(np.int64), 0, cells - 1)
    contact = np.zeros((cells, cells))
    body = np.zeros((cells, cells))
    touching = hn <= 0.02 * height
    contact[ij[touching, 0], ij[touching, 1]] = 1.0
    np.add.at(body, (ij[:, 0], ij[:, 1]), np.exp(-hn / (0.08 * height)))
    contact = _blur(contact, 0.015 * height / cell)
    body = 1.0 - np.exp(-_blur(body, 0.07 * height / cell) * 0.5)
    density = np.clip(1.6 * contact + 0.55 * body, 0.0, 1.0) * strength
    return GroundShadow(y=y0, x0=float(lo[0]), z0=float(lo[1]), cell=cell, density=density.astype(np.float32))


def _blur(grid: np.ndarray, sigma: float) -> np.ndarray:
    """A Gaussian blur of a small square grid as two matrix products (zero outside). Importing
    scipy.ndimage for this cost a cold preview 0.3 s; the products take under a millisecond.
    Written with einsum, not ``@``: for 96 x 96 matrices ``@`` goes to OpenBLAS, whose threads on a
    busy 2-core machine made each blur 40-56 ms (measured; einsum 0.6 ms, the same values to 1e-15)."""
    n = grid.shape[0]
    i = np.arange(n)
    k = np.exp(-0.5 * ((i[:, None] - i[None, :]) / max(sigma, 1e-6)) ** 2)
    k /= k.sum(1, keepdims=True)
    return np.einsum("ij,kj->ik", np.einsum("ij,jk->ik", k, grid), k)


def _shadow_alpha(shadow: GroundShadow, camera: Camera, size: int) -> np.ndarray:
    """The shadow's opacity at each output pixel's centre (size * size,): rays onto the ground plane."""
    out = np.zeros(size * size, np.float32)
    V = np.asarray(camera.view, np.float64)
    R, t = V[:3, :3], V[:3, 3]
    eye = -R.T @ t
    if eye[1] <= shadow.y:
        return out  # seen from below the ground: no shadow on it
    n = shadow.density.shape[0]
    f = 1.0 / np.tan(np.radians(camera.fov_deg) / 2)
    # Only the pixels the shadow's square can cover: the part of it in front of the camera (the square
    # cut at the near plane), its corners projected. A portrait's camera stands over the square, whose
    # visible part then projects below the frame: nothing to do (it cast rays for the whole frame).
    corners = np.array([[shadow.x0 + a * n * shadow.cell, shadow.y, shadow.z0 + b * n * shadow.cell]
                        for a, b in ((0, 0), (1, 0), (1, 1), (0, 1))])
    pv = _in_front(corners @ R.T + t, -camera.near)
    if len(pv) == 0:
        return out
    px = (0.5 + 0.5 * f * pv[:, 0] / -pv[:, 2]) * size
    py = (0.5 - 0.5 * f * pv[:, 1] / -pv[:, 2]) * size
    x0, x1 = max(int(np.floor(px.min())), 0), min(int(np.ceil(px.max())) + 1, size)
    y0, y1 = max(int(np.floor(py.min())), 0), min(int(np.ceil(py.max())) + 1, size)
    if x0 >= x1 or y0 >= y1:
        return out
    ys, xs = np.mgrid[y0:y1, x0:x1]
    d = np.stack([((xs + 0.5) / size * 2 - 1) / f, -((ys + 0.5) / size * 2 - 1) / f, -np.ones(xs.shape)], -1)
    d = d @ R  # view to world (R is a rotation: its inverse is its transpose)
    with np.errstate(divide="ignore", invalid="ignore"):
        s = (shadow.y - eye[1]) / d[..., 1]
    hit = s > 0
    gx = (eye[0] + s * d[..., 0] - shadow.x0) / shadow.cell - 0.5
    gz = (eye[2] + s * d[..., 2] - shadow.z0) / shadow.cell - 0.5
    inside = hit & (gx >= 0) & (gz >= 0) & (gx < n - 1) & (gz < n - 1)
    gx, gz = np.where(inside, gx, 0), np.where(inside, gz, 0)
    i, j = gz.astype(np.int64), gx.astype(np.int64)
    fz, fx = gz - i, gx - j
    g = shadow.density
    val = ((g[i, j] * (1 - fx) + g[i, j + 1] * fx) * (1 - fz) + (g[i + 1, j] * (1 - fx) + g[i + 1, j + 1] * fx) * fz)
    out.reshape(size, size)[y0:y1, x0:x1] = np.where(inside, val, 0)
    return out


def _in_front(poly: np.ndarray, z_max: float) -> np.ndarray:
    """The convex polygon ``poly`` (n, 3) in view space cut to its part with z <= ``z_max`` (Sutherland-Hodgman
    against one plane); (0, 3) when none of it is.

    >>> _in_front(np.array([[0, 0, -1.0], [1, 0, -1.0], [1, 0, 1.0], [0, 0, 1.0]]), -0.5).tolist()
    [[0.0, 0.0, -1.0], [1.0, 0.0, -1.0], [1.0, 0.0, -0.5], [0.0, 0.0, -0.5]]
    """
    out = []
    for a, b in zip(poly, np.roll(poly, -1, axis=0)):
        if a[2] <= z_max:
            out.append(a)
        if (a[2] <= z_max) != (b[2] <= z_max):
            out.append(a + (b - a) * ((z_max - a[2]) / (b[2] - a[2])))
    return np.array(out, np.float64).reshape(-1, 3)


def _unit(v) -> np.ndarray:
    v = np.asarray(v, np.float32)
    return v / np.linalg.norm(v)


def draw(posed: Posed, camera: Camera, size: int, *, ss: int = 2,
         background: tuple[int, int, int] | None = None, lights: Lights = Lights(),
         shadow: GroundShadow | None = None) -> np.ndarray:
    """Render ``posed`` to a (size, size, 4) uint8 RGBA array.

    shadow: a contact shadow drawn on the ground under the figure (:func:`ground_shadow`); on a
    transparent background it is a translucent black, at most ``strength`` opaque.

    >>> from workbench.render.scene import Model
    >>> from workbench.render.framing import frame
    >>> from workbench.viewers.product import build_product_glb
    >>> posed = Model(build_product_glb("x")).posed()
    >>> draw(posed, frame(posed, "full"), 64).shape
    (64, 64, 4)
    """
    W = H = size * ss
    draws = posed.draws
    # -- 1. project ----------------------------------------------------------
    if draws:
        offsets = np.cumsum([0] + [len(d.positions) for d in draws])
        P = np.concatenate([d.positions for d in draws]).astype(np.float32)
        tris = np.concatenate([d.tris + offsets[k] for k, d in enumerate(draws)]).astype(np.int32)
        tri_draw = np.concatenate([np.full(len(d.tris), k, np.int32) for k, d in enumerate(draws)])
    else:
        P = np.zeros((0, 3), np.float32)
        tris = np.zeros((0, 3), np.int32)
        tri_draw = np.zeros(0, np.int32)
    V = camera.view.astype(np.float32)
    pv = P @ V[:3, :3].T + V[:3, 3]
    depth = -pv[:, 2]
    f = 1.0 / np.tan(np.radians(camera.fov_deg) / 2)
    with np.errstate(divide="ignore", invalid="ignore"):
        iw = np.where(depth > camera.near, 1.0 / depth, 0).astype(np.float32)
    sx = (0.5 + 0.5 * f * pv[:, 0] * iw) * W
    sy = (0.5 - 0.5 * f * pv[:, 1] * iw) * H

    t0, t1, t2 = tris[:, 0], tris[:, 1], tris[:, 2]
    x0, x1, x2 = sx[t0], sx[t1], sx[t2]
    y0, y1, y2 = sy[t0], sy[t1], sy[t2]
    area = (x1 - x0) * (y2 - y0) - (x2 - x0) * (y1 - y0)
    double = np.array([d.material.double_sided for d in draws] or [False])[tri_draw]
    # Screen y points down, so counter-clockwise front faces have a negative area here.
    facing = (area < 0) | double
    keep = (facing & (np.abs(area) > 1e-9)
            & (iw[t0] > 0) & (iw[t1] > 0) & (iw[t2] > 0)
            & (np.maximum(np.maximum(x0, x1), x2) >= 0) & (np.minimum(np.minimum(x0, x1), x2) < W)
            & (np.maximum(np.maximum(y0, y1), y2) >= 0) & (np.minimum(np.minimum(y0, y1), y2) < H))
    ti = np.nonzero(keep)[0].astype(np.int32)
    blend_mat = np.array([d.material.alpha_mode == "BLEND" for d in draws] or [False])
    mask_mat = np.array([d.material.alpha_mode == "MASK" for d in draws] or [False])

    frags = _fragments(ti, tris, sx, sy, iw, area, W, H, ss)
    pix, ftri, fb1, fb2, fiw = frags
    fdraw = tri_draw[ftri]
    is_blend = blend_mat[fdraw]

    # -- 4. depth test (opaque and masked) -------------------------------------
    # Samples are numbered block by block (the ss x ss samples of one output pixel are
    # neighbours), so steps 5 and 7 work on plain (pixels, ss*ss) arrays, without gathers.
    K = ss * ss
    B = size * size
    opaque = ~is_blend
    zbuf = np.zeros(B * K, np.float32)
    masked = opaque & mask_mat[fdraw]
    if masked.any():
        # The solid surfaces first; then only the masked fragments in front of them take the alpha
        # test (those behind lose the depth test whatever their alpha): half of a portrait's hair is
        # behind the head. The cut-out ones drop out, the rest join the depth test.
        solid = np.nonzero(opaque & ~masked)[0]
        np.maximum.at(zbuf, pix[solid], fiw[solid])
        idx = np.nonzero(masked)[0]
        idx = idx[fiw[idx] >= zbuf[pix[idx]]]
        opaque &= ~masked
        # Triangles whose whole texture footprint is opaque pass without a lookup (most of a hair
        # card's triangles: 85 % of a long-hair portrait's tested fragments).
        sure = _opaque_triangles(draws, tris, tri_draw, mask_mat)[ftri[idx]]
        test = idx[~sure]
        a = _alpha_at(draws, tris, tri_draw, ftri[test], fb1[test], fb2[test], fiw[test], iw)
        cutoff = np.array([d.material.alpha_cutoff for d in draws], np.float32)[fdraw[test]]
        kept = np.concatenate([idx[sure], test[a >= cutoff]])
        opaque[kept] = True
        np.maximum.at(zbuf, pix[kept], fiw[kept])
    else:
        np.maximum.at(zbuf, pix[opaque], fiw[opaque])
    o_idx = np.nonzero(opaque)[0]
    win = o_idx[fiw[o_idx] >= zbuf[pix[o_idx]]]
    owner = np.full(B * K, -1, np.int32)
    owner[pix[win]] = win

    # Only blocks some opaque or blended fragment reaches are worked on from here: the others
    # stay empty (the backdrop, or transparent), and a figure covers a fifth of a full frame.
    # (Measured, 512 px full frame: steps 5-7 took 56 ms of 93 over every block, 35 of 73 over the
    # reached ones; the pixels are the same bytes, checked against the previous code.)
    T = np.full(B * K, -1, np.int32)
    hit = owner >= 0
    T[hit] = ftri[owner[hit]]
    T = T.reshape(B, K)
    b_idx = np.nonzero(is_blend)[0]
    if len(b_idx):
        b_idx = b_idx[fiw[b_idx] > zbuf[pix[b_idx]]]
    reached = (T >= 0).any(1)
    if len(b_idx):
        reached[pix[b_idx] // K] = True
    active = np.flatnonzero(reached).astype(np.int32)
    T = T[active]
    n = len(active)

    # -- 5. shade, once per output pixel and triangle (as multisampling does) ----
    img = np.zeros((n * K, 4), np.float32)  # premultiplied linear RGBA, at representative samples
    # rep[b, k]: the first sample of block b covered by the same triangle as sample k.
    rep = np.broadcast_to(np.arange(K, dtype=np.int32), T.shape).copy()
    for k in range(1, K):
        for j in range(k - 1, -1, -1):
            rep[:, k] = np.where(T[:, k] == T[:, j], rep[:, j], rep[:, k])
    shade_here = (rep == np.arange(K)) & (T >= 0)
    local = np.nonzero(shade_here.reshape(-1))[0]
    covered = active[local // K] * K + (local % K).astype(np.int32)
    fr = owner[covered]
    img[local, :3] = _shade(draws, tris, tri_draw, iw, V, lights, camera,
                            ftri[fr], fb1[fr], fb2[fr], fiw[fr], pix=covered, size=size, ss=ss)[0]
    img[local, 3] = 1.0
    img = img.reshape(n, K, 4)

    # -- 6. blended materials ----------------------------------------------------
    blended_blocks = None
    if len(b_idx):
        tbuf = np.zeros(B * K, np.float32)
        np.maximum.at(tbuf, pix[b_idx], fiw[b_idx])
        bw = b_idx[fiw[b_idx] >= tbuf[pix[b_idx]]]
        bowner = np.full(B * K, -1, np.int32)
        bowner[pix[bw]] = bw
        bpix = np.nonzero(bowner >= 0)[0]
        fr = bowner[bpix]
        # Shaded once per output pixel and triangle too (the first such sample stands for the others),
        # as the opaque surfaces are: a lens covers whole blocks, so this shades a quarter as much.
        key = (bpix // K).astype(np.int64) * len(tris) + ftri[fr]
        _, first, back = np.unique(key, return_index=True, return_inverse=True)
        fr1 = fr[first]
        rgb, a = _shade(draws, tris, tri_draw, iw, V, lights, camera,
                        ftri[fr1], fb1[fr1], fb2[fr1], fiw[fr1], pix=bpix[first], size=size, ss=ss)
        rgb, a = rgb[back], a[back]
        # Only blocks holding a blended sample get every sample's own colour spelled out.
        blended_blocks = np.searchsorted(active, np.unique(bpix // K))  # positions among the active blocks
        sub = np.take_along_axis(img[blended_blocks], rep[blended_blocks][:, :, None], 1)
        pos = np.searchsorted(blended_blocks, np.searchsorted(active, bpix // K))
        kk = bpix % K
        under = sub[pos, kk]
        sub[pos, kk, :3] = rgb * a[:, None] + under[:, :3] * (1 - a[:, None])
        sub[pos, kk, 3] = a + under[:, 3] * (1 - a)

    # -- 7. resolve the supersampling ---------------------------------------------
    # Each representative's colour counts once for every sample of its block it stands for.
    # (Column by column: 11 ms, against 48 ms measured for one sum over the middle axis of (B, K, K).)
    rep_t = np.ascontiguousarray(rep.T)
    acc = np.zeros((n, 4), np.float32)
    for k in range(K):
        count = np.zeros(n, np.float32)
        for j in range(k, K):  # rep[:, j] <= j, so only samples from k on can point to k
            count += rep_t[j] == k
        acc += img[:, k] * count[:, None]
    if blended_blocks is not None:
        acc[blended_blocks] = sub.sum(1)
    img = acc * np.float32(1 / K)
    alpha = np.clip(img[:, 3:4], 0, 1)
    srgb = _to_srgb8(img[:, :3] / np.maximum(alpha, 1e-6)).astype(np.float32)
    out = np.empty((B, 4), np.uint8)
    under = _shadow_alpha(shadow, camera, size) if shadow is not None else None
    if background is not None:
        # Laid over the backdrop in sRGB, as a browser would lay the transparent PNG over it:
        # the backdrop's own pixels come out exactly as given (but where the shadow darkens them).
        bg = np.broadcast_to(np.asarray(background, np.float32), (B, 3))
        if under is not None:
            bg = bg * (1 - under[:, None])
        out[:, :3] = np.round(bg).astype(np.uint8)
        out[:, 3] = 255
        out[active, :3] = np.round(srgb * alpha + bg[active] * (1 - alpha)).astype(np.uint8)
    else:
        out[:] = 0
        if under is not None:
            out[:, 3] = np.round(under * 255).astype(np.uint8)
            # The figure over the black shadow: premultiplied colour over the combined alpha.
            a_all = alpha[:, 0] + under[active] * (1 - alpha[:, 0])
            out[active, :3] = np.round(srgb * (alpha / np.maximum(a_all, 1e-6)[:, None])).astype(np.uint8)
            out[active, 3] = np.round(a_all * 255).astype(np.uint8)
        else:
            out[active, :3] = srgb.astype(np.uint8)
            out[active, 3] = np.round(alpha[:, 0] * 255).astype(np.uint8)
    out = out.reshape(size, size, 4)
    return out


def _shoulder(x: np.ndarray, knee: float = 0.7) -> np.ndarray:
    """Identity up to ``knee``, then a smooth roll-off towards 1: a brightly lit white shirt
    keeps its folds instead of clipping flat, darker colours are untouched."""
    over = np.maximum(x - knee, 0) / (1 - knee)
    return np.where(x <= knee, x, knee + (1 - knee) * (1 - np.exp(-over)))


_LUT_MAX = 4.0     # linear light above 4 is white
_LUT_N = 1 << 18   # steps of 1.5e-5: finer than 8-bit sRGB output near black
_LINEAR_TO_SRGB8 = np.round(255 * _shoulder(np.arange(_LUT_N + 1) / _LUT_N * _LUT_MAX) ** (1 / 2.2)).astype(np.uint8)


def _to_srgb8(lin: np.ndarray) -> np.ndarray:
    # One table lookup per channel instead of a tone curve and a power per pixel.
    i = np.clip(lin, 0, _LUT_MAX) * (_LUT_N / _LUT_MAX)
    return _LINEAR_TO_SRGB8[(i + 0.5).astype(np.int32)]


def _fragments(ti, tris, sx, sy, iw, area, W, H, ss=1):
    """Steps 2 and 3: the covered samples of the triangles ``ti`` with their edge weights and 1/w."""
    empty = (np.zeros(0, np.int32), np.zeros(0, np.int32), np.zeros(0, np.float32),
             np.zeros(0, np.float32), np.zeros(0, np.float32))
    if len(ti) == 0:
        return empty
    t0, t1, t2 = tris[ti, 0], tris[ti, 1], tris[ti, 2]
    X = np.stack([sx[t0], sx[t1], sx[t2]]).astype(np.float64)
    Y = np.stack([sy[t0], sy[t1], sy[t2]]).astype(np.float64)
    A2 = area[ti].astype(np.float64)
    # Edge k is opposite vertex k; its weight b_k = a_k x + b_k y + c_k is the barycentric of vertex k.
    i_, j_ = [1, 2, 0], [2, 0, 1]
    ea = -(Y[j_] - Y[i_]) / A2
    eb = (X[j_] - X[i_]) / A2
    ec = -(eb * Y[i_] + ea * X[i_])
    IW = np.stack([iw[t0], iw[t1], iw[t2]]).astype(np.float64)
    # 1/w is linear in screen space: its plane over the triangle from the barycentrics.
    pa = (ea * IW).sum(0)
    pb = (eb * IW).sum(0)
    pc = (ec * IW).sum(0)

    # int32 indices: half the memory of int64, and fresh memory costs page faults on every call.
    ylo = np.maximum(np.ceil(Y.min(0) - 0.5), 0).astype(np.int32)
    yhi = np.minimum(np.floor(Y.max(0) - 0.5), H - 1).astype(np.int32)
    nrows = np.maximum(yhi - ylo + 1, 0)
    rt = np.repeat(np.arange(len(ti), dtype=np.int32), nrows)
    start = np.cumsum(nrows) - nrows
    ry = np.arange(len(rt), dtype=np.int32) - (start - ylo).astype(np.int32)[rt]
    cy = ry + 0.5
    # Row spans: each edge bounds x from one side (a_k > 0 from below, a_k < 0 from above).
    xl = np.full(len(rt), -np.inf)
    xr = np.full(len(rt), np.inf)
    ok = np.ones(len(rt), bool)
    s = []
    eps = 1e-9
    for k in range(3):
        a = ea[k][rt]
        sk = eb[k][rt] * cy + ec[k][rt]
        s.append(sk)
        with np.errstate(divide="ignore", invalid="ignore"):
            bound = -sk / a
        xl = np.where(a > eps, np.maximum(xl, bound), xl)
        xr = np.where(a < -eps, np.minimum(xr, bound), xr)
        ok &= (np.abs(a) > eps) | (sk >= -1e-7)
    lo = np.maximum(np.ceil(xl - 0.5 - 1e-7), 0)
    hi = np.minimum(np.floor(xr - 0.5 + 1e-7), W - 1)
    cnt = np.where(ok & (hi >= lo), hi - lo + 1, 0).astype(np.int32)
    lo = np.where(cnt > 0, lo, 0).astype(np.int32)
    total = int(cnt.sum())
    if total == 0:
        return empty
    fr = np.repeat(np.arange(len(rt), dtype=np.int32), cnt)
    fstart = np.cumsum(cnt, dtype=np.int64) - cnt
    if total >= 2**31 - 1:
        raise ValueError("render: too many fragments for one image")
    fx = np.arange(total, dtype=np.int32) - (fstart - lo).astype(np.int32)[fr]
    cx = (fx + 0.5).astype(np.float32)
    # Per-row coefficients in float32: along a row every weight is a x + s.
    a1 = ea[1][rt].astype(np.float32)
    a2 = ea[2][rt].astype(np.float32)
    s1 = s[1].astype(np.float32)
    s2 = s[2].astype(np.float32)
    rpa = pa[rt].astype(np.float32)
    rps = (pb[rt] * cy + pc[rt]).astype(np.float32)
    b1 = a1[fr] * cx + s1[fr]
    b2 = a2[fr] * cx + s2[fr]
    fiw = rpa[fr] * cx + rps[fr]
    fy = ry[fr]
    size = W // ss
    # Block order: output pixel first, then the sample within its ss x ss block.
    if ss & (ss - 1) == 0:  # shifts and masks: measured 8.7 ms against 16.5 ms for // and % (0.9 M samples)
        sh = ss.bit_length() - 1
        pix = (((fy >> sh) * size + (fx >> sh)) << (2 * sh)) + ((fy & (ss - 1)) << sh) + (fx & (ss - 1))
    else:
        pix = ((fy // ss) * size + fx // ss) * (ss * ss) + (fy % ss) * ss + fx % ss
    tri = ti[rt][fr]
    return pix, tri, b1, b2, fiw


def _persp(tris, iw, ftri, b1, b2, fiw):
    """Perspective-correct barycentrics (n, 3) and the vertex indices (n, 3) of fragments."""
    vt = tris[ftri]
    w = np.stack([(1 - b1 - b2), b1, b2], 1) * iw[vt]
    w /= np.maximum(fiw, 1e-12)[:, None]
    return vt, w


def _interp(attr, vt, w):
    # Three gathers and multiply-adds: measured 2.3x faster than attr[vt] * w[..., None] summed over an axis.
    out = attr[vt[:, 0]] * w[:, 0:1]
    out += attr[vt[:, 1]] * w[:, 1:2]
    out += attr[vt[:, 2]] * w[:, 2:3]
    return out


# sRGB to linear light in 1/16 steps of an 8-bit level, for colours filtered in sRGB.
_SRGB16_TO_LINEAR = ((np.arange(256 * 16 + 1) / (256 * 16)) ** 2.2).astype(np.float32)


def _sample(tex, uv):
    """Bilinear lookup at ``uv`` (n, 2), wrapping as the sampler says: linear RGB (n, 3), alpha (n,) or None."""
    (ya, yb, xa, xb), fu, fv = _corners(tex, uv)

    def texel(i):
        return tex.texels[i].view(np.uint8).reshape(-1, 4).astype(np.float32)

    top = texel(ya + xa)
    top += (texel(ya + xb) - top) * fu
    bottom = texel(yb + xa)
    bottom += (texel(yb + xb) - bottom) * fu
    top += (bottom - top) * fv
    rgb = _SRGB16_TO_LINEAR[(top[:, :3] * 16 + 0.5).astype(np.int32)]
    return rgb, (top[:, 3] * np.float32(1 / 255) if tex.has_alpha else None)


def _sample_channel(tex, uv, channel: int):
    """One channel's stored value in 0..1 (n,), bilinear as :func:`_sample` filters (3 is the alpha;
    data such as occlusion is not sRGB colour), filtering only that byte of each texel."""
    (ya, yb, xa, xb), fu, fv = _corners(tex, uv)
    fu, fv = fu[:, 0], fv[:, 0]

    def texel(i):
        return tex.texels[i].view(np.uint8).reshape(-1, 4)[:, channel].astype(np.float32)

    top = texel(ya + xa)
    top += (texel(ya + xb) - top) * fu
    bottom = texel(yb + xa)
    bottom += (texel(yb + xb) - bottom) * fu
    top += (bottom - top) * fv
    return top * np.float32(1 / 255)


def _corners(tex, uv):
    """Bilinear footprint of ``uv`` (n, 2): the row offsets (top, bottom) and columns (left, right) of
    the four texels, wrapped as the sampler says, and the weights (n, 1) across and down."""
    h, w = tex.height, tex.width
    u = uv[:, 0] * w - 0.5
    v = uv[:, 1] * h - 0.5
    u0 = np.floor(u)
    v0 = np.floor(v)
    fu = (u - u0).astype(np.float32)[:, None]
    fv = (v - v0).astype(np.float32)[:, None]
    u0 = u0.astype(np.int32)
    v0 = v0.astype(np.int32)

    def wrap(i, n, mode):
        if mode == 33071:  # CLAMP_TO_EDGE
            return np.clip(i, 0, n - 1)
        if mode == 33648:  # MIRRORED_REPEAT
            i = np.mod(i, 2 * n)
            return np.where(i >= n, 2 * n - 1 - i, i)
        return np.mod(i, n)

    xa, xb = wrap(u0, w, tex.wrap_s), wrap(u0 + 1, w, tex.wrap_s)
    ya, yb = wrap(v0, h, tex.wrap_t) * w, wrap(v0 + 1, h, tex.wrap_t) * w
    return (ya, yb, xa, xb), fu, fv


def _base_color(draws, tri_draw, ftri, vt, w):
    """Base colour (n, 3) linear, alpha (n,) and baked ambient occlusion (n,) of fragments, material by
    material; the occlusion is 1 where a material has none, and None if none has. The occlusion reads
    the base colour's texture coordinates when they share a set (interpolated once: measured as long
    as the colour lookup itself), and only the red channel (glTF's)."""
    n = len(ftri)
    rgb = np.empty((n, 3), np.float32)
    alpha = np.empty(n, np.float32)
    has_ao = any(d.material.occlusion is not None and d.uv is not None for d in draws)
    ao = np.ones(n, np.float32) if has_ao else None
    for k, d, sel in _by_draw(draws, tri_draw, ftri):
        m: Material = d.material
        c = np.broadcast_to(m.color[:3], (len(sel), 3)).astype(np.float32)
        a = np.full(len(sel), m.color[3], np.float32)
        uv = None
        if d.uv is not None and (m.texture is not None or m.occlusion is not None):
            uv = _interp(d.uv, vt[sel] - _vertex_base(draws, k), w[sel])
        if m.texture is not None and uv is not None:
            tc, ta = _sample(m.texture, uv)
            c = c * tc
            if ta is not None:
                a = a * ta
        if d.colors is not None:
            vc = _interp(d.colors, vt[sel] - _vertex_base(draws, k), w[sel])
            c = c * vc[:, :3]
            a = a * vc[:, 3]
        rgb[sel] = c
        alpha[sel] = a
        # Occlusion on another texture coordinate set than the colour's is not drawn (this renderer reads one set).
        if m.occlusion is not None and uv is not None and m.occlusion_texcoord == m.texcoord:
            r = _sample_channel(m.occlusion, uv, 0)
            ao[sel] = 1 + np.float32(m.occlusion_strength) * (r - 1)
    return rgb, alpha, ao


def _by_draw(draws, tri_draw, ftri):
    """(k, draw, fragment indices) for each draw that has fragments, the fragments grouped by the draw
    their triangle belongs to (one stable sort, not a mask per draw)."""
    fd = tri_draw[ftri]
    order = np.argsort(fd, kind="stable")
    bounds = np.searchsorted(fd[order], np.arange(len(draws) + 1))
    for k, d in enumerate(draws):
        sel = order[bounds[k]:bounds[k + 1]]
        if len(sel):
            yield k, d, sel


def _vertex_base(draws, k):
    return sum(len(d.positions) for d in draws[:k])


def _alpha_at(draws, tris, tri_draw, ftri, b1, b2, fiw, iw):
    """The base colour's alpha (n,) of fragments, as :func:`_base_color` gives it, without its colour
    (the alpha test of masked materials: measured a fifth of a portrait's draw when it filtered
    the colour too)."""
    vt, w = _persp(tris, iw, ftri, b1, b2, fiw)
    alpha = np.empty(len(ftri), np.float32)
    for k, d, sel in _by_draw(draws, tri_draw, ftri):
        m: Material = d.material
        a = np.full(len(sel), m.color[3], np.float32)
        if m.texture is not None and d.uv is not None and m.texture.has_alpha:
            a *= _sample_channel(m.texture, _interp(d.uv, vt[sel] - _vertex_base(draws, k), w[sel]), 3)
        if d.colors is not None:
            a *= _interp(d.colors[:, 3:4], vt[sel] - _vertex_base(draws, k), w[sel])[:, 0]
        alpha[sel] = a
    return alpha


def _opaque_triangles(draws, tris, tri_draw, mask_mat) -> np.ndarray:
    """Per triangle (of all draws): True where a masked material's alpha test passes wherever the
    triangle is sampled, because every texel its bilinear footprint can read (the box around its
    texture coordinates, one texel wider each side than the filter reaches for rounding's sake) is
    opaque enough. Exact: such fragments' filtered alpha is a weighted mean of those texels. Only for
    materials whose alpha is the texture's alone (alpha factor 1, no vertex colours).

    >>> from workbench.render.scene import Material, Texture
    >>> from types import SimpleNamespace
    >>> tex = Texture(np.array([0xFF000000] * 3 + [0], np.uint32), 4, 1, True, 33071, 33071)  # last texel clear
    >>> D = SimpleNamespace(tris=np.array([[0, 1, 2]]), colors=None,   # a triangle on the opaque left half
    ...                     uv=np.array([[0.0, 0], [0.1, 0], [0.0, 1]], np.float32),
    ...                     material=Material(color=np.ones(4, np.float32), texture=tex, alpha_mode="MASK"))
    >>> _opaque_triangles([D], D.tris, np.zeros(1, np.int32), np.array([True])).tolist()
    [True]
    >>> D.uv = np.array([[0.0, 0], [0.9, 0], [0.0, 1]], np.float32)   # reaches the transparent texel
    >>> _opaque_triangles([D], D.tris, np.zeros(1, np.int32), np.array([True])).tolist()
    [False]
    """
    sure = np.zeros(len(tri_draw), bool)
    start = 0
    for k, d in enumerate(draws):
        n = len(d.tris)
        m: Material = d.material
        tex = m.texture
        if (mask_mat[k] and tex is not None and tex.has_alpha and d.uv is not None and d.colors is None
                and m.color[3] == 1.0):
            h, w = tex.height, tex.width
            alpha = tex.texels.view(np.uint8).reshape(h, w, 4)[..., 3]
            # Texels that might fail the test, counted over any box by a summed-area table.
            weak = np.zeros((h + 1, w + 1), np.int32)
            weak[1:, 1:] = (alpha < np.ceil((m.alpha_cutoff + 1e-3) * 255)).cumsum(0).cumsum(1)
            uv = d.uv[d.tris].astype(np.float64)                      # (n, 3, 2)
            u, v = uv[..., 0] * w - 0.5, uv[..., 1] * h - 0.5
            x0, x1 = np.floor(u.min(1)) - 1, np.floor(u.max(1)) + 2
            y0, y1 = np.floor(v.min(1)) - 1, np.floor(v.max(1)) + 2
            ok = np.ones(n, bool)
            # Clamped lookups read the edge texels, within the clipped box; other wraps must stay inside.
            if tex.wrap_s != 33071:
                ok &= (x0 >= 0) & (x1 <= w - 1)
            if tex.wrap_t != 33071:
                ok &= (y0 >= 0) & (y1 <= h - 1)
            x0, x1 = np.clip(x0, 0, w - 1).astype(np.int64), np.clip(x1, 0, w - 1).astype(np.int64)
            y0, y1 = np.clip(y0, 0, h - 1).astype(np.int64), np.clip(y1, 0, h - 1).astype(np.int64)
            count = weak[y1 + 1, x1 + 1] - weak[y0, x1 + 1] - weak[y1 + 1, x0] + weak[y0, x0]
            sure[start:start + n] = ok & (count == 0)
        start += n
    return sure


def _shade(draws, tris, tri_draw, iw, V, lights, camera, ftri, b1, b2, fiw, *, pix, size, ss):
    """Linear RGB (n, 3) and alpha (n,) of fragments; ``pix`` are their samples in block order."""
    vt, w = _persp(tris, iw, ftri, b1, b2, fiw)
    N = np.concatenate([d.normals for d in draws]) if draws else np.zeros((0, 3), np.float32)
    R = V[:3, :3].astype(np.float32)
    # Normals to view space before interpolating (per vertex: fewer rows than fragments).
    n = _interp(N @ R.T, vt, w)
    n /= np.maximum(np.sqrt(np.einsum("ij,ij->i", n, n)), 1e-8)[:, None]
    # The direction to the eye of each fragment, from its pixel (no position interpolation needed).
    f = np.float32(1.0 / np.tan(np.radians(camera.fov_deg) / 2))
    K = ss * ss
    blk, k = pix // K, pix % K
    ey = ((blk // size) * ss + k // ss).astype(np.float32)
    ex = ((blk % size) * ss + k % ss).astype(np.float32)
    W = size * ss
    eye = np.empty((len(pix), 3), np.float32)
    eye[:, 0] = -((ex + 0.5) / W * 2 - 1) / f
    eye[:, 1] = ((ey + 0.5) / W * 2 - 1) / f
    eye[:, 2] = 1.0
    eye /= np.sqrt(np.einsum("ij,ij->i", eye, eye))[:, None]
    # Flip normals that face away (double-sided surfaces seen from behind), so back sides are lit too.
    back = np.einsum("ij,ij->i", n, eye) < 0
    double = np.array([d.material.double_sided for d in draws] or [False], bool)[tri_draw[ftri]]
    n[back & double] *= -1
    base, alpha, ao = _base_color(draws, tri_draw, ftri, vt, w)

    # World-fixed lights into view space, where the normals are.
    L = R @ _unit(lights.key_dir)
    F = R @ _unit(lights.fill_dir)
    Rm = R @ _unit(lights.rim_dir)
    up = R[:, 1]
    ndl_raw = n @ L
    ndl = np.maximum(ndl_raw, 0)
    ndf = np.maximum(n @ F, 0)
    ndr = np.maximum(n @ Rm, 0)
    amb = lights.ground + (lights.sky - lights.ground) * (0.5 + 0.5 * (n @ up))
    fd = tri_draw[ftri]
    if ao is not None:
        # Baked occlusion darkens the indirect light (ambient, fill, rim) fully, as glTF asks, and the
        # key by half: this renderer casts no shadows, so creases and armpits would glow otherwise.
        amb = amb * ao
        ndf = ndf * ao
        ndr = ndr * ao
        ndl = ndl * (0.5 + 0.5 * ao)
    # Per-channel light: the key is warm, the fill cool; written as (n, 1) x (3,) products.
    key_rgb = lights.key * np.asarray(lights.key_color, np.float32)
    light = amb[:, None] + ndl[:, None] * key_rgb
    skin = np.array([d.material.name.startswith("Skin") for d in draws] or [False], bool)[fd]
    if skin.any() and lights.skin_wrap > 0:
        # Wrapped diffuse past the terminator, tinted warm: light that entered the skin nearby.
        wrap = lights.skin_wrap
        extra = np.clip((ndl_raw[skin] + wrap) / (1 + wrap), 0, 1) - np.maximum(ndl_raw[skin], 0)
        if ao is not None:
            extra = extra * ao[skin]
        light[skin] += np.maximum(extra, 0)[:, None] * (key_rgb * np.asarray(lights.skin_scatter, np.float32))
    fill_rgb = np.broadcast_to(np.asarray(lights.fill_color, np.float32), (len(fd), 3)).copy()
    fill_rgb[skin] = 1.0     # a cool fill on warm skin reads as grey, most on dark skin
    light += ndf[:, None] * (lights.fill * fill_rgb)
    light += (lights.rim * ndr)[:, None]
    # A soft highlight of the key light, the same for every material, so surfaces read as curved.
    h = eye + L
    h /= np.sqrt(np.einsum("ij,ij->i", h, h))[:, None]
    # Its strength follows the material's roughness: cloth (0.85-0.9) keeps a trace of it,
    # skin (0.6) most, glossy shoes and lenses all, so dark trousers do not read as metal.
    gloss = np.array([min(1.0, max(0.15, 1.6 * (1.0 - d.material.roughness))) for d in draws] or [1.0], np.float32)
    spec = np.clip(np.einsum("ij,ij->i", n, h), 0, 1) ** 24 * (np.float32(0.12) * gloss[fd])
    if skin.any():
        # Skin's sheen is broad and faint: a full-strength white highlight greys dark skin.
        spec[skin] *= np.float32(0.5)
    if ao is not None:
        spec = spec * ao
    rgb = base * light
    rgb *= np.float32(lights.exposure)
    rgb += spec[:, None]
    if draws and any(d.material.emissive.any() for d in draws):
        rgb += np.stack([d.material.emissive for d in draws])[tri_draw[ftri]]
    return rgb, alpha
