"""The outfit: a T-shirt, trousers and shoes cut from MakeHuman's tights helper, so they follow every body.

The ``helper-tights`` geometry is a second skin over the whole body, shaped by the same targets,
so clothes cut from it fit every gender, body shape and height and deform with the body in every
clip: each garment vertex takes the skin weights of the body vertex nearest it (the helper's own
weights, from weights.mixamo.json, bend differently from the skin's: the skin came out through the
trousers behind a bent knee).

1. Cut by the skeleton: the shirt from a crew neckline (a line round the base of the neck, a scoop
   at the front and a shallow dip at the back) down to a hem below the waistband, with sleeves to the
   middle of the upper arm; the trousers from the waist to the ankle; the shoes below the ankle.
2. Smooth edges: the vertices of a kept triangle that lie past its garment's edge move, along
   their mesh edges, to where those edges cross it (the sleeve's end), so hems run on the surface as
   smooth lines, not the sawtooth of whole triangles. (Step 1 keeps every triangle with a corner inside the garment, so each edge's
   triangles straddle it and have a vertex to move.) The shirt's hem is the exception: its triangles
   are split along the hem's height (:func:`_clip`; the neckline likewise), so it is a level line on the surface all round
   and no triangle is squeezed (squeezed hem triangles let the waistband show through in some clips,
   tests/render/test_framing_and_poses.py; cutting by whole quads of the helper left a notch where its loops dip at the
   front).
3. Layering: each garment stands off the skin along its normals, the shirt farther than the
   trousers' waistband it overlaps (and a little more towards its hem, which hangs loose), the shoes
   farthest (their leather has thickness); and the shirt at least its stand-off out from the skin
   under it everywhere (the helper runs under the skin beside the neck).
4. UVs: the tights' own unwrap (a small corner of MakeHuman's layout) scaled uniformly to fill
   the garment's texture; the shoes' ``v`` is their height instead, so the sole and welt are a
   band of the shoe texture all round.

>>> from workbench.options import normalize_avatar_settings           # doctest: +SKIP
>>> from workbench.body.mesh import body_mesh                         # doctest: +SKIP
>>> sorted(outfit_pieces(body_mesh(normalize_avatar_settings({"gender": "feminine"}))))   # doctest: +SKIP
['Outfit_Bottom', 'Outfit_Footwear', 'Outfit_Top']
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
from scipy.spatial import cKDTree

from ..skeleton import JOINT_NAMES
from .compile import top_four
from .lod import Piece, piece
from .mesh import BodyMesh, vertex_normals

__all__ = ["outfit_pieces", "cut", "LIFT", "SHIRT_HEM", "HEM_FLARE", "WAISTBAND", "SHOE_HEIGHT"]

# Standing off the skin (metres): the shirt over the trousers' waistband, the shoes' leather.
LIFT = {"Outfit_Top": 0.008, "Outfit_Bottom": 0.003, "Outfit_Footwear": 0.006}
# The shirt's hem and the trousers' waistband, as fractions of the height: they overlap, and the
# shirt stands farther off the skin, so no clip shows the waistband through the shirt
# (tests/render/test_framing_and_poses.py poses every clip to check).
SHIRT_HEM = 0.52
WAISTBAND = 0.54
# The hem hangs loose: the shirt stands this much farther off the skin at the hem (metres), easing off
# over HEM_FLARE_SPAN above it. Cut on a line that clings, the hem's last row of vertices bent in at
# the waistband's height when the hips bend (run, jump) and the waistband showed under it.
HEM_FLARE = 0.006
HEM_FLARE_SPAN = 0.04
HEM_SNAP = 0.004
# The neckline: how far below the Neck joint it runs at the front (a crew neck's scoop), at the back
# and at the sides, as fractions of the Spine2-to-Neck length (so it scales with the torso).
NECK_FRONT = 0.45
NECK_BACK = 0.12
NECK_SIDE = 0.05
SHOE_HEIGHT = 0.11


def _edges(mesh: BodyMesh) -> dict[str, float]:
    sk = mesh.skeleton
    arm, fore = sk.pos("LeftArm")[0], sk.pos("LeftForeArm")[0]
    # The neck's own radius (heavy and athletic necks are thicker): the skin round the Neck joint.
    torso = float(sk.pos("Neck")[1] - sk.pos("Spine2")[1])
    return {"waist": float(WAISTBAND * sk.height), "hem": float(SHIRT_HEM * sk.height),
            "ankle": float(sk.pos("LeftFoot")[1] + 0.045),
            "sleeve": float(arm + 0.42 * (fore - arm)), "neck_y": float(sk.pos("Neck")[1]), "torso": torso,
            "collar_floor": float(sk.pos("Neck")[1] - (NECK_SIDE + NECK_FRONT) * torso),
            "neck_x": float(sk.pos("Neck")[0]), "neck_z": float(sk.pos("Neck")[2])}


def _neckline(e: dict, p: np.ndarray) -> np.ndarray:
    """Height of each point above the neckline at its bearing round the neck's axis: a line round the
    base of the neck, dipping in a smooth scoop at the front and a little at the back (the bearing's
    cosine to the power 1.5). A height, not a distance from a cylinder round the neck: the neck is
    upright, so a level cut crosses it cleanly; a cylinder's cut met the sloping shoulders at a glancing
    angle and left slivers there, and its floor left a deep V down the back."""
    dx, dz = p[..., 0] - e["neck_x"], p[..., 2] - e["neck_z"]
    c = dz / np.maximum(np.hypot(dx, dz), 1e-9)
    dip = NECK_SIDE + NECK_FRONT * np.clip(c, 0, 1) ** 1.5 + NECK_BACK * np.clip(-c, 0, 1) ** 1.5
    return p[..., 1] - (e["neck_y"] - dip * e["torso"])


def _fields(e: dict, name: str, hem: float) -> list:
    """The garment's edges as functions of positions, positive on the garment's side."""
    if name == "Outfit_Top":
        return [lambda p: p[:, 1] - hem, lambda p: -_neckline(e, p), lambda p: e["sleeve"] - np.abs(p[:, 0] - e["neck_x"])]
    if name == "Outfit_Bottom":
        return [lambda p: e["waist"] - p[:, 1], lambda p: p[:, 1] - e["ankle"]]
    return [lambda p: e["ankle"] + 0.012 - p[:, 1]]


def _snap(pos: np.ndarray, indices: np.ndarray, field) -> np.ndarray:
    """Vertices where ``field`` < 0 move to where it crosses 0 on their edges to vertices where it
    is >= 0 (the average of those crossings): the edge becomes the field's zero line, on the surface."""
    f = field(pos)
    edges = np.concatenate([indices[:, [0, 1]], indices[:, [1, 2]], indices[:, [2, 0]]])
    edges = np.concatenate([edges, edges[:, ::-1]])
    a, b = edges[:, 0], edges[:, 1]
    cross = (f[a] < 0) & (f[b] >= 0)
    a, b = a[cross], b[cross]
    t = (f[a] / (f[a] - f[b]))[:, None]
    point = pos[a] + t * (pos[b] - pos[a])
    total = np.zeros_like(pos)
    count = np.zeros(len(pos))
    np.add.at(total, a, point)
    np.add.at(count, a, 1)
    out = pos.copy()
    moved = count > 0
    out[moved] = total[moved] / count[moved, None]
    return out


