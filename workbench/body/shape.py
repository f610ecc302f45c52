"""Settings to body shape: MakeHuman's macro targets combined the way MakeHuman combines them.

MakeHuman describes a body by macro values in [0, 1] (gender, age, muscle, weight, height,
proportions, and three ethnic shares summing to 1). Each macro is split into weights for its
anchors by linear interpolation: gender into ``female = 1 - g`` and ``male = g``; muscle and weight
into ``min``, ``average`` and ``max`` around 0.5 (``min = max(0, 1 - 2v)``, ``max = max(0, 2v - 1)``,
``average`` the rest); height into ``min`` and ``max`` the same way (0.5 is no height target). A
target named by several anchors (``universal-female-young-maxmuscle-averageweight``) is applied with
the product of their weights, so the weights of every family sum to one and the body moves smoothly
between anchors. The ethnic targets are weighted by ``share x gender x age``. Our age is always a young
adult (25 years: MakeHuman's age 0.5, the ``young`` anchor with weight 1) and the proportions natural
(0.5: no proportions target).

Our settings choose the macro values (:data:`SHAPE_MACROS`): heavy is MakeHuman's most weight; athletic
its most muscle at a little under average weight (more muscle, not more fat); slim its least weight
and a little less muscle (a feminine athletic build less muscle than a masculine one). The macro
targets alone leave the four close at the waist (MakeHuman's maxweight widens a young adult's waist by
5 cm), so each shape also sets some of MakeHuman's own modifiers, as a MakeHuman user would on the same
sliders (:mod:`.details`: waist, hip, belly, seat and limb fat, and a fuller or leaner face, for heavy
and slim; the torso's V shape, pectorals, back and limb muscle for athletic).
:func:`workbench.body.mesh.girths` measures the result (tests/body/test_body.py pins the order and the gaps).
Gender also reaches the face through MakeHuman's face modifiers (:mod:`.details` too: a wider,
squarer jaw and chin, a forward brow and a broader nose and neck for masculine; a narrower jaw, fuller
lips and a slimmer nose for feminine), since the macro targets change a young adult's head only
through the ethnic blend, too little to tell the two apart at a glance; and every face gets the mouth's
corners lifted a little (MakeHuman's base mouth turns down, which reads as sad) and lips that meet.
Each face also has features of its own (:func:`face_weights`): the settings' face controls (jaw width,
cheekbones, nose width, eye size, lip fullness, nose length, chin length, brow ridge) and small
offsets of some twenty more of MakeHuman's face modifiers (nose, eyes, mouth, jaw, chin, cheeks, temples, brows,
ears) drawn smoothly from the settings that describe the person, so two avatars of one gender and build are two
people.
Height picks MakeHuman's height macro that comes closest (so a tall body has a tall body's
proportions; past the gender's default height with a larger head, :func:`head_growth`), then one uniform scale makes
the height exact (:mod:`workbench.body.mesh`).

>>> w = macro_weights("feminine", "average", 0.5)
>>> w["universal-female-young-averagemuscle-averageweight"], round(sum(v for k, v in w.items() if k.startswith("universal")), 6)
(1.0, 1.0)
"""

from __future__ import annotations

import numpy as np

from ..options.limits import DEFAULT_HEIGHT, HEIGHT_CM
from . import compile as cc
from .corners import unfolded
from .details import (
    EVERY_FACE,
    FACE_CONTROLS,
    FACE_DETAILS,
    FACE_VARIETY,
    FEATURE_CAP,
    FEMININE_ENDS,
    HEAD_GROWTH,
    LID_FOLLOW,
    LIP_CAP,
    LIP_REST,
    MORE_VARIETY,
    PUCKER_MOST,
    WITH_BUILD_CAP,
    eased,
    rest_face,
    shape_details,
    sides,
    signed,
    waves,
)
from .lip_shape import FLAT_MOST, HEIGHTS, REST, lip_shape

# (muscle, weight) macro values per body shape. MakeHuman's sliders run 0 to 1 with 0.5 average;
# these stay inside the range its targets were modelled for (no extrapolation).
SHAPE_MACROS = {
    "slim": (0.40, 0.0),
    "average": (0.50, 0.50),
    "athletic": (1.00, 0.40),
    "heavy": (0.50, 1.00),
}
# A feminine athletic build with MakeHuman's most muscle read as a bodybuilder's (issue 36): less for her.
GENDERED_MACROS = {("feminine", "athletic"): (0.75, 0.4)}
GENDER_VALUE = {"feminine": 0.0, "masculine": 1.0}
ETHNIC_SHARE = 1.0 / 3.0


