"""Glasses fitted to the head: rounded rectangular lenses in a frame with depth, a bridge, and temples
that rest on the sides of the head.

Everything is measured on the body: the lenses centre on the eyeballs (2 mm outwards, as frames
sit) and scale with the distance between the eyes; the lens plane stands 12 mm in front of the
corneas (an optician's vertex distance), further only where the skin behind a lens (brow, cheek)
or the nose bridge would touch it; the front wraps round the face (each lens turned :data:`WRAP`
degrees, its outer side back), so no lens stands out past the face seen from the side or at three
quarters; the bridge dips back to rest 2.5 mm off the nose. The frame fits the head: its lenses narrow
(to :data:`NARROWEST` of their size) where the head is narrow, so the frame's ends stay inside the head's
outline seen from the front (sunglasses widen and grow taller where the head leaves room: :data:`.glasses_frames.SIZED`,
their centres then out from the eyes by the widening), its rims' tops below the brows (each lens shorter where the brows are low, its top
kept over the upper lid: :func:`_height`); the hinges stand beside the head, level with the face's front
(an end piece from each rim's top outer corner back to its hinge, as frames have), and each temple runs from its hinge back
along the side of the head to the ear, over the root of the ear's top and bent down behind it, as an
earpiece is (:func:`_temple`), lying on the skull the whole way (the skull's width found by rays across
the head, under the ear where it stands off: :func:`_skull`), a bar of its frame's temple section. The ears
are found once on the reference body (the densest vertices on the side of the head: the ear's bowl) and
are the same vertices on every body (:func:`_ear_cores`). The whole piece is skinned to ``Head`` and takes no face morphs.

The look (:data:`LOOKS`): the texture (:func:`glasses_texture`) holds the frame's colour on its left
half and the lens tint (with alpha) on its right, the lens and frame vertices pointing into those, and
a roughness map (:func:`glasses_roughness`) on the same layout. A clear lens is a dark grey, nearly
transparent film (3 %), smooth: the eyes show through neither dimmed nor tinted (a light tint at 16 % had
laid a milky film over them, a near-black one at 7 % dulled them brownish) and it keeps a reflection at glancing angles (blending scales the lens's specular
by its alpha in three.js, so the reflection shows where the Fresnel term is strong, not face on). A sunglass lens is dark and nearly opaque
(alpha-tested in the GLB, :mod:`workbench.gltf.avatar`), and rough enough
(0.35) that a studio's lights spread into a soft sheen instead of flashing white in it; the frames are
not mirror-smooth either.

>>> from workbench.options import normalize_avatar_settings           # doctest: +SKIP
>>> from workbench.body.mesh import body_mesh                         # doctest: +SKIP
>>> glasses_piece(body_mesh(normalize_avatar_settings({"gender": "feminine"})), "feminine").triangles > 100   # doctest: +SKIP
True
"""

from __future__ import annotations

from dataclasses import replace
from functools import lru_cache

import numpy as np

from .brows import brow_bottom
from .expressions import EYES_APART
from .glasses_frames import (
    CLASSIC,
    GRADIENT,
    METAL,
    WIRE,
    Frame,
    brow_bar,
    eased,
    frame_of,
    lens_v,
    nose_pads,
    outline,
    rim_point,
    sized_of,
)
from .lod import Piece
from .mesh import BodyMesh, vertex_normals

__all__ = ["glasses_piece", "glasses_texture", "glasses_roughness", "glasses_material", "LOOKS", "FRAME_UV", "LENS_UV",
           "PAD_UV"]