def _clip(p: Piece, field) -> Piece:
    """``p`` cut along ``field``'s zero line: triangles wholly where it is >= 0 stay, those across it are
    split there (a new vertex on each crossed edge, its attributes interpolated; one new vertex per edge,
    so neighbours share it), and the rest go. The cut edge runs exactly on the line, on the surface, with
    no triangle squeezed.

    >>> tri = Piece(np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0]], np.float32), np.tile([0, 0, 1], (3, 1)).astype(np.float32),
    ...             np.zeros((3, 2), np.float32), np.array([[0, 1, 2]]), np.zeros((3, 4), np.uint8),
    ...             np.tile([1, 0, 0, 0], (3, 1)).astype(np.float32), np.arange(3))
    >>> cut = _clip(tri, lambda q: q[:, 1] - 0.5)
    >>> cut.triangles, sorted(np.round(cut.positions[:, 1], 3).tolist())
    (1, [0.5, 0.5, 1.0])
    """
    pos = p.positions.astype(np.float64)
    f = field(pos)
    # A vertex on the line counts as inside: no zero-length edge is made to meet it. A triangle with all
    # three corners on it goes (a flap lying in the cut).
    on = np.abs(f) < 1e-6
    f = np.where(on, 1e-6, f)
    inside = f >= 0
    tri = p.indices
    n_in = inside[tri].sum(1)
    # Each crossed triangle turned so its odd corner (the one inside of 1, the one outside of 2) comes
    # first: a rotation keeps the winding.
    split = (n_in == 1) | (n_in == 2)
    t = tri[split]
    odd = inside[t] == (n_in[split] == 1)[:, None]
    first = np.argmax(odd, axis=1)
    t = np.take_along_axis(t, (first[:, None] + np.arange(3)) % 3, axis=1)
    a, b, c = t.T
    # The new vertices: one per crossed edge (keyed by its sorted ends), interpolated from the sorted ends.
    ends = np.sort(np.concatenate([np.column_stack([a, b]), np.column_stack([a, c])]), axis=1)
    key = ends[:, 0] * len(pos) + ends[:, 1]
    keys, where = np.unique(key, return_inverse=True)
    u, v = keys // len(pos), keys % len(pos)
    w = (f[u] / (f[u] - f[v]))[:, None]
    near = np.where(inside[u], u, v)
    normals = p.normals[u] * (1 - w) + p.normals[v] * w
    normals /= np.maximum(np.linalg.norm(normals, axis=1, keepdims=True), 1e-12)
    # An edge whose inside end is on the line crosses it there: that vertex, not a new one beside it.
    index = np.where(on[near], near, len(pos) + np.arange(len(keys)))
    ab, ac = index[where[:len(a)]], index[where[len(a):]]
    one = n_in[split] == 1
    faces = np.concatenate([tri[n_in == 3], np.column_stack([a, ab, ac])[one],
                            np.column_stack([ab, b, c])[~one], np.column_stack([ab, c, ac])[~one]])
    # Triangles that collapsed to a point or an edge there go, and flaps lying in the cut.
    faces = faces[(faces[:, 0] != faces[:, 1]) & (faces[:, 1] != faces[:, 2]) & (faces[:, 2] != faces[:, 0])
                  & ~np.append(on, np.ones(len(keys), bool))[faces].all(1)]
    positions = np.concatenate([pos, pos[u] + w * (pos[v] - pos[u])])
    grown = Piece(positions.astype(np.float32), np.concatenate([p.normals, normals.astype(np.float32)]),
                  np.concatenate([p.uv, (p.uv[u] * (1 - w) + p.uv[v] * w).astype(np.float32)]), faces,
                  np.concatenate([p.joints, p.joints[near]]), np.concatenate([p.weights, p.weights[near]]),
                  np.concatenate([p.source, p.source[near]]))
    # Only the vertices the triangles use, in their old order.
    used = np.unique(faces)
    remap = np.full(len(positions), -1, np.int64)
    remap[used] = np.arange(len(used))
    return Piece(*(getattr(grown, k)[used] for k in ("positions", "normals", "uv")), remap[faces],
                 *(getattr(grown, k)[used] for k in ("joints", "weights", "source")))


