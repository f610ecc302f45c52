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
- ``animations`` [()]: those library clips, on this avatar's own skeleton; an avatar whose ``pose`` is not
  ``relaxed`` carries its stance first (``stances``: a clip named ``pose``) whatever the option.

Morph targets: at LOD 0 and 1 every mesh the face shapes move (Body, Eyes, Eyelashes, Eyebrows, Teeth)
carries all of them (:data:`workbench.body.face.SHAPES`: the 52 ARKit shapes, the visemes, the extras)
as sparse accessors, named in the mesh's ``extras.targetNames``; with ``merge_mesh`` every primitive
of ``Avatar`` carries them (glTF wants the same targets on all primitives of a mesh).

Errors raise ``ValueError`` prefixed with ``build_avatar:``.

>>> from workbench.options import ModelOptions, normalize_avatar_settings
>>> glb = build_avatar(normalize_avatar_settings({"gender": "feminine"}), ModelOptions(lod=2))
>>> glb[:4]
b'glTF'
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import TypeVar

import numpy as np

from .. import threads
from ..body import ao, brows, eyes, glasses, glasses_hold, mouth, outfit, pores, tone
from ..body import hair as hair_look
from ..body import warm as body_warm
from ..body.compile import compiled
from ..body.face import SHAPES, piece_morphs, prepare
from ..body.lod import Piece, merge, uv_into
from ..body.mesh import body_mesh, body_of
from ..body.outfit import cloth
from ..options import ANIMATIONS, DEFAULT_POSE, GENDERS, ModelOptions
from ..options.colour import GLINT
from ..skeleton import Skeleton
from . import maps, rotation
from . import textures as tx
from .animation import add_animations
from .armature import write_armature
from .atlas import pack
from .clips import Clip, clip
from .glb import GlbWriter
from .meshes import (
    LOD_RATIOS,
    MESH_ORDER,
    PartsKey,
    avatar_skeleton,
    eye_lid,
    parts,
    parts_key,
    parts_of,
    prepare_hair,
    prepare_rest,
)
from .stances import fitted_stance, outsides

T = TypeVar("T")

# The lods that carry the face's morph targets (contract section 5: LOD 2 may carry none).
MORPH_LODS = (0, 1)
ANISOTROPY = "KHR_materials_anisotropy"
SPECULAR = "KHR_materials_specular"
CLEARCOAT = "KHR_materials_clearcoat"
# Parts written as a further primitive of another part's mesh (contract section 5's mesh names).
PRIMITIVE_OF = {"Hair_Sleek": "Hair", "Hair_Fringe": "Hair"}


