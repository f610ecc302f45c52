"""The outfit on one body: each garment of the chosen styles fitted and drawn as a glTF piece.

:func:`outfit_pieces` gives ``Outfit_Top``, ``Outfit_Bottom`` and ``Outfit_Footwear`` for a body and the
settings' ``topStyle`` and ``bottomStyle``: each garment's pattern (:mod:`.pattern`) rebuilt on the
body and draped (:mod:`.fit`), with the pattern's UVs and skin weights (clothes take no face morphs:
``source`` is -1). :func:`hidden_skin` is the skin those garments cover well inside their rims: the
avatar's ``Body`` leaves it out, so no clip can push skin through cloth there and no triangle is
drawn that nobody sees (MakeHuman's proxies delete the vertices under a garment the same way).

>>> from workbench.options import normalize_avatar_settings
>>> from workbench.body.mesh import body_mesh
>>> mesh = body_mesh(normalize_avatar_settings({"gender": "feminine"}))
>>> sorted(outfit_pieces(mesh, "hoodie", "skirt"))
['Outfit_Bottom', 'Outfit_Footwear', 'Outfit_Top']
"""

from __future__ import annotations

import threading
from collections import OrderedDict

import numpy as np
import scipy.sparse as sp

from ..lod import Piece
from ..mesh import BodyMesh, vertex_normals
from . import shoes
from .drape import clear_of_the_skin
from .edges import finished, smooth_rim
from .fit import base_points, fitted
from .hood import worn
from .pattern import HOOD_EASE, NECKLINE_CUT, SLEEVE_CUT, pattern
from .sleeves import flared, squared
from .styles import STYLES

__all__ = ["Dressed", "dressed", "outfit_pieces", "lower_pieces", "hidden_skin", "UNDER", "under"]

_CACHE: OrderedDict = OrderedDict()
_LOCK = threading.Lock()
_FITTING: dict[tuple, threading.Event] = {}     # (the fits under way, by their key)
CACHED = 48
# How far the hood stands off the skin at least (metres).
HOOD_CLEAR = 0.01
# What each bottom covers: trousers' cuffs fall over the shoes (whichever the avatar wears).
UNDER = {"trousers": "shoes", "shorts": None, "skirt": None}


def under(bottom: str, shoes: str = "sneakers") -> str | None:
    """The style of what ``bottom`` covers, if anything, when the avatar wears ``shoes``.

    >>> under("trousers", "boots"), under("skirt", "boots")
    ('boots', None)
    """
    return shoes if UNDER[bottom] == "shoes" else UNDER[bottom]


class Dressed:
    """One garment on one body: its ``piece``, each of its pattern's vertices' ``ease`` (metres the cloth
    stands off the helper beyond its lift: what the fold map is drawn from), its welded ``points`` and how
    many of the piece's vertices and triangles are its outside (``shell``; the finished edges' rolls and
    facings follow them)."""

    def __init__(self, piece: Piece, ease: np.ndarray, points: np.ndarray, shell: tuple[int, int] | None = None,
                 extra: tuple[np.ndarray, np.ndarray] | None = None):
        self.piece = piece
        self.ease = ease
        self.points = points
        self.shell = shell or (len(piece.positions), piece.triangles)
        self.extra = extra

    def samples(self) -> tuple[np.ndarray, np.ndarray]:
        """Points on the garment's outside (its vertices and its triangles' centres, not its facings, which
        face in) and the surface's normals there."""
        out = []
        vertices, triangles = self.shell
        for values in (self.piece.positions.astype(np.float64), self.piece.normals.astype(np.float64)):
            values = values[:vertices]
            out.append(np.concatenate([values, values[self.piece.indices[:triangles]].mean(1)]))
        if self.extra is not None:
            out = [np.concatenate([o, e]) for o, e in zip(out, self.extra, strict=True)]
        out[1] /= np.maximum(np.linalg.norm(out[1], axis=1, keepdims=True), 1e-12)
        return out[0], out[1]


