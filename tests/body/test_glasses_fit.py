"""Glasses fitted to each head (issue 36): lenses on the eyes and clear of the skin, the bridge on the nose,
the temples resting on the sides of the head on every body, the front wrapped so the far lens stays near
the face at three quarters, and lenses that show the eyes (clear) or hide them (sunglasses)."""

from __future__ import annotations

import numpy as np
import pytest
from helpers import body_of
from PIL import Image, ImageDraw
from scipy.spatial import cKDTree

from workbench.body.glasses import FRAME_UV, LENS_UV, glasses_piece
from workbench.options import BODY_SHAPES

BODIES = [(g, s, h) for g in ("feminine", "masculine") for s in BODY_SHAPES for h in (None, 150, 205)]


def parts(m, gender):
    """The glasses' lens vertices, the fan centres of the two lenses, and the two temples' vertices (the
    frame strips behind the lenses' rims), on ``m`` of ``gender`` (its brows' shape)."""
    g = glasses_piece(m, gender)
    p = g.positions.astype(float)
    lens = np.all(np.isclose(g.uv, LENS_UV), axis=1)
    mid = (m.positions[m.groups["helper-l-eye"]].mean(0) + m.positions[m.groups["helper-r-eye"]].mean(0)) / 2
    frame = p[np.all(np.isclose(g.uv, FRAME_UV), axis=1)]
    temples = {s: frame[(np.sign(frame[:, 0] - mid[0]) == s) & (frame[:, 2] < mid[2] - 0.01)] for s in (1, -1)}
    return p[lens], mid, temples


def signed_distance(m, points):
    """Each point's distance off the head's skin (negative inside): along the normal of the nearest skin vertex."""
    body = m.groups["body"]
    skin = m.positions[body].astype(float)
    normals = m.normals[body].astype(float)
    _, k = cKDTree(skin).query(points)
    return ((points - skin[k]) * normals[k]).sum(1)


@pytest.mark.parametrize("gender,shape,height", BODIES)
def test_temples_rest_on_the_sides_of_the_head(gender, shape, height):
    """Each temple lies on the head: within 1 mm of the skin over at least 3 cm of its length, and nowhere
    inside it (at most 0.3 mm, the skin's own facets); before, the temples stood 1 to 2 cm off the head at
    the ears."""
    temples_rest(body_of(gender, shape, height), gender)


# The head's own widths (face.headWidth, review S's "one base head"): the narrowest and broadest heads of each gender,
# with the forehead's ends, the frame fitted to each.
HEADS = [(g, (("headWidth", w), ("foreheadHeight", f))) for g in ("feminine", "masculine") for w, f in ((-1, 1), (1, -1))]


@pytest.mark.parametrize("gender,face", HEADS)
def test_temples_rest_on_the_narrowest_and_broadest_heads(gender, face):
    """As on every body: the temples on the skin over 3 cm, nowhere inside it, reaching back above the ears."""
    temples_rest(body_of(gender, face=face), gender)


def temples_rest(m, gender: str) -> None:
    """Each temple within 1 mm of ``m``'s skin over at least 3 cm of its length, nowhere inside it, back over the ears."""
    _, mid, temples = parts(m, gender)
    for side, t in temples.items():
        d = signed_distance(m, t)
        assert d.min() > -0.0003, (side, d.min())
        touching = t[np.abs(d) < 0.001]
        assert len(touching) and np.ptp(touching[:, 2]) > 0.03, (side, np.round(d * 1000, 1))
        # ... and they reach back above the ears.
        assert t[:, 2].min() < mid[2] - 0.08


@pytest.mark.parametrize("gender,shape,height", BODIES[::3])
def test_lenses_on_the_eyes_clear_of_the_skin(gender, shape, height):
    """Each lens centred on its eye across (within 3 mm) and up to 6 mm under it, its middle 10 to 20 mm in front of the cornea, every lens
    point at least 1.5 mm off the skin (2.5 mm in its fitting); the bridge's middle resting on the nose (within 4 mm of the skin)."""
    lenses_fit(body_of(gender, shape, height), gender)