def _materials(settings: dict, lod: int = 0) -> dict[str, dict]:
    """Per mesh this avatar may have: material name, texture image, transparency (``blend``, or ``mask``:
    alpha cut at 0.5), PBR factors and any detail maps (``occlusion``, ``normal``, ``roughness_map``:
    :mod:`workbench.gltf.maps`; ``specular_map``: none inside the mouth; ``mipmaps`` False: its image sampled without smaller levels). The skin's pores are a 1024 px normal map at LOD 0, half that at LOD 1 and
    2; the clothes' maps are :func:`_cloth_maps`'. Made from the settings alone (the hair's and the glasses'
    when the settings give them), so it runs beside :func:`~workbench.gltf.meshes.parts`."""
    hair = settings["hair"]
    # (A bald head's scalp shaved, with stubble, a buzz cut's covered: workbench.body.hair.bald, .buzz.)
    body = hair_look.scalp_skin(settings["skinTone"], settings["gender"], hair["style"], hair["color"])
    out = {
        "Body": dict(name="Skin", image=body,
                     blend=False, roughness=pores.BODY, specular=pores.specular(settings["skinTone"]),
                     normal=pores.skin_normal(settings["gender"], pores.NORMAL_SIZE >> (lod > 0)),
                     roughness_map=hair_look.scalp_roughness(settings["gender"], hair["style"]),
                     specular_map=pores.toned_specular(hair_look.scalp_specular(settings["gender"], hair["style"]),
                                                       settings["skinTone"]),
                     extensions={SPECULAR: {"specularColorFactor": [float(c) for c in GLINT]}}),
        # The iris in the settings' colour; a clear coat for the eye's wet film (workbench.body.eyes). Its image is
        # painted by _build, where the body's lid is known (the lid's shade: eyes.eye_texture's ``lid``).
        "Eyes": dict(name="Eyes", blend=False, roughness=eyes.ROUGHNESS,
                     extensions={CLEARCOAT: {"clearcoatFactor": float(eyes.CLEARCOAT[0]),
                                             "clearcoatRoughnessFactor": float(eyes.CLEARCOAT[1])},
                                 "KHR_materials_ior": {"ior": eyes.IOR}}),
        # Thin dark lashes of their own colour, tapered, blended (workbench.body.hair.lashes); little reflection (the
        # room's, at a third of a dielectric's, greyed them in three.js: a faint lash line at portrait size).
        # Sampled from the full-size image alone (``mipmaps`` False): a lid's card seen end-on from the front took
        # a browser's coarse levels, where the strands average into a soft grey band, "black smudges" in three.js
        # (blind review X, #5 and #10; our previews sample the full image and drew strands).
        "Eyelashes": dict(name="Eyelashes", image=hair_look.lash_texture(), blend=True, roughness=0.8, double=True,
                          specular=0.3, mipmaps=False),
        # Hairs on a shell over each brow, blended (workbench.body.brows); every head has them, a bald one too. Their
        # reflection the lashes' (a dielectric's whole greyed a deep tone's dark brows to the forehead's value: blind
        # review S, 7.8 L* apart on #412F25).
        # Their hairs likewise from the full-size image (a brow's coarse levels were one grey bar in three.js).
        "Eyebrows": dict(name="Eyebrows", image=brows.brow_texture(hair["color"], brows.brow_style(parts_key(settings).body),
                                                                      settings["skinTone"]),
                         blend=True, roughness=0.8, specular=0.3, mipmaps=False),
        # Teeth, gums and tongue: their colours by where each vertex is (workbench.body.mouth), off-white by a deep skin.
        "Teeth": dict(name="Teeth", image=mouth.mouth_texture(tone.teeth_exposure(settings["skinTone"])), blend=False,
                      roughness=0.35,
                      occlusion=mouth.mouth_occlusion(), roughness_map=mouth.mouth_roughness(),
                      specular_map=mouth.mouth_specular()),
    }
    out.update(_clothes(settings))
    if hair["style"] not in hair_look.PAINTED:
        # Cards cut by alpha (an inner pass that writes depth) and a blended fringe, one texture; the
        # highlight runs across the strands (KHR_materials_anisotropy along the cards' u).
        # (Only LOD 2's baked texture reads the body: asking for it here, on the helper, made a second
        # copy of the body while the caller's thread was making the first.)
        look = hair_look.material(hair["color"], hair["style"], body_mesh(settings) if lod >= 2 else None, lod,
                                  settings["outfit"]["topStyle"], settings["outfit"]["bottomStyle"],
                                  skin=settings["skinTone"])
        out["Hair"] = dict(name="Hair", blend=False, mask=True, double=True, **look)
        # The fringe's fine strands over the forehead (and the shell's band) from the full-size image, as the lashes:
        # a card two pixels wide took a browser's coarse levels, where its strands average into one grey stroke with
        # the card's hard edges, "scratchy black stubble lines on the forehead" in three.js (blind review X, #10). The
        # cards keep the image's smaller levels (a texture of their own on the same image).
        out["Hair_Fringe"] = dict(name="Hair_Fringe", blend=True, double=True, mipmaps=False, **look)
        # A sleek style's cards lying on the scalp, single-sided: their backs turned over the outline drew a dark
        # stripe there (workbench.body.hair.pieces.lying; the bob's over the head too, pieces.over_head).
        out["Hair_Sleek"] = dict(name="Hair_Sleek", blend=False, mask=True, **look)
    if settings["glasses"] != "none":
        # (A sunglass lens alpha-tested, writing depth, so no lash behind it is drawn over it: review M; a metal
        # frame metallic.)
        out["Glasses"] = glasses.glasses_material(settings["glasses"])
    # Last, the one that needs the body (on a helper thread, the body is made meanwhile on the caller's).
    out["Body"]["occlusion"] = ao.occlusion_texture(body_mesh(settings))
    return out


