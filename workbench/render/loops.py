"""The rasterizer's inner loops, compiled with numba: triangles to covered samples and the depth test.

:mod:`workbench.render.raster` decides what is drawn and how it is shaded; these loops walk each
triangle's rows and samples, which numpy could only do by materializing every fragment first
(0.9 to 1.7 million of them for a 512 px portrait; building, sorting and testing them was two
thirds of a preview's draw, bench/RESULTS.md). Compiled once per install and kept on disk
(``cache=True``, in the package's ``__pycache__`` or numba's cache folder when that is read-only).

The walk is the one numpy's version made, in the same arithmetic: each edge k (opposite vertex k)
gives the barycentric ``b_k = a_k x + b_k y + c_k``; on a row the three half-planes cut the row's
centre line into the covered span exactly; along the row the two weights and 1/w are
``a x + s`` in float32. Samples are numbered block by block (the ``ss x ss`` samples of one
output pixel are neighbours). A fragment wins its sample when its 1/w is at least the nearest so
far (so of equal depths the later triangle wins, as the order of the triangles is the draw order).

Two samples per pixel side: pixel 0 covered by triangle 7 in three of its samples, pixel 1 by
nothing; the first sample of pixel 0 is shaded and stands for the other two:

>>> import numpy as np
>>> active, slot, shade_at, *_ = coverage(np.array([7, 7, -1, 7, -1, -1, -1, -1], np.int32), NO_TRI, NO_TRI, 4, 2, 0, 1)
>>> active.tolist(), slot.tolist(), shade_at.tolist()
([0], [[0, 0, -1, 0]], [0])
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from numba import njit

__all__ = ["Samples", "raster", "opaque_blocks", "shade", "coverage", "resolve", "NO_LIMIT", "NO_TEST", "NO_TRI"]

#: numba's option for a loop compiled without its reference counts (:func:`_raster`, :func:`_shade`: they allocate
#: nothing, their callers hand them their arrays; numba's private ``_nrt`` flag, the workaround its maintainers give in
#: numba issue #2350 for counts it cannot prune).
UNCOUNTED: dict[str, Any] = {"_nrt": False}

#: ``raster``'s ``limit`` and ``tested``, and ``coverage``'s ``glass``, when there is none (``NO_LIMIT`` also
#: stands for ``raster``'s empty second layer)
NO_LIMIT = np.zeros(0, np.float32)
NO_TEST = np.zeros(0, np.bool_)
NO_TRI = np.zeros(0, np.int32)
#: ``resolve`` lays blended surfaces over in display values, about linear light to this power's inverse (sRGB's).
BLEND_GAMMA = 2.2
#: The key light (and the skin's warm wrap of it) fades out as the baked occlusion falls from CAVE_LIT to CAVE_DARK:
#: only the inside of a mouth is occluded that deeply (workbench.body.ao: its lining at 0.4 of the light and less),
#: and no shadow of the lips reaches it otherwise.
CAVE_DARK, CAVE_LIT = np.float32(0.3), np.float32(0.7)
#: ... on the skin from CAVE_LIT_SKIN: its occlusion holds the face's hollows too, down to 0.62 (workbench.body.ao's
#: HOLLOW_DARK), skin in shade, not a cave (from 0.7, a socket's key light greyed and faded: a grey ring round the eyes).
CAVE_LIT_SKIN = np.float32(0.62)
#: How much of its colour's saturation the deepest of a mouth loses (to the bounced light's grey).
CAVE_GREY = np.float32(0.9)
#: The Teeth material's walls (workbench.body.teeth_walls: the back teeth's outer faces and the rows' inner faces,
#: their normals turned straight out of the mouth as the lining's are) take, as far as they lie in the cave, the
#: lining's light: the key as its greyer bounce (CAVE_GREY) and the skin's highlight and room sheen, which the cave does
#: not take off the lining. Lit at their own red alone, with their reflections taken off, the tone curve's toe (which
#: takes off the least channel) drew them a pure red, about (47, 6, 3) of 255 beside the lining's (45, 21, 14): "hard-
#: edged red polygons on the cheek walls" in aa (blind review V, tests/render/test_mouth_walls_review_v.py). A surface
#: facing up (the tongue's top, into the key) keeps its own light, as far as its normal's up share reaches LINED_UP:
#: with the lining's, the tongue's back drew a lit grey band over its pink front (tests/render/test_tongue_review_p.py).
LINED_UP = np.float32(0.5)
# A lens's mirror of the studio (:func:`_lens_mirror`): the room's floor and ceiling, the reflected ray's heights
# (its up component) over which it grades from one to the other, and the key's and the fill's soft boxes.
LENS_GROUND = np.float32(0.05)
LENS_SKY = np.float32(6.0)
LENS_FLOOR = np.float32(-0.1)
LENS_CEILING = np.float32(0.7)
LENS_BOXES = np.array([8.0, 3.0], np.float32)
# A metal's mirror of the studio (:func:`_metal_mirror`): its floor, walls and ceiling (times the metal's base colour,
# its Fresnel face on), the reflected ray's heights over which the floor grades to the walls, and the key's, fill's
# and rim's panels.
METAL_ROOM = np.array([0.25, 1.2, 1.8], np.float32)
METAL_FLOOR_AT = np.float32(-0.15)
METAL_CEILING_AT = np.float32(0.25)
METAL_PANELS = np.array([6.0, 3.0, 3.0], np.float32)
#: The side, in texels, of the blocks :func:`opaque_blocks` keeps each one's least alpha for.
SURE_BLOCK = 2


@dataclass
class Samples:
    """Per sample (block order): the nearest 1/w so far, its triangle (-1: none), two barycentrics and the
    fragment's alpha where it was read (-1: not read; :func:`raster` reads it at most once a fragment)."""

    z: np.ndarray
    tri: np.ndarray
    b1: np.ndarray
    b2: np.ndarray
    a: np.ndarray

    @classmethod
    def empty(cls, n: int) -> Samples:
        return cls(np.zeros(n, np.float32), np.full(n, -1, np.int32), np.zeros(n, np.float32), np.zeros(n, np.float32),
                   np.full(n, -1, np.float32))


@njit(cache=True, nogil=True, inline="always")
def _setup(t, tris, sx, sy, iw, H):
    """Edge coefficients (a, b, c per edge), the 1/w plane and the rows of triangle ``t``."""
    i0, i1, i2 = tris[t, 0], tris[t, 1], tris[t, 2]
    X = (np.float64(sx[i0]), np.float64(sx[i1]), np.float64(sx[i2]))
    Y = (np.float64(sy[i0]), np.float64(sy[i1]), np.float64(sy[i2]))
    # the doubled area as float32, as the projection computed it
    A2 = np.float64((sx[i1] - sx[i0]) * (sy[i2] - sy[i0]) - (sx[i2] - sx[i0]) * (sy[i1] - sy[i0]))
    # edge k is opposite vertex k: from vertex (k+1)%3 to (k+2)%3
    a0 = -(Y[2] - Y[1]) / A2
    a1 = -(Y[0] - Y[2]) / A2
    a2 = -(Y[1] - Y[0]) / A2
    e0 = (X[2] - X[1]) / A2
    e1 = (X[0] - X[2]) / A2
    e2 = (X[1] - X[0]) / A2
    c0 = -(e0 * Y[1] + a0 * X[1])
    c1 = -(e1 * Y[2] + a1 * X[2])
    c2 = -(e2 * Y[0] + a2 * X[0])
    w0, w1, w2 = np.float64(iw[i0]), np.float64(iw[i1]), np.float64(iw[i2])
    pa = a0 * w0 + a1 * w1 + a2 * w2
    pb = e0 * w0 + e1 * w1 + e2 * w2
    pc = c0 * w0 + c1 * w1 + c2 * w2
    ylo = max(np.ceil(min(Y[0], Y[1], Y[2]) - 0.5), 0.0)
    yhi = min(np.floor(max(Y[0], Y[1], Y[2]) - 0.5), H - 1.0)
    return a0, a1, a2, e0, e1, e2, c0, c1, c2, pa, pb, pc, int(ylo), int(yhi)