def _level(p: Piece, field) -> Piece:
    """``p`` with the vertices within :data:`HEM_SNAP` of a height field's zero line moved straight up or
    down onto it (the field is a height minus the line's): cut there, they left slivers a fraction of a
    millimetre wide that the lift off the skin turned inside out."""
    f = field(p.positions.astype(np.float64))
    near = np.abs(f) < HEM_SNAP
    positions = p.positions.copy()
    positions[near, 1] -= f[near].astype(np.float32)
    return replace(p, positions=positions)


def _uv_fill(uv: np.ndarray) -> np.ndarray:
    """Scale UVs uniformly so their bounding box fills [0, 1] on its longer side."""
    lo, hi = uv.min(0), uv.max(0)
    return ((uv - lo) / max(float((hi - lo).max()), 1e-9)).astype(np.float32)


def cut(mesh: BodyMesh, name: str) -> tuple[Piece, np.ndarray]:
    """Garment ``name`` cut from the tights helper, on the skin (steps 1 and 2): the piece and its
    vertices' positions with the edges moved onto their lines (before it stands off the skin)."""
    e = _edges(mesh)
    tights = mesh.face_groups["helper-tights"]
    corners = mesh.positions[mesh.triangles[tights]].astype(np.float64)      # (F, 3, 3)
    fields = _fields(e, name, e["hem"])
    # 1. A triangle belongs to the garment unless one of its edges leaves all three corners outside.
    keep = np.ones(len(tights), bool)
    for field in fields:
        keep &= field(corners.reshape(-1, 3)).reshape(-1, 3).max(1) >= 0
    p = piece(mesh, tights[keep])
    if name == "Outfit_Top":
        # The shirt's hem is cut, not snapped: its triangles split along the hem's height, so the hem
        # is a level line all round on every body (the helper's loops dip at the front, and cutting
        # by whole quads left a notch there) and no triangle is squeezed (squeezed ones let the
        # waistband show through in some clips).
        p = _clip(_level(p, fields[0]), fields[0])
        # The neckline too: cut along its line, so it follows the neck's base smoothly (snapped, a vertex
        # where two crossings met sat at their average and the corners stepped).
        p = _clip(_level(p, lambda q: _neckline(e, q)), fields[1])
    pos = p.positions.astype(np.float64)
    # 2. Vertices past an edge move onto it.
    for field in fields[2:] if name == "Outfit_Top" else fields:
        pos = _snap(pos, p.indices, field)
    return p, pos


