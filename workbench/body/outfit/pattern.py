"""A garment's pattern: everything about it that no body changes, made once per machine on a reference body.

As MakeHuman's ``.mhclo`` proxies bind an authored garment to the body (each vertex three body vertices,
their weights and an offset), each point of a garment here is a fixed blend of helper vertices, so it
follows every gender, shape and height as the helper does. What is made once, on the reference body
(:data:`REFERENCE`) and kept with ``keep.kept``:

1. The panel: the helper's triangles with a corner inside every cut, split finer near the cuts
   (:func:`~workbench.body.outfit.clip.refine`) and cut along each line
   (:func:`~workbench.body.outfit.clip.clip`); ``b_*`` is the blend (a sparse matrix, points x mesh vertices).
2. Each point's neighbours (``adj_*``), whether it lies on a rim, and its share of each part of the
   body (``shares``: torso, neck, arms, legs), from the skin weights of its nearest body vertices.
3. The reference drape (:func:`~workbench.body.outfit.fit.fitted`), on which the rest is measured:
   the skin weights (each point takes its four nearest body vertices' weights, blended by inverse
   distance, then smoothed over the cloth where it stands off the body, so a skirt's middle moves
   with both thighs), the body vertices each point is kept clear of (``near``), the skin it hides
   (``hidden``: body vertices inside it, at least the style's ``margin`` from its rims) and its UVs
   (:mod:`.unwrap`).

>>> p = pattern("tee")                                                # doctest: +SKIP
>>> p["faces"].shape[1], p["uv"].shape[1]                             # doctest: +SKIP
(3, 2)
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
import scipy.sparse as sp
from scipy.spatial import cKDTree

from ...skeleton import JOINT_NAMES
from .. import keep
from ..compile import top_four
from ..mesh import BodyMesh, body_mesh, vertex_normals
from .clip import clip, keep_inside, open_edges, refine
from .drape import Frame
from .edges import RINGS, facing_binding, finished, rolls
from .fit import ARMS, LEGS, base_points, fitted, gathered, shoulders
from .hood import _nearest_on, hood, hood_ring, worn
from .seams import seams
from .shoes import UPPER
from .styles import STYLES, Style, landmarks
from .unwrap import Island, pack, unwrap

__all__ = ["REFERENCE", "FORMAT", "FOLD_SIZE", "pattern", "reference", "region_of_joints", "across_the_middle"]

REFERENCE = {"gender": "feminine", "bodyShape": "average", "height": 166.0}
# Bump when what a pattern holds or how it is made changes: kept patterns are then made again.
FORMAT = 32
FOLD_SIZE = 256
# A cut passes through a vertex this close to its line rather than leave a sliver beside it.
SNAP = 0.001
REFINE = 1
# The hood's ease, for its folds (it lies loose).
HOOD_EASE = 0.015
# A top's gathered cuffs (its third cut, a long sleeve's) hide the skin only this much further in than its
# other rims: in the idle pose the wrist turns in the cuff and the cut skin's edge showed below it as a notch
# (review D).
CUFF_DEPTH = 0.03
SLEEVE_CUT = 2
# ... and its neckline's (a top's cuts in order, workbench.body.outfit.styles: the hem, the neckline, the sleeves' ends).
NECKLINE_CUT = 1


def reference() -> BodyMesh:
    return body_mesh(REFERENCE)


@lru_cache(maxsize=2)
def region_of_joints(limbs_only: bool = False) -> np.ndarray:
    """The part of the body each joint moves: 0 torso, 1 neck and head, 2 and 3 the left and right arm,
    4 and 5 the left and right leg (the columns of a pattern's ``shares``); with ``limbs_only`` the hands
    and feet are a part of their own, 6 (cloth hangs round the arms and legs, not round what ends them)."""
    out = []
    for n in JOINT_NAMES:
        if n in ("Neck", "Head", "HeadTop_End"):
            out.append(1)
        elif limbs_only and n.startswith(("LeftHand", "RightHand", "LeftFoot", "RightFoot", "LeftToe", "RightToe")):
            out.append(6)
        elif n.startswith(("LeftArm", "LeftForeArm", "LeftHand")):
            out.append(ARMS[0])
        elif n.startswith(("RightArm", "RightForeArm", "RightHand")):
            out.append(ARMS[1])
        elif n.startswith(("LeftUpLeg", "LeftLeg", "LeftFoot", "LeftToe")):
            out.append(LEGS[0])
        elif n.startswith(("RightUpLeg", "RightLeg", "RightFoot", "RightToe")):
            out.append(LEGS[1])
        else:
            out.append(0)
    return np.array(out)


def _dense(joints: np.ndarray, weights: np.ndarray, columns: np.ndarray, width: int) -> np.ndarray:
    out = np.zeros((len(joints), width))
    np.add.at(out, (np.repeat(np.arange(len(joints)), joints.shape[1]), columns[joints.reshape(-1).astype(np.int64)]),
              weights.reshape(-1))
    return out


def _borrowed(mesh: BodyMesh, tree: cKDTree, body: np.ndarray, points: np.ndarray, columns: np.ndarray,
              width: int, k: int = 4) -> np.ndarray:
    """Each point's blend of its ``k`` nearest body vertices' skin weights, by inverse distance."""
    dist, near = tree.query(points, k=k)
    share = 1 / np.maximum(dist, 1e-4)
    share /= share.sum(1, keepdims=True)
    src = body[near]
    return _dense(mesh.joints[src].reshape(len(points), -1),
                  (mesh.weights[src] * share[..., None]).reshape(len(points), -1), columns, width)


def across_the_middle(weights: np.ndarray, x: np.ndarray, width: float, behind: np.ndarray | float = 1.0) -> np.ndarray:
    """Dense skin ``weights`` (points x joints) with each pair of left and right leg joints' weights evened out
    towards the midline: a point ``x`` metres to the left of it (+x) keeps the pair's sum, its split drawn
    towards half and half by a smoothstep from none at ``width`` either side to all of it on the midline (0: as
    they are), times ``behind`` (per point, 0 to 1). Beyond ``width`` nothing changes (a skirt's side over a thigh
    moves with that thigh). See ``Style.across``.

    >>> w = np.zeros((4, len(JOINT_NAMES)))
    >>> w[:, JOINT_NAMES.index("Hips")] = 0.5
    >>> w[:, JOINT_NAMES.index("RightUpLeg")] = 0.5
    >>> out = across_the_middle(w, np.array([-0.1, 0.0, 0.03, 0.1]), 0.06)
    >>> [round(float(v), 2) for v in out[:, JOINT_NAMES.index("LeftUpLeg")]], out.sum(1).tolist()
    ([0.0, 0.25, 0.12, 0.0], [1.0, 1.0, 1.0, 1.0])
    """
    if width <= 0:
        return weights
    t = np.clip(1 - np.abs(x) / width, 0, 1)
    even = (t * t * (3 - 2 * t) * behind)[:, None]
    out = weights.copy()
    for bone in ("UpLeg", "Leg"):
        pair = [JOINT_NAMES.index(side + bone) for side in ("Left", "Right")]
        half = weights[:, pair].sum(1, keepdims=True) / 2
        out[:, pair] = weights[:, pair] * (1 - even) + half * even
    return out


def _smoothed(values: np.ndarray, adjacency: sp.csr_matrix, rate: np.ndarray, rounds: int) -> np.ndarray:
    degree = np.maximum(np.asarray(adjacency.sum(1)).ravel(), 1)[:, None]
    for _ in range(rounds):
        values = values + rate[:, None] * ((adjacency @ values) / degree - values)
    return values


def _islands(style: Style, mesh: BodyMesh, points: np.ndarray, shares: np.ndarray) -> tuple[np.ndarray, list[Island]]:
    sk = mesh.skeleton
    hips = sk.pos("Hips").astype(np.float64)
    down, ahead = np.array([0.0, -1.0, 0.0]), np.array([0.0, 0.0, 1.0])
    left = points[:, 0] > hips[0]
    if style.part == "Outfit_Top":
        torso = Island(Frame([hips[0], 0, hips[2]], down, ahead), -ahead)
        arms = [Island(Frame(sk.pos(s + "Arm"), sk.pos(s + "Hand") - sk.pos(s + "Arm"), ahead), down)
                for s in ("Left", "Right")]
        part = np.stack([shares[:, 0] + shares[:, 1], shares[:, ARMS[0]], shares[:, ARMS[1]]], 1).argmax(1)
        return part, [torso, *arms]
    if style.helper == "helper-skirt":
        return np.zeros(len(points), np.int64), [Island(Frame([hips[0], 0, hips[2]], down, ahead), -ahead)]
    legs = []
    for s, inner in (("Left", [-1.0, 0, 0]), ("Right", [1.0, 0, 0])):
        up, foot = sk.pos(s + "UpLeg"), sk.pos(s + "Foot")
        if style.part == "Outfit_Footwear":
            legs.append(Island(Frame([foot[0], 0, foot[2]], down, ahead), -ahead))
        else:
            legs.append(Island(Frame(up, foot - up, ahead), inner))
    return np.where(left, 0, 1), legs


def _adjacency(faces: np.ndarray, n: int) -> sp.csr_matrix:
    edges = np.concatenate([faces[:, [0, 1]], faces[:, [1, 2]], faces[:, [2, 0]]])
    edges = np.unique(np.sort(edges, axis=1), axis=0)
    edges = np.concatenate([edges, edges[:, ::-1]])
    return sp.csr_matrix((np.ones(len(edges)), (edges[:, 0], edges[:, 1])), shape=(n, n))


def _lengths(points: np.ndarray, adjacency: sp.csr_matrix) -> sp.csr_matrix:
    a = adjacency.tocoo()
    return sp.csr_matrix((np.linalg.norm(points[a.row] - points[a.col], axis=1), (a.row, a.col)), shape=a.shape)


def _from_cuts(points: np.ndarray, adjacency: sp.csr_matrix, rim: np.ndarray, fields: list) -> np.ndarray:
    """(N, cuts) each point's distance along the cloth from the rim each cut made (inf where it made none)."""
    from scipy.sparse.csgraph import dijkstra

    lengths = _lengths(points, adjacency)
    out = np.full((len(points), len(fields)), np.inf)
    for k, f in enumerate(fields):
        on = np.flatnonzero(rim & (np.abs(f) < SNAP + 1e-4))
        if len(on):
            out[:, k] = dijkstra(lengths, indices=on, min_only=True)
    return out.astype(np.float32)


def _hidden(style: Style, mesh: BodyMesh, points: np.ndarray, faces: np.ndarray, rim: np.ndarray,
            adjacency: sp.csr_matrix, from_cut: np.ndarray) -> np.ndarray:
    """Body vertices (a mask over the mesh) under the draped garment: behind the nearest point of it, within
    10 cm, where that point is at least ``margin`` from the garment's rims along the cloth, and the style's
    ``loose`` times its distance from the skin."""
    from scipy.sparse.csgraph import dijkstra

    body = mesh.groups["body"]
    skin = mesh.positions[body].astype(np.float64)
    normals = vertex_normals(points, faces)
    dist, q = cKDTree(points).query(skin)
    inside = np.einsum("nc,nc->n", skin - points[q], normals[q]) < 0
    from_rim = dijkstra(_lengths(points, adjacency), indices=np.flatnonzero(rim), min_only=True)
    out = np.zeros(len(mesh.positions), bool)
    # Deeper under loose cloth: looking up under a flared skirt's hem or a loose sleeve shows the skin that
    # far in, and the cut's edge (whole triangles) showed as a sawtooth there.
    deep = from_rim[q] >= np.maximum(style.margin, style.loose * dist)
    if style.part == "Outfit_Top" and from_cut.shape[1] > SLEEVE_CUT and style.bands[SLEEVE_CUT][1]:
        deep &= from_cut[q, SLEEVE_CUT] >= style.margin + CUFF_DEPTH
    out[body] = inside & (dist < 0.10) & deep
    return out


def _build(name: str) -> dict[str, np.ndarray]:
    style = STYLES[name]
    mesh = reference()
    e = landmarks(mesh)
    # 1. The panel.
    tris = mesh.triangles[mesh.face_groups[style.helper]].astype(np.int64)
    verts, faces = np.unique(tris, return_inverse=True)
    faces = faces.reshape(-1, 3)
    p = mesh.positions[verts].astype(np.float64)
    b = sp.csr_matrix((np.ones(len(verts)), (np.arange(len(verts)), verts)), shape=(len(verts), len(mesh.positions)))
    faces = keep_inside(faces, style.cuts(e, p))
    # Finer triangles where the cuts cross (twice), so the cut lines are smooth curves; only there, which
    # keeps the garments' triangles within the budget (every triangle within 5 cm of a cut, first, tripled them).
    for _ in range(REFINE):
        near = np.zeros(len(faces), bool)
        for f in style.cuts(e, p):
            corner = np.asarray(f)[faces]
            near |= (corner.min(1) < SNAP) & (corner.max(1) > -SNAP)
        s, faces = refine(len(p), faces, near)
        p, b = s @ p, (s @ b).tocsr()
    for k in range(len(style.cuts(e, p))):
        s, faces = clip(p, faces, style.cuts(e, p)[k], SNAP)
        p, b = s @ p, (s @ b).tocsr()
    b.eliminate_zeros()
    b.sort_indices()
    # 2. Neighbours, rims and shares.
    adjacency = _adjacency(faces, len(p))
    rim = np.zeros(len(p), bool)
    rim[open_edges(faces).reshape(-1)] = True
    from_cut = _from_cuts(p, adjacency, rim, style.cuts(e, p))
    body = mesh.groups["body"]
    tree = cKDTree(mesh.positions[body].astype(np.float64))
    regions = region_of_joints()
    shares = _smoothed(_borrowed(mesh, tree, body, p, regions, 6), adjacency, np.full(len(p), 0.5), 4)
    all_shares = _dense(mesh.joints, mesh.weights, region_of_joints(True), 7)
    panel = {"b_data": b.data, "b_indices": b.indices.astype(np.int32), "b_indptr": b.indptr.astype(np.int64),
             "faces": faces.astype(np.int32), "adj_indices": adjacency.indices.astype(np.int32),
             "adj_indptr": adjacency.indptr.astype(np.int64), "rim": rim, "shares": shares,
             "body_region": all_shares.argmax(1).astype(np.int8), "near": body[tree.query(p, k=3)[1]],
             "from_cut": from_cut}
    # 3. On the reference drape.
    base = base_points(mesh, panel)
    q = fitted(mesh, style, panel, base)
    ease = np.linalg.norm(q - base[0], axis=1) - style.lift
    part, islands = _islands(style, mesh, q, shares)
    # The hood (a hoodie's): more points, bound to the hoodie's triangles, and their triangles.
    tri, bary, offset, hood_faces = (np.zeros((0, 3), np.int64), np.zeros((0, 3)), np.zeros((0, 3)),
                                     np.zeros((0, 3), np.int64))
    if "hood" in style.extras:
        line = np.flatnonzero(rim & (np.abs(style.cuts(e, p)[1]) < SNAP + 1e-4))
        tri, bary, offset, hood_faces = hood(q, faces, line, (e["neck_x"], e["neck_z"]))
        extra = worn(q, line, (e["neck_x"], e["neck_z"]), tri, bary, offset)
        q = np.concatenate([q, extra])
        ease = np.concatenate([ease, np.full(len(extra), HOOD_EASE)])
        part = np.concatenate([part, np.full(len(extra), len(islands))])
        islands.append(Island(Frame([e["neck_x"], 0.0, e["neck_z"]], [0.0, -1.0, 0.0], [0.0, 0.0, 1.0]),
                              [0.0, 0.0, 1.0]))
    all_faces = np.concatenate([faces, hood_faces])
    all_adjacency = _adjacency(all_faces, len(q))
    weights = _borrowed(mesh, tree, body, q, np.arange(len(JOINT_NAMES)), len(JOINT_NAMES))
    # A top's gathered band (a collar, a cuff) hugs the skin, so it moves as the skin right under it does: the
    # weights of the skin's triangle under it, by the barycentrics of its foot there (blended over four body
    # vertices, a crew neck's collar beside the neck took the neck's and the shoulder's weights half and
    # half, and the trapezius under it, which the idle pose drags 4 cm out with the shoulder, came through
    # it). Not a waistband: moving as the belly did in a jump, it came out from under the top's hem.
    # (And a knit's shoulders, which lie on the skin as a band does, from where they are drawn a fifth of the way
    # to it, workbench.body.outfit.fit.shoulders: with the cloth's own weights a heavy body's shoulder came
    # a millimetre through them in the idle pose.)
    hugged = (gathered(style, panel) > 0.5) | (style.hug * shoulders(e, base[0], style.hug_arm) > 0.2)
    snug = np.flatnonzero(hugged & (style.part == "Outfit_Top"))
    if len(snug):
        skin_tris = mesh.triangles[mesh.face_groups["body"]].astype(np.int64)
        tri_of, bary_of = _nearest_on(mesh.positions.astype(np.float64), skin_tris, q[snug])
        weights[snug] = _dense(mesh.joints[tri_of].reshape(len(snug), -1),
                               (mesh.weights[tri_of] * bary_of[..., None]).reshape(len(snug), -1),
                               np.arange(len(JOINT_NAMES)), len(JOINT_NAMES))
    # The hood's bag moves as the hoodie under it does, its roll as the neckline it stands on (the roll
    # borrowed the neck's weights and turned with the head).
    if len(tri):
        weights[len(weights) - len(tri):] = np.einsum("nk,nkj->nj", bary, weights[tri])
        ring = hood_ring(q[line], (e["neck_x"], e["neck_z"]))
        below = weights[line[ring]]
        rows = len(weights) - len(tri) - len(panel["rim"])
        weights[len(panel["rim"]):len(panel["rim"]) + rows] = np.tile(below, (rows // len(ring), 1))
    # Smoothed where the cloth stands off the body, but not on the arms: a sleeve that bends as the skin
    # under it does keeps the shoulder inside it when the arm goes up.
    arms = np.concatenate([shares[:, ARMS[0]] + shares[:, ARMS[1]], np.zeros(len(q) - len(shares))])
    rate = np.clip(ease / 0.02, 0.1, 0.8) * (1 - 0.9 * np.clip(arms, 0, 1))
    # (Behind the hips' joint only: evened out at the front, a skirt's middle lagged the thigh a run lifts, 8 cm.)
    hips = mesh.skeleton.pos("Hips").astype(np.float64)
    dense = across_the_middle(_smoothed(weights, all_adjacency, rate, style.smooth), q[:, 0] - hips[0], style.across,
                              np.clip((hips[2] - q[:, 2]) / 0.05, 0, 1))
    joints, w = top_four(dense.astype(np.float32))
    vmap, uv_m, vfaces, vertex_piece = unwrap(q, all_faces, part, islands)
    vertex_island = part[vmap]
    if style.part == "Outfit_Footwear":
        # A shoe's upper: v its height (0 at its top, workbench.body.outfit.shoes.UPPER at the floor: the
        # sole's and laces' bands of the texture lie below); u fills half of the texture per shoe.
        lo = np.array([uv_m[vertex_island == k, 0].min() for k in range(2)])
        span = np.array([np.ptp(uv_m[vertex_island == k, 0]) for k in range(2)])
        u = (uv_m[:, 0] - lo[vertex_island]) / np.maximum(span[vertex_island], 1e-9) * 0.49 + 0.5 * vertex_island
        uv = np.column_stack([u, UPPER * (1 - np.clip(q[vmap, 1] / float(q[:, 1].max()), 0, 1))])
        scale = float(span.max())
    else:
        pieces = np.unique(vertex_piece)
        packed, scale = pack([uv_m[vertex_piece == k] for k in pieces])
        uv = np.zeros_like(uv_m)
        for k, q_uv in zip(pieces, packed, strict=True):
            uv[vertex_piece == k] = q_uv
    n = len(panel["rim"])
    # The finished edges' rolls (workbench.body.outfit.edges): on the panel's rims, not the hood's.
    cut = np.argmin(np.where(np.isfinite(from_cut), from_cut, np.inf), axis=1) if from_cut.shape[1] else np.zeros(n, np.int64)
    panel.update(rolls(faces, vfaces[:len(faces)], cut.astype(np.int64), len(vmap)))
    # ... and each facing's end bound to the cloth it lies under, laid out on the reference drape.
    every_cut = np.concatenate([from_cut, np.full((len(q) - n, from_cut.shape[1]), np.inf)])
    _, edge_at, _ = finished(q, vertex_normals(q, all_faces).astype(np.float64), panel, style.bands, style.edge,
                             every_cut)
    panel.update(facing_binding(q, faces, panel, edge_at[panel["edge_ring"] == RINGS]))
    # The rolls' skin weights: their rim point's; a facing's end, the cloth's it lies under (with its rim
    # point's, it stayed where the rim moved while the skin under it moved as the cloth over it: a collar's
    # facing went into the trapezius in the idle pose).
    edge_weights = dense[vmap[panel["edge_src"]]]
    face = panel["edge_ring"] == RINGS
    edge_weights[face] = np.einsum("mk,mkj->mj", panel["edge_bary"], dense[panel["edge_tri"]])
    panel["edge_joints"], panel["edge_weights"] = top_four(edge_weights.astype(np.float32))
    all_rim = np.zeros(len(q), bool)
    all_rim[open_edges(all_faces).reshape(-1)] = True
    # (The seams' landmarks: the hem's and the waist's heights on this drape, the arm's depth.)
    hem = float(np.median(p[from_cut[:, 0] == 0, 1])) if len(from_cut) and (from_cut[:, 0] == 0).any() else 0.0
    sewn = seams(name, dict(e, hem=hem, hem_band=style.bands[0][0] if style.bands else 0.0, waist=hem,
                            arm_z=float(mesh.skeleton.pos("LeftArm")[2])), q, part, len(q) - n)
    panel.update({"near": body[tree.query(q[:n], k=3)[1]], "joints": joints, "weights": w, "vmap": vmap,
                  "uv": uv.astype(np.float32), "vfaces": vfaces.astype(np.int32), "uv_scale": np.array(scale),
                  "hidden": _hidden(style, mesh, q, all_faces, all_rim, all_adjacency, every_cut),
                  "hood_line": line.astype(np.int32) if len(tri) else np.zeros(0, np.int32), "hood_tri": tri.astype(np.int32), "hood_bary": bary, "hood_offset": offset,
                  "hood_near": body[tree.query(q[n:], k=3)[1]].reshape(-1, 3),
                  "hood_faces": hood_faces.astype(np.int32), "seams": sewn})
    return panel


@lru_cache(maxsize=16)
def pattern(name: str) -> dict[str, np.ndarray]:
    """The pattern of style ``name`` (see the module's steps), made once per machine; read-only."""
    if name not in STYLES:
        raise ValueError(f"pattern: unknown garment style {name!r}")
    return keep.kept(f"outfit-{name}-v{FORMAT}", lambda: _build(name))
