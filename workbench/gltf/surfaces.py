"""Smooth parametric surfaces (lofted cross-sections on a grid) with normals, UVs and skin weights.

Every avatar part is a grid of rows x columns of points: rows follow a path (a bone, the
skull's meridian, a lens rim), columns go around it. The columns wrap with a duplicated
seam column so UVs stay continuous; a row whose points all coincide is a pole and gets a
fan of triangles instead of quads, so no triangle is degenerate. Normals come from the
grid's own partial derivatives (periodic around the columns), which keeps them smooth
across the seam without welding vertices.

>>> s = tube(np.array([[0, 0, 0], [0, 1, 0.]]), np.array([0.1, 0.1]), np.array([0.1, 0.1]),
...          rows=4, cols=8, hint=(0, 0, 1), caps=(2, 2))
>>> s.triangles, bool(np.allclose(np.linalg.norm(s.normals, axis=1), 1))
(96, True)
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass
class Surface:
    """Vertex arrays of one part, before materials and skinning are attached."""

    positions: np.ndarray   # (N, 3) float64
    normals: np.ndarray     # (N, 3) float64, unit length
    uv: np.ndarray          # (N, 2) float64 in [0, 1]
    indices: np.ndarray     # (M, 3) int64, counter-clockwise seen from outside
    joints: np.ndarray | None = None   # (N, 4) uint8
    weights: np.ndarray | None = None  # (N, 4) float32, rows sum to 1

    @property
    def triangles(self) -> int:
        return int(self.indices.shape[0])

    def uv_into(self, rect: tuple[float, float, float, float]) -> "Surface":
        """Map this part's UVs (0..1) into the texture rectangle (u0, v0, u1, v1)."""
        u0, v0, u1, v1 = rect
        self.uv = np.column_stack([u0 + self.uv[:, 0] * (u1 - u0), v0 + self.uv[:, 1] * (v1 - v0)])
        return self


def grid_triangle_count(rows: int, cols: int, pole_start: bool, pole_end: bool, closed_rows: bool = False) -> int:
    """Triangles of a grid of ``rows`` x ``cols`` segments (without building it)."""
    quads_rows = rows if closed_rows else rows - 1
    count = 2 * quads_rows * cols
    return count - cols * (int(pole_start) + int(pole_end))


def grid_surface(points: np.ndarray, pole_start: bool = False, pole_end: bool = False,
                 closed_rows: bool = False, wrap: bool = True) -> Surface:
    """Triangulate a (rows, cols+1, 3) grid whose last column repeats the first.

    With ``closed_rows`` the last row also repeats the first (a torus-like path); with
    ``wrap=False`` the columns are an open sheet (no repeated column).
    """
    R, C1, _ = points.shape
    C = C1 - 1
    if wrap:
        core = points[:, :C]
        du = (np.roll(core, -1, axis=1) - np.roll(core, 1, axis=1))
    else:
        core = points
        du = np.gradient(core, axis=1)
    if closed_rows:
        uniq = core[:-1]
        dv_u = np.roll(uniq, -1, axis=0) - np.roll(uniq, 1, axis=0)
        dv = np.concatenate([dv_u, dv_u[:1]], axis=0)
    else:
        dv = np.gradient(core, axis=0)
    n = np.cross(dv, du)
    length = np.linalg.norm(n, axis=2)
    # Rows where the cross product vanishes (poles, pinches) take the direction away from the
    # neighbouring ring: the outward normal of a smooth closed cap.
    centers = core.mean(axis=1)
    for i in range(R):
        if pole_start and i == 0 or pole_end and i == R - 1 or length[i].max() < 1e-12:
            j = 1 if i == 0 else i - 1
            d = centers[i] - centers[j]
            if np.linalg.norm(d) < 1e-12:
                d = np.array([0.0, 1.0, 0.0])
            n[i] = d / np.linalg.norm(d)
            length[i] = 1.0
    bad = length < 1e-12
    if bad.any():
        length = np.where(bad, 1.0, length)
        n[bad] = (core - centers[:, None, :])[bad]
        length[bad] = np.linalg.norm(n[bad], axis=1) + 1e-12
    n = n / length[..., None]
    # Outward means away from each ring's centre; decide the orientation once per surface.
    radial = core - centers[:, None, :]
    inner = slice(1 if pole_start else 0, R - 1 if pole_end else R)
    flip = np.sum(n[inner] * radial[inner]) < 0
    rest = [i for i in range(R) if not ((pole_start and i == 0) or (pole_end and i == R - 1))]
    if flip:
        n[rest] = -n[rest]
    normals = np.concatenate([n, n[:, :1]], axis=1) if wrap else n

    ii, jj = np.meshgrid(np.arange(R - 1), np.arange(C), indexing="ij")
    a = ii * C1 + jj
    b = a + 1
    c = a + C1
    d = c + 1
    if flip:
        t1 = np.stack([a, b, c], axis=-1)
        t2 = np.stack([b, d, c], axis=-1)
    else:
        t1 = np.stack([a, c, b], axis=-1)
        t2 = np.stack([b, c, d], axis=-1)
    keep1 = np.ones((R - 1, C), bool)
    keep2 = np.ones((R - 1, C), bool)
    # At a start pole a and b coincide; at an end pole c and d do: drop the degenerate half.
    if pole_start:
        keep1[0] = False
    if pole_end:
        keep2[-1] = False
    tris = np.concatenate([t1[keep1], t2[keep2]], axis=0)
    # Order triangles row by row so neighbouring rows stay together (cache friendliness).
    order = np.argsort(np.concatenate([a[keep1], a[keep2]]), kind="stable")
    tris = tris[order]
    u = np.linspace(0.0, 1.0, C1)
    v = np.linspace(0.0, 1.0, R)
    uv = np.stack(np.meshgrid(u, v, indexing="xy"), axis=-1).reshape(-1, 2)
    return Surface(points.reshape(-1, 3).astype(np.float64), normals.reshape(-1, 3), uv, tris.astype(np.int64))


