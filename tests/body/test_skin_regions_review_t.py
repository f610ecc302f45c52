"""Blind review T's defect 9, "plastic, featureless skin": a bald dome's "uniform sheen" (#6, #1), "no redness at the
nose, ears or cheeks", "should be: varied roughness (shinier T-zone, matte cheeks)" and "warmth at the ears and nose".

Read from the avatar's GLB as a viewer reads it (tests/built.py's build of review T's #6, #71502F, and #1, #3B2A22, both
bald and masculine: ``random_settings(12, 4630, with_added=True)``): the Skin material's roughness map (its green
channel) and base colour texture, each place found by the skin's own masks (:func:`workbench.body.skin.features`)
and, for the scalp, by where each texel lies on the reference body."""

from __future__ import annotations

import io
from functools import cache

import numpy as np
import pytest
from built import sheet_glb_rest as sheet_glb  # one build per run, no face shapes (tests/built.py)
from helpers import random_settings
from PIL import Image

from workbench.body import pores
from workbench.body.skin import SKIN_SIZE, features, reference_body
from workbench.body.texels import texel_map
from workbench.body.tone import lab
from workbench.gltf.glb import read_glb

T = random_settings(12, 4630, with_added=True)
BALD = (6, 1)        # the reviewer's numbers (#N is T[N - 1])


def test_the_avatars_are_the_reviews():
    """#6 and #1 are review T's bald mid-brown and deepest tones (its sheet's seed: ``random_settings(12, 4630, with_added=True)``)."""
    assert [(T[n - 1]["skinTone"], T[n - 1]["hair"]["style"]) for n in BALD] == [("#71502F", "none"), ("#3B2A22", "none")]


@cache
def skin_maps(n: int) -> tuple[np.ndarray, np.ndarray]:
    """Review T's #``n``'s Skin material as its GLB holds it: the base colour (SKIN_SIZE, SKIN_SIZE, 3) in 0..1 (sRGB)
    and the roughness (green channel) in 0..1, both at SKIN_SIZE (the roughness map enlarged, nearest texel)."""
    doc, binary = read_glb(sheet_glb(T[n - 1]))
    skin = next(m for m in doc["materials"] if m.get("name", "").startswith("Skin"))

    def image(texture: dict) -> Image.Image:
        view = doc["bufferViews"][doc["images"][doc["textures"][texture["index"]]["source"]]["bufferView"]]
        start = view.get("byteOffset", 0)
        return Image.open(io.BytesIO(binary[start:start + view["byteLength"]]))

    pbr = skin["pbrMetallicRoughness"]
    colour = image(pbr["baseColorTexture"]).convert("RGB").resize((SKIN_SIZE, SKIN_SIZE), Image.Resampling.NEAREST)
    rough = image(pbr["metallicRoughnessTexture"]).convert("RGB").resize((SKIN_SIZE, SKIN_SIZE), Image.Resampling.NEAREST)
    return np.asarray(colour, float) / 255, np.asarray(rough, float)[..., 1] / 255 * pbr.get("roughnessFactor", 1.0)


def region(gender: str, name: str, least: float = 0.5, without: tuple[str, ...] = ()) -> np.ndarray:
    """Flat texel indices where the skin's ``name`` mask is over ``least`` and none of ``without`` is drawn."""
    f = features(gender)
    at, w = f[name]
    on = np.zeros(SKIN_SIZE * SKIN_SIZE, bool)
    on[at[w > least]] = True
    for k in without:
        on[f[k][0]] = False
    return np.flatnonzero(on)


@cache
def scalp(gender: str) -> np.ndarray:
    """Flat texel indices of the top of the head: on the reference body 8 cm or more over the eyes' centres."""
    m = reference_body(gender)
    faces = m.face_groups["body"]
    tris = m.triangles[faces]
    y = texel_map(m.triangle_uvs[faces], SKIN_SIZE).paint_vertices(tris, m.positions)[..., 1].reshape(-1)
    return np.flatnonzero(y > m.positions[m.groups["helper-l-eye"]].mean(0)[1] + 0.08)


@pytest.mark.parametrize("n", BALD)
def test_the_t_zone_shines_and_the_cheeks_are_matte(n):
    """The cheeks' median roughness is 0.16 or more over the T-zone's (forehead, nose). On main 0.106 for both (0.569
    against 0.675: one sheen over the face); now 0.188 (0.529 against 0.718, workbench.body.pores.ROUGHNESS)."""
    g = T[n - 1]["gender"]
    _, rough = skin_maps(n)
    rough = rough.reshape(-1)
    tzone, cheeks = rough[region(g, "tzone")], rough[region(g, "flush", without=("tzone",))]
    assert np.median(cheeks) - np.median(tzone) >= 0.16, (np.median(tzone).round(3), np.median(cheeks).round(3))


@pytest.mark.parametrize("n", BALD)
def test_a_bald_scalp_is_oilier_and_drier_in_patches(n):
    """Over the top of the head the roughness wanders (standard deviation 0.03 or more, a few centimetres across) about
    the body's (workbench.body.pores.BODY, 0.6). On main 0.0074: one even sheen over the dome; now 0.039 (mean 0.594, was 0.573 before the mottle's mean over the scalp was taken out; workbench.body.pores.SCALP_VARY)."""
    _, rough = skin_maps(n)
    top = rough.reshape(-1)[scalp(T[n - 1]["gender"])]
    assert abs(top.mean() - pores.BODY) < 0.03 and top.std() >= 0.03, (top.mean().round(3), top.std().round(4))


@pytest.mark.parametrize("n", BALD)
def test_nose_tip_and_ears_are_redder_than_the_forehead(n):
    """In the skin's colour, the nose tip and ears 5.5 a* or more over the forehead on mid and deep tones (the pale
    tone's as before). On main #6 4.3, #1 3.7; now 6.9 and 6.3 (workbench.body.skin.WARM_RED). (The cheeks' flush
    is held by review F's bound, redness showing less on deep skin: 2.6 and 2.2 a*, as on main.)"""
    g = T[n - 1]["gender"]
    colour, _ = skin_maps(n)
    colour = colour.reshape(-1, 3)

    def a_star(at: np.ndarray) -> float:
        return float(lab(np.median(colour[at], 0))[1])

    forehead = a_star(region(g, "tzone", 0.9, without=("brows", "warm", "lids", "flush")))
    assert a_star(region(g, "warm", 0.7)) - forehead >= 5.5, round(a_star(region(g, "warm", 0.7)) - forehead, 1)
