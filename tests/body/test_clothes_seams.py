"""Tops' sleeves follow the arm, and every garment is sewn (blind review F, defect 7: "the sleeves balloon";
"no seams, prints, trims or layers").

- A long sleeve stands at most :data:`SLEEVE_EASE` off the forearm half way down it (the cloth's distance from the
  shoulder-to-wrist axis less the skin's, medians over a 3 cm slice of the T-posed body): hung from the
  shoulder's ring with no room to come in, a hoodie's sleeve kept the shoulder's radius down to its cuff, 4.7 cm
  off the forearm of review F's avatar #1, and the gathered cuff bloused it into a balloon.
- Each garment's texture draws its seams and pockets (:mod:`workbench.body.outfit.seams`) as lines a figure's
  picture shows: the shading on a seam's line is at least :data:`SEWN` darker than the cloth 6 to 10 texels off
  it, over at least :data:`LENGTH` metres of line.
"""

from __future__ import annotations

import numpy as np
import pytest

from workbench.body.mesh import body_mesh
from workbench.body.outfit.cloth import CLOTH_SIZE, seam_distances, shading
from workbench.body.outfit.drape import Frame
from workbench.body.outfit.garments import dressed
from workbench.body.outfit.pattern import pattern
from workbench.options import normalize_avatar_settings

SLEEVE_EASE = 0.03
SEWN = 0.2
LENGTH = {"tee": 3.0, "longsleeve": 3.0, "hoodie": 4.0, "trousers": 3.5, "shorts": 2.5, "skirt": 0.8}


@pytest.fixture(scope="module")
def bodies():
    return {key: body_mesh(normalize_avatar_settings({"gender": key[0], "bodyShape": key[1]}))
            for key in (("feminine", "heavy"), ("masculine", "average"))}


@pytest.mark.parametrize("key", [("feminine", "heavy"), ("masculine", "average")])
@pytest.mark.parametrize("top", ["longsleeve", "hoodie"])
def test_a_long_sleeve_follows_the_forearm(bodies, key, top):
    mesh = bodies[key]
    pat = pattern(top)
    sk = mesh.skeleton
    arm, hand = sk.pos("LeftArm").astype(np.float64), sk.pos("LeftHand").astype(np.float64)
    frame = Frame(arm, hand - arm, [0.0, 0.0, 1.0])
    at = 0.65 * np.linalg.norm(hand - arm)
    s, _, r, _ = frame.local(dressed(mesh, top, "trousers").points[:len(pat["shares"])])
    sleeve = (pat["shares"][:, 2] > 0.9) & (np.abs(s - at) < 0.015)
    sb, _, rb, _ = frame.local(mesh.positions[mesh.groups["body"]].astype(np.float64))
    skin = (np.abs(sb - at) < 0.015) & (rb < 0.09)
    assert sleeve.sum() > 8 and skin.sum() > 8
    off = float(np.median(r[sleeve]) - np.median(rb[skin]))
    assert off < SLEEVE_EASE, f"{top} on {key}: the sleeve stands {off * 100:.1f} cm off the forearm"


@pytest.mark.parametrize("name", sorted(LENGTH))
def test_every_garment_is_sewn(name):
    texel = float(pattern(name)["uv_scale"]) / CLOTH_SIZE
    d = seam_distances(name, CLOTH_SIZE) / texel
    shade = shading(name)
    on, off = d < 0.5, (d > 6) & (d < 10)
    # (A line's texels within half a texel of it: about one texel per texel of its length.)
    length = on.sum() * texel
    assert length > LENGTH[name], f"{name}: {length:.2f} m of seams"
    ratio = float(shade[on].mean() / shade[off].mean())
    assert ratio < 1 - SEWN, f"{name}: its seams' shade is {ratio:.2f} of the cloth's beside them"
