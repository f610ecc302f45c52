"""The Khronos glTF-Validator over a matrix of avatars and options and over the whole library (one batch)."""

from __future__ import annotations

import pytest

from workbench.gltf import build_animation, build_avatar, validate, validate_many, validator_available
from workbench.gltf.validator import ValidationReport
from workbench.options import ANIMATIONS, GENDERS, GESTURES, LOCOMOTION, ModelOptions, normalize_avatar_settings

needs_validator = pytest.mark.skipif(
    not validator_available(),
    reason="node or the gltf-validator npm package is missing: run shared/tools/validate-glb once "
           "(it installs gltf-validator@2.0.0-dev.3.10 into ~/.cache/gltf-validator) or set GLTF_VALIDATOR_HOME")

AVATARS = {
    "m-average": {"gender": "masculine"},
    "f-slim-long-clear": {"gender": "feminine", "bodyShape": "slim", "hair": {"style": "long", "color": "#D8B060"},
                          "glasses": "clear"},
    "m-athletic-bun-sun": {"gender": "masculine", "bodyShape": "athletic", "height": 205,
                           "hair": {"style": "bun"}, "glasses": "sunglasses", "skinTone": "#F1C27D"},
    "f-heavy-curly": {"gender": "feminine", "bodyShape": "heavy", "height": 142, "hair": {"style": "curly"},
                      "outfit": {"top": "#AA2233", "bottom": "#EEEEEE", "shoes": "#884422"}},
    "m-heavy-bald-clear": {"gender": "masculine", "bodyShape": "heavy", "hair": {"style": "none"},
                           "glasses": "clear", "skinTone": "#5C3A21"},
    "f-athletic-short-sun": {"gender": "feminine", "bodyShape": "athletic", "glasses": "sunglasses",
                             "name": "Ada"},
}

O = ModelOptions
# Each avatar at LOD 0 and at least one other option, each value of each option (level, format, atlas, merged, a set of
# clips) on some avatar, each level apart and merged, the defaults once: test_the_matrix_holds_every_avatar_and_option
# checks it. (Five more rows, each avatar's defaults and f-slim-long-clear's WebP, held nothing the others do not: the
# defaults' path is f-slim-long-clear's, each of those avatars is at LOD 0 in another row, WebP at LOD 0 apart in
# two others; suite32.)
MATRIX = [
    ("m-average", O(lod=1)),
    ("m-average", O(lod=2, texture_format="png")),
    ("m-average", O(merge_mesh=True, texture_atlas_size=1024, animations=ANIMATIONS)),
    ("f-slim-long-clear", O()),
    ("f-slim-long-clear", O(merge_mesh=True)),
    ("f-slim-long-clear", O(lod=1, texture_atlas_size=64, texture_format="webp", merge_mesh=True)),
    ("m-athletic-bun-sun", O(texture_atlas_size=512)),
    ("m-athletic-bun-sun", O(lod=2, animations=tuple(sorted(LOCOMOTION)))),
    ("m-athletic-bun-sun", O(texture_format="png", merge_mesh=True, animations=("wave", "walk"))),
    ("f-heavy-curly", O(lod=1, merge_mesh=True, texture_atlas_size=2048)),
    ("f-heavy-curly", O(texture_format="webp", animations=tuple(sorted(GESTURES)))),
    ("m-heavy-bald-clear", O(lod=2, merge_mesh=True, texture_format="webp", texture_atlas_size=256)),
    ("m-heavy-bald-clear", O(texture_atlas_size=128, animations=("jump",))),
    ("f-athletic-short-sun", O(lod=1, texture_format="png", texture_atlas_size=1024)),
    ("f-athletic-short-sun", O(merge_mesh=True, animations=ANIMATIONS, texture_format="webp")),
    ("f-athletic-short-sun", O(lod=2, texture_atlas_size=64, merge_mesh=True, texture_format="png",
                               animations=("dance", "idle"))),
    ("m-average", O(lod=0, texture_format="webp", texture_atlas_size=2048, merge_mesh=False, animations=ANIMATIONS)),
]


# slow: every avatar and library clip through the Node validator; the quick loop validates one avatar over HTTP
# (tests/service/test_models_and_previews_http.py::test_validator_clean_over_http) and a broken file below.
@pytest.mark.slow
@needs_validator
def test_avatars_and_library_have_no_validator_errors():
    files = [build_avatar(normalize_avatar_settings(AVATARS[a]), o) for a, o in MATRIX]
    labels = [f"{a} {o.cache_key()}" for a, o in MATRIX]
    for gender in GENDERS:
        for name in ANIMATIONS:
            files.append(build_animation(gender, name))
            labels.append(f"{gender}/{name}")
    assert len(labels) == len(MATRIX) + 36
    reports = validate_many(files)
    bad = {label: r for label, r in zip(labels, reports, strict=True) if r.errors}
    assert not bad, bad
    # Avatars are clean: no warnings either.
    warned = {label: r for label, r in zip(labels[:len(MATRIX)], reports, strict=False) if r.warnings}
    assert not warned, warned


def test_the_matrix_holds_every_avatar_and_option():
    """What the matrix's avatars prove, part by part (the comment over MATRIX)."""
    assert {a for a, o in MATRIX if o.lod == 0} == set(AVATARS)
    assert {(a, o.lod == 0) for a, o in MATRIX} == {(a, lod0) for a in AVATARS for lod0 in (False, True)}
    assert {(o.lod, o.merge_mesh) for _, o in MATRIX} == {(lod, m) for lod in (0, 1, 2) for m in (False, True)}
    assert {o.texture_format for _, o in MATRIX} == {None, "png", "webp"}
    assert {o.texture_atlas_size for _, o in MATRIX} == {None, 64, 128, 256, 512, 1024, 2048}
    assert {o.animations for _, o in MATRIX} >= {(), ANIMATIONS, tuple(sorted(LOCOMOTION)), tuple(sorted(GESTURES))}
    assert O() in {o for _, o in MATRIX}


@needs_validator
def test_validator_reports_a_broken_file():
    glb = bytearray(build_animation("masculine", "nod"))
    glb[12:16] = (len(glb) * 2).to_bytes(4, "little")   # a JSON chunk length past the end
    r = validate(bytes(glb))
    assert not r.ok and r.errors >= 1 and isinstance(r, ValidationReport)


def test_validator_available_is_a_bool():
    assert isinstance(validator_available(), bool)
