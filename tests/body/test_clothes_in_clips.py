"""Every cut of clothes on the move: each top and bottom, skinned to the avatar's skeleton, plays every
library clip with no skin through the cloth and no bottom through the top.

Measured on the GLB as a viewer poses it (``workbench.render.scene.Model``): the skin a garment covers at
rest is the body's vertices (those the avatar keeps: the skin well inside the clothes is left out of
``Body``) behind the garment's nearest vertex on its outside (for the skin, not its rolled edges and
facings, which face out past its edges and in: against a facing a belly under a hem read as through it),
within 6 cm of it, where that vertex lies 1.5 cm or more inside the garment's
rims; in each frame every such vertex must stay behind one of the tangent planes
of its 3 nearest garment vertices at rest, as they move (its offset along that vertex's normal at most
``TOLERANCE``: where a sleeve comes down against the body's side, the nearest cloth in the frame may be
the sleeve's inside, which says nothing). The same for the bottom's vertices under the top. Each cut is checked on another body, so every cut meets slim and heavy,
feminine and masculine builds.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
import pytest
from built import built_rest as build_avatar  # one build per run, no face shapes (tests/built.py)
from helpers import sweep, worst_outside
from scipy.spatial import cKDTree

from workbench.body.outfit.pattern import pattern
from workbench.gltf.clips import DURATIONS
from workbench.options import ANIMATIONS, BOTTOM_STYLES, TOP_STYLES, ModelOptions, normalize_avatar_settings
from workbench.render.scene import Model

TOLERANCE = 0.002
FRAMES = 4
BUILDS = [("feminine", "slim"), ("masculine", "heavy"), ("feminine", "heavy"), ("masculine", "slim"),
          ("feminine", "average"), ("masculine", "athletic")]
CUTS = [(top, bottom, *BUILDS[(i + j) % len(BUILDS)]) for i, top in enumerate(TOP_STYLES)
        for j, bottom in enumerate(BOTTOM_STYLES)]


@lru_cache(maxsize=2)
def model(top, bottom, gender, shape) -> Model:
    settings = normalize_avatar_settings({"gender": gender, "bodyShape": shape, "hair": {"style": "none"},
                                          "outfit": {"topStyle": top, "bottomStyle": bottom}})
    return Model(build_avatar(settings, ModelOptions(animations=ANIMATIONS)))


def _away_from_rims(positions: np.ndarray, tris: np.ndarray, margin: float) -> np.ndarray:
    """Per vertex: at least ``margin`` from every vertex on the mesh's open edges (welded by position)."""
    _, first, weld = np.unique(np.round(positions, 6), axis=0, return_index=True, return_inverse=True)
    t = first[weld.reshape(-1)][tris]
    edges = np.sort(np.concatenate([t[:, [0, 1]], t[:, [1, 2]], t[:, [2, 0]]]), axis=1)
    pairs, count = np.unique(edges, axis=0, return_counts=True)
    rim = positions[np.unique(pairs[count == 1])]
    return cKDTree(rim).query(positions)[0] >= margin


def covered(inner, outer, shell: int | None = None) -> tuple[np.ndarray, np.ndarray]:
    """``inner``'s vertices (a Draw at rest) under the garment ``outer`` (a Draw at rest): their indices
    and, for each, its 3 nearest garment vertices of its first ``shell`` (the cloth's outside: after them
    come its rolled edges and the facings turned in under them, whose normals face past the edges or in,
    and a shoe's sole and laces)."""
    shell = len(outer.positions) if shell is None else shell
    deep = _away_from_rims(outer.positions, outer.tris, 0.015)[:shell]
    dist, k = cKDTree(outer.positions[:shell]).query(inner.positions, k=3)
    behind = np.einsum("nc,nc->n", inner.positions - outer.positions[k[:, 0]], outer.normals[k[:, 0]]) < 0
    keep = np.flatnonzero(behind & (dist[:, 0] < 0.06) & deep[k[:, 0]])
    return keep, k[keep]


# One case is a known fault since the skirt hangs in folds from a narrower cone (review G's "lampshade"): a heavy
# feminine body's skirt comes 2.5 to 4.3 mm through its tee where the jump and run clips lift the thighs. The old
# cone (a flare of 14 cm a metre) clears it, but then a hoodie's hem over the skirt steps 4.2 to 5.1 mm
# (test_clothes.py's smooth hems), and a top held 12 mm (not 8) off the skirt does not move it: the thigh's
# weights under the skirt's front, not the gap. Strict: it fails as soon as the fault is fixed.
KNOWN = {("tee", "skirt", "feminine", "heavy"): pytest.mark.xfail(
    strict=True, reason="skirt through a heavy body's tee in jump and run by 2.5-4.3 mm (see KNOWN)")}


def _known(params: list) -> list:
    return [pytest.param(*p.values, marks=[*p.marks, KNOWN[p.values]] if p.values in KNOWN else p.marks)
            for p in params]


# First, so that the sweep's first cut (the same top, bottom and body) is the model this test built (``model``'s
# cache): one build and parse of every clip fewer, which the sweep after it made again when it ran last.
def test_the_check_sees_skin_through_a_garment():
    """Pulled 3 cm in along its normals, the top no longer covers the skin it covered: the check fails."""
    from dataclasses import replace

    m = model(*CUTS[0])
    rest = {d.mesh_name: d for d in m.posed().draws}
    idx, near = covered(rest["Body"], rest["Outfit_Top"])
    top = rest["Outfit_Top"]
    skin = rest["Body"].positions[idx].astype(np.float64)
    assert worst_outside(skin, top, near) <= TOLERANCE
    assert worst_outside(skin, replace(top, positions=top.positions - 0.03 * top.normals), near) > TOLERANCE


# Every top, bottom and body in the quick loop, every cut in the whole suite (helpers.sweep).
@pytest.mark.parametrize("top,bottom,gender,shape", _known(sweep(CUTS)))
def test_no_skin_or_bottom_through_the_clothes_in_any_clip(top, bottom, gender, shape):
    m = model(top, bottom, gender, shape)
    rest = {d.mesh_name: d for d in m.posed().draws}
    pairs = [("Body", "Outfit_Top"), ("Body", "Outfit_Bottom"), ("Outfit_Bottom", "Outfit_Top")]
    shell = {"Outfit_Top": len(pattern(top)["vmap"]), "Outfit_Bottom": len(pattern(bottom)["vmap"])}
    under = {pair: covered(rest[pair[0]], rest[pair[1]], shell[pair[1]]) if pair[0] == "Body"
             else covered(rest[pair[0]], rest[pair[1]]) for pair in pairs}
    # Something under each garment to judge by (most skin under the clothes is left out of the body: what
    # stays is its edge and the skin near the rims).
    assert all(len(v[0]) > 10 for v in under.values()), {p: len(v[0]) for p, v in under.items()}
    from workbench.render.pictures import _closest_gender_clip

    bad = []
    for name in ANIMATIONS:
        clip = _closest_gender_clip(m, name)
        for t in DURATIONS[name] * np.arange(FRAMES) / FRAMES:
            draws = {d.mesh_name: d for d in m.posed(clip, float(t)).draws}
            for (inner, outer), (idx, near) in under.items():
                w = worst_outside(draws[inner].positions[idx].astype(np.float64), draws[outer], near)
                if w > TOLERANCE:
                    bad.append((name, round(float(t), 2), inner, outer, round(w, 4)))
    assert not bad, bad
