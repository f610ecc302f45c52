"""Hair made of cards (issue 36, item 1): every style grown from the scalp as cards in layers over a
scalp shell, curly as coils, the bun wound from strands that reach it, long hair parting at the
shoulders; a chain of detail (cards, fewer cards within Ready Player Me's 5,000 triangles, a baked
shell); fitted to every head and never inside it; the same bytes every time.

Measured on the pieces (:func:`workbench.body.hair.hair_pieces`) where a number says more than a
picture; the renders are in ``test_hair_hairline.py``.
"""

import itertools
from functools import cache

import numpy as np
import pytest
from helpers import body_of, random_settings, sweep

from workbench.body import hair
from workbench.body.hair import canon
from workbench.body.hair.buzz import PAINTED
from workbench.body.hair.head import head_of
from workbench.body.mesh import body_mesh
from workbench.options import BODY_SHAPES, HAIR_STYLES, normalize_avatar_settings

STYLES = [s for s in HAIR_STYLES if s not in PAINTED]   # (styles with hair cards; a buzz cut is painted: test_buzz_review_o)
SLEEK = ("bun", "ponytail")


@cache
def pieces(style, lod=0, gender="feminine", shape="average", height=None):
    return hair.hair_pieces(body_of(gender, shape, height), style, lod)


def cards_of(p, start, cards, rows):
    """The rows' centre points (cards, rows, 3) of ``cards`` cards of ``rows`` rows each (two vertices a
    row) from vertex ``start`` of a piece."""
    return p.positions[start: start + cards * rows * 2].reshape(cards, rows, 2, 3).mean(2)


def heights(points, head):
    rel = points.reshape(-1, 3).astype(float) - head.centre
    r = np.linalg.norm(rel, axis=1)
    return (r - head.envelope(rel / r[:, None])).reshape(points.shape[:-1])


@pytest.mark.parametrize("style", STYLES)
def test_every_style_is_cards_in_layers_over_the_scalp(style):
    """Hundreds of cards (two vertices a row, each card a strip of quads), standing in layers: the
    cards' heights over the head spread over several millimetres, stored inner first (the order a
    renderer that draws a primitive's triangles in order lays them in); a blended piece under them
    (the scalp shell and the wisps)."""
    m = body_of()
    p = pieces(style)
    assert set(p) == {"Hair", "Hair_Fringe"}
    g = canon.fitted(m, style, 0)
    K = g.cards.pts.shape[1]
    assert g.cards.pts.shape[0] > 200, style
    # Hair: the scalp shell inside the hairline (alpha-tested, opaque there), then the cards.
    from workbench.body.hair.scalp import shell, split

    inside = split(shell(m, head_of(m), style))[0]
    piece, S = hair.hair_pieces(m, style, 0)["Hair"], g.cards.pts.shape[0]
    if g.cards.across is None:
        centre = cards_of(piece, len(inside.positions), S, K)
        assert np.allclose(centre, g.cards.pts, atol=0.02)      # the first cards of Hair are these strands
    else:
        # A coil's twisting ribbon: two vertices a row (its normals shared along it), the inner coils after it.
        corners = piece.positions[len(inside.positions): len(inside.positions) + S * K * 2]
        assert np.allclose(corners.reshape(S, -1, 3).mean(1), g.cards.pts.mean(1), atol=0.02)
    h = heights(g.cards.pts, head_of(m))
    on_head = ~g.cards.hanging
    # (Hair pulled back to a bun or a ponytail lies sleek: its layers a couple of millimetres apart.)
    assert np.percentile(h[on_head], 90) - np.percentile(h[on_head], 10) > (0.0015 if style in SLEEK else 0.004), style
    # Inner first, by their mean height over the head (fitted to another body than the one they were
    # sorted on, they keep that order give or take a millimetre).
    for s, share in ((g.cards, 0.9), (g.fringe, 0.97)):
        order = heights(s.pts, head_of(m)).mean(1)
        assert np.mean(np.diff(order) >= -1e-3) > share, style
    assert p["Hair_Fringe"].triangles > 500


def test_curly_is_coils_with_volume():
    """Curly's cards wind round their axes (a coil turns its direction by tens of degrees a row) and
    stand centimetres off the head; short hair's lie along it."""
    m = body_of()
    h = head_of(m)

    def turning(style):
        pts = canon.fitted(m, style, 0).cards.pts
        t = np.diff(pts, axis=1)
        t /= np.linalg.norm(t, axis=2, keepdims=True)
        return np.degrees(np.arccos(np.clip(np.sum(t[:, 1:] * t[:, :-1], axis=2), -1, 1))).mean()

    assert turning("curly") > 40 > 15 > turning("short")
    reach = {s: np.percentile(heights(canon.fitted(m, s, 0).cards.pts, h), 95) for s in ("curly", "short")}
    assert reach["curly"] > 0.03 > 0.02 > reach["short"]