# What each garment mesh wears: its material's name, then the settings' colour and style.
def _worn(settings: dict) -> dict[str, tuple[str, str, str, str | None]]:
    o = settings["outfit"]
    return {"Outfit_Top": ("Top", o["top"], o["topStyle"], o["bottomStyle"]),
            "Outfit_Bottom": ("Bottom", o["bottom"], o["bottomStyle"], outfit.under(o["bottomStyle"], o["shoeStyle"])),
            "Outfit_Footwear": ("Shoes", o["shoes"], o["shoeStyle"], None)}


def _clothes(settings: dict) -> dict[str, dict]:
    """The outfit's materials: each garment's cloth in its colour, double-sided (a sleeve's inside shows); a fibre
    cloth's reflection its sheen, not a smooth surface's (``cloth.SPECULAR``)."""
    out = {}
    for part, (name, color, style, _) in _worn(settings).items():
        kind = outfit.STYLES[style].kind
        out[part] = dict(name=name, image=tx.cloth_texture(color, style), blend=False,
                         roughness=cloth.ROUGHNESS[kind], specular=cloth.SPECULAR.get(kind), double=True)
        if kind in cloth.SHEEN:
            out[part]["extensions"] = {"KHR_materials_sheen": cloth.sheen(color, kind)}
    return out


def _cloth_maps(settings: dict, lod: int) -> dict[str, dict]:
    """Each garment's fold (and at LOD 0 weave) normal map and at LOD 0 its roughness map: made from the
    garment as fitted to this body, so after :func:`~workbench.gltf.meshes.parts` has fitted it."""
    mesh = body_mesh(settings)
    out = {}
    for part, (_, _, style, under) in _worn(settings).items():
        out[part] = {"normal": cloth.normal_map(mesh, style, under, fine=lod == 0)}
        if lod == 0:
            out[part]["roughness_map"] = cloth.roughness_map(style)[..., 1]   # roughness is its green
    return out


def _write_primitive(w: GlbWriter, p: Piece, material: int, targets, tangents: bool = True) -> dict:
    prim = w.primitive(positions=p.positions, normals=p.normals, uv=p.uv, joints=p.joints, weights=p.weights,
                       indices=p.indices, material=material, targets=targets, colors=p.colors)
    mat = w.doc["materials"][material]
    if tangents and "normalTexture" in mat:   # a normal map's frame (workbench.gltf.maps)
        maps.add_tangents(w, prim, p.positions, p.normals, p.uv, p.indices)
    elif ANISOTROPY in mat.get("extensions", {}):
        # Hair's highlight runs along the strands' direction over the hair, not each card's (a first
        # preview's too: the renderer reads it)
        maps.add_tangents(w, prim, p.positions, p.normals, p.uv, p.indices, strands=True)
    return prim


def _write_textures(w: GlbWriter, images: list[tuple[str, np.ndarray, bool]], fmt: str | None,
                    raw: dict[int, np.ndarray] | None = None, unmipped: frozenset[str] = frozenset()) -> list[int]:
    """One image and texture per entry, on a clamping sampler (WebP through its extension); the images named in
    ``unmipped`` on one without mipmaps (a material's ``mipmaps`` False: the lashes' and brows' hairs).

    raw: instead of encoding, leave each image's bytes empty and put its pixels here by image index
    (:func:`build_avatar_unencoded`)."""
    out = []
    for name, img, transparent in images:
        img, kind = _stored_as(img, transparent, fmt)
        out.append(w.texture(b"" if raw is not None else tx.encode(img, kind), tx.MIME[kind], name=name,
                             repeat=False, mipmaps=name not in unmipped))
        if raw is not None:
            raw[len(w.doc["images"]) - 1] = img    # the image the texture just added
    return out


