"""The hair's texture: one RGBA atlas per style and colour, drawn from patterns made once per machine.

Layout (glTF UVs, v down), :data:`HEIGHT` texels tall and :data:`WIDTH` wide (drawn twice as wide and
averaged in pairs of columns, so strands a texel or two wide keep their edges smooth):

- ``u`` 0 to 0.5: :data:`COLUMNS` card columns, one card's texture each, ``v`` from the root (0) to
  the tip (1). The first :data:`CLUMPS` are clumps for the alpha-tested cards: a darker core (the
  hair inside the clump, which keeps a mipmapped alpha over the cut) under about eighty strands, each
  its own width and length, straight ones gathered in :data:`LOCKS` locks of a shade each (which a
  browser's mipmaps keep); the strands gather towards the clump's middle as they go and the
  middle ones reach farthest, so a clump ends in a point of single strands (no blunt cut-out end).
  The last ones are wisps for the blended fringe: a few fine strands, half transparent. ``curly``
  draws frizzy strands.
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
from .outline import POINT, clump_outline

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
TIP_FROM, TIP_TO, V_END = 0.93, 1.15, 1.40
# The fringe's wisps (the last columns): their strands' opacity times the first figure, fading out from the second
# share of their length to the tip. A wisp card is a few millimetres across and a centimetre or two long, the whole
# column's height: a browser draws it from its mipmaps' smallest levels, where its strands average to one flat
# translucent bar. At full opacity those bars were a hard brown comb on the forehead (review I, defect 5); faint
# and fading, a soft shadow of the hairline.
WISP_FADE = (0.55, 0.15)
# ...drawn over the first 1/WISP_ROWS of their column (a wisp card's ``v`` runs over that): over the whole column, a
# centimetre's card took a thousand rows, some seventy a pixel, and a browser drew it from its mipmaps' smallest
# levels, whose texels span columns: each wisp took the alpha and dark roots' shade of the clumps and the scalp layer
# beside it, a flat brown bar (review I's comb on the forehead, three.js and model-viewer).
WISP_ROWS = 8
# Straight hair's strands, in the card columns' light, softened across (a Gaussian of this many atlas texels, sd): its
# finest strands were half a texel to a texel wide, wandering slowly across the texels as they go. A card seen at a
# portrait's size spans two texels a pixel across, and a renderer reading one texel a pixel (ours: bilinear, no
# mipmaps) caught such a strand in some rows and missed it in the next: each strand a dotted line, and the dark gaps
# and dark strands between them short dark dashes a few pixels long (blind review M: long hair's "horizontal blocky
# bands", the bob's "stair-stepped and streaky" texture; tests/render/test_hair_dashes.py). Softened so, a strand
# is continuous at any place across the texels; its locks' shades (LOCKS) keep the card's strands apart.
SOFTEN = 1.0
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
        "curly": (0.75, 0.3, 0.08), "ponytail": (0.92, 0.1, 0.12), "bob": (0.72, 0.15, 0.1)}
# How a clump's strands end (:func:`_clump`'s ``spread``): a bob is cut nearly blunt, long hair tapers.
SPREAD = {"long": (0.38, 0.45), "bob": (0.14, 0.16), "ponytail": (0.3, 0.35), "short": (0.38, 0.45)}
# Straight hair's locks per clump card and their range of light (:func:`_clump`); each card's own light
# (its tone) within TONE: at 0.9 to 1.06 neighbouring cards were patches of two shades.
LOCKS = 3
LOCK_LIGHT = (0.9, 1.08)
TONE = (0.96, 1.03)
# ...and, within a lock, each straight strand's light (a lock's strands near one shade: their spread is at the
# locks' scale, which mipmaps keep, not a texel's) and that of the hair between them (GAP).
STRAND = (0.97, 1.02)
GAP = 0.8
# ...but hair pulled back sleek (bun, ponytail) lies flat and is seen along its strands over the whole cap: its strands
# near one shade and its locks 7 mm wide each a shade (LOCK_LIGHT), its cards drew smooth light and dark slabs, "extruded
# strips with glossy banding ... like clay rather than hair" (blind review M, defect 2). STRANDS[style]: its strands'
# range of light, the share of them darker (0.8 to 0.88), the light between them (GAP's) and its locks' range of light
# (LOCK_LIGHT's): strands and their shadows a millimetre or two apart, fine streaks along the comb, over locks near one
# shade (tests/body/test_sleek_strands_review_m.py).
STRANDS = {"bun": ((0.82, 1.14), 0.14, 0.72, (0.935, 1.045)), "ponytail": ((0.82, 1.14), 0.14, 0.72, (0.935, 1.045))}
# Light hair scatters the light it takes in on through the strands under the outer ones (a fibre's albedo: white
# hair's inside is lit by it, black hair's is dark): the under-layers' shade (the scalp layer's roots here, the
# cards' depth in their vertex colours, :func:`.look.lit`) loses this share of its darkness at most, from a colour's
# lightness (sRGB, luma) SCATTER_FROM (dark and brown hair keep theirs) to SCATTER_FULL. Darkened as dark hair's,
# a white bob's scalp layer and inner cards drew a grey cap inside it (blind review J).
SCATTER = 0.7
SCATTER_FROM, SCATTER_FULL = 0.4, 0.85
# ...in the styles whose layers hang in sheets (curls keep their depth between the coils, CURLY_SHADE in .pieces: lifted
# so, grey curls went flat, with a pale band at the hairline; short and pulled-back hair, seen over the scalp, keep
# theirs).
SCATTERED = ("long", "bob")
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


def _smooth(e0, e1, x):
    t = np.clip((x - e0) / (e1 - e0), 0.0, 1.0)
    return t * t * (3 - 2 * t)


def _strand(out_a, out_l, v, x, half, alpha, lit):
    """Lay one strand over a column (``out_a`` alpha, ``out_l`` light, (rows, width)): centre ``x`` and
    half-width ``half`` per row (0 where it is absent), opacity ``alpha`` (scalar) and light ``lit``
    per row, shaded across as a round fibre."""
    rows, width = out_a.shape
    r = np.arange(rows)
    lo = np.floor(x - half - 1).astype(np.int64)
    for k in range(int(np.ceil(2 * half.max())) + 3):
        col = lo + k
        ok = (col >= 0) & (col < width) & (half > 0.05)
        dx = (col + 0.5 - x) / np.maximum(half, 1e-3)
        # Coverage: full inside, a pixel's soft edge, thin strands thinner (a strand under a pixel wide
        # covers that share of it).
        a = np.clip(half + 0.5 - np.abs(col + 0.5 - x), 0, 1) * np.minimum(half * 2, 1) * alpha
        a = np.where(ok, a, 0.0)
        over = a > 0.01
        rr, cc = r[over], col[over]
        shade = lit[over] * (0.82 + 0.28 * np.sqrt(np.clip(1 - dx[over] ** 2, 0, 1)))
        out_l[rr, cc] = shade * a[over] + out_l[rr, cc] * (1 - a[over])
        out_a[rr, cc] = a[over] + out_a[rr, cc] * (1 - a[over])


def _clump(rng, rows: int, cw: int, curly: bool, tone: float, wisp: bool, spread: tuple[float, float] = (0.38, 0.45),
           point: float | None = None, strands: tuple = (STRAND, 0.04, GAP, LOCK_LIGHT)):
    """One card column: (alpha, light) of (rows, cw) (see the module's text); ``spread``: how much sooner the
    strands at the clump's sides end than those in its middle, and how much each strand's length varies;
    ``strands``: straight strands' (range of light, share of dark ones, light between them, their locks' range of
    light), :data:`STRANDS`."""
    a = np.zeros((rows, cw), np.float32)
    v = (np.arange(rows) + 0.5) / rows
    # Between the strands the hair inside the clump, in shade; less so towards the tip, where it thins.
    # (A curl's ribbon shows its face at every turn: dark gaps drew it striped, black clusters in grey hair.)
    # (Straight hair's at 0.68: darker, with the strands' own spread of shades, it drew wood grain.)
    gap = 0.78 if curly else strands[2]
    lit = np.repeat((tone * (gap + (0.8 - gap) * _smooth(0.6, 1.0, v)))[:, None], cw, 1).astype(np.float32)
    mid = cw / 2
    if wisp:
        for _ in range(9):
            x0 = mid + rng.uniform(-0.8, 0.8) * (mid - 3)
            end = rng.uniform(0.55, 0.98)
            half = rng.uniform(0.5, 0.9) * np.clip((end - v) / 0.15, 0, 1) ** 0.8 * (v < end)
            x = x0 + rng.uniform(-3, 3) * v + (1.6 if curly else 0.4) * np.sin(v * rows / rng.uniform(5, 11) + rng.random() * 6)
            _strand(a, lit, v, x, half, rng.uniform(0.6, 0.85), np.full(rows, rng.uniform(0.85, 1.1) * tone))
        # Fainter and fading from root to tip (:data:`WISP_FADE`).
        return a * (WISP_FADE[0] * (1 - _smooth(WISP_FADE[1], 1.0, v)))[:, None], lit
    # The core: the hair inside the clump, dark, tapering to the middle before the strands end.
    reach = rng.uniform(0.78, 0.86) + 0.3 * (0.45 - spread[1])
    core = 0.7 * (mid - 2) * (1 - _smooth(0.3, reach, v)) ** 0.7
    _strand(a, lit, v, np.full(rows, mid), core, 1.0, np.full(rows, 0.6 * tone))
    # The strands: more near the middle; the farther from it, the sooner a strand ends; all gather in
    # a little towards the middle as they near the clump's tip.
    # Straight hair: more strands, finer, nearer one shade and straighter (64 strands of up to 3 texels, an
    # eighth of them dark and each wandering by up to 1.6 texels, read as wood grain at a portrait's size).
    fine = not curly
    # Straight hair's strands lie in LOCKS locks side by side, each a shade of its own (LOCK_LIGHT) and its
    # strands near one shade within it: a card is a few locks running root to tip. (Strands alone, of
    # one spread of shades, averaged to a flat colour at the mipmap levels a browser draws a card at, a
    # texel for eight across: each card a smooth flake, grey "feathers", a bob's blocks.)
    centres = (np.arange(LOCKS) + 0.5) / LOCKS * 2 - 1 + rng.uniform(-0.08, 0.08, LOCKS)
    lock_lo, lock_hi = strands[3]
    lights = rng.permutation(np.linspace(lock_lo, lock_hi, LOCKS)) * rng.uniform(0.97, 1.03, LOCKS)
    for _k in range(96 if fine else 64):
        lock = int(rng.integers(LOCKS))
        side = rng.uniform(-1, 1)
        side = np.sign(side) * abs(side) ** 1.15
        if fine:
            side = float(np.clip(centres[lock] + rng.normal(0.0, 0.55 / LOCKS), -1, 1))
        longest = 1.0 - spread[0] * abs(side) ** 1.5
        end = longest * (1 - spread[1] * rng.random() ** 1.5)
        start = rng.random() ** 3 * 0.06                      # roots staggered: no straight edge at v = 0
        gather = 1 - 0.3 * (spread[1] / 0.45) * _smooth(0.35, 1.0, v)
        period, phase = rng.uniform(80, 260), rng.random() * 6.3
        x = mid + side * (mid - 2.5) * gather + rng.uniform(0.2, 0.9 if fine else 1.6) * np.sin(v * rows / period + phase)
        if curly:
            x = x + rng.uniform(0.8, 1.8) * np.sin(v * rows / rng.uniform(5, 11) + phase)
        w = rng.uniform(0.5, 1.1) if fine else rng.uniform(0.6, 1.5)
        half = w * np.clip((end - v) / 0.1, 0, 1) ** 0.6 * np.clip((v - start) / 0.03, 0, 1) * (v < end)
        dark = rng.random() < (strands[1] if fine else 0.12)
        shade = ((rng.uniform(0.8, 0.88) if dark else rng.uniform(*strands[0])) * lights[lock] if fine else
                 (rng.uniform(0.62, 0.78) if dark else rng.uniform(0.84, 1.14))) * tone
        # A strand's own slow variation of shade along it.
        along = 1 + (0.05 if fine else 0.1) * np.sin(v * rows / rng.uniform(40, 120) + phase)
        _strand(a, lit, v, x, half, 1.0, shade * along)
    # (Curls keep their strands in the alpha: a coil is short frizz, and the curls' hairline is their ends.)
    return (a if curly else clump_outline(rng, v, cw, spread, point)), lit


def _soften(lit: np.ndarray, sd: float) -> np.ndarray:
    """``lit`` (rows, width) blurred across its width by a Gaussian of ``sd`` columns (edges held).

    >>> x = np.zeros((1, 9), np.float32); x[0, 4] = 1
    >>> [round(float(v), 2) for v in _soften(x, 1.0)[0, 2:7]]
    [0.05, 0.24, 0.4, 0.24, 0.05]
    """
    k = np.arange(-int(np.ceil(3 * sd)), int(np.ceil(3 * sd)) + 1)
    w = np.exp(-0.5 * (k / sd) ** 2)
    w /= w.sum()
    pad = np.pad(lit, ((0, 0), (len(k) // 2, len(k) // 2)), mode="edge")
    out = np.zeros_like(lit)
    for i, wi in enumerate(w):
        out += wi * pad[:, i:i + lit.shape[1]]
    return out


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
        a, lit = _clump(rng, n // WISP_ROWS if wisp else n, cw, curly, rng.uniform(*TONE), wisp,
                        SPREAD.get(style, SPREAD["long"]), POINT.get(style),
                        STRANDS.get(style, (STRAND, 0.04, GAP, LOCK_LIGHT)))
        if not (curly or wisp or style in STRANDS):   # (the sleek caps keep their fine strands)
            lit = _soften(lit, SOFTEN * SIZE / WIDTH)
        if wisp:        # (the column's first rows: WISP_ROWS)
            a, lit = np.pad(a, ((0, n - len(a)), (0, 0))), np.pad(lit, ((0, n - len(lit)), (0, 0)), mode="edge")
        # Root to tip: dark at the root (the shade inside the hair), lighter towards the tip.
        root, reach, tip_light = ROOT[style]
        at = np.minimum(v * WISP_ROWS, 1.0) if wisp else v
        lit = lit * (root + (1 - root) * _smooth(0.0, reach, at)) * (1 + tip_light * _smooth(0.45, 1.0, at))
        alpha[:, c * cw:(c + 1) * cw] = a
        light[:, c * cw:(c + 1) * cw] = lit
        tip[:, c * cw:(c + 1) * cw] = _smooth(0.3, 1.0, at) * min(1.0, tip_light * 10)
    shade, cut = _shell(rng, curly, style in SLEEK)
    light[:, n // 2:] = shade
    alpha[:, n // 2:] = cut
    # Pairs of columns averaged (the light weighted by alpha, so clear texels do not darken an edge).
    pair = alpha[:, 0::2] + alpha[:, 1::2]
    lit = light[:, 0::2] * alpha[:, 0::2] + light[:, 1::2] * alpha[:, 1::2]
    light = np.where(pair > 1e-3, lit / np.maximum(pair, 1e-3), (light[:, 0::2] + light[:, 1::2]) / 2)
    alpha = pair / 2
    tip = tip[:, 0::2]
    # Alpha kept as the top byte of a little-endian RGBA word (hair_texture ors the colour in).
    return {"light": np.clip(light / LIGHT_MAX * 255 + 0.5, 0, 255).astype(np.uint8),
            "tip": np.clip(np.round(tip * (TIPS - 1)), 0, TIPS - 1).astype(np.uint8),
            "alpha": np.clip(alpha * 255 + 0.5, 0, 255).astype("<u4") << 24}


def _shell(rng, curly: bool, sleek: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """The scalp layer's half (see the module's text): the roots' shade, opaque to about FILL_TO and thinning
    out by FILL_END, under strands (the hair's colour) that end one by one between TIP_FROM and TIP_TO, fewer
    and fainter the farther out; curly hair's short and kinked over a mottled shade (coils seen end on).

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
    faint = 1 - 0.55 * _smooth(FILL_TO, TIP_TO, h)                  # the last hairs fine and faint
    strands = fine * (0.9 - 0.45 * _smooth(TIP_FROM - 0.04, TIP_FROM, h)) * faint * _smooth(FILL_TO, FILL_TO - 0.06, h)
    # The fill's edge wanders round the head (a sum of slow waves over the layer's columns).
    # (Slow ones only: a wave a few centimetres long drew notches in the hairline.)
    k = np.arange(1, 7)
    waves = (np.sin(np.outer(x[0] / w * 2 * np.pi, k * 3) + rng.random(6) * 6.3) / k ** 1.5).sum(1) / 1.6
    at = 0.03 * waves[None, :]
    fill = _smooth(FILL_END + at, FILL_TO + at, h)
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
        deep = 1 - 0.45 * _smooth(0.8, 0.97, h) * _smooth(1.1, 0.98, h)
        hair = hair * (0.86 + 0.14 * blob) * deep
        root = root * (0.9 + 0.1 * blob) * deep
    # Where the fill thins, its shade is the strands' (a dark fill between light strands there drew dark
    # specks along the hairline, a texel each).
    root = root + (hair - root) * _smooth(FILL_TO - 0.05, FILL_TO + 0.05, h)
    if sleek:
        # (...from a little inside the hairline: the roots' shade stays where the layer fades into the skin.)
        lit = 1.08 * hair * (0.94 + 0.06 * np.sin(x * 0.9 + y / 53.0))
        root = root + (lit - root) * _smooth(FILL_TO - 0.06, FILL_TO - 0.16, h)
    shade = (hair * strands + root * fill * (1 - strands)) / np.maximum(alpha, 1e-3)
    shade = np.where(alpha > 1e-3, shade, hair)
    return shade.astype(np.float32), alpha.astype(np.float32)


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
    return SCATTER * float(_smooth(SCATTER_FROM, SCATTER_FULL, level))


@lru_cache(maxsize=32)
def hair_texture(color: str, style: str) -> np.ndarray:
    """RGBA (HEIGHT, WIDTH, 4) uint8: the atlas for ``style`` in ``color`` (read-only); in light hair the scalp
    layer's roots' shade lifted by :func:`scatter`."""
    p, lift = pattern(style), scatter(color, style)
    if lift > 0:
        light = p["light"].copy()
        shell = light[:, WIDTH // 2:].astype(np.float64)
        full = 255 / LIGHT_MAX
        light[:, WIDTH // 2:] = np.where(shell < full, shell + (full - shell) * lift, shell).round().astype(light.dtype)
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
