"""Regeneration jobs over HTTP through the client: states, timings, files, faults."""

from __future__ import annotations

import io
import json
import zipfile

import numpy as np
import pytest
from helpers import wait_for
from PIL import Image

import workbench
from workbench.gltf import validate_many, validator_available


def wait(client, vt, job_id, timeout=60):
    """The viewer's record once its job ``job_id`` has ended (succeeded or failed)."""
    def ended():
        rec = client.local.viewer(vt)
        return rec if rec["job"]["jobId"] == job_id and rec["job"]["state"] in ("succeeded", "failed") else None
    rec = wait_for(ended, timeout)
    assert rec, "job did not end"
    return rec


def test_product_regeneration_produces_glb_usdz_preview(client):
    vt = client.local.create_viewer("product", seed="vase-1")["viewerToken"]
    job = client.viewers.regenerate(vt, "PUT")
    assert job.state == "started" and job.outputs == ("glb", "usdz", "preview")
    again = client.viewers.regenerate(vt)
    rec = wait(client, vt, job.job_id)
    assert again.job_id == job.job_id or rec["job"]["state"] == "succeeded"
    j = rec["job"]
    assert j["state"] == "succeeded" and j["error"] is None
    assert j["startedAt"] <= j["runningAt"] <= j["endedAt"] and j["durationMs"] >= 0
    assert set(rec["files"]) == {"glb", "usdz", "preview"}
    glb = client.local.viewer_file(vt, "glb")
    assert glb[:4] == b"glTF"
    usdz = zipfile.ZipFile(io.BytesIO(client.local.viewer_file(vt, "usdz")))
    names = usdz.namelist()
    assert names[0].endswith((".usda", ".usdc")) and all(i.compress_type == zipfile.ZIP_STORED for i in usdz.infolist())
    img = Image.open(io.BytesIO(client.local.viewer_file(vt, "preview")))
    assert img.format == "PNG" and img.size[0] >= 256
    assert np.asarray(img.convert("RGBA"))[..., 3].max() == 255


def test_usdz_opens_in_pixar_usd(http_client, tmp_path):
    pytest.importorskip("pxr", reason="usd-core is not installed")
    from pxr import Usd, UsdGeom, UsdShade

    vt = http_client.local.create_viewer("product", seed="lamp-7")["viewerToken"]
    wait(http_client, vt, http_client.viewers.regenerate(vt).job_id)
    path = tmp_path / "product.usdz"
    path.write_bytes(http_client.local.viewer_file(vt, "usdz"))
    stage = Usd.Stage.Open(str(path))
    meshes = [UsdGeom.Mesh(p) for p in stage.Traverse() if p.IsA(UsdGeom.Mesh)]
    assert meshes
    m = meshes[0]
    assert len(m.GetPointsAttr().Get()) > 0 and len(m.GetNormalsAttr().Get()) > 0
    st = UsdGeom.PrimvarsAPI(m.GetPrim()).GetPrimvar("st")
    assert st and len(st.Get()) > 0
    material, _ = UsdShade.MaterialBindingAPI(m.GetPrim()).ComputeBoundMaterial()
    assert material and material.GetPrim().IsValid()


def test_space_regeneration_produces_preview_and_bundle(client):
    vt = client.local.create_viewer("space", seed="gallery")["viewerToken"]
    job = client.viewers.regenerate(vt, beacon=True)
    assert job.kind == "space" and job.outputs == ("preview", "bundle")
    rec = wait(client, vt, job.job_id)
    assert rec["job"]["state"] == "succeeded"
    z = zipfile.ZipFile(io.BytesIO(client.local.viewer_file(vt, "bundle")))
    assert {"scene.glb", "effects.json"} <= set(z.namelist())
    effects = json.loads(z.read("effects.json"))
    assert "lighting" in effects and "post" in json.dumps(effects)
    assert z.read("scene.glb")[:4] == b"glTF"
    with pytest.raises(workbench.BadRequestError):
        client.local.viewer_file(vt, "nothing")
    with pytest.raises(workbench.NotFoundError):
        client.local.viewer_file(vt, "usdz")


@pytest.mark.skipif(not validator_available(), reason="node or the gltf-validator package is not installed")
def test_regenerated_glbs_are_valid(http_client):
    vp = http_client.local.create_viewer("product", seed="chair")["viewerToken"]
    vs = http_client.local.create_viewer("space", seed="hall")["viewerToken"]
    wait(http_client, vp, http_client.viewers.regenerate(vp).job_id)
    wait(http_client, vs, http_client.viewers.regenerate(vs).job_id)
    scene = zipfile.ZipFile(io.BytesIO(http_client.local.viewer_file(vs, "bundle"))).read("scene.glb")
    reports = validate_many([http_client.local.viewer_file(vp, "glb"), scene])
    assert [r.errors for r in reports] == [0, 0], [str(r) for r in reports]


def test_injected_fault_fails_the_job_and_keeps_previous_files(client):
    vt = client.local.create_viewer("product", seed="shoe")["viewerToken"]
    wait(client, vt, client.viewers.regenerate(vt).job_id)
    before = client.local.viewer(vt)["files"]
    client.local.fault("viewers.job", count=1)
    job = client.viewers.regenerate(vt)
    rec = wait(client, vt, job.job_id)
    assert rec["job"]["state"] == "failed" and "injected fault" in rec["job"]["error"]
    assert rec["files"] == before
    assert client.local.viewer_file(vt, "glb")[:4] == b"glTF"
