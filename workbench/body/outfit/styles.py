"""The garments' cuts and fits, one row per style (contract section 4's ``topStyle`` and ``bottomStyle``).

Each :class:`Style` says which helper surface the garment is cut from, where its edges run (fields
of the reference body's landmarks, positive on the garment's side: a hem is a height, a sleeve's end
a distance out along the arm, the neckline a line round the base of the neck) and how it hangs:

- ``lift``: how far the cloth stands off the helper (its thickness and the layering: a top over the
  trousers' waistband, shoes over the trouser cuffs' inside);
- ``torso`` / ``legs`` / ``arms``: the drape round each part of the body (``workbench.body.outfit.drape``):
  how steeply cloth may come back in below where it rests (``slope``, per metre of fall; negative
  flares out, as a skirt's A-line), how far round it bridges hollows (``span``, radians), and its ease,
  ``ease`` near where it rests growing to ``ease + grow`` a metre below (a tee looser at its hem);
- ``kind``: the cloth (``knit``, ``fleece``, ``twill``, ``leather``), which picks its weave and maps;
- ``bands``: along each cut, a band (a hem, a ribbed collar or cuff, a waistband): its width and whether it
  is gathered to the body.

>>> STYLES["skirt"].helper, STYLES["tee"].part, sorted(TOPS), sorted(BOTTOMS)
('helper-skirt', 'Outfit_Top', ['hoodie', 'longsleeve', 'tee'], ['shorts', 'skirt', 'trousers'])
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

import numpy as np

from ..mesh import BodyMesh

__all__ = ["Drape", "Style", "STYLES", "TOPS", "BOTTOMS", "landmarks", "neckline"]


@dataclass(frozen=True)
class Drape:
    """How cloth hangs round one part of the body (see the module's notes)."""

    slope: float
    span: float = 1.0
    ease: float = 0.004
    grow: float = 0.0


@dataclass(frozen=True)
class Style:
    name: str
    part: str
    helper: str
    kind: str
    lift: float
    cuts: Callable[[dict, np.ndarray], list]
    torso: Drape | None = None
    legs: Drape | None = None
    arms: Drape | None = None
    # Skin weights smoothed over the cloth this many times where it stands far off the body (a skirt's
    # middle, between the legs, takes both thighs' weights, not the nearer one's).
    smooth: int = 4
    # Skin hidden under the garment: body vertices at least this far (metres) inside its rims.
    margin: float = 0.05
    # Per cut, in the order ``cuts`` gives them: the band of cloth along that edge (metres: a hem's turn-up,
    # a ribbed cuff or collar, a waistband) and whether the band is gathered tight to the body (a hoodie's
    # cuffs and hem, a waistband) or hangs as the cloth above it does (a tee's hem, a trouser leg's).
    bands: tuple[tuple[float, bool], ...] = ()
    extras: tuple[str, ...] = field(default=())


# Heights as fractions of the stature (the reference body's landmarks scale with it).
WAISTBAND = 0.53
# The neckline: how far below the Neck joint it runs at the front (a crew neck's scoop), at the back
# and at the sides, as fractions of the Spine2-to-Neck length (so it scales with the torso).
NECK = {"crew": (0.45, 0.12, 0.10), "hood": (0.30, 0.06, 0.08)}


def landmarks(mesh: BodyMesh) -> dict[str, float]:
    """Where a body's garments start and end (metres, the body's own T-pose): heights, the neck's axis,
    the arms' joints along x, and the crotch (the lowest skin on the midline between the thighs)."""
    sk = mesh.skeleton
    torso = float(sk.pos("Neck")[1] - sk.pos("Spine2")[1])
    body = mesh.positions[mesh.groups["body"]]
    hips = sk.pos("Hips")
    mid = body[(np.abs(body[:, 0] - hips[0]) < 0.006) & (body[:, 1] < hips[1]) & (body[:, 1] > sk.pos("LeftLeg")[1])]
    return {"height": float(sk.height), "neck_x": float(sk.pos("Neck")[0]), "neck_y": float(sk.pos("Neck")[1]),
            "neck_z": float(sk.pos("Neck")[2]), "torso": torso, "hips_y": float(hips[1]),
            "arm": float(sk.pos("LeftArm")[0]), "elbow": float(sk.pos("LeftForeArm")[0]),
            "wrist": float(sk.pos("LeftHand")[0]), "shoulder_y": float(sk.pos("LeftArm")[1]),
            "knee": float(sk.pos("LeftLeg")[1]), "ankle": float(sk.pos("LeftFoot")[1]),
            "crotch": float(mid[:, 1].min()) if len(mid) else float(hips[1] - 0.08)}


def neckline(e: dict, p: np.ndarray, cut: str = "crew") -> np.ndarray:
    """Height of each point above the neckline at its bearing round the neck's axis: a line round the
    base of the neck, dipping in a smooth scoop at the front and a little at the back (the bearing's
    cosine to the power 1.5). A height, not a distance from a cylinder round the neck: the neck is
    upright, so a level cut crosses it cleanly; a cylinder's cut met the sloping shoulders at a glancing
    angle and left slivers there.

    >>> e = {"neck_x": 0.0, "neck_y": 1.4, "neck_z": 0.0, "torso": 0.15}
    >>> [round(float(h), 4) for h in neckline(e, np.array([[0, 1.4, 0.1], [0, 1.4, -0.1]]))]
    [0.0825, 0.033]
    """
    front, back, side = NECK[cut]
    dx, dz = p[..., 0] - e["neck_x"], p[..., 2] - e["neck_z"]
    c = dz / np.maximum(np.hypot(dx, dz), 1e-9)
    dip = side + front * np.clip(c, 0, 1) ** 1.5 + back * np.clip(-c, 0, 1) ** 1.5
    return p[..., 1] - (e["neck_y"] - dip * e["torso"])


def _top(hem: float, sleeve: Callable[[dict], float], neck: str = "crew"):
    def cuts(e: dict, p: np.ndarray) -> list:
        return [p[:, 1] - hem * e["height"], -neckline(e, p, neck), sleeve(e) - np.abs(p[:, 0] - e["neck_x"])]
    return cuts


def _bottom(waist: float, hem: Callable[[dict], float]):
    def cuts(e: dict, p: np.ndarray) -> list:
        return [waist * e["height"] - p[:, 1], p[:, 1] - hem(e)]
    return cuts


def _shoes(e: dict, p: np.ndarray) -> list:
    return [e["ankle"] + 0.057 - p[:, 1]]


TEE = Drape(slope=0.18, span=1.2, ease=0.004, grow=0.04)
STYLES: dict[str, Style] = {s.name: s for s in (
    Style("tee", "Outfit_Top", "helper-tights", "knit", 0.008,
          _top(0.50, lambda e: e["arm"] + 0.42 * (e["elbow"] - e["arm"])),
          torso=TEE, arms=Drape(slope=-0.12, span=0.8, ease=0.012),
          bands=((0.018, False), (0.014, True), (0.016, False)), margin=0.035),
    Style("longsleeve", "Outfit_Top", "helper-tights", "knit", 0.007,
          _top(0.50, lambda e: e["wrist"] - 0.025),
          torso=Drape(slope=0.22, span=1.2, ease=0.003, grow=0.03), arms=Drape(slope=0.02, span=0.8, ease=0.004),
          bands=((0.018, False), (0.014, True), (0.04, True)), margin=0.035),
    Style("hoodie", "Outfit_Top", "helper-tights", "fleece", 0.012,
          _top(0.497, lambda e: e["wrist"] - 0.015, "hood"),
          torso=Drape(slope=0.12, span=1.3, ease=0.008, grow=0.05), arms=Drape(slope=-0.02, span=0.9, ease=0.010),
          bands=((0.055, True), (0.02, True), (0.06, True)), margin=0.035, extras=("hood",)),
    Style("trousers", "Outfit_Bottom", "helper-tights", "twill", 0.003,
          _bottom(WAISTBAND, lambda e: e["ankle"] + 0.03),
          torso=Drape(slope=0.3, span=1.0, ease=0.002), legs=Drape(slope=0.07, span=0.9, ease=0.004, grow=0.012),
          bands=((0.035, True), (0.02, False)), margin=0.04),
    Style("shorts", "Outfit_Bottom", "helper-tights", "twill", 0.003,
          _bottom(WAISTBAND, lambda e: e["knee"] + 0.3 * (e["crotch"] - e["knee"])),
          torso=Drape(slope=0.3, span=1.0, ease=0.002), legs=Drape(slope=0.0, span=0.9, ease=0.008),
          bands=((0.035, True), (0.02, False)), margin=0.04),
    Style("skirt", "Outfit_Bottom", "helper-skirt", "twill", 0.004,
          _bottom(WAISTBAND, lambda e: e["knee"] + 0.08),
          torso=Drape(slope=-0.12, span=np.pi, ease=0.004, grow=0.02), margin=0.06, smooth=1,
          bands=((0.03, True), (0.02, False))),
    Style("shoes", "Outfit_Footwear", "helper-tights", "leather", 0.006, _shoes, margin=0.02, bands=((0.0, True),)),
)}
TOPS = ("tee", "longsleeve", "hoodie")
BOTTOMS = ("trousers", "shorts", "skirt")
