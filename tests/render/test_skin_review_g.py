"""Blind review G's skin notes on light tones (issue 46, defect #10): "on light skin the nostrils are pitch-black holes
(#4, #6, #12)" and "a red blotch at the jaw on light tones (#10, #6, worse in three.js)". Each measured as a person
sees it: the nostrils in our renderer's mouth close-up (the review sheets' camera) against the cheek beside them, and
the cheeks' flush in the skin's texture, on the jaw's side against its heart on the cheekbone."""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from built import sheet_glb
from helpers import UNLIT, face_hollows

from workbench.body import skin
from workbench.body.ao import body_texels
from workbench.body.mesh import body_mesh
from workbench.body.tone import lab
from workbench.options import normalize_avatar_settings
from workbench.render.pictures import SUPERSAMPLE
from workbench.render.raster import draw
from workbench.render.scene import Material, Model, Texture, load_clip

ROOT = Path(__file__).resolve().parents[2]
SIZE = 384
# Review G's light tones whose nostrils read as holes (#4, #6, #12: gender, tone, face), bald and without glasses.
LIGHT = [("feminine", "#EBB99F", {"noseWidth": 0.8, "noseLength": 0.3, "cheekbones": 0.6}),
         ("feminine", "#E8B9A3", {"noseWidth": 0.5, "noseLength": 0.4, "chinLength": 0.9}),
         ("masculine", "#DFB49F", {"noseWidth": -1.0, "noseLength": -0.9, "jawWidth": 0.8})]


def _linear(srgb: np.ndarray) -> np.ndarray:
    c = srgb / 255.0
    return np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)


def nostril_vertices(mesh) -> np.ndarray:
    """Body vertices of ``mesh`` (T-pose) inside the nostrils: within 9 mm of a point 8 mm under and 11 mm behind
    the nose's tip, facing down (the holes' walls and floor, not the nose's wings)."""
    pos = mesh.positions.astype(np.float64)
    body = np.asarray(mesh.groups["body"])
    p, n = pos[body], mesh.normals[body]
    eyes = [pos[mesh.groups[g]].mean(0) for g in ("helper-l-eye", "helper-r-eye")]
    mid = (eyes[0] + eyes[1]) / 2
    ridge = (p[:, 2] > mid[2] - 0.04) & (np.abs(p[:, 0] - mid[0]) < 0.012) & (p[:, 1] < mid[1] - 0.01) \
        & (p[:, 1] > mid[1] - 0.07)
    tip = p[ridge][np.argmax(p[ridge][:, 2])]
    near = np.linalg.norm(p - (tip + [0.0, -0.008, -0.011]), axis=1) < 0.009
    return body[near & (n[:, 1] < -0.4)]


@pytest.fixture(scope="module")
def close_ups():
    """Per light tone: our renderer's mouth close-up (the review sheets' camera, lit as the previews are) and the
    pixels that show the nostrils and the cheek (the same camera, the body textured with a mask on its UVs)."""
    sys.path[:0] = [str(ROOT / "data")]
    import make_review_sheets as sheets

    out = []
    for gender, tone, face in LIGHT:
        settings = {"gender": gender, "skinTone": tone, "face": face, "hair": {"style": "none"}, "glasses": "none"}
        glb = sheet_glb(settings)  # sheets._glb(settings), built once per run
        _, cam = sheets.mouth_camera(glb)
        posed = Model(glb).posed(load_clip(glb), 0.0)
        lit = draw(posed, cam, SIZE, ss=SUPERSAMPLE)[..., :3].astype(float)
        mesh = body_mesh(normalize_avatar_settings(settings))
        values = np.zeros((len(mesh.positions), 3), np.float32)
        values[nostril_vertices(mesh), 0] = 1
        values[face_hollows(mesh)["cheek"], 1] = 1
        paint = body_texels(mesh).paint_vertices(mesh.triangles[mesh.face_groups["body"]], values)
        rgba = np.full(paint.shape[:2] + (4,), 255, np.uint8)
        rgba[..., :3] = np.where(paint > 0.5, 255, 0)
        mask = Texture(rgba.view(np.uint32).reshape(-1), rgba.shape[1], rgba.shape[0], False, 33071, 33071)
        white, black = Material(color=np.ones(4, np.float32)), Material(color=np.array([0, 0, 0, 1], np.float32))
        draws = [replace(d, material=replace(white, texture=mask) if d.mesh_name == "Body" else black)
                 for d in posed.draws]
        m = draw(replace(posed, draws=draws), cam, SIZE, ss=1, lights=UNLIT)
        out.append((tone, lit, m[..., 0] > 200, m[..., 1] > 200))
    return out


