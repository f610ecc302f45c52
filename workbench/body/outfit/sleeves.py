"""A top's sleeve hems squared to the arm on every body (review J's "boxy tee in the hands-on-hips stance").

A pattern is cut once, on the reference body, and each point of it is a fixed blend of helper vertices
(:mod:`.pattern`): on that body a sleeve's cut runs square round the upper arm. MakeHuman's masculine targets
move the helper's vertices under the arm further out along it than those over the deltoid, so on a masculine
body the same cut runs slanted, its underside 2 to 4 cm longer than its top (the hem's plane 12 to 14 degrees off
square to the arm; a tee's sleeve: a gathered cuff hugs the wrist, where the slant does not show). Hanging at the side the slant reads as a hem cut level; with the upper arm raised to 26 degrees
below level (a power stance's elbows out) it turns the hem's plane upright: a flat panel standing out over the arm,
the cap sleeve's top a level line from the neck, the tee a box.

:func:`squared` slides each sleeve point along its arm's axis so that the hem lies square to the arm at its
furthest reach (the top lengthened, never the underside shortened: the skin the garment hides, measured on the
reference body, stays covered), each point moved in proportion to how far it lies along the arm towards the hem (past :data:`FROM`)
and how much it moves with that arm.

>>> from workbench.options import normalize_avatar_settings
>>> from workbench.body.mesh import body_mesh
>>> from workbench.body.outfit.pattern import pattern
>>> from workbench.body.outfit.fit import base_points
>>> mesh, pat = body_mesh(normalize_avatar_settings({"gender": "masculine"})), pattern("tee")
>>> p = base_points(mesh, pat)[0]
>>> bool(np.abs(squared(mesh, pat, p) - p).max() > 0.01)
True
"""

from __future__ import annotations

import numpy as np

from ..mesh import BodyMesh
from .drape import Frame, smoothstep
from .fit import ARMS
from .pattern import SLEEVE_CUT

__all__ = ["SLANT", "squared", "flared", "hem_tilt", "UNDER_SHARE", "FLARE_FROM"]

# How near the sleeve's cut (:data:`~workbench.body.outfit.pattern.SLEEVE_CUT`, metres along the cloth) a point
# counts as on its hem.
ON_HEM = 0.0005
# A hem whose furthest point lies less than this far (metres) beyond its nearest along the arm is left as cut
# (feminine bodies, 1 to 5 mm: their cut is the reference's), one this far and more squared fully, those between
# in part: the squaring fades in with the slant, so a body changed a little changes its sleeve a little.
SLANT = (0.006, 0.015)
# The sleeve's cloth is drawn out from this fraction of the way from the arm's joint to the hem (the armhole
# and the armpit stay where the drape puts them: drawn out from the joint, the back of a heavy body's armpit
# came half a millimetre into the skin in the idle pose).
FROM = 0.4
# A loose sleeve's flare (:func:`flared`) starts this fraction of the way from the arm's joint to the hem (below
# the deltoid's widest: the cap stays on the shoulder) ...
FLARE_FROM = 0.6
# ... and its underside takes this share of it (the top the whole): hanging at the side, the underside lies against
# the ribs, and a full flare there would press into them; the top and the front and back fall free of the arm.
UNDER_SHARE = 0.25


def _frames(mesh: BodyMesh) -> list[tuple[int, Frame, float]]:
    sk = mesh.skeleton
    out = []
    for k, side in zip(ARMS, ("Left", "Right"), strict=True):
        arm, hand = sk.pos(side + "Arm").astype(np.float64), sk.pos(side + "Hand").astype(np.float64)
        out.append((k, Frame(arm, hand - arm, [0.0, 0.0, 1.0]), 1.0 if side == "Left" else -1.0))
    return out


