"""build_avatar: one avatar's settings and model options to a skinned, textured GLB.

The body is MakeHuman's base mesh shaped, rigged and posed by :mod:`workbench.body`; the meshes are
cut from it by :mod:`workbench.gltf.meshes`. Options (``workbench.options.ModelOptions``, defaults in
brackets):

- ``lod`` [0]: 0 the full mesh (about 35,000 triangles); 1 keeps 50 % and 2 keeps 25 % of the
  triangles, by quadric decimation of every mesh (:func:`workbench.body.lod.decimate`).
- ``texture_format`` [None]: None gives JPEG for opaque materials and PNG for the transparent
  one (glasses); "png" all PNG; "webp" all WebP through ``EXT_texture_webp``.
- ``merge_mesh`` [False]: one mesh ``Avatar`` on one node, one primitive per material (per material
  class with an atlas).
- ``texture_atlas_size`` [None]: opaque textures packed into one N x N atlas, the transparent one into
  a second; UVs remapped into each texture's rectangle.
- ``animations`` [()]: those library clips, on this avatar's own skeleton.

Morph targets: at LOD 0 and 1 every mesh the 52 ARKit shapes move (Body, Eyes, Eyelashes, Teeth)
carries all 52 as sparse accessors, named in the mesh's ``extras.targetNames``; with ``merge_mesh``
every primitive of ``Avatar`` carries them (glTF wants the same targets on all primitives of a mesh).

Errors raise ``ValueError`` prefixed with ``build_avatar:``.

>>> from workbench.options import ModelOptions, normalize_avatar_settings
>>> glb = build_avatar(normalize_avatar_settings({"gender": "feminine"}), ModelOptions(lod=2))
>>> glb[:4]
b'glTF'
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from ..body import ao, eyes, hair as hair_look, outfit, skin
from ..body.outfit import cloth
from ..body.face import ARKIT, piece_morphs
from ..body.mesh import body_mesh
from ..body.lod import Piece, merge, uv_into
from ..options import ANIMATIONS, ModelOptions
from . import textures as tx
from .animation import add_animations
from .atlas import pack
from .meshes import LOD_RATIOS, MESH_ORDER, avatar_skeleton, parts
from .glb import ARRAY_BUFFER, GlbWriter
from .tangents import tangents
from .armature import write_armature

# The lods that carry the face's morph targets (contract section 5: LOD 2 may carry none).
MORPH_LODS = (0, 1)
FLAT_SIZE = 64


@lru_cache(maxsize=64)
def flat_texture(color: str) -> np.ndarray:
    """A small texture of one colour (a stand-in until the skin, eye and teeth textures are painted)."""
    img = np.empty((FLAT_SIZE, FLAT_SIZE, 3), np.uint8)
    img[:] = np.round(tx.rgb(color) * 255).astype(np.uint8)
    img.setflags(write=False)
    return img


def _materials(settings: dict, names: list[str], lod: int = 0, maps: bool = True) -> dict[str, dict]:
    """Per mesh: material name, texture image, transparency (``blend``, or ``mask``: alpha cut at 0.5),
    PBR factors, for the body its baked occlusion texture, and with ``maps`` for the clothes their
    ``normal`` and, at LOD 0, ``roughness`` maps."""
    hair = settings["hair"]
    out = {
        "Body": dict(name="Skin", image=skin.skin_texture(settings["skinTone"], hair["color"], settings["gender"]),
                     blend=False, roughness=0.7, occlusion=ao.occlusion_texture(body_mesh(settings))),
        "Eyes": dict(name="Eyes", image=eyes.eye_texture(), blend=False, roughness=0.1),
        "Eyelashes": dict(name="Eyelashes", image=flat_texture(hair["color"]), blend=False, roughness=0.8,
                          double=True),
        # Teeth a little darker than white: in a mouth at rest they sit in shadow, and a white line reads as gritted teeth.
        "Teeth": dict(name="Teeth", image=flat_texture("#CFC7B6"), blend=False, roughness=0.35),
    }
    out.update(_clothes(settings, lod, maps))
    if "Hair" in names:
        out["Hair"] = dict(name="Hair", image=hair_look.hair_texture(hair["color"], hair["style"]),
                           blend=False, mask=True, roughness=hair_look.HAIR_ROUGHNESS[hair["style"]], double=True)
    if "Glasses" in names:
        out["Glasses"] = dict(name="Glasses", image=tx.glasses_texture(settings["glasses"]),
                              blend=True, roughness=0.08)
    return out


def _clothes(settings: dict, lod: int, maps: bool = True) -> dict[str, dict]:
    """The outfit's materials: each garment's cloth in its colour, double-sided (a sleeve's inside shows),
    with ``maps`` its fold (and at LOD 0 weave) normal map and at LOD 0 its roughness map."""
    o = settings["outfit"]
    mesh = body_mesh(settings)
    wear = {"Outfit_Top": ("Top", o["top"], o["topStyle"], o["bottomStyle"]),
            "Outfit_Bottom": ("Bottom", o["bottom"], o["bottomStyle"], outfit.UNDER[o["bottomStyle"]]),
            "Outfit_Footwear": ("Shoes", o["shoes"], "shoes", None)}
    out = {}
    for part, (name, color, style, under) in wear.items():
        kind = outfit.STYLES[style].kind
        out[part] = dict(name=name, image=tx.cloth_texture(color, style), blend=False,
                         roughness=1.0 if lod == 0 and maps else cloth.ROUGHNESS[kind], double=part != "Outfit_Footwear")
        if maps:
            out[part]["normal"] = cloth.normal_map(mesh, style, under, fine=lod == 0)
            if lod == 0:
                out[part]["roughness_map"] = cloth.roughness_map(style)
    return out


def _write_primitive(w: GlbWriter, p: Piece, material: int, targets) -> dict:
    prim = w.primitive(positions=p.positions, normals=p.normals, uv=p.uv, joints=p.joints, weights=p.weights,
                       indices=p.indices, material=material, targets=targets)
    if "normalTexture" in w.doc["materials"][material]:
        # A normal map is read along the vertices' tangents: given, every viewer shades it alike.
        prim["attributes"]["TANGENT"] = w.accessor(tangents(p.positions, p.normals, p.uv, p.indices), "VEC4",
                                                   ARRAY_BUFFER)
    return prim


def _write_textures(w: GlbWriter, images: list[tuple[str, np.ndarray, bool]], fmt: str | None,
                    raw: dict[int, np.ndarray] | None = None) -> list[int]:
    """One image and texture per entry, all on one clamping sampler (WebP through its extension).

    raw: instead of encoding, leave each image's bytes empty and put its pixels here by image index
    (:func:`build_avatar_unencoded`)."""
    out = []
    for name, img, transparent in images:
        kind = fmt or ("png" if transparent else "jpeg")
        if not transparent and img.shape[2] == 4:
            img = img[..., :3]
        out.append(w.texture(b"" if raw is not None else tx.encode(img, kind), tx.MIME[kind], name=name,
                             repeat=False))
        if raw is not None:
            raw[len(w.doc["images"]) - 1] = img    # the image the texture just added
    return out


def _material(w: GlbWriter, name: str, texture: int, blend: bool, roughness: float, double: bool = False,
              mask: bool = False, occlusion: int | None = None, normal: int | None = None,
              roughness_map: int | None = None) -> int:
    """A textured material; a transparent one (glasses) is seen from both sides; ``mask`` cuts the
    texture's alpha at 0.5 (hair's strand tips); ``occlusion`` a baked occlusion texture; ``normal`` a
    tangent-space normal map; ``roughness_map`` a metallic-roughness texture (roughness in green)."""
    index = w.material(name, None, texture=texture, roughness=roughness, blend=blend and not mask,
                       double_sided=blend or double)
    mat = w.doc["materials"][index]
    if mask:
        mat.update(alphaMode="MASK", alphaCutoff=0.5)
    if occlusion is not None:
        mat["occlusionTexture"] = {"index": occlusion}
    if normal is not None:
        mat["normalTexture"] = {"index": normal}
    if roughness_map is not None:
        mat["pbrMetallicRoughness"]["metallicRoughnessTexture"] = {"index": roughness_map}
    return index


# Maps a material may carry besides its colour (the clothes' normal and roughness maps), and what a
# texture atlas fills the other materials' rectangles with: a flat normal, their roughness factor.
MAPS = ("normal", "roughness_map")


def _map_fill(kind: str, mat: dict) -> np.ndarray:
    shape = mat["image"].shape[:2] + (3,)
    if kind == "normal":
        return np.broadcast_to(np.array([128, 128, 255], np.uint8), shape)
    return np.broadcast_to(np.array([255, round(mat["roughness"] * 255), 0], np.uint8), shape)


def _write_maps(w: GlbWriter, images: dict[str, np.ndarray], label: str, fmt: str | None,
                raw: dict[int, np.ndarray] | None) -> dict[str, int]:
    """A texture per map, by map kind, in the model's texture format (JPEG by default: a 512 px normal map
    as PNG took 25 ms to encode and 600 KB)."""
    return {kind: _write_textures(w, [(f"{label}_{'Normal' if kind == 'normal' else 'Roughness'}", img, False)],
                                  fmt, raw)[0] for kind, img in images.items()}


def _transparent(mat: dict) -> bool:
    return bool(mat["blend"] or mat.get("mask"))


def _empty_targets() -> list[tuple[np.ndarray, np.ndarray]]:
    return [(np.zeros(0, np.int64), np.zeros((0, 3), np.float32))] * len(ARKIT)


def build_avatar(settings: dict, options: ModelOptions) -> bytes:
    """Build the avatar GLB for normalized ``settings`` (see ``normalize_avatar_settings``).

    >>> from workbench.options import ModelOptions, normalize_avatar_settings
    >>> a = build_avatar(normalize_avatar_settings({"gender": "masculine"}), ModelOptions(lod=2, merge_mesh=True))
    >>> a == build_avatar(normalize_avatar_settings({"gender": "masculine"}), ModelOptions(lod=2, merge_mesh=True))
    True
    """
    return _build(settings, options).to_bytes()


def build_avatar_unencoded(settings: dict, options: ModelOptions) -> tuple[bytes, dict[int, np.ndarray]]:
    """The avatar for this process's renderer only (a first preview): ``build_avatar``'s document and
    geometry without the work only a file needs. Its images' bytes are left empty, their pixels come
    as arrays by image index (``workbench.render.render(..., images=...)`` reads them), and it carries
    no morph targets (a preview shows the neutral face). Not a file to write out.

    Measured on a cold 512 px preview: encoding the textures (the hair's PNG most) and decoding them
    again in the renderer, and the 52 face shapes, were about a sixth of the model's time.

    >>> from workbench.options import ModelOptions, normalize_avatar_settings
    >>> glb, images = build_avatar_unencoded(normalize_avatar_settings({"gender": "feminine"}), ModelOptions(lod=2))
    >>> sorted(images) == list(range(len(images))), images[0].dtype.name
    (True, 'uint8')
    """
    raw: dict[int, np.ndarray] = {}
    return _build(settings, options, raw=raw, morphs=False).to_bytes(), raw


def _build(settings: dict, options: ModelOptions, *, raw: dict[int, np.ndarray] | None = None,
           morphs: bool = True) -> GlbWriter:
    if options.lod not in LOD_RATIOS:
        raise ValueError(f"build_avatar: lod must be 0, 1 or 2; got {options.lod!r}")
    if options.texture_format not in (None, "png", "webp"):
        raise ValueError(f"build_avatar: texture_format must be None, 'png' or 'webp'; got {options.texture_format!r}")
    unknown = [a for a in options.animations if a not in ANIMATIONS]
    if unknown:
        raise ValueError(f"build_avatar: not library animations: {', '.join(map(repr, unknown))}")
    try:
        rig = avatar_skeleton(settings)
        meshes = parts(settings, options.lod)
        names = [n for n in MESH_ORDER if n in meshes]
        # (The renderer reads no normal or roughness maps: a first preview's document goes without.)
        mats = _materials(settings, names, options.lod, maps=raw is None)
    except (KeyError, TypeError) as e:
        raise ValueError(f"build_avatar: settings are not normalized avatar settings ({e!r})") from e

    w = GlbWriter()
    joint_nodes = write_armature(w, rig)

    # 1. Textures and materials; with an atlas, UVs move into each texture's rectangle.
    pieces = dict(meshes)
    if options.texture_atlas_size:
        material_of: dict[str, int] = {}
        images = []
        masked, occlusion, atlas_maps = [], None, []
        for blend, label in ((False, "Atlas_Opaque"), (True, "Atlas_Transparent")):
            group = [n for n in names if _transparent(mats[n]) == blend]
            if not group:
                continue
            atlas, rects = pack([mats[n]["image"] for n in group], options.texture_atlas_size)
            for n, rect in zip(group, rects):
                pieces[n] = uv_into(meshes[n], rect)
            images.append((label, atlas, blend))
            masked.append(all(mats[n].get("mask") for n in group))
            for n in group:
                material_of[n] = len(images) - 1
            if not blend and "Body" in group:
                # The body's occlusion packed the same way (white for every other texture of the atlas).
                occ = [mats[n]["occlusion"] if n == "Body" else np.full(mats[n]["image"].shape[:2] + (3,), 255, np.uint8)
                       for n in group]
                occlusion = pack([tx.resize(o, mats[n]["image"].shape[1::-1]) for o, n in zip(occ, group)],
                                 options.texture_atlas_size)[0]
            # The maps packed the same way: each image at its colour image's size, a filler where none.
            atlas_maps.append({k: pack([tx.resize(np.ascontiguousarray(mats[n].get(k, _map_fill(k, mats[n]))),
                                                  mats[n]["image"].shape[1::-1]) for n in group],
                                       options.texture_atlas_size)[0]
                               for k in MAPS if any(k in mats[n] for n in group)})
        texs = _write_textures(w, images, options.texture_format, raw)
        occ_tex = _write_textures(w, [("Atlas_Occlusion", occlusion, False)], options.texture_format, raw)[0] \
            if occlusion is not None else None
        map_tex = [_write_maps(w, m, label, options.texture_format, raw) for (label, _, _), m in zip(images, atlas_maps)]
        mat_index = [_material(w, label, t, blend, 1.0 if "roughness_map" in m else 0.7, double=not blend or mask,
                               mask=mask, occlusion=occ_tex if not blend else None, **m)
                     for (label, _, blend), t, mask, m in zip(images, texs, masked, map_tex)]
        material = {n: mat_index[material_of[n]] for n in names}
    else:
        texs = _write_textures(w, [(mats[n]["name"], mats[n]["image"], _transparent(mats[n])) for n in names],
                               options.texture_format, raw)
        occ = {n: _write_textures(w, [(mats[n]["name"] + "_Occlusion", mats[n]["occlusion"], False)],
                                  options.texture_format, raw)[0] for n in names if "occlusion" in mats[n]}
        maps = {n: _write_maps(w, {k: mats[n][k] for k in MAPS if k in mats[n]}, mats[n]["name"],
                               options.texture_format, raw) for n in names}
        material = {n: _material(w, mats[n]["name"], t, mats[n]["blend"], mats[n]["roughness"],
                                 mats[n].get("double", False), mats[n].get("mask", False), occ.get(n), **maps[n])
                    for n, t in zip(names, texs)}

    # 2. The skin: pure-translation inverse bind matrices (the rest pose has no rotations).
    ibm = np.tile(np.eye(4, dtype=np.float32), (len(joint_nodes), 1, 1))
    ibm[:, :3, 3] = -rig.world.astype(np.float32)
    skin = w.skin(joint_nodes, ibm, name="Armature", skeleton=joint_nodes[0])

    # 3. Meshes: one per part, or one 'Avatar' with a primitive per material; the face's morph targets
    # follow every vertex's source in the body mesh.
    with_morphs = morphs and options.lod in MORPH_LODS
    mesh_nodes = []
    if options.merge_mesh:
        prims = []
        for m in sorted(set(material.values())):
            group = merge([pieces[n] for n in names if material[n] == m])
            targets = (piece_morphs(settings, group) or _empty_targets()) if with_morphs else None
            prims.append(_write_primitive(w, group, m, targets))
        mesh = w.mesh("Avatar", prims, target_names=ARKIT if with_morphs else None)
        mesh_nodes.append(w.node("Avatar", mesh=mesh, skin=skin))
    else:
        for n in names:
            targets = piece_morphs(settings, pieces[n]) if with_morphs else None
            mesh = w.mesh(n, [_write_primitive(w, pieces[n], material[n], targets)],
                          target_names=ARKIT if targets else None)
            mesh_nodes.append(w.node(n, mesh=mesh, skin=skin))

    w.scene([0] + mesh_nodes, settings.get("name") or "Avatar")

    # 4. Animations, retargeted to this skeleton.
    if options.animations:
        add_animations(w, rig, options.animations, joint_nodes)
    return w