def _three(v: float) -> dict[str, float]:
    lo, hi = max(0.0, 1.0 - 2.0 * v), max(0.0, 2.0 * v - 1.0)
    return {"min": lo, "average": 1.0 - lo - hi, "max": hi}


def detail_weights(gender: str, body_shape: str) -> dict[str, float]:
    """The modifier targets' weights for these settings (body shape, gendered face, every face, and the
    face units every rest face takes).

    >>> detail_weights("masculine", "heavy")["torso/measure-waist-circ-incr"]
    1.0
    """
    out: dict[str, float] = rest_face(gender)
    for table in (shape_details(gender, body_shape), FACE_DETAILS[gender], EVERY_FACE):
        for name, w in sides(table).items():
            out[name] = out.get(name, 0.0) + w
    return out


def macro_weights(gender: str, body_shape: str, height_macro: float) -> dict[str, float]:
    """Each macro target's weight (non-zero ones only) for these settings and MakeHuman height value."""
    g = GENDER_VALUE[gender]
    muscle, weight = GENDERED_MACROS.get((gender, body_shape), SHAPE_MACROS[body_shape])
    genders = {"female": 1.0 - g, "male": g}
    heights = {"min": max(0.0, 1.0 - 2.0 * height_macro), "max": max(0.0, 2.0 * height_macro - 1.0)}
    out: dict[str, float] = {}
    for gn, gw in genders.items():
        for mn, mw in _three(muscle).items():
            for wn, ww in _three(weight).items():
                out[f"universal-{gn}-young-{mn}muscle-{wn}weight"] = gw * mw * ww
                for hn, hw in heights.items():
                    out[f"height/{gn}-young-{mn}muscle-{wn}weight-{hn}height"] = gw * mw * ww * hw
        for e in cc.ETHNIC:
            out[f"{e}-{gn}-young"] = ETHNIC_SHARE * gw
    out.update(detail_weights(gender, body_shape))
    return {k: v for k, v in out.items() if v > 0.0}


# The settings a face's variety is drawn from: those that describe the person (not the clothes, the hair's cut
# or the glasses), each scaled to about 0..1.
VARIETY_FROM = ("skinTone", "eyeColor", "hair.color", "height")


def _variety_inputs(settings: dict) -> np.ndarray | None:
    try:
        colours = [settings["skinTone"], settings["eyeColor"], settings["hair"]["color"]]
        height = float(settings["height"])
    except (KeyError, TypeError):
        return None
    x = [int(c.lstrip("#")[i:i + 2], 16) / 255 for c in colours for i in (0, 2, 4)]
    return np.array(x + [(height - 140.0) / 70.0])


def face_weights(settings: dict) -> tuple[tuple[str, float], ...]:
    """The modifier targets (name, weight), sorted, that give these settings' face its own features: the face
    controls (``settings["face"]``, :data:`~workbench.body.details.FACE_CONTROLS`; a feminine face's strong jaw and brow
    :data:`~workbench.body.details.FEMININE_ENDS`) and the face's variety
    (:data:`~workbench.body.details.FACE_VARIETY`; its lips' heights at rest, workbench.body.lip_shape), each feature a
    smooth wave over :data:`VARIETY_FROM` (the
    same settings, the same face; settings that differ, a face that differs), each target then held to its cap
    (:data:`~workbench.body.details.LIP_CAP`, :data:`~workbench.body.details.FEATURE_CAP`, and with the build's share
    :data:`~workbench.body.details.WITH_BUILD_CAP`). Settings without those fields
    (a reference body's ``{"gender", "bodyShape", "height"}``) get a face without variety. Weights are
    rounded to 1e-4, so they key caches exactly.

    >>> from workbench.options import normalize_avatar_settings
    >>> a = dict(face_weights(normalize_avatar_settings({"gender": "feminine", "face": {"eyeSize": 1}})))
    >>> a["eyes/l-eye-scale-incr"], "eyes/l-eye-scale-decr" in a
    (1.4, False)
    >>> face_weights({"gender": "feminine", "bodyShape": "average", "height": 166.0})
    ()
    """
    out: dict[str, float] = {}

    def add(table: dict[str, float]) -> None:
        for k, w in table.items():
            out[k] = out.get(k, 0.0) + w

    x = _variety_inputs(settings)
    if x is not None:
        for table, seed in ((FACE_VARIETY, 46), (MORE_VARIETY, 47)):
            for feature in waves(table, seed, x):
                add(feature)
    controls = eased(settings.get("face") or {})
    feminine = settings.get("gender") == "feminine"
    for name, (plus, minus) in FACE_CONTROLS.items():
        # (a feminine face's strong jaw and brow its own, not a man's: FEMININE_ENDS)
        add(signed(FEMININE_ENDS.get(name, plus) if feminine else plus, minus, float(controls.get(name, 0.0))))
    # (a large eye's upper lid lowered back over its iris's top: details.LID_FOLLOW)
    wide = LID_FOLLOW["feminine" if feminine else "masculine"] * max(float(controls.get("eyeSize", 0.0)), 0.0)
    if wide > 0:   # (only then: a face without features, a reference body's, stays an empty one for lips_at_rest)
        add({"face/eyeWideLeft": -wide, "face/eyeWideRight": -wide})
    for name, cap in (*LIP_CAP.items(), *sides(FEATURE_CAP).items()):
        if name in out:
            out[name] = min(out[name], cap)
    if "gender" in settings and "bodyShape" in settings:    # (and with the build's own share, WITH_BUILD_CAP)
        build = detail_weights(settings["gender"], settings["bodyShape"])
        for name, cap in sides(WITH_BUILD_CAP).items():
            if name in out:
                out[name] = min(out[name], max(cap - build.get(name, 0.0), 0.0))
    # (after the caps: a capped lip is set back by what it takes)
    add(lips_at_rest(out, (settings.get("gender", ""), settings.get("bodyShape", ""))))
    if x is not None:   # (each face's own lips at rest, workbench.body.lip_shape; after the rest's, which it adds to)
        add(lip_shape(x))
        flat = REST + "mouth/mouth-cupidsbow-decr"   # (held with the face's own: lip_shape.FLAT_MOST)
        if flat in out:
            out[flat] = min(out[flat], max(FLAT_MOST - out.get("mouth/mouth-cupidsbow-decr", 0.0), 0.0))
    return tuple((k, round(w, 4)) for k, w in sorted(out.items()) if round(w, 4) != 0)


