"""The generated product model: deterministic, varied, valid glTF 2.0."""

import pytest

from workbench.gltf import validate_many, validator_available
from workbench.gltf.glb import read_glb
from workbench.regeneration.product import KINDS, build_product_glb
from workbench.render.scene import Model


def test_same_seed_same_bytes_other_seed_other_bytes():
    assert build_product_glb("alpha") == build_product_glb("alpha")
    assert build_product_glb("alpha") != build_product_glb("beta")


def test_seeds_choose_every_kind_and_models_are_textured_and_shaped():
    kinds = set()
    for k in range(40):
        doc, _ = read_glb(build_product_glb(f"seed{k}"))
        kinds.add(doc["asset"]["extras"]["kind"])
        assert doc.get("textures") and doc.get("images")
        posed = Model(build_product_glb(f"seed{k}")).posed()
        tris = sum(len(d.tris) for d in posed.draws)
        assert tris > 500  # a turned shape, not a box
        pts = posed.points()
        assert pts[:, 1].min() >= -1e-6  # stands on the floor
    assert kinds == set(KINDS)


@pytest.mark.skipif(not validator_available(), reason="node or the gltf-validator package is not installed")
def test_khronos_validator_finds_no_error():
    reports = validate_many([build_product_glb(seed) for seed in ("v1", "v2", "v3", "v4", "v5", "v6")])
    assert [(r.errors, r.warnings) for r in reports] == [(0, 0)] * 6, [str(r) for r in reports]