def outfit_pieces(mesh: BodyMesh) -> dict[str, Piece]:
    """The ``Outfit_Top``, ``Outfit_Bottom`` and ``Outfit_Footwear`` meshes for this body."""
    hem = _edges(mesh)["hem"]
    body = mesh.groups["body"]
    skin_tree = cKDTree(mesh.positions[body].astype(np.float64))
    out = {}
    for name in ("Outfit_Top", "Outfit_Bottom", "Outfit_Footwear"):
        p, pos = cut(mesh, name)
        # 3. Off the skin, along the helper's own normals (those of the moved edge triangles are skewed),
        # and the shirt at least that far out from the skin under it everywhere.
        lift = np.full(len(pos), LIFT[name])
        if name == "Outfit_Top":
            lift += HEM_FLARE * np.clip(1 - (pos[:, 1] - hem) / HEM_FLARE_SPAN, 0, 1)
        positions = pos + lift[:, None] * p.normals
        if name == "Outfit_Top":
            positions = _clear_of_the_skin(positions, mesh, skin_tree, body, lift)
        positions = positions.astype(np.float32)
        if name == "Outfit_Footwear":
            positions[:, 1] = np.maximum(positions[:, 1], 0.0)    # the soles rest on the floor
        # 4. UVs.
        if name == "Outfit_Footwear":
            height = positions[:, 1] - positions[:, 1].min()
            uv = np.column_stack([_uv_fill(p.uv)[:, 0], 1 - np.clip(height / SHOE_HEIGHT, 0, 1)]).astype(np.float32)
        else:
            uv = _uv_fill(p.uv)
        # Clothes take no face morphs (source -1).
        # Normals of the final surface, but the helper's own on the edge vertices step 2 moved: the
        # triangles it squeezed there would tip theirs over (shading a hem dark, as if inside out).
        normals = vertex_normals(positions, p.indices)
        moved = np.any(pos != p.positions, axis=1)
        normals[moved] = p.normals[moved]
        joints, weights = _cloth_weights(mesh, body, skin_tree, pos)
        out[name] = replace(p, positions=positions, normals=normals, uv=uv, joints=joints,
                            weights=weights, source=np.full(len(positions), -1, np.int64))
    return out


def _cloth_weights(mesh: BodyMesh, body: np.ndarray, skin_tree, pos: np.ndarray, k: int = 4):
    """Skin weights for garment vertices at ``pos``: those of the ``k`` nearest body vertices, blended by
    inverse distance, so cloth and skin bend alike. (The helper's own weights differ from the skin's: in
    the walk's bent knee the skin came 1 cm out through the trousers. The single nearest body vertex's
    weights jumped between neighbours where the neck meets the shoulders, and the shirt's neckline
    folded up into fins there when the arms came down.)"""
    dist, near = skin_tree.query(pos, k=k)
    share = 1 / np.maximum(dist, 1e-4)
    share /= share.sum(1, keepdims=True)
    src = body[near]                                                   # (N, k)
    dense = np.zeros((len(pos), len(JOINT_NAMES)), np.float64)
    rows = np.repeat(np.arange(len(pos)), k * 4)
    np.add.at(dense, (rows, mesh.joints[src].reshape(-1).astype(np.int64)),
              (mesh.weights[src] * share[..., None]).reshape(-1))
    return top_four(dense.astype(np.float32))


def _clear_of_the_skin(positions: np.ndarray, mesh: BodyMesh, skin_tree, body: np.ndarray,
                       lift: np.ndarray) -> np.ndarray:
    """Each vertex at least ``lift`` out from the skin under it: measured along the normals of its nearest
    body vertices and pushed out along theirs where short. The tights helper runs under the skin in
    places (over the trapezius beside the neck), so standing it off along its own normals left the skin
    in front of the shirt there."""
    _, near = skin_tree.query(positions, k=3)
    skin = mesh.positions[body[near]].astype(np.float64)          # (N, 3, 3)
    normal = mesh.normals[body[near]].astype(np.float64)
    short = lift[:, None] - np.einsum("nkc,nkc->nk", positions[:, None] - skin, normal)
    k = short.argmax(1)
    push = np.clip(short[np.arange(len(k)), k], 0, None)
    return positions + push[:, None] * normal[np.arange(len(k)), k]
