"""Reading a GLB into world-space triangles for the renderer: accessors, nodes, skins, materials, poses.

The renderer never looks inside the code that wrote a GLB: everything here is
read from the file as glTF 2.0 defines it.

1. :func:`workbench.gltf.glb.read_glb` splits the container into its JSON and binary chunk.
2. :class:`Model` reads accessors (through :func:`workbench.gltf.glb.read_accessor`,
   the project's one accessor reader), decodes each texture once (JPEG, PNG,
   and WebP through ``EXT_texture_webp``) and keeps the node hierarchy.
3. :meth:`Model.posed` evaluates an optional animation clip at one time onto
   the model's nodes matched by name, computes world matrices, skins the
   meshes (linear blend, up to the accessors' 4 influences per set) and returns
   a :class:`Posed` scene: world positions, normals, UVs and materials, plus the
   world position of every named node (the camera frames from joints).

>>> from workbench.render.scene import Model
>>> from workbench.regeneration.product import build_product_glb
>>> posed = Model(build_product_glb("demo")).posed()
>>> len(posed.draws) > 0
True
"""

from __future__ import annotations

import io
from concurrent.futures import Future
from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np
from PIL import Image

from workbench import threads
from workbench.gltf.glb import image_bytes, read_accessor, read_glb
from workbench.gltf.pose import sample_keyframes

from .loops import add_skin_matrices, apply_skin, opaque_blocks, rgb_texels

__all__ = ["Model", "Material", "Texture", "Draw", "Posed", "load_clip"]


# --------------------------------------------------------------------------
# Small math
# --------------------------------------------------------------------------

def quat_to_mat3(q: np.ndarray) -> np.ndarray:
    """Rotation matrices of unit quaternions (..., 4) in glTF order x, y, z, w."""
    q = np.asarray(q, dtype=np.float64)
    n = np.linalg.norm(q, axis=-1, keepdims=True)
    q = q / np.where(n == 0, 1, n)
    x, y, z, w = q[..., 0], q[..., 1], q[..., 2], q[..., 3]
    m = np.empty(q.shape[:-1] + (3, 3))
    m[..., 0, 0] = 1 - 2 * (y * y + z * z)
    m[..., 0, 1] = 2 * (x * y - z * w)
    m[..., 0, 2] = 2 * (x * z + y * w)
    m[..., 1, 0] = 2 * (x * y + z * w)
    m[..., 1, 1] = 1 - 2 * (x * x + z * z)
    m[..., 1, 2] = 2 * (y * z - x * w)
    m[..., 2, 0] = 2 * (x * z - y * w)
    m[..., 2, 1] = 2 * (y * z + x * w)
    m[..., 2, 2] = 1 - 2 * (x * x + y * y)
    return m


def trs_matrix(t, r, s) -> np.ndarray:
    m = np.eye(4)
    m[:3, :3] = quat_to_mat3(np.asarray(r)) * np.asarray(s, dtype=np.float64)[None, :]
    m[:3, 3] = t
    return m


# --------------------------------------------------------------------------
# Materials and textures
# --------------------------------------------------------------------------

