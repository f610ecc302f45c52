"""The hair's texture: one RGBA atlas per style and colour, drawn from patterns made once per machine.

Layout (glTF UVs, v down), :data:`HEIGHT` texels tall and :data:`WIDTH` wide (drawn twice as wide and
averaged in pairs of columns, so strands a texel or two wide keep their edges smooth):

- ``u`` 0 to 0.5: :data:`COLUMNS` card columns, one card's texture each, ``v`` from the root (0) to
  the tip (1), each drawn by :func:`.clumps.column`. The first :data:`CLUMPS` are clumps for the
  alpha-tested cards, strands over a darker core ending in a point; the last ones are wisps for the
  blended fringe, a few fine strands, half transparent, over the first 1/:data:`WISP_ROWS` of their column.
- ``u`` 0.5 to 1: the scalp layer (:mod:`.scalp`): ``u`` round the head, ``v`` from the crown to
  past the hairline; the roots' dark shade in the hair's colour, opaque to :data:`FILL_TO`, fading
  out to :data:`FILL_END`, and over it fine strands along ``v`` that end one by one between
  :data:`TIP_FROM` and :data:`TIP_TO` (over ``V_END``; all in hairlines from the crown), fewer and
  fewer: the hairline is a gradient of single hairs into the skin, not a cut along triangles.

Root to tip: every strand is darker at its root (the shade inside the hair) and lighter at its tip,
and its tip's colour moves towards a lighter, warmer one (sun and wear): each pattern stores per texel
a light level (0..255 for 0..2 times the colour), how far towards the tip colour it is (0 ..
``TIPS - 1``) and an alpha (the top byte of an RGBA word); a colour is a table of ``TIPS x 256``
entries looked up per texel, so a new colour costs a few milliseconds.

>>> t = hair_texture("#2B1B10", "short")
>>> t.shape, t.dtype.name, int(t[..., 3].max()), int(t[-1, -1, 3])
((1024, 512, 4), 'uint8', 255, 0)
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from .. import keep
from .clumps import column, even_crown, even_locks, smooth

HEIGHT = 1024
WIDTH = 512
SIZE = HEIGHT           # the drawing's side, before its columns are averaged in pairs
COLUMNS = 8
CLUMPS = 6
# The scalp layer's rows, in units of the style's hairline (0 the crown, 1 the hairline): the roots'
# shade is opaque to FILL_TO and gone at FILL_END; strands end one by one between TIP_FROM and TIP_TO;
# the layer runs on, clear, to V_END (v = 1).
# The fill's fade is the hairline (slow changes only round the head): the layer's single strands end inside it. A
# texel of the layer is 2 mm round the head, so a strand past the fill was a bar that wide, with a hard end in a
# browser's mipmaps (review I, defect 5).
FILL_TO, FILL_END = 0.94, 1.1
# ...under hair pulled back sleek (SLEEK), gone by SLEEK_FILL_END: its cards lie on the scalp and no strand of the
# layer reaches past the fill, so the fill's fade was all there was of its hairline; over 0.16 hairlines (2 cm), it was
# a soft band of the hair's colour over the forehead (blind review N's "pink halo bleeding onto the forehead", #10's
# #C95A7A on #F2CCB9; tests/body/test_sleek_hairline_review_n.py).
SLEEK_FILL_END = 1.0
# ...but at the sides (azimuths, degrees from the face, either side: over the first two it goes from SLEEK_FILL_END to
# FILL_END, and back over the last two) it thins over 0.16 hairlines: there the 0.06 hairlines' fade was a cut edge
# down the temple to the ear at three quarters (blind review O's "hard cut edge above the ear";
# tests/body/test_sleek_temple_review_o.py). The forehead, where review N saw its halo, and the nape keep it. The ramp
# is long: from 70 to 90 degrees (and to TIP_TO) the fade's end turned so fast round the head that its alpha changed
# by 0.20 to 0.25 within 16 texels, review I's hairline grain (tests/body/test_hair_review_i.py, at most 0.1).
SLEEK_SIDES = (40.0, 110.0, 120.0, 180.0)
TIP_FROM, TIP_TO, V_END = 0.93, 1.15, 1.40
# ...drawn over the first 1/WISP_ROWS of their column (a wisp card's ``v`` runs over that): over the whole column, a
# centimetre's card took a thousand rows, some seventy a pixel, and a browser drew it from its mipmaps' smallest
# levels, whose texels span columns: each wisp took the alpha and dark roots' shade of the clumps and the scalp layer
# beside it, a flat brown bar (review I's comb on the forehead, three.js and model-viewer).
WISP_ROWS = 8
# The light levels' range: a texel's level L stands for L / 255 * LIGHT_MAX times the colour.
LIGHT_MAX = 2.0
# Steps from the root's colour to the tip's.
TIPS = 8
# Root to tip per style: how dark the root is (its light level's share), how far (in v, root 0 to tip 1)
# its shade reaches (a few centimetres of the style's length), and how much lighter the tip is. Short
# hair's cards lie over each other's roots: a strong change along each card drew every card as a scale.
# Hair pulled back (bun, ponytail) is seen from the front along its cards: dark roots drew each card's root end
# as a bar, a row of them along the hairline (cornrows).
ROOT = {"short": (0.85, 0.3, 0.03), "long": (0.72, 0.1, 0.12), "bun": (0.92, 0.15, 0.06),
        "curly": (0.75, 0.3, 0.08), "ponytail": (0.92, 0.1, 0.12), "bob": (1.0, 0.15, 0.06)}
# (The bob's no dark root: its cards root all over the scalp and cross one another, so at a crossing one card's dark root
# met another's lit length or light tip along a straight line, blocks of two shades (blind review O's "mosaic"); its
# depth is its vertex colours', which follow the hair's surface, not each card: .occlusion, and clumps.EVEN. Its tips
# lighter, though, 0.06 (was none): its cards end together at the hem, where few cross, and without it black hair was
# one shade from crown to hem, blind review U's "solid black helmet"; tests/render/test_bob_strands_review_u.py.)
# Light hair scatters the light it takes in on through the strands under the outer ones (a fibre's albedo: white
# hair's inside is lit by it, black hair's is dark): the under-layers' shade (the scalp layer's roots and the cards'
# roots' shade, ROOT, here, the cards' depth in their vertex colours, :func:`.look.lit`) loses this share of its
# darkness at most, from a colour's lightness (sRGB, luma) SCATTER_FROM (dark and brown hair keep theirs) to
# SCATTER_FULL. Darkened as dark hair's, a white bob's scalp layer and inner cards drew a grey cap inside it (blind
# review J).
SCATTER = 0.7
SCATTER_FROM, SCATTER_FULL = 0.4, 0.85
# ...in the styles whose layers hang in sheets (curls keep their depth between the coils, CURLY_SHADE in .pieces: lifted
# so, grey curls went flat, with a pale band at the hairline; short and pulled-back hair, seen over the scalp, keep
# theirs).
SCATTERED = ("long", "bob")
# Dark hair's cards draw their shades darker than their median (their strands', locks' and cards' darker ones) this many
# times as far under it (the first figure) in sRGB luma up to the second figure, none from the third: their spread, 0.8
# to 1.07 of the light, in hair as dark as #262424 is 3 to 4 levels of 255 apart in sRGB, and long black hair read as one
# solid panel (blind review O's "solid black curtain", #10; tests/body/test_long_hair_review_o.py). (Spread both ways,
# 1.9 times, black hair's mean stood lighter than its colour, tests/render/test_hair_underlayer_review_l.py, its
# brightest strands drew over the highlight's band, test_hair_shading, and brown hair's strands were dashes,
# test_hair_dashes.)
# The bob's as long hair's: at one, black hair's strands over their gaps were 0.106 of its light at a strand's scale from
# behind (the curls, review U's standard, 0.169), "a solid black helmet of chunky flat panels" (blind review U, #5's
# #262121; tests/render/test_bob_strands_review_u.py).
DARK_CONTRAST = {"long": (3.0, 0.15, 0.3), "bob": (3.0, 0.15, 0.3)}
# Light sleek hair keeps this share (first figure) of its cards' spread across at their locks' scale (clumps.even_locks)
# from sRGB luma 0.6 (second), all of it from 0.3 (third): their bands, 2 to 5 px apart in a portrait, met askew ones
# of the cards they cross in jagged lines, 3.7 L* in blond: review AB's "wood grain" (test_sleek_grain_review_ab.py).
LIGHT_EVEN = {"bun": (0.4, 0.6, 0.3), "ponytail": (0.4, 0.6, 0.3)}
# Long hair's cards cross one another all over the head (each falls from its own root, the crown's outermost), and where
# one card passes over or through another the two cards' textures meet along a straight line: each card's dark core
# between its strands, its locks' shades and its staggered roots, a card's own, made every crossing a block of another
# shade with straight edges, rows of them down the back of the head (blind review Z's "stair-stepped card texture",
# #6). Over the part of each card that lies on the head (to the second figure of its length, back to all of it by the
# third) its light across at the locks' and core's scale (blurred across by a Gaussian of the fourth figure's columns of
# the drawing) keeps the first figure's share of its spread about the row's mean, its strands all of theirs (the bob's
# cards are even all along, clumps.EVEN); the hanging lengths, which lie side by side, keep their locks' contrast too.
# The dark blocks over the back of #6's head from behind 0.0222 -> 0.0148 of it (tests/render/test_long_steps_review_z.py).
# (The whole spread cut, to 0.45 of the card: 0.0164, but review O's dark strands 5.38 levels against its 5.6,
# tests/body/test_long_hair_review_o.py, now 5.71. Long hair's roots at 0.9 of the light as well, ROOT, cut the blocks
# further, 0.0126, but mid-brown roots so light left blonde's no lighter than brown's, review P's
# tests/render/test_long_crown_review_p.py: 1.11 times against its 1.2.)
CROWN_EVEN = {"long": (0.35, 0.2, 0.35, 4.0)}
SEEDS = {"short": 51, "long": 52, "bun": 53, "curly": 54, "ponytail": 55, "bob": 56}
# Hair pulled back sleek (its cards lie flat side by side, ending in points where they meet the gathered part):
# the scalp layer's roots there in the strands' own shade, as the hair under the cards would be. In the
# roots' dark shade it showed between the cards' points as dark wedges (brushstrokes) and, where the cards
# of either side part, as a dark stripe.
SLEEK = ("bun", "ponytail")


def column_u(column: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The ``u`` range (left, right) of card columns, a texel in from each side.

    >>> [round(float(x), 4) for x in np.concatenate(column_u(np.array([0])))]
    [0.002, 0.0605]
    """
    w = 0.5 / COLUMNS
    return column * w + 1.0 / WIDTH, (column + 1) * w - 1.0 / WIDTH


