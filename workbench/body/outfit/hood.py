"""A hoodie's hood, lying down as a hood does: its opening's edge a soft roll standing round the back and
sides of the neck, coming forward to the neckline's V at the front, where its two ends cross; behind, the
hood's bag lies on the upper back, deepest at the back's middle, its outline tucked down onto the hoodie.

Seen from the front it frames the neck (a collar's roll, 3.4 cm tall at most); from behind it is a bag of
fleece on the shoulder blades, 4 cm thick below the neck, its opening a hollow between the roll's rim and the
bag's crown, its lower edge a rounded fold (review P: "the hood is only painted onto a flat back"). Its
shade by row (:data:`SHADE`: the opening's inside, the fold's underside) and the shadow its fold casts on the
hoodie are painted into the cloth's shade (:mod:`.cloth`), so every viewer shows them. It is a closed surface: it rises from a seam along the hoodie's
neckline and comes down onto the hoodie along its outline, so no raw edge of it shows. (The first hood was
a pad lying on the shoulders whose two ends stood off them: two horns seen from the front.)

Made once on the reference drape (:mod:`.pattern`), per bearing round the neck (0 at the front, pi at the
back) over the neckline's back and sides:

1. The neckline as a smooth ring: its radius and height by bearing, resampled at :data:`STEPS` even
   bearings from :data:`END` degrees either side of the front (the neckline's own points are uneven).
2. A profile from each: the roll (:data:`ROLL`: out from the neckline and up, metres, at full size) then
   the bag lying on the hoodie (:data:`BAG`: rows down the back, each a share of the hood's depth at that
   bearing and how far the bag stands off the hoodie). The hood's size falls from the back's middle to its
   two ends, where the roll is a third as tall and the bag gone.
3. The roll is rebuilt so on every body, round its own neckline (:func:`worn`): bound to the hoodie's
   triangles, points standing 3 cm above them turned with them and lay flat on a heavy build's broader
   trapezius. The bag's points are bound to the hoodie's nearest triangles: the foot of each there
   (barycentrics) and its offset in the triangle's own frame (along its first edge, across it, along its
   normal), the ``.mhclo`` binding with a whole offset.

>>> ROLL.shape[1], BAG.shape[1], len(SHADE) == len(ROLL) + len(BAG)
(2, 2, True)
"""

from __future__ import annotations

import numpy as np
from scipy.spatial import cKDTree

__all__ = ["ROLL", "BAG", "SHADE", "STEPS", "END", "bearings", "folds", "hood", "hood_ring", "worn"]

# The roll (out from the neckline, up from it; metres at the back's middle): from the seam up the neck's
# side of the roll, over its top (the opening's rim) and down its outside into the hood's open mouth, the
# hollow between the rim and the bag's crown where one sees into the hood (review P: "the hood is only
# painted onto a flat back": a roll 2.8 cm tall whose outside ran straight onto the bag showed no opening).
ROLL = np.array([[0.002, 0.0], [0.003, 0.012], [0.006, 0.024], [0.011, 0.032], [0.018, 0.034], [0.024, 0.029],
                 [0.027, 0.020], [0.031, 0.013], [0.036, 0.010]])
# The bag (share of the hood's depth down the hoodie from the roll's foot, how far it stands off the hoodie):
# rising from the hollow to its crown, two layers of fleece and the air between them 4.2 cm off the back of
# the neck, thinning down the back to a rounded fold, its lower edge, that turns under onto the hoodie.
# (A bag 1.6 cm thick at most lay on the back as a faint pad, review F; one 2.9 cm thick at most, whose edge
# sloped away over 5 cm, read as painted on, review P; at 5.2 cm long hair lying over it bent in corners,
# tests/body/test_hair_drape_review_j.py.)
BAG = np.array([[0.04, 0.026], [0.12, 0.036], [0.24, 0.042], [0.40, 0.042], [0.56, 0.039], [0.72, 0.034],
                [0.84, 0.030], [0.92, 0.024], [0.97, 0.014], [1.0, 0.002]])
