"""The inside of the mouth: which of the body's triangles line it, and the teeth, gums and tongue's colours.

MakeHuman's body is closed at the lips by a pouch of skin that lines the mouth (its own island of the
UV layout); ``jawOpen`` and the visemes open the lips onto it. Textured as skin it read as a flat pale
block in an open mouth, so:

- :func:`lining_triangles` finds the pouch (the UV island behind the lips) and :func:`lining_depth` how
  far behind the lips each of its vertices lies; the skin texture paints it a dark red, darker
  deeper in (:mod:`.skin`), as a mouth in its own shadow looks;
- the Teeth mesh (teeth and tongue) is fitted to the mouth (:func:`fitted_teeth`): MakeHuman's arch is
  wider than the lips, so it narrows towards the back; the tongue, which stood above the lower teeth
  and filled an open mouth, lies a little lower and further back; and it gets UVs of its own into a
  small texture (:func:`mouth_texture`): u is depth (the front teeth lit, the back ones in the
  mouth's shadow), v runs from the gums through the teeth to the tongue, so each vertex's colour
  comes from where it is.

>>> img = mouth_texture()
>>> img.shape, img.dtype.name
((64, 64, 3), 'uint8')
>>> bool(img[3, 2].mean() < img[24, 2].mean())      # the gums darker than the teeth
True
"""

from __future__ import annotations

from dataclasses import replace
from functools import lru_cache

import numpy as np

from .lod import Piece
from .mesh import BodyMesh

__all__ = ["lining_triangles", "lining_depth", "mouth_texture", "mouth_occlusion", "fitted_teeth", "MOUTH_SIZE"]

MOUTH_SIZE = 64
# Rows of the texture (v): gums, the gum line, enamel, and the tongue below a dark gap.
GUM_V, TOOTH_V, TONGUE_V = 0.08, 0.42, 0.85
# Colours (sRGB, as albedo): gums pink, enamel a warm off-white, the tongue a deeper pink.
GUM = (0.60, 0.28, 0.29)
ENAMEL = (0.86, 0.83, 0.76)
TONGUE = (0.56, 0.24, 0.26)
# The back of the mouth, in its own shadow: what the teeth and tongue turn to from the front (u = 0) to
# SHADOW_IN of the arch's depth (the dark red of the mouth's lining, :data:`workbench.body.skin.LINING`, in shade).
DEEP = (0.14, 0.04, 0.045)
SHADOW_IN = 0.5
# The arch narrowed towards its back (at TEETH_DEPTH behind the front teeth, by TEETH_NARROW of its
# width; the front teeth stay), and the tongue lowered and drawn back (metres).
TEETH_NARROW = 0.35
TEETH_DEPTH = 0.02
TONGUE_DOWN = 0.004
TONGUE_BACK = 0.002
# The upper teeth a little lower, so an open mouth shows their edges under the upper lip (the closed lips
# still cover them).
UPPER_DOWN = 0.0015


def lining_triangles(mesh: BodyMesh) -> np.ndarray:
    """Indices into ``mesh.face_groups["body"]`` of the triangles that line the mouth (one UV island)."""
    return _lining(mesh)[0]


def lining_depth(mesh: BodyMesh) -> np.ndarray:
    """Per vertex of ``mesh``, metres behind the lips' inner edge (0 for vertices off the lining and at
    the lips, growing to about 6 cm at the back of the mouth)."""
    return _lining(mesh)[1]


def _lining(mesh: BodyMesh) -> tuple[np.ndarray, np.ndarray]:
    key = id(mesh)
    hit = _LININGS.get(key)
    # Checked by identity as well as by id (an id is reused once its body is gone), and read once: the
    # materials' helper thread and the request's thread may both ask, one clearing while the other reads.
    if hit is None or hit[2] is not mesh:
        from scipy.sparse import coo_matrix
        from scipy.sparse.csgraph import connected_components

        faces = mesh.face_groups["body"]
        uv_ids = mesh.triangle_uv_ids[faces]
        n = int(uv_ids.max()) + 1
        rows = uv_ids[:, [0, 1, 2]].reshape(-1)
        cols = uv_ids[:, [1, 2, 0]].reshape(-1)
        _, label = connected_components(coo_matrix((np.ones(len(rows)), (rows, cols)), shape=(n, n)), directed=False)
        island = label[uv_ids[:, 0]]
        # The lining's island: the one holding the point 3 cm behind the mouth's centre.
        tris = mesh.triangles[faces]
        centres = mesh.positions[tris].mean(1)
        head = mesh.skeleton.pos("Head")
        teeth = mesh.positions[mesh.groups["helper-upper-teeth"]]
        inside = np.array([head[0], teeth[:, 1].min(), teeth[:, 2].max() - 0.03])
        lining = np.flatnonzero(island == island[np.argmin(np.linalg.norm(centres - inside, axis=1))])
        verts = np.unique(tris[lining])
        depth = np.zeros(len(mesh.positions), np.float32)
        z = mesh.positions[verts, 2]
        depth[verts] = np.maximum(float(z.max()) - z, 0.0)
        lining.setflags(write=False)
        depth.setflags(write=False)
        hit = (lining, depth, mesh)
        _LININGS.clear()   # one body at a time: the skin's features are drawn per gender on one body
        _LININGS[key] = hit
    return hit[0], hit[1]


_LININGS: dict[int, tuple] = {}


