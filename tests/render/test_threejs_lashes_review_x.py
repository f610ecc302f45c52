"""Blind review X's defect 8 in three.js (issue 46; seed 4634's #10, the sheets' typical page: ACES filmic,
RoomEnvironment, 288 px cells): "lashes become black smudges".

**Lashes as strands, not a smudge.** A lid's lash card is seen nearly end-on from the front, so the browser's
isotropic mip selection took the lash texture's coarse levels, where the strands average into a soft dark band
round the eye; our previews sample the full image and drew strands. The lashes' and brows' textures now carry a
sampler without mipmaps (``minFilter`` LINEAR: three.js and model-viewer then make no smaller levels). Measured on
the mouthOpen close-up (the lashes found with our renderer's drawing from the same camera): the lash pixels' mean
detail, |luminance - its Gaussian blur (sigma 1.5 px)|, 0 to 255, main 10.1, now 24.1.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest
from scipy import ndimage

from workbench.gltf.glb import read_glb

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(Path(__file__).resolve().parent), str(ROOT / "data")]
import make_review_sheets as sheets  # noqa: E402
from test_threejs_aces_review_r import mesh_masks  # noqa: E402

# The worker's one three.js page and the run's shared builds, as the other three.js look files (suite34b).
pytestmark = pytest.mark.usefixtures("sheets_built_once", "sheets_page_once")

LUMA = np.array([0.2126, 0.7152, 0.0722])
CELL = 288
# The least mean detail over the lashes (main 10.1: the smudge; now 24.1).
LEAST = 18.0
# Review X's #10 (sheet 3, row 2).
INDEX = 9


def min_filters(glb: bytes) -> dict[str, int]:
    """Each material's base colour texture's sampler ``minFilter``, by material name."""
    doc, _ = read_glb(glb)
    out = {}
    for m in doc["materials"]:
        tex = m.get("pbrMetallicRoughness", {}).get("baseColorTexture")
        if tex is not None:
            out[m["name"]] = doc["samplers"][doc["textures"][tex["index"]]["sampler"]]["minFilter"]
    return out


@pytest.mark.slow
def test_lashes_read_as_strands_in_threejs(monkeypatch):
    monkeypatch.setattr(sheets, "VIEWS", (("mouthOpen", "mouth", 0.0, "mouthOpen"),))
    s = sheets.review_settings(12, 4634)[INDEX]
    assert (s["skinTone"], s["hair"]) == ("#F0C4B1", {"style": "short", "color": "#503E34"}), s
    avatar = sheets.Avatar(s)
    # The lash and brow hairs from the full-size image, the skin and the rest trilinear.
    filters = min_filters(avatar.glb)
    assert filters["Eyelashes"] == filters["Eyebrows"] == 9729, filters
    assert filters["Skin"] == 9987, filters
    glb, (_, cam, _) = avatar.files[0], avatar.cameras[0]
    lashes = mesh_masks(glb, cam, CELL)["Eyelashes"]
    assert lashes.sum() > 1000, int(lashes.sum())
    shot = np.asarray(sheets.shoot_threejs([avatar], CELL, "typical")[0][0].convert("RGB"), float) @ LUMA
    detail = float(np.abs(shot - ndimage.gaussian_filter(shot, 1.5))[lashes].mean())
    assert detail >= LEAST, round(detail, 2)
