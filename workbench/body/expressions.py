"""What the face units make too faintly or not at all, as smooth fields over the body's own vertices.

``faceunits01``'s ``mouthSmileLeft`` and ``Right`` draw the mouth's corners out and a little up and leave the
cheeks where they were: a smile that stretched the lips and read as a grimace. :func:`extra_shapes` adds to
each a cheek raise (the cheek's fullness pushed up and forward under the eye, as the muscle that lifts the
corners does) and lifts the corner further up and back, so every viewer driving the ARKit names sees a smile. It also makes a shape no ARKit name
stands for, ``tongueUp``: the tongue's front lifted to the upper teeth (the tip between the teeth in
``viseme_TH``, behind them in ``DD`` and ``nn``); the face's visemes use it (:mod:`.face`), it is not a morph
target of its own Nor is ``smileOpen``, ``mouthSmile``'s mouth (:data:`SMILE_OPEN`).

Fields are in the body's metres, scaled by the face's size (the distance between the eyes against a
reference face's), so a small head gets a small raise; they fall to nothing before the lower lid (its lashes
are a mesh of their own the field would leave behind) and the lips (the corners are the units' own).

>>> cheek_raise_mm, tongue_lift_mm = round(CHEEK_RAISE[1] * 1000, 1), round(TONGUE_LIFT * 1000, 1)
>>> cheek_raise_mm, tongue_lift_mm
(6.5, 3.0)
"""

from __future__ import annotations

import numpy as np
from numba import njit

from . import sets
from .details import EVERY_FACE
from .eyes import eyeball_sphere, in_front_of_sphere
from .lining import behind_cheeks
from .lip_lift import border_even, lower_arc, lower_hold, lower_thin, mouth_arc, mouth_bend, upper_middle, upper_thin
from .smile_lids import upper_lids_kept
from .smile_rise import CORNER_RAISE, corner_raise, upper_rise
from .smile_squint import outer_lift
from .soften import cheek_turn, cross_at, lip_edge, ring_sum, ring_touches, rings, soften, still_skin

__all__ = ["SYNTHETIC", "THIN_LIPS", "extra_shapes", "inner_corners", "smoothstep", "unfolding"]

# The shapes made here that no ARKit name stands for (used inside the visemes' sums only; ``lipsUnrolled``, the lips'
# setting back at rest taken off, and ``aaRound``, viseme_aa's lower lip rounded (workbench.body.aa_round), are made in
# workbench.body.mesh).
SYNTHETIC = ("tongueUp", "smileOpen", "smileLids", "lipsUnrolled", "aaRound")
# ``smileOpen``, the mouth of ``mouthSmile``: the units' smile with the lips parted on the upper teeth (closed,
# the smile pressed the lips flat and read as a smirk in the blind review), as one shape smoothed where the sum
# folds a triangle over (:func:`_unfold`: lifting the upper lip that far rolled its border under the skin above,
# a doubled lip).
# (The units' smile lifts the lower lip's middle with the corners, 6 mm: with 0.65 of mouthLowerDown the lips
# parted by 3 mm, a sliver of teeth, in blind review B; the lower lip is held down, the jaw dropped a little more.)
UPPER_UP = 0.5           # (mouthUpperUp's weight: see workbench.body.lip_lift)
SMILE_OPEN = {"mouthSmileLeft": 0.85, "mouthSmileRight": 0.85, "mouthUpperUpLeft": UPPER_UP, "mouthUpperUpRight": UPPER_UP,
              "mouthLowerDownLeft": 1.0, "mouthLowerDownRight": 1.0, "jawOpen": 0.18}
# The lips stretched thin over the teeth in ``smileOpen``: MakeHuman's own lip-volume targets (passed in by
# workbench.body.mesh) at these weights. The lower lip as thin in the smile as before every face's resting lower lip
# was thinned (details.EVERY_FACE): thinned by both, its top rolled over forwards in the smile (the lip's inner face
# turned down, a fold 0.5 mm deep at the middle) and mouthSmile's upper teeth measured 7.3 mm inside it, tests/body/
# test_mouth.py. (The upper lip likewise, since review G's rest face thinned it too.)
THIN_LIPS = {"mouth/mouth-upperlip-volume-decr": 1.0 - EVERY_FACE["mouth/mouth-upperlip-volume-decr"],
             "mouth/mouth-lowerlip-volume-decr": 1.0 - EVERY_FACE["mouth/mouth-lowerlip-volume-decr"]}
