"""Hair through every clip (issue 36: "skinned to Head/Neck and the spine for long hair, so it follows
every clip without passing through the body"), posed from the GLB as a viewer poses it.

At frames through each of the 18 library clips, every hair vertex is tested against the posed body:
the nearest body vertex of the head or trunk (the arms are left out: an arm raised through hanging
hair is hair pushed aside, which skinning cannot do) and its normal; a vertex more than
:data:`DEPTH` behind that surface is inside. Short, bun and curly hair, on the head, never are;
long hair, lying on shoulders that shrug and rise with raised arms, at most a few vertices and
never deeper than :data:`DEEPEST`. The bob, whose ends turn under towards the neck (blind review E's comb-cut
ends), as long hair: a nodding head brings the neck to a vertex or two of them (3.6 mm deep at most).
"""

import numpy as np
import pytest
from built import built_rest as build_avatar  # one build per run, no face shapes (tests/built.py)
from scipy.spatial import cKDTree

from workbench.body.hair.buzz import PAINTED
from workbench.options import ANIMATIONS, HAIR_STYLES, ModelOptions, normalize_avatar_settings
from workbench.render.scene import Clip, Model

STYLES = [s for s in HAIR_STYLES if s not in PAINTED]   # (styles with hair cards; a buzz cut is painted: test_buzz_review_o)
FRAMES = 4
DEPTH = 0.003
DEEPEST = 0.012
LONG_SHARE = 0.005


# The quick loop keeps one style on one body (short, feminine); every other pair is slow.
@pytest.mark.parametrize("gender,shape", [("feminine", "average"), pytest.param("masculine", "athletic", marks=pytest.mark.slow)])
@pytest.mark.parametrize("style", [pytest.param(s, marks=() if s == "short" else pytest.mark.slow) for s in STYLES])
def test_every_clip_plays_with_the_hair_outside_the_body(style, gender, shape):
    s = normalize_avatar_settings({"gender": gender, "bodyShape": shape, "hair": {"style": style}})
    model = Model(build_avatar(s, ModelOptions(animations=ANIMATIONS)), max_texture=1)
    doc = model.doc
    body = next(m for m in doc["meshes"] if m["name"] == "Body")["primitives"][0]["attributes"]
    joints, weights = model.accessor(body["JOINTS_0"]), model.accessor(body["WEIGHTS_0"])
    names = [doc["nodes"][j]["name"] for j in doc["skins"][0]["joints"]]
    dominant = [names[int(j[np.argmax(w)])] for j, w in zip(joints, weights, strict=True)]
    trunk = np.array(["Arm" not in n and "Hand" not in n for n in dominant])
    assert len(doc["animations"]) == len(ANIMATIONS)
    worst, count, total = 0.0, 0, 0
    for k in range(len(doc["animations"])):
        clip = Clip(model, k)
        for t in np.linspace(0, clip.duration, FRAMES):
            posed = model.posed(clip, float(t))
            b = next(d for d in posed.draws if d.mesh_name == "Body")
            hair = np.concatenate([d.positions for d in posed.draws if d.mesh_name == "Hair"])
            dist, i = cKDTree(b.positions[trunk]).query(hair)
            signed = np.einsum("ij,ij->i", hair - b.positions[trunk][i], b.normals[trunk][i])
            inside = (signed < -DEPTH) & (dist < 0.03)
            worst = max(worst, float(-signed[inside].min()) if inside.any() else 0.0)
            count = max(count, int(inside.sum()))
            total = len(hair)
    if style in ("long", "bob"):
        assert worst < DEEPEST and count <= LONG_SHARE * total, (worst, count, total)
    else:
        assert count == 0, (worst, count)