def test_the_bun_is_wound_from_strands_that_reach_it():
    """The sleek strands end at the bun's base (their tips within its base angle of its axis), and the
    wraps stand round the bun's axis above the head."""
    from workbench.body.hair.coils import bun_axis, bun_base_angle

    m = body_of()
    h = head_of(m)
    g = canon.fitted(m, "bun", 0)
    axis = bun_axis(h)
    tips = g.cards.pts[:, -1] - h.centre
    tips /= np.linalg.norm(tips, axis=1, keepdims=True)
    reached = np.degrees(np.arccos(np.clip(tips @ axis, -1, 1))) < np.degrees(bun_base_angle(h)) + 4
    assert reached.mean() > 0.9
    wraps = g.extra[0].pts.reshape(-1, 3)
    assert len(wraps) > 300 and (heights(wraps, h) > 0.005).mean() > 0.95
    along = (wraps - h.centre) @ axis
    assert along.min() > h.envelope(axis[None])[0] - 0.01


@pytest.mark.parametrize("gender", ["feminine", "masculine"])
def test_long_hair_parts_at_the_shoulders_in_layers(gender):
    """Below the shoulders long hair hangs in front of them or behind them, never beside them where the
    arms hang; it ends in a U (lowest at the back) of staggered lengths."""
    m = body_of(gender)
    h = head_of(m)
    g = canon.fitted(m, "long", 0)
    shoulder = float(m.skeleton.pos("LeftArm")[1])
    pts = g.cards.pts[g.cards.hanging]
    low = pts[pts[:, 1] < shoulder - 0.05]
    az = np.abs(np.degrees(np.arctan2(low[:, 0] - h.centre[0], low[:, 2] - h.centre[2])))
    assert len(low) > 500
    assert ((az < 50) | (az > 125)).all()
    assert (az < 50).mean() > 0.05 and (az > 125).mean() > 0.5           # some in front, most behind
    tips = g.cards.pts[:, -1]
    tip_az = np.abs(np.degrees(np.arctan2(tips[:, 0] - h.centre[0], tips[:, 2] - h.centre[2])))
    back, front = tips[tip_az > 150, 1], tips[tip_az < 50, 1]
    assert np.median(back) < np.median(front) - 0.05
    assert back.std() > 0.02


def test_the_chain_of_detail():
    """LOD 0 cards; LOD 1 fewer cards within 5,000 triangles (the cards and the fringe; a sleek style's
    backed cards and the bob's cards wound both ways too) for every style and body; LOD 2 one shell (no fringe) with the cards baked into its texture, fewer triangles still."""
    for style in STYLES:
        tris = [sum(p.triangles for p in pieces(style, lod).values()) for lod in (0, 1, 2)]
        assert tris[0] > tris[1] > tris[2] > 800, (style, tris)
        assert set(pieces(style, 2)) == {"Hair"}
        for gender, shape in (("feminine", "average"), ("feminine", "heavy"), ("masculine", "heavy"), ("masculine", "slim")):
            # (Curly hair's own, hair.LOD1_BUDGETS, since blind review Q's pass (curly27): 5,000 before, against which
            # a curly avatar's LOD 1 was 0.43 of its LOD 0, past the contract's half within 5 points; its LOD 1 now 7,480.)
            assert sum(p.triangles for p in pieces(style, 1, gender, shape).values()) <= hair.lod1_budget(style)
            # As the model builds them: a sleek style's cards on the scalp apart, backed at the outline; the bob's
            # over the head wound both ways (pieces.TWO_SIDED).
            if style in SLEEK or style == "bob":
                backed = hair.hair_pieces(body_of(gender, shape), style, 1, sleek=True)
                assert sum(p.triangles for p in backed.values()) <= hair.lod1_budget(style), (style, gender, shape)
        image = hair.material("#6B4A2B", style, body_of(), 2)["image"]
        assert image.shape == (512, 512, 4) and 0.2 < (image[..., 3] > 127).mean() < 0.95


def test_a_buns_lod1_on_a_wide_head_is_within_its_budget():
    """A bun's LOD 1 as the model builds it (its sleek cards backed at the outline) on the widest of 40 random heads
    (seed 4732's #13: short, heavy, a wide head): within :func:`hair.lod1_budget`. With the bun over the crown its
    cards' backing took it to 5,109 triangles with the coil at 40 points a card; 4,949 at 30 (``styles._bun``)."""
    s = random_settings(40, 4732, with_added=True, heads=True, features=True, spread=True)[12]
    s = normalize_avatar_settings(dict(s, hair=dict(s["hair"], style="bun")))
    built = hair.hair_pieces(body_mesh(s), "bun", 1, s["outfit"]["topStyle"], s["outfit"]["bottomStyle"], sleek=True)
    assert sum(p.triangles for p in built.values()) <= hair.lod1_budget("bun")