# The corners of ``smileOpen`` kept closed (:func:`_closed_corners`): the lips parted on the teeth over the whole
# width, so at each corner the cavity showed as a black triangle (blind review C: "a grimace"). Every vertex within
# about CORNER_SEAL of a corner (the lips' inner edge's end; metres for the reference face) moves as the corner does,
# by the share exp(-(d / CORNER_SEAL)^4): there the lips stay as at rest, meeting, and part only towards the middle
# (a Gaussian's long tail closed the lips over most of the teeth too: a closed-lip smirk; 15 mm, not 12: the lips
# thinned and parted wider since blind review E opened the corners again; 9 mm, not 12, since review U: the sealed
# corners ended the opening 18 mm out, four teeth showing, "a smirk"; now the canines and premolars show, in the
# mouth's shade, tests/render/test_smile_teeth_review_u.py; 9.6 since review AA: the upper lip raised over the canines,
# workbench.body.smile_rise, showed the lining beside them, 1,970 pixels in tests/render/test_mouth_renders.py's
# feminine close-up against main's 1,480; sealed over 9.6 mm 1,510; over 9.7 the default masculine face's teeth
# showed 36.4 mm wide, not 36.7, and over 9.7 or more the lower lip's U turned past 20 degrees at its middle,
# tests/body/test_smile_review_l.py).
CORNER_SEAL = 0.0096
# ``smileLids``: what keeps the skin under the eyes in front of the eyeballs in ``mouthSmile`` (:func:`_lids`): its
# cheek raise and squint (SMILE_EYES, with smileOpen) drew the lower lid's skin up onto the eyeball's bulge, up to
# 1.3 mm behind its surface: the eyeball showed through the lower lid in blind review B. Pushed forward to
# LID_CLEAR in front of it, the push spread over LID_RINGS rings of the skin round it.
# (eyeSquint at 0.5 lifted the lower lids 2.6 mm: still eyes over a smiling mouth, a grimace in blind review C; at 0.8
# 3.4 mm. The lid's skin then needs LID_CLEAR 1.2 mm: at 0.4 mm a speck of the eyeball showed through a fold under it.
# At 0.8 the large eyes of a narrow face showed white specks under both lower lids in blind review E: 0.65, 3.0 mm;
# "the eyes don't squint" in review M: 0.8 again, cheekSquint 1.0, 3.4 to 3.6 mm, the lids kept clear by smileLids.)
SMILE_EYES = {"cheekSquintL": 1.0, "eyeSquintL": 0.8}          # (L: both sides, as in workbench.body.face)
LID_CLEAR = 0.0012
LID_RINGS = 3
# At most this many rounds of unfolding mouthSmile's sum and pushing its lids clear again (:func:`extra_shapes`): each
# unfolding smooths the push onto the skin round it, so the next needs less (review E's avatar 9: none by the third).
LID_ROUNDS = 6
LID_FACING = -0.6
# The cheek's raise at the middle of its field (metres: up, forward) for the reference face, the field's radius,
# and where its middle lies from the eye's centre (out, down). (7.5 up, 5.5 out made the fold shallower: test_smile_shading.)
CHEEK_RAISE = (0.0, 0.0065, 0.003)
CHEEK_RADIUS = 0.021
# The cheek's bulge (metres forward at the middle of the same field), added after the smile's unfolding
# (:func:`_unfold`): smoothed with the corner's folds, the raise's own forward push was lost (the cheek slid up along
# its own surface, 0.2 mm forward on average: flat in blind review D; 4.5 mm, review I; 6.5 flattened the fold;
# 6 since review M, the bulge kept out of smileLids' evening).
CHEEK_BULGE = (0.0, 0.0, 0.006)
# The mouth's corner drawn further up and back than the units draw it (metres: up, back), over a radius. (3 mm up
# read as a smirk with the lips pressed flat in the blind review: a smile's corners rise 6 to 8 mm.)
CORNER_LIFT = (0.0, 0.0065, -0.007)
CORNER_RADIUS = 0.009
CHEEK_AT = (0.008, -0.03)
# Where the raise starts round the eye's middle (metres for the reference face): none within 14 mm, all from 22 mm.
CHEEK_CLEAR = (0.014, 0.022)
# The nasolabial fold: the cheek's skin beside the line from the nose's wing to past the mouth's corner pushed
# forward and up (metres: up, forward), all of it from FOLD_SHARP beside the line outwards, none of it on the
# line's inner side, so a crease shows where the raised cheek meets the lip's skin. Its line runs from NOSE_WING
# (out from the face's middle, down from the eyes) to FOLD_END from the mouth's corner (out, down). (2.5 mm forward
# showed as a faint line once the smile's normals turned with it, workbench.body.face.SHADED: 4.5 mm, a fold; 5.5
# beside review M's larger bulge.)
FOLD_PUSH = (0.0, 0.002, 0.0055)
FOLD_SHARP = 0.008
FOLD_WIDTH = 0.02
NOSE_WING = (0.019, -0.036)
FOLD_END = (0.008, -0.012)
# mouthSmile's fold again, FOLD_AFTER of it tapered over FOLD_ENDS of the line from each end, evened alone and added
# after the sum's evening as the lip's bend is (lip_lift.mouth_bend): the evening spread the units' smiles' fold flat, the
# cheek 9 mm out of the line only 1.3 to 1.9 mm higher over it than at rest ("no nasolabial folds", blind review N).
# More of it, or untapered, creased the cheeks' skin (tests/body/test_smile_creases_review_j.py: 12 edges at 0.6).
FOLD_AFTER, FOLD_ENDS = 0.6, 0.5
# The apple of the cheek rounded (metres: up, forward, at the middle of a field APPLE_RADIUS wide APPLE_AT from the eye's
# middle (out, down: 2 mm in), none of it within APPLE_CLEAR[0] of the eye's middle, all from APPLE_CLEAR[1], and fading
# out from APPLE_BELOW[0] to APPLE_BELOW[1] under it), added with the fold after the sum's evening, and to the ARKit
# smiles after theirs: the raise slid the whole cheek 6 to 8 mm up and the bulge, 21 mm wide, pushed it forward as one,
# so the apple stood only 0.4 to 2.4 mm further out of the cheek round it than at rest, "a sideways stretch with no
# cheek lift" (blind reviews Q, R, S; tests/body/test_smile_cheeks_review_s.py). (4.5 mm forward, or cleared from the
# eye from 14 to 22 mm as the raise is, creased a heavy masculine cheek under the lower lid, test_smile_creases_review_j;
# not faded below, it filled the fold's valley, test_smile_shading; faded by the fold's line instead, it creased it.)
APPLE_PUSH = (0.0, 0.001, 0.0035)
APPLE_AT = (-0.002, -0.026)
APPLE_RADIUS = 0.014
APPLE_CLEAR = (0.015, 0.032)
APPLE_BELOW = (0.030, 0.045)
UNFOLD_ROUNDS = 40    # at most this many rounds of smoothing a smile where it folds a triangle over (_unfold)
# The eye's distance apart on the reference (feminine, average) face, the unit the fields scale by.
EYES_APART = 0.0585
# The tongue tip's lift in ``tongueUp`` (metres), fading to nothing TONGUE_REACH back from the tip.
TONGUE_LIFT = 0.003
TONGUE_REACH = 0.035


