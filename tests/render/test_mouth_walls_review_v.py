"""The open mouth's side walls in our renderer (blind review V, defect 4: "the mouth interior is a box ... a flat dark
cavity with hard-edged red polygons on the cheek walls", clearest on sheet-01-ours #4 in mouthOpen and viseme_aa, seed
4632; here #4 and #6, the same walls at another face's width).

The walls at aa's corners are the Teeth mesh's back: the lower back teeth's outer faces, which an open jaw stands
beside the tongue, their normals turned straight out of the mouth as the lining's are (workbench.body.teeth_walls) and
painted the mouth's shadow (workbench.body.mouth.DEEP). Lit at their own red alone, with their reflections taken off
in the cave, the tone curve's toe drew them a pure red (about (47, 6, 3) of 255) beside the lining's soft dark red
(about (45, 21, 14)); they now take the lining's light as far as they lie in the cave (workbench.render.loops.LINED_UP).

Measured as the reviewer saw them: the sheets' mouth close-up (data/make_review_sheets.py's mouth_camera, 12 cm across,
supersampled) at 512 px. The walls are the Teeth mesh's pixels whose texel lies over WALL_DEEP in the mouth's shadow
(workbench.body.mouth's layout), not the tongue, eroded by two pixels: their mean saturation ((max - min) / max per
pixel), and their edge against the lining: the CIE Lab distance (delta E) between the walls' rim (their pixels 1 to 3
from their edge) and the lining's beside it (the body's mouth lining 1 to 3 pixels outside them)."""

from __future__ import annotations

from dataclasses import replace
from functools import cache

import numpy as np
import pytest
from built import built as build_avatar  # one build per run (tests/built.py)
from helpers import UNLIT, random_settings
from scipy.ndimage import binary_dilation, binary_erosion
from test_mouth_renders import lining_texture, painted
from test_smile_gaps_review_p import mouth_camera, with_weights

from workbench.body.mouth import MOUTH_SIZE, TONGUE_V, _layout
from workbench.options import ModelOptions, normalize_avatar_settings
from workbench.options.colour import srgb_to_linear
from workbench.render.pictures import SUPERSAMPLE
from workbench.render.raster import draw
from workbench.render.scene import Material, Model, load_clip

#: Review V's avatars the reviewer named (seed 4632 as the sheets draw it), without hair or glasses (not in the view).
FACES = {k: random_settings(12, 4632, with_added=True, heads=True)[k - 1] for k in (4, 6)}
SIZE = 512
#: The least of the mouth's shadow (0 to 1) a texel of the walls has.
WALL_DEEP = 0.85
#: The most of the walls' mean saturation, and of the delta E across their edge with the lining.
SATURATION, EDGE = 0.85, 6.0


@cache
def glb(k: int) -> bytes:
    s = {**FACES[k], "hair": {"style": "none"}, "glasses": "none"}
    return build_avatar(normalize_avatar_settings(s), ModelOptions(lod=0, animations=("idle",)))


def lab(rgb: np.ndarray) -> np.ndarray:
    """CIE Lab (D65) of sRGB (0..255) colours."""
    xyz = srgb_to_linear(rgb / 255.0) @ np.array([[0.4124, 0.3576, 0.1805], [0.2126, 0.7152, 0.0722],
                                                  [0.0193, 0.1192, 0.9505]]).T / np.array([0.9505, 1.0, 1.089])
    f = np.where(xyz > 0.008856, np.cbrt(xyz), 7.787 * xyz + 16 / 116)
    return np.stack([116 * f[..., 1] - 16, 500 * (f[..., 0] - f[..., 1]), 200 * (f[..., 1] - f[..., 2])], -1)


@cache
def walls(k: int, shape: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """#k's ``shape`` close-up (sRGB float), the mask of the walls in it and of the mouth's lining (see the module)."""
    _, cam = mouth_camera(glb(k))
    g = with_weights(glb(k), {shape: 1.0})
    posed = Model(g, max_texture=2 * SIZE).posed(load_clip(g), 0.0)
    lit = draw(posed, cam, SIZE, ss=SUPERSAMPLE)[..., :3].astype(float)
    deep = _layout()[3]

    def paint(d, colors):
        if d.mesh_name == "Teeth":
            u, v = (np.clip(d.uv * MOUTH_SIZE, 0, MOUTH_SIZE - 1)).astype(int).T
            colors[:, 0] = (deep[v, u] > WALL_DEEP) & (d.uv[:, 1] < TONGUE_V)

    wall = painted(posed, cam, paint)[..., 0] > 127
    flat = Material(color=np.ones(4, np.float32))
    draws = [replace(d, material=replace(flat, texture=lining_texture(FACES[k]["gender"]) if d.mesh_name == "Body"
                                         else None, color=np.array([1, 1, 1, 1] if d.mesh_name == "Body"
                                                                   else [0, 0, 0, 1], np.float32),
                                         double_sided=d.material.double_sided)) for d in posed.draws]
    lining = draw(replace(posed, draws=draws), cam, SIZE, lights=UNLIT)[..., 0] > 127
    return lit, wall, lining


def saturation_and_edge(k: int, shape: str) -> tuple[float, float]:
    """The walls' mean saturation and the delta E across their edge with the lining (see the module)."""
    lit, wall, lining = walls(k, shape)
    inner = binary_erosion(wall, iterations=2)
    px = lit[inner]
    saturation = float(((px.max(1) - px.min(1)) / np.maximum(px.max(1), 1)).mean())
    rim = binary_erosion(wall, iterations=1) & ~binary_erosion(wall, iterations=3)
    beside = lining & binary_dilation(wall, iterations=3) & ~binary_dilation(wall, iterations=1)
    colours = lab(lit)
    return saturation, float(np.linalg.norm(colours[rim].mean(0) - colours[beside].mean(0)))


@pytest.mark.parametrize("k", sorted(FACES))
@pytest.mark.parametrize("shape", ["viseme_aa", "mouthOpen"])
def test_the_walls_are_a_soft_dark_red_one_with_the_lining(k, shape):
    """The walls' mean saturation under SATURATION and the delta E across their edge under EDGE. On main 0.93 to 0.95
    and 8.2 to 9.3 (a pure red, (45-47, 4-6, 2-3) of 255, beside the lining's (45-60, 21, 12-14)); now (the lining's
    light, workbench.render.loops.LINED_UP) 0.74 to 0.80 and 1.9 to 3.9, about as light as before (L* 5.8 to 6.5, main
    6.0 to 6.8), about (37-41, 9-11, 8-10)."""
    assert walls(k, shape)[1].sum() > 300
    saturation, edge = saturation_and_edge(k, shape)
    assert saturation < SATURATION and edge < EDGE, (saturation, edge)
