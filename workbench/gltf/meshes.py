"""The avatar's meshes cut from the MakeHuman body (:mod:`workbench.body`), at a level of detail.

``parts(settings, lod)`` returns, in :data:`MESH_ORDER`, each mesh as a
:class:`~workbench.body.lod.Piece` (split vertices, glTF UVs on MakeHuman's layout, skin weights on
the avatar's skeleton, ``source`` into the body mesh for the morph targets):

- ``Body``: the base mesh's body group; ``Eyes``, ``Eyelashes``, ``Teeth`` (teeth and tongue): its
  helper geometry, skinned to ``Head`` (:data:`workbench.body.face.FACE_MESHES`); ``Eyebrows``: a shell over
  the brows' skin that carries their hairs (:mod:`workbench.body.brows`);
- ``Hair`` and ``Hair_Fringe``: cards grown from the scalp, alpha-tested and blended
  (:mod:`workbench.body.hair`; the GLB makes them two primitives of one mesh ``Hair``);
- ``Outfit_Top``, ``Outfit_Bottom``, ``Outfit_Footwear``: the ``tights`` and ``skirt`` helpers cut into the
  outfit's top, bottom and shoes (sneakers or boots, with their soles, tongues and laces), their edges
  finished, so they follow every body shape and deform with it (:mod:`workbench.body.outfit`);
  ``Glasses``: two lenses and a frame placed from the eyes, the temples over the ears.

LOD 1 and 2 decimate every mesh to 50 % and 25 % of its triangles (:func:`workbench.body.lod.decimate`),
but the hair, which has its own chain (fewer cards, then a baked shell: :data:`HAIR_PARTS`).

>>> from workbench.options import normalize_avatar_settings
>>> meshes = parts(normalize_avatar_settings({"gender": "feminine", "glasses": "clear"}), 2)
>>> list(meshes)
['Body', 'Eyes', 'Eyelashes', 'Eyebrows', 'Teeth', 'Hair', 'Outfit_Top', 'Outfit_Bottom', 'Outfit_Footwear', 'Glasses']
"""

from __future__ import annotations

from dataclasses import replace
from functools import lru_cache
from typing import NamedTuple

import numpy as np

from ..body.brows import brow_piece, brow_style
from ..body.corner_shade import rest_normals_of
from ..body.eyes import lid_arc, with_eye_uvs
from ..body.face import FACE_MESHES
from ..body.glasses import glasses_piece
from ..body.glasses_frames import shape_key
from ..body.hair import hair_pieces, with_lash_uvs
from ..body.lod import Piece, decimate, normals_of, piece
from ..body.mesh import BodyMesh, body_key, body_mesh, body_of
from ..body.mouth import fitted_teeth, lining_depth
from ..body.nose_shade import calm_nose
from ..body.outfit import hidden_skin, lower_pieces, outfit_pieces
from ..body.teeth_walls import lined
from ..skeleton import Skeleton

MESH_ORDER = ("Body", "Eyes", "Eyelashes", "Eyebrows", "Teeth", "Hair", "Hair_Sleek", "Hair_Fringe", "Outfit_Top",
              "Outfit_Bottom", "Outfit_Footwear", "Glasses")
# The hair's parts: made per level of detail by the hair itself, never decimated (Hair_Sleek: a sleek style's
# cards lying on the scalp, drawn single-sided: workbench.body.hair.pieces.lying; the bob's cards over the head, wound
# both ways: pieces.over_head).
HAIR_PARTS = ("Hair", "Hair_Sleek", "Hair_Fringe")
# Small meshes every level keeps whole (a decimated brow shell lost its shape; the glasses' frame its rims).
KEPT = ("Glasses", "Eyebrows")
# The meshes below the waist, which no portrait shows: a first portrait preview's model is made without them (the same
# pixels, tests/render/test_portrait_below.py; the slowest cut's, trousers over boots, about 20 ms of its build).
BELOW = ("Outfit_Bottom", "Outfit_Footwear")
LOD_RATIOS = {0: 1.0, 1: 0.5, 2: 0.25}

# The glasses' texture: the frame's colour on the left half, the lens on the right (textures.py).
FRAME_UV = (0.25, 0.5)
LENS_UV = (0.75, 0.5)


def avatar_skeleton(settings: dict) -> Skeleton:
    """The avatar's rest skeleton: the body mesh's (65 joints, T-pose, identity rest rotations)."""
    return body_mesh(settings).skeleton


def _group_triangles(mesh: BodyMesh, *names: str) -> np.ndarray:
    return np.concatenate([mesh.face_groups[n] for n in names])


