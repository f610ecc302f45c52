"""Each face's own lips at rest (blind review AA's defect 4, "everyone has the same mouth": a thin, peaked upper lip
over a thick lower lip on all twelve faces).

MakeHuman's base lips, with every face's lift (:data:`~workbench.body.details.EVERY_FACE`) and the full lips' setting
back (:data:`~workbench.body.details.LIP_REST`), paint a lower lip 1.4 to 2.3 times as tall as the upper on the face's
middle over review AA's twelve (1.77 on average), where people's run from about 1.0 to 2.0, many with an upper lip as
full as the lower. Every face draws its own share of the lips' heights here, a wave over the same settings as the
faces' other features (:func:`workbench.body.shape.face_weights`, a stream of its own, so their values stay), and the
rest holds it alone: every expression of the mouth takes it off with the rest's other setting back
(:func:`workbench.body.shape.rest_lips`, ``lipsUnrolled``), so the smile, the visemes and the paint's reference face are
made as before. (The lower lip shortened more than the upper is lifted: the upper lip's shape, from the lips' meeting
line to where its front turns back, some 9 mm on average, held under review H's 9.5, tests/body/test_lip_heights.py.)
tests/body/test_lip_ratio_review_aa.py.

>>> {k: round(v, 3) for k, v in lip_shape(np.full(10, 0.9)).items() if not k.startswith(REST)}
{'mouth/mouth-upperlip-height-incr': 0.296, 'mouth/mouth-lowerlip-height-incr': -0.346}
>>> {k: round(v, 3) for k, v in lip_shape(np.full(10, 0.5)).items()}  # (its heights' wave under 0 there)
{'rest:mouth/mouth-cupidsbow-incr': 0.249, 'rest:mouth/mouth-philtrum-volume-incr': 0.519}

Each face's outline at rest (lips38: review AA's hard corners and one cupid's bow): :data:`OUTLINE`, under :data:`REST`.
"""

from __future__ import annotations

import numpy as np

from .details import waves

__all__ = ["FLAT_MOST", "HEIGHTS", "LIP_SHAPE", "OUTLINE", "REST", "lip_shape"]

# The lips' heights' targets: in a face's weights only the rest's (LIP_REST's and LIP_SHAPE's), so all of their weight
# is taken off in the expressions.
HEIGHTS = ("mouth/mouth-upperlip-height-incr", "mouth/mouth-lowerlip-height-incr")
# name -> (targets at +1, at -1, how far a face goes): the upper lip taller and the lower shorter at +1 (review AA's #3
# painted 7.8 / 12.0 -> 8.4 / 10.0 mm, lower over upper 1.54 -> 1.19), nothing at -1, as the base's lips already lean to a thin upper lip (a
# masculine face's with lipFullness, 2.2 and 2.3 on review AA's #10 and #11, the top of people's range): half the faces
# keep their lips as before (the default masculine face among them). The lower lip's height no further under
# MakeHuman's base than EVERY_FACE's 0.35 lifts it.
LIP_SHAPE: dict[str, tuple[dict[str, float], dict[str, float], float]] = {
    "lipRatio": ({"mouth/mouth-upperlip-height-incr": 0.3, "mouth/mouth-lowerlip-height-incr": -0.35}, {}, 1.0),
}
# The stream the waves are drawn from (the faces' variety's are 46 and 47).
SEED = 48
# Each face's own outline of the lips at rest (review AA's defect 4 again, lips38: the same peaked upper lip and knife
# corners on every face), drawn from a stream of its own (OUTLINE_SEED) so LIP_SHAPE's heights keep their values. Its
# targets are the rest's alone: a face's weights hold them under the prefix REST, and every expression takes them off
# with the rest's others (workbench.body.shape.rest_lips), as the cupid's bow's target is a face variety's too
# (FACE_VARIETY's upperLip, which the expressions keep). "bow": the upper lip's peaks up to 1.35 mm higher at +1
# (MakeHuman's cupid's bow, 3 mm at its full weight), at -1 flatter (its middle lifted, held with the face's own by
# FLAT_MOST; taking every face's 0.3 of the peaks off instead drew the lips' meeting line down, an upper lip 12.3 mm
# tall, tests/body/test_lip_heights.py); "philtrum": the groove over the bow up to 1.5 mm deeper than every face's 0.6
# of MakeHuman's (shallower, the upper lip measured taller there too). (The corners tucked back by up to 0.22 of ARKit's
# dimple, too: it lifted them 0.5 mm, the lips even at rest no more, review AA's #3 1.19 -> 1.30 lower over upper,
# tests/body/test_lip_ratio_review_aa.py; the corners are softened by their shading, workbench.body.corner_shade.)
OUTLINE: dict[str, tuple[dict[str, float], dict[str, float], float]] = {
    "bow": ({"mouth/mouth-cupidsbow-incr": 0.45}, {"mouth/mouth-cupidsbow-decr": 0.5}, 1.0),
    "philtrum": ({"mouth/mouth-philtrum-volume-incr": 0.6}, {}, 1.0),
    "corners": ({}, {}, 1.0),   # (none now, see above; its row kept so the stream draws the others as measured)
}
OUTLINE_SEED = 49
# The most of MakeHuman's flatter bow (cupidsbow-decr, which lifts the lip's middle) a face's variety and its outline give
# together: at 1.0 the upper lip's middle stood 13 mm over the corners on a random face (tests/body/test_lip_heights.py
# holds 12, a person's some 7 to 9 from the lips' meeting line).
FLAT_MOST = 0.5
# The prefix a target the rest alone holds takes in a face's weights (workbench.body.shape.face_weights).
REST = "rest:"


def lip_shape(x: np.ndarray) -> dict[str, float]:
    """The lips' height targets (name -> weight) of a face whose variety inputs (settings scaled to about 0..1,
    :func:`workbench.body.shape.face_weights`) are ``x``: each feature of :data:`LIP_SHAPE` a smooth wave over them
    (:func:`~workbench.body.details.waves`)."""
    out: dict[str, float] = {}
    for feature in waves(LIP_SHAPE, SEED, x):
        for k, w in feature.items():
            out[k] = out.get(k, 0.0) + w
    for feature in waves(OUTLINE, OUTLINE_SEED, x):
        for k, w in feature.items():
            out[REST + k] = out.get(REST + k, 0.0) + w
    return out