@dataclass
class Texture:
    """A decoded image: ``texels`` (H * W,) uint32, each the 4 bytes R, G, B, A in sRGB.

    Packed so a lookup gathers one 4-byte word per corner: bilinear filtering
    measured 15 ms against 75 ms on float32 linear RGB rows (300k lookups,
    1024 px); filtering happens before the conversion to linear light.

    A model's textures made from pixels share one buffer (``base``, this one's texels from ``offset`` on), the
    array the shading loop reads every texture from, filled on a helper thread while the model is posed
    (:meth:`place`: reading ``texels`` waits for it).

    >>> Texture(np.zeros(4, np.uint32), 2, 2, False).texels.shape
    (4,)
    """

    def __init__(self, texels: np.ndarray, width: int, height: int, has_alpha: bool, wrap_s: int = 10497,
                 wrap_t: int = 10497):
        self._ready: Future | None  # set by place() when another thread fills the texels
        self._texels, self._ready = texels, None
        self.width, self.height, self.has_alpha = width, height, has_alpha
        self.wrap_s, self.wrap_t = wrap_s, wrap_t
        self.base: np.ndarray | None = None
        self.offset = 0
        self._blocks: np.ndarray | None = None

    def place(self, base: np.ndarray, offset: int, ready: Future | None = None) -> None:
        """This texture's texels as ``base`` from ``offset`` on, there once ``ready`` is done."""
        self._texels, self._ready = base[offset:offset + self.width * self.height], ready
        self.base, self.offset = base, offset

    @property
    def texels(self) -> np.ndarray:
        if self._ready is not None:
            self._ready.result()     # (raises what filling the buffer raised)
            self._ready = None
        return self._texels

    def least_alphas(self) -> np.ndarray:
        """This texture's :func:`~workbench.render.loops.opaque_blocks`, made at its first alpha-tested draw and kept
        (a model drawn from two to four sides made them again for each)."""
        if self._blocks is None:
            self._blocks = opaque_blocks(self.texels, self.width, self.height)
        return self._blocks


# Blended materials whose alpha is the coverage of hairs (named so by workbench.gltf.avatar), never glass. (Curly
# hair's fringe has no anisotropy: taken for glass, its scalp band's clear texels reflected at full strength over
# the brow, a pale grey strip ending in a white line, review E.)
COVERAGE = ("Eyebrows", "Eyelashes", "Hair")
# The glasses' material (workbench.gltf.avatar): glass whatever its alpha mode (a sunglass lens is alpha-tested).
GLASSES = "Glasses"


def is_glass(alpha_mode: str, name: str, anisotropy: float) -> bool:
    """Whether the shader draws a material as glass (a lens: its reflection laid over what is behind whole, not
    thinned by its alpha, :func:`workbench.render.loops.shade`): blended or the glasses', not hair's coverage.

    >>> is_glass("BLEND", "Glasses", 0.0), is_glass("MASK", "Glasses", 0.0), is_glass("BLEND", "Hair_Fringe", 0.0)
    (True, True, False)
    """
    return (alpha_mode == "BLEND" or name == GLASSES) and not anisotropy and not name.startswith(COVERAGE)


@dataclass
class Material:
    """What the shader needs of a glTF material."""

    color: np.ndarray                      # linear RGBA factor
    texture: Texture | None = None
    texcoord: int = 0
    alpha_mode: str = "OPAQUE"
    alpha_cutoff: float = 0.5
    double_sided: bool = False
    emissive: np.ndarray = field(default_factory=lambda: np.zeros(3, np.float32))
    name: str = ""
    roughness: float = 1.0                 # glTF's default: fully rough
    occlusion: Texture | None = None       # occlusionTexture: its red channel, linear (not sRGB)
    occlusion_texcoord: int = 0
    occlusion_strength: float = 1.0
    normal: Texture | None = None          # normalTexture: tangent space, linear
    normal_texcoord: int = 0
    normal_scale: float = 1.0
    metal_rough: Texture | None = None     # metallicRoughnessTexture: roughness in its green channel, linear
    metal_rough_texcoord: int = 0
    metallic: float = 1.0                  # metallicFactor (glTF's default 1), drawn only with that map: its blue
    # KHR_materials_anisotropy: strength 0..1 and the rotation (radians) of its direction from the
    # texture's u in the tangent plane (hair: a highlight band across the strands).
    anisotropy: float = 0.0
    anisotropy_rotation: float = 0.0
    specular: float = 1.0                  # KHR_materials_specular's factor (scales the highlights)
    specular_color: tuple = (1.0, 1.0, 1.0)   # ...and its specularColorFactor (the reflections' colour: the skin's)
    specular_texture: Texture | None = None   # ...and its specularTexture (the strength in its alpha): glass's only
    specular_texcoord: int = 0

    @property
    def glass(self) -> bool:
        """Drawn as glass (:func:`is_glass`)."""
        return is_glass(self.alpha_mode, self.name, self.anisotropy)