# How much of the room's light reaches each row (ROLL's, then BAG's), painted into the cloth's shade
# (workbench.body.outfit.cloth): the roll's neck side and the hollow inside the opening in shade, the bag's
# crown in full light, its fold's underside darker towards the hoodie it turns onto.
SHADE = np.array([0.62, 0.7, 0.82, 0.95, 1.0, 0.97, 0.8, 0.6, 0.5,
                  0.62, 0.85, 0.97, 1.0, 1.0, 1.0, 1.0, 0.94, 0.8, 0.64])
# The hood's depth down the back at its middle and at the sides (metres, along the hoodie: down the back,
# out along the shoulders).
BACK, SIDE = 0.25, 0.06
STEPS = 45
END = 4.0
# Over what share of each half of the hood its roll tapers to nothing at its end (where the ends cross).
TAPER = 0.14
# The roll's height at the front as a share of its height at the back's middle (a hood down stands at the back of
# the neck only), and how far down from the level it lies at the front (degrees; down the shoulders' and chest's
# slope). (Laid out 1.25 to 1.5 times as wide as well, its outer edge on the shoulder went 0.9-1.5 mm into the
# skin in the idle pose: it moves with the neckline, the shoulder otherwise; test_clothes_edges.)
LIE, TILT = 0.4, 30.0
# The bag's folds from behind: how deep (a share of its thickness at its lower edge, less up towards the neck) and
# how many waves round the neck (4: a valley along the centre seam, a fold either side of it).
FOLD, FOLDS = 0.3, 4


def _nearest_on(points: np.ndarray, faces: np.ndarray, targets: np.ndarray):
    """For each target: the triangle of ``faces`` nearest it (among those round its 8 nearest centres) and
    the barycentrics of the target's foot there, clamped into the triangle."""
    centres = points[faces].mean(1)
    _, cand = cKDTree(centres).query(targets, k=8)
    a, b, c = (points[faces[cand][..., k]] for k in range(3))
    n = np.cross(b - a, c - a)
    n /= np.maximum(np.linalg.norm(n, axis=-1, keepdims=True), 1e-12)
    d = ((targets[:, None] - a) * n).sum(-1)
    foot = targets[:, None] - d[..., None] * n
    v0, v1, v2 = b - a, c - a, foot - a
    d00, d01, d11 = (v0 * v0).sum(-1), (v0 * v1).sum(-1), (v1 * v1).sum(-1)
    d20, d21 = (v2 * v0).sum(-1), (v2 * v1).sum(-1)
    den = np.maximum(d00 * d11 - d01 * d01, 1e-18)
    w1 = (d11 * d20 - d01 * d21) / den
    w2 = (d00 * d21 - d01 * d20) / den
    bary = np.clip(np.stack([1 - w1 - w2, w1, w2], -1), 0, None)
    bary /= bary.sum(-1, keepdims=True)
    closest = (bary[..., :, None] * np.stack([a, b, c], -2)).sum(-2)
    pick = np.linalg.norm(targets[:, None] - closest, axis=-1).argmin(1)
    rows = np.arange(len(targets))
    return faces[cand[rows, pick]], bary[rows, pick]


def _frames(points: np.ndarray, tri: np.ndarray, bary: np.ndarray):
    """(foot, three unit axes (N, 3, 3)): each bound point's foot on its triangle and the triangle's frame
    (its first edge, across it, its normal)."""
    a, b, c = (points[tri[:, k]] for k in range(3))
    foot = bary[:, :1] * a + bary[:, 1:2] * b + bary[:, 2:] * c
    e1 = b - a
    e1 /= np.maximum(np.linalg.norm(e1, axis=1, keepdims=True), 1e-12)
    n = np.cross(b - a, c - a)
    n /= np.maximum(np.linalg.norm(n, axis=1, keepdims=True), 1e-12)
    return foot, np.stack([e1, np.cross(n, e1), n], 1)


