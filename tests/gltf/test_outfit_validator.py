"""Every cut of clothes in a valid GLB: each top with each bottom, each bottom in sneakers and in boots, each garment
under every level of detail, apart and merged, and every texture format, atlas and set of clips, with no validator
error and no warning (the cloth's normal maps come with their tangents), and the same settings give the same bytes.

A garment's piece reads only what it is cut with (``workbench.body.outfit.garments.outfit_pieces``): the top the bottom
(where the two meet), the bottom the shoes (trousers' cuffs fall over them), the shoes nothing; the skin they hide and
the hair (a hood) read the top and the bottom. So nine avatars, one for each top and bottom, hold every pair a garment
reads, each garment at each level apart and merged and each option (:func:`test_nine_cuts_hold_every_pair_a_garment_reads`
checks it): the eighteen of before, each pair in sneakers and in boots, held each pair twice (suite32)."""

from __future__ import annotations

import pytest

from workbench.gltf import build_avatar, validate_many, validator_available
from workbench.options import (
    ANIMATIONS,
    BOTTOM_STYLES,
    SHOE_STYLES,
    TOP_STYLES,
    ModelOptions,
    normalize_avatar_settings,
)

O = ModelOptions
OPTIONS = [O(), O(lod=1, texture_format="png"), O(lod=2, merge_mesh=True, texture_format="webp"),
           O(texture_atlas_size=1024, animations=ANIMATIONS), O(lod=1, merge_mesh=True, texture_atlas_size=256),
           O(lod=2, texture_atlas_size=512, texture_format="webp", animations=("walk", "jump"))]
BUILDS = [("feminine", "slim"), ("masculine", "heavy"), ("feminine", "heavy"), ("masculine", "athletic")]


# For each top (row) and bottom (column): the index of its options in OPTIONS and of its shoes in SHOE_STYLES (a
# covering worked out by search: see the module and test_nine_cuts_hold_every_pair_a_garment_reads).
CUTS = (((0, 0), (1, 0), (2, 1)),
        ((5, 0), (0, 1), (4, 0)),
        ((4, 1), (2, 0), (3, 0)))


def cases():
    for i, top in enumerate(TOP_STYLES):
        for j, bottom in enumerate(BOTTOM_STYLES):
            n, shoe = CUTS[i][j]
            gender, shape = BUILDS[(3 * i + j) % len(BUILDS)]
            yield {"gender": gender, "bodyShape": shape, "outfit": {"topStyle": top, "bottomStyle": bottom,
                                                                    "shoeStyle": SHOE_STYLES[shoe]}}, OPTIONS[n]


def test_nine_cuts_hold_every_pair_a_garment_reads():
    """What the eighteen avatars of before proved, the nine prove: every top with every bottom, every bottom (and
    top) in each shoe, each garment at each level of detail apart and merged, each shoe at each level, every option."""
    seen = [(s["outfit"]["topStyle"], s["outfit"]["bottomStyle"], s["outfit"]["shoeStyle"], o) for s, o in cases()]
    assert {(t, b) for t, b, _, _ in seen} == {(t, b) for t in TOP_STYLES for b in BOTTOM_STYLES}
    assert {(b, f) for _, b, f, _ in seen} == {(b, f) for b in BOTTOM_STYLES for f in SHOE_STYLES}
    assert {(t, f) for t, _, f, _ in seen} == {(t, f) for t in TOP_STYLES for f in SHOE_STYLES}
    assert {o for *_, o in seen} == set(OPTIONS)
    for k, styles in enumerate((TOP_STYLES, BOTTOM_STYLES, SHOE_STYLES)):
        assert {(c[k], o.lod) for *c, o in seen} == {(g, lod) for g in styles for lod in (0, 1, 2)}, styles
        assert {(c[k], o.merge_mesh) for *c, o in seen} == {(g, m) for g in styles for m in (False, True)}, styles


# slow: an avatar per cut through the Node validator; the quick loop validates the default clothes over HTTP
# (tests/service/test_models_and_previews_http.py::test_validator_clean_over_http).
@pytest.mark.slow
@pytest.mark.skipif(not validator_available(), reason="node or the gltf-validator npm package is missing: run "
                    "shared/tools/validate-glb once")
def test_every_cut_of_clothes_validates_without_errors_or_warnings():
    files, labels = [], []
    for settings, options in cases():
        files.append(build_avatar(normalize_avatar_settings(settings), options))
        labels.append(f"{settings['outfit']} {options.cache_key()}")
    assert len(files) == len(TOP_STYLES) * len(BOTTOM_STYLES)
    reports = validate_many(files)
    bad = {label: (r.errors, r.warnings) for label, r in zip(labels, reports, strict=True) if r.errors or r.warnings}
    assert not bad, bad


def test_same_settings_same_bytes_for_every_cut():
    for top, shoes in zip(TOP_STYLES, SHOE_STYLES * 2, strict=False):
        settings = normalize_avatar_settings({"gender": "feminine", "height": 163.5, "glasses": "clear",
                                              "outfit": {"topStyle": top, "bottomStyle": "skirt", "shoeStyle": shoes}})
        assert build_avatar(settings, O(lod=1)) == build_avatar(settings, O(lod=1))
