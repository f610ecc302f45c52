"""The outfit: a T-shirt, trousers and shoes cut from MakeHuman's tights helper, so they follow every body.

The ``helper-tights`` geometry is a second skin over the whole body, shaped by the same targets,
so clothes cut from it fit every gender, body shape and height and deform with the body in every
clip: each garment vertex takes the skin weights of the body vertex nearest it (the helper's own
weights, from weights.mixamo.json, bend differently from the skin's: the skin came out through the
trousers behind a bent knee).

1. Cut by the skeleton: the shirt from a crew neckline (a cylinder round the neck, wider at the
   front, so the collar follows the slope of the shoulders) down to a hem below the waistband,
   with sleeves to the middle of the upper arm; the trousers from the waist to the ankle; the
   shoes below the ankle.
2. Smooth edges: the vertices of a kept triangle that lie past its garment's edge move, along
   their mesh edges, to where those edges cross it (the hem's height, the sleeve's end, the
   collar's cylinder), so hems run on the surface as smooth lines, not the sawtooth of whole
   triangles. (Step 1 keeps every triangle with a corner inside the garment, so each edge's
   triangles straddle it and have a vertex to move.) The shirt's hem is the exception, cut by whole
   quads of the helper and left as it is, so it runs along the helper's loops (cutting triangle by
   triangle left the sawtooth of their diagonals): it hangs over the waistband, and squeezed hem
   triangles let the waistband show through in some clips (tests/test_looks.py).
3. Layering: each garment stands off the skin along its normals, the shirt farther than the
   trousers' waistband it overlaps, the shoes farthest (their leather has thickness).
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

from .lod import Piece, piece
from .mesh import BodyMesh, vertex_normals

__all__ = ["outfit_pieces", "LIFT", "SHIRT_HEM", "WAISTBAND", "SHOE_HEIGHT"]

# Standing off the skin (metres): the shirt over the trousers' waistband, the shoes' leather.
LIFT = {"Outfit_Top": 0.008, "Outfit_Bottom": 0.003, "Outfit_Footwear": 0.006}
# Passes filling the hem's notches (each also moves a step in the hem one quad along).
NOTCH_PASSES = 2
# The shirt's hem and the trousers' waistband, as fractions of the height: they overlap, and the
# shirt stands farther off the skin, so no clip shows the waistband through the shirt
# (tests/test_looks.py poses every clip to check).
SHIRT_HEM = 0.52
WAISTBAND = 0.54
SHOE_HEIGHT = 0.11


def _edges(mesh: BodyMesh) -> dict[str, float]:
    sk = mesh.skeleton
    arm, fore = sk.pos("LeftArm")[0], sk.pos("LeftForeArm")[0]
    # The neck's own radius (heavy and athletic necks are thicker): the skin round the Neck joint.
    neck = sk.pos("Neck")
    body = mesh.positions[mesh.groups["body"]]
    ring = body[np.abs(body[:, 1] - neck[1]) < 0.01]
    neck_r = float(np.median(np.hypot(ring[:, 0] - neck[0], ring[:, 2] - neck[2]))) if len(ring) else 0.055
    return {"waist": float(WAISTBAND * sk.height), "hem": float(SHIRT_HEM * sk.height),
            "ankle": float(sk.pos("LeftFoot")[1] + 0.045),
            "sleeve": float(arm + 0.42 * (fore - arm)), "neck_y": float(sk.pos("Neck")[1]), "neck_r": neck_r,
            "collar_floor": float(sk.pos("Spine2")[1] + 0.45 * (sk.pos("Neck")[1] - sk.pos("Spine2")[1])),
            "neck_x": float(sk.pos("Neck")[0]), "neck_z": float(sk.pos("Neck")[2])}


def _collar(e: dict, p: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The neckline as a cylinder round the neck: each point's distance from the neck's axis and
    the collar's radius there (wider at the front: a crew neck's scoop). Only the part above the
    chest counts; below ``e["collar_floor"]`` nothing is cut."""
    dx, dz = p[..., 0] - e["neck_x"], p[..., 2] - e["neck_z"]
    front = np.clip(dz / np.maximum(np.hypot(dx, dz), 1e-9), 0, 1)
    return np.hypot(dx, dz), e["neck_r"] + 0.014 + 0.024 * front ** 2


def _in_collar(e: dict, p: np.ndarray) -> np.ndarray:
    r, radius = _collar(e, p)
    return (r < radius) & (p[..., 1] > e["collar_floor"])


