"""Ambient occlusion baked once per body into a texture on MakeHuman's UVs (the GLB's ``occlusionTexture``).

Creases, armpits, the gaps between fingers, the eye sockets, under the chin and behind the ears get
less light from around them; baking that into the body's occlusion texture shows it in every
viewer (three.js and model-viewer read ``occlusionTexture``; so does this project's renderer).

1. Volumetric obscurance: the body's surface is marked in a 1 cm voxel grid; a vertex is as
   occluded as the surface is dense in a box around a point a little way out along its normal
   (3 cm and 7 cm boxes, 1.5 and 4 cm out, counted by separable box sums over the grid), so a
   point in a fold, with skin on several sides, is darker than one on an open curve.
2. The per-vertex values are smoothed over the mesh (``SMOOTHING`` rounds, each vertex halfway to its
   neighbours' mean: the 1 cm grid's aliasing left blotches on cheeks and brow that three.js, which
   darkens all of a studio's light by it, showed plainly), then spread over the texture through the body's texel map
   (:mod:`workbench.body.texels`), kept on disk once per machine so a cold process does not redo
   the rasterisation.
3. The face's hollows (:func:`head_occlusion`): the boxes above see a 1 cm grid's surface, not a solid, and an
   eye socket read as open skin (0.9 to 1: three.js lit by its room alone drew a pale face flat, blind review F
   #5). The head is filled solid in 4 mm cells (its triangles' shell, then a flood from outside), and each
   vertex is as occluded as three boxes out along its normal (1 to 7 cm) hold more head than over a flat stretch
   of skin; the lower of this and step 1 is kept, before the smoothing. About 7 ms a body.

Alternatives measured (default body, 2-core machine): rays from every vertex against the mesh
(64 rays, numpy only) took minutes; blurring the whole grid at both radii 0.7 s; a summed-volume table ~0.1 s; integer
box sums of shifted slices ~0.03 s; counting each vertex's boxes in a compiled loop (now) ~3 ms, the same counts.

>>> from workbench.options import normalize_avatar_settings           # doctest: +SKIP
>>> from workbench.body.mesh import body_mesh                         # doctest: +SKIP
>>> img = occlusion_texture(body_mesh(normalize_avatar_settings({"gender": "feminine"})))   # doctest: +SKIP
>>> img.shape                                                          # doctest: +SKIP
(512, 512, 3)
"""

from __future__ import annotations

import numpy as np
from numba import njit

from . import keep
from .mesh import BodyMesh
from .mouth import lining_depth
from .texels import TexelMap, texel_map

__all__ = ["AO_SIZE", "vertex_occlusion", "occlusion_texture", "body_texels"]