class PartsKey(NamedTuple):
    """What an avatar's meshes are made from (hashable): :func:`~workbench.body.mesh.body_key`'s body, the hair's
    style, the glasses' shape key (False without glasses) and the three garments' styles."""

    body: tuple[str, str, float, tuple]
    hair: str
    glasses: str | bool
    top: str
    bottom: str
    shoes: str


def _key(settings: dict) -> PartsKey:
    return PartsKey(body_key(settings), settings["hair"]["style"], shape_key(settings["glasses"]),
                    settings["outfit"]["topStyle"], settings["outfit"]["bottomStyle"], settings["outfit"]["shoeStyle"])


@lru_cache(maxsize=16)
def _glasses(body: tuple, glasses: str) -> Piece:
    """The glasses' piece of the body keyed ``body`` in the frame of shape key ``glasses``: it reads neither the hair
    nor the clothes nor the level, so one is made for all of them (the triangle budget's sweep made it again for each
    hair style and outfit: 60 % of its time, suite32)."""
    return glasses_piece(body_of(body), body[0], glasses)


@lru_cache(maxsize=16)
def _soft_corners(body: tuple) -> tuple[np.ndarray, np.ndarray]:
    """(the body-mesh vertices whose rest normals the mouth's soft corners turn, their normals): the body keyed ``body``
    (workbench.body.corner_shade.rest_normals)."""
    normals = rest_normals_of(body)
    turned = np.any(normals != body_of(body).normals, axis=1)
    return turned, normals


def _softened(p: Piece, body: tuple) -> Piece:
    """The Body piece ``p`` with the rest face's soft mouth corners (:func:`_soft_corners`)."""
    turned, normals = _soft_corners(body)
    at = turned[p.source]
    if not at.any():
        return p
    n = p.normals.copy()
    n[at] = normals[p.source[at]]
    return replace(p, normals=n)


@lru_cache(maxsize=16)   # (about 2 MB each at LOD 0, most of them held by _parts' entries too)
def _dressed(body: tuple, top: str, bottom: str, shoes: str) -> dict[str, Piece]:
    """LOD 0's pieces of the body keyed ``body`` in these clothes but the hair's, which they do not read (made once
    for every hair style; the hair's pieces read the clothes, not these pieces)."""
    return {**_upper(body, top, bottom), **lower_pieces(body_of(body), bottom, shoes)}


@lru_cache(maxsize=16)
def _upper(body: tuple, top: str, bottom: str) -> dict[str, Piece]:
    """:func:`_dressed`'s pieces but those of :data:`BELOW` (a portrait's; :func:`_dressed` adds them)."""
    mesh = body_of(body)
    # The skin the clothes hide well inside their rims is left out (workbench.body.outfit.garments).
    skin = mesh.face_groups["body"]
    out = {"Body": piece(mesh, skin[~hidden_skin(top, bottom)[mesh.triangles[skin]].any(1)])}
    # (the nose's wings and root lit by their broad shape, not the base mesh's creases: workbench.body.nose_shade)
    out["Body"] = replace(out["Body"], normals=calm_nose(mesh)[out["Body"].source])
    # (the rest face's soft mouth corners, then the cavity's walls, one surface)
    out["Body"] = lined(_softened(out["Body"], body), lining_depth(mesh)[out["Body"].source])
    for name, groups in FACE_MESHES.items():
        out[name] = piece(mesh, _group_triangles(mesh, *groups))
    out["Teeth"] = fitted_teeth(mesh, out["Teeth"])
    out["Eyes"] = with_eye_uvs(mesh, out["Eyes"])
    out["Eyelashes"] = with_lash_uvs(mesh, out["Eyelashes"])
    out["Eyebrows"] = brow_piece(mesh, brow_style(body))
    out.update(outfit_pieces(mesh, top, bottom, below=False))
    return out


@lru_cache(maxsize=64)
def _parts(key: PartsKey, lod: int) -> dict[str, Piece]:
    body, hair, glasses, top, bottom, shoes = key
    mesh = body_of(body)
    if isinstance(glasses, str):     # (shape_key: False without glasses)
        # The glasses are a piece of their own, kept whole at every level (KEPT): the other pieces are the same
        # avatar's without them, made once for both (the triangle budget's sweep measured each twice).
        out = {**_parts(key._replace(glasses=False), lod), "Glasses": _glasses(body, glasses)}
        return {n: out[n] for n in MESH_ORDER if n in out}
    if lod:
        whole = _parts(key, 0)
        out = {name: (p if name in KEPT else decimate(p, LOD_RATIOS[lod]))
               for name, p in whole.items() if name not in HAIR_PARTS}
        # The decimated pieces' normals are the coarser surface's; the mouth's lining and teeth keep the turned
        # normals LOD 0 gave them (teeth_walls: without, LOD 1's lining faced out of the mouth at 4 % of its deep
        # vertices, LOD 0's at all).
        out["Body"] = lined(_softened(out["Body"], body), lining_depth(mesh)[out["Body"].source])
        out["Teeth"] = normals_of(out["Teeth"], whole["Teeth"])
        out.update(hair_pieces(mesh, hair, lod, top, bottom, sleek=True))
        return {n: out[n] for n in MESH_ORDER if n in out}
    out = {**_dressed(body, top, bottom, shoes), **_hair(body, hair, top, bottom)}
    return {n: out[n] for n in MESH_ORDER if n in out}