def superellipse(theta: np.ndarray, exponent: float) -> tuple[np.ndarray, np.ndarray]:
    """Cos/sin of a superellipse (exponent 2 is a circle, larger is boxier)."""
    c, s = np.cos(theta), np.sin(theta)
    e = 2.0 / exponent
    return np.sign(c) * np.abs(c) ** e, np.sign(s) * np.abs(s) ** e


def profile(knots_x, knots_y, x) -> np.ndarray:
    """Smooth (cubic Hermite, Catmull-Rom tangents) interpolation through control points."""
    kx = np.asarray(knots_x, float)
    ky = np.asarray(knots_y, float)
    x = np.clip(np.asarray(x, float), kx[0], kx[-1])
    m = np.gradient(ky, kx)
    k = np.clip(np.searchsorted(kx, x, side="right") - 1, 0, len(kx) - 2)
    h = kx[k + 1] - kx[k]
    t = (x - kx[k]) / h
    t2, t3 = t * t, t * t * t
    return ((2 * t3 - 3 * t2 + 1) * ky[k] + (t3 - 2 * t2 + t) * h * m[k]
            + (-2 * t3 + 3 * t2) * ky[k + 1] + (t3 - t2) * h * m[k + 1])


def polyline_at(points: np.ndarray, t: np.ndarray) -> np.ndarray:
    """Points at fractions ``t`` (0..1) of the arc length of a polyline."""
    seg = np.linalg.norm(np.diff(points, axis=0), axis=1)
    cum = np.concatenate([[0.0], np.cumsum(seg)]) / seg.sum()
    return np.column_stack([np.interp(t, cum, points[:, k]) for k in range(3)])


def tube(path: np.ndarray, r1: np.ndarray, r2: np.ndarray, rows: int, cols: int,
         hint=(0.0, 1.0, 0.0), exponent: float = 2.0, caps: tuple[int, int] = (0, 0),
         cap_depth: float = 1.0, smooth_path: bool = True) -> Surface:
    """A tube along ``path`` (a polyline) with radii profiles ``r1`` (along ``hint``) and ``r2``.

    ``r1``/``r2`` are sampled at equal arc-length steps from the start to the end of the
    path; ``caps`` adds that many rows of a rounded (half-ellipsoid) cap at each end.
    """
    t = np.linspace(0.0, 1.0, rows)
    centers = polyline_at(np.asarray(path, float), t) if len(path) > 2 or not smooth_path else \
        path[0] + t[:, None] * (path[-1] - path[0])
    kr = np.linspace(0.0, 1.0, len(r1))
    a = profile(kr, r1, t)
    b = profile(kr, r2, t)
    tangent = np.gradient(centers, axis=0)
    tangent /= np.linalg.norm(tangent, axis=1, keepdims=True)
    if smooth_path and rows > 4:
        # Average tangents over neighbours so polyline corners give rounded frames.
        kernel = np.array([0.25, 0.5, 0.25])
        padded = np.concatenate([tangent[:1], tangent, tangent[-1:]])
        tangent = sum(kernel[k] * padded[k:k + rows] for k in range(3))
        tangent /= np.linalg.norm(tangent, axis=1, keepdims=True)
    start_cap, end_cap = caps
    if start_cap:
        al = np.linspace(0.0, np.pi / 2, start_cap + 1)[:-1]
        cc = centers[0] - tangent[0] * (np.cos(al) * a[0] * cap_depth)[:, None]
        centers = np.concatenate([cc, centers])
        tangent = np.concatenate([np.repeat(tangent[:1], start_cap, 0), tangent])
        a = np.concatenate([a[0] * np.sin(al), a])
        b = np.concatenate([b[0] * np.sin(al), b])
    if end_cap:
        al = np.linspace(0.0, np.pi / 2, end_cap + 1)[:-1][::-1]
        cc = centers[-1] + tangent[-1] * (np.cos(al) * a[-1] * cap_depth)[:, None]
        centers = np.concatenate([centers, cc])
        tangent = np.concatenate([tangent, np.repeat(tangent[-1:], end_cap, 0)])
        a = np.concatenate([a, a[-1] * np.sin(al)])
        b = np.concatenate([b, b[-1] * np.sin(al)])
    h = np.asarray(hint, float)
    ax1 = h - (tangent @ h)[:, None] * tangent
    ax1 /= np.linalg.norm(ax1, axis=1, keepdims=True)
    ax2 = np.cross(tangent, ax1)
    theta = np.linspace(0.0, 2 * np.pi, cols + 1)
    cs, sn = superellipse(theta, exponent)
    pts = (centers[:, None, :] + (a[:, None] * cs[None, :])[..., None] * ax1[:, None, :]
           + (b[:, None] * sn[None, :])[..., None] * ax2[:, None, :])
    return grid_surface(pts, pole_start=bool(start_cap), pole_end=bool(end_cap))


