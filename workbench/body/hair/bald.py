"""A bald head's scalp (style ``none``): a shaved head, not an egg. Blind review H: "Clean, but it is an egg: no
stubble, no scalp tone change, no hairline shadow."

Over the skin texture (:func:`workbench.body.skin.skin_texture`), inside the shaved head's hairline (the line hair
would grow to: ``head.HAIRLINE["none"]``), the skin is drawn towards the settings' hair colour, as the stubble of shaved hair
shows through it: a buzz cut's stubble tone that thickens from the hairline inwards (no line: it fades over a third
of a hairline, its edge broken by the dots) and is broken into stubble dots a millimetre apart (:data:`DOTS` per metre, drawn in space, so
the UV islands' seams do not show). How far: :data:`STUBBLE`, less on light hair, whose stubble hardly shows. (Blind
review L: "buzz indistinguishable from bald": at 0.6 of a stubble a quarter the hair's colour, less by 0.8 of the
hair's lightness, the scalp of its dark-haired shaved heads was 5 to 12 % darker than the skin, a mean delta E of 4 to
8; now 12 to 26 %, 11 to 18, at 0.9 of a stubble 0.65 the hair's colour (half greyed), less by half the hair's lightness:
tests/body/test_buzz_review_l.py. Blind review R: a teal-haired shaved head's scalp "an opaque olive skullcap with a
hard rim, like a helmet": the stubble's colour is now the skin's hue at the hair's lightness, nine tenths of it
(:data:`GREY`), a little darker, the fade some three times wider and broken: tests/body/test_bald_review_r.py.)

1. :func:`scalp_mask`, once per gender on the reference body (kept, ``keep.kept``): the texels inside the
   hairline and their weights (the shadow's fade times the dots).
2. :func:`shaved`, per skin texture and hair colour: those texels drawn towards the stubble's colour.

>>> from workbench.body.skin import skin_texture
>>> skin = skin_texture("#8D5524", "masculine")
>>> out = shaved("#8D5524", "masculine", "#2B1B10")
>>> out.shape == skin.shape, bool((out != skin).any()), bool((out <= skin).all())
(True, True, True)
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from ...options.colour import LUMA
from .. import keep
from ..skin import reference_body, skin_texture
from ..texels import texel_map
from .head import hairline, head_of, head_triangles, smoothstep
from .scalp import FRONT, HELD, fronted
from .texture import SLEEK, rgb

# The stubble's share of the colour over the scalp (dark hair; less on light hair, by its lightness). (0.9 with the
# dots over BETWEEN 0.55: see BETWEEN.)
STUBBLE = 0.78
# How much less on the lightest hair (its largest channel 1), and the stubble's own colour at full strength: so much of
# the skin's level and of the hair's.
LIGHT_HAIR = 0.5
UNDER = (0.22, 0.65)      # (0.3 of the skin's level: with the colour in the skin's hue, the stubble too faint)
# How much of the stubble's colour is the skin's hue at the hair's lightness (the rest the hair's own): stubble is the
# hairs' dark roots in the skin, not a dyed colour (blind review R, #11, teal hair #005A52 on skin #987049: at the
# hair's colour half greyed, "an opaque olive skullcap ... in a colour unrelated to the brows").
GREY = 0.9
# Stubble dots per metre (a millimetre and a half apart) and the share of the shadow between them. (At 0.55, with
# STUBBLE 0.9, the same mean shadow, each dot stood out on the bare skin: blind review AQ's shaved head "a patchy
# stipple, close to scabs"; a blind A/B of five random shaved heads preferred the dots over a shadow between them in
# the three pairs where it saw a difference on light and mid skin, the old one "barely" on a deep skin where either is
# faint: tests/body/test_hair_caps_review_h.py's texel-to-texel spread of the shadow 0.27 -> 0.17 of its mean.)
DOTS = 650.0
BETWEEN = 0.7
# Where the shadow fades (in hairlines from the crown): from none a little past the hairline to full a fifth inside it
# (over 1.04 to 0.9 it was a helmet's rim), its edge broken by the dots (RAGGED). (From 1.12 until the dots stood over a
# shadow between them, BETWEEN: that edge, less broken, faded over 33 rows of test_bald_review_r's three quarters
# against its 37; from 1.15, 40, main's 41.)
FADE = (1.15, 0.8)
RAGGED = 0.8
# Short hair and a bob (:data:`HAIRS_FOR`): over the forehead, where the scalp layer is held back under the
# cards' roots (:data:`.scalp.FRONT_HOLD`), the hairline's fade is fine hairs on the skin (:func:`strokes`), thinning
# over HAIRS (in the layer's hairlines along its shaped line, HAIRS_FADE below): single strokes a
# texel (a millimetre) wide and HAIR_LONG texels long, combed down the forehead, rooted in HAIR_ROOTS of the texels
# where the fade is full and fewer as it goes; a stroke's root HAIRS_SHARE of the way from the skin to the hair's
# roots' colour (HAIRS_ROOT of it) under the hair, HAIR_LAST of that where the fade ends (nearer the skin further
# down), its tip a third of its root. (Blind review R's "flat band of dyed scalp" was the layer's fill fading over the
# skin; a second tint between the strokes drew it again, a paler band. Short dashes 0.7 of the way to the hair, from a
# grain in space, read as a stipple of dark dots on the default avatar: test_hairline_band_review_r.py's specks.)
# The hairs run along the layer's shaped line drawn out HAIRS_FADE times (1: not drawn out): drawn out as the layer's
# fill was (scalp.FRONT_FADE, 1.6) and ending 0.14 hairlines past it, they reached 0.3 hairlines below the cards' roots,
# a band of sparse strokes of the hair's colour some 12 mm tall that blind review X read as a bald band under a cap
# (#1's teal crop; tests/body/test_hairline_band_review_x.py: 13 rows of a 512 px portrait under the cards, now 2).
# Hair pulled back sleek (bun, ponytail; :data:`.texture.SLEEK`) has them too, shorter (SLEEK_HAIR_LONG) and rooted over
# a narrower fade (SLEEK_HAIRS): its scalp layer fades over 0.06 hairlines (texture.SLEEK_FILL_END, review N's pink
# halo), and without them its edge over the forehead was the hardest of every style (the hair's share falling from 0.9
# to 0.1 over 3.0 to 3.4 rows of a 512 px portrait, the crop's 7 to 10): blind review AP's costliest defect, "a painted
# helmet over a receding hairline" (tests/body/test_hair_hairline.py's fade, 0.12 to 0.34 before, 0.8 to 2.0 now).
HAIRS_FOR = HELD + SLEEK
HAIRS = (1.1, 0.9)
HAIRS_FADE = 1.0
HAIRS_SHARE = 0.37
HAIRS_ROOT = 0.75
HAIR_ROOTS = 0.3
HAIR_LONG = (3, 6)
SLEEK_HAIR_LONG = (2, 4)
SLEEK_HAIRS = (1.05, 0.9)
HAIR_LAST = 0.1
# ...but under hair much lighter than the skin (sRGB luma, from none LIGHTER[0] over it to all LIGHTER[1] over it) a stroke is
# the hair's own colour darkened to LIGHTER[2] times the skin's luma (the hair's hue and chroma, as a fine hair in the
# skin's shadow), HAIRS_LIGHT of the way from the skin (its roots' weight, HAIRS_SHARE, scaled up to it). Drawn as dark
# hair's, HAIRS_SHARE of the way to HAIRS_ROOT of a light colour, each stroke was the skin lightened in the skin's own
# hue, and a crop's bleached hair on a deep forehead stood over a band of pale skin-coloured fuzz 5 L* over the skin
# (blind review AA's #11, #BA9F7C on #6B4C33, 0.32 over; tests/body/test_crop_fuzz_review_aa.py). (From 0.05 over, review
# R's #3, grey #919191 on #8F6744, 0.14 over, took it too, and its band under the cards read 0.34 of the way to the
# hair, test_hairline_band_review_r's 0.3: there the fine hairs stay dark hair's.)
LIGHTER = (0.15, 0.3, 1.1)
HAIRS_LIGHT = 0.85


def draw_mask(gender: str, size: int, fade: tuple[float, float] = FADE, dots_per_m: float = DOTS,
          between: float = BETWEEN, ragged: float = 0.0, fine: float = 0.0,
              crown: float = 0.0) -> dict[str, np.ndarray]:
    """The scalp's texels inside the shaved head's hairline and their weights: fading from ``fade[0]`` to ``fade[1]``
    hairlines, broken into dots (``dots_per_m`` per metre; ``between``: the weight between them); with ``ragged``,
    the fade's weights moved by the dots (up to half ``ragged`` mid-fade), a broken edge rather than a drawn line;
    with ``fine`` (per metre), the dots half made of a second, finer grain (short hairs between the clumps); with
    ``crown``, the gaps between the dots filled so much where the fade is full (hair denser on the crown)."""
    m = reference_body(gender)
    h = head_of(m)
    faces = m.face_groups["body"]
    tris = m.triangles[faces]
    tmap = texel_map(m.triangle_uvs[faces], size)
    # Per vertex: how far inside the hairline (only the head's and neck's skin; 0 elsewhere).
    inside = np.zeros(len(m.positions), np.float32)
    used = np.unique(head_triangles(m))
    az, pol = h.angles(m.positions[used].astype(np.float64))
    inside[used] = smoothstep(fade[0], fade[1], pol / hairline("none", az))
    w = tmap.paint_vertices(tris, inside[:, None])[..., 0]
    # The stubble dots, on the texels' points in space (float64: the same bytes on every CPU).
    p = tmap.paint_vertices(tris, m.positions).astype(np.float64) * dots_per_m
    cell = np.sin(p[..., 0] * 1.7 + np.sin(p[..., 1] * 2.3)) * np.sin(p[..., 1] * 1.9 + np.sin(p[..., 2] * 2.1)) \
        * np.sin(p[..., 2] * 2.2 + np.sin(p[..., 0] * 1.3))
    grain = smoothstep(0.05, 0.4, cell)
    if fine:
        grain = 0.5 * grain + 0.5 * clumps(p * (fine / dots_per_m))
    if ragged:
        # (Only within the fade: none where it is 0 or 1.)
        w = np.clip(w + ragged * (grain - 0.5) * 4 * w * (1 - w), 0.0, 1.0)
    dots = between + (1 - between) * grain
    if crown:
        dots = dots + (1 - dots) * crown * w * w
    weight = (w * dots).reshape(-1)
    at = np.flatnonzero(weight > 1 / 255).astype(np.int32)
    return {"at": at, "w": np.round(weight[at] * 255).astype(np.uint8)}


def clumps(q: np.ndarray) -> np.ndarray:
    """A grain 0..1 over points ``q`` (..., 3) in its own units (some 3.5 cells a period): clumps of short hairs.

    >>> g = clumps(np.random.default_rng(0).random((1000, 3)) * 20)
    >>> bool(g.min() == 0.0), bool(g.max() == 1.0), 0.3 < float(g.mean()) < 0.6
    (True, True, True)
    """
    hairs = np.sin(q[..., 0] * 2.1 + np.sin(q[..., 2] * 1.7)) * np.sin(q[..., 1] * 1.8 + np.sin(q[..., 0] * 2.4)) \
        * np.sin(q[..., 2] * 1.9 + np.sin(q[..., 1] * 1.5))
    return smoothstep(-0.1, 0.3, hairs)


@lru_cache(maxsize=4)
def scalp_mask(gender: str, size: int) -> tuple[np.ndarray, np.ndarray]:
    """(flat texel indices, weights 0..255 uint8) of the scalp's stubble on a ``size`` px skin texture of
    ``gender``."""
    data = keep.kept(f"scalp-{gender}-{size}", lambda: draw_mask(gender, size, ragged=RAGGED),
                     {"at": (None,), "w": (None,)})
    return data["at"], data["w"]


@lru_cache(maxsize=16)
def shaved(tone: str, gender: str, hair_color: str) -> np.ndarray:
    """The skin texture (:func:`workbench.body.skin.skin_texture` of ``tone`` and ``gender``) of a
    shaved head, its scalp's stubble in ``hair_color`` (read-only)."""
    skin = skin_texture(tone, gender)
    at, w = scalp_mask(gender, skin.shape[0])
    hair = rgb(hair_color)
    skin_rgb = rgb(tone)
    in_skin = skin_rgb * float(hair @ LUMA) / max(float(skin_rgb @ LUMA), 1e-3)
    hair = (1 - GREY) * hair + GREY * np.minimum(in_skin, 1.0)     # (a dyed hue is in the hair's ends, not its roots)
    # Light hair's stubble hardly shows; dark hair's is a shadow a little blue-grey (skin seen through dark stubble).
    strength = STUBBLE * (1 - LIGHT_HAIR * float(hair.max()))
    # Per channel, weight (0..255) and skin level (0..255): the level drawn (a table: three gathers over the scalp's
    # texels, not float arithmetic over them).
    level = np.arange(256, dtype=np.float64)[None, None, :]
    t = np.arange(256, dtype=np.float64)[None, :, None] / 255 * strength
    under = np.minimum(level * UNDER[0] + hair[:, None, None] * 255 * UNDER[1] + np.array([0.0, 2.0, 6.0])[:, None, None],
                       level)
    table = np.clip(level * (1 - t) + under * t + 0.5, 0, 255).astype(np.uint8)          # (3, 256, 256)
    return painted(skin, at, w, table)