# The eyes' placement and the nose's bridge (face.eyeSpacing, eyeTilt, noseBridge, review V's "the same person in 12
# wigs"): the eyes closest and furthest apart, with their corners' and the bridge's ends, the frame fitted to each.
EYES = [(g, (("eyeSpacing", w), ("eyeTilt", t), ("noseBridge", b))) for g in ("feminine", "masculine")
        for w, t, b in ((-1, 1, -1), (1, -1, 1), (-1, -1, 1), (1, 1, -1))]


@pytest.mark.parametrize("gender,face", EYES)
def test_lenses_on_the_eyes_set_closest_and_furthest_apart(gender, face):
    """As on every body: each lens centred on its eye, clear of the skin, the bridge on the nose (low or high)."""
    lenses_fit(body_of(gender, face=face), gender)


def lenses_fit(m, gender: str) -> None:
    """Each of ``m``'s lenses centred on its eye across (within 3 mm), up to 6 mm under it, 10 to 20 mm in front of
    the cornea, every lens point 1.5 mm off the skin; the bridge's middle within 4 mm over the nose."""
    lens, mid, _ = parts(m, gender)
    for s in "lr":
        eye = m.positions[m.groups[f"helper-{s}-eye"]].astype(float)
        centre = eye.mean(0)
        mine = lens[np.sign(lens[:, 0] - mid[0]) == np.sign(centre[0] - mid[0])]
        assert abs(mine[:, 0].mean() - centre[0]) < 0.003
        # (Up and down the eye sits at or above the lens's middle, by up to 6 mm where low brows shorten the lens.)
        assert -0.001 < centre[1] - mine[:, 1].mean() < 0.006
        middle = mine[np.argmin(np.linalg.norm(mine[:, :2] - mine[:, :2].mean(0), axis=1))]
        assert 0.010 < middle[2] - eye[:, 2].max() < 0.020
    assert signed_distance(m, lens).min() > 0.0015
    g = glasses_piece(m, gender).positions.astype(float)
    body = m.positions[m.groups["body"]].astype(float)
    # (The bridge's middle section, at the middle: the rims' inner sides come within 2 mm of it on wide heads.)
    bridge = g[(np.abs(g[:, 0] - mid[0]) < 0.0005) & (np.abs(g[:, 1] - mid[1]) < 0.015)]
    nose = body[(np.abs(body[:, 0] - mid[0]) < 0.004) & (np.abs(body[:, 1] - bridge[:, 1].mean()) < 0.004)]
    assert 0.0 < bridge[:, 2].min() - nose[:, 2].max() < 0.004


def far_lens_past_the_face(m, gender, yaw_deg: float, res: float = 0.0005) -> float:
    """How far (metres) the far lens reaches past the head's far outline, row by row, seen from straight ahead
    with the head turned by ``yaw_deg`` (the render's turn: positive takes the avatar's left away)."""
    pos = m.positions.astype(float)
    tris = m.triangles[m.face_groups["body"]]
    head = tris[(pos[tris][:, :, 1] > m.skeleton.pos("Neck")[1]).all(1)]
    lens, mid, _ = parts(m, gender)
    far = lens[np.sign(lens[:, 0] - mid[0]) == np.sign(yaw_deg)]
    a = np.radians(yaw_deg)
    turn = np.array([[np.cos(a), 0, np.sin(a)], [0, 1, 0], [-np.sin(a), 0, np.cos(a)]])
    hp, lp = (pos @ turn.T)[:, :2], (far @ turn.T)[:, :2]
    lo = hp[head].reshape(-1, 2).min(0) - 0.01
    w, h = np.ceil((hp[head].reshape(-1, 2).max(0) + 0.01 - lo) / res).astype(int)
    im = Image.new("L", (w, h), 0)
    draw = ImageDraw.Draw(im)
    q = (hp - lo) / res
    for t in head:
        draw.polygon([tuple(q[i]) for i in t], fill=255)
    mask = np.asarray(im) > 0
    cols = np.arange(w) * np.sign(yaw_deg)
    edge = np.where(mask.any(1), np.where(mask, cols[None, :], -np.inf).max(1), -np.inf)
    lq = ((lp - lo) / res).astype(int)
    return float((lq[:, 0] * np.sign(yaw_deg) - edge[np.clip(lq[:, 1], 0, h - 1)]).max() * res)


