"""One mesh of the body as glTF wants it (a vertex per position and UV), and its coarser levels of detail.

:func:`piece` cuts triangles out of a :class:`~workbench.body.mesh.BodyMesh` and splits vertices where
the UVs are discontinuous (MakeHuman's UV islands), so each vertex has one UV; ``source`` keeps every
vertex's index in the body mesh, which is how skin weights and morph targets follow.

:func:`decimate` makes LOD 1 and 2 by quadric edge collapse (``fast-simplification``, the simplifier
PyVista uses):

1. simplify the split mesh to the target triangle count with its open borders kept, so the two sides
   of a UV seam keep the same vertices and no crack opens (the seams are borders of the split mesh);
2. replay the collapses to learn which new vertex every old one went into;
3. give each new vertex the UV, skin weights and body-mesh ``source`` of the old vertex, among those
   that went into it, nearest to its new position; morph targets then follow ``source``;
4. recompute normals on the new triangles.

(Transferring attributes by nearest vertex over the whole mesh was the alternative; it mixes up the two
sides of a seam, which share positions but not UVs.)

Steps 1 and 2 run under :data:`_SIMPLIFIER`, one lock for the process: fast-simplification keeps the
mesh it works on in C++ globals of its module (``Simplify::vertices``, ``triangles``, ``collapses`` and
``Replay``'s own), between the separate calls its Python functions make (load, simplify, return points,
return faces...), and the GIL is free between those calls. Two request threads decimating at once
loaded over each other's mesh: 500s, a level of detail of the wrong size, once glibc's abort (issue 40).
Decimations are therefore one at a time; everything else of a model still runs side by side.

>>> import numpy as np
>>> p = Piece(np.eye(3, dtype=np.float32), np.eye(3, dtype=np.float32), np.zeros((3, 2), np.float32),
...           np.array([[0, 1, 2]]), np.zeros((3, 4), np.uint8), np.tile([1, 0, 0, 0], (3, 1)).astype(np.float32),
...           np.arange(3))
>>> p.triangles
1
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, replace

import numpy as np

from .mesh import BodyMesh, vertex_normals

# fast-simplification's state is process-global (see the module's docstring): one decimation at a time.
_SIMPLIFIER = threading.Lock()


@dataclass(frozen=True)
class Piece:
    """Vertex arrays of one glTF primitive. UVs are glTF's (v down: ``1 - v`` of the OBJ)."""

    positions: np.ndarray   # (N, 3) float32
    normals: np.ndarray     # (N, 3) float32
    uv: np.ndarray          # (N, 2) float32
    indices: np.ndarray     # (M, 3) int64
    joints: np.ndarray      # (N, 4) uint8
    weights: np.ndarray     # (N, 4) float32
    source: np.ndarray      # (N,) int64: the body-mesh vertex each vertex stands for
    colors: np.ndarray | None = None   # (N, 3) float32 0..1 or None: COLOR_0 (hair's occlusion)

    @property
    def triangles(self) -> int:
        return int(len(self.indices))

    def moved(self, positions: np.ndarray) -> Piece:
        """The same piece with new positions (normals recomputed)."""
        positions = np.asarray(positions, np.float32)
        return replace(self, positions=positions, normals=vertex_normals(positions, self.indices))


def piece(mesh: BodyMesh, triangles: np.ndarray) -> Piece:
    """The triangles ``triangles`` (indices into ``mesh.triangles``) as a piece of split vertices."""
    tris = mesh.triangles[triangles].astype(np.int64)
    uv_ids = mesh.triangle_uv_ids[triangles].astype(np.int64)
    # One vertex per (position, UV) pair: a single integer key per corner keeps this a 1-D unique.
    stride = int(mesh.triangle_uv_ids.max()) + 1
    unique, first, inverse = np.unique((tris * stride + uv_ids).reshape(-1), return_index=True, return_inverse=True)
    source = unique // stride
    obj_uv = mesh.triangle_uvs[triangles].reshape(-1, 2)[first]
    uv = np.column_stack([obj_uv[:, 0], 1.0 - obj_uv[:, 1]]).astype(np.float32)
    return Piece(mesh.positions[source], mesh.normals[source], uv, inverse.reshape(-1, 3).astype(np.int64),
                 mesh.joints[source], mesh.weights[source], source)


