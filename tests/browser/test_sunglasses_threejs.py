"""Blind review M, defect 9, in three.js: "a ghost of closed-eye and lid lines shows through a mirror-black lens"
(three.js with ACES filmic and RoomEnvironment, as the review's sheets draw; model-viewer is three.js too). The lens
let nothing through: the browser drew the blended lashes behind it over it (tests/render/test_sunglasses_review_m.py
says why). Measured where the lashes lie behind the lens in the front portrait: the lens's pixels there against the
same lens's smooth reflection around them (a median over 9 px), whose difference the lash lines made."""

from __future__ import annotations

import io

import numpy as np
from PIL import Image
from scipy import ndimage

from .conftest import save_artifact
from .test_studio_colour import SIZE, page, shoot_masked, studio_args  # noqa: F401  (the page fixture)

LUM = np.array([0.2126, 0.7152, 0.0722])
# Review M's #12 (seed 4623), in its essentials: the ghost was clearest on it.
SETTINGS = {"gender": "feminine", "bodyShape": "slim", "skinTone": "#C0997A", "eyeColor": "#5E4035",
            "hair": {"style": "ponytail", "color": "#897058"}, "glasses": "sunglasses"}


def lash_pixels(posed, args: dict) -> np.ndarray:
    """(H, W) bool: the pixels the lashes' vertices (of ``posed``, the model in the page's pose) fall on in the page's
    camera (``args``'s view and fov)."""
    p = np.concatenate([d.positions for d in posed.draws if d.mesh_name == "Eyelashes"]).astype(float)
    view = np.array(args["view"]).reshape(4, 4)
    v = (view @ np.column_stack([p, np.ones(len(p))]).T).T
    t = np.tan(np.radians(args["fov"]) / 2)
    x = ((v[:, 0] / -v[:, 2] / t + 1) / 2 * SIZE).astype(int)
    y = ((1 - v[:, 1] / -v[:, 2] / t) / 2 * SIZE).astype(int)
    out = np.zeros((SIZE, SIZE), bool)
    keep = (x >= 0) & (x < SIZE) & (y >= 0) & (y < SIZE)
    out[y[keep], x[keep]] = True
    return out


def test_no_ghost_of_the_eyes_in_a_sunglass_lens(page, server, tmp_path):  # noqa: F811
    """Over the lashes behind the lens, the lens's luminance differs from its own 9 px median by 2 levels on average
    at most (main: 6.6, the lash lines drawn over the lens; now 0.6, its smooth reflection)."""
    args, _, posed = studio_args(server, SETTINGS)
    args = {**args, "tone": "aces", "background": [236, 238, 242]}
    lit, lens = shoot_masked(page, args, "Glasses")
    lum = lit[..., :3].astype(float) @ LUM
    inner = ndimage.binary_erosion(lens, iterations=2)
    behind = inner & ndimage.binary_dilation(lash_pixels(posed, args), iterations=1)
    residual = np.abs(lum - ndimage.median_filter(lum, size=9))[behind]
    buf = io.BytesIO()
    Image.fromarray(lit, "RGBA").save(buf, format="PNG")
    save_artifact(tmp_path, "sunglasses_review_m.png", buf.getvalue())
    print(f"\nlens over the lashes: {behind.sum()} px, residual mean {residual.mean():.2f}")
    assert behind.sum() > 100, behind.sum()
    assert residual.mean() <= 2.0, residual.mean()