def dressed(mesh: BodyMesh, name: str, under: str | None = None) -> Dressed:
    """Garment style ``name`` fitted to ``mesh`` over the garment of style ``under``, if any (cached per
    body and styles; fitted once: a thread that asks while another fits the same waits for that fit).

    A build's hair reads the clothes as its helper thread makes them while its own thread makes the clothes' pieces
    (``workbench.gltf.avatar``): both fitted the same top and bottom at once, some 56 ms of CPU twice (an outside
    review of pass 74)."""
    sk = mesh.skeleton
    key = (sk.gender, sk.body_shape, round(float(sk.height), 6), mesh.face, name, under)   # (the face: a jaw)
    while True:
        with _LOCK:
            if key in _CACHE:
                _CACHE.move_to_end(key)
                return _CACHE[key]
            fitting = _FITTING.get(key)
            if fitting is None:
                _FITTING[key] = threading.Event()
                break
        # (another thread's fit; where it failed, nothing is kept and this one fits)
        fitting.wait()
    try:
        out = _fit(mesh, name, under)
        with _LOCK:
            _CACHE[key] = out
            while len(_CACHE) > CACHED:
                _CACHE.popitem(last=False)
    finally:
        with _LOCK:
            _FITTING.pop(key).set()
    return out


def _fit(mesh: BodyMesh, name: str, under: str | None) -> Dressed:
    """:func:`dressed`'s fit, uncached."""
    style, pat = STYLES[name], pattern(name)
    p0, n0 = base_points(mesh, pat)
    if style.part == "Outfit_Top" and not style.bands[SLEEVE_CUT][1]:     # (a loose sleeve's hem, not a cuff)
        p0 = squared(mesh, pat, p0)
        n0 = vertex_normals(p0, pat["faces"]).astype(np.float64)
    below = None if under is None else dressed(mesh, under).samples()
    q = flared(mesh, pat, fitted(mesh, style, pat, (p0, n0), below), style.flare)
    ease = np.maximum(np.linalg.norm(q - p0, axis=1) - style.lift, 0)
    if len(pat["hood_faces"]):
        # The hood on the hoodie, then clear of the skin: its roll stands round the neck, which a heavier
        # build's trapezius fills more than the reference body's.
        neck = mesh.skeleton.pos("Neck")
        hood_at = worn(q, pat["hood_line"], (float(neck[0]), float(neck[2])), pat["hood_tri"], pat["hood_bary"],
                       pat["hood_offset"])
        faces = pat["hood_faces"] - len(q)
        edges = np.concatenate([faces[:, [0, 1]], faces[:, [1, 2]], faces[:, [2, 0]]])
        adjacency = sp.csr_matrix((np.ones(2 * len(edges)), (np.r_[edges[:, 0], edges[:, 1]], np.r_[edges[:, 1], edges[:, 0]])),
                                  shape=(len(hood_at), len(hood_at)))
        adjacency.data[:] = 1.0
        q = np.concatenate([q, clear_of_the_skin(hood_at, mesh, pat["hood_near"], HOOD_CLEAR, adjacency)])
        ease = np.concatenate([ease, np.full(len(hood_at), HOOD_EASE)])
    faces = np.concatenate([pat["faces"], pat["hood_faces"]])
    from_cut = np.concatenate([pat["from_cut"], np.full((len(q) - len(pat["from_cut"]), pat["from_cut"].shape[1]), np.inf)])
    if style.part == "Outfit_Top":
        q = smooth_rim(q, vertex_normals(q, faces).astype(np.float64), pat, NECKLINE_CUT)
    q, edge_at, edge_normal = finished(q, vertex_normals(q, faces).astype(np.float64), pat, style.bands, style.edge,
                                       from_cut)
    normals = vertex_normals(q, faces)
    v = pat["vmap"]
    src = v[pat["edge_src"]]
    piece = Piece(np.concatenate([q[v], edge_at]).astype(np.float32),
                  np.concatenate([normals[v], edge_normal]).astype(np.float32),
                  np.concatenate([pat["uv"], pat["uv"][pat["edge_src"]]]),
                  np.concatenate([pat["vfaces"], pat["edge_faces"]]).astype(np.int64),
                  np.concatenate([pat["joints"][v], pat["edge_joints"]]),
                  np.concatenate([pat["weights"][v], pat["edge_weights"]]), np.full(len(v) + len(src), -1, np.int64))
    extra = None
    if style.part == "Outfit_Footwear":
        piece, extra = _with_shoe(piece, mesh, q, pat, name)
    return Dressed(piece, ease[v].astype(np.float32), q, (len(v), len(pat["vfaces"])), extra)


