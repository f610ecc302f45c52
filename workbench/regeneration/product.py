"""The generated product a product viewer shows: a lathe-turned, textured object chosen by a seed.

A SHA-256 of the seed picks the kind (vase, bottle, table lamp or goblet),
its proportions, its colours and its surface pattern; the same seed always
gives the same bytes.

1. Draw the kind's profile: a polyline of (radius, height) from the axis at
   the bottom, up the outer wall, over the lip and down the inside.
2. Turn it about the Y axis into a grid of vertices (the seam column
   repeated, so UVs run 0..1 around), normals from the profile's slope.
3. Paint a texture (stripes, bands or speckles on a glaze colour) and write
   a GLB with one node per part.

>>> from workbench.regeneration.product import build_product_glb
>>> glb = build_product_glb("demo")
>>> glb[:4], glb == build_product_glb("demo")
(b'glTF', True)
"""

from __future__ import annotations

import hashlib
import io

import numpy as np
from PIL import Image

from workbench.gltf.glb import GlbWriter

__all__ = ["build_product_glb", "KINDS", "png_bytes"]

KINDS = ("vase", "bottle", "lamp", "goblet")


def png_bytes(rgb: np.ndarray) -> bytes:
    """PNG bytes of an (H, W, 3 or 4) uint8 array, written the same way every time.

    >>> png_bytes(np.zeros((2, 2, 3), np.uint8))[:4]
    b'\\x89PNG'
    """
    buf = io.BytesIO()
    Image.fromarray(np.ascontiguousarray(rgb)).save(buf, format="PNG", compress_level=6)
    return buf.getvalue()


def _rng(seed: str, salt: str = "") -> np.random.Generator:
    h = hashlib.sha256((salt + "\x00" + seed).encode("utf-8")).digest()
    return np.random.default_rng(int.from_bytes(h[:8], "little"))


def lathe(profile: np.ndarray, segments: int = 48):
    """Positions, normals, UVs and triangles of ``profile`` (K, 2: radius, height) turned about Y.

    >>> p, n, uv, t = lathe(np.array([[0.0, 0.0], [1.0, 0.0], [1.0, 1.0]]), 8)
    >>> p.shape, t.shape
    ((27, 3), (24, 3))
    """
    r, y = profile[:, 0], profile[:, 1]
    # Segment normals of the profile (pointing away from the material when the profile
    # runs bottom -> outside -> top -> inside), averaged at each vertex.
    d = np.diff(profile, axis=0)
    seg_n = np.stack([d[:, 1], -d[:, 0]], 1)
    seg_n /= np.maximum(np.linalg.norm(seg_n, axis=1, keepdims=True), 1e-12)
    vn = np.zeros_like(profile)
    vn[:-1] += seg_n
    vn[1:] += seg_n
    vn /= np.maximum(np.linalg.norm(vn, axis=1, keepdims=True), 1e-12)
    length = np.concatenate([[0], np.cumsum(np.linalg.norm(d, axis=1))])
    v = length / max(length[-1], 1e-12)
    ang = np.linspace(0, 2 * np.pi, segments + 1)
    ca, sa = np.cos(ang), np.sin(ang)
    K = len(profile)
    pos = np.stack([r[:, None] * sa[None, :], np.broadcast_to(y[:, None], (K, segments + 1)),
                    r[:, None] * ca[None, :]], -1).reshape(-1, 3)
    nrm = np.stack([vn[:, 0:1] * sa[None, :], np.broadcast_to(vn[:, 1:2], (K, segments + 1)),
                    vn[:, 0:1] * ca[None, :]], -1).reshape(-1, 3)
    uv = np.stack([np.broadcast_to(ang[None, :] / (2 * np.pi), (K, segments + 1)),
                   np.broadcast_to(1 - v[:, None], (K, segments + 1))], -1).reshape(-1, 2)
    i, j = np.meshgrid(np.arange(K - 1), np.arange(segments), indexing="ij")
    a = i * (segments + 1) + j
    b = a + 1
    c = a + segments + 1
    e = c + 1
    # Counter-clockwise seen from outside for a profile climbing the outer wall.
    tris = np.concatenate([np.stack([a, b, e], -1).reshape(-1, 3), np.stack([a, e, c], -1).reshape(-1, 3)])
    # Rows on the axis (radius 0) make degenerate triangles; drop them.
    p = pos.reshape(-1, 3)
    area = np.linalg.norm(np.cross(p[tris[:, 1]] - p[tris[:, 0]], p[tris[:, 2]] - p[tris[:, 0]]), axis=1)
    tris = tris[area > 1e-12]
    return pos.astype(np.float32), nrm.astype(np.float32), uv.astype(np.float32), tris.astype(np.int32)


def _smooth(points: list[tuple[float, float]], n: int = 6) -> np.ndarray:
    """Catmull-Rom through the control points (radius, height), ``n`` steps per span."""
    p = np.asarray(points, np.float64)
    ext = np.concatenate([p[:1], p, p[-1:]])
    out = []
    for k in range(len(p) - 1):
        p0, p1, p2, p3 = ext[k], ext[k + 1], ext[k + 2], ext[k + 3]
        for t in np.linspace(0, 1, n, endpoint=False):
            out.append(0.5 * ((2 * p1) + (-p0 + p2) * t + (2 * p0 - 5 * p1 + 4 * p2 - p3) * t * t
                              + (-p0 + 3 * p1 - 3 * p2 + p3) * t ** 3))
    out.append(p[-1])
    return np.maximum(np.asarray(out), 0.0)  # the spline may overshoot below the axis or the floor