def smoothstep(e0, e1, x):
    """0 up to ``e0``, 1 from ``e1``, a clamped Hermite step between: ``smoothstep(0.0, 2.0, 1.0)`` is 0.5."""
    t = np.clip((x - e0) / (e1 - e0), 0.0, 1.0)
    return t * t * (3 - 2 * t)


def _plus(a: tuple[np.ndarray, np.ndarray], b: tuple[np.ndarray, np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """Two sparse shapes (sorted vertex indices, deltas) summed into one, its indices sorted."""
    idx = sets.union(a[0], b[0]).astype(np.int32)
    out = np.zeros((len(idx), 3), np.float32)
    out[np.searchsorted(idx, a[0])] += a[1]
    out[np.searchsorted(idx, b[0])] += b[1]
    return idx, out


def _cheek(positions: np.ndarray, normals: np.ndarray, body: np.ndarray, eye: np.ndarray, mid_x: float, unit: float,
           push=CHEEK_RAISE, at=CHEEK_AT, radius=CHEEK_RADIUS, clear=CHEEK_CLEAR, turn: bool = False
           ) -> tuple[np.ndarray, np.ndarray]:
    """The cheek's raise (``push``, see :data:`CHEEK_RAISE`; the bulge, :data:`CHEEK_BULGE`, or the apple,
    :data:`APPLE_PUSH`) on the side of ``eye``: a field ``radius`` wide ``at`` from the eye's middle, none of it within
    ``clear[0]`` of that middle, all of it from ``clear[1]`` (metres for the reference face); with ``turn`` (a push
    mostly forward: the bulge, the apple) faded out over the cheek's turn, whose steep skin it folded over, cut sharp."""
    side = np.sign(eye[0] - mid_x)
    centre = eye[:2] + np.array([side * at[0], at[1]]) * unit
    p = positions[body].astype(np.float64)
    d = np.hypot(p[:, 0] - centre[0], p[:, 1] - centre[1]) / (radius * unit)
    near_eye = np.hypot(p[:, 0] - eye[0], p[:, 1] - eye[1]) / unit
    w = np.exp(-d * d) * smoothstep(clear[0], clear[1], near_eye)
    # Only the face's front on this side (not the ear, the nose's far side or the inside of the mouth).
    w *= smoothstep(0.2, 0.5, normals[body, 2]) * smoothstep(eye[2] - 0.035 * unit, eye[2] - 0.025 * unit, p[:, 2]) \
        * smoothstep(0.004 * unit, 0.014 * unit, (p[:, 0] - mid_x) * side)
    if turn:
        w *= smoothstep(0.2, 0.7, normals[body, 2]) * smoothstep(0.004 * unit, 0.012 * unit, (p[:, 0] - mid_x) * side)
    keep = np.flatnonzero(w > 0.02)
    delta = (w[keep, None] * np.asarray(push) * unit).astype(np.float32)
    return body[keep].astype(np.int32), delta


def _at(shape: tuple[np.ndarray, np.ndarray], idx: np.ndarray) -> np.ndarray:
    """A sparse shape's (sorted indices, deltas) deltas at the vertices ``idx`` (0 where it has none).

    >>> _at((np.array([2, 5]), np.ones((2, 3), np.float32)), np.array([1, 5, 9]))[:, 0].tolist()
    [0.0, 1.0, 0.0]
    """
    if not len(shape[0]):
        return np.zeros((len(idx), 3), np.float32)
    at = np.minimum(np.searchsorted(shape[0], idx), len(shape[0]) - 1)
    return np.where((shape[0][at] == idx)[:, None], shape[1][at], np.float32(0))


def _corner(positions: np.ndarray, body: np.ndarray, smile: tuple[np.ndarray, np.ndarray],
            unit: float) -> tuple[np.ndarray, np.ndarray]:
    """The corner of the mouth (the vertex the units' smile moves most) lifted and drawn back, with the lips
    and skin round it, as the smile's muscle pulls it."""
    corner = positions[smile[0][np.argmax(np.linalg.norm(smile[1], axis=1))]].astype(np.float64)
    p = positions[body].astype(np.float64)
    d = np.linalg.norm(p - corner, axis=1) / (CORNER_RADIUS * unit)
    w = np.exp(-d * d)
    keep = np.flatnonzero(w > 0.02)
    return body[keep].astype(np.int32), (w[keep, None] * np.asarray(CORNER_LIFT) * unit).astype(np.float32)


def _apple(positions: np.ndarray, normals: np.ndarray, body: np.ndarray, eye: np.ndarray, mid_x: float,
           unit: float) -> tuple[np.ndarray, np.ndarray]:
    """The cheek's apple rounded (see :data:`APPLE_PUSH`) on the side of ``eye``, faded out before the nasolabial fold."""
    idx, delta = _cheek(positions, normals, body, eye, mid_x, unit, APPLE_PUSH, APPLE_AT, APPLE_RADIUS, APPLE_CLEAR,
                        turn=True)
    y = positions[idx, 1].astype(np.float64)
    keep = smoothstep(eye[1] - APPLE_BELOW[1] * unit, eye[1] - APPLE_BELOW[0] * unit, y)
    return idx, (keep[:, None] * delta).astype(np.float32)


def _fold(positions: np.ndarray, normals: np.ndarray, body: np.ndarray, eye: np.ndarray, corner: np.ndarray,
          mid_x: float, unit: float, ends: float = 0.0) -> tuple[np.ndarray, np.ndarray]:
    """The nasolabial fold (see :data:`FOLD_PUSH`): the cheek beside the line from the nose's wing to past the
    mouth's corner pushed forward, the lip's side of the line not, so the smile's raised cheek meets the lip in a
    crease."""
    side = np.sign(eye[0] - mid_x)
    a = np.array([mid_x + side * NOSE_WING[0] * unit, eye[1] + NOSE_WING[1] * unit])
    b = corner[:2] + np.array([side * FOLD_END[0], FOLD_END[1]]) * unit
    p = positions[body].astype(np.float64)
    ab = b - a
    t = np.clip(((p[:, :2] - a) @ ab) / float(ab @ ab), 0.0, 1.0)
    off = p[:, :2] - (a + t[:, None] * ab)
    # Signed distance from the line, + outwards (away from the face's middle line).
    out = np.array([ab[1], -ab[0]]) / np.linalg.norm(ab)
    if out[0] * side < 0:
        out = -out
    sd = off @ out
    along = np.linalg.norm(off - sd[:, None] * out, axis=1)   # beyond the line's ends
    w = smoothstep(0.0, FOLD_SHARP * unit, sd) * smoothstep(FOLD_WIDTH * unit, 0.45 * FOLD_WIDTH * unit, sd) \
        * smoothstep(0.008 * unit, 0.0, along)
    if ends:     # (tapered in from both ends of the line over ``ends`` of it: see FOLD_AFTER)
        w *= smoothstep(0.0, ends, t) * smoothstep(1.0, 1.0 - ends, t)
    w *= smoothstep(0.4, 0.7, normals[body, 2]) * smoothstep(corner[2] - 0.025 * unit, corner[2] - 0.015 * unit, p[:, 2])
    keep = np.flatnonzero(w > 0.02)
    return body[keep].astype(np.int32), (w[keep, None] * np.asarray(FOLD_PUSH) * unit).astype(np.float32)


def inner_corners(positions: np.ndarray, triangles: np.ndarray) -> np.ndarray:
    """The vertex indices of the mouth's two corners: the ends (least and most x) of the lips' inner edge, where the
    mouth's lining (``triangles`` being the body's face group) meets the outer skin.

    >>> from workbench.body.mesh import body_mesh
    >>> from workbench.options import normalize_avatar_settings
    >>> m = body_mesh(normalize_avatar_settings({"gender": "feminine"}))
    >>> left, right = m.positions[inner_corners(m.positions, m.triangles[m.face_groups["body"]])]
    >>> bool(left[0] < 0 < right[0])
    True
    """
    edge = lip_edge(triangles)
    x = positions[edge, 0]
    return edge[[np.argmin(x), np.argmax(x)]]


def _closed_corners(positions: np.ndarray, triangles: np.ndarray, body: np.ndarray, idx: np.ndarray,
                    delta: np.ndarray, unit: float) -> tuple[np.ndarray, np.ndarray]:
    """A shape (sorted ``idx``, ``delta``) with the skin round each of the mouth's corners moved as the corner
    moves (see :data:`CORNER_SEAL`), so lips that meet there at rest still meet. Only the skin (``body``'s
    vertices): the teeth and tongue follow the jaw."""
    full = np.zeros((len(positions), 3), np.float64)
    full[idx] = delta
    out = full.copy()
    seal = CORNER_SEAL * unit
    for c in inner_corners(positions, triangles):
        # in float64: numpy's vectorised float32 exp rounds otherwise than its plain loop, and a model must be the
        # same bytes on every CPU (contract section 14; tests/gltf/test_same_bytes_on_other_cpus.py)
        d = np.linalg.norm(positions[body].astype(np.float64) - positions[c], axis=1) / seal
        near = body[d < 3.0]
        w = np.exp(-d[d < 3.0] ** 4)[:, None]
        out[near] += w * (full[c] - full[near])
    keep = np.flatnonzero(np.abs(out).max(1) > 0)
    return keep.astype(np.int32), out[keep].astype(np.float32)


def _unfold(positions: np.ndarray, triangles: np.ndarray, idx: np.ndarray, delta: np.ndarray,
            rounds: int = UNFOLD_ROUNDS) -> tuple[np.ndarray, np.ndarray]:
    """A shape (sorted ``idx``, ``delta``) with the skin round each triangle it turns over (about a right angle or
    more from its rest facing) smoothed where the shape puts it (each vertex moved to the mean of its own and its
    neighbours' places), a round at a time until none is: the units' smile draws the corner 8 mm out and 15 mm up,
    and lifting the upper lip rolls its border under the skin above (a hard crease and a doubled lip at full
    weight). Only the folded triangles' corners and a ring round them move: smoothing the shape's deltas instead,
    over a dozen rings for as many rounds as a fold stayed, spread the lips' own lift and drop onto the skin round
    them, and the smile closed over the teeth on narrow mouths (blind review E)."""
    from .lining import island as _island

    moved = np.zeros(len(positions), bool)
    moved[idx] = True
    # On the vertices of the triangles the shape touches only, numbered anew (a few thousand of the body's), and
    # not the mouth's lining (through it each lip's vertices neighbour the other's).
    skin = np.ones(len(triangles), bool)
    skin[_island()[0]] = False
    near = triangles[moved[triangles].any(1) & skin]
    verts = sets.union(near, idx)            # (with the shape's own vertices off the skin: the teeth, the tongue)
    tris = np.searchsorted(verts, near)
    pos = positions[verts].astype(np.float64)
    full = np.zeros((len(verts), 3), np.float64)
    full[np.searchsorted(verts, idx)] = delta

    rest = np.cross(pos[tris[:, 1]] - pos[tris[:, 0]], pos[tris[:, 2]] - pos[tris[:, 0]])
    # Only the skin one sees: the mouth's lining and the lips' inner faces crumple where the lips meet, unseen.
    shown = rest[:, 2] > 0.3 * np.linalg.norm(rest, axis=1)
    # (Only where the shape moves the skin a millimetre or more can it fold a triangle over: the rest is not looked at.)
    shown &= (np.linalg.norm(full, axis=1)[tris] > 0.001).any(1)
    seen, rest = tris[shown], rest[shown]
    ring, count = rings(tris, len(verts))
    unfolding(pos, full, seen, rest, ring.indptr, ring.indices, count, rounds)
    keep = np.flatnonzero(np.abs(full).max(1) > 0)
    return verts[keep].astype(np.int32), full[keep].astype(np.float32)


@njit(cache=True, nogil=True)
def unfolding(pos, full, seen, rest, indptr, indices, count, rounds):
    """:func:`_unfold`'s rounds, in place on ``full`` (compiled, as :func:`~workbench.body.soften.soften`'s are): each
    round the triangles ``seen`` turned over against their ``rest`` facings (numpy's ``cross`` and ``sum``, in their
    order), their corners and a ring round them each moved to the mean of its own and its neighbours' places (the
    ring's sum in its column order)."""
    n = pos.shape[0]
    region = np.zeros(n, np.bool_)
    for _ in range(rounds):
        q = pos + full
        region[:] = False
        flipped = False
        for t in range(seen.shape[0]):
            i, j, k = seen[t, 0], seen[t, 1], seen[t, 2]
            x, y, z = cross_at(q, i, j, k)
            if (x * rest[t, 0] + y * rest[t, 1]) + z * rest[t, 2] < 0:
                flipped = True
                region[i] = region[j] = region[k] = True
        if not flipped:
            break
        for v in range(n):   # (from q, which this round's moves leave as it was)
            if ring_touches(region, v, indptr, indices):
                for c in range(3):
                    full[v, c] = (q[v, c] + ring_sum(q, v, c, indptr, indices)) / (1 + count[v]) - pos[v, c]


def _lids(positions: np.ndarray, normals: np.ndarray, groups, body: np.ndarray, smile: tuple[np.ndarray, np.ndarray],
          triangles: np.ndarray | None) -> tuple[np.ndarray, np.ndarray]:
    """``smileLids`` (see :data:`LID_CLEAR`): the skin ``smile`` (the whole of mouthSmile's sum but this) moves from
    in front of an eyeball to less than LID_CLEAR in front of it pushed forward to LID_CLEAR, the push spread over
    the skin round it (never less than each vertex needs). Only the skin one sees, facing forward over the eyeball:
    the lids' inner faces and the socket round the eyeball's sides lie behind its front, unseen."""
    push = np.zeros(len(positions), np.float64)
    centres = []
    moved = positions[body].astype(np.float64) + _at(smile, body)
    for side in "lr":
        centre, radius = eyeball_sphere(positions[groups[f"helper-{side}-eye"]].astype(np.float64))
        centres.append(centre)
        before = in_front_of_sphere(positions[body].astype(np.float64), centre, radius)
        after = in_front_of_sphere(moved, centre, radius)
        with np.errstate(invalid="ignore"):
            target = np.minimum(before, LID_CLEAR)      # (skin nearer than that at rest: as near as at rest)
            need = (before > 0) & (after < target) & (normals[body, 2] > LID_FACING)
        push[body[need]] = np.maximum(push[body[need]], target[need] - after[need])
    if triangles is not None and push.any():

        # (On the skin round the eyes only, numbered anew: the whole body's rings cost 30 ms of a model.)
        first = positions[triangles[:, 0]]
        near = triangles[np.min([np.linalg.norm(first - c, axis=1) for c in centres], axis=0) < 0.035]
        verts, local = np.unique(near, return_inverse=True)
        ring, count = rings(local.reshape(-1, 3), len(verts))
        count = np.maximum(count, 1)
        need = p = push[verts]
        for _ in range(LID_RINGS):
            p = np.maximum(need, (p + ring @ p) / (1 + count))
        push[verts] = p
    keep = np.flatnonzero(push > 1e-6)
    delta = np.zeros((len(keep), 3), np.float32)
    delta[:, 2] = push[keep]
    return keep.astype(np.int32), delta


def _tongue(positions: np.ndarray, tongue: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    p = positions[tongue].astype(np.float64)
    back = float(p[:, 2].max()) - p[:, 2]
    lift = TONGUE_LIFT * smoothstep(TONGUE_REACH, 0.0, back)
    delta = np.column_stack([np.zeros_like(lift), lift, 0.15 * lift]).astype(np.float32)
    order = np.argsort(tongue)
    return tongue[order].astype(np.int32), delta[order]


def extra_shapes(positions: np.ndarray, normals: np.ndarray, groups, units: dict,
                 triangles: np.ndarray | None = None, lips: dict | None = None, rest: np.ndarray | None = None) -> dict:
    """The smile's shapes with their cheek raise, and :data:`SYNTHETIC`'s, for a body (T-pose ``positions`` and
    ``normals``, metres; its vertex ``groups``) whose face units are ``units`` (name -> sorted vertex indices,
    deltas): name -> (sorted vertex indices int32, deltas float32), to replace or stand beside ``units``'.
    Given the skin's ``triangles``, the smiles are smoothed where they would fold one over (:func:`_unfold`), and
    ``mouthSmile``'s whole sum from the body's own ``rest`` too where that differs from ``positions`` (its full lips set
    back, taken off in the sum: workbench.body.mesh's ``lipsUnrolled``)."""
    eyes = {s: positions[groups[f"helper-{s}-eye"]].astype(np.float64).mean(0) for s in "lr"}
    mid_x = (eyes["l"][0] + eyes["r"][0]) / 2
    unit = float(np.linalg.norm(eyes["l"] - eyes["r"])) / EYES_APART
    body = np.asarray(groups["body"])
    out, smiles, bulges, folds = {}, {}, {}, {}
    still = still_skin(positions, triangles, list(eyes.values()), unit) if triangles is not None else np.zeros(0, bool)
    # (and the cheek's turn beside the mouth and jaw, evened where a shape bends it less sharply: soften.SIDE_CREASE)
    turn = cheek_turn(positions, triangles, list(eyes.values()), unit) if triangles is not None else None
    for name, s in (("mouthSmileLeft", "l"), ("mouthSmileRight", "r")):
        corner = positions[units[name][0][np.argmax(np.linalg.norm(units[name][1], axis=1))]].astype(np.float64)
        at, d = _fold(positions, normals, body, eyes[s], corner, mid_x, unit, FOLD_ENDS)
        apple = _apple(positions, normals, body, eyes[s], mid_x, unit)
        folds[name] = _plus((at, np.float32(FOLD_AFTER) * d), apple)
        out[name] = _plus(_plus(_plus(units[name], _cheek(positions, normals, body, eyes[s], mid_x, unit)),
                                _corner(positions, body, units[name], unit)),
                          _fold(positions, normals, body, eyes[s], corner, mid_x, unit))
        if triangles is not None:
            out[name] = _unfold(positions, triangles, *out[name])
        smiles[name] = out[name]
        bulges[name] = _cheek(positions, normals, body, eyes[s], mid_x, unit, CHEEK_BULGE, turn=True)
        out[name] = _plus(out[name], bulges[name])
        if triangles is not None:
            out[name] = _unfold(positions, triangles, *soften(positions, triangles, *out[name], still, turn=turn))
        out[name] = _plus(out[name], apple)
    out["tongueUp"] = _tongue(positions, np.asarray(groups["helper-tongue"]))
    parts = [smiles.get(name, units[name]) for name in SMILE_OPEN]
    idx = sets.unique(np.concatenate([p[0] for p in parts])).astype(np.int32)
    delta = np.zeros((len(idx), 3), np.float32)
    for (at, d), w in zip(parts, SMILE_OPEN.values(), strict=True):
        delta[np.searchsorted(idx, at)] += np.float32(w) * d
    for name, w in THIN_LIPS.items():
        if lips and name in lips:
            idx, delta = _plus((idx, delta), (lips[name][0], np.float32(w) * lips[name][1]))
    if triangles is not None:
        corners = positions[inner_corners(positions, triangles)].astype(np.float64)
        idx, delta = _plus((idx, delta), upper_middle(positions, corners, body, (idx, delta), mid_x, unit))
        idx, delta = _plus((idx, delta), lower_hold(positions, corners, body, (idx, delta), mid_x, unit))
        idx, delta = _plus((idx, delta), upper_rise(positions, triangles, body, (idx, delta), corners, mid_x, unit))
        idx, delta = _unfold(positions, triangles, *_closed_corners(positions, triangles, body, idx, delta, unit))
        idx, delta = _plus((idx, delta), lower_arc(positions, triangles, body, (idx, delta), mid_x, unit,
                                                   CORNER_SEAL * unit))
        idx, delta = _plus((idx, delta), border_even(positions, triangles, body, (idx, delta), corners, mid_x, unit))
        idx, delta = _plus((idx, delta), upper_thin(positions, triangles, body, (idx, delta), corners, mid_x, unit))
    bulge = _plus(*((at, np.float32(SMILE_OPEN[name]) * d) for name, (at, d) in bulges.items()))
    idx, delta = _plus((idx, delta), bulge)
    out["smileOpen"] = idx, delta
    smile = out["smileOpen"]
    for name, w in SMILE_EYES.items():
        for side in ("Left", "Right"):
            smile = _plus(smile, (units[name[:-1] + side][0], np.float32(w) * units[name[:-1] + side][1]))
    # smileLids: what mouthSmile's whole sum needs besides its parts: that sum unfolded (the squint's and the cheek's
    # raise folded the skin under the eyes), kept in front of the eyeballs, the mouth's lining behind the cheeks and the
    # upper lip's bend, the lips' arc and the lower lip's thinning (lip_lift; evened alone, added after the sum's evening,
    # which spread 2.5 mm of the bend's 3 flat).
    # (Evened without the cheeks' bulge, added back after: evened with it, the sum's creases round the lids spread
    # the bulge and the raise flat, 6 mm of the cheek's 9.5 forward lost, "the cheeks don't lift", blind review M.)
    bend = smile if triangles is None else _plus(_plus(
        mouth_bend(positions, normals, triangles, still, corners, body, mid_x, unit),
        soften(positions, triangles, *_plus(*folds.values()), still, turn=turn)),
        _plus(mouth_arc(positions, triangles, still, corners, body, unit), soften(
            positions, triangles, *lower_thin(positions, triangles, body, out["smileOpen"], corners, mid_x, unit), still)))
    fixed = smile if triangles is None else _unfold(positions, triangles, *_plus(soften(
        positions, triangles, *_plus(soften(positions, triangles, *_plus(smile, (bulge[0], -bulge[1])), still,
                                            turn=turn), bulge), still, turn=turn), bend))
    push = _lids(positions, normals, groups, body, fixed, triangles)
    fixed = _plus(fixed, push)
    # The lids' push folded a triangle or two under the eyes of a gaunt face, and unfolded once and pushed again it
    # folded the same ones (review E's avatar 9: the skin at the eyeball's lower rim, where its front's depth changes
    # fastest, pushed 1.9 mm beside neighbours pushed 0.5): unfolded and pushed again until the lids need no push.
    for _ in range(LID_ROUNDS):
        if triangles is None or not len(push[0]):
            break
        fixed = _unfold(positions, triangles, *fixed)
        push = _lids(positions, normals, groups, body, fixed, triangles)
        fixed = _plus(fixed, push)
    if triangles is not None:
        fixed = _plus(fixed, behind_cheeks(positions, triangles, fixed))
    if triangles is not None and rest is not None:
        # (A triangle beside the corner that faced sideways on the lips not set back, and so was let fold, faced
        # forward enough on the lips set back to be seen: review E's #9 in tests/body/test_smile_surface.py.)
        at = np.flatnonzero(np.any(positions != rest, axis=1)).astype(np.int32)
        back = (at, (positions[at] - rest[at]).astype(np.float32))
        fixed = _plus(_unfold(rest, triangles, *_plus(fixed, back)), (back[0], -back[1]))
    if triangles is not None:
        # (the corners raised with the cheek round them, workbench.body.smile_rise: after the lips' and lids' evening,
        # which spread it flat, and after the lips set back are unfolded (with the raise in, that unfolding smoothed the
        # upper lip's lift at the middle away on review AA's #8: its teeth 3.6 mm there, not 8); unfolded, the
        # unfolding's moves taken by the raise's share (all of them taken, or those inside its field only, skin at the
        # field's edge turned over; none, the upper lip's skin beside a corner folded, review E's bodies); added
        # before the seal and U, those turned the corners' lips over)
        raise_ = corner_raise(positions, body, corners, mid_x, unit)
        raised = _plus(fixed, raise_)
        even = _unfold(positions, triangles, *raised)
        share = _at(raise_, even[0])[:, 1:2] / np.float32(CORNER_RAISE * unit)
        fixed = _plus(raised, (even[0], share * (even[1] - _at(raised, even[0]))))
    # (the lower lids' outer halves raised further, workbench.body.smile_squint: after the sum's evening, which spread
    # it onto the cheek under the lids, creasing it)
    fixed = _plus(fixed, outer_lift(positions, eyes, mid_x, units, unit))
    if triangles is not None:
        fixed = _unfold(positions, triangles, *fixed)
    # (and the squint's drop taken off the upper lids: workbench.body.smile_lids)
    out["smileLids"] = _plus(_plus(fixed, (smile[0], -smile[1])),
                             upper_lids_kept(positions, groups, units, SMILE_EYES["eyeSquintL"], unit))
    for idx, delta in out.values():
        idx.setflags(write=False)
        delta.setflags(write=False)
    return out