def _fields(e: dict, name: str, hem: float) -> list:
    """The garment's edges as functions of positions, positive on the garment's side."""
    if name == "Outfit_Top":
        def collar(p):
            r, radius = _collar(e, p)
            # Outside the cylinder or under the floor: a continuous field (the larger of the two), so
            # snapping finds one clean crossing per edge; a step from inside to 1.0 at the floor made the
            # neckline's lower edge a zigzag.
            return np.maximum(r - radius, e["collar_floor"] - p[:, 1])
        return [lambda p: p[:, 1] - hem, collar, lambda p: e["sleeve"] - np.abs(p[:, 0] - e["neck_x"])]
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


def _hem_quads(tights: np.ndarray, vertices: np.ndarray, corners: np.ndarray, field) -> np.ndarray:
    """Which tights triangles the shirt keeps at its hem: both triangles of each helper quad (triangles
    2q and 2q + 1 of the body mesh, :mod:`workbench.body.mesh`) whose centre is on the garment's side;
    then, :data:`NOTCH_PASSES` times, a quad left out between kept ones (two or more of its edge
    neighbours kept) goes back in: where the loops dip towards the crotch they would otherwise leave a
    notch in the hem.
    """
    quad = tights // 2
    ids, local = np.unique(quad, return_inverse=True)
    centre = np.zeros((len(ids), 3))
    np.add.at(centre, local, corners.mean(1))
    centre /= np.bincount(local)[:, None]
    kept = field(centre) >= 0
    # Quads' neighbours: quads sharing an edge (the diagonal, shared inside a quad, does not count).
    # Edges as one integer each (their sorted body-mesh vertex ids), so a 1-D sort finds the shared ones.
    edges = np.sort(np.concatenate([vertices[:, [0, 1]], vertices[:, [1, 2]], vertices[:, [2, 0]]]), axis=1)
    key = edges[:, 0].astype(np.int64) * (int(vertices.max()) + 1) + edges[:, 1]
    owner = np.tile(local, 3)
    order = np.lexsort((owner, key))
    e, o = key[order], owner[order]
    pair = (e[1:] == e[:-1]) & (o[1:] != o[:-1])
    links = np.column_stack([o[:-1][pair], o[1:][pair]])
    for _ in range(NOTCH_PASSES):
        count = np.zeros(len(ids), int)
        np.add.at(count, links[:, 0], kept[links[:, 1]])
        np.add.at(count, links[:, 1], kept[links[:, 0]])
        kept = kept | (count >= 2)
    return kept[local]


def _uv_fill(uv: np.ndarray) -> np.ndarray:
    """Scale UVs uniformly so their bounding box fills [0, 1] on its longer side."""
    lo, hi = uv.min(0), uv.max(0)
    return ((uv - lo) / max(float((hi - lo).max()), 1e-9)).astype(np.float32)


def outfit_pieces(mesh: BodyMesh) -> dict[str, Piece]:
    """The ``Outfit_Top``, ``Outfit_Bottom`` and ``Outfit_Footwear`` meshes for this body."""
    e = _edges(mesh)
    tights = mesh.face_groups["helper-tights"]
    corners = mesh.positions[mesh.triangles[tights]].astype(np.float64)      # (F, 3, 3)
    hem = e["hem"]
    body = mesh.groups["body"]
    skin_tree = cKDTree(mesh.positions[body].astype(np.float64))
    out = {}
    for name in ("Outfit_Top", "Outfit_Bottom", "Outfit_Footwear"):
        fields = _fields(e, name, hem)
        # 1. A triangle belongs to the garment unless one of its edges leaves all three corners outside.
        keep = np.ones(len(tights), bool)
        for k, field in enumerate(fields):
            if name == "Outfit_Top" and k == 0:
                # The shirt's hem is not snapped (it hangs over the trousers, and squeezed hem triangles
                # let the waistband show through in some clips): it is cut by whole quads of the helper,
                # so it runs along the helper's edge loops, a clean line, not the sawtooth of the quads'
                # diagonals (:func:`_hem_quads`).
                keep &= _hem_quads(tights, mesh.triangles[tights], corners, field)
            else:
                keep &= field(corners.reshape(-1, 3)).reshape(-1, 3).max(1) >= 0
        p = piece(mesh, tights[keep])
        pos = p.positions.astype(np.float64)
        # 2. Vertices past an edge move onto it.
        for field in fields[1:] if name == "Outfit_Top" else fields:
            pos = _snap(pos, p.indices, field)
        # 3. Off the skin, along the helper's own normals (those of the moved edge triangles are skewed).
        positions = (pos + LIFT[name] * p.normals).astype(np.float32)
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
        # Skin weights: the nearest body vertex's, so cloth and skin bend alike (the helper's own
        # weights differ from the skin's: in the walk's bent knee the skin came 1 cm out through the trousers).
        nearest = body[skin_tree.query(pos)[1]]
        out[name] = replace(p, positions=positions, normals=normals, uv=uv, joints=mesh.joints[nearest],
                            weights=mesh.weights[nearest], source=np.full(len(positions), -1, np.int64))
    return out