@lru_cache(maxsize=16)
def _hair(body: tuple, hair: str, top: str, bottom: str) -> dict[str, Piece]:
    """LOD 0's hair pieces (made once for a portrait's pieces and the whole avatar's)."""
    return hair_pieces(body_of(body), hair, 0, top, bottom, sleek=True)


@lru_cache(maxsize=16)
def _upper_parts(key: PartsKey) -> dict[str, Piece]:
    """:func:`_parts` at LOD 0 but those of :data:`BELOW` (the same objects: the whole avatar's adds them)."""
    body, hair, glasses, top, bottom, _ = key
    out = {**_upper(body, top, bottom), **_hair(body, hair, top, bottom)}
    if isinstance(glasses, str):
        out["Glasses"] = _glasses(body, glasses)
    return {n: out[n] for n in MESH_ORDER if n in out}


def parts(settings: dict, lod: int = 0, *, below: bool = True) -> dict[str, Piece]:
    """The avatar's meshes at ``lod`` (0, 1 or 2), by name in MESH_ORDER (cached; treat as read-only). ``below`` False:
    LOD 0's without those of :data:`BELOW`, which a portrait never shows (made only when asked for).

    >>> from workbench.options import normalize_avatar_settings
    >>> s = normalize_avatar_settings({"gender": "feminine"})
    >>> sorted(set(parts(s)) - set(parts(s, below=False)))
    ['Outfit_Bottom', 'Outfit_Footwear']
    """
    if below:
        return _parts(_key(settings), lod)
    if lod:
        raise ValueError("parts: below=False is LOD 0's (a first preview's)")
    return _upper_parts(_key(settings))


def prepare_hair(settings: dict) -> None:
    """Make LOD 0's hair pieces of ``settings`` (kept for :func:`parts`): a build may make them on a helper thread
    while :func:`prepare_rest` makes the others (they read the body and the fitted clothes, which
    :func:`~workbench.body.outfit.garments.dressed` fits once however many threads ask, not the clothes' pieces)."""
    body, hair, _, top, bottom, _ = _key(settings)
    _hair(body, hair, top, bottom)


def prepare_rest(settings: dict, *, below: bool = True) -> None:
    """Make LOD 0's pieces of ``settings`` but the hair's (kept for :func:`parts`; ``below`` as there)."""
    body, _, glasses, top, bottom, shoes = _key(settings)
    if below:
        _dressed(body, top, bottom, shoes)
    else:
        _upper(body, top, bottom)
    if isinstance(glasses, str):
        _glasses(body, glasses)


def parts_key(settings: dict) -> PartsKey:
    """Everything of ``settings`` the meshes are made from (the body's key, the hair's style, the glasses' shape,
    the three garments' styles): two avatars with the same key have the same :func:`parts` and skeleton.

    >>> from workbench.options import normalize_avatar_settings
    >>> s = normalize_avatar_settings({"gender": "feminine"})
    >>> same = {**s, "outfit": {**s["outfit"], "top": "#8C3B3B"}, "pose": "hand_on_hip"}
    >>> parts_key(s) == parts_key(same), parts_key(s) == parts_key({**s, "height": 150.0})
    (True, False)
    """
    return _key(settings)


def parts_of(key: PartsKey, lod: int = 0) -> dict[str, Piece]:
    """:func:`parts` for a :func:`parts_key` (a cache keyed by it can call it; treat as read-only).

    >>> from workbench.options import normalize_avatar_settings
    >>> s = normalize_avatar_settings({"gender": "masculine"})
    >>> parts_of(parts_key(s), 2) is parts(s, 2)
    True
    """
    return _parts(key, lod)


@lru_cache(maxsize=64)
def _lid(body: tuple) -> tuple[float, float]:
    return lid_arc(body_of(body))


def eye_lid(settings: dict) -> tuple[float, float]:
    """Where the avatar's upper lids cross its eyes (:func:`workbench.body.eyes.lid_arc`), for the eyes' texture to
    shade the eye under them (the lid moves with eyeSize, the gender's rest and the face's variety)."""
    return _lid(_key(settings)[0])


def triangle_count(settings: dict, lod: int = 0) -> int:
    """All meshes' triangles at ``lod``."""
    return sum(p.triangles for p in parts(settings, lod).values())
