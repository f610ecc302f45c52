"""Faces that differ where a front portrait looks (issue 46, blind review V, defect 1 and variety 3.5: "one base head on
every avatar ... line the portraits up and it is the same person in 12 wigs"; wanted: "eye spacing and tilt", "nose
bridge").

Review V's own twelve avatars (``make_review_sheets.py --seed 4632``, the draw its sheets show), measured at fixed
points of the face seen from the front (the same vertex on every body): the eyes' inner and outer corners (the ends of
the upper lashes) and their centres, the brows, the nose's root, tip, base and wings, the mouth's corners and lips, the
chin, the jaw's angles, the cheekbones' and the head's sides. On main the eyes were where most faces differed least from
people: the pupils' distance over the face's width at the cheekbones varied by 3.2 % and 2.4 % (feminine, masculine;
people's some 5 %: Farkas' 63 +- 3.5 mm between the pupils over 130 to 139 +- 5 across the cheekbones), the eyes' axis
from the inner to the outer corner by 2.6 and 1.2 degrees (people's some 3); and the nose's bridge had no control.
``face.eyeSpacing``, ``face.eyeTilt`` and ``face.noseBridge`` (contract section 4,
:data:`workbench.body.details.EYE_CONTROLS` and ``NOSE_BRIDGE``), drawn for the review sheets
(``random_settings(..., features=True)``), set them. Measured on the models' bodies (:func:`workbench.body.mesh.body_mesh`)."""

from __future__ import annotations

from functools import cache

import numpy as np
from helpers import random_settings

from workbench.body import compile as cc
from workbench.body.mesh import body_mesh
from workbench.options import normalize_avatar_settings

REVIEW_V = [normalize_avatar_settings(s) for s in random_settings(12, seed=4632, with_added=True, heads=True, features=True)]


@cache
def landmarks() -> dict[str, int]:
    """The base mesh's vertices of the face's landmarks, by name (``l``/``r`` the avatar's left and right): the ends
    of the upper lashes (the eyes' corners), the nose's wings, the mouth's corners, the brows' arches (those MakeHuman's
    targets move furthest), the nose's tip, the lips' fronts, the chin's lowest front point, the cheekbones' and the
    jaw's angles' sides (the face's outline level with the nose's middle and under the mouth)."""
    data = cc.compiled()
    base, body = data["base"], cc.group(data, "body")
    x, y, z = base[body].T

    def moved_most(target: str, axis: int, sign: float, side: float = 0.0) -> int:
        idx, delta = cc.target(data, target)
        on = np.sign(base[idx, 0]) == side if side else np.abs(base[idx, 0]) < 1e-3
        return int(idx[np.argmax(np.where(on, delta[:, axis] * sign, -np.inf))])

    def furthest(mask: np.ndarray, along: np.ndarray) -> int:
        return int(body[mask][np.argmax(along[mask])])

    out, mid = {}, np.abs(x) < 1e-3
    for s, n in ((1, "l"), (-1, "r")):
        lash = cc.group(data, f"helper-{n}-eyelashes-1")
        out["en" + n], out["ex" + n] = int(lash[np.argmin(s * base[lash, 0])]), int(lash[np.argmax(s * base[lash, 0])])
        out["al" + n] = moved_most("nose/nose-scale-horiz-incr", 0, s, s)
        out["ch" + n] = moved_most("mouth/mouth-angles-up", 1, 1, s)
        out["brow" + n] = moved_most("eyebrows/eyebrows-angle-up", 1, 1, s)
        out["eu" + n] = moved_most("head/head-scale-horiz-incr", 0, s, s)
        out["zy" + n] = furthest((np.sign(x) == s) & (np.abs(y - 7.13) < 0.04) & (z > 0.5), s * x)
        out["go" + n] = furthest((np.sign(x) == s) & (np.abs(y - 6.40) < 0.04) & (z > 0.2), s * x)
    out["n"] = moved_most("nose/nose-scale-vert-incr", 1, 1)
    out["sn"] = moved_most("nose/nose-scale-vert-incr", 1, -1)
    out["prn"] = furthest(mid & (y > 6.8) & (y < 7.2), z)
    out["ls"] = furthest(mid & (y > 6.6) & (y < 6.75), z)
    out["li"] = furthest(mid & (y > 6.45) & (y < 6.6), z)
    out["gn"] = furthest(mid & (z > 1.0) & (y > 6.0) & (y < 6.6), -y)
    return out


