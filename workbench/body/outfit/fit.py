"""One garment fitted to one body: its panel rebuilt on the body's helper surface, then draped.

A panel (:mod:`.pattern`) holds the garment's points as fixed blends of helper vertices, its triangles,
which neighbours each point has and its share of each part of the body. :func:`fitted` rebuilds the
points on a body (one sparse product: MakeHuman's helpers take the same targets as the skin, so the
panel follows every shape) and hangs them with :mod:`.drape`'s steps, part by part:

- the torso about a vertical axis through the hips: for a top from the shoulders down, its push fading
  in over 4 cm below them (the shoulders and the neckline rest on the body); for trousers and shorts
  from the waistband down to just above the crotch; for a skirt all of it, to below its hem;
- each leg about the line from its hip joint to its ankle, below the crotch (the legs' pushes fade in
  over the 4 cm above it, the torso's fades out over 5 cm from 3 cm above it: pushed round both axes at
  once, the crotch's two inner sides crossed);
- each arm about the line from its shoulder joint to its wrist, for the sleeves.

>>> round(float(reach(1.2, 64)), 1)
12.0
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from ..mesh import BodyMesh, vertex_normals
from .drape import (
    Frame,
    along_rims,
    bridge,
    clear_of_the_skin,
    hang,
    membrane,
    sample,
    smoothstep,
    snug,
    support,
    untangle,
)
from .styles import Drape, Style, landmarks

__all__ = ["TORSO", "NECK", "ARMS", "LEGS", "fitted", "gathered", "shoulders", "over", "base_points", "reach",
           "smooth_rims"]

# The parts of the body, by index into a panel's ``shares`` columns (workbench.body.outfit.pattern).
TORSO, NECK, ARMS, LEGS = 0, 1, (2, 3), (4, 5)
SIDES = ("Left", "Right")
MAX_REACH = 6
# How far a gathered band stands off the skin (metres; its finished edge stands proud of that).
SNUG = 0.005
# How far round the upper arm a knit's sleeve is held to it (:func:`shoulders`): most of the way, as a set-in
# sleeve's top is cut to the arm (hung from the shoulder's ring, it stood 1.7 cm off the upper arm: puffed).
UPPER_ARM = 1.0
# A skirt's folds start this far below the hips (metres): under a top's hem they stepped it.
FOLDS_FROM = 0.08
# The folds' phase round the skirt (radians): with an even count, a crest on the front's middle and one on the
# back's (the phase the waver leaves between them split evenly). With 7 a trough, the folds' narrowest part, fell on
# the back's middle, where the cone is already narrowest over the seat's cleft: a V-notch in the back hem (review H).
FOLD_PHASE = -0.26
# How much of the rise a fold's swing costs its cloth (:func:`_folds`) the crests take, and how far above the folds'
# start the cloth's length is counted from (metres: it hangs from the hips, above where the folds begin).
FOLD_RISE, FALL_FROM = 1.0, 0.08
# Rounds of smoothing a folded hem along itself after its folds (:func:`smooth_rims`). (6 or 12 smoothed it more but
# moved the rim off the cloth its roll turns over: 2.6 % of a heavy masculine skirt's hem met no cloth within 1 cm.)
# The hem's rim only, the rims below where the folds start: smoothed too, the waistband's rim moved a millimetre or so,
# and the hand on the hip, fitted to the cloth there, rested with its wrist bent 27 degrees (review V's bound 15).
HEM_ROUNDS = 3
# Rounds of averaging the helper's normals over neighbours before the lift: enough that the walls of a
# groove a centimetre wide (the spine's) no longer face each other.
NORMAL_ROUNDS = 8


def reach(span: float, bearings: int) -> int:
    """Bearings a bridge of ``span`` radians crosses."""
    return max(1, int(round(span * bearings / (2 * np.pi))))


def base_points(mesh: BodyMesh, panel: dict) -> tuple[np.ndarray, np.ndarray]:
    """The panel's points on this body's helper surface and their normals (float64)."""
    b = sp.csr_matrix((panel["b_data"], panel["b_indices"], panel["b_indptr"]),
                      shape=(len(panel["b_indptr"]) - 1, len(mesh.positions)))
    p = b @ mesh.positions.astype(np.float64)
    return p, vertex_normals(p, panel["faces"]).astype(np.float64)


def _ring_surface(frame: Frame, points: np.ndarray, s0: float, s1: float, step: float, bearings: int,
                  drape: Drape) -> np.ndarray:
    rings = _grid(frame, points, s0, s1, step, bearings)
    k = reach(drape.span, bearings)
    # Wide bridges in passes of short chords (a chord between bridged rings reaches on): the same
    # hollows filled, at a fraction of the cost of every pair of bearings across the span at once.
    for _ in range(int(np.ceil(k / MAX_REACH))):
        rings = bridge(rings, min(k, MAX_REACH))
    return np.stack([hang(rings, drape.slopes(bearings), step), rings])


def _push(frame: Frame, surface: np.ndarray, s0: float, step: float, drape: Drape, p: np.ndarray,
          weight: np.ndarray, lift: float = 0.0, held: np.ndarray | float = 0.0) -> np.ndarray:
    """Points pushed out round ``frame`` to ``surface`` (the hung rings, or with the bridged rings too as
    ``surface[1]``: where a band ``held`` them, the points take the bridged rings without hang or ease)."""
    s, phi, r, radial = frame.local(p)
    loose = sample(surface[0], s0, step, s, phi) + drape.ease + drape.grow * np.maximum(s - s0, 0)
    target = lift + (loose if len(surface) == 1 else (1 - held) * loose + held * sample(surface[1], s0, step, s, phi))
    inside = s >= s0 - step          # (below the last ring, the last ring holds)
    push = np.maximum(target - r, 0) * weight * inside * smoothstep(0.015, 0.03, r)
    return push[:, None] * radial


def _folds(frame: Frame, p: np.ndarray, folds: tuple[int, float], start: float, hem: float) -> np.ndarray:
    """A skirt's folds: pushes out from its axis (never in, so never into the legs), nothing above ``start``
    (the hips, where it rests) growing to the fold's full depth at its ``hem``; ``count`` folds round it,
    their crests rounded and their troughs narrow as cloth falling from a waist folds, their spacing and
    depth wavering (fixed noise: the same folds on every body of the same build)."""
    count, depth = folds
    s, phi, r, radial = frame.local(p)
    k = np.arange(1, 4)[:, None]
    waver = (np.array([[0.35], [0.15], [0.08]]) * np.sin(k * phi + np.array([[0.7], [2.1], [4.0]]))).sum(0)
    wave = (0.5 + 0.5 * np.cos(count * phi + 2.0 * waver + FOLD_PHASE)) ** 0.8
    grow = smoothstep(0.0, 1.0, (start - p[:, 1]) / max(start - hem, 1e-6))
    amount = depth * grow * wave * (1 + 0.3 * np.sin(3 * phi + 1.3))
    # Cloth swung out keeps its length from where it starts to fall: a crest's hem rises by what that length loses
    # in height (L - sqrt(L^2 - d^2)), a trough's hangs where it was. Pushed out only, every hem point stayed at
    # one height, a flat ring: seen from a little above, one smooth arc, "a rigid flared cone" (review AA).
    fall = np.maximum(start - p[:, 1], 0.0) + FALL_FROM
    rise = FOLD_RISE * (fall - np.sqrt(np.maximum(fall ** 2 - amount ** 2, 0.0)))
    return amount[:, None] * radial + rise[:, None] * np.array([0.0, 1.0, 0.0])


def _seat_and_fly(p: np.ndarray, n0: np.ndarray, skin: np.ndarray, hips: np.ndarray, crotch: float,
                  gap: float) -> np.ndarray:
    """Trousers bridging the hollows of the seat and the fly as cloth does: seen from the front (and from
    behind), a sheet across from one thigh's front (back) to the other's, from 6 cm under the crotch to
    12 cm over it, where the drape round the torso's axis and round each leg's left a dent between the
    legs and a crease between the buttocks. The skin's frontmost (hindmost) point per centimetre of width
    and height, its hollows bridged by chords up to 16 cm wide; the points facing forward (back) pushed
    out to it along z plus ``gap`` (never in), fading out over the band's edges and across the body's sides."""
    lo, hi, step = crotch - 0.05, crotch + 0.12, 0.01
    x0 = hips[0] - 0.2
    rows, cols = int(round((hi - lo) / step)) + 1, int(round(0.4 / step)) + 1
    sel = (skin[:, 1] > lo - step) & (skin[:, 1] < hi + step) & (np.abs(skin[:, 0] - hips[0]) < 0.2)
    i = np.clip(np.round((skin[sel, 1] - lo) / step).astype(np.int64), 0, rows - 1)
    j = np.clip(np.round((skin[sel, 0] - x0) / step).astype(np.int64), 0, cols - 1)
    out = np.zeros_like(p)
    reach = 8
    for sign in (1.0, -1.0):
        grid: np.ndarray = np.full(rows * cols, -np.inf)
        np.maximum.at(grid, i * cols + j, sign * (skin[sel, 2] - hips[2]))
        grid = grid.reshape(rows, cols)
        best = grid.copy()
        for a in range(1, reach + 1):
            left = np.concatenate([np.full((rows, a), -np.inf), grid[:, :-a]], 1)
            for b in range(1, reach + 1):
                right = np.concatenate([grid[:, b:], np.full((rows, b), -np.inf)], 1)
                np.maximum(best, (left * b + right * a) / (a + b), out=best)
        fi = np.clip((p[:, 1] - lo) / step, 0, rows - 1)
        fj = np.clip((p[:, 0] - x0) / step, 0, cols - 1)
        i0, j0 = np.floor(fi).astype(np.int64), np.floor(fj).astype(np.int64)
        i1, j1 = np.minimum(i0 + 1, rows - 1), np.minimum(j0 + 1, cols - 1)
        ti, tj = fi - i0, fj - j0
        corners = np.stack([best[i0, j0], best[i0, j1], best[i1, j0], best[i1, j1]])
        ok = np.isfinite(corners).all(0)
        corners = np.where(np.isfinite(corners), corners, 0.0)
        level = ((corners[0] * (1 - tj) + corners[1] * tj) * (1 - ti) + (corners[2] * (1 - tj) + corners[3] * tj) * ti)
        facing = smoothstep(-0.2, 0.3, sign * n0[:, 2])
        band = smoothstep(lo, lo + 0.04, p[:, 1]) * (1 - smoothstep(hi - 0.04, hi, p[:, 1]))
        middle = 1 - smoothstep(0.08, 0.14, np.abs(p[:, 0] - hips[0]))
        need = np.maximum(level + gap - sign * (p[:, 2] - hips[2]), 0) * ok
        out[:, 2] += sign * need * facing * band * middle
    return out


def smooth_rims(p: np.ndarray, adjacency: sp.csr_matrix, rim: np.ndarray, rounds: int = 6) -> np.ndarray:
    """The rims smoothed as lines (Taubin's steps along each rim, which do not shrink it), the points next to
    them moved half as far: where a cut crosses a crease of the helper (the trapezius' ridge behind the neck)
    it zigzags between the helper's vertices.

    >>> import scipy.sparse as sp
    >>> ring = np.array([[np.cos(a), np.sin(a), 0.02 * (-1) ** k] for k, a in enumerate(np.linspace(0, 6.28, 40, endpoint=False))])
    >>> i = np.arange(40)
    >>> adj = sp.csr_matrix((np.ones(80), (np.r_[i, i], np.r_[(i + 1) % 40, (i - 1) % 40])), shape=(40, 40))
    >>> bool(np.abs(smooth_rims(ring, adj, np.ones(40, bool))[:, 2]).max() < 0.005)
    True
    """
    if not rim.any():
        return p
    on = along_rims(adjacency, rim)
    keep = rim[on.indices]
    rows = np.repeat(np.arange(on.shape[0]), np.diff(on.indptr))
    line = sp.csr_matrix((on.data * keep * rim[rows], on.indices, on.indptr), shape=on.shape)
    degree = np.asarray(line.sum(1)).ravel()
    ok = (rim & (degree == 2)).astype(np.float64)[:, None]
    degree = np.maximum(degree, 1)[:, None]
    q = p.copy()
    for rate in (0.5, -0.53) * rounds:
        q = q + rate * ok * ((line @ q) / degree - q)
    move = q - p
    # The points next to a rim follow it half way (their rim neighbours' mean move).
    to_rim = sp.csr_matrix((adjacency.data * rim[adjacency.indices], adjacency.indices, adjacency.indptr),
                           shape=adjacency.shape)
    count = np.asarray(to_rim.sum(1)).ravel()[:, None]
    follow = np.where((count > 0) & ~rim[:, None], 0.5 * (to_rim @ move) / np.maximum(count, 1), 0.0)
    return q + follow


def shoulders(e: dict, p: np.ndarray, along: tuple[float, float] = (0.12, 0.18)) -> np.ndarray:
    """Per point of a top (``p`` on the helper), how far it lies on the shoulders: 1 over their tops (above the
    armpit's height, fading out over the 4 cm below the arm's joint) from 7 cm past the neck's side out (fading in
    over the 4 cm before: the trapezius beside the neck rises in the idle pose, and came through cloth held there),
    :data:`UPPER_ARM` round the upper arm past the arm's joint, both fading out ``along`` the arm (metres past the
    joint: 12 to 18 cm, or a style's :attr:`~.styles.Style.hug_arm`): where a set-in sleeve's cloth lies on the body,
    following the shoulder's slope down to the arm.

    >>> e = {"neck_x": 0.0, "neck_rx": 0.06, "arm": 0.18, "shoulder_y": 1.4}
    >>> p = np.array([[0.14, 1.42, 0.0], [0.08, 1.45, 0.0], [0.12, 1.3, 0.05], [0.26, 1.35, 0.0], [0.4, 1.4, 0.0]])
    >>> shoulders(e, p).round(2).tolist()
    [1.0, 0.0, 0.0, 1.0, 0.0]
    """
    across = np.abs(p[:, 0] - e["neck_x"])
    out = abs(e["arm"] - e["neck_x"])
    tops = (smoothstep(e["shoulder_y"] - 0.07, e["shoulder_y"] - 0.03, p[:, 1])
            * smoothstep(e["neck_rx"] + 0.03, e["neck_rx"] + 0.07, across))
    arm = UPPER_ARM * smoothstep(out, out + 0.04, across)
    return np.maximum(tops, arm) * (1 - smoothstep(out + along[0], out + along[1], across))


def gathered(style: Style, panel: dict) -> np.ndarray:
    """Per point, how much its cut's band holds it to the body (1 in a gathered band, easing to 0 over
    the 6 cm above it)."""
    out = np.zeros(len(panel["rim"]))
    for k, (width, tight) in enumerate(style.bands):
        if tight:
            out = np.maximum(out, 1 - smoothstep(width, width + 0.06, panel["from_cut"][:, k]))
    return out


def over(p: np.ndarray, mesh: BodyMesh, under: tuple[np.ndarray, np.ndarray], weight: np.ndarray,
         normals: np.ndarray, gap: float = 0.008, rings: bool = True) -> np.ndarray:
    """Points pushed out to at least ``gap`` outside the surface ``under`` them (points and normals of the
    garment they cover: a top over a skirt's hips, trouser cuffs over shoes), where the two overlap in
    height: with ``rings``, round the torso's axis to the under-garment's rings; then, wherever a point
    still falls short of the surface sample nearest it (measured along that sample's normal), out along
    the point's own ``normals`` (along the under-garment's, the sideways normals in the seat's cleft sent
    a top's points through each other at the back's middle)."""
    from scipy.spatial import cKDTree

    if rings:
        p = _over_rings(p, mesh, under[0], weight, gap)
    near = np.flatnonzero((p[:, 1] > under[0][:, 1].min()) & (p[:, 1] < under[0][:, 1].max() + 0.02))
    if len(near):
        # Without rings (trouser legs over shoes), each point clears its nearest samples within 2 cm, not the
        # nearest alone: a leg's points stand centimetres apart, and a shoe's bow between them poked through.
        dist, k = cKDTree(under[0]).query(p[near], k=1 if rings else 16, distance_upper_bound=0.05)
        dist, k = dist.reshape(len(near), -1), k.reshape(len(near), -1)
        found = k < len(under[0])
        k = np.where(found, k, 0)
        normal = under[1][k]
        short = gap - np.einsum("nkc,nkc->nk", p[near][:, None] - under[0][k], normal)
        facing = np.maximum(np.einsum("nc,nkc->nk", normals[near], normal), 0.5)
        reach = found & ((dist < 0.02) | (np.arange(k.shape[1]) == 0))
        move = (np.where(reach, np.minimum(np.maximum(short, 0) / facing, 0.03), 0.0).max(1)) * weight[near]
        p[near] += move[:, None] * normals[near]
    return p


def _over_rings(p: np.ndarray, mesh: BodyMesh, under: np.ndarray, weight: np.ndarray, gap: float) -> np.ndarray:
    hips = mesh.skeleton.pos("Hips").astype(np.float64)
    frame = Frame([hips[0], 0.0, hips[2] + 0.02], [0.0, -1.0, 0.0], [0.0, 0.0, 1.0])
    top, bottom = float(under[:, 1].max()), float(p[:, 1].min()) - 0.03
    if top <= bottom:
        return p
    grid = bridge(_grid(frame, under, -top, -bottom, 0.01, 64), 2)
    # A garment's points are sparser than the body's (rows of a helper are centimetres apart): each
    # bearing's empty rows take the radius interpolated between its rows that have one.
    rows = np.arange(len(grid))
    for j in range(grid.shape[1]):
        has = grid[:, j] > 0
        if has.sum() >= 2:
            grid[:, j] = np.interp(rows, rows[has], grid[has, j], left=0.0, right=0.0)
    return p + _push(frame, grid[None], -top, 0.01, Drape(slope=0.0, ease=gap), p, weight)


def _grid(frame: Frame, points: np.ndarray, s0: float, s1: float, step: float, bearings: int) -> np.ndarray:
    return support(frame, points, s0, step, max(2, int(np.ceil((s1 - s0) / step)) + 1), bearings)


def fitted(mesh: BodyMesh, style: Style, panel: dict, base: tuple[np.ndarray, np.ndarray] | None = None,
           under: tuple[np.ndarray, np.ndarray] | None = None) -> np.ndarray:
    """The garment's points draped on ``mesh`` (float64, (N, 3)); ``under``: surface points and normals of
    the garment it covers, if any (:meth:`~workbench.body.outfit.garments.Dressed.samples`)."""
    p0, n0 = base if base is not None else base_points(mesh, panel)
    adjacency = sp.csr_matrix((np.ones(len(panel["adj_indices"])), panel["adj_indices"], panel["adj_indptr"]),
                              shape=(len(p0), len(p0)))
    # The helper smoothed first (Taubin's steps, which do not shrink it), and lifted along its normals
    # averaged over their neighbours: in a sharp crease (the spine's groove, beside the neck) the helper's
    # own normals converge, and the lift and the drape pushed the small triangles on its walls past each
    # other (specks down the back, normals facing in).
    degree = np.maximum(np.asarray(adjacency.sum(1)).ravel(), 1)[:, None]
    free = ~panel["rim"][:, None]
    for rate in (0.5, -0.53) * 3:
        p0 = p0 + rate * free * ((adjacency @ p0) / degree - p0)
    n0 = vertex_normals(p0, panel["faces"]).astype(np.float64)
    for _ in range(NORMAL_ROUNDS):
        n0 = adjacency @ n0 + n0
        n0 /= np.maximum(np.linalg.norm(n0, axis=1, keepdims=True), 1e-12)
    if style.torso is None and style.legs is None and style.arms is None:
        # Nothing hangs (shoes): the helper lifted along its smoothed normals, the soles on the floor.
        p = p0 + style.lift * n0
        p[:, 1] = np.maximum(p[:, 1], 0.0)
        return p
    p = p0
    e = landmarks(mesh)
    sk = mesh.skeleton
    hips = sk.pos("Hips").astype(np.float64)
    body = mesh.groups["body"]
    skin = mesh.positions[body].astype(np.float64)
    part = panel["body_region"][body]
    shares = panel["shares"]
    y = p[:, 1]
    held = gathered(style, panel)
    disp = np.zeros_like(p)
    upright = Frame([hips[0], 0.0, hips[2] + 0.02], [0.0, -1.0, 0.0], [0.0, 0.0, 1.0])
    if style.torso is not None:
        frame = upright
        if style.part == "Outfit_Top":
            top, bottom = e["shoulder_y"] - 0.01, float(p0[:, 1].min()) - 0.05
            weight = (1 - shares[:, ARMS[0]] - shares[:, ARMS[1]] - shares[:, NECK]) * smoothstep(0.0, 0.04, top - y)
        elif style.helper == "helper-skirt":
            top, bottom = float(p0[:, 1].max()), float(p0[:, 1].min()) - 0.05
            weight = np.ones(len(p))
        else:
            top, bottom = float(p0[:, 1].max()) + 0.02, e["crotch"] - 0.02
            weight = smoothstep(e["crotch"] + 0.03, e["crotch"] + 0.08, y)
        near = skin[(part == TORSO) | (part == LEGS[0]) | (part == LEGS[1])]
        surface = _ring_surface(frame, near, -top, -bottom, 0.015, 64, style.torso)
        disp += _push(frame, surface, -top, 0.015, style.torso, p, weight, style.lift, held)
    if style.legs is not None and style.part == "Outfit_Bottom":
        # every bottom with legs drapes its torso too (STYLES)
        disp += _seat_and_fly(p + disp, n0, skin, hips, e["crotch"], style.lift + style.torso.ease)  # type: ignore[union-attr]
    if style.legs is not None:
        below = 1 - smoothstep(e["crotch"] - 0.04, e["crotch"], y)
        for k, side in zip(LEGS, SIDES, strict=True):
            up, foot = sk.pos(side + "UpLeg").astype(np.float64), sk.pos(side + "Foot").astype(np.float64)
            frame = Frame(up, foot - up, [0.0, 0.0, 1.0])
            s0 = (up[1] - e["crotch"]) / -frame.along[1]
            # Down to a hand's breadth above the ankle: below it the ankle's bones and the heel would
            # flare the hem (the rings' last row stands for everything under it).
            s1 = (up[1] - e["ankle"] - 0.07) / -frame.along[1]
            surface = _ring_surface(frame, skin[part == k], s0, s1, 0.02, 32, style.legs)
            on_side = (p0[:, 0] - hips[0]) * (1 if side == "Left" else -1) > 0
            disp += _push(frame, surface, s0, 0.02, style.legs, p, below * on_side, style.lift, held)
    if style.arms is not None:
        for k, side in zip(ARMS, SIDES, strict=True):
            arm, hand = sk.pos(side + "Arm").astype(np.float64), sk.pos(side + "Hand").astype(np.float64)
            frame = Frame(arm, hand - arm, [0.0, 0.0, 1.0])
            surface = _ring_surface(frame, skin[part == k], 0.0, float(np.linalg.norm(hand - arm)), 0.015, 32,
                                    style.arms)
            disp += _push(frame, surface, 0.0, 0.015, style.arms, p, shares[:, k], style.lift, held)
    # The drape's pushes are measured from the helper and carry the lift; where they push less than the lift
    # the point stands off along its normal instead. (Lifted along the normals first, the walls of a deep
    # groove, the seat's cleft on a heavy body, crossed each other before the drape flattened it.)
    pushed = smoothstep(0.0, style.lift, np.linalg.norm(disp, axis=1))[:, None]
    rims = along_rims(adjacency, panel["rim"])
    p = untangle(p0 + (1 - pushed) * style.lift * n0 + disp, panel["faces"], rims, n0)
    p = membrane(p, n0, adjacency, panel["rim"], rounds=16, rate=0.6)
    # Gathered bands hug the body (a crew neck's collar, cuffs, a waistband): the helper stands a centimetre
    # off the skin round the neck and the lift and drape added as much again (a neckline standing 2 cm off
    # the neck read as a raw cut).
    # So do a knit's shoulders and the tops of its sleeves (Style.hug): standing the lift and the ease off the
    # helper there, the cloth bridged from the trapezius to the deltoid, a pad (review G).
    hug = style.hug * shoulders(e, p0, style.hug_arm) if style.hug else np.zeros(len(p))
    hold = np.maximum(held, hug)
    lift = style.lift * (1 - hold) + SNUG * hold
    if hold.any():
        p = snug(p, mesh, panel["near"], SNUG, hold, adjacency)
    if under is not None:
        torso = style.part == "Outfit_Top"
        pushed = over(p, mesh, under, 1 - shares[:, ARMS[0]] - shares[:, ARMS[1]] if torso else np.ones(len(p)),
                      n0, rings=torso)
        # The pushes spread to their neighbours (never shrinking), so the cloth eases over what it covers
        # instead of stepping out at the edge of the overlap.
        out = np.maximum(((pushed - p) * n0).sum(1), 0)
        degree = np.maximum(np.asarray(adjacency.sum(1)).ravel(), 1)
        for _ in range(4):
            out = np.maximum(out, (adjacency @ out) / degree)
        p = p + out[:, None] * n0
    p = smooth_rims(p, adjacency, panel["rim"])
    # (Where the shoulders are held, clear of the skin by half as much: measured along each of the three nearest
    # skin vertices' normals, which part round the deltoid, the full gap pushed them 4 mm back out.)
    p = clear_of_the_skin(p, mesh, panel["near"], lift * (1 - 0.5 * hug), adjacency)
    p = untangle(p, panel["faces"], rims, n0)
    # Last, the membrane again (it only moves out): the rims smoothed as lines after the pushes above.
    p = membrane(p, n0, adjacency, panel["rim"], rounds=6, rate=0.5 * (1 - hug))
    if style.folds[0]:
        # The folds last: the membrane moves each point out to its neighbours' mean, and filled their troughs
        # (the hem's rim, which it leaves, waved 7 cm, the cloth 10 cm above it under 3: a cone in pictures).
        p = p + _folds(upright, p, style.folds, e["hips_y"] - FOLDS_FROM, float(p0[:, 1].min()))
        # Then the hem smoothed as a line once more: the folds push each rim point out by its own bearing and
        # height, and the helper's rim, a few millimetres up and down from one point to the next, waved with
        # them into a sawtooth 1 to 3 px deep in a full figure's hem (review AA: "a jagged, aliased hem").
        hem = panel["rim"] & (p0[:, 1] < e["hips_y"] - FOLDS_FROM)
        p = smooth_rims(p, adjacency, hem, rounds=HEM_ROUNDS)
    return p