def painted(skin: np.ndarray, at: np.ndarray, w: np.ndarray, table: np.ndarray) -> np.ndarray:
    """``skin`` (an (n, n, 3) uint8 texture) with its texels ``at`` (flat indices) drawn by ``table`` (per channel,
    weight 0..255 and skin level 0..255: the level drawn) at their weights ``w`` (read-only).

    >>> table = np.zeros((3, 256, 256), np.uint8)
    >>> painted(np.full((2, 2, 3), 9, np.uint8), np.array([3]), np.array([255]), table)[1, 1].tolist()
    [0, 0, 0]
    """
    flat = skin.reshape(-1, 3)
    out = flat.copy()
    values = flat[at]
    out[at] = np.stack([table[c, w, values[:, c]] for c in range(3)], 1)
    image = out.reshape(skin.shape)
    image.setflags(write=False)
    return image


def scalp_texels(gender: str, size: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Each texel of a ``size`` px skin texture of ``gender``: its point in space on the reference body (N, 3, float64:
    the same bytes on every CPU), its azimuth and polar angle about the skull, and whether it lies near the head
    (within two skull radii); what the fine hairs here and the buzz cut (:mod:`.buzz`) paint by."""
    m = reference_body(gender)
    h = head_of(m)
    faces = m.face_groups["body"]
    tmap = texel_map(m.triangle_uvs[faces], size)
    p = tmap.paint_vertices(m.triangles[faces], m.positions).astype(np.float64).reshape(-1, 3)
    az, pol = h.angles(p)
    return p, az, pol, np.linalg.norm(p - h.centre, axis=1) < 2 * h.radius


@lru_cache(maxsize=8)
def front_mask(gender: str, size: int, style: str) -> tuple[np.ndarray, np.ndarray]:
    """(flat texel indices, weights 0..255 uint8) of the fine hairs over the forehead (:data:`HAIRS`) of ``style`` on a
    ``size`` px skin texture of ``gender``."""
    def make() -> dict[str, np.ndarray]:
        _, az, pol, near = scalp_texels(gender, size)
        v = fronted(pol / hairline(style, az), az, HAIRS_FADE).reshape(size, size)
        near = near.reshape(size, size)
        fade, long = (SLEEK_HAIRS, SLEEK_HAIR_LONG) if style in SLEEK else (HAIRS, HAIR_LONG)
        w = smoothstep(fade[0], fade[1], v) * smoothstep(FRONT[1], FRONT[0], np.abs(az)).reshape(size, size) * near
        return strokes(w, v, near, long)

    data = keep.kept(f"front-hairs-{gender}-{size}-{style}", make, {"at": (None,), "w": (None,)})
    return data["at"], data["w"]


def strokes(w: np.ndarray, v: np.ndarray, near: np.ndarray, long: tuple[int, int] = HAIR_LONG) -> dict[str, np.ndarray]:
    """The fine hairs' texels and weights (``{"at": flat indices, "w": 0..255}``) on a texture where the hairline's
    fade is ``w`` (1 under the hair, 0 past its fade) and ``v`` its hairlines from the crown, over the texels ``near``
    the head: single strokes a texel wide and ``long`` (shortest, longest) texels long, running down the way ``v`` grows (combed down
    the forehead as the cards' roots are), rooted more thinly as the fade goes (:data:`HAIR_ROOTS` of the texels where
    it is full), each fainter towards its tip and the fainter the further down it grows (its colour nearer the skin's):
    at a preview's size they read as a hairline thinning out, not as dots.

    >>> w = np.zeros((12, 12)); w[:, :4] = 1.0
    >>> v = np.tile(np.arange(12.0), (12, 1))
    >>> out = strokes(w, v, np.ones((12, 12), bool))
    >>> 4 <= int((out["at"] % 12).max()) < 4 + HAIR_LONG[1], int(out["w"].max()) <= 255 * HAIRS_SHARE
    (True, True)
    """
    n = w.shape[0]
    gy, gx = np.gradient(v)
    length = np.hypot(gy, gx)
    # (The way down: v's growth, one texel a step; none where it is not smooth, at an island's seam.)
    ok = (w > 0) & near & (length > 0) & (length < 5 * np.median(length[w > 0])) if (w > 0).any() else w > 0
    rng = np.random.default_rng(46)
    roots = np.flatnonzero(ok.reshape(-1) & (rng.random(n * n) < HAIR_ROOTS * w.reshape(-1)))
    ry, rx = np.divmod(roots, n)
    dy, dx = gy[ry, rx] / length[ry, rx], gx[ry, rx] / length[ry, rx]
    # (A little combed across, as the cards' roots lie, not ruled straight down.)
    turn = rng.normal(0.0, 0.25, len(roots))
    dy, dx = dy * np.cos(turn) - dx * np.sin(turn), dy * np.sin(turn) + dx * np.cos(turn)
    lengths = rng.integers(long[0], long[1] + 1, len(roots))
    # A hair's root: the darker the fuller the fade (nearer the skin further down); its tip a third of that.
    root = HAIRS_SHARE * (HAIR_LAST + (1 - HAIR_LAST) * w[ry, rx])
    out = np.zeros(n * n)
    for k in range(long[1]):
        on = k < lengths
        y = np.rint(ry[on] + dy[on] * k).astype(np.int64)
        x = np.rint(rx[on] + dx[on] * k).astype(np.int64)
        inside = (y >= 0) & (y < n) & (x >= 0) & (x < n)
        at = y[inside] * n + x[inside]
        keep_on = near.reshape(-1)[at]
        np.maximum.at(out, at[keep_on], (root[on] * (1 - 0.65 * k / np.maximum(lengths[on] - 1, 1)))[inside][keep_on])
    at = np.flatnonzero(out > 1 / 255).astype(np.int32)
    return {"at": at, "w": np.round(out[at] * 255).astype(np.uint8)}


@lru_cache(maxsize=16)
def front_hairs(tone: str, gender: str, style: str, hair_color: str) -> np.ndarray:
    """The skin texture of ``tone`` and ``gender`` under ``style``'s hair in ``hair_color``: fine hairs over the forehead
    where its hairline fades (:func:`front_mask`), the skin between them (read-only).

    >>> skin = skin_texture("#8D5524", "masculine")
    >>> out = front_hairs("#8D5524", "masculine", "short", "#2B1B10")
    >>> out.shape == skin.shape, 0 < int((out != skin).any(-1).sum()) < out.shape[0] * out.shape[1] // 50
    (True, True)
    """
    skin = skin_texture(tone, gender)
    at, w = front_mask(gender, skin.shape[0], style)
    colour, tone_rgb = rgb(hair_color), rgb(tone)
    over = float(colour @ LUMA) - float(tone_rgb @ LUMA)
    light = float(smoothstep(LIGHTER[0], LIGHTER[1], over))
    # (Light hair on a darker skin: the hair's hue at about the skin's lightness, drawn more strongly: LIGHTER.)
    shade = min(LIGHTER[2] * float(tone_rgb @ LUMA) / max(float(colour @ LUMA), 1e-3), 1.0)
    hair = colour * (HAIRS_ROOT + (shade - HAIRS_ROOT) * light) * 255
    level = np.arange(256, dtype=np.float64)[None, None, :]
    t = np.minimum(np.arange(256, dtype=np.float64)[None, :, None] / 255 * (1 + (HAIRS_LIGHT / HAIRS_SHARE - 1) * light),
                   1.0)
    table = np.clip(level * (1 - t) + hair[:, None, None] * t + 0.5, 0, 255).astype(np.uint8)
    return painted(skin, at, w, table)
