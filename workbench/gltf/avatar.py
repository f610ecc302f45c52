"""build_avatar: one avatar's settings and model options to a skinned, textured GLB.

Options (``workbench.options.ModelOptions``, defaults in brackets):

- ``lod`` [0]: 0 full detail (about 30,000 triangles for the default avatar); 1 keeps 50%
  and 2 keeps 25% of LOD 0's triangles. The surfaces are re-tessellated more coarsely: the
  resolution factor is searched (a few cheap geometry passes) until the triangle total is
  within half a percent of the target.
- ``texture_format`` [None]: None gives JPEG for opaque materials and PNG for the
  transparent one (glasses); "png" all PNG; "webp" all WebP through ``EXT_texture_webp``
  (required extension, image referenced only from the extension's ``source``).
- ``merge_mesh`` [False]: one mesh ``Avatar`` on one node, one primitive per material
  (per material class with an atlas).
- ``texture_atlas_size`` [None]: opaque textures packed into one N x N atlas, the
  transparent one into a second; UVs remapped into each texture's rectangle.
- ``animations`` [()]: those library clips, on this avatar's own skeleton.

Errors raise ``ValueError`` prefixed with ``build_avatar:``.

>>> from workbench.options import ModelOptions, normalize_avatar_settings
>>> glb = build_avatar(normalize_avatar_settings({"gender": "feminine"}), ModelOptions(lod=2))
>>> glb[:4]
b'glTF'
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from ..options import ANIMATIONS, ModelOptions
from . import textures as tx
from .glb import GlbWriter
from .animation import add_animations
from .atlas import pack
from .body import avatar_skeleton, parts, triangle_count
from .skeleton import write_armature
from .surfaces import Surface, merge

# LOD 0's resolution factor relative to the part builders' base grids.
BASE_DETAIL = 0.72
LOD_RATIOS = {0: 1.0, 1: 0.5, 2: 0.25}
MESH_ORDER = ("Body", "Hair", "Outfit_Top", "Outfit_Bottom", "Outfit_Footwear", "Glasses")


def _geometry_key(settings: dict) -> tuple:
    return (settings["gender"], float(settings["height"]), settings["bodyShape"],
            settings["hair"]["style"], settings["glasses"])


def _settings_from_key(key: tuple) -> dict:
    gender, height, shape, hair, glasses = key
    return {"gender": gender, "height": height, "bodyShape": shape,
            "hair": {"style": hair}, "glasses": glasses}


@lru_cache(maxsize=256)
def _triangles(key: tuple, q: float) -> int:
    return triangle_count(_settings_from_key(key), q)


@lru_cache(maxsize=64)
def detail_for_lod(key: tuple, lod: int) -> float:
    """The resolution factor whose triangle total is LOD_RATIOS[lod] of LOD 0's."""
    if lod == 0:
        return BASE_DETAIL
    target = _triangles(key, BASE_DETAIL) * LOD_RATIOS[lod]
    # Triangles grow about with the square of the factor (rows x columns): start there, then
    # take secant steps, which also absorb the minimum grid sizes of small parts.
    q_prev, c_prev = BASE_DETAIL, _triangles(key, BASE_DETAIL)
    q = BASE_DETAIL * LOD_RATIOS[lod] ** 0.5
    best = (float("inf"), q)
    for _ in range(8):
        count = _triangles(key, q)
        best = min(best, (abs(count - target), q))
        if abs(count - target) <= 0.005 * target or count == c_prev:
            break
        q, q_prev, c_prev = q + (target - count) * (q - q_prev) / (count - c_prev), q, count
        q = round(q, 6)   # keep the cache keys (and so the output) independent of float noise
    return best[1]


@lru_cache(maxsize=16)
def _meshes(key: tuple, q: float) -> dict[str, Surface]:
    return parts(_settings_from_key(key), q)


def _materials(settings: dict) -> dict[str, dict]:
    """Per mesh: material name, texture image, transparency and PBR factors."""
    hair = settings["hair"]
    out = {
        "Body": dict(name="Skin", image=tx.skin_texture(settings["skinTone"], hair["color"],
                                                                 settings["gender"] == "feminine"),
                     blend=False, roughness=0.62),
        "Outfit_Top": dict(name="Top", image=tx.cloth_texture(settings["outfit"]["top"], "top"),
                           blend=False, roughness=0.9),
        "Outfit_Bottom": dict(name="Bottom", image=tx.cloth_texture(settings["outfit"]["bottom"], "bottom"),
                              blend=False, roughness=0.85),
        "Outfit_Footwear": dict(name="Shoes", image=tx.cloth_texture(settings["outfit"]["shoes"], "shoes"),
                                blend=False, roughness=0.45),
    }
    if hair["style"] != "none":
        out["Hair"] = dict(name="Hair", image=tx.hair_texture(hair["color"], hair["style"] == "curly"),
                           blend=False, roughness=0.5, double=True)
    if settings["glasses"] != "none":
        out["Glasses"] = dict(name="Glasses", image=tx.glasses_texture(settings["glasses"]),
                              blend=True, roughness=0.08)
    return out


