"""Review I's hairline (issue 46, defect 5: "a hard, spiky brown (or pale grey) zigzag decal sits on the forehead
below and apart from the hair mesh", three.js portraits, faintly model-viewer; ours hid it), measured on the hair's
atlas as a browser samples it: its mipmaps (each level a box average of the one above, as WebGL makes them).

- The scalp layer's fade (the atlas's right half, ``v`` in hairlines over ``V_END``): a texel is 2 mm round the
  head, so its single strands past the opaque fill were bars that wide with hard ends. Past the fill the layer's
  alpha changes slowly round the head (at most :data:`MOST_GRAIN` off its mean over 16 texels, at the first two
  levels; main 0.24-0.26 and 0.12-0.19).
- The fringe's wisp cards (a few millimetres by a centimetre or two): over their column's whole height, some 60 texel
  rows a millimetre, a browser drew each from its mipmaps' smallest levels, whose texels span the columns beside
  it: a flat brown bar (the comb). At most :data:`MOST_ROWS_PER_MM` rows a millimetre; their alpha at most
  :data:`MOST_WISP` (main 0.12-0.15) and half that or less over the card's last half.
"""

import numpy as np
import pytest
from scipy.ndimage import uniform_filter1d

from workbench.body.hair import texture as T
from workbench.body.hair.pieces import hair_pieces
from workbench.body.mesh import body_mesh
from workbench.options import normalize_avatar_settings

STYLES = ("short", "long", "bun", "curly", "ponytail", "bob")
MOST_GRAIN = 0.1
MOST_WISP = 0.09
MOST_ROWS_PER_MM = 16


def _mip(a: np.ndarray, k: int) -> np.ndarray:
    h, w = a.shape
    return a.reshape(h // k, k, w // k, k).mean((1, 3))


@pytest.mark.parametrize("style", STYLES)
def test_the_scalp_layers_hairline_is_a_smooth_low_fade(style):
    a = T.hair_texture("#443227", style)[:, T.WIDTH // 2:, 3].astype(float) / 255
    for k in (1, 2):
        m = _mip(a, k)
        h = (np.arange(len(m)) + 0.5) / len(m) * T.V_END
        past = m[(h > 0.96) & (h < 1.3)]
        grain = np.abs(past - uniform_filter1d(past, 16 // k + 1, axis=1, mode="wrap")).max()
        assert grain <= MOST_GRAIN, (style, k, float(grain))


@pytest.mark.parametrize("style", ["short", "long", "curly"])
def test_the_fringes_wisps_are_faint_and_drawn_from_fine_mip_levels(style):
    """A wisp card takes few texel rows per millimetre of its length (so a browser samples it from a level
    where its column is several texels wide and keeps to itself), and its column's alpha is faint and fades."""
    m = body_mesh(normalize_avatar_settings({"gender": "feminine"}))
    fringe = hair_pieces(m, style, 0)["Hair_Fringe"]
    u0 = T.CLUMPS * 0.5 / T.COLUMNS
    tris = fringe.indices[((fringe.uv[fringe.indices, 0] > u0) & (fringe.uv[fringe.indices, 0] < 0.5)).all(1)]
    assert len(tris)
    dv = np.abs(fringe.uv[tris[:, 1], 1] - fringe.uv[tris[:, 0], 1]) * T.HEIGHT
    dp = np.linalg.norm(fringe.positions[tris[:, 1]] - fringe.positions[tris[:, 0]], axis=1) * 1000
    ok = dv > 1
    density = float(np.median(dv[ok] / dp[ok]))
    assert density <= MOST_ROWS_PER_MM, (style, density)
    a = T.hair_texture("#443227", style)[..., 3].astype(float) / 255
    cw = T.WIDTH // 2 // T.COLUMNS
    for c in range(T.CLUMPS, T.COLUMNS):
        bar = a[:, c * cw:(c + 1) * cw].mean(1)[: T.HEIGHT // T.WISP_ROWS].reshape(8, -1).mean(1)
        assert bar.max() <= MOST_WISP, (style, c, np.round(bar, 2))
        assert bar[4:].max() <= bar.max() / 2, (style, c, np.round(bar, 2))
