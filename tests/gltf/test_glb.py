"""The GLB module (workbench.gltf.glb): writer, accessor reader, tables, and round trips through pygltflib."""

from __future__ import annotations

from functools import lru_cache

import numpy as np
import pygltflib
import pytest

from workbench.gltf import build_animation, build_avatar, inspect
from workbench.gltf.glb import (
    COMPONENT_DTYPES,
    EXT_TEXTURE_WEBP,
    GlbWriter,
    image_bytes,
    pack_glb,
    read_accessor,
    read_glb,
)
from workbench.options import ModelOptions, normalize_avatar_settings
from workbench.regeneration.product import build_product_glb, png_bytes
from workbench.regeneration.space import build_space_scene
from workbench.render.scene import Model
from workbench.render.testing import tiny_clip_glb, tiny_rig_glb
from workbench.service.uploads import check_glb

OURS = ("animation", "avatar", "avatar_merged_atlas", "product", "space", "tiny_clip", "tiny_rig")


@lru_cache(maxsize=1)
def _ours() -> dict[str, bytes]:
    """One GLB from each generator that writes through GlbWriter (built once, when first needed)."""
    settings = normalize_avatar_settings({"gender": "feminine", "glasses": "clear"})
    return {
        "avatar": build_avatar(settings, ModelOptions(lod=2, texture_format="webp", animations=("wave",))),
        "avatar_merged_atlas": build_avatar(settings, ModelOptions(lod=2, merge_mesh=True, texture_atlas_size=256)),
        "animation": build_animation("masculine", "nod"),
        "product": build_product_glb("roundtrip"),
        "space": build_space_scene("roundtrip"),
        "tiny_rig": tiny_rig_glb(),
        "tiny_clip": tiny_clip_glb(),
    }


# --------------------------------------------------------------------------
# Our files in pygltflib, and back
# --------------------------------------------------------------------------

@pytest.mark.parametrize("name", OURS)
def test_our_glbs_load_in_pygltflib_with_the_same_document_and_binary(name):
    glb = _ours()[name]
    doc, binary = read_glb(glb)
    g = pygltflib.GLTF2.load_from_bytes(glb)
    assert g.binary_blob() == binary
    assert len(g.accessors) == len(doc["accessors"])
    for ours, theirs in zip(doc["accessors"], g.accessors, strict=True):
        assert (theirs.bufferView, theirs.componentType, theirs.count, theirs.type) == \
               (ours["bufferView"], ours["componentType"], ours["count"], ours["type"])
    assert [n.name for n in g.nodes] == [n.get("name") for n in doc["nodes"]]
    assert [m.name for m in g.meshes] == [m["name"] for m in doc.get("meshes", [])]
    assert g.scene == doc["scene"] and g.asset.generator == doc["asset"]["generator"]
    assert (g.extensionsRequired or []) == doc.get("extensionsRequired", [])


@pytest.mark.parametrize("name", ["avatar", "product", "tiny_rig"])
def test_pygltflib_rewrite_of_our_glb_reads_back_the_same_arrays(name):
    doc, binary = read_glb(_ours()[name])
    again = b"".join(pygltflib.GLTF2.load_from_bytes(_ours()[name]).save_to_bytes())
    doc2, binary2 = read_glb(again)
    assert again != _ours()[name]  # pygltflib writes its own JSON: the comparison below is not trivial
    for i in range(len(doc["accessors"])):
        np.testing.assert_array_equal(read_accessor(doc2, binary2, i), read_accessor(doc, binary, i))
    for i in range(len(doc.get("images", []))):
        assert image_bytes(doc2, binary2, i) == image_bytes(doc, binary, i)


def test_pygltflib_reads_our_accessor_values():
    """pygltflib's own view of the bytes (offsets and lengths) finds the arrays our reader finds."""
    glb = _ours()["avatar"]
    doc, binary = read_glb(glb)
    g = pygltflib.GLTF2.load_from_bytes(glb)
    blob = g.binary_blob()
    for i, acc in enumerate(g.accessors):
        view = g.bufferViews[acc.bufferView]
        raw = blob[view.byteOffset + acc.byteOffset: view.byteOffset + view.byteLength]
        width = {"SCALAR": 1, "VEC2": 2, "VEC3": 3, "VEC4": 4, "MAT4": 16}[acc.type]
        theirs = np.frombuffer(raw, COMPONENT_DTYPES[acc.componentType], acc.count * width).reshape(acc.count, width)
        np.testing.assert_array_equal(theirs, read_accessor(doc, binary, i))


# --------------------------------------------------------------------------
# pygltflib's files in our reader
# --------------------------------------------------------------------------