AO_SIZE = 512
VOXEL = 0.01
SMOOTHING = 4
FORMAT = 1
# How much of the room's light the back of the mouth's lining is denied. At 0.8 a viewer lit by its room alone
# (three.js with RoomEnvironment and ACES, model-viewer) drew an open mouth pitch black: it scales all of a
# room's light by this, where our renderer's key light is only halved. At 0.45 the back of the mouth gets a
# little over half the room's light, and its colour (:data:`workbench.body.skin.THROAT`) keeps it dark.
# With the lining smooth its walls still mirrored the room (grey sides of a lit box, blind review B): rough now,
# and denied more of the room's light from a centimetre in, so the inside darkens towards the throat. (0.6 and the old
# throat colour drew pitch black in three.js, blind review H: tests/body/test_mouth_cavity_light.py.)
LINING_DARK = 0.5
# The head's hollows, from the head filled solid in HEAD_VOXEL cells: per scale (offset out along the normal and
# half-width of the box, in cells, and weight), the share of the box inside the head beyond HOLLOW_OPEN more than a
# flat stretch of skin has, at HOLLOW_GAIN, denies that much of the room's light, down to 1 - HOLLOW_DARK. (The
# margin keeps a cheek, 0.02 over flat at most, as lit as before: without it a deep masculine face in our previews
# fell from 0.99 to 0.93 of its tone.)
HEAD_VOXEL = 0.004
HOLLOW_SCALES = ((2, 2, 0.4), (4, 4, 0.4), (8, 8, 0.25))
HOLLOW_OPEN = 0.03
HOLLOW_GAIN = 20.0
HOLLOW_DARK = 0.38
# The nostrils' holes are lit at least this much (a ball of NOSTRIL_BALL metres, full within its first half, round the
# nose's underside): the voxels' floor, 0.5, drew them as pitch-black holes on light skin in every renderer (blind review
# G: ours turns the key light off below CAVE_LIT_SKIN, 0.62, and a viewer lit by its room scales all of it by this).
# Above the face's hollows' floor (1 - HOLLOW_DARK), so the nostrils are a soft shade, as a real nose's are in
# daylight; texels lighter than this (the nose's wings and the crease beside them) are left as they are. (0.9 until
# every face's nose tip came forward with lips set back from it: its shadow took the nostrils to 0.34 of the cheek.)
NOSTRIL_FLOOR = 0.95
NOSTRIL_BALL = 0.016
# The lids are lit at least LID_FLOOR (:func:`lids`: the skin over and under each eye's opening, out to LID_REACH
# metres across and up and down from the eye's centre, full within half of it): the head's hollows held the whole
# socket, the lids too, at 0.62 to 0.75, and with the key wrapped past a lid turned down from it the eye sat in a dark
# ring at portrait size, "small and set deep under a shadowed brow ridge ... dead eyes" (blind review AF's sixth
# defect). The socket's corner by the nose's bridge, 17 mm in from the eye's centre, keeps its shade (review F's pale
# face, tests/render/test_threejs_look.py).
LID_FLOOR = 0.9
LID_REACH = (0.015, 0.013)


def _smoothstep(e0, e1, x):
    t = np.clip((x - e0) / (e1 - e0), 0.0, 1.0)
    return t * t * (3 - 2 * t)


@njit(cache=True, nogil=True)
def _box_counts(grid: np.ndarray, at: np.ndarray, r: int) -> np.ndarray:
    """Occupied voxels of the 0/1 ``grid`` in the (2r+1)^3 box centred on each voxel ``at`` (n, 3) (zero
    outside the grid): exact counts, looked up per point (13,000 points, at most 343 voxels each)
    instead of box sums over the whole grid (2 million voxels, twice; 25 ms against 3 ms)."""
    nx, ny, nz = grid.shape
    out = np.zeros(at.shape[0], np.int64)
    for p in range(at.shape[0]):
        c = 0
        for i in range(max(at[p, 0] - r, 0), min(at[p, 0] + r + 1, nx)):
            for j in range(max(at[p, 1] - r, 0), min(at[p, 1] + r + 1, ny)):
                for k in range(max(at[p, 2] - r, 0), min(at[p, 2] + r + 1, nz)):
                    c += grid[i, j, k]
        out[p] = c
    return out


def vertex_occlusion(positions: np.ndarray, normals: np.ndarray, surface: np.ndarray) -> np.ndarray:
    """Step 1: occlusion per vertex in 0..1 (1 open) of ``positions``/``normals``, the occluders
    being the points ``surface`` (the body's vertices)."""
    # The cells laid out alike either side of the surface's middle across (a body's midline: its two sides mirror
    # each other), each point looked up in the cell that holds it across, and half a cell above and in front of it,
    # as the distances and the levels below were tuned with. (Rounding across looked up the cell half a cell to the
    # avatar's left, from a grid laid from the surface's corner: the left of the face came out 0.05 lighter than
    # its right, a seam down the chin in blind review G #9; tests/body/test_chin_seam.py.)
    lo = surface.min(0) - 0.12
    mid = (surface.min(0)[0] + surface.max(0)[0]) / 2
    across = int(np.ceil((mid - lo[0]) / VOXEL))
    lo[0] = mid - (across + 0.5) * VOXEL
    shape = (2 * across + 1, *np.ceil((surface.max(0)[1:] + 0.12 - lo[1:]) / VOXEL).astype(int) + 1)
    grid = np.zeros(shape, np.uint8)
    idx = np.clip(np.floor((surface - lo) / VOXEL).astype(np.int64), 0, np.array(shape) - 1)
    grid[idx[:, 0], idx[:, 1], idx[:, 2]] = 1     # occupied or not: dense meshes do not occlude more
    out = np.zeros(len(positions))
    for dist, r, weight in ((0.015, 1, 0.5), (0.04, 3, 0.5)):
        p = positions + normals * dist
        i = np.clip(np.floor((p - lo) / VOXEL + (0.0, 0.5, 0.5)).astype(np.int64), 0, np.array(shape) - 1)
        counts = _box_counts(grid, i, r)
        out += weight * counts / (2 * r + 1) ** 3
    # An open, flat stretch of skin reads ~0.1 here (the surface crosses the far box); a fold several times that.
    return np.clip(1.1 - out * 2.0, 0.5, 1.0)


