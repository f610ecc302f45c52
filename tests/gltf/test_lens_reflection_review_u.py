"""Blind review U, defect 10: "The aviators on #8 glare white over the eyes in sheet-02-threejs col 6-8 ... Make the
lenses slightly tinted and low-reflectance so the eyes show through." A see-through lens (clear, round, aviator)
reflects at :data:`workbench.body.glasses.LENS_SPECULAR` of glTF's dielectric strength (``KHR_materials_specular``'s
factor times its texture's alpha over the lens); its frame, and the sunglasses, as before.

Measured in the GLB at the lens's texels: main 1.0 (no ``KHR_materials_specular`` on the glasses: the full 4 %); here
0.3. In three.js (data/make_review_sheets.py's typical page, #8's portrait): the lenses' mean luminance over the eyes
0.089 -> 0.055, the share brighter than 0.25 (linear) 6.5 % -> 2.9 %."""

from __future__ import annotations

import io

import numpy as np
import pytest
from built import built
from helpers import random_settings
from PIL import Image

from workbench.gltf.glb import image_bytes, read_accessor, read_glb
from workbench.options import ModelOptions, normalize_avatar_settings

# Review U's #8's body (helpers.random_settings: review U's sheets' seed) in the aviators that glared, and the
# default faces in each see-through style.
U8 = random_settings(12, 4631, with_added=True, heads=True)[7]
CASES = {"U#8-body": {k: U8[k] for k in ("gender", "bodyShape", "height", "glasses")},
         **{k: {"gender": "feminine", "glasses": k} for k in ("clear", "round")}}


def lens_reflection(settings: dict) -> tuple[float, float]:
    """(the frame's, the lens's) specular strength of the GLB's ``Glasses`` primitives: the material's
    ``specularFactor`` times its ``specularTexture``'s alpha at each texel the primitive's vertices use (the lens's:
    those whose colour is translucent), the median over each part's vertices; 1.0 without the extension."""
    doc, binary = read_glb(built(normalize_avatar_settings(settings), ModelOptions()))

    def texture(info: dict) -> np.ndarray:
        src = doc["textures"][info["index"]]["source"]
        return np.asarray(Image.open(io.BytesIO(image_bytes(doc, binary, src))).convert("RGBA"), float) / 255

    mesh = next(m for m in doc["meshes"] if m["name"] == "Glasses")
    frame, lens = [], []
    for prim in mesh["primitives"]:
        mat = doc["materials"][prim["material"]]
        uv = read_accessor(doc, binary, prim["attributes"]["TEXCOORD_0"])
        colour = texture(mat["pbrMetallicRoughness"]["baseColorTexture"])
        h, w = colour.shape[:2]
        px = (np.clip(uv[:, 0] * w, 0, w - 1).astype(int), np.clip(uv[:, 1] * h, 0, h - 1).astype(int))
        spec = mat.get("extensions", {}).get("KHR_materials_specular")
        strength = np.ones(len(uv))
        if spec is not None:
            strength *= spec.get("specularFactor", 1.0)
            if "specularTexture" in spec:
                s = texture(spec["specularTexture"])
                strength *= s[(px[1] * s.shape[0] // h, px[0] * s.shape[1] // w)][:, 3]
        clear = colour[px[1], px[0], 3] < 0.99
        lens += list(strength[clear])
        frame += list(strength[~clear])
    return float(np.median(frame)), float(np.median(lens))


@pytest.mark.parametrize("name", list(CASES))
def test_a_see_through_lens_reflects_a_third_of_a_bare_surface(name):
    """The lens's reflection at most 0.35 of glTF's dielectric (main: 1.0), the frame's full (0.95 or more)."""
    frame, lens = lens_reflection(CASES[name])
    assert lens <= 0.35, f"{name}: the lens reflects {lens:.2f} of a bare dielectric"
    assert frame >= 0.95, f"{name}: the frame reflects {frame:.2f}"