def _pygltflib_quad() -> tuple[bytes, dict]:
    """A valid quad written by pygltflib: interleaved POSITION/NORMAL (byteStride 24), normalized uint8
    COLOR_0, UVs, uint16 indices, a sparse accessor without a view, and a texture."""
    pos = np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0], [1, 1, 0]], np.float32)
    nrm = np.tile(np.array([0, 0, 1], np.float32), (4, 1))
    inter = np.concatenate([pos, nrm], 1).tobytes()                                 # 96 bytes at 0
    colors = np.array([[255, 0, 0, 255], [0, 255, 0, 128], [0, 0, 255, 0], [51, 102, 153, 204]], np.uint8)
    uv = pos[:, :2].copy()                                                          # at 112
    idx = np.array([0, 1, 2, 2, 1, 3], np.uint16)                                   # at 144
    sparse_idx = np.array([1, 3], np.uint8).tobytes() + b"\0\0"                      # at 156
    sparse_val = np.array([[5, 6, 7], [8, 9, 10]], np.float32)                      # at 160
    png = png_bytes(np.full((2, 2, 3), 200, np.uint8))                               # at 184
    blob = inter + colors.tobytes() + uv.tobytes() + idx.tobytes() + sparse_idx + sparse_val.tobytes() + png
    blob += b"\0" * (-len(blob) % 4)
    G = pygltflib
    g = G.GLTF2(
        asset=G.Asset(version="2.0", generator="pygltflib"), scene=0, scenes=[G.Scene(nodes=[0])],
        nodes=[G.Node(name="Quad", mesh=0)],
        meshes=[G.Mesh(name="Quad", primitives=[G.Primitive(
            attributes=G.Attributes(POSITION=0, NORMAL=1, COLOR_0=2, TEXCOORD_0=5), indices=3, material=0)])],
        materials=[G.Material(name="m", pbrMetallicRoughness=G.PbrMetallicRoughness(baseColorTexture=G.TextureInfo(index=0)))],
        textures=[G.Texture(source=0)], images=[G.Image(bufferView=5, mimeType="image/png")],
        buffers=[G.Buffer(byteLength=len(blob))],
        bufferViews=[G.BufferView(buffer=0, byteOffset=0, byteLength=96, byteStride=24, target=G.ARRAY_BUFFER),
                     G.BufferView(buffer=0, byteOffset=96, byteLength=16, target=G.ARRAY_BUFFER),
                     G.BufferView(buffer=0, byteOffset=112, byteLength=32, target=G.ARRAY_BUFFER),
                     G.BufferView(buffer=0, byteOffset=144, byteLength=12, target=G.ELEMENT_ARRAY_BUFFER),
                     G.BufferView(buffer=0, byteOffset=156, byteLength=28),
                     G.BufferView(buffer=0, byteOffset=184, byteLength=len(png))],
        accessors=[G.Accessor(bufferView=0, byteOffset=0, componentType=G.FLOAT, count=4, type="VEC3",
                              min=[0, 0, 0], max=[1, 1, 0]),
                   G.Accessor(bufferView=0, byteOffset=12, componentType=G.FLOAT, count=4, type="VEC3"),
                   G.Accessor(bufferView=1, componentType=G.UNSIGNED_BYTE, normalized=True, count=4, type="VEC4"),
                   G.Accessor(bufferView=3, componentType=G.UNSIGNED_SHORT, count=6, type="SCALAR"),
                   # byteOffset=None: pygltflib writes its default 0 otherwise, which needs a bufferView
                   G.Accessor(byteOffset=None, componentType=G.FLOAT, count=4, type="VEC3", sparse=G.Sparse(
                       count=2, indices=G.AccessorSparseIndices(bufferView=4, componentType=G.UNSIGNED_BYTE),
                       values=G.AccessorSparseValues(bufferView=4, byteOffset=4))),
                   G.Accessor(bufferView=2, componentType=G.FLOAT, count=4, type="VEC2")])
    g.set_binary_blob(blob)
    expected = {"pos": pos, "nrm": nrm, "colors": colors.astype(np.float32) / 255, "idx": idx, "uv": uv,
                "sparse": np.array([[0, 0, 0], [5, 6, 7], [0, 0, 0], [8, 9, 10]], np.float32), "png": png}
    return b"".join(g.save_to_bytes()), expected


def test_our_reader_reads_what_pygltflib_writes():
    glb, want = _pygltflib_quad()
    doc, binary = read_glb(glb)
    np.testing.assert_array_equal(read_accessor(doc, binary, 0), want["pos"])
    np.testing.assert_array_equal(read_accessor(doc, binary, 1), want["nrm"])
    colors = read_accessor(doc, binary, 2)
    assert colors.dtype == np.float32
    np.testing.assert_allclose(colors, want["colors"], rtol=0, atol=1e-7)
    np.testing.assert_array_equal(read_accessor(doc, binary, 3).reshape(-1), want["idx"])
    np.testing.assert_array_equal(read_accessor(doc, binary, 4), want["sparse"])
    np.testing.assert_array_equal(read_accessor(doc, binary, 5), want["uv"])
    assert image_bytes(doc, binary, 0) == want["png"]


def test_pygltflib_file_through_renderer_inspect_and_upload_check():
    glb, want = _pygltflib_quad()
    draw = Model(glb).posed().draws[0]
    np.testing.assert_array_equal(draw.positions, want["pos"])
    assert draw.material.texture is not None and draw.material.texture.width == 2
    s = inspect(glb)
    assert (s.triangles, s.textures.loc[0, "width"], s.textures.loc[0, "bytes"]) == (2, 2, len(want["png"]))
    assert check_glb(glb) == []