def _smoothstep(e0, e1, x):
    t = np.clip((x - e0) / (e1 - e0), 0.0, 1.0)
    return t * t * (3 - 2 * t)


@lru_cache(maxsize=1)
def mouth_texture() -> np.ndarray:
    """The teeth and tongue's texture (MOUTH_SIZE, MOUTH_SIZE, 3) uint8 for :func:`fitted_teeth`."""
    n = MOUTH_SIZE
    v = (np.arange(n) + 0.5)[:, None] / n
    u = (np.arange(n) + 0.5)[None, :] / n
    gum, enamel, tongue = (np.array(c, np.float32) for c in (GUM, ENAMEL, TONGUE))
    line = (GUM_V + TOOTH_V) / 2
    # Gums above the line, enamel below it (a soft, slightly darker band where they meet), the tongue
    # under a dark gap from its own rows on.
    t = _smoothstep(line - 0.03, line + 0.03, v)[..., None]
    img = gum * (1 - t) + enamel * t
    img = img * (1 - 0.25 * np.exp(-((v - line) / 0.03) ** 2))[..., None]
    k = _smoothstep(TONGUE_V - 0.12, TONGUE_V - 0.05, v)[..., None]
    img = img * (1 - k) + tongue * k
    img = img * (1 - 0.6 * np.exp(-((v - (TONGUE_V - 0.12)) / 0.04) ** 2))[..., None]
    # Depth: as lit at the front, the mouth's dark red from SHADOW_IN of the way back.
    d = _smoothstep(0.0, SHADOW_IN, u)[..., None]
    img = img * (1 - d) + np.array(DEEP, np.float32) * d
    out = np.clip(np.broadcast_to(img, (n, n, 3)) * 255 + 0.5, 0, 255).astype(np.uint8)
    out.setflags(write=False)
    return out


@lru_cache(maxsize=1)
def mouth_occlusion() -> np.ndarray:
    """The teeth and tongue's baked occlusion on :func:`mouth_texture`'s layout (glTF reads the red channel):
    open at the front teeth, an eighth of the light from :data:`SHADOW_IN` of the way back, so the studio's
    light and reflections do not grey the inside of an open mouth.

    >>> occ = mouth_occlusion()
    >>> int(occ[20, 0, 0]), int(occ[20, -1, 0])
    (255, 32)
    """
    n = MOUTH_SIZE
    u = (np.arange(n) + 0.5) / n
    grey = 1 - 0.875 * _smoothstep(0.0, SHADOW_IN, u)
    out = np.ascontiguousarray(np.broadcast_to(np.round(grey * 255).astype(np.uint8)[None, :, None], (n, n, 3)))
    out.setflags(write=False)
    return out


def fitted_teeth(mesh: BodyMesh, p: Piece) -> Piece:
    """The ``Teeth`` piece (teeth and tongue, cut from ``mesh``) fitted to the mouth (see the module's text),
    with UVs into :func:`mouth_texture`: u from the front teeth (0) to the back of the arch (1), v by the
    vertex's height in its tooth row (the upper row's top and the lower row's bottom are gums) or the
    tongue's row. The morph targets' deltas move it from there (jawOpen still shows the front teeth)."""
    pos = p.positions.astype(np.float64)
    front = float(pos[:, 2].max())
    mid = (pos[:, 0].min() + pos[:, 0].max()) / 2
    back = np.clip((front - pos[:, 2]) / TEETH_DEPTH, 0, 1)
    pos[:, 0] = mid + (1 - TEETH_NARROW * back) * (pos[:, 0] - mid)
    uv = np.zeros((len(pos), 2), np.float32)
    for group, upper in (("helper-upper-teeth", True), ("helper-lower-teeth", False), ("helper-tongue", None)):
        mine = np.isin(p.source, mesh.groups[group])
        if not mine.any():
            continue
        q = pos[mine]
        # The tongue's top is in the light further back than the teeth's sides: its own front, a longer reach.
        depth = np.clip(((q[:, 2].max() if upper is None else front) - q[:, 2]) / (0.07 if upper is None else 0.045),
                        0.0, 1.0)
        if upper is not None:
            # The teeth's inner faces look into the mouth: dark as its back. (Out from the arch's centre,
            # 3.5 cm behind the front teeth, in the horizontal plane.)
            radial = np.column_stack([q[:, 0] - mid, q[:, 2] - (front - 0.035)])
            radial /= np.maximum(np.linalg.norm(radial, axis=1, keepdims=True), 1e-9)
            outward = (p.normals[mine][:, [0, 2]] * radial).sum(1)
            outward = np.maximum(outward, np.abs(p.normals[mine][:, 1]))     # the biting edges are in the light
            depth = np.maximum(depth, 1 - _smoothstep(-0.3, 0.4, outward))
        if upper is None:
            v = np.full(len(q), TONGUE_V)
            pos[mine] += (0.0, -TONGUE_DOWN, -TONGUE_BACK)
        else:
            lo, hi = q[:, 1].min(), q[:, 1].max()
            h = (q[:, 1] - lo) / max(hi - lo, 1e-9)          # 0 at the row's bottom, 1 at its top
            gum = h if upper else 1 - h
            v = TOOTH_V + (GUM_V - TOOTH_V) * _smoothstep(0.35, 0.75, gum)
            if upper:
                pos[mine] += (0.0, -UPPER_DOWN, 0.0)
        uv[mine] = np.column_stack([depth, v])
    return replace(p, uv=uv).moved(pos)