def lips_at_rest(face: dict[str, float], body: tuple[str, str] = ("", "")) -> dict[str, float]:
    """The targets that set full lips back at rest (:data:`~workbench.body.details.LIP_REST`), for a face's
    weights ``face``: in proportion to each lip's net MakeHuman volume forward (its ``incr`` less its ``decr``: a thin lip
    whose variety adds a little volume is not set back; none on the default faces); and every face's lips wider
    (``LIP_REST["every"]``, less on a mouth its variety widens; none on a face without features, a reference body's,
    whose masks the skin is painted by); a masculine face's lips drawn back too (``LIP_REST["masculine"]``, as much as
    its lips are widened, given its ``body``'s (gender, build), but a heavy build's), and full lips by their upper lip's
    volume forward (``LIP_REST["upper"]``'s pucker, not on a heavy build, whose are rolled back further instead:
    ``LIP_REST["heavy"]``), no face's further than
    :data:`~workbench.body.details.PUCKER_MOST`. A weight may be negative: less of a target the build or every face gives
    (their sum stays at or over 0). The face's expressions take it off again (``lipsUnrolled``, workbench.body.mesh;
    workbench.body.face.combination).

    >>> lips_at_rest({"mouth/mouth-upperlip-volume-incr": 0.5})["face/mouthRollUpper"]
    0.075
    >>> lips_at_rest({"mouth/mouth-upperlip-volume-decr": 0.2, "mouth/mouth-upperlip-volume-incr": 0.1})
    {'mouth/mouth-upperlip-width-incr': 0.4375, 'mouth/mouth-lowerlip-width-incr': 0.4375}
    >>> lips_at_rest({"mouth/mouth-scale-horiz-incr": 0.25}), lips_at_rest({})
    ({}, {})
    >>> lips_at_rest({"mouth/mouth-scale-horiz-incr": 0.1}, ("masculine", "average"))["face/mouthPucker"]
    -0.09375
    >>> lips_at_rest({"mouth/mouth-upperlip-volume-incr": 0.5}, ("masculine", "heavy"))["face/mouthRollUpper"]
    0.175
    """
    if not face:
        return {}
    up = face.get("mouth/mouth-upperlip-volume-incr", 0.0) - face.get("mouth/mouth-upperlip-volume-decr", 0.0)
    lo = face.get("mouth/mouth-lowerlip-volume-incr", 0.0) - face.get("mouth/mouth-lowerlip-volume-decr", 0.0)
    out: dict[str, float] = {}
    # (every face's lips widened, the less the wider its mouth already: none at FEATURE_CAP's widest)
    wide = face.get("mouth/mouth-scale-horiz-incr", 0.0) - face.get("mouth/mouth-scale-horiz-decr", 0.0)
    share = min(max((FEATURE_CAP["mouth/mouth-scale-horiz-incr"] - wide) / 0.4, 0.0), 1.0)
    manly = share if body[0] == "masculine" and body[1] != "heavy" else 0.0
    heavy = up if body[1] == "heavy" else 0.0
    for table, v in ((LIP_REST["upper"], up), (LIP_REST["lower"], lo), (LIP_REST["every"], share),
                     (LIP_REST["masculine"], manly), (LIP_REST["heavy"], heavy)):
        for k, w in table.items():
            if v > 0 and not (k == "face/mouthPucker" and table is LIP_REST["upper"] and body[1] == "heavy"):
                # (a heavy build's full cheeks beside the corners drawn out bump, as for LIP_REST["masculine"])
                out[k] = round(out.get(k, 0.0) + w * v, 6)
    if "face/mouthPucker" in out:
        out["face/mouthPucker"] = max(out["face/mouthPucker"], PUCKER_MOST)
    return out


