"""The five hair styles as meshes fitted to each body's scalp, and their strand texture.

Every style starts from the body's own head: the skin triangles skinned to ``Head`` or ``Neck``
near a hairline, so the hair fits every head shape and deforms with it (each hair vertex copies the
skin weights of the scalp vertex it grew from). What differs per style is drawn around that:

1. The scalp's polar coordinates about the skull's centre (``azimuth`` from the face, ``polar``
   from the crown) give the UVs: ``u`` runs round the head, ``v`` from the crown past a hairline
   drawn per style (:data:`HAIRLINE`: a soft widow's peak, receding temples, sideburns, a line clear
   of the ears, down to the nape). Strands in the texture run along ``v``, so they fan out from the
   crown as hair grows.
2. The strands end one by one between ``TIP_FROM`` and ``TIP_TO`` hairlines (the texture's alpha,
   glTF ``MASK``); the shell runs on, transparent, to ``V_END``, and its UVs are never clamped, so the
   visible hairline is the alpha's smooth contour, not the skin triangles' edges (clamping them was
   the first version's sawtooth). The shell stands off the scalp by the style's volume and lies down
   on the skin where the strands end: no helmet's rim.
3. Per style: ``short`` a close crop with more volume on top; ``curly`` a thick shell split in four
   (its vertices a few millimetres apart) and pushed out in centimetre curls on larger masses, with a
   coil texture; ``bun`` a sleek shell and a bun at the back of the crown; ``long`` the shell (down
   on the scalp along a centre parting) and three layers (:data:`LAYERS`) hanging from under it
   round the sides and back, over the ears, onto the shoulders at the sides and in a U down the
   back, bowing out at the sides, shorter and swept back at the front edge, kept clear of the neck
   and back by measuring the body at each height, their strands ending over the last few
   centimetres, and skinned from ``Head`` at the top to ``Spine2`` at the ends, so they follow the
   head and the back.

(A shell of its own, cast onto the scalp from the skull's centre, was the alternative to cutting the
skin's triangles; the ears and the nape are not star-shaped from one centre, and the skin's own
triangles already carry the weights.)

>>> from workbench.options import normalize_avatar_settings
>>> from workbench.body.mesh import body_mesh
>>> p = hair_piece(body_mesh(normalize_avatar_settings({"gender": "feminine"})), "bun")
>>> p.triangles > 1000
True
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from . import assets
from .lod import Piece
from .mesh import BodyMesh, vertex_normals

__all__ = ["HAIR_ROUGHNESS", "HAIR_SIZE", "hair_piece", "hair_texture"]

HAIR_SIZE = 512
# The scalp shell's texture rows, in units of the style's hairline (0 the crown, 1 the hairline):
# strands end one by one between TIP_FROM and TIP_TO, and the shell runs on, fully transparent, to
# V_END (texture v = 1). That margin is wider than a skin triangle, so the shell's own edge, which
# follows the skin's triangles, never shows: the hairline is the alpha's smooth contour.
TIP_FROM, TIP_TO, V_END = 0.95, 1.10, 1.40
# Hairline polar angle (degrees from the crown) at these azimuths (degrees from the face, either
# side): a soft widow's peak at the middle, temples receding above the outer brow, a sideburn in
# front of the ear, a line over the ear clear of its rim, down behind the ear to the nape.
HAIRLINE_AT = np.array([0, 10, 22, 36, 50, 62, 72, 80, 86, 94, 104, 114, 126, 150, 165, 180], float)
HAIRLINE = {
    "short": np.array([48, 47, 45, 43, 46, 56, 78, 90, 84, 74, 74, 84, 102, 117, 123, 126], float),
    "curly": np.array([46, 45, 44, 43, 47, 57, 78, 88, 82, 74, 74, 84, 100, 112, 116, 117], float),
    "bun": np.array([48, 47, 45, 43, 46, 56, 78, 90, 84, 74, 74, 84, 100, 112, 115, 116], float),
    "long": np.array([48, 47, 45, 43, 46, 56, 78, 90, 84, 74, 74, 84, 100, 112, 116, 117], float),
}
# The hair material's roughness: straight hair has a soft sheen; coils scatter the light every way,
# so curly has none (its one smooth highlight read as a shiny patch on dark curls).
HAIR_ROUGHNESS = {"short": 0.75, "curly": 0.97, "bun": 0.72, "long": 0.72}
# Curly's texture: coils in a jittered grid of CURL_CELLS (across u, along v) cells; u runs once round
# the head and v about half way round it, so more cells across keep a coil about round (1 cm).
CURL_CELLS = (64, 40)
# Standing off the scalp at the crown (metres) and at the sides.
VOLUME = {"short": (0.018, 0.008), "curly": (0.034, 0.024), "bun": (0.007, 0.004), "long": (0.016, 0.007)}
# Long hair's parting: the half-width (metres) over which the shell comes down onto the scalp.
PART_WIDTH = 0.022


def _smoothstep(e0, e1, x):
    t = np.clip((x - e0) / (e1 - e0), 0.0, 1.0)
    return t * t * (3 - 2 * t)


def _head_frame(mesh: BodyMesh) -> tuple[np.ndarray, float]:
    """The skull's centre (x, z: middle of the head above the eyes; y: the eyes' height) and its radius."""
    pos = mesh.positions
    eyes = pos[np.concatenate([mesh.groups["helper-l-eye"], mesh.groups["helper-r-eye"]])]
    eye_y = float(eyes[:, 1].mean())
    body = mesh.groups["body"]
    head = body[(mesh.weights[body, 0] > 0.5) & (mesh.joints[body, 0] == mesh.skeleton.index["Head"])]
    top = pos[head][pos[head, 1] > eye_y]
    lo, hi = top.min(0), top.max(0)
    centre = np.array([(lo[0] + hi[0]) / 2, eye_y, (lo[2] + hi[2]) / 2])
    return centre, float(hi[1] - eye_y)


def _polar(points: np.ndarray, centre: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    d = points - centre
    azimuth = np.degrees(np.arctan2(d[:, 0], d[:, 2]))            # 0 at the face, +90 the figure's left
    polar = np.degrees(np.arccos(np.clip(d[:, 1] / np.maximum(np.linalg.norm(d, axis=1), 1e-9), -1, 1)))
    return azimuth, polar


def _hairline(style: str, azimuth: np.ndarray) -> np.ndarray:
    return np.interp(np.abs(azimuth), HAIRLINE_AT, HAIRLINE[style])


def _value_noise3(p: np.ndarray, cell: float, seed: int) -> np.ndarray:
    """Smooth 3D value noise in about -1..1 at points (N, 3), lattice spacing ``cell`` metres."""
    rng = np.random.default_rng(seed)
    table = rng.random(4096) * 2 - 1
    g = p / cell
    i = np.floor(g).astype(np.int64)
    f = g - i
    f = f * f * (3 - 2 * f)
    out = np.zeros(len(p))
    for dx in (0, 1):
        for dy in (0, 1):
            for dz in (0, 1):
                h = ((i[:, 0] + dx) * 73856093 ^ (i[:, 1] + dy) * 19349663 ^ (i[:, 2] + dz) * 83492791) % 4096
                w = (f[:, 0] if dx else 1 - f[:, 0]) * (f[:, 1] if dy else 1 - f[:, 1]) * (f[:, 2] if dz else 1 - f[:, 2])
                out += table[h] * w
    return out


def _scalp(mesh: BodyMesh, style: str, centre: np.ndarray) -> Piece:
    """Steps 1 and 2: the scalp shell with its UVs, split where ``u`` wraps at the back of the head."""
    body_tris = mesh.face_groups["body"]
    tris = mesh.triangles[body_tris]
    idx = mesh.skeleton.index
    # Head and neck skin only (the nape's hair lies on the neck), never the shoulders below.
    on_head = np.isin(mesh.joints[:, 0], [idx["Head"], idx["Neck"]]) & (mesh.weights[:, 0] > 0.5)
    azimuth, polar = _polar(mesh.positions.astype(np.float64), centre)
    v = polar / _hairline(style, azimuth)
    # Whole triangles inside the transparent margin (none stretches a UV across the hairline), and
    # only those a strand reaches.
    keep = on_head[tris].all(1) & (v[tris].max(1) <= V_END) & (v[tris].min(1) < TIP_TO)
    tris = tris[keep]
    u = (azimuth[tris] / 360.0 + 0.5)
    # A triangle straddling the back seam takes its corners on the low side past 1.
    wraps = (u.max(1) - u.min(1)) > 0.5
    shift = wraps[:, None] & (u < 0.5)
    # The band where strands end has vertices of its own (same places, a border between): LOD 1 and 2
    # keep borders, so decimation cannot carry the transparent margin's UVs into the crown's
    # triangles (it opened holes there at LOD 2).
    band = (v[tris].max(1) > TIP_FROM - 0.1)[:, None] & np.ones((1, 3), bool)
    corner = (tris.astype(np.int64) * 2 + shift) * 2 + band
    unique, inverse = np.unique(corner.reshape(-1), return_inverse=True)
    source = unique // 4
    uu = azimuth[source] / 360.0 + 0.5 + (unique // 2 % 2)
    # Back into 0..1 (the texture is clamped, and an atlas needs it): the wrapped corners ran past 1.
    uu = (uu - uu.min()) / max(float(np.ptp(uu)), 1e-9)
    vv = v[source]
    pos = mesh.positions[source].astype(np.float64)
    nrm = mesh.normals[source].astype(np.float64)
    pol = polar[source]
    indices = inverse.reshape(-1, 3).astype(np.int64)
    joints, weights = mesh.joints[source].copy(), mesh.weights[source].copy()
    if style == "curly":
        # Curls a centimetre across need vertices a few millimetres apart: the skin's are about one
        # centimetre apart, so its triangles are split in four first (the displaced skin triangles
        # were the big flat facets of the first version).
        (pos, nrm, uu, vv, pol), indices, (joints, weights) = _subdivide((pos, nrm, uu, vv, pol), indices,
                                                                        (joints, weights))
        nrm /= np.linalg.norm(nrm, axis=1, keepdims=True)
        # The quarters no strand reaches go (a third of them), and the vertices only they used.
        indices = indices[vv[indices].min(1) < TIP_TO]
        used, indices = np.unique(indices, return_inverse=True)
        indices = indices.reshape(-1, 3)
        pos, nrm, uu, vv, pol, joints, weights = (x[used] for x in (pos, nrm, uu, vv, pol, joints, weights))
    # The shell: thick at the crown, thinner at the sides, down on the skin where the strands end.
    crown, side = VOLUME[style]
    up = np.clip(1 - pol / 90.0, 0, 1)
    thick = (side + (crown - side) * up) * _smoothstep(TIP_TO, 0.70, vv) + 0.0012
    if style == "curly":
        # Big soft masses, and on them curls: value noise a centimetre apart, rounded (squared) so
        # each curl is a bump rather than a ridge. Noise of the position, so a seam's two copies agree.
        mass = _value_noise3(pos, 0.045, 31)
        curls = 0.011 * _smoothstep(-0.15, 0.45, _value_noise3(pos, 0.013, 32)) \
            + 0.005 * _smoothstep(-0.15, 0.45, _value_noise3(pos, 0.007, 33))
        full = _smoothstep(1.05, 0.6, vv)
        thick = thick * (1 + 0.3 * mass * full) + curls * full
    if style == "long":
        # A centre parting from the forehead to the crown: the shell comes down onto the scalp along
        # it, so the hair on either side rises away from it, each side falling its own way.
        ahead = _smoothstep(-0.02, 0.02, pos[:, 2] - centre[2])
        part = _smoothstep(0.0, PART_WIDTH, np.abs(pos[:, 0] - centre[0]))
        thick = 0.0012 + (thick - 0.0012) * (1 - ahead * (1 - part) * _smoothstep(1.0, 0.8, vv))
    pos = pos + nrm * thick[:, None]
    uv = np.column_stack([uu, vv / V_END]).astype(np.float32)
    positions = pos.astype(np.float32)
    return Piece(positions, _welded_normals(positions, indices), uv, indices, joints, weights,
                 np.full(len(positions), -1, np.int64))


def _welded_normals(positions: np.ndarray, indices: np.ndarray) -> np.ndarray:
    """Vertex normals shared by the copies of a vertex (the back seam's and the tip band's), so the
    shading has no line where the UVs split."""
    unique, weld = np.unique(positions, axis=0, return_inverse=True)
    weld = weld.reshape(-1)
    return vertex_normals(unique, weld[indices])[weld]


def _subdivide(values: tuple, indices: np.ndarray, nearest: tuple) -> tuple[tuple, np.ndarray, tuple]:
    """Each triangle into four at its edges' midpoints: ``values`` (per-vertex arrays) are averaged,
    ``nearest`` (skin joints and weights) copied from the edge's lower-numbered end."""
    edges = np.sort(np.concatenate([indices[:, [0, 1]], indices[:, [1, 2]], indices[:, [2, 0]]]), axis=1)
    unique, inverse = np.unique(edges, axis=0, return_inverse=True)
    n = len(values[0])
    mid = n + inverse.reshape(3, -1).T                       # (M, 3): midpoints of edges 01, 12, 20
    a, b, c = indices.T
    ab, bc, ca = mid.T
    out = np.concatenate([np.stack([a, ab, ca], 1), np.stack([ab, b, bc], 1), np.stack([ca, bc, c], 1),
                          np.stack([ab, bc, ca], 1)])
    vals = tuple(np.concatenate([x, (x[unique[:, 0]] + x[unique[:, 1]]) / 2]) for x in values)
    near = tuple(np.concatenate([x, x[unique[:, 0]]]) for x in nearest)
    return vals, out.astype(np.int64), near


