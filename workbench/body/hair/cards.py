"""Strands swept into cards: ribbons along each guide strand, textured with one atlas column, skinned.

A card follows its strand's points; its width lies across the strand in the surface the hair forms
(across = strand direction x volume normal), narrowing towards the tip. Its shading normals are the
card's own facing (:func:`facing`; a coil's twisting ribbon too, turning round the coil), not the volume's
nor leaning out at its edges: a normal that leans off its card faces away from a viewer who sees the
card's front at a slant, and three.js's anisotropic highlight turns such pixels black. ``u`` runs
across the card inside its atlas column, ``v`` from the root (0) to the tip (1).

Skinning (at most four joints a vertex): hair on the head moves with ``Head`` (over the nape, as
the skin there does: the head envelope's share of ``Head``, the rest ``Neck``); hair hanging past
the head takes (over :data:`HANG` metres) the weights of the skin it hangs over (the body envelope's
outermost vertex there: beside the ears the head's, then the neck's, the back's, the shoulders',
the chest's), so long hair moves with what it lies on: the head's turn carries it over the ears, and
no nod or shoulder blade passes through it.

Cards are written inner first (by their mean height over the head or the body), so a renderer that
draws triangles in order (three.js within one primitive) lays outer cards over inner ones.

>>> import numpy as np
>>> pts = np.zeros((1, 3, 3)); pts[0, :, 1] = [0.0, -0.05, -0.1]
>>> nrm = np.zeros((1, 3, 3)); nrm[..., 2] = 1
>>> p, i = ribbons(pts, nrm, np.array([0.01]), np.array([0]))[:2]
>>> p.shape, i.shape
((6, 3), (4, 3))
"""

from __future__ import annotations

import numpy as np

from ..compile import top_four
from ..lod import Piece
from ..mesh import BodyMesh
from . import sleek
from .head import Head, hairline, smoothstep
from .outline import pointed
from .texture import column_u

# The least height (metres) of a card's vertex over the head envelope.
CLEAR = 0.0015
# Metres hanging cards turned in under the jaw (:func:`piece`'s ``under``) keep over the head envelope and over the
# body's own skin at their height: at CLEAR, a bob's curled ends by a heavy jaw and neck went 3 to 9 mm into them in
# the idle pose (tests/body/test_hair_clearance.py; at 12 mm over the envelope review O's silver hem caught the light).
UNDER_CLEAR, UNDER_SKIN = 0.006, 0.012
# Metres the head envelope under a sleek card's edge may stand over the envelope under its middle (:func:`tucked`).
TUCK = 0.004
# How much of the arms' weights hanging hair takes from the skin it lies on.
ARM_SHARE = 0.25
# Metres over the shoulders' joints by which hanging hair takes none of the arms' weights.
ARM_ABOVE = 0.04
# Metres below the skull's centre over which hanging hair goes from the head's weights to the skin's
# it hangs over.
HANG = 0.03
# Degrees a card's shading normal leans from its own facing towards the hair's volume normal (see
# :func:`facing`): enough that neighbouring cards, which rise off the head at their own slopes, shade as
# one surface (leaning none, each card's highlight was its own: the hair shone in flakes), little enough
# that only a card seen within that angle of edge-on can turn a normal away from the viewer.
LEAN = 25.0
NARROWEST, SWELL = 0.85, 0.15  # a card's width at its root and from 5/8 on, and its swell to the fullest (ribbons)
# Degrees hanging cards turn round their strands, each its own way up to this (from none where they start to hang
# over their first TWIST_OVER metres down): all lying in the hair's surface, those beside the face were seen
# edge-on from the front, a fan of lines and gaps (slabs); turned, some show their faces from every side.
TWIST = 35.0
TWIST_OVER = 0.06
# How many times wider a style's hanging cards grow as the hair spreads out round the shoulders
# (:func:`spread_widths`; long hair's curtain, its cards as wide over the shoulders as at the nape, showed the
# backdrop between them there and between their splayed ends).
SPREAD = {"long": 1.8}
# How many times wider a style's cards are over the head, inside its hairline (:func:`crown_widths`; long hair's cards,
# as narrow there as where they hang, left gaps over the crown and the sides through which its inner cards showed in
# their shade, darker, and the cards' ends: blind review G's "blocky patches" on the crown).
CROWN = {"long": 1.45}