def _stored_as(img: np.ndarray, transparent: bool, fmt: str | None) -> tuple[np.ndarray, str]:
    """An image's pixels and format as a texture of a model in ``fmt`` (None: JPEG, PNG for a transparent one)
    stores them: an opaque image's alpha left out."""
    if not transparent and img.shape[2] == 4:
        img = img[..., :3]
    return img, fmt or ("png" if transparent else "jpeg")


def _encoded_ahead(mats: dict[str, dict], fmt: str | None) -> None:
    """``mats`` (:func:`_materials`), their images and detail maps encoded in the model's ``fmt`` first (kept by
    :func:`workbench.gltf.textures.encode`), so writing them later finds their bytes. A model's build runs this on
    its helper after the materials, beside its meshes: encoded on the calling thread after them, the textures were
    some 50 ms of a new avatar's model (bench/RESULTS.md, pass 74)."""
    seen: set[int] = set()
    for m in mats.values():
        images = [(m["image"], _transparent(m))] if m.get("image") is not None else []
        images += [(maps.stored(m, k), maps.transparent(k)) for k in maps.present([m])]
        for img, transparent in images:
            if id(img) not in seen:
                seen.add(id(img))
                tx.encode(*_stored_as(img, transparent, fmt))


def _material(w: GlbWriter, name: str, texture: int, blend: bool, roughness: float, double: bool = False,
              mask: bool = False, anisotropy: tuple[float, float] | None = None, specular: float | None = None,
              extensions: dict | None = None) -> int:
    """A textured material; a transparent one (glasses) is seen from both sides; ``mask`` cuts the
    texture's alpha at 0.5 (hair's strand tips); ``anisotropy`` (strength, rotation) through
    ``KHR_materials_anisotropy`` and ``specular`` (a factor) through ``KHR_materials_specular`` (hair's
    highlight: a band across the strands, and dimmer than a smooth dielectric's, so dark hair does not
    mirror the room); ``extensions``, any other extension's payload by its name (the eyes' clear coat, a cloth's
    sheen, a lens's ior and specular). Its detail maps are :mod:`workbench.gltf.maps`'."""
    index = w.material(name, None, texture=texture, roughness=roughness, blend=blend and not mask,
                       double_sided=blend or double)
    if mask:
        w.doc["materials"][index].update(alphaMode="MASK", alphaCutoff=0.5)
    if anisotropy is not None:
        w.doc["materials"][index].setdefault("extensions", {})[ANISOTROPY] = {
            "anisotropyStrength": float(anisotropy[0]), "anisotropyRotation": float(anisotropy[1])}
        w.use_extension(ANISOTROPY)
    if specular is not None:
        w.doc["materials"][index].setdefault("extensions", {})[SPECULAR] = {"specularFactor": float(specular)}
        w.use_extension(SPECULAR)
    for ext, payload in (extensions or {}).items():   # (a cloth's sheen, a lens's ior, the skin's specular colour)
        w.doc["materials"][index].setdefault("extensions", {}).setdefault(ext, {}).update(payload)
        w.use_extension(ext)
    return index


def _transparent(mat: dict) -> bool:
    return bool(mat["blend"] or mat.get("mask"))


def _mode(mat: dict) -> str:
    return "MASK" if mat.get("mask") else "BLEND" if mat["blend"] else "OPAQUE"


def _face_targets(settings: dict, p: Piece, skin: bool, frame: Piece | None):
    """``p``'s face shapes (:func:`~workbench.body.face.piece_morphs`), the skin's held behind the glasses' ``frame``
    when ``p`` holds the skin (:mod:`workbench.body.glasses_hold`)."""
    targets = piece_morphs(settings, p)
    return glasses_hold.held(p, targets, frame) if targets is not None and skin and frame is not None else targets


def _empty_targets() -> list[tuple[np.ndarray, np.ndarray]]:
    return [(np.zeros(0, np.int64), np.zeros((0, 3), np.float32))] * len(SHAPES)