def decimate(p: Piece, ratio: float) -> Piece:
    """``p`` with about ``ratio`` of its triangles (see the module's steps)."""
    import fast_simplification

    target = max(1, int(round(p.triangles * ratio)))
    if target >= p.triangles:
        return p
    points = p.positions.astype(np.float64)
    faces = p.indices.astype(np.int32)
    # 1. and 2., one thread at a time: the simplifier's mesh lives in its module's globals.
    with _SIMPLIFIER:
        _, _, collapses = fast_simplification.simplify(points, faces, target_count=target, preserve_border=True,
                                                       return_collapses=True)
        new_points, new_faces, mapping = fast_simplification.replay_simplification(points, faces, collapses)
    # 3. Per new vertex the nearest old one among those mapped to it (ties: the lowest index).
    distance = np.linalg.norm(points - new_points[mapping], axis=1)
    order = np.lexsort((np.arange(len(points)), distance, mapping))
    first = np.ones(len(order), bool)
    first[1:] = mapping[order][1:] != mapping[order][:-1]
    pick = np.empty(len(new_points), np.int64)
    pick[mapping[order][first]] = order[first]
    positions = new_points.astype(np.float32)
    indices = new_faces.astype(np.int64)
    # 4.
    return Piece(positions, vertex_normals(positions, indices), p.uv[pick], indices, p.joints[pick],
                 p.weights[pick], p.source[pick])


def merge(pieces: list[Piece]) -> Piece:
    """Concatenate pieces into one (indices offset); vertex colours where any piece has them (white for
    the others)."""
    offsets = np.cumsum([0] + [len(q.positions) for q in pieces[:-1]])
    colors = None
    if any(q.colors is not None for q in pieces):
        colors = np.concatenate([q.colors if q.colors is not None else np.ones((len(q.positions), 3), np.float32)
                                 for q in pieces]).astype(np.float32)
    # the first three fields, from the generator (the checker cannot count it)
    return Piece(*(np.concatenate([getattr(q, f) for q in pieces]) for f in ("positions", "normals", "uv")),  # type: ignore[call-arg]
                 np.concatenate([q.indices + o for q, o in zip(pieces, offsets, strict=True)]),
                 *(np.concatenate([getattr(q, f) for q in pieces]) for f in ("joints", "weights", "source")), colors)


def uv_into(p: Piece, rect: tuple[float, float, float, float]) -> Piece:
    """``p`` with its UVs (0..1) mapped into the texture rectangle (u0, v0, u1, v1) of an atlas."""
    u0, v0, u1, v1 = rect
    uv = np.column_stack([u0 + p.uv[:, 0] * (u1 - u0), v0 + p.uv[:, 1] * (v1 - v0)]).astype(np.float32)
    return replace(p, uv=uv)


def normals_of(p: Piece, whole: Piece) -> Piece:
    """``p`` (``whole`` decimated: each of its vertices one of ``whole``'s, found by its ``source`` and ``uv``, as a
    vertex on a uv seam is two) with ``whole``'s normals at the same vertices, where :func:`decimate` gives the
    coarser surface's.

    >>> z = np.zeros((3, 3), np.float32)
    >>> uv = np.float32([[0, 0], [0, 0], [0.5, 0]])
    >>> whole = Piece(z, np.eye(3, dtype=np.float32), uv, np.zeros((1, 3), np.int64), z.astype(np.uint8), z,
    ...               np.array([4, 7, 4]))
    >>> normals_of(replace(whole, uv=uv[[2, 0]], source=np.array([4, 4])), whole).normals.tolist()
    [[0.0, 0.0, 1.0], [1.0, 0.0, 0.0]]
    """
    at = {(int(s), *map(float, t)): i for i, (s, t) in enumerate(zip(whole.source, whole.uv, strict=True))}
    pick = [at[(int(s), *map(float, t))] for s, t in zip(p.source, p.uv, strict=True)]
    return replace(p, normals=whole.normals[pick])