def shell_u(u: np.ndarray) -> np.ndarray:
    """The shell's ``u`` (0..1 round the head) in the atlas (its right half, a texel in from each side)."""
    return 0.5 + 1.0 / WIDTH + u * (0.5 - 2.0 / WIDTH)




def sides(u: np.ndarray) -> np.ndarray:
    """How far (0 to 1) the shell's ``u`` (0 to 1 round the head from the back, :func:`.scalp.shell`) is at the sides
    of the head (:data:`SLEEK_SIDES`): 0 over the forehead and the nape, 1 over and behind the ears.

    >>> sides(np.array([0.5, 0.25, 0.185, 0.0])).round(2).tolist()
    [0.0, 0.8, 1.0, 0.0]
    """
    az = np.abs(360.0 * (np.asarray(u, float) - 0.5))
    return smooth(SLEEK_SIDES[0], SLEEK_SIDES[1], az) * smooth(SLEEK_SIDES[3], SLEEK_SIDES[2], az)


def root_shade(style: str, at: np.ndarray) -> np.ndarray:
    """The share of a card texel's light its root's shade leaves it (:data:`ROOT`) at ``at`` (0 at the root, 1 at
    the tip).

    >>> root_shade("long", np.array([0.0, 0.05, 0.5])).round(2).tolist()
    [0.72, 0.86, 1.0]
    """
    root, reach, _ = ROOT[style]
    return root + (1 - root) * smooth(0.0, reach, at)