def warm_up() -> None:
    """Make ready what every avatar's build shares (a service's start, through ``workbench.render.warm_up``):
    the body's (:func:`workbench.body.warm.warm_up`), the compiled loops (the cloth tint's, the hip palm's
    turns), and the keyframes of every library clip for both genders (0.1 s and 2.5 MB; a model with every
    clip spent 55 ms making them). Later calls are cheap.

    >>> warm_up()
    """
    body_warm.warm_up()
    tx.warm_up()
    rotation.turns(np.zeros((3, 3)))
    for gender in GENDERS:
        for name in ANIMATIONS:
            clip(name, gender)


def fit_key(settings: dict, lod: int) -> PartsKey:
    """What a stance's fit (:func:`~workbench.gltf.stances.fitted_stance`) reads of ``settings``' meshes at ``lod``: the
    body and its clothes (the ``Body`` and ``Outfit_*`` pieces), never the hair or the glasses. At LOD 0 those pieces
    are one object for every hair style and glasses (``workbench.gltf.meshes._dressed``), so the key leaves them out
    and an avatar built bald, in another hair style or without its glasses fits its stance once (review R's #3, built
    bald and with its crop by tests/body/test_hairline_band_review_r.py, fitted its clasped hands twice, 3 to 5 s of
    CPU each; suite33). Other levels keep :func:`~workbench.gltf.meshes.parts_key` whole (their body and clothes are
    decimated per key).

    >>> from workbench.options import normalize_avatar_settings
    >>> s = normalize_avatar_settings({"gender": "feminine", "hair": {"style": "long"}, "glasses": "round"})
    >>> bald = normalize_avatar_settings({"gender": "feminine", "hair": {"style": "none"}})
    >>> fit_key(s, 0) == fit_key(bald, 0), fit_key(s, 1) == fit_key(bald, 1)
    (True, False)
    """
    key = parts_key(settings)
    return key._replace(hair="none", glasses=False) if lod == 0 else key


@lru_cache(maxsize=8)
def _stance(pose: str, key: PartsKey, lod: int) -> Clip:
    """Stance ``pose`` fitted to the meshes of :func:`~workbench.gltf.meshes.parts_key` ``key`` at ``lod``, made from
    the key alone (the skeleton is the key's body's, a garment's outside its style's), so an avatar's preview and
    its model, which both build it, fit it once: 0.3 to 1.3 s of CPU each, the hands' rest on the hips
    (:func:`~workbench.gltf.reach.rest_hand`) most. A build asks with :func:`fit_key`'s key, so avatars that differ
    only in what the fit does not read share it. (Its arrays and joints' table are read-only, as the library clips'.)"""
    meshes = parts_of(key, lod)
    outfit = {"topStyle": key.top, "bottomStyle": key.bottom}
    return fitted_stance(pose, body_of(key.body).skeleton, meshes, outsides(outfit, meshes))


def build_avatar(settings: dict, options: ModelOptions, *, morphs: bool = True) -> bytes:
    """Build the avatar GLB for normalized ``settings`` (see ``normalize_avatar_settings``).

    ``morphs=False`` leaves the face's shapes (the morph targets of LOD 0 and 1) out: the same rest meshes,
    skeleton, clips and materials, for work that reads the rest face only (a cold build's shapes are about half
    its CPU when its stance needs no fit). The service's models always carry them.

    >>> from workbench.options import ModelOptions, normalize_avatar_settings
    >>> a = build_avatar(normalize_avatar_settings({"gender": "masculine"}), ModelOptions(lod=2, merge_mesh=True))
    >>> a == build_avatar(normalize_avatar_settings({"gender": "masculine"}), ModelOptions(lod=2, merge_mesh=True))
    True
    """
    return _build(settings, options, morphs=morphs).to_bytes()