def _hems(mesh: BodyMesh, panel: dict, p: np.ndarray):
    """Per sleeve of ``panel`` (its points ``p``), ``(k, frame, side, ring)``: its arm's index and frame, the points on
    its side of the body, and the indices of its hem's points (a sleeve whose hem has fewer than 3 is left out); none
    when the panel has no sleeve cut."""
    cuts = panel["from_cut"]
    if cuts.shape[1] <= SLEEVE_CUT or not np.isfinite(cuts[:, SLEEVE_CUT]).any():
        return
    hips_x = float(mesh.skeleton.pos("Hips")[0])
    hem = panel["rim"] & (cuts[:, SLEEVE_CUT] < ON_HEM)
    for k, frame, sign in _frames(mesh):
        side = sign * (p[:, 0] - hips_x) > 0
        ring = np.flatnonzero(hem & side)
        if len(ring) >= 3:
            yield k, frame, side, ring


def squared(mesh: BodyMesh, panel: dict, p: np.ndarray) -> np.ndarray:
    """``p`` (the panel's points on ``mesh``'s helper) with each sleeve's hem square to its arm (see the
    module's notes); ``p`` itself when the panel has no sleeve cut or its hems slant less than :data:`SLANT`."""
    hems = list(_hems(mesh, panel, p))
    if not hems:
        return p
    out = p.copy()
    for k, frame, side, ring in hems:
        s, phi, _, _ = frame.local(p)
        order = np.argsort(phi[ring], kind="stable")
        reach = float(s[ring].max())
        fade = float(smoothstep(SLANT[0], SLANT[1], np.array(reach - s[ring].min())))
        if fade <= 0:
            continue
        # The hem's reach along the arm at each bearing (periodic), and how far each point is from the joint
        # towards it.
        at = np.interp(phi, phi[ring][order], s[ring][order], period=2 * np.pi)
        toward = np.clip((s / np.maximum(at, 1e-6) - FROM) / (1 - FROM), 0.0, 1.0)
        move = fade * (reach - at) * toward * np.clip(panel["shares"][:, k], 0.0, 1.0) * side
        out += move[:, None] * frame.along
    return out


def flared(mesh: BodyMesh, panel: dict, p: np.ndarray, flare: float) -> np.ndarray:
    """``p`` (the garment's fitted points) with each loose sleeve's cloth standing further off its arm towards the
    hem, by up to ``flare`` metres at the hem (growing as the square of the way from :data:`FLARE_FROM` of the hem's
    reach, so the cap and the armhole keep their fit): a sleeve hangs from the shoulder and its hem opens round the
    arm, wider than the arm there. Fitted at a centimetre off the arm all the way down, a tee's sleeve read as a
    rigid tube round it (review AC: "T-shirt sleeves are rigid tubes"). Out along the arm's radius only, never in,
    the whole flare on the sleeve's top, the front and back :data:`UNDER_SHARE` plus half the rest, the underside
    :data:`UNDER_SHARE` of it."""
    if not flare:
        return p
    out = p.copy()
    for k, frame, side, ring in _hems(mesh, panel, p):
        s, _, _, radial = frame.local(p)
        reach = float(s[ring].mean())
        t = np.clip((s / max(reach, 1e-6) - FLARE_FROM) / (1 - FLARE_FROM), 0.0, 1.0)
        # (By how far the radial points up in the T-pose the sleeves are cut in: 1 on the top, -1 the underside.)
        share = UNDER_SHARE + (1 - UNDER_SHARE) * (1 + radial[:, 1]) / 2
        amount = flare * t * t * share * np.clip(panel["shares"][:, k], 0.0, 1.0) * side
        out += amount[:, None] * radial
    return out


def hem_tilt(points: np.ndarray, hem: np.ndarray, arm: np.ndarray, elbow: np.ndarray) -> float:
    """Degrees between the plane of a sleeve's hem (``points[hem]``, fitted by least squares) and the plane
    square to the upper arm from ``arm`` to ``elbow`` (0: the hem runs square round the arm).

    >>> ring = np.array([[0.2, np.cos(a), np.sin(a)] for a in np.linspace(0, 6, 12)])
    >>> round(hem_tilt(ring, np.ones(12, bool), np.zeros(3), np.array([1.0, 0, 0])), 3)
    0.0
    """
    q = points[hem] - points[hem].mean(0)
    normal = np.linalg.svd(q, full_matrices=False)[2][2]
    axis = (elbow - arm) / np.linalg.norm(elbow - arm)
    return float(np.degrees(np.arccos(min(abs(float(normal @ axis)), 1.0))))
