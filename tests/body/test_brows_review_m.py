"""Blind review M: "a doubled or shadowed eyebrow band (#1, #2; in model-viewer a visible second, lighter 'shadow
brow' band on #2)". The brows' hairs are on a shell (``Eyebrows``, :mod:`workbench.body.brows`), placed over the
avatar's eyes; the skin held a soft painted brow too (the ``brows`` mask, :mod:`workbench.body.skin`), drawn on the
reference face and carried by the skin's UVs, so a face's shapes (brow ridge, brow angle, eye size) moved it away from
the hairs: on #2 it lay up to 6 mm under them, a second band.

Measured on the skin texture the avatar wears, where the hairs are not (their cover under 0.1 at the shell's UVs, over
the shell's triangles, per slice along each brow): how much darker that skin is than the same texture drawn with the
``brows`` mask emptied (anything the skin paints at the brow, in any colour), in 8-bit luma levels. On ef1b4f6 (before
054cabc): #2 up to 19.6, #3 3.0 (#1 0.1); now 0 (no brow is painted: the hairs and their soft cover are the brow).
(Until code review 21 this compared two textures differing only in the brow colour, which the skin no longer reads:
it could not fail.)
"""

from __future__ import annotations

import numpy as np
import pytest
from helpers import random_settings

from workbench.body import skin
from workbench.body.brows import BROW_SIZE, brow_piece, brow_texture
from workbench.body.mesh import body_mesh
from workbench.body.skin import SKIN_SIZE, skin_texture
from workbench.options import normalize_avatar_settings

# The most a slice's skin beside the hairs may be darker than with no brow mask (8-bit luma levels).
BESIDE = 1.0
LUMA = np.array([0.2126, 0.7152, 0.0722])
# Sample points per shell triangle's side (barycentric grid): 16 since the feminine brows grew (brows46: at 12, #2 had
# 49 bare samples in a slice, the guard 50).
GRID = 16


def _grid() -> np.ndarray:
    a, b = np.meshgrid(np.arange(GRID) + 0.5, np.arange(GRID) + 0.5)
    inside = (a + b) < GRID
    ab = np.column_stack([a[inside], b[inside]]) / GRID
    return np.column_stack([ab, 1 - ab.sum(1)])


def unbrowed(tone: str, gender: str) -> np.ndarray:
    """:func:`skin_texture` of ``tone`` drawn (not from its cache) with the skin's ``brows`` mask emptied."""
    masks = dict(skin.features(gender))
    at, w = masks["brows"]
    masks["brows"] = (at, np.zeros_like(w))
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(skin, "features", lambda g, size=SKIN_SIZE: masks)
        return skin_texture.__wrapped__(tone, gender)


def painted_beside(settings: dict) -> np.ndarray:
    """Per slice along each brow (seven a side, over the middle 80 % of its hairs), the skin texture's mean darkening
    by what is painted at the brow (luma levels) where the hairs' cover is under 0.1."""
    s = normalize_avatar_settings(settings)
    mesh, gender = body_mesh(s), s["gender"]
    shell = brow_piece(mesh, gender)
    cover = brow_texture("#2B1B10", gender)[..., 3].astype(np.float32) / 255
    tone = s["skinTone"]
    painted = (unbrowed(tone, gender).astype(np.float64) @ LUMA
               - skin_texture(tone, gender).astype(np.float64) @ LUMA)
    faces = mesh.face_groups["body"]
    body_tris = mesh.triangles[faces]
    lookup = {tuple(sorted(t)): i for i, t in enumerate(body_tris.tolist())}
    bary = _grid()
    points, hairs, paint = [], [], []
    for tri in shell.indices:
        src = shell.source[tri]
        i = lookup[tuple(sorted(src.tolist()))]
        order = [int(np.flatnonzero(body_tris[i] == v)[0]) for v in src]
        skin_uv = bary @ mesh.triangle_uvs[faces][i][order].astype(np.float64)     # v up
        shell_uv = bary @ shell.uv[tri].astype(np.float64)                         # glTF's, v down
        points.append(bary @ mesh.positions[src].astype(np.float64))
        hairs.append(cover[np.clip((shell_uv[:, 1] * BROW_SIZE[0]).astype(int), 0, BROW_SIZE[0] - 1),
                           np.clip((shell_uv[:, 0] * BROW_SIZE[1]).astype(int), 0, BROW_SIZE[1] - 1)])
        paint.append(painted[np.clip(((1 - skin_uv[:, 1]) * SKIN_SIZE).astype(int), 0, SKIN_SIZE - 1),
                             np.clip((skin_uv[:, 0] * SKIN_SIZE).astype(int), 0, SKIN_SIZE - 1)])
    p, a, b = np.concatenate(points), np.concatenate(hairs), np.concatenate(paint)
    out = []
    for side in (1.0, -1.0):
        mine = p[:, 0] * side > 0
        x = p[:, 0] * side
        edges = np.percentile(x[mine & (a > 0.3)], np.linspace(10, 90, 8))
        for lo, hi in zip(edges[:-1], edges[1:], strict=True):
            q = mine & (x >= lo) & (x < hi)
            bare = q & (a < 0.1)
            assert bare.sum() > 50, "no bare skin in the shell's slice"
            out.append(b[bare].mean())
    return np.array(out)


@pytest.mark.parametrize("index", [1, 2, 3])
def test_no_brow_painted_beside_the_hairs(index):
    """Review M's #1 and #2 (and #3, under sunglasses): one brow, the hairs'; no painted band beside them."""
    beside = painted_beside(random_settings(12, 4623)[index - 1])
    assert beside.max() < BESIDE, f"#{index}: the skin beside the hairs darkened {np.round(beside, 1)} levels"
