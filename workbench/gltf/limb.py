"""The arm's points the stances' solves move (:func:`~workbench.gltf.reach.rest_hand`, :func:`~workbench.gltf.hang.hang`): the hand,
the forearm and its sleeve at rest, for skinning, and which of the hand's points rest on the body (an open hand's
palm side, :func:`_palmar`)."""

from __future__ import annotations

import numpy as np
from scipy.spatial import cKDTree

from ..skeleton import Skeleton

# The hand's points: every STEP th vertex of the skin past the wrist (of the forearm's, every other). The
# forearm's: the skin and the top from this fraction of the upper arm before the elbow (a little before where
# test_stances.limbs_in_trunk starts the limb, LIMB_FROM).
STEP, ELBOW_OFF = 6, 0.3
# The limb tests/body/test_stances keeps out of the trunk: past this fraction of the upper arm from the shoulder.
LIMB_FROM = 0.75
# An open hand's palm side (:func:`_palmar`): below the middle of the hand's points within this far across
# (metres); its contact read on the palm and the fingers' first segments, to PALMAR_TO's joint (as
# tests/body/test_hands_review_v reads the knuckles), its flatness and centre on the fingers too.
PALMAR_NEAR, PALMAR_TO = 0.006, "HandMiddle2"


def _arm_points(rig: Skeleton, pieces, side: str, step: int, fore_step: int, palmar: bool = False):
    """``side``'s hand (skin past the wrist, every ``step`` th vertex) and forearm (skin and sleeve from
    :data:`ELBOW_OFF` of the upper arm before the elbow, every ``fore_step`` th) for skinning: each point's joints,
    weights and rest places; and which of the hand's points rest on the surface (0 none, 1 its flatness and centre,
    2 those and its contact): all (2: a clasped hand) or, ``palmar``, the open hand's palm side (:func:`_palmar`)."""
    s = 1.0 if side == "Left" else -1.0
    wrist, elbow, shoulder = rig.pos(side + "Hand"), rig.pos(side + "ForeArm"), rig.pos(side + "Arm")
    out = []
    for names, lo, hi, every in ((("Body",), wrist[0], s * np.inf, step),
                                 (("Body", "Outfit_Top"), elbow[0] - ELBOW_OFF * (elbow[0] - shoulder[0]), wrist[0],
                                  fore_step)):
        js, ws, offs, ys = [], [], [], []
        for n in names:
            if n in pieces:
                x = np.asarray(pieces[n].positions, np.float64)
                keep = np.flatnonzero((s * x[:, 0] > s * lo) & (s * x[:, 0] < s * hi))[::every]
                j = np.asarray(pieces[n].joints)[keep].astype(np.int64)
                js.append(j)
                ws.append(np.asarray(pieces[n].weights, np.float64)[keep])
                offs.append(x[keep])
                ys.append(x[keep, 1])
        out.append((np.concatenate(js), np.concatenate(ws), np.concatenate(offs), np.concatenate(ys)))
    return out[0][:3], (_palmar(rig, side, *out[0][:3]) if palmar else np.full(len(out[0][3]), 2, np.int8)), out[1][:3]


def _palmar(rig: Skeleton, side: str, joints: np.ndarray, weights: np.ndarray, at: np.ndarray) -> np.ndarray:
    """Per rest point ``at`` of the hand (the T-pose: the palm faces down, -y), whether it rests on the surface:
    the palm's side of the palm and the four fingers, below the middle of the hand's thickness there (the mean
    height of the hand's points within :data:`PALMAR_NEAR` across, x and z), not the thumb's (it reaches round the
    hip's side); 2 short of :data:`PALMAR_TO`'s joint (the contact is read there), else 1; 0 off the palm side."""
    thumb = {rig.index[f"{side}HandThumb{k}"] for k in (1, 2, 3, 4)}
    main = joints[np.arange(len(joints)), np.argmax(weights, axis=1)]
    xz = at[:, [0, 2]]
    near = cKDTree(xz).query_ball_point(xz, PALMAR_NEAR)
    middle = np.array([at[k, 1].mean() for k in near])
    s = 1.0 if side == "Left" else -1.0
    short = s * at[:, 0] < s * rig.pos(side + PALMAR_TO)[0]
    palm = (at[:, 1] < middle) & ~np.isin(main, list(thumb))
    return np.where(palm, np.where(short, 2, 1), 0).astype(np.int8)


def arm_points(rig: Skeleton, pieces, side: str, shells=None) -> list[tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """``side``'s limb as tests/body/test_stances reads it: the skin's and the top's outside's (its first
    ``shells["Outfit_Top"]`` vertices) vertices that lie out along the T-pose's arm past :data:`LIMB_FROM` of the
    upper arm, each piece's as (joints, weights, rest places) for :func:`~workbench.body.rig.skin`."""
    s = 1.0 if side == "Left" else -1.0
    shoulder, elbow = rig.pos(side + "Arm"), rig.pos(side + "ForeArm")
    start = s * shoulder[0] + LIMB_FROM * float(np.linalg.norm(elbow - shoulder))
    out = []
    for n in ("Body", "Outfit_Top"):
        if n in pieces:
            x = np.asarray(pieces[n].positions, np.float64)[:(shells or {}).get(n)]
            keep = np.flatnonzero(s * x[:, 0] > start)
            out.append((np.asarray(pieces[n].joints)[keep].astype(np.int64),
                        np.asarray(pieces[n].weights, np.float64)[keep], x[keep]))
    return out
