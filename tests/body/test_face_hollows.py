"""The face's hollows in the body's baked occlusion (blind review F #5: "light skin blows out to almost white, #10
loses its face shape" in three.js with ACES and RoomEnvironment, where the room is all the light and the GLB's
``occlusionTexture`` scales it). The texture, read through each vertex's UVs as a viewer reads it, is darker in the
eye sockets and beside the nostrils than on the cheek, the cheek stays open, no hollow falls to the depth our
renderer keeps for the inside of a mouth (``CAVE_LIT_SKIN``), and no hard edge appears (review F #4's dark line under
the jaw)."""

from __future__ import annotations

import numpy as np
import pytest
from helpers import face_hollows, random_settings

from workbench.body import ao
from workbench.body.mesh import body_mesh
from workbench.options import normalize_avatar_settings
from workbench.render.loops import CAVE_DARK, CAVE_LIT_SKIN

SEED = 5146


@pytest.fixture(scope="module")
def faces():
    """(mesh, occlusion texture as 0..1) of six random bodies."""
    out = []
    for s in random_settings(6, SEED):
        m = body_mesh(normalize_avatar_settings(s))
        out.append((m, ao.occlusion_texture(m)[..., 0] / 255.0))
    return out


def texels_at(mesh, img: np.ndarray, ids: np.ndarray) -> np.ndarray:
    """The texture ``img`` at the vertices ``ids`` (each at a corner's UV; v up, rows down as glTF reads them)."""
    tris = mesh.triangles[mesh.face_groups["body"]]
    uv = np.zeros((len(mesh.positions), 2))
    uv[tris.ravel()] = mesh.triangle_uvs[mesh.face_groups["body"]].reshape(-1, 2)
    size = img.shape[0]
    x = np.clip((uv[ids, 0] * size).astype(int), 0, size - 1)
    y = np.clip(((1 - uv[ids, 1]) * size).astype(int), 0, size - 1)
    return img[y, x]


def _read(mesh, img: np.ndarray, ids: np.ndarray) -> float:
    """The texture's mean at the vertices ``ids``."""
    return float(texels_at(mesh, img, ids).mean())


def test_the_hollows_are_darker_than_the_cheek(faces):
    """Over six random faces, the sockets at under 0.72 of the cheek's occlusion and beside the nostrils under 0.82
    (measured: main 0.79 and 0.85, the voxels' boxes seeing a socket as open skin; now 0.71 and 0.80); the cheek at
    0.85 and more (main 0.95 to 0.98, now 0.88 to 0.96: the open skin not dimmed much)."""
    socket, alar, cheek = [], [], []
    for m, img in faces:
        r = face_hollows(m)
        c = _read(m, img, r["cheek"])
        cheek.append(c)
        socket.append(_read(m, img, r["socket"]) / c)
        alar.append(_read(m, img, r["alar"]) / c)
    assert np.mean(socket) < 0.72, socket
    assert np.mean(alar) < 0.82, alar
    assert min(cheek) >= 0.85, cheek


def test_no_hollow_is_as_dark_as_a_mouth(faces):
    """Our renderer greys and fades its key light on skin below CAVE_LIT_SKIN, down to CAVE_DARK (the inside of a
    mouth): the face's hollows stay within the first fifth of that fade (measured 0.60 to 0.69), so the previews
    draw a socket as skin in shade, not as a grey cave (main's sockets reached 0.69 with the fade from 0.7)."""
    floor = CAVE_LIT_SKIN - 0.2 * (CAVE_LIT_SKIN - CAVE_DARK)
    for m, img in faces:
        r = face_hollows(m)
        for name in ("socket", "alar"):
            assert _read(m, img, r[name]) > floor, name


def test_the_face_has_no_hard_edge(faces):
    """The steps between neighbouring texels over the head's island (the texture's 320..512, 150..380 at 512 px:
    2.5 mm a texel on the face) no harder than the voxels' alone made them (main: 99.9th percentile 0.20 to 0.32,
    set by the nostrils, the mouth and the eyelids' rims)."""
    for _, img in faces:
        f = img[150 * img.shape[0] // 512:380 * img.shape[0] // 512, 320 * img.shape[0] // 512:]
        step = np.maximum(np.abs(np.diff(f, axis=0))[:, :-1], np.abs(np.diff(f, axis=1))[:-1])
        assert np.percentile(step, 99.9) < 0.33, np.percentile(step, 99.9)