def build_avatar_unencoded(settings: dict, options: ModelOptions, *,
                           below: bool = True) -> tuple[bytes, dict[int, np.ndarray]]:
    """The avatar for this process's renderer only (a first preview): ``build_avatar``'s document and
    geometry without the work only a file needs. Its images' bytes are left empty, their pixels come
    as arrays by image index (``workbench.render.render(..., images=...)`` reads them), and it carries
    no morph targets (a preview shows the neutral face) and no tangents (the renderer takes a normal map's
    frame from each triangle). Not a file to write out. ``below`` False (LOD 0 only): without the meshes below
    the waist (:data:`~workbench.gltf.meshes.BELOW`), for a portrait, which shows the same pixels without them.

    Measured on a cold 512 px preview: encoding the textures (the hair's PNG most) and decoding them
    again in the renderer, and the 52 face shapes, were about a sixth of the model's time.

    >>> from workbench.options import ModelOptions, normalize_avatar_settings
    >>> glb, images = build_avatar_unencoded(normalize_avatar_settings({"gender": "feminine"}), ModelOptions(lod=2))
    >>> sorted(images) == list(range(len(images))), images[0].dtype.name
    (True, 'uint8')
    """
    raw: dict[int, np.ndarray] = {}
    return _build(settings, options, raw=raw, morphs=False, below=below).to_bytes(), raw


def _after_meshes(settings: dict, lod: int, raw: dict | None) -> tuple[np.ndarray, dict[str, dict], list[Clip]]:
    """What a build makes of the body and the meshes besides them: the eye's texture (the lid's shade where this
    body's lid is), the clothes' normal and roughness maps (a file's: a first preview's document, ``raw``, goes
    without) and the avatar's stance when it is not the idle's (fitted to the meshes)."""
    eye = eyes.eye_texture(settings["eyeColor"], eye_lid(settings))
    cloth = _cloth_maps(settings, lod) if raw is None else {}
    # (in here: an unhashable pose is unnormalized settings too)
    pose = settings.get("pose", DEFAULT_POSE)
    stance = [_stance(pose, fit_key(settings, lod), lod)] if pose != DEFAULT_POSE else []
    return eye, cloth, stance


def _made_beside(settings: dict, options: ModelOptions, encoded: bool, morphs: bool, below: bool,
                 also: Callable[[], T]) -> tuple[Skeleton, dict[str, Piece], dict[str, dict], T]:
    """A build's skeleton, meshes and materials below LOD 2, made on three threads: here the body, then the meshes
    but LOD 0's hair; on a helper the materials (they read the body last, when it is made), their textures encoded
    when the model's are (``encoded``, without an atlas: :func:`_encoded_ahead`); on a second helper, once the body is
    made, its face shapes when the model carries them (:func:`~workbench.body.face.prepare`: made here after the
    meshes, they were 0.27 s of a new avatar's 0.59 s model, bench/RESULTS.md pass 74). LOD 0's hair pieces are made
    on the materials' helper after them where there are no face shapes (a first preview: this thread has the rest),
    else here after the rest (the shapes, the longest part, then share the cores with the materials alone). Each part
    is kept where the meshes and the face shapes look it up after. ``also()`` runs here after the meshes, while
    the helpers end (what else the build reads of the meshes: a stance's fit, the clothes' maps); its result last."""
    lod = options.lod
    shapes = morphs and lod in MORPH_LODS

    def there() -> dict[str, dict]:
        mats = _materials(settings, lod)
        if encoded and not options.texture_atlas_size:
            _encoded_ahead(mats, options.texture_format)
        if lod == 0 and not shapes:
            prepare_hair(settings)
        return mats

    def meshes() -> tuple[Skeleton, T]:
        rig = avatar_skeleton(settings)
        if lod == 0:
            prepare_rest(settings, below=below)
        else:
            parts(settings, lod, below=below)
        more = also()
        if lod == 0 and shapes:
            prepare_hair(settings)
        return rig, more

    def here() -> tuple[Skeleton, T]:
        body_mesh(settings)
        return threads.beside(meshes, lambda: prepare(settings))[0] if shapes else meshes()

    (rig, more), mats = threads.beside(here, there)
    return rig, parts(settings, lod, below=below), mats, more