def front(settings: dict) -> dict[str, np.ndarray]:
    """Each landmark's and each eye's centre (``pl``, ``pr``) front-view position (x, y; mm) on ``settings``' body."""
    p = body_mesh(settings).positions.astype(np.float64)
    data = cc.compiled()
    out = {k: p[v, :2] * 1000 for k, v in landmarks().items()}
    return {**out, **{"p" + n: p[cc.group(data, f"helper-{n}-eye"), :2].mean(0) * 1000 for n in "lr"}}


def procrustes(a: np.ndarray, b: np.ndarray) -> float:
    """The distance of two sets of points once each is centred and scaled to one size and turned onto the other
    (a plane's similarity), in % of that size.

    >>> p = np.random.default_rng(0).random((9, 2)); round(procrustes(p, 3 * p[:, ::-1] * [1, -1] + 2), 9)
    0.0
    """
    a, b = ((q - q.mean(0)) / np.linalg.norm(q - q.mean(0)) for q in (a, b))
    return float(np.sqrt(max(1.0 - np.linalg.svd(a.T @ b, compute_uv=False).sum() ** 2, 0.0)) * 100)


@cache
def faces() -> list[tuple[str, dict[str, np.ndarray]]]:
    return [(s["gender"], front(s)) for s in REVIEW_V]


def eyes(q: dict[str, np.ndarray]) -> tuple[float, float]:
    """The pupils' distance over the face's width at the cheekbones, and the eyes' axis (degrees, the outer corners
    up positive, the two eyes' mean)."""
    spacing = np.linalg.norm(q["pl"] - q["pr"]) / np.linalg.norm(q["zyl"] - q["zyr"])
    tilt = np.mean([np.degrees(np.arctan2(q["ex" + n][1] - q["en" + n][1], abs(q["ex" + n][0] - q["en" + n][0])))
                    for n in "lr"])
    return float(spacing), float(tilt)


def test_review_v_eyes_vary_as_peoples_do():
    """Among review V's faces of one gender, the pupils' distance over the face's width varies by 4 % or more of its
    mean (main: 3.2 and 2.4 %, feminine and masculine; now 6.4 and 4.4), and the eyes' axis by 3 degrees or more
    (main: 2.6 and 1.2; now 4.2 and 3.4)."""
    for gender in ("feminine", "masculine"):
        m = np.array([eyes(q) for g, q in faces() if g == gender])
        spread = m[:, 0].std(ddof=1) / m[:, 0].mean() * 100, m[:, 1].std(ddof=1)
        assert spread[0] >= 4.0 and spread[1] >= 3.0, (gender, np.round(spread, 2))


def test_review_v_noses_differ_at_the_bridge():
    """Among review V's faces of one gender, the nose's root stands in front of the eyes' inner corners by amounts
    that differ by 1.4 mm or more (their standard deviation; main: 0.90 and 1.33 mm, feminine and masculine; now 1.60
    and 1.46)."""
    data = cc.compiled()
    base, body = data["base"], cc.group(data, "body")
    mid = body[(np.abs(base[body, 0]) < 1e-3) & (base[body, 1] > 7.15) & (base[body, 1] < 7.35) & (base[body, 2] > 1.3)]
    inner = [landmarks()["enl"], landmarks()["enr"]]
    for gender in ("feminine", "masculine"):
        depth = []
        for s in REVIEW_V:
            if s["gender"] == gender:
                p = body_mesh(s).positions.astype(np.float64) * 1000
                depth.append(p[mid, 2].min() - p[inner, 2].mean())
        assert np.std(depth, ddof=1) >= 1.4, (gender, np.round(depth, 1))


def test_review_v_faces_differ_more():
    """Review V's pairs of one gender (31): their front views' landmarks, each face brought onto the other by a turn, a
    shift and one scale, lie 5.8 % of the face's size apart or more on average (main: 5.44; now 5.91, x 1.09)."""
    q = faces()
    names = sorted(q[0][1])
    pts = [(g, np.array([f[k] for k in names])) for g, f in q]
    pairs = [procrustes(a, b) for i, (ga, a) in enumerate(pts) for gb, b in pts[i + 1:] if ga == gb]
    assert len(pairs) == 31 and np.mean(pairs) >= 5.8, round(float(np.mean(pairs)), 3)