FRAME_UV = (0.25, 0.5)
LENS_UV = (0.75, 0.5)
# A metal frame's nose pads: clear silicone, as real pads are, on a strip of their own at the frame half's inner edge
# (PAD_STRIP of its width: the frame's texels at FRAME_UV stay clear of it at every mip level the renderers use). In
# the frame's gold they read as "a gold nose-pad blob floats on the bridge in 3/4" (blind review V, defect 10).
PAD_UV = (0.4375, 0.5)
PAD_STRIP = 0.125
# The pads' silicone: colour (sRGB), alpha, roughness (glossy, not metal: their texels' metalness 0).
PAD_LOOK = ((0.72, 0.72, 0.70), 0.1, 0.3)
TEXTURE_SIZE = 128
# Per kind: frame colour, lens colour (sRGB), lens alpha, frame roughness, lens roughness.
LOOKS = {
    # A clear lens: a faint neutral film (3 %) of a dark grey, about what it lets through of dark skin, so it
    # neither veils a deep tone (a light film does) nor dims the eyes' whites (a near-black one at 7 % dulled
    # them to a brownish tint in three.js).
    "clear": ((0.24, 0.15, 0.10), (0.18, 0.19, 0.20), 0.03, 0.4, 0.04),
    # Nearly opaque: blending is in linear light, where even a few percent of the eye's white shows
    # through the dark tint as a visible grey, so the lens stops almost all of it.
    "sunglasses": ((0.06, 0.06, 0.07), (0.03, 0.035, 0.045), 0.996, 0.45, 0.35),
    # Metal (glasses_frames.METAL): gold wire round a clear lens; silver wire round a brown lens graded from dark
    # at its top to light at its bottom (glasses_frames.GRADIENT grades the alpha given here).
    "round": ((0.83, 0.66, 0.36), (0.18, 0.19, 0.20), 0.03, 0.28, 0.04),
    "aviator": ((0.52, 0.53, 0.55), (0.30, 0.19, 0.09), 0.9, 0.25, 0.35),
}
# How strongly a see-through lens reflects (of glTF's dielectric 4 %, through ``KHR_materials_specular``'s map on the
# lens's half): a typical three.js page's bright room mirrored in the aviator's brown lenses at full strength laid a
# grey-white haze over the eyes (blind review U, defect 10: "the aviator lenses glare white over the eyes"); a coated
# lens reflects about a third as much. The sunglasses keep the full reflection (dark and glossy).
LENS_SPECULAR = 0.3
# How far out from each eye's centre its lens is centred (frames sit a little wider than the eyes).
CENTRE_OUT = 0.001
# The widest bridge: the gap between the two lenses' inner edges (metres, for eyes 58.5 mm apart; the classic frame's
# 11.5 mm). A frame whose own lenses leave a wider one (the round frame's 17.5 mm) has them grown until they meet it
# (:func:`_grown`): its lenses then span the eyes' spacing, from the nose out past the eyes' outer corners.
BRIDGE = 0.0125
TALLER = 0.6
# ... and how far below it (the pupil sits above a lens's middle, the rim's top below the brow).
CENTRE_DOWN = 0.001
# The least gap between the rim's top and the brows' lower edge, and between the lens's top and the upper lid's
# margin over the pupil (metres, for eyes 58.5 mm apart): where the brows are low the lens is shorter (:func:`_height`).
GAP, LID_ROOM = 0.0022, 0.002
# What the brows' lower edge over the lens is read as, past its drawn height (metres, for eyes 58.5 mm apart): the
# brows' edge before brows40 reshaped them (thinned and raised a feminine brow, its edge 14.6 -> 15.8 mm over the eye's
# centre; a masculine one's 11.7 -> 11.5). Lenses refitted to the new edges mirrored less of the studio's lit ceiling
# (review N's #9 sunglasses, 11.4 against 12.5) and broke review Q's wire frames at three quarters (gapped 0.126 and
# 0.075 against 0.07): the frames keep the heights they were fitted at, until a pass fits them again with those tests.
FITTED_UNDER = {"masculine": 0.000245, "feminine": -0.001127}
# Each style's lens half-width and half-height (metres, for eyes 58.5 mm apart), rim, depth, rim section, corner
# and temple section are its frame's (glasses_frames.CLASSIC for clear and sunglasses, FRAMES for the others).
# The least lens half-width, as a share of the frame's, when a narrow head makes the frame narrower.
NARROWEST = 0.82
# How far inside the head's outline seen from the front the frame's ends stay (metres).
INSIDE = 0.004
# A sized kind's taller lens (glasses_frames.SIZED) may stand its plane at most this much further from the eyes
# (metres, for eyes 58.5 mm apart), tried from its full share down in this many steps.
SIZED_FORWARD, SIZED_STEPS = 0.001, 5
# The front's wrap (degrees): each lens turned about the vertical, its outer side back, as frames curve
# round the face. At 15 the far lens and its end piece stood out past the face at three quarters (blind review AK's
# second defect, "the far arm sticks out into the air", #4, #5, #7, #12; review AJ's #10): at 20, each lens widened
# so that seen from the front it spans what it spanned at FITTED_WRAP (the wrap its width was fitted at: review U's
# span, the brows' and the head's outline from the front), the far side's pixels against the backdrop in AK's
# 512 px portraits at 35 degrees fell 16 to 29 % on its worst four (tests/render/test_glasses_wrap_review_ak.py) and
# the lens plane came 1.2 to 2.7 mm nearer the eyes on five of its seven (the inner side, turned forward, clears
# the nose). At 22 and more the silver wire's highlight, the wire's gaps at three quarters and the round frame's
# span passed their reviews' bounds.
WRAP = 20.0
FITTED_WRAP = 15.0
# The eyes' surface to the lenses' back (an optician's vertex distance), and the least gap to the skin.
VERTEX_DISTANCE = 0.012
CLEARANCE = 0.0025
SEGMENTS = 40
# The temples: how far they stand off the skin where they rest on it (half their thickness, a strip has
# none), the least end piece between a rim and its hinge, and how far back behind the eyes they reach.
# Each lens is curved (an optician's base curve: a sphere of this radius, flatter vertically), so its
# outer side sweeps back round the face with the wrap.
BASE_CURVE = 0.08
REST = 0.0008
END_PIECE = 0.002
# The end piece leaves the rim this high up its outer side (in lens half-heights from its centre: the top corner)
# and runs out to its hinge this many degrees back from straight out.
END_BACK = 60.0
# How deep under the head's outermost skin at a point the skull may lie (metres): over an ear (its
# thickness), and elsewhere.
LAYER, THIN = 0.02, 0.004
# The temple's path round the ear, from the ear's middle (the dense core of its bowl; metres for eyes 58.5 mm
# apart, (up, back)): over the root of the ear's top, then down behind it to the earpiece's tip.
OVER_EAR = ((0.028, -0.03), (0.029, -0.004), (0.024, 0.013), (0.011, 0.020), (-0.006, 0.021))


def _superellipse(n: int, a: float, b: float, power: float = 4.0, lower: float = 2.6) -> np.ndarray:
    """A lens outline (n, 2): a rounded rectangle above (superellipse of ``power``), rounder below (``lower``:
    its corners clear the cheeks and the nose's sides, as most frames' do)."""
    t = np.linspace(0.0, 2 * np.pi, n, endpoint=False)
    c, s = np.cos(t), np.sin(t)
    p = np.where(s < 0, lower, power)
    x = a * np.sign(c) * np.abs(c) ** (2 / p)
    y = b * np.sign(s) * np.abs(s) ** (2 / p)
    y = np.where(y < 0, y * (0.92 + 0.08 * np.abs(c)), y)
    return np.column_stack([x, y])