def skin_radius(m, centre):
    """The head and neck skin's farthest distance from ``centre`` per degree of direction (polar 0..180,
    azimuth -180..180), from 28 points on each triangle, the largest of each cell and its neighbours."""
    from workbench.body.hair.head import head_triangles

    t = head_triangles(m)
    b = np.array([(i / 6, j / 6) for i in range(7) for j in range(7 - i)])
    w = np.column_stack([b, 1 - b.sum(1)])
    pts = np.einsum("lk,tkc->tlc", w, m.positions[t].astype(float)).reshape(-1, 3) - centre
    r = np.linalg.norm(pts, axis=1)
    pol = np.degrees(np.arccos(np.clip(pts[:, 1] / r, -1, 1))).astype(int)
    az = (np.degrees(np.arctan2(pts[:, 0], pts[:, 2])) + 180).astype(int) % 360
    grid = np.zeros((181, 360))
    np.maximum.at(grid, (pol, az), r)
    padded = np.pad(grid, ((1, 1), (0, 0)), mode="edge")
    return np.max([np.roll(padded[1 + dy: 182 + dy], dx, 1) for dy in (-1, 0, 1) for dx in (-1, 0, 1)], axis=0)


# Every height, shape and gender in the quick loop, their every pairing in the whole suite (helpers.sweep).
@pytest.mark.parametrize("height,shape,gender", sweep(itertools.product([150, 200], BODY_SHAPES, ["feminine", "masculine"])))
def test_every_style_fits_every_head(gender, shape, height):
    """No card vertex on the head is inside it (each is farther from the skull's centre than the skin
    in its direction, within a degree), the cards reach the hairline but not the face, and the
    skinning is glTF's: four influences at most, summing to one."""
    m = body_of(gender, shape, height)
    h = head_of(m)
    skin = skin_radius(m, h.centre)
    for style in STYLES:
        for name, p in hair.hair_pieces(m, style, 0).items():
            np.testing.assert_allclose(p.weights.sum(1), 1, atol=1e-5)
            assert (p.joints[p.weights == 0] == 0).all()
            rel = p.positions.astype(float) - h.centre
            on = rel[:, 1] > 0.2 * h.radius                             # above the ears' middle: the head
            r = np.linalg.norm(rel[on], axis=1)
            pol = np.degrees(np.arccos(np.clip(rel[on, 1] / r, -1, 1))).astype(int)
            az = (np.degrees(np.arctan2(rel[on, 0], rel[on, 2])) + 180).astype(int) % 360
            assert (r - skin[pol, az]).min() > -0.001, (style, name, (r - skin[pol, az]).min())
            # The face: in front of the head's centre, from the brows down to the chin, within the cheeks.
            face = ((rel[:, 2] > 0.03) & (rel[:, 1] < 0.3 * h.radius) & (rel[:, 1] > -0.9 * h.radius)
                    & (np.abs(rel[:, 0]) < 0.045))
            assert not face.any(), (style, name)


def test_same_settings_same_hair_and_the_kept_groom_is_the_grown_one():
    """The hair is the same bytes every time, whether its groom was just grown or read back from the
    machine's cache (``keep.kept``), and its textures too."""
    m = body_of("masculine", "athletic")
    for style in STYLES:
        kept = canon.canonical(style, 0)
        grown = canon._make(style, 0)
        assert sorted(kept) == sorted(grown)
        for k in kept:
            assert np.asarray(kept[k]).tobytes() == np.asarray(grown[k]).tobytes(), (style, k)
        a = hair.hair_pieces(m, style, 0)
        b = hair.hair_pieces(m, style, 0)
        for name in a:
            assert a[name].positions.tobytes() == b[name].positions.tobytes()
            assert a[name].weights.tobytes() == b[name].weights.tobytes()
    assert hair.hair_texture("#2B1B10", "long").tobytes() == hair.hair_texture.__wrapped__("#2B1B10", "long").tobytes()


def test_a_groom_is_the_same_whatever_body_came_before():
    """The reference body's groom does not depend on which bodies a process fitted hair to first (the
    head's topology was once cached per base mesh with one body's trunk in it, so a groom grown after a
    short heavy body's took that body's shoulders, and once kept every later avatar on the machine had
    them): grown in a fresh process after such a body, it is this process's groom, byte for byte."""
    import hashlib
    import subprocess
    import sys

    code = ("import hashlib\n"
            "from workbench.body.hair import canon, hair_pieces\n"
            "from workbench.body.mesh import body_mesh\n"
            "from workbench.options import normalize_avatar_settings as n\n"
            "hair_pieces(body_mesh(n({'gender': 'masculine', 'bodyShape': 'heavy', 'height': 140})), 'long', 0)\n"
            "g = canon._make('long', 0)\n"
            "print(hashlib.sha256(b''.join(g[k].tobytes() for k in sorted(g))).hexdigest())\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=600, check=True)
    g = canon._make("long", 0)
    assert out.stdout.split()[-1] == hashlib.sha256(b"".join(g[k].tobytes() for k in sorted(g))).hexdigest()
