"""Blind review U's shoes (defect 10, shoes 4.5, three.js 4): "Generic low-detail sneakers and rubber-boot booties (#5,
#6, #10). They read as blobs at full-figure scale. In three.js the light shoes blow out to white (#9). Should be: a
readable sole, a toe cap and laces."

Measured in the sheets' full-figure front view (our renderer, the idle pose's first frame) at twice the sheet's cell
(576 px: a shoe some 40 pixels long) on review U's #9 (pale #CBF8A1 sneakers) and #10 (#3C967D boots): each part of the
shoe found by its band of the shoe's texture (:data:`workbench.body.outfit.shoes.UV`, the same drawing with the shoe in
a texture of one flat label per band) and its mean colour's CIELAB L* against the upper's. On main a shoe was an upper
of one colour: no toe cap (0 of the shoe's pixels), #9's white sole and white laces 0.5 and 6.8 L* from
its pale upper; now a toe cap on 12 % and 6 % of #9's and #10's shoe pixels, 40.7 and 16.1 L* from the upper, #9's
gum sole 43.8 and dark laces 83.9 from its upper (docs/avatars.md, shoes31).
"""

from __future__ import annotations

from dataclasses import replace
from functools import cache

import helpers
import numpy as np
import pytest
from built import sheet_glb_rest as sheet_glb  # one build per run, no face shapes (tests/built.py)

from workbench.body.outfit import shoes
from workbench.body.tone import lab
from workbench.gltf.textures import SHOE_SIZE
from workbench.render.framing import frame
from workbench.render.raster import draw
from workbench.render.scene import Material, Model, Texture, load_clip

SIZE = 576
# Review U's draw (data/make_review_sheets.py --count 12 --seed 4631): #9 and #10.
AVATARS = {n: helpers.random_settings(12, 4631, with_added=True, heads=True)[n - 1] for n in (9, 10)}
# Each band's label in the parts' drawing (R, G, B over 200, the others under 55): a blend of two at a band's edge is
# neither.
LABELS = {"upper": (1, 0, 0), "sole": (0, 1, 0), "lace": (0, 0, 1), "cap": (1, 1, 1)}
UNLIT = replace(helpers.UNLIT, rim_sheen=0)  # the shared unlit lights, with no rim sheen either


@cache
def parts(n: int) -> tuple[np.ndarray, dict[str, np.ndarray]]:
    """Avatar #``n``'s front full figure (RGB, 0..255) and, per part of its shoes (:data:`LABELS`), its pixels."""
    glb = sheet_glb(AVATARS[n])
    posed = Model(glb).posed(load_clip(glb), 0.0)
    cam = frame(posed, "full")
    shot = draw(posed, cam, SIZE, background=(235, 237, 242))[..., :3].astype(np.float64)
    size = SHOE_SIZE
    v = (np.arange(size) + 0.5) / size
    label = np.zeros((size, size, 4), np.uint8)
    label[..., 3] = 255
    for part, colour in LABELS.items():
        if part in shoes.UV:
            lo, hi = shoes.UV[part]
            label[(v >= lo - 0.01) & (v <= hi + 0.01)] = (*(255 * np.array(colour)), 255)
    label[v < shoes.UPPER] = (255, 0, 0, 255)
    mask = Texture(label.view(np.uint32).reshape(-1), size, size, False, 33071, 33071)
    lit = Material(color=np.ones(4, np.float32), specular=0.0, texture=mask)
    dark = Material(color=np.array([0, 0, 0, 1], np.float32), specular=0.0)
    draws = [replace(d, material=replace(lit, double_sided=d.material.double_sided) if d.mesh_name == "Outfit_Footwear"
                     else dark) for d in posed.draws]
    flat = draw(replace(posed, draws=draws), cam, SIZE, lights=UNLIT)[..., :3]
    out = {}
    for part, colour in LABELS.items():
        on = np.array(colour, bool)
        out[part] = (flat[..., on] > 200).all(-1) & (flat[..., ~on] < 55).all(-1)
    return shot, out


def lightness(shot: np.ndarray, mask: np.ndarray) -> float:
    return float(lab(shot[mask].mean(0) / 255.0)[0])


@pytest.mark.parametrize("n", [9, 10])
def test_a_toe_cap_stands_apart_from_the_upper(n):
    """The toe cap: at least a twentieth of the shoes' pixels seen from the front, their L* at least
    14 from the upper's (main: none)."""
    shot, part = parts(n)
    shoe = sum(m.sum() for m in part.values())
    assert part["cap"].sum() >= 0.05 * shoe, (n, part["cap"].sum(), shoe)
    assert abs(lightness(shot, part["cap"]) - lightness(shot, part["upper"])) >= 14, n


def test_a_pale_sneakers_sole_and_laces_are_not_its_upper():
    """#9's sole and laces at least 15 L* from its pale upper (main: its white sole 0.5, its white laces 6.8)."""
    shot, part = parts(9)
    upper = lightness(shot, part["upper"])
    assert abs(lightness(shot, part["sole"]) - upper) >= 15
    assert abs(lightness(shot, part["lace"]) - upper) >= 15