def bearings() -> np.ndarray:
    """The hood's :data:`STEPS` bearings round the neck (radians, 0 at the front)."""
    return np.linspace(np.radians(END), np.radians(360 - END), STEPS)


def _rows(line: np.ndarray, neck: tuple[float, float]) -> tuple[np.ndarray, ...]:
    """Steps 1 and 2 on the neckline's points ``line``: (the roll's rows (ROLL, STEPS, 3), the foot of the bag
    and the way it lies (STEPS, 3 each), its depth and its size by bearing)."""
    rel = line[:, [0, 2]] - np.asarray(neck)
    bearing = np.mod(np.arctan2(rel[:, 0], rel[:, 1]), 2 * np.pi)     # 0 at the front, pi at the back
    order = np.argsort(bearing)
    bearing, radius, height = bearing[order], np.hypot(*rel[order].T), line[order, 1]
    at = bearings()
    wrap = np.concatenate([bearing - 2 * np.pi, bearing, bearing + 2 * np.pi])
    r = np.interp(at, wrap, np.tile(radius, 3))
    y = np.interp(at, wrap, np.tile(height, 3))
    # (Smoothed round the ring: the neckline's points zigzag by millimetres.)
    for _ in range(4):
        r[1:-1] = (r[:-2] + 2 * r[1:-1] + r[2:]) / 4
        y[1:-1] = (y[:-2] + 2 * y[1:-1] + y[2:]) / 4
    out = np.column_stack([np.sin(at), np.zeros(STEPS), np.cos(at)])
    up = np.array([0.0, 1.0, 0.0])
    seam = np.column_stack([neck[0] + r * np.sin(at), y, neck[1] + r * np.cos(at)])
    # The hood's size by bearing: 1 at the back's middle, falling to its ends (the roll to a third, then
    # tapering to nothing where the ends cross, the bag to nothing), and its depth: down the back behind,
    # out along the shoulders at the sides.
    u = np.abs(at - np.pi) / (np.pi - np.radians(END))
    size = np.cos(np.clip(u, 0, 1) * np.pi / 2) ** 0.8
    roll = (0.34 + 0.66 * size) * np.sqrt(1 - (1 - np.clip((1 - u) / TAPER, 0, 1)) ** 2)
    # Round the sides and front the roll lies down on the shoulders and chest, a collar folded over rather than
    # a tube standing round the neck (review AB: "a thick glossy inflated ring that dominates the portraits",
    # 2.2-2.5 cm off the hoodie in front): its height a share of the back's (:data:`LIE` at the front).
    lie = LIE + (1 - LIE) * ((1 - np.cos(at)) / 2) ** 2
    back = np.clip(-np.cos(at), 0, 1)
    depth = size * (SIDE + (BACK - SIDE) * np.sqrt(back))
    # (Laid along the shoulders' and chest's slope, down from the level: laid out level it stood off them.)
    tilt = np.radians(TILT) * (1 - lie) / (1 - LIE)
    lay = np.cos(tilt)[:, None] * out - np.sin(tilt)[:, None] * up
    rise = np.sin(tilt)[:, None] * out + np.cos(tilt)[:, None] * up
    rows = np.stack([seam + (p[0] * roll)[:, None] * lay + (p[1] * roll * lie)[:, None] * rise for p in ROLL])
    foot = seam + (ROLL[-1, 0] * roll)[:, None] * lay
    way = back[:, None] * -up + (1 - back)[:, None] * out
    way /= np.linalg.norm(way, axis=1, keepdims=True)
    return rows, foot, way, depth, size


def folds() -> np.ndarray:
    """The bag's soft folds down the back, (BAG rows, STEPS): its thickness there over its mean, fuller either side
    of its centre seam, sunk along the seam and towards the shoulders, more so down the bag (review AB: "from
    behind, the hood is a flat painted triangle", a bag of one even thickness that caught the light evenly)."""
    return 1 - FOLD * np.outer(BAG[:, 0], np.cos(FOLDS * (bearings() - np.pi)))