@dataclass
class Draw:
    """One primitive in world space: positions/normals (N, 3), uv (N, 2) or None, tris (M, 3)."""

    positions: np.ndarray
    normals: np.ndarray
    uv: np.ndarray | None
    colors: np.ndarray | None
    tris: np.ndarray
    material: Material
    mesh_name: str = ""
    material_index: int | None = None
    # TANGENT's direction (N, 3), posed, where the material is anisotropic (hair: along the strands' u).
    tangents: np.ndarray | None = None


@dataclass
class Posed:
    """A model in one pose: its draws and the world position of each named node."""

    draws: list[Draw]
    joints: dict[str, np.ndarray]
    joint_names: set[str]

    def points(self) -> np.ndarray:
        """Every vertex position, stacked (N, 3)."""
        if not self.draws:
            return np.zeros((0, 3), np.float32)
        return np.concatenate([d.positions for d in self.draws])


# --------------------------------------------------------------------------
# The model
# --------------------------------------------------------------------------

def _pack(buffer: np.ndarray, packing: list[tuple[int, np.ndarray]]) -> None:
    """Each (offset, RGB or RGBA pixels): the pixels as texels into ``buffer`` from ``offset`` on. Takes the
    offsets as arguments, never from the textures: it runs on a helper thread, and what it reads must be
    fixed before it starts (issue 45: reading each texture's offset raced with placing it, and under load the
    helper packed textures at offset 0, leaving the rest of the buffer as freed memory, another avatar's)."""
    for offset, pixels in packing:
        part = buffer[offset:offset + pixels.shape[0] * pixels.shape[1]]
        if pixels.shape[2] == 4:
            part[:] = np.ascontiguousarray(pixels).view(np.uint32).reshape(-1)
        else:
            rgb_texels(np.ascontiguousarray(pixels), part)