def _with_shoe(piece: Piece, mesh: BodyMesh, q: np.ndarray, pat: dict, name: str) -> tuple[Piece, tuple]:
    """The upper ``piece`` with its sole, tongue and laces (:mod:`.shoes`), skinned as the upper's nearest
    points; and those parts as samples for what covers them (their points, and as normals the way out from
    the shin's axis: a lace's ribbon faces either way). Trouser legs fall over them too: over the upper
    alone, the tongue's top and the bow, which stand above the collar, poked through the legs (review D)."""
    pos, nrm, uv, faces, nearest = shoes.extras(mesh, q, pat["faces"], name, float(q[:, 1].max()))
    n = len(piece.positions)
    out = np.zeros_like(pos)
    for side in ("Left", "Right"):
        ankle = mesh.skeleton.pos(side + "Foot").astype(np.float64)
        mine = (pos[:, 0] - float(mesh.skeleton.pos("Hips")[0])) * (ankle[0] - float(mesh.skeleton.pos("Hips")[0])) > 0
        out[mine, 0], out[mine, 2] = pos[mine, 0] - ankle[0], pos[mine, 2] - ankle[2]
    out /= np.maximum(np.linalg.norm(out, axis=1, keepdims=True), 1e-12)
    return Piece(np.concatenate([piece.positions, pos.astype(np.float32)]),
                 np.concatenate([piece.normals, nrm.astype(np.float32)]),
                 np.concatenate([piece.uv, uv.astype(np.float32)]), np.concatenate([piece.indices, faces + n]),
                 np.concatenate([piece.joints, pat["joints"][nearest]]), np.concatenate([piece.weights, pat["weights"][nearest]]),
                 np.full(n + len(pos), -1, np.int64)), (pos, out)


def outfit_pieces(mesh: BodyMesh, top: str = "tee", bottom: str = "trousers", shoes: str = "sneakers", *,
                  below: bool = True) -> dict[str, Piece]:
    """The ``Outfit_Top``, ``Outfit_Bottom`` and ``Outfit_Footwear`` pieces on ``mesh``; ``below`` False, the top alone
    (fitted over the bottom as ever: what a portrait shows of the outfit; :func:`lower_pieces` the others)."""
    top_piece = {"Outfit_Top": dressed(mesh, top, bottom).piece}
    return {**top_piece, **lower_pieces(mesh, bottom, shoes)} if below else top_piece


def lower_pieces(mesh: BodyMesh, bottom: str = "trousers", shoes: str = "sneakers") -> dict[str, Piece]:
    """The ``Outfit_Bottom`` and ``Outfit_Footwear`` pieces on ``mesh`` (the bottom over the shoes it covers)."""
    return {"Outfit_Bottom": dressed(mesh, bottom, under(bottom, shoes)).piece, "Outfit_Footwear": dressed(mesh, shoes).piece}


def hidden_skin(top: str = "tee", bottom: str = "trousers") -> np.ndarray:
    """A mask over the body mesh's vertices: the skin these garments hide (see the module's notes).

    >>> bool(hidden_skin("longsleeve").sum() > hidden_skin("tee").sum())
    True
    """
    # (The feet stay: the soles are the body's lowest point, which the avatar's height is measured from.)
    return pattern(top)["hidden"] | pattern(bottom)["hidden"]
