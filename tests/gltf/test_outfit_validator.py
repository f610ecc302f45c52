"""Every cut of clothes in a valid GLB: each top with each bottom, in sneakers and in boots (each pair of
styles meets each shoe), under every level of detail, texture format, atlas and merged mesh (each
combination of the clothes meets each option somewhere), with no
validator error and no warning (the cloth's normal maps come with their tangents), and the same
settings give the same bytes."""

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


def cases():
    for i, top in enumerate(TOP_STYLES):
        for j, bottom in enumerate(BOTTOM_STYLES):
            k = 3 * i + j
            gender, shape = BUILDS[k % len(BUILDS)]
            for n, options in enumerate((OPTIONS[k % len(OPTIONS)], OPTIONS[(k + 3) % len(OPTIONS)])):
                yield {"gender": gender, "bodyShape": shape, "outfit": {"topStyle": top, "bottomStyle": bottom,
                                                                        "shoeStyle": SHOE_STYLES[n]}}, options


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
    assert len(files) == 2 * len(TOP_STYLES) * len(BOTTOM_STYLES)
    reports = validate_many(files)
    bad = {label: (r.errors, r.warnings) for label, r in zip(labels, reports, strict=True) if r.errors or r.warnings}
    assert not bad, bad


def test_same_settings_same_bytes_for_every_cut():
    for top, shoes in zip(TOP_STYLES, SHOE_STYLES * 2, strict=False):
        settings = normalize_avatar_settings({"gender": "feminine", "height": 163.5, "glasses": "clear",
                                              "outfit": {"topStyle": top, "bottomStyle": "skirt", "shoeStyle": shoes}})
        assert build_avatar(settings, O(lod=1)) == build_avatar(settings, O(lod=1))