def hood_ring(line: np.ndarray, neck: tuple[float, float]) -> np.ndarray:
    """Per bearing of the hood (:data:`STEPS`), the neckline's point (an index into ``line``, its points)
    nearest it in bearing: the point whose skin weights the roll standing there takes."""
    rel = line[:, [0, 2]] - np.asarray(neck)
    bearing = np.mod(np.arctan2(rel[:, 0], rel[:, 1]), 2 * np.pi)
    at = bearings()
    return np.abs(np.angle(np.exp(1j * (at[:, None] - bearing[None, :])))).argmin(1)


def hood(points: np.ndarray, faces: np.ndarray, neckline: np.ndarray, neck: tuple[float, float]):
    """The hood on a draped hoodie (``points``, ``faces``, wound outwards): (the triangle each of the bag's
    points is bound to (N, 3), its barycentrics there, its offset in the triangle's frame (N, 3), the hood's
    triangles over the points then the hood's: the roll's rows, then the bag's). ``neckline``: indices of
    the neckline's points; ``neck``: the neck axis' (x, z)."""
    rows, foot, way, depth, size = _rows(points[neckline], neck)
    # The bag's rows onto the hoodie, then out by how far the bag stands off it.
    flat = np.concatenate([foot + (b[0] * depth)[:, None] * way for b in BAG])
    tri, bary = _nearest_on(points, faces, flat)
    on, axes = _frames(points, tri, bary)
    # (Full thickness behind the neck, 0.6 of it along the shoulders, where long hair falls over it to the front.)
    thick = np.maximum(size, 0.25) * (0.6 + 0.4 * np.clip(-np.cos(bearings()), 0, 1))
    stand = np.repeat(BAG[:, 1], STEPS) * np.tile(thick, len(BAG)) * folds().ravel() + 0.0015
    bag = on + stand[:, None] * axes[:, 2]
    # 3. Bound to their nearest triangles, with their whole offsets in those triangles' frames.
    tri, bary = _nearest_on(points, faces, bag)
    foot, axes = _frames(points, tri, bary)
    offset = np.einsum("nkc,nc->nk", axes, bag - foot)
    count = len(ROLL) + len(BAG)
    index = (len(points) + np.arange(count * STEPS)).reshape(count, STEPS)
    a, b = index[:-1, :-1], index[:-1, 1:]
    c, d = index[1:, :-1], index[1:, 1:]
    quads = np.concatenate([np.stack([a, c, b], -1).reshape(-1, 3), np.stack([b, c, d], -1).reshape(-1, 3)])
    # Wound to face away from the hoodie (the hood's outside): its middle's triangles face up and back.
    every = np.concatenate([points, rows.reshape(-1, 3), bag])
    n = np.cross(every[quads[:, 1]] - every[quads[:, 0]], every[quads[:, 2]] - every[quads[:, 0]])
    centre = every[quads].mean(1)
    away = centre - np.array([neck[0], float(points[neckline, 1].min()) - 0.05, neck[1]])
    if (n * away).sum() < 0:
        quads = quads[:, [0, 2, 1]]
    return tri, bary, offset, quads


def worn(points: np.ndarray, neckline: np.ndarray, neck: tuple[float, float], tri: np.ndarray, bary: np.ndarray,
         offset: np.ndarray) -> np.ndarray:
    """The hood's points on a fitted hoodie (its ``points``, its neckline's indices, the neck's axis (x, z)):
    the roll rebuilt round this body's neckline, the bag on its triangles' feet, offset in their frames."""
    foot, axes = _frames(points, tri, bary)
    return np.concatenate([_rows(points[neckline], neck)[0].reshape(-1, 3), foot + np.einsum("nkc,nk->nc", axes, offset)])