def tube_triangles(rows: int, cols: int, caps: tuple[int, int]) -> int:
    return grid_triangle_count(rows + caps[0] + caps[1], cols, bool(caps[0]), bool(caps[1]))


def bone_weights(points: np.ndarray, bones: list[tuple[int, np.ndarray, np.ndarray]],
                 power: float = 6.0, eps: float = 0.002) -> tuple[np.ndarray, np.ndarray]:
    """Skin weights from the distance of each point to each bone segment.

    Inverse-distance weights (to the ``power``) blend smoothly where two bones meet (an
    elbow's skin is near both) and fall to nothing along a bone's middle. The four largest
    are kept and renormalized; unused slots get joint 0 and weight 0.
    """
    P = points[:, None, :]
    A = np.array([b[1] for b in bones])[None]
    B = np.array([b[2] for b in bones])[None]
    AB = B - A
    denom = np.maximum((AB * AB).sum(-1), 1e-12)
    t = np.clip(((P - A) * AB).sum(-1) / denom, 0.0, 1.0)
    d = np.linalg.norm(P - (A + t[..., None] * AB), axis=-1)
    # ``eps`` (metres) keeps a point on a bone from taking an infinite weight; it is absolute,
    # not relative to the part, so clothes skinned on a body proxy get the body's weights.
    w = 1.0 / (d + eps) ** power
    ids = np.array([b[0] for b in bones])
    k = min(4, len(bones))
    top = np.argsort(-w, axis=1, kind="stable")[:, :k]
    tw = np.take_along_axis(w, top, axis=1)
    tw /= tw.sum(axis=1, keepdims=True)
    # Drop negligible influences so joints stay few and weights stay exact after rounding.
    tw = np.where(tw < 0.01, 0.0, tw)
    tw /= tw.sum(axis=1, keepdims=True)
    joints = np.zeros((len(points), 4), np.uint8)
    weights = np.zeros((len(points), 4), np.float32)
    joints[:, :k] = np.where(tw > 0, ids[top], 0)
    weights[:, :k] = tw.astype(np.float32)
    return joints, normalize_weights(weights)


def normalize_weights(weights: np.ndarray) -> np.ndarray:
    """Make float32 rows sum to 1 exactly enough for the validator: the largest absorbs the rest."""
    w = weights.astype(np.float32)
    big = np.argmax(w, axis=1)
    rows = np.arange(len(w))
    w[rows, big] = 0.0
    w[rows, big] = np.float32(1.0) - w.sum(axis=1, dtype=np.float32)
    return w


def rigid_weights(count: int, joint: int) -> tuple[np.ndarray, np.ndarray]:
    joints = np.zeros((count, 4), np.uint8)
    joints[:, 0] = joint
    weights = np.zeros((count, 4), np.float32)
    weights[:, 0] = 1.0
    return joints, weights


def merge(surfaces: list[Surface]) -> Surface:
    """Concatenate parts into one vertex/index set (indices offset)."""
    offs = np.cumsum([0] + [len(s.positions) for s in surfaces[:-1]])
    return Surface(
        np.concatenate([s.positions for s in surfaces]),
        np.concatenate([s.normals for s in surfaces]),
        np.concatenate([s.uv for s in surfaces]),
        np.concatenate([s.indices + o for s, o in zip(surfaces, offs)]),
        np.concatenate([s.joints for s in surfaces]) if all(s.joints is not None for s in surfaces) else None,
        np.concatenate([s.weights for s in surfaces]) if all(s.weights is not None for s in surfaces) else None,
    )