class Model:
    """A parsed GLB, ready to be posed and drawn many times (turntables reuse it).

    ``max_texture`` caps decoded texture sides: a JPEG is decoded at a reduced
    scale straight from its DCT (Pillow's ``draft``); other formats are resized
    after decoding.
    """

    def __init__(self, glb: bytes, *, max_texture: int = 1024, images: dict[int, np.ndarray] | None = None,
                 materials: bool = True):
        self.doc, self.bin = read_glb(bytes(glb))
        self.max_texture = max_texture
        # Pixels of images by index, used instead of decoding their bytes (a GLB made in this process
        # for rendering only: workbench.gltf.avatar.build_avatar_unencoded).
        self._images = images or {}
        self._accessors: dict[int, np.ndarray] = {}
        self._textures: dict[int, Texture | None] = {}
        # (source, wrapS, wrapT) -> the texture decoded once: two textures of one image that differ only in what this
        # renderer does not read (a sampler's filters: the hair's cards and its fringe, one with mipmaps, one without)
        self._decoded: dict[tuple, Texture | None] = {}
        # Textures made from pixels, and their pixels, until _fill puts them in one buffer.
        self._packing: list[tuple[Texture, np.ndarray]] = []
        # materials=False: a model read for its nodes and animations only (a clip's, load_clip), whose textures
        # would be decoded for nothing (speed38: a review test's view decoded its avatar's twice, once for the clip).
        self.materials = [self._material(i) for i in range(len(self.doc.get("materials", [])))] if materials else []
        self._fill()
        self._share()
        self.default_material = Material(color=np.ones(4, np.float32))
        nodes = self.doc.get("nodes", [])
        self.parent = [-1] * len(nodes)
        for i, n in enumerate(nodes):
            for c in n.get("children", []):
                self.parent[c] = i
        self.rest_trs = [self._node_trs(n) for n in nodes]
        self.names = [n.get("name", "") for n in nodes]
        scenes = self.doc.get("scenes", [])
        if scenes:
            roots = scenes[self.doc.get("scene", 0)].get("nodes", [])
        else:
            roots = [i for i, p in enumerate(self.parent) if p == -1]
        # Parents before children, so world matrices are one pass. Each node once: glTF forbids a node that is
        # its own descendant or has two parents, but a file may hold one all the same, and following it
        # again never ended (issue 45, item 2); a node met again keeps its first place.
        self.order: list[int] = []
        seen: set[int] = set()
        stack = [(r, -1) for r in reversed(roots)]
        while stack:
            i, parent = stack.pop()
            if i in seen:
                continue
            seen.add(i)
            self.order.append(i)
            self.parent[i] = parent   # the one it was reached from
            stack.extend((c, i) for c in reversed(nodes[i].get("children", [])) if c not in seen)
        self.joint_nodes = {j for s in self.doc.get("skins", []) for j in s.get("joints", [])}

    # -- accessors --------------------------------------------------------
    def accessor(self, index: int) -> np.ndarray:
        """The accessor's elements as an array (count, width), floats when normalized."""
        if index not in self._accessors:
            self._accessors[index] = read_accessor(self.doc, self.bin, index)
        return self._accessors[index]

    # -- textures and materials -------------------------------------------
    def texture(self, index: int) -> Texture | None:
        if index in self._textures:
            return self._textures[index]
        tex = self.doc["textures"][index]
        source = tex.get("source")
        ext = tex.get("extensions", {})
        if "EXT_texture_webp" in ext:
            source = ext["EXT_texture_webp"].get("source", source)
        sampler = self.doc.get("samplers", [])[tex["sampler"]] if "sampler" in tex else {}
        key = (source, sampler.get("wrapS", 10497), sampler.get("wrapT", 10497))
        if key in self._decoded:
            self._textures[index] = self._decoded[key]
            return self._decoded[key]
        result = None
        if source in self._images:
            result = self._from_array(self._images[source])
        elif source is not None:
            data = image_bytes(self.doc, self.bin, source)
            # An image outside the file (a plain URI) cannot be read here: the material colour stays.
            if data is not None:
                try:
                    result = self._decode(data)
                except Exception:  # an unreadable image draws as its material colour
                    result = None
        if result is not None:
            result.wrap_s, result.wrap_t = key[1], key[2]
        self._textures[index] = self._decoded[key] = result
        return result

    def _decode(self, data: bytes) -> Texture:
        im = Image.open(io.BytesIO(data))
        cap = self.max_texture
        if im.format == "JPEG":
            im.draft("RGB", (cap, cap))
        im.load()
        return self._texture_of(im)

    def _from_array(self, pixels: np.ndarray) -> Texture:
        """A texture from (H, W, 3 or 4) uint8 pixels, as if decoded from a PNG of them. Within the size
        cap the texels are the pixels themselves (RGBA as one uint32 each, RGB with an alpha added)
        instead of a round trip through Pillow, put in the model's one buffer by :meth:`_fill`."""
        if max(pixels.shape[:2]) > self.max_texture:
            return self._texture_of(Image.fromarray(np.ascontiguousarray(pixels), "RGBA" if pixels.shape[2] == 4 else "RGB"))
        h, w, channels = pixels.shape
        tex = Texture(np.zeros(0, np.uint32), w, h, channels == 4)
        self._packing.append((tex, pixels))
        return tex

    def _fill(self) -> None:
        """The textures made from pixels: one buffer for all, filled on a helper thread (a new avatar's eleven
        RGB textures are 10 ms of packing and the shading loop's one array of them 7 ms more of copying;
        posing it is 10 ms: side by side, as the service's first preview does)."""
        if not self._packing:
            return
        offsets = np.cumsum([0] + [t.width * t.height for t, _ in self._packing])
        buffer = np.empty(int(offsets[-1]), np.uint32)
        # Everything the helper reads is decided here, before it starts: the offsets, and the pixels' list.
        packing = [(int(at), pixels) for (_, pixels), at in zip(self._packing, offsets[:-1], strict=True)]
        ready = threads.start(lambda: _pack(buffer, packing))
        for (tex, _), (at, _) in zip(self._packing, packing, strict=True):
            tex.place(buffer, at, ready)
        self._packing = []

    def _share(self) -> None:
        """The decoded textures' texels in one buffer, as :meth:`_fill` puts those made from pixels: the shading loop
        reads every texture from one array, and without it each frame copied them all into a new one (speed38: 10 to
        20 ms of each view of a kept model, workbench.render.pictures). A model with both kinds keeps the copy."""
        decoded = [t for t in self._decoded.values() if t is not None]
        loose = list({id(t): t for t in decoded}.values())
        if len(loose) < 2 or any(t.base is not None for t in loose):
            return
        buffer = np.concatenate([t.texels for t in loose])
        at = 0
        for t in loose:
            t.place(buffer, at)
            at += t.width * t.height

    def _texture_of(self, im: Image.Image) -> Texture:
        cap = self.max_texture
        if max(im.size) > cap:
            scale = cap / max(im.size)
            im = im.resize((max(1, round(im.width * scale)), max(1, round(im.height * scale))), Image.Resampling.BILINEAR)
        has_alpha = im.mode in ("RGBA", "LA", "PA") or (im.mode == "P" and "transparency" in im.info)
        arr = np.ascontiguousarray(np.asarray(im.convert("RGBA")))
        return Texture(texels=arr.view(np.uint32).reshape(-1), width=arr.shape[1], height=arr.shape[0],
                       has_alpha=has_alpha)

    def _material(self, index: int) -> Material:
        m = self.doc["materials"][index]
        pbr = m.get("pbrMetallicRoughness", {})
        tex = None
        texcoord = 0
        if "baseColorTexture" in pbr:
            tex = self.texture(pbr["baseColorTexture"]["index"])
            texcoord = pbr["baseColorTexture"].get("texCoord", 0)
        occ = m.get("occlusionTexture")
        nrm = m.get("normalTexture")
        mr = pbr.get("metallicRoughnessTexture")
        aniso = m.get("extensions", {}).get("KHR_materials_anisotropy", {})
        specular = m.get("extensions", {}).get("KHR_materials_specular", {})
        # (its specular map decoded where the shader reads it, on glass: the skin's and the teeth's are not read)
        spec_map = specular.get("specularTexture") if is_glass(m.get("alphaMode", "OPAQUE"), m.get("name", ""),
                                                                float(aniso.get("anisotropyStrength", 0.0))) else None
        return Material(
            color=np.asarray(pbr.get("baseColorFactor", [1, 1, 1, 1]), np.float32),
            texture=tex, texcoord=texcoord,
            alpha_mode=m.get("alphaMode", "OPAQUE"),
            alpha_cutoff=float(m.get("alphaCutoff", 0.5)),
            double_sided=bool(m.get("doubleSided", False)),
            emissive=np.asarray(m.get("emissiveFactor", [0, 0, 0]), np.float32),
            name=m.get("name", ""), roughness=float(pbr.get("roughnessFactor", 1.0)),
            occlusion=self.texture(occ["index"]) if occ else None,
            occlusion_texcoord=occ.get("texCoord", 0) if occ else 0,
            occlusion_strength=float(occ.get("strength", 1.0)) if occ else 1.0,
            normal=self.texture(nrm["index"]) if nrm else None, normal_texcoord=nrm.get("texCoord", 0) if nrm else 0,
            normal_scale=float(nrm.get("scale", 1.0)) if nrm else 1.0,
            metal_rough=self.texture(mr["index"]) if mr else None,
            metal_rough_texcoord=mr.get("texCoord", 0) if mr else 0,
            metallic=float(pbr.get("metallicFactor", 1.0)),
            anisotropy=float(aniso.get("anisotropyStrength", 0.0)),
            anisotropy_rotation=float(aniso.get("anisotropyRotation", 0.0)),
            specular=float(specular.get("specularFactor", 1.0)),
            specular_color=tuple(float(c) for c in specular.get("specularColorFactor", (1.0, 1.0, 1.0))),
            specular_texture=self.texture(spec_map["index"]) if spec_map else None,
            specular_texcoord=spec_map.get("texCoord", 0) if spec_map else 0)

    # -- nodes ------------------------------------------------------------
    @staticmethod
    def _node_trs(n: dict):
        if "matrix" in n:
            return np.asarray(n["matrix"], np.float64).reshape(4, 4).T
        return (np.asarray(n.get("translation", [0, 0, 0]), np.float64),
                np.asarray(n.get("rotation", [0, 0, 0, 1]), np.float64),
                np.asarray(n.get("scale", [1, 1, 1]), np.float64))

    def world_matrices(self, overrides: dict[int, dict[str, np.ndarray]] | None = None) -> dict[int, np.ndarray]:
        overrides = overrides or {}
        world: dict[int, np.ndarray] = {}
        for i in self.order:
            rest = self.rest_trs[i]
            if isinstance(rest, np.ndarray):
                local = rest
            else:
                o = overrides.get(i, {})
                local = trs_matrix(o.get("translation", rest[0]), o.get("rotation", rest[1]), o.get("scale", rest[2]))
            p = self.parent[i]
            world[i] = world[p] @ local if p >= 0 and p in world else local
        return world

    # -- posing -----------------------------------------------------------
    def posed(self, clip: Clip | None = None, time_s: float = 0.0, morphs: dict[str, float] | None = None) -> Posed:
        """World-space geometry in bind pose, or with ``clip`` evaluated at ``time_s``.

        morphs: morph target weights by name (``{"mouthSmileLeft": 0.6}``), found in each mesh's
        ``extras.targetNames`` (the names three.js's ``morphTargetDictionary`` reads); a mesh
        without a name keeps its default ``weights``. Unknown names are ignored: not every mesh
        carries every shape (the teeth have no brow shapes).
        """
        overrides = clip.evaluate(time_s, self.names) if clip is not None else None
        world = self.world_matrices(overrides)
        draws: list[Draw] = []
        nodes = self.doc.get("nodes", [])
        for i in self.order:
            n = nodes[i]
            if "mesh" not in n:
                continue
            mesh = self.doc["meshes"][n["mesh"]]
            skin_mats = None
            if "skin" in n:
                skin = self.doc["skins"][n["skin"]]
                joints = skin["joints"]
                if "inverseBindMatrices" in skin:
                    ibm = self.accessor(skin["inverseBindMatrices"]).reshape(-1, 4, 4).transpose(0, 2, 1)
                else:
                    ibm = np.broadcast_to(np.eye(4), (len(joints), 4, 4))
                skin_mats = np.stack([world[j] for j in joints]) @ ibm
            for prim in mesh.get("primitives", []):
                d = self._draw(prim, world[i], skin_mats, mesh.get("name", ""), self._weights(mesh, n, morphs))
                if d is not None:
                    draws.append(d)
        joints = {self.names[i]: world[i][:3, 3].astype(np.float32) for i in self.order if self.names[i]}
        joint_names = {self.names[i] for i in self.joint_nodes}
        return Posed(draws=draws, joints=joints, joint_names=joint_names)

    @staticmethod
    def _weights(mesh: dict, node: dict, morphs: dict[str, float] | None) -> np.ndarray | None:
        """The morph weights of one mesh: the node's or mesh's defaults, then ``morphs`` by target name."""
        count = max((len(p.get("targets", [])) for p in mesh.get("primitives", [])), default=0)
        if not count:
            return None
        w = np.zeros(count, np.float64)
        default = node.get("weights", mesh.get("weights"))
        if default is not None:
            w[: len(default)] = np.asarray(default, np.float64)[:count]
        names = (mesh.get("extras") or {}).get("targetNames") or []
        for k, name in enumerate(names[:count]):
            if morphs and name in morphs:
                w[k] = float(morphs[name])
        return w if w.any() else None

    def _draw(self, prim: dict, node_world: np.ndarray, skin_mats, mesh_name: str,
              morph_weights: np.ndarray | None = None) -> Draw | None:
        mode = prim.get("mode", 4)
        attrs = prim.get("attributes", {})
        if mode not in (4, 5, 6) or "POSITION" not in attrs:
            return None  # points and lines have no surface to shade
        pos = self.accessor(attrs["POSITION"]).astype(np.float64)
        n = len(pos)
        if "indices" in prim:
            idx = self.accessor(prim["indices"]).reshape(-1).astype(np.int64)
        else:
            idx = np.arange(n)
        if mode == 4:
            tris = idx[: len(idx) // 3 * 3].reshape(-1, 3)
        elif mode == 5:  # strip: every other triangle flips to keep the winding
            k = np.arange(len(idx) - 2)
            tris = np.stack([idx[k], idx[k + 1 + (k % 2)], idx[k + 2 - (k % 2)]], 1)
        else:
            k = np.arange(1, len(idx) - 1)
            tris = np.stack([np.full_like(k, idx[0]), idx[k], idx[k + 1]], 1)
        nrm = self.accessor(attrs["NORMAL"]).astype(np.float64) if "NORMAL" in attrs else None
        if morph_weights is not None:
            # Morph targets before skinning, as glTF defines them: base + sum of weight x displacement.
            pos = pos.copy()
            nrm = nrm.copy() if nrm is not None else None
            for wk, target in zip(morph_weights, prim.get("targets", []), strict=False):
                if not wk:
                    continue
                if "POSITION" in target:
                    pos += wk * self.accessor(target["POSITION"])
                if nrm is not None and "NORMAL" in target:
                    nrm += wk * self.accessor(target["NORMAL"])
        mat_index = prim.get("material")
        material = self.materials[mat_index] if mat_index is not None else self.default_material
        # An anisotropic material's tangents (its highlight's direction), posed like the normals.
        tan = (self.accessor(attrs["TANGENT"])[:, :3].astype(np.float64)
               if material.anisotropy > 0 and "TANGENT" in attrs else None)
        if skin_mats is not None and "JOINTS_0" in attrs and "WEIGHTS_0" in attrs:
            mats = np.zeros((n, 3, 4))
            s = 0
            blend = np.ascontiguousarray(skin_mats, np.float64)
            while f"JOINTS_{s}" in attrs and f"WEIGHTS_{s}" in attrs:
                j = np.ascontiguousarray(self.accessor(attrs[f"JOINTS_{s}"]), np.int64)
                w = np.ascontiguousarray(self.accessor(attrs[f"WEIGHTS_{s}"]), np.float64)
                add_skin_matrices(mats, j, w, blend)
                s += 1
            p = apply_skin(mats, np.ascontiguousarray(pos, np.float64), True)
            if nrm is not None:
                # The inverse transpose is the same as the matrix for rotation plus uniform scale,
                # which is what skinning produces in practice; renormalized below.
                nrm = apply_skin(mats, np.ascontiguousarray(nrm, np.float64), False)
            if tan is not None:
                tan = apply_skin(mats, np.ascontiguousarray(tan, np.float64), False)
        else:
            p = pos @ node_world[:3, :3].T + node_world[:3, 3]
            if nrm is not None:
                nrm = nrm @ np.linalg.inv(node_world[:3, :3])
            if tan is not None:
                tan = tan @ node_world[:3, :3].T
        if nrm is None:
            nrm = _vertex_normals(p, tris)
        ln = np.linalg.norm(nrm, axis=1, keepdims=True)
        nrm = nrm / np.where(ln == 0, 1, ln)
        uv = None
        key = f"TEXCOORD_{material.texcoord}"
        if key in attrs:
            uv = self.accessor(attrs[key]).astype(np.float32)
        colors = None
        if "COLOR_0" in attrs:
            c = self.accessor(attrs["COLOR_0"]).astype(np.float32)
            if c.shape[1] == 3:
                c = np.concatenate([c, np.ones((len(c), 1), np.float32)], 1)
            colors = c
        return Draw(positions=p.astype(np.float32), normals=nrm.astype(np.float32), uv=uv,
                    colors=colors, tris=tris.astype(np.int32), material=material, mesh_name=mesh_name,
                    material_index=mat_index, tangents=None if tan is None else tan.astype(np.float32))


def _vertex_normals(p: np.ndarray, tris: np.ndarray) -> np.ndarray:
    fn = np.cross(p[tris[:, 1]] - p[tris[:, 0]], p[tris[:, 2]] - p[tris[:, 0]])
    out = np.zeros_like(p)
    for k in range(3):
        np.add.at(out, tris[:, k], fn)
    return out


# --------------------------------------------------------------------------
# Animation clips
# --------------------------------------------------------------------------

class Clip:
    """One animation of a GLB: channels by target node name, evaluated at a time."""

    def __init__(self, model: Model, index: int = 0):
        anims = model.doc.get("animations", [])
        if not anims:
            raise ValueError("render: the clip GLB has no animation")
        anim = anims[index]
        self.name = anim.get("name", "")
        self.source: str | None = None  # "gender/name" for a library clip (load_clip), else None
        # The clip file's own rest translations by node name (to tell skeletons apart).
        self.rest_offsets = {model.names[i]: np.asarray(t[0]) for i, t in enumerate(model.rest_trs)
                             if not isinstance(t, np.ndarray)}
        self.channels = []
        self.duration = 0.0
        for ch in anim.get("channels", []):
            target = ch.get("target", {})
            if "node" not in target or target.get("path") not in ("translation", "rotation", "scale"):
                continue  # morph weights do not move joints
            sampler = anim["samplers"][ch["sampler"]]
            times = model.accessor(sampler["input"]).reshape(-1).astype(np.float64)
            values = model.accessor(sampler["output"]).astype(np.float64)
            if sampler.get("interpolation") != "CUBICSPLINE":
                values = values[: len(times)]
            self.channels.append((model.names[target["node"]], target["path"],
                                  sampler.get("interpolation", "LINEAR"), times, values))
            if len(times):
                self.duration = max(self.duration, float(times[-1]))

    def evaluate(self, t: float, names: list[str]) -> dict[int, dict[str, np.ndarray]]:
        """Local TRS overrides for the nodes of ``names`` that the clip animates."""
        by_name: dict[str, list[int]] = {}
        for i, nm in enumerate(names):
            by_name.setdefault(nm, []).append(i)
        out: dict[int, dict[str, np.ndarray]] = {}
        for name, path, interp, times, values in self.channels:
            if name not in by_name or not len(times):
                continue
            v = sample_keyframes(times, values, interp, t, path == "rotation")
            for i in by_name[name]:
                out.setdefault(i, {})[path] = v
        return out


def load_clip(source) -> Clip:
    """A clip from GLB bytes, or by name ``"gender/name"`` from ``workbench.gltf`` (a bare name: feminine)."""
    if isinstance(source, (bytes, bytearray, memoryview)):
        return _bytes_clip(bytes(source))
    if isinstance(source, str):
        gender, _, name = source.rpartition("/")
        return _library_clip(gender or "feminine", name)
    raise TypeError("render: a pose clip is GLB bytes or an animation name")


@lru_cache(maxsize=2)
def _bytes_clip(glb: bytes) -> Clip:
    """A GLB's first clip, kept for the last two GLBs: the review tests and sheets pose an avatar in its own model's
    idle clip (``pose=(glb, 0.0)``) for each of two to four views. Read-only arrays, as :func:`_library_clip`'s."""
    return _read_only(Clip(Model(glb, max_texture=1, materials=False)))


def _read_only(clip: Clip) -> Clip:
    for *_, times, values in clip.channels:
        times.setflags(write=False)
        values.setflags(write=False)
    return clip


@lru_cache(maxsize=64)
def _library_clip(gender: str, name: str) -> Clip:
    """A library clip by name, read once per process (every preview poses its avatar in idle's first
    frame; building and reading the clip's GLB for each took 20 ms of a first preview). Its arrays are
    read-only: every caller shares it."""
    from workbench.gltf import build_animation  # only a name needs the library

    clip = Clip(Model(build_animation(gender, name), max_texture=1, materials=False))
    clip.source = f"{gender}/{name}"
    return _read_only(clip)
