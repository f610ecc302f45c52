"""Which of MakeHuman's modifier targets each body shape and gender sets, and how strongly.

MakeHuman's macro targets (:mod:`workbench.body.shape`) leave the four body shapes close at the waist
and a young adult's two genders close in the face, so the shapes and faces also set some of
MakeHuman's own modifiers, as a MakeHuman user would on the same sliders. The tables live here, apart
from the shaping, because two modules read them: :mod:`.compile` keeps exactly these targets and
:mod:`.shape` weighs them.

>>> sides({"arms/{s}-upperarm-fat-incr": 0.5})
{'arms/l-upperarm-fat-incr': 0.5, 'arms/r-upperarm-fat-incr': 0.5}
>>> "torso/measure-waist-circ-incr" in detail_targets()
True
"""

from __future__ import annotations

# MakeHuman modifier targets per body shape with their weights (a MakeHuman slider at -0.3 is its
# ``-decr`` target at 0.3). A name with ``{s}`` stands for both sides (``l`` and ``r``).
SHAPE_DETAILS = {
    "slim": {"torso/measure-waist-circ-decr": 0.3, "torso/measure-hips-circ-decr": 0.2,
             "arms/{s}-upperarm-fat-decr": 0.5, "legs/{s}-upperleg-fat-decr": 0.4},
    "average": {},
    "athletic": {"torso/torso-vshape-incr": 0.7, "torso/torso-muscle-pectoral-incr": 0.6,
                 "torso/torso-muscle-dorsi-incr": 0.6, "torso/measure-waist-circ-decr": 0.35,
                 "stomach/stomach-tone-incr": 0.6, "neck/measure-neck-circ-incr": 0.4,
                 "arms/{s}-upperarm-muscle-incr": 0.8, "arms/{s}-upperarm-shoulder-muscle-incr": 0.8,
                 "arms/{s}-lowerarm-muscle-incr": 0.6, "legs/{s}-upperleg-muscle-incr": 0.7,
                 "legs/{s}-lowerleg-muscle-incr": 0.6},
    "heavy": {"torso/measure-waist-circ-incr": 1.0,
              "torso/measure-hips-circ-incr": 0.5, "torso/measure-bust-circ-incr": 0.3,
              "neck/measure-neck-circ-incr": 0.5, "neck/neck-double-incr": 0.4,
              "arms/{s}-upperarm-fat-incr": 0.8, "arms/{s}-lowerarm-fat-incr": 0.5,
              "legs/{s}-upperleg-fat-incr": 0.7, "legs/{s}-lowerleg-fat-incr": 0.4, "head/head-fat-incr": 0.3},
}
# MakeHuman face modifier targets per gender, and for every face (the same convention).
FACE_DETAILS = {
    "feminine": {"chin/chin-width-decr": 0.4, "chin/chin-prominent-decr": 0.2, "head/head-oval": 0.4,
                 "mouth/mouth-upperlip-volume-incr": 0.2, "mouth/mouth-lowerlip-volume-incr": 0.15,
                 "nose/nose-scale-horiz-decr": 0.3, "nose/nose-volume-decr": 0.3,
                 "neck/measure-neck-circ-decr": 0.3, "eyebrows/eyebrows-trans-up": 0.2},
    "masculine": {"chin/chin-width-incr": 0.5, "chin/chin-prominent-incr": 0.4, "chin/chin-bones-incr": 0.5,
                  "head/head-square": 0.5, "forehead/forehead-nubian-incr": 0.25,
                  "eyebrows/eyebrows-trans-forward": 0.5, "eyebrows/eyebrows-trans-down": 0.2,
                  "nose/nose-scale-horiz-incr": 0.2, "nose/nose-volume-incr": 0.3,
                  "mouth/mouth-upperlip-volume-decr": 0.2, "neck/measure-neck-circ-incr": 0.4},
}
# Every face: the mouth's corners lifted a little, and the lips a little taller so they meet (the base
# mesh's lips part by 2 mm, and the teeth showed through as a white line on dark skin).
EVERY_FACE = {"mouth/mouth-angles-up": 0.35, "mouth/mouth-upperlip-height-incr": 0.8,
              "mouth/mouth-lowerlip-height-incr": 0.8}
# ARKit face units (faceunits01) in every rest face: a tenth of ``mouthClose`` seals the corners of the
# mouth, where the lips still parted by a fraction of a millimetre and the back teeth showed through as a
# white speck (the face shapes add to this rest face as to any other).
REST_FACE = {"face/mouthClose": 0.1}


def sides(table: dict[str, float]) -> dict[str, float]:
    """``{s}`` names as their ``l`` and ``r`` targets."""
    return {name.format(s=side): w for name, w in table.items() for side in (("l", "r") if "{s}" in name else ("",))}


def detail_targets() -> list[str]:
    """Every modifier target a body or face may use (what ``compile`` keeps), sorted."""
    return sorted({n for t in (*SHAPE_DETAILS.values(), *FACE_DETAILS.values(), EVERY_FACE) for n in sides(t)})
