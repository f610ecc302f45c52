"""A buzz cut, ``hair.style`` ``buzz`` (issue 46, blind review O: variety 4/10, "Buzz: none, not in the sample"; its
best-rated heads the bald one's clean scalp and the curls). The clipped hair is painted on the scalp's skin
(workbench.body.hair.buzz), so it has no mesh, no seam and no card to clip through a hood: measured here, the style
is a setting like the others (validation, the schema, the GLB at every level of detail), its cover reaches the
hairline with no skin gap and fades there (no drawn line, no spill onto the forehead), and in a render it is neither
the bald head's stubble nor the short crop."""

from __future__ import annotations

from functools import cache

import numpy as np
import pytest
from built import built as build_avatar  # one build per run (tests/built.py)
from helpers import portrait_in

from workbench.body.hair import hair_pieces
from workbench.body.hair.buzz import COVER, buzzed
from workbench.body.hair.head import hairline, head_of, head_triangles
from workbench.body.mesh import body_mesh
from workbench.body.skin import reference_body, skin_texture
from workbench.gltf import validate_many, validator_available
from workbench.gltf.glb import read_glb
from workbench.gltf.meshes import triangle_count
from workbench.options import HAIR_STYLES, ModelOptions, normalize_avatar_settings
from workbench.options.problems import InvalidOptions
from workbench.service.openapi import build_openapi

TONE, HAIR = "#E0AC8A", "#3A2A1E"


def test_buzz_is_a_style_the_service_takes():
    assert "buzz" in HAIR_STYLES
    schema = build_openapi("http://127.0.0.1")["components"]["schemas"]["AvatarSettings"]
    assert "buzz" in schema["properties"]["hair"]["properties"]["style"]["enum"]
    s = normalize_avatar_settings({"gender": "masculine", "hair": {"style": "buzz", "color": HAIR}})
    assert s["hair"] == {"style": "buzz", "color": HAIR}
    with pytest.raises(InvalidOptions) as e:
        normalize_avatar_settings({"gender": "masculine", "hair": {"style": "buzzcut"}})
    assert "hair.style" in str(e.value) and "buzz" in str(e.value)


@pytest.mark.parametrize("gender", ["masculine", "feminine"])
def test_buzz_has_no_hair_mesh_and_costs_no_triangles(gender):
    """No hair mesh at any level of detail, over a hood too (nothing to clip through it); the levels keep their
    ratio (LOD 1 0.5 +- 0.05 of LOD 0)."""
    raw = {"gender": gender, "hair": {"style": "buzz", "color": HAIR}, "outfit": {"topStyle": "hoodie"}}
    s = normalize_avatar_settings(raw)
    mesh = body_mesh(s)
    assert all(hair_pieces(mesh, "buzz", lod, "hoodie") == {} for lod in (0, 1, 2))
    t0, t1 = triangle_count(s, 0), triangle_count(s, 1)
    bald = triangle_count(normalize_avatar_settings({**raw, "hair": {"style": "none", "color": HAIR}}), 0)
    assert t0 == bald and 0.45 <= t1 / t0 <= 0.55, (t0, t1, bald)


@cache
def glbs() -> dict[int, bytes]:
    s = normalize_avatar_settings({"gender": "feminine", "hair": {"style": "buzz", "color": HAIR}, "skinTone": TONE})
    return {lod: build_avatar(s, ModelOptions(lod=lod, animations=("idle",))) for lod in (0, 1, 2)}


def test_buzz_glb_has_no_hair_mesh():
    for lod, glb in glbs().items():
        doc, _ = read_glb(glb)
        names = {m["name"] for m in doc["meshes"]}
        assert "Body" in names and not any(n.startswith("Hair") for n in names), (lod, names)


@pytest.mark.skipif(not validator_available(), reason="the gltf-validator npm package is missing "
                    "(shared/tools/validate-glb installs it)")
def test_buzz_glb_validates():
    reports = validate_many(list(glbs().values()))
    assert not [r.errors for r in reports if r.errors]


def cover_by_share(gender: str) -> tuple[np.ndarray, np.ndarray]:
    """(share of the hairline, cover 0..1) at the texels of the reference body's head vertices: how far the
    buzzed texture went from the skin towards the clipped hair's colour."""
    m = reference_body(gender)
    used = np.unique(head_triangles(m))
    az, pol = head_of(m).angles(m.positions[used].astype(np.float64))
    share = pol / hairline("buzz", az)
    skin = skin_texture(TONE, gender).astype(float)
    hair = buzzed(TONE, gender, HAIR).astype(float)
    size = skin.shape[0]
    # Each vertex's UV (v up) from the body's triangles that use it.
    faces = m.face_groups["body"]
    tri, uv = m.triangles[faces].reshape(-1), m.triangle_uvs[faces].reshape(-1, 2)
    at = {int(v): uv[k] for k, v in enumerate(tri)}
    keep = np.array([int(v) in at for v in used])
    uvs = np.array([at[int(v)] for v in used[keep]])
    col = np.clip((uvs[:, 0] * size).astype(int), 0, size - 1)
    row = np.clip(((1 - uvs[:, 1]) * size).astype(int), 0, size - 1)
    target = np.array([int(HAIR[i:i + 2], 16) for i in (1, 3, 5)], float) * 0.8
    moved = np.abs(hair[row, col] - skin[row, col]).sum(-1)
    full = np.abs(target - skin[row, col]).sum(-1)
    return share[keep], moved / np.maximum(full, 1.0)