@njit(cache=True, nogil=True)
def _shell(corners: np.ndarray, lo: np.ndarray, cell: float, shape: np.ndarray) -> np.ndarray:
    """The cells (``shape``, ``cell`` wide from ``lo``) that triangles ``corners`` (F, 3, 3) pass through: points
    on each at most 0.7 of a cell apart, so the shell has no gap a face-to-face flood could pass."""
    grid = np.zeros((shape[0], shape[1], shape[2]), np.uint8)
    for f in range(corners.shape[0]):
        a, b, c = corners[f, 0], corners[f, 1], corners[f, 2]
        longest = max(np.sqrt(((a - b) ** 2).sum()), np.sqrt(((b - c) ** 2).sum()), np.sqrt(((c - a) ** 2).sum()))
        k = max(int(np.ceil(longest / (0.7 * cell))), 1)
        for i in range(k + 1):
            for j in range(k + 1 - i):
                u, v = i / k, j / k
                x = int(np.floor((a[0] + u * (b[0] - a[0]) + v * (c[0] - a[0]) - lo[0]) / cell))
                y = int(np.floor((a[1] + u * (b[1] - a[1]) + v * (c[1] - a[1]) - lo[1]) / cell))
                z = int(np.floor((a[2] + u * (b[2] - a[2]) + v * (c[2] - a[2]) - lo[2]) / cell))
                if 0 <= x < shape[0] and 0 <= y < shape[1] and 0 <= z < shape[2]:
                    grid[x, y, z] = 1
    return grid


@njit(cache=True, nogil=True)
def _solid(shell: np.ndarray) -> np.ndarray:
    """2 inside the closed ``shell``, 1 on it (a cell the surface crosses is about half inside), 0 outside: a
    face-to-face flood from the grid's sides, top, front and back, but not its floor, where the neck is cut (its
    inside reaches the floor and is not outside)."""
    nx, ny, nz = shell.shape
    out = shell.copy()                      # 1: shell or reached from outside, then flipped for the outside
    stack = np.empty((nx * ny * nz, 3), np.int32)
    top = 0
    for i in range(nx):
        for j in range(ny):
            for k in range(nz):
                if (i == 0 or i == nx - 1 or j == ny - 1 or k == 0 or k == nz - 1) and out[i, j, k] == 0:
                    out[i, j, k] = 2
                    stack[top, 0], stack[top, 1], stack[top, 2] = i, j, k
                    top += 1
    while top > 0:
        top -= 1
        i, j, k = stack[top, 0], stack[top, 1], stack[top, 2]
        for di, dj, dk in ((1, 0, 0), (-1, 0, 0), (0, 1, 0), (0, -1, 0), (0, 0, 1), (0, 0, -1)):
            a, b, c = i + di, j + dj, k + dk
            if 0 <= a < nx and 0 <= b < ny and 0 <= c < nz and out[a, b, c] == 0:
                out[a, b, c] = 2
                stack[top, 0], stack[top, 1], stack[top, 2] = a, b, c
                top += 1
    for i in range(nx):
        for j in range(ny):
            for k in range(nz):
                out[i, j, k] = 0 if out[i, j, k] == 2 else 2 - shell[i, j, k]
    return out


