"""A material's detail maps in the GLB: baked occlusion, a tangent-space normal map and a roughness map,
beside its colour texture, for any material that has them.

A material description (``workbench.gltf.avatar``'s ``_materials``) may carry, on the same UVs as its colour:

- ``occlusion``: (H, W, 3) uint8 grey, glTF's ``occlusionTexture`` (its red channel);
- ``normal``: (H, W, 3) uint8, glTF's ``normalTexture`` (tangent space, +X along u, +Y up the image,
  128 is 0);
- ``roughness_map``: (H, W) uint8 roughness (0 smooth .. 255 rough), written as the green channel of
  ``metallicRoughnessTexture`` (blue, the metalness, 0), with ``roughnessFactor`` 1 so the map is the
  roughness itself;
- ``metal_map``: (H, W) uint8 metalness (0 .. 255 metal: a metal glasses frame), that texture's blue, the
  material's ``metallicFactor`` then 1 (0 without);
- ``specular_map``: (H, W) uint8 strength of the reflections (0 none .. 255 the material's ``specularFactor``),
  written as the alpha channel of ``KHR_materials_specular``'s ``specularTexture`` (an RGBA image: PNG, or WebP
  with ``textureFormat=webp``; three.js and model-viewer read it, F90 included, so no grazing sheen is left where
  it is 0: the inside of a mouth).

:func:`write_maps` writes a material's own maps; with a texture atlas, :func:`packed_maps` packs each kind
for all the atlas's materials the way their colours were packed, a neutral value (white occlusion, a
flat normal, the material's own roughness) standing in for a material without that map. Nothing here
knows which material has which map: whoever makes a material says so. A primitive whose material has a
normal map carries ``TANGENT``s (:func:`add_tangents`), so every viewer bends its normals in the same frame
(the glTF-Validator warns where a viewer has to make them up).

>>> import numpy as np
>>> mat = {"image": np.zeros((4, 4, 3), np.uint8), "roughness": 0.5, "roughness_map": np.full((4, 4), 64, np.uint8)}
>>> present([mat]), stored(mat, "roughness_map")[0, 0].tolist()
(['roughness_map'], [64, 64, 0])
>>> stored({"image": np.zeros((2, 2, 3), np.uint8), "roughness": 0.5}, "roughness_map")[0, 0].tolist()
[128, 128, 0]
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from .atlas import pack
from .textures import resize

__all__ = ["KINDS", "present", "stored", "attach", "write_maps", "packed_maps", "tangents", "add_tangents"]

# Map kind -> the texture's name suffix in the file.
KINDS = {"occlusion": "Occlusion", "normal": "Normal", "roughness_map": "Roughness", "specular_map": "Specular"}
SPECULAR = "KHR_materials_specular"


def transparent(kind: str) -> bool:
    """Whether a map of ``kind`` is stored with an alpha channel (a specular map's strength is its alpha)."""
    return kind == "specular_map"


def present(mats: list[dict]) -> list[str]:
    """The kinds of map any of ``mats`` carries, in :data:`KINDS` order."""
    return [k for k in KINDS if any(k in m for m in mats)]


def stored(mat: dict, kind: str, scaled: bool = False) -> np.ndarray:
    """The (H, W, 3) image (a specular map's (H, W, 4)) the file stores for ``mat``'s map ``kind``, or the neutral
    one where ``mat`` has none (the size of its colour image). ``scaled``: a specular map times the material's own
    factor (an atlas's material, shared, has a factor of 1)."""
    shape = mat["image"].shape[:2]
    if kind == "roughness_map":
        rough = mat.get("roughness_map")
        if rough is None:
            rough = np.full(shape, int(round(mat["roughness"] * 255)), np.uint8)
        rough = np.asarray(rough, np.uint8)
        metal = mat.get("metal_map")
        return np.stack([rough, rough, np.zeros_like(rough) if metal is None else np.asarray(metal, np.uint8)], axis=2)
    if kind == "specular_map":
        # (As a texture: its colour white, the strength in alpha; the neutral one the material's own factor.)
        factor = min(1.0 if mat.get("specular") is None else mat["specular"], 1.0)
        spec = mat.get("specular_map")
        if spec is None:
            spec = np.full(shape, int(round(factor * 255)), np.uint8)
        elif scaled:
            spec = np.round(np.asarray(spec, np.float32) * np.float32(factor)).astype(np.uint8)
        spec = np.asarray(spec, np.uint8)
        return np.concatenate([np.full(spec.shape + (3,), 255, np.uint8), spec[..., None]], axis=2)
    if kind in mat:
        return np.asarray(mat[kind], np.uint8)
    neutral = {"occlusion": (255, 255, 255), "normal": (128, 128, 255)}[kind]
    return np.broadcast_to(np.array(neutral, np.uint8), shape + (3,))


def attach(w, material: int, textures: dict[str, int], mats: Sequence[dict] = ()) -> None:
    """Point material ``material`` of the writer ``w`` at its maps' textures (kind -> texture index); metallic
    (``metallicFactor`` 1, the map's blue the metalness) if any of ``mats`` (the material descriptions it serves)
    has a ``metal_map``."""
    m = w.doc["materials"][material]
    if "roughness_map" in textures and any(d.get("metal_map") is not None for d in mats):
        m["pbrMetallicRoughness"]["metallicFactor"] = 1.0
    if "occlusion" in textures:
        m["occlusionTexture"] = {"index": textures["occlusion"]}
    if "normal" in textures:
        m["normalTexture"] = {"index": textures["normal"]}
    if "roughness_map" in textures:
        m["pbrMetallicRoughness"]["metallicRoughnessTexture"] = {"index": textures["roughness_map"]}
        m["pbrMetallicRoughness"]["roughnessFactor"] = 1.0
    if "specular_map" in textures:
        m.setdefault("extensions", {}).setdefault(SPECULAR, {"specularFactor": 1.0})["specularTexture"] = {
            "index": textures["specular_map"]}
        w.use_extension(SPECULAR)


def write_maps(w, material: int, mat: dict, write_texture) -> None:
    """Write ``mat``'s own maps as textures (``write_texture(name, image, transparent) -> texture index``) and
    attach them."""
    attach(w, material, {k: write_texture(f"{mat['name']}_{KINDS[k]}", stored(mat, k), transparent(k))
                         for k in present([mat])}, [mat])


def packed_maps(mats: list[dict], size: int) -> dict[str, np.ndarray]:
    """Per kind any of ``mats`` carries, the atlas of that kind: each material's map (or the neutral one) at its
    colour image's size, packed as :func:`workbench.gltf.atlas.pack` packed the colours (same order, same
    places)."""
    return {k: pack([resize(np.ascontiguousarray(stored(m, k, scaled=True)), m["image"].shape[1::-1]) for m in mats],
                    size)[0]
            for k in present(mats)}


def tangents(positions: np.ndarray, normals: np.ndarray, uv: np.ndarray, indices: np.ndarray) -> np.ndarray:
    """Per-vertex tangents (N, 4) float32 as glTF's ``TANGENT``: xyz along increasing u, made perpendicular to
    the normal (the triangles' dP/du, weighted by their area in the UVs' sense), w the handedness that makes
    ``cross(normal, xyz) * w`` point up the image (against v), where a normal map's +Y points.

    >>> pos = np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0]], np.float32)
    >>> t = tangents(pos, np.tile([0, 0, 1.0], (3, 1)), np.array([[0, 1], [1, 1], [0, 0]], np.float32), np.array([[0, 1, 2]]))
    >>> t[0].tolist()
    [1.0, 0.0, 0.0, 1.0]
    """
    p = np.asarray(positions, np.float64)
    n = np.asarray(normals, np.float64)
    t = np.asarray(uv, np.float64)
    f = np.asarray(indices, np.int64).reshape(-1, 3)
    e1, e2 = p[f[:, 1]] - p[f[:, 0]], p[f[:, 2]] - p[f[:, 0]]
    d1, d2 = t[f[:, 1]] - t[f[:, 0]], t[f[:, 2]] - t[f[:, 0]]
    # dP/du * det and dP/dv * det: summed unnormalised, triangles weigh by their size.
    du = e1 * d2[:, 1:2] - e2 * d1[:, 1:2]
    dv = e2 * d1[:, 0:1] - e1 * d2[:, 0:1]
    sign = np.sign(d1[:, 0] * d2[:, 1] - d2[:, 0] * d1[:, 1])[:, None]
    corners = f.reshape(-1)
    # Summed per vertex by bincount (np.add.at took 70 ms for a body).
    tan = np.column_stack([np.bincount(corners, np.repeat(du[:, c] * sign[:, 0], 3), len(p)) for c in range(3)])
    bit = np.column_stack([np.bincount(corners, np.repeat(dv[:, c] * sign[:, 0], 3), len(p)) for c in range(3)])
    tan -= n * (tan * n).sum(1, keepdims=True)
    length = np.linalg.norm(tan, axis=1, keepdims=True)
    # A vertex with no usable UV slope: any direction across its normal.
    fallback = np.cross(n, np.where(np.abs(n[:, :1]) < 0.9, [[1.0, 0, 0]], [[0, 1.0, 0]]))
    tan = np.where(length > 1e-12, tan / np.maximum(length, 1e-12), fallback / np.maximum(
        np.linalg.norm(fallback, axis=1, keepdims=True), 1e-12))
    w = np.where((np.cross(n, tan) * -bit).sum(1) < 0, -1.0, 1.0)
    return np.column_stack([tan, w]).astype(np.float32)


def strand_tangents(positions: np.ndarray, normals: np.ndarray, uv: np.ndarray, indices: np.ndarray,
                    cell: float = 0.02) -> np.ndarray:
    """:func:`tangents` made smooth over space: each vertex's u direction replaced by the main axis of its
    neighbourhood's (within about ``cell`` metres), then made perpendicular to its normal again.

    Hair's anisotropic highlight runs across the strands, along each card's u (``KHR_materials_anisotropy``
    stretches roughness along the tangent). Cards in a head of hair differ in direction by a few degrees,
    and a highlight that narrow lit one card and not its neighbour: the hair shone in flakes. Smoothed over
    a couple of centimetres the strands' direction is the hair's, as a real highlight averages hundreds of
    strands. The axis, not the mean vector: the two sides of a parting run opposite ways (their tangents'
    signs are the viewer's choice; a highlight does not depend on them). Each outer product is spread
    over the eight corners of its grid cell and gathered back with the same weights (no steps at the
    cells' edges); the axis is three steps of power iteration from the vertex's own tangent, so it keeps
    its sign.

    >>> pos = np.array([[0, 0, 0], [0.01, 0, 0], [0, 0.01, 0]], np.float32)
    >>> t = strand_tangents(pos, np.tile([0, 0, 1.0], (3, 1)), np.array([[0, 1], [1, 1], [0, 0]], np.float32),
    ...                     np.array([[0, 1, 2]]))
    >>> t[0].round(6).tolist()
    [1.0, 0.0, 0.0, 1.0]
    """
    raw = tangents(positions, normals, uv, indices)
    p = np.asarray(positions, np.float64)
    if not len(p):
        return raw
    t = raw[:, :3].astype(np.float64)
    g = (p - p.min(0)) / cell
    base = np.floor(g).astype(np.int64)
    frac = g - base
    dims = base.max(0) + 2
    # (xx, yy, zz, xy, xz, yz) of each tangent's outer product
    outer = np.stack([t[:, 0] * t[:, 0], t[:, 1] * t[:, 1], t[:, 2] * t[:, 2],
                      t[:, 0] * t[:, 1], t[:, 0] * t[:, 2], t[:, 1] * t[:, 2]], 1)
    keys, weights = [], []
    for dx in (0, 1):
        for dy in (0, 1):
            for dz in (0, 1):
                weights.append(np.where(dx, frac[:, 0], 1 - frac[:, 0]) * np.where(dy, frac[:, 1], 1 - frac[:, 1])
                               * np.where(dz, frac[:, 2], 1 - frac[:, 2]))
                keys.append(((base[:, 0] + dx) * dims[1] + base[:, 1] + dy) * dims[2] + base[:, 2] + dz)
    key, w = np.concatenate(keys), np.concatenate(weights)
    size = int(dims[0] * dims[1] * dims[2])
    grid = np.stack([np.bincount(key, np.tile(outer[:, c], 8) * w, size) for c in range(6)], 1)
    m = (grid[key] * w[:, None]).reshape(8, len(p), 6).sum(0)
    xx, yy, zz, xy, xz, yz = m.T
    v = t
    for _ in range(3):
        v = np.stack([xx * v[:, 0] + xy * v[:, 1] + xz * v[:, 2], xy * v[:, 0] + yy * v[:, 1] + yz * v[:, 2],
                      xz * v[:, 0] + yz * v[:, 1] + zz * v[:, 2]], 1)
        v /= np.maximum(np.linalg.norm(v, axis=1, keepdims=True), 1e-12)
    n = np.asarray(normals, np.float64)
    n = n / np.maximum(np.linalg.norm(n, axis=1, keepdims=True), 1e-12)
    v -= n * (v * n).sum(1, keepdims=True)
    length = np.linalg.norm(v, axis=1, keepdims=True)
    out = np.where(length > 1e-6, v / np.maximum(length, 1e-12), t)
    return np.column_stack([out, raw[:, 3]]).astype(np.float32)


def add_tangents(w, primitive: dict, positions, normals, uv, indices, strands: bool = False) -> None:
    """Give a written primitive (``GlbWriter.primitive``'s dict) its ``TANGENT`` accessor (``strands``: smoothed
    over space, :func:`strand_tangents`)."""
    from .glb import ARRAY_BUFFER

    make = strand_tangents if strands else tangents
    primitive["attributes"]["TANGENT"] = w.accessor(make(positions, normals, uv, indices), "VEC4", ARRAY_BUFFER)
