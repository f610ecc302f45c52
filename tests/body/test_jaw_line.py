"""No lumps below the ears (blind review G #3: "angular lumps stick out sideways under the ears and the jaw is wider
than the cheekbones", S3#10 and S3#11, both slim or athletic feminine faces with cheekbones at 0.5 to 0.6 and a narrow
jaw; "should be a smooth mandible line that tapers to the chin").

MakeHuman's cheekbones target pushes a patch 4 cm across 8 mm out sideways; a face's controls, its variety and its
build (slim and athletic take 0.3 of it) added up to 1.25 of it, and the patch stood out of the face around it as a
lump. Measured on the shaped body (decimetres, the same vertex on every body) as the lump's height: how far the
cheekbone (the zygion, the patch's vertex the target moves furthest out) stands out along its normal from a smoothed
copy of the face (its neighbours' mean, twelve rounds), over what its build's plain face gives (the same gender, body
shape and height without face controls or variety). And the jaw's angles (the gonion: the vertex MakeHuman's narrower
jaw moves furthest) kept from going back towards the neck, where the cheek in front of them stood out below the ear, a
corner in the jaw's line. Review G's two faces, every build at the jaw's and the cheekbones' ends, and random faces."""

from __future__ import annotations

from functools import cache

import numpy as np
import pytest
from helpers import random_settings
from scipy.sparse import coo_matrix

from workbench.body import compile as cc
from workbench.body.mesh import vertex_normals
from workbench.body.shape import face_weights, shaped
from workbench.options import normalize_avatar_settings

REVIEW_G = [random_settings(12, 4608)[k] for k in (9, 10)]      # S3#10 and S3#11
ENDS = [{"gender": g, "bodyShape": b, "height": 170.0, "face": {"cheekbones": c, "jawWidth": j}}
        for g in ("feminine", "masculine") for b in ("slim", "athletic", "average", "heavy")
        for c in (1.0, 0.5) for j in (-1.0, 1.0)]
DRAWN = [normalize_avatar_settings(s) for s in (*REVIEW_G, *ENDS, *random_settings(8, 5472))]


@cache
def _mesh() -> tuple[np.ndarray, object, np.ndarray, int]:
    """The body's triangles, its neighbour matrix and counts, and the left zygion's vertex."""
    d = cc.compiled()
    q = d["quads"][d["quad_group"] == list(d["face_group_names"]).index("body")]
    tris = np.concatenate([q[:, [0, 1, 2]], q[:, [0, 2, 3]]])
    a = np.concatenate([tris[:, 0], tris[:, 1], tris[:, 2], tris[:, 1], tris[:, 2], tris[:, 0]])
    b = np.concatenate([tris[:, 1], tris[:, 2], tris[:, 0], tris[:, 0], tris[:, 1], tris[:, 2]])
    m = coo_matrix((np.ones(len(a)), (a, b)), shape=(len(d["base"]),) * 2).tocsr()
    m.data[:] = 1.0
    idx, delta = cc.target(d, "cheek/l-cheek-bones-incr")
    return tris, m, np.asarray(m.sum(1)).ravel(), int(idx[np.argmax(delta[:, 0])])


@cache
def gonion() -> int:
    """The left jaw angle's vertex: the one MakeHuman's narrower jaw (chin-bones-decr) moves furthest."""
    d = cc.compiled()
    idx, delta = cc.target(d, "chin/chin-bones-decr")
    return int(idx[np.argmax(np.where(d["base"][idx, 0] > 0, np.linalg.norm(delta, axis=1), -1))])


def lump(p: np.ndarray) -> float:
    """How far (mm) the zygion stands out along its normal from the face's smoothed copy."""
    tris, m, count, zy = _mesh()
    s = p.copy()
    for _ in range(12):
        s = np.where(count[:, None] > 0, 0.5 * s + 0.5 * (m @ s) / np.maximum(count, 1)[:, None], s)
    n = vertex_normals(p, tris)[zy]
    return 100 * float((p[zy] - s[zy]) @ n)


@pytest.fixture(scope="module")
def faces() -> list[tuple[np.ndarray, np.ndarray]]:
    """Per drawn face, (its shaped body, its build's plain one)."""
    return [(shaped(s["gender"], s["bodyShape"], s["height"], face_weights(s))[0],
             shaped(s["gender"], s["bodyShape"], s["height"], ())[0]) for s in DRAWN]


@pytest.fixture(scope="module")
def lumps(faces) -> np.ndarray:
    """Per drawn face, its cheekbone's lump over its build's plain face's (mm)."""
    return np.array([lump(own) - lump(plain) for own, plain in faces])


def test_review_g_faces_have_no_lump(lumps):
    """S3#10 and S3#11's cheekbones stand out of the face by no more than 2.5 mm over their builds' (now 2.1 and 2.0;
    main 4.5 and 3.6)."""
    assert lumps[:2].max() <= 2.5, np.round(lumps[:2], 2)


def test_no_face_has_a_lump(lumps):
    """No face at the controls' ends or drawn at random more than 3.3 mm (now 3.0 at most; main 5.1, the slim and athletic
    builds at cheekbones 1)."""
    assert lumps.max() <= 3.3, (np.round(lumps.max(), 2), DRAWN[int(np.argmax(lumps))])


def test_the_jaws_angles_stay_under_the_cheeks(faces):
    """No face's jaw angle more than 6 mm further back than its build's (now 5.3 at most; main 12 mm at jawWidth -1, 10.7
    and 9.2 on S3#10 and S3#11: MakeHuman's narrower jaw at 1.2 and more with the faces' variety, past its slider's
    end)."""
    back = np.array([100 * (plain[gonion(), 2] - own[gonion(), 2]) for own, plain in faces])
    assert back.max() <= 6.0, (np.round(back.max(), 2), DRAWN[int(np.argmax(back))])



def test_the_jaw_is_narrower_than_the_cheekbones(faces):
    """Every face's jaw angles (the vertices MakeHuman's wider jaw moves furthest out) at most 0.85 of its cheekbones'
    width (the zygia; a man's about 0.71, Farkas): now 0.58 to 0.79 (main the same: the jaw's lumps stood out of the
    cheek in front of its angles, not past them), the widest a slim masculine face at jawWidth 1."""
    d = cc.compiled()

    def furthest(name: str, side: float) -> int:
        idx, delta = cc.target(d, name)
        return int(idx[np.argmax(np.where(np.sign(d["base"][idx, 0]) == side, delta[:, 0] * side, -np.inf))])

    jaw = [furthest("chin/chin-bones-incr", s) for s in (1.0, -1.0)]
    zy = [furthest(f"cheek/{c}-cheek-bones-incr", s) for c, s in (("l", 1.0), ("r", -1.0))]
    ratios = np.array([(own[jaw[0], 0] - own[jaw[1], 0]) / (own[zy[0], 0] - own[zy[1], 0]) for own, _ in faces])
    assert ratios.max() <= 0.85, (np.round(ratios.max(), 3), DRAWN[int(np.argmax(ratios))])