# --------------------------------------------------------------------------
# The writer and reader on their own
# --------------------------------------------------------------------------

def test_normalized_signed_and_unsigned_integers():
    w = GlbWriter()
    cases = [(np.array([[-128, -127, 0, 127]], np.int8), [-1.0, -1.0, 0.0, 1.0]),
             (np.array([[0, 65535, 32768, 1]], np.uint16), [0.0, 1.0, 32768 / 65535, 1 / 65535]),
             (np.array([[-32767, 32767, 0, 0]], np.int16), [-1.0, 1.0, 0.0, 0.0])]
    idx = [w.accessor(a, "VEC4", normalized=True) for a, _ in cases]
    doc, binary = read_glb(w.to_bytes())
    for i, (_, want) in zip(idx, cases, strict=True):
        np.testing.assert_allclose(read_accessor(doc, binary, i)[0], np.float32(want), rtol=1e-6)


def test_accessor_outside_the_binary_chunk_is_refused_by_name():
    doc = {"bufferViews": [{"buffer": 1, "byteLength": 12}],
           "accessors": [{"bufferView": 0, "componentType": 5126, "count": 1, "type": "VEC3"}]}
    with pytest.raises(ValueError, match=r"^read_accessor: only the GLB's own binary buffer"):
        read_accessor(doc, b"\0" * 12, 0)


def test_writer_refuses_dtypes_glTF_has_not():
    with pytest.raises(ValueError, match=r"^GlbWriter.accessor: dtype int64 is not a glTF component type"):
        GlbWriter().accessor(np.arange(3, dtype=np.int64))


def test_indices_are_uint16_only_below_the_restart_value():
    w = GlbWriter()
    small = w.indices([0, 1, 2], vertex_count=65534)
    large = w.indices([0, 1, 2], vertex_count=65535)
    by_max = w.indices([0, 65534, 1])
    types = [w.doc["accessors"][i]["componentType"] for i in (small, large, by_max)]
    assert types == [5123, 5125, 5125]
    assert all(w.doc["bufferViews"][w.doc["accessors"][i]["bufferView"]]["target"] == 34963 for i in (small, large))


def test_textures_share_samplers_and_webp_requires_its_extension_once():
    w = GlbWriter()
    webp = [w.texture(b"RIFF....WEBP", "image/webp", name=f"t{k}", repeat=False) for k in range(2)]
    png = w.texture(b"\x89PNG....", repeat=True)
    doc = w.doc
    assert doc["extensionsUsed"] == [EXT_TEXTURE_WEBP] and doc["extensionsRequired"] == [EXT_TEXTURE_WEBP]
    assert [doc["textures"][i]["sampler"] for i in webp + [png]] == [0, 0, 1]
    assert doc["textures"][webp[1]] == {"sampler": 0, "extensions": {EXT_TEXTURE_WEBP: {"source": 1}}, "name": "t1"}
    assert doc["textures"][png] == {"sampler": 1, "source": 2}


def test_views_are_aligned_and_to_bytes_is_repeatable():
    w = GlbWriter(sort_keys=True)
    w.view(b"abc")
    w.accessor(np.ones((2, 3), np.float32), minmax=True)
    first = w.to_bytes()
    assert w.to_bytes() == first and "buffers" not in w.doc  # packing does not change the document
    doc, binary = read_glb(first)
    assert doc["bufferViews"][1]["byteOffset"] == 4 and doc["buffers"] == [{"byteLength": 28}] and len(binary) == 28
    assert first == pack_glb(doc, binary, sort_keys=True)


def test_skin_matrices_are_stored_column_major():
    w = GlbWriter()
    m = np.eye(4)
    m[:3, 3] = (1, 2, 3)
    w.skin([0], m[None], name="S")
    doc, binary = read_glb(w.to_bytes())
    stored = read_accessor(doc, binary, doc["skins"][0]["inverseBindMatrices"])
    assert stored[0, 12:15].tolist() == [1, 2, 3]  # the translation is the 4th column


# --------------------------------------------------------------------------
# Model.gltf through the client
# --------------------------------------------------------------------------

def test_model_gltf_over_http(http_client):
    reg = http_client.avatars.register({"gender": "masculine", "hair": {"style": "short"}})
    model = http_client.avatars.model(reg.model_id, lod=2, animations="wave")
    g = model.gltf
    assert isinstance(g, pygltflib.GLTF2)
    summary = model.inspect()
    assert [m.name for m in g.meshes] == list(summary.meshes["name"])
    assert [a.name for a in g.animations] == ["wave"]
    assert [g.nodes[j].name for j in g.skins[0].joints] == summary.skeleton
    assert len(g.binary_blob()) == g.buffers[0].byteLength
    g.nodes[0].name = "changed"
    assert model.gltf.nodes[0].name == "Armature"  # each call parses the downloaded bytes afresh