@lru_cache(maxsize=1)
def _ear_cores() -> dict[str, np.ndarray]:
    """Per side, the body vertices of the ear's bowl on the reference body (indices into the mesh): the
    densest vertices on the side of the head behind the eyes (the ear's spiral is the mesh's densest part
    there). The base mesh's topology is every body's, so the same vertices are every body's ear."""
    from scipy.spatial import cKDTree

    from .mesh import body_mesh

    m = body_mesh({"gender": "feminine", "bodyShape": "average", "height": 166.0})
    body = m.groups["body"]
    p = m.positions[body].astype(np.float64)
    eyes = {s: m.positions[m.groups[f"helper-{s}-eye"]].mean(0) for s in "lr"}
    mid = (eyes["l"] + eyes["r"]) / 2
    out = {}
    for s, eye in eyes.items():
        side = np.sign(eye[0] - mid[0])
        near = np.flatnonzero((np.abs(p[:, 1] - mid[1]) < 0.08) & (side * (p[:, 0] - mid[0]) > 0.04)
                              & (p[:, 2] < mid[2] - 0.03))
        dense = np.array([len(x) for x in cKDTree(p[near]).query_ball_point(p[near], 0.006)])
        out[s] = body[near[dense > 2.5 * np.median(dense)]]
    return out


# How many (point, triangle) pairs :func:`_skull` weighs at once.
SKULL_BLOCK = 400_000