@njit(cache=True, nogil=True)
def _box_share(table: np.ndarray, at: np.ndarray, half: int) -> np.ndarray:
    """The share of the head in the (2 half + 1)^3 box round each point ``at`` (n, 3, in cells), trilinear
    between the boxes round the 8 cell centres about it (no steps where a point crosses a cell); ``table``: the
    solid's summed-volume table (2 a cell inside, 1 on the surface)."""
    nx, ny, nz = table.shape[0] - 1, table.shape[1] - 1, table.shape[2] - 1
    out = np.zeros(at.shape[0])
    vol = (2 * half + 1) ** 3
    for p in range(at.shape[0]):
        fx, fy, fz = at[p, 0] - 0.5, at[p, 1] - 0.5, at[p, 2] - 0.5
        x0, y0, z0 = int(np.floor(fx)), int(np.floor(fy)), int(np.floor(fz))
        s = 0.0
        for cx in range(2):
            wx = (fx - x0) if cx else (1 - (fx - x0))
            for cy in range(2):
                wy = (fy - y0) if cy else (1 - (fy - y0))
                for cz in range(2):
                    wz = (fz - z0) if cz else (1 - (fz - z0))
                    i, j, k = x0 + cx, y0 + cy, z0 + cz
                    a0, a1 = min(max(i - half, 0), nx), min(max(i + half + 1, 0), nx)
                    b0, b1 = min(max(j - half, 0), ny), min(max(j + half + 1, 0), ny)
                    c0, c1 = min(max(k - half, 0), nz), min(max(k + half + 1, 0), nz)
                    n = (table[a1, b1, c1] - table[a0, b1, c1] - table[a1, b0, c1] - table[a1, b1, c0]
                         + table[a0, b0, c1] + table[a0, b1, c0] + table[a1, b0, c0] - table[a0, b0, c0])
                    s += wx * wy * wz * n
        out[p] = s / (2 * vol)
    return out


def head_occlusion(mesh: BodyMesh, neighbours, count: np.ndarray) -> np.ndarray:
    """The head's hollows as occlusion per vertex of ``mesh`` (1 open), the head and neck only (above the neck's
    joint less 3 cm, fading in over the neck); ``neighbours`` and ``count``: the vertices' neighbour matrix and
    neighbour counts (:func:`_adjacency`)."""
    names = mesh.skeleton.names
    neck = float(mesh.skeleton.world[names.index("Neck")][1])
    floor = neck - 0.03
    pos = mesh.positions.astype(np.float64)
    # (the T-pose's shoulders reach the neck's height: the head's part of the body within 13 cm of its middle)
    near = (pos[:, 1] > floor) & (np.abs(pos[:, 0] - mesh.skeleton.world[names.index("Neck")][0]) < 0.13)
    tris = np.concatenate([mesh.triangles[mesh.face_groups[g]] for g in ("body", "helper-l-eye", "helper-r-eye")])
    tris = tris[near[tris].any(1)]
    corners = pos[tris]
    lo = corners.reshape(-1, 3).min(0) - HEAD_VOXEL
    lo[1] = floor
    shape = np.floor((corners.reshape(-1, 3).max(0) - lo) / HEAD_VOXEL).astype(np.int64) + 2
    solid = _solid(_shell(corners, lo, HEAD_VOXEL, shape))
    table = np.zeros(tuple(shape + 1), np.int32)
    table[1:, 1:, 1:] = solid.cumsum(0, dtype=np.int32).cumsum(1).cumsum(2)
    head = mesh.groups["body"][near[mesh.groups["body"]]]
    at, normal = pos[head], mesh.normals[head].astype(np.float64)
    dark = np.zeros(len(head))
    for out, half, weight in HOLLOW_SCALES:
        share = _box_share(table, (at + normal * out * HEAD_VOXEL - lo) / HEAD_VOXEL, half)
        flat = max(half + 0.5 - out, 0) / (2 * half + 1)     # a flat stretch of skin's share
        dark += weight * np.maximum(share - flat - HOLLOW_OPEN, 0)
    fade = _smoothstep(neck - 0.02, neck + 0.02, at[:, 1])
    result = np.ones(len(pos))
    result[head] = 1 - HOLLOW_DARK * np.clip(HOLLOW_GAIN * dark, 0, 1) * fade
    # Not the mouth's lining (LINING_DARK darkens it already, towards the throat: inside the head it read as a
    # hollow, and the room-lit open mouth went from dark red to black) ...
    result = 1 - (1 - result) * (1 - _smoothstep(0.0, 0.003, lining_depth(mesh)))
    # ... and softened over the mesh first (the box sums step where a vertex crosses a cell: texels either side of
    # the seam under the jaw disagreed by over 6 levels)
    for _ in range(SMOOTHING):
        result = np.where(count > 0, 0.5 * result + 0.5 * (neighbours @ result) / np.maximum(count, 1), result)
    return result


