"""The eyes at portrait size (blind review E, defect 6: "small, no lashes, no thickness to the lids, white all round
the iris; they need lashes, a lid rim, a correct iris size and a highlight"), measured in our renderer's portraits of
seeded random heads: an iris of a real eye's size for its opening, the upper lid's shade on the eye, upper lashes
that darken the lid's edge, and a wet rim on the lower lid."""

from __future__ import annotations

from dataclasses import replace
from functools import cache
from pathlib import Path

import numpy as np
from built import built as build_avatar  # one build per run (tests/built.py)
from helpers import UNLIT, random_settings

from workbench.body import eyes
from workbench.options import ModelOptions, normalize_avatar_settings
from workbench.render.framing import frame, look_at
from workbench.render.raster import Camera, draw
from workbench.render.scene import Clip, Material, Model, Texture

ROOT = Path(__file__).resolve().parents[2]

SIZE = 1024
# The pictures are the SIZE px portrait's square of CROP px round the eyes, at its pixel density (the same camera
# turned to the eyes, its field narrowed): both eyes (about 270 by 50 px at 1024) and the skin 30 px above and
# below them, which is all the tests measure, in a tenth of the pixels.
CROP = 320
WHITE = np.array([1, 1, 1, 1], np.float32)
BLACK = np.array([0, 0, 0, 1], np.float32)


@cache
def heads() -> list[bytes]:
    """Four seeded random heads, two more at the eyeSize control's ends (no glasses, the short cut where a style
    another helper is still making was drawn)."""
    out = []
    drawn = random_settings(4, seed=4646)
    drawn += [{**drawn[0], "face": {**drawn[0]["face"], "eyeSize": e}} for e in (-1.0, 1.0)]
    for s in drawn:
        hair = {**s["hair"], "style": "short" if s["hair"]["style"] in ("ponytail", "bob") else s["hair"]["style"]}
        settings = {**s, "glasses": "none", "hair": hair}
        out.append(build_avatar(normalize_avatar_settings(settings), ModelOptions(animations=("idle",))))
    return out


def iris_disc() -> Texture:
    """An eye texture of the iris alone (where :mod:`workbench.body.eyes` draws it, out to its limbal ring): white
    in it, black round it, so a picture tells the iris from the sclera whatever shade lies over either."""
    n = eyes.EYE_SIZE
    y, x = (np.mgrid[0:n, 0:n] + 0.5) / n * 2 - 1
    inside = np.hypot(x, y) / eyes.SPAN < eyes.IRIS
    return Texture(np.where(inside, 0xFFFFFFFF, 0xFF000000).astype(np.uint32).ravel(), n, n, False)


def flat(colour):
    return lambda d: replace(d, uv=None, material=Material(color=colour, double_sided=d.material.double_sided,
                                                              specular=0.0))


@cache
def posed_mask(glb: bytes):
    """(the rest face posed, its portrait's camera, the Eyes mesh's mask in it): one per head, whichever of
    :func:`portrait`'s pictures the tests ask of it (the mask is the same in each)."""
    model = Model(glb)
    posed = model.posed(Clip(model), 0.0)
    cam = eye_camera(posed, frame(posed, "portrait"))
    mask_draws = [(flat(WHITE) if d.mesh_name == "Eyes" else flat(BLACK))(d) for d in posed.draws
                  if d.mesh_name != "Eyelashes"]
    return posed, cam, draw(replace(posed, draws=mask_draws), cam, CROP, lights=UNLIT)[..., 0] > 127


def eye_camera(posed, portrait: Camera) -> Camera:
    """``portrait`` turned on its spot to the eyes' middle, its field narrowed to CROP px of SIZE: the portrait's
    own rays through the eyes (the same view of each point, so the same shading), drawn CROP px wide."""
    pts = np.concatenate([d.positions for d in posed.draws if d.mesh_name == "Eyes"])
    to_world = np.linalg.inv(portrait.view)
    half = np.arctan(np.tan(np.radians(portrait.fov_deg) / 2) * CROP / SIZE)
    return Camera(view=look_at(to_world[:3, 3], (pts.min(0) + pts.max(0)) / 2, to_world[:3, 1]),
                  fov_deg=float(np.degrees(2 * half)), near=portrait.near)