def rest_lips(face: dict[str, float], body: tuple[str, str] = ("", "")) -> dict[str, float]:
    """What the rest gives a face's lips and its expressions take off (``lipsUnrolled``): :func:`lips_at_rest`, with all
    of the lips' heights the face's weights ``face`` hold (:data:`~workbench.body.lip_shape.HEIGHTS`: only the rest's,
    its setting back and the face's own lips, workbench.body.lip_shape).

    >>> rest_lips({"mouth/mouth-upperlip-height-incr": 0.2, "mouth/mouth-upperlip-volume-decr": 0.1})
    {'mouth/mouth-upperlip-width-incr': 0.4375, 'mouth/mouth-lowerlip-width-incr': 0.4375, 'mouth/mouth-upperlip-height-incr': 0.2}
    """
    out = lips_at_rest(face, body)
    # (the rest's own targets, REST's, under their names with the prefix: the shape's and the mesh's readers strip it)
    out.update({k: face[k] for k in face if (k in HEIGHTS or k.startswith(REST)) and face[k]})
    return out


def head_growth(gender: str, height_cm: float) -> dict[str, float]:
    """The head scale targets a body of ``height_cm`` takes beyond its build's (:data:`~workbench.body.details.HEAD_GROWTH`
    at 210 cm; in between, by the height's share of the way there from ``gender``'s default height to the power 1.5,
    so slowly at first; none at or under the default).

    >>> head_growth("feminine", 166.0), head_growth("masculine", 194.0)["head/head-scale-vert-incr"]
    ({}, 0.212132)
    """
    share = (height_cm - DEFAULT_HEIGHT[gender]) / (HEIGHT_CM[1] - DEFAULT_HEIGHT[gender])
    return {k: round(w * min(share, 1.0) ** 1.5, 6) for k, w in HEAD_GROWTH.items()} if share > 0 else {}


def _apply(data: dict, weights: dict[str, float], column: slice = slice(None)) -> np.ndarray:
    verts = data["base"][:, column].astype(np.float64)
    for name in sorted(weights):   # a fixed order: the same settings give the same bits
        idx, delta = cc.target(data, name)
        verts[idx] += weights[name] * delta[:, column]
    return verts


def _stature(data: dict, weights: dict[str, float]) -> float:
    """Soles to crown of the body (heights only: the search needs no other coordinate)."""
    body = _apply(data, weights, slice(1, 2))[cc.group(data, "body"), 0]
    return float(body.max() - body.min())


def shaped(gender: str, body_shape: str, height_cm: float,
           face: tuple[tuple[str, float], ...] = ()) -> tuple[np.ndarray, float]:
    """The A-pose vertices (decimetres, float64) for these settings and ``face`` (:func:`face_weights`), and
    the MakeHuman height macro used.

    Stature is linear in the height macro on each side of 0.5, so the macro giving ``height_cm`` is
    found from the statures at 0, 0.5 and 1 (then clamped: heights past MakeHuman's range keep its
    extreme proportions and are reached by the exact scale afterwards). The face's targets join only the
    last step: they move the head by millimetres, which the exact scale takes up.
    """
    data = cc.compiled()
    target = height_cm / 10.0
    grown = head_growth(gender, height_cm)
    s = {h: _stature(data, {**macro_weights(gender, body_shape, h), **grown}) for h in (0.0, 0.5, 1.0)}
    if target < s[0.5]:
        h = 0.5 - 0.5 * (s[0.5] - target) / (s[0.5] - s[0.0])
    else:
        h = 0.5 + 0.5 * (target - s[0.5]) / (s[1.0] - s[0.5])
    h = round(min(1.0, max(0.0, h)), 6)
    weights = {**macro_weights(gender, body_shape, h), **grown}
    for name, w in face:
        name = name.removeprefix(REST)   # (a target the rest alone holds, workbench.body.lip_shape.REST: the same target)
        weights[name] = weights.get(name, 0.0) + w
    # The targets turn over a few tiny triangles where the lips meet (facing into the head): unturned.
    return unfolded(_apply(data, weights)), h