def nostrils(mesh: BodyMesh) -> np.ndarray:
    """Per vertex of ``mesh`` (a T-pose body) 1 in the nostrils, 0 from :data:`NOSTRIL_BALL` away: a ball round a point
    8 mm under and 12 mm behind the nose's tip, the tip being the front-most skin on the face's middle between the
    eyes and 7 cm under them."""
    pos = mesh.positions.astype(np.float64)
    body = mesh.groups["body"]
    p = pos[body]
    mid = (pos[mesh.groups["helper-l-eye"]].mean(0) + pos[mesh.groups["helper-r-eye"]].mean(0)) / 2
    ridge = (p[:, 2] > mid[2] - 0.04) & (np.abs(p[:, 0] - mid[0]) < 0.012) & (p[:, 1] < mid[1] - 0.01) \
        & (p[:, 1] > mid[1] - 0.07)
    out = np.zeros(len(pos))
    if not ridge.any():
        return out
    tip = p[ridge][np.argmax(p[ridge][:, 2])]
    d = np.linalg.norm(p - (tip + np.array([0.0, -0.008, -0.012])), axis=1)
    out[body] = _smoothstep(NOSTRIL_BALL, 0.5 * NOSTRIL_BALL, d)
    return out


def lids(mesh: BodyMesh) -> np.ndarray:
    """Per vertex of ``mesh`` (a T-pose body) 1 on the skin round each eye's opening, 0 from :data:`LID_REACH` away
    across and up or down from the eye's centre (an ellipse seen from the front; the face's front layer only)."""
    pos = mesh.positions.astype(np.float64)
    body = mesh.groups["body"]
    p = pos[body]
    out = np.zeros(len(pos))
    for side in "lr":
        eye = pos[mesh.groups[f"helper-{side}-eye"]]
        c = eye.mean(0)
        d = np.hypot((p[:, 0] - c[0]) / LID_REACH[0], (p[:, 1] - c[1]) / LID_REACH[1])
        front = _smoothstep(c[2] - 0.012, c[2] - 0.004, p[:, 2])
        out[body] = np.maximum(out[body], _smoothstep(1.0, 0.5, d) * front)
    return out


def body_texels(mesh: BodyMesh, size: int = AO_SIZE) -> TexelMap:
    """The texel map of the body's UVs at ``size`` (the same for every body: MakeHuman's layout), drawn
    from ``mesh`` once per machine and kept (:func:`~workbench.body.keep.kept`, weights as float16).
    Every process, the one that drew it too, uses the kept numbers, so every texture made from it is
    the same bytes on a cold machine as on a warm one."""
    if size not in _TEXELS:
        def draw() -> dict[str, np.ndarray]:
            m = texel_map(mesh.triangle_uvs[mesh.face_groups["body"]], size)
            return {"triangle": m.triangle, "bary": m.bary.astype(np.float16), "covered": m.covered}

        triangles = len(mesh.face_groups["body"])

        def in_range(kept: dict[str, np.ndarray]) -> None:
            if int(kept["triangle"].min()) < 0 or int(kept["triangle"].max()) >= triangles:
                raise ValueError(f"triangle holds indices outside 0..{triangles - 1}")

        kept = keep.kept(f"texels-body-{size}-v{FORMAT}", draw,
                           {"triangle": (size, size), "bary": (size, size, 3), "covered": (size, size)}, in_range)
        _TEXELS[size] = TexelMap(size, kept["triangle"], kept["bary"].astype(np.float32), kept["covered"])
    return _TEXELS[size]