@cache
def portrait(glb: bytes, lit: bool = False, iris: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """(RGB float 0..1, the Eyes mesh's mask) of the rest face's portrait round the eyes (:func:`eye_camera`): lit by the previews' lights, or
    unlit with every mesh but the eyes (and the lashes, when lit) drawn black, so the eyes' texture shows as it is
    (or, with ``iris``, :func:`iris_disc` in its place)."""
    posed, cam, mask = posed_mask(glb)
    if lit:
        img = draw(posed, cam, CROP)
    else:
        disc = iris_disc() if iris else None
        draws = [(replace(d, material=replace(d.material, texture=disc, specular=0.0)) if disc else d)
                 if d.mesh_name == "Eyes" else flat(BLACK)(d) for d in posed.draws if d.mesh_name != "Eyelashes"]
        img = draw(replace(posed, draws=draws), cam, CROP, lights=UNLIT)
    return img[..., :3].astype(np.float64) / 255, mask


def per_eye(mask: np.ndarray):
    """Each eye's mask (the left of the picture first)."""
    ys, xs = np.nonzero(mask)
    mid = xs.mean()
    for side in (xs < mid, xs >= mid):
        one = np.zeros_like(mask)
        one[ys[side], xs[side]] = True
        yield one


def iris_measures(glb: bytes) -> list[dict[str, float]]:
    """Per eye, as shares of the iris's width (the lids never cover its sides): the visible iris's height, the
    opening's height through the iris's middle, the white above and below the iris there; and the iris's width over
    the opening's."""
    img, mask = portrait(glb, iris=True)
    out = []
    for eye in per_eye(mask):
        iris = eye & (img.max(-1) > 0.5 * img.max(-1)[eye].max())
        iy, ix = np.nonzero(iris)
        ey, ex = np.nonzero(eye)
        cx = float(np.median(ix))
        icol, ecol = np.abs(ix - cx) <= 1, np.abs(ex - cx) <= 1
        width = float(np.ptp(ix) + 1)
        out.append({"iris_h": (np.ptp(iy[icol]) + 1) / width, "open_h": (np.ptp(ey[ecol]) + 1) / width,
                    "white_above": (iy[icol].min() - ey[ecol].min()) / width,
                    "white_below": (ey[ecol].max() - iy[icol].max()) / width,
                    "iris_across": width / (np.ptp(ex) + 1)})
    return out


def test_the_iris_is_a_real_eyes_size_for_its_opening():
    """An adult's iris is 11.7 mm across in an opening about 28 mm wide and 10 mm high; the upper lid covers its
    top a little, the lower lid meets its bottom. Over the heads (eyeSize -1 and +1 among them): the iris 0.65 of
    the opening across or less on average and 0.73 on every eye (before, 0.75 on average and up to 0.86, a doll's
    iris filling the eye), its visible height 0.64 or more of its width on average (before, 0.54: the lids hid near
    half of it, a squint), and never white above it (the startled stare of blind review E's S2#2) nor more than a
    sliver below."""
    rows = [m for glb in heads() for m in iris_measures(glb)]
    table = {k: np.round([r[k] for r in rows], 2).tolist() for k in rows[0]}
    assert np.mean(table["iris_across"]) <= 0.65 and max(table["iris_across"]) <= 0.73, table
    assert np.mean(table["iris_h"]) >= 0.64, table
    assert max(table["white_above"]) <= 0.02 and max(table["white_below"]) <= 0.08, table


def test_the_upper_lid_shades_the_eye():
    """No renderer here casts the lid's shadow, so the eye's texture carries it: unlit, in each column of the white
    either side of the iris, its top third is on average at most 0.75 of its bottom third's brightness (before, a
    flat white to the lid: 0.99, a staring eye)."""
    ratios = []
    for glb in heads()[:4]:
        img, mask = portrait(glb)
        disc = portrait(glb, iris=True)[0].max(-1)
        lum = img.mean(-1)
        for eye in per_eye(mask):
            ix = np.nonzero(eye & (disc > 0.5 * disc[eye].max()))[1]
            ey, ex = np.nonzero(eye)
            upper, lower = [], []
            for x in np.unique(ex[np.abs(ex - np.median(ix)) > np.ptp(ix) / 2 + 6]):   # clear of the iris's rim
                col = np.sort(ey[ex == x])
                third = len(col) // 3
                if third:
                    upper += lum[col[:third], x].tolist()
                    lower += lum[col[-third:], x].tolist()
            if upper:             # (an eye narrowed to its iris's width has no white either side to measure)
                ratios.append(np.mean(upper) / np.mean(lower))
    assert len(ratios) >= 6 and np.mean(ratios) <= 0.75, np.round(ratios, 3)


def lid_edges(glb: bytes) -> tuple[list[float], list[float]]:
    """Per eye, in the lit portrait: the mean brightness just above the opening's top edge (the upper lid's edge,
    3 px at 1024, where its lashes root) over the skin's 20 to 30 px above it, and just below the opening's bottom
    edge (the lower lid's rim) over the skin 20 to 30 px below it; over the middle half of the eye's width."""
    img, mask = portrait(glb, lit=True)
    return edge_ratios(img @ np.array([0.2126, 0.7152, 0.0722]), mask, SIZE)


def edge_ratios(lum: np.ndarray, mask: np.ndarray, size: int) -> tuple[list[float], list[float]]:
    """:func:`lid_edges`' measures of a picture's luminance ``lum`` with the eyes' ``mask``, ``size`` px (the
    distances scaled from 1024's)."""
    k = size / 1024
    near, skin0, skin1 = max(1, round(3 * k)), round(20 * k), round(30 * k)
    upper, lower = [], []
    for eye in per_eye(mask):
        ey, ex = np.nonzero(eye)
        x0, x1 = np.percentile(ex, [25, 75]).astype(int)
        edge, skin, rim, below = [], [], [], []
        for x in range(x0, x1 + 1):
            col = ey[ex == x]
            if len(col) == 0:
                continue
            t, b = col.min(), col.max()
            edge += lum[t - near:t, x].tolist()
            skin += lum[t - skin1:t - skin0, x].tolist()
            rim += lum[b + 1:b + 1 + max(1, round(2 * k)), x].tolist()
            below += lum[b + skin0:b + skin1, x].tolist()
        upper.append(float(np.mean(edge) / np.mean(skin)))
        lower.append(float(np.mean(rim) / np.mean(below)))
    return upper, lower


def test_the_upper_lashes_darken_the_lids_edge():
    """The upper lashes and their roots draw a dark line along the upper lid, what makes an eye read at portrait
    size: just above the opening at most 0.36 of the skin's brightness above it on every eye (before, 0.38 to 0.67:
    lashes 1 to 1.5 texels wide, too few to show)."""
    ratios = [r for glb in heads()[:4] for r in lid_edges(glb)[0]]
    assert max(ratios) <= 0.36, np.round(ratios, 3)


def test_the_lower_lid_has_a_light_rim():
    """The lower lid's wet rim: just below the opening, on average 0.72 or more of the skin's brightness below it
    (before, the lower lashes' dark root line, 0.63 on average: an eyeliner on every face)."""
    ratios = [r for glb in heads()[:4] for r in lid_edges(glb)[1]]
    assert np.mean(ratios) >= 0.72, np.round(ratios, 3)