def _card_at(rows: int) -> np.ndarray:
    """(rows, WIDTH // 2): where along its card (0 root, 1 tip) each texel of the atlas's card half lies (a wisp
    column's card runs over its first 1/WISP_ROWS, :data:`WISP_ROWS`)."""
    v = (np.arange(rows) + 0.5) / rows
    wisp = (np.arange(WIDTH // 2) // (WIDTH // 2 // COLUMNS)) >= CLUMPS
    return np.where(wisp[None, :], np.minimum(v * WISP_ROWS, 1.0)[:, None], v[:, None])


def _draw(style: str) -> dict[str, np.ndarray]:
    """The atlas's light levels, tip steps and alpha for ``style`` (see the module's layout)."""
    n = SIZE
    light = np.zeros((n, n), np.float32)
    alpha: np.ndarray = np.zeros((n, n), np.float32)
    tip = np.zeros((n, n), np.float32)
    curly = style == "curly"
    rng = np.random.default_rng(SEEDS[style])
    cw = n // 2 // COLUMNS
    v = ((np.arange(n) + 0.5) / n)[:, None]
    for c in range(COLUMNS):
        wisp = c >= CLUMPS
        a, lit = column(rng, style, n // WISP_ROWS if wisp else n, cw, wisp, SIZE / WIDTH)
        if wisp:        # (the column's first rows: WISP_ROWS)
            a, lit = np.pad(a, ((0, n - len(a)), (0, 0))), np.pad(lit, ((0, n - len(lit)), (0, 0)), mode="edge")
        if style in CROWN_EVEN and not wisp:
            lit = even_crown(lit, a, v[:, 0], *CROWN_EVEN[style])
        # Root to tip: dark at the root (the shade inside the hair), lighter towards the tip.
        tip_light = ROOT[style][2]
        at = np.minimum(v * WISP_ROWS, 1.0) if wisp else v
        lit = lit * root_shade(style, at) * (1 + tip_light * smooth(0.45, 1.0, at))
        alpha[:, c * cw:(c + 1) * cw] = a
        light[:, c * cw:(c + 1) * cw] = lit
        tip[:, c * cw:(c + 1) * cw] = smooth(0.3, 1.0, at) * min(1.0, tip_light * 10)
    shade, cut, ground = _shell(rng, curly, style in SLEEK)
    light[:, n // 2:] = shade
    alpha[:, n // 2:] = cut
    # Pairs of columns averaged (the light weighted by alpha, so clear texels do not darken an edge).
    pair = alpha[:, 0::2] + alpha[:, 1::2]
    lit = light[:, 0::2] * alpha[:, 0::2] + light[:, 1::2] * alpha[:, 1::2]
    light = np.where(pair > 1e-3, lit / np.maximum(pair, 1e-3), (light[:, 0::2] + light[:, 1::2]) / 2)
    alpha = pair / 2
    tip = tip[:, 0::2]
    ground = (ground[:, 0::2] * cut[:, 0::2] + ground[:, 1::2] * cut[:, 1::2]) / np.maximum(cut[:, 0::2] + cut[:, 1::2],
                                                                                           1e-3)
    # Alpha kept as the top byte of a little-endian RGBA word (hair_texture ors the colour in).
    return {"light": np.clip(light / LIGHT_MAX * 255 + 0.5, 0, 255).astype(np.uint8),
            "tip": np.clip(np.round(tip * (TIPS - 1)), 0, TIPS - 1).astype(np.uint8),
            "alpha": np.clip(alpha * 255 + 0.5, 0, 255).astype("<u4") << 24,
            "ground": np.clip(ground * 255 + 0.5, 0, 255).astype(np.uint8)}


def _shell(rng, curly: bool, sleek: bool = False) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The scalp layer's half (see the module's text): the roots' shade, opaque to about FILL_TO and thinning
    out by FILL_END, under strands (the hair's colour) that end one by one between TIP_FROM and TIP_TO, fewer
    and fainter the farther out; curly hair's short and kinked over a mottled shade (coils seen end on). Returned:
    its light, its alpha and the share of each texel's cover that is the fill, not a strand (:func:`.ground.grounded`).

    The hairline is a gradient of density, not a line: the fill's own edge wanders (a few hundredths of a
    hairline, slowly round the head) and thins over a sixth of a hairline (over a tenth, seen with the row of
    strands past it, it read as a cut and a row of teeth), and the strands past it fade as they go (their
    alpha falls with their distance past the fill, so the last ones are faint single hairs)."""
    n = SIZE
    w = n // 2
    # (float64: numpy's vectorised float32 sin rounds otherwise on other CPUs)
    y, x = np.mgrid[0:n, 0:w].astype(np.float64)
    h = (y + 0.5) / n * V_END                                     # hairlines from the crown
    # (Curly: kinks of under a texel; a wave of a texel and a half a few millimetres long drew stripes
    # across the forehead.)
    wave = (0.6 if curly else 0.7) * np.sin(y / (9.0 if curly else 37.0) + x * (2.1 if curly else 0.7))
    strand = np.floor(x + wave).astype(np.int64) % w
    tone = rng.random(w)
    pair = np.repeat(rng.random(w // 2), 2)[:w]
    # Ends: most near TIP_FROM, fewer and fewer towards TIP_TO (the hairline's density falls off).
    draw = (0.6 * pair + 0.4 * rng.random(w)) ** 1.25
    # Every other texel's strand ends well inside the fill, each at its own row: where all of them had ended
    # at TIP_FROM the roots' shade showed between the rest at once, a dark line along the hairline.
    inner = 0.55 + (TIP_FROM - 0.55) * rng.random(w)
    ends = np.where(np.arange(w) % 2 == 0, TIP_FROM + (TIP_TO - TIP_FROM) * draw, inner)[strand]
    fine = np.clip((ends - h) / 0.04, 0, 1) ** 1.5                 # a strand tapering over its last rows
    faint = 1 - 0.55 * smooth(FILL_TO, TIP_TO, h)                  # the last hairs fine and faint
    strands = fine * (0.9 - 0.45 * smooth(TIP_FROM - 0.04, TIP_FROM, h)) * faint * smooth(FILL_TO, FILL_TO - 0.06, h)
    # The fill's edge wanders round the head (a sum of slow waves over the layer's columns).
    # (Slow ones only: a wave a few centimetres long drew notches in the hairline.)
    k = np.arange(1, 7)
    waves = (np.sin(np.outer(x[0] / w * 2 * np.pi, k * 3) + rng.random(6) * 6.3) / k ** 1.5).sum(1) / 1.6
    # (Under sleek hair its fade is shorter, and its wander with it: the same wander over the short fade was a
    # grain of 0.13 to 0.18 in alpha along the hairline, review I's hairline test allowing 0.1.)
    end = SLEEK_FILL_END + (FILL_END - SLEEK_FILL_END) * sides(x[:1] / w) if sleek else FILL_END
    at = 0.03 * (end - FILL_TO) / (FILL_END - FILL_TO) * waves[None, :]
    fill = smooth(end + at, FILL_TO + at, h)
    alpha = strands + fill * (1 - strands)
    # (Roots' shade and strands near one another: at 0.5 against 0.87 the texels where strands had ended
    # drew a checker of dark and light blocks, each texel a few millimetres wide round the head.)
    root = (0.64 + 0.1 * tone[strand]) * (0.94 + 0.06 * np.sin(x * 0.9 + y / 53.0))
    hair = 0.74 + 0.22 * tone[strand]
    if curly:
        # Coils seen end on: a mottle of light tufts over their shade, a few millimetres across.
        blob = np.sin(x * 0.9 + 2.0 * np.sin(y / 23.0)) * np.sin(y / 17.0 + 1.7 * np.sin(x * 0.45))
        # ...in the coils' shade to the hairline: the layer's vertex colours lighten it from 0.82 hairlines
        # (pieces.edge), and, lit, its band past the coils read as a pale smooth cap.
        # Its last single hairs past the fill in their own light (darkened too, they were specks on the skin).
        deep = 1 - 0.45 * smooth(0.8, 0.97, h) * smooth(1.1, 0.98, h)
        hair = hair * (0.86 + 0.14 * blob) * deep
        root = root * (0.9 + 0.1 * blob) * deep
    # Where the fill thins, its shade is the strands' (a dark fill between light strands there drew dark
    # specks along the hairline, a texel each).
    root = root + (hair - root) * smooth(FILL_TO - 0.05, FILL_TO + 0.05, h)
    if sleek:
        # (...from a little inside the hairline: the roots' shade stays where the layer fades into the skin.)
        lit = 1.08 * hair * (0.94 + 0.06 * np.sin(x * 0.9 + y / 53.0))
        root = root + (lit - root) * smooth(FILL_TO - 0.06, FILL_TO - 0.16, h)
    shade = (hair * strands + root * fill * (1 - strands)) / np.maximum(alpha, 1e-3)
    shade = np.where(alpha > 1e-3, shade, hair)
    ground = fill * (1 - strands) / np.maximum(alpha, 1e-3)
    if curly:
        # (between the end-on coils' light tufts, where the skin shows first: grounded)
        ground = ground * (0.75 - 0.25 * blob)
    return shade.astype(np.float32), alpha.astype(np.float32), ground.astype(np.float32)


@lru_cache(maxsize=8)
def pattern(style: str) -> dict[str, np.ndarray]:
    """The atlas's patterns for ``style``, made once per machine (``keep.kept``)."""
    return keep.kept(f"hair-atlas-{style}", lambda: _draw(style))


def rgb(color: str) -> np.ndarray:
    """'#RRGGBB' as floats 0..1."""
    c = color.lstrip("#")
    return np.array([int(c[i:i + 2], 16) for i in (0, 2, 4)], float) / 255


def tip_color(base: np.ndarray) -> np.ndarray:
    """The colour (sRGB 0..1) a strand of ``base`` goes to at its tip: lighter and a little warmer.

    >>> [round(float(c), 3) for c in tip_color(np.array([0.2, 0.1, 0.05]))]
    [0.296, 0.166, 0.09]
    """
    return np.clip(base ** 0.78 * np.array([1.04, 1.0, 0.93]), 0, 1)


def scatter(color: str, style: str) -> float:
    """The share of the under-layers' shade that light hair of ``color`` in ``style`` loses (:data:`SCATTER`): 0 for
    dark and mid-brown hair, and for styles not in :data:`SCATTERED`.

    >>> scatter("#2B1B10", "bob"), round(scatter("#D4D1CE", "bob"), 2), scatter("#D4D1CE", "curly")
    (0.0, 0.69, 0.0)
    """
    if style not in SCATTERED:
        return 0.0
    level = float(rgb(color) @ np.array([0.2126, 0.7152, 0.0722]))
    return SCATTER * float(smooth(SCATTER_FROM, SCATTER_FULL, level))


def contrast(color: str, style: str) -> float:
    """How many times as far under their median dark hair of ``color`` in ``style`` draws its cards' darker shades
    (:data:`DARK_CONTRAST`), or the share of its locks' spread light sleek hair keeps (:data:`LIGHT_EVEN`); else 1.

    >>> round(contrast("#262424", "long"), 2), contrast("#B89A6A", "long"), contrast("#262424", "short")
    (3.0, 1.0, 1.0)
    >>> contrast("#262424", "bun"), round(contrast("#B39879", "bun"), 2)
    (1.0, 0.4)
    """
    level = float(rgb(color) @ np.array([0.2126, 0.7152, 0.0722]))
    if style in LIGHT_EVEN:
        least, light, dark = LIGHT_EVEN[style]
        return 1.0 - (1.0 - least) * float(smooth(dark, light, level))
    if style not in DARK_CONTRAST:
        return 1.0
    most, dark, light = DARK_CONTRAST[style]
    return 1.0 + (most - 1.0) * float(smooth(light, dark, level))


@lru_cache(maxsize=32)
def hair_texture(color: str, style: str) -> np.ndarray:
    """RGBA (HEIGHT, WIDTH, 4) uint8: the atlas for ``style`` in ``color`` (read-only); in light hair the scalp
    layer's roots' shade lifted by :func:`scatter`, the cards' shades' spread set by :func:`contrast`."""
    p, lift, spread = pattern(style), scatter(color, style), contrast(color, style)
    if spread > 1:
        light = p["light"].copy()
        cards = light[:, :WIDTH // 2].astype(np.float64)
        mid = float(np.median(cards[(p["alpha"][:, :WIDTH // 2] >> 24) > 128]))
        light[:, :WIDTH // 2] = np.clip(mid + np.minimum(cards - mid, 0) * spread + np.maximum(cards - mid, 0), 0,
                                        255).round().astype(light.dtype)
        p = dict(p, light=light)
    elif spread < 1:    # (light sleek hair's locks evened: about 2 texels across, its strands kept)
        light, clumps = p["light"].copy(), WIDTH // 2 // COLUMNS * CLUMPS
        alpha = (p["alpha"][:, :clumps] >> 24) / 255.0
        light[:, :clumps] = np.clip(even_locks(light[:, :clumps], alpha, spread, CLUMPS, 2.0), 0, 255).round()
        p = dict(p, light=light)
    if lift > 0:
        light = p["light"].copy()
        shell = light[:, WIDTH // 2:].astype(np.float64)
        full = 255 / LIGHT_MAX
        light[:, WIDTH // 2:] = np.where(shell < full, shell + (full - shell) * lift, shell).round().astype(light.dtype)
        # ...and the cards' roots' shade as much (ROOT): in its full shade, long blonde hair's roots where they lie open
        # along the parting drew dark wedges over the crown (blind review P's "sawtooth tears", #12, every renderer).
        old = root_shade(style, _card_at(len(light)))
        cards = light[:, :WIDTH // 2] * ((1 - (1 - old) * (1 - lift)) / old)
        light[:, :WIDTH // 2] = np.clip(cards, 0, 255).round().astype(light.dtype)
        p = dict(p, light=light)
    return tint(p, color)


def tint(p: dict[str, np.ndarray], color: str) -> np.ndarray:
    """RGBA uint8 of a pattern (``light`` levels, ``tip`` steps and ``alpha`` words, as :func:`pattern`) in
    ``color``."""
    base = rgb(color)
    # Very dark hair keeps a little colour in its lit strands, so it still reads as strands.
    lift = 0.06 * (1 - min(1.0, float(base.max()) * 4))
    levels = np.arange(256) / 255 * LIGHT_MAX
    steps = np.arange(TIPS) / (TIPS - 1)
    colors = (base + lift)[None, :] * (1 - steps[:, None]) + (tip_color(base) + lift)[None, :] * steps[:, None]
    table = np.zeros((TIPS, 256, 4), np.uint8)
    table[..., :3] = np.clip(colors[:, None, :] * levels[None, :, None] * 255 + 0.5, 0, 255)
    # One 4-byte word per texel: the colour's table looked up, the alpha (kept in the top byte) or'ed in.
    index = p["tip"].astype(np.intp) * 256 + p["light"]
    words = table.view("<u4").reshape(TIPS * 256)[index] | p["alpha"]
    out = words.view(np.uint8).reshape(p["light"].shape + (4,))
    out.setflags(write=False)
    return out
