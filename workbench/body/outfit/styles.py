"""The garments' cuts and fits, one row per style (contract section 4's ``topStyle`` and ``bottomStyle``).

Each :class:`Style` says which helper surface the garment is cut from, where its edges run (fields
of the reference body's landmarks, positive on the garment's side: a hem is a height, a sleeve's end
a distance out along the arm, the neckline a line round the base of the neck) and how it hangs:

- ``lift``: how far the cloth stands off the helper (its thickness and the layering: a top over the
  trousers' waistband, shoes over the trouser cuffs' inside);
- ``torso`` / ``legs`` / ``arms``: the drape round each part of the body (``workbench.body.outfit.drape``):
  how steeply cloth may come back in below where it rests (``slope``, per metre of fall; negative
  flares out, as a skirt's A-line), how far round it bridges hollows (``span``, radians), and its ease,
  ``ease`` near where it rests growing to ``ease + grow`` a metre below (a tee looser at its hem), and
  ``sides``, if given, the slope at the sides (bearings square to the front), blending to ``slope`` at the
  front and back as the bearing's sine squared (a tee's side seams come in from the armpit to the waist
  while its front falls from the chest);
- ``kind``: the cloth (``jersey``, ``sweater``, ``fleece``, ``twill``, ``leather``), which picks its weave and
  maps;
- ``bands``: along each cut, a band (a hem, a ribbed collar or cuff, a waistband): its width and whether it
  is gathered to the body.

>>> STYLES["skirt"].helper, STYLES["tee"].part, sorted(TOPS), sorted(BOTTOMS)
('helper-skirt', 'Outfit_Top', ['hoodie', 'longsleeve', 'tee'], ['shorts', 'skirt', 'trousers'])
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from ..mesh import BodyMesh

__all__ = ["Drape", "Style", "STYLES", "TOPS", "BOTTOMS", "FOOTWEAR", "landmarks", "neckline"]


@dataclass(frozen=True)
class Drape:
    """How cloth hangs round one part of the body (see the module's notes)."""

    slope: float
    span: float = 1.0
    ease: float = 0.004
    grow: float = 0.0
    sides: float | None = None

    def slopes(self, bearings: int) -> float | np.ndarray:
        """The slope at each of ``bearings`` evenly spaced bearings (the first the front), or the one slope.

        >>> Drape(slope=0.2, sides=0.6).slopes(4).round(2).tolist()
        [0.2, 0.6, 0.2, 0.6]
        """
        if self.sides is None:
            return self.slope
        sin2 = np.sin(np.arange(bearings) * (2 * np.pi / bearings)) ** 2
        return self.slope + (self.sides - self.slope) * sin2


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
    # ... and at least this many times as far as the cloth stands off the skin there: under a flared hem the
    # skin shows that far in (the cut's edge, whole triangles, showed as a sawtooth under a skirt).
    loose: float = 0.0
    # Per cut, in the order ``cuts`` gives them: the band of cloth along that edge (metres: a hem's turn-up,
    # a ribbed cuff or collar, a waistband) and whether the band is gathered tight to the body (a hoodie's
    # cuffs and hem, a waistband) or hangs as the cloth above it does (a tee's hem, a trouser leg's).
    bands: tuple[tuple[float, bool], ...] = ()
    # The cloth's thickness at its finished edges (metres: the bands stand this far proud and the rims roll
    # over by it, workbench.body.outfit.edges): a jersey's turned hem is thinner than a fleece's ribbing.
    edge: float = 0.003
    # Folds round the torso's axis (a skirt's): how many round it and how deep at the hem (metres).
    folds: tuple[int, float] = (0, 0.0)
    # How far a top's shoulders and the tops of its sleeves are held to the skin as a gathered band is (1: a
    # knit's set-in shoulder, which follows the shoulder's slope to the arm; 0: they hang as the rest).
    hug: float = 0.0
    # How far along the arm past its joint (metres) that hold reaches before it fades out (fit.shoulders): a
    # sweater's whole upper arm (cloth41 and before: 12 to 18 cm, the sleeve then hung 11 to 15 mm off the bicep and
    # the upper arm read inflated, review AF).
    hug_arm: tuple[float, float] = (0.12, 0.18)
    # How much further off the arm a loose sleeve stands at its hem than where it is set in (metres on its top,
    # less round the underside; workbench.body.outfit.sleeves.flared): a sleeve's hem opens round the arm.
    flare: float = 0.0
    # How far either side of the back's middle (metres) the cloth's left and right leg weights are evened out
    # (0: as the skin under it has them; workbench.body.outfit.pattern.across_the_middle). Over the seat's cleft the skin turns from one thigh's weights
    # to the other's within a centimetre, so a top's hem or a skirt bridging it moved in two halves when the
    # stance set the thighs apart: a step 2.3 cm high in a sweater's back hem, a seam down a skirt's back (review R).
    across: float = 0.0
    extras: tuple[str, ...] = field(default=())


# Heights as fractions of the stature (the reference body's landmarks scale with it).
WAISTBAND = 0.53
# The neckline (per cut): how far below the neck's base it dips at the front's middle (a crew neck's scoop; a
# hoodie's shallower, its hood's front rising over it: at 6 cm the drape pulled it 6 to 10 cm down into a V that
# bared the chest, review H), and how far out from the neck's base it runs at the sides
# and back (metres on the reference body).
NECK = {"crew": (0.045, 0.010), "hood": (0.03, 0.014)}
# ... and how far above the neck's base it runs at the back's middle: the base dips there between the
# trapezius' ridges, and a neckline following it read as a V from behind.
NECK_BACK = 0.012
# The neck's base: how far below the Neck joint the neck meets the shoulders (at their sides).
NECK_BASE = 0.025


def landmarks(mesh: BodyMesh) -> dict[str, float]:
    """Where a body's garments start and end (metres, the body's own T-pose): heights, the neck's axis,
    the arms' joints along x, the crotch (the lowest skin on the midline between the thighs) and the neck's
    base (``neck_base``, ``neck_cz``: its centre's depth, ``neck_rx``, ``neck_rz``: its half-width and
    half-depth, from the skin's section there)."""
    sk = mesh.skeleton
    torso = float(sk.pos("Neck")[1] - sk.pos("Spine2")[1])
    body = mesh.positions[mesh.groups["body"]]
    hips = sk.pos("Hips")
    neck = sk.pos("Neck")
    mid = body[(np.abs(body[:, 0] - hips[0]) < 0.006) & (body[:, 1] < hips[1]) & (body[:, 1] > sk.pos("LeftLeg")[1])]
    # The neck's section a little above its base (below it the trapezius widens it), within 9 cm of its axis.
    ring = body[(np.abs(body[:, 1] - (neck[1] - NECK_BASE + 0.01)) < 0.006)
                & (np.hypot(body[:, 0] - neck[0], body[:, 2] - neck[2]) < 0.09)]
    return {"height": float(sk.height), "neck_x": float(neck[0]), "neck_y": float(neck[1]),
            "neck_z": float(neck[2]), "torso": torso, "hips_y": float(hips[1]),
            "arm": float(sk.pos("LeftArm")[0]), "elbow": float(sk.pos("LeftForeArm")[0]),
            "wrist": float(sk.pos("LeftHand")[0]), "shoulder_y": float(sk.pos("LeftArm")[1]),
            "knee": float(sk.pos("LeftLeg")[1]), "ankle": float(sk.pos("LeftFoot")[1]),
            "ankle_z": float(sk.pos("LeftFoot")[2]),
            "crotch": float(mid[:, 1].min()) if len(mid) else float(hips[1] - 0.08),
            "neck_base": float(neck[1] - NECK_BASE),
            "neck_cz": float((ring[:, 2].max() + ring[:, 2].min()) / 2) if len(ring) else float(neck[2]),
            "neck_rx": float(np.abs(ring[:, 0] - neck[0]).max()) if len(ring) else 0.06,
            "neck_rz": float(np.ptp(ring[:, 2]) / 2) if len(ring) else 0.05}


def neckline(e: dict, p: np.ndarray, cut: str = "crew") -> np.ndarray:
    """How far each point lies past the neckline (positive on the garment's side, metres): the neckline is a
    curve round the neck's base (an ellipse ``ease`` out from the neck's section, at the base's height),
    dipping at the front in a smooth scoop (the bearing's cosine to the power 1.5); the field is the
    distance past that curve along a cone through it at 45 degrees, out and down, at the sides (steeper at
    the front and back). So the cut crosses the
    upright chest (where the height counts) and the nearly level tops of the shoulders (where the
    distance out counts) alike: a level cut wandered across the trapezius, which is nearly level behind
    the neck, and left a square neckline with horns at its back corners.

    >>> e = {"neck_x": 0.0, "neck_base": 1.4, "neck_cz": 0.0, "neck_rx": 0.06, "neck_rz": 0.05}
    >>> [round(float(h), 4) for h in neckline(e, np.array([[0.0, 1.4, 0.06], [0.1, 1.4, 0.0], [0.0, 1.3, -0.06]]))]
    [-0.0318, 0.0212, 0.0792]
    """
    front, ease = NECK[cut]
    dx, dz = p[..., 0] - e["neck_x"], p[..., 2] - e["neck_cz"]
    r = np.hypot(dx, dz)
    c, s = dz / np.maximum(r, 1e-9), dx / np.maximum(r, 1e-9)
    # The ellipse's radius at this bearing, plus the ease.
    reach = 1 / np.sqrt((s / e["neck_rx"]) ** 2 + (c / e["neck_rz"]) ** 2) + ease
    below = e["neck_base"] - front * np.clip(c, 0, 1) ** 1.5 + NECK_BACK * np.clip(-c, 0, 1) ** 2 - p[..., 1]
    # (Out from the neck counts fully at the sides, over the shoulders' tops, and a quarter at the front and
    # back, where the chest and the back are upright: counting fully there, the neckline followed the hollow
    # between the pectorals down into a V.)
    return ((r - reach) * (0.25 + 0.75 * s * s) + below) * np.sqrt(0.5)


def _top(hem: float, sleeve: Callable[[dict], float], neck: str = "crew"):
    def cuts(e: dict, p: np.ndarray) -> list:
        return [p[:, 1] - hem * e["height"], neckline(e, p, neck), sleeve(e) - np.abs(p[:, 0] - e["neck_x"])]
    return cuts


def _bottom(waist: float, hem: Callable[[dict], float]):
    def cuts(e: dict, p: np.ndarray) -> list:
        return [waist * e["height"] - p[:, 1], p[:, 1] - hem(e)]
    return cuts


def _shoes(collar: float, heel: float):
    """A shoe's upper: up to ``collar`` above the ankle joint, ``heel`` more at the back (a sneaker's heel tab)."""
    def cuts(e: dict, p: np.ndarray) -> list:
        back = np.clip((e["ankle_z"] - p[:, 2]) / 0.06, 0, 1)
        return [e["ankle"] + collar + heel * back - p[:, 1]]
    return cuts


# (A tee's sides come in 70 cm a metre from the armpit, its front and back 18: hung at 18 everywhere from the ring at
# the armpits, out at the shoulder joint on an athletic body, its sides fell straight to the hem, 11 cm off the
# waist on each side of review P's #6, "stiff boxes"; now 2 to 3.5 cm on every body, test_tee_taper_review_p.
# At 50 cm a metre #6 kept 6 cm, at 60 4.4.)
TEE = Drape(slope=0.18, span=1.2, ease=0.004, grow=0.04, sides=0.7)
# A long sleeve tapers from the armhole to the cuff as the arm does: hung from the shoulder's ring, a sleeve
# that could not come in (slope 0 or less) kept the shoulder's 9 cm radius down to the cuff, which gathered it
# back to the wrist, and it ballooned (review F: 4.7 cm off a forearm, 1.2 cm off the upper arm).
SLEEVE = Drape(slope=0.22, span=0.8, ease=0.005)
# How far either side of the back's middle a top's leg weights are evened out (``Style.across``, metres). A skirt's
# 7 cm: at 8 a thigh came 2.1 mm through it in the run (test_clothes_in_clips); evened out at the front too, 8 cm. At 6 cm review R's #9 and #3 kept a rise of 0.6 m a metre at the back (test_hem_step_review_r).
ACROSS = 0.1
# How far along the arm a sweater's sleeve is held to it (Style.hug_arm, metres past the arm's joint): to the elbow,
# as a knit's sleeve lies on the upper arm with a knit's ease.
SWEATER_ARM = (0.45, 0.55)
# How much looser a sweater grows a metre down its torso (3 cm a metre until review AF's "the knit sweater balloons"):
# a knit lies on the body with a knit's ease, its hem band gathering it. (Its lift 7 mm: at 5 mm a heavy masculine
# body's trousers came 2.2 mm through it turning, test_clothes_in_clips.)
SWEATER_GROW = 0.015
# A tee's sleeve opens this much further off the arm at its hem than at its cap (metres, on its top; tops39).
FLARE = 0.014
STYLES: dict[str, Style] = {s.name: s for s in (
    # (A tee's cap sleeve follows the arm a centimetre off and its shoulders lie towards the body: flaring from the
    # shoulder's ring it stood 3 to 4.4 cm off the upper arm, review H's "shapeless box".)
    Style("tee", "Outfit_Top", "helper-tights", "jersey", 0.008,
          _top(0.50, lambda e: e["arm"] + 0.42 * (e["elbow"] - e["arm"])),
          torso=TEE, arms=Drape(slope=0.3, span=0.8, ease=0.01), hug=0.7, flare=FLARE,
          bands=((0.018, False), (0.014, True), (0.016, False)), margin=0.035, edge=0.0025, across=ACROSS),
    # (A knit sweater's hem is a ribbed band gathered to the hips, the knit bloused over it: a turned hem
    # hanging as the cloth above it read as a hard-edged tube. Its sleeve comes in after the deltoid as the arm
    # does, and its shoulders lie on the body: hung from the shoulder's ring at a fleece's slope, it stood 1.2
    # to 1.45 times the upper arm's radius, puffed; bridged from the trapezius to the deltoid, a pad. Review G.)
    Style("longsleeve", "Outfit_Top", "helper-tights", "sweater", 0.007,
          _top(0.50, lambda e: e["wrist"] - 0.025),
          torso=Drape(slope=0.22, span=1.2, ease=0.003, grow=SWEATER_GROW), arms=Drape(slope=1.0, span=0.8, ease=0.005),
          bands=((0.045, True), (0.014, True), (0.04, True)), margin=0.035, hug=1.0, hug_arm=SWEATER_ARM,
          across=ACROSS),
    # (A fleece hoodie is relaxed, not a balloon: its shoulders and upper sleeves held towards the body as a
    # sweater's are, three quarters of the way (1.1 to 1.45 cm off the shoulders' tops, was 1.7 to 2.1), its sleeve
    # coming in after the deltoid and its body below the chest: review H's "balloon hoodie".)
    # (Review O's "Michelin-bulky" hoodie, #3: at 8 mm of ease on the arm and its shoulders held three quarters of the
    # way, its upper sleeve stood 1.35 to 1.41 times an athletic arm's radius, 1.8 cm of air round it. A relaxed
    # hoodie's bicep is some 20 % over the arm's girth: held as a sweater's set-in shoulder is, with 5 mm of ease,
    # 1.13 to 1.24 times on #3, its shoulders' tops 0.8 to 1.1 cm off, as a sweater's; the torso keeps its fleece's ease
    # (its lift 1.3 cm, was 1.2: at 1.2 with the shoulders held, the neckline's band at the front lost its shade
    # against the chest, 0.934 > 0.93 in test_clothes_edges; at 0.9 to 1.0 a hem's point spiked over the seat).
    # Held nine tenths of the way the sleeve was 1.28 again: a band's neighbours are averaged unless fully held.)
    Style("hoodie", "Outfit_Top", "helper-tights", "fleece", 0.013,
          _top(0.497, lambda e: e["wrist"] - 0.015, "hood"),
          torso=Drape(slope=0.2, span=1.3, ease=0.006, grow=0.03), arms=Drape(1.0, span=0.9, ease=0.005),
          bands=((0.055, True), (0.02, True), (0.06, True)), margin=0.035, extras=("hood",), edge=0.004, hug=1.0,
          across=ACROSS),
    Style("trousers", "Outfit_Bottom", "helper-tights", "twill", 0.003,
          _bottom(WAISTBAND, lambda e: e["ankle"] + 0.03),
          torso=Drape(slope=0.3, span=1.0, ease=0.002), legs=Drape(slope=0.07, span=0.9, ease=0.004, grow=0.012),
          bands=((0.035, True), (0.02, False)), margin=0.04),
    Style("shorts", "Outfit_Bottom", "helper-tights", "twill", 0.003,
          _bottom(WAISTBAND, lambda e: e["knee"] + 0.3 * (e["crotch"] - e["knee"])),
          torso=Drape(slope=0.3, span=1.0, ease=0.002), legs=Drape(slope=0.0, span=0.9, ease=0.008),
          bands=((0.035, True), (0.02, False)), margin=0.04),
    # (A skirt flares less than a cone from its waist and falls in a few deep folds: 11 shallow ones on a
    # flare of 22 cm a metre read as a rigid lampshade. The folds flare it: the cone under them only 6 cm a metre,
    # the folds 10 cm deep at the hem, so the hem's outline waves rather than the cone growing.)
    Style("skirt", "Outfit_Bottom", "helper-skirt", "twill", 0.004,
          _bottom(WAISTBAND, lambda e: e["knee"] + 0.08),
          torso=Drape(slope=-0.06, span=np.pi, ease=0.004, grow=0.02), margin=0.06, smooth=1,
          bands=((0.03, True), (0.02, False)), edge=0.0025, folds=(8, 0.10), loose=2.5, across=0.07),
    Style("sneakers", "Outfit_Footwear", "helper-tights", "canvas", 0.006, _shoes(-0.004, 0.024), margin=0.02,
          bands=((0.012, True),), edge=0.006),
    Style("boots", "Outfit_Footwear", "helper-tights", "leather", 0.006, _shoes(0.125, 0.0), margin=0.02,
          bands=((0.02, True),), edge=0.005),
)}
TOPS = ("tee", "longsleeve", "hoodie")
FOOTWEAR = ("sneakers", "boots")
BOTTOMS = ("trousers", "shorts", "skirt")
