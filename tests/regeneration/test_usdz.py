"""USDZ export: the archive layout of contract section 8, and Pixar's USD reading it back."""

import io
import zipfile
from pathlib import Path

import numpy as np
import pytest

from workbench.regeneration.product import build_product_glb
from workbench.regeneration.usdz import glb_to_usdz
from workbench.regeneration.zipstore import local_entries, stored_zip
from workbench.render.testing import tiny_rig_glb

pxr = pytest.importorskip("pxr", reason="usd-core (pxr) is needed to read USDZ back")
from pxr import Usd, UsdGeom, UsdShade  # noqa: E402


def _open(tmp_path: Path, data: bytes):
    p = tmp_path / "model.usdz"
    p.write_bytes(data)
    stage = Usd.Stage.Open(str(p))
    assert stage is not None
    return stage


def test_archive_is_stored_aligned_and_starts_with_a_layer():
    data = glb_to_usdz(build_product_glb("zip"))
    entries = local_entries(data)
    assert entries[0]["name"].endswith(".usda")
    assert len(entries) >= 2  # the layer and its texture
    for e in entries:
        assert e["method"] == 0, e
        assert e["offset"] % 64 == 0, e
    z = zipfile.ZipFile(io.BytesIO(data))
    assert z.testzip() is None
    assert [i.filename for i in z.infolist()] == [e["name"] for e in entries]
    assert all(i.compress_type == zipfile.ZIP_STORED for i in z.infolist())


def test_alignment_holds_for_awkward_names_and_sizes():
    files = [("a.usda", b"#usda 1.0\n"), ("t/x" * 7 + ".png", b"\x89PNG" + b"1" * 61), ("b.jpg", b"")]
    for e in local_entries(stored_zip(files)):
        assert e["offset"] % 64 == 0


def test_usd_reads_meshes_normals_uvs_and_material(tmp_path):
    data = glb_to_usdz(build_product_glb("usd"))
    stage = _open(tmp_path, data)
    assert UsdGeom.GetStageUpAxis(stage) == UsdGeom.Tokens.y
    assert UsdGeom.GetStageMetersPerUnit(stage) == 1.0
    meshes = [UsdGeom.Mesh(p) for p in stage.Traverse() if p.IsA(UsdGeom.Mesh)]
    assert meshes
    textured = 0
    for mesh in meshes:
        pts = np.array(mesh.GetPointsAttr().Get())
        counts = np.array(mesh.GetFaceVertexCountsAttr().Get())
        idx = np.array(mesh.GetFaceVertexIndicesAttr().Get())
        normals = np.array(mesh.GetNormalsAttr().Get())
        assert len(pts) > 3 and (counts == 3).all() and len(idx) == 3 * len(counts)
        assert idx.max() < len(pts)
        assert normals.shape == pts.shape
        np.testing.assert_allclose(np.linalg.norm(normals, axis=1), 1, atol=1e-4)
        st = UsdGeom.PrimvarsAPI(mesh.GetPrim()).GetPrimvar("st")
        assert st and st.GetInterpolation() == UsdGeom.Tokens.vertex
        assert len(st.Get()) == len(pts)
        material, _ = UsdShade.MaterialBindingAPI(mesh.GetPrim()).ComputeBoundMaterial()
        assert material, f"{mesh.GetPath()} has no material"
        surface = material.ComputeSurfaceSource()[0]
        assert surface.GetIdAttr().Get() == "UsdPreviewSurface"
        diffuse = surface.GetInput("diffuseColor")
        if diffuse.HasConnectedSource():
            tex = UsdShade.Shader(diffuse.GetConnectedSource()[0].GetPrim())
            assert tex.GetIdAttr().Get() == "UsdUVTexture"
            path = tex.GetInput("file").Get().path
            assert path in zipfile.ZipFile(io.BytesIO(data)).namelist()
            textured += 1
    assert textured >= 1


def test_skinned_model_exports_in_bind_pose(tmp_path):
    stage = _open(tmp_path, glb_to_usdz(tiny_rig_glb()))
    mesh = next(UsdGeom.Mesh(p) for p in stage.Traverse() if p.IsA(UsdGeom.Mesh))
    pts = np.array(mesh.GetPointsAttr().Get())
    assert abs(pts[:, 1].max() - 1.0) < 1e-5 and abs(pts[:, 1].min()) < 1e-5


def test_usdz_is_deterministic():
    g = build_product_glb("same")
    assert glb_to_usdz(g) == glb_to_usdz(g)


def test_avatar_with_webp_textures_and_glasses(tmp_path):
    from workbench import gltf  # our own package: a broken import must fail, not skip
    from workbench.options import ModelOptions, normalize_avatar_settings
    glb = gltf.build_avatar(normalize_avatar_settings({"gender": "masculine", "glasses": "clear"}),
                            ModelOptions(texture_format="webp"))
    data = glb_to_usdz(glb)
    names = [e["name"] for e in local_entries(data)]
    # AR viewers read PNG and JPEG only: the WebP textures come out as PNG.
    assert names[0].endswith(".usda") and all(n.endswith(".png") for n in names[1:]) and len(names) >= 6
    stage = _open(tmp_path, data)
    meshes = {p.GetName(): p for p in stage.Traverse() if p.IsA(UsdGeom.Mesh)}
    assert {"Body", "Hair", "Outfit_Top", "Outfit_Bottom", "Outfit_Footwear", "Glasses"} <= set(meshes)
    # Bind pose, metres, Y up: the feet on the floor, the head near the avatar's height.
    pts = np.concatenate([np.array(UsdGeom.Mesh(p).GetPointsAttr().Get()) for p in meshes.values()])
    assert abs(pts[:, 1].min()) < 0.05 and 1.6 < pts[:, 1].max() < 1.95
    material, _ = UsdShade.MaterialBindingAPI(meshes["Glasses"]).ComputeBoundMaterial()
    surface = material.ComputeSurfaceSource()[0]
    assert surface.GetInput("opacity").HasConnectedSource()  # alphaMode BLEND keeps its alpha