def _weights_for(mesh: BodyMesh, count: int, blend: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Skin ``count`` vertices to Head, blending to Spine2 by ``blend`` (0 head .. 1 back)."""
    idx = mesh.skeleton.index
    joints = np.zeros((count, 4), np.uint8)
    weights = np.zeros((count, 4), np.float32)
    joints[:, 0], joints[:, 1], joints[:, 2] = idx["Head"], idx["Neck"], idx["Spine2"]
    b = np.clip(blend, 0, 1)
    weights[:, 0] = np.clip(1 - 2 * b, 0, 1)
    weights[:, 2] = np.clip(2 * b - 1, 0, 1)
    weights[:, 1] = 1 - weights[:, 0] - weights[:, 2]
    joints[weights == 0] = 0      # glTF validators flag a joint named with no weight
    return joints, weights


def _grid(rows: int, cols: int, wrap: bool = False) -> np.ndarray:
    r, c = np.meshgrid(np.arange(rows - 1), np.arange(cols - (0 if wrap else 1)), indexing="ij")
    a = r * cols + c
    b = r * cols + (c + 1) % cols
    return np.concatenate([np.stack([a, a + cols, b], -1).reshape(-1, 3),
                           np.stack([b, a + cols, b + cols], -1).reshape(-1, 3)]).astype(np.int64)


# Long hair's layers: (standing off the inner layer in metres, how much shorter it ends in metres,
# its strands' offset in u, keeping them inside 0..1). All start under the scalp's shell, so no layer
# shows a top edge; three, each farther off and shorter, so the sides have depth, not one sheet.
LAYERS = ((0.0, 0.0, 0.0), (0.006, 0.035, 0.37), (0.012, 0.075, 0.19))
# Face-framing at the front edge: over its last FRONT_SPAN degrees the layers end up to FRONT_RISE
# metres higher, in steps that differ per column, and sweep back by up to FRONT_SWEEP degrees towards
# the ends, so the edge is staggered tips, not a straight cut beside the face.
FRONT_SPAN, FRONT_RISE, FRONT_SWEEP = 30.0, 0.09, 14.0
# The sides' fullness: how far (metres) a layer bows out from the head's reach half way down.
SIDE_BOW = 0.003
# Rows of a layer, top to bottom (0..1): spaced closer near the ends, where the tips taper.
CURTAIN_ROWS = np.concatenate([np.linspace(0.0, 0.84, 17), np.linspace(0.84, 1.0, 7)[1:]])
# A layer's texture rows: the fullest (CURTAIN_V0), and the rows by which its strands have come in at
# the top and start to end at the bottom (both the scalp's tip zone).
CURTAIN_V0, CURTAIN_FADE_ROW, CURTAIN_TIP_ROW = 0.40, 0.2, 0.84


def _reach(mesh: BodyMesh, centre: np.ndarray, az: np.ndarray, heights: np.ndarray, band: float) -> np.ndarray:
    """(len(heights), len(az)): how far the head, neck and upper back reach from the head's axis in
    each direction, within ``band`` metres of each height (the shoulders are for the hair to rest on,
    not to flare over, so they are left out). NaN where nothing is near."""
    pos = mesh.positions[mesh.groups["body"]].astype(np.float64)
    rel = pos[np.abs(pos[:, 0] - centre[0]) < 0.11] - centre
    # Each vertex counts for the directions within 28 degrees of its own.
    d_az = np.arctan2(rel[:, 0], rel[:, 2])
    gap = np.abs((d_az[:, None] - az[None, :] + np.pi) % (2 * np.pi) - np.pi)
    proj = np.where(gap < np.radians(28), rel[:, [0, 2]] @ np.stack([np.sin(az), np.cos(az)]), -np.inf)
    out = np.full((len(heights), len(az)), np.nan)
    for i, h in enumerate(heights):
        near = np.abs(rel[:, 1] + centre[1] - h) < band
        if near.any():
            out[i] = proj[near].max(0)
    return np.where(np.isfinite(out), out, np.nan)


def _curtain(mesh: BodyMesh, centre: np.ndarray, radius: float) -> list[Piece]:
    """Step 3, long hair: layers falling from under the scalp's shell round the sides and back, over
    the ears, onto the shoulders at the sides and down the back, ending in a U of tapered tips."""
    sk = mesh.skeleton
    shoulder_y = float((sk.pos("LeftArm")[1] + sk.pos("RightArm")[1]) / 2)
    cols = 41
    rows = len(CURTAIN_ROWS)
    # From just in front of one ear round the back to the other: the face stays open, the sideburns
    # of the scalp's shell meet the layers' front edges.
    az_cols = np.linspace(-108.0, 108.0, cols)
    az = np.radians(az_cols) + np.pi
    az_face = np.abs(np.degrees(np.arctan2(np.sin(az), np.cos(az))))       # 0 at the face, 180 behind
    # The front edge's columns: 1 at the edge, 0 from FRONT_SPAN degrees back; each its own length.
    front = _smoothstep(180.0 - 108.0 + FRONT_SPAN, 180.0 - 108.0, az_face)
    front = front * (0.55 + 0.45 * np.random.default_rng(47).random(cols))
    top_y = centre[1] + radius * 0.8
    # Where the inner layer ends: resting on the shoulders at the sides, a smooth U down the back.
    end_y = shoulder_y + 0.01 - 0.15 * _smoothstep(95.0, 180.0, az_face) + FRONT_RISE * front
    # The clearance, once on a fine ladder of heights shared by the layers.
    ladder = np.linspace(top_y, float(end_y.min()) - 0.01, 40)
    reach = _reach(mesh, centre, az, ladder, 0.02)
    reach = np.where(np.isnan(reach), radius * 0.6, reach)
    # Hanging hair never tucks back in: the farthest reach at or above each height.
    reach = np.maximum.accumulate(np.maximum(reach, radius * 0.6), axis=0)
    t = CURTAIN_ROWS[:, None]
    out = []
    for layer, (lift, shorter, u_shift) in enumerate(LAYERS):
        y = top_y + (end_y[None, :] + shorter - top_y) * t
        # The reach at each vertex's height (ladder runs downwards, so interpolate on its negative).
        r = np.stack([np.interp(-y[:, j], -ladder, reach[:, j]) for j in range(cols)], 1)
        # The top rows tuck under the scalp's shell (which stands ~1 cm off); lower down the layer
        # stands clear of the body and fills out a little towards the ends (hair has volume there).
        ramp = _smoothstep(0.0, 0.25, t)
        r = r + 0.004 + (0.012 + lift) * ramp + 0.014 * t
        # The sides bow out over the ears and cheeks and come back in towards the ends (the weight
        # of the hair), each layer a little more than the one under it; none at the back.
        side = 1 - _smoothstep(110.0, 150.0, az_face)[None, :]
        r = r + (SIDE_BOW + 0.25 * lift) * np.sin(np.pi * np.clip(t * 1.25, 0, 1)) ** 1.5 * side
        # Soft waves across, stronger towards the ends, different per layer.
        r = r + 0.005 * np.sin(np.linspace(0, 11 * np.pi, cols) + 2.1 * layer)[None, :] * t
        # The front edge sweeps back towards the ends (hair falls behind the shoulder there).
        a = az[None, :] - np.radians(FRONT_SWEEP) * np.sign(az_cols)[None, :] * front[None, :] * t
        positions = np.stack([centre[0] + r * np.sin(a), y, centre[2] + r * np.cos(a)],
                             -1).reshape(-1, 3).astype(np.float32)
        # Outward facing: columns run from the figure's right round the back to its left.
        indices = _grid(rows, cols)[:, [0, 2, 1]]
        u = np.broadcast_to(np.linspace(0.02, 0.6, cols)[None, :] + u_shift, (rows, cols))
        # Texture rows: at the top, the scalp's tip zone upside down, so the layer comes out from under
        # the scalp's shell as strands one by one (its straight top edge showed at the crown); then
        # strands down to CURTAIN_V0 and back to the tip zone at CURTAIN_TIP_ROW, where they end one
        # by one over the last rows (a few centimetres), all gone by the last. (The strands run along
        # v, so turning back in v does not show.)
        tip_from, tip_to = TIP_FROM / V_END, (TIP_TO + 0.02) / V_END
        rows_at = [0.0, CURTAIN_FADE_ROW, (CURTAIN_FADE_ROW + CURTAIN_TIP_ROW) / 2, CURTAIN_TIP_ROW, 1.0]
        fade = np.interp(t, rows_at, [tip_to, tip_from, CURTAIN_V0, tip_from, tip_to])
        full = np.interp(t, rows_at, [CURTAIN_V0, CURTAIN_V0, CURTAIN_V0, tip_from, tip_to])
        # Only behind the head: by the temples the top stays full, or the ears show through.
        behind = _smoothstep(110.0, 140.0, az_face)[None, :]
        v = behind * fade + (1 - behind) * full
        uv = np.stack([u, v], -1).reshape(-1, 2).astype(np.float32)
        # Rigid with the head down to the jaw (else the ears poke through when the head turns on the
        # neck), then over to the neck by the shoulders and to the upper back at the ends.
        jaw_y = centre[1] - 0.8 * radius
        blend = np.clip((jaw_y - y) / (jaw_y - end_y.min() + 1e-9), 0, 1) * 1.15
        joints, weights = _weights_for(mesh, len(positions), blend.reshape(-1))
        out.append(Piece(positions, vertex_normals(positions, indices), uv, indices, joints, weights,
                         np.full(len(positions), -1, np.int64)))
    return out


def _bun(mesh: BodyMesh, centre: np.ndarray, radius: float) -> Piece:
    """Step 3, bun: a slightly flattened ball of wound hair at the back of the crown."""
    rows, cols = 12, 24
    th = np.linspace(0, np.pi, rows)[:, None]
    ph = np.linspace(0, 2 * np.pi, cols, endpoint=False)[None, :]
    r = radius * 0.42
    axis_dir = np.array([0.0, np.cos(np.radians(58)), -np.sin(np.radians(58))])
    at = centre + axis_dir * (radius * 1.12)
    # A local frame with the bun's axis pointing away from the head.
    a = axis_dir
    b = np.cross(a, [1.0, 0.0, 0.0])
    b /= np.linalg.norm(b)
    c = np.cross(a, b)
    coil = 1 + 0.06 * np.sin(ph * 3 + th * 8)
    local = np.stack([np.sin(th) * np.cos(ph) * coil, np.sin(th) * np.sin(ph) * coil, np.cos(th) * 0.8 * np.ones_like(ph)], -1)
    pts = at + r * (local[..., 0:1] * b + local[..., 1:2] * c + local[..., 2:3] * a)
    positions = pts.reshape(-1, 3).astype(np.float32)
    indices = _grid(rows, cols, wrap=True)
    uv = np.stack([np.broadcast_to(ph / (2 * np.pi), (rows, cols)) * 0.8 + 0.1,
                   np.broadcast_to(th / np.pi * 0.7, (rows, cols))], -1).reshape(-1, 2).astype(np.float32)
    joints, weights = _weights_for(mesh, len(positions), np.zeros(len(positions)))
    return Piece(positions, vertex_normals(positions, indices), uv, indices, joints, weights,
                 np.full(len(positions), -1, np.int64))


def _merge(pieces: list[Piece]) -> Piece:
    offsets = np.cumsum([0] + [len(q.positions) for q in pieces[:-1]])
    cat = lambda f: np.concatenate([getattr(q, f) for q in pieces])   # noqa: E731
    return Piece(cat("positions"), cat("normals"), cat("uv"),
                 np.concatenate([q.indices + o for q, o in zip(pieces, offsets)]), cat("joints"), cat("weights"),
                 cat("source"))


def hair_piece(mesh: BodyMesh, style: str) -> Piece | None:
    """The ``Hair`` mesh of ``style`` for this body (None for ``"none"``)."""
    if style == "none":
        return None
    if style not in HAIRLINE:
        raise ValueError(f"hair: unknown style {style!r}")
    centre, radius = _head_frame(mesh)
    parts = [_scalp(mesh, style, centre)]
    if style == "long":
        parts += _curtain(mesh, centre, radius)
    elif style == "bun":
        parts.append(_bun(mesh, centre, radius))
    return _merge(parts) if len(parts) > 1 else parts[0]


@lru_cache(maxsize=32)
def hair_texture(color: str, style: str) -> np.ndarray:
    """RGBA (HAIR_SIZE, HAIR_SIZE, 4) uint8: strands along v in ``color``, their tips cut by alpha.

    Each strand (a column a few texels wide) has its own shade and length; between the rows of
    ``TIP_FROM`` and ``TIP_TO`` (over ``V_END``) the strands end one by one, each tapering to a point,
    so the edge reads as hair, not as a painted line; below ``TIP_TO`` every texel is transparent.
    A broad sheen band and darker roots give the volume light and depth. ``curly`` draws short
    coils instead (:func:`_curl_texture`).

    >>> t = hair_texture("#1A1A1A", "curly")
    >>> t.shape, bool(t[0, :, 3].all()), bool(t[-1, :, 3].any())
    ((512, 512, 4), True, False)
    """
    n = HAIR_SIZE
    c = color.lstrip("#")
    base = np.array([int(c[i:i + 2], 16) for i in (0, 2, 4)], np.float32) / 255
    if style == "curly":
        out = np.clip(_curl_texture(base) * 255 + 0.5, 0, 255).astype(np.uint8)
        out.setflags(write=False)
        return out
    strands = _strand_pattern()
    lum = float(base @ np.array([0.2126, 0.7152, 0.0722], np.float32))
    img = np.empty((n, n, 4), np.float32)
    img[..., :3] = base * strands["light"][..., None] + (strands["sheen"] * (0.35 + lum))[..., None] * np.array([1.0, 0.95, 0.88])
    img[..., 3] = strands["alpha"]
    out = np.clip(img * 255 + 0.5, 0, 255).astype(np.uint8)
    out.setflags(write=False)
    return out


@lru_cache(maxsize=1)
def _strand_pattern() -> dict[str, np.ndarray]:
    """The strands of straight hair whatever the colour, made once per machine (``assets.kept``: 20 ms
    to draw, 2 ms to read): ``light`` (each strand's shade times the darker roots), ``sheen`` (the band
    of highlight, before it is scaled by the colour's lightness) and ``alpha`` (the tips)."""
    return assets.kept(f"hair-strands-{HAIR_SIZE}-v1", _draw_strands, dict.fromkeys(("light", "sheen", "alpha"),
                                                                                  (HAIR_SIZE, HAIR_SIZE)))


def _draw_strands() -> dict[str, np.ndarray]:
    n = HAIR_SIZE
    rng = np.random.default_rng(41)
    y, x = np.mgrid[0:n, 0:n].astype(np.float32)
    v = (y + 0.5) / n
    xs = x + 2.0 * np.sin(y / 37.0 + x / 61.0)
    col = np.floor(xs / 2.0).astype(np.int64) % (n // 2)
    shade_per = rng.random(n // 2).astype(np.float32)
    # Tip lengths come in clumps (strands lie together), each strand a little off its clump's length.
    clump = np.repeat(rng.random(n // 16), 8)[: n // 2]
    clump = np.convolve(np.concatenate([clump[-4:], clump, clump[:4]]), np.ones(9) / 9, "valid")[: n // 2]
    tip_per = (0.75 * clump + 0.25 * rng.random(n // 2)).astype(np.float32)
    shade = 0.62 + 0.5 * shade_per[col] + 0.08 * np.sin(y / 9.0 + shade_per[col] * 6)
    root = 0.82 + 0.18 * np.clip(v * 4, 0, 1)
    sheen = 0.22 * np.exp(-((v - 0.28) / 0.07) ** 2) * (0.5 + shade_per[col])
    # Strand tips past the hairline; the last row is always cut so the shell's edge never shows.
    ends = (TIP_FROM + (TIP_TO - TIP_FROM) * tip_per[col]) / V_END
    # Each strand tapers to a point: the middle of its column runs longest.
    across = np.abs((xs / 2.0) % 1.0 - 0.5) * 2
    ends = ends - 0.025 * across
    return {"light": shade * root, "sheen": sheen, "alpha": v < ends}


def _curl_texture(base: np.ndarray) -> np.ndarray:
    """RGBA float (HAIR_SIZE, HAIR_SIZE, 4): curly hair in ``base`` colour (see :func:`_curl_pattern`)."""
    shade, glint, alpha = _curl_pattern()
    lum = float(base @ np.array([0.2126, 0.7152, 0.0722], np.float32))
    img = np.empty((HAIR_SIZE, HAIR_SIZE, 4))
    # Dark hair keeps a faint grey on the coils' lit sides, or it is a black cap.
    img[..., :3] = base * shade[..., None] + (0.05 * (1 - lum) * glint)[..., None]
    img[..., 3] = alpha
    return img


@lru_cache(maxsize=1)
def _curl_pattern() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The coils, whatever the colour: (shade, glint on the lit sides, alpha), each (HAIR_SIZE, HAIR_SIZE),
    made once per machine (``assets.kept``: 0.25 s to draw, a few ms to read)."""
    d = assets.kept(f"hair-curls-{HAIR_SIZE}-v1", _draw_curls, dict.fromkeys(("shade", "glint", "alpha"),
                                                                          (HAIR_SIZE, HAIR_SIZE)))
    return d["shade"], d["glint"], d["alpha"]


def _draw_curls() -> dict[str, np.ndarray]:
    """:func:`_curl_pattern`, drawn.

    The coils sit in a jittered grid (periodic across u, so the back seam does not show); each texel
    belongs to its nearest coil (cellular noise), lit on its upper side and dark in the crevices
    between coils, so the surface reads as many small curls even where the mesh is smooth and the
    light is flat. The hairline is cut coil by coil: a coil whose centre lies above its own tip row
    is drawn whole, so the edge is a row of round curls rather than a line.
    """
    n = HAIR_SIZE
    cx, cy = CURL_CELLS
    rng = np.random.default_rng(43)
    jitter = rng.random((cy, cx, 2)) * 0.8 + 0.1
    tone = rng.random((cy, cx))
    turn = rng.random((cy, cx)) * 2 * np.pi
    # Where each column of coils ends (a column, not a coil, so no coil is missing above the edge).
    ends = (TIP_FROM + (TIP_TO - TIP_FROM) * rng.random(cx)) / V_END - 0.03
    y, x = np.mgrid[0:n, 0:n].astype(np.float64) + 0.5
    gx, gy = x / n * cx, y / n * cy
    ix, iy = np.floor(gx).astype(np.int64), np.floor(gy).astype(np.int64)
    best = np.full((n, n), np.inf)
    second = np.full((n, n), np.inf)
    near = np.zeros((n, n, 2), np.int64)
    off = np.zeros((n, n, 2))
    for dy in (-1, 0, 1):
        for dx in (-1, 0, 1):
            cxs, cys = (ix + dx) % cx, np.clip(iy + dy, 0, cy - 1)
            px = ix + dx + jitter[cys, cxs, 0] - gx
            py = iy + dy + jitter[cys, cxs, 1] - gy
            d = np.hypot(px, py)
            closer = d < best
            second = np.where(closer, best, np.minimum(second, d))
            best = np.where(closer, d, best)
            near[closer] = np.stack([cys, cxs], -1)[closer]
            off[closer] = np.stack([px, py], -1)[closer]
    cy_i, cx_i = near[..., 0], near[..., 1]
    # The bump: 1 at the coil's centre, 0 at the border with the next (where F1 = F2).
    edge = np.clip((second - best) / np.maximum(second + best, 1e-9) * 2.2, 0, 1)
    bump = np.sqrt(edge)
    # Lit from above: the texel's offset from its coil's centre points down on the upper half.
    lit = np.clip(0.5 + 0.9 * off[..., 1] * bump, 0, 1)
    # The coil's strands: a spiral wound about its centre, a turn every third of a cell.
    angle = np.arctan2(off[..., 1], off[..., 0])
    spiral = 0.5 + 0.5 * np.cos(angle + best * 2 * np.pi * 2.5 + turn[cy_i, cx_i])
    shade = (0.5 + 0.5 * bump) * (0.78 + 0.34 * lit) * (0.72 + 0.36 * spiral) * (0.85 + 0.3 * tone[cy_i, cx_i])
    centre_v = (cy_i + jitter[cy_i, cx_i, 1]) / cy
    alpha = (centre_v < ends[cx_i]) & (y / n < 1 - 1.0 / n)
    return {"shade": shade, "glint": lit * bump, "alpha": alpha}