@pytest.mark.parametrize("gender", ["masculine", "feminine"])
def test_buzz_covers_the_scalp_to_its_hairline_and_fades_there(gender):
    share, cover = cover_by_share(gender)
    inside, edge, outside = share < 0.68, (share > 0.85) & (share < 1.0), share > 1.05
    # No skin gap: every scalp vertex inside the fade has hair over it, the skin showing between the hairs (review Q,
    # "a flat swim cap": the bounds were share < 0.88, min > 0.55, median > 0.8 COVER (0.74), the cover all but full;
    # now the fade reaches 0.8 of a hairline and the skin shows between the hairs: min 0.57, median 0.62-0.63).
    assert inside.sum() > 80 and cover[inside].min() > 0.5 and np.median(cover[inside]) > 0.55, \
        (inside.sum(), np.sort(cover[inside])[:5], np.median(cover[inside]))
    # A fade, not a line: at the hairline's last 15 %, the cover is partial on most vertices (was the last 6 % with
    # partial from 0.05: the fade is now wider, fainter at its outer end; 0.77-0.79 of them).
    partial = (cover[edge] > 0.03) & (cover[edge] < 0.85)
    assert edge.sum() > 20 and partial.mean() > 0.5, (edge.sum(), partial.mean())
    # ...and none past it (the forehead and the neck keep their skin; a texel's bleed at most).
    assert np.quantile(cover[outside], 0.99) < 0.01 and cover[outside].max() < 0.1, cover[outside].max()


@cache
def _glb(style: str) -> bytes:
    s = normalize_avatar_settings({"gender": "masculine", "hair": {"style": style, "color": HAIR}, "skinTone": TONE})
    return build_avatar(s, ModelOptions(animations=("idle",)))


@cache
def portrait(style: str, yaw: float) -> np.ndarray:
    """``style`` on the masculine head in its idle pose, turned by ``yaw`` and drawn in the bald head's portrait frame
    (each style's own portrait frames its own hair: a crop's lowers the eyes in the picture, and the heights above
    would compare two framings)."""
    return portrait_in(_glb(style), _glb("none"), 192, yaw, (255, 255, 255))


@pytest.mark.parametrize("yaw", [0.0, 180.0])
def test_buzz_is_neither_the_bald_head_nor_the_crop(yaw):
    """Over the top of the head (its top eighth in the picture), the buzz cut is darker than the bald head's stubble
    (hair, not skin) and stands no higher than it (no volume of cards), where the crop stands higher."""
    buzz, bald, crop = (portrait(s, yaw) for s in ("buzz", "none", "short"))

    def top(img):
        return int(np.nonzero((np.abs(img - 255).sum(-1) > 30).any(1))[0].min())

    t = top(bald)
    rows = slice(t, t + 24)
    head = np.abs(bald[rows] - 255).sum(-1) > 30
    luma = np.array([0.2126, 0.7152, 0.0722])
    # (Was > 25, main's buzz 39 darker at yaw 0: review Q's "flat swim cap" made it a grain of hairs with the skin
    # between them and a wider fade, 18 darker at yaw 0; still hair, not the bald head's stubble.)
    assert (bald[rows][head] @ luma).mean() - (buzz[rows][head] @ luma).mean() > 15
    assert abs(top(buzz) - t) <= 1 and top(crop) < t - 2, (top(buzz), t, top(crop))


@pytest.mark.parametrize("gender", ["masculine", "feminine"])
def test_buzz_is_matte_where_it_covers(gender):
    """Clipped hair scatters the light: over the cover the skin's roughness goes to 0.85 at least and its reflection
    to a third (in three.js a black buzz cut on deep skin shone in a broad band, a bare scalp's); elsewhere the
    skin's maps are as they were."""
    from workbench.body import pores
    from workbench.body.hair.buzz import scalp_roughness, scalp_specular

    rough, spec = scalp_roughness(gender, "buzz"), scalp_specular(gender, "buzz")
    skin_rough, skin_spec = pores.skin_roughness(gender), pores.skin_specular(gender)
    at, w = buzzed_cover(gender, rough.shape[0])
    # (0.85 over most of it; a little less at the fade's inner edge, where the cover begins to thin.)
    assert at.sum() > 500 and np.median(rough[at]) >= 0.85 * 255 - 1 and rough[at].min() >= 0.8 * 255, rough[at].min()
    assert np.median(spec[at] / np.maximum(skin_spec[at], 1)) <= 0.36
    assert (rough[w == 0] == skin_rough[w == 0]).all() and (spec[w == 0] == skin_spec[w == 0]).all()
    assert scalp_roughness(gender, "short") is skin_rough


def buzzed_cover(gender: str, size: int) -> tuple[np.ndarray, np.ndarray]:
    """(texels covered half way or more, the most cover) on a ``size`` px map, each texel a block of the texture's: how
    far the buzzed skin texture went from the skin towards the clipped hair's colour (0.8 of the hair's)."""
    skin = skin_texture(TONE, gender).astype(float)
    hair = buzzed(TONE, gender, HAIR).astype(float)
    target = np.array([int(HAIR[i:i + 2], 16) for i in (1, 3, 5)], float) * 0.8
    moved = np.abs(hair - skin).sum(-1) / np.maximum(np.abs(target - skin).sum(-1), 1.0)
    step = skin.shape[0] // size
    blocks = moved.reshape(size, step, size, step)
    # (Mean over the block, was its least > 0.8 COVER: the cover is now a grain of hairs with the skin between them,
    # so few blocks are covered all through; 23000-25300 texels at a mean > half COVER.)
    return blocks.mean(axis=(1, 3)) > 0.5 * COVER, blocks.max(axis=(1, 3))
