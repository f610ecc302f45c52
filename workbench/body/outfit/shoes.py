"""Shoes: an upper cut from the helper round each foot (:mod:`.pattern`, as every garment) and, built on it
per body, what makes it read as a shoe: a sole all round, a padded tongue and criss-crossed laces.

:func:`extras` builds, per foot, in the foot's own frame (along it from the heel to the toes, across it,
up; from the skeleton's foot joints):

1. The sole: the footprint's outline (the convex hull of the upper's lowest points round the foot's
   middle), :data:`WELT` out from the upper (:data:`HEEL_WELT` more at the heel), swept through a rounded
   profile from the floor to the sole's height, and a cap under it. The foot stands in it (the feet rest on the floor: the
   avatar's height is measured from them). Boots' soles are thicker and dark, their bottoms rising under
   the arch, so a heel shows.
2. The tongue: a padded strip along the top of the foot from the vamp to above the collar, following the
   upper's top line (its highest points across the foot's middle at each station along it).
3. The laces: flat cords from eyelets on either side of the tongue, crossing over it to the other side
   one row higher, and a bow at the top.
4. The toe cap (:func:`_toe_cap`): over the front of the foot,
   the upper's own surface cut along a curve (:func:`.clip.clip`) and lifted :data:`OVERLAY_LIFT` off it, in
   the texture's cap band (a sneaker's rubber, a boot's darker leather): at full figure, where the whole shoe
   is some 20 pixels long, an upper of one colour read as a blob (review U, defect 10).

Each new vertex takes the skin weights of the upper's point nearest it; its UVs point into the bands of
the shoe's texture (:data:`UV`: the upper's grain, the sole's rubber, the laces' cord).

>>> sorted(SHOES)
['boots', 'sneakers']
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from ..mesh import BodyMesh, vertex_normals

__all__ = ["Shoe", "SHOES", "UV", "extras", "FLOOR"]

# Where each part's texels are in a shoe's texture (v ranges of glTF's UVs; the upper's own run 0 to UPPER).
UV = {"upper": (0.0, 0.78), "sole": (0.8, 0.88), "lace": (0.9, 0.935), "cap": (0.955, 0.995)}
UPPER = UV["upper"][1]
# How far the sole stands out from the upper (metres).
WELT = 0.004
# And more at the heel's back, where the upper's lowest rows bulge past the sole's rounded top: with the
# welt alone they showed through it in teeth (metres).
HEEL_WELT = 0.004
# The footprint: points of the upper this low count (metres above the floor).
FLOOR = 0.03


@dataclass(frozen=True)
class Shoe:
    """A shoe's build: its sole's height (metres) and how far its bottom rises under the arch (a heel), the
    tongue's half-width and how far it stands off the upper, how many rows of eyelets, and where along
    the top line (0 the vamp, 1 the collar) they run."""

    sole: float
    arch: float
    tongue: float
    stand: float
    rows: int
    span: tuple[float, float]


SHOES = {"sneakers": Shoe(sole=0.026, arch=0.0, tongue=0.021, stand=0.005, rows=5, span=(0.1, 0.82)),
         "boots": Shoe(sole=0.03, arch=0.012, tongue=0.019, stand=0.004, rows=7, span=(0.08, 0.9))}
# The sole's profile: (out from the outline, up as a share of the sole's height plus metres).
# (Its top's inner edge tucks under the upper, which stands 6 mm off the skin: further in, it met the heel.)
PROFILE = np.array([[-0.005, 0.0, 0.0], [0.0, 0.0, 0.004], [0.0, 1.0, -0.004], [-0.0055, 1.0, -0.0005]])
BEARINGS = 32
# Where the lacing starts: this share of the way from under the ankle to the toes' tip.
VAMP = 0.66
STATIONS = 10
LACE = 0.0028
# The toe cap (both styles'): a field on the upper's points in the foot's frame (along, across from its middle;
# metres) and the toes' tip along the foot (``toe``), positive on the cap: reaching CAP_REACH back from the toes' tip
# along the middle, its edge curving forward to the sole at the sides.
# (A boot's heel counter too took the largest outfit over LOD 0's triangle budget; leaving out the upper's
# triangles under the overlays left holes whose rims zigzag, spikes in test_clothes' rims.)
CAP_REACH = 0.045


def _toe_cap(along: np.ndarray, across: np.ndarray, toe: float) -> np.ndarray:
    return along - (toe - CAP_REACH) - 10.0 * across ** 2


# How far an overlay stands off the upper (metres): its edge a step that catches the light.
OVERLAY_LIFT = 0.0012
# How far every part of a shoe stands outside the skin at least (metres).
CLEAR = 0.0015


class _Mesh:
    """Vertices and triangles gathered part by part, each vertex with its UV."""

    def __init__(self):
        self.pos, self.uv, self.faces = [], [], []
        self.count = 0

    def add(self, pos: npt.ArrayLike, uv: npt.ArrayLike, faces: npt.ArrayLike) -> None:
        self.pos.append(np.asarray(pos, np.float64).reshape(-1, 3))
        self.uv.append(np.asarray(uv, np.float64).reshape(-1, 2))
        self.faces.append(np.asarray(faces, np.int64).reshape(-1, 3) + self.count)
        self.count += len(self.pos[-1])

    def grid(self, pos: np.ndarray, uv: np.ndarray, closed: bool = False) -> None:
        """A (rows, cols) grid of points as triangles, the columns wrapping round with ``closed``."""
        rows, cols = pos.shape[:2]
        c = np.arange(cols if closed else cols - 1)
        r = np.arange(rows - 1)
        a = r[:, None] * cols + c[None, :]
        b = r[:, None] * cols + (c[None, :] + 1) % cols
        quads = np.stack([a, a + cols, b, b, a + cols, b + cols], -1).reshape(-1, 3)
        self.add(pos.reshape(-1, 3), uv.reshape(-1, 2), quads)


def _frame(mesh: BodyMesh, side: str):
    sk = mesh.skeleton
    ankle, end = sk.pos(side + "Foot").astype(np.float64), sk.pos(side + "Toe_End").astype(np.float64)
    ahead = end - ankle
    ahead[1] = 0.0
    ahead /= np.linalg.norm(ahead)
    across = np.cross([0.0, 1.0, 0.0], ahead)            # +x for a foot facing +z
    return ankle, ahead, across


def _hull_reach(points: np.ndarray, bare: np.ndarray, at: np.ndarray) -> np.ndarray:
    """How far the footprint reaches from its middle at each bearing ``at`` (radians from across the foot
    towards its toes): the convex hull of ``points`` (across, ahead; each ``bare`` further out from the
    middle), so the sole hugs the upper all round. (The farthest point per bearing, widened by a bearing
    each way and smoothed, stood the sole off the upper at the toes' and the heel's corners, where the
    reach changes fast with the bearing: a platform round every shoe, "clunky" in review F.)

    >>> square = np.array([[1.0, 1.0], [-1.0, 1.0], [-1.0, -1.0], [1.0, -1.0]])
    >>> np.round(_hull_reach(square, np.zeros(4), np.array([0.0, np.pi / 4])), 6).tolist()
    [1.0, 1.414214]
    """
    from scipy.spatial import ConvexHull

    length = np.maximum(np.hypot(points[:, 0], points[:, 1]), 1e-12)
    pts = points * ((length + bare) / length)[:, None]
    hull = ConvexHull(pts)
    normal, offset = hull.equations[:, :2], hull.equations[:, 2]       # normal . x + offset <= 0 inside
    way = np.column_stack([np.cos(at), np.sin(at)])
    facing = way @ normal.T                                             # (bearings, edges)
    with np.errstate(divide="ignore"):
        reach = np.where(facing > 1e-12, -offset[None, :] / facing, np.inf)
    return reach.min(axis=1)


def _sole(out: _Mesh, upper: np.ndarray, skin: np.ndarray, ankle, ahead, across, shoe: Shoe, u0: float) -> None:
    # (Its outline from the upper as high as the sole reaches, and from the skin there 6 mm out: from the
    # upper's lowest points alone, its sides poked through the sole, and the heel's back through its top.)
    low = upper[upper[:, 1] < shoe.sole + 0.004]
    centre = low.mean(0)
    low = np.concatenate([low, skin[skin[:, 1] < shoe.sole + 0.004]])
    rel = low - centre
    bare = np.zeros(len(low))
    bare[len(low) - int((skin[:, 1] < shoe.sole + 0.004).sum()):] = 0.006
    at = np.linspace(-np.pi, np.pi, BEARINGS, endpoint=False)
    far = _hull_reach(np.column_stack([rel @ across, rel @ ahead]), bare, at)
    far += WELT + HEEL_WELT * np.maximum(-np.sin(at), 0) ** 2
    way = np.cos(at)[:, None] * across + np.sin(at)[:, None] * ahead
    # Along the foot (0 the heel, 1 the toe) for the heel's arch.
    along = far * np.sin(at)
    t = (along - along.min()) / max(np.ptp(along), 1e-9)
    arch = shoe.arch * np.clip(1 - np.abs(t - 0.38) / 0.12, 0, 1) ** 0.5
    rows = []
    for off, share, extra in PROFILE:
        row = np.array([centre[0], 0.0, centre[2]]) + (far + off)[:, None] * way
        row[:, 1] = share * shoe.sole + extra + (arch if share == 0 else 0.0)
        rows.append(row)
    grid = np.stack(rows)
    v0, v1 = UV["sole"]
    uv = np.stack([np.column_stack([u0 + 0.48 * (np.arange(BEARINGS) / BEARINGS), np.full(BEARINGS, v0 + (v1 - v0) * k / len(PROFILE))])
                   for k in range(len(PROFILE))])
    base = out.count
    out.grid(grid, uv, closed=True)
    # The cap under it: a fan from the bottom row to the middle, facing down.
    mid = np.array([centre[0], 0.0005, centre[2]])
    out.add(mid[None], [[u0 + 0.24, v1 - 0.005]], np.zeros((0, 3)))
    k = np.arange(BEARINGS)
    out.faces.append(np.column_stack([np.full(BEARINGS, out.count - 1), base + (k + 1) % BEARINGS, base + k]))


def _top_line(upper: np.ndarray, faces: np.ndarray, ankle, ahead, across, collar: float):
    """The upper's top line along the foot's middle, from the vamp (:data:`VAMP` of the way to the toes'
    tip) up to the collar's front, and the upper's outward normals there: the upper cut along the foot's
    middle (a plane across it through the footprint's middle), that section walked from the toes' tip up
    over the instep and the shin to the collar (the helper's points are centimetres apart up
    the shin: the frontmost point at each height zigzagged from the front to the back)."""
    rel = upper - ankle
    used = np.zeros(len(upper), bool)
    used[faces] = True
    floor = used & (upper[:, 1] < FLOOR)
    f = rel @ across - np.median((rel @ across)[floor])
    # The section: each triangle across the plane gives a segment between its two crossed edges; chained
    # from the toes' tip upwards, it runs over the instep and up the front to the collar, where it ends.
    neg = f < 0
    mixed = faces[(neg[faces].sum(1) == 1) | (neg[faces].sum(1) == 2)]
    pairs = np.sort(np.stack([mixed[:, [0, 1]], mixed[:, [1, 2]], mixed[:, [2, 0]]], 1), axis=2)
    crossed = neg[pairs[..., 0]] != neg[pairs[..., 1]]
    keys = (pairs[..., 0] * len(upper) + pairs[..., 1])[crossed].reshape(-1, 2)
    links: dict[int, list[int]] = {}
    for k1, k2 in keys.tolist():
        links.setdefault(k1, []).append(k2)
        links.setdefault(k2, []).append(k1)
    ends = np.array(sorted(links))
    u, v = ends // len(upper), ends % len(upper)
    at = upper[u] + (f[u] / (f[u] - f[v]))[:, None] * (upper[v] - upper[u])
    where = {int(k): i for i, k in enumerate(ends)}
    flat = np.column_stack([(at - ankle) @ ahead, at[:, 1]])
    cur = int(ends[np.argmax(np.where(flat[:, 1] < FLOOR, flat[:, 0], -np.inf))])
    walked, seen = [flat[where[cur]]], {cur}
    while True:
        onward = [k for k in links[cur] if k not in seen]
        if not onward:
            break
        cur = max(onward, key=lambda k: flat[where[k], 1])
        seen.add(cur)
        walked.append(flat[where[cur]])
    path = np.array(walked)
    length = np.r_[0.0, np.cumsum(np.linalg.norm(np.diff(path, axis=0), axis=1))]
    front = float(flat[flat[:, 1] < FLOOR, 0].max())
    past = np.flatnonzero(path[:, 0] <= VAMP * front)
    start = length[past[0]] if len(past) else 0.0
    at = np.linspace(start, length[-1], STATIONS)
    line = np.column_stack([np.interp(at, length, path[:, k]) for k in range(2)])
    # Outward normals of the section (walked up the front: the step turned clockwise), smoothed along it.
    step = np.gradient(line, axis=0)
    out = np.column_stack([step[:, 1], -step[:, 0]])
    out /= np.maximum(np.linalg.norm(out, axis=1, keepdims=True), 1e-12)
    for _ in range(2):
        out[1:-1] = (out[:-2] + 2 * out[1:-1] + out[2:]) / 4
    up = np.array([0.0, 1.0, 0.0])
    base = ankle + np.median((rel @ across)[floor]) * across
    pts = base + line[:, :1] * ahead + (line[:, 1:] - base[1]) * up
    nrm = out[:, :1] * ahead + out[:, 1:] * up
    return pts, nrm / np.linalg.norm(nrm, axis=1, keepdims=True)


def _tongue(out: _Mesh, line: np.ndarray, nrm: np.ndarray, across, shoe: Shoe, u0: float):
    """The tongue over the top line, its top end standing 1.5 cm above the collar; returns its top surface
    as a function of (u across -1..1, v along 0..1) for the laces."""
    # Extended past the collar's front, up the shin.
    up_dir = line[-1] - line[-3]
    up_dir /= max(float(np.linalg.norm(up_dir)), 1e-9)
    ext = line[-1] + np.outer(np.linspace(0.005, 0.016, 3), up_dir)
    path = np.vstack([line, ext])
    normals = np.vstack([nrm, np.repeat(nrm[-1:], 3, 0)])
    side = np.cross(normals, np.gradient(path, axis=0))
    side /= np.maximum(np.linalg.norm(side, axis=1, keepdims=True), 1e-12)
    side *= np.sign((side * across).sum(1, keepdims=True))
    v = np.linspace(0, 1, len(path))
    # Width: full along, rounded off at the top end.
    width = shoe.tongue * np.sqrt(np.clip(1 - np.clip((v - 0.82) / 0.18, 0, 1) ** 2, 0.05, 1))
    u = np.linspace(-1, 1, 4)
    # A padded cross-section: its top surface, round its edges to its underside.
    ring = [(-1.06, 0.0015)] + [(uu, shoe.stand * (1 - 0.45 * uu * uu)) for uu in u] + [(1.06, 0.0015)]
    pos = np.stack([path + (uu * width)[:, None] * side + hh * normals for uu, hh in ring], 1)
    uv = np.stack([np.column_stack([np.full(len(v), u0 + 0.1 + 0.3 * k / len(ring)), 0.05 + 0.6 * v]) for k in range(len(ring))], 1)
    out.grid(pos, uv)

    def surface(uu, vv) -> tuple[np.ndarray, np.ndarray]:
        uu, vv = np.broadcast_arrays(np.asarray(uu, np.float64), np.asarray(vv, np.float64))
        f = vv * (len(path) - 1)
        i = np.minimum(f.astype(np.int64), len(path) - 2)
        t = (f - i)[..., None]
        p = path[i] * (1 - t) + path[i + 1] * t
        n = normals[i] * (1 - t) + normals[i + 1] * t
        s = side[i] * (1 - t) + side[i + 1] * t
        w = (width[i] * (1 - t[..., 0]) + width[i + 1] * t[..., 0])[..., None]
        n /= np.linalg.norm(n, axis=-1, keepdims=True)
        return p + uu[..., None] * w * s + shoe.stand * (1 - 0.45 * np.minimum(uu * uu, 1.0))[..., None] * n, n

    return surface, len(line) / len(path)


def _cords(out: _Mesh, cords: list[tuple[np.ndarray, np.ndarray]], u0: float) -> None:
    """Flat cords, each along its centre line (points) lying 0.4 mm off the surface of its normals, :data:`LACE`
    wide (ribbons: the shoes' material is seen from both sides); all in one go (one at a time, their small
    arrays' overheads were most of a shoe's cost)."""
    lengths = np.array([len(c) for c, _ in cords])
    centre = np.concatenate([c for c, _ in cords])
    normals = np.concatenate([n for _, n in cords])
    start = np.repeat(np.cumsum(lengths) - lengths, lengths)
    end = start + np.repeat(lengths, lengths) - 1
    k = np.arange(len(centre))
    along = centre[np.minimum(k + 1, end)] - centre[np.maximum(k - 1, start)]
    across = np.cross(normals, along)
    across /= np.maximum(np.linalg.norm(across, axis=1, keepdims=True), 1e-12)
    lift = centre + 0.0004 * normals
    pos = np.stack([lift - (LACE / 2) * across, lift + (LACE / 2) * across], 1).reshape(-1, 3)
    v0, v1 = UV["lace"]
    t = (k - start) / np.maximum(end - start, 1)
    uv = np.stack([np.column_stack([u0 + 0.02 + 0.44 * t, np.full(len(k), v)]) for v in (v0, v1)], 1).reshape(-1, 2)
    i = k[k < end]
    faces = np.concatenate([np.column_stack([2 * i, 2 * i + 2, 2 * i + 1]), np.column_stack([2 * i + 1, 2 * i + 2, 2 * i + 3])])
    out.add(pos, uv, faces)


def _laces(out: _Mesh, surface, top_share: float, shoe: Shoe, u0: float) -> None:
    lo, hi = shoe.span
    rows = np.linspace(lo, hi, shoe.rows) * top_share
    steps = 4
    w = np.linspace(0, 1, steps)
    cords = []
    for k in range(shoe.rows - 1):
        for sign in (1.0, -1.0):
            # From one side's eyelet to the other side's one row higher, over the tongue.
            pts, nrm = surface(sign * (1.15 - 2.3 * w), rows[k] + (rows[k + 1] - rows[k]) * w)
            cords.append((pts + 0.0011 * nrm * (1 + sign * 0.6), nrm))
    # The bottom row's bar across, and a bow at the top: two loops and two ends.
    pts, nrm = surface(1.15 - 2.3 * w, np.full(steps, rows[0]))
    cords.append((pts + 0.001 * nrm, nrm))
    knot, n = surface(0.0, rows[-1])
    side = surface(1.0, rows[-1])[0] - knot
    side /= np.linalg.norm(side)
    down = np.cross(side, n)
    down *= -np.sign(down[1]) if abs(down[1]) > 1e-6 else 1.0
    t = np.linspace(0, 2 * np.pi, 8)
    for sign in (1.0, -1.0):
        loop = knot + 0.004 * n + sign * side[None] * (0.011 * (1 - np.cos(t)))[:, None] + down[None] * (0.006 * np.sin(t))[:, None]
        cords.append((loop, np.repeat(n[None], len(t), 0)))
        tail = knot + 0.004 * n + np.outer(np.linspace(0, 1, 6), sign * 0.006 * side + 0.028 * down - 0.004 * n)
        cords.append((tail, np.repeat(n[None], 6, 0)))
    _cords(out, cords, u0)


def _overlays(out: _Mesh, upper: np.ndarray, faces: np.ndarray, ankle, ahead, across, u0: float) -> None:
    """The toe cap over one foot's upper (its points ``upper``, its triangles ``faces``): the upper cut along
    :func:`_toe_cap`'s zero line, lifted :data:`OVERLAY_LIFT` along its normals, in the cap's band of the texture.
    """
    from .clip import clip

    used = np.unique(faces)
    rel = upper[used] - ankle
    along, side, up = rel @ ahead, rel @ across, upper[used, 1]
    floor = up < FLOOR
    side = side - np.median(side[floor])
    toe, heel = float(along[floor].max()), float(along[floor].min())
    local = np.searchsorted(used, faces)
    normals = vertex_normals(upper[used], local)
    v0, v1 = UV["cap"]
    cut, tri = clip(upper[used], local, _toe_cap(along, side, toe))
    if not len(tri):
        return
    pos, nrm = cut @ upper[used], cut @ normals
    nrm /= np.maximum(np.linalg.norm(nrm, axis=1, keepdims=True), 1e-12)
    t = np.clip(((pos - ankle) @ ahead - heel) / max(toe - heel, 1e-9), 0, 1)
    uv = np.column_stack([u0 + 0.02 + 0.44 * t, v0 + (v1 - v0) * np.clip(pos[:, 1] / 0.08, 0, 1)])
    lifted = pos + OVERLAY_LIFT * nrm
    # (Never under the floor the shoe stands on: at the sole's edge the normals point down, and a heavy body's
    # cap stood 1.2 mm under it, tests/body/test_body_looks.py.)
    lifted[:, 1] = np.maximum(lifted[:, 1], 0.0)
    out.add(lifted, uv, tri)


def extras(mesh: BodyMesh, upper: np.ndarray, faces: np.ndarray, style: str, collar: float):
    """The sole, overlays, tongue and laces of both shoes on this body: (positions, normals, UVs, triangles, and per
    vertex the index of the upper's point nearest it, for its skin weights). ``upper`` and ``faces``: the
    fitted upper's points and triangles; ``collar``: the upper's top (metres above the floor)."""
    from scipy.spatial import cKDTree

    shoe = SHOES[style]
    out = _Mesh()
    body = mesh.groups["body"]
    feet = body[mesh.positions[body, 1] < 0.25]
    feet_at, feet_normal = mesh.positions[feet].astype(np.float64), mesh.normals[feet].astype(np.float64)
    middle = float(mesh.skeleton.pos("Hips")[0])
    for k, side in enumerate(("Left", "Right")):
        ankle, ahead, across = _frame(mesh, side)
        sign = 1 if side == "Left" else -1
        mine = np.sign(upper[:, 0] - middle) == sign
        skin = feet_at[(feet_at[:, 1] < 0.05) & (np.sign(feet_at[:, 0] - middle) == sign)]
        u0 = 0.5 * k
        _sole(out, upper[mine], skin, ankle, ahead, across, shoe, u0)
        _overlays(out, upper, faces[mine[faces].all(1)], ankle, ahead, across, u0)
        line, nrm = _top_line(upper, faces[mine[faces].all(1)], ankle, ahead, across, collar)
        surface, top_share = _tongue(out, line, nrm, across, shoe, u0)
        _laces(out, surface, top_share, shoe, u0)
    pos = np.concatenate(out.pos)
    faces = np.concatenate(out.faces)
    uv = np.concatenate(out.uv)
    # Every new point at least CLEAR outside the skin nearest it, along that skin's normal (the heel's back
    # bulges past the upper's lowest points, over the sole's top).
    skin, skin_normal = feet_at, feet_normal
    _, k = cKDTree(skin).query(pos, k=3)
    short = CLEAR - np.einsum("nkc,nkc->nk", pos[:, None] - skin[k], skin_normal[k])
    worst = short.argmax(1)
    rows = np.arange(len(pos))
    pos = pos + (np.maximum(short[rows, worst], 0) * (pos[:, 1] > 0.002))[:, None] * skin_normal[k[rows, worst]]
    nearest = cKDTree(upper).query(pos)[1]
    return pos, vertex_normals(pos, faces), uv, faces, nearest