def _write_primitive(w: GlbWriter, s: Surface, material: int) -> dict:
    nrm = s.normals.astype(np.float32)
    nrm /= np.linalg.norm(nrm, axis=1, keepdims=True)
    return w.primitive(positions=s.positions, normals=nrm, uv=s.uv, joints=s.joints, weights=s.weights,
                       indices=s.indices, material=material)


def _write_textures(w: GlbWriter, images: list[tuple[str, np.ndarray, bool]], fmt: str | None) -> list[int]:
    """One image and texture per entry, all on one clamping sampler (WebP through its extension);
    returns texture indices."""
    out = []
    for name, img, transparent in images:
        kind = fmt or ("png" if transparent else "jpeg")
        if not transparent and img.shape[2] == 4:
            img = img[..., :3]
        out.append(w.texture(tx.encode(img, kind), tx.MIME[kind], name=name, repeat=False))
    return out


def _material(w: GlbWriter, name: str, texture: int, blend: bool, roughness: float, double: bool = False) -> int:
    """A textured material; a transparent one (glasses) is seen from both sides."""
    return w.material(name, None, texture=texture, roughness=roughness, blend=blend, double_sided=blend or double)


def build_avatar(settings: dict, options: ModelOptions) -> bytes:
    """Build the avatar GLB for normalized ``settings`` (see ``normalize_avatar_settings``).

    >>> from workbench.options import ModelOptions, normalize_avatar_settings
    >>> a = build_avatar(normalize_avatar_settings({"gender": "masculine"}), ModelOptions(lod=2, merge_mesh=True))
    >>> a == build_avatar(normalize_avatar_settings({"gender": "masculine"}), ModelOptions(lod=2, merge_mesh=True))
    True
    """
    if options.lod not in LOD_RATIOS:
        raise ValueError(f"build_avatar: lod must be 0, 1 or 2; got {options.lod!r}")
    if options.texture_format not in (None, "png", "webp"):
        raise ValueError(f"build_avatar: texture_format must be None, 'png' or 'webp'; got {options.texture_format!r}")
    unknown = [a for a in options.animations if a not in ANIMATIONS]
    if unknown:
        raise ValueError(f"build_avatar: not library animations: {', '.join(map(repr, unknown))}")
    try:
        rig = avatar_skeleton(settings)
        key = _geometry_key(settings)
        mats = _materials(settings)
    except (KeyError, TypeError) as e:
        raise ValueError(f"build_avatar: settings are not normalized avatar settings ({e!r})") from e
    meshes = _meshes(key, detail_for_lod(key, options.lod))
    names = [n for n in MESH_ORDER if n in meshes]

    w = GlbWriter()
    joint_nodes = write_armature(w, rig)

    # 1. Textures and materials; with an atlas, UVs move into each texture's rectangle.
    surfaces = {n: meshes[n] for n in names}
    if options.texture_atlas_size:
        n_px = options.texture_atlas_size
        material_of: dict[str, int] = {}
        images = []
        for blend, label in ((False, "Atlas_Opaque"), (True, "Atlas_Transparent")):
            group = [n for n in names if mats[n]["blend"] == blend]
            if not group:
                continue
            atlas, rects = pack([mats[n]["image"] for n in group], n_px)
            for n, rect in zip(group, rects):
                s = meshes[n]
                surfaces[n] = Surface(s.positions, s.normals, s.uv, s.indices, s.joints, s.weights).uv_into(rect)
            images.append((label, atlas, blend))
            for n in group:
                material_of[n] = len(images) - 1
        texs = _write_textures(w, images, options.texture_format)
        mat_index = [_material(w, label, t, blend, 0.7, double=not blend and "Hair" in names)
                     for (label, _, blend), t in zip(images, texs)]
        material = {n: mat_index[material_of[n]] for n in names}
    else:
        texs = _write_textures(w, [(mats[n]["name"], mats[n]["image"], mats[n]["blend"]) for n in names],
                               options.texture_format)
        material = {n: _material(w, mats[n]["name"], t, mats[n]["blend"], mats[n]["roughness"],
                                 mats[n].get("double", False))
                    for n, t in zip(names, texs)}

    # 2. The skin: pure-translation inverse bind matrices (the rest pose has no rotations).
    ibm = np.tile(np.eye(4, dtype=np.float32), (len(joint_nodes), 1, 1))
    ibm[:, :3, 3] = -rig.world.astype(np.float32)
    skin = w.skin(joint_nodes, ibm, name="Armature", skeleton=joint_nodes[0])

    # 3. Meshes: one per part, or one 'Avatar' with a primitive per material.
    mesh_nodes = []
    if options.merge_mesh:
        prims = []
        for m in sorted(set(material.values())):
            group = [surfaces[n] for n in names if material[n] == m]
            prims.append(_write_primitive(w, merge(group) if len(group) > 1 else group[0], m))
        mesh = w.mesh("Avatar", prims)
        mesh_nodes.append(w.node("Avatar", mesh=mesh, skin=skin))
    else:
        for n in names:
            mesh = w.mesh(n, [_write_primitive(w, surfaces[n], material[n])])
            mesh_nodes.append(w.node(n, mesh=mesh, skin=skin))

    w.scene([0] + mesh_nodes, settings.get("name") or "Avatar")

    # 4. Animations, retargeted to this skeleton.
    if options.animations:
        add_animations(w, rig, options.animations, joint_nodes)
    return w.to_bytes()