def _skull(tris: np.ndarray, mid_x: float, side: float, y: np.ndarray, z: np.ndarray,
           layer: np.ndarray | float = THIN) -> np.ndarray:
    """The head's half-width on ``side`` at each (``y``, ``z``) under any ear: where a ray out along x first
    meets the skin's triangles ``tris`` ((T, 3, 3) positions) within ``layer`` (per point, metres) of where it
    leaves them last: over an ear (:data:`LAYER`) it meets the skull before the ear; elsewhere (:data:`THIN`)
    only the outer skin, never the eye's socket inside; 0 where it meets none."""
    lat = side * (tris[..., 0] - mid_x)
    keep = lat.max(1) > 0.03
    t, lat = tris[keep], lat[keep]
    a, b, c = t[:, 0, 1:], t[:, 1, 1:], t[:, 2, 1:]
    v0, v1 = b - a, c - a
    den = v0[:, 0] * v1[:, 1] - v0[:, 1] * v1[:, 0]
    den = np.where(np.abs(den) < 1e-14, 1e-14, den)
    out = np.zeros(len(y))
    if not len(t):
        return out
    layer = np.broadcast_to(layer, (len(y),))
    # Rows of points against every triangle at once (a loop over the points was 24 ms of a new avatar's glasses).
    step = max(1, SKULL_BLOCK // len(t))
    for k0 in range(0, len(y), step):
        k = slice(k0, k0 + step)
        dy, dz = np.asarray(y[k])[:, None] - a[:, 0], np.asarray(z[k])[:, None] - a[:, 1]
        w1 = (dy * v1[:, 1] - dz * v1[:, 0]) / den
        w2 = (v0[:, 0] * dz - v0[:, 1] * dy) / den
        inside = (w1 >= 0) & (w2 >= 0) & (w1 + w2 <= 1)
        hit = (1 - w1 - w2) * lat[:, 0] + w1 * lat[:, 1] + w2 * lat[:, 2]
        hit = np.where(inside & (hit > 0.03), hit, np.nan)
        met = np.asarray(~np.isnan(hit).all(1))
        # The innermost of the outer layer: an ear stands 1.5 cm off the skull, the eye's socket lies 2.5 cm
        # and more inside the skin round it.
        far = np.where(met, np.nanmax(np.where(met[:, None], hit, 0.0), 1), 0.0)
        outer = np.where(hit > (far - layer[k])[:, None], hit, np.inf)
        out[k] = np.where(met, outer.min(1), 0.0)
    return out


def _height(mesh: BodyMesh, gender: str, eyes: dict, unit: float, fr: Frame = CLASSIC) -> tuple[float, float]:
    """The lenses' half-height and how far their centres lie below the eyes' (metres): the frame's lens and
    :data:`CENTRE_DOWN`, the top lowered where the rim would come within :data:`GAP` of the brows' lower
    edge over the lens's width (brows on the rim read as fused to it: review F), yet kept :data:`LID_ROOM`
    over the upper lid's margin (the lens frames the open eye; the lashes' tips may pass behind the rim); the
    bottom stays (but for a frame's ``least`` height)."""
    bottom = -(CENTRE_DOWN + fr.lens[1]) * unit
    # (over the frame's own lens: a sized one's widening lies past the brows' ends, 2.15 mm under them on review AW's #8)
    reach = np.linspace(CENTRE_OUT - fr.lens[0] - fr.rim, CENTRE_OUT + fr.lens[0] + fr.rim, 41)
    brows = float(np.nanmin(brow_bottom(gender, reach))) + FITTED_UNDER[gender]
    brows *= unit
    lid = 0.0
    for s, eye in eyes.items():
        lashes = mesh.positions[mesh.groups[f"helper-{s}-eyelashes-2"]].astype(np.float64)
        lid = max(lid, float(lashes[np.abs(lashes[:, 0] - eye[0]) < 0.003 * unit, 1].min()) - eye[1])
    top = min((fr.lens[1] - CENTRE_DOWN) * unit, max(brows - (fr.rim + GAP) * unit, lid + LID_ROOM * unit))
    if fr.least:   # (a round or teardrop lens keeps its shape, lower on the face)
        bottom = min(bottom, top - 2 * fr.least * fr.lens[1] * unit)
    return (top - bottom) / 2, -(top + bottom) / 2


def _grown(fr: Frame) -> Frame:
    """``fr`` with its lenses grown until their inner edges leave :data:`BRIDGE` between them over the nose, or as
    it is where they already do (the classic and aviator frames); for eyes 58.5 mm apart (the fit scales it). The
    height grows by the width's growth to the power :data:`TALLER` (a lens grown as much in height came lower on
    the face under the brows, its nose pads' arms along the nose's side). Blind review U (defect 10): the round gold
    frame's 43 mm lenses left a 17.5 mm bridge, and the frame read as too small for the face, its lenses narrower
    than the eyes' spacing.

    >>> from .glasses_frames import FRAMES
    >>> _grown(CLASSIC) is CLASSIC, [round(v * 1000, 2) for v in _grown(FRAMES["round"]).lens]
    (True, [24.0, 20.83])
    """
    widest = EYES_APART / 2 + CENTRE_OUT - BRIDGE / 2
    if fr.lens[0] >= widest:
        return fr
    grow = widest / fr.lens[0]
    return replace(fr, lens=(widest, fr.lens[1] * grow ** TALLER))


def _fit(mesh: BodyMesh, gender: str, fr: Frame = CLASSIC, sized: tuple[float, float] = (0.0, 0.0)) -> dict:
    """Where the glasses of frame ``fr`` go on this body (metres): the eyes' centres (``eyes``), the lenses' half-width
    and half-height (``a``, ``b``), their centres ``out`` from the eyes and ``down`` under them, their plane (``z``),
    the nose and the ears; the lenses ``sized`` (:data:`.glasses_frames.SIZED`: widened outwards by up to its first
    share of their width where the head leaves room, taller downwards by up to its second while the plane keeps within
    :data:`SIZED_FORWARD` of where it was)."""
    pos_all = mesh.positions.astype(np.float64)
    eye_pts = {s: pos_all[mesh.groups[f"helper-{s}-eye"]] for s in "lr"}
    eyes = {s: p.mean(0) for s, p in eye_pts.items()}
    mid = (eyes["l"] + eyes["r"]) / 2
    unit = float(np.linalg.norm(eyes["l"] - eyes["r"])) / EYES_APART
    cornea = max(float(p[:, 2].max()) for p in eye_pts.values())
    body = pos_all[mesh.groups["body"]]
    head = body[body[:, 1] > mesh.skeleton.pos("Neck")[1]]
    tris = mesh.triangles[mesh.face_groups["body"]]
    skull = pos_all[tris[(np.abs(pos_all[tris][:, :, 1] - mid[1]) < 0.08).all(1)]]
    # The lenses as the frame's (scaled with the eyes' spacing), narrower where the head is narrow: the frame's
    # front INSIDE the head's outline seen from the front (a frame wider than the head read as a borrowed
    # pair), the head's width measured over the 6 cm behind the corneas at a full lens's hinges' height (a
    # lens shortened under low brows keeps the width: the head is wider lower down, and the rims met at the nose).
    fr = _grown(fr)
    b, down = _height(mesh, gender, eyes, unit, fr)
    wider, taller = sized
    depth = cornea - np.linspace(0.0, 0.06, 13) * unit
    temples = min(float(_skull(skull, mid[0], side, np.full(len(depth), mid[1] + 0.4 * fr.lens[1] * unit), depth).max())
                  for side in (1.0, -1.0))
    room = temples - abs(eyes["l"][0] - mid[0]) - (CENTRE_OUT + fr.rim + END_PIECE + INSIDE) * unit
    a = float(np.clip(room, NARROWEST * fr.lens[0] * unit, fr.lens[0] * unit)) if temples > 0 else fr.lens[0] * unit
    # (a sized kind's lens widened outwards into the room left, SIZED: its half-width and its centre each take half of
    # that room, so its outer side takes all of it and its inner side stays)
    grow = float(np.clip((room - a) / 2, 0.0, wider * a)) if temples > 0 else 0.0
    a = (a + grow) * float(np.cos(np.radians(FITTED_WRAP)) / np.cos(np.radians(WRAP)))    # (as wide from the front as fitted)
    out = CENTRE_OUT * unit + grow
    dx = np.abs(head[:, 0] - mid[0])
    bridge_y = mid[1] + (0.004 - fr.bridge_drop) * unit
    # The nose under the bridge's middle (the top of its arch, 3 mm over its ends).
    nose = head[(dx < 0.004 * unit) & (np.abs(head[:, 1] - bridge_y - 0.003 * unit) < 0.004 * unit)]
    nose_z = float(nose[:, 2].max())
    z = _plane(head, eyes, mid, unit, fr, a, b, down, out, cornea)
    # A sized kind's lens taller downwards (its top kept under the brows), by the most of SIZED's share, in steps, that
    # leaves the plane at most SIZED_FORWARD further out: a lower rim that met the cheek pushed the whole front forward
    # (a quarter taller, up to 5.9 mm), the glasses standing off the face and their far side out past it at three
    # quarters (review AK's defect).
    for t in np.linspace(taller, 0.0, SIZED_STEPS if taller else 0, endpoint=False):
        taller_z = _plane(head, eyes, mid, unit, fr, a, b * (1 + t), down + b * t, out, cornea)
        if taller_z <= z + SIZED_FORWARD * unit:
            b, down, z = b * (1 + t), down + b * t, taller_z
            break
    ears = {s: pos_all[idx].mean(0) for s, idx in _ear_cores().items()}
    return {"eyes": eyes, "mid": mid, "unit": unit, "a": a, "out": out, "b": b, "down": down, "z": z, "cornea": cornea,
            "nose_z": nose_z, "bridge_y": bridge_y, "head": head, "skull": skull, "ears": ears}


def _plane(head: np.ndarray, eyes: dict, mid: np.ndarray, unit: float, fr: Frame, a: float, b: float, down: float,
           out: float, cornea: float) -> float:
    """The lens plane's depth (metres): :data:`VERTEX_DISTANCE` in front of the corneas, or further where any point of a
    rim (``fr``'s, of half-width ``a`` and half-height ``b``, centred ``out`` from each eye and ``down`` under it; curved
    and wrapped as drawn) would come within :data:`CLEARANCE` of the skin behind it (brow, cheek, nose)."""
    z = cornea + VERTEX_DISTANCE * unit
    for eye in eyes.values():
        side = np.sign(eye[0] - mid[0])
        rim = _curved(outline(fr, SEGMENTS, a + fr.rim * unit, b + fr.rim * unit, side, _superellipse), unit)
        spots = rim @ _wrap(side).T + np.array([eye[0] + side * out, eye[1] - down, 0.0])
        for q in spots:
            near = head[(np.abs(head[:, 0] - q[0]) < 0.0025 * unit) & (np.abs(head[:, 1] - q[1]) < 0.0025 * unit)]
            if len(near):
                z = max(z, float(near[:, 2].max()) + CLEARANCE * unit - q[2])
    return z


def _temple(f: dict, side: float, hinge: np.ndarray, ear: np.ndarray, steps: int = 20) -> np.ndarray:
    """A temple's path from ``hinge`` to behind the ear (``ear``: the middle of its bowl): back over the ear's
    root (:data:`OVER_EAR`, scaled with the head) and bent down behind it, as a temple's earpiece is;
    straight from the hinge to where it first rests on the head, then lying on the skull (:data:`REST` off
    the skin under it, the ear left out) wherever the head is wider than that line."""
    unit, mid_x = f["unit"], f["mid"][0]
    ctrl = np.array([[hinge[1], hinge[2]]] + [[ear[1] + up * unit, ear[2] - back * unit] for up, back in OVER_EAR])
    # A smooth curve through them (Chaikin's corner cutting, the ends kept), then even steps along it.
    for _ in range(4):
        q = np.repeat(ctrl, 2, axis=0)[1:-1].reshape(-1, 2, 2)
        ctrl = np.vstack([ctrl[:1], np.column_stack([0.75 * q[:, 0] + 0.25 * q[:, 1], 0.25 * q[:, 0] + 0.75 * q[:, 1]]).reshape(-1, 2), ctrl[-1:]])
    length = np.r_[0.0, np.cumsum(np.linalg.norm(np.diff(ctrl, axis=0), axis=1))]
    at = np.linspace(0, length[-1], steps)
    y, z = (np.interp(at, length, ctrl[:, k]) for k in range(2))
    skin = _skull(f["skull"], mid_x, side, y, z, np.where(np.abs(z - ear[2]) < 0.035 * unit, LAYER, THIN))
    start = abs(hinge[0] - mid_x)
    t = at / max(at[-1], 1e-9)
    # (Where a ray met no skin, the skin's width between its neighbours'.)
    ok = skin > 0
    skin = (np.interp(t, t[ok], skin[ok]) if ok.any() else np.full(len(t), start - REST * unit)) + REST * unit
    # The straight line from the hinge that just meets the skull, then the skull.
    slope = np.min(np.where(t > 0.05, (skin - start) / np.maximum(t, 1e-9), np.inf))
    x = mid_x + side * np.maximum(start + slope * t, skin)
    return np.column_stack([x, y, z])


def _bar(path: np.ndarray, facing: np.ndarray, tall: float, thick: float) -> tuple[np.ndarray, np.ndarray]:
    """A bar along ``path`` (n, 3): a closed four-sided section ``tall`` high across ``facing`` (its front's
    direction) and ``thick`` deep along it, centred on the path; (points, triangles), its ends closed.

    >>> p, t = _bar(np.array([[0.0, 0, 0], [1.0, 0, 0]]), np.array([0.0, 0, 1]), 0.1, 0.02)
    >>> p.shape, t.shape, float(np.ptp(p[:, 2])), float(np.ptp(p[:, 1]))
    ((8, 3), (12, 3), 0.02, 0.1)
    """
    along = np.gradient(path, axis=0)
    along /= np.maximum(np.linalg.norm(along, axis=1, keepdims=True), 1e-12)
    up = np.cross(facing, along)
    up /= np.maximum(np.linalg.norm(up, axis=1, keepdims=True), 1e-12)
    front = np.cross(along, up)
    n = len(path)
    ring = [(-0.5, -0.5), (-0.5, 0.5), (0.5, 0.5), (0.5, -0.5)]
    pts = np.vstack([path + u * tall * up + f * thick * front for u, f in ring])
    i = np.arange(n - 1)
    faces: list[np.ndarray | list[list[int]]] = []
    for r in range(4):
        a0, a1 = r * n + i, ((r + 1) % 4) * n + i
        faces += [np.column_stack([a0, a1, a0 + 1]), np.column_stack([a0 + 1, a1, a1 + 1])]
    faces.append([[0, 2 * n, n], [0, 3 * n, 2 * n], [n - 1, 2 * n - 1, 3 * n - 1], [n - 1, 3 * n - 1, 4 * n - 1]])
    return pts, np.vstack(faces)


def _curved(shape: np.ndarray, unit: float) -> np.ndarray:
    """Lens outline points (n, 2) in the lens's plane as 3-D offsets on its curve (:data:`BASE_CURVE`): the
    sag of a sphere across, a third of it up and down.

    >>> _curved(np.array([[0.0, 0.0], [0.03, 0.0]]), 1.0).round(4).tolist()   # 5.6 mm back at 3 cm out
    [[0.0, 0.0, -0.0], [0.03, 0.0, -0.0056]]
    """
    r = BASE_CURVE * unit
    sag = (shape[:, 0] ** 2 + shape[:, 1] ** 2 / 3) / (2 * r)
    return np.column_stack([shape, -sag])


def _wrap(side: float) -> np.ndarray:
    """The rotation turning a lens on ``side`` (+1 or -1 in x) by :data:`WRAP` degrees about the vertical,
    its outer side back.

    >>> np.round(_wrap(1.0) @ np.array([1.0, 0.0, 0.0]), 3).tolist()
    [0.94, 0.0, -0.342]
    """
    t = np.radians(WRAP)
    return np.array([[np.cos(t), 0.0, side * np.sin(t)], [0.0, 1.0, 0.0], [-side * np.sin(t), 0.0, np.cos(t)]])


def _look(kind: str):
    if kind not in LOOKS:
        raise ValueError(f"glasses: unknown kind {kind!r}")
    return LOOKS[kind]


def _pad_strip() -> slice:
    """The texture's columns of the nose pads' strip (:data:`PAD_UV`), the frame half's inner :data:`PAD_STRIP`.

    >>> _pad_strip()
    slice(48, 64, None)
    """
    return slice(round((0.5 - PAD_STRIP) * TEXTURE_SIZE), TEXTURE_SIZE // 2)


@lru_cache(maxsize=8)
def glasses_texture(kind: str) -> np.ndarray:
    """RGBA uint8: the left half the opaque frame, the right half the lens (tinted, see-through).

    >>> img = glasses_texture("clear")
    >>> img.shape, int(img[64, 10, 3]), int(img[64, 100, 3]) < 40
    ((128, 128, 4), 255, True)
    """
    frame, lens, alpha, _, _ = _look(kind)
    n = TEXTURE_SIZE
    img = np.zeros((n, n, 4), np.float32)
    y = (np.arange(n) / n)[:, None, None]
    img[:, : n // 2, :3] = np.array(frame) * (0.85 + 0.3 * y)
    img[:, : n // 2, 3] = 1.0
    # The lens is darker at the top, like a gradient tint.
    img[:, n // 2:, :3] = np.array(lens) * (0.9 + 0.1 * y)
    img[:, n // 2:, 3] = alpha if alpha > 0.9 else alpha * (1.05 - 0.1 * y[..., 0])
    if kind in GRADIENT:   # (a graded lens: its top dark, fading down it; lens_v maps the lens on 0.1..0.9)
        (a0, s0), (a1, s1) = GRADIENT[kind]
        t = np.clip((y - 0.1) / 0.8, 0.0, 1.0) ** 1.5
        img[:, n // 2:, :3] = np.array(lens) * (s0 + (s1 - s0) * t)
        img[:, n // 2:, 3] = a0 + (a1 - a0) * t[..., 0]
    if frame_of(kind).pads:
        img[:, _pad_strip(), :3], img[:, _pad_strip(), 3] = PAD_LOOK[0], PAD_LOOK[1]
    out = np.clip(img * 255 + 0.5, 0, 255).astype(np.uint8)
    out.setflags(write=False)
    return out


@lru_cache(maxsize=8)
def glasses_roughness(kind: str) -> np.ndarray:
    """(128, 128) uint8 roughness on :func:`glasses_texture`'s layout: the frame's left, the lens's right.

    >>> r = glasses_roughness("sunglasses")
    >>> int(r[0, 0]), int(r[0, -1])
    (115, 89)
    """
    _, _, _, frame, lens = _look(kind)
    n = TEXTURE_SIZE
    out = np.empty((n, n), np.uint8)
    out[:, : n // 2] = round(frame * 255)
    out[:, n // 2:] = round(lens * 255)
    if frame_of(kind).pads:
        out[:, _pad_strip()] = round(PAD_LOOK[2] * 255)
    out.setflags(write=False)
    return out


def glasses_material(kind: str) -> dict:
    """The ``Glasses`` material's description for :mod:`workbench.gltf.avatar`: the texture and roughness map; a
    near-opaque lens (alpha over 0.99: the sunglasses' 0.996) alpha-tested, writing depth (blended, a browser drew
    the lashes behind it over it: blended meshes go back to front by their bounds' centres, the glasses' behind the
    eyes: review M), any other blended, its lens's reflection weakened to :data:`LENS_SPECULAR` (``specular_map`` on the
    same layout: the frame's half full, the lens's weak); a metal frame's metalness (:data:`.glasses_frames.METAL`) as
    ``metal_map`` on the same layout (the frame's half; :mod:`workbench.gltf.maps` writes it as the roughness
    map's blue).

    >>> m = glasses_material("round")
    >>> m["blend"], m["mask"], int(m["metal_map"][0, 0]), int(m["metal_map"][0, -1]), "metal_map" in glasses_material("clear")
    (True, False, 255, 0, False)
    >>> int(m["specular_map"][0, 0]), int(m["specular_map"][0, -1]), "specular_map" in glasses_material("sunglasses")
    (255, 76, False)
    """
    sun = _look(kind)[2] > 0.99
    out = dict(name="Glasses", image=glasses_texture(kind), blend=not sun, mask=sun, double=True, roughness=0.4,
               roughness_map=glasses_roughness(kind))
    if not sun:
        spec = np.full((TEXTURE_SIZE, TEXTURE_SIZE), 255, np.uint8)
        spec[:, TEXTURE_SIZE // 2:] = round(LENS_SPECULAR * 255)
        if frame_of(kind).pads:   # (the pads' silicone reflects as a coated lens does)
            spec[:, _pad_strip()] = round(LENS_SPECULAR * 255)
        out["specular_map"] = spec
    if kind in METAL:
        metal = np.zeros((TEXTURE_SIZE, TEXTURE_SIZE), np.uint8)
        metal[:, : TEXTURE_SIZE // 2] = round(METAL[kind] * 255)
        if frame_of(kind).pads:
            metal[:, _pad_strip()] = 0
        out["metal_map"] = metal
    return out


def glasses_piece(mesh: BodyMesh, gender: str, kind: str = "clear") -> Piece:
    """The ``Glasses`` mesh for this body of ``gender`` (its brows' shape), in ``kind``'s frame
    (:func:`.glasses_frames.frame_of`; a graded lens's texture v runs down it: :func:`.glasses_frames.lens_v`)."""
    fr = frame_of(kind)
    f = _fit(mesh, gender, fr, sized_of(kind))
    eyes, mid, unit, a, b, z = f["eyes"], f["mid"], f["unit"], f["a"], f["b"], f["z"]

    pos: list[np.ndarray] = []
    tris: list[np.ndarray] = []
    uvs: list[np.ndarray] = []

    def add(points, faces, where):
        base = sum(len(p) for p in pos)
        pos.append(np.asarray(points, np.float64))
        tris.append(np.asarray(faces, np.int64) + base)
        uvs.append(np.tile(where, (len(points), 1)))

    n = SEGMENTS
    k = np.arange(n)
    ends, inside, bridge_ends = {}, [], []    # (the hinges; the rims' inner points for nose pads and a brow bar;
    #                                            a metal frame's bridge's ends)
    lenses = []    # (first vertex, count, centre, side) of each lens
    wires = []     # (first vertex, count, facing) of each wire rim
    for s, eye in eyes.items():
        side = np.sign(eye[0] - mid[0])
        c = np.array([eye[0] + side * f["out"], eye[1] - f["down"], z])
        # Lens (a fan), the rim's front face, its outer wall going back, all counter-clockwise from the front.
        # The front wraps round the face: each lens turned WRAP about its own centre's vertical axis, its
        # outer side back (a flat front left the far lens standing out past the face in three-quarter view).
        turn = lambda p, c=c, side=side: c + (p - c) @ _wrap(side).T                                      # noqa: E731
        inner = turn(c + _curved(outline(fr, n, a, b, side, _superellipse), unit))
        lenses.append((sum(len(p) for p in pos), n + 1, c, side))
        add(np.vstack([c, inner]), np.column_stack([np.zeros(n), 1 + k, 1 + (k + 1) % n]), LENS_UV)
        if kind in GRADIENT:
            uvs[-1] = np.column_stack([np.full(n + 1, LENS_UV[0]), lens_v(pos[-1], c, b)])
        # The rim: a closed, rounded section (the frame's bevel) swept round the lens, its front standing forward of the
        # lens and its back behind it, so it has a thickness seen from any side and its rounded edges catch the
        # light (a flat ring read as a line drawn on the face).
        rings = []
        for out, fwd in fr.bevel:
            shape = outline(fr, n, a + out * fr.rim * unit, b + out * fr.rim * unit, side, _superellipse)
            rings.append(turn(c + _curved(shape, unit) + np.array([0.0, 0.0, fwd * fr.depth * unit])))
        m = len(fr.bevel)
        bevel = [np.column_stack([r * n + k, ((r + 1) % m) * n + k, r * n + (k + 1) % n]) for r in range(m)]
        bevel += [np.column_stack([r * n + (k + 1) % n, ((r + 1) % m) * n + k, ((r + 1) % m) * n + (k + 1) % n])
                  for r in range(m)]
        add(np.vstack(rings), np.vstack(bevel), FRAME_UV)
        if fr.bevel is WIRE:   # (a wire rim's normals eased towards its lens's facing: glasses_frames.eased)
            wires.append((sum(len(p) for p in pos) - m * n, m * n, _wrap(side) @ [0.0, 0.0, 1.0]))
        # The hinge: level with the rim's outer top corner, out and back from it at END_BACK degrees (straight
        # out, it stood past the far rim at three quarters) to the first point beside the head (its ray meets the
        # skin: in front of the face it meets none), at least as wide as the head there; a bar joins them.
        corner = turn(c + np.array([side * (a + 0.5 * fr.rim * unit), b * fr.corner, -fr.depth * unit * 0.5]))  # (in the rim)
        if fr is not CLASSIC:   # (on the rim, at that height on its outer side: a round rim has no square corner)
            ring = rings[len(rings) // 4]
            corner = rim_point(ring, c, side, True, c[1] + fr.corner * b)
            inner_half = ring[side * (ring[:, 0] - c[0]) < -0.5 * a]
            inside.append((rim_point(ring, c, side, False, c[1]), side, inner_half[np.argmax(inner_half[:, 1])]))
            # (The bridge's end on this rim: a round lens's inner edge curves away from its widest point, so at
            # the bridge's height it is further out: ended at the widest, a round frame's bridge floated between
            # the rims, touching neither: blind review W, defect 10.)
            low = f["bridge_y"] if fr.keyhole is None else c[1] + fr.keyhole * b
            bridge_ends.append(rim_point(ring, c, side, False, low))
        run = corner + np.outer(np.linspace(END_PIECE, 0.03, 57) * unit, [side * np.cos(np.radians(END_BACK)), 0.0,
                                                                          -np.sin(np.radians(END_BACK))])
        raw = _skull(f["skull"], mid[0], side, run[:, 1], run[:, 2])
        at = int(np.argmax(raw > 0)) if raw.any() else -1
        hinge = run[at] + [side * max(0.0, raw[at] + REST * unit - side * (run[at, 0] - mid[0])), 0.0, 0.0]
        ends[s] = hinge
        bar = np.array([corner, hinge])
        add(*_bar(bar, np.array([0.0, 0.0, 1.0]), fr.end_tall * unit, fr.temple[1] * unit), FRAME_UV)
    # Bridge: a slightly arched band between the rims' inner edges, dipping back at its middle to rest on the nose.
    t = fr.rim * unit * fr.bridge
    inner_x = abs(eyes["l"][0] - mid[0]) + f["out"] - a
    # (Its ends meet the lenses' inner edges, which the wrap brought forward; a metal frame's, its rims' wire.)
    front = z + 0.001 + a * np.sin(np.radians(WRAP))
    if bridge_ends:
        inner_x = float(np.mean([abs(p[0] - mid[0]) for p in bridge_ends]))
        front = float(np.mean([p[2] for p in bridge_ends]))
    xs = mid[0] + np.linspace(-inner_x, inner_x, 7 if fr.keyhole is None else 15)
    u = (xs - mid[0]) / max(inner_x, 1e-9)
    top = f["bridge_y"] + 0.003 * unit
    low = float(np.mean([p[1] for p in bridge_ends])) if bridge_ends else f["bridge_y"]
    # (A keyhole rises round from the rims, as an arch: a parabola drew it a pointed tent.)
    arch = low + (top - low) * ((1 - u ** 2) if fr.keyhole is None else np.sqrt(np.clip(1 - u ** 2, 0.0, 1.0)))
    zs = front - (front - (f["nose_z"] + 0.0025 * unit)) * (1 - u ** 2)
    add(*_bar(np.column_stack([xs, arch, zs]), np.array([0.0, 0.0, 1.0]), t, fr.temple[1] * unit), FRAME_UV)
    # A metal frame's nose pads on their arms, and an aviator's brow bar over the bridge (glasses_frames).
    pads, arms = nose_pads(f, [(lo, side) for lo, side, _ in inside], _bar) if fr.pads else ([], [])
    for points, faces in pads:
        add(points, faces, PAD_UV)
    for points, faces in arms:
        add(points, faces, FRAME_UV)
    if fr.brow_bar:
        add(*brow_bar(inside[0][2], inside[1][2], unit, fr, _bar), FRAME_UV)
    # Temples: from the hinges back along the sides of the head and over the ears, bent down behind them
    # (:func:`_temple`), each a bar of the frame's temple section lying on the head (its inner face on the path).
    tall, thick = fr.temple[0] * unit / 2, fr.temple[1] * unit
    for s, hinge in ends.items():
        side = np.sign(hinge[0] - mid[0])
        path = _temple(f, side, hinge, f["ears"][s])
        along = np.gradient(path, axis=0)
        along /= np.maximum(np.linalg.norm(along, axis=1, keepdims=True), 1e-12)
        out = np.array([side, 0.0, 0.0]) - along[:, :1] * side * along
        out /= np.maximum(np.linalg.norm(out, axis=1, keepdims=True), 1e-12)
        up = np.cross(along, out) * side
        ring = [(-tall, 0.0), (-tall, thick), (tall, thick), (tall, 0.0)]
        n_pts = len(path)
        tube = np.vstack([path + u * up + o * out for u, o in ring])
        i = np.arange(n_pts - 1)
        sides = []
        for r in range(4):
            a0, a1 = r * n_pts + i, ((r + 1) % 4) * n_pts + i
            sides += [np.column_stack([a0, a0 + 1, a1 + 1]), np.column_stack([a0, a1 + 1, a1])]
        faces = np.vstack(sides)
        if side < 0:
            faces = faces[:, [0, 2, 1]]
        # (Its two ends closed.)
        faces = np.vstack([faces, [[0, n_pts, 2 * n_pts], [0, 2 * n_pts, 3 * n_pts]],
                           [[n_pts - 1, 3 * n_pts + n_pts - 1, 2 * n_pts + n_pts - 1],
                            [n_pts - 1, 2 * n_pts + n_pts - 1, n_pts + n_pts - 1]]])
        add(tube, faces, FRAME_UV)
    positions = np.vstack(pos).astype(np.float32)
    indices = np.vstack(tris)
    count = len(positions)
    normals = vertex_normals(positions, indices)
    # Each lens's normals are its curve's (the base curve's sphere, turned with the wrap), not a fan's averages:
    # a reflection in it then sweeps smoothly across it instead of breaking into the fan's spokes.
    for start, size, c, side in lenses:
        local = (positions[start:start + size] - c) @ _wrap(side)
        r = BASE_CURVE * unit
        nrm = np.column_stack([local[:, 0] / r, local[:, 1] / (3 * r), np.ones(size)]) @ _wrap(side).T
        normals[start:start + size] = nrm / np.linalg.norm(nrm, axis=1, keepdims=True)
    for start, size, facing in wires:
        normals[start:start + size] = eased(normals[start:start + size], facing)
    joints = np.zeros((count, 4), np.uint8)
    joints[:, 0] = mesh.skeleton.index["Head"]
    weights = np.zeros((count, 4), np.float32)
    weights[:, 0] = 1.0
    return Piece(positions, normals.astype(np.float32), np.vstack(uvs).astype(np.float32), indices,
                 joints, weights, np.full(count, -1, np.int64))