def test_light_skin_nostrils_are_a_soft_shade(close_ups):
    """The nostrils' mean luminance (linear) over the cheek's, on each of review G's three light tones, at least 0.33
    and 0.38 over the three (measured: main 0.27 to 0.36, 0.31 over the three: pitch-black holes at a portrait's
    size; then 0.36 to 0.48, 0.41; with every nose tip forward (lips10) 0.34 to 0.42 at a floor of 0.9, now 0.35 to 0.44,
    0.385)."""
    ratios = []
    for tone, lit, nostrils, cheek in close_ups:
        assert nostrils.sum() > 40 and cheek.sum() > 40, (tone, int(nostrils.sum()), int(cheek.sum()))
        lum = _linear(lit) @ np.array([0.2126, 0.7152, 0.0722])
        ratios.append(float(lum[nostrils].mean() / lum[cheek].mean()))
    assert min(ratios) >= 0.33, ratios
    assert np.mean(ratios) >= 0.38, ratios


def _redness(img: np.ndarray, at: np.ndarray) -> float:
    """CIELAB a* of the texture ``img``'s mean colour over the flat texel indices ``at``."""
    return float(lab(img.reshape(-1, 3)[at].astype(np.float64).mean(0) / 255.0)[1])


@pytest.mark.parametrize("gender", ["feminine", "masculine"])
def test_the_flush_stays_off_the_jaw(gender):
    """Review G #10's pale tone: the skin texture's redness (CIELAB a*) on the cheek's outer part at the mouth's height
    (4 to 5.5 cm to either side of the face's middle, 1 cm under to 1.5 cm over the mouth's corners: where a narrow
    jaw's face shapes push the cheek out into a lump) at most 0.3 over the bare skin's (the neck's front); the flush's
    heart, under the eye, keeps at least 4 (measured, feminine and masculine: main 0.55 and 1.16 on the lump's place,
    5.6 and 4.9 under the eye; now -0.18 and -0.01, 5.5 and 4.8)."""
    m = skin.reference_body(gender)
    faces = m.face_groups["body"]
    tmap = body_texels(m, skin.SKIN_SIZE)
    P = tmap.paint_vertices(m.triangles[faces], m.positions)
    x, y, z = P[..., 0].ravel(), P[..., 1].ravel(), P[..., 2].ravel()
    covered = tmap.covered.ravel()
    eye_l = m.positions[m.groups["helper-l-eye"]].mean(0)
    eye_r = m.positions[m.groups["helper-r-eye"]].mean(0)
    corner_l, corner_r = skin.lip_corners(m)
    mid, slit = (eye_l[0] + eye_r[0]) / 2, (corner_l[1] + corner_r[1]) / 2
    face = covered & (z > eye_l[2] - 0.09)
    jaw = np.flatnonzero(face & (np.abs(x - mid) > 0.04) & (np.abs(x - mid) < 0.055) & (y > slit - 0.01) & (y < slit + 0.015))
    cheek = np.flatnonzero(face & (np.hypot(np.abs(x - mid) - abs(eye_l[0] - mid), y - eye_l[1] + 0.03) < 0.008))
    neck = np.flatnonzero(covered & (np.abs(x - mid) < 0.02) & (y < slit - 0.08) & (y > slit - 0.11) & (z > eye_l[2] - 0.06))
    # (The face's outer skin only: within 15 mm of each place's frontmost texel. Chosen by x and y alone, the cheek's
    # place also took the mouth's lining behind it, so the lining's colour moved the cheek's figure: mouth13's browner
    # lining took it from 5.5/4.8 to 3.4/3.0. On the outer skin alone the heart measures 4.16/3.22 (jaw 0.26/-0.01), as before mouth13: the
    # old bound of 4 had been set on figures the lining lifted, so it is 3 now.)
    jaw, cheek = (i[z[i] > z[i].max() - 0.015] for i in (jaw, cheek))
    assert min(len(jaw), len(cheek), len(neck)) > 50, (len(jaw), len(cheek), len(neck))
    img = skin.skin_texture("#D9A88E", gender)
    bare = _redness(img, neck)
    assert _redness(img, jaw) - bare <= 0.3
    assert _redness(img, cheek) - bare >= 3.0, (_redness(img, cheek) - bare)
