"""Turning a posed scene and a camera into RGBA pixels: rasterizing, depth test, shading, anti-aliasing.

This module decides what is drawn and how; the loops over triangles, samples and fragments are
compiled (:mod:`workbench.render.loops`, numba), the rest is numpy over whole arrays.

1. Project every vertex (view space, then pixels of the supersampled grid);
   drop triangles behind the near plane, off screen, degenerate, or facing
   away (unless their material is double-sided).
2. Walk each triangle's rows: on each row the three edge half-planes cut the
   row's centre line into the covered span exactly; along the span two edge
   weights and 1/w are linear (``loops.raster``).
3. Depth test as the walk goes: a fragment whose 1/w is at least the sample's
   nearest so far takes the sample (so of equal depths the later triangle
   wins); the solid surfaces first.
4. Alpha-masked surfaces next: their fragments in front of the samples take
   the alpha test, the cut-out ones drop out (``loops.raster_masked``);
   blended surfaces go into a second set of samples, nearer than the opaque
   surface.
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
   Hair fills its shade so with the light its strands pass on, as much as
   its albedo (``Lights.hair_wrap``): light hair's far side is not black.
6. Blended materials (``alphaMode: BLEND``): two blended fragments in front
   of the opaque surface of each sample (clear texels dropped; of three, the
   faintest) are shaded and laid over it, the farther first.
7. Average each ``ss x ss`` block (premultiplied, in linear light), tone-map
   with Khronos PBR Neutral and convert to sRGB 8-bit, as three.js and
   model-viewer show a model (:mod:`workbench.options.colour`; laid over the
   backdrop in sRGB when there is one), and under the figure a soft contact
   shadow (:class:`GroundShadow`) where it stands.

Where the process has two cores, one frame uses both (:mod:`workbench.threads`): the shading's tables are
made beside the alpha tests' shortcuts and the blended layers; steps 2 to 4 draw the rows in two interleaved
sets of bands (each sample is one row's); steps 5 to 7 take the pixels in two interleaved sets of bands of
rows, each thread to its finished pixels. The same pixels as one thread gives (a test compares them).

Long on purpose: the seven steps share their arrays (samples, blocks, shading tables) and run in order
once per frame; split across modules they would only pass those arrays back and forth. The contact
shadow (:func:`ground_shadow`) is the one part that stands apart and could move out if it grows.

Alternatives measured (default feminine avatar, 31k triangles, 512 px portrait, 2x supersampling,
2-core machine):

- the numpy version of steps 2 to 7 (whole-array fragments, ``np.maximum.at``, shading arrays):
  0.32-0.40 s for a whole preview against 0.12-0.16 s compiled, the same pictures (20 of 262,144
  pixels one level apart, from float summation order); numpy's edge tests over bounding boxes were
  5-9x slower than its exact spans, a ``lexsort`` depth test 11-26x slower than ``maximum.at``;
- shading every covered sample instead of once per pixel and triangle: twice the shading;
- supersampling: 1x shows stair-stepped outlines, 2x and 3x look alike at 512 px (compared side by
  side: hair and jaw outlines), so 2x.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass

import numpy as np

from workbench import threads
from workbench.options.colour import LUMA, linear_to_srgb, srgb_to_linear

from .loops import (
    BAND,
    NO_LIMIT,
    NO_TEST,
    NO_TRI,
    PIXEL_BAND,
    Samples,
    add_skin_matrices,
    apply_skin,
    coverage,
    raster,
    resolve,
    rgb_texels,
    shade,
    tone_map,
)
from .scene import Material, Posed

# Below these a walk over triangles, and a picture's pixels once its samples are drawn, stay on one thread (a
# helper's start costs more than it saves): a 512 px portrait's hair cards are 1,000 to 6,000 triangles, its
# samples a million.
SPLIT_TRIANGLES = 1_000
SPLIT_SAMPLES = 200_000    # (a 512 px picture has 1 million samples)

# A blended fragment whose alpha is below this draws nothing: it is dropped, so it hides no blended
# surface behind it (a clear texel of a hair card over the scalp shell).
BLEND_CUTOFF = 0.5 / 255
# _opaque_triangles' blocks of texels.
BLOCK = 8

__all__ = ["Camera", "Lights", "GroundShadow", "ground_shadow", "draw", "warm_loops"]


@dataclass(frozen=True)
class Camera:
    """A perspective camera: ``view`` maps world to view space (looking down -Z), ``fov_deg`` is vertical."""

    view: np.ndarray
    fov_deg: float
    near: float = 0.01


@dataclass(frozen=True)
class Lights:
    """Directions point from the surface towards the light, in world space (glTF: x to the figure's
    left, y up, z towards its front), so the lights stay put when the camera orbits.

    The strengths and the exposure are calibrated on three.js's studio (``RoomEnvironment``, the one
    :mod:`workbench.options.colour` describes): over a portrait's skin the key, fill, rim, sky and the
    reflections together light a flat albedo as that studio does on average (1.42 times it, plus 0.032 of
    reflected light, :data:`~workbench.options.colour.STUDIO`'s means), so an avatar's skin shows the same tone
    in a preview as in three.js and model-viewer.

    Within that mean the rig is a portrait photographer's: a key from the front left above, a softer fill from
    the right, a rim from behind on the right that outlines the jaw, neck, ear and hair against the backdrop
    (with its own highlight along the contour, which is what a rim light gives skin), and of the reflected
    light most in the key's broad highlight on forehead, nose and cheekbones (``loops.shade``) rather than in an
    even veil: a deep tone, where reflection is half of what shows, keeps its shape (an even veil greyed it flat)
    and its face at the tone (tests/render/test_skin_light.py)."""

    key_dir: tuple = (-0.62, 0.48, 0.62)
    key: float = 2.6
    fill_dir: tuple = (0.75, 0.1, 0.45)
    fill: float = 0.5
    rim_dir: tuple = (0.6, 0.4, -0.7)
    rim: float = 1.0
    sky: float = 0.24
    ground: float = 0.16
    exposure: float = 0.71
    key_color: tuple = (1.0, 1.0, 1.0)
    fill_color: tuple = (0.9, 0.94, 1.0)
    # Skin: how far the key light wraps past the terminator (0: Lambert) and the warm colour there.
    skin_wrap: float = 0.4
    skin_scatter: tuple = (1.0, 0.8, 0.7)
    # The room's even reflection in every surface (times its specular factor), and more at grazing angles.
    sheen: float = 0.014
    sheen_grazing: float = 0.07
    # The rim light's highlight (times ``rim`` and the material's gloss).
    rim_sheen: float = 0.4
    # Hair (anisotropic materials named ``Hair...``: curls keep their depth between the coils) scatters the light it
    # takes in on through its strands, as much as they pass on (a fibre's albedo: a grey or blonde hair's inside is
    # lit by it, a black hair's stays dark): in its shade the key wrapped past the terminator by ``hair_wrap`` (as
    # the skin's, less the key's own share) and the ambient raised by ``hair_ambient`` of itself, both fading out as
    # the hair turns to the key (lit hair keeps its light, and its hairline its fade over the skin), in full from a
    # hair whose texture's mean albedo (linear luma) is ``hair_albedo`` and less as it is darker
    # (:func:`hair_scatter`). Lit by the ambient alone, the far side of a mid-grey hair and its under-layers seen
    # between the outer cards drew near black (blind review L's worst: 0.147 of #9's hair more than 25 L* below its
    # colour in the portrait at 3/4, 0.009 so; a black hair's mean as it was, tests/render/test_hair_underlayer_review_l.py).
    hair_wrap: float = 1.0
    hair_ambient: float = 1.0
    hair_albedo: float = 0.25
    # ...and curls' share of it (a hair material without anisotropy): without any, a white curl's far side and the
    # coils under the outer ones, lit by the ambient alone, drew dark grey and black blotches in the white (blind
    # review Q's #10: 0.033 of its hair's pixels 30 L* under their median, see tests/render/test_curls_light_review_q.py);
    # less than straight hair's, and times its own share again (white curls 0.6 of it, brown ones little), so the
    # coils keep the depth between them that reads as curls (with 0.6 of it flat, light brown curls over a deep
    # forehead drew 12.6 grey levels over the bald head, test_hair_volume_review_e's sheen, at most 12.5).
    curl_scatter: float = 0.6


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
    for a, b in zip(poly, np.roll(poly, -1, axis=0), strict=True):
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
    >>> from workbench.regeneration.product import build_product_glb
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

    tri_blend = blend_mat[tri_draw[ti]]
    tri_mask = mask_mat[tri_draw[ti]] & ~tri_blend

    # -- 2-4. rasterize and depth test (opaque and masked) ------------------------
    # Samples are numbered block by block (the ss x ss samples of one output pixel are
    # neighbours), so steps 5 and 7 work on plain (pixels, ss*ss) arrays, without gathers.
    K = ss * ss
    B = size * size
    cutoff = np.array([d.material.alpha_cutoff for d in draws] or [0.5], np.float32)
    # (Only the blended walk reads the blended materials' cutoffs.)
    cutoff[blend_mat] = BLEND_CUTOFF

    def sure(alpha_mat):
        """Per triangle: of ``alpha_mat``'s materials and whose whole texture footprint passes the alpha test."""
        return _opaque_triangles(draws, tris, tri_draw, alpha_mat, cutoff) if (alpha_mat[tri_draw[ti]]).any() else None

    def blended_layers():
        return (Samples.empty(B * K), Samples.empty(B * K)) if tri_blend.any() else (None, None)

    # The samples and the shading's tables here; beside them, which alpha-tested triangles need no test and the
    # blended surfaces' two layers (none of it depends on the rest: 20 to 30 ms of a 512 px portrait, halved).
    (near, tables), (mask_sure, blend_sure, (glass, glass2)) = threads.beside(
        lambda: (Samples.empty(B * K), _shading_tables(draws, V, lights, camera, size, ss)),
        lambda: (sure(mask_mat), sure(blend_mat), blended_layers()))
    texture_list = tables.pop("textures")   # (their Texture objects, by the tables' indices; shade takes the rest)
    tables["positions"] = pv.astype(np.float32)    # view space: normal maps' tangent frames
    # (Glass: a blended surface of one alpha, a lens; not hair's wisps, the brows' or the lashes' hairs, whose
    # alpha is their coverage: a browser scales their reflection by it, and a lens's whole reflection laid over a
    # brow's soft edge drew it pale grey, paler than in the browsers.)
    # (And the glasses alpha-tested, a sunglass lens that writes depth: workbench.gltf.avatar.)
    tables["mat_glass"] = np.array([d.material.glass for d in draws] or [False])
    tables["mat_spec"] = np.array([d.material.specular for d in draws] or [1.0], np.float32)
    tables["mat_spec_rgb"] = np.array([d.material.specular_color for d in draws] or [(1.0, 1.0, 1.0)], np.float32)
    # (Metal only through a metallic-roughness map, its blue times this: a metal glasses frame.)
    tables["mat_metal"] = np.array([d.material.metallic for d in draws] or [0.0], np.float32)
    alpha_read = ["uv", "colors", "mat_color", "mat_tex", "mat_vcol"]
    textures = ["texels", "tex_off", "tex_w", "tex_h", "tex_ws", "tex_wt", "tex_alpha"]
    no_blocks = (np.zeros(1, np.uint8), np.full(len(tables["tex_w"]), -1, np.int64))

    def walk(triangles, into: Samples, limit=NO_LIMIT, tested=NO_TEST, second: Samples | None = None,
             blocks=no_blocks):
        layer = (second.z, second.tri, second.b1, second.b2, into.a, second.a) if second is not None else (
            NO_LIMIT, NO_TRI, NO_LIMIT, NO_LIMIT, NO_LIMIT, NO_LIMIT)

        def rows(part: int, parts: int):
            # (each part its own scratch texel)
            return lambda: raster(triangles, tris, sx, sy, iw, W, H, ss, into.z, into.tri, into.b1, into.b2, limit,
                                  tested, tri_draw, *(tables[k] for k in alpha_read), cutoff,
                                  *(tables[k] for k in textures), *blocks, *layer, part, parts,
                                  np.empty(4, np.float32))

        if len(triangles) >= SPLIT_TRIANGLES and H > BAND:   # the rows in two interleaved halves, side by side
            threads.beside(rows(0, 2), rows(1, 2))
        else:
            rows(0, 1)()

    walk(ti[~tri_blend & ~tri_mask], near)
    if tri_mask.any():
        # The solid surfaces first; then the masked ones, whose fragments in front take the alpha test (those
        # behind lose the depth test whatever their alpha: half of a portrait's hair is behind the head).
        # Triangles whose whole texture footprint is opaque pass without a lookup (most of a hair card's
        # triangles: 85 % of a long-hair portrait's tested fragments), as do materials with no alpha to read.
        has_alpha = ((tables["mat_tex"] >= 0) & tables["tex_alpha"][np.maximum(tables["mat_tex"], 0)]
                     | np.array([_vertex_alpha(d) for d in draws] or [False]) | (tables["mat_color"][:, 3] < 1))
        tested = (mask_mat & has_alpha[:len(mask_mat)])[tri_draw] & ~mask_sure
        masked = ti[tri_mask]
        walk(_near_first(masked, depth, tris), near, tested=tested,
             blocks=_opaque_blocks(texture_list, np.unique(tables["mat_tex"][tri_draw[masked[tested[masked]]]])))
    # Blended surfaces: two blended fragments in front of the opaque surface (of three, the faintest dropped), per sample, clear
    # texels dropped (a hair's wisps over its scalp shell, a lens over them: each shows through the other).
    if tri_blend.any():
        readable = (tables["mat_tex"] >= 0) & tables["tex_alpha"][np.maximum(tables["mat_tex"], 0)]
        # (A lens has no clear texel: its fragments need no lookup to pass.)
        tested = (blend_mat & readable[:len(blend_mat)])[tri_draw] & ~blend_sure
        walk(_near_first(ti[tri_blend], depth, tris), glass, limit=near.z, tested=tested, second=glass2)

    # -- 5-7. shade once per output pixel and triangle (as multisampling does), lay the blended surfaces over,
    # resolve the supersampling, lay the pixels over the backdrop -------------------------------------------
    # Only blocks some opaque or blended fragment reaches are worked on from here: the others stay empty (the
    # backdrop, or transparent), and a figure covers a fifth of a full frame. Each pixel is its own from here
    # on: a large picture's pixels go to two threads in interleaved bands of rows, each to its end.
    out: np.ndarray = np.empty((B, 4), np.uint8)
    under = _shadow_alpha(shadow, camera, size) if shadow is not None else None
    bg = None
    if background is not None:
        # Laid over the backdrop in sRGB, as a browser would lay the transparent PNG over it:
        # the backdrop's own pixels come out exactly as given (but where the shadow darkens them).
        bg = np.broadcast_to(np.asarray(background, np.float32), (B, 3))
        if under is not None:
            bg = bg * (1 - under[:, None])
        out[:, :3] = np.round(bg).astype(np.uint8)
        out[:, 3] = 255
    else:
        out[:] = 0
        if under is not None:
            out[:, 3] = np.round(under * 255).astype(np.uint8)
    glass_tris = (glass.tri if glass is not None else NO_TRI, glass2.tri if glass2 is not None else NO_TRI)

    def pixels(part: int, parts: int):
        def run():
            active, slot, here, gslot, ghere, g2slot, g2here = coverage(near.tri, *glass_tris, K, size, part, parts)
            rgb = _shade(tables, tris, tri_draw, iw, near, here)[0]
            # the blended surfaces, the nearest laid over the next, both over the opaque one
            glassy = [_shade(tables, tris, tri_draw, iw, g, at) if g is not None
                      else (np.zeros((0, 3), np.float32), np.zeros(0, np.float32))
                      for g, at in ((glass, ghere), (glass2, g2here))]
            img = resolve(slot, rgb, gslot, *glassy[0], g2slot, *glassy[1])
            alpha = np.clip(img[:, 3:4], 0, 1)
            srgb = _to_srgb8(img[:, :3] / np.maximum(alpha, 1e-6)).astype(np.float32)
            if bg is not None:
                out[active, :3] = np.round(srgb * alpha + bg[active] * (1 - alpha)).astype(np.uint8)
            elif under is not None:
                # The figure over the black shadow: premultiplied colour over the combined alpha.
                a_all = alpha[:, 0] + under[active] * (1 - alpha[:, 0])
                out[active, :3] = np.round(srgb * (alpha / np.maximum(a_all, 1e-6)[:, None])).astype(np.uint8)
                out[active, 3] = np.round(a_all * 255).astype(np.uint8)
            else:
                out[active, :3] = srgb.astype(np.uint8)
                out[active, 3] = np.round(alpha[:, 0] * 255).astype(np.uint8)
        return run

    if B * K >= SPLIT_SAMPLES and size > PIXEL_BAND:
        threads.beside(pixels(0, 2), pixels(1, 2))
    else:
        pixels(0, 1)()
    out = out.reshape(size, size, 4)
    return out


_warm = threading.Lock()
_warmed = False


def warm_loops() -> None:
    """Load the compiled loops into this process by drawing a tiny scene that takes every path of
    :func:`draw` (an opaque, an alpha-tested and a blended material, each textured). The first draw
    of a process otherwise pays it: 0.2 s to set up numba's code generation and load the loops from
    its cache (0.5 s to compile them where no cache is). ``workbench.render.warm_up`` calls it (a
    service's start, in the background, so its first preview does not wait for it). Later calls return at once.

    >>> warm_loops()
    """
    global _warmed
    with _warm:
        if _warmed:
            return
        from .scene import Draw, Texture

        texels = np.full(4, 0x80FFFFFF, np.uint32)  # 2 x 2, half transparent
        tris = np.array([[0, 1, 2]], np.int32)
        pos = np.array([[-1, -1, -3], [1, -1, -3], [0, 1, -3]], np.float32)
        uv = np.array([[0, 0], [1, 0], [0, 1]], np.float32)
        normals = np.tile(np.array([0, 0, 1], np.float32), (3, 1))
        draws: list[Draw] = []
        for mode in ("OPAQUE", "MASK", "BLEND"):
            tex = Texture(texels, 2, 2, True)
            m = Material(color=np.ones(4, np.float32), texture=tex, alpha_mode=mode, occlusion=tex, name="Skin")
            draws.append(Draw(pos + np.float32(len(draws) * 0.1), normals, uv, None, tris, m))
        draw(Posed(draws=draws, joints={}, joint_names=set()), Camera(np.eye(4), 40.0), 8)
        acc = np.zeros((1, 3, 4))                    # skinning, as Model.posed calls it
        add_skin_matrices(acc, np.zeros((1, 4), np.int64), np.ones((1, 4)), np.eye(4)[None])
        apply_skin(acc, np.zeros((1, 3)), True)
        pixels = np.zeros((1, 1, 3), np.uint8)      # a texture handed over as RGB pixels, made here or kept
        rgb_texels(pixels, np.empty(1, np.uint32))
        pixels.setflags(write=False)
        rgb_texels(pixels, np.empty(1, np.uint32))
        _warmed = True


# The sRGB curve (workbench.options.colour, the project's one colour pipeline) as tables: out of the tone
# map in steps of 1/65536, and into linear light in 1/16 steps of an 8-bit level (colours are filtered in sRGB).
_LINEAR_TO_SRGB8 = np.round(255 * linear_to_srgb(np.arange(65537) / 65536)).astype(np.uint8)
_SRGB16_TO_LINEAR = srgb_to_linear(np.arange(256 * 16 + 1) / (256 * 16)).astype(np.float32)


def _to_srgb8(lin: np.ndarray) -> np.ndarray:
    """Linear light (n, 3) to 8-bit sRGB through Khronos PBR Neutral tone mapping, as three.js and model-viewer show it."""
    return tone_map(np.ascontiguousarray(lin, np.float32), _LINEAR_TO_SRGB8)


def _opaque_triangles(draws, tris, tri_draw, mask_mat, cutoffs=None) -> np.ndarray:
    """Per triangle (of all draws): True where the alpha test of a material of ``mask_mat`` (at its
    cutoff, or ``cutoffs`` per draw) passes wherever the triangle is sampled, because every texel its
    bilinear footprint can read (the box around its texture coordinates, one texel wider each side
    than the filter reaches for rounding's sake) is opaque enough. Exact: such fragments' filtered
    alpha is a weighted mean of those texels. Only for materials whose alpha is the texture's alone
    (alpha factor 1, no vertex colours).

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
        if (mask_mat[k] and tex is not None and tex.has_alpha and d.uv is not None and not _vertex_alpha(d)
                and m.color[3] == 1.0):
            h, w = tex.height, tex.width
            alpha = tex.texels.view(np.uint8).reshape(h, w, 4)[..., 3]
            cut = m.alpha_cutoff if cutoffs is None else float(cutoffs[k])
            fails = alpha < np.ceil((cut + 1e-3) * 255)
            # Texels that might fail the test, counted over any box by a summed-area table; over blocks
            # of BLOCK x BLOCK texels (a block counts if any of its texels might), which only makes the
            # answer more cautious: a 1024 px hair atlas's table cost more than the walk it saved.
            b = BLOCK if h % BLOCK == 0 and w % BLOCK == 0 else 1
            if b > 1:
                fails = fails.reshape(h // b, b, w // b, b).any(axis=(1, 3))
            weak = np.zeros((h // b + 1, w // b + 1), np.int32)
            weak[1:, 1:] = np.cumsum(np.cumsum(fails, axis=0, dtype=np.int32), axis=1, dtype=np.int32)
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
            x0, x1 = np.clip(x0, 0, w - 1).astype(np.int64) // b, np.clip(x1, 0, w - 1).astype(np.int64) // b
            y0, y1 = np.clip(y0, 0, h - 1).astype(np.int64) // b, np.clip(y1, 0, h - 1).astype(np.int64) // b
            count = weak[y1 + 1, x1 + 1] - weak[y0, x1 + 1] - weak[y1 + 1, x0] + weak[y0, x0]
            sure[start:start + n] = ok & (count == 0)
        start += n
    return sure


def _opaque_blocks(textures: list, which: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The textures ``which`` (indices into ``textures``; -1: none)'s least alphas by block
    (:meth:`~workbench.render.scene.Texture.least_alphas`), one array, and each texture's offset into it (-1: not
    made), as :func:`~workbench.render.loops.raster` reads them."""
    off = np.full(max(len(textures), 1), -1, np.int64)
    parts, at = [np.zeros(1, np.uint8)], 1
    for x in which[which >= 0]:
        if not textures[x].has_alpha:
            continue
        parts.append(textures[x].least_alphas())
        off[x] = at
        at += len(parts[-1])
    return np.concatenate(parts), off


def _vertex_alpha(d) -> bool:
    """Whether a draw's vertex colours take anything from its alpha (an alpha below 1 somewhere): vertex colours
    that only shade (the hair's depth darkening) leave its alpha the texture's, and its shortcuts stand."""
    return d.colors is not None and d.colors.shape[1] == 4 and bool((d.colors[:, 3] < 1).any())


def _shading_tables(draws, V, lights, camera, size, ss) -> dict:
    """What :func:`workbench.render.loops.shade` reads besides the fragments, made once per frame."""
    R = V[:3, :3].astype(np.float32)
    nv = sum(len(d.positions) for d in draws)
    normals = (np.concatenate([d.normals for d in draws]) @ R.T).astype(np.float32) if draws else np.zeros((0, 3), np.float32)
    uv = np.zeros((nv, 2), np.float32)
    colors = np.ones((nv, 4), np.float32)
    textures: list = []

    def texture(tex) -> int:
        for i, t in enumerate(textures):
            if t is tex:
                return i
        textures.append(tex)
        return len(textures) - 1

    D = max(len(draws), 1)
    mat_color = np.zeros((D, 4), np.float32)
    mat_tex = np.full(D, -1, np.int32)
    mat_occ = np.full(D, -1, np.int32)
    mat_occ_strength = np.zeros(D, np.float32)
    mat_nrm = np.full(D, -1, np.int32)           # normal map, and its scale
    mat_nrm_scale = np.ones(D, np.float32)
    mat_mr = np.full(D, -1, np.int32)            # metallic-roughness map, and the roughness factor it scales
    mat_rough = np.ones(D, np.float32)
    mat_spec_tex = np.full(D, -1, np.int32)      # specular map (its alpha: a lens's reflection's strength)
    mat_double = np.zeros(D, np.bool_)
    mat_skin = np.zeros(D, np.uint8)             # 1 skin, 2 the Teeth (their cave lit as the lining: loops.LINED_UP)
    mat_vcol = np.zeros(D, np.bool_)
    # The highlight's strength follows the material's roughness: cloth (0.85-0.9) keeps a trace of it,
    # skin (0.6) most, glossy shoes and lenses all, so dark trousers do not read as metal.
    mat_gloss = np.ones(D, np.float32)
    mat_emissive = np.zeros((D, 3), np.float32)
    mat_aniso = np.zeros(D, np.float32)
    mat_scatter = np.zeros(D, np.float32)
    start = 0
    for k, d in enumerate(draws):
        m: Material = d.material
        end = start + len(d.positions)
        mat_color[k] = m.color
        if d.uv is not None:
            uv[start:end] = d.uv
            if m.texture is not None:
                mat_tex[k] = texture(m.texture)
            # Occlusion on another texture coordinate set than the colour's is not drawn (this renderer reads one set).
            if m.occlusion is not None and m.occlusion_texcoord == m.texcoord:
                mat_occ[k] = texture(m.occlusion)
                mat_occ_strength[k] = m.occlusion_strength
            if m.normal is not None and m.normal_texcoord == m.texcoord:
                mat_nrm[k] = texture(m.normal)
                mat_nrm_scale[k] = m.normal_scale
            if m.metal_rough is not None and m.metal_rough_texcoord == m.texcoord:
                mat_mr[k] = texture(m.metal_rough)
            if m.specular_texture is not None and m.specular_texcoord == m.texcoord:
                mat_spec_tex[k] = texture(m.specular_texture)
        if d.colors is not None:
            colors[start:end] = d.colors
            mat_vcol[k] = True
        mat_double[k] = m.double_sided
        mat_skin[k] = 1 if m.name.startswith("Skin") else 2 if m.name == "Teeth" else 0
        mat_gloss[k] = min(1.0, max(0.15, 1.6 * (1.0 - m.roughness))) * m.specular
        mat_rough[k] = m.roughness
        mat_emissive[k] = m.emissive
        mat_aniso[k] = m.anisotropy if d.uv is not None else 0.0
        if m.name.startswith("Hair"):     # (curls, without anisotropy, less, and the less the darker: see curl_scatter)
            through = hair_scatter(m, lights)
            mat_scatter[k] = through * (1.0 if mat_aniso[k] > 0 else lights.curl_scatter * through)
        start = end
    # Every texture's texels in one array (a typed list of arrays cost its first call 0.4 s of compiling): the
    # model's own buffer where they all share one (workbench.render.scene.Texture), else a copy of them all.
    sizes = [t.texels.size for t in textures]
    if textures and textures[0].base is not None and all(t.base is textures[0].base for t in textures):
        texels = textures[0].base
        tex_off = np.array([t.offset for t in textures], np.int64)
    else:
        texels = np.concatenate([t.texels.ravel() for t in textures]) if textures else np.zeros(1, np.uint32)
        tex_off = np.cumsum([0] + sizes[:-1]).astype(np.int64) if textures else np.zeros(1, np.int64)
    # One row per field, so each is a contiguous array whatever the count of textures: a column of a table of two or
    # more rows is strided ('A' to numba) and of one row contiguous ('C'), and each layout was a compiled raster and
    # shade of its own (speed38: a fresh clone's first untextured draw compiled both again, 19 s of CPU).
    dims = np.ascontiguousarray(np.array([[t.width, t.height, t.wrap_s, t.wrap_t, t.has_alpha] for t in textures]
                                         or [[1, 1, 0, 0, 0]], np.int32).T)
    # World-fixed lights into view space, where the normals are.
    dirs = np.stack([R @ _unit(lights.key_dir), R @ _unit(lights.fill_dir), R @ _unit(lights.rim_dir), R[:, 1]])
    rgb = np.stack([lights.key * np.asarray(lights.key_color, np.float32), np.asarray(lights.fill_color, np.float32),
                    np.asarray(lights.skin_scatter, np.float32)])
    scalars = np.array([lights.fill, lights.rim, lights.sky, lights.ground, lights.exposure, lights.skin_wrap,
                        lights.sheen, lights.sheen_grazing, lights.rim_sheen, lights.hair_wrap, lights.hair_ambient],
                       np.float32)
    return dict(textures=textures, normals=normals, aniso_dirs=_anisotropy_directions(draws, mat_aniso, R, nv), mat_aniso=mat_aniso,
                uv=uv, colors=colors, mat_color=mat_color, mat_tex=mat_tex, mat_occ=mat_occ,
                mat_occ_strength=mat_occ_strength, mat_nrm=mat_nrm, mat_nrm_scale=mat_nrm_scale, mat_mr=mat_mr,
                mat_spec_tex=mat_spec_tex, mat_rough=mat_rough, mat_double=mat_double, mat_skin=mat_skin, mat_gloss=mat_gloss,
                mat_emissive=mat_emissive, mat_vcol=mat_vcol, mat_scatter=mat_scatter, texels=texels, tex_off=tex_off, tex_w=dims[0], tex_h=dims[1],
                tex_ws=dims[2], tex_wt=dims[3], tex_alpha=dims[4].astype(np.bool_),
                srgb16=_SRGB16_TO_LINEAR, light_dirs=dirs.astype(np.float32), light_rgb=rgb.astype(np.float32),
                light_scalars=scalars, f=np.float32(1.0 / np.tan(np.radians(camera.fov_deg) / 2)), size=size, ss=ss)


def hair_scatter(m: Material, lights: Lights = Lights()) -> float:
    """How much of :class:`Lights`' hair scatter a hair material ``m`` gets, 0 to 1: its albedo (the linear luma of
    its base colour times its texture's mean opaque texel) over ``lights.hair_albedo``, at most 1.

    >>> from workbench.render.scene import Texture
    >>> grey = Texture(np.full(4, 0xFF8B8986, np.uint32), 2, 2, True)    # opaque #86898B (A, B, G, R)
    >>> black = Texture(np.full(4, 0xFF1A1A1A, np.uint32), 2, 2, True)
    >>> [round(hair_scatter(Material(np.ones(4, np.float32), t)), 2) for t in (grey, black)]
    [0.98, 0.04]
    """
    albedo = 1.0
    if m.texture is not None:   # (every 17th texel: a 1024 px atlas's mean in a millisecond, its columns all met)
        rgba = np.ascontiguousarray(m.texture.texels[::17]).view(np.uint8).reshape(-1, 4)
        opaque = rgba[rgba[:, 3] >= 128, :3] if m.texture.has_alpha else rgba[:, :3]
        lin = _SRGB16_TO_LINEAR[opaque.astype(np.int64) * 16] if len(opaque) else np.zeros((1, 3), np.float32)
        albedo = float(lin.astype(np.float64).mean(0) @ LUMA)
    albedo *= float(np.asarray(m.color[:3], np.float64) @ LUMA)
    return min(albedo / lights.hair_albedo, 1.0)


def _near_first(ti: np.ndarray, depth: np.ndarray, tris: np.ndarray) -> np.ndarray:
    """Triangles ``ti`` nearest first (by their nearest corner; ties in their order), so that of layered
    alpha-tested or blended surfaces (hair's cards) the nearer are drawn first and the fragments behind
    them fail the depth test before any texture is read. What wins a sample is the same in any order,
    but for equal depths."""
    return ti[np.argsort(depth[tris[ti]].min(1), kind="stable")]


def _anisotropy_directions(draws, mat_aniso, R, nv) -> np.ndarray:
    """Per vertex (all draws), in view space: the direction ``KHR_materials_anisotropy`` stretches the
    roughness along, for materials that have it (zero elsewhere): the draw's TANGENT where it has one,
    else the texture's u direction on the surface (from each triangle's UV derivatives, summed at its
    corners, as a viewer derives tangents without a TANGENT attribute); turned by the material's rotation
    about the normal.

    >>> from workbench.render.scene import Draw, Material
    >>> m = Material(color=np.ones(4, np.float32), anisotropy=1.0)
    >>> d = Draw(np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0]], np.float32), np.tile([0, 0, 1.0], (3, 1)).astype(np.float32),
    ...          np.array([[0, 0], [1, 0], [0, 1]], np.float32), None, np.array([[0, 1, 2]], np.int32), m)
    >>> _anisotropy_directions([d], np.ones(1, np.float32), np.eye(3, dtype=np.float32), 3)[0].tolist()
    [1.0, 0.0, 0.0]
    """
    out = np.zeros((nv, 3), np.float32)
    start = 0
    for k, d in enumerate(draws):
        n = len(d.positions)
        if mat_aniso[k] > 0 and d.tangents is not None:
            acc = d.tangents.astype(np.float64)
        elif mat_aniso[k] > 0:
            p, uv, t = d.positions.astype(np.float64), d.uv.astype(np.float64), d.tris
            e1, e2 = p[t[:, 1]] - p[t[:, 0]], p[t[:, 2]] - p[t[:, 0]]
            du1, du2 = uv[t[:, 1], 0] - uv[t[:, 0], 0], uv[t[:, 2], 0] - uv[t[:, 0], 0]
            dv1, dv2 = uv[t[:, 1], 1] - uv[t[:, 0], 1], uv[t[:, 2], 1] - uv[t[:, 0], 1]
            det = du1 * dv2 - du2 * dv1
            tan = (e1 * dv2[:, None] - e2 * dv1[:, None]) * np.where(np.abs(det) > 1e-12, np.sign(det), 0)[:, None]
            tan /= np.maximum(np.linalg.norm(tan, axis=1, keepdims=True), 1e-12)
            acc = np.zeros((n, 3))
            for c in range(3):
                np.add.at(acc, t[:, c], tan)
        if mat_aniso[k] > 0:
            nrm = d.normals.astype(np.float64)
            acc -= nrm * np.sum(acc * nrm, axis=1, keepdims=True)
            acc /= np.maximum(np.linalg.norm(acc, axis=1, keepdims=True), 1e-12)
            rot = d.material.anisotropy_rotation
            if rot:
                acc = np.cos(rot) * acc + np.sin(rot) * np.cross(nrm, acc)
            out[start:start + n] = acc @ R.T
        start += n
    return out


def _shade(tables: dict, tris, tri_draw, iw, samples: Samples, at: np.ndarray):
    """Linear RGB (n, 3) and alpha (n,) of the fragments ``samples`` hold at ``at`` (their numbers in block order).
    Perspective-correct barycentrics, interpolated normals, bilinear texture lookups in linear light, three lights
    fixed to the world (not the camera, so a figure turned in the viewer shows its other side in shadow); see the
    module text, step 5."""
    rgb, alpha = np.empty((len(at), 3), np.float32), np.empty(len(at), np.float32)
    shade(samples.tri[at], samples.b1[at], samples.b2[at], samples.z[at], np.ascontiguousarray(at, np.int64),
          tris, iw, tri_draw, **tables, rgb=rgb, alpha=alpha, texel=np.empty(4, np.float32), red=np.empty(1, np.float32))
    return rgb, alpha