@njit(cache=True, nogil=True, inline="always")
def _span(cy, a0, a1, a2, e0, e1, e2, c0, c1, c2, W):
    """The covered samples [lo, hi] of the row at ``cy`` (hi < lo: none) and the row's s1, s2."""
    eps = 1e-9
    xl, xr, ok = -np.inf, np.inf, True
    s0 = e0 * cy + c0
    s1 = e1 * cy + c1
    s2 = e2 * cy + c2
    for a, s in ((a0, s0), (a1, s1), (a2, s2)):
        if a > eps:
            xl = max(xl, -s / a)
        elif a < -eps:
            xr = min(xr, -s / a)
        elif s < -1e-7:
            ok = False
    lo = max(np.ceil(xl - 0.5 - 1e-7), 0.0)
    hi = min(np.floor(xr - 0.5 + 1e-7), W - 1.0)
    if not ok or hi < lo:
        return 0, -1, s1, s2
    return int(lo), int(hi), s1, s2


@njit(cache=True, nogil=True, inline="always")
def _sample(x, y, ss, size, sh):
    """The sample number of sample column x, row y in block order; ``sh``: log2(ss) when ss is a power of
    two (shifts and masks instead of divisions), else -1."""
    if sh >= 0:
        m = ss - 1
        return ((((y >> sh) * size + (x >> sh)) << (2 * sh)) + ((y & m) << sh) + (x & m))
    return ((y // ss) * size + x // ss) * (ss * ss) + (y % ss) * ss + x % ss


@njit(cache=True, nogil=True, inline="always")
def _log2(ss):
    sh = 0
    while (1 << sh) < ss:
        sh += 1
    return sh if (1 << sh) == ss else -1


# Rows per band when two threads share a picture's rows (a multiple of any supersampling, so a pixel's
# samples stay in one band, and wide enough that the two rarely write the same cache lines).
BAND = 32
# Rows of pixels per band when two threads share a picture's pixels once its samples are drawn (narrow, so
# both get as much of the figure's busiest part, a portrait's hair, and a row of pixels is 2 KB or more).
PIXEL_BAND = 8


# Compiled without numba's reference counts (:data:`UNCOUNTED`: it allocates nothing, its caller hands it the scratch
# ``texel``): the helpers inlined into its loop take the samples' and the textures' arrays, and numba counts a
# reference to each array at each inlined call where its branches keep it from pruning the counts (numba issue #2350,
# whose workaround this is): 13 arrays' atomic counts at every alpha-tested fragment made `_surely` 85 ns a call where
# its arithmetic takes 11 (a long-hair portrait's masked walk 93 -> 31 ms on one thread; bench/RESULTS.md "Pass 56").
@njit(cache=True, nogil=True, **UNCOUNTED)
def raster(ti, tris, sx, sy, iw, W, H, ss, z, tri, b1, b2, limit, tested, tri_draw, uv, colors, mat_color, mat_tex,
           mat_vcol, mat_cutoff, texels, tex_off, tex_w, tex_h, tex_ws, tex_wt, tex_alpha, sure, sure_off, z2, tri2,
           b1_2, b2_2, al, al2, part, parts, texel):
    """Draw the triangles ``ti`` (in order) into the samples: where a fragment's 1/w is at least the
    sample's ``z`` it takes the sample (z, tri, b1, b2).

    ``limit``: empty, or (blended surfaces) the opaque samples' z, which a fragment must be nearer than.
    ``tested``: empty, or per triangle whether its fragments take the alpha test (glTF's MASK; for
    blended surfaces, a cutoff that drops clear texels): such a fragment takes its sample only where
    its base colour's alpha (factor x texture x vertex colour, filtered as :func:`shade` filters it)
    reaches its material's cutoff. The rest of the arguments are what the test reads, as :func:`shade`
    takes them, and per texture the least alphas of its blocks (``sure`` from ``sure_off``, -1: none;
    :func:`opaque_blocks`), where a test on one layer passes without filtering the texture when its block's
    least alpha passes (the same answer: a bilinear lookup is a weighted mean of texels the block's least
    bounds), then a second layer (z2, tri2, b1_2, b2_2; empty: none): a fragment behind the first
    layer's takes an empty second, and one that takes the first passes what it held to it; where both are
    held, the faintest of the three fragments (by that alpha) is dropped and the other two kept in depth order.
    ``al``, ``al2``: the two layers' alphas where read (-1: not yet), so a held fragment's alpha is read once, not
    at every fragment behind it (reading both at each third fragment doubled a long-hair portrait's CPU).

    ``part`` of ``parts``: only the rows of bands of :data:`BAND` rows numbered ``part`` modulo ``parts``
    (two threads draw the two parts into the same samples: each sample is one row's, so they never meet,
    and each sample sees its fragments in the same order as one pass would give it). ``texel``: a scratch of 4
    float32.
    """
    bounded = limit.shape[0] > 0
    testing = tested.shape[0] > 0
    layered = z2.shape[0] > 0
    size = W // ss
    sh = _log2(ss)
    one = np.float32(1)
    for n in range(ti.shape[0]):
        t = ti[n]
        lookup = testing and tested[t]
        d = tri_draw[t]
        a0, a1, a2, e0, e1, e2, c0, c1, c2, pa, pb, pc, ylo, yhi = _setup(t, tris, sx, sy, iw, H)
        fa1, fa2, fpa = np.float32(a1), np.float32(a2), np.float32(pa)
        for y in range(ylo, yhi + 1):
            if parts > 1 and (y // BAND) % parts != part:
                continue
            cy = y + 0.5
            lo, hi, s1, s2 = _span(cy, a0, a1, a2, e0, e1, e2, c0, c1, c2, W)
            fs1, fs2, fps = np.float32(s1), np.float32(s2), np.float32(pb * cy + pc)
            for x in range(lo, hi + 1):
                cx = np.float32(x + 0.5)
                w = fpa * cx + fps
                p = _sample(x, y, ss, size, sh)
                if bounded and w <= limit[p]:
                    continue
                second = False
                third = False
                if w < z[p]:
                    if not layered:
                        continue
                    second = True
                third = layered and tri2[p] >= 0 and (second or tri[p] >= 0)
                fb1 = fa1 * cx + fs1
                fb2 = fa2 * cx + fs2
                a = one
                if lookup and (layered or not _surely(t, fb1, fb2, w, tris, iw, tri_draw, uv, colors, mat_color,
                                                      mat_tex, mat_vcol, tex_w, tex_h, tex_ws, tex_wt, sure, sure_off,
                                                      mat_cutoff[d])):
                    a = _alpha(t, fb1, fb2, w, tris, iw, tri_draw, uv, colors, mat_color, mat_tex, mat_vcol, texels,
                               tex_off, tex_w, tex_h, tex_ws, tex_wt, tex_alpha, texel)
                    if a < mat_cutoff[d]:
                        continue
                held = a if lookup else np.float32(-1)
                if third:
                    # A third blended fragment where two are held: the faintest of the three dropped (kept as the
                    # two nearest, a scalp's band dropped where two faint wisps crossed over it and the skin showed
                    # through in strand-shaped tan flecks along the hairline, blind review AA's #1), the other two
                    # kept in depth order.
                    near_a = al[p]
                    if near_a < 0:
                        near_a = _alpha(tri[p], b1[p], b2[p], z[p], tris, iw, tri_draw, uv, colors, mat_color, mat_tex,
                                        mat_vcol, texels, tex_off, tex_w, tex_h, tex_ws, tex_wt, tex_alpha, texel)
                        al[p] = near_a
                    far_a = al2[p]
                    if far_a < 0:
                        far_a = _alpha(tri2[p], b1_2[p], b2_2[p], z2[p], tris, iw, tri_draw, uv, colors, mat_color,
                                       mat_tex, mat_vcol, texels, tex_off, tex_w, tex_h, tex_ws, tex_wt, tex_alpha, texel)
                        al2[p] = far_a
                    if near_a >= one and far_a >= one:   # (no alpha is over 1: this one is the faintest, or tied)
                        continue
                    if not lookup:
                        a = _alpha(t, fb1, fb2, w, tris, iw, tri_draw, uv, colors, mat_color, mat_tex, mat_vcol,
                                   texels, tex_off, tex_w, tex_h, tex_ws, tex_wt, tex_alpha, texel)
                        held = a
                    if a <= near_a and a <= far_a:
                        continue
                    if far_a > near_a:   # (the nearest the faintest: the farthest moves up, the new one sorted against it)
                        z[p], tri[p], b1[p], b2[p], al[p] = z2[p], tri2[p], b1_2[p], b2_2[p], al2[p]
                        second = w < z[p]
                    elif not second:   # (the farthest the faintest, the new one nearest: the nearest moves back)
                        z2[p], tri2[p], b1_2[p], b2_2[p], al2[p] = z[p], tri[p], b1[p], b2[p], al[p]
                    # (...and the farthest the faintest, the new one behind the nearest: the farthest's place)
                    if second:
                        z2[p], tri2[p], b1_2[p], b2_2[p], al2[p] = w, t, fb1, fb2, held
                    else:
                        z[p], tri[p], b1[p], b2[p], al[p] = w, t, fb1, fb2, held
                    continue
                if second:
                    z2[p], tri2[p], b1_2[p], b2_2[p], al2[p] = w, t, fb1, fb2, held
                    continue
                if layered and tri[p] >= 0:
                    z2[p], tri2[p], b1_2[p], b2_2[p], al2[p] = z[p], tri[p], b1[p], b2[p], al[p]
                z[p] = w
                tri[p] = t
                b1[p] = fb1
                b2[p] = fb2
                if layered:
                    al[p] = held


@njit(cache=True, nogil=True, inline="always")
def _corners(t, fb1, fb2, w, tris, iw):
    """Triangle ``t``'s corners and their perspective-correct weights at barycentrics (``fb1``, ``fb2``) and 1/w ``w``
    (what the alpha test and the shading interpolate by)."""
    one = np.float32(1)
    v0, v1, v2 = tris[t, 0], tris[t, 1], tris[t, 2]
    inv = one / max(w, np.float32(1e-12))
    return v0, v1, v2, (one - fb1 - fb2) * iw[v0] * inv, fb1 * iw[v1] * inv, fb2 * iw[v2] * inv


@njit(cache=True, nogil=True, inline="always")
def _surely(t, fb1, fb2, w, tris, iw, tri_draw, uv, colors, mat_color, mat_tex, mat_vcol, tex_w, tex_h, tex_ws, tex_wt,
            sure, sure_off, cutoff):
    """Whether triangle ``t``'s fragment surely passes its alpha test without reading its texture: the least
    alpha of the texel block its bilinear lookup starts in (:func:`opaque_blocks`) times its factor and vertex
    alpha reaches ``cutoff`` with room for the filter's rounding. Its texture coordinates as :func:`_alpha` computes
    them, its first texel as :func:`_bilinear` finds it."""
    d = tri_draw[t]
    x_tex = mat_tex[d]
    if x_tex < 0 or sure_off[x_tex] < 0:
        return False
    v0, v1, v2, w0, w1, w2 = _corners(t, fb1, fb2, w, tris, iw)
    tu = uv[v0, 0] * w0 + uv[v1, 0] * w1 + uv[v2, 0] * w2
    tv = uv[v0, 1] * w0 + uv[v1, 1] * w1 + uv[v2, 1] * w2
    tw, th = tex_w[x_tex], tex_h[x_tex]
    x = np.float32(tu * np.float32(tw) - np.float32(0.5))
    y = np.float32(tv * np.float32(th) - np.float32(0.5))
    xa, ya = _wrap(int(np.floor(x)), tw, tex_ws[x_tex]), _wrap(int(np.floor(y)), th, tex_wt[x_tex])
    least = np.float32(sure[sure_off[x_tex] + (ya // SURE_BLOCK) * ((tw + SURE_BLOCK - 1) // SURE_BLOCK)
                            + xa // SURE_BLOCK])
    a = mat_color[d, 3] * (least - np.float32(0.01)) * np.float32(1 / 255)
    if mat_vcol[d]:
        a *= colors[v0, 3] * w0 + colors[v1, 3] * w1 + colors[v2, 3] * w2
    return a * np.float32(1 - 1e-5) >= cutoff


@njit(cache=True, nogil=True)
def _alpha(t, fb1, fb2, w, tris, iw, tri_draw, uv, colors, mat_color, mat_tex, mat_vcol, texels, tex_off, tex_w,
           tex_h, tex_ws, tex_wt, tex_alpha, texel):
    """The base colour's alpha of triangle ``t``'s fragment at barycentrics (``fb1``, ``fb2``) and 1/w ``w``
    (factor x texture x vertex colour, filtered as :func:`shade` filters it), as :func:`raster`'s test reads it."""
    d = tri_draw[t]
    v0, v1, v2, w0, w1, w2 = _corners(t, fb1, fb2, w, tris, iw)
    a = mat_color[d, 3]
    x_tex = mat_tex[d]
    if x_tex >= 0 and tex_alpha[x_tex]:
        tu = uv[v0, 0] * w0 + uv[v1, 0] * w1 + uv[v2, 0] * w2
        tv = uv[v0, 1] * w0 + uv[v1, 1] * w1 + uv[v2, 1] * w2
        _bilinear(texels, tex_off[x_tex], tex_w[x_tex], tex_h[x_tex], tex_ws[x_tex], tex_wt[x_tex], tu, tv, texel)
        a *= texel[3] * np.float32(1 / 255)
    if mat_vcol[d]:
        a *= colors[v0, 3] * w0 + colors[v1, 3] * w1 + colors[v2, 3] * w2
    return a


# -- shading ------------------------------------------------------------------------------------------

@njit(cache=True, nogil=True, inline="always")
def _wrap(i, n, mode):
    if mode == 33071:  # CLAMP_TO_EDGE
        return min(max(i, 0), n - 1)
    if mode == 33648:  # MIRRORED_REPEAT
        i = i % (2 * n)
        return 2 * n - 1 - i if i >= n else i
    return i % n


@njit(cache=True, nogil=True)
def _bilinear(texels, off, w, h, ws, wt, u, v, out):
    """The first ``len(out)`` bytes (R, G, B, A) of a texture's texels bilinearly filtered at (u, v), in 0..255
    (as stored), into ``out``."""
    x = np.float32(u * np.float32(w) - np.float32(0.5))
    y = np.float32(v * np.float32(h) - np.float32(0.5))
    x0, y0 = np.floor(x), np.floor(y)
    fu, fv = np.float32(x - x0), np.float32(y - y0)
    xa, xb = _wrap(int(x0), w, ws), _wrap(int(x0) + 1, w, ws)
    ya, yb = _wrap(int(y0), h, wt) * w, _wrap(int(y0) + 1, h, wt) * w
    ta, tb, tc, td = texels[off + ya + xa], texels[off + ya + xb], texels[off + yb + xa], texels[off + yb + xb]
    for c in range(out.shape[0]):  # the first len(out) channels
        s = 8 * c
        top = np.float32((ta >> s) & 255)
        top += (np.float32((tb >> s) & 255) - top) * fu
        bottom = np.float32((tc >> s) & 255)
        bottom += (np.float32((td >> s) & 255) - bottom) * fu
        out[c] = top + (bottom - top) * fv


@njit(cache=True, nogil=True, inline="always")
def _mapped_normal(nx, ny, nz, v0, v1, v2, positions, uv, texels, off, w, h, ws, wt, tu, tv, scale, texel):
    """The unit normal (nx, ny, nz) bent by a tangent-space normal map read at (tu, tv); the tangent frame is
    the triangle's (v0, v1, v2): dP/du and -dP/dv, made orthonormal about the normal."""
    one = np.float32(1)
    _bilinear(texels, off, w, h, ws, wt, tu, tv, texel)
    k = np.float32(2 / 255)
    mx, my, mz = (texel[0] * k - one) * scale, (texel[1] * k - one) * scale, texel[2] * k - one
    e1x, e1y, e1z = positions[v1, 0] - positions[v0, 0], positions[v1, 1] - positions[v0, 1], positions[v1, 2] - positions[v0, 2]
    e2x, e2y, e2z = positions[v2, 0] - positions[v0, 0], positions[v2, 1] - positions[v0, 1], positions[v2, 2] - positions[v0, 2]
    du1, dv1 = uv[v1, 0] - uv[v0, 0], uv[v1, 1] - uv[v0, 1]
    du2, dv2 = uv[v2, 0] - uv[v0, 0], uv[v2, 1] - uv[v0, 1]
    det = du1 * dv2 - du2 * dv1
    if abs(det) < np.float32(1e-12):
        return nx, ny, nz
    r = one / det
    tx, ty, tz = (e1x * dv2 - e2x * dv1) * r, (e1y * dv2 - e2y * dv1) * r, (e1z * dv2 - e2z * dv1) * r
    bx, by, bz = (e1x * du2 - e2x * du1) * r, (e1y * du2 - e2y * du1) * r, (e1z * du2 - e2z * du1) * r   # -dP/dv
    c = tx * nx + ty * ny + tz * nz
    tx, ty, tz = tx - c * nx, ty - c * ny, tz - c * nz
    lt = np.sqrt(tx * tx + ty * ty + tz * tz)
    if lt < np.float32(1e-20):
        return nx, ny, nz
    tx, ty, tz = tx / lt, ty / lt, tz / lt
    c, e = bx * nx + by * ny + bz * nz, bx * tx + by * ty + bz * tz
    bx, by, bz = bx - c * nx - e * tx, by - c * ny - e * ty, bz - c * nz - e * tz
    lb = np.sqrt(bx * bx + by * by + bz * bz)
    if lb < np.float32(1e-20):
        return nx, ny, nz
    bx, by, bz = bx / lb, by / lb, bz / lb
    ox, oy, oz = tx * mx + bx * my + nx * mz, ty * mx + by * my + ny * mz, tz * mx + bz * my + nz * mz
    lo = max(np.sqrt(ox * ox + oy * oy + oz * oz), np.float32(1e-8))
    return ox / lo, oy / lo, oz / lo


# Compiled without reference counts, as :func:`raster` and for its reason (its inlined helpers take the vertices' and
# the textures' arrays at every fragment): its caller makes ``rgb`` and ``alpha`` and the scratch ``texel`` and ``red``.
@njit(cache=True, nogil=True, **UNCOUNTED)
def shade(ftri, fb1, fb2, fiw, pix, tris, iw, tri_draw, normals, aniso_dirs, uv, colors,
          mat_color, mat_tex, mat_occ, mat_occ_strength, mat_double, mat_skin, mat_gloss, mat_emissive, mat_vcol,
          mat_scatter,
          mat_aniso, texels, tex_off, tex_w, tex_h, tex_ws, tex_wt, tex_alpha, srgb16,
          light_dirs, light_rgb, light_scalars, f, size, ss,
          positions, mat_nrm, mat_nrm_scale, mat_mr, mat_rough, mat_glass, mat_spec, mat_metal, mat_spec_rgb,
          mat_spec_tex, rgb, alpha, texel, red):
    """Into ``rgb`` (n, 3) and ``alpha`` (n,): linear RGB and alpha of fragments (see
    :func:`workbench.render.raster.draw`, step 5).

    Per draw (material): base colour RGBA, texture and occlusion texture (-1: none), occlusion strength,
    double-sided, skin, gloss, emissive, has vertex colours, hair's scatter (0 to 1: how much of the lights' hair wrap
    and ambient it gets, :func:`workbench.render.raster.hair_scatter`), anisotropy strength; normal map (-1: none)
    and its scale, metallic-roughness map (-1: none) and the roughness factor, and whether it is glass
    (blended: its reflections are not thinned by its coverage, as a clear lens's are not), and its specular
    factor (KHR_materials_specular: scales its reflections, the room's too; hair's strands keep their own) and colour
    (its specularColorFactor: the skin's warm-white, its reflections' face on; white at grazing angles), and its
    metallic factor (times the metallic-roughness map's blue: a metal glasses frame; none without the map). Per vertex
    (all draws): view-space normals and anisotropy directions, texture coordinates, vertex colours RGBA,
    view-space positions (a normal map's tangent frame is its triangle's, from these and the UVs).
    Textures: their texels one after another, and per texture its
    first texel, width, height, wrap modes and whether it has alpha.
    light_dirs: key, fill, rim, up in view space; light_rgb: key colour x strength, fill colour,
    skin scatter; light_scalars: fill, rim, sky, ground, exposure, skin wrap, sheen, grazing sheen, rim sheen,
    hair wrap, hair ambient. ``texel`` and ``red``: scratch of 4 and 1 float32.
    """
    n = ftri.shape[0]
    K = ss * ss
    W = np.float32(size * ss)
    fill, rim, sky, ground, exposure, wrap = (light_scalars[0], light_scalars[1], light_scalars[2],
                                              light_scalars[3], light_scalars[4], light_scalars[5])
    sheen, grazing, rim_sheen = light_scalars[6], light_scalars[7], light_scalars[8]
    hair_wrap, hair_ambient = light_scalars[9], light_scalars[10]
    one, half, zero = np.float32(1), np.float32(0.5), np.float32(0)
    for i in range(n):
        t = ftri[i]
        d = tri_draw[t]
        v0, v1, v2, w0, w1, w2 = _corners(t, fb1[i], fb2[i], fiw[i], tris, iw)
        nx = normals[v0, 0] * w0 + normals[v1, 0] * w1 + normals[v2, 0] * w2
        ny = normals[v0, 1] * w0 + normals[v1, 1] * w1 + normals[v2, 1] * w2
        nz = normals[v0, 2] * w0 + normals[v1, 2] * w1 + normals[v2, 2] * w2
        ln = max(np.sqrt(nx * nx + ny * ny + nz * nz), np.float32(1e-8))
        nx, ny, nz = nx / ln, ny / ln, nz / ln
        # the direction to the eye, from the sample
        blk, k = pix[i] // K, pix[i] % K
        ey = np.float32((blk // size) * ss + k // ss)
        ex = np.float32((blk % size) * ss + k % ss)
        dx = -((ex + half) / W * 2 - one) / f
        dy = ((ey + half) / W * 2 - one) / f
        dz = one
        le = np.sqrt(dx * dx + dy * dy + dz * dz)
        dx, dy, dz = dx / le, dy / le, dz / le
        if mat_double[d] and nx * dx + ny * dy + nz * dz < 0:  # a double-sided surface seen from behind
            nx, ny, nz = -nx, -ny, -nz
        # base colour, alpha and baked occlusion
        cr, cg, cb, ca = mat_color[d, 0], mat_color[d, 1], mat_color[d, 2], mat_color[d, 3]
        tu = uv[v0, 0] * w0 + uv[v1, 0] * w1 + uv[v2, 0] * w2
        tv = uv[v0, 1] * w0 + uv[v1, 1] * w1 + uv[v2, 1] * w2
        x = mat_tex[d]
        if x >= 0:
            _bilinear(texels, tex_off[x], tex_w[x], tex_h[x], tex_ws[x], tex_wt[x], tu, tv, texel)
            cr *= srgb16[int(texel[0] * 16 + half)]
            cg *= srgb16[int(texel[1] * 16 + half)]
            cb *= srgb16[int(texel[2] * 16 + half)]
            if tex_alpha[x]:
                ca *= texel[3] * np.float32(1 / 255)
        if mat_vcol[d]:
            cr = cr * (colors[v0, 0] * w0 + colors[v1, 0] * w1 + colors[v2, 0] * w2)
            cg = cg * (colors[v0, 1] * w0 + colors[v1, 1] * w1 + colors[v2, 1] * w2)
            cb = cb * (colors[v0, 2] * w0 + colors[v1, 2] * w1 + colors[v2, 2] * w2)
            ca = ca * (colors[v0, 3] * w0 + colors[v1, 3] * w1 + colors[v2, 3] * w2)
        ao = one
        x = mat_occ[d]
        if x >= 0:
            _bilinear(texels, tex_off[x], tex_w[x], tex_h[x], tex_ws[x], tex_wt[x], tu, tv, red)  # glTF reads red
            ao = one + mat_occ_strength[d] * (red[0] * np.float32(1 / 255) - one)
        # the normal map, in its triangle's tangent frame (+X along u, +Y up the image: against v)
        x = mat_nrm[d]
        gkey = -one   # the key on the surface as modelled, before a normal map bends it (-1: no map)
        if x >= 0:
            gkey = max(nx * light_dirs[0, 0] + ny * light_dirs[0, 1] + nz * light_dirs[0, 2], zero)
            nx, ny, nz = _mapped_normal(nx, ny, nz, v0, v1, v2, positions, uv, texels, tex_off[x], tex_w[x], tex_h[x],
                                        tex_ws[x], tex_wt[x], tu, tv, mat_nrm_scale[d], texel)
        gloss = mat_gloss[d]
        metal = zero
        x = mat_mr[d]
        if x >= 0:   # roughness from the map's green channel (and metalness from its blue)
            _bilinear(texels, tex_off[x], tex_w[x], tex_h[x], tex_ws[x], tex_wt[x], tu, tv, texel)
            metal = mat_metal[d] * texel[2] * np.float32(1 / 255)
            gloss = min(one, max(np.float32(0.15), np.float32(1.6) * (one - mat_rough[d] * texel[1] * np.float32(1 / 255))))
            gloss *= mat_spec[d]
        # three lights fixed to the world, an ambient from sky and ground
        ndl_raw = nx * light_dirs[0, 0] + ny * light_dirs[0, 1] + nz * light_dirs[0, 2]
        # (where the occlusion is deepest, inside a mouth, the lips shade it from the key as a shadow would: lit by
        # the key, with the skin's warm wrap, its lining drew a saturated blood red in blind review C)
        skin = mat_skin[d] == 1
        lit_at = CAVE_LIT_SKIN if skin else CAVE_LIT
        cave = min(max((ao - CAVE_DARK) * (one / (lit_at - CAVE_DARK)), zero), one)
        lined = zero   # (the Teeth's walls: how far they take the lining's light, LINED_UP)
        if mat_skin[d] == 2 and cave < one:
            up = nx * light_dirs[3, 0] + ny * light_dirs[3, 1] + nz * light_dirs[3, 2]
            lined = (one - cave) * max(one - max(up, zero) / LINED_UP, zero)
        ndl = max(ndl_raw, zero) * (half + half * ao) * (half + half * cave)
        ndf = max(nx * light_dirs[1, 0] + ny * light_dirs[1, 1] + nz * light_dirs[1, 2], zero) * ao
        ndr = max(nx * light_dirs[2, 0] + ny * light_dirs[2, 1] + nz * light_dirs[2, 2], zero) * ao
        amb = (ground + (sky - ground) * (half + half * (nx * light_dirs[3, 0] + ny * light_dirs[3, 1]
                                                          + nz * light_dirs[3, 2]))) * ao
        lr = amb + ndl * light_rgb[0, 0]
        lg = amb + ndl * light_rgb[0, 1]
        lb = amb + ndl * light_rgb[0, 2]
        extra = zero
        if skin:
            if wrap > 0:  # wrapped diffuse past the terminator, tinted warm: light that entered the skin nearby
                extra = (min(max((ndl_raw + wrap) / (one + wrap), zero), one) - max(ndl_raw, zero)) * ao * cave
                extra = max(extra, zero)
                lr += extra * light_rgb[0, 0] * light_rgb[2, 0]
                lg += extra * light_rgb[0, 1] * light_rgb[2, 1]
                lb += extra * light_rgb[0, 2] * light_rgb[2, 2]
        if (skin and cave < one) or lined > zero:
            # ...and what of the key reaches it is light bounced between teeth, tongue and lining, greyer than the
            # lining's own red (the key's share of the light taken at the colour's grey, CAVE_GREY of the way)
            grey = (cr + cg + cb) * np.float32(1 / 3)
            mix = CAVE_GREY * ((one - cave) if skin else lined)
            key = ndl + extra
            lr += key * light_rgb[0, 0] * mix * (grey / max(cr, np.float32(1e-6)) - one)
            lg += key * light_rgb[0, 1] * mix * (grey / max(cg, np.float32(1e-6)) - one)
            lb += key * light_rgb[0, 2] * mix * (grey / max(cb, np.float32(1e-6)) - one)
        if skin:
            lr += ndf * fill  # a cool fill on warm skin reads as grey, most on dark skin
            lg += ndf * fill
            lb += ndf * fill
        else:
            if gkey > ndl_raw and mat_scatter[d] == 0:
                # a fold's side turned from the key (a normal map's) sees its lit neighbour, which passes on of the
                # key it lost as much as the cloth reflects (its colour): a light cloth's folds fill, a dark one's
                # stay deep. Blind review P: a light skirt's folds where the key grazes its sides, dark to the
                # ambient, drew dark diagonal streaks that three.js's and model-viewer's studio light hides.
                lost = (gkey - max(ndl_raw, zero)) * ao
                lr += lost * light_rgb[0, 0] * cr
                lg += lost * light_rgb[0, 1] * cg
                lb += lost * light_rgb[0, 2] * cb
            lr += ndf * (fill * light_rgb[1, 0])
            lg += ndf * (fill * light_rgb[1, 1])
            lb += ndf * (fill * light_rgb[1, 2])
            scatter = mat_scatter[d]
            if scatter > 0:
                # hair: the light its strands pass on to each other, as much as they pass on (its albedo): the key
                # wrapped past the terminator onto the far side and the under-layers, and more of the ambient, both
                # filling the shade (as the surface turns to the key they fade out: lit hair keeps its light, and
                # its edge over the skin its contrast, which a lighter lit side steepened at the hairline)
                shaded = max(one - np.float32(2) * max(ndl_raw, zero), zero)
                shaded *= shaded * scatter
                through = (min(max((ndl_raw + hair_wrap) / (one + hair_wrap), zero), one) - max(ndl_raw, zero))
                through = max(through * ao * shaded, zero)
                around = amb * hair_ambient * shaded
                lr += through * light_rgb[0, 0] + around
                lg += through * light_rgb[0, 1] + around
                lb += through * light_rgb[0, 2] + around
        lr += rim * ndr
        lg += rim * ndr
        lb += rim * ndr
        # a soft highlight of the key, as strong as the material is smooth
        hx, hy, hz = dx + light_dirs[0, 0], dy + light_dirs[0, 1], dz + light_dirs[0, 2]
        lh = np.sqrt(hx * hx + hy * hy + hz * hz)
        ndh = min(max((nx * hx + ny * hy + nz * hz) / lh, zero), one)
        n2 = ndh * ndh
        n8 = n2 * n2
        n8 *= n8
        if skin:   # broader on skin: the sheen on forehead, nose and cheekbones that shapes a face, a deep tone's most
            spec = n8 * n2 * n2 * (np.float32(0.2) * gloss)   # ndh ** 12
        else:
            spec = n8 * n8 * n8 * (np.float32(0.12) * gloss)  # ndh ** 24
        # the room's reflection in any dielectric, stronger at grazing angles (Fresnel), as an image-based
        # light gives it: three.js's studio lifts dark materials so, and a lens shows it as a faint sheen
        rim_v = one - min(max(nx * dx + ny * dy + nz * dz, zero), one)
        room = (sheen + grazing * rim_v * rim_v * rim_v) * ao * mat_spec[d]
        f90 = zero   # (what of the reflections is at grazing angles: white, whatever the specular colour, as glTF's F90)
        # the rim light's highlight on skin: a broad sheen along the contour it reaches (what a rim light mostly
        # gives skin is this reflection at a grazing angle; it outlines the deepest tone, whose diffuse it hardly
        # lifts)
        if skin and ndr > zero:
            hx2, hy2, hz2 = dx + light_dirs[2, 0], dy + light_dirs[2, 1], dz + light_dirs[2, 2]
            lh2 = max(np.sqrt(hx2 * hx2 + hy2 * hy2 + hz2 * hz2), np.float32(1e-8))
            r2 = min(max((nx * hx2 + ny * hy2 + nz * hz2) / lh2, zero), one)
            r2 *= r2
            r2 *= r2
            # (faded in over the rim light's terminator: the half-vector still meets the skin there, and the
            # sheen cut in at full strength drew a bright patch with a hard side over foreheads, blind review D)
            fade = min(ndr * np.float32(4), one)
            f90 = rim * rim_sheen * r2 * r2 * gloss * rim_v * rim_v * fade   # ndh ** 8, along the contour
            spec += f90
        spec *= ao
        f90 *= ao
        if not skin:
            # (and the room's reflection and the key's highlight, on what is not skin, with it: the teeth deep in an open
            # mouth, at their baked occlusion's least, mirrored the room as lit grey facets among its dark reds, blind
            # review K; three.js and model-viewer read the teeth's specular map, which has none there)
            spec *= cave
            room *= cave
            if lined > zero:   # (the walls' share of the lining's: its highlight's form, the room's sheen uncut)
                spec += lined * n8 * n2 * n2 * (np.float32(0.2) * gloss) * ao
                room += lined * (sheen + grazing * rim_v * rim_v * rim_v) * ao * mat_spec[d]
        tint = zero
        sr = sg = sb = one
        gr, gg, gb = mat_spec_rgb[d, 0], mat_spec_rgb[d, 1], mat_spec_rgb[d, 2]
        if gr < one or gg < one or gb < one:
            # the reflections' colour (KHR_materials_specular's, as a browser tints F0 by it): the skin's warm-white,
            # white over a deep brown drew its highlight as a grey-lilac film (blind review AC); at grazing angles
            # (the rim's highlight, the room's grazing sheen) white
            f90 += grazing * rim_v * rim_v * rim_v * ao * mat_spec[d] * (one if skin else cave)
            total = spec + room
            if total > np.float32(1e-8):
                w = min(f90 / total, one)
                sr, sg, sb = w + (one - w) * gr, w + (one - w) * gg, w + (one - w) * gb
        if mat_aniso[d] > 0:   # hair: a band across the strands in place of the round highlight
            spec, tint = _strand_highlight(aniso_dirs, v0, v1, v2, w0, w1, w2, nx, ny, nz, hx / lh, hy / lh, hz / lh,
                                           ndl_raw, mat_aniso[d] * gloss, ao)
            room = sheen * ao   # (a card seen edge-on is no grazing surface: its strands are round)
            # ...its white band half in the strand's own hue and as bright as the strand under it: white over dark
            # or mid hair, smooth over the cards, drew a grey haze (over the temples, a grey band at the hairline)
            top = max(cr, cg, cb, np.float32(1e-6))
            sr, sg, sb = half + half * cr / top, half + half * cg / top, half + half * cb / top
            spec *= min(np.float32(0.25) + top * np.float32(2), one)
        spec += room
        if mat_glass[d] and ca > np.float32(0.02):
            # laid over what is behind at its alpha, the reflection stays whole (at 0.4 of an uncoated
            # surface's, the renderer's own allowance for glass; a lens's file takes it down further by its specular
            # texture, below, as the browsers read it: a full one greyed the eyes on dark skin)
            spec *= np.float32(0.4) / ca
            if ca >= np.float32(0.999):
                # the frame, opaque in the same material: a glossy plastic whose rounded rims' tops mirror the studio's
                # ceiling over its horizon down to the dark floor (by the reflected ray's height); its edges seen
                # side-on not lit up (a temple behind the ear, 2 mm thick, showed as a white hook)
                ndv = min(max(nx * dx + ny * dy + nz * dz, zero), one)
                ux, uy, uz = light_dirs[3, 0], light_dirs[3, 1], light_dirs[3, 2]
                r_up = 2 * ndv * (nx * ux + ny * uy + nz * uz) - (dx * ux + dy * uy + dz * uz)
                horizon = min(max((r_up + np.float32(0.12)) / np.float32(0.3), zero), one)
                horizon = horizon * horizon * (3 - 2 * horizon)
                g5 = (one - ndv) * (one - ndv)
                g5 = g5 * g5 * (one - ndv)
                fres = np.float32(0.05) + np.float32(0.1) * g5
                spec += fres * (np.float32(0.12) + np.float32(2.2) * horizon) * ao * np.float32(0.45)
                if metal > zero:
                    # a metal frame: no diffuse, the studio mirrored in its own colour (:func:`_metal_mirror`; a
                    # metal's Fresnel is its base colour face on, white at a grazing angle). Blind review P: the
                    # studio's ceiling mirrored whole in the colour's hue at full strength drew the silver wire as
                    # a flat white outline.
                    g5 = (one - ndv) * (one - ndv)
                    g5 = g5 * g5 * (one - ndv)
                    env = _metal_mirror(nx, ny, nz, dx, dy, dz, ndv, light_dirs) * ao
                    spec = spec * (one - metal) + env * metal
                    sr = one + metal * (cr + (one - cr) * g5 - one)
                    sg = one + metal * (cg + (one - cg) * g5 - one)
                    sb = one + metal * (cb + (one - cb) * g5 - one)
                    lr *= one - metal
                    lg *= one - metal
                    lb *= one - metal
            else:
                # a lens: tinted glass mirroring the studio (:func:`_lens_mirror`), the room in its tint and the
                # lights' soft reflections white; a clear lens, whose eyes must show, a third of it
                room_t, lights_w = _lens_mirror(nx, ny, nz, dx, dy, dz, light_dirs)
                mirror = (np.float32(0.3) + np.float32(0.7) * ca) * ao
                x = mat_spec_tex[d]
                if x >= 0:   # at the strength its file gives it (a coated lens's, glasses.LENS_SPECULAR), as browsers
                    # read it: every reflection of the lens, the key's highlight and the room's sheen too (at full
                    # strength those laid a grey film over a deep skin's eyes in the close-ups, blind review AM #11)
                    _bilinear(texels, tex_off[x], tex_w[x], tex_h[x], tex_ws[x], tex_wt[x], tu, tv, texel)
                    mirror *= texel[3] * np.float32(1 / 255)
                    spec *= texel[3] * np.float32(1 / 255)
                room_t *= mirror
                lights_w *= mirror
                top = max(cr, cg, cb, np.float32(1e-6))
                # (the tint's hue, half-way to grey: the lens's own colour is near black, its reflection what shows)
                tr, tg, tb = np.sqrt(cr / top), np.sqrt(cg / top), np.sqrt(cb / top)
                white = spec + lights_w
                spec = white + room_t
                if spec > np.float32(1e-8):
                    sr = (white + room_t * tr) / spec
                    sg = (white + room_t * tg) / spec
                    sb = (white + room_t * tb) / spec
        rgb[i, 0] = cr * lr * exposure + spec * sr + tint * cr + mat_emissive[d, 0]
        rgb[i, 1] = cg * lg * exposure + spec * sg + tint * cg + mat_emissive[d, 1]
        rgb[i, 2] = cb * lb * exposure + spec * sb + tint * cb + mat_emissive[d, 2]
        alpha[i] = ca


@njit(cache=True, nogil=True, inline="always")
def _lens_mirror(nx, ny, nz, dx, dy, dz, light_dirs):
    """A lens's reflection of the studio (Fresnel's 4 % face on, all of it at a grazing angle): the room (its
    ceiling bright, its floor dark, by the reflected ray's height, graded over its whole range so the lens's curve
    shows a smooth gradient from a lit top to a dark bottom) and the key's and the fill's soft boxes, as broad lobes
    around where the reflected ray meets them. Returns (the room's, the lights'). Blind review N: soft boxes cut
    at a narrow cone and a room graded over a narrow band of heights drew bright patches with hard edges, a painted
    rectangle on a flat grey lens; blind review G: a lens graded from ceiling to floor alone read as grey plastic."""
    one, zero = np.float32(1), np.float32(0)
    ndv = min(max(nx * dx + ny * dy + nz * dz, zero), one)
    rx, ry, rz = 2 * ndv * nx - dx, 2 * ndv * ny - dy, 2 * ndv * nz - dz
    r_up = rx * light_dirs[3, 0] + ry * light_dirs[3, 1] + rz * light_dirs[3, 2]
    s = min(max((r_up - LENS_FLOOR) / (LENS_CEILING - LENS_FLOOR), zero), one)
    s = s * s * (3 - 2 * s)
    s *= s   # (most of the room's light high up: its ceiling's lamps)
    g5 = (one - ndv) * (one - ndv)
    g5 = g5 * g5 * (one - ndv)
    fres = np.float32(0.04) + np.float32(0.96) * g5
    lights = zero
    for k in range(2):
        c = max(rx * light_dirs[k, 0] + ry * light_dirs[k, 1] + rz * light_dirs[k, 2], zero)
        c2 = c * c
        c4 = c2 * c2
        lights += LENS_BOXES[k] * c4 * c4 * c4    # c ** 12: half its strength 20 degrees off
    return fres * (LENS_GROUND + (LENS_SKY - LENS_GROUND) * s), fres * lights


@njit(cache=True, nogil=True, inline="always")
def _metal_mirror(nx, ny, nz, dx, dy, dz, ndv, light_dirs):
    """The studio a metal mirrors, by the reflected ray (as three.js's ``RoomEnvironment`` in a chrome frame): a
    dim floor, grey walls brightening up to the ceiling, and the key's, fill's and rim's panels as lobes. A
    wire's section turns its normal only across the wire, so what it mirrors changes with the wire's direction:
    dark and bright along a frame's rims, as a metal frame shows (blind review P, defect 9)."""
    one, zero = np.float32(1), np.float32(0)
    rx, ry, rz = 2 * ndv * nx - dx, 2 * ndv * ny - dy, 2 * ndv * nz - dz
    r_up = rx * light_dirs[3, 0] + ry * light_dirs[3, 1] + rz * light_dirs[3, 2]
    s = min(max((r_up - METAL_FLOOR_AT) / (METAL_CEILING_AT - METAL_FLOOR_AT), zero), one)
    s = s * s * (3 - 2 * s)
    env = METAL_ROOM[0] + (METAL_ROOM[1] - METAL_ROOM[0]) * s
    env += (METAL_ROOM[2] - METAL_ROOM[1]) * max(r_up, zero) * max(r_up, zero)
    for k in range(3):
        c = max(rx * light_dirs[k, 0] + ry * light_dirs[k, 1] + rz * light_dirs[k, 2], zero)
        c2 = c * c
        c4 = c2 * c2
        env += METAL_PANELS[k] * c4 * c4 * c4 * c4    # c ** 16: half its strength 17 degrees off
    return env


@njit(cache=True, nogil=True, inline="always")
def _strand_highlight(aniso_dirs, v0, v1, v2, w0, w1, w2, nx, ny, nz, hx, hy, hz, ndl, strength, ao):
    """Hair's highlight (Kajiya and Kay's, with Marschner's two lobes): the fibre runs across the
    anisotropy direction (glTF stretches the roughness across the strands), and a fibre reflects in a
    band where the half vector is perpendicular to it. A white lobe tilted towards the tip and a
    broader one in the hair's colour tilted towards the root (light that went through the fibre);
    both fade on the side turned away from the key light. Returns (white, coloured) strengths."""
    ax = aniso_dirs[v0, 0] * w0 + aniso_dirs[v1, 0] * w1 + aniso_dirs[v2, 0] * w2
    ay = aniso_dirs[v0, 1] * w0 + aniso_dirs[v1, 1] * w1 + aniso_dirs[v2, 1] * w2
    az = aniso_dirs[v0, 2] * w0 + aniso_dirs[v1, 2] * w1 + aniso_dirs[v2, 2] * w2
    dot = ax * nx + ay * ny + az * nz
    ax, ay, az = ax - dot * nx, ay - dot * ny, az - dot * nz
    # the fibre: normal x anisotropy direction
    fx, fy, fz = ny * az - nz * ay, nz * ax - nx * az, nx * ay - ny * ax
    lf = np.sqrt(fx * fx + fy * fy + fz * fz)
    zero, one = np.float32(0), np.float32(1)
    if lf < 1e-6:
        return zero, zero
    fx, fy, fz = fx / lf, fy / lf, fz / lf
    lit = min(max((ndl + np.float32(0.25)) / np.float32(0.6), zero), one) * ao * strength
    white = _lobe(fx, fy, fz, nx, ny, nz, hx, hy, hz, np.float32(-0.12))
    coloured = _lobe(fx, fy, fz, nx, ny, nz, hx, hy, hz, np.float32(0.18))
    # (each a float32, as the strengths were when kept in an array: ``lit`` is a float64 where ``strength`` is one)
    return (np.float32(white * white * white * np.float32(0.7) * lit),     # sin ** 96: a white band
            np.float32(coloured * np.float32(2.8) * lit))                  # sin ** 32, times the colour: a broader one


@njit(cache=True, nogil=True, inline="always")
def _lobe(fx, fy, fz, nx, ny, nz, hx, hy, hz, shift):
    """A lobe of :func:`_strand_highlight`: sin ** 32 of the angle between the fibre tilted by ``shift`` towards the
    normal and the half vector (the two lobes' own scalars: a scratch array allocated at every hair fragment cost more
    than the lobes)."""
    zero, one = np.float32(0), np.float32(1)
    gx, gy, gz = fx + shift * nx, fy + shift * ny, fz + shift * nz
    lg = np.sqrt(gx * gx + gy * gy + gz * gz)
    t = (gx * hx + gy * hy + gz * hz) / lg
    s2 = max(one - t * t, zero)              # sin^2 of the angle between fibre and half vector
    s4 = s2 * s2
    s8 = s4 * s4
    return s8 * s8


# -- multisampling -------------------------------------------------------------------------------------

@njit(cache=True, nogil=True)
def _slots(layer, p0, K, i, slot, shade, m):
    """For block ``i`` (its first sample ``p0``), each covered sample's slot among ``shade``: the first
    sample of its triangle in the block is shaded, the others take its colour. Returns the new count."""
    for k in range(K):
        t = layer[p0 + k]
        if t >= 0:
            for j in range(k + 1):
                if layer[p0 + j] == t:
                    break
            if j == k:
                shade[m] = p0 + k
                slot[i, k] = m
                m += 1
            else:
                slot[i, k] = slot[i, j]
    return m


@njit(cache=True, nogil=True)
def coverage(tri, glass, glass2, K, size, part, parts):
    """Which output pixels (blocks of K samples) anything reaches, and which samples to shade.

    Shading runs once per pixel and triangle, as multisampling does: a sample covered by the same
    triangle as an earlier sample of its block takes that sample's colour. Returns ``active``
    (n,) blocks; ``slot`` (n, K): the index among ``shade`` of the sample whose colour sample k takes
    (-1: not covered); ``shade`` the samples to shade; and the same two for the blended surfaces in
    front (``glass``, the nearest, and ``glass2``, the next; either may be empty: none).
    Only the pixels of rows in bands of :data:`PIXEL_BAND` rows (``size`` pixels each) numbered ``part`` modulo
    ``parts``: two threads take a part each, from here to the finished pixels.
    """
    B = tri.shape[0] // K
    has_glass = glass.shape[0] > 0
    has_glass2 = glass2.shape[0] > 0
    active = np.empty(B, np.int32)
    n = 0
    for row in range(B // size):
        if (row // PIXEL_BAND) % parts != part:
            continue
        for b in range(row * size, (row + 1) * size):
            for k in range(K):
                if tri[b * K + k] >= 0 or (has_glass and glass[b * K + k] >= 0):
                    active[n] = b
                    n += 1
                    break
    active = active[:n]
    slot = np.full((n, K), -1, np.int32)
    gslot = np.full((n, K), -1, np.int32)
    g2slot = np.full((n, K), -1, np.int32)
    shade = np.empty(n * K, np.int64)
    gshade = np.empty(n * K if has_glass else 0, np.int64)
    g2shade = np.empty(n * K if has_glass2 else 0, np.int64)
    m = g = g2 = 0
    for i in range(n):
        p0 = active[i] * K
        m = _slots(tri, p0, K, i, slot, shade, m)
        if has_glass:
            g = _slots(glass, p0, K, i, gslot, gshade, g)
        if has_glass2:
            g2 = _slots(glass2, p0, K, i, g2slot, g2shade, g2)
    return active, slot, shade[:m], gslot, gshade[:g], g2slot, g2shade[:g2]


@njit(cache=True, nogil=True)
def resolve(slot, rgb, gslot, grgb, galpha, g2slot, g2rgb, g2alpha):
    """The average of each block's K samples, premultiplied linear RGBA (n, 4): a covered sample is its
    surface's colour (opaque), the second blended surface laid over it and the nearest over that; an
    empty one is clear."""
    n, K = slot.shape
    out = np.zeros((n, 4), np.float32)
    one = np.float32(1)
    inv = one / np.float32(K)
    enc, dec = np.float32(1 / BLEND_GAMMA), np.float32(BLEND_GAMMA)
    for i in range(n):
        r = g_ = b = a = np.float32(0)
        for k in range(K):
            s = slot[i, k]
            if s >= 0:
                cr, cg, cb, ca = rgb[s, 0], rgb[s, 1], rgb[s, 2], one
            else:
                cr = cg = cb = ca = np.float32(0)
            blended = g2slot[i, k] >= 0 or gslot[i, k] >= 0
            if blended:
                # laid over in display values, as a browser's canvas blends (three.js and model-viewer encode each
                # fragment before blending): in linear light a brow's soft dark hairs over skin came out pale
                cr, cg, cb = max(cr, np.float32(0)) ** enc, max(cg, np.float32(0)) ** enc, max(cb, np.float32(0)) ** enc
            for layer in range(2):
                s = g2slot[i, k] if layer == 0 else gslot[i, k]
                if s >= 0:
                    ga = g2alpha[s] if layer == 0 else galpha[s]
                    sr = g2rgb[s, 0] if layer == 0 else grgb[s, 0]
                    sg = g2rgb[s, 1] if layer == 0 else grgb[s, 1]
                    sb = g2rgb[s, 2] if layer == 0 else grgb[s, 2]
                    sr, sg, sb = max(sr, np.float32(0)) ** enc, max(sg, np.float32(0)) ** enc, max(sb, np.float32(0)) ** enc
                    cr = sr * ga + cr * (one - ga)
                    cg = sg * ga + cg * (one - ga)
                    cb = sb * ga + cb * (one - ga)
                    ca = ga + ca * (one - ga)
            if blended and ca > np.float32(0):     # (premultiplied: back to linear light as the straight colour)
                cr, cg, cb = (cr / ca) ** dec * ca, (cg / ca) ** dec * ca, (cb / ca) ** dec * ca
            r += cr
            g_ += cg
            b += cb
            a += ca
        out[i, 0], out[i, 1], out[i, 2], out[i, 3] = r * inv, g_ * inv, b * inv, a * inv
    return out


# -- output ---------------------------------------------------------------------------------------------

@njit(cache=True, nogil=True)
def tone_map(rgb, srgb8):
    """Linear RGB (n, 3) to 8-bit sRGB (n, 3): Khronos PBR Neutral tone mapping
    (:func:`workbench.options.colour.neutral`, the curve three.js and model-viewer draw with; compiled here
    because numpy's version cost a 512 px preview 0.1 s), then ``srgb8``: the sRGB curve as a table of
    ``len - 1`` steps over 0..1."""
    n = rgb.shape[0]
    out = np.empty((n, 3), np.uint8)
    start = np.float32(0.8 - 0.04)
    d = np.float32(1) - start
    steps = np.float32(srgb8.shape[0] - 1)
    for i in range(n):
        r, g, b = max(rgb[i, 0], np.float32(0)), max(rgb[i, 1], np.float32(0)), max(rgb[i, 2], np.float32(0))
        x = min(r, g, b)
        offset = x - np.float32(6.25) * x * x if x < np.float32(0.08) else np.float32(0.04)
        r, g, b = r - offset, g - offset, b - offset
        peak = max(r, g, b)
        if peak >= start:
            new_peak = np.float32(1) - d * d / (peak + d - start)
            k = new_peak / peak
            r, g, b = r * k, g * k, b * k
            m = np.float32(1) - np.float32(1) / (np.float32(0.15) * (peak - new_peak) + np.float32(1))
            r, g, b = r + (new_peak - r) * m, g + (new_peak - g) * m, b + (new_peak - b) * m
        out[i, 0] = srgb8[int(min(max(r, np.float32(0)), np.float32(1)) * steps + np.float32(0.5))]
        out[i, 1] = srgb8[int(min(max(g, np.float32(0)), np.float32(1)) * steps + np.float32(0.5))]
        out[i, 2] = srgb8[int(min(max(b, np.float32(0)), np.float32(1)) * steps + np.float32(0.5))]
    return out


@njit(cache=True, nogil=True)
def rgb_texels(pixels: np.ndarray, out: np.ndarray) -> None:
    """(H, W, 3) uint8 RGB pixels into ``out`` (H * W,) uint32 texels, each the bytes R, G, B, 255 read as one
    little-endian word (:class:`workbench.render.scene.Texture`): 2 ms for 1024 x 1024 against 6 ms for
    numpy's strided copy into an RGBA array."""
    h, w = pixels.shape[0], pixels.shape[1]
    opaque = np.uint32(0xFF000000)
    k = 0
    for i in range(h):
        for j in range(w):
            out[k] = np.uint32(pixels[i, j, 0]) | (np.uint32(pixels[i, j, 1]) << 8) | (np.uint32(pixels[i, j, 2]) << 16) | opaque
            k += 1


@njit(cache=True, nogil=True)
def add_skin_matrices(acc: np.ndarray, joints: np.ndarray, weights: np.ndarray, mats: np.ndarray) -> None:
    """Add to ``acc`` (n, 3, 4) each vertex's blend of the skin matrices ``mats`` (J, 4, 4) by its ``joints``
    and ``weights`` (n, k; joints clipped into range): numpy's einsum over the same terms in the same order
    (the same numbers), without its (n, k, 4, 4) gather: 1 ms against 8 for an avatar."""
    last = mats.shape[0] - 1
    for v in range(acc.shape[0]):
        for i in range(3):
            for j in range(4):
                total = 0.0
                for k in range(joints.shape[1]):
                    total += weights[v, k] * mats[min(max(joints[v, k], 0), last), i, j]
                acc[v, i, j] += total


@njit(cache=True, nogil=True)
def apply_skin(acc: np.ndarray, points: np.ndarray, translate: bool) -> np.ndarray:
    """Each row of ``points`` (n, 3) through its vertex's matrix in ``acc`` (n, 3, 4): rotated and scaled,
    and moved with ``translate`` (positions; normals are not)."""
    out = np.empty((points.shape[0], 3))
    for v in range(points.shape[0]):
        for i in range(3):
            x = acc[v, i, 0] * points[v, 0] + acc[v, i, 1] * points[v, 1] + acc[v, i, 2] * points[v, 2]
            out[v, i] = x + acc[v, i, 3] if translate else x
    return out


def opaque_blocks(texels: np.ndarray, width: int, height: int) -> np.ndarray:
    """Per block of :data:`SURE_BLOCK` x :data:`SURE_BLOCK` texels of a texture (``texels`` as
    :class:`~workbench.render.scene.Texture` keeps them), row by row: the least alpha a bilinear lookup whose first
    texel lies in the block can read (its texels and one more each side, both ways round the edges: a lookup's
    second texel is its first's next, wrapped, mirrored or clamped), for :func:`raster`'s test to pass a fragment
    without filtering. A long-hair portrait's cards take the test at about 400,000 fragments, 95 % of which pass
    (the test was most of the masked walk's time); about two in three of its texture's blocks pass whole.

    >>> t = np.full(64, 0xFF000000, np.uint32); t[63] = 0     # 8 x 8, opaque but the last texel (a corner)
    >>> opaque_blocks(t, 8, 8).reshape(4, 4).tolist()   # blocks 2 x 2: the rows and columns 5 to 8 (0) reach it
    [[0, 255, 0, 0], [255, 255, 255, 255], [0, 255, 0, 0], [0, 255, 0, 0]]
    """
    a = (texels.reshape(height, width) >> 24).astype(np.uint8)
    for axis in (0, 1):
        a = np.minimum(np.minimum(np.roll(a, 1, axis), a), np.minimum(np.roll(a, -1, axis), np.roll(a, -2, axis)))
    b = SURE_BLOCK
    pad = np.zeros((-(-height // b) * b, -(-width // b) * b), np.uint8)
    pad[:height, :width] = a
    return pad.reshape(pad.shape[0] // b, b, pad.shape[1] // b, b).min(axis=(1, 3)).ravel()