def prepare(triangles: np.ndarray, count: int) -> None:
    """Make ready what every body's occlusion shares (:mod:`workbench.body.warm`): the neighbour matrix of
    the body's ``triangles`` over ``count`` vertices, and the compiled loops loaded with a body's argument types."""
    _adjacency(triangles, count)
    point = np.zeros((1, 3))
    vertex_occlusion(point, point + (0.0, 1.0, 0.0), point)
    # (the head's compiled loops too, with a body's argument types: loading each from numba's cache in a service's
    # first request cost tens of milliseconds)
    solid = _solid(_shell(np.zeros((1, 3, 3)), np.zeros(3), HEAD_VOXEL, np.full(3, 2, np.int64)))
    _box_share(np.zeros((3, 3, 3), np.int32) + solid[:1, :1, :1].astype(np.int32), point, 1)


_TEXELS: dict[int, TexelMap] = {}
_ADJACENCY: dict = {}


def _adjacency(tris: np.ndarray, count: int):
    """The vertices' neighbour matrix (sparse, 1 per edge) and neighbour counts, once per topology: every
    body has MakeHuman's, so the one kept is used while the triangles are equal to its own (compared, not
    identified by ``id``: each body's triangles are a new array, which made it again for every body)."""
    held = _ADJACENCY.get("held")
    if held is None or held[3] != count or held[2].shape != tris.shape or not np.array_equal(held[2], tris):
        from scipy.sparse import coo_matrix

        a = np.concatenate([tris[:, 0], tris[:, 1], tris[:, 2], tris[:, 1], tris[:, 2], tris[:, 0]])
        b = np.concatenate([tris[:, 1], tris[:, 2], tris[:, 0], tris[:, 0], tris[:, 1], tris[:, 2]])
        m = coo_matrix((np.ones(len(a), np.float32), (a, b)), shape=(count, count)).tocsr()
        m.data[:] = 1.0                                   # an edge of two triangles counts once
        held = (m, np.asarray(m.sum(axis=1)).ravel().astype(np.float32), np.array(tris), count)
        _ADJACENCY["held"] = held   # (one assignment: a thread reading it sees the old entry or the new)
    return held[:2]


def occlusion_texture(mesh: BodyMesh, size: int = AO_SIZE) -> np.ndarray:
    """Step 2: the body's occlusion texture (size, size, 3) uint8, grey (glTF reads its red channel)."""
    body = mesh.groups["body"]
    ao = np.ones(len(mesh.positions), np.float32)
    pos = mesh.positions[body].astype(np.float64)
    ao[body] = vertex_occlusion(pos, mesh.normals[body].astype(np.float64), pos)
    tris = mesh.triangles[mesh.face_groups["body"]]
    neighbours, count = _adjacency(tris, len(ao))
    # (the lower of the two, not their product: the nostrils, dark already, are not darkened twice)
    ao = np.minimum(ao, head_occlusion(mesh, neighbours, count)).astype(np.float32)
    for _ in range(SMOOTHING):
        ao = np.where(count > 0, 0.5 * ao + 0.5 * (neighbours @ ao) / np.maximum(count, 1), ao).astype(np.float32)
    ao += ((np.maximum(ao, NOSTRIL_FLOOR) - ao) * nostrils(mesh)).astype(np.float32)
    ao += ((np.maximum(ao, LID_FLOOR) - ao) * lids(mesh)).astype(np.float32)
    # The mouth's lining, a pouch the voxels see as open skin: dark from a few millimetres behind the lips (a
    # viewer scales its room's light and reflections by this; left open, the inside of an open mouth showed the
    # room as a grey, chrome-like wall in model-viewer).
    ao *= (1 - LINING_DARK * _smoothstep(0.003, 0.03, lining_depth(mesh))).astype(np.float32)
    tmap = body_texels(mesh, size)
    values = ao[tris]                                   # (F, 3) corner values
    img = np.einsum("hwk,hwk->hw", tmap.bary, values[tmap.triangle])
    grey = np.clip(img * 255 + 0.5, 0, 255).astype(np.uint8)
    out = np.repeat(grey[..., None], 3, axis=2)
    out.setflags(write=False)
    return out