@pytest.mark.parametrize("gender,shape", [("feminine", "average"), ("masculine", "heavy"), ("masculine", "slim")])
def test_the_far_lens_keeps_close_to_the_face_at_three_quarters(gender, shape):
    """Seen at three quarters (30 degrees either way), the far lens reaches at most 11 mm past the face's far
    outline: a lens 12 mm in front of the eye, as opticians fit them, shows that much on a real face. The
    flat front before reached 14.5 to 16 mm (now 8.5 to 10), and at 20 degrees 7.5 to 9.5 mm (now 2.5 to 4.5)."""
    m = body_of(gender, shape)
    for yaw in (30, -30):
        assert far_lens_past_the_face(m, gender, yaw) < 0.011, yaw
    for yaw in (20, -20):
        assert far_lens_past_the_face(m, gender, yaw) < 0.005, yaw


def ear_rim(m, side: float) -> np.ndarray:
    """The ear's outer rim on ``side``: the skin behind the eyes, within 7 cm of their height, standing out
    farthest from the head's middle (an ear stands past the skull), the outermost 8 mm of it."""
    body = m.positions[m.groups["body"]].astype(float)
    mid = (m.positions[m.groups["helper-l-eye"]].mean(0) + m.positions[m.groups["helper-r-eye"]].mean(0)) / 2
    near = body[(np.abs(body[:, 1] - mid[1]) < 0.07) & (side * (body[:, 0] - mid[0]) > 0.04) & (body[:, 2] < mid[2] - 0.04)]
    lateral = side * (near[:, 0] - mid[0])
    return near[lateral > lateral.max() - 0.008]


@pytest.mark.parametrize("gender,shape,height", BODIES)
def test_the_arms_reach_the_ears_and_bend_down_behind_them(gender, shape, height):
    """Each temple reaches the ear (passes within 1.5 cm of its rim) and ends behind its front and below the
    hinges by at least 1.5 cm, within 3.5 cm of the ear: bent down behind the ear, as an earpiece is. Before,
    the temples ran straight back at the hinges' height and ended in the air past the skull."""
    m = body_of(gender, shape, height)
    _, mid, temples = parts(m, gender)
    for side, t in temples.items():
        rim = ear_rim(m, side)
        centre = rim.mean(0)
        tip = t[np.argmin(t[:, 1])]
        assert cKDTree(rim).query(t)[0].min() < 0.015, side
        assert tip[2] < rim[:, 2].max(), (side, tip.round(3).tolist(), rim[:, 2].max())
        assert t[:, 1].max() - tip[1] > 0.015, (side, tip.round(3).tolist())
        assert np.linalg.norm(tip - centre) < 0.035, (side, tip.round(3).tolist(), centre.round(3).tolist())


@pytest.mark.parametrize("gender,shape,height", BODIES[::4])
def test_the_rims_have_depth_round_the_lenses(gender, shape, height):
    """Each rim is a bar with depth (review 46a: frames with no thickness): within 8 mm of its lens's edge, the
    frame reaches at least 1 mm forward of the lens (its front stands proud of it) and 2 mm behind it, measured
    along the lens's own normal; before, the rim's front lay in the lens's plane, a flat ring."""
    m = body_of(gender, shape, height)
    g = glasses_piece(m, gender)
    p = g.positions.astype(float)
    lens = np.all(np.isclose(g.uv, LENS_UV), axis=1)
    frame = p[np.all(np.isclose(g.uv, FRAME_UV), axis=1)]
    _, mid, _ = parts(m, gender)
    for side in (1, -1):
        mine = lens & (np.sign(p[:, 0] - mid[0]) == side)
        # The lens's plane: its points' best fit (their centre, the direction of least spread, facing forward).
        pts = p[mine]
        centre = pts.mean(0)
        normal = np.linalg.svd(pts - centre)[2][-1]
        normal *= np.sign(normal[2])
        near = frame[cKDTree(pts).query(frame)[0] < 0.008]
        offset = (near - centre) @ normal
        edge = (pts - centre) @ normal
        assert offset.max() - edge.max() >= 0.001, (side, offset.max(), edge.max())
        assert edge.min() - offset.min() >= 0.002, (side, offset.min(), edge.min())