def _vessel(outer: list[tuple[float, float]], wall: float, floor: float) -> np.ndarray:
    """A hollow vessel's full profile: base disc, outer wall, rounded lip, inner wall, inner floor."""
    o = _smooth(outer)
    top_r, top_y = o[-1]
    inner = o[::-1].copy()
    inner[:, 0] = np.maximum(inner[:, 0] - wall, 0.002)
    inner = inner[inner[:, 1] >= floor]
    lip = [(top_r - wall * 0.5 + wall * 0.5 * np.cos(a), top_y + wall * 0.5 * np.sin(a))
           for a in np.linspace(0.3, np.pi - 0.3, 5)]
    prof = [(0.0, 0.0)] + [tuple(q) for q in o] + lip + [tuple(q) for q in inner] + [(0.0, floor)]
    return np.asarray(prof, np.float64)


def _pattern(rng: np.random.Generator, base: np.ndarray, accent: np.ndarray, size: int = 256) -> np.ndarray:
    """An RGB texture: a glaze with stripes, bands or speckles (u around, v along the profile)."""
    yy, xx = np.mgrid[0:size, 0:size] / size
    kind = int(rng.integers(3))
    if kind == 0:
        k = int(rng.integers(6, 16))
        m = (np.sin(2 * np.pi * k * xx + 3 * np.sin(2 * np.pi * yy)) > 0.4).astype(np.float32)
    elif kind == 1:
        k = int(rng.integers(3, 8))
        m = (np.abs(np.sin(np.pi * k * yy)) < 0.22).astype(np.float32)
    else:
        m = (rng.random((size, size)) < 0.035).astype(np.float32)
    # A soft vertical gradient so the glaze is not flat.
    shade = 0.88 + 0.12 * np.cos(np.pi * yy)
    col = (base[None, None] * (1 - m[..., None]) + accent[None, None] * m[..., None]) * shade[..., None]
    return np.clip(col * 255, 0, 255).astype(np.uint8)


def build_product_glb(seed: str) -> bytes:
    """A deterministic product model for ``seed``: a vase, bottle, table lamp or goblet (metres, Y up).

    >>> build_product_glb("x") == build_product_glb("x"), build_product_glb("x") != build_product_glb("y")
    (True, True)
    """
    rng = _rng(seed)
    kind = KINDS[int(rng.integers(len(KINDS)))]
    hue = rng.random(3)
    base = 0.25 + 0.6 * hue
    accent = np.clip(1.0 - base * 0.8 + 0.1 * rng.random(3), 0, 1)
    b = GlbWriter("workbench.viewers", sort_keys=True)
    tex = b.texture(png_bytes(_pattern(rng, base, accent)))
    body_mat = b.material(f"{kind}_glaze", (1, 1, 1, 1), texture=tex, roughness=0.35)
    parts: list[tuple[str, np.ndarray, int]] = []
    h = float(rng.uniform(0.22, 0.42))
    if kind == "vase":
        w = float(rng.uniform(0.06, 0.11))
        outer = [(w * 0.55, 0.0), (w * 0.9, h * 0.15), (w, h * 0.38), (w * 0.75, h * 0.62),
                 (w * rng.uniform(0.35, 0.5), h * 0.85), (w * rng.uniform(0.45, 0.7), h)]
        parts.append(("Vase", _vessel(outer, 0.006, 0.012), body_mat))
    elif kind == "bottle":
        w = float(rng.uniform(0.04, 0.07))
        outer = [(w * 0.95, 0.0), (w, h * 0.55), (w * 0.9, h * 0.65), (w * 0.32, h * 0.8),
                 (w * 0.28, h * 0.95), (w * 0.3, h)]
        parts.append(("Bottle", _vessel(outer, 0.004, 0.01), body_mat))
        cap = b.material("cap", (*accent, 1.0), roughness=0.5)
        cr, cy = w * 0.3 + 0.003, h
        parts.append(("Cap", np.array([(0, cy - 0.01), (cr, cy - 0.01), (cr, cy + 0.03), (cr * 0.8, cy + 0.035),
                                       (0, cy + 0.035)]), cap))
    elif kind == "lamp":
        w = float(rng.uniform(0.06, 0.09))
        base_prof = _smooth([(0.0, 0.0), (w, 0.0), (w, 0.015), (w * 0.6, 0.03), (0.012, 0.05)], 4)
        base_prof = np.concatenate([base_prof, [(0.012, h * 0.75), (0.0, h * 0.75)]])
        parts.append(("Base", base_prof, body_mat))
        shade_mat = b.material("shade", (*np.clip(base * 0.4 + 0.55, 0, 1), 1.0), roughness=0.9,
                               double_sided=True, emissive=(0.05, 0.04, 0.02))
        sr = float(rng.uniform(1.4, 2.0)) * w
        parts.append(("Shade", np.array([(sr, h * 0.62), (sr * 0.55, h * 1.02)]), shade_mat))
    else:  # goblet
        w = float(rng.uniform(0.05, 0.08))
        outer = [(w * 0.8, 0.0), (w * 0.7, 0.01), (0.01, 0.03), (0.009, h * 0.45), (w * 0.4, h * 0.55),
                 (w * 0.9, h * 0.75), (w, h)]
        parts.append(("Goblet", _vessel(outer, 0.004, h * 0.5), body_mat))
    nodes = []
    for name, prof, mat in parts:
        p, n, uv, t = lathe(np.asarray(prof, np.float64), 48)
        mesh = b.mesh(name, [b.primitive(positions=p, normals=n, uv=uv, indices=t, material=mat)])
        nodes.append(b.node(name, mesh=mesh))
    root = b.node("Product", children=nodes)
    b.scene([root])
    b.doc["asset"]["extras"] = {"seed": seed, "kind": kind}
    return b.to_bytes()