def _build(settings: dict, options: ModelOptions, *, raw: dict[int, np.ndarray] | None = None,
           morphs: bool = True, below: bool = True) -> GlbWriter:
    if options.lod not in LOD_RATIOS:
        raise ValueError(f"build_avatar: lod must be 0, 1 or 2; got {options.lod!r}")
    if options.texture_format not in (None, "png", "webp"):
        raise ValueError(f"build_avatar: texture_format must be None, 'png' or 'webp'; got {options.texture_format!r}")
    unknown = [a for a in options.animations if a not in ANIMATIONS]
    if unknown:
        raise ValueError(f"build_avatar: not library animations: {', '.join(map(repr, unknown))}")
    try:
        # The materials on a helper thread beside the body and the meshes (they share only the body, which the
        # materials need last, when it is made); LOD 2's hair texture is baked from its cards, which the
        # meshes make too, so there one follows the other.
        if options.lod < 2:
            # The body's data first, on this thread: where it is not on the machine yet, its first use fetches
            # it here, and this thread's error is the one that says so (a helper's first use made the caller
            # answer "another request is fetching them", and the fetch's own failure went unsaid).
            compiled()
            rig, meshes, mats, (eye, cloth, stance) = _made_beside(settings, options, raw is None, morphs, below,
                                                                   lambda: _after_meshes(settings, options.lod, raw))
        else:
            rig, meshes = avatar_skeleton(settings), parts(settings, options.lod, below=below)
            mats = _materials(settings, options.lod)
            eye, cloth, stance = _after_meshes(settings, options.lod, raw)
        names = [n for n in MESH_ORDER if n in meshes]
        mats["Eyes"] = {**mats["Eyes"], "image": eye}
        for part, extra in cloth.items():
            mats[part] = {**mats[part], **extra}
        if raw is not None:   # a first preview's specular textures but the glasses' (our renderer reads a lens's only)
            mats = {n: {k: v for k, v in m.items() if k != "specular_map" or n == "Glasses"} for n, m in mats.items()}
    except (KeyError, TypeError) as e:
        raise ValueError(f"build_avatar: settings are not normalized avatar settings ({e!r})") from e

    w = GlbWriter()
    joint_nodes = write_armature(w, rig)

    # 1. Textures and materials; with an atlas, UVs move into each texture's rectangle.
    hair = settings["hair"]
    span = hair_look.span({n: p for n, p in meshes.items() if n.startswith("Hair")})
    pieces = {n: hair_look.lit(p, hair["color"], hair["style"], span) if n.startswith("Hair") else p
              for n, p in meshes.items()}
    if options.texture_atlas_size:
        images: list[tuple[str, np.ndarray, bool]] = []
        detail: list[dict[str, np.ndarray]] = []
        texture_of: dict[str, int] = {}
        for blend, label in ((False, "Atlas_Opaque"), (True, "Atlas_Transparent")):
            group = [n for n in names if _transparent(mats[n]) == blend]
            if not group:
                continue
            unique = list({id(mats[n]["image"]): n for n in reversed(group)}.values())[::-1]
            atlas, rects = pack([mats[n]["image"] for n in unique], options.texture_atlas_size)
            rect_of = {id(mats[n]["image"]): r for n, r in zip(unique, rects, strict=True)}
            for n in group:
                pieces[n] = uv_into(pieces[n], rect_of[id(mats[n]["image"])])
                texture_of[n] = len(images)
            images.append((label, atlas, blend))
            # Occlusion, normal and roughness maps packed the same way (neutral where a material has none).
            detail.append(maps.packed_maps([mats[n] for n in unique], options.texture_atlas_size))
        texs = _write_textures(w, images, options.texture_format, raw)
        detail_tex = [{k: _write_textures(w, [(f"{label}_{maps.KINDS[k]}", img, maps.transparent(k))],
                                          options.texture_format, raw)[0]
                       for k, img in packed.items()} for (label, _, _), packed in zip(images, detail, strict=True)]
        # A material per class and alpha mode: opaque; alpha-tested (hair's cards, sunglasses); blended (the rest).
        material = {}
        # (A masked one drawn single-sided of its own: a sleek style's cards lying on the scalp.)
        for label, mode, double in (("Atlas_Opaque", "OPAQUE", True), ("Atlas_Masked", "MASK", True),
                                    ("Atlas_Masked_Single", "MASK", False), ("Atlas_Transparent", "BLEND", False)):
            group = [n for n in names if _mode(mats[n]) == mode
                     and (mode != "MASK" or mats[n].get("double", False) == double)]
            if not group:
                continue
            aniso = {mats[n].get("anisotropy") for n in group if mode != "MASK" or n != "Glasses"}  # (the cards')
            spec = {mats[n].get("specular") for n in group}
            at = texture_of[group[0]]
            index = _material(w, label, texs[at], mode == "BLEND", 0.7, double=double,
                              mask=mode == "MASK", anisotropy=aniso.pop() if len(aniso) == 1 else None,
                              specular=spec.pop() if len(spec) == 1 else None)
            maps.attach(w, index, detail_tex[at], [mats[n] for n in group])
            material.update({n: index for n in group})
    else:
        # One texture per image (the hair's cards and fringe share theirs).
        first = {id(mats[n]["image"]): n for n in reversed(names)}
        written = dict(zip(first.values(), _write_textures(
            w, [(mats[n]["name"], mats[n]["image"], _transparent(mats[n])) for n in first.values()],
            options.texture_format, raw, frozenset(mats[n]["name"] for n in first.values()
                                                   if not mats[n].get("mipmaps", True))), strict=True))
        texs = [written[first[id(mats[n]["image"])]] for n in names]
        for k, n in enumerate(names):   # one image, another sampler: its own texture (the hair's fringe)
            if mats[n].get("mipmaps", True) != mats[first[id(mats[n]["image"])]].get("mipmaps", True):
                texs[k] = w.add("textures", {**w.doc["textures"][texs[k]], "name": mats[n]["name"],
                                             "sampler": w.sampler(repeat=False, mipmaps=mats[n].get("mipmaps", True))})
        material = {n: _material(w, mats[n]["name"], t, mats[n]["blend"], mats[n]["roughness"],
                                 mats[n].get("double", False), mats[n].get("mask", False),
                                 mats[n].get("anisotropy"), mats[n].get("specular"),
                                 mats[n].get("extensions"))
                    for n, t in zip(names, texs, strict=True)}
        for n in names:   # occlusion, normal and roughness maps (workbench.gltf.maps)
            maps.write_maps(w, material[n], mats[n],
                            lambda name, img, alpha: _write_textures(w, [(name, img, alpha)], options.texture_format,
                                                                     raw)[0])

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
            group = [n for n in names if material[n] == m]
            merged = merge([pieces[n] for n in group])
            targets = (_face_targets(settings, merged, "Body" in group, pieces.get("Glasses")) or _empty_targets()) \
                if with_morphs else None
            prims.append(_write_primitive(w, merged, m, targets, tangents=raw is None))
        mesh = w.mesh("Avatar", prims, target_names=SHAPES if with_morphs else None)
        mesh_nodes.append(w.node("Avatar", mesh=mesh, skin=skin))
    else:
        for n in names:
            if n in PRIMITIVE_OF:
                continue
            targets = _face_targets(settings, pieces[n], n == "Body", pieces.get("Glasses")) if with_morphs else None
            prims = [_write_primitive(w, pieces[n], material[n], targets, tangents=raw is None)]
            # The hair's sleek cards (single-sided) and its blended fringe: further primitives of Hair, drawn after
            # its cards.
            prims += [_write_primitive(w, pieces[m], material[m], None, tangents=raw is None)
                      for m, of in PRIMITIVE_OF.items() if of == n and m in pieces]
            mesh = w.mesh(n, prims, target_names=SHAPES if targets else None)
            mesh_nodes.append(w.node(n, mesh=mesh, skin=skin))

    w.scene([0] + mesh_nodes, settings.get("name") or "Avatar")

    # 4. Animations, retargeted to this skeleton: first the avatar's stance when it is not the idle's (a page shows
    # the first clip at 0 s), then the library clips asked for.
    clips = stance + list(options.animations)
    if clips:
        add_animations(w, rig, clips, joint_nodes)
    return w