def ribbons(pts: np.ndarray, nrm: np.ndarray, width: np.ndarray, column: np.ndarray,
            taper: float = 0.45, across: np.ndarray | None = None,
            along: np.ndarray | None = None,
            point: tuple[float, float] | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Cards along strands ``pts`` (S, K, 3) with volume normals ``nrm`` (S, K, 3): (positions (S*K*2, 3),
    triangles (S*(K-1)*2, 3), normals, UVs). ``width`` (S,) at the root (or (S, K) along each strand),
    narrowing by ``taper`` at the tip; ``column`` (S,) the atlas column of each card; ``across`` (S, K, 3) where the width lies
    (default: across the strand, in the surface the normals describe); ``along`` (S, K) how far along its strand
    each point is, 0 to 1 (its ``v`` and its taper; default: evenly); ``point``: narrowing to a point over the last
    stretch of each (:func:`.outline.pointed`)."""
    S, K, _ = pts.shape
    if across is None:
        t = np.gradient(pts, axis=1)
        t /= np.maximum(np.linalg.norm(t, axis=2, keepdims=True), 1e-12)
        across = np.cross(t, nrm)
    across = across / np.maximum(np.linalg.norm(across, axis=2, keepdims=True), 1e-12)
    s = np.linspace(0, 1, K)[None, :] if along is None else along
    w = (width if width.ndim == 2 else width[:, None]) * (1 - taper * s ** 1.5) * (NARROWEST + SWELL * np.sin(np.pi * np.minimum(s * 1.6, 1)))
    if point is not None:
        w = w * pointed(s, *point)
    half = (w / 2)[..., None] * across
    pos = np.stack([pts - half, pts + half], 2)                       # (S, K, 2, 3)
    n = np.stack([nrm, nrm], 2)
    u0, u1 = column_u(column)
    uv = np.empty((S, K, 2, 2))
    uv[:, :, 0, 0] = u0[:, None]
    uv[:, :, 1, 0] = u1[:, None]
    uv[:, :, :, 1] = s[..., None]
    base = (np.arange(S)[:, None] * K + np.arange(K - 1)[None, :]) * 2             # (S, K-1)
    a, b, c, d = base, base + 1, base + 2, base + 3                                 # left/right, row k and k+1
    # Each quad wound so its front faces the way its shading normal points: a viewer that lights a
    # double-sided surface's back face with the normal reversed (three.js) then lights the outside.
    flat = pos.reshape(-1, 3)
    face = np.cross(flat[b] - flat[a], flat[c] - flat[a])
    outward = np.sum(face * (nrm[:, :-1] + nrm[:, 1:]), axis=2) >= 0
    first = np.where(outward[..., None], np.stack([a, b, c], -1), np.stack([a, c, b], -1))
    second = np.where(outward[..., None], np.stack([b, d, c], -1), np.stack([b, c, d], -1))
    tris = np.stack([first, second], 2).reshape(-1, 3)
    return pos.reshape(-1, 3), tris.astype(np.int64), n.reshape(-1, 3), uv.reshape(-1, 2)


def ARM_JOINTS(mesh: BodyMesh) -> list[int]:    # noqa: N802 (a table, computed)
    """The arms' and hands' joints."""
    return [i for n, i in mesh.skeleton.index.items() if any(k in n for k in ("Arm", "Hand"))]


def skin(mesh: BodyMesh, head: Head, positions: np.ndarray, hanging: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Joints (N, 4) uint8 and weights (N, 4) of hair vertices (see the module's text); ``hanging``
    (N,) marks vertices of strands that fell past the head."""
    idx = mesh.skeleton.index
    n = len(positions)
    d = positions - head.centre
    d = d / np.maximum(np.linalg.norm(d, axis=1, keepdims=True), 1e-12)
    share = np.where(hanging, 1.0, head.share(d))
    dense = np.zeros((n, len(mesh.skeleton.names)), np.float32)
    rows = np.arange(n)
    # On the head: Head, or over the nape the skin's share of it, the rest Neck.
    low = np.clip((head.centre[1] - positions[:, 1]) / HANG, 0, 1) * hanging
    dense[:, idx["Head"]] = share * (1 - low)
    dense[:, idx["Neck"]] = (1 - share) * (1 - low)
    # Hanging below the jaw: more and more the skin's under it (the back's, the shoulders', the chest's),
    # so the hair moves with what it lies on.
    if low.any():
        az = np.degrees(np.arctan2(d[:, 0], d[:, 2]))
        j, w = head.skin_at(az, positions[:, 1], np.hypot(*(positions - head.centre)[:, [0, 2]].T))
        # ...but only a quarter of the arms' share of it: blended over an arm raised overhead it pulls points off
        # the skin inwards (the shoulder's crease), more the farther they are from it; without it a
        # shrug lifts the shoulders' skin through the hair.
        # (In front, none: there a lock lying on the chest swung out with the arm coming down.)
        # ...and none higher than the shoulders' joints: the hair is fitted round the arms as they hang (the
        # clips' pose, not the bind pose's T), so lowering the arms carried hair over the shoulders by its share
        # of them, out and up, 6 cm at the level of the jaw (flaps beside the neck).
        sk = mesh.skeleton
        joint_y = (sk.pos("LeftArm")[1] + sk.pos("RightArm")[1]) / 2
        share = (np.where(np.abs(az) < 75, 0.0, ARM_SHARE) * smoothstep(joint_y + ARM_ABOVE, joint_y, positions[:, 1]))[:, None]
        w = np.where(np.isin(j, ARM_JOINTS(mesh)), share * w, w)
        w = w / np.maximum(w.sum(1, keepdims=True), 1e-9)
        np.add.at(dense, (np.repeat(rows, 4), j.reshape(-1).astype(np.int64)), (w * low[:, None]).reshape(-1))
    return top_four(dense)


def order(pts: np.ndarray, head: Head) -> np.ndarray:
    """Cards inner first: by the mean distance of their points from the head's centre, less the head
    envelope there (their height over the head); ties by index."""
    S, K, _ = pts.shape
    flat = pts.reshape(-1, 3) - head.centre
    r = np.linalg.norm(flat, axis=1)
    height = (r - head.envelope(flat / np.maximum(r, 1e-12)[:, None])).reshape(S, K).mean(1)
    return np.lexsort((np.arange(S), np.round(height, 5)))


def piece(mesh: BodyMesh, head: Head, strands, sort: bool = True, spread: float = 1.0,
          crown: tuple[str, float] | None = None, hug: bool = False, point: tuple[float, float] | None = None,
          under: bool = False) -> Piece:
    """The cards of ``strands`` (a :class:`~.groom.Strands`) as one :class:`~workbench.body.lod.Piece`,
    inner cards first (``sort=False``: they come so already); hanging cards widening as they spread, up to
    ``spread`` times (:func:`spread_widths`); ``crown`` (a style and a factor): wider over the head inside the
    style's hairline (:func:`crown_widths`); ``hug``: cards on the head bent across to lie on it (:func:`hugged`);
    ``point``: each card narrowing to a point at its tip (:data:`.outline.CARD_POINT`, :func:`.outline.pointed`);
    ``under``: hanging cards kept out of the body's own skin at each height (:meth:`.head.Head.skin_reach`), not the
    envelope held at its widest above, so ends turned under (:func:`.groom.tucked`) stay turned in under the jaw."""
    s = strands.take(order(strands.pts, head)) if sort else strands
    S, K, _ = s.pts.shape
    hang = s.hanging
    across = s.across if s.across is not None or not hang.any() else twisted(s.pts, s.nrm, hang)
    width = spread_widths(s.pts, hang, head, s.width, spread) if spread > 1 else s.width
    if crown is not None:
        width = crown_widths(s.pts, hang, head, width, *crown)
    pos, tris, normals, uv = ribbons(s.pts, s.nrm, width, s.column, s.taper, across, s.along, point)
    if hug:
        pos = tucked(pos, s.pts, np.repeat(hang.reshape(-1), 2), head)
        uv = sleek.narrowed(uv, width) if width.ndim == 2 else uv
    # A flat card's edges leave the curved surface its middle follows: those on the head are kept
    # out of the head envelope.
    rel = pos - head.centre
    r = np.linalg.norm(rel, axis=1)
    d = rel / np.maximum(r, 1e-12)[:, None]
    floor = head.envelope(d, highest=True) + CLEAR
    hanging = np.repeat(hang.reshape(-1), 2)
    low = (r < floor) & ~hanging
    pos[low] = head.centre + d[low] * floor[low, None]
    if hug:
        pos = hugged(pos, s.pts, hanging, head)
    # ...and those hanging out of the body envelope (over a hollow, such as where the neck meets the
    # shoulders, a flat card's edges dip below the surface its middle follows).
    if hanging.any():
        rel = pos - head.centre
        rho = np.hypot(rel[:, 0], rel[:, 2])
        az = np.degrees(np.arctan2(rel[:, 0], rel[:, 2]))
        # (...the body's own skin at their height, UNDER_SKIN off it, and the head envelope, UNDER_CLEAR off it)
        need = head.skin_reach(az, pos[:, 1]) + UNDER_SKIN if under else head.reach(az, pos[:, 1]) + CLEAR
        push = hanging & (rho < need)
        pos[push, 0] = head.centre[0] + rel[push, 0] * (need[push] / np.maximum(rho[push], 1e-9))
        pos[push, 2] = head.centre[2] + rel[push, 2] * (need[push] / np.maximum(rho[push], 1e-9))
        if under:
            rel = pos - head.centre
            r = np.linalg.norm(rel, axis=1)
            d = rel / np.maximum(r, 1e-12)[:, None]
            floor = head.envelope(d, highest=True) + UNDER_CLEAR
            low = hanging & (r < floor)
            pos[low] = head.centre + d[low] * floor[low, None]
    joints, weights = skin(mesh, head, pos, np.repeat(hang.reshape(-1), 2))
    # (A ribbon laid along given directions, a coil's, twists a quarter turn a quad: its vertices' shared
    # normals turn round the coil with it, so it shades as a round strand; each triangle's own normal drew
    # flat flakes, and in light hair a white band of those facing the light.)
    normals = lean(facing(pos, tris, normals), normals, LEAN)
    return Piece(pos.astype(np.float32), normals.astype(np.float32), uv.astype(np.float32), tris, joints,
                 weights, np.full(len(pos), -1, np.int64))


def tucked(pos: np.ndarray, pts: np.ndarray, hanging: np.ndarray, head: Head) -> np.ndarray:
    """Card vertices ``pos`` (S*K*2, 3; two a row of strands ``pts`` (S, K, 3)) on the head drawn in towards their row's
    middle where the head envelope under them stands more than :data:`TUCK` over the envelope under the middle (the
    ear's rim). Kept out of the envelope there, a sleek card's lower edge over the ear's top stood a centimetre out of
    the head's outline beside the temple in ragged points (blind review N's "white floating wisps", #2;
    tests/body/test_sleek_temples_review_n.py).

    >>> from types import SimpleNamespace
    >>> ear = lambda d, highest=False: np.where(d[:, 1] < -0.2, 0.12, 0.1)
    >>> head = SimpleNamespace(centre=np.zeros(3), envelope=ear)
    >>> pts = np.array([[[0.1, 0.0, 0.0]]]); pos = np.array([[0.1, 0.04, 0.0], [0.1, -0.04, 0.0]])
    >>> tucked(pos, pts, np.zeros(2, bool), head).round(3).tolist()
    [[0.1, 0.04, 0.0], [0.1, -0.02, 0.0]]
    """
    mid = np.repeat(pts.reshape(-1, 3), 2, axis=0)
    floor = head.envelope(_unit(mid - head.centre))

    def rise(t):
        return head.envelope(_unit(mid + t[:, None] * (pos - mid) - head.centre), highest=True) - floor

    out = ~hanging & (rise(np.ones(len(pos))) > TUCK)
    lo, hi = np.zeros(len(pos)), np.ones(len(pos))
    for _ in range(8):
        t = (lo + hi) / 2
        over = rise(t) > TUCK
        hi, lo = np.where(over, t, hi), np.where(over, lo, t)
    t = np.where(out, lo, 1.0)
    return mid + t[:, None] * (pos - mid)


def _unit(v: np.ndarray) -> np.ndarray:
    return v / np.maximum(np.linalg.norm(v, axis=1, keepdims=True), 1e-12)


def hugged(pos: np.ndarray, pts: np.ndarray, hanging: np.ndarray, head: Head) -> np.ndarray:
    """Card vertices ``pos`` (S*K*2, 3; two a row of strands ``pts`` (S, K, 3)) on the head at their row's middle's
    height over the head envelope, so a card lying on the head curves across with it. Flat, a sleek style's cards
    (2 cm wide, lying 2 to 5 mm over the head) stood 8 to 10 mm off it at one edge over the temples, tilted 20
    degrees by the envelope's floor under the other edge: seen edge-on round the outline, each card a tooth
    (blind review H's "saw-toothed crown").

    >>> from types import SimpleNamespace
    >>> head = SimpleNamespace(centre=np.zeros(3), envelope=lambda d, highest=False: np.full(len(d), 0.1))
    >>> pts = np.array([[[0.0, 0.103, 0.0]]]); pos = np.array([[-0.02, 0.104, 0.0], [0.02, 0.107, 0.0]])
    >>> np.linalg.norm(hugged(pos, pts, np.zeros(2, bool), head), axis=1).round(4).tolist()
    [0.103, 0.103]
    """
    rel = pts.reshape(-1, 3) - head.centre
    r = np.linalg.norm(rel, axis=1)
    height = np.maximum(r - head.envelope(rel / np.maximum(r, 1e-12)[:, None]), CLEAR)
    out = pos - head.centre
    dist = np.linalg.norm(out, axis=1)
    d = out / np.maximum(dist, 1e-12)[:, None]
    on = ~hanging
    # (never under the envelope's floor, as every card: the bilinear envelope dips under the skin between its cells)
    at = np.maximum(head.envelope(d[on]) + np.repeat(height, 2)[on], head.envelope(d[on], highest=True) + CLEAR)
    out[on] = d[on] * at[:, None]
    return head.centre + out


def spread_widths(pts: np.ndarray, hanging: np.ndarray, head: Head, width: np.ndarray, most: float) -> np.ndarray:
    """Widths (S, K) of cards along strands ``pts`` that keep hanging hair closed as it spreads: each hanging
    point's width times how much farther it is from the vertical through the skull's centre than where its
    strand starts to hang, up to ``most`` times (a curtain turning out over the shoulders, or round a chest,
    spreads over a wider round than at the nape: its cards, as wide there as at the nape, parted, and the
    backdrop showed between them and between their splayed ends).

    >>> from types import SimpleNamespace
    >>> pts = np.zeros((1, 4, 3)); pts[0, :, 2] = [0.05, 0.08, 0.12, 0.3]
    >>> w = spread_widths(pts, np.array([[False, True, True, True]]), SimpleNamespace(centre=np.zeros(3)),
    ...                   np.array([0.01]), 2.0)
    >>> w.round(3).tolist()
    [[0.01, 0.01, 0.015, 0.02]]
    """
    rho = np.hypot(pts[..., 0] - head.centre[0], pts[..., 2] - head.centre[2])
    first = np.where(hanging, rho, np.inf).min(1, keepdims=True)      # (the nape's round: the nearest in)
    grow = np.where(hanging, np.clip(rho / np.maximum(first, 1e-9), 1.0, most), 1.0)
    return width[:, None] * grow


def crown_widths(pts: np.ndarray, hanging: np.ndarray, head: Head, width: np.ndarray, style: str,
                 most: float) -> np.ndarray:
    """Widths (S, K) of cards along strands ``pts``: ``most`` times ``width`` (S,) or (S, K) at points on the head well
    inside ``style``'s hairline (under 0.65 of its polar angle from the crown), as they were from 0.85 of it out and
    where they hang (a card's edge crossing the hairline's fade cuts it).

    >>> from types import SimpleNamespace
    >>> pts = np.array([[[0.0, 1.0, 0.0], [0.0, 0.0, 1.0]]])
    >>> crown_widths(pts, np.zeros((1, 2), bool), SimpleNamespace(centre=np.zeros(3)), np.array([0.01]), "long",
    ...              1.5).round(3).tolist()
    [[0.015, 0.01]]
    """
    rel = pts - head.centre
    az = np.degrees(np.arctan2(rel[..., 0], rel[..., 2]))
    pol = np.degrees(np.arccos(np.clip(rel[..., 1] / np.maximum(np.linalg.norm(rel, axis=-1), 1e-12), -1, 1)))
    inside = smoothstep(0.85, 0.65, pol / hairline(style, az)) * ~hanging
    return (width if width.ndim == 2 else width[:, None]) * (1 + (most - 1) * inside)


def twisted(pts: np.ndarray, nrm: np.ndarray, hanging: np.ndarray) -> np.ndarray:
    """The directions (S, K, 3) cards along strands ``pts`` lie across: in the hair's surface (normals ``nrm``),
    hanging points turned round the strand by up to :data:`TWIST` degrees, each card its own way.

    >>> pts = np.zeros((2, 3, 3)); pts[:, :, 1] = [0.0, -0.1, -0.2]
    >>> nrm = np.zeros((2, 3, 3)); nrm[..., 2] = 1
    >>> a = twisted(pts, nrm, np.ones((2, 3), bool))
    >>> a[:, 0].round(3).tolist(), bool(abs(a[0, 2, 2]) > 0.3)
    ([[-1.0, 0.0, 0.0], [-1.0, 0.0, 0.0]], True)
    """
    t = np.gradient(pts, axis=1)
    t /= np.maximum(np.linalg.norm(t, axis=2, keepdims=True), 1e-12)
    flat = np.cross(t, nrm)
    flat /= np.maximum(np.linalg.norm(flat, axis=2, keepdims=True), 1e-12)
    up = np.cross(flat, t)
    S = len(pts)
    # Each card its own angle, evenly spread from -TWIST to TWIST (the golden ratio's multiples: no two alike).
    angle = np.radians(TWIST) * (2 * ((np.arange(S) * 0.6180339887) % 1.0) - 1)
    drop = np.maximum.accumulate(np.where(hanging, pts[..., 1].max(1, keepdims=True) - pts[..., 1], 0.0), axis=1)
    start = np.where(hanging.any(1), np.where(hanging, drop, np.inf).min(1), 0.0)
    turn = angle[:, None] * smoothstep(0.0, TWIST_OVER, drop - start[:, None]) * hanging
    return flat * np.cos(turn)[..., None] + up * np.sin(turn)[..., None]


def lean(own: np.ndarray, volume: np.ndarray, most: float) -> np.ndarray:
    """Unit normals ``own`` (N, 3) turned towards ``volume`` (N, 3) by at most ``most`` degrees.

    >>> lean(np.array([[0.0, 0, 1]]), np.array([[1.0, 0, 0]]), 30.0).round(3).tolist()
    [[0.5, 0.0, 0.866]]
    """
    v = volume / np.maximum(np.linalg.norm(volume, axis=1, keepdims=True), 1e-12)
    angle = np.arccos(np.clip(np.sum(own * v, axis=1), -1, 1))
    side = v - own * np.sum(own * v, axis=1, keepdims=True)
    side /= np.maximum(np.linalg.norm(side, axis=1, keepdims=True), 1e-12)
    turn = np.minimum(angle, np.radians(most))[:, None]
    out = own * np.cos(turn) + side * np.sin(turn)
    return out / np.maximum(np.linalg.norm(out, axis=1, keepdims=True), 1e-12)


def face_normals(pos: np.ndarray, tris: np.ndarray) -> np.ndarray:
    """Unit normals (M, 3) of triangles ``tris`` (their winding's front).

    >>> face_normals(np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0]], float), np.array([[0, 1, 2]])).tolist()
    [[0.0, 0.0, 1.0]]
    """
    f = _face_areas(pos, tris)
    return f / np.maximum(np.linalg.norm(f, axis=1, keepdims=True), 1e-20)


def facing(pos: np.ndarray, tris: np.ndarray, normals: np.ndarray) -> np.ndarray:
    """Shading normals that follow the cards' own facing: each vertex's wound triangles' normals, area
    weighted (``normals`` where they cancel out).

    Lit by a directional light, three.js (0.183) draws black where a pixel's shading normal faces away
    from both the viewer and the light on a ``KHR_materials_anisotropy`` material: its anisotropic
    visibility term (``V_GGX_SmithCorrelated_Anisotropic``, unlike the isotropic one) divides by
    ``dotNL * ... + dotNV * ...`` unguarded, both clamped to 0 there, and 0 x infinity is NaN. A normal
    leaning off its card (out of the head, or out at a card's edges) faces away from a viewer who sees the
    card's front at a slant; the card's own facing does not.

    >>> pos = np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0]], float)
    >>> facing(pos, np.array([[0, 1, 2]]), np.array([[1.0, 0, 0]] * 3)).tolist()[0]
    [0.0, 0.0, 1.0]
    """
    f = _face_areas(pos, tris)
    g = np.zeros((len(pos), 3))
    for k in range(3):
        np.add.at(g, tris[:, k], f)
    size = np.linalg.norm(g, axis=1, keepdims=True)
    ok = size[:, 0] > 1e-12
    return np.where(ok[:, None], g / np.maximum(size, 1e-20), normals)


def _face_areas(pos: np.ndarray, tris: np.ndarray) -> np.ndarray:
    """Triangles' normals scaled by twice their areas."""
    return np.cross(pos[tris[:, 1]] - pos[tris[:, 0]], pos[tris[:, 2]] - pos[tris[:, 0]]).astype(np.float64)
